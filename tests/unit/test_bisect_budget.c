/*
 * test_bisect_budget.c: what a bisection says about itself
 * (src/bisect/decide.c): its budget and when it stops, the noise of the
 * endpoints and the runs a verdict needs, whether that noise moved
 * during the search, and whether the final pair's step is a step and
 * the whole of the change.  The verdicts are test_bisect_decide.c's.
 */
#include "test_helpers.h"

#include <math.h>
#include <string.h>

#include "bisect/decide.h"

/* Endpoints 10% apart with 0.8% noise: the quiet machine of the start. */
#define QUIET_GOOD 1000, 1010, 990, 1005, 995
#define QUIET_BAD 900, 910, 890, 905, 895

static void test_budget_and_stop(void **state)
{
	struct bisect_params p;
	struct bisect_progress pr = { 0, 0 };
	(void)state;

	/* 5 * 5 * (log2 N + 3), rounded up */
	assert_int_equal(bisect_default_budget(1024), 325);
	assert_int_equal(bisect_default_budget(64), 225);
	assert_int_equal(bisect_default_budget(100), 242);     /* 241.10 */
	assert_int_equal(bisect_default_budget(1), bisect_default_budget(2));
	bisect_params_init(&p, 1024);
	assert_int_equal(p.max_total_runs, 325);
	assert_int_equal(p.max_unknown_in_row, 3);

	/* the budget: exactly max_total_runs may be spent, not one more */
	pr.runs = 315;
	assert_int_equal(bisect_should_stop(&pr, 10, &p), BISECT_GO_ON);
	assert_int_equal(bisect_should_stop(&pr, 11, &p), BISECT_STOP_BUDGET);
	p.max_total_runs = 0;
	assert_int_equal(bisect_should_stop(&pr, 1000, &p), BISECT_GO_ON);
	/* convergence: the third UNKNOWN in a row stops it */
	pr.unknown_in_row = 2;
	assert_int_equal(bisect_should_stop(&pr, 0, &p), BISECT_GO_ON);
	pr.unknown_in_row = 3;
	assert_int_equal(bisect_should_stop(&pr, 0, &p), BISECT_STOP_NO_CONVERGENCE);
	p.max_unknown_in_row = 0;
	assert_int_equal(bisect_should_stop(&pr, 0, &p), BISECT_GO_ON);
}

static void test_noise_and_runs_needed(void **state)
{
	double g[] = { 90, 100, 110 }, b[] = { 80, 90, 100 };
	struct sample_set sg = { g, 3, 0 }, sb = { b, 3, 0 }, empty = { NULL, 0, 0 };
	(void)state;

	/* pooled sd 10 about each side's own mean, over a good mean of 100 */
	assert_true(fabs(bisect_noise(&sg, &sb) - 0.10) < 1e-12);
	assert_true(fabs(bisect_noise(&sg, &empty) - 0.10) < 1e-12);
	sg.nr = 1;
	assert_true(isnan(bisect_noise(&sg, &empty)));

	/* ((z(0.975) + z(0.95)) * 0.05 / 0.10)^2 = (3.6049 / 2)^2 = 3.25 -> 4 */
	assert_int_equal(bisect_runs_needed(0.05, -0.10, 0.05), 4);
	/* twice the noise: four times the runs (12.99 -> 13) */
	assert_int_equal(bisect_runs_needed(0.10, 0.10, 0.05), 13);
	/* a stricter level wants more: z(0.995) = 2.5758 -> (4.2207/2)^2 = 4.45 -> 5 */
	assert_int_equal(bisect_runs_needed(0.05, 0.10, 0.01), 5);
	assert_int_equal(bisect_runs_needed(0.001, 0.5, 0.05), 1);
	assert_int_equal(bisect_runs_needed(0, 0.1, 0.05), -1);
	assert_int_equal(bisect_runs_needed(0.05, 0, 0.05), -1);
	assert_int_equal(bisect_runs_needed(0.05, 0.1, 1), -1);
	assert_int_equal(bisect_runs_needed(NAN, 0.1, 0.05), -1);
}

/*
 * The endpoints' runs at the start (g0, b0) and re-measured at the end
 * (g1, b1), five each, the sets pointing into the arrays, and what
 * bisect_noise_moved last said of them (c).
 */
struct noise_case {
	double g0[5], b0[5], g1[5], b1[5];
	struct sample_set sg0, sb0, sg1, sb1;
	struct bisect_params p;
	struct bisect_noise_check c;
};

static void noise_case_init(struct noise_case *t, const double *g0, const double *b0)
{
	memcpy(t->g0, g0, sizeof(t->g0));
	memcpy(t->b0, b0, sizeof(t->b0));
	memcpy(t->g1, g0, sizeof(t->g1));
	memcpy(t->b1, b0, sizeof(t->b1));
	t->sg0 = (struct sample_set){ t->g0, 5, 0 };
	t->sb0 = (struct sample_set){ t->b0, 5, 0 };
	t->sg1 = (struct sample_set){ t->g1, 5, 0 };
	t->sb1 = (struct sample_set){ t->b1, 5, 0 };
	bisect_params_init(&t->p, 64);
}

static bool moved(struct noise_case *t)
{
	return bisect_noise_moved(&t->sg0, &t->sb0, &t->sg1, &t->sb1, &t->p, &t->c);
}

static const double quiet_good[] = { QUIET_GOOD }, quiet_bad[] = { QUIET_BAD };

static void test_noise_moved(void **state)
{
	struct noise_case t;
	(void)state;

	noise_case_init(&t, quiet_good, quiet_bad);
	assert_false(moved(&t));
	assert_true(fabs(t.c.noise_before - t.c.noise_after) < 1e-12);
	/* the noise: test_noise_moved_matters */
	/* the good endpoint now where bad was: moved */
	for (int i = 0; i < 5; i++)
		t.g1[i] = t.g0[i] - 60;
	assert_true(moved(&t));
	assert_true(fabs(t.c.good_move + 0.06) < 1e-12);
	/* a move of 4%, less than half the 10% between the sides: not */
	for (int i = 0; i < 5; i++)
		t.g1[i] = t.g0[i] - 40;
	assert_false(moved(&t));
	t.sg1.nr = 1;
	assert_false(moved(&t));
	assert_true(isnan(t.c.noise_after));
}

/* g1, b1 = g0, b0 spread k times as far about 1000 and 900 */
static void spread_by(const double *g0, const double *b0, double *g1, double *b1, double k)
{
	for (int i = 0; i < 5; i++) {
		g1[i] = 1000 + k * (g0[i] - 1000);
		b1[i] = 900 + k * (b0[i] - 900);
	}
}

/* Only a rise counts, and only one that makes a verdict need more runs. */
static void test_noise_moved_matters(void **state)
{
	/* 4% noise against a 10% change, then the quiet 0.8% */
	static const double g4[] = { 1000, 1050, 950, 1025, 975 }, b4[] = { 900, 950, 850, 925, 875 };
	struct noise_case t;
	(void)state;

	noise_case_init(&t, g4, b4);
	/* 4% noise doubled: a verdict needs 17 runs instead of 5 */
	spread_by(t.g0, t.b0, t.g1, t.b1, 2);
	assert_int_equal(bisect_runs_needed(bisect_noise(&t.sg0, &t.sb0), 0.1, t.p.confirm_alpha), 5);
	assert_true(moved(&t));
	assert_true(t.c.noise_rose);
	assert_true(fabs(t.c.noise_after / t.c.noise_before - 2) < 1e-9);
	/* just under twice: not, though a verdict would need more runs */
	spread_by(t.g0, t.b0, t.g1, t.b1, 1.99);
	assert_false(moved(&t));
	assert_false(t.c.noise_rose);
	/* halved: the verdicts were only safer than planned */
	spread_by(t.g0, t.b0, t.g1, t.b1, 0.5);
	assert_false(moved(&t));
	assert_false(t.c.noise_rose);
	assert_true(t.c.noise_after < t.c.noise_before);
	/* 0.8% doubled: 1 run a verdict either way (an emulator's near-zero
	 * noise), so no reason to distrust the answer */
	noise_case_init(&t, quiet_good, quiet_bad);
	spread_by(t.g0, t.b0, t.g1, t.b1, 2);
	assert_int_equal(bisect_runs_needed(bisect_noise(&t.sg1, &t.sb1), 0.1, t.p.confirm_alpha), 1);
	assert_false(moved(&t));
	assert_true(t.c.noise_rose);
	/* 0.8% to 8%: 2 runs a verdict */
	spread_by(t.g0, t.b0, t.g1, t.b1, 10);
	assert_true(moved(&t));
	/* from no noise at all: a rise however small, moved when it matters */
	for (int i = 0; i < 5; i++) {
		t.g0[i] = 1000;
		t.b0[i] = 900;
	}
	spread_by(quiet_good, quiet_bad, t.g1, t.b1, 1);
	assert_false(moved(&t));
	assert_true(t.c.noise_rose);
	spread_by(quiet_good, quiet_bad, t.g1, t.b1, 10);
	assert_true(moved(&t));
}

/* c, c + a, c - a, c + a, c - a: both sides so, the pooled noise is a / g */
static void wobble(double *v, double c, double a)
{
	v[0] = c;
	v[1] = v[3] = c + a;
	v[2] = v[4] = c - a;
}

/* A deterministic guest's noise (icount: 0.006%) never distrusts the
 * answer, whatever its ratio or a wobble of the means: the floor's
 * boundary, at and just above 0.05% */
static void test_noise_floor(void **state)
{
	struct noise_case t;
	(void)state;

	assert_true(BISECT_NOISE_FLOOR == 0.0005);
	/* a 0.1% change (1000 -> 999): at 0.005% noise 1 run a verdict */
	noise_case_init(&t, quiet_good, quiet_bad);
	wobble(t.g0, 1000, 0.05);
	wobble(t.b0, 999, 0.05);
	/* ten times the noise, exactly the floor: 0.05% */
	wobble(t.g1, 1000, 0.5);
	wobble(t.b1, 999, 0.5);
	assert_false(moved(&t));
	assert_true(t.c.at_floor);
	assert_true(t.c.noise_after == BISECT_NOISE_FLOOR);
	assert_true(t.c.noise_rose);
	/* just above it: the rise makes a verdict need more runs */
	wobble(t.g1, 1000, 0.51);
	wobble(t.b1, 999, 0.51);
	assert_true(moved(&t));
	assert_false(t.c.at_floor);
	/* the start above the floor, the end at it: noise that fell */
	wobble(t.g0, 1000, 0.51);
	wobble(t.b0, 999, 0.51);
	wobble(t.g1, 1000, 0.05);
	wobble(t.b1, 999, 0.05);
	assert_false(moved(&t));
	assert_false(t.c.at_floor);
	/* good moved by 0.15%, more than half the change, significantly: at
	 * the floor no reason (the move is still measured), above it one */
	wobble(t.g0, 1000, 0.05);
	wobble(t.b0, 999, 0.05);
	wobble(t.g1, 1001.5, 0.05);
	wobble(t.b1, 999, 0.05);
	assert_false(moved(&t));
	assert_true(t.c.at_floor);
	assert_true(fabs(t.c.good_move - 0.0015) < 1e-9);
	wobble(t.g0, 1000, 0.51);
	wobble(t.b0, 999, 0.51);
	assert_true(moved(&t));
	assert_false(t.c.at_floor);
	assert_false(t.c.noise_rose);
}

/* The answer's own step must be 1/8 of the change: under it, a drift. */
static void test_real_step(void **state)
{
	(void)state;
	assert_true(bisect_real_step(-0.10, -0.10));
	assert_true(bisect_real_step(-0.0125, -0.10));
	assert_false(bisect_real_step(-0.0124, -0.10));
	assert_false(bisect_real_step(0.001, -0.64));
	assert_true(bisect_real_step(0.08, -0.64));
	assert_false(bisect_real_step(NAN, -0.10));
	assert_false(bisect_real_step(-0.10, INFINITY));
	assert_true(BISECT_MIN_STEP == 0.125);
}

static void test_partial_step(void **state)
{
	(void)state;
	assert_true(bisect_partial_step(-0.10, -0.19));
	assert_false(bisect_partial_step(-0.095, -0.103));
	/* the boundary: 0.75 of the whole */
	assert_false(bisect_partial_step(-0.0751, -0.10));
	assert_true(bisect_partial_step(-0.0749, -0.10));
	assert_false(bisect_partial_step(NAN, -0.1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_and_stop),
		cmocka_unit_test(test_noise_and_runs_needed),
		cmocka_unit_test(test_noise_moved),
		cmocka_unit_test(test_noise_moved_matters),
		cmocka_unit_test(test_noise_floor),
		cmocka_unit_test(test_real_step),
		cmocka_unit_test(test_partial_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
