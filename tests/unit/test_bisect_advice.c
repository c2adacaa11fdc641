/*
 * test_bisect_advice.c: the sentences of src/bisect/advice.c follow from
 * the numbers: the outlook at the start, the advice when giving up, the
 * warning when the noise moved.
 */
#include "test_helpers.h"
#include "bisect/advice.h"
#include "report/report.h"

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
	assert_int_equal(o.budget, 325);
	bisect_say_outlook(&o, "m", &sb_out);
	assert_string_equal(sb_out.buf, "m: -10.0% from good to bad (means of their runs), noise 5.0% a run: a verdict "
			    "needs about 4 runs a commit; at most 325 runs in all\n");

	/* more than a step may have: say so, and what would do */
	strbuf_reset(&sb_out);
	o.max_runs = 3;
	bisect_say_outlook(&o, "m", &sb_out);
	assert_non_null(strstr(sb_out.buf, "(more than --max-runs 3 allows a commit: expect "
			       "skips; --runs 4 would do)"));
	strbuf_reset(&sb_out);
	o.max_runs = 4;
	bisect_say_outlook(&o, "m", &sb_out);
	assert_null(strstr(sb_out.buf, "expect skips"));
	strbuf_release(&sb_out);
}

static void test_give_up(void **state)
{
	struct bisect_outlook o = { 0.06, -0.05, 27, 260, 2, 32, 3, 1024, false };
	struct strbuf out = STRBUF_INIT;
	(void)state;

	bisect_say_give_up(&o, BISECT_STOP_BUDGET, 258, &out);
	assert_string_equal(out.buf,
		"no answer: the budget of 260 runs is spent (258 used; --max-total-runs).\n"
		"At this noise (6.0% a run) a -5.0% change needs about 27 runs a commit for a "
		"verdict.  Try --runs 27 --max-total-runs 1755, a longer runtime (the job's "
		"runtime:, so that each run averages more), or a quieter machine.\n");
	strbuf_reset(&out);
	bisect_say_give_up(&o, BISECT_STOP_NO_CONVERGENCE, 100, &out);
	assert_non_null(strstr(out.buf, "the verdicts stopped converging (3 commits in a row "
			       "could not be told good or bad; 100 runs used)"));
	strbuf_reset(&out);
	/* paired runs: the budget advised grows as the default does */
	o.paired = true;
	bisect_say_give_up(&o, BISECT_STOP_BUDGET, 258, &out);
	assert_non_null(strstr(out.buf, "Try --runs 27 --max-total-runs 7020, "));
	o.paired = false;
	strbuf_reset(&out);
	bisect_say_give_up(&o, BISECT_STOP_NOISE_SKIPS, 140, &out);
	assert_true(!strncmp(out.buf, "no answer: only skipped commits are left, and the noise "
			     "left each of them undecided after --max-runs 32 runs (none failed "
			     "to build or run), so the list is the noise's, not the history's "
			     "(140 runs used).\nAt this noise (6.0% a run)", 229));
	strbuf_reset(&out);
	/* the machine's state, as the endpoints' runs recorded it */
	bisect_say_machine(155, 0, &out);
	assert_string_equal(out.buf, "the machine: busy, other work used 155% of a CPU, steal 0% "
			    "(mean of the endpoints' runs)\n");
	strbuf_reset(&out);
	bisect_say_machine(NAN, NAN, &out);
	assert_string_equal(out.buf, "the machine: its load was not recorded with these runs "
			    "(mean of the endpoints' runs)\n");
	strbuf_reset(&out);
	o.runs_needed = -1;
	bisect_say_give_up(&o, BISECT_STOP_BUDGET, 10, &out);
	assert_non_null(strstr(out.buf, "noise could not be measured"));
	strbuf_release(&out);
}

static void test_noise_moved_words(void **state)
{
	struct bisect_noise_check c = { 0.02, 0.05, -0.01, 0.03, true, true, false };
	struct strbuf out = STRBUF_INIT;
	(void)state;

	bisect_say_noise_moved(&c, &out);
	assert_non_null(strstr(out.buf, "give noise 5.0% (up from 2.0% at the start), good "
			       "moved -1.0% and bad +3.0%"));
	assert_non_null(strstr(out.buf, "not to be trusted"));
	/* a move of the levels with less noise: said as it went */
	strbuf_reset(&out);
	c.noise_after = 0.01;
	c.noise_rose = false;
	bisect_say_noise_moved(&c, &out);
	assert_non_null(strstr(out.buf, "give noise 1.0% (down from 2.0% at the start)"));
	strbuf_reset(&out);
	c.noise_after = 0.02;
	bisect_say_noise_moved(&c, &out);
	assert_non_null(strstr(out.buf, "give noise 2.0% (as 2.0% at the start)"));
	strbuf_release(&out);
}

/* The report reads what the bisect wrote and says it in its notes. */
static void test_report_notes(void **state)
{
	static const char json[] =
		"{\"version\": 1, \"repo\": \"/r\", \"metric\": \"m.score\", \"good\": \"g\", "
		"\"bad\": \"b\", \"first_bad\": \"f\", \"parent\": \"p\", \"job\": \"/j.yaml\", \"result_base\": \"/res\", \"commits\": {}, \"steps\": [], "
		"\"endpoints\": {\"good_mean\": 1000, \"bad_mean\": 810, \"rel_shift\": -0.19, "
		"\"p\": 1e-9, \"noise\": 0.02, \"runs_needed\": 3, \"noise_end\": 0.05, "
		"\"good_move\": 0, \"bad_move\": 0, \"noise_moved\": true, "
		"\"step_shift\": -0.10, \"partial_step\": true}}";
	struct report_bisect b;
	struct strbuf out = STRBUF_INIT;
	(void)state;

	memset(&b, 0, sizeof(b));
	assert_int_equal(report_bisect_parse(&b, json, strlen(json), "/tmp/x/bisect.json"), 0);
	report_bisect_notes(&b, 1000, &out);
	assert_non_null(strstr(out.buf, "Warning: the machine's noise moved during the bisect: "
			       "the endpoints re-measured at the end give noise 5.0% a run, 2.0% "
			       "at the start."));
	assert_non_null(strstr(out.buf, "This commit explains -10.0% of the -19.0% from good "
			       "to bad"));
	assert_non_null(strstr(out.buf, "The endpoints' noise was 2.0% a run (5.0% when "
			       "re-measured at the end); a verdict needed about 3 runs a commit."));
	report_bisect_release(&b);
	strbuf_release(&out);
}

/* a misspelt --metric: the closest names of the run's stats, up to 3 */
static void test_unknown_metric(void **state)
{
	const char *names[] = { "vmstat.cpu.us", "mytest.score", "mytest.scores", "time.elapsed_time",
				"mytest.time", "mytest.score_max", "mytest.rate" };
	const char *out[3];
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	/* one typo: the nearest first, ties in the stats' order */
	assert_int_equal(bisect_closest_names("mytest.scor", names, 7, out, 3), 3);
	assert_string_equal(out[0], "mytest.score");
	assert_string_equal(out[1], "mytest.scores");
	/* the testcase left out */
	assert_int_equal(bisect_closest_names("score", names, 7, out, 1), 1);
	assert_string_equal(out[0], "mytest.score");
	/* the testcase left out, and a common prefix up to a '.' */
	assert_int_equal(bisect_closest_names("time", names, 7, out, 3), 2);
	assert_string_equal(out[0], "mytest.time");
	assert_string_equal(out[1], "time.elapsed_time");
	/* nothing like it */
	assert_int_equal(bisect_closest_names("throughput", names, 7, out, 3), 0);
	bisect_say_unknown_metric("mytest.scor", "good 63dcc45838cf", names, 7, &sb);
	assert_string_equal(sb.buf, "--metric 'mytest.scor' is not in the stats of good 63dcc45838cf "
			    "(did you mean 'mytest.score', 'mytest.scores' or 'mytest.time'?)");
	strbuf_reset(&sb);
	bisect_say_unknown_metric("throughput", "good 63dcc45838cf", names, 7, &sb);
	assert_string_equal(sb.buf, "--metric 'throughput' is not in the stats of good 63dcc45838cf "
			    "(no name of its 7 is close)");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outlook),
		cmocka_unit_test(test_give_up),
		cmocka_unit_test(test_noise_moved_words),
		cmocka_unit_test(test_report_notes),
		cmocka_unit_test(test_unknown_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
