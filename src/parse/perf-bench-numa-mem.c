/*
 * perf-bench-numa-mem.c: `perf bench numa mem` results as lkp stats.
 *
 * perf ends with one "main,  <value>, <unit>,  <metric>" line per metric;
 * a table maps perf's short metric names to lkp's stat names.  Values are
 * copied as printed ("4.000").  Metrics lkp does not name are skipped.
 */
#include <string.h>

#include "parse/bench_util.h"

static const struct metric {
	const char *perf;
	const char *lkp;
} metrics[] = {
	{ "NUMA-convergence-latency", "secs_latency" },
	{ "runtime-max/thread", "secs_slowest" },
	{ "runtime-min/thread", "secs_fastest" },
	{ "runtime-avg/thread", "secs_avg" },
	{ "spread-runtime/thread", "max_avg_diff" },
	{ "data/thread", "GB_per_thread" },
	{ "data-total", "GB_total" },
	{ "runtime/byte/thread", "nsecs_byte_thread" },
	{ "thread-speed", "GB_sec_thread" },
	{ "total-speed", "GB_sec_total" },
};

static const char *lkp_name(const char *perf)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (!strcmp(metrics[i].perf, perf))
			return metrics[i].lkp;
	return NULL;
}

static int parse_perf_bench_numa_mem(const struct parse_input *in, struct strbuf *out)
{
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list cols = FIELD_LIST_INIT, val = FIELD_LIST_INIT, name = FIELD_LIST_INIT;
	size_t start = out->len;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *key;

		split_char_str(&cols, line.buf, ',');
		if (cols.nr != 4)
			continue;
		split_ws_str(&name, cols.str[3]);
		if (name.nr != 1 || !(key = lkp_name(name.str[0])))
			continue;
		split_ws_str(&val, cols.str[1]);
		if (val.nr != 1 || !is_decimal(val.str[0])) {
			ret = parse_error(in, "perf-bench-numa-mem", ln.no,
					  "expected a number before the unit of '%s'",
					  name.str[0]);
			goto out;
		}
		put_str(out, val.str[0], "%s", key);
	}
	if (out->len == start)
		ret = parse_error(in, "perf-bench-numa-mem", line_iter_last(&it),
				  "no results found (expected 'main, <value>, <unit>, <metric>' lines)");
out:
	field_list_release(&cols);
	field_list_release(&val);
	field_list_release(&name);
	strbuf_release(&line);
	return ret;
}

const struct parser parser_perf_bench_numa_mem = {
	"perf-bench-numa-mem", parse_perf_bench_numa_mem, NULL
};
