/*
 * kbuild.c: lkp's kbuild benchmark (timed kernel builds) as lkp stats.
 *
 * Each iteration prints "start time: <epoch>", optionally bash's time
 * ("real: 33.544s", "user: ...", "sys: ..."), and "end time: <epoch>".
 * Per iteration, as lkp (which ends the *_time_* lines with a space):
 *
 *     buildtime_per_iteration     mean of end - start
 *     real_time_per_iteration     mean real time, when any was printed
 *     user_time_per_iteration, sys_time_per_iteration   likewise
 *     workload                    the number of iterations
 */
#include "parse/bench_util.h"
#include "util/numfmt.h"

enum { RX_START, RX_REAL, RX_USER, RX_SYS, RX_END, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_START] = "^start time: ([0-9]+\\.[0-9]+)",
	[RX_REAL] = "^real: ([0-9]+\\.[0-9]+s)",
	[RX_USER] = "^user: ([0-9]+\\.[0-9]+s)",
	[RX_SYS] = "^sys: ([0-9]+\\.[0-9]+s)",
	[RX_END] = "^end time: ([0-9]+\\.[0-9]+)",
};

static const char *const time_names[RX_NR] = {
	[RX_REAL] = "real", [RX_USER] = "user", [RX_SYS] = "sys",
};

static int parse_kbuild(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[2];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf g = STRBUF_INIT;
	double start = 0, runtime = 0, times[RX_NR] = { 0 };
	long iterations = 0;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (rx_match(&re[RX_START], l, m, 2))
			start = rb_to_f(rx_group(&g, l, m, 1));
		for (int k = RX_REAL; k <= RX_SYS; k++)
			if (rx_match(&re[k], l, m, 2))
				times[k] += rb_to_f(rx_group(&g, l, m, 1));
		if (rx_match(&re[RX_END], l, m, 2)) {
			runtime += rb_to_f(rx_group(&g, l, m, 1)) - start;
			iterations++;
		}
	}
	if (!iterations) {
		ret = parse_error(in, "kbuild", line_iter_last(&it),
				  "no build found (expected 'start time:' and 'end time:' lines)");
		goto out;
	}
	put_float(out, runtime / (double)iterations, "buildtime_per_iteration");
	for (int k = RX_REAL; k <= RX_SYS; k++) {
		if (!(times[k] > 0.0))
			continue;
		/* lkp leaves a space before the newline of these three */
		strbuf_addf(out, "%s_time_per_iteration: ", time_names[k]);
		fmt_ruby_float(out, times[k] / (double)iterations);
		strbuf_addstr(out, " \n");
	}
	put_int(out, iterations, "workload");
out:
	strbuf_release(&g);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_kbuild = { "kbuild", parse_kbuild, NULL };
