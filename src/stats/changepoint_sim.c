/*
 * changepoint_sim.c: synthetic histories with known change points, the
 * scoring of detections against them, and the sliding-window Welch
 * baseline (see changepoint_sim.h).
 */
#include "stats/changepoint_sim.h"
#include "stats/stat_tests.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void cps_generate(const struct cps_scenario *sc, struct rng *r, struct cps_series *out)
{
	int n = sc->points, k, gap, free_pts, runs = sc->runs > 0 ? sc->runs : 1;
	double level = 1000, *v = xmalloc(sizeof(*v) * (size_t)runs);

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->pt = xcalloc((size_t)n, sizeof(*out->pt));
	k = sc->changes_lo + (int)rng_below(r, (uint64_t)(sc->changes_hi - sc->changes_lo + 1));
	if (k > 16)
		k = 16;
	gap = n / (4 * (k + 1)) > 5 ? n / (4 * (k + 1)) : 5;
	free_pts = n - (k + 1) * gap;
	if (free_pts < 0)
		k = 0;
	/* k sorted offsets in [0, free]; adding (j + 1) * gap spaces them out */
	for (int j = 0; j < k; j++)
		out->truth[j] = (int)rng_below(r, (uint64_t)free_pts + 1);
	qsort(out->truth, (size_t)k, sizeof(int), cmp_int);
	for (int j = 0; j < k; j++)
		out->truth[j] += (j + 1) * gap;
	out->nr_truth = k;

	for (int i = 0, j = 0; i < n; i++) {
		double drift = n > 1 ? 1 + sc->drift * i / (n - 1) : 1;

		if (j < k && out->truth[j] == i) {
			double step = sc->step_lo + (sc->step_hi - sc->step_lo) * rng_uniform(r);

			level *= 1 + (rng_below(r, 2) ? step : -step);
			j++;
		}
		for (int s = 0; s < runs; s++) {
			double z = rng_normal(r);

			if (sc->outlier_rate > 0 && rng_uniform(r) < sc->outlier_rate)
				z *= sc->outlier_scale;
			v[s] = level * drift * (1 + sc->sigma * z);
		}
		out->pt[i].mean = mean(v, runs);
		out->pt[i].stddev = stddev_sample(v, runs);
		out->pt[i].n = runs;
	}
	free(v);
}

void cps_series_release(struct cps_series *s)
{
	free(s->pt);
	memset(s, 0, sizeof(*s));
}

void cps_score_add(const int *truth, int nt, const int *found, int nf, int tol,
		   struct cps_score *sc)
{
	int i = 0, j = 0;

	while (i < nt && j < nf) {
		if (abs(truth[i] - found[j]) <= tol) {
			sc->tp++;
			i++;
			j++;
		} else if (found[j] < truth[i]) {
			sc->fp++;
			j++;
		} else {
			sc->fn++;
			i++;
		}
	}
	sc->fn += nt - i;
	sc->fp += nf - j;
}

int cps_sliding_welch(const struct cp_point *pts, int n, int window, double alpha,
		      double min_change, int **found)
{
	double *x = xmalloc(sizeof(*x) * (size_t)(n > 0 ? n : 1));
	int *out = xmalloc(sizeof(*out) * (size_t)(n > 0 ? n : 1)), nr = 0;
	int run_at = -1;
	double run_p = 2;

	for (int i = 0; i < n; i++)
		x[i] = pts[i].mean;
	for (int i = 1; i <= n; i++) {
		int lo = i - window > 0 ? i - window : 0;
		int hi = i + window < n ? i + window : n;
		bool flag = false;
		double p = 1;

		if (i < n && i - lo >= 2 && hi - i >= 2) {
			double ml = mean(x + lo, i - lo), mr = mean(x + i, hi - i);
			double change = ml != 0 ? (mr - ml) / fabs(ml) : INFINITY;

			p = welch_test(x + i, hi - i, x + lo, i - lo, NULL, NULL);
			flag = p <= alpha && fabs(change) >= min_change;
		}
		if (flag && (run_at < 0 || p < run_p)) {
			run_at = i;
			run_p = p;
		}
		if (!flag && run_at >= 0) {
			out[nr++] = run_at;
			run_at = -1;
			run_p = 2;
		}
	}
	free(x);
	*found = out;
	return nr;
}
