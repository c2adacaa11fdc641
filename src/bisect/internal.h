#ifndef PERFBOT_BISECT_INTERNAL_H
#define PERFBOT_BISECT_INTERNAL_H
/*
 * What the bisect runner's files share; not for other layers.
 * driver.c runs the bisection in its phases (endpoints, search, the check
 * at the end), search.c drives git bisect to a verdict on each step and
 * confirms the final pair, evidence.c says what the verdicts so far
 * hold, measure.c measures (git, worktrees, runs, samples), state.c keeps
 * the decisions, the log, the steps and bisect.json.
 */
#include <stdbool.h>
#include "bisect/advice.h"
#include "bisect/decide.h"
#include "bisect/driver.h"
#include "bisect/kernel.h"
#include "git/checkout.h"
#include "util/strbuf.h"

struct job;
struct lab_remote;

/* ---- bisection state ------------------------------------------------- */

struct decision {
	char *sha;
	enum bisect_verdict v;
	int used;            /* runs counted for the verdict (its first `used`) */
	int from;            /* first run counted (fresh runs of a confirmation) */
	bool confirmed;
	bool placed;         /* x is looked up (bisect_decision_position) */
	double x;            /* position in the range; -1 outside it */
	struct sample_set paired;    /* the runs counted on the endpoints' level
	                              * (bisect_paired_runs), as evidence.c last
	                              * made them */
};

/* A paired run's turn (decide.h): run `run` of sha (its index among
 * the commit's complete runs) had the endpoints' level mid. */
struct bisect_turn {
	char *sha;
	int run;
	double mid;
};

struct commit_samples {
	char *sha;
	struct sample_set s;         /* complete runs, in run order */
};

struct bisect {
	struct bisect_opts *o;
	struct job *job;
	struct bisect_params p;
	struct decision *d;
	int nr_d;
	size_t alloc_d;
	struct commit_samples *cs;
	int nr_cs;
	size_t alloc_cs;
	struct strbuf dir;           /* "<state>.d" */
	struct checkout wt[3];       /* the good, bad and step worktrees */
	struct lab_remote *lab;      /* --db postgresql://: runs on the lab's boxes */
	char *result;                /* first bad commit, when found */
	struct strbuf order;         /* "sha verdict\n" in the order measured, for the plot */
	struct bisect_outlook outlook;       /* the endpoints' noise, at the start */
	int start_good, start_bad;   /* the endpoints' runs at the start */
	int logged_good, logged_bad; /* the same from the log's "endpoints"
	                              * line (--resume), 0 when it has none */
	struct bisect_turn *turns;   /* every paired run's, as logged */
	int nr_turns;
	size_t alloc_turns;
	enum bisect_stop stop;       /* why the search gave up, if it did */
	struct bisect_noise_check recheck;   /* the endpoints at the end */
	bool rechecked;
	struct bisect_kernel k;      /* --kernel-tree */
	struct strbuf why;           /* why the commit being measured cannot be */
	bool metric_checked;         /* a complete run had --metric (bisect_check_metric) */
	bool confirming;             /* the final pair is re-measured (the console says so) */
	int runs_made;               /* runs this invocation started (not those it
	                              * found in the result tree) */
	struct strbuf skips;         /* "sha reason\n" of skipped commits */
	struct strbuf said;          /* run_job's warnings said (run_opts.said) */
	struct strbuf range_buf;     /* git rev-list --reverse good..bad */
	char **range;                /* its lines: range[i] is at position i + 1 */
	int nr_range;
};

/* The worktrees under "<state>.d/", named bisect_wt_name[w]. */
enum { WT_GOOD, WT_BAD, WT_STEP };
extern const char *const bisect_wt_name[3];

/* ---- measure.c -------------------------------------------------------- */

/* Run git -C dir with the arguments up to a NULL; stdout into out. */
__attribute__((sentinel))
int bisect_git(struct bisect *b, const char *dir, struct strbuf *out, ...);
/* rev into a full sha; -1 after an error naming --repo and rev. */
int bisect_rev_parse(struct bisect *b, const char *rev, char **sha);
/* --repo names a git repository; -1 after an error saying what it is. */
int bisect_check_repo(struct bisect *b);
/* sha's subject line into out. */
void bisect_subject_of(struct bisect *b, const char *sha, struct strbuf *out);
/*
 * Samples of the metric for sha from the result tree (complete runs),
 * read again with reload.  Runs already there (a watch's, an earlier
 * bisect's of the same job) count as this bisect's own: the result path
 * is the job, the machine (a kernel's VM as its tbox_group), the config
 * and the commit.  A kernel bisect also leaves out the runs that booted
 * another build than its own (bisect_kernel_run_is_ours).  The first
 * look at sha says on stderr (unless no_progress) how many runs it
 * reuses, and from where, and how many it left out.
 */
struct commit_samples *bisect_samples_of(struct bisect *b, const char *sha, bool reload);
/* Prepare worktree w at sha and build it, unless already built there:
 * 0, 1 when it does not build (b->why says why), -1. */
int bisect_prepare(struct bisect *b, int w, const char *sha);
/* Run the job n more times on sha in worktree w (or the lab): 0, 1 when
 * it cannot be built or measured (b->why says why), -1, or
 * BISECT_MEASURE_NO_METRIC when the first complete run of the bisection
 * lacks --metric (bisect_check_metric said so). */
int bisect_measure(struct bisect *b, int w, const char *sha, int n);
#define BISECT_MEASURE_NO_METRIC (-2)
/* Commits measured against each other: sha in worktree w, n more runs. */
struct bisect_side {
	int w;
	const char *sha;
	int n;
};
/* The sides' runs one at a time, in turns (run/interleave.h), so that
 * load that comes and goes lands on every side; in the lab, side after
 * side.  Stops at the first run that does not return 0 and returns that
 * (bisect_measure's codes), the side's index in *failed (may be NULL). */
int bisect_measure_sides(struct bisect *b, const struct bisect_side *sides, int nr, int *failed);
/* sha's complete runs in the result tree (what: "good", "bad"), if any,
 * have --metric: 0 (also without runs), or -1 after a one-line error
 * naming the closest names of their stats.  Sets b->metric_checked when
 * there were runs to look at. */
int bisect_check_metric(struct bisect *b, const char *what, const char *sha);

/* The mean of stat over sha's complete runs that have it (machine.*),
 * NaN when none has. */
double bisect_stat_mean(struct bisect *b, const char *sha, const char *stat);

/* ---- evidence.c ------------------------------------------------------- */

/* The good (bad: the bad) endpoint's runs as evidence, into *out
 * (pointing into its samples): all of them, or under b->p.paired those
 * before the search (b->start_good, b->start_bad), the level paired runs
 * are put on; their runs in the turns only correct the steps'. */
void bisect_endpoint_runs(struct bisect *b, bool bad, struct sample_set *out);

/* runs of sha from its run `from` on, put on the endpoints' level of
 * bisect_endpoint_runs into *out (owned by the caller): decide.h's
 * bisect_paired_runs on this bisect's endpoints, each run's mid its
 * turn's (bisect_turn_mids), none for a run of no turn */
void bisect_level_runs(struct bisect *b, const char *sha, const struct sample_set *runs, int from,
		       struct sample_set *out);

/* The pooled sides: the endpoints' runs plus every decided commit's
 * (decide.h), except's left out (NULL: none), appended to good and bad. */
void bisect_pools(struct bisect *b, struct sample_set *good, struct sample_set *bad,
		  const char *except);
/* The runs of the step's tested neighbours (decide.h): the latest good
 * and the latest bad decision's, the endpoints' until there are such;
 * they point into the commits' samples. */
void bisect_neighbours(struct bisect *b, const char *except, struct sample_set *lo,
		       struct sample_set *hi);
/* Runs of the bisection's commits in the result tree (complete ones). */
int bisect_runs_spent(struct bisect *b);
/* May n more runs be spent?  Sets b->stop when not: the budget, or the
 * verdicts UNKNOWN in a row at the end of the log (decide.h). */
bool bisect_afford(struct bisect *b, int n);
/* b->range from git rev-list --reverse --topo-order good..bad; empty
 * when git fails (the verdicts then go without a trend). */
void bisect_load_range(struct bisect *b);
/* The commits in good..bad, plus one. */
int bisect_count_commits(struct bisect *b);
/* d's position in the range (good 0, range[i] i + 1, bad the last), -1
 * outside it; looked up once. */
double bisect_decision_position(struct bisect *b, struct decision *d);
/* The tested commits' positions and runs, the endpoints included and
 * except's verdict left out (NULL: none), into *tr for the step at sha
 * (NULL: position 0); pt and runs must have room for b->nr_d + 2.  False
 * without positions. */
bool bisect_positions(struct bisect *b, const char *sha, const char *except,
		      struct bisect_point *pt, struct sample_set *runs, struct bisect_trend *tr);
/* The first bad commit's step stands out of the range's trend
 * (bisect_step_stands_out), against its parent. */
bool bisect_result_stands_out(struct bisect *b, const char *parent);

/* ---- search.c --------------------------------------------------------- */

/* Search with git bisect from the verdicts so far and confirm the final
 * pair: 0 with b->result the first bad commit (its "result" line
 * logged), BISECT_EXIT_AMBIGUOUS (said on stdout unless quiet),
 * BISECT_EXIT_UNTRUSTED when the budget or convergence ended it (b->stop
 * says which), or -1 (an error, or *b->o->stop). */
int bisect_search(struct bisect *b);
/* Parents of sha, as shas, into *out (free with bisect_free_words). */
int bisect_parents_of(struct bisect *b, const char *sha, char ***out);

/* ---- state.c ---------------------------------------------------------- */

/* The decision about sha (the latest), or NULL; add: a new one when none. */
struct decision *bisect_find_decision(struct bisect *b, const char *sha);
struct decision *bisect_add_decision(struct bisect *b, const char *sha);
/* What d holds, freed (the bisection's end). */
void bisect_decision_release(struct decision *d);

/* Read the log at path: the start line's options into o, the verdicts
 * into b.  0, or -1 after an error naming the file and line. */
int bisect_load_log(struct bisect *b, const char *path, struct bisect_opts *o);
/* Append d as "kind sha verdict used" to the log. */
int bisect_record(struct bisect *b, const char *kind, const struct decision *d);
/* A paired run's turn: remembered (add), and logged as "turn sha run mid"
 * (record); bisect_turn_mids gives runs [from, from + n) of sha theirs,
 * into mids (emptied first), NaN for a run of no turn. */
void bisect_add_turn(struct bisect *b, const char *sha, int run, double mid);
int bisect_record_turn(struct bisect *b, const char *sha, int run, double mid);
void bisect_turn_mids(const struct bisect *b, const char *sha, int from, int n,
		      struct sample_set *mids);
void bisect_turns_release(struct bisect *b);
/* Append "endpoints <good runs> <bad runs>": how many of the endpoints'
 * runs their level is (start_good, start_bad), for --resume. */
int bisect_record_endpoints(struct bisect *b);
/* Remember a step for the plot and bisect.json: which samples of sha
 * (from, to) led to the verdict `what`; -1, -1 means all of them. */
void bisect_note_order(struct bisect *b, const char *sha, const char *what, int from, int to);
/* One skip's reason, remembered for bisect.json (the last one wins). */
void bisect_remember_skip(struct bisect *b, const char *sha, const char *why);
/* Say why sha was skipped (b->why), in the log and bisect.json; an
 * empty b->why is the noise's: BISECT_SKIP_NOISE " <used> runs". */
int bisect_note_skip(struct bisect *b, const char *sha, int used);
#define BISECT_SKIP_NOISE "no verdict after"
/* sha was skipped for the noise (its reason, also read back on --resume,
 * is BISECT_SKIP_NOISE's), not for a build or run that failed. */
bool bisect_skipped_by_noise(const struct bisect *b, const char *sha);
/* The first bad commit's relative change against its parent (NaN when
 * either has no runs). */
double bisect_result_step(struct bisect *b, const char *parent);
/* "<state>.d/bisect.json": the steps, their samples, the endpoints. */
void bisect_write_json(struct bisect *b, const char *parent);
/* The first bad commit line, then the report of bisect.json. */
void bisect_print_report(struct bisect *b);

#endif
