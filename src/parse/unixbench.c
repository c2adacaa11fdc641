/*
 * unixbench.c: UnixBench (Byte UNIX Benchmarks) output as lkp stats.
 *
 * lkp runs one test per job.  Its result ("File Copy ... 1675624.0 KBps
 * (30.0 s, 7 samples)", or the RESULT column of the index table after a
 * "... Benchmarks ... Index ... INDEX" header) is the throughput; the
 * "Benchmark Run: <date> HH:MM:SS - HH:MM:SS" line gives the duration
 * (across midnight when the end is not after the start).  Output:
 *
 *     score: <index score>     when there is a "... Index Score ..." line
 *     throughput: <result>     (Float)
 *     workload: <duration * throughput>
 *     test.pass: 1
 *
 * Without a duration or a result lkp prints only "test.fail: 1" (the
 * graphics tests abort that way when X fails); so do we, with a warning
 * unless such an abort was seen.
 */
#include <stdbool.h>

#include "parse/bench_util.h"
#include "util/error.h"
#include "util/xalloc.h"

enum { RX_RUN, RX_INDEX_HEADER, RX_RESULT, RX_SCORE, RX_X_ABORT, RX_X_SIGNAL, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_RUN] = "^Benchmark Run: .+ ([0-9]+):([0-9]+):([0-9]+) - "
		   "([0-9]+):([0-9]+):([0-9]+)$",
	[RX_INDEX_HEADER] = "^.+ Benchmarks .*Index .* INDEX$",
	/* lkp's lazy "^.+? " is the first match not at column 0, see below */
	[RX_RESULT] = " ([0-9.]+) (KBps|lps|lpm|score)[[:space:]]+"
		      "\\([0-9.]+ s, [0-9]+ samples?\\)",
	[RX_SCORE] = "^.+ Benchmarks Index Score .* ([0-9.]+)$",
	[RX_X_ABORT] = "Run: .+ graphics: .+ (aborting|broken)",
	[RX_X_SIGNAL] = "Caught signal .+ Server aborting",
};

/* Seconds into the day of groups first..first+2 ("HH:MM:SS"), or -1. */
static long day_seconds(const char *l, const struct rx_sub *m, int first, struct strbuf *g)
{
	long h = (long)rb_to_i(rx_group(g, l, m, first));
	long min = (long)rb_to_i(rx_group(g, l, m, first + 1));
	long s = (long)rb_to_i(rx_group(g, l, m, first + 2));

	/* Ruby's Time.parse rejects these (a leap second 60 it accepts) */
	if (h > 24 || min > 59 || s > 60 || (h == 24 && (min || s)))
		return -1;
	return h * 3600 + min * 60 + s;
}

/* RX_RESULT as lkp's /^.+? (N) (unit)\s+\(.../: a match starting after column 0. */
static bool match_result(const struct rx *re, const char *l, struct rx_sub *m, size_t nm)
{
	for (size_t off = 0; l[off]; off++) {
		if (!rx_match(re, l + off, m, nm))
			return false;
		if (m[0].so + (long)off > 0) {
			for (size_t i = 0; i < nm; i++)
				if (m[i].so >= 0) {
					m[i].so += (long)off;
					m[i].eo += (long)off;
				}
			return true;
		}
	}
	return false;
}

static int parse_unixbench(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[7];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf g = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	bool have_duration = false, have_throughput = false, have_score = false;
	bool x_failed = false;
	double duration = 0, throughput = 0, score = 0;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (rx_match(&re[RX_RUN], l, m, 7)) {
			long t0 = day_seconds(l, m, 1, &g), t1 = day_seconds(l, m, 4, &g);

			if (t0 < 0 || t1 < 0) {
				ret = parse_error(in, "unixbench", ln.no, "bad time of day");
				goto out;
			}
			duration = t1 > t0 ? (double)(t1 - t0) : (double)(t1 + 24 * 3600 - t0);
			have_duration = true;
		} else if (rx_match(&re[RX_INDEX_HEADER], l, NULL, 0)) {
			/* the result is the next line's RESULT column */
			if (!line_next_str(&it, &ln, &line)) {
				ret = parse_error(in, "unixbench", ln.no,
						  "expected a result line after the index header");
				goto out;
			}
			split_ws_str(&f, line.buf);
			if (!line.len)
				continue;
			if (f.nr < 2) {
				ret = parse_error(in, "unixbench", ln.no,
						  "expected '<test> <BASELINE> <RESULT> <INDEX>'");
				goto out;
			}
			throughput = rb_to_f(f.str[f.nr - 2]);
			have_throughput = true;
		} else if (match_result(&re[RX_RESULT], l, m, 2)) {
			throughput = rb_to_f(rx_group(&g, l, m, 1));
			have_throughput = true;
		} else if (rx_match(&re[RX_SCORE], l, m, 2)) {
			score = rb_to_f(rx_group(&g, l, m, 1));
			have_score = true;
		} else if (rx_match(&re[RX_X_ABORT], l, NULL, 0) ||
			   rx_match(&re[RX_X_SIGNAL], l, NULL, 0)) {
			x_failed = true;
		}
	}
	if (!have_duration || !have_throughput) {
		if (!x_failed)
			warning("unixbench: %s: no %s found", in->name,
				have_duration ? "result" : "'Benchmark Run:' duration");
		put_str(out, "1", "test.fail");
		goto out;
	}
	if (x_failed)
		warning("unixbench: %s: a graphics test aborted, yet results were found",
			in->name);
	if (have_score)
		put_float(out, score, "score");
	put_float(out, throughput, "throughput");
	put_float(out, duration * throughput, "workload");
	put_str(out, "1", "test.pass");
out:
	field_list_release(&f);
	strbuf_release(&g);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_unixbench = { "unixbench", parse_unixbench, NULL };
