#ifndef PERFBOT_LAB_UPLOAD_H
#define PERFBOT_LAB_UPLOAD_H
/*
 * Results between a test box and the lab's database.
 *
 * lab_upload sends what a worker's run_job wrote for a job it holds, in
 * ONE call of the SQL function upload_job, whose transaction ends by marking
 * the job done:
 *
 *   <result_root>/<run>/stats.json   -> a run and its samples in the store
 *                                       (store.h), under a result root
 *                                       "lab:<job id>/<result root>"
 *   <result_root>/<run>/<file>       -> every regular file of the run (raw
 *                                       monitor files, their .json series,
 *                                       stats.json, job.yaml, the
 *                                       benchmark's output, ...) as a zlib
 *                                       stream, with its size
 *   <result_root>/<file>             -> matrix.json, avg.json, stddev.json
 *                                       (run -1)
 *
 * Left out: dot files (locks, a run killed half-way, ".run-K.<pid>") and
 * perf.data, perf's binary samples, whose readable reports (perf-profile,
 * perf-profile.txt, perf-profile.json) are uploaded.
 *
 * A refused or failed upload changes nothing (the transaction rolls
 * back).  Retrying after a lost connection is safe: if the COMMIT went
 * through but its answer was lost, upload_job says the attempt already
 * completed the job and lab_upload returns 0, nothing added.
 *
 * lab_fetch brings a done job's runs back into a local result tree.
 */
#include "pg/pg.h"
#include "lab/queue.h"

/*
 * Upload result_root (a _result_root under result_base, as run_job made
 * it) for job id's attempt and mark the job done; the job's parameters
 * for the store come from the first run's job.yaml, as `perfbot index`
 * takes them.  Returns 0 when the job
 * is done (now or by an earlier try of the same attempt), 1 when the
 * database refuses because this worker does not hold (id, attempt) any
 * more, -1 after an error: pg_broken(db) then says whether reconnecting
 * and retrying may help.
 */
int lab_upload(struct pg *db, long long id, int attempt, const char *result_base,
	       const char *result_root);

/*
 * lab_upload, and in the same transaction the claim of the next job
 * (queue_claim's, with next's group, worker name and lease): one round
 * trip and one commit a job less for a worker that goes on.  Returns as
 * lab_upload; on 0, *got holds the job claimed, or got->id is 0 when
 * nothing was there.  On anything else nothing was claimed (*got
 * zeroed): claim with queue_claim.  A retry after a lost COMMIT answer
 * gets the job that commit claimed, not a new one.  Release *got with
 * queue_claim_release.
 */
struct lab_next {
	const char *group, *worker;
	double lease_s;
};
int lab_upload_next(struct pg *db, long long id, int attempt, const char *result_base,
		    const char *result_root, const struct lab_next *next,
		    struct queue_claim *got);

/*
 * Write done job id's runs into result_base/<its result root>/ (or into
 * dest, when not NULL: a result root of the caller's), each at the next
 * free run number there (runs of the same commit from other boxes or
 * jobs may be there already), and unite them into matrix.json.  Each run
 * dir is marked with its job and run (".lab-job"): fetching a job again
 * writes nothing twice, so a fetch interrupted at any point can simply
 * be repeated.  Every name from the database is checked to be one safe
 * path component, and every file to decompress to its recorded size.
 * Sets *root (yours to free) to the local _result_root and *nr_runs.
 * Returns 0, 1 when the job has no result (not done), or -1 after an
 * error.
 */
int lab_fetch(struct pg *db, long long id, const char *result_base, const char *dest,
	      char **root, int *nr_runs);

/*
 * What a fetch writes at most: an uploader's claimed sizes are never
 * trusted.  Files are inflated in 64 KiB pieces straight to disk, and a
 * job whose files would inflate past LAB_FETCH_MAX_BYTES in all, or that
 * has more than LAB_FETCH_MAX_FILES files, is refused with an error
 * naming the limit and the job; the half-written run dir is removed.
 */
#define LAB_FETCH_MAX_BYTES (256ull << 20)
#define LAB_FETCH_MAX_FILES 10000

/*
 * The queued job an upload must be of: its YAML and file name (as
 * claimed), commit and repo (NULL when none).
 */
struct lab_job_identity {
	const char *job, *name, *commit, *repo;
};

/*
 * Check rel, an upload's result root below the result base, against job
 * id as queued (q): seven safe path components (pathsafe.h: at most 255
 * bytes, no control character), the testcase and lkp's parameters'
 * component as the job gives them, its tbox_group (the job's, else
 * box_group when not NULL), rootfs, kconfig and compiler when the job
 * sets them, and its commit (the queued one; a full hash of it when the
 * box checked it out of a repo).  The worker checks before it uploads,
 * every fetch before it writes; the database checks what SQL can
 * (src/pg/migrations/007-authorization.sql).  0, or -1 after an error
 * naming the job and the component.
 */
int lab_check_root(long long id, const struct lab_job_identity *q, const char *box_group,
		   const char *rel);

#endif
