/*
 * test_changepoint.c: change-point detection (src/stats/changepoint.c):
 * the fast energy profile against its O(n^3) definition, the weights and
 * the side test against their formulas, exact splits of constructed
 * series, determinism under a seed, the boundaries of pvalue, min_change,
 * min_size and window, bad input; and the simulation helpers
 * (changepoint_sim.c): scoring and the sliding-window baseline.
 */
#include "test_helpers.h"
#include "stats/changepoint.h"
#include "stats/changepoint_sim.h"
#include "stats/stat_tests.h"

#include <math.h>

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/* Q(t) straight from the definition in changepoint.h. */
static double brute_q(const double *x, const double *w, int n, int t)
{
	double wa = 0, wb = 0, between = 0, in_a = 0, in_b = 0, pa = 0, pb = 0;

	for (int i = 0; i < t; i++)
		wa += w[i];
	for (int j = t; j < n; j++)
		wb += w[j];
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			double d = w[i] * w[j] * fabs(x[i] - x[j]);

			if (i < t && j >= t) {
				between += d;
			} else if (j < t) {
				in_a += d;
				pa += w[i] * w[j];
			} else {
				in_b += d;
				pb += w[i] * w[j];
			}
		}
	return wa * wb / (wa + wb) *
		(2 * between / (wa * wb) - (pa > 0 ? in_a / pa : 0) - (pb > 0 ? in_b / pb : 0));
}

static void test_energy_profile_matches_definition(void **state)
{
	struct rng r;
	(void)state;

	rng_seed(&r, 5);
	for (int round = 0; round < 40; round++) {
		int n = 2 + (int)rng_below(&r, 60);
		double x[64], w[64], q[65];

		for (int i = 0; i < n; i++) {
			/* ties on purpose: values from a small set half of the time */
			x[i] = round % 2 ? (double)rng_below(&r, 4) : 1e6 + 100 * rng_normal(&r);
			w[i] = round % 3 ? 0.2 + rng_uniform(&r) : 1;
		}
		assert_int_equal(cp_energy_profile(x, round % 3 ? w : NULL, n, q), 0);
		assert_true(q[0] == 0);
		for (int t = 1; t < n; t++) {
			double want = brute_q(x, w, n, t);

			if (!(fabs(q[t] - want) <= 1e-7 * (1 + fabs(want))))
				fail_msg("round %d n %d t %d: %.17g, want %.17g", round, n, t, q[t], want);
		}
	}
	assert_int_equal(cp_energy_profile((double[]){ 1 }, NULL, 1, (double[2]){ 0 }), -1);
}

static void test_weights(void **state)
{
	struct cp_point same[4] = { { 10, 1, 3 }, { 11, 2, 3 }, { 9, 1, 3 }, { 10, 3, 3 } };
	/* equal means (no spread between commits): weights go with the runs */
	struct cp_point runs[3] = { { 10, 1, 1 }, { 10, 1, 2 }, { 10, 1, 5 } };
	/* commits differ by far more than their runs: all nearly alike */
	struct cp_point between[6] = { { 0, 0.01, 1 }, { 100, 0.01, 8 }, { -50, 0.01, 1 },
				       { 70, 0.01, 8 }, { -20, 0.01, 1 }, { 40, 0.01, 8 } };
	double w[7];
	(void)state;

	cp_weights(same, 4, w);
	for (int i = 0; i < 4; i++)
		assert_true(w[i] == 1);
	cp_weights(runs, 3, w);
	/* w = 1 / (s^2 / n) with s^2 pooled = 1 (n=1 has no stddev): n / mean(n) */
	assert_true(fabs(w[0] - 3.0 / 8) < 1e-12);
	assert_true(fabs(w[1] - 6.0 / 8) < 1e-12);
	assert_true(fabs(w[2] - 15.0 / 8) < 1e-12);
	cp_weights(between, 6, w);
	for (int i = 0; i < 6; i++)
		assert_true(fabs(w[i] - 1) < 1e-4);
	{
		/* both: successive differences of +-2 give MAD 2, a point's
		 * variance (1.4826 * 2)^2 / 2; the runs' (s = 1) part of it
		 * is the mean of 1/n; tau^2 is the rest */
		struct cp_point mix[7];
		static const int nr[7] = { 1, 2, 4, 1, 2, 4, 1 };
		double tau2 = pow(1.4826 * 2, 2) / 2 - 4.5 / 7, sum = 0, want[7];

		for (int i = 0; i < 7; i++) {
			mix[i] = (struct cp_point){ i % 2 ? 2 : 0, 1, nr[i] };
			want[i] = 1 / (tau2 + 1.0 / nr[i]);
			sum += want[i];
		}
		cp_weights(mix, 7, w);
		for (int i = 0; i < 7; i++)
			assert_true(fabs(w[i] - want[i] * 7 / sum) < 1e-12);
	}
	/* no stddev anywhere: equal weights */
	runs[1].n = 1;
	runs[2].n = 1;
	runs[0].n = 2;
	runs[0].stddev = NAN;
	cp_weights(runs, 3, w);
	for (int i = 0; i < 3; i++)
		assert_true(w[i] == 1);
}

static void test_noise(void **state)
{
	/* one run a point: successive differences of +-2 around a median of
	 * 0 give MAD 2, a point's variance (1.4826 * 2)^2 / 2 */
	struct cp_point alt[7];
	static const int nr[7] = { 1, 2, 4, 1, 2, 4, 1 };
	double fl[7], v = pow(1.4826 * 2, 2) / 2;
	(void)state;

	for (int i = 0; i < 7; i++)
		alt[i] = (struct cp_point){ i % 2 ? 2 : 0, NAN, 1 };
	cp_noise(alt, 7, fl);
	for (int i = 0; i < 7; i++)
		assert_true(fabs(fl[i] - v) < 1e-12);
	/* a drift shifts every difference alike: the same noise */
	for (int i = 0; i < 7; i++)
		alt[i].mean += 10 * i;
	cp_noise(alt, 7, fl);
	for (int i = 0; i < 7; i++)
		assert_true(fabs(fl[i] - v) < 1e-9);
	/* with runs (s = 1): tau^2 + 1 / n_i, tau^2 as in cp_weights */
	for (int i = 0; i < 7; i++)
		alt[i] = (struct cp_point){ i % 2 ? 2 : 0, 1, nr[i] };
	cp_noise(alt, 7, fl);
	for (int i = 0; i < 7; i++)
		assert_true(fabs(fl[i] - (v - 4.5 / 7 + 1.0 / nr[i])) < 1e-12);
	/* runs noisier than the differences: tau^2 is 0, the runs alone */
	for (int i = 0; i < 7; i++)
		alt[i].stddev = 10;
	cp_noise(alt, 7, fl);
	for (int i = 0; i < 7; i++)
		assert_true(fabs(fl[i] - 100.0 / nr[i]) < 1e-12);
	/* too short for differences, no runs: no floor */
	cp_noise(alt, 0, fl);
	alt[0] = (struct cp_point){ 1, NAN, 1 };
	alt[1] = (struct cp_point){ 5, NAN, 1 };
	cp_noise(alt, 2, fl);
	assert_true(fl[0] == 0 && fl[1] == 0);
}

/*
 * Three neighbouring points that agree by luck: on their own they are a
 * side with almost no variance, and a level 1.2 sd away from the rest looks
 * certain; against the series' noise it is not a change.
 */
static void test_noise_floor_lucky_points(void **state)
{
	struct cp_point pts[24];
	struct cp_options opt;
	struct cp_result res;
	double w[24], p_plain, p_floor, fl[24];
	struct rng r;
	(void)state;

	rng_seed(&r, 17);
	for (int i = 0; i < 24; i++)
		pts[i] = (struct cp_point){ 100 + rng_normal(&r), NAN, 1 };
	pts[21].mean = 101.2;
	pts[22].mean = 101.201;
	pts[23].mean = 101.199;
	for (int i = 0; i < 24; i++)
		w[i] = 1;
	cp_noise(pts, 24, fl);
	p_plain = cp_side_test(pts, w, NULL, 0, 21, 24, NULL, NULL);
	p_floor = cp_side_test(pts, w, fl, 0, 21, 24, NULL, NULL);
	print_message("p without the floor %g, with %g\n", p_plain, p_floor);
	assert_true(p_plain < 1e-4);
	assert_true(p_floor > 0.01);
	cp_options_init(&opt);
	cp_result_init(&res);
	assert_int_equal(cp_detect(pts, 24, &opt, &res), 0);
	assert_int_equal(res.nr, 0);
	cp_result_release(&res);
}

static void test_side_test(void **state)
{
	/* one run a point: exactly Welch's t on the means */
	double a[] = { 10, 12, 11, 13, 9 }, b[] = { 15, 14, 17, 16 }, w[9], before, after;
	struct cp_point pts[9];
	double want, got;
	(void)state;

	for (int i = 0; i < 9; i++) {
		pts[i] = (struct cp_point){ i < 5 ? a[i] : b[i - 5], NAN, 1 };
		w[i] = 1;
	}
	want = welch_test(b, 4, a, 5, NULL, NULL);
	got = cp_side_test(pts, w, NULL, 0, 5, 9, &before, &after);
	assert_true(fabs(got - want) < 1e-12 * want);
	assert_true(fabs(before - 11) < 1e-12 && fabs(after - 15.5) < 1e-12);

	/* the runs' own noise is a floor: points that agree by luck do not
	 * make a side exact */
	for (int i = 0; i < 9; i++)
		pts[i] = (struct cp_point){ i < 5 ? 10 : 11, 4, 4 };
	got = cp_side_test(pts, w, NULL, 0, 5, 9, NULL, NULL);
	/* each side's mean has variance (16 / 4) / points: t = 1 / sqrt(4/5 + 4/4) */
	want = t_pvalue(1 / sqrt(4.0 / 5 + 4.0 / 4),
			pow(4.0 / 5 + 1, 2) / (pow(4.0 / 5, 2) / 15 + pow(1.0, 2) / 12));
	assert_true(fabs(got - want) < 1e-12);

	/* the series' noise is a floor too, each side's at sum w^2 floor / W^2
	 * with the side's own degrees of freedom: a floor of 3 a point binds
	 * both sides (0.6 > 2.5 / 5, 0.75 > 5 / 3 / 4), a floor of 2 only the
	 * right one (0.4 < 0.5, 0.5 > 5 / 12) */
	for (int i = 0; i < 9; i++)
		pts[i] = (struct cp_point){ i < 5 ? a[i] : b[i - 5], NAN, 1 };
	{
		double fl[9], va = 2.5 / 5;

		for (int i = 0; i < 9; i++)
			fl[i] = 3;
		got = cp_side_test(pts, w, fl, 0, 5, 9, NULL, NULL);
		want = t_pvalue(4.5 / sqrt(0.6 + 0.75),
				pow(0.6 + 0.75, 2) / (0.6 * 0.6 / 4 + 0.75 * 0.75 / 3));
		assert_true(fabs(got - want) < 1e-12 * want);
		for (int i = 0; i < 9; i++)
			fl[i] = 2;
		got = cp_side_test(pts, w, fl, 0, 5, 9, NULL, NULL);
		want = t_pvalue(4.5 / sqrt(va + 0.5), pow(va + 0.5, 2) / (va * va / 4 + 0.25 / 3));
		assert_true(fabs(got - want) < 1e-12 * want);
		/* below both: the plain test */
		for (int i = 0; i < 9; i++)
			fl[i] = 1;
		got = cp_side_test(pts, w, fl, 0, 5, 9, NULL, NULL);
		want = welch_test(b, 4, a, 5, NULL, NULL);
		assert_true(fabs(got - want) < 1e-12 * want);
	}

	/* constant sides: 0 when they differ, 1 when equal */
	for (int i = 0; i < 9; i++)
		pts[i] = (struct cp_point){ i < 5 ? 10 : 11, 0, 3 };
	assert_true(cp_side_test(pts, w, NULL, 0, 5, 9, NULL, NULL) == 0);
	assert_true(cp_side_test(pts, w, NULL, 0, 2, 5, NULL, NULL) == 1);
	/* one point of one run on each side: nothing to estimate a variance */
	pts[0] = (struct cp_point){ 1, NAN, 1 };
	pts[1] = (struct cp_point){ 2, NAN, 1 };
	assert_true(cp_side_test(pts, w, NULL, 0, 1, 2, NULL, NULL) == 1);
}

/* Points of level lv[k] over len[k] points each, noise from seed (sd
 * `noise` per point, 3 runs behind each). */
static int build(struct cp_point *pts, const double *lv, const int *len, int nlv,
		 double noise, uint64_t seed)
{
	struct rng r;
	int n = 0;

	rng_seed(&r, seed);
	for (int k = 0; k < nlv; k++)
		for (int i = 0; i < len[k]; i++, n++)
			pts[n] = (struct cp_point){ lv[k] + noise * rng_normal(&r),
						    noise * sqrt(3), 3 };
	return n;
}

static void expect_changes(const struct cp_point *pts, int n, const struct cp_options *opt,
			   const int *want, int nwant)
{
	struct cp_result res;

	cp_result_init(&res);
	assert_int_equal(cp_detect(pts, n, opt, &res), 0);
	if (res.nr != nwant) {
		for (int k = 0; k < res.nr; k++)
			print_message("found %d p %g change %g\n", res.change[k].index,
				      res.change[k].p, res.change[k].change);
		fail_msg("%d changes, want %d", res.nr, nwant);
	}
	for (int k = 0; k < nwant; k++)
		assert_int_equal(res.change[k].index, want[k]);
	cp_result_release(&res);
}

static void test_exact_splits(void **state)
{
	struct cp_point pts[400];
	struct cp_options opt;
	int n;
	(void)state;

	cp_options_init(&opt);
	/* one step */
	n = build(pts, (double[]){ 100, 120 }, (int[]){ 20, 20 }, 2, 1, 1);
	expect_changes(pts, n, &opt, (int[]){ 20 }, 1);
	/* a bump that comes back: both ends */
	n = build(pts, (double[]){ 100, 130, 100 }, (int[]){ 15, 15, 15 }, 3, 1, 2);
	expect_changes(pts, n, &opt, (int[]){ 15, 30 }, 2);
	/* a staircase, up and down */
	n = build(pts, (double[]){ 100, 110, 95, 105, 90 }, (int[]){ 30, 25, 40, 35, 30 }, 5, 1, 3);
	expect_changes(pts, n, &opt, (int[]){ 30, 55, 95, 130 }, 4);
	/* flat: nothing, whatever the length */
	n = build(pts, (double[]){ 100 }, (int[]){ 400 }, 1, 1, 4);
	expect_changes(pts, n, &opt, NULL, 0);
	/* changes that cancel out inside a segment: found through its halves
	 * (one split of [0, 28) is not significant, see find_candidates) */
	n = build(pts, (double[]){ 1000, 890, 1010, 930, 1100, 1290 },
		  (int[]){ 8, 5, 8, 7, 10, 12 }, 6, 6, 5);
	expect_changes(pts, n, &opt, (int[]){ 8, 13, 21, 28, 38 }, 5);
	/* a short dip that comes back: no single split of 10 points is
	 * significant, its parts are */
	n = build(pts, (double[]){ 1000, 800, 1000 }, (int[]){ 4, 3, 3 }, 3, 2, 6);
	expect_changes(pts, n, &opt, (int[]){ 4, 7 }, 2);
}

static void test_change_fields(void **state)
{
	struct cp_point pts[100];
	struct cp_options opt;
	struct cp_result res;
	const struct cp_change *c;
	(void)state;

	/* constant sides: 100 then 110, exactly */
	for (int i = 0; i < 100; i++)
		pts[i] = (struct cp_point){ i < 50 ? 100 : 110, 0, 3 };
	cp_options_init(&opt);
	cp_result_init(&res);
	assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	c = &res.change[0];
	assert_int_equal(c->index, 50);
	assert_int_equal(c->lo, 50 - CP_DEFAULT_WINDOW);
	assert_int_equal(c->hi, 50 + CP_DEFAULT_WINDOW);
	assert_true(c->before == 100 && c->after == 110);
	assert_true(c->change == 0.1);
	assert_true(c->p == 0 && c->p_split == 0 && c->p_local == 0);

	/* a clear step decides on Welch alone: p_split = 2 * (places for a
	 * split) * p of the side test, 3 points a side at least */
	{
		struct cp_point st[40];
		double w1[40], fl[40];
		int n = build(st, (double[]){ 100, 105 }, (int[]){ 20, 20 }, 2, 1, 21);

		for (int i = 0; i < n; i++)
			w1[i] = 1;
		cp_noise(st, n, fl);
		assert_int_equal(cp_detect(st, n, &opt, &res), 0);
		assert_int_equal(res.nr, 1);
		assert_int_equal(res.change[0].index, 20);
		assert_true(res.change[0].p_split ==
			    2 * (40 - 6 + 1) * cp_side_test(st, w1, fl, 0, 20, 40, NULL, NULL));
	}

	/* min_change is inclusive: exactly 10% is kept, a hair more is not */
	opt.min_change = 0.1;
	assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	opt.min_change = nextafter(0.1, 1);
	assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
	assert_int_equal(res.nr, 0);

	/* the window bounds the local test: smaller window, smaller [lo, hi) */
	cp_options_init(&opt);
	opt.window = 7;
	assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_int_equal(res.change[0].lo, 43);
	assert_int_equal(res.change[0].hi, 57);

	/* from zero: an infinite relative change, still reported */
	for (int i = 0; i < 100; i++)
		pts[i].mean = i < 50 ? 0 : -5;
	cp_options_init(&opt);
	assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_true(isinf(res.change[0].change) && res.change[0].change < 0);
	cp_result_release(&res);
}

static void test_pvalue_boundary(void **state)
{
	struct cp_point pts[60];
	struct cp_options opt;
	struct cp_result res;
	double p;
	int n;
	(void)state;

	/* a middling step: p is well inside (0, pvalue) */
	n = build(pts, (double[]){ 100, 101.4 }, (int[]){ 30, 30 }, 2, 2, 9);
	cp_options_init(&opt);
	opt.max_permutations = 999;     /* the bound must not move with pvalue */
	cp_result_init(&res);
	assert_int_equal(cp_detect(pts, n, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	p = res.change[0].p;
	print_message("p = %.17g\n", p);
	assert_true(p > 1e-6 && p < opt.pvalue);
	/* inclusive: p itself passes, the next double below does not */
	opt.pvalue = p;
	assert_int_equal(cp_detect(pts, n, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_true(res.change[0].p == p);
	opt.pvalue = nextafter(p, 0);
	assert_int_equal(cp_detect(pts, n, &opt, &res), 0);
	assert_int_equal(res.nr, 0);
	cp_result_release(&res);
}

/*
 * A split Welch hardly sees (an outlier inflates the right side's
 * variance: p_bonf is between pvalue / 2 and pvalue, checked below) but
 * the order does: every value right is above every value left.  With 9
 * permutations and pvalue 0.2, p_perm can only reach 1 / (9 + 1), with no
 * permutation as good, which is the only way to pass 0.2 / 2: p = 2 * 0.1
 * exactly.  With the automatic bound, 10 / 0.2 - 1 = 49: p = 2 / 50.
 * The outlier is not the last point: there it would be a jumping tail
 * (test_late_jump), which adds its own tests.
 */
static void test_permutation_bound(void **state)
{
	static const double v[12] = { 10, 11, 9, 10, 11, 9, 13, 14, 22, 12, 13, 14 };
	double w[12], p_bonf;
	struct cp_point pts[12];
	struct cp_options opt;
	struct cp_result res;
	(void)state;

	for (int i = 0; i < 12; i++) {
		pts[i] = (struct cp_point){ v[i], NAN, 1 };
		w[i] = 1;
	}
	/* 7 places for a split of 12 points with 3 a side */
	p_bonf = 7 * cp_side_test(pts, w, NULL, 0, 6, 12, NULL, NULL);
	assert_true(p_bonf > 0.1 && p_bonf <= 0.2);
	cp_options_init(&opt);
	opt.pvalue = 0.2;
	opt.max_permutations = 9;
	cp_result_init(&res);
	assert_int_equal(cp_detect(pts, 12, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_int_equal(res.change[0].index, 6);
	assert_true(res.change[0].p_split == 0.2);
	assert_true(res.change[0].p == 0.2);
	assert_true(res.permutations >= 9);
	/* 8 permutations can never reach 0.1: nothing is significant */
	opt.max_permutations = 8;
	assert_int_equal(cp_detect(pts, 12, &opt, &res), 0);
	assert_int_equal(res.nr, 0);
	opt.max_permutations = 0;
	assert_int_equal(cp_detect(pts, 12, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_true(res.change[0].p_split == 2.0 / 50);
	cp_result_release(&res);
}

/* 60 points of sd 1: a step of `step` at 40, the last `k` points `jump` higher. */
static void late_series(struct cp_point *pts, double step, int k, double jump, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (int i = 0; i < 60; i++)
		pts[i] = (struct cp_point){ 100 + (i >= 40 ? step : 0) + (i >= 60 - k ? jump : 0) +
					    rng_normal(&r), NAN, 1 };
}

/*
 * A large jump of the last 1 or 2 points does not hide an earlier step:
 * both are reported, the step as a change whose window stops before the
 * jump (so its size is the step's, not inflated by the jump), the jump as
 * the latest points.  Three points are a change, not a jump.
 */
static void test_late_jump(void **state)
{
	struct cp_point pts[60];
	struct cp_options opt;
	struct cp_result res, one;
	double p, change;
	(void)state;

	cp_options_init(&opt);
	cp_result_init(&res);
	cp_result_init(&one);
	late_series(pts, 3, 1, 30, 2);
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_int_equal(res.change[0].index, 40);
	assert_int_equal(res.change[0].hi, 59);
	assert_true(fabs(res.change[0].change - 0.03) < 0.01);
	assert_int_equal(res.latest.index, 59);
	assert_int_equal(res.latest.lo, 40);
	assert_int_equal(res.latest.hi, 60);
	assert_true(res.latest.change > 0.25 && res.latest.p < 1e-10);
	assert_true(res.latest.p == res.latest.p_split && res.latest.p == res.latest.p_local);
	/* the tests without the tail are more looks: with the tail of 1 or 2
	 * points left out or not, 3 searches and 3 local tests, each p
	 * times 3.  A step of 1.3 sd, with seed 8, is decided only by
	 * permutations, each at their best, 2 / (999 + 1): 0.006 */
	late_series(pts, 1.3, 1, 30, 8);
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_int_equal(res.change[0].index, 40);
	assert_true(res.change[0].p_split == 3 * 0.002);
	assert_true(res.change[0].p_local == 3 * 0.002);
	/* a tie: the window without the jump, which would add 1.5% */
	assert_int_equal(res.change[0].hi, 59);
	assert_true(fabs(res.change[0].change - 0.013) < 0.005);

	/* the last 2 points (CP_TAIL_MAX) */
	late_series(pts, 3, 2, 30, 2);
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_int_equal(res.change[0].index, 40);
	assert_int_equal(res.change[0].hi, 58);
	assert_int_equal(res.latest.index, 58);
	/* 3 points are a change of their own, and no jump: the point before
	 * the last 2 (or 1) jumped with them */
	late_series(pts, 3, 3, 30, 2);
	expect_changes(pts, 60, &opt, (int[]){ 40, 57 }, 2);
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.latest.index, 0);
	/* that point half-way or more is with them, just below it is not
	 * (within 1e-6: the means are summed in floating point):
	 * with min_size 2 (only k = 1), the level of the 30 points before
	 * the last is (15 * 100.5 + 14 * 99.5 + x) / 30, and x is half-way
	 * to 130 from it at x = 6800.5 / 59 */
	opt.min_size = 2;
	for (int i = 0; i < 59; i++)
		pts[i] = (struct cp_point){ 100 + (i % 2 ? 0.5 : -0.5), NAN, 1 };
	pts[59].mean = 130;
	pts[58].mean = 6800.5 / 59 - 1e-6;
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.latest.index, 59);
	pts[58].mean = 6800.5 / 59 + 1e-6;
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.latest.index, 0);
	cp_options_init(&opt);

	/* Bonferroni over the k tried: min_size 2 tries k = 1 only, the
	 * default k = 1 and 2; a flat series, so the level is the same
	 * window before the jump either way */
	late_series(pts, 0, 1, 30, 4);
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.nr, 0);
	assert_int_equal(res.latest.index, 59);
	assert_int_equal(res.latest.lo, 59 - CP_DEFAULT_WINDOW);
	opt.min_size = 2;
	assert_int_equal(cp_detect(pts, 60, &opt, &one), 0);
	assert_int_equal(one.latest.index, 59);
	assert_true(res.latest.p == 2 * one.latest.p);
	/* min_size 1: no point may jump without being a change */
	opt.min_size = 1;
	assert_int_equal(cp_detect(pts, 60, &opt, &one), 0);
	assert_int_equal(one.latest.index, 0);

	/* pvalue and min_change bound the jump, inclusive: a smaller jump
	 * so that its p is above 0 */
	cp_options_init(&opt);
	late_series(pts, 0, 1, 5, 5);
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.latest.index, 59);
	p = res.latest.p;
	change = res.latest.change;
	assert_true(p > 0);
	opt.pvalue = p;
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.latest.index, 59);
	opt.pvalue = nextafter(p, 0);
	assert_int_equal(cp_detect(pts, 60, &opt, &res), 0);
	assert_int_equal(res.latest.index, 0);
	cp_options_init(&opt);
	opt.min_change = fabs(change);
	assert_int_equal(cp_detect(pts, 60, &opt, &one), 0);
	assert_int_equal(one.latest.index, 59);
	opt.min_change = nextafter(opt.min_change, 1);
	assert_int_equal(cp_detect(pts, 60, &opt, &one), 0);
	assert_int_equal(one.latest.index, 0);
	cp_result_release(&res);
	cp_result_release(&one);
}

/* n points of sd `sd` around 100 + slope * i, plus `step` from point at on. */
static void drift_series(struct cp_point *pts, int n, double slope, double step, int at,
			 double sd, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (int i = 0; i < n; i++)
		pts[i] = (struct cp_point){ 100 + slope * i + (i >= at ? step : 0) +
					    sd * rng_normal(&r), NAN, 1 };
}

/*
 * A slow drift is one drift, not a staircase of steps; a step on top of
 * a drift is still a step, and one against it does not leave a drift
 * candidate beside it as a step; a step in a short series is not taken
 * for a drift because a line fits it nearly as well.
 */
static void test_drift(void **state)
{
	struct cp_point pts[200];
	struct cp_options opt;
	struct cp_result res;
	double change;
	(void)state;

	cp_options_init(&opt);
	cp_result_init(&res);
	/* +30% over 100 points at 5% noise: seeds whose staircase of
	 * candidates would pass without the places' Bonferroni factor */
	for (uint64_t seed = 5; seed <= 8; seed += 3) {
		drift_series(pts, 100, 0.3, 0, 0, 5, seed);
		assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
		assert_int_equal(res.nr, 0);
		assert_int_equal(res.nr_drift, 1);
		assert_int_equal(res.drift[0].lo, 0);
		assert_int_equal(res.drift[0].hi, 100);
		assert_true(res.drift[0].change > 0.25 && res.drift[0].change < 0.35);
		assert_true(res.drift[0].p < 1e-20);
		assert_true(fabs(res.drift[0].change - (res.drift[0].to - res.drift[0].from) /
				 res.drift[0].from) < 1e-12);
	}
	/* min_change bounds a drift too, inclusive */
	change = res.drift[0].change;
	opt.min_change = change;
	assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
	assert_int_equal(res.nr, 0);
	assert_int_equal(res.nr_drift, 1);
	opt.min_change = nextafter(change, 1);
	assert_int_equal(cp_detect(pts, 100, &opt, &res), 0);
	assert_int_equal(res.nr_drift, 0);
	cp_options_init(&opt);

	/* a step of 3x the noise on top of +30% over 200 points: the step,
	 * and the drift before it */
	drift_series(pts, 200, 0.15, 15, 120, 5, 1);
	assert_int_equal(cp_detect(pts, 200, &opt, &res), 0);
	assert_int_equal(res.nr, 1);
	assert_int_equal(res.change[0].index, 120);
	assert_true(res.nr_drift >= 1);
	assert_int_equal(res.drift[0].lo, 0);
	assert_int_equal(res.drift[0].hi, 120);

	/* a step of 3x the noise against that drift, at 100: the step
	 * alone.  A drift candidate beside it is alone in its run (the step
	 * goes the other way), and over the stretch between it and the step
	 * a step fitted better than a line (seed 13: at 35, seed 17: at
	 * 157); one candidate further out, the line shows */
	for (uint64_t seed = 13; seed <= 17; seed += 4) {
		drift_series(pts, 200, 0.15, -15, 100, 5, seed);
		assert_int_equal(cp_detect(pts, 200, &opt, &res), 0);
		assert_int_equal(res.nr, 1);
		assert_int_equal(res.change[0].index, 100);
		assert_int_equal(res.nr_drift, 2);
		/* by lo, though the one after the step was found first
		 * (seed 13) */
		assert_int_equal(res.drift[0].lo, 0);
		assert_int_equal(res.drift[0].hi, 100);
		assert_int_equal(res.drift[1].lo, 100);
		assert_int_equal(res.drift[1].hi, 200);
	}

	/* 30 points, a step of 2.5 sd at 15: the step fits better than a
	 * line, so it stays a step even where on top of a line it would not
	 * be significant */
	for (uint64_t seed = 2; seed <= 7; seed += 5) {
		drift_series(pts, 30, 0, 2.5, 15, 1, seed);
		assert_int_equal(cp_detect(pts, 30, &opt, &res), 0);
		assert_int_equal(res.nr, 1);
		assert_int_equal(res.change[0].index, 15);
		assert_int_equal(res.nr_drift, 0);
	}

	/* 45 points, up 2.5 sd at 15 and back at 30: both steps.  Each is
	 * alone in its run, and the levels fit [0, 45) better than a line
	 * with a step at the other one */
	for (uint64_t seed = 4; seed <= 7; seed += 3) {
		drift_series(pts, 45, 0, 2.5, 15, 1, seed);
		for (int i = 30; i < 45; i++)
			pts[i].mean -= 2.5;
		assert_int_equal(cp_detect(pts, 45, &opt, &res), 0);
		assert_int_equal(res.nr, 2);
		assert_int_equal(res.change[0].index, 15);
		assert_int_equal(res.change[1].index, 30);
		assert_int_equal(res.nr_drift, 0);
	}

	/* flat: no drift either */
	drift_series(pts, 200, 0, 0, 0, 5, 9);
	assert_int_equal(cp_detect(pts, 200, &opt, &res), 0);
	assert_int_equal(res.nr, 0);
	assert_int_equal(res.nr_drift, 0);
	cp_result_release(&res);
}

static void test_min_size(void **state)
{
	struct cp_point pts[8];
	struct cp_options opt;
	(void)state;

	cp_options_init(&opt);
	for (int i = 0; i < 8; i++)
		pts[i] = (struct cp_point){ i < 2 ? 100 : 200, 0, 3 };
	/* by default, 3 points a side: 2 at the start are too few */
	expect_changes(pts, 8, &opt, NULL, 0);
	pts[2].mean = 100;
	expect_changes(pts, 8, &opt, (int[]){ 3 }, 1);
	pts[2].mean = 200;
	opt.min_size = 2;
	/* 4 points, 2 a side: the split at 2 is possible */
	expect_changes(pts, 4, &opt, (int[]){ 2 }, 1);
	/* 3 points cannot hold two sides of 2 */
	expect_changes(pts, 3, &opt, NULL, 0);
	expect_changes(pts, 0, &opt, NULL, 0);
}

static void test_deterministic(void **state)
{
	struct cp_point pts[300];
	struct cp_options opt;
	struct cp_result a, b, c;
	bool differs = false;
	int n;
	(void)state;

	/* small steps, so that permutations decide some splits */
	n = build(pts, (double[]){ 100, 102, 99, 101 }, (int[]){ 80, 70, 90, 60 }, 4, 2, 11);
	cp_options_init(&opt);
	cp_result_init(&a);
	cp_result_init(&b);
	cp_result_init(&c);
	assert_int_equal(cp_detect(pts, n, &opt, &a), 0);
	assert_int_equal(cp_detect(pts, n, &opt, &b), 0);
	assert_true(a.permutations > 0);
	assert_int_equal(a.nr, b.nr);
	assert_true(a.permutations == b.permutations);
	assert_memory_equal(a.change, b.change, sizeof(*a.change) * (size_t)a.nr);
	/* another seed draws other permutations */
	opt.seed = 7;
	assert_int_equal(cp_detect(pts, n, &opt, &c), 0);
	differs = c.permutations != a.permutations || c.nr != a.nr;
	for (int k = 0; !differs && k < a.nr; k++)
		differs = c.change[k].p_split != a.change[k].p_split ||
			c.change[k].p_local != a.change[k].p_local;
	assert_true(differs);
	cp_result_release(&a);
	cp_result_release(&b);
	cp_result_release(&c);
}

static void test_bad_input(void **state)
{
	struct cp_point pts[4] = { { 1, 0, 1 }, { 1, 0, 1 }, { 1, 0, 1 }, { 1, 0, 1 } };
	struct cp_options opt;
	struct cp_result res;
	struct stderr_capture cap;
	char *msg;
	(void)state;

	cp_result_init(&res);
	cp_options_init(&opt);
	pts[2].mean = NAN;
	capture_start(&cap);
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	msg = capture_end(&cap);
	assert_string_equal(msg, "perfbot: change points: point 2 has a non-finite value\n");
	free(msg);
	pts[2].mean = 1;
	pts[3].n = 0;
	capture_start(&cap);
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	msg = capture_end(&cap);
	assert_string_equal(msg, "perfbot: change points: point 3 has 0 runs\n");
	free(msg);
	pts[3].n = 1;

	opt.pvalue = 1;
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	opt.pvalue = 0;
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	cp_options_init(&opt);
	opt.min_change = -0.01;
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	opt.min_change = INFINITY;
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	cp_options_init(&opt);
	opt.min_size = 0;
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	cp_options_init(&opt);
	opt.window = 1;
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	cp_options_init(&opt);
	opt.max_permutations = -1;
	assert_int_equal(cp_detect(pts, 4, &opt, &res), -1);
	assert_int_equal(res.nr, 0);
	assert_null(res.change);
}

/* ---- the simulation helpers --------------------------------------------- */

static void test_score(void **state)
{
	struct cps_score s = { 0, 0, 0 };
	(void)state;

	/* 10 matched within 2, 50 missed, 31 false; 90 matched exactly */
	cps_score_add((int[]){ 10, 50, 90 }, 3, (int[]){ 12, 31, 90 }, 3, 2, &s);
	assert_true(s.tp == 2 && s.fp == 1 && s.fn == 1);
	/* tolerance is inclusive, and one detection serves one truth */
	s = (struct cps_score){ 0, 0, 0 };
	cps_score_add((int[]){ 10, 13 }, 2, (int[]){ 12 }, 1, 2, &s);
	assert_true(s.tp == 1 && s.fp == 0 && s.fn == 1);
	s = (struct cps_score){ 0, 0, 0 };
	cps_score_add((int[]){ 10 }, 1, (int[]){ 13 }, 1, 2, &s);
	assert_true(s.tp == 0 && s.fp == 1 && s.fn == 1);
	s = (struct cps_score){ 0, 0, 0 };
	cps_score_add(NULL, 0, (int[]){ 1, 2 }, 2, 2, &s);
	assert_true(s.tp == 0 && s.fp == 2 && s.fn == 0);
}

static void test_generate(void **state)
{
	struct cps_scenario sc = { 500, 0.05, 0.10, 0.20, 5, 5, 0, 0, 0, 4 };
	struct cps_series s;
	struct rng r;
	(void)state;

	rng_seed(&r, 3);
	cps_generate(&sc, &r, &s);
	assert_int_equal(s.n, 500);
	assert_int_equal(s.nr_truth, 5);
	/* spaced at least 500 / 24 = 20 points, and from the ends */
	assert_true(s.truth[0] >= 20 && s.truth[4] <= 480);
	for (int k = 1; k < 5; k++)
		assert_true(s.truth[k] - s.truth[k - 1] >= 20);
	for (int i = 0; i < s.n; i++)
		assert_int_equal(s.pt[i].n, 4);
	/* each true change moves the level by 10-20% (noise 5% / sqrt(4)) */
	for (int k = 0; k < 5; k++) {
		double a = 0, b = 0, ch;

		for (int i = 0; i < 10; i++) {
			a += s.pt[s.truth[k] - 1 - i].mean / 10;
			b += s.pt[s.truth[k] + i].mean / 10;
		}
		ch = fabs(b - a) / a;
		assert_true(ch > 0.06 && ch < 0.25);
	}
	cps_series_release(&s);
}

static void test_sliding_welch(void **state)
{
	struct cp_point pts[60];
	int *found, nf;
	(void)state;

	for (int i = 0; i < 60; i++)
		pts[i] = (struct cp_point){ (i < 30 ? 100 : 120) + (i % 3) * 0.5, 0, 1 };
	nf = cps_sliding_welch(pts, 60, 10, 0.01, 0.01, &found);
	assert_int_equal(nf, 1);
	assert_int_equal(found[0], 30);
	free(found);
	/* a change below min_change is not flagged */
	nf = cps_sliding_welch(pts, 60, 10, 0.01, 0.25, &found);
	assert_int_equal(nf, 0);
	free(found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_energy_profile_matches_definition),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_side_test),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_noise_floor_lucky_points),
		cmocka_unit_test(test_exact_splits),
		cmocka_unit_test(test_change_fields),
		cmocka_unit_test(test_pvalue_boundary),
		cmocka_unit_test(test_permutation_bound),
		cmocka_unit_test(test_late_jump),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_min_size),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_generate),
		cmocka_unit_test(test_sliding_welch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
