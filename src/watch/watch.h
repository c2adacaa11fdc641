#ifndef PERFBOT_WATCH_H
#define PERFBOT_WATCH_H
/*
 * perfbot watch: the robot's loop.  Each pass
 *
 *   1. fetches the repository (when it has a remote) and resolves the
 *      branch;
 *   2. picks the commits to test on its first-parent line: the tip,
 *      every stride-th counting from the branch's first commit (so that
 *      the grid stays put as the branch grows: a new pass tests the new
 *      commits only) and, with tags, every tagged one, newest first,
 *      none that was tested (or failed to build) before;
 *   3. builds each in a private worktree and runs the job on it (the runs
 *      go to the result tree and the store, as perfbot run's do); with a
 *      kernel tree, builds it in the kernel cache and runs the job in
 *      QEMU on it, as a kernel bisect does.  Four commits at a time, each
 *      in its own worktree, take turns, one run each (A B C D A B C D
 *      ..., run/interleave.h): load that comes and goes lands on all
 *      four, not on the commit that happened to run then;
 *   4. reads each watched metric's history from the store and finds its
 *      change points (detect/detect.h);
 *   5. for each regression not reported before: bisects the range between
 *      the two tested commits around it when untested commits lie inside
 *      (perfbot bisect's driver), writes the report (text and HTML, the
 *      bisect report in the seeds' voice) under the reports folder,
 *      records it in the store (table reported: once reported, never
 *      again), and pipes the text with mail headers to --mail-cmd.
 *
 * Everything a pass did survives kill -9: runs are renamed into place as
 * they finish (a commit whose runs were cut short gets only the missing
 * ones), a commit tested or failed is a line of the state's log, a bisect
 * is its own replayable state, and a report is recorded once written.
 * The next start continues where the dead one stopped.
 *
 * The state folder (default $XDG_DATA_HOME/perfbot/watch/<testcase>-<id>,
 * id from the repository, branch and job) holds:
 *
 *   lock                 flock'd while a watch runs on it
 *   log                  "tested <sha> <runs>" / "failed <sha> build" /
 *                        "mail <report>" (to be mailed) / "mailed <report>"
 *                        lines, appended and fsynced
 *   lab-jobs             with a lab's database: the queue entries out
 *   wt/, wt-1/ .. wt-3/  the worktrees of the commits taking turns;
 *                        build-<sha12>.log
 *   bisect-<good12>-<bad12>.state, .state.d/   one bisect per range
 *   reports/             the default reports folder
 */
#include <signal.h>
#include <stdbool.h>
#include "bisect/driver.h"
#include "stats/changepoint.h"
#include "util/error.h"
#include "util/strbuf.h"

struct watch_opts {
	char *repo;                  /* absolute */
	char *branch;
	char *job_path;              /* absolute */
	char **metrics;              /* NULL: the job's key metrics */
	int nr_metrics;
	int stride;                  /* >= 1 */
	bool tags;                   /* test every tag on the line too */
	bool once;                   /* one pass; else one every `every` s */
	double every;
	int runs;                    /* per commit; <= 0: the job's nr_run, else 3 */
	int depth;                   /* > 0: only the newest depth commits */
	bool fetch;                  /* git fetch when the repo has a remote */
	/* how each commit is built and measured, handed as it is to each
	 * range's bisect: --build (a shell command run in the worktree), or
	 * a kernel under test (--kernel-tree, absolute; the repo defaults to
	 * it): each commit is built in the kernel cache and booted in QEMU
	 * (--config, --accel ...), the job runs inside (bisect's kernel
	 * path, bisect/kernel.h); the benchmark's argv after -- */
	struct bisect_measure m;
	char *result_base;           /* absolute */
	char *db;                    /* store spec, NULL: the default */
	char *state_dir;             /* absolute; NULL: the default */
	char *reports_dir;           /* absolute; NULL: <state>/reports */
	char *mail_cmd;              /* sendmail-like command, or NULL */
	char *mail_to;               /* NULL: the first bad commit's author */
	char *mail_from;             /* NULL: perfbot@<hostname> */
	struct cp_options cp;
	int verbose;
	volatile sig_atomic_t *stop;
};

/* Exit codes beyond 0 and 1 (error). */
#define WATCH_EXIT_INTERRUPTED EXIT_INTERRUPTED
/* the machine moved: two tested commits with the same tree (the same
 * code; a notes-only or empty commit) differ beyond their noise, so the
 * pass's "no change" cannot be trusted (watch_level_moved); or a
 * regression's bisect ended with no answer to trust (bisect's exit 6) */
#define WATCH_EXIT_MACHINE_MOVED EXIT_UNTRUSTED

/* The defaults of perfbot watch's options. */
#define WATCH_STRIDE_DEFAULT 1
#define WATCH_RUNS_DEFAULT 3
#define WATCH_EVERY_DEFAULT 3600.0

/* Run passes as o says.  Returns an exit code. */
int watch_run(struct watch_opts *o);
void watch_opts_release(struct watch_opts *o);

/*
 * Which positions of a first-parent line of n commits (0 the oldest) to
 * test, newest first: the tip (n - 1), every position p with (base + p)
 * a multiple of stride (base: how many older commits the line left out,
 * so that the grid counts from the branch's first commit) and, where
 * tagged is not NULL, every tagged one; each once, none with done[p]
 * (done may be NULL).  out holds n; returns how many.
 */
int watch_plan(int n, int base, int stride, const bool *tagged, const bool *done, int *out);

/* A mail's header fields (all borrowed; in_reply_to may be NULL). */
struct watch_mail {
	const char *from, *to, *subject, *message_id, *in_reply_to, *date;
};

/*
 * The message: From, To, Subject, Date, Message-Id, In-Reply-To (when
 * known) and References, MIME headers for UTF-8 text, a blank line, the
 * body, appended to out.  Header values are folded at 78 columns.
 */
void watch_mail_compose(const struct watch_mail *m, const char *body, struct strbuf *out);

/*
 * "Name <addr>" for a To: of a commit's author, appended to out.  Commit
 * text is anyone's: a name with anything but letters, digits, blanks and
 * atext symbols is quoted ("Eve, victim@evil.org" would otherwise add a
 * recipient), control characters become blanks, and an address that is
 * not one plain local@domain (no blanks, controls, <>()[],;:\" or a second
 * '@') is refused: -1 and out untouched.  0 when appended.
 */
int watch_mail_mailbox(const char *name, const char *addr, struct strbuf *out);

/*
 * The subject of a regression's mail, as the 0-day robot wrote them:
 * "[area] <sha10>: <metric> <change>% regression", area the first bad
 * commit's subject up to its first ": " (none without one).
 */
void watch_mail_subject(const char *sha, const char *commit_subject, const char *metric,
			double change_pct, struct strbuf *out);

/*
 * The In-Reply-To of a commit's report: the message id of the patch, from
 * its message's "Message-Id:" trailer or a "Link:" to lore.kernel.org/r/
 * or patch.msgid.link/, as "<id>"; appended to out, 1 when found, else 0.
 */
int watch_patch_message_id(const char *commit_message, struct strbuf *out);

/*
 * Do two points of the same code differ beyond their noise?  True when
 * both have 2 runs or more and their means differ by more than
 * WATCH_MOVED_SE standard errors (sqrt(sd_a^2/n_a + sd_b^2/n_b)) and by
 * more than WATCH_MOVED_MIN_REL of a's mean (so that runs that all gave
 * one figure are not called moved by rounding).  *rel gets (b - a) / |a|.
 */
#define WATCH_MOVED_SE 4.0
#define WATCH_MOVED_MIN_REL 0.01
bool watch_level_moved(const struct cp_point *a, const struct cp_point *b, double *rel);

#endif
