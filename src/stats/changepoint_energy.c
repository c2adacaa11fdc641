/*
 * changepoint_energy.c: E-Divisive's energy profile (changepoint.h's
 * cp_energy_profile): every split's energy statistic of a segment in one
 * pass, with a Fenwick tree over the points' ranks, in the scratch that
 * changepoint_impl.h shares with the search.
 */
#include "stats/changepoint.h"
#include "stats/changepoint_impl.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void cp_work_init(struct work *wk, int cap)
{
	wk->cap = cap;
	wk->floor = NULL;
	wk->tail = 0;
	wk->end = cap;
	wk->pt = xcalloc((size_t)cap, sizeof(*wk->pt));
	wk->perm = xcalloc((size_t)cap, sizeof(*wk->perm));
	wk->fen = xcalloc((size_t)cap + 1, sizeof(*wk->fen));
	wk->q = xcalloc((size_t)cap + 1, sizeof(double));
	wk->sorted = xcalloc((size_t)cap, sizeof(*wk->sorted));
}

void cp_work_release(struct work *wk)
{
	free(wk->pt);
	free(wk->perm);
	free(wk->fen);
	free(wk->q);
	free(wk->sorted);
}

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->i - q->i;
}

/*
 * Load x and w (NULL: all 1) as the segment: centre, rank (equal values
 * share a rank) and sum each point's distances from the sorted order.
 * Returns the number of ranks.
 */
int cp_load_segment(struct work *wk, const double *x, const double *w, int n)
{
	struct spt *pt = wk->pt;
	struct ranked *so = wk->sorted;
	double c = 0, tw = 0, twx = 0, lw = 0, lwx = 0;
	int nr = 0;

	for (int i = 0; i < n; i++)
		c += x[i];
	c /= n;
	for (int i = 0; i < n; i++) {
		pt[i].x = x[i] - c;
		pt[i].w = w ? w[i] : 1;
		tw += pt[i].w;
		twx += pt[i].w * pt[i].x;
		so[i].x = pt[i].x;
		so[i].i = i;
	}
	qsort(so, (size_t)n, sizeof(*so), cmp_ranked);
	for (int k = 0, g; k < n; k = g) {
		/* a group of equal values: weights at or below them, then d */
		nr++;
		for (g = k; g < n && so[g].x == so[k].x; g++) {
			lw += pt[so[g].i].w;
			lwx += pt[so[g].i].w * so[g].x;
		}
		for (int j = k; j < g; j++) {
			struct spt *p = &pt[so[j].i];

			p->rank = nr;
			p->d = p->x * lw - lwx + (twx - lwx) - p->x * (tw - lw);
		}
	}
	return nr;
}

/*
 * q[t] for t in 1..n-1, in one pass.  Adding point t to the left side
 * costs one Fenwick query and one update: the points already there split
 * into those at or below x (weight lw, weighted sum lwx) and those above,
 * so its distances to them sum to x*lw - lwx + (twx - lwx) - x*(tw - lw)
 * (ties add 0 either way).  That gives the left side's within sum; with
 * the d of the points, sum over the left of w d = 2 within + between,
 * and the right side's within sum is what remains of the total.
 */
void cp_profile(struct work *wk, const struct spt *pt, int n, int nr, double *q)
{
	struct fen *f = wk->fen;
	double total = 0, wt = 0, sqt = 0, tw = 0, twx = 0, sq = 0, in = 0, wd = 0;

	for (int i = 0; i < n; i++) {
		total += pt[i].w * pt[i].d;
		wt += pt[i].w;
		sqt += pt[i].w * pt[i].w;
	}
	total /= 2;
	memset(f, 0, ((size_t)nr + 1) * sizeof(*f));
	q[0] = 0;
	for (int t = 0; t + 1 < n; t++) {
		double lw = 0, lwx = 0, x = pt[t].x, w = pt[t].w;
		double wb, sqb, between, in_b, pa, pb, daa, dbb;

		for (int j = pt[t].rank; j > 0; j -= j & -j) {
			lw += f[j].w;
			lwx += f[j].wx;
		}
		in += w * (x * lw - lwx + (twx - lwx) - x * (tw - lw));
		tw += w;
		twx += w * x;
		sq += w * w;
		wd += w * pt[t].d;
		for (int j = pt[t].rank; j <= nr; j += j & -j) {
			f[j].w += w;
			f[j].wx += w * x;
		}
		between = wd - 2 * in;
		in_b = total - in - between;
		wb = wt - tw;
		sqb = sqt - sq;
		/* weight of the distinct pairs within a side: 0 for one point */
		pa = (tw * tw - sq) / 2;
		pb = (wb * wb - sqb) / 2;
		daa = pa > 1e-12 * tw * tw ? in / pa : 0;
		dbb = pb > 1e-12 * wb * wb ? in_b / pb : 0;
		q[t + 1] = tw * wb / (tw + wb) * (2 * between / (tw * wb) - daa - dbb);
	}
}

int cp_energy_profile(const double *x, const double *w, int n, double *q)
{
	struct work wk;
	int nr;

	if (n < 2)
		return -1;
	cp_work_init(&wk, n);
	nr = cp_load_segment(&wk, x, w, n);
	cp_profile(&wk, wk.pt, n, nr, q);
	cp_work_release(&wk);
	return 0;
}
