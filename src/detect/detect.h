#ifndef PERFBOT_DETECT_DETECT_H
#define PERFBOT_DETECT_DETECT_H
/*
 * Change points of a metric along a branch, said the way a maintainer
 * reads them: which tested commits bracket the change, whether it is a
 * regression for this metric, between which tags, and whether the latest
 * tag is still on the changed side ("between v1.1 and v1.2, and it's
 * still low as of v1.3", as seed 001 puts it).
 *
 * The statistics are stats/changepoint.h's; the direction of a metric is
 * lkp's KPI table (stats/lkp_tables.h: lkp_kpi_direction), the one
 * `perfbot compare --fail-on-regression` uses.
 */
#include <stdbool.h>
#include "detect/series.h"
#include "stats/changepoint.h"
#include "util/strbuf.h"

enum detect_kind {
	DETECT_REGRESSION,
	DETECT_IMPROVEMENT,
	DETECT_CHANGE,          /* the metric's direction is unknown */
};

struct detect_change {
	struct cp_change cp;    /* cp.index: first point after; cp.index - 1:
	                         * the last before; levels, change, p */
	enum detect_kind kind;
	int tag_before;         /* the last tagged point at or before the last
	                         * point before, or -1 */
	int tag_after;          /* the first tagged point at or after the first
	                         * point after, or -1 */
	int latest_tag;         /* the series' last tagged point, or -1 */
	int still;              /* 1: at latest_tag the level is still at least
	                         * half-way to `after`; 0: it came back; -1: no
	                         * tag at or after the change */
	double latest_level;    /* the mean level of the segment (between
	                         * changes) holding latest_tag; NaN if still < 0 */
};

struct detect_result {
	struct detect_change *ch;       /* by index; owned */
	int nr;
	/* slow drifts (stats/changepoint.h): not changes, said apart; owned */
	struct cp_drift *drift;
	int nr_drift;
	/* the last 1-2 points jumped: latest.index > 0 is the first of them */
	struct cp_change latest;
	int direction;          /* +1 higher is better, -1 lower, 0 unknown */
	int splits_tested;
	long permutations;
};

/*
 * Detect the changes of s (metric names its direction; NULL: s->metric).
 * Returns 0, or -1 with a message (bad options, a point without a value).
 * A series too short for a split gives no change; the caller says so.
 */
/*
 * The change-point options of perfbot detect and perfbot watch: opt is
 * "--pvalue" (a level strictly between 0 and 1) or "--min-change" (a
 * number >= 0, "5%" for 0.05), arg its value, stored into cp.  0, or -1
 * after one error line naming opt and arg.
 */
int detect_cp_option(struct cp_options *cp, const char *opt, const char *arg);

int detect_series(const struct series *s, const char *metric, const struct cp_options *opt,
		  struct detect_result *out);
void detect_result_release(struct detect_result *r);

const char *detect_kind_name(enum detect_kind k);

/* The first tag of point i, or NULL. */
const char *detect_tag(const struct series *s, int i);

/*
 * Where, in words: "between v1.1 and v1.2, and it's still low as of v1.3",
 * appended to sb.  The tags around the change, or the commit on a side
 * that has none ("between 1c2d3e4f5a6b and v1.2"); "..., and it's no
 * longer low as of v1.4" when the latest tag came back, no clause when no
 * tag follows the change.
 */
void detect_where(const struct series *s, const struct detect_change *c, struct strbuf *sb);

/*
 * The changes as text: a summary line, then per change its kind,
 * magnitude, p and where, and the two commits around it (sha, tag, level
 * with its stddev, runs, subject); then each drift ("drift: +12.0% over
 * 80 commits (...) from A to B") and a jump of the latest points
 * ("latest: +30.0% at the last commit (...) C"), which are not changes.
 */
void detect_print_text(const struct series *s, const struct detect_result *r,
		       const struct cp_options *opt, struct strbuf *out);
/* The same as one JSON object (its fields: doc/manual/history-detect.md). */
void detect_print_json(const struct series *s, const struct detect_result *r,
		       const struct cp_options *opt, struct strbuf *out);

#endif
