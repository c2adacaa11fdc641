/*
 * perf-bench-futex.c: `perf bench futex` summaries as lkp stats.
 *
 * Each sub-benchmark ends with one summary line; a table maps its form to
 * the stat names, the numbers copied as printed:
 *
 *   hash, lock-pi  "Averaged N operations/sec (+- S%), ..."  ops/s, stddev%
 *   wake           "Wokeup N of M threads in T ms (+-S%)"    wokeup_time_ms, stddev%
 *   requeue        "Requeued N of M threads in T ms (+-S%)"  requeued_time_ms, stddev%
 *   wake-parallel  "Avg per-thread latency (waking W/N threads) in T ms (+-S%)"
 *                                                 avg_per_thread_latency_ms, stddev%
 *
 * As in lkp, all but "Averaged" are anchored at the line's start: the
 * per-run "[Run i]: ..." lines do not match (wake-parallel's carry a
 * "(+-S%)" of their own).  lkp reads W and N as one digit each, so a run
 * of 10 threads or more gives no stat there, and none here.
 */
#include "parse/bench_util.h"

static const struct summary {
	const char *pattern;    /* group 1: the value, group 2: the stddev% */
	const char *key;
} summaries[] = {
	{ "Averaged ([0-9.]+) operations/sec \\(\\+- ([0-9.]+)%\\)", "ops/s" },
	{ "^Wokeup [0-9]+ of [0-9]+ threads in ([0-9.]+) ms \\(\\+-([0-9.]+)%\\)",
	  "wokeup_time_ms" },
	{ "^Requeued [0-9]+ of [0-9]+ threads in ([0-9.]+) ms \\(\\+-([0-9.]+)%\\)",
	  "requeued_time_ms" },
	{ "^Avg per-thread latency \\(waking [0-9]/[0-9] threads\\) in ([0-9.]+) ms "
	  "\\(\\+-([0-9.]+)%\\)", "avg_per_thread_latency_ms" },
};
#define NR_SUMMARIES (sizeof(summaries) / sizeof(summaries[0]))

static int parse_perf_bench_futex(const struct parse_input *in, struct strbuf *out)
{
	const char *patterns[NR_SUMMARIES];
	struct rx re[NR_SUMMARIES];
	struct rx_sub m[3];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf g = STRBUF_INIT;
	size_t start = out->len;
	int ret = 0;

	for (size_t i = 0; i < NR_SUMMARIES; i++)
		patterns[i] = summaries[i].pattern;
	rx_compile_all(re, patterns, NR_SUMMARIES);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		for (size_t i = 0; i < NR_SUMMARIES; i++) {
			if (!rx_match(&re[i], l, m, 3))
				continue;
			put_str(out, rx_group(&g, l, m, 1), "%s", summaries[i].key);
			put_str(out, rx_group(&g, l, m, 2), "stddev%%");
			break;
		}
	}
	if (out->len == start)
		ret = parse_error(in, "perf-bench-futex", line_iter_last(&it),
				  "no summary found (expected 'Averaged N operations/sec "
				  "(+- S%%)', '<Wokeup|Requeued> N of M threads in T ms (+-S%%)' or "
				  "'Avg per-thread latency (waking D/D threads) in T ms (+-S%%)', "
				  "one digit each as lkp reads them)");
	strbuf_release(&g);
	strbuf_release(&line);
	rx_free_all(re, NR_SUMMARIES);
	return ret;
}

const struct parser parser_perf_bench_futex = { "perf-bench-futex", parse_perf_bench_futex, NULL };
