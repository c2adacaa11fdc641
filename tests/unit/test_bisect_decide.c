/*
 * test_bisect_decide.c: the verdicts of a performance bisection
 * (src/bisect/decide.c): classify in both directions and every test,
 * the adaptive run counts and their bounds, the endpoint check, the
 * parameters and the sample sets.
 */
#include "test_helpers.h"

#include <math.h>
#include <string.h>

#include "bisect/decide.h"
#include "stats/stat_tests.h"

/* A sample set over a literal array (alloc 0: not owned). */
#define SET(...) ((struct sample_set){ (double[]){ __VA_ARGS__ }, \
	(int)(sizeof((double[]){ __VA_ARGS__ }) / sizeof(double)), 0 })

/* Runs around 100 and around 90 (a 10% drop), about 1% noise. */
#define GOOD_RUNS 100.0, 101.2, 98.9, 100.4, 99.6, 100.9, 99.1, 100.2
#define BAD_RUNS 90.3, 89.2, 90.8, 89.7, 90.1, 91.0, 89.4, 90.5
/* The same drop seen as a rise (e.g. latency): bad is 110. */
#define RISE_RUNS 110.2, 109.1, 110.9, 109.6, 110.4, 111.0, 109.3, 110.5

static struct bisect_params params(unsigned tests)
{
	struct bisect_params p;

	bisect_params_init(&p, 64);
	p.tests = tests;
	return p;
}

static const unsigned all_tests[] = {
	BISECT_TEST_POOLED, BISECT_TEST_WELCH, BISECT_TEST_MWU,
	BISECT_TEST_WELCH | BISECT_TEST_MWU | BISECT_TEST_POOLED,
};

/* ---- classify ------------------------------------------------------- */

static void test_classify_clear(void **state)
{
	struct sample_set good = SET(GOOD_RUNS), bad = SET(BAD_RUNS);
	struct sample_set like_good = SET(100.3, 99.5, 100.8, 99.9, 100.1, 100.6);
	struct sample_set like_bad = SET(90.2, 89.6, 90.7, 89.9, 90.4, 90.0);
	(void)state;

	for (size_t i = 0; i < sizeof(all_tests) / sizeof(*all_tests); i++) {
		struct bisect_params p = params(all_tests[i]);

		assert_int_equal(bisect_classify(&like_good, &good, &bad, NULL, NULL, NULL, &p), BISECT_GOOD);
		assert_int_equal(bisect_classify(&like_bad, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	}
}

static void test_classify_rise(void **state)
{
	struct sample_set good = SET(GOOD_RUNS), bad = SET(RISE_RUNS);
	struct sample_set like_good = SET(100.3, 99.5, 100.8, 99.9, 100.1, 100.6);
	struct sample_set like_bad = SET(110.2, 109.6, 110.7, 109.9, 110.4, 110.0);
	struct bisect_params p = params(BISECT_TEST_POOLED);
	(void)state;

	assert_int_equal(bisect_classify(&like_good, &good, &bad, NULL, NULL, NULL, &p), BISECT_GOOD);
	assert_int_equal(bisect_classify(&like_bad, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	/* the sides swapped: the verdicts follow the sides, not a direction */
	assert_int_equal(bisect_classify(&like_bad, &bad, &good, NULL, NULL, NULL, &p), BISECT_GOOD);
	assert_int_equal(bisect_classify(&like_good, &bad, &good, NULL, NULL, NULL, &p), BISECT_BAD);
}

static void test_classify_unknown(void **state)
{
	struct sample_set good = SET(GOOD_RUNS), bad = SET(BAD_RUNS);
	/* half-way: unlike both */
	struct sample_set middle = SET(95.2, 94.7, 95.1, 94.9, 95.3, 95.0);
	/* beyond bad: unlike both, though closer to bad */
	struct sample_set beyond = SET(80.2, 79.7, 80.1, 79.9, 80.3, 80.0);
	/* so noisy it is like both */
	struct sample_set noisy = SET(80, 110, 95, 100, 88);
	struct sample_set one = SET(91.5);
	struct sample_set empty = { NULL, 0, 0 };
	(void)state;

	for (size_t i = 0; i < sizeof(all_tests) / sizeof(*all_tests); i++) {
		struct bisect_params p = params(all_tests[i]);

		assert_int_equal(bisect_classify(&middle, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
		assert_int_equal(bisect_classify(&beyond, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
		assert_int_equal(bisect_classify(&noisy, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
		assert_int_equal(bisect_classify(&empty, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
		assert_int_equal(bisect_classify(&one, &empty, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	}
	/* one run: Welch cannot use it, exact MWU cannot reach alpha with it
	 * (2 / 9), while the pooled t, knowing the noise from the sides, can */
	{
		struct bisect_params p = params(BISECT_TEST_WELCH);

		assert_int_equal(bisect_classify(&one, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
		p.tests = BISECT_TEST_MWU;
		assert_int_equal(bisect_classify(&one, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
		p.tests = BISECT_TEST_POOLED;
		assert_int_equal(bisect_classify(&one, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	}
}

/* Distinguishable from good but "closer to good" must not be BAD: the
 * distance guard against a side so noisy that nothing differs from it. */
static void test_classify_closer_guard(void **state)
{
	struct sample_set good = SET(100.0, 100.1, 99.9, 100.0, 100.1, 99.9, 100.0, 100.0);
	struct sample_set bad = SET(60, 120, 75, 115, 65, 110, 70, 105);
	struct sample_set step = SET(97.0, 97.1, 96.9, 97.0, 97.1, 96.9);
	struct bisect_params p = params(BISECT_TEST_WELCH);
	(void)state;

	assert_true(bisect_pvalue(&step, &good, &p) < p.alpha);
	assert_true(bisect_pvalue(&step, &bad, &p) >= p.alpha);
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
}

/* The level decides: the same runs are GOOD at a loose level, UNKNOWN
 * at a strict one. */
static void test_classify_alpha(void **state)
{
	struct sample_set good = SET(GOOD_RUNS), bad = SET(BAD_RUNS);
	struct sample_set step = SET(99.0, 101.0);
	struct bisect_params p = params(BISECT_TEST_WELCH);
	double pb = bisect_pvalue(&step, &bad, &p);
	(void)state;

	/* two runs give Welch about one degree of freedom: a middling p */
	assert_true(pb > 0.01 && pb < 0.2);
	p.alpha = 0.2;
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_GOOD);
	p.alpha = 0.01;
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
}

static void test_pvalue(void **state)
{
	struct sample_set a = SET(GOOD_RUNS), b = SET(BAD_RUNS), one = SET(95);
	struct sample_set same = SET(5, 5, 5), same2 = SET(5, 5), other = SET(6, 6);
	struct bisect_params p = params(BISECT_TEST_WELCH);
	(void)state;

	assert_true(bisect_pvalue(&a, &b, &p) < 1e-6);
	assert_true(bisect_pvalue(&a, &a, &p) > 0.99);
	/* Welch is undefined with one run: counts as no evidence */
	assert_true(bisect_pvalue(&one, &a, &p) == 1);
	/* pooled: no variance at all */
	p.tests = BISECT_TEST_POOLED;
	assert_true(bisect_pvalue(&same, &same2, &p) == 1);
	assert_true(bisect_pvalue(&same, &other, &p) == 0);
	/* the largest p counts: adding a weaker test can only raise it */
	p.tests = BISECT_TEST_POOLED;
	{
		struct sample_set x = SET(1, 2, 3), y = SET(4, 5, 6);
		double pooled = bisect_pvalue(&x, &y, &p);

		p.tests |= BISECT_TEST_MWU;
		assert_true(bisect_pvalue(&x, &y, &p) >= pooled);
		/* exact MWU of 3 vs 3 cannot go below 2/20 */
		assert_true(fabs(bisect_pvalue(&x, &y, &p) - 0.1) < 1e-9);
	}
}

/* ---- runs_wanted ---------------------------------------------------- */

static void test_runs_wanted_endpoints(void **state)
{
	struct sample_set good = SAMPLE_SET_INIT, bad = SAMPLE_SET_INIT;
	struct bisect_params p = params(BISECT_TEST_POOLED);
	struct bisect_runs more;
	(void)state;

	/* nothing measured: ref_min_runs each */
	assert_int_equal(bisect_runs_wanted(NULL, &good, &bad, NULL, NULL, NULL, &p, &more),
			 2 * p.ref_min_runs);
	assert_int_equal(more.good, p.ref_min_runs);
	assert_int_equal(more.bad, p.ref_min_runs);
	assert_int_equal(more.step, 0);

	/* the same distribution on both: grow one each, up to ref_max_runs */
	for (int i = 0; i < p.ref_min_runs; i++) {
		sample_set_add(&good, 100 + (i % 2 ? 1 : -1));
		sample_set_add(&bad, 100 + (i % 2 ? -1 : 1));
	}
	assert_int_equal(bisect_runs_wanted(NULL, &good, &bad, NULL, NULL, NULL, &p, &more), 2);
	assert_int_equal(more.good, 1);
	assert_int_equal(more.bad, 1);
	while (good.nr < p.ref_max_runs) {
		sample_set_add(&good, 100 + (good.nr % 2 ? 1 : -1));
		sample_set_add(&bad, 100 + (bad.nr % 2 ? -1 : 1));
	}
	assert_int_equal(bisect_runs_wanted(NULL, &good, &bad, NULL, NULL, NULL, &p, &more), 0);
	sample_set_release(&good);
	sample_set_release(&bad);

	/* clearly different at ref_min_runs: nothing more */
	{
		struct sample_set g = SET(100, 101, 99, 100.5), b = SET(90, 91, 89, 90.5);

		assert_int_equal(bisect_runs_wanted(NULL, &g, &b, NULL, NULL, NULL, &p, &more), 0);
	}
}

static void test_runs_wanted_step(void **state)
{
	struct sample_set good = SET(GOOD_RUNS), bad = SET(BAD_RUNS);
	struct sample_set step = SAMPLE_SET_INIT;
	struct bisect_params p = params(BISECT_TEST_POOLED);
	struct bisect_runs more;
	(void)state;

	/* a fresh step: min_runs, the sides are big enough */
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), p.min_runs);
	assert_int_equal(more.step, p.min_runs);
	assert_int_equal(more.good + more.bad, 0);

	/* clearly bad: decide now */
	sample_set_add(&step, 90.1);
	sample_set_add(&step, 89.8);
	sample_set_add(&step, 90.3);
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), 0);
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	sample_set_release(&step);

	/* half-way: one more run, and none of the sides (they have more) */
	for (int i = 0; i < 3; i++)
		sample_set_add(&step, 95 + (i - 1) * 0.2);
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), 1);
	assert_int_equal(more.step, 1);
	/* ... until max_runs: then the caller skips */
	while (step.nr < p.max_runs)
		sample_set_add(&step, 95 + (step.nr % 3 - 1) * 0.2);
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), 0);
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	sample_set_release(&step);
}

/* An undecided step with as many runs as a side asks for a run of the
 * side it must be told apart from, and only that one. */
static void test_runs_wanted_far_side(void **state)
{
	struct sample_set good = SET(100.0, 102.0, 98.0, 101.0);
	struct sample_set bad = SET(90.0, 92.0, 88.0, 91.0);
	struct sample_set leans_bad = SET(95.0, 87.0, 96.0, 88.0);
	struct sample_set leans_good = SET(103.0, 95.0, 104.0, 96.0);
	struct bisect_params p = params(BISECT_TEST_POOLED);
	struct bisect_runs more;
	(void)state;

	p.alpha = 1e-4;         /* keep them undecided */
	assert_int_equal(bisect_classify(&leans_bad, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	assert_int_equal(bisect_classify(&leans_good, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	assert_int_equal(bisect_runs_wanted(&leans_bad, &good, &bad, NULL, NULL, NULL, &p, &more), 2);
	assert_int_equal(more.step, 1);
	assert_int_equal(more.good, 1);
	assert_int_equal(more.bad, 0);
	assert_int_equal(bisect_runs_wanted(&leans_good, &good, &bad, NULL, NULL, NULL, &p, &more), 2);
	assert_int_equal(more.good, 0);
	assert_int_equal(more.bad, 1);

	/* sides at ref_max_runs grow no more */
	p.ref_min_runs = p.ref_max_runs = 4;
	assert_int_equal(bisect_runs_wanted(&leans_bad, &good, &bad, NULL, NULL, NULL, &p, &more), 1);
	assert_int_equal(more.good, 0);
}

/* Sides below ref_min_runs are topped up first, and exact Mann-Whitney
 * asks for as many step runs as it needs to reach alpha at all. */
static void test_runs_wanted_floors(void **state)
{
	struct sample_set good = SET(100, 101), bad = SET(90, 91, 89, 90.5, 90.2);
	struct sample_set step = SAMPLE_SET_INIT;
	struct bisect_params p = params(BISECT_TEST_MWU);
	struct bisect_runs more;
	int n, total;
	(void)state;

	total = bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more);
	assert_int_equal(total, (p.ref_min_runs - 2) + more.step);
	assert_int_equal(more.good, p.ref_min_runs - 2);
	assert_int_equal(more.bad, 0);
	/* the smallest n with which MWU can reach alpha against the sides */
	for (n = 1; mann_whitney_min_p(n, p.ref_min_runs) >= p.alpha; n++)
		;
	assert_int_equal(more.step, n > p.min_runs ? n : p.min_runs);
	assert_true(more.step > p.min_runs);
	assert_true(more.step <= p.max_runs);
}

/* ---- check_endpoints ------------------------------------------------ */

static void test_check_endpoints(void **state)
{
	struct sample_set good = SET(GOOD_RUNS), bad = SET(BAD_RUNS);
	struct sample_set rise = SET(RISE_RUNS), same = SET(100.1, 99.4, 100.7, 99.8, 100.3);
	struct sample_set zero = SET(0, 0, 0), some = SET(5, 5.1, 4.9);
	struct bisect_params p = params(BISECT_TEST_POOLED);
	struct bisect_endpoints ep;
	(void)state;

	assert_true(bisect_check_endpoints(&good, &bad, &p, &ep));
	assert_true(ep.differ);
	assert_true(ep.p < 1e-6);
	assert_true(fabs(ep.rel_shift - (-0.0993)) < 0.001);
	assert_true(fabs(ep.good_mean - 100.0375) < 1e-9);

	assert_true(bisect_check_endpoints(&good, &rise, &p, &ep));
	assert_true(ep.rel_shift > 0.09);

	assert_false(bisect_check_endpoints(&good, &same, &p, &ep));
	assert_false(ep.differ);
	assert_true(ep.p > 0.5);
	assert_true(fabs(ep.rel_shift) < 0.01);

	/* significant but smaller than min_shift: nothing to bisect */
	p.min_shift = 0.15;
	assert_false(bisect_check_endpoints(&good, &bad, &p, &ep));
	assert_true(ep.p < 1e-6);
	p.min_shift = 0.05;
	assert_true(bisect_check_endpoints(&good, &bad, &p, &ep));

	/* from 0: no relative shift, any significant change counts */
	assert_true(bisect_check_endpoints(&zero, &some, &p, &ep));
	assert_true(isnan(ep.rel_shift));

	/* nothing measured */
	{
		struct sample_set empty = SAMPLE_SET_INIT;

		assert_false(bisect_check_endpoints(&empty, &bad, &p, &ep));
		assert_true(isnan(ep.good_mean));
	}
}

/* ---- parameters and sample sets -------------------------------------- */

static void test_params(void **state)
{
	struct bisect_params p64, p1k, p2, c;
	(void)state;

	bisect_params_init(&p64, 64);
	bisect_params_init(&p1k, 1024);
	bisect_params_init(&p2, 1);
	/* the per-bisection levels shared over log2(n) verdicts */
	assert_true(fabs(p64.alpha * 6 - p1k.alpha * 10) < 1e-12);
	assert_true(fabs(p64.confirm_alpha * 6 - p1k.confirm_alpha * 10) < 1e-12);
	assert_true(p1k.alpha < p64.alpha && p64.alpha < p2.alpha);
	assert_true(p2.alpha < 1);
	assert_true(p64.confirm_alpha < p64.alpha);
	assert_true(p64.min_runs >= 1 && p64.min_runs <= p64.max_runs);
	assert_true(p64.ref_min_runs >= 1 && p64.ref_min_runs <= p64.ref_max_runs);

	c = bisect_confirm_params(&p64);
	assert_true(c.alpha == p64.confirm_alpha);
	assert_int_equal(c.max_runs, p64.max_runs);
	assert_true(p64.alpha != p64.confirm_alpha);     /* p untouched */
	/* a confirmation takes 3 fresh runs at least, more if asked, at
	 * most max_runs */
	assert_int_equal(p64.min_runs, 2);
	assert_int_equal(c.min_runs, 3);
	p2 = p64;
	p2.min_runs = 6;
	assert_int_equal(bisect_confirm_params(&p2).min_runs, 6);
	p2.min_runs = 1;
	p2.max_runs = 2;
	assert_int_equal(bisect_confirm_params(&p2).min_runs, 2);

	assert_string_equal(bisect_verdict_name(BISECT_GOOD), "good");
	assert_string_equal(bisect_verdict_name(BISECT_BAD), "bad");
	assert_string_equal(bisect_verdict_name(BISECT_UNKNOWN), "skip");
}

static void test_sample_set(void **state)
{
	struct sample_set a = SAMPLE_SET_INIT, b = SAMPLE_SET_INIT;
	struct sample_set lit = SET(7, 8);
	(void)state;

	for (int i = 0; i < 100; i++)
		sample_set_add(&a, i);
	assert_int_equal(a.nr, 100);
	assert_true(a.v[99] == 99);
	sample_set_append(&b, &a);
	sample_set_append(&b, &lit);
	sample_set_append(&b, &(struct sample_set)SAMPLE_SET_INIT);
	assert_int_equal(b.nr, 102);
	assert_true(b.v[100] == 7 && b.v[101] == 8);
	sample_set_release(&a);
	assert_null(a.v);
	assert_int_equal(a.nr, 0);
	sample_set_release(&b);
}

/* Drift and two steps: the neighbours decide where the pooled sides
 * mix levels. */
static void test_classify_neighbours(void **state)
{
	/* pooled good: commits at 100 and 60; pooled bad: 50 and 32 */
	double good[] = { 100, 101, 99, 60, 61, 59 }, bad[] = { 50, 51, 49, 32, 33, 31 };
	double lo[] = { 60, 61, 59 }, hi[] = { 50, 51, 49 };
	double step_g[] = { 57.5, 58.5, 56.5 }, step_b[] = { 52.5, 53.5, 51.5 };
	double mid[] = { 75, 76, 74 };
	struct sample_set sg = { good, 6, 0 }, sb = { bad, 6, 0 };
	struct sample_set sl = { lo, 3, 0 }, sh = { hi, 3, 0 };
	struct sample_set g1 = { step_g, 3, 0 }, b1 = { step_b, 3, 0 }, m1 = { mid, 3, 0 };
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 64);
	p.tests = BISECT_TEST_POOLED;   /* the fixed-level rule's neighbours */
	/* unlike both neighbours, between them: the nearer one */
	assert_int_equal(bisect_classify(&g1, &sg, &sb, &sl, &sh, NULL, &p), BISECT_GOOD);
	assert_int_equal(bisect_classify(&b1, &sg, &sb, &sl, &sh, NULL, &p), BISECT_BAD);
	/* beyond a neighbour, not between them: no verdict from "nearer" */
	assert_int_equal(bisect_classify(&m1, &sl, &sh, &sl, &sh, NULL, &p), BISECT_UNKNOWN);
	/* halfway in ratio (400 / 200 = 200 / 100): good */
	{
		struct sample_set l2 = SET(399.5, 400, 400.5), h2 = SET(99.5, 100, 100.5);
		struct sample_set s2 = SET(199.5, 200, 200.5);

		assert_int_equal(bisect_classify(&s2, &l2, &h2, &l2, &h2, NULL, &p), BISECT_GOOD);
	}
}

/* A run far off does not move a verdict: the means are of values
 * clipped at 2 robust scales about each set's median. */
static void test_classify_outlier(void **state)
{
	double good[] = { 1000, 1004, 996, 1002, 998, 1005, 995, 1000 };
	double bad[] = { 900, 904, 896, 902, 898, 905, 895, 900 };
	double step[] = { 899, 903, 1100 };
	struct sample_set sg = { good, 8, 0 }, sb = { bad, 8, 0 }, st = { step, 3, 0 };
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 64);
	/* the raw mean, 967, is a third of the way to good */
	assert_true(fabs((899 + 903 + 1100) / 3.0 - 967.33) < 0.01);
	assert_int_equal(bisect_classify(&st, &sg, &sb, NULL, NULL, NULL, &p), BISECT_BAD);
	/* the twin without the clipping's help: the outlier in the middle */
	step[2] = 950;
	assert_int_equal(bisect_classify(&st, &sg, &sb, NULL, NULL, NULL, &p), BISECT_BAD);
	step[0] = step[1] = step[2] = 950;
	assert_int_equal(bisect_classify(&st, &sg, &sb, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
}

/* ---- the sequential verdict (BISECT_TEST_SPRT) ------------------------ */

/* z with P(Z > z) = q, by bisection on erfc: the test's own */
static double upper_z(double q)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / M_SQRT2) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The ratio by hand, on runs that no clipping touches: d = -10, the
 * step 2.5 below the midpoint, s2 pooled over all three sets, v with a
 * quarter of each side's doubt, t's tail turned into the normal's, d
 * less one standard error.
 */
static void test_llr_value(void **state)
{
	struct sample_set good = SET(99, 100, 101, 100), bad = SET(89, 90, 91, 90);
	struct sample_set step = SET(91.5, 93.5);
	double s2 = (2 + 2 + 2) / 7.0, v = s2 * (1 / 2.0 + (1 / 4.0 + 1 / 4.0) / 4);
	double size = 10 - sqrt(s2 * (1 / 4.0 + 1 / 4.0));
	/* the midpoint in ratio: sqrt(100 * 90) = 94.87, not 95 */
	double x = sqrt(100.0 * 90) - 92.5;
	double want = size * upper_z(t_pvalue(x / sqrt(v), 7) / 2) / sqrt(v);
	struct bisect_params p;
	(void)state;

	assert_true(fabs(bisect_llr(&step, &good, &bad, NULL, NULL, NULL) - want) < 1e-9);
	/* the other way round: the sign follows the sides */
	assert_true(fabs(bisect_llr(&step, &bad, &good, NULL, NULL, NULL) + want) < 1e-9);
	/* nothing to say: one run in all, equal sides, the step at the midpoint */
	{
		double m = sqrt(100.0 * 90);
		struct sample_set one = SET(90), mid = SET(m, m);

		assert_true(bisect_llr(&one, &one, &one, NULL, NULL, NULL) == 0);
		assert_true(bisect_llr(&step, &good, &good, NULL, NULL, NULL) == 0);
		assert_true(bisect_llr(&mid, &good, &bad, NULL, NULL, NULL) == 0);
	}
	/* the verdict at log(1 / alpha) exactly: >= is decisive */
	bisect_params_init(&p, 64);
	p.alpha = exp(-want);
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	p.alpha = exp(-want) * 0.999;
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	p.alpha = exp(-want);
	assert_int_equal(bisect_classify(&step, &bad, &good, NULL, NULL, NULL, &p), BISECT_GOOD);
	/* noiseless: any distance decides */
	{
		struct sample_set g0 = SET(100, 100), b0 = SET(90, 90), s0 = SET(99, 99);

		assert_true(isinf(bisect_llr(&s0, &g0, &b0, NULL, NULL, NULL)));
		assert_int_equal(bisect_classify(&s0, &g0, &b0, NULL, NULL, NULL, &p), BISECT_GOOD);
	}
}

/*
 * A neighbour unlike the rest of its side (4 standard errors) stands
 * for it alone: the second step of a history.  Good pools runs at 100
 * (8) and the neighbour's 4 at 90 + e; bad is at 80.  The step at 88.5
 * is good by the neighbour, bad-leaning by the pooled side (clipped, it
 * is at 98.7: the midpoint in ratio is 88.9).
 */
static void test_llr_neighbour(void **state)
{
	double g[12] = { 99, 101, 99, 101, 99, 101, 99, 101 };
	double l[4];
	struct sample_set bad = SET(79, 81, 79, 81, 79, 81, 79, 81);
	struct sample_set step = SET(87.5, 89.5, 87.5, 89.5);
	struct sample_set good = { g, 12, 0 }, lo = { l, 4, 0 };
	(void)state;

	/* the neighbour at 90.0: far from the rest of good -> used */
	for (int i = 0; i < 4; i++)
		g[8 + i] = l[i] = 90 + (i % 2 ? 0.5 : -0.5);
	assert_true(bisect_llr(&step, &good, &bad, &lo, NULL, NULL) < -3);
	assert_true(bisect_llr(&step, &good, &bad, NULL, NULL, NULL) > 0);
	/* a neighbour that is all of its side changes nothing */
	assert_true(bisect_llr(&step, &lo, &bad, &lo, NULL, NULL) ==
		    bisect_llr(&step, &lo, &bad, NULL, NULL, NULL));
	/* a neighbour of one run is never alone */
	lo.nr = 1;
	assert_true(bisect_llr(&step, &good, &bad, &lo, NULL, NULL) ==
		    bisect_llr(&step, &good, &bad, NULL, NULL, NULL));
}

/*
 * A neighbour of 2 runs, one of them far beyond both sides (a t3 tail,
 * a disturbed run), is band-clipped like the step before it is judged
 * unlike its side: unclipped, its mean of 65 would stand for bad and
 * put the midpoint at 83, and a step at 92 would lean good.
 */
static void test_llr_neighbour_outlier(void **state)
{
	struct sample_set good = SET(99, 101, 99, 101, 99, 101, 99, 101);
	struct sample_set bad = SET(89, 91, 89, 91, 89, 91, 89, 91, 90.5, 40);
	struct sample_set hi = SET(90.5, 40), step = SET(92, 92.5, 91.5);
	double without = bisect_llr(&step, &good, &bad, NULL, NULL, NULL);
	(void)state;

	assert_true(without > 0);
	assert_true(bisect_llr(&step, &good, &bad, NULL, &hi, NULL) == without);
}

/* The boundary of "unlike its side": z just over 4 switches, just
 * under does not (the pooled noise here is 1 a run). */
static void test_llr_neighbour_z(void **state)
{
	/* good: 12 runs of +-1 about 100 plus the neighbour's 4 at 100 + k */
	double g[16], l[4];
	struct sample_set bad = SET(79, 81, 79, 81, 79, 81, 79, 81);
	struct sample_set step = SET(95, 95.5);
	struct sample_set good = { g, 16, 0 }, lo = { l, 4, 0 };
	double base = bisect_llr(&step, &good, &bad, NULL, NULL, NULL);
	(void)state;

	for (int i = 0; i < 12; i++)
		g[i] = 100 + (i % 2 ? 1 : -1);
	for (int k = 0; k < 2; k++) {
		/* the neighbour's mean minus good's is 3/4 of its offset; the
		 * standard error sqrt(s2 (1/4 - 1/16)), s2 from all the runs */
		double off[2] = { 4.0, 6.0 };

		for (int i = 0; i < 4; i++)
			g[12 + i] = l[i] = 100 - off[k] + (i % 2 ? 1 : -1);
		base = bisect_llr(&step, &good, &bad, NULL, NULL, NULL);
		if (k == 0)
			assert_true(bisect_llr(&step, &good, &bad, &lo, NULL, NULL) == base);
		else
			assert_true(bisect_llr(&step, &good, &bad, &lo, NULL, NULL) != base);
	}
}

/* A run beyond both sides carries the step no farther than the clip
 * scale past them, even among 2 runs, whose median cannot tell which
 * is off; from 3 runs on, the step's own median clips it too. */
static void test_llr_band(void **state)
{
	struct sample_set good = SET(99, 100, 101, 100, 99, 100, 101, 100);
	struct sample_set bad = SET(89, 90, 91, 90, 89, 90, 91, 90);
	struct sample_set step = SET(100.5, 40), edge = SET(100.5, 86.04);
	struct sample_set three = SET(100.5, 99.5, 40);
	double at40, at30;
	(void)state;

	/* the scale is 1.4826 x 1.069 (the median deviation, x sqrt(8/7)),
	 * so 40 and 30 both stop at 90 - 2.5 x 1.585 = 86.04 */
	at40 = bisect_llr(&step, &good, &bad, NULL, NULL, NULL);
	step.v[1] = 30;
	at30 = bisect_llr(&step, &good, &bad, NULL, NULL, NULL);
	assert_true(at40 == at30);
	assert_true(fabs(at40 - bisect_llr(&edge, &good, &bad, NULL, NULL, NULL)) < 0.5);
	/* within the band nothing is moved */
	step.v[1] = 88;
	assert_true(bisect_llr(&step, &good, &bad, NULL, NULL, NULL) < at40);
	/* 3 runs: 40 is clipped near 99.5, and the step is good */
	assert_true(bisect_llr(&three, &good, &bad, NULL, NULL, NULL) < 0);
}

/* Sequential: the side with fewer runs gets the extra endpoint run
 * (the midpoint's doubt), whichever the step is farther from. */
static void test_runs_wanted_sprt_side(void **state)
{
	struct sample_set good = SET(99, 101, 100, 100), bad = SET(89, 91, 90, 90, 89, 91);
	struct sample_set step = SET(94.9, 95.1, 95.0, 94.8, 95.2);
	struct sample_set step_b = SET(92.4, 92.6, 92.5, 92.3, 92.7);
	struct bisect_params p;
	struct bisect_runs more;
	(void)state;

	bisect_params_init(&p, 64);
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), 2);
	assert_int_equal(more.step, 1);
	assert_int_equal(more.good, 1);
	assert_int_equal(more.bad, 0);
	/* nearer good or bad does not matter; equal counts: good */
	bad.nr = 4;
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), 2);
	assert_int_equal(more.good, 1);
	good.nr = 5;
	(void)step_b;
}

/* ---- the edges (tests/mutants.txt) ----------------------------------- */

/* The documented defaults: per-bisection levels 0.4 and 0.003 over
 * log2(n) verdicts, 2 runs a step (up to 32), 4 an endpoint (up to 40),
 * the sequential verdict, any shift. */
static void test_param_defaults(void **state)
{
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 2);
	assert_true(p.alpha == 0.4);
	assert_true(p.confirm_alpha == 0.003);
	bisect_params_init(&p, 64);
	assert_true(fabs(p.alpha - 0.4 / 6) < 1e-15);
	assert_true(fabs(p.confirm_alpha - 0.003 / 6) < 1e-15);
	assert_int_equal(p.tests, BISECT_TEST_SPRT);
	assert_int_equal(p.min_runs, 2);
	assert_int_equal(p.max_runs, 32);
	assert_int_equal(p.ref_min_runs, 4);
	assert_int_equal(p.ref_max_runs, 40);
	assert_true(p.min_shift == 0);
}

/* A p exactly at the level is no evidence of a difference, on either side
 * (the verdict wants "not distinguishable" as p >= alpha). */
static void test_classify_at_exactly_alpha(void **state)
{
	struct sample_set good = SET(GOOD_RUNS), bad = SET(BAD_RUNS);
	struct sample_set near_good = SET(97.0, 99.0, 96.5, 98.5);
	struct sample_set near_bad = SET(92.5, 94.0, 91.5, 93.0);
	struct bisect_params p = params(BISECT_TEST_WELCH);
	(void)state;

	/* near_good: unlike bad, and as unlike good as alpha itself */
	p.alpha = bisect_pvalue(&near_good, &good, &p);
	assert_true(bisect_pvalue(&near_good, &bad, &p) < p.alpha);
	assert_int_equal(bisect_classify(&near_good, &good, &bad, NULL, NULL, NULL, &p), BISECT_GOOD);
	p.alpha = nextafter(bisect_pvalue(&near_good, &good, &p), 2);
	assert_int_equal(bisect_classify(&near_good, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);

	p.alpha = bisect_pvalue(&near_bad, &bad, &p);
	assert_true(bisect_pvalue(&near_bad, &good, &p) < p.alpha);
	assert_int_equal(bisect_classify(&near_bad, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	p.alpha = nextafter(p.alpha, 2);
	assert_int_equal(bisect_classify(&near_bad, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
}

/* Sum of squared deviations, written out. */
static double ss_of(const struct sample_set *s)
{
	double m = 0, ss = 0;

	for (int i = 0; i < s->nr; i++)
		m += s->v[i] / s->nr;
	for (int i = 0; i < s->nr; i++)
		ss += (s->v[i] - m) * (s->v[i] - m);
	return ss;
}

static double mean_of(const struct sample_set *s)
{
	double m = 0;

	for (int i = 0; i < s->nr; i++)
		m += s->v[i];
	return m / s->nr;
}

/* The pooled t of the step against a side pools the variance of the
 * other side too, with its n - 1 degrees of freedom: the verdict flips
 * exactly at the p that arithmetic gives. */
static void test_pooled_degrees_of_freedom(void **state)
{
	/* (no run lies beyond 2 robust scales of its set's median: the
	 * clipped means are the plain ones) */
	struct sample_set step = SET(95.0, 96.0, 97.0);
	struct sample_set good = SET(98.0, 100.0, 100.0, 102.0);
	struct sample_set bad = SET(88.0, 90.0, 90.0, 92.0);
	struct bisect_params p = params(BISECT_TEST_POOLED);
	double ss = ss_of(&step) + ss_of(&good) + ss_of(&bad);
	int df = 3 + 4 - 2 + (4 - 1);
	double se = sqrt(ss / df * (1.0 / 3 + 1.0 / 4));
	double pb = t_pvalue((mean_of(&step) - mean_of(&bad)) / se, df);
	double pg = t_pvalue((mean_of(&step) - mean_of(&good)) / se, df);
	(void)state;

	/* the step is closer to good (4 away) than to bad (6) */
	assert_true(pb < pg);
	p.alpha = pb * 1.001;
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_GOOD);
	p.alpha = pb * 0.999;
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	/* and not above pg: then it is unlike good as well */
	p.alpha = pg * 1.001;
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
}

/* An undecided step exactly halfway: the far side to grow is good. */
static void test_far_side_tie(void **state)
{
	struct sample_set good = SET(100.0, 102.0, 98.0, 100.0);
	struct sample_set bad = SET(90.0, 92.0, 88.0, 90.0);
	struct sample_set halfway = SET(95.0, 87.0, 103.0, 95.0);
	struct bisect_params p = params(BISECT_TEST_POOLED);
	struct bisect_runs more;
	(void)state;

	p.alpha = 1e-4;
	assert_int_equal(bisect_classify(&halfway, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	assert_int_equal(bisect_runs_wanted(&halfway, &good, &bad, NULL, NULL, NULL, &p, &more), 2);
	assert_int_equal(more.step, 1);
	assert_int_equal(more.good, 1);
	assert_int_equal(more.bad, 0);
}

/*
 * A step unlike both sides (4 standard errors) and between them is at
 * neither level: before a trend can be fitted it is judged by its side
 * of their midpoint in ratio at the fixed level, log(1 / p) its "ratio"
 * (decide.c).  One that this cannot place by max_runs is at a level of
 * its own (between two steps): the nearer side in ratio, not a skip.
 * Before max_runs, or when it is not unlike both, it stays UNKNOWN.
 */
static void test_sprt_third_level(void **state)
{
	struct sample_set good = SET(99, 101, 99, 101, 99, 101, 99, 101);
	struct sample_set bad = SET(80, 82, 80, 82, 80, 82, 80, 82);
	/* at 90.5, 0.5 above the midpoint in ratio (90), the noise hiding it */
	struct sample_set mid = SET(88, 93, 88, 93, 88, 93, 88, 93);
	/* at 91, 1 above the midpoint, the noise small: the fixed level
	 * places it at once */
	struct sample_set tight = SET(90.9, 91.1, 90.9, 91.1, 90.9, 91.1, 90.9, 91.1);
	/* at 90 too, but too noisy to be unlike either at alpha */
	struct sample_set noisy = SET(70, 110, 70, 110, 70, 110, 70, 110);
	struct bisect_point pt[4];
	struct bisect_trend tr = { pt, 4, 2 };
	struct bisect_params p;
	double llr;
	(void)state;

	bisect_params_init(&p, 64);
	p.max_runs = 8;
	llr = bisect_llr(&mid, &good, &bad, NULL, NULL, NULL);
	assert_true(llr < 0 && llr > log(p.alpha));
	assert_int_equal(bisect_classify(&mid, &good, &bad, NULL, NULL, NULL, &p), BISECT_GOOD);
	/* mirrored (good at 81, bad at 100): 90.5 is nearer 100 in ratio */
	assert_int_equal(bisect_classify(&mid, &bad, &good, NULL, NULL, NULL, &p), BISECT_BAD);
	p.max_runs = 9;
	assert_int_equal(bisect_classify(&mid, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	p.max_runs = 8;
	assert_int_equal(bisect_classify(&noisy, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	/* the fixed level: log(1 / p) of the distance from the midpoint */
	{
		double s2 = (8 * 1.0 + 8 * 1.0 + 8 * 0.01) / 21;
		double v = s2 * (1 / 8.0 + (1 / 8.0 + 1 / 8.0) / 4);
		double want = log(t_pvalue((91 - sqrt(100.0 * 81)) / sqrt(v), 21));

		assert_true(want < log(p.alpha));
		assert_true(fabs(bisect_llr(&tight, &good, &bad, NULL, NULL, NULL) - want) < 1e-9);
		p.max_runs = 32;
		assert_int_equal(bisect_classify(&tight, &good, &bad, NULL, NULL, NULL, &p),
				 BISECT_GOOD);
		assert_true(fabs(bisect_llr(&tight, &bad, &good, NULL, NULL, NULL) + want) < 1e-9);
	}
	/* once the trend can be fitted (3 tested commits, the endpoints
	 * among them) the fixed level is left to it: a flat range, where
	 * the ratio's own verdict holds */
	pt[0] = (struct bisect_point){ 0, BISECT_GOOD, &good };
	pt[1] = (struct bisect_point){ 1, BISECT_GOOD, &good };
	pt[2] = (struct bisect_point){ 3, BISECT_BAD, &bad };
	pt[3] = (struct bisect_point){ 4, BISECT_BAD, &bad };
	llr = bisect_llr(&mid, &good, &bad, NULL, NULL, &tr);
	assert_true(llr != bisect_llr(&mid, &good, &bad, NULL, NULL, NULL));
	tr.nr = 3;
	assert_true(bisect_llr(&mid, &good, &bad, NULL, NULL, &tr) == llr);
	tr.nr = 2;
	assert_true(bisect_llr(&mid, &good, &bad, NULL, NULL, &tr) ==
		    bisect_llr(&mid, &good, &bad, NULL, NULL, NULL));
}

/*
 * The fixed level takes over from the ratio only for a step at least 4
 * standard errors from both levels (MIDPOINT_Z in decide.c): just
 * beyond that the step's value is log(1 / p), just within it the ratio's.
 */
static void test_sprt_midpoint_z(void **state)
{
	struct sample_set good = SET(99, 101, 99, 101, 99, 101, 99, 101);
	struct sample_set bad = SET(80, 82, 80, 82, 80, 82, 80, 82);
	/* the pooled noise: 8 runs of +-1 in each set, 21 degrees */
	double s2 = 24 / 21.0, se = sqrt(s2 * (1 / 8.0 + 1 / 8.0));
	double v = s2 * (1 / 8.0 + (1 / 8.0 + 1 / 8.0) / 4);
	(void)state;

	for (int k = 0; k < 2; k++) {
		double m = 81 + 4 * se * (k ? 1.01 : 0.99), x = m - sqrt(100.0 * 81);
		double vals[8], fixed = -log(t_pvalue(fabs(x) / sqrt(v), 21)), llr;
		struct sample_set step = { vals, 8, 0 };

		for (int i = 0; i < 8; i++)
			vals[i] = m + (i % 2 ? 1 : -1);
		llr = bisect_llr(&step, &good, &bad, NULL, NULL, NULL);
		/* x < 0 and d < 0: it leans bad, positive */
		assert_true(llr > 0);
		if (k)
			assert_true(fabs(llr - fixed) < 1e-9);
		else
			assert_true(fabs(llr - fixed) > 1e-3);
	}
}

/*
 * A confirmation that reaches max_runs without a verdict keeps the old
 * one when its fresh runs lean the same way, and skips when they lean
 * the other; a verdict of its own always wins.
 */
static void test_confirm_verdict(void **state)
{
	struct sample_set good = SET(92, 108, 92, 108, 92, 108, 92, 108);
	struct sample_set bad = SET(72, 88, 72, 88, 72, 88, 72, 88);
	/* at 89, a little nearer bad, too noisy for the strict level */
	struct sample_set step = SET(81, 97, 81, 97, 81, 97, 81, 97);
	struct sample_set like_good = SET(99, 101, 99, 101, 99, 101, 99, 101);
	struct bisect_params p, cp;
	double llr;
	(void)state;

	bisect_params_init(&p, 64);
	cp = bisect_confirm_params(&p);
	cp.max_runs = 8;
	llr = bisect_llr(&step, &good, &bad, NULL, NULL, NULL);
	assert_true(llr > 0 && llr < -log(cp.alpha));
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &cp), BISECT_UNKNOWN);
	assert_int_equal(bisect_confirm_verdict(BISECT_BAD, &step, &good, &bad, NULL, NULL, NULL, &cp),
			 BISECT_BAD);
	assert_int_equal(bisect_confirm_verdict(BISECT_GOOD, &step, &good, &bad, NULL, NULL, NULL, &cp),
			 BISECT_UNKNOWN);
	/* mirrored: leaning good keeps good */
	assert_int_equal(bisect_confirm_verdict(BISECT_GOOD, &step, &bad, &good, NULL, NULL, NULL, &cp),
			 BISECT_GOOD);
	/* before max_runs: more runs, not the old verdict */
	step.nr = 7;
	assert_int_equal(bisect_confirm_verdict(BISECT_BAD, &step, &good, &bad, NULL, NULL, NULL, &cp),
			 BISECT_UNKNOWN);
	assert_int_equal(bisect_confirm_verdict(BISECT_BAD, &like_good, &good, &bad, NULL, NULL, NULL,
						&cp), BISECT_GOOD);
}

/* the smallest change runs this noisy and this many could show */
static void test_min_detectable(void **state)
{
	double q[] = { 99, 101, 99, 101 }, n[] = { 70, 130, 70, 130 }, z[] = { -1, 1, -1, 1 };
	struct sample_set quiet = { q, 4, 0 }, noisy = { n, 4, 0 }, zero = { z, 4, 0 }, one = { q, 1, 0 };

	(void)state;
	assert_true(fabs(bisect_normal_quantile(0.975) - 1.959964) < 1e-5);
	assert_true(fabs(bisect_normal_quantile(0.8) - 0.841621) < 1e-5);
	assert_true(fabs(bisect_normal_quantile(0.5)) < 1e-9);
	/* (1.96 + 0.8416) * sqrt(2 * 1.3333 / 4) / 100 */
	assert_true(fabs(bisect_min_detectable(&quiet, &quiet, 0.05) - 0.022875) < 1e-5);
	assert_true(fabs(bisect_min_detectable(&noisy, &noisy, 0.05) - 0.686255) < 1e-5);
	/* a looser level detects less: a smaller change */
	assert_true(bisect_min_detectable(&quiet, &quiet, 0.4) < 0.022875);
	/* the quiet side and the noisy one: between the two */
	double mixed = bisect_min_detectable(&quiet, &noisy, 0.05);
	assert_true(mixed > 0.4 && mixed < 0.5);
	assert_true(isnan(bisect_min_detectable(&one, &quiet, 0.05)));
	assert_true(isnan(bisect_min_detectable(&quiet, &one, 0.05)));
	assert_true(isnan(bisect_min_detectable(&zero, &quiet, 0.05)));
	/* the demo quiet at 40 runs: "nothing" can be said about 5% */
	assert_true(bisect_min_detectable(&quiet, &quiet, 0.05) <= BISECT_CHANGE_LOOKED_FOR);
	assert_false(bisect_min_detectable(&noisy, &noisy, 0.05) <= BISECT_CHANGE_LOOKED_FOR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sprt_third_level),
		cmocka_unit_test(test_sprt_midpoint_z),
		cmocka_unit_test(test_confirm_verdict),
		cmocka_unit_test(test_classify_outlier),
		cmocka_unit_test(test_classify_neighbours),
		cmocka_unit_test(test_param_defaults),
		cmocka_unit_test(test_llr_value),
		cmocka_unit_test(test_llr_neighbour),
		cmocka_unit_test(test_llr_neighbour_z),
		cmocka_unit_test(test_llr_neighbour_outlier),
		cmocka_unit_test(test_llr_band),
		cmocka_unit_test(test_runs_wanted_sprt_side),
		cmocka_unit_test(test_classify_at_exactly_alpha),
		cmocka_unit_test(test_pooled_degrees_of_freedom),
		cmocka_unit_test(test_far_side_tie),
		cmocka_unit_test(test_classify_clear),
		cmocka_unit_test(test_classify_rise),
		cmocka_unit_test(test_classify_unknown),
		cmocka_unit_test(test_classify_closer_guard),
		cmocka_unit_test(test_classify_alpha),
		cmocka_unit_test(test_pvalue),
		cmocka_unit_test(test_runs_wanted_endpoints),
		cmocka_unit_test(test_runs_wanted_step),
		cmocka_unit_test(test_runs_wanted_far_side),
		cmocka_unit_test(test_runs_wanted_floors),
		cmocka_unit_test(test_check_endpoints),
		cmocka_unit_test(test_min_detectable),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_sample_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
