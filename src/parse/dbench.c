/*
 * dbench.c: dbench's (and tbench's, which prints the same summary)
 * output as lkp stats.
 *
 * Each run ends with "Throughput 13563.9 MB/sec  128 clients  128 procs
 * max_latency=53.132 ms".  Over all runs, as lkp:
 *
 *     throughput_MB/s, throughput_MB/s_harmonic_mean   rounded to 2 decimals
 *     clients, procs                                   of the last run
 *     max_latency, max_latency_harmonic_mean           rounded to 2 decimals
 */
#include <string.h>

#include "parse/bench_util.h"

int parse_dbench_format(const struct parse_input *in, struct strbuf *out,
			const char *name)
{
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list halves = FIELD_LIST_INIT, words = FIELD_LIST_INIT, lat = FIELD_LIST_INIT;
	struct dvec throughput = DVEC_INIT, max_latency = DVEC_INIT;
	long long clients = 0, procs = 0;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		/* lkp's pattern ^Throughput* means "Throughpu" and any 't's */
		if (strncmp(line.buf, "Throughpu", 9))
			continue;
		split_char_str(&halves, line.buf, '=');
		if (halves.nr < 2) {
			ret = parse_error(in, name, ln.no, "expected 'max_latency=<ms>'");
			goto out;
		}
		split_ws_str(&words, halves.str[0]);
		split_ws_str(&lat, halves.str[1]);
		if (words.nr < 6 || !is_decimal(words.str[1]) || !lat.nr) {
			ret = parse_error(in, name, ln.no, "expected 'Throughput <MB/s> "
					  "MB/sec <N> clients <N> procs max_latency=<ms> ms'");
			goto out;
		}
		dvec_push(&throughput, rb_to_f(words.str[1]));
		clients = rb_to_i(words.str[3]);
		procs = rb_to_i(words.str[5]);
		dvec_push(&max_latency, rb_to_f(lat.str[0]));
	}
	if (!throughput.nr) {
		ret = parse_error(in, name, line_iter_last(&it),
				  "no 'Throughput <MB/s> MB/sec ...' summary found");
		goto out;
	}
	put_float(out, rb_round(lkp_average(throughput.v, throughput.nr), 2), "throughput_MB/s");
	put_float(out, rb_round(lkp_harmonic_mean(throughput.v, throughput.nr), 2),
		  "throughput_MB/s_harmonic_mean");
	put_int(out, clients, "clients");
	put_int(out, procs, "procs");
	put_float(out, rb_round(lkp_average(max_latency.v, max_latency.nr), 2), "max_latency");
	put_float(out, rb_round(lkp_harmonic_mean(max_latency.v, max_latency.nr), 2),
		  "max_latency_harmonic_mean");
out:
	field_list_release(&halves);
	field_list_release(&words);
	field_list_release(&lat);
	dvec_release(&throughput);
	dvec_release(&max_latency);
	strbuf_release(&line);
	return ret;
}

static int parse_dbench(const struct parse_input *in, struct strbuf *out)
{
	return parse_dbench_format(in, out, "dbench");
}

const struct parser parser_dbench = { "dbench", parse_dbench, NULL };
