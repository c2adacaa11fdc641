#ifndef PERFBOT_STORE_BACKEND_H
#define PERFBOT_STORE_BACKEND_H
/*
 * What a store backend provides.  Only store.c and the backends
 * (store_sqlite.c, a PostgreSQL one for lab mode) include this file;
 * everyone else uses store.h.
 *
 * The split: store.c owns the logic and the SQL of every query, shared
 * by all backends; a backend connects, runs statements and carries its
 * own migrations (DDL differs: SQLite's INTEGER PRIMARY KEY and WITHOUT
 * ROWID, PostgreSQL's identity columns, roles and grants).  The shared
 * queries keep to what both engines accept:
 *
 *   - parameters are $1, $2, ... (PostgreSQL's form; SQLite takes them as
 *     named parameters, and the SQLite backend maps each number to its
 *     index, so a query may use $2 before $1 or $1 twice);
 *   - types are BIGINT ids, INTEGER flags (0/1), DOUBLE PRECISION values,
 *     TEXT; timestamps are epoch seconds computed in C;
 *   - INSERT ... ON CONFLICT (...) DO UPDATE ... RETURNING id (SQLite
 *     3.35, PostgreSQL 9.5); no GLOB/LIKE (matching is done in C), no
 *     engine functions.
 * A backend that needs another spelling of one query (or a faster plan)
 * sets query_override[Q_...]; NULL entries use the shared text.
 *
 * Statement contract: prepare() returns NULL after an error message.
 * bind_*() never fail by themselves (a bad index is a bug, reported at
 * step); text is copied.  step() returns STORE_ROW with a row to read,
 * STORE_DONE at the end, or -1 after an error message (the statement
 * must then be reset before reuse).  column_text() is borrowed until the
 * next step or reset.  reset() keeps the statement prepared and clears
 * its bindings.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include "store/store.h"
#include "util/strmap.h"

#define STORE_ROW 1
#define STORE_DONE 0

struct store_stmt;              /* a prepared statement, backend-defined */

/* One numbered migration: version N brings the schema from N - 1 to N. */
struct store_migration {
	int version;
	const char *sql;        /* one or more statements, run as one script */
};

/* The queries of store.c, by purpose (their SQL is in store.c). */
enum store_query {
	Q_JOB_UPSERT,
	Q_PARAM_UPSERT,
	Q_ROOT_UPSERT,
	Q_ROOT_FIND,
	Q_ROOT_RUNS,
	Q_ROOT_DELETE,
	Q_RUN_SAMPLES_DELETE,
	Q_RUNS_DELETE,
	Q_RUN_INSERT,
	Q_METRIC_UPSERT,
	Q_METRIC_ALL,
	Q_SAMPLE_INSERT,
	Q_ROOT_PATHS,
	Q_JOBS_ALL,
	Q_PARAMS_ALL,
	Q_JOB_ROOTS,
	Q_JOB_RUNS,
	Q_RUN_SAMPLES,
	Q_METRIC_SAMPLES,
	Q_METRIC_SAMPLES_JOB,
	Q_METRIC_VALUES,
	Q_REPORTED_BY_CULPRIT,
	Q_REPORTED_BY_RANGE,
	Q_REPORTED_ADD,
	Q_RUN_COUNT,
	Q_NR
};

struct store_backend {
	const char *name;                       /* "sqlite", "postgresql" */
	/* True when the --db spec names this backend. */
	bool (*accepts)(const char *spec);
	const struct store_migration *migrations;   /* versions 1..nr, in order */
	int nr_migrations;
	const char *const *query_override;      /* Q_NR entries, or NULL */

	/* Connect to spec; set s->impl.  flags: STORE_CREATE. */
	int (*open)(struct store *s, const char *spec, unsigned flags);
	void (*close)(struct store *s);
	/* Run a script of statements without parameters or rows; what says
	 * what it is for in the error message ("migration to version 2"). */
	int (*exec)(struct store *s, const char *sql, const char *what);
	int (*begin)(struct store *s);
	int (*commit)(struct store *s);
	void (*rollback)(struct store *s);
	/* The schema version stored in the database (0 when new); setting it
	 * happens inside the migration's transaction. */
	int (*get_version)(struct store *s, int *version);
	int (*set_version)(struct store *s, int version);

	struct store_stmt *(*prepare)(struct store *s, const char *sql);
	void (*bind_int)(struct store_stmt *st, int n, int64_t v);
	void (*bind_double)(struct store_stmt *st, int n, double v);  /* NaN: NULL */
	void (*bind_text)(struct store_stmt *st, int n, const char *v);
	int (*step)(struct store_stmt *st);
	int64_t (*column_int)(struct store_stmt *st, int col);
	double (*column_double)(struct store_stmt *st, int col);      /* NULL: NaN */
	const char *(*column_text)(struct store_stmt *st, int col);   /* NULL: "" */
	void (*reset)(struct store_stmt *st);
	void (*finalize)(struct store_stmt *st);

	/*
	 * Optional: store n samples of one run at once (PostgreSQL: COPY).
	 * NULL: store.c steps Q_SAMPLE_INSERT once per sample.
	 */
	int (*put_samples)(struct store *s, int64_t run_id, const int64_t *metric_ids,
			   const double *values, size_t n);
};

/* The interned metric names, loaded on first use. */
struct store_metric_cache {
	bool loaded;
	char **names;           /* owned; strmap keys point here */
	int64_t *ids;
	int nr;
	size_t alloc_names, alloc_ids;
	struct strmap index;    /* name -> position */
};

struct store {
	const struct store_backend *be;
	void *impl;                     /* the backend's connection */
	char *target;                   /* path or URL, for messages */
	int version;                    /* schema version after open */
	bool in_txn;
	struct store_stmt *stmt[Q_NR];  /* prepared on first use */
	struct store_metric_cache metrics;
};

/*
 * For store*.c: the prepared statement of query q (prepared on first
 * use; NULL after an error message), and stepping it: store_step_id()
 * expects one row with an id in column 0, store_step_done() no rows.
 * Both reset the statement.
 */
struct store_stmt *store_stmt_get(struct store *s, enum store_query q);
int store_step_id(struct store *s, struct store_stmt *st, int64_t *id);
int store_step_done(struct store *s, struct store_stmt *st);
/* Load the metric cache (store.c), for the readers in store_read.c. */
int store_metric_cache_load(struct store *s);

/* qsort and bsearch that accept an empty array (C says base must not be
 * NULL even then, and our empty lists have none). */
static inline void sort_some(void *base, size_t n, size_t size,
			     int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

static inline void *search_some(const void *key, const void *base, size_t n, size_t size,
				int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, base, n, size, cmp) : NULL;
}

/* The backends store.c knows (store_sqlite.c, store_pg.c). */
extern const struct store_backend store_sqlite_backend;
extern const struct store_backend store_pg_backend;

#endif
