/*
 * perf-bench-mem.c: `perf bench mem memcpy/memset` as lkp stats.
 *
 * "# Running 'mem/<op>' benchmark:" names the operation, "# function
 * '<function>' (...)" the implementation measured next (until then
 * "default"), and each rate line "  8.245310 GB/sec" gives
 *
 *     <op>.<function>.<unit>_per_sec: <rate as printed>
 *
 * with unit one of bytes, KB, MB, GB.
 */
#include "parse/bench_util.h"

enum { RX_OP, RX_FUNCTION, RX_RATE, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_OP] = "^# Running 'mem/([[:alnum:]_]+)' benchmark:",
	[RX_FUNCTION] = "^# function '([^']+)'",
	/* as in lkp, an optional "d" may follow the number */
	[RX_RATE] = "^[[:space:]]*([0-9.]+)d?[[:space:]]+(bytes|KB|MB|GB)/sec",
};

static int parse_perf_bench_mem(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[3];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf op = STRBUF_INIT, function = STRBUF_INIT;
	struct strbuf rate = STRBUF_INIT, unit = STRBUF_INIT;
	size_t start = out->len;
	int ret = 0;

	strbuf_addstr(&function, "default");
	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (rx_match(&re[RX_OP], l, m, 2)) {
			rx_group(&op, l, m, 1);
		} else if (rx_match(&re[RX_FUNCTION], l, m, 2)) {
			rx_group(&function, l, m, 1);
		} else if (rx_match(&re[RX_RATE], l, m, 3)) {
			if (!op.len) {
				ret = parse_error(in, "perf-bench-mem", ln.no,
						  "rate before a \"# Running 'mem/<op>' "
						  "benchmark:\" line");
				goto out;
			}
			rx_group(&rate, l, m, 1);
			rx_group(&unit, l, m, 2);
			put_str(out, rate.buf, "%s.%s.%s_per_sec", op.buf, function.buf, unit.buf);
		}
	}
	if (out->len == start)
		ret = parse_error(in, "perf-bench-mem", line_iter_last(&it),
				  "no rates found (expected lines like '8.2 GB/sec')");
out:
	strbuf_release(&op);
	strbuf_release(&function);
	strbuf_release(&rate);
	strbuf_release(&unit);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_perf_bench_mem = { "perf-bench-mem", parse_perf_bench_mem, NULL };
