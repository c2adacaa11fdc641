/*
 * test_bisect_paired.c: paired runs (src/bisect/decide.h) -- a step's
 * runs in turns with both endpoints', put on the endpoints' common level
 * before a verdict, so that a machine whose speed drifts during the
 * bisection does not carry a commit to the wrong side.
 */
#include "test_helpers.h"

#include <math.h>

#include "bisect/decide.h"

/* A sample set over a literal array (alloc 0: not owned). */
#define SET(...) ((struct sample_set){ (double[]){ __VA_ARGS__ }, \
	(int)(sizeof((double[]){ __VA_ARGS__ }) / sizeof(double)), 0 })

static void test_turn_mid(void **state)
{
	(void)state;
	/* a drift scales a rate: the geometric mean */
	assert_true(fabs(bisect_turn_mid(100, 81) - 90) < 1e-12);
	assert_true(fabs(bisect_turn_mid(81, 100) - 90) < 1e-12);
	/* no log of a value that is not positive: the mean */
	assert_true(fabs(bisect_turn_mid(-10, 30) - 10) < 1e-12);
	assert_true(fabs(bisect_turn_mid(0, 30) - 15) < 1e-12);
}

static void test_paired_runs(void **state)
{
	struct sample_set good = SET(100, 100), bad = SET(81, 81);
	struct sample_set runs = SET(99, 110, 50), mids = SET(99, NAN);
	struct sample_set out = SAMPLE_SET_INIT;
	(void)state;

	/* stale content goes: out is emptied first */
	sample_set_add(&out, 7);
	bisect_paired_runs(&runs, &mids, &good, &bad, &out);
	assert_int_equal(out.nr, 3);
	/* on the endpoints' level: 99 * 90 / 99 */
	assert_true(fabs(out.v[0] - 90) < 1e-9);
	/* a run of no turn (NaN), and one past mids, stay as they were */
	assert_true(out.v[1] == 110);
	assert_true(out.v[2] == 50);

	/* a level not positive: by difference, 5 + (10 - -20) */
	struct sample_set g2 = SET(-10, -10), b2 = SET(30, 30), r2 = SET(5), m2 = SET(-20);
	bisect_paired_runs(&r2, &m2, &g2, &b2, &out);
	assert_int_equal(out.nr, 1);
	assert_true(fabs(out.v[0] - 35) < 1e-9);

	/* no endpoint runs: nothing to put them on */
	struct sample_set none = SAMPLE_SET_INIT;
	bisect_paired_runs(&runs, &mids, &none, &bad, &out);
	assert_true(out.v[0] == 99);
	sample_set_release(&out);
}

/*
 * busy.sh's wrong commit in small: the endpoints measured first on a
 * loaded machine (good 100, bad 85), the load falls, and a bad commit
 * measured later runs 15% faster, 97.75: nearer good's early runs than
 * bad's, so judged good.  Measured in turns with the endpoints, which
 * the same 15% lifted, it is bad.
 */
static void test_drift_cancels(void **state)
{
	struct sample_set good = SET(100.2, 99.6, 100.4, 99.8, 115.1, 114.8, 115.2),
		bad = SET(85.1, 84.7, 85.3, 84.9, 97.6, 97.9, 97.7);
	/* the step's runs, each between the last three endpoint runs */
	struct sample_set step = SET(97.8, 97.5, 97.9);
	struct sample_set mids = SAMPLE_SET_INIT, paired = SAMPLE_SET_INIT;
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 16);
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_GOOD);
	for (int i = 0; i < 3; i++)
		sample_set_add(&mids, bisect_turn_mid(good.v[4 + i], bad.v[4 + i]));
	bisect_paired_runs(&step, &mids, &good, &bad, &paired);
	p.paired = true;
	assert_int_equal(bisect_classify(&paired, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	sample_set_release(&mids);
	sample_set_release(&paired);
}

/* Paired: whole turns, every side alike. */
static void test_runs_wanted_turns(void **state)
{
	struct sample_set good = SET(100.2, 99.6, 100.4, 99.8, 100.1, 99.9),
		bad = SET(85.1, 84.7, 85.3, 84.9, 85.2, 85.0), none = SAMPLE_SET_INIT,
		few = SET(100.1, 99.8, 100.3), step = SET(92.4, 92.6);
	struct bisect_params p;
	struct bisect_runs more;
	(void)state;

	bisect_params_init(&p, 16);
	/* unpaired: the step alone, min_runs of it */
	assert_int_equal(bisect_runs_wanted(&none, &good, &bad, NULL, NULL, NULL, &p, &more), 2);
	assert_int_equal(more.step, 2);
	assert_int_equal(more.good + more.bad, 0);
	p.paired = true;
	assert_int_equal(bisect_runs_wanted(&none, &good, &bad, NULL, NULL, NULL, &p, &more), 6);
	assert_int_equal(more.step, 2);
	assert_int_equal(more.good, 2);
	assert_int_equal(more.bad, 2);
	/* a side short of ref_min_runs sets the turns: 1 more of good */
	assert_int_equal(bisect_runs_wanted(&step, &few, &bad, NULL, NULL, NULL, &p, &more), 3);
	assert_true(more.step == 1 && more.good == 1 && more.bad == 1);
	/* the endpoints alone are not turns */
	assert_int_equal(bisect_runs_wanted(NULL, &few, &bad, NULL, NULL, NULL, &p, &more), 1);
	assert_int_equal(more.good, 1);
	assert_int_equal(more.bad, 0);
	/* a verdict wants nothing, paired or not */
	struct sample_set like_bad = SET(85.0, 85.2, 84.9);
	assert_int_equal(bisect_runs_wanted(&like_bad, &good, &bad, NULL, NULL, NULL, &p, &more), 0);
	assert_true(more.step == 0 && more.good == 0 && more.bad == 0);
}

/*
 * A paired run carries its turn's endpoint noise too (BISECT_PAIRED_VAR):
 * runs that would settle the step unpaired leave it undecided, and the
 * ratio is smaller by about that factor.
 */
static void test_paired_variance(void **state)
{
	struct sample_set good = SET(100.9, 99.1, 100.6, 99.4, 100.8, 99.2, 100.3, 99.7),
		bad = SET(90.8, 89.2, 90.5, 89.5, 90.9, 89.1, 90.2, 89.8);
	/* a ratio of 2.7 unpaired, over the threshold log(1 / alpha) = 2.3 */
	struct sample_set step = SET(94.55, 92.95);
	struct bisect_params p;
	struct bisect_runs more;
	(void)state;

	bisect_params_init(&p, 16);
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_BAD);
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), 0);
	p.paired = true;
	assert_int_equal(bisect_classify(&step, &good, &bad, NULL, NULL, NULL, &p), BISECT_UNKNOWN);
	assert_int_equal(bisect_runs_wanted(&step, &good, &bad, NULL, NULL, NULL, &p, &more), 3);
}

/*
 * Both endpoints 10% faster at the end than at the start: unpaired
 * verdicts were made against levels that no longer hold; paired ones
 * took the levels of their own turns, so only a noise that rose counts.
 */
static void test_noise_moved_paired(void **state)
{
	struct sample_set bg = SET(100, 101, 99, 100), bb = SET(90, 91, 89, 90),
		ag = SET(110, 111, 109, 110), ab = SET(99, 100, 98, 99);
	struct bisect_noise_check c;
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 16);
	assert_true(bisect_noise_moved(&bg, &bb, &ag, &ab, &p, &c));
	p.paired = true;
	assert_false(bisect_noise_moved(&bg, &bb, &ag, &ab, &p, &c));
	assert_false(c.moved);
	assert_true(fabs(c.good_move - 0.10) < 1e-9);
	/* a noise that rose still counts */
	struct sample_set ng = SET(90, 130, 70, 110), nb = SET(80, 120, 60, 100);
	assert_true(bisect_noise_moved(&bg, &bb, &ng, &nb, &p, &c));
	assert_true(c.noise_rose);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_turn_mid),
		cmocka_unit_test(test_paired_runs),
		cmocka_unit_test(test_drift_cancels),
		cmocka_unit_test(test_runs_wanted_turns),
		cmocka_unit_test(test_paired_variance),
		cmocka_unit_test(test_noise_moved_paired),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
