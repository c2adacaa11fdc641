/*
 * bisect-sim: measure the bisection of src/bisect/sim.h on random
 * histories and print one row per scenario: how often a real first bad
 * commit was named, the mean, 99th percentile and largest number of
 * benchmark runs spent, the budget (--max-total-runs' default), how
 * often the search gave up, how often its answer was refused as no step
 * (spread: bisect_real_step) and how often it named a wrong commit as
 * the answer (wrong), against the targets.
 *
 *   bisect-sim [scenario] [--histories N] [--seed S] [--all-strategies] [--phases]
 *              [--alpha A] [--confirm-alpha A] [--tests T] [--min-runs N]
 *              [--max-runs N] [--ref-min-runs N] [--ref-max-runs N]
 *              [--max-total-runs N]
 *   scenario:  [--n N] [--shape normal|t3|bimodal|lognormal] [--noise S]
 *              [--shift X] [--drift D] [--second-step X]
 *              [--outliers RATE] [--outlier-scale K] [--time-drift T]
 *
 * With no scenario option it prints doc/design/bisect.md's table (every row
 * below); with any, the one scenario they describe (the others keep the
 * defaults N = 1024, normal noise of 5%, a -10% shift).  --shape t3's
 * noise is its scale (its standard deviation is 1.7 times that).
 *
 * Targets (decide.h's promise): where |shift| >= 2 x noise, >= 99% found
 * (98% for t3 and bimodal noise) with mean runs <= 5 * (log2 N + 3),
 * times BISECT_PAIRED_COST for paired runs (decide.h: the runner's, and
 * the budget's, unless the noise is at its floor);
 * where |shift| >= 1.5 x noise, >= 95%; and every history ends within
 * its budget.  --time-drift is the machine's drift a run (sim.h).  Exits 0 when every row meets its targets, 1 when one does
 * not, 2 on a bad command line.
 *
 * --phases adds a line under each row: where its mean runs went (the
 * endpoints before the first step, the search's verdicts, the
 * confirmation of the final pair) and the verdicts a confirmation
 * reversed and the commits skipped per history — what a change to the
 * search has to save runs in.
 */
#include "bisect/sim.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct row {
	int nr_commits;
	enum sim_shape shape;
	double sigma, shift, drift, second_shift;
	double outlier_rate, outlier_scale;
	double time_drift;      /* the machine's, a run (sim.h) */
};

static const struct row rows[] = {
	{ 64, SIM_NORMAL, 0.05, -0.10, 0, 0, 0, 0, 0 },
	{ 1024, SIM_NORMAL, 0.05, -0.10, 0, 0, 0, 0, 0 },
	{ 64, SIM_NORMAL, 0.05, -0.075, 0, 0, 0, 0, 0 },
	{ 1024, SIM_NORMAL, 0.05, -0.075, 0, 0, 0, 0, 0 },
	{ 1024, SIM_T3, 0.05, -0.10, 0, 0, 0, 0, 0 },
	{ 1024, SIM_BIMODAL, 0.05, -0.10, 0, 0, 0, 0, 0 },
	{ 1024, SIM_LOGNORMAL, 0.05, -0.10, 0, 0, 0, 0, 0 },
	{ 1024, SIM_NORMAL, 0.05, -0.10, -0.001, 0, 0, 0, 0 },
	{ 1024, SIM_NORMAL, 0.05, -0.10, 0, -0.10, 0, 0, 0 },
	{ 1024, SIM_NORMAL, 0.05, -0.10, 0, 0, 0.02, 5, 0 },
	{ 64, SIM_NORMAL, 0.10, -0.05, 0, 0, 0, 0, 0 },
	{ 1024, SIM_NORMAL, 0.10, -0.05, 0, 0, 0, 0, 0 },
};

static const char *const shape_names[] = { "normal", "t3", "bimodal", "lognormal" };

/* A command-line override of one number; has == false keeps the default. */
struct opt {
	bool has;
	double v;
};

enum { O_ALPHA, O_CONFIRM, O_MIN, O_MAX, O_REF_MIN, O_REF_MAX, O_TOTAL,
       O_N, O_NOISE, O_SHIFT, O_DRIFT, O_SECOND, O_OUTLIERS, O_SCALE, O_TIME_DRIFT,
       O_HISTORIES, O_SEED, NR_OPTS };
#define FIRST_SCENARIO_OPT O_N
#define LAST_SCENARIO_OPT O_TIME_DRIFT

static const char *const opt_names[NR_OPTS] = {
	[O_ALPHA] = "--alpha",
	[O_CONFIRM] = "--confirm-alpha",
	[O_MIN] = "--min-runs",
	[O_MAX] = "--max-runs",
	[O_REF_MIN] = "--ref-min-runs",
	[O_REF_MAX] = "--ref-max-runs",
	[O_TOTAL] = "--max-total-runs",
	[O_N] = "--n",
	[O_NOISE] = "--noise",
	[O_SHIFT] = "--shift",
	[O_DRIFT] = "--drift",
	[O_SECOND] = "--second-step",
	[O_OUTLIERS] = "--outliers",
	[O_SCALE] = "--outlier-scale",
	[O_TIME_DRIFT] = "--time-drift",
	[O_HISTORIES] = "--histories",
	[O_SEED] = "--seed",
};

static const struct {
	const char *name;
	unsigned bits;
} tests_table[] = {
	{ "sprt", BISECT_TEST_SPRT },
	{ "pooled", BISECT_TEST_POOLED },
	{ "welch", BISECT_TEST_WELCH },
	{ "mwu", BISECT_TEST_MWU },
	{ "welch+mwu", BISECT_TEST_WELCH | BISECT_TEST_MWU },
	{ "pooled+mwu", BISECT_TEST_POOLED | BISECT_TEST_MWU },
};

struct args {
	struct opt o[NR_OPTS];
	unsigned tests;
	int shape;              /* -1: not given */
	bool all_strategies;
	bool phases;
};

static void usage(void)
{
	fprintf(stderr, "usage: bisect-sim [--n N] [--shape normal|t3|bimodal|lognormal] "
		"[--noise S] [--shift X] [--drift D] [--second-step X] [--outliers RATE] "
		"[--outlier-scale K] [--time-drift T] [--histories N] [--seed S] [--all-strategies] [--phases] "
		"[--alpha A] [--confirm-alpha A] [--tests sprt|pooled|welch|mwu|welch+mwu|pooled+mwu] "
		"[--min-runs N] [--max-runs N] [--ref-min-runs N] [--ref-max-runs N] "
		"[--max-total-runs N]\n");
	exit(EXIT_USAGE);
}

static int lookup(const char *v, const char *const *names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(v, names[i]))
			return (int)i;
	return -1;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	for (int i = 1; i < argc; i++) {
		int k;
		char *end;

		if (!strcmp(argv[i], "--all-strategies")) {
			a->all_strategies = true;
			continue;
		}
		if (!strcmp(argv[i], "--phases")) {
			a->phases = true;
			continue;
		}
		if (!strcmp(argv[i], "--shape") && i + 1 < argc) {
			a->shape = lookup(argv[++i], shape_names,
					  sizeof(shape_names) / sizeof(*shape_names));
			if (a->shape < 0) {
				error("--shape expects normal, t3, bimodal or lognormal, not '%s'",
				      argv[i]);
				usage();
			}
			continue;
		}
		if (!strcmp(argv[i], "--tests") && i + 1 < argc) {
			size_t t;

			i++;
			for (t = 0; t < sizeof(tests_table) / sizeof(*tests_table); t++)
				if (!strcmp(argv[i], tests_table[t].name))
					break;
			if (t == sizeof(tests_table) / sizeof(*tests_table)) {
				error("--tests expects sprt, pooled, welch, mwu, welch+mwu "
				      "or pooled+mwu, not '%s'", argv[i]);
				usage();
			}
			a->tests = tests_table[t].bits;
			continue;
		}
		for (k = 0; k < NR_OPTS; k++)
			if (!strcmp(argv[i], opt_names[k]))
				break;
		if (k == NR_OPTS || i + 1 >= argc) {
			error("unknown option or missing value: '%s'", argv[i]);
			usage();
		}
		errno = 0;
		a->o[k].v = strtod(argv[++i], &end);
		/* shifts and drifts may be negative; nothing else may */
		if (errno || *end || end == argv[i] ||
		    (a->o[k].v < 0 && k != O_SHIFT && k != O_DRIFT && k != O_SECOND &&
		     k != O_TIME_DRIFT)) {
			error("option '%s' expects a number, not '%s'", argv[i - 1], argv[i]);
			usage();
		}
		a->o[k].has = true;
	}
}

static void apply(struct bisect_params *p, const struct args *a)
{
	const struct opt *o = a->o;

	if (o[O_ALPHA].has)
		p->alpha = o[O_ALPHA].v;
	if (o[O_CONFIRM].has)
		p->confirm_alpha = o[O_CONFIRM].v;
	if (o[O_MIN].has)
		p->min_runs = (int)o[O_MIN].v;
	if (o[O_MAX].has)
		p->max_runs = (int)o[O_MAX].v;
	if (o[O_REF_MIN].has)
		p->ref_min_runs = (int)o[O_REF_MIN].v;
	if (o[O_REF_MAX].has)
		p->ref_max_runs = (int)o[O_REF_MAX].v;
	if (o[O_TOTAL].has)
		p->max_total_runs = (int)o[O_TOTAL].v;
	if (a->tests)
		p->tests = a->tests;
}

static bool params_ok(const struct bisect_params *p)
{
	return p->alpha > 0 && p->alpha < 1 && p->confirm_alpha > 0 &&
		p->confirm_alpha < 1 && p->min_runs >= 1 &&
		p->max_runs >= p->min_runs && p->ref_min_runs >= 1 &&
		p->ref_max_runs >= p->ref_min_runs && p->max_total_runs >= 0;
}

/* The accuracy a row is held to, or 0 when the shift is below 1.5 x noise
 * and only the budget is promised. */
static double target(const struct row *w)
{
	double ratio = fabs(w->shift) / w->sigma;

	if (w->outlier_rate > 0 || w->drift != 0 || w->second_shift != 0 || w->time_drift != 0)
		return fabs(w->shift) / w->sigma >= 2 - 1e-9 ? 0.99 : 0;

	ratio += 1e-9;  /* 0.075 / 0.05 is 1.4999... in binary */
	if (ratio >= 2)
		return w->shape == SIM_T3 || w->shape == SIM_BIMODAL ? 0.98 : 0.99;
	return ratio >= 1.5 ? 0.95 : 0;
}

static bool print_row(const struct row *w, const struct args *a, int histories,
		      uint64_t seed)
{
	struct sim_scenario sc = {
		w->nr_commits, w->shift,
		{ w->sigma, w->outlier_rate, w->outlier_scale, w->shape },
		histories, seed, w->drift, w->second_shift, w->time_drift,
	};
	struct bisect_params p;
	double want = target(w);
	bool ok = true;

	bisect_params_init(&p, w->nr_commits);
	apply(&p, a);
	for (const struct sim_strategy *st = sim_strategies; st->name; st++) {
		struct sim_summary sum;
		/* the runner's protocol; the others only with --all-strategies */
		bool pass, adaptive = st == sim_strategies;
		/* the runner's budget: its default grows with paired runs */
		struct bisect_params sp = p;
		/* and so does the mean bound, by the same cost */
		double bound = sim_runs_bound(w->nr_commits) * (st->paired ? BISECT_PAIRED_COST : 1);

		if (!adaptive && !a->all_strategies)
			continue;
		if (st->paired && !a->o[O_TOTAL].has)
			sp.max_total_runs = bisect_paired_budget(w->nr_commits);
		sim_run(&sc, st, &sp, &sum);
		pass = sum.accuracy >= want && (want < 0.99 || sum.mean_runs <= bound) &&
			(sp.max_total_runs == 0 || sum.max_runs <= sp.max_total_runs);
		if (adaptive && !pass)
			ok = false;
		printf("%5d %-9s %5.1f%% %5.1f%% %6.2f%% %5.0f%% %6.2f%%  %-8s %7.1f%% %6.1f %5d %5d %6.1f %6d %5.1f%% %5.1f%% %5.1f%%  %s\n",
		       sc.nr_commits, shape_names[w->shape], 100 * w->sigma, 100 * w->shift,
		       100 * w->drift, 100 * w->second_shift, 100 * w->time_drift, st->name,
		       100 * sum.accuracy, sum.mean_runs, sum.p99_runs, sum.max_runs, bound,
		       sp.max_total_runs, 100.0 * sum.gave_up / sum.histories,
		       100.0 * sum.spread / sum.histories, 100.0 * sum.wrong / sum.histories,
		       want == 0 ? (pass ? "in budget" : "over budget") :
		       pass ? "pass" : "fail");
		if (a->phases)
			printf("#   mean runs: endpoints %.1f + search %.1f + confirmation %.1f; "
			       "a history reversed %.2f verdicts, skipped %.2f commits\n",
			       (double)sum.endpoint_runs / sum.histories,
			       (double)(sum.runs - sum.endpoint_runs - sum.confirm_runs) / sum.histories,
			       (double)sum.confirm_runs / sum.histories,
			       (double)sum.corrected / sum.histories,
			       (double)sum.skipped / sum.histories);
	}
	return ok;
}

int main(int argc, char **argv)
{
	struct args a;
	int histories, all_pass = 1;
	uint64_t seed;
	bool one = false;

	memset(&a, 0, sizeof(a));
	a.shape = -1;
	parse_args(argc, argv, &a);
	histories = a.o[O_HISTORIES].has ? (int)a.o[O_HISTORIES].v : 2000;
	seed = a.o[O_SEED].has ? (uint64_t)a.o[O_SEED].v : 1;
	if (histories < 1) {
		error("--histories expects at least 1");
		usage();
	}
	for (int k = FIRST_SCENARIO_OPT; k <= LAST_SCENARIO_OPT; k++)
		one |= a.o[k].has;
	one |= a.shape >= 0;
	{
		/* the overrides are the same for every row: check them once */
		struct bisect_params p;

		bisect_params_init(&p, 64);
		apply(&p, &a);
		if (!params_ok(&p) || (a.o[O_N].has && a.o[O_N].v < 3) ||
		    (a.o[O_NOISE].has && !(a.o[O_NOISE].v > 0))) {
			error("parameters out of range: 0 < alpha, confirm-alpha < 1, "
			      "1 <= min-runs <= max-runs, 1 <= ref-min-runs <= ref-max-runs, "
			      "n >= 3, noise > 0 expected");
			usage();
		}
	}

	printf("# %d histories a row, seed %llu; bisect_params_init(N)%s\n", histories,
	       (unsigned long long)seed, a.o[O_ALPHA].has || a.o[O_TOTAL].has || a.tests ?
	       " with the options given" : "");
	printf("%5s %-9s %6s %6s %7s %6s %7s  %-8s %8s %6s %5s %5s %6s %6s %6s %6s %6s  %s\n", "N",
	       "shape", "noise", "shift", "drift", "step2", "tdrift", "strategy", "accuracy", "mean",
	       "p99", "max", "bound", "budget", "gaveup", "spread", "wrong", "result");
	if (one) {
		struct row w = { 1024, SIM_NORMAL, 0.05, -0.10, 0, 0, 0, 0, 0 };
		const struct opt *o = a.o;

		if (o[O_N].has)
			w.nr_commits = (int)o[O_N].v;
		if (a.shape >= 0)
			w.shape = (enum sim_shape)a.shape;
		if (o[O_NOISE].has)
			w.sigma = o[O_NOISE].v;
		if (o[O_SHIFT].has)
			w.shift = o[O_SHIFT].v;
		if (o[O_DRIFT].has)
			w.drift = o[O_DRIFT].v;
		if (o[O_SECOND].has)
			w.second_shift = o[O_SECOND].v;
		if (o[O_OUTLIERS].has)
			w.outlier_rate = o[O_OUTLIERS].v;
		w.outlier_scale = o[O_SCALE].has ? o[O_SCALE].v : 5;
		if (o[O_TIME_DRIFT].has)
			w.time_drift = o[O_TIME_DRIFT].v;
		all_pass = print_row(&w, &a, histories, seed);
	} else {
		for (size_t r = 0; r < sizeof(rows) / sizeof(*rows); r++)
			if (!print_row(&rows[r], &a, histories, seed))
				all_pass = 0;
	}
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the table: %s", strerror(errno));
	return all_pass ? 0 : 1;
}
