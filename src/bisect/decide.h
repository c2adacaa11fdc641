#ifndef PERFBOT_BISECT_DECIDE_H
#define PERFBOT_BISECT_DECIDE_H
/*
 * The decisions of a performance bisection, apart from git and from
 * running anything (as git keeps its search in bisect.c and the CLI and
 * state in builtin/bisect.c).  Given samples of one metric measured on
 * the good side, the bad side and the commit under test (the "step"),
 * these functions say
 *
 *   bisect_check_endpoints  whether good and bad differ at all, so that
 *                           there is something to bisect;
 *   bisect_runs_wanted      how many more runs the step and each side
 *                           need before a verdict (adaptive repeats);
 *   bisect_classify         whether the step is GOOD, BAD or UNKNOWN.
 *
 * Nothing here does I/O or keeps state: the same samples and parameters
 * give the same answer.  Direction does not matter: the metric may drop
 * or rise from good to bad; only which side the step resembles counts.
 *
 * The protocol (src/bisect/sim.c follows it, and measures it):
 *
 * 1. Endpoints.  good = runs of the good commit, bad = runs of the bad:
 *        while (bisect_runs_wanted(NULL, &good, &bad, &p, &more))
 *                run more.good / more.bad times;
 *        if (!bisect_check_endpoints(&good, &bad, &p, &ep))
 *                stop: nothing to bisect (ep has the shift and p-value).
 *
 * 2. Search, as git bisect proposes commits.  The sides are pooled: good
 *    holds the runs of the good endpoint and of every commit judged
 *    good so far, bad likewise.  Bisection assumes one transition, so
 *    every commit on a side runs the same code as far as the metric
 *    goes, and their runs estimate that side (and the common noise)
 *    better with each step, for free:
 *        step = fresh runs of the commit;
 *        while (bisect_runs_wanted(&step, &good, &bad, &p, &more))
 *                run more.step on the commit, more.good on the good
 *                endpoint, more.bad on the bad endpoint;
 *        bisect_classify(&step, &good, &bad, &p):
 *                GOOD -> git bisect good, pool its runs into good;
 *                BAD -> git bisect bad, pool its runs into bad;
 *                UNKNOWN -> git bisect skip (max_runs and still ambiguous).
 *
 * 3. Confirmation.  A wrong verdict always ends up at the edge: a bad
 *    commit judged good becomes the last good one, since every commit
 *    after it is bad, and symmetrically.  So the search can afford a
 *    loose alpha as long as the final pair is re-measured strictly:
 *    when git names the first bad commit, take the last good commit and
 *    the first bad one (those not yet confirmed and not an endpoint),
 *    one at a time, drop its runs from its side, measure it afresh as
 *    in step 2 under bisect_confirm_params(&p), and keep the verdict of
 *    bisect_confirm_verdict (UNKNOWN: skip it).  If it changed, restart git bisect from the
 *    verdicts so far (the runner's log: the last good and first bad
 *    commit bound the range) and go on searching; else confirm the
 *    other one.  The answer stands when both are confirmed.  When git
 *    has only skipped commits left, the last good and first bad commit
 *    around them are confirmed the same way before the answer is left
 *    ambiguous: a wrong verdict ends at the edge of the skipped commits
 *    too (on a level between two steps, a commit skipped at max_runs
 *    often has bounds of its own level, one of them judged wrong).  A verdict
 *    the confirmation reversed is not confirmed itself: the fresh runs
 *    disagree with the old ones, and with heavy tails a few runs now and
 *    then all land in one tail; when the commit is at the edge again,
 *    it is confirmed afresh, and the verdict stands once two agree.
 *
 * Why fresh runs: the runs that gave a wrong verdict are the unlucky
 * ones; adding to them would mostly repeat the mistake.
 *
 * Paired runs (p.paired).  A shared machine drifts: load that falls
 * during a bisection makes every commit measured later run faster, and
 * a bad commit measured late lands among the endpoints' early runs of
 * the good side (bench/busy.sh: a commit judged good on 4 runs,
 * confirmed good on 13, the answer wrong).  So in steps 2 and 3 each of
 * the step's runs takes a turn with a fresh run of each endpoint, good,
 * step, bad, and is put by them on the level of the endpoints' runs
 * before the search (bisect_paired_runs) before it is compared.  A drift
 * that is slow next to a turn then cancels (a linear one exactly: the
 * step runs halfway between its endpoint runs), and so it does in the
 * pooled sides, the neighbours and the trend, where every paired
 * decision's runs are taken the same way.  The endpoints as evidence are
 * their runs before the search; their turn runs only correct (pooled,
 * they made the sides the endpoints' alone, and a commit between two
 * steps went either way at random: doc/design/bisect.md).  It costs two
 * endpoint runs a step run, and a corrected run carries half a run's
 * noise more (BISECT_PAIRED_VAR), which the verdicts count; a
 * deterministic guest (noise at BISECT_NOISE_FLOOR) does not drift, and
 * its bisection runs unpaired.
 */
#include <stdbool.h>
#include <stddef.h>

/*
 * The samples of one metric on one commit (or one pooled side), in the
 * order measured.  SAMPLE_SET_INIT is empty; sample_set_add appends (the
 * set owns v, which sample_set_release frees).  A caller may also point v
 * at its own array with alloc 0 and pass that (const) to the functions
 * below, which never modify or keep it.
 */
struct sample_set {
	double *v;
	int nr;
	size_t alloc;
};
#define SAMPLE_SET_INIT { NULL, 0, 0 }

void sample_set_add(struct sample_set *s, double v);
/* Append all of from's samples to s. */
void sample_set_append(struct sample_set *s, const struct sample_set *from);
void sample_set_release(struct sample_set *s);

enum bisect_verdict {
	BISECT_UNKNOWN = 0,     /* not (yet) distinguishable: run more or skip */
	BISECT_GOOD,
	BISECT_BAD,
};

/*
 * The runs a verdict compares are clipped about their commit's median at
 * BISECT_CLIP_K robust scales (BISECT_MAD_TO_SD times the pooled median
 * absolute deviation): decide.c says why; the trend model clips the same.
 */
#define BISECT_CLIP_K 2.5
#define BISECT_MAD_TO_SD 1.4826

/*
 * Where the tested commits lie along the range, for the trend model
 * (src/bisect/trend.h): each one's position (good = 0, bad the largest;
 * any numbering that keeps the range's order, such as git rev-list
 * --reverse's), its verdict (GOOD or BAD; others are left out) and its
 * runs, the endpoints included.  x is the step's own position; the step
 * is not among pt.  Every function below takes NULL for "positions
 * unknown", and then judges by the pooled sides and the neighbours only.
 */
struct bisect_point {
	double x;
	enum bisect_verdict v;
	const struct sample_set *runs;
};

struct bisect_trend {
	const struct bisect_point *pt;
	int nr;
	double x;
};

/* "good", "bad" or "skip": the word git bisect takes for the verdict. */
const char *bisect_verdict_name(enum bisect_verdict v);

/*
 * Which two-sample tests judge "distinguishable".  WELCH and MWU are
 * stats/stat_tests.h's; POOLED is Student's t with one variance pooled
 * over the step and both sides (through t_pvalue): runs of one benchmark
 * on one machine share a noise level, and a handful of runs of the step
 * alone estimate it too poorly for the strict levels a bisection needs.
 */
#define BISECT_TEST_WELCH  (1u << 0)
#define BISECT_TEST_MWU    (1u << 1)
#define BISECT_TEST_POOLED (1u << 2)
/* The verdict of bisect_classify by Wald's sequential likelihood ratio
 * (bisect_llr) instead of the tests above; p-values (the endpoints, the
 * noise check) are then the pooled t's.  The default. */
#define BISECT_TEST_SPRT   (1u << 3)

struct bisect_params {
	/*
	 * Significance levels: alpha for the endpoints and the search,
	 * confirm_alpha for the final pair.  Two samples are
	 * distinguishable when every selected test gives p < the level (the
	 * largest p counts, so all must agree).  An undefined p (NaN, too
	 * few samples) counts as 1: no evidence of a difference.
	 */
	double alpha, confirm_alpha;
	unsigned tests;         /* BISECT_TEST_* bits; at least one */
	/* Runs of a step before its first verdict, and after which an
	 * undecided step is given up (skipped).  1 <= min_runs <= max_runs. */
	int min_runs, max_runs;
	/* Runs each side needs before any verdict, and the most that
	 * runs_wanted will ask of an endpoint to grow its side.
	 * 1 <= ref_min_runs <= ref_max_runs. */
	int ref_min_runs, ref_max_runs;
	/* Smallest relative shift of the means, |bad - good| / |good|, worth
	 * bisecting; 0 accepts any statistically significant one. */
	double min_shift;
	/* The most benchmark runs a bisection may spend, endpoints and
	 * confirmations included (0: no limit), and how many verdicts in a
	 * row may come out UNKNOWN before the search gives up: past either,
	 * the noise is too large for the shift at these settings. */
	int max_total_runs;
	int max_unknown_in_row;
	/* The step's runs are paired (above): each one's variance is
	 * BISECT_PAIRED_VAR runs' in the verdicts.  bisect_params_init
	 * leaves it false; the runner sets it unless the endpoints' noise
	 * is at BISECT_NOISE_FLOOR. */
	bool paired;
};

/*
 * The defaults that bench/bisect-sim.sh measured (see its table), for a
 * bisection of nr_commits commits from good to bad inclusive: alpha and
 * confirm_alpha are per-bisection levels (0.4 and 0.003) shared out
 * over its log2(nr_commits) verdicts, since a single wrong one anywhere
 * spoils the answer.
 */
void bisect_params_init(struct bisect_params *p, int nr_commits);

/*
 * The default of --max-total-runs for nr_commits commits:
 * BISECT_BUDGET_FACTOR * 5 * (log2 n + 3), rounded up — a few times the
 * mean that bench/bisect-sim.sh holds the search to, so that an unlucky
 * history still ends, while a hopeless one stops early.
 */
#define BISECT_BUDGET_FACTOR 5
int bisect_default_budget(int nr_commits);

/*
 * The default of --max-total-runs when the runs are paired (p.paired):
 * BISECT_PAIRED_COST times bisect_default_budget, what a verdict costs
 * more in runs (bench/bisect-sim.sh's mean runs, paired against
 * unpaired): a step's run comes with two endpoint runs, and carries
 * BISECT_PAIRED_VAR runs' noise.
 */
#define BISECT_PAIRED_COST 4
int bisect_paired_budget(int nr_commits);

/*
 * p for the confirmation stage: alpha replaced by confirm_alpha, and at
 * least BISECT_CONFIRM_MIN_RUNS fresh runs (min_runs if larger, max_runs
 * if smaller) before its verdict.  With heavy tails 2 runs can both land
 * in one tail and pass even the strict level.  3, not 4: since a
 * reversal is confirmed again (step 3 above), 3 runs in one tail no
 * longer make a wrong answer final, and bench/bisect-sim.sh's 64
 * commits cannot spare the 4th run's 0.6 mean runs (45.0 of 45).
 */
#define BISECT_CONFIRM_MIN_RUNS 3
struct bisect_params bisect_confirm_params(const struct bisect_params *p);

/*
 * Classify the step against the sides.  good and bad are the pooled
 * sides; lo and hi the runs of the step's tested neighbours (the last
 * commit judged good before it and the first judged bad after it, the
 * endpoints at first), or NULL; tr where the tested commits lie (NULL:
 * unknown), for the trend model (bisect_llr).
 *
 * With BISECT_TEST_SPRT (the default): by bisect_llr, BAD at
 * llr >= log(1 / alpha), GOOD at llr <= -log(1 / alpha).  A step still
 * between those with max_runs runs that is unlike both references (the
 * pooled t at alpha; those bisect_llr took) and lies between them is at
 * a level of its own, between two steps or on a drift: the nearer one
 * (as with the neighbours below).  With the other tests:
 *
 * First against the pooled sides: BISECT_BAD when the step is
 * distinguishable from good, not distinguishable from bad, and its mean
 * is closer to bad's than to good's; BISECT_GOOD symmetrically.
 *
 * Else against the neighbours, whose runs a slow drift has not carried
 * far from the step (the pooled sides hold commits from all along the
 * range), nor a second step in the range: the same rule on lo and hi,
 * the variance pooled over the step and the two; and when the step is
 * distinguishable from both and its mean lies between theirs, the nearer
 * one.  Such a step sits on a trend or between two steps: either side
 * leads to a real change, and the nearer keeps a trend's verdicts in
 * order.
 *
 * BISECT_UNKNOWN otherwise (too few samples, or unlike both and not in
 * between).  An empty set gives BISECT_UNKNOWN.  Nothing is modified.
 */
enum bisect_verdict bisect_classify(const struct sample_set *step,
				    const struct sample_set *good,
				    const struct sample_set *bad,
				    const struct sample_set *lo,
				    const struct sample_set *hi,
				    const struct bisect_trend *tr,
				    const struct bisect_params *p);

/*
 * The verdict of a confirmation (decide.h's step 3) of a commit judged
 * old, its fresh runs in step, under cp = bisect_confirm_params(p):
 * bisect_classify's, or when that is UNKNOWN with max_runs fresh runs,
 * old if the fresh runs still lean its way (bisect_llr's sign), else
 * UNKNOWN.  A wrong verdict is what the confirmation is for, and max_runs
 * runs of a commit on the other side lean the other way nearly always;
 * what the strict level cannot reach with heavy tails is no reason to
 * skip a commit they agree with.
 */
enum bisect_verdict bisect_confirm_verdict(enum bisect_verdict old,
					   const struct sample_set *step,
					   const struct sample_set *good,
					   const struct sample_set *bad,
					   const struct sample_set *lo,
					   const struct sample_set *hi,
					   const struct bisect_trend *tr,
					   const struct bisect_params *cp);

/*
 * The log-likelihood ratio of "the step runs at bad's level" to "at
 * good's", on clipped means (decide.c says how): positive leans bad.
 * The levels are the pooled sides', except that a neighbour (lo, hi, as
 * bisect_classify's; NULL for none) unlike the rest of its side stands
 * for that side alone: a second step or a drift moved the side's level.
 * Where the trend model holds (tr, trend.h: the range drifts), the
 * levels are instead the good and the bad line at the step's position.
 * A step unlike both levels and between them, before a trend can be
 * fitted, is judged by its side of their midpoint at the fixed level
 * instead (decide.c says why), the value then being log(1 / p).
 * With BISECT_TEST_SPRT, bisect_classify says BAD at llr >= log(1 /
 * alpha), GOOD at llr <= -log(1 / alpha), else UNKNOWN (more runs):
 * Wald's sequential test, wrong at most alpha of the time however often
 * it looks.  0 when there are too few samples to say anything.
 */
double bisect_llr(const struct sample_set *step, const struct sample_set *good,
		  const struct sample_set *bad, const struct sample_set *lo,
		  const struct sample_set *hi, const struct bisect_trend *tr);

/*
 * Paired runs.  The level a turn's endpoint runs stand at: their
 * geometric mean (a machine's drift scales a rate), their mean when
 * either is not positive.
 */
double bisect_turn_mid(double good, double bad);

/*
 * runs put on the level of good's and bad's runs, into out (emptied
 * first): run i times M / mids[i] (mids[i] the bisect_turn_mid of the
 * endpoint runs of its turn, M that of good's and bad's means; the
 * runner's good and bad are the endpoints' runs before the search), or
 * plus M - mids[i] where either is not positive.  A mid that is NaN (a
 * run found in the result tree, of no turn) leaves its run as it is;
 * so do runs past mids->nr.
 *
 * A corrected run's noise is its own plus a quarter of each endpoint
 * run's: BISECT_PAIRED_VAR times a run's, which bisect_classify and
 * bisect_runs_wanted count under p->paired.
 */
#define BISECT_PAIRED_VAR 1.5
void bisect_paired_runs(const struct sample_set *runs, const struct sample_set *mids,
			const struct sample_set *good, const struct sample_set *bad,
			struct sample_set *out);

/* How many more runs each commit needs; see bisect_runs_wanted. */
struct bisect_runs {
	int step, good, bad;
};

/*
 * Adaptive repeats.  Sets *more and returns more->step + more->good +
 * more->bad; 0 means "decide now".
 *
 * With step == NULL it is about the endpoints: each gets at least
 * ref_min_runs runs, and both grow one run at a time (to ref_max_runs)
 * while bisect_check_endpoints does not yet find them different.
 *
 * With a step: each side first gets ref_min_runs, the step min_runs (or
 * more if the selected tests could not reach alpha with fewer, as exact
 * Mann-Whitney cannot with 2 samples).  Then, while the step is UNKNOWN
 * and has fewer than max_runs, it wants one more step run, plus one run
 * of the endpoint of the side the step's mean is farther from when that
 * side has no more samples than the step (and fewer than ref_max_runs):
 * then that side's own noise is what keeps the test from deciding.  With
 * BISECT_TEST_SPRT it is the side with fewer samples (good on a tie)
 * instead: the ratio's doubt is the midpoint's, both sides' alike.
 * Returns 0 at a verdict, or at max_runs with the step still UNKNOWN,
 * when the caller skips the commit.  Under p->paired a step's runs come
 * in whole turns: more->step, ->good and ->bad are each the largest of
 * the three, and the step's runs are taken as paired (BISECT_PAIRED_VAR).
 */
int bisect_runs_wanted(const struct sample_set *step,
		       const struct sample_set *good,
		       const struct sample_set *bad,
		       const struct sample_set *lo,
		       const struct sample_set *hi,
		       const struct bisect_trend *tr,
		       const struct bisect_params *p,
		       struct bisect_runs *more);

/* What bisect_check_endpoints found, for the message. */
struct bisect_endpoints {
	double good_mean, bad_mean;
	double rel_shift;       /* (bad_mean - good_mean) / |good_mean|; NaN at 0 */
	double p;               /* the combined p-value of good vs bad */
	bool differ;            /* the return value */
};

/*
 * Do good and bad differ on the metric?  True when p < alpha and
 * |rel_shift| >= min_shift (good_mean 0 counts as any shift).  Fills *out
 * either way, so that "nothing to bisect: -0.4% (p = 0.61)" can be said.
 */
bool bisect_check_endpoints(const struct sample_set *good,
			    const struct sample_set *bad,
			    const struct bisect_params *p,
			    struct bisect_endpoints *out);

/*
 * The minimum detectable change: the smallest relative shift of the
 * means, as a fraction of |good's mean|, that runs as noisy and as many
 * as good's and bad's would show at level alpha (two-sided) in 4 tries
 * of 5 (power 0.8):
 *
 *   (z(1 - alpha/2) + z(0.8)) * sqrt(sd_good^2/n_good + sd_bad^2/n_bad)
 *   / |mean_good|
 *
 * with the sample standard deviations.  NaN when a side has fewer than 2
 * runs or good's mean is 0.  "Nothing to bisect" is only an answer when
 * this is at most the change looked for (BISECT_CHANGE_LOOKED_FOR, or
 * min_shift when larger): else the noise could have hidden it.
 */
double bisect_min_detectable(const struct sample_set *good, const struct sample_set *bad,
			     double alpha);
#define BISECT_CHANGE_LOOKED_FOR 0.05
/* The normal distribution's quantile: z with P(Z < z) = q, 0 < q < 1. */
double bisect_normal_quantile(double q);

/* Why a bisection stops before naming a commit. */
enum bisect_stop {
	BISECT_GO_ON = 0,
	BISECT_STOP_BUDGET,             /* max_total_runs would be exceeded */
	BISECT_STOP_NO_CONVERGENCE,     /* max_unknown_in_row verdicts UNKNOWN */
	BISECT_STOP_NOISE_SKIPS,        /* only commits skipped for the noise
					 * (UNKNOWN at max_runs) are left: the
					 * runner's, never bisect_should_stop's */
};

/* What the search has spent so far. */
struct bisect_progress {
	int runs;                       /* every run, endpoints included */
	int unknown_in_row;             /* verdicts UNKNOWN since the last one
					 * that was not */
};

/*
 * Should the search stop before asking for `more` further runs?  The
 * budget first (runs + more > max_total_runs), then convergence.  The
 * caller checks before every batch of runs, so that no bisection ever
 * spends more than max_total_runs.
 */
enum bisect_stop bisect_should_stop(const struct bisect_progress *pr, int more,
				    const struct bisect_params *p);

/*
 * The noise of the endpoints: the standard deviation of their runs about
 * their own means, pooled, relative to the good mean (NaN with fewer
 * than 3 runs in all, or a good mean of 0).  Rank-free and simple on
 * purpose: it is for telling the user what to expect.
 */
double bisect_noise(const struct sample_set *good, const struct sample_set *bad);

/*
 * How many runs of a commit a verdict needs at this noise (relative
 * standard deviation) for this shift (relative change): the n at which
 * the shift is z(1 - alpha/2) + z(0.95) standard errors of a step's mean,
 * i.e. ceil(((z_a + 1.645) * noise / |shift|)^2), at least 1.  -1 when
 * noise or shift is not a positive finite number or alpha not in (0, 1).
 */
int bisect_runs_needed(double noise, double shift, double alpha);

/* What bisect_noise_moved found, for the report. */
struct bisect_noise_check {
	double noise_before, noise_after;       /* bisect_noise of each pair */
	double good_move, bad_move;     /* each endpoint's relative move */
	bool noise_rose;                /* by NOISE_MOVE_RATIO or more */
	bool moved;                     /* the return value */
	bool at_floor;                  /* both noises <= BISECT_NOISE_FLOOR */
};

/*
 * Did the machine's noise move during the bisection?  before_* are the
 * endpoints' runs as measured at the start, after_* fresh runs at the
 * end.  True when the noise grew by NOISE_MOVE_RATIO (2) or more (from
 * none: any) and a verdict at the noise now needs more runs than at the
 * start (bisect_runs_needed at confirm_alpha, for the good-to-bad
 * change), or when an endpoint's mean moved by more than half that
 * change, significantly at confirm_alpha: either way the verdicts in
 * between were made against references that no longer hold.  Under
 * p->paired a move is no reason (the moves are still measured): each
 * verdict took the endpoints' levels of its own turns.  Noise
 * that fell is no reason: those verdicts are only safer than planned.
 * False (and NaN fields) with fewer than 2 runs in any set.
 *
 * False too (at_floor set, the moves still measured) when both noises
 * are at or below BISECT_NOISE_FLOOR: runs that repeat to within 0.05%
 * are a deterministic guest's (an instruction-counting clock, --accel
 * icount, varied 0.006% at a bisect's endpoints), which the host's load
 * this check is for does not reach.  There a ratio of two 2-run
 * estimates is rounding (0.002% against 0.006%), and the t test of a
 * move divides by a variance of about nothing, so any wobble would be
 * "significant": both would distrust a sound answer (exit 6).  0.05% is
 * also where the report's one-decimal noise prints 0.0%.
 */
#define NOISE_MOVE_RATIO 2.0
#define BISECT_NOISE_FLOOR 0.0005
bool bisect_noise_moved(const struct sample_set *before_good,
			const struct sample_set *before_bad,
			const struct sample_set *after_good,
			const struct sample_set *after_bad,
			const struct bisect_params *p, struct bisect_noise_check *out);

/*
 * Does the first bad commit explain only part of the change?  step is
 * its relative change against its parent, total good's to bad's: true
 * when |step| < BISECT_PARTIAL_STEP * |total| (another change, a second
 * step or a drift, makes up the rest), so that the report can say "this
 * commit explains -10% of the -19%".  False for non-finite input.
 */
#define BISECT_PARTIAL_STEP 0.75
bool bisect_partial_step(double step, double total);

/*
 * Is the first bad commit's own step a step at all?  step and total as
 * for bisect_partial_step: false when |step| < BISECT_MIN_STEP * |total|
 * (or either is not finite).  A drift spreads the change over the whole
 * range; bisecting it ends at some pair of neighbours that differ by
 * about nothing, and such an answer must not be given as the culprit.
 * 1/8: a real step measured with a handful of runs a commit falls that
 * far short of the change it makes about once in 300 bisections at 2
 * noise scales, while a neighbour pair on a drift of many times the
 * step nearly always does.
 */
#define BISECT_MIN_STEP 0.125
bool bisect_real_step(double step, double total);

/*
 * Does the final pair's step stand out of a drift?  all holds every
 * verdict of the bisection (x unused), lo and hi the runs of the last
 * good and the first bad commit.  On a drift many times the step,
 * bisect_real_step refuses even the right pair (a -10% step is under
 * 1/8 of the -68% a drift of -0.1% a commit adds up to over 1,024
 * commits); this is the other way to accept it: the trend model's step
 * over all verdicts (trend.h) is 4 standard errors from none, the way
 * from good to bad, and the pair's own is 2 standard errors the same
 * way.  A pair of a pure drift differs by about nothing, and so does one
 * that a drift against the change ended at.  False without a fit.
 * bench/bisect-sim.sh: on the fit alone, a drift against the change
 * (where there is no step to find) named a wrong pair 1.8% of the
 * time, 0.6% with the pair's own 2; the right pair's own step is 2
 * standard errors or more in 99.6% of drift histories.
 */
#define BISECT_STEP_FIT_Z 4.0
#define BISECT_STEP_PAIR_Z 2.0
bool bisect_step_stands_out(const struct bisect_trend *all, const struct sample_set *lo,
			    const struct sample_set *hi);

/* The combined p-value of a vs b under p->tests (the largest; NaN as 1),
 * the pooled t's variance taken over a and b. */
double bisect_pvalue(const struct sample_set *a, const struct sample_set *b,
		     const struct bisect_params *p);

#endif
