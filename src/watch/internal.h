#ifndef PERFBOT_WATCH_INTERNAL_H
#define PERFBOT_WATCH_INTERNAL_H
/*
 * What watch.c (the pass: plan, state, runs) and regress.c (detect,
 * bisect, reports, mails) share; not for other layers.
 */
#include "bisect/kernel.h"
#include "git/checkout.h"
#include "util/strmap.h"
#include "watch/watch.h"
#ifndef PERFBOT_NO_LAB
#include "lab/remote.h"
#endif

struct job;
struct git_commit;

/*
 * How many commits of a pass take turns at a time (A B C D A B C D ...),
 * and so how many worktrees a watch keeps ("wt", "wt-1" ...): more would
 * spread load over more of the line, at one checkout and build each.
 */
#define WATCH_TURNS 4

struct watch {
	struct watch_opts *o;
	struct job *job;
	struct strbuf state, reports, log_path;
	int lock_fd;
	/* the log: commits tested or failed, mails pending and sent */
	struct strmap tested, failed, mails, mailed;
	char **keys;                 /* the maps' keys, owned here */
	int nr_keys;
	size_t alloc_keys;
	char **pending;              /* "mail" lines in log order */
	int nr_pending;
	size_t alloc_pending;
	/* the worktrees: the commits of a group take turns, each in its own */
	struct checkout co[WATCH_TURNS];
	struct bisect_kernel kernel; /* --kernel-tree: the commit built and its VM */
	struct strbuf said;          /* run_job's warnings said (run_opts.said) */
	char *result_base;
	bool tty;
	bool lab;                    /* o->db is a lab's PostgreSQL */
	int moved;                   /* pairs of the same tree that differ (exit 6) */
	int untrusted;               /* bisects with no answer to trust (exit 6) */
	/* the store of the history and of what was reported: o->db, or with
	 * a lab (whose store a submitter's login may only read) the local
	 * default one, which the runs fetched from the lab are indexed into */
	const char *store;
#ifndef PERFBOT_NO_LAB
	struct lab_remote remote;
	bool remote_open;
#endif
};

/* Append one line to the state's log, fsynced.  0 or -1. */
__attribute__((format(printf, 2, 3))) int log_append(struct watch *w, const char *fmt, ...);
/* A commit's field (git log -1 --format=FMT), trimmed; empty on error. */
void commit_field(const struct watch *w, const char *sha, const char *fmt, struct strbuf *sb);
void free_strings(char **v, int n);

/* regress.c: the metrics to watch (the options', else the key metrics
 * with a known direction in the newest tested commit's matrix). */
void watched_metrics(const struct watch *w, const struct git_commit *line, int n,
		     char ***out, int *nr);
/* Detect metric's changes along tip's line; bisect, report and record
 * each new regression.  0 or -1. */
int detect_metric(struct watch *w, const char *tip, const char *metric);
/* Pipe each pending mail to --mail-cmd.  0 or -1. */
int send_mails(struct watch *w);

#endif
