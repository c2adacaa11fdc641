#ifndef PERFBOT_CHANGEPOINT_SIM_H
#define PERFBOT_CHANGEPOINT_SIM_H
/*
 * Synthetic histories with known change points, to measure change-point
 * detection (changepoint.h) against the truth: bench/detect-sim.c prints
 * precision and recall per scenario, the unit tests check the scoring and
 * a few rows.  Also the baseline the bench compares with: a plain
 * sliding-window Welch test.
 *
 * A history: `points` commits; the level starts at 1000 and moves by a
 * relative step at each true change point (|step| uniform in
 * [step_lo, step_hi], sign random); a slow drift multiplies the level by
 * 1 + drift * i / (points - 1); each commit is measured `runs` times, each
 * run level * (1 + sigma * Z) with Z standard normal, or with probability
 * outlier_rate Z * outlier_scale (a run disturbed by something else).
 * A point carries the mean of its runs, their sample stddev and count,
 * as `perfbot history` gives them.
 *
 * Change points are at least max(5, points / (4 * (changes + 1))) points
 * apart and from either end, so that each level is long enough to exist.
 * Everything random comes from the struct rng passed in.
 */
#include "stats/changepoint.h"
#include "util/rng.h"

struct cps_scenario {
	int points;
	double sigma;               /* relative sd of one run, 0.05 = 5% */
	double step_lo, step_hi;    /* |relative step| range */
	int changes_lo, changes_hi; /* how many change points, uniform */
	double outlier_rate, outlier_scale;
	double drift;               /* relative drift over the whole history */
	int runs;                   /* runs per point, >= 1 */
};

struct cps_series {
	struct cp_point *pt;        /* owned */
	int n;
	int truth[16];              /* first point after each true change */
	int nr_truth;
};

/* Draw one history of sc (at most 16 change points). */
void cps_generate(const struct cps_scenario *sc, struct rng *r, struct cps_series *out);
void cps_series_release(struct cps_series *s);

/* True and false detections, and the changes missed. */
struct cps_score {
	long tp, fp, fn;
};

/*
 * Match found[] against truth[] (both ascending): a detection within tol
 * points of a true change counts once for it; the rest are false.  Both
 * lists are walked once, earliest first, which is the best matching when
 * every truth has the same tolerance.  Adds to *sc.
 */
void cps_score_add(const int *truth, int nt, const int *found, int nf, int tol,
		   struct cps_score *sc);

/*
 * The baseline: at every point i, Welch's t of the point means in
 * [i - window, i) against [i, i + window) (cut at the ends, 2 points a
 * side at least); i is flagged when p <= alpha and the relative change is
 * at least min_change.  Each run of consecutive flagged points is one
 * detection, at its smallest p.  *found is allocated (caller frees);
 * returns how many.
 */
int cps_sliding_welch(const struct cp_point *pts, int n, int window, double alpha,
		      double min_change, int **found);

#endif
