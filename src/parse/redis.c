/*
 * redis.c: redis-benchmark's output as lkp stats.
 *
 * Quick tests ("INCR: 1000.00 requests per second") are printed as they
 * come ("INCR: 1000.00").  The "====== SET ======" and "====== GET ======"
 * sections, one per benchmark process, give
 *
 *     set_total_throughput_rps, get_...   sum of "throughput summary"s
 *     set_total_time_sec, get_...         sum of "requests completed in"s
 *     set_avg_throughput_rps, get_...     their means
 *     set_avg_time_sec, get_...
 *
 * and from each section's latency distribution ("99.00% <= 3
 * milliseconds", cumulative; a missing bucket repeats the one before, 0
 * at first): per millisecond bucket i with a non-zero mean over the
 * sections, "set_latency_<i>ms%: <mean %>", and "set_latency_<P>%_ms: <i>"
 * at the first bucket whose mean passes P = 90, 95, 99, 99.9.
 *
 * As in lkp, a section's distribution is shared by every summary in it.
 */
#include <stdbool.h>

#include "parse/bench_util.h"

/* "X: N.N requests per second" lines printed as "<key>: N.N". */
static const struct quick {
	const char *prefix;     /* ERE before ": N.N requests per second$" */
	const char *key;
} quick[] = {
	{ "PING_INLINE", "PING_INLINE" },
	{ "PING_BULK", "PING_BULK" },
	{ "INCR", "INCR" },
	{ "LPUSH", "LPUSH" },
	{ "RPUSH", "RPUSH" },
	{ "LPOP", "LPOP" },
	{ "RPOP", "RPOP" },
	{ "SADD", "SADD" },
	{ "HSET", "HSET" },
	{ "SPOP", "SPOP" },
	{ "LPUSH .needed to benchmark LRANGE.", "LPUSH_LRANGE" },
	{ "LRANGE_100 .first 100 elements.", "LRANGE_100" },
	{ "LRANGE_300 .first 300 elements.", "LRANGE_300" },
	{ "LRANGE_500 .first 450 elements.", "LRANGE_500" },
	{ "LRANGE_600 .first 600 elements.", "LRANGE_600" },
	{ "MSET .10 keys.", "MSET" },
};
#define NR_QUICK (sizeof(quick) / sizeof(quick[0]))

enum { RX_SET, RX_GET, RX_SUMMARY, RX_COMPLETED, RX_LATENCY, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_SET] = "====== SET ======$",
	[RX_GET] = "====== GET ======$",
	[RX_SUMMARY] = "  throughput summary: ([0-9]+\\.[0-9]+) requests per second$",
	[RX_COMPLETED] = "requests completed in ([0-9]+\\.[0-9]+) seconds$",
	[RX_LATENCY] = "^([0-9]+\\.[0-9]+)% <= ([0-9]+) milliseconds$",
};

/* The percentiles lkp reports, and their spelling in the stat names. */
static const char *const percentile_strs[] = { "90", "95", "99", "99.9" };
static const double percentiles[] = { 90, 95, 99, 99.9 };

/* SET or GET: the sums, and the distribution of each summary. */
struct series {
	double sum, time_sum;
	long num, time_num;
	struct lat_series lat;
	long cur;               /* the current section's table, or -1 */
};

static void show_latencies(const struct lat_tables *t, const struct series *s,
			   const char *name, struct strbuf *out)
{
	struct dvec col = DVEC_INIT;
	size_t width = lat_width(t, &s->lat), pi = 0;

	for (size_t i = 0; i < width; i++) {
		double avg;

		lat_column(t, &s->lat, i, &col);
		if (rb_fsum(col.v, col.nr, 0.0) == 0)
			continue;
		avg = rb_fsum(col.v, col.nr, 0.0) / (double)col.nr;
		put_float(out, avg, "%s_latency_%zums%%", name, i);
		while (pi < 4 && avg > percentiles[pi])
			put_int(out, (long long)i, "%s_latency_%s%%_ms", name, percentile_strs[pi++]);
		if (avg > percentiles[3])
			break;
	}
	dvec_release(&col);
}

static int parse_redis(const struct parse_input *in, struct strbuf *out)
{
	const char *quick_patterns[NR_QUICK];
	struct strbuf pat[NR_QUICK];
	struct rx re[RX_NR], qre[NR_QUICK];
	struct rx_sub m[3];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf g = STRBUF_INIT, g2 = STRBUF_INIT;
	struct series set = { 0, 0, 0, 0, LAT_SERIES_INIT, -1 };
	struct series get = { 0, 0, 0, 0, LAT_SERIES_INIT, -1 };
	struct series *cur = &set;
	struct lat_tables tables = LAT_TABLES_INIT;
	int ret = 0;

	for (size_t i = 0; i < NR_QUICK; i++) {
		strbuf_init(&pat[i], 0);
		strbuf_addf(&pat[i], "%s: ([0-9]+).([0-9]+) requests per second$",
			    quick[i].prefix);
		quick_patterns[i] = pat[i].buf;
	}
	rx_compile_all(re, patterns, RX_NR);
	rx_compile_all(qre, quick_patterns, NR_QUICK);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		size_t q;

		if (rx_match(&re[RX_SET], l, NULL, 0) || rx_match(&re[RX_GET], l, NULL, 0)) {
			cur = rx_match(&re[RX_SET], l, NULL, 0) ? &set : &get;
			cur->cur = (long)lat_table_new(&tables);
		} else if (rx_match(&re[RX_SUMMARY], l, m, 2)) {
			if (cur->cur < 0)
				goto no_section;
			cur->sum += rb_to_f(rx_group(&g, l, m, 1));
			cur->num++;
			lat_series_add(&cur->lat, (size_t)cur->cur);
		} else if (rx_match(&re[RX_COMPLETED], l, m, 2)) {
			cur->time_sum += rb_to_f(rx_group(&g, l, m, 1));
			cur->time_num++;
		} else if (rx_match(&re[RX_LATENCY], l, m, 3)) {
			long long ms = rb_to_i(rx_group(&g, l, m, 2));

			if (cur->cur < 0)
				goto no_section;
			if (ms > 1000000) {
				ret = parse_error(in, "redis", ln.no, "latency bucket too large");
				goto out;
			}
			if (lat_table_set(&tables, (size_t)cur->cur, (size_t)ms,
					  rb_to_f(rx_group(&g, l, m, 1))) < 0) {
				ret = parse_error(in, "redis", ln.no, "latency tables larger than "
						  "%u buckets", LAT_MAX_CELLS);
				goto out;
			}
		} else {
			for (q = 0; q < NR_QUICK; q++)
				if (rx_match(&qre[q], l, m, 3))
					break;
			if (q < NR_QUICK) {
				rx_group(&g, l, m, 1);
				rx_group(&g2, l, m, 2);
				strbuf_addf(out, "%s: %s.%s\n", quick[q].key, g.buf, g2.buf);
			}
		}
	}
	if (!set.num || !get.num || !set.time_num || !get.time_num) {
		ret = parse_error(in, "redis", line_iter_last(&it), "expected SET and GET "
				  "sections with 'throughput summary' and 'requests completed' lines");
		goto out;
	}
	put_float(out, set.sum, "set_total_throughput_rps");
	put_float(out, get.sum, "get_total_throughput_rps");
	put_float(out, set.time_sum, "set_total_time_sec");
	put_float(out, get.time_sum, "get_total_time_sec");
	put_float(out, set.sum / (double)set.num, "set_avg_throughput_rps");
	put_float(out, get.sum / (double)get.num, "get_avg_throughput_rps");
	put_float(out, set.time_sum / (double)set.time_num, "set_avg_time_sec");
	put_float(out, get.time_sum / (double)get.time_num, "get_avg_time_sec");
	if (lat_normalize(&tables, &set.lat) < 0 || lat_normalize(&tables, &get.lat) < 0) {
		ret = parse_error(in, "redis", line_iter_last(&it),
				  "latency tables larger than %u buckets", LAT_MAX_CELLS);
		goto out;
	}
	show_latencies(&tables, &set, "set", out);
	show_latencies(&tables, &get, "get", out);
	goto out;
no_section:
	ret = parse_error(in, "redis", ln.no,
			  "expected a '====== SET ======' or '====== GET ======' header first");
out:
	lat_tables_release(&tables);
	lat_series_release(&set.lat);
	lat_series_release(&get.lat);
	for (size_t i = 0; i < NR_QUICK; i++)
		strbuf_release(&pat[i]);
	strbuf_release(&g);
	strbuf_release(&g2);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	rx_free_all(qre, NR_QUICK);
	return ret;
}

const struct parser parser_redis = { "redis", parse_redis, NULL };
