#ifndef PERFBOT_CHANGEPOINT_H
#define PERFBOT_CHANGEPOINT_H
/*
 * Change points of a metric along a history: where its level moved.
 *
 * The method is of the E-Divisive family (Matteson and James, 2014; as in
 * Apache Otava and MongoDB's signal_processing_algorithms), with the
 * adaptations a performance history needs:
 *
 *  1. Split.  In a segment of points, the split is where the energy
 *     divergence between the two sides peaks:
 *
 *         Q(t) = W_A W_B / (W_A + W_B) * (2 E|A-B| - E|A-A'| - E|B-B'|)
 *
 *     with E|.| the weighted mean distance between points of the sides
 *     (between pairs, or distinct pairs within one side) and W the sides'
 *     weights.  Q is computed for every t at once in O(L log L): one pass
 *     with a Fenwick tree over the values' ranks, plus each point's sum of
 *     distances to all others, which no reordering changes
 *     (cp_energy_profile).  Not the O(L^2) of the definition, so a
 *     10,000-point history and hundreds of its permutations stay cheap.
 *
 *  2. Significance of the split, at p_split = min(1, 2 min(p_bonf, p_perm)):
 *     p_bonf is the side test below at the chosen split, times the number
 *     of splits that were possible (a union bound, so the choice of the
 *     best split cannot fake significance); p_perm is the permutation test
 *     of max Q (the fraction of random orders of the segment whose max Q is
 *     at least the observed one, (e + 1) / (r + 1)).  The factor 2 keeps
 *     the false-alarm rate of the pair at most pvalue.  Clear changes pass
 *     on p_bonf alone; permutations run only when it does not decide, stop
 *     as soon as the outcome cannot reach pvalue (Besag and Clifford), and
 *     draw from a generator seeded by (seed, segment), so that the answer
 *     depends on the data and the seed, never on the order of the work.
 *
 *  3. Recursion.  A significant split is a candidate; both sides are
 *     searched again.  A segment whose best split is not significant is
 *     cut there anyway (at most 3 times over) and the parts
 *     searched at half the level: changes that cancel out (down, then back
 *     up) leave one split of the whole weak, and show in a part.  The parts
 *     of the d-th cut are tested at pvalue / 2^d, so that together they add
 *     about pvalue of false alarms; their p_split is scaled back by 2^d.
 *
 *  4. Local confirmation.  Each candidate is tested again on at most
 *     `window` points each side, bounded by its neighbouring candidates,
 *     with the split test of 2 (a permutation test of the best split in
 *     the window, so it knows the candidate was picked as a maximum, which
 *     a two-sample test at the candidate would not).  Its magnitude
 *     (after - before) / |before| comes from the means of the same
 *     windows.  The weakest candidate that fails pvalue or min_change is
 *     dropped and its neighbours tested again, until all pass.  A change's
 *     p is max(p_split, p_local): it must pass both.
 *
 *  5. Drift.  A slow drift, which a long segment calls significant, is
 *     found as a staircase of candidates that go the same way, each a
 *     fine step between its neighbours.  So a candidate must also stay
 *     significant as a step on top of a straight line fitted over the
 *     segment its run of same-way neighbours spans (or, alone in its
 *     run, fit better as a step than as a line, its neighbours steps in
 *     both, over the segment one candidate further out: a step against
 *     a drift bounds the run of a drift candidate beside it, and over
 *     that short stretch a step fits a drift as often as a line does);
 *     those that do not are dropped like the others, and their segments
 *     are reported as drifts (cp_result.drift), not changes.
 *
 *  6. The latest points.  A jump of the last 1 or 2 points, too few for
 *     a change, would inflate the variance of the right side of every
 *     split before it and hide an earlier step; when they jumped, the
 *     search and the local tests are also run without them, and the jump
 *     is reported apart (cp_result.latest).
 *
 * Per point the caller gives the mean of its runs, their sample stddev and
 * how many runs there were.  They are used twice:
 *   - weights: w_i = 1 / (tau^2 + s^2 / n_i), the inverse variance of a
 *     point under a random-effects model (s^2 the within-commit variance
 *     pooled over every point with n >= 2, tau^2 the variance between
 *     commits beyond it, from the median of successive differences).  A
 *     point of 10 runs counts more than a point of 1 when the runs are the
 *     noisy part, and all points count alike when commits differ by more
 *     than their runs do.
 *   - the side test: Welch's t on the weighted means of the sides' points,
 *     each side's variance estimated from the spread of its points and
 *     never below what the points' own runs show, nor below the series'
 *     own noise (cp_noise: so that three points that agree by luck do not
 *     make a side look exact), with Satterthwaite's degrees of freedom.
 *
 * Everything here is pure: no I/O, no global state; the functions that
 * allocate say so.
 */
#include <stdint.h>

/* One tested commit. */
struct cp_point {
	double mean;            /* mean of the runs */
	double stddev;          /* sample stddev of the runs (n - 1); ignored
	                         * when n < 2; NaN or negative: unknown */
	int n;                  /* runs behind mean, >= 1 */
};

struct cp_options {
	double pvalue;          /* a change must be significant at this level
	                         * (default CP_DEFAULT_PVALUE); in (0, 1) */
	double min_change;      /* |relative change| must be at least this
	                         * (default CP_DEFAULT_MIN_CHANGE); >= 0 */
	int min_size;           /* fewest points on each side of a split
	                         * (default 3); >= 1 */
	int window;             /* points each side of the local test
	                         * (default CP_DEFAULT_WINDOW); >= min_size */
	int max_permutations;   /* upper bound of a segment's permutations;
	                         * 0: automatic, 10 / pvalue - 1 */
	uint64_t seed;          /* of the permutations (default CP_DEFAULT_SEED) */
};

#define CP_DEFAULT_PVALUE 0.01
#define CP_DEFAULT_MIN_CHANGE 0.01
#define CP_DEFAULT_WINDOW 30
#define CP_DEFAULT_SEED 20140101
/* The most points at the end that may jump without being a change. */
#define CP_TAIL_MAX 2

void cp_options_init(struct cp_options *opt);

/* One change: the level moved between point index - 1 and point index. */
struct cp_change {
	int index;              /* first point after the change (>= 1) */
	int lo, hi;             /* the local windows: [lo, index) and [index, hi) */
	double before, after;   /* the windows' weighted means */
	double change;          /* (after - before) / |before|; +-INFINITY when
	                         * before is 0 and after is not */
	double p;               /* max(p_split, p_local) */
	double p_split;         /* significance of the split where it was found */
	double p_local;         /* the side test on the windows */
};

/* A slow drift: the level moved along a straight line over [lo, hi). */
struct cp_drift {
	int lo, hi;             /* the segment: between changes, or an end */
	double from, to;        /* the line at lo and at hi - 1 */
	double change;          /* (to - from) / |from| */
	double p;               /* of the slope */
};

struct cp_result {
	struct cp_change *change;   /* by index, ascending; owned */
	int nr;
	/*
	 * Drifts, by lo: segments where candidates were dropped because a
	 * straight line explains their window as well as a step does, and
	 * the line's slope is significant and moves the level by min_change.
	 * They are not changes: a slow drift is reported once, as a drift,
	 * never as one or several steps.  Owned.
	 */
	struct cp_drift *drift;
	int nr_drift;
	/*
	 * The latest points jumped: the last 1 or 2 (fewer than min_size, too
	 * few to be a change) differ from the level before them at pvalue and
	 * by min_change.  latest.index is the first of them, 0 when they did
	 * not jump; [lo, index) is the level they are compared with (from the
	 * last change on, at most `window` points), before/after/change/p as
	 * for a change (p = p_split = p_local), but `before` is where the
	 * line of a drift ending there got to.  Before the changes are
	 * confirmed, the search and each local test near the end are also
	 * run without those points, so that the jump does not hide an
	 * earlier step or inflate its size (CP_TAIL_MAX).
	 */
	struct cp_change latest;
	/* what the search cost, for bench/ and the curious */
	int splits_tested;          /* segments whose best split was tested */
	long permutations;          /* permutations evaluated, summed */
};

/*
 * Find the change points of pts[0..n).  out is filled (any previous content
 * is released first; init it with cp_result_init).  A series too short for
 * one split (n < 2 * min_size) has no change points; that is not an error.
 * Returns 0, or -1 with a message (error()) for invalid options or input:
 * a non-finite mean, n < 1 runs.
 */
int cp_detect(const struct cp_point *pts, int n, const struct cp_options *opt,
	      struct cp_result *out);

void cp_result_init(struct cp_result *r);
void cp_result_release(struct cp_result *r);

/*
 * The weights cp_detect gives the points (see the top of this file),
 * scaled to average 1, into w[0..n).  All 1 when the runs tell nothing
 * (every n is 1, or every value is equal).
 */
void cp_weights(const struct cp_point *pts, int n, double *w);

/*
 * Q(t) of the split before point t, for t = 1 .. n-1, into q[t] (q[0] is
 * set to 0): the energy divergence above, in O(n log n).  w NULL means all
 * weights 1.  For the tests, which check it against the O(n^3) definition.
 * Returns 0, or -1 when n < 2.  Allocates only scratch.
 */
int cp_energy_profile(const double *x, const double *w, int n, double *q);

/*
 * The series' own noise, as a floor of each point's variance, into
 * floor[0..n): tau^2 + s^2 / n_i of the weights above, or the variance the
 * successive differences show (MAD * 1.4826 / sqrt(2), squared) when no
 * point has runs; 0 below 3 points.  Why this estimate: changepoint.c.
 */
void cp_noise(const struct cp_point *pts, int n, double *floor);

/*
 * The side test of points [lo, mid) against [mid, hi) of pts with weights
 * w: two-sided p of Welch's t on the weighted means (see above), each
 * side's variance at least sum w_i^2 floor_i / W^2 (floor NULL: none).
 * Sets *before and *after to the means.  p is 1 when a side has no
 * variance estimate at all (one point of one run); 0 when neither side
 * varies, nor the floor, and the means differ.
 */
double cp_side_test(const struct cp_point *pts, const double *w, const double *floor,
		    int lo, int mid, int hi, double *before, double *after);

#endif
