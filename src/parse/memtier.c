/*
 * memtier.c: memtier_benchmark's "ALL STATS" reports as lkp stats.
 *
 * lkp runs one memtier_benchmark per server instance, all into one file.
 * From the Sets/Gets/Waits/Totals rows of every report (columns Ops/sec,
 * Hits/sec, Misses/sec, Avg/p50/p99/p99.9 Latency, KB/sec; "---" reads as
 * 0), as lkp:
 *
 *     total_<type>_<unit>    sum over reports (sets, gets, waits, totals)
 *     avg_<type>_<unit>      mean over reports
 *     gets_miss_rate_%       100 * misses / (hits + misses), when non-zero
 *     <set|get>_latency_<P>%_ms   from the "Request Latency Distribution"
 *                            (cumulative % per 10us bucket): the first
 *                            bucket whose mean passes P = 90, 95, 99, 99.9
 *     preload_duration       copied, when printed
 *
 * lkp starts a new SET distribution at each report but keeps adding GET
 * buckets to one shared table, so every report's GET row is that table;
 * kept as is, since the fixtures (and past results) depend on it.
 */
#include <stdbool.h>
#include <string.h>

#include "parse/bench_util.h"

enum { SETS, GETS, WAITS, TOTALS, NR_TYPES };
static const char *const type_names[NR_TYPES] = { "sets", "gets", "waits", "totals" };
static const char *const type_rows[NR_TYPES] = { "Sets", "Gets", "Waits", "Totals" };

#define NR_COLS 9       /* the type name and 8 values */
static const char *const units[NR_COLS] = {
	"", "ops/s", "hits/s", "misses/s", "avg_latency_ms", "p50_latency_ms",
	"p99_latency_ms", "p99.9_latency_ms", "kb/s",
};

static const char *const percentile_strs[] = { "90", "95", "99", "99.9" };
static const double percentiles[] = { 90, 95, 99, 99.9 };

/* Buckets are 10us: 100 per millisecond; more than this is not a latency. */
#define MAX_BUCKET 100000000

struct histo {
	double sum[NR_COLS];
	long num[NR_COLS];
};

/* lkp's \d+\.\d+ and nothing else */
static bool is_fixed_point(const char *s)
{
	const char *p = s;

	while (is_digit(*p))
		p++;
	if (p == s || *p++ != '.' || !is_digit(*p))
		return false;
	while (is_digit(*p))
		p++;
	return !*p;
}

static void show_latencies(const struct lat_tables *t, const struct lat_series *s,
			   const char *name, struct strbuf *out)
{
	struct dvec col = DVEC_INIT;
	size_t width = lat_width(t, s), pi = 0;

	for (size_t i = 0; i < width; i++) {
		double avg;

		lat_column(t, s, i, &col);
		avg = rb_fsum(col.v, col.nr, 0.0);
		if (avg == 0)
			continue;
		avg /= (double)col.nr;
		while (pi < 4 && avg > percentiles[pi])
			put_float(out, (double)i / 100, "%s_latency_%s%%_ms", name,
				  percentile_strs[pi++]);
		if (avg > percentiles[3])
			break;
	}
	dvec_release(&col);
}

static int parse_memtier(const struct parse_input *in, struct strbuf *out)
{
	struct histo h[NR_TYPES];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	struct lat_tables tables = LAT_TABLES_INIT;
	struct lat_series set_lat = LAT_SERIES_INIT, get_lat = LAT_SERIES_INIT;
	size_t set_table, get_table;
	bool is_set = false;
	int ret = 0;

	memset(h, 0, sizeof(h));
	set_table = lat_table_new(&tables);
	get_table = lat_table_new(&tables);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		int t;

		for (t = 0; t < NR_TYPES; t++)
			if (!strncmp(l, type_rows[t], strlen(type_rows[t])))
				break;
		if (t < NR_TYPES) {
			split_ws_str(&f, l);
			if (f.nr > NR_COLS) {
				ret = parse_error(in, "memtier", ln.no,
						  "expected at most %d columns", NR_COLS);
				goto out;
			}
			for (size_t i = 1; i < f.nr; i++) {
				h[t].sum[i] += rb_to_f(f.str[i]);
				h[t].num[i]++;
			}
		} else if (!strncmp(l, "Request Latency Distribution", 28)) {
			set_table = lat_table_new(&tables);
		} else if (!strncmp(l, "SET", 3) || !strncmp(l, "GET", 3)) {
			double bucket;

			is_set = l[0] == 'S';
			split_ws_str(&f, l);
			if (f.nr < 3 || !is_decimal(f.str[1]) || !is_decimal(f.str[2])) {
				ret = parse_error(in, "memtier", ln.no,
						  "expected '%.3s <msec> <percent>'", l);
				goto out;
			}
			/* truncated as lkp's (msec * 100).to_i */
			bucket = rb_to_f(f.str[1]) * 100;
			if (!(bucket >= 0 && bucket < MAX_BUCKET)) {
				ret = parse_error(in, "memtier", ln.no, "latency out of range");
				goto out;
			}
			if (lat_table_set(&tables, is_set ? set_table : get_table,
					  (size_t)bucket, rb_to_f(f.str[2])) < 0) {
				ret = parse_error(in, "memtier", ln.no, "latency tables larger than "
						  "%u buckets", LAT_MAX_CELLS);
				goto out;
			}
		} else if (!strcmp(l, "---")) {
			if (is_set)
				lat_series_add(&set_lat, set_table);
			else
				lat_series_add(&get_lat, get_table);
		} else if (!strncmp(l, "preload duration: ", 18) && is_fixed_point(l + 18)) {
			put_str(out, l + 18, "preload_duration");
		}
	}
	for (int t = 0; t < NR_TYPES; t++)
		for (int i = 1; i < NR_COLS; i++)
			if (!h[t].num[i]) {
				ret = parse_error(in, "memtier", line_iter_last(&it),
						  "no complete '%s' row found", type_rows[t]);
				goto out;
			}
	for (int t = 0; t < NR_TYPES; t++)
		for (int i = 1; i < NR_COLS; i++)
			put_float(out, h[t].sum[i], "total_%s_%s", type_names[t], units[i]);
	for (int t = 0; t < NR_TYPES; t++) {
		for (int i = 1; i < NR_COLS; i++)
			put_float(out, h[t].sum[i] / (double)h[t].num[i], "avg_%s_%s",
				  type_names[t], units[i]);
		if (t == GETS) {
			double hits = h[t].sum[2] / (double)h[t].num[2];
			double misses = h[t].sum[3] / (double)h[t].num[3];

			if (hits + misses != 0)
				put_float(out, 100 * misses / (hits + misses), "gets_miss_rate_%%");
		}
	}
	if (lat_normalize(&tables, &set_lat) < 0 || lat_normalize(&tables, &get_lat) < 0) {
		ret = parse_error(in, "memtier", line_iter_last(&it),
				  "latency tables larger than %u buckets", LAT_MAX_CELLS);
		goto out;
	}
	show_latencies(&tables, &set_lat, "set", out);
	show_latencies(&tables, &get_lat, "get", out);
out:
	lat_tables_release(&tables);
	lat_series_release(&set_lat);
	lat_series_release(&get_lat);
	field_list_release(&f);
	strbuf_release(&line);
	return ret;
}

const struct parser parser_memtier = { "memtier", parse_memtier, NULL };
