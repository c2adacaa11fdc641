/*
 * fsmark.c: fs_mark's output as lkp stats.
 *
 * After the "FSUse%  Count  Size  Files/sec  App Overhead" header, each
 * 5-column row is one loop; the first row of another shape ends the table
 * ("Average Files/sec: ...").  lkp prints the means, as Floats:
 *
 *     files_per_sec, app_overhead
 */
#include <string.h>

#include "parse/bench_util.h"

static int parse_fsmark(const struct parse_input *in, struct strbuf *out)
{
	struct lines ls;
	struct words f = WORDS_INIT;
	struct dvec files = DVEC_INIT, overhead = DVEC_INIT;
	bool header = false;
	int ret = 0;

	lines_init(&ls, in);
	while (lines_next(&ls)) {
		if (!header) {
			header = !strncmp(ls.buf.buf, "FSUse", 5);
			continue;
		}
		words_split(&f, ls.buf.buf);
		if (f.nr != 5)
			break;
		if (!is_decimal(f.v[3]) || !is_decimal(f.v[4])) {
			ret = parse_error(in, "fsmark", ls.no,
					  "expected numbers in the Files/sec and App Overhead columns");
			goto out;
		}
		dvec_push(&files, rb_to_f(f.v[3]));
		dvec_push(&overhead, rb_to_f(f.v[4]));
	}
	if (!files.nr) {
		ret = parse_error(in, "fsmark", lines_last(&ls), header ?
				  "no result rows after the 'FSUse%%' header" :
				  "no 'FSUse%%  Count  Size  Files/sec  App Overhead' header");
		goto out;
	}
	put_float(out, lkp_average(files.v, files.nr), "files_per_sec");
	put_float(out, lkp_average(overhead.v, overhead.nr), "app_overhead");
out:
	words_release(&f);
	dvec_release(&files);
	dvec_release(&overhead);
	lines_release(&ls);
	return ret;
}

const struct parser parser_fsmark = { "fsmark", parse_fsmark, NULL };
