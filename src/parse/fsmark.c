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
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	struct dvec files = DVEC_INIT, overhead = DVEC_INIT;
	bool header = false;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		if (!header) {
			header = !strncmp(line.buf, "FSUse", 5);
			continue;
		}
		split_ws_str(&f, line.buf);
		if (f.nr != 5)
			break;
		if (!is_decimal(f.str[3]) || !is_decimal(f.str[4])) {
			ret = parse_error(in, "fsmark", ln.no,
					  "expected numbers in the Files/sec and App Overhead columns");
			goto out;
		}
		dvec_push(&files, rb_to_f(f.str[3]));
		dvec_push(&overhead, rb_to_f(f.str[4]));
	}
	if (!files.nr) {
		ret = parse_error(in, "fsmark", line_iter_last(&it), header ?
				  "no result rows after the 'FSUse%%' header" :
				  "no 'FSUse%%  Count  Size  Files/sec  App Overhead' header");
		goto out;
	}
	put_float(out, lkp_average(files.v, files.nr), "files_per_sec");
	put_float(out, lkp_average(overhead.v, overhead.nr), "app_overhead");
out:
	field_list_release(&f);
	dvec_release(&files);
	dvec_release(&overhead);
	strbuf_release(&line);
	return ret;
}

const struct parser parser_fsmark = { "fsmark", parse_fsmark, NULL };
