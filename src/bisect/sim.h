#ifndef PERFBOT_BISECT_SIM_H
#define PERFBOT_BISECT_SIM_H
/*
 * A simulated history to measure bisection strategies on: N commits in a
 * line, commit 0 good, commit N-1 bad, the first bad commit somewhere in
 * 1..N-1.  Every run of a commit draws one sample of the metric from a
 * noise model; bad commits' metric is shifted.  sim_bisect searches it
 * the way the real runner drives git bisect, calling decide.h exactly as
 * the runner will, and counts every sample drawn.
 *
 * Everything random comes from a struct rng passed in (util/rng.h): the
 * same seed gives the same table.
 */
#include <stdbool.h>
#include <stdint.h>
#include "bisect/decide.h"
#include "util/rng.h"

/*
 * The shape of the noise: Z below is
 *   SIM_NORMAL    standard normal;
 *   SIM_T3        Student's t with 3 degrees of freedom (heavy tails: now
 *                 and then a run far off; scale 1, standard deviation 1.7);
 *   SIM_BIMODAL   N(0, 1/2) plus 2 in 30% of the runs (two modes, as a
 *                 metric that depends on where the scheduler put a task);
 *   SIM_LOGNORMAL (exp(Z') - 1) for Z' standard normal, scaled by sigma
 *                 in the exponent (a skewed metric, never negative).
 */
enum sim_shape { SIM_NORMAL = 0, SIM_T3, SIM_BIMODAL, SIM_LOGNORMAL };

/*
 * How one run's value is drawn: mean * (1 + sigma * Z) (lognormal: mean *
 * exp(sigma * Z)), Z of the shape; with probability outlier_rate a run is
 * an outlier whose Z is multiplied by outlier_scale (a contaminated
 * normal: the occasional run disturbed by something else on the
 * machine).
 */
struct sim_noise {
	double sigma;           /* relative scale, 0.05 = 5% */
	double outlier_rate;    /* 0 for none */
	double outlier_scale;
	enum sim_shape shape;
};

/*
 * Commit c's mean: base * (1 + drift)^c * (1 + shift if c >= first_bad)
 * * (1 + second_shift if c >= second_bad).  A bisection is right when it
 * names first_bad or second_bad: with two steps either is a real answer.
 * The machine drifts too: the t-th run of the bisection (its first is 0)
 * is scaled by (1 + time_drift)^t, whichever commit it measures (load
 * that falls as the bisection goes makes everything faster).
 */
struct sim_history {
	int nr_commits;         /* >= 2 */
	int first_bad;          /* in 1 .. nr_commits - 1 */
	int second_bad;         /* in first_bad + 1 .. nr_commits - 1, or -1 */
	double base;            /* the good commits' mean */
	double shift;           /* relative change of the bad ones, -0.10 */
	double second_shift;
	double drift;           /* relative change per commit, 0.001 */
	double time_drift;      /* relative change per run drawn, 0.001 */
	struct sim_noise noise;
};

/* A history of n commits with the first bad one drawn uniformly, no
 * drift of either kind and no second step. */
void sim_history_init(struct sim_history *h, int n, double shift,
		      const struct sim_noise *noise, struct rng *r);
/* Add a second step of second_shift, its place drawn uniformly so that
 * the two steps are distinct and in order (the first is redrawn too);
 * needs nr_commits >= 3. */
void sim_history_second_step(struct sim_history *h, double second_shift, struct rng *r);
/* One run of commit c (0 <= c < nr_commits), the bisection's t-th. */
double sim_measure(const struct sim_history *h, int c, int t, struct rng *r);

/* How a strategy decides each step. */
enum sim_decide {
	SIM_DECIDE_TEST,        /* bisect_classify; UNKNOWN skips the commit */
	SIM_DECIDE_NEAREST,     /* whichever side's mean is closer, as asv find */
};

struct sim_strategy {
	const char *name;
	int runs;               /* runs per commit; 0: adaptive, bisect_runs_wanted */
	enum sim_decide decide;
	bool check;             /* stop when bisect_check_endpoints says no, and
				 * refuse a final pair that is no step
				 * (bisect_real_step), as the runner does */
	bool pool;              /* sides pool the runs of judged commits */
	bool confirm;           /* re-measure the final pair (decide.h, step 3) */
	bool trend;             /* verdicts see where the tested commits lie
				 * (decide.h's bisect_trend), as the runner's do */
	bool paired;            /* a step's runs in turns with the endpoints'
				 * (decide.h's paired runs), as the runner's */
};

/*
 * adaptive: decide.h's whole protocol, paired runs included.  unpaired:
 * the same without them (the runner on a deterministic guest, and
 * before paired runs).  no-trend: adaptive without the
 * commits' positions (the runner when git rev-list fails), so without
 * the trend model.  fixed-5: 5 runs of every commit,
 * the endpoints included, judged by the same bisect_classify on pooled
 * sides, an UNKNOWN skipped; the endpoints are not checked, so that its
 * row measures the search alone.  fixed-1: one run of everything, the
 * nearer side's mean wins (asv find's rule).  Ends with a { NULL } entry.
 */
extern const struct sim_strategy sim_strategies[];

/* How one bisection ended. */
enum sim_outcome {
	SIM_FOUND,              /* a single first bad commit named */
	SIM_AMBIGUOUS,          /* skips left several candidates, as git's
				 * "there are only 'skip'ped commits left" */
	SIM_NOTHING,            /* the endpoints did not differ */
	SIM_GAVE_UP,            /* bisect_should_stop: budget or no convergence */
	SIM_SPREAD,             /* a pair named whose step is no step
				 * (bisect_real_step): said, not given */
};

struct sim_result {
	enum sim_outcome outcome;
	int found;              /* the first bad commit named, or -1 */
	int runs;               /* every sample drawn, endpoints included */
	int endpoint_runs;      /* of which before the first step */
	int confirm_runs;       /* of which confirming the final pair */
	int steps;              /* commits tested, confirmations included */
	int skipped;            /* commits given up as UNKNOWN */
	int corrected;          /* verdicts a confirmation reversed */
	int reconfirmed;        /* confirmations of a reversed one (decide.h) */
	enum bisect_stop stop;  /* why it gave up (SIM_GAVE_UP) */
};

/*
 * Bisect h with strategy s under params p, as decide.h's protocol says:
 * endpoints (checked when s->check), halving search (a skipped commit is
 * replaced by the untested candidate nearest the middle, as git bisect
 * skip does), and with s->confirm the confirmation of the final pair (or
 * of the pair around only skipped commits).
 * Returns whether the true first bad commit was named.
 */
bool sim_bisect(const struct sim_history *h, const struct sim_strategy *s,
		const struct bisect_params *p, struct rng *r,
		struct sim_result *out);

/* A scenario to repeat: histories of nr_commits with the given noise,
 * drift, (second_shift != 0) a second step and the machine's drift. */
struct sim_scenario {
	int nr_commits;
	double shift;
	struct sim_noise noise;
	int histories;
	uint64_t seed;
	double drift;
	double second_shift;
	double time_drift;
};

struct sim_summary {
	int histories;
	int correct;
	int ambiguous, nothing, gave_up;
	int spread;             /* SIM_SPREAD: refused as no step */
	int wrong;              /* SIM_FOUND naming neither real step */
	long skipped;           /* commits skipped, summed */
	long corrected;         /* verdicts reversed by confirmation, summed */
	long reconfirmed;       /* confirmations of reversed verdicts, summed */
	long runs;              /* summed over histories */
	long endpoint_runs;     /* of which before the first step, summed */
	long confirm_runs;      /* of which confirming the final pair, summed
				 * (the rest: the search's verdicts) */
	int max_runs;           /* of the worst history */
	int p99_runs;           /* 99th percentile of the histories' runs */
	double accuracy;        /* correct / histories */
	double mean_runs;       /* runs / histories */
};

/*
 * Run sc->histories bisections with strategy s.  History i is the same
 * for every strategy (its first bad commit depends on seed and i only),
 * so that strategies are compared on the same histories.
 */
void sim_run(const struct sim_scenario *sc, const struct sim_strategy *s,
	     const struct bisect_params *p, struct sim_summary *out);

/* The run budget the strategies are held to: 5 * (log2(n) + 3). */
double sim_runs_bound(int nr_commits);

#endif
