/*
 * bisect-sim: measure the bisection strategies of src/bisect/sim.h on
 * random histories and print one table row per scenario and strategy:
 * how often the true first bad commit was found, and the mean number of
 * benchmark runs spent, against the targets (>= 99% found, mean runs
 * <= 5 * (log2 N + 3)).
 *
 *   bisect-sim [--histories N] [--seed S] [--harder] [--outliers RATE]
 *              [--outlier-scale K] [--alpha A] [--confirm-alpha A]
 *              [--tests pooled|welch|mwu|welch+mwu] [--min-runs N]
 *              [--max-runs N] [--ref-min-runs N] [--ref-max-runs N]
 *
 * Every row starts from bisect_params_init(N); the options override.
 * Exits 0 when the adaptive strategy meets both targets in every
 * required scenario, 1 when it does not, 2 on a bad command line.
 * --harder adds rows (10% noise with a 5% shift; outliers) that are
 * reported, not required.
 */
#include "bisect/sim.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_ACCURACY 0.99

struct row {
	int nr_commits;
	double sigma, shift;
	double outlier_rate, outlier_scale;
	bool required;
};

static const struct row rows[] = {
	{ 64, 0.05, -0.10, 0, 0, true },
	{ 1024, 0.05, -0.10, 0, 0, true },
	{ 64, 0.10, -0.05, 0, 0, false },
	{ 1024, 0.10, -0.05, 0, 0, false },
	{ 64, 0.05, -0.10, 0.02, 5, false },
	{ 1024, 0.05, -0.10, 0.02, 5, false },
};

/* A command-line override of one number; has == false keeps the default. */
struct opt {
	bool has;
	double v;
};

enum { O_ALPHA, O_CONFIRM, O_MIN, O_MAX, O_REF_MIN, O_REF_MAX, O_OUTLIERS,
       O_SCALE, O_HISTORIES, O_SEED, NR_OPTS };

static const char *const opt_names[NR_OPTS] = {
	[O_ALPHA] = "--alpha",
	[O_CONFIRM] = "--confirm-alpha",
	[O_MIN] = "--min-runs",
	[O_MAX] = "--max-runs",
	[O_REF_MIN] = "--ref-min-runs",
	[O_REF_MAX] = "--ref-max-runs",
	[O_OUTLIERS] = "--outliers",
	[O_SCALE] = "--outlier-scale",
	[O_HISTORIES] = "--histories",
	[O_SEED] = "--seed",
};

static const struct {
	const char *name;
	unsigned bits;
} tests_table[] = {
	{ "pooled", BISECT_TEST_POOLED },
	{ "welch", BISECT_TEST_WELCH },
	{ "mwu", BISECT_TEST_MWU },
	{ "welch+mwu", BISECT_TEST_WELCH | BISECT_TEST_MWU },
	{ "pooled+mwu", BISECT_TEST_POOLED | BISECT_TEST_MWU },
};

static void usage(void)
{
	fprintf(stderr, "usage: bisect-sim [--histories N] [--seed S] [--harder] "
		"[--outliers RATE] [--outlier-scale K] [--alpha A] [--confirm-alpha A] "
		"[--tests pooled|welch|mwu|welch+mwu|pooled+mwu] [--min-runs N] "
		"[--max-runs N] [--ref-min-runs N] [--ref-max-runs N]\n");
	exit(EXIT_USAGE);
}

static void parse_args(int argc, char **argv, struct opt *o, bool *harder,
		       unsigned *tests)
{
	for (int i = 1; i < argc; i++) {
		int k;
		char *end;

		if (!strcmp(argv[i], "--harder")) {
			*harder = true;
			continue;
		}
		if (!strcmp(argv[i], "--tests") && i + 1 < argc) {
			size_t t;

			i++;
			for (t = 0; t < sizeof(tests_table) / sizeof(*tests_table); t++)
				if (!strcmp(argv[i], tests_table[t].name))
					break;
			if (t == sizeof(tests_table) / sizeof(*tests_table)) {
				error("--tests expects pooled, welch, mwu, welch+mwu "
				      "or pooled+mwu, not '%s'", argv[i]);
				usage();
			}
			*tests = tests_table[t].bits;
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
		o[k].v = strtod(argv[++i], &end);
		if (errno || *end || end == argv[i] || o[k].v < 0) {
			error("option '%s' expects a non-negative number, not '%s'",
			      argv[i - 1], argv[i]);
			usage();
		}
		o[k].has = true;
	}
}

static void apply(struct bisect_params *p, const struct opt *o, unsigned tests)
{
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
	if (tests)
		p->tests = tests;
}

static bool overridden(const struct opt *o, unsigned tests)
{
	for (int k = O_ALPHA; k <= O_SCALE; k++)
		if (o[k].has)
			return true;
	return tests != 0;
}

static bool params_ok(const struct bisect_params *p)
{
	return p->alpha > 0 && p->alpha < 1 && p->confirm_alpha > 0 &&
		p->confirm_alpha < 1 && p->min_runs >= 1 &&
		p->max_runs >= p->min_runs && p->ref_min_runs >= 1 &&
		p->ref_max_runs >= p->ref_min_runs;
}

int main(int argc, char **argv)
{
	struct opt o[NR_OPTS] = { { false, 0 } };
	unsigned tests = 0;
	bool harder = false;
	int histories, all_pass = 1;
	uint64_t seed;

	parse_args(argc, argv, o, &harder, &tests);
	histories = o[O_HISTORIES].has ? (int)o[O_HISTORIES].v : 2000;
	seed = o[O_SEED].has ? (uint64_t)o[O_SEED].v : 1;
	if (histories < 1) {
		error("--histories expects at least 1");
		usage();
	}
	{
		/* the overrides are the same for every row: check them once */
		struct bisect_params p;

		bisect_params_init(&p, 64);
		apply(&p, o, tests);
		if (!params_ok(&p)) {
			error("parameters out of range: 0 < alpha, confirm-alpha < 1, "
			      "1 <= min-runs <= max-runs, 1 <= ref-min-runs <= ref-max-runs "
			      "expected");
			usage();
		}
	}

	printf("# %d histories a row, seed %llu; bisect_params_init(N)%s\n",
	       histories, (unsigned long long)seed,
	       overridden(o, tests) ? " with the options given" : "");
	printf("%6s %5s %5s %5s  %-9s %8s %9s %6s %5s %5s  %s\n", "N", "noise",
	       "shift", "outl", "strategy", "accuracy", "mean-runs", "bound",
	       "skips", "fixes", "result");
	for (size_t r = 0; r < sizeof(rows) / sizeof(*rows); r++) {
		const struct row *w = &rows[r];
		struct sim_scenario sc = {
			w->nr_commits, w->shift,
			{ w->sigma, w->outlier_rate, w->outlier_scale },
			histories, seed,
		};
		struct bisect_params p;
		double bound = sim_runs_bound(w->nr_commits);

		if (!w->required && !harder)
			continue;
		if (o[O_OUTLIERS].has)
			sc.noise.outlier_rate = o[O_OUTLIERS].v;
		if (o[O_SCALE].has)
			sc.noise.outlier_scale = o[O_SCALE].v;
		bisect_params_init(&p, w->nr_commits);
		apply(&p, o, tests);
		for (const struct sim_strategy *st = sim_strategies; st->name; st++) {
			struct sim_summary sum;
			bool pass;

			sim_run(&sc, st, &p, &sum);
			pass = sum.accuracy >= TARGET_ACCURACY && sum.mean_runs <= bound;
			if (w->required && st->runs == 0 && !pass)
				all_pass = 0;
			printf("%6d %4.0f%% %4.0f%% %4.0f%%  %-9s %7.1f%% %9.1f %6.1f %5.2f %5.2f  %s%s\n",
			       sc.nr_commits, 100 * sc.noise.sigma, 100 * sc.shift,
			       100 * sc.noise.outlier_rate, st->name,
			       100 * sum.accuracy, sum.mean_runs, bound,
			       (double)sum.skipped / sum.histories,
			       (double)sum.corrected / sum.histories,
			       pass ? "pass" : "fail",
			       w->required ? "" : " (not required)");
		}
	}
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the table: %s", strerror(errno));
	return all_pass ? 0 : 1;
}
