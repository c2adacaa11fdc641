/*
 * ebizzy.c: ebizzy's output as lkp stats, per iteration:
 *
 *   "21348 records/s 10675 10672"  throughput: 21348
 *                                  throughput.per_thread.min: 10672
 *                                  throughput.per_thread.max: 10675
 *                                  throughput.per_thread.stddev_percent:
 *                                      standard deviation of the per-thread
 *                                      figures * 100 / throughput (lkp
 *                                      divides by the total, not the mean)
 *   "real  3.00 s"                 time.real: 3.0  (likewise user, sys)
 *
 * The per-thread stats need the per-thread figures (lkp's ebizzy prints
 * them); without them only throughput is printed.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/bench_util.h"

static int parse_records(const struct parse_input *in, struct strbuf *out, size_t no,
			 const char *line)
{
	struct dvec per = DVEC_INIT;
	char *copy = strdup(line), *save = NULL, *tok;
	double total;
	int ret = 0;

	if (!copy)
		return parse_error(in, "ebizzy", no, "out of memory");
	tok = strtok_r(copy, " \t", &save);
	if (!tok || !is_decimal(tok)) {
		ret = parse_error(in, "ebizzy", no, "expected '<number> records/s ...'");
		goto out;
	}
	total = rb_to_f(tok);
	strtok_r(NULL, " \t", &save);   /* "records/s" */
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (!is_decimal(tok)) {
			ret = parse_error(in, "ebizzy", no, "per-thread figure '%s' is no number", tok);
			goto out;
		}
		dvec_push(&per, rb_to_f(tok));
	}
	put_int(out, (long long)total, "throughput");
	if (per.nr) {
		double lo = per.v[0], hi = per.v[0];

		for (size_t i = 1; i < per.nr; i++) {
			lo = per.v[i] < lo ? per.v[i] : lo;
			hi = per.v[i] > hi ? per.v[i] : hi;
		}
		put_int(out, (long long)lo, "throughput.per_thread.min");
		put_int(out, (long long)hi, "throughput.per_thread.max");
		put_float(out, total > 0 ? lkp_stddev(per.v, per.nr) * 100 / total : 0,
			  "throughput.per_thread.stddev_percent");
	}
out:
	dvec_release(&per);
	free(copy);
	return ret;
}

static int parse_ebizzy(const struct parse_input *in, struct strbuf *out)
{
	static const char *const times[] = { "real", "user", "sys" };
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	bool seen = false;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (!ret && line_next_str(&it, &ln, &line)) {
		if (strstr(line.buf, " records/s")) {
			ret = parse_records(in, out, ln.no, line.buf);
			seen = true;
			continue;
		}
		for (size_t i = 0; i < 3; i++) {
			size_t n = strlen(times[i]);
			char *end;
			double v;

			if (strncmp(line.buf, times[i], n) || (line.buf[n] != ' ' && line.buf[n] != '\t'))
				continue;
			v = strtod(line.buf + n, &end);
			if (end == line.buf + n || strcmp(end, " s")) {
				ret = parse_error(in, "ebizzy", ln.no, "expected '%s <seconds> s'", times[i]);
				break;
			}
			put_float(out, v, "time.%s", times[i]);
		}
	}
	if (!ret && !seen)
		ret = parse_error(in, "ebizzy", line_iter_last(&it), "no '<number> records/s' line found");
	strbuf_release(&line);
	return ret;
}

const struct parser parser_ebizzy = { "ebizzy", parse_ebizzy, NULL };
