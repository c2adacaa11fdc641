/*
 * perf-bench-syscall.c: `perf bench syscall` as lkp stats.
 *
 * Each "# Executed N <name>() calls" section gives, numbers as printed
 * (thousands separators dropped from ops/sec):
 *
 *     <name>.total_time_sec, <name>.usecs_per_op, <name>.ops_per_sec
 */
#include "parse/bench_util.h"

enum { RX_EXECUTED, RX_TOTAL, RX_USECS, RX_OPS, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_EXECUTED] = "^# Executed [0-9,]+ ([[:alnum:]_]+)\\(\\) calls",
	[RX_TOTAL] = "Total time:[[:space:]]*([0-9.]+)[[:space:]]*\\[sec\\]",
	[RX_USECS] = "([0-9.]+)[[:space:]]*usecs/op",
	[RX_OPS] = "([0-9,]+)[[:space:]]*ops/sec",
};

static const char *const keys[RX_NR] = {
	[RX_TOTAL] = "total_time_sec",
	[RX_USECS] = "usecs_per_op",
	[RX_OPS] = "ops_per_sec",
};

static int parse_perf_bench_syscall(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[2];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT, val = STRBUF_INIT;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		int k;

		if (rx_match(&re[RX_EXECUTED], l, m, 2)) {
			rx_group(&name, l, m, 1);
			continue;
		}
		for (k = RX_TOTAL; k < RX_NR; k++)
			if (rx_match(&re[k], l, m, 2))
				break;
		if (k == RX_NR)
			continue;
		if (!name.len) {
			ret = parse_error(in, "perf-bench-syscall", ln.no,
					  "result before a '# Executed N <name>() calls' line");
			goto out;
		}
		rx_group(&val, l, m, 1);
		if (k == RX_OPS) {
			/* "1,234" -> "1234" */
			size_t j = 0;
			for (size_t i = 0; i < val.len; i++)
				if (val.buf[i] != ',')
					val.buf[j++] = val.buf[i];
			strbuf_setlen(&val, j);
		}
		put_str(out, val.buf, "%s.%s", name.buf, keys[k]);
	}
	if (out->len == start)
		ret = parse_error(in, "perf-bench-syscall", line_iter_last(&it),
				  "no results found (expected '# Executed N <name>() calls' sections)");
out:
	strbuf_release(&name);
	strbuf_release(&val);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_perf_bench_syscall = {
	"perf-bench-syscall", parse_perf_bench_syscall, NULL
};
