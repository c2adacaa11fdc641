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
	struct lines ls;
	struct words cols = WORDS_INIT, val = WORDS_INIT, name = WORDS_INIT;
	size_t start = out->len;
	int ret = 0;

	lines_init(&ls, in);
	while (lines_next(&ls)) {
		const char *key;

		words_split_on(&cols, ls.buf.buf, ',');
		if (cols.nr != 4)
			continue;
		words_split(&name, cols.v[3]);
		if (name.nr != 1 || !(key = lkp_name(name.v[0])))
			continue;
		words_split(&val, cols.v[1]);
		if (val.nr != 1 || !is_decimal(val.v[0])) {
			ret = parse_error(in, "perf-bench-numa-mem", ls.no,
					  "expected a number before the unit of '%s'",
					  name.v[0]);
			goto out;
		}
		put_str(out, val.v[0], "%s", key);
	}
	if (out->len == start)
		ret = parse_error(in, "perf-bench-numa-mem", lines_last(&ls),
				  "no results found (expected 'main, <value>, <unit>, <metric>' lines)");
out:
	words_release(&cols);
	words_release(&val);
	words_release(&name);
	lines_release(&ls);
	return ret;
}

const struct parser parser_perf_bench_numa_mem = {
	"perf-bench-numa-mem", parse_perf_bench_numa_mem, NULL
};
