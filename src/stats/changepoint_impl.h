#ifndef PERFBOT_STATS_CHANGEPOINT_IMPL_H
#define PERFBOT_STATS_CHANGEPOINT_IMPL_H
/*
 * Private to src/stats/changepoint*.c: the energy profile of a segment
 * (changepoint_energy.c) and the scratch it works in, which the search
 * (changepoint.c) loads once per segment and shuffles for its
 * permutation tests.
 */

/* A Fenwick tree node: the weight and weight * value of the ranks below it. */
struct fen {
	double w, wx;
};

/*
 * A point of the segment being tested: its value (centred on the segment's
 * mean, so that the sums keep their low digits), weight, rank among the
 * segment's values, and d = sum over the segment of w_j |x - x_j|.  The
 * permutations shuffle these whole: rank and d do not depend on the order.
 */
struct spt {
	double x, w, d;
	int rank;
};

struct ranked {
	double x;
	int i;
};

/* Scratch for segments of up to cap points, allocated once per detection. */
struct work {
	int cap;
	struct spt *pt, *perm;     /* the segment; a copy the permutations shuffle */
	struct fen *fen;
	double *q;
	struct ranked *sorted;
	const double *floor;       /* of the side test (cp_noise), or NULL */
	int tail;                  /* the local tests near the end also try
	                            * without the last 1..tail points */
	int end;                   /* n, or where a jumping tail starts */
};

/* Scratch for segments of up to cap points; release frees it. */
void cp_work_init(struct work *wk, int cap);
void cp_work_release(struct work *wk);
/*
 * Load x and w (NULL: all 1) as the segment: centre, rank (equal values
 * share a rank) and sum each point's distances from the sorted order.
 * Returns the number of ranks.
 */
int cp_load_segment(struct work *wk, const double *x, const double *w, int n);
/* q[t] for t in 1..n-1 of the loaded points pt (wk->pt or a permutation
 * of them), nr ranks, in one pass (O(n log n)); q[0] = 0. */
void cp_profile(struct work *wk, const struct spt *pt, int n, int nr, double *q);

#endif
