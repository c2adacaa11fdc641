#ifndef PERFBOT_BISECT_DRIVER_H
#define PERFBOT_BISECT_DRIVER_H
/*
 * The bisect runner: drives real `git bisect` in private worktrees, runs
 * the job on each commit it proposes (run/run.h), and decides with the
 * pure functions of decide.h, following the protocol written there.
 *
 * State is a replayable log (like `git bisect log`): the first line holds
 * every option, each later line one decision, appended and fsynced as it
 * is made:
 *
 *   start --repo /r --good <sha> --bad <sha> --job /j.yaml --metric m ...
 *   endpoints <good runs> <bad runs>
 *   turn <sha> <run> <level>
 *   verdict <sha> good|bad|skip <runs used>
 *   confirm <sha> good|bad|skip <runs used>
 *   result <sha>
 *
 * "endpoints" is how many runs of each made their level when they were
 * judged (the runs after are the paired turns' and the recheck's);
 * "turn" the endpoints' level of the turn in which run <run> of <sha>
 * (its index among the commit's complete runs) was made, one line per
 * turn as it ends (decide.h's paired runs).  With them a resumed
 * bisection judges every run as the one before the crash did.
 *
 * Runs themselves live in the ordinary result tree, under each commit's
 * full sha, where every finished run is renamed into place and united
 * before the next starts.  So after a crash at any moment, `--resume`
 * reads the log, rebuilds git's bisect state from the verdicts, counts
 * the runs already in the tree (reusing them) and carries on.
 *
 * A new bisect reuses the runs in the tree as well: a watch's runs of
 * the range's ends, an earlier bisect's of the same job (the result path
 * is the job, the machine, the config and the commit; a kernel bisect
 * also checks each run's kernel image, measure.c).  Each reused commit
 * is said on stderr ("reusing N runs of <commit> from <root>").  A
 * verdict counts the fewest runs found, in run order, that give one (as
 * if measured now), so a confirmation finds its fresh runs among the
 * later ones; and when nothing had to run at all, the endpoints are not
 * measured again at the end (their noise check is for runs made
 * meanwhile).
 *
 * Worktrees (under "<state>.d/"): "good" and "bad" hold the endpoints,
 * built once, so that extra reference runs never rebuild; "step" is where
 * git bisect checks out the commit under test.  The user's checkout and
 * its bisect state are never touched.
 */
#include <signal.h>
#include <stdbool.h>
#include "kernel/vm.h"
#include "util/error.h"
#include "util/strbuf.h"

/*
 * How each commit is built and measured: the options `perfbot bisect`
 * and `perfbot watch` share.  A watch embeds one and hands it to each
 * range's bisect (bisect_measure_copy), so an option added here reaches
 * both: add it to the parsers (cmd/bisect.c, cmd/watch.c), to the start
 * line (state.c, log.c), and to copy and release below.
 */
struct bisect_measure {
	char *build;                 /* shell command run in the worktree, or NULL */
	char *kernel_tree;           /* build and boot each commit (bisect/kernel.h) */
	char *kconfig;               /* the kernels' --config, NULL: tiny */
	/* --accel, --boot-timeout, --cpus, --mem, --numa (kernel_vm_opt) of
	 * the VM each kernel boots in; its pointers stay NULL (kernel.c sets
	 * the kernel and commit per step) */
	struct kernel_vm_opts vm;
	char **command;              /* benchmark argv, or NULL (the job's) */
	int nr_command;
};

/* dst (zeroed or released) gets copies of src's strings. */
void bisect_measure_copy(struct bisect_measure *dst, const struct bisect_measure *src);
void bisect_measure_release(struct bisect_measure *m);

struct bisect_opts {
	char *repo, *good, *bad;     /* good/bad: as given, resolved to shas */
	char *good_name, *bad_name;  /* good/bad as the user named them ("v1"),
	                              * NULL when given as (a prefix of) the sha */
	char *job_path;
	char *metric;
	struct bisect_measure m;     /* --build, --kernel-tree ..., the command */
	int runs;                    /* runs of a step before its first verdict */
	int max_runs;                /* most runs of a step before skipping it */
	int max_total_runs;          /* the budget, all runs; <= 0: the default */
	double alpha;                /* per-bisection error budget, <= 0: default */
	char *result_base;
	char *db;                    /* the store runs are indexed into, or NULL */
	bool no_index;               /* do not index runs into the store */
	char *state_path;
	int verbose;                 /* kept in the log: --resume logs as much */
	bool quiet;                  /* nothing on stdout: the caller reports
	                              * (perfbot watch writes its own) */
	bool no_progress;            /* -q: no endpoint or step lines on stderr */
	volatile sig_atomic_t *stop;
};

/* Exit codes of `perfbot bisect`, beyond 0 (found) and 1 (error). */
#define BISECT_EXIT_NOTHING EXIT_NOTHING     /* good and bad do not differ */
#define BISECT_EXIT_AMBIGUOUS EXIT_RANGE     /* only skipped commits were left */
/* no answer to trust: the run budget was spent, the verdicts stopped
 * converging, or the machine's noise moved during the bisect */
#define BISECT_EXIT_UNTRUSTED EXIT_UNTRUSTED
#define BISECT_EXIT_INTERRUPTED EXIT_INTERRUPTED

/* Run (or, with resume, continue) a bisection.  Returns an exit code. */
int bisect_run(struct bisect_opts *opts, bool resume);
void bisect_opts_release(struct bisect_opts *opts);
/*
 * `perfbot bisect --reset`: git bisect reset in the step worktree, the
 * worktrees under "<state_path>.d" unregistered from the repository the
 * state names (else repo, may be NULL), then the state and its directory
 * removed.  0 (also when there is nothing), or EXIT_ERROR.
 */
int bisect_reset(const char *state_path, const char *repo, int verbose);

#endif
