/*
 * perf-bench-sched-messaging.c: `perf bench sched messaging` as lkp stats.
 *
 * perf prints "Total time: 0.055 [sec]" once per run; each becomes
 * "total_time_sec: <seconds>", the number copied as printed.
 */
#include "parse/bench_util.h"

static int parse_perf_bench_sched_messaging(const struct parse_input *in,
					    struct strbuf *out)
{
	static const char *const pattern[] = {
		"Total time:[[:space:]]*([0-9.]+)[[:space:]]*\\[sec\\]",
	};
	struct rx re[1];
	struct rx_sub m[2];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf g = STRBUF_INIT;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, pattern, 1);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line))
		if (rx_match(&re[0], line.buf, m, 2))
			put_str(out, rx_group(&g, line.buf, m, 1), "total_time_sec");
	if (out->len == start)
		ret = parse_error(in, "perf-bench-sched-messaging", line_iter_last(&it),
				  "expected a 'Total time: <seconds> [sec]' line");
	strbuf_release(&g);
	strbuf_release(&line);
	rx_free_all(re, 1);
	return ret;
}

const struct parser parser_perf_bench_sched_messaging = {
	"perf-bench-sched-messaging", parse_perf_bench_sched_messaging, NULL
};
