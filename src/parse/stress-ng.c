/*
 * stress-ng.c: stress-ng --metrics-brief output as lkp stats.
 *
 * After the "(secs) (secs) (secs)" header of the metrics table, every row
 * of 10 or 12 columns ("stress-ng: info: [pid] <stressor> <bogo ops>
 * <real> <usr> <sys> <ops/s real> <ops/s usr+sys> [<cpu%> <rss>]") gives
 *
 *     <stressor>.pass: 1, <stressor>.ops, <stressor>.ops_per_sec
 *
 * or "<stressor>.fail: 1" when bogo ops is 0.  A miscellaneous metric
 * ("<stressor> <value> <unit words> (average|geometric mean|... ...)")
 * gives "<stressor>.<unit>.pass: 1" and "<stressor>.<unit>: <value>", the
 * unit normalised as lkp's LKP::Stats.normalize, or ".fail: 1" for a zero
 * value.  Values are copied as printed.  Parsing stops at the "run time:"
 * summary; a sigaction failure prints "sigaction.fail: 1" and stops.
 * Other fail:/warn: lines are ignored, as in lkp.
 */
#include <stdbool.h>
#include <string.h>

#include "parse/bench_util.h"

enum {
	RX_NOT_IMPLEMENTED, RX_ZERO_COUNTERS, RX_SIGACTION, RX_FAIL_WARN,
	RX_HEADER, RX_RUN_TIME, RX_MISC, RX_MISC_TAIL, RX_NR
};

#define MISC_KINDS "(average|geometr?ic mean|harmonic mean|total|maximum|minimum)"

static const char *const patterns[RX_NR] = {
	[RX_NOT_IMPLEMENTED] = "(this stressor is not implemented on this system)|"
			       "(No stress workers invoked)",
	[RX_ZERO_COUNTERS] = "all bogo-op counters are zero, data may be incorrect",
	[RX_SIGACTION] = "stress-ng: fail:.*sigaction signal",
	[RX_FAIL_WARN] = "fail:|warn:",
	[RX_HEADER] = "\\(secs\\)[[:space:]]+\\(secs\\)[[:space:]]+\\(secs\\)",
	[RX_RUN_TIME] = "run time:",
	[RX_MISC] = "stress-ng: (info|metrc):.*\\(" MISC_KINDS,
	[RX_MISC_TAIL] = " \\(" MISC_KINDS ".*\\)$",
};

/* A row of the metrics table. */
static void stat_major(struct field_list *items, struct strbuf *out)
{
	const char *stressor, *ops;

	if (items->nr != 10 && items->nr != 12)
		return;
	stressor = items->str[3];
	ops = items->str[4];
	if (!strcmp(ops, "0")) {
		put_str(out, "1", "%s.fail", stressor);
	} else {
		put_str(out, "1", "%s.pass", stressor);
		put_str(out, ops, "%s.ops", stressor);
		put_str(out, items->str[8], "%s.ops_per_sec", stressor);
	}
}

/* A miscellaneous metric: the unit is the words after the value. */
static int stat_misc(const struct rx *tail, struct strbuf *line, struct field_list *items,
		     struct strbuf *out)
{
	struct strbuf words = STRBUF_INIT, unit = STRBUF_INIT;
	const char *stressor, *val;
	struct rx_sub m[1];

	if (rx_match(tail, line->buf, m, 1))
		strbuf_setlen(line, (size_t)m[0].so);
	split_ws_str(items, line->buf);
	if (items->nr < 5)
		return -1;
	for (size_t i = 5; i < items->nr; i++) {
		if (i > 5)
			strbuf_addch(&words, '_');
		strbuf_addstr(&words, items->str[i]);
	}
	lkp_normalize(&unit, words.buf);
	stressor = items->str[3];
	val = items->str[4];
	if (!strcmp(val, "0") || !strcmp(val, "0.00")) {
		put_str(out, "1", "%s.%s.fail", stressor, unit.buf);
	} else {
		put_str(out, "1", "%s.%s.pass", stressor, unit.buf);
		put_str(out, val, "%s.%s", stressor, unit.buf);
	}
	strbuf_release(&words);
	strbuf_release(&unit);
	return 0;
}

static int parse_stress_ng(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list items = FIELD_LIST_INIT;
	bool in_table = false;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (rx_match(&re[RX_NOT_IMPLEMENTED], l, NULL, 0)) {
			if (out->len == start)
				ret = parse_error(in, "stress-ng", ln.no, "no metrics: %s",
						  strstr(l, "No stress") ? "no stress workers invoked" :
						  "stressor not implemented on this system");
			goto out;
		} else if (rx_match(&re[RX_ZERO_COUNTERS], l, NULL, 0)) {
			continue;
		} else if (rx_match(&re[RX_SIGACTION], l, NULL, 0)) {
			put_str(out, "1", "sigaction.fail");
			goto out;
		} else if (rx_match(&re[RX_FAIL_WARN], l, NULL, 0)) {
			continue;
		} else if (rx_match(&re[RX_HEADER], l, NULL, 0)) {
			in_table = true;
		} else if (rx_match(&re[RX_RUN_TIME], l, NULL, 0)) {
			break;
		} else if (in_table) {
			if (!rx_match(&re[RX_MISC], l, NULL, 0)) {
				split_ws_str(&items, l);
				stat_major(&items, out);
			} else if (stat_misc(&re[RX_MISC_TAIL], &line, &items, out)) {
				ret = parse_error(in, "stress-ng", ln.no,
						  "expected '<stressor> <value> <unit>' "
						  "before the metric's kind");
				goto out;
			}
		}
	}
	if (out->len == start)
		ret = parse_error(in, "stress-ng", line_iter_last(&it),
				  "no stress-ng metrics found (expected a table "
				  "after a '(secs) (secs) (secs)' header)");
out:
	field_list_release(&items);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_stress_ng = { "stress-ng", parse_stress_ng, NULL };
