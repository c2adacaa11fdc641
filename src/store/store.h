#ifndef PERFBOT_STORE_H
#define PERFBOT_STORE_H
/*
 * store: the results database, one interface over two backends (SQLite,
 * the embedded default, and PostgreSQL for lab mode).
 *
 * The result tree stays the source of truth.  The store is an index of
 * it that can always be rebuilt with `perfbot index`: per result root
 * (<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/<compiler>/
 * <commit>/), its job identity and parameters, its commit, its runs
 * (number, incomplete flag, where on disk) and every stats value of every
 * run.  Table layout: the migrations in store_sqlite.c, and
 * doc/manual/index-results.md.
 *
 * Invariants
 *   - A result root is keyed by its absolute path.  store_put_root()
 *     replaces everything stored for that path in one statement group:
 *     readers see the old root or the new one, never a mix, as long as
 *     the caller holds a transaction (store_begin .. store_commit).
 *   - A job row is keyed by its six identity fields; metrics are interned
 *     (one row per name), so a sample costs two ids and a double.
 *   - NaN values are stored as SQL NULL (SQLite has no NaN) and read back
 *     as NaN.
 *   - The schema carries its version; opening a store applies the missing
 *     numbered migrations in one transaction, and refuses a database
 *     whose version is newer than this binary's.
 *
 * Ownership
 *   - store_open() gives you the store: store_close() it.
 *   - Strings passed in are borrowed for the duration of the call.
 *   - The *_load() functions fill lists you own: release them with the
 *     matching *_release().  Rows passed to callbacks are borrowed for
 *     the duration of the callback.
 *
 * Return contract
 *   Every function returning int returns 0 on success and -1 after
 *   printing one "perfbot: ..." line that names the store (its path or
 *   URL) and the cause, unless documented otherwise.  Callbacks return 0
 *   to go on; anything else stops the iteration, and that value is
 *   returned.
 */
#include <stdbool.h>
#include <stdint.h>
#include "util/strbuf.h"

struct matrix;
struct store;

/* The store's schema version this binary writes (see store_sqlite.c). */
#define STORE_SCHEMA_VERSION 2

/* How long a writer waits for another one before giving up, unless
 * $PERFBOT_DB_TIMEOUT (seconds) says otherwise. */
#define STORE_BUSY_TIMEOUT_MS 10000

/* store_open() flags */
#define STORE_CREATE 1          /* create the database (and its dir) when missing */

/*
 * The target a store_open(NULL, ...) would use: $PERFBOT_DB when set and
 * not empty, else $XDG_DATA_HOME/perfbot/perfbot.db, else
 * $HOME/.local/share/perfbot/perfbot.db.  Appended to sb.
 */
void store_default_target(struct strbuf *sb);

/*
 * Open the store named by spec (a file path, "sqlite:PATH", or a
 * "postgresql://" / "postgres://" URL), or by store_default_target()
 * when spec is NULL.  Sets up the backend (SQLite: WAL mode, the busy
 * timeout) and migrates the schema.  Without STORE_CREATE a missing
 * database is an error that says how to build one.  On success *out is
 * yours (store_close); on error *out is NULL.
 */
int store_open(struct store **out, const char *spec, unsigned flags);
/* Close and free; NULL is fine. */
void store_close(struct store *s);
/* The path or URL, for messages; borrowed. */
const char *store_target(const struct store *s);
/* "sqlite" or "postgresql". */
const char *store_backend_name(const struct store *s);
/* The schema version the opened database now has. */
int store_schema_version(const struct store *s);
/* The busy timeout in milliseconds: $PERFBOT_DB_TIMEOUT (seconds, a
 * non-negative number) or STORE_BUSY_TIMEOUT_MS.  -1 after an error
 * naming the variable when it is not a number. */
int store_busy_timeout_ms(void);

/*
 * Transactions.  store_begin() starts a write transaction (SQLite: BEGIN
 * IMMEDIATE, so that waiting for another writer happens here, under the
 * busy timeout, and never as a failed upgrade later).  They do not nest.
 * store_rollback() is quiet and safe to call without a transaction.
 */
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);

/* --- job identity ---------------------------------------------------- */

/* The six fields that name a job in the result layout, in path order. */
enum store_job_field {
	SJ_TESTCASE,
	SJ_PATH_PARAMS,
	SJ_TBOX_GROUP,
	SJ_ROOTFS,
	SJ_KCONFIG,
	SJ_COMPILER,
	SJ_NR
};
/* Their column and parameter names: "testcase", "path_params", ... */
extern const char *const store_job_field_names[SJ_NR];

/* A job parameter (lkp's axes: fs=xfs, runtime=300s, ...). */
struct store_param {
	char *key, *value;
};

/* --- writing ----------------------------------------------------------- */

struct store_run {
	int number;                  /* the run dir's name (0, 1, ...) */
	bool incomplete;             /* last_state.is_incomplete_run */
	const char *path;            /* absolute run dir */
};

/* A result root as the indexer read it; every pointer borrowed. */
struct store_root {
	const char *job[SJ_NR];      /* identity, none NULL ("" when unknown) */
	const struct store_param *params;  /* the job's axes, may be none */
	int nr_params;
	const char *rev;             /* the <commit> component */
	const char *path;            /* absolute _result_root, the key */
	const char *signature;       /* what changes when the files do */
	const struct store_run *runs;
	int nr_runs;
	/* Samples: column k of mx holds runs[k]'s value of each metric
	 * (mx->ncols == nr_runs). */
	const struct matrix *mx;
};

/*
 * Store a result root, replacing whatever was stored under its path
 * (runs, samples; the job and metric rows are shared and kept).  Call
 * inside store_begin/store_commit: a failure midway leaves the
 * transaction to roll back.
 */
int store_put_root(struct store *s, const struct store_root *root);
/*
 * The signature stored for the root at path, replacing sig's content.
 * Returns 1 when the root is stored, 0 when not (sig empty), -1 on error.
 */
int store_root_signature(struct store *s, const char *path, struct strbuf *sig);
/* Forget the root at path and its runs and samples.  Returns 1 when it
 * was stored, 0 when not, -1 on error. */
int store_delete_root(struct store *s, const char *path);
/* Call fn with each stored root's path that is dir or lies under it
 * (dir without a trailing '/'; "" for all), in path order. */
int store_each_root_path(struct store *s, const char *dir,
			 int (*fn)(const char *path, void *data), void *data);

/* --- reading ------------------------------------------------------------ */

struct store_job_info {
	int64_t id;
	char *field[SJ_NR];
	struct store_param *params;  /* sorted by key */
	int nr_params;
};

struct store_job_list {
	struct store_job_info *jobs; /* sorted by identity fields */
	int nr;
};

/* Every job with its parameters. */
int store_jobs_load(struct store *s, struct store_job_list *out);
void store_job_list_release(struct store_job_list *l);
/* The value of a job's field or parameter called key, or NULL. */
const char *store_job_get(const struct store_job_info *job, const char *key);

struct store_run_info {
	int64_t id;
	int number;
	bool incomplete;
	char *path;
};

struct store_root_info {
	int64_t id;
	int64_t job_id;
	char *rev;
	char *path;
	struct store_run_info *runs; /* by number */
	int nr_runs;
};

struct store_root_list {
	struct store_root_info *roots;  /* by rev, then path */
	int nr;
};

/* The roots of one job, with their runs. */
int store_job_roots(struct store *s, int64_t job_id, struct store_root_list *out);
void store_root_list_release(struct store_root_list *l);

struct store_metric_info {
	int64_t id;
	char *name;
};

struct store_metric_list {
	struct store_metric_info *metrics;  /* by name */
	int nr;
};

/* Every metric name ever stored. */
int store_metrics_load(struct store *s, struct store_metric_list *out);
void store_metric_list_release(struct store_metric_list *l);
/* A metric's id by name: 1 and *id set when stored, 0 when not, -1 on error. */
int store_metric_id(struct store *s, const char *name, int64_t *id);

/* One stored value, as the sample iterators hand it out (borrowed). */
struct store_sample {
	int64_t metric_id;
	int64_t run_id;
	int64_t root_id;             /* 0 from store_run_samples */
	int64_t job_id;              /* 0 from store_run_samples */
	const char *rev;             /* NULL from store_run_samples */
	int run_number;              /* -1 from store_run_samples */
	bool incomplete;             /* false from store_run_samples */
	double value;
};

typedef int (*store_sample_fn)(const struct store_sample *sm, void *data);

/* How many runs the store holds, of every job. */
int store_count_runs(struct store *s, int64_t *nr);

/* Every sample of one run, in metric id order. */
int store_run_samples(struct store *s, int64_t run_id, store_sample_fn fn, void *data);
/*
 * Every sample of one metric in the roots of one job (job_id 0: of every
 * job), with the root's rev and the run's number and flag; in no
 * particular order.  This is the per-metric lookup the history of a
 * branch is made of, served by the sample table's (metric, run) key.
 */
int store_metric_samples(struct store *s, int64_t metric_id, int64_t job_id,
			 store_sample_fn fn, void *data);
/*
 * Every stored value of one metric, in run id order, with only metric_id,
 * run_id and value set (the rest as from store_run_samples): the sample
 * table's (metric, run) key range alone, no join.  For a reader that
 * holds the runs already (store_job_roots) and maps run ids itself: the
 * join of store_metric_samples costs two row lookups per value.
 */
int store_metric_values(struct store *s, int64_t metric_id, store_sample_fn fn, void *data);

/* --- reported regressions (perfbot watch) ---------------------------- */

/*
 * A regression's range handled by perfbot watch: the job, the metric, the
 * range's good and bad commits, the first bad commit found in it ("" when
 * the bisect named none) and the report written ("" when none).
 */
struct store_reported {
	int64_t job_id;
	const char *metric, *culprit, *good, *bad, *report;
};

/*
 * Was the range good..bad of metric in job handled, or, with culprit not
 * NULL, any range whose first bad commit is culprit?  1 (the report's
 * path appended to report when not NULL), 0 not, -1 on error.
 */
int store_reported_find(struct store *s, int64_t job_id, const char *metric,
			const char *culprit, const char *good, const char *bad,
			struct strbuf *report);
/* Record a handled range, stamped with the time (a range recorded before
 * is kept as it was).  Call inside store_begin/store_commit. */
int store_reported_add(struct store *s, const struct store_reported *r);

#endif
