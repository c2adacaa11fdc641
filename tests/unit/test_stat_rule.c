/*
 * test_stat_rule.c: `--rule stat` (src/result/stat_rule.c) on hand-made
 * matrices: what it reports, what it must not, and the fields it fills.
 * Every "not changed" case has a twin that is changed (or a precondition
 * on the raw test), so that a rule ignoring the mechanism fails here.
 */
#include "test_helpers.h"
#include "change_helpers.h"
#include "result/matrix.h"
#include "result/change.h"
#include "stats/stat_tests.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

#include <math.h>

/* Deterministic standard normal samples: xorshift64* and Box-Muller. */
struct rng { uint64_t s; };

static double rng_uniform(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return ((r->s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_normal(struct rng *r)
{
	double u1 = rng_uniform(r), u2 = rng_uniform(r);

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static void stat_opts(struct change_options *opt)
{
	change_options_init(opt);
	opt->rule = RULE_STAT;
	opt->alpha = 0.05;
}

/* Run the stat rule on two JSON matrices; release() the list. */
static void run(const char *new_json, const char *base_json,
		const struct change_options *opt, struct change_list *out)
{
	run_rule(stat_changed_stats, new_json, base_json, opt, out);
}

static void test_clear_shift(void **state)
{
	struct change_options opt;
	struct change_list l;
	const struct change_record *r;
	static const double sorted_a[] = { 109, 109.5, 110, 110.5, 111 };

	stat_opts(&opt);
	run("{ \"synthetic.throughput\": [110, 111, 109, 110.5, 109.5],"
	    "  \"synthetic.ops\": [20, 21, 22, 21, 20] }",
	    "{ \"synthetic.throughput\": [100, 101, 99, 100.5, 99.5],"
	    "  \"synthetic.ops\": [10, 11, 12, 11, 10] }", &opt, &l);

	assert_int_equal(l.nr, 2);
	r = &l.r[0];
	assert_string_equal(r->stat, "synthetic.throughput");
	assert_true(r->p_welch < 0.01);
	assert_true(r->p_mwu < 0.01);
	assert_int_equal(r->na, 5);
	assert_int_equal(r->nb, 5);
	assert_int_equal(r->nr_run, 5);
	for (int i = 0; i < 5; i++)
		assert_true(r->a[i] == sorted_a[i]);
	assert_true(r->b[0] == 99 && r->b[4] == 101);
	assert_true(r->mean_a == 110 && r->mean_b == 100);
	assert_true(fabs(r->ratio - 1.1) < 1e-12);
	assert_true(r->delta == 10);
	assert_true(r->min_a == 109 && r->max_a == 111);
	assert_true(r->min_b == 99 && r->max_b == 101);
	assert_true(r->max == 111);
	assert_true(r->x == 2 && r->z == 2);
	assert_true(r->y == 8);                 /* 109 - 101 */
	assert_false(r->int_a);
	assert_false(r->int_b);
	assert_false(r->is_function_stat);
	assert_false(r->gap_distance);
	/* a key metric, tested at alpha / 10 = 0.005, which the rank test at
	 * 5 v 5 (2 / 252 = 0.0079 at best) cannot reach: Welch decides */
	assert_true(r->key);
	assert_true(isnan(r->q));
	assert_true(r->too_few_samples);
	assert_true(r->mwu_exact);

	r = &l.r[1];
	assert_string_equal(r->stat, "synthetic.ops");
	assert_true(r->int_a && r->int_b);
	assert_true(r->mean_a == 20.8 && r->mean_b == 10.8);
	assert_true(r->ratio > 1.9 && r->ratio < 2);
	assert_false(l.too_few_samples);
	release(&l);
}

/*
 * n metrics of 5 v 5 normal samples, mean 1000, sd 100, the new side
 * shifted by `shift`.  Returns how many the rule reports; *big counts
 * those whose means differ by more than lkp's 1% (what a rule without
 * the test would report).
 */
static int noise_run(int n, double shift, int *big)
{
	struct matrix a, b;
	struct change_options opt;
	struct change_list l = { 0 };
	struct rng r = { 0x2545f4914f6cdd1dULL };
	int reported;

	matrix_init(&a);
	matrix_init(&b);
	a.ncols = b.ncols = 5;
	*big = 0;
	for (int i = 0; i < n; i++) {
		char name[64];
		struct metric *ma, *mb;
		double sa = 0, sb = 0;

		snprintf(name, sizeof(name), "synthetic.noise_%03d", i);
		ma = matrix_get_or_add(&a, name);
		mb = matrix_get_or_add(&b, name);
		for (int c = 0; c < 5; c++) {
			ma->v[c] = 1000 + shift + 100 * rng_normal(&r);
			mb->v[c] = 1000 + 100 * rng_normal(&r);
			ma->is_int[c] = mb->is_int[c] = false;
			sa += ma->v[c];
			sb += mb->v[c];
		}
		if (fmax(sa, sb) / fmin(sa, sb) > 1.01)
			(*big)++;
	}
	stat_opts(&opt);
	assert_int_equal(stat_changed_stats(&a, &b, &opt, &l), 0);
	reported = l.nr;
	change_list_release(&l);
	matrix_release(&a);
	matrix_release(&b);
	return reported;
}

static void test_noise_is_not_reported(void **state)
{
	int big, reported = noise_run(200, 0, &big);

	/* a per-metric level of 0.05 would report about 10 (this seed: 8 with
	 * both tests agreeing); the false discovery rate over the comparison
	 * lets one through in at most 1 A/A comparison in 20 */
	print_message("noise: %d of 200 reported, %d past the magnitude filter\n", reported, big);
	assert_int_equal(reported, 0);
	/* the magnitude filter alone would have let most of them through */
	assert_true(big > 150);
}

static void test_real_shift_is_reported(void **state)
{
	/* the same noise with a 30% shift (4.7 standard errors): every metric
	 * moved, so the adjustment hardly costs anything */
	int big, reported = noise_run(200, 300, &big);

	print_message("shift: %d of 200 reported\n", reported);
	assert_true(reported >= 170);
}

static void test_huge_counter_tiny_shift(void **state)
{
	struct change_options opt;
	struct change_list l;
	static const double a[] = { 1.005e12, 1.005e12 + 3e6, 1.005e12 - 2e6, 1.005e12 + 1e6, 1.005e12 - 1e6 };
	static const double b[] = { 1e12, 1e12 + 2e6, 1e12 - 3e6, 1e12 + 1e6, 1e12 };

	/* the test alone calls a 0.5% shift of a quiet counter real */
	assert_true(welch_test(a, 5, b, 5, NULL, NULL) < 1e-6);
	assert_true(mann_whitney(a, 5, b, 5, NULL) < 0.05);

	stat_opts(&opt);
	opt.more = true;
	run("{ \"proc-vmstat.pgfault\": [1005000000000, 1005003000000, 1004998000000, 1005001000000, 1004999000000],"
	    "  \"proc-vmstat.pgalloc\":  [1100000000000, 1100003000000, 1099998000000, 1100001000000, 1099999000000] }",
	    "{ \"proc-vmstat.pgfault\": [1000000000000, 1000002000000, 999997000000, 1000001000000, 1000000000000],"
	    "  \"proc-vmstat.pgalloc\":  [1000000000000, 1000002000000, 999997000000, 1000001000000, 1000000000000] }",
	    &opt, &l);
	/* below lkp's 1%: not reported; the 10% twin is */
	assert_null(find(&l, "proc-vmstat.pgfault"));
	assert_non_null(find(&l, "proc-vmstat.pgalloc"));
	assert_int_equal(l.nr, 1);
	release(&l);
}

static void test_magnitude_thresholds(void **state)
{
	struct change_options opt;
	struct change_list l;

	stat_opts(&opt);
	opt.more = true;
	/* proc-vmstat needs max > 1000, meminfo is not a performance metric
	 * (needs > 5%); their twins under a test's name pass */
	run("{ \"proc-vmstat.pgactivate\": [300, 301, 299, 300, 302],"
	    "  \"synthetic.pgactivate\":   [300, 301, 299, 300, 302],"
	    "  \"meminfo.Active\":     [10300, 10301, 10299, 10300, 10302],"
	    "  \"synthetic.Active\":   [10300, 10301, 10299, 10300, 10302],"
	    "  \"meminfo.Inactive\":   [11000, 11001, 10999, 11000, 11002] }",
	    "{ \"proc-vmstat.pgactivate\": [100, 101, 99, 100, 102],"
	    "  \"synthetic.pgactivate\":   [100, 101, 99, 100, 102],"
	    "  \"meminfo.Active\":     [10000, 10001, 9999, 10000, 10002],"
	    "  \"synthetic.Active\":   [10000, 10001, 9999, 10000, 10002],"
	    "  \"meminfo.Inactive\":   [10000, 10001, 9999, 10000, 10002] }",
	    &opt, &l);
	assert_null(find(&l, "proc-vmstat.pgactivate"));
	assert_non_null(find(&l, "synthetic.pgactivate"));
	assert_null(find(&l, "meminfo.Active"));        /* 3% */
	assert_non_null(find(&l, "synthetic.Active"));
	assert_non_null(find(&l, "meminfo.Inactive"));  /* 10% */
	assert_int_equal(l.nr, 3);
	release(&l);
}

static void test_too_few_samples(void **state)
{
	struct change_options opt;
	struct change_list l;

	stat_opts(&opt);
	run("{ \"synthetic.throughput\": [20] }", "{ \"synthetic.throughput\": [10] }", &opt, &l);
	assert_int_equal(l.nr, 0);
	assert_true(l.too_few_samples);
	assert_int_equal(l.min_samples_needed, 4);
	release(&l);

	/* the size needed follows alpha */
	opt.alpha = 0.01;
	run("{ \"synthetic.throughput\": [20] }",
	    "{ \"synthetic.throughput\": [10, 10.5, 9.5, 10, 10] }", &opt, &l);
	assert_int_equal(l.nr, 0);
	assert_true(l.too_few_samples);
	assert_int_equal(l.min_samples_needed, 5);
	release(&l);

	/* nothing that would be worth reporting: no footnote */
	opt.alpha = 0.05;
	run("{ \"synthetic.throughput\": [10], \"synthetic.b\": [1000] }",
	    "{ \"synthetic.throughput\": [10], \"synthetic.b\": [1001] }", &opt, &l);
	assert_int_equal(l.nr, 0);
	assert_false(l.too_few_samples);
	release(&l);
}

static void test_welch_alone_at_three_runs(void **state)
{
	struct change_options opt;
	struct change_list l;
	const struct change_record *r;

	/* lkp's own cpu_usage fixture: two constants.  3 v 3 cannot reach
	 * 0.05 with ranks, so Welch decides and the record says so */
	stat_opts(&opt);
	opt.more = true;
	run("{ \"cpu.usage\": [10.0, 10.0, 10.0] }", "{ \"cpu.usage\": [20.0, 20.0, 20.0] }", &opt, &l);
	assert_int_equal(l.nr, 1);
	r = &l.r[0];
	assert_true(r->p_welch == 0);
	assert_true(r->p_mwu > 0 && r->p_mwu < 1);
	assert_true(r->too_few_samples);
	assert_true(r->ratio == 2 && r->delta == 10 && r->y == 10 && r->x == 0);
	assert_false(l.too_few_samples);
	release(&l);

	/* without ties the rank test is exact and stuck at its floor of 0.1:
	 * demanding it would veto this obvious change */
	run("{ \"cpu.usage\": [10.0, 10.1, 10.2] }", "{ \"cpu.usage\": [20.0, 20.1, 20.2] }", &opt, &l);
	assert_int_equal(l.nr, 1);
	r = &l.r[0];
	assert_true(r->p_welch < 1e-4);
	assert_true(fabs(r->p_mwu - 0.1) < 1e-12);
	assert_true(r->too_few_samples);
	release(&l);
}

static void test_outlier_guard(void **state)
{
	/* half the new runs moved, half did not: the mean moved 10%, the
	 * ranks say most runs are where they were */
	static const double a[] = { 99.25, 99.55, 99.85, 100.15, 120.1, 120.4, 119.8, 120.2 };
	static const double b[] = { 99.1, 99.4, 99.7, 100.0, 100.3, 100.6, 100.9, 101.2 };
	struct change_options opt;
	struct change_list l;

	assert_true(welch_test(a, 8, b, 8, NULL, NULL) < 0.05);
	assert_true(mann_whitney(a, 8, b, 8, NULL) > 0.05);
	assert_true(mann_whitney_min_p(8, 8) < 0.05);

	stat_opts(&opt);
	run("{ \"synthetic.bimodal\": [99.25, 99.55, 99.85, 100.15, 120.1, 120.4, 119.8, 120.2] }",
	    "{ \"synthetic.bimodal\": [99.1, 99.4, 99.7, 100.0, 100.3, 100.6, 100.9, 101.2] }",
	    &opt, &l);
	assert_int_equal(l.nr, 0);
	release(&l);
}

static void test_incomplete_run_dropped(void **state)
{
	struct change_options opt;
	struct change_list l;
	const struct change_record *r;

	/* run 6 of the new side died: its throughput reads 0 and its dmesg
	 * has the oops */
	stat_opts(&opt);
	run("{ \"last_state.is_incomplete_run\": [0, 0, 0, 0, 0, 1],"
	    "  \"synthetic.throughput\": [110, 111, 109, 110.5, 109.5, 0],"
	    "  \"dmesg.Oops:general_protection_fault\": [0, 0, 0, 0, 0, 1] }",
	    "{ \"synthetic.throughput\": [100, 101, 99, 100.5, 99.5] }", &opt, &l);

	r = find(&l, "synthetic.throughput");
	assert_non_null(r);
	assert_int_equal(r->na, 5);
	assert_int_equal(r->nr_run, 5);
	assert_true(r->min_a == 109);
	/* the crash itself is judged on every run */
	r = find(&l, "dmesg.Oops:general_protection_fault");
	assert_non_null(r);
	assert_int_equal(r->na, 6);
	assert_true(r->max_a == 1 && r->max_b == 0);
	r = find(&l, "last_state.is_incomplete_run");
	assert_non_null(r);
	assert_int_equal(r->na, 6);
	assert_int_equal(l.nr, 3);
	/* in a's order */
	assert_string_equal(l.r[0].stat, "last_state.is_incomplete_run");
	assert_string_equal(l.r[1].stat, "synthetic.throughput");
	release(&l);

	/* with the dead run kept, the zero would hide the change: proof
	 * that dropping it is what made the record above */
	{
		static const double a[] = { 110, 111, 109, 110.5, 109.5, 0 };
		static const double b[] = { 100, 101, 99, 100.5, 99.5 };
		assert_true(welch_test(a, 6, b, 5, NULL, NULL) > 0.05);
	}

	/* every new run incomplete: only the whole-run families remain */
	run("{ \"last_state.is_incomplete_run\": [1, 1, 1],"
	    "  \"synthetic.throughput\": [0, 0, 0] }",
	    "{ \"synthetic.throughput\": [100, 101, 99] }", &opt, &l);
	assert_null(find(&l, "synthetic.throughput"));
	assert_non_null(find(&l, "last_state.is_incomplete_run"));
	release(&l);
}

static void test_one_side_only(void **state)
{
	struct change_options opt;
	struct change_list l;
	const struct change_record *r;

	stat_opts(&opt);
	opt.more = true;
	run("{ \"synthetic.kept\": [110, 111, 109, 110.5, 109.5],"
	    "  \"synthetic.newmon\": [5, 5, 6, 5, 5],"
	    "  \"perf-profile.self.cycles-pp.foo\": [5.0, 5.1, 4.9, 5.0, 5.05],"
	    "  \"lock_stat.x.holdtime-total\": [50000, 51000, 49000, 50000, 50500] }",
	    "{ \"synthetic.gone\": [100, 101, 99, 100.5, 99.5],"
	    "  \"synthetic.kept\": [100, 101, 99, 100.5, 99.5],"
	    "  \"perf-profile.self.cycles-pp.bar\": [3.0, 3.1, 2.9, 3.0, 3.0] }",
	    &opt, &l);
	/* a monitor added since the base: nothing to compare with */
	assert_null(find(&l, "synthetic.newmon"));
	/* lock_stat was not monitored in the base at all */
	assert_null(find(&l, "lock_stat.x.holdtime-total"));
	/* perf-profile was, and left out a zero entry */
	r = find(&l, "perf-profile.self.cycles-pp.foo");
	assert_non_null(r);
	assert_true(r->mean_b == 0 && r->ratio == 5 && r->int_b);
	/* gone from the new side: zeros there, listed after a's metrics in
	 * b's order */
	r = find(&l, "synthetic.gone");
	assert_non_null(r);
	assert_true(r->mean_a == 0 && r->max_a == 0 && r->int_a && r->na == 5);
	assert_int_equal(l.nr, 4);
	assert_string_equal(l.r[0].stat, "synthetic.kept");
	assert_string_equal(l.r[1].stat, "perf-profile.self.cycles-pp.foo");
	assert_string_equal(l.r[2].stat, "synthetic.gone");
	assert_string_equal(l.r[3].stat, "perf-profile.self.cycles-pp.bar");
	release(&l);
}

static void test_function_stats(void **state)
{
	struct change_options opt;
	struct change_list l;
	const struct change_record *r;

	stat_opts(&opt);
	run("{ \"dmesg.BUG:foo\": [0, 1, 0, 0, 0, 0],"
	    "  \"dmesg.WARNING:bar\": [1, 1, 1, 1, 1, 1],"
	    "  \"synthetic.bar\": [1, 1, 1, 1, 1, 1],"
	    "  \"ltp.subtest.fail\": [1, 1, 1, 1, 1, 1],"
	    "  \"ltp.other.fail\": [1, 1, 1, 1, 1, 1],"
	    "  \"dmesg.boot_failures\": [1, 1, 1, 1, 1, 1] }",
	    "{ \"dmesg.BUG:foo\": [0, 0, 0, 0, 0, 0],"
	    "  \"dmesg.WARNING:bar\": [1, 0, 0, 0, 0, 0],"
	    "  \"synthetic.bar\": [1, 0, 0, 0, 0, 0],"
	    "  \"ltp.subtest.pass\": [1, 1, 1, 1, 1, 1] }", &opt, &l);
	/* it happened at all: reported without any test */
	r = find(&l, "dmesg.BUG:foo");
	assert_non_null(r);
	assert_true(r->is_function_stat);
	assert_true(isnan(r->p_welch) && isnan(r->p_mwu));
	/* happened on both sides: same max, not a change for a pass/fail
	 * stat, though the same numbers are one for a plain metric */
	assert_null(find(&l, "dmesg.WARNING:bar"));
	assert_non_null(find(&l, "synthetic.bar"));
	/* the base ran that sub-test (it has .pass): a new failure */
	assert_non_null(find(&l, "ltp.subtest.fail"));
	/* the base never ran this sub-test */
	assert_null(find(&l, "ltp.other.fail"));
	/* hidden family without -m */
	assert_null(find(&l, "dmesg.boot_failures"));
	assert_int_equal(l.nr, 3);
	release(&l);

	/* -m shows it; one run a side is enough for a pass/fail stat */
	opt.more = true;
	run("{ \"dmesg.boot_failures\": [1] }", "{ \"dmesg.boot_failures\": [0] }", &opt, &l);
	assert_non_null(find(&l, "dmesg.boot_failures"));
	assert_false(l.too_few_samples);
	release(&l);
}

static void test_regression_only(void **state)
{
	struct change_options opt;
	struct change_list l;
	const char *new_json = "{ \"dmesg.BUG:foo\": [0, 0, 0], \"kmsg.bar\": [1, 1, 1],"
			       "  \"dmesg.WARNING:baz\": [1, 1, 1] }";
	const char *base_json = "{ \"dmesg.BUG:foo\": [1, 1, 1], \"kmsg.bar\": [0, 0, 0] }";

	stat_opts(&opt);
	run(new_json, base_json, &opt, &l);
	assert_int_equal(l.nr, 3);
	release(&l);

	/* the BUG went away: a fix; the kmsg that came with it is its echo */
	opt.regression_only = true;
	run(new_json, base_json, &opt, &l);
	assert_null(find(&l, "dmesg.BUG:foo"));
	assert_null(find(&l, "kmsg.bar"));
	assert_non_null(find(&l, "dmesg.WARNING:baz"));
	assert_int_equal(l.nr, 1);
	release(&l);

	/* without a dmesg fix, a new kmsg is a regression like any other */
	run("{ \"kmsg.bar\": [1, 1, 1] }", "{ \"kmsg.bar\": [0, 0, 0] }", &opt, &l);
	assert_non_null(find(&l, "kmsg.bar"));
	release(&l);
}

static void test_perf_profile(void **state)
{
	struct change_options opt;
	struct change_list l;

	stat_opts(&opt);
	/* percentage points, not ratios: +8% of a 1% entry is 0.08 points
	 * (not shown), +0.8% of a 60% entry is 0.5 points (shown) */
	run("{ \"perf-profile.self.cycles-pp.small\": [1.08, 1.081, 1.079, 1.08, 1.082],"
	    "  \"perf-profile.self.cycles-pp.large\": [60.5, 60.51, 60.49, 60.5, 60.52],"
	    "  \"perf-profile.self.cycles-pp.flat\": [10.0, 10.0, 10.0, 10.0, 10.0] }",
	    "{ \"perf-profile.self.cycles-pp.small\": [1.00, 1.001, 0.999, 1.00, 1.002],"
	    "  \"perf-profile.self.cycles-pp.large\": [60.0, 60.01, 59.99, 60.0, 60.02],"
	    "  \"perf-profile.self.cycles-pp.flat\": [10.0, 10.0, 10.0, 10.0, 10.0] }",
	    &opt, &l);
	/* -m is not needed: perf-profile is report-allowlisted */
	assert_null(find(&l, "perf-profile.self.cycles-pp.small"));
	assert_non_null(find(&l, "perf-profile.self.cycles-pp.large"));
	assert_int_equal(l.nr, 1);
	release(&l);

	/* -p 5: every entry above 5% on either side, changed or not */
	opt.has_perf_profile = true;
	opt.perf_profile = 5;
	run("{ \"perf-profile.self.cycles-pp.flat\": [10.0, 10.0, 10.0, 10.0, 10.0],"
	    "  \"perf-profile.self.cycles-pp.low\": [3.0, 3.01, 2.99, 3.0, 3.02] }",
	    "{ \"perf-profile.self.cycles-pp.flat\": [10.0, 10.0, 10.0, 10.0, 10.0],"
	    "  \"perf-profile.self.cycles-pp.low\": [2.0, 2.01, 1.99, 2.0, 2.02] }",
	    &opt, &l);
	assert_non_null(find(&l, "perf-profile.self.cycles-pp.flat"));
	assert_null(find(&l, "perf-profile.self.cycles-pp.low"));
	assert_int_equal(l.nr, 1);
	release(&l);
}

/* n metrics "synthetic.m<i>": 10 runs of 100 + i - 4.5, the new side
 * shifted by shift[i] (Welch: 3.5 -> p 0.019, 4 -> 0.0085, 5.5 -> 0.0007) */
static void shifted_json(struct strbuf *a, struct strbuf *b, const char *const *names,
			 const double *shift, int n)
{
	strbuf_addstr(a, "{");
	strbuf_addstr(b, "{");
	for (int m = 0; m < n; m++) {
		strbuf_addf(a, "%s \"%s\": [", m ? "," : "", names[m]);
		strbuf_addf(b, "%s \"%s\": [", m ? "," : "", names[m]);
		for (int i = 0; i < 10; i++) {
			strbuf_addf(a, "%s%g", i ? ", " : "", 100 + i - 4.5 + shift[m]);
			strbuf_addf(b, "%s%g", i ? ", " : "", 100 + i - 4.5);
		}
		strbuf_addstr(a, "]");
		strbuf_addstr(b, "]");
	}
	strbuf_addstr(a, "}");
	strbuf_addstr(b, "}");
}

static int run_shifted(const char *const *names, const double *shift, int n,
		       struct change_list *l)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct change_options opt;

	stat_opts(&opt);
	shifted_json(&a, &b, names, shift, n);
	run(a.buf, b.buf, &opt, l);
	strbuf_release(&a);
	strbuf_release(&b);
	return l->nr;
}

static void test_key_metric_level(void **state)
{
	static const char *const key[] = { "hackbench.throughput" };
	static const char *const other[] = { "synthetic.m0" };
	static const double p0085[] = { 4 }, p0007[] = { 5.5 };
	double a[10], b[10];
	struct change_list l;

	for (int i = 0; i < 10; i++) {
		b[i] = 100 + i - 4.5;
		a[i] = b[i] + 4;
	}
	assert_true(welch_test(a, 10, b, 10, NULL, NULL) > 0.005);
	assert_true(welch_test(a, 10, b, 10, NULL, NULL) < 0.01);
	assert_true(mann_whitney(a, 10, b, 10, NULL) < 0.05);

	/* p = 0.0085: above a key metric's 0.005, so not flagged ... */
	assert_int_equal(run_shifted(key, p0085, 1, &l), 0);
	release(&l);
	/* ... while the same numbers under a non-key name (alone: q = p) are */
	assert_int_equal(run_shifted(other, p0085, 1, &l), 1);
	assert_false(l.r[0].key);
	assert_true(fabs(l.r[0].q - l.r[0].p_welch) < 1e-15);
	release(&l);
	/* p = 0.0007: flagged, the rank test agreeing at 0.005 */
	assert_int_equal(run_shifted(key, p0007, 1, &l), 1);
	assert_true(l.r[0].key);
	assert_false(l.r[0].too_few_samples);
	assert_true(l.r[0].p_mwu < 0.005);
	release(&l);

	assert_true(change_key_alpha(0.05) == 0.005);
	assert_true(change_key_alpha(0.2) == 0.02);
	assert_true(change_key_metric("hackbench.throughput"));
	assert_true(change_key_metric("will-it-scale.per_process_ops"));
	assert_true(change_key_metric("fio.write_clat_mean_us"));
	assert_true(change_key_metric("time.elapsed_time"));
	assert_false(change_key_metric("time.user_time"));
	assert_false(change_key_metric("vm-scalability.stddev"));
	assert_false(change_key_metric("proc-vmstat.pgfault"));
}

static void test_bh_across_comparison(void **state)
{
	static const char *const names[] = {
		"synthetic.m0", "synthetic.m1", "synthetic.m2", "synthetic.m3", "synthetic.m4",
		"synthetic.m5", "synthetic.m6", "synthetic.m7", "synthetic.m8", "synthetic.m9",
	};
	static const double lone[] = { 3.5, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const double many[] = { 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5 };
	static const double two[] = { 3.5, 5.5, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct change_list l;
	const struct change_record *r;

	/* p = 0.019 alone: q = p, flagged */
	assert_int_equal(run_shifted(names, lone, 1, &l), 1);
	release(&l);
	/* the same beside 9 unchanged metrics: q = 0.19, not flagged */
	assert_int_equal(run_shifted(names, lone, 10, &l), 0);
	release(&l);
	/* beside 9 that moved as much: every q = 0.019, all flagged */
	assert_int_equal(run_shifted(names, many, 10, &l), 10);
	for (int i = 0; i < l.nr; i++)
		assert_true(fabs(l.r[i].q - l.r[i].p_welch) < 1e-12);
	release(&l);
	/* 0.0007 ranks first (q = 0.0007 * 10 = 0.007) and is flagged;
	 * 0.019 ranks second (q = 0.019 * 10 / 2 = 0.093) and is not */
	assert_int_equal(run_shifted(names, two, 10, &l), 1);
	r = find(&l, "synthetic.m1");
	assert_non_null(r);
	assert_true(fabs(r->q - r->p_welch * 10) < 1e-12);
	release(&l);
}

static void test_too_few_samples_at_level(void **state)
{
	struct change_options opt;
	struct change_list l;

	/* 3 v 3 without ties: the rank test's best p is exactly 0.1 */
	stat_opts(&opt);
	opt.alpha = 0.1;
	run("{ \"synthetic.m0\": [10.0, 10.1, 10.2] }", "{ \"synthetic.m0\": [20.0, 20.1, 20.2] }",
	    &opt, &l);
	assert_int_equal(l.nr, 1);
	assert_true(l.r[0].p_mwu == 0.1);
	assert_true(l.r[0].too_few_samples);     /* 0.1 cannot be below 0.1 */
	release(&l);
	opt.alpha = 0.1000001;
	run("{ \"synthetic.m0\": [10.0, 10.1, 10.2] }", "{ \"synthetic.m0\": [20.0, 20.1, 20.2] }",
	    &opt, &l);
	assert_int_equal(l.nr, 1);
	assert_false(l.r[0].too_few_samples);
	release(&l);
}

static void test_default_alpha(void **state)
{
	struct change_options opt;

	change_options_init(&opt);
	assert_true(opt.alpha == 0.05);
	assert_int_equal(opt.rule, RULE_STAT);
}

static void test_record_json_fields(void **state)
{
	struct change_options opt;
	struct change_list l;
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;

	stat_opts(&opt);
	run("{ \"synthetic.m0\": [5, 5, 7, 9, 9] }", "{ \"synthetic.m0\": [3, 3, 4, 5, 5] }",
	    &opt, &l);
	assert_int_equal(l.nr, 1);
	jw_init(&jw, &sb);
	change_record_to_json(&l.r[0], &opt, &jw);
	assert_non_null(strstr(sb.buf, "\"p_mwu\": 0.047619047619047"));
	assert_non_null(strstr(sb.buf, "\"mwu_method\": \"exact\""));
	assert_non_null(strstr(sb.buf, "\"key_metric\": false"));
	assert_non_null(strstr(sb.buf, "\"q_bh\": "));
	assert_non_null(strstr(sb.buf, "\"too_few_samples\": false"));
	strbuf_release(&sb);
	release(&l);
}

static void test_bad_alpha(void **state)
{
	static const double bad[] = { 0, 1, -0.1, 2, NAN };
	struct change_options opt;
	struct change_list l = { 0 };
	struct matrix a, b;

	mx_json(&a, "{ \"synthetic.x\": [1, 2, 3] }");
	mx_json(&b, "{ \"synthetic.x\": [10, 20, 30] }");
	stat_opts(&opt);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		opt.alpha = bad[i];
		assert_int_equal(stat_changed_stats(&a, &b, &opt, &l), -1);
		assert_int_equal(l.nr, 0);
	}
	change_list_release(&l);
	matrix_release(&a);
	matrix_release(&b);
}

/* The records of a run of the rule: how many, and whether name is one. */
static int changed_count(const char *a, const char *b, const struct change_options *opt,
			 const char *name, bool *found)
{
	struct change_list l;
	int n;

	run(a, b, opt, &l);
	n = l.nr;
	*found = find(&l, name) != NULL;
	release(&l);
	return n;
}

static bool is_changed(const char *a, const char *b, const struct change_options *opt,
		       const char *name)
{
	bool found;

	changed_count(a, b, opt, name, &found);
	return found;
}

/* The default level is 0.05: a Welch p of 0.054 is no change, until
 * --alpha 0.06.  (3 v 3: the rank test cannot reach either level, so
 * Welch decides alone.) */
static void test_default_alpha_decides(void **state)
{
	static const double a[] = { 102.2, 103.2, 104.2 }, b[] = { 100, 101, 102 };
	const char *ja = "{ \"synthetic.x\": [102.2, 103.2, 104.2] }";
	const char *jb = "{ \"synthetic.x\": [100, 101, 102] }";
	struct change_options opt;
	double p = welch_test(a, 3, b, 3, NULL, NULL);

	assert_true(p > 0.05 && p < 0.06);
	change_options_init(&opt);
	assert_true(opt.rule == RULE_STAT);
	assert_true(opt.alpha == 0.05);
	assert_false(is_changed(ja, jb, &opt, "synthetic.x"));
	opt.alpha = 0.06;
	assert_true(is_changed(ja, jb, &opt, "synthetic.x"));
}

/* lkp's magnitude floors, at their edges, on clearly significant shifts:
 * a performance metric needs a ratio above 1.01, any other above 1.05;
 * a perf-profile entry 0.1 percentage points */
static void test_magnitude_edges(void **state)
{
	struct change_options opt;

	stat_opts(&opt);
	opt.more = true;
	assert_false(is_changed("{ \"synthetic.x\": [1009, 1010, 1011, 1010, 1010] }",
				"{ \"synthetic.x\": [999, 1000, 1001, 1000, 1000] }", &opt, "synthetic.x"));
	assert_true(is_changed("{ \"synthetic.x\": [1010, 1011, 1012, 1011, 1011] }",
			       "{ \"synthetic.x\": [999, 1000, 1001, 1000, 1000] }", &opt, "synthetic.x"));
	assert_true(is_changed("{ \"synthetic.x\": [999, 1000, 1001, 1000, 1000] }",
			       "{ \"synthetic.x\": [1010, 1011, 1012, 1011, 1011] }", &opt, "synthetic.x"));
	assert_false(is_changed("{ \"uptime.idle\": [1049, 1050, 1051, 1050, 1050] }",
				"{ \"uptime.idle\": [999, 1000, 1001, 1000, 1000] }", &opt, "uptime.idle"));
	assert_true(is_changed("{ \"uptime.idle\": [1050, 1051, 1052, 1051, 1051] }",
			       "{ \"uptime.idle\": [999, 1000, 1001, 1000, 1000] }", &opt, "uptime.idle"));
	assert_true(is_changed("{ \"perf-profile.self.cycles-pp.f\": [2.14, 2.15, 2.16, 2.15, 2.15] }",
			       "{ \"perf-profile.self.cycles-pp.f\": [1.99, 2.0, 2.01, 2.0, 2.0] }",
			       &opt, "perf-profile.self.cycles-pp.f"));
	assert_false(is_changed("{ \"perf-profile.self.cycles-pp.f\": [2.08, 2.09, 2.1, 2.09, 2.09] }",
				"{ \"perf-profile.self.cycles-pp.f\": [1.99, 2.0, 2.01, 2.0, 2.0] }",
				&opt, "perf-profile.self.cycles-pp.f"));
}

/* 3 + 3 runs at --alpha 0.1: the exact rank test's floor is 2 / C(6, 3),
 * exactly 0.1, so it cannot reach alpha: Welch decides alone and the
 * record says too_few_samples.  4 + 4 can (2 / 70 < 0.1). */
static void test_too_few_at_exactly_alpha(void **state)
{
	struct change_options opt;
	struct change_list l;
	const struct change_record *r;

	stat_opts(&opt);
	opt.alpha = 0.1;
	assert_true(mann_whitney_min_p(3, 3) == 0.1);
	run("{ \"synthetic.x\": [110, 111, 112] }", "{ \"synthetic.x\": [100, 101, 102] }", &opt, &l);
	r = find(&l, "synthetic.x");
	assert_non_null(r);
	assert_true(r->too_few_samples);
	assert_true(fabs(r->p_mwu - 0.1) < 1e-12);
	assert_true(r->p_welch < 0.01);
	assert_false(l.too_few_samples);
	release(&l);

	run("{ \"synthetic.x\": [110, 111, 112, 113] }", "{ \"synthetic.x\": [100, 101, 102, 103] }",
	    &opt, &l);
	r = find(&l, "synthetic.x");
	assert_non_null(r);
	assert_false(r->too_few_samples);
	release(&l);

	/* at 0.11 the floor is below alpha: the rank test is required, and
	 * its 0.1 passes */
	opt.alpha = 0.11;
	run("{ \"synthetic.x\": [110, 111, 112] }", "{ \"synthetic.x\": [100, 101, 102] }", &opt, &l);
	r = find(&l, "synthetic.x");
	assert_non_null(r);
	assert_false(r->too_few_samples);
	release(&l);
}

/* A key metric (a KPI with a direction) is tested alone at alpha / 10: a
 * Welch p of 0.021 is no change there, while the same runs of another
 * metric are (3 v 3: Welch decides). */
static void test_key_metric_at_its_level(void **state)
{
	struct change_options opt;

	stat_opts(&opt);
	assert_true(change_key_metric("vm-scalability.throughput"));
	assert_false(change_key_metric("synthetic.x"));
	assert_false(is_changed("{ \"vm-scalability.throughput\": [103, 104, 105] }",
				"{ \"vm-scalability.throughput\": [100, 101, 102] }", &opt,
				"vm-scalability.throughput"));
	assert_true(is_changed("{ \"synthetic.x\": [103, 104, 105] }",
			       "{ \"synthetic.x\": [100, 101, 102] }", &opt, "synthetic.x"));
	/* at alpha 0.5 the key level is 0.05: reported */
	opt.alpha = 0.5;
	assert_true(is_changed("{ \"vm-scalability.throughput\": [103, 104, 105] }",
			       "{ \"vm-scalability.throughput\": [100, 101, 102] }", &opt,
			       "vm-scalability.throughput"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_shift),
		cmocka_unit_test(test_noise_is_not_reported),
		cmocka_unit_test(test_real_shift_is_reported),
		cmocka_unit_test(test_huge_counter_tiny_shift),
		cmocka_unit_test(test_magnitude_thresholds),
		cmocka_unit_test(test_too_few_samples),
		cmocka_unit_test(test_welch_alone_at_three_runs),
		cmocka_unit_test(test_outlier_guard),
		cmocka_unit_test(test_incomplete_run_dropped),
		cmocka_unit_test(test_one_side_only),
		cmocka_unit_test(test_function_stats),
		cmocka_unit_test(test_regression_only),
		cmocka_unit_test(test_perf_profile),
		cmocka_unit_test(test_bad_alpha),
		cmocka_unit_test(test_key_metric_level),
		cmocka_unit_test(test_bh_across_comparison),
		cmocka_unit_test(test_too_few_samples_at_level),
		cmocka_unit_test(test_default_alpha),
		cmocka_unit_test(test_record_json_fields),
		cmocka_unit_test(test_default_alpha_decides),
		cmocka_unit_test(test_magnitude_edges),
		cmocka_unit_test(test_too_few_at_exactly_alpha),
		cmocka_unit_test(test_key_metric_at_its_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
