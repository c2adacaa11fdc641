/*
 * test_bisect_advice.c: the sentences of src/bisect/advice.c follow from
 * the numbers: the outlook at the start, the advice when giving up, the
 * warning when the noise moved.
 */
#include "test_helpers.h"
#include "bisect/advice.h"

#include <math.h>

static void test_outlook(void **state)
{
	double g[] = { 950, 1000, 1050 }, b[] = { 850, 900, 950 };
	struct sample_set sg = { g, 3, 0 }, sb = { b, 3, 0 };
	struct bisect_outlook o;
	struct bisect_params p;
	struct strbuf sb_out = STRBUF_INIT;
	(void)state;

	bisect_params_init(&p, 1024);
	bisect_outlook_init(&o, &sg, &sb, &p, 1024);
	assert_true(fabs(o.noise - 0.05) < 1e-12);
	assert_true(fabs(o.shift + 0.10) < 1e-12);
	assert_int_equal(o.runs_needed, bisect_runs_needed(0.05, -0.10, p.alpha));
	assert_int_equal(o.budget, 260);
	bisect_say_outlook(&o, "m", &sb_out);
	assert_string_equal(sb_out.buf, "m: -10.0% from good to bad, noise 5.0% a run: a verdict "
			    "needs about 5 runs a commit; at most 260 runs in all\n");

	/* more than a step may have: say so, and what would do */
	strbuf_reset(&sb_out);
	o.max_runs = 4;
	bisect_say_outlook(&o, "m", &sb_out);
	assert_non_null(strstr(sb_out.buf, "(more than --max-runs 4 allows a commit: expect "
			       "skips; --runs 5 would do)"));
	strbuf_reset(&sb_out);
	o.max_runs = 5;
	bisect_say_outlook(&o, "m", &sb_out);
	assert_null(strstr(sb_out.buf, "expect skips"));
	strbuf_release(&sb_out);
}

static void test_give_up(void **state)
{
	struct bisect_outlook o = { 0.06, -0.05, 27, 260, 2, 32, 3, 1024 };
	struct strbuf out = STRBUF_INIT;
	(void)state;

	bisect_say_give_up(&o, BISECT_STOP_BUDGET, 258, &out);
	assert_string_equal(out.buf,
		"no answer: the budget of 260 runs is spent (258 used; --max-total-runs).\n"
		"At this noise (6.0% a run) a -5.0% change needs about 27 runs a commit for a "
		"verdict.  Try --runs 27 --max-total-runs 1404, a longer runtime (the job's "
		"runtime:, so that each run averages more), or a quieter machine.\n");
	strbuf_reset(&out);
	bisect_say_give_up(&o, BISECT_STOP_NO_CONVERGENCE, 100, &out);
	assert_non_null(strstr(out.buf, "the verdicts stopped converging (3 commits in a row "
			       "could not be told good or bad; 100 runs used)"));
	strbuf_reset(&out);
	o.runs_needed = -1;
	bisect_say_give_up(&o, BISECT_STOP_BUDGET, 10, &out);
	assert_non_null(strstr(out.buf, "noise could not be measured"));
	strbuf_release(&out);
}

static void test_noise_moved_words(void **state)
{
	struct bisect_noise_check c = { 0.02, 0.05, -0.01, 0.03, true };
	struct strbuf out = STRBUF_INIT;
	(void)state;

	bisect_say_noise_moved(&c, &out);
	assert_non_null(strstr(out.buf, "give noise 5.0% (2.0% at the start), good moved -1.0% "
			       "and bad +3.0%"));
	assert_non_null(strstr(out.buf, "not to be trusted"));
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outlook),
		cmocka_unit_test(test_give_up),
		cmocka_unit_test(test_noise_moved_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
