/*
 * aim7.c: AIM Multiuser Benchmark (Suite VII) results as lkp stats.
 *
 * lkp's parser is awk: the line after each table header (a line holding
 * "Tasks", then "jobs/min", then "jti") is a result row,
 *
 *     Tasks    jobs/min  jti  jobs/min/task      real       cpu
 *      3000   484435.52   97       161.4785     37.16   1179.86   <date>
 *
 * whose fields 2 to 6 are printed as they stand: jobs-per-min, jti,
 * jobs-per-min-per-task, real and cpu (the seed reports' key metric is
 * aim7.jobs-per-min; lkp's stat denylist hides the other four).  The
 * row is the line after the header whatever it holds, as awk's getline
 * takes it.  Where lkp would print empty or non-numeric values (a short
 * row, a header on the last line) this parser stops with an error
 * naming the line, and an output without any header is an error too.
 */
#include "parse/bench_util.h"

static const char *const names[] = {
	"jobs-per-min", "jti", "jobs-per-min-per-task", "real", "cpu"
};
#define NR_NAMES (sizeof(names) / sizeof(names[0]))

static int parse_aim7(const struct parse_input *in, struct strbuf *out)
{
	struct rx header;
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	static const char *const pattern[] = { "Tasks.*jobs/min.*jti" };
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(&header, pattern, 1);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		size_t header_no = ln.no;

		if (!rx_match(&header, line.buf, NULL, 0))
			continue;
		if (!line_next_str(&it, &ln, &line)) {
			ret = parse_error(in, "aim7", header_no, "expected a result row "
					  "after the 'Tasks jobs/min jti ...' header");
			goto out;
		}
		split_ws_str(&f, line.buf);
		if (f.nr < 1 + NR_NAMES) {
			ret = parse_error(in, "aim7", ln.no, "expected '<tasks> <jobs/min> <jti> "
					  "<jobs/min/task> <real> <cpu>', found %zu fields", f.nr);
			goto out;
		}
		for (size_t i = 0; i < NR_NAMES; i++)
			if (!is_decimal(f.str[1 + i])) {
				ret = parse_error(in, "aim7", ln.no, "expected a number for %s "
						  "(field %zu), got '%s'", names[i], i + 2,
						  f.str[1 + i]);
				goto out;
			}
		for (size_t i = 0; i < NR_NAMES; i++)
			put_str(out, f.str[1 + i], "%s", names[i]);
	}
	if (out->len == start)
		ret = parse_error(in, "aim7", line_iter_last(&it),
				  "no 'Tasks jobs/min jti ...' result table found");
out:
	field_list_release(&f);
	strbuf_release(&line);
	rx_free_all(&header, 1);
	return ret;
}

const struct parser parser_aim7 = { "aim7", parse_aim7, NULL };
