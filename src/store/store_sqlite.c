/*
 * store_sqlite.c: the embedded store backend, one SQLite file.
 *
 * Set-up on open, and why:
 *   - WAL journal: readers (results, history, detect) never wait for the
 *     writer that indexes, and a writer killed with -9 leaves frames that
 *     the next open ignores: the database is as the last commit left it.
 *   - synchronous=NORMAL: in WAL mode a commit is then not fsynced until
 *     checkpoint; a power cut may lose the last transactions but never
 *     corrupts, and the result tree can refill the store anyway.
 *   - a busy timeout (store_busy_timeout_ms) for writers queueing behind
 *     one another, with a message that says who holds the lock.
 *   - a 64 MiB page cache: indexing appends to every metric's range of
 *     the sample table at once, and a cache smaller than one leaf page
 *     per metric turns each insert into a page read and write.
 *   - reads through a memory map (SQLITE_MMAP_BYTES): a one-metric query
 *     reads every root's and run's row once, and through pread() each
 *     page is copied into a page cache allocated for it, which was most
 *     of the query's time; mapped, a page is used where the kernel holds it.
 *   - PRAGMA application_id marks the file as perfbot's, so that a
 *     foreign SQLite file is refused instead of "migrated"; PRAGMA
 *     user_version holds the schema version.
 */
#include "store/backend.h"
#include "store/sqlite_migrations.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How much of the file SQLite reads through a memory map (PRAGMA
 * mmap_size; the library may cap it lower). */
#define SQLITE_MMAP_BYTES 4294967296
#define STR_(x) #x
#define STR(x) STR_(x)

/* "pfbt": the application_id of a perfbot store. */
#define PERFBOT_APPLICATION_ID 0x70666274

/*
 * The schema, as numbered migrations (src/store/sqlite/NNN-name.sql,
 * embedded at build time: store/sqlite_migrations.h); version N is
 * migrations[N - 1].  Never edit one that was released: add the next.
 */

struct sq {
	sqlite3 *db;
	char *path;
	int timeout_ms;
};

struct store_stmt {
	sqlite3_stmt *st;
	struct store *s;
	int *index;             /* $n -> SQLite parameter index */
	int nr_index;
};

static struct sq *SQ(struct store *s)
{
	return s->impl;
}

/* "sqlite:PATH", "sqlite://PATH" or a plain path: the file's path. */
static const char *spec_path(const char *spec)
{
	if (!strncmp(spec, "sqlite://", 9))
		return spec + 9;
	if (!strncmp(spec, "sqlite:", 7))
		return spec + 7;
	return spec;
}

static bool sq_accepts(const char *spec)
{
	return !strncmp(spec, "sqlite:", 7) || !strstr(spec, "://");
}

/* One message for an SQLite failure, with what to do about the usual ones. */
static int sq_fail(struct store *s, int rc, const char *what)
{
	struct sq *q = SQ(s);
	const char *msg = q && q->db ? sqlite3_errmsg(q->db) : sqlite3_errstr(rc);

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return error("store '%s': %s: %s; another process holds it (gave up after %.3g s;"
			     " $PERFBOT_DB_TIMEOUT sets the wait)", s->target, what, msg,
			     q ? q->timeout_ms / 1000.0 : 0.0);
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return error("store '%s': %s: %s (move it away: 'perfbot index' rebuilds the store"
			     " from the result tree)", s->target, what, msg);
	default:
		return error("store '%s': %s: %s", s->target, what, msg);
	}
}

static int sq_exec(struct store *s, const char *sql, const char *what)
{
	int rc = sqlite3_exec(SQ(s)->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sq_fail(s, rc, what);
}

/* A PRAGMA returning one integer. */
static int pragma_int(struct store *s, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(SQ(s)->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return sq_fail(s, rc, "cannot read the database");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return sq_fail(s, rc, "cannot read the database");
	return 0;
}

static int sq_open(struct store *s, const char *spec, unsigned flags)
{
	const char *path = spec_path(spec);
	struct sq *q = xcalloc(1, sizeof(*q));
	int rc, timeout = store_busy_timeout_ms();
	sqlite3_stmt *st = NULL;

	s->impl = q;
	q->path = xstrdup(path);
	q->timeout_ms = timeout;
	if (timeout < 0)
		return -1;
	if (!*path)
		return error("store: an empty path names no database");
	if (!(flags & STORE_CREATE) && !file_exists(path))
		return error("store '%s' does not exist: 'perfbot index' builds it", s->target);
	if (flags & STORE_CREATE) {
		char *copy = xstrdup(path);
		int r = mkdir_p(dirname(copy), 0755);
		free(copy);
		if (r < 0)
			return -1;
	}
	rc = sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE |
			     (flags & STORE_CREATE ? SQLITE_OPEN_CREATE : 0), NULL);
	if (rc != SQLITE_OK)
		return sq_fail(s, rc, "cannot open");
	sqlite3_busy_timeout(q->db, timeout);
	sqlite3_extended_result_codes(q->db, 0);

	/* the first statement reads the file: a corrupt one fails here */
	rc = sqlite3_prepare_v2(q->db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return sq_fail(s, rc, "cannot open");
	}
	if (strcmp((const char *)sqlite3_column_text(st, 0), "wal")) {
		error("store '%s': cannot use WAL mode here (journal mode stays '%s')", s->target,
		      (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return sq_exec(s, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;"
		       " PRAGMA mmap_size = " STR(SQLITE_MMAP_BYTES) ";", "cannot open");
}

static void sq_close(struct store *s)
{
	struct sq *q = SQ(s);

	if (!q)
		return;
	if (q->db)
		sqlite3_close(q->db);
	free(q->path);
	free(q);
	s->impl = NULL;
}

static int sq_begin(struct store *s)
{
	int rc = sqlite3_exec(SQ(s)->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sq_fail(s, rc, "cannot start a write transaction");
}

static int sq_commit(struct store *s)
{
	int rc = sqlite3_exec(SQ(s)->db, "COMMIT", NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sq_fail(s, rc, "cannot commit");
}

static void sq_rollback(struct store *s)
{
	if (SQ(s) && SQ(s)->db && !sqlite3_get_autocommit(SQ(s)->db))
		sqlite3_exec(SQ(s)->db, "ROLLBACK", NULL, NULL, NULL);
}

static int sq_get_version(struct store *s, int *version)
{
	int app, v;

	if (pragma_int(s, "PRAGMA application_id", &app) < 0 ||
	    pragma_int(s, "PRAGMA user_version", &v) < 0)
		return -1;
	if (app != PERFBOT_APPLICATION_ID && (app != 0 || v != 0))
		return error("store '%s' is an SQLite database of another program"
			     " (application_id %d, user_version %d)", s->target, app, v);
	*version = v;
	return 0;
}

static int sq_set_version(struct store *s, int version)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 PERFBOT_APPLICATION_ID, version);
	return sq_exec(s, sql, "cannot set the schema version");
}

static struct store_stmt *sq_prepare(struct store *s, const char *sql)
{
	struct store_stmt *st = xcalloc(1, sizeof(*st));
	int rc = sqlite3_prepare_v3(SQ(s)->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st->st, NULL);

	if (rc != SQLITE_OK) {
		sq_fail(s, rc, "cannot prepare a query");
		free(st);
		return NULL;
	}
	st->s = s;
	/* $n is a named parameter to SQLite, numbered by first appearance */
	int n = sqlite3_bind_parameter_count(st->st);
	for (int i = 1; i <= n; i++) {
		const char *name = sqlite3_bind_parameter_name(st->st, i);
		int k = name && name[0] == '$' ? atoi(name + 1) : 0;
		if (k <= 0)
			continue;
		if (k >= st->nr_index) {
			st->index = xrealloc(st->index, sizeof(*st->index) * (size_t)(k + 1));
			memset(st->index + st->nr_index, 0, sizeof(*st->index) * (size_t)(k + 1 - st->nr_index));
			st->nr_index = k + 1;
		}
		st->index[k] = i;
	}
	return st;
}

/* SQLite's index of $n; 0 (which SQLite rejects at bind) when absent. */
static int param(const struct store_stmt *st, int n)
{
	return n > 0 && n < st->nr_index ? st->index[n] : 0;
}

static void sq_bind_int(struct store_stmt *st, int n, int64_t v)
{
	sqlite3_bind_int64(st->st, param(st, n), v);
}

static void sq_bind_double(struct store_stmt *st, int n, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st->st, param(st, n));
	else
		sqlite3_bind_double(st->st, param(st, n), v);
}

static void sq_bind_text(struct store_stmt *st, int n, const char *v)
{
	sqlite3_bind_text(st->st, param(st, n), v, -1, SQLITE_TRANSIENT);
}

static int sq_step(struct store_stmt *st)
{
	int rc = sqlite3_step(st->st);

	if (rc == SQLITE_ROW)
		return STORE_ROW;
	if (rc == SQLITE_DONE)
		return STORE_DONE;
	return sq_fail(st->s, rc, "query failed");
}

static int64_t sq_column_int(struct store_stmt *st, int col)
{
	return sqlite3_column_int64(st->st, col);
}

static double sq_column_double(struct store_stmt *st, int col)
{
	if (sqlite3_column_type(st->st, col) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(st->st, col);
}

static const char *sq_column_text(struct store_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st->st, col);

	return t ? (const char *)t : "";
}

static void sq_reset(struct store_stmt *st)
{
	sqlite3_reset(st->st);
	sqlite3_clear_bindings(st->st);
}

static void sq_finalize(struct store_stmt *st)
{
	if (!st)
		return;
	sqlite3_finalize(st->st);
	free(st->index);
	free(st);
}

const struct store_backend store_sqlite_backend = {
	.name = "sqlite",
	.accepts = sq_accepts,
	.migrations = store_sqlite_migrations,
	.nr_migrations = STORE_SQLITE_NR_MIGRATIONS,
	.open = sq_open,
	.close = sq_close,
	.exec = sq_exec,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.get_version = sq_get_version,
	.set_version = sq_set_version,
	.prepare = sq_prepare,
	.bind_int = sq_bind_int,
	.bind_double = sq_bind_double,
	.bind_text = sq_bind_text,
	.step = sq_step,
	.column_int = sq_column_int,
	.column_double = sq_column_double,
	.column_text = sq_column_text,
	.reset = sq_reset,
	.finalize = sq_finalize,
};
