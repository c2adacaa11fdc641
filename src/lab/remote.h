#ifndef PERFBOT_LAB_REMOTE_H
#define PERFBOT_LAB_REMOTE_H
/*
 * Runs on the lab's boxes instead of this machine: what `perfbot bisect
 * --db postgresql://...` does with the runs it needs.
 *
 * lab_remote_run() queues N entries of one run each for a commit, so that
 * as many boxes as are free take them at once, waits until each has
 * ended, and fetches the runs of the done ones into a local result root,
 * where the caller reads them as if it had run them (upload.h's
 * lab_fetch).  Entries that failed for good count as runs that could not
 * be made.
 *
 * A journal file makes it resumable.  Each line is appended and fsynced:
 *
 *   submit <ref> <commit>   before a batch of entries is queued under ref,
 *                           128 random bits in hex (perfbot.submit)
 *   queued <id> <commit>    for each, once the batch is committed
 *   submitted <ref>         after the batch's "queued" lines
 *   fetched <id>            once an entry's runs are in the result tree
 *
 * Killed and started again with the same journal, lab_remote_open first
 * asks the queue for the ids of a batch without its "submitted" line
 * (perfbot.submitted): killed between the COMMIT and the fsync, those
 * entries would otherwise run for nobody and be queued again.  Then
 * lab_remote_run waits for the entries of its commit still out and
 * fetches them, queueing only the runs missing, and never fetches an
 * entry twice.
 */
#include <signal.h>
#include "pg/pg.h"

struct job;

struct lab_remote_entry {
	long long id;
	char *commit;
	bool fetched;
};

/* A batch the journal does not say is all there (see the top). */
struct lab_remote_batch {
	char *ref;
	char *commit;
};

#define LAB_REF_LEN 32

struct lab_remote {
	struct pg db;
	const char *on_connect[2];
	char *journal;                 /* its path, or NULL for none */
	struct lab_remote_entry *e;
	int nr;
	size_t alloc;
	struct lab_remote_batch *unsure;
	int nr_unsure;
	size_t alloc_unsure;
	int verbose;
};

/* What to queue: an atomic job on a commit. */
struct lab_remote_job {
	const struct job *job;
	const char *command;           /* the benchmark, a shell command line,
					* or NULL: the job's own */
	const char *repo;              /* the boxes check the commit out of it */
	const char *build;             /* and build it so, or NULL */
	const char *commit;            /* the commit's full id */
	const char *tbox_group;        /* boxes of this group, or NULL: any */
	int priority;
};

/* Read the journal (journal may be NULL), connect (a submitter's login)
 * and find its unsure batches in the queue.  0, or -1 after an error. */
int lab_remote_open(struct lab_remote *r, const char *url, const char *journal);
void lab_remote_release(struct lab_remote *r);

/*
 * Have nr runs of j made on the boxes and fetched into the local result
 * root dest.  Returns how many runs were fetched (failed entries make
 * none: their last errors are printed as warnings), or -1 after an error
 * or when *stop was set (the entries still queued are then cancelled).
 */
int lab_remote_run(struct lab_remote *r, const struct lab_remote_job *j, int nr,
		   const char *dest, volatile sig_atomic_t *stop);

#endif
