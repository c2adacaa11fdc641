/*
 * test_bisect_sim.c: the simulated histories and the search over them
 * (src/bisect/sim.c): the noise model, the search's paths
 * (found, skipped, ambiguous, nothing to bisect, corrected by
 * confirmation) and a small measurement of the strategies.
 */
#include "test_helpers.h"

#include <math.h>

#include "bisect/sim.h"

static const struct sim_strategy *strategy(const char *name)
{
	for (const struct sim_strategy *s = sim_strategies; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	fail_msg("no strategy '%s'", name);
	return NULL;
}

/* ---- noise ------------------------------------------------------------ */

static void test_history(void **state)
{
	struct sim_noise noise = { 0.05, 0, 10, SIM_NORMAL };
	struct rng r;
	int seen_low = 0, seen_high = 0;
	(void)state;

	rng_seed(&r, 7);
	for (int i = 0; i < 2000; i++) {
		struct sim_history h;

		sim_history_init(&h, 8, -0.10, &noise, &r);
		assert_true(h.first_bad >= 1 && h.first_bad <= 7);
		seen_low |= h.first_bad == 1;
		seen_high |= h.first_bad == 7;
	}
	assert_true(seen_low && seen_high);

	{
		struct sim_history h;
		double g = 0, b = 0, gg = 0;
		int n = 20000;

		sim_history_init(&h, 64, -0.10, &noise, &r);
		for (int i = 0; i < n; i++) {
			double x = sim_measure(&h, 0, 0, &r);

			g += x;
			gg += x * x;
			b += sim_measure(&h, 63, 0, &r);
		}
		g /= n;
		b /= n;
		assert_true(fabs(g - h.base) < 0.01 * h.base);
		assert_true(fabs(b - 0.9 * h.base) < 0.01 * h.base);
		/* relative stddev sigma */
		assert_true(fabs(sqrt(gg / n - g * g) / h.base - 0.05) < 0.003);
	}
}

/* Outliers widen the spread by their scale, at their rate. */
static void test_outliers(void **state)
{
	struct sim_noise noise = { 0.01, 0.1, 20, SIM_NORMAL };
	struct sim_history h;
	struct rng r;
	int far = 0, n = 20000;
	(void)state;

	rng_seed(&r, 9);
	sim_history_init(&h, 16, 0.10, &noise, &r);
	for (int i = 0; i < n; i++)
		far += fabs(sim_measure(&h, 0, 0, &r) / h.base - 1) > 0.05;
	/* 5 sigma: only outliers get there, and 80% of them do */
	assert_true(far > n / 20 && far < n / 7);
}

/* ---- the search -------------------------------------------------------- */

/* Without noise every strategy finds every first bad commit, in
 * ceil(log2) steps, spending exactly its runs. */
static void test_noiseless(void **state)
{
	struct sim_noise noise = { 0, 0, 10, SIM_NORMAL };
	struct bisect_params p;
	struct rng r;
	(void)state;

	bisect_params_init(&p, 64);
	rng_seed(&r, 3);
	for (int fb = 1; fb < 64; fb++) {
		struct sim_history h;
		struct sim_result res;

		sim_history_init(&h, 64, -0.10, &noise, &r);
		h.first_bad = fb;
		for (const struct sim_strategy *s = sim_strategies; s->name; s++) {
			assert_true(sim_bisect(&h, s, &p, &r, &res));
			assert_int_equal(res.outcome, SIM_FOUND);
			assert_int_equal(res.found, fb);
			assert_int_equal(res.skipped, 0);
			assert_int_equal(res.corrected, 0);
			if (s->runs) {
				assert_true(res.steps <= 6);
				assert_int_equal(res.runs, s->runs * (2 + res.steps));
			} else {
				/* 2 confirmations at most */
				assert_true(res.steps <= 6 + 2);
				assert_true(res.runs > res.endpoint_runs + res.confirm_runs);
			}
		}
	}
}

/* Good and bad alike: the adaptive strategy grows the endpoints to
 * ref_max_runs and stops before any step. */
static void test_nothing_to_bisect(void **state)
{
	struct sim_noise noise = { 0, 0, 10, SIM_NORMAL };
	struct bisect_params p;
	struct sim_history h;
	struct sim_result res;
	struct rng r;
	(void)state;

	bisect_params_init(&p, 64);
	rng_seed(&r, 5);
	sim_history_init(&h, 64, 0, &noise, &r);
	assert_false(sim_bisect(&h, strategy("unpaired"), &p, &r, &res));
	assert_int_equal(res.outcome, SIM_NOTHING);
	assert_int_equal(res.found, -1);
	assert_int_equal(res.steps, 0);
	assert_int_equal(res.runs, res.endpoint_runs);
	assert_int_equal(res.runs, 2 * p.ref_max_runs);
}

/* A test that can never decide (Welch on one run): every commit is
 * skipped, each once, the neighbours as git bisect skip would take
 * them, and the answer is left ambiguous. */
static void test_all_skipped(void **state)
{
	struct sim_noise noise = { 0.05, 0, 10, SIM_NORMAL };
	struct bisect_params p;
	struct sim_history h;
	struct sim_result res;
	struct rng r;
	(void)state;

	bisect_params_init(&p, 16);
	p.tests = BISECT_TEST_WELCH;
	p.min_runs = p.max_runs = 1;
	p.max_unknown_in_row = 0;      /* never give up */
	rng_seed(&r, 11);
	sim_history_init(&h, 16, -0.50, &noise, &r);
	assert_false(sim_bisect(&h, &(struct sim_strategy){ "never", 1,
				SIM_DECIDE_TEST, false, false, false, false, false }, &p, &r, &res));
	assert_int_equal(res.outcome, SIM_AMBIGUOUS);
	assert_int_equal(res.skipped, 14);
	assert_int_equal(res.steps, 14);
	assert_int_equal(res.runs, 16);

	/* by default the search gives up after 3 verdicts in a row that
	 * could not be made, having spent nothing more */
	bisect_params_init(&p, 16);
	p.tests = BISECT_TEST_WELCH;
	p.min_runs = p.max_runs = 1;
	assert_int_equal(p.max_unknown_in_row, 3);
	assert_false(sim_bisect(&h, &(struct sim_strategy){ "never", 1,
				SIM_DECIDE_TEST, false, false, false, false, false }, &p, &r, &res));
	assert_int_equal(res.outcome, SIM_GAVE_UP);
	assert_int_equal(res.stop, BISECT_STOP_NO_CONVERGENCE);
	assert_int_equal(res.skipped, 3);
	assert_int_equal(res.runs, 2 + 3);
}

/*
 * Confirmation at work: a search at a reckless level goes wrong in many
 * histories; re-measuring the final pair strictly repairs most of them.
 */
static void test_confirmation_repairs(void **state)
{
	struct sim_scenario sc = { 64, -0.10, { 0.05, 0, 10, SIM_NORMAL }, 200, 77, 0, 0, 0 };
	struct sim_strategy with = *strategy("unpaired"), without = with;
	struct sim_summary a, b;
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 64);
	p.alpha = 0.3;
	without.confirm = false;
	sim_run(&sc, &with, &p, &a);
	sim_run(&sc, &without, &p, &b);
	assert_true(b.accuracy < 0.85);
	assert_true(a.corrected > 20);
	assert_true(a.accuracy >= 0.97);
	assert_true(a.accuracy > b.accuracy + 0.1);
}

/*
 * Only skipped commits left between the last good and the first bad
 * commit: the pair is confirmed as a final pair is, since a wrong verdict
 * ends at the edge of the skipped ones too.  History 310 of
 * bench/bisect-sim.sh's two steps (seed 1): the search strays into the
 * level between the steps, where a commit is skipped after max_runs and
 * its bounds are of one level; the confirmation reverses a bound and the
 * search goes on to a real step, where it ended ambiguous before.
 */
static void test_skipped_pair_confirmed(void **state)
{
	struct sim_noise noise = { 0.05, 0, 10, SIM_NORMAL };
	struct bisect_params p;
	struct sim_history h;
	struct sim_result res;
	struct rng layout, r;
	(void)state;

	rng_seed(&layout, rng_derive(1, 310, 0));
	rng_seed(&r, rng_derive(1, 310, 1));
	sim_history_init(&h, 1024, -0.10, &noise, &layout);
	sim_history_second_step(&h, -0.10, &layout);
	bisect_params_init(&p, 1024);
	assert_true(sim_bisect(&h, strategy("unpaired"), &p, &r, &res));
	assert_int_equal(res.outcome, SIM_FOUND);
	assert_true(res.skipped >= 1);
	assert_true(res.corrected >= 1);
}

/* The same seed gives the same numbers; another seed other histories. */
static void test_deterministic(void **state)
{
	struct sim_scenario sc = { 64, -0.10, { 0.05, 0, 10, SIM_NORMAL }, 50, 1, 0, 0, 0 };
	struct sim_summary a, b, c;
	struct bisect_params p;
	long runs = 0, endpoints = 0, confirms = 0, corrected = 0;
	(void)state;

	bisect_params_init(&p, 64);
	sim_run(&sc, strategy("unpaired"), &p, &a);
	sim_run(&sc, strategy("unpaired"), &p, &b);
	assert_int_equal(a.correct, b.correct);
	assert_true(a.runs == b.runs);
	/* the summary's sums are its histories' (sim_run's derivation) */
	for (int i = 0; i < sc.histories; i++) {
		struct rng layout, noise;
		struct sim_history h;
		struct sim_result res;

		rng_seed(&layout, rng_derive(sc.seed, (uint64_t)i, 0));
		rng_seed(&noise, rng_derive(sc.seed, (uint64_t)i, 1));
		sim_history_init(&h, sc.nr_commits, sc.shift, &sc.noise, &layout);
		sim_bisect(&h, strategy("unpaired"), &p, &noise, &res);
		runs += res.runs;
		endpoints += res.endpoint_runs;
		confirms += res.confirm_runs;
		corrected += res.corrected;
	}
	assert_true(a.runs == runs);
	assert_true(a.endpoint_runs == endpoints);
	assert_true(a.confirm_runs == confirms);
	assert_true(a.corrected == corrected);
	assert_true(endpoints > 0 && confirms > 0 && endpoints + confirms < runs);
	sc.seed = 2;
	sim_run(&sc, strategy("unpaired"), &p, &c);
	assert_true(a.runs != c.runs);
}

/*
 * The measurement in small: 1,000 histories of 64 commits, 5% noise, a
 * 10% drop (fewer leave the mean runs too uncertain for the bound).  The adaptive rule finds >= 97% within the run budget; a
 * single run per step decided by the nearer mean (asv find) cannot tell
 * a 2-sigma shift reliably, and five fixed runs skip and err far more.
 */
static void test_small_simulation(void **state)
{
	struct sim_scenario sc = { 64, -0.10, { 0.05, 0, 10, SIM_NORMAL }, 1000, 2024, 0, 0, 0 };
	struct sim_summary adaptive, fixed5, fixed1;
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 64);
	sim_run(&sc, strategy("unpaired"), &p, &adaptive);
	sim_run(&sc, strategy("fixed-5"), &p, &fixed5);
	sim_run(&sc, strategy("fixed-1"), &p, &fixed1);
	print_message("adaptive %.3f %.1f, fixed-5 %.3f %.1f, fixed-1 %.3f %.1f, bound %.1f\n",
		      adaptive.accuracy, adaptive.mean_runs, fixed5.accuracy,
		      fixed5.mean_runs, fixed1.accuracy, fixed1.mean_runs,
		      sim_runs_bound(64));
	assert_int_equal(adaptive.histories, 1000);
	assert_true(adaptive.accuracy >= 0.97);
	assert_true(adaptive.mean_runs <= sim_runs_bound(64));
	assert_true(fixed1.accuracy < adaptive.accuracy - 0.3);
	assert_true(fixed5.accuracy < adaptive.accuracy - 0.05);
	assert_true(fixed1.mean_runs <= 8);     /* 2 endpoints + <= 6 steps */
	/* a verdict a confirmation reversed is confirmed again when it is
	 * at the edge once more (decide.h, step 3) */
	assert_true(adaptive.corrected > 0);
	assert_true(adaptive.reconfirmed > 0 && adaptive.reconfirmed <= adaptive.corrected);
	assert_true(fabs(sim_runs_bound(64) - 45) < 1e-9);
	assert_true(fabs(sim_runs_bound(1024) - 65) < 1e-9);
}

/* The budget: no history spends more than max_total_runs, and one that
 * would gives up and says why. */
static void test_budget(void **state)
{
	struct sim_scenario sc = { 64, -0.05, { 0.10, 0, 10, SIM_NORMAL }, 100, 5, 0, 0, 0 };
	struct sim_summary s;
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 64);
	assert_int_equal(p.max_total_runs, bisect_default_budget(64));
	sim_run(&sc, strategy("unpaired"), &p, &s);
	assert_true(s.max_runs <= p.max_total_runs);
	assert_true(s.gave_up > 0);
	assert_true(s.p99_runs <= s.max_runs);
	/* a tighter budget is kept too */
	p.max_total_runs = 60;
	sim_run(&sc, strategy("unpaired"), &p, &s);
	assert_true(s.max_runs <= 60);
	/* and no budget lets it run past the default */
	p.max_total_runs = 0;
	p.max_unknown_in_row = 0;
	sim_run(&sc, strategy("unpaired"), &p, &s);
	assert_true(s.max_runs > bisect_default_budget(64));
}

/* Two steps: the history has both, and naming either is right. */
static void test_two_steps(void **state)
{
	struct sim_noise noise = { 0.001, 0, 10, SIM_NORMAL };
	struct sim_history h;
	struct rng r;
	(void)state;

	rng_seed(&r, 11);
	for (int i = 0; i < 500; i++) {
		sim_history_init(&h, 8, -0.10, &noise, &r);
		sim_history_second_step(&h, -0.10, &r);
		assert_true(h.first_bad >= 1 && h.first_bad < h.second_bad && h.second_bad <= 7);
	}
	assert_true(fabs(sim_measure(&h, h.second_bad, 0, &r) / h.base - 0.81) < 0.01);
	assert_true(fabs(sim_measure(&h, h.first_bad, 0, &r) / h.base - 0.9) < 0.01);
	{
		struct sim_scenario sc = { 64, -0.10, { 0.01, 0, 10, SIM_NORMAL }, 50, 3, 0, -0.10, 0 };
		struct sim_summary s;
		struct bisect_params p;

		bisect_params_init(&p, 64);
		sim_run(&sc, strategy("unpaired"), &p, &s);
		assert_true(s.accuracy >= 0.98);
	}
}

/*
 * A drift many times the step (0.1% a commit over 1,024: -64%, the step
 * -10%): the trend model finds the step where the pooled sides could
 * not, and the final pair stands out of the drift although it is under
 * 1/8 of the change.  Without positions the same search mostly cannot;
 * either way it must not end at a wrong commit as if it were the answer.
 */
static void test_drift(void **state)
{
	struct sim_scenario sc = { 1024, -0.10, { 0.05, 0, 10, SIM_NORMAL }, 200, 9, -0.001, 0, 0 };
	struct sim_strategy unchecked = *strategy("unpaired"), notrend = *strategy("no-trend");
	struct sim_summary s, u, n;
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 1024);
	sim_run(&sc, strategy("unpaired"), &p, &s);
	assert_true(s.accuracy >= 0.97);
	assert_true(s.wrong <= 2);
	assert_int_equal(s.correct + s.wrong + s.spread + s.gave_up + s.ambiguous + s.nothing,
			 s.histories);
	notrend.paired = false;
	sim_run(&sc, &notrend, &p, &n);
	assert_true(n.accuracy < 0.5);
	assert_true(n.wrong <= 2);
	/* without the final check some answers are wrong: ones the check
	 * refused as no step */
	unchecked.check = false;
	sim_run(&sc, &unchecked, &p, &u);
	assert_true(u.wrong >= s.wrong);
	/* a pure drift: nothing to name */
	sc.shift = 0;
	sim_run(&sc, strategy("unpaired"), &p, &u);
	assert_int_equal(u.correct, 0);
	assert_true(u.wrong <= 2);
	/* and a single step is never refused */
	sc.shift = -0.10;
	sc.drift = 0;
	sim_run(&sc, strategy("unpaired"), &p, &s);
	assert_int_equal(s.spread, 0);
}

/* The shapes and the drift move the means and spreads as sim.h says. */
static void test_shapes_and_drift(void **state)
{
	struct sim_history h;
	struct rng r;
	int n = 40000;
	(void)state;

	rng_seed(&r, 13);
	for (int shape = SIM_NORMAL; shape <= SIM_LOGNORMAL; shape++) {
		struct sim_noise noise = { 0.05, 0, 10, (enum sim_shape)shape };
		double sum = 0, far = 0;

		sim_history_init(&h, 16, -0.10, &noise, &r);
		for (int i = 0; i < n; i++) {
			double x = sim_measure(&h, 0, 0, &r) / h.base - 1;

			sum += x;
			far += fabs(x) > 0.25;  /* 5 scales out */
		}
		sum /= n;
		if (shape == SIM_BIMODAL)
			assert_true(fabs(sum - 0.05 * 0.6) < 0.003);    /* 30% at +2 */
		else if (shape == SIM_LOGNORMAL)
			assert_true(fabs(sum - (exp(0.05 * 0.05 / 2) - 1)) < 0.002);
		else
			assert_true(fabs(sum) < 0.002);
		/* only Student's t reaches 5 scales out at all often */
		if (shape == SIM_T3)
			assert_true(far > n / 200);
		else
			assert_true(far < n / 5000);
	}
	{
		struct sim_noise noise = { 0.0001, 0, 10, SIM_NORMAL };

		sim_history_init(&h, 1024, -0.10, &noise, &r);
		h.drift = -0.001;
		assert_true(fabs(sim_measure(&h, 1000, 0, &r) / h.base / pow(0.999, 1000) -
				 (1000 >= h.first_bad ? 0.9 : 1)) < 0.001);
		/* the machine's drift: the 300th run of the bisection */
		h.drift = 0;
		h.time_drift = 0.002;
		assert_true(fabs(sim_measure(&h, 0, 300, &r) / h.base - pow(1.002, 300)) < 0.001);
		assert_true(fabs(sim_measure(&h, 0, 0, &r) / h.base - 1) < 0.001);
	}
}

/*
 * A machine that gets faster as the bisection goes (TIME_DRIFT a run):
 * unpaired, a bad commit measured late looks good against the endpoints'
 * early runs, and wrong commits are named; paired runs (decide.h) put
 * every run on the endpoints' level of its own turns, and the drift
 * cancels.
 */
#define TIME_DRIFT 0.002
static void test_time_drift(void **state)
{
	struct sim_scenario sc = { 64, -0.10, { 0.05, 0, 10, SIM_NORMAL }, 200, 21, 0, 0,
				   TIME_DRIFT };
	struct sim_summary paired, unpaired;
	struct bisect_params p;
	(void)state;

	bisect_params_init(&p, 64);
	sim_run(&sc, strategy("unpaired"), &p, &unpaired);
	p.max_total_runs = bisect_paired_budget(64);
	sim_run(&sc, strategy("adaptive"), &p, &paired);
	print_message("time drift %g: unpaired %.3f, %d wrong, %.1f runs; paired %.3f, %d wrong, "
		      "%.1f runs\n", TIME_DRIFT, unpaired.accuracy, unpaired.wrong,
		      unpaired.mean_runs, paired.accuracy, paired.wrong, paired.mean_runs);
	assert_true(unpaired.wrong >= 20);
	assert_true(paired.wrong <= 2);
	/* the rest mostly refused as no step: the final pair's runs are
	 * compared as measured, minutes apart */
	assert_true(paired.accuracy >= 0.8);
	/* no drift: pairing costs runs, not accuracy */
	sc.time_drift = 0;
	sim_run(&sc, strategy("adaptive"), &p, &paired);
	p.max_total_runs = bisect_default_budget(64);
	sim_run(&sc, strategy("unpaired"), &p, &unpaired);
	assert_true(paired.accuracy >= 0.97);
	assert_true(paired.mean_runs > 1.5 * unpaired.mean_runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_shapes_and_drift),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_time_drift),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_noiseless),
		cmocka_unit_test(test_nothing_to_bisect),
		cmocka_unit_test(test_all_skipped),
		cmocka_unit_test(test_skipped_pair_confirmed),
		cmocka_unit_test(test_confirmation_repairs),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_small_simulation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
