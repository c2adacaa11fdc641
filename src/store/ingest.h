#ifndef PERFBOT_STORE_INGEST_H
#define PERFBOT_STORE_INGEST_H
/*
 * ingest: reading a result root from the tree into the store.  Used by
 * `perfbot index` and, through store_index_result_root(), by `perfbot
 * run` and `perfbot bisect` each time they unite runs.
 *
 * A result root is read as lkp lays it out:
 *
 *   .../<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/<compiler>/<commit>/
 *
 * The job identity is the seven last components of its absolute path
 * (missing ones are ""), the parameters come from the job.yaml of its
 * first run that has one (lkp's axes, job/axes.h).  The samples come
 * from matrix.json or matrix.json.gz when the root has one (one run per
 * column, the run's number from its stats_source dir, else the column);
 * otherwise from each numbered run dir's stats.json(.gz), united in
 * memory as `perfbot unite` would.  A run is incomplete when its
 * last_state.is_incomplete_run is 1.
 *
 * The signature stored with a root is the size and mtime of the files
 * read, so an unchanged root is skipped cheaply on the next index.
 */
#include <stdbool.h>

struct store;
struct job;
struct axis;

/*
 * A job's parameters as the store keeps them: its axes (job/axes.h)
 * without the keys its result path says already (the six identity
 * fields and commit).  Sets *axes (free with axes_release) and returns
 * how many.  Used by the indexer and by lab uploads (src/lab/upload.c).
 */
int store_job_params(const struct job *job, struct axis **axes);

/* True for the name of a run dir: digits only ("0", "1", ...). */
bool ingest_is_run_name(const char *name);

/* True when dir holds matrix.json(.gz), or a numbered run dir with a
 * stats.json(.gz). */
bool ingest_is_result_root(const char *dir);

enum ingest_status {
	INGEST_STORED = 1,      /* read and stored */
	INGEST_UNCHANGED = 2,   /* same signature as stored: nothing done */
	INGEST_ERR_READ = -1,   /* the root cannot be read: skip it */
	INGEST_ERR_STORE = -2,  /* the store failed: roll the transaction back */
};

struct ingest_result {
	int runs;               /* runs of the root (when stored) */
	int metrics;
};

/*
 * Read the result root at dir (made absolute) and store it with
 * store_put_root(), unless its signature is the stored one and !force.
 * Returns an ingest_status: INGEST_ERR_READ after one message naming the
 * file (and line, for a broken matrix.json), INGEST_ERR_STORE after the
 * store's message.  Everything is read before anything is written: a
 * root that cannot be read leaves the store as it was.
 * The caller holds the transaction; res may be NULL.
 */
int store_ingest_root(struct store *s, const char *dir, bool force, struct ingest_result *res);

/*
 * The hook of run and bisect: index the result root at dir into the
 * store db (store_open's spec, NULL for the default), in a transaction
 * of its own.  It never fails the caller: what it cannot do becomes a
 * warning that says `perfbot index` repairs it.  Returns 0 when indexed,
 * -1 after the warning.
 */
int store_index_result_root(const char *db, const char *dir);

#endif
