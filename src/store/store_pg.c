/*
 * store_pg.c: the store on PostgreSQL, for lab mode (`--db postgresql://`
 * or PERFBOT_DB).  The same queries as SQLite (store.c), through libpq
 * (src/pg/pg.h).
 *
 * The tables live in the schema "perfbot" beside the lab's queue, owned
 * by the role perfbot_admin (src/pg/schema.h), and the connection sets
 * search_path to it, so that store.c's unqualified table names resolve
 * there.  `perfbot lab init` makes the roles and the schema and runs the
 * migrations (as perfbot_admin, so that the admin role owns them:
 * src/store/pg/NNN-name.sql, embedded at build time: pg_migrations.h);
 * opening a store whose schema is missing or older says to run it, as
 * the other roles may not change the schema.  perfbot_submitter may read
 * the store; workers write into it only through the lab's upload
 * functions, for a job they hold.
 *
 * Statements: each is prepared on the server once (PQprepare) and run
 * with text parameters.  A step runs the statement and keeps its whole
 * result, then hands out one row per step: store.c may run another
 * statement before it has read the last row, which a streaming result
 * would not allow on one connection.  Samples of a run go in with COPY.
 */
#include "store/backend.h"
#include "store/pg_migrations.h"
#include "pg/pg.h"
#include "pg/schema.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Where PostgreSQL wants other words than the shared queries: the shared
 * forms drive one run's samples through the metric table so that SQLite
 * does one key lookup per metric; PostgreSQL has the sample_run index
 * and would rather use it than join every metric.
 */
static const char *const pg_overrides[Q_NR] = {
	[Q_RUN_SAMPLES_DELETE] = "DELETE FROM sample WHERE run_id = $1",
	[Q_RUN_SAMPLES] = "SELECT metric_id, value FROM sample WHERE run_id = $1 ORDER BY metric_id",
};

struct pgs {
	struct pg db;
	const char *on_connect[2];
	int nr_stmts;                /* names the server-side statements */
};

struct store_stmt {
	struct store *s;
	char name[24];               /* of the prepared statement */
	int nparams;                 /* the highest $n in the SQL */
	char **params;               /* text values, NULL for SQL NULL */
	PGresult *res;               /* of the last step's execution */
	int row;                     /* the row the last step handed out */
};

static struct pgs *PGS(struct store *s)
{
	return s->impl;
}

static bool pgs_accepts(const char *spec)
{
	return pg_is_url(spec);
}

/* The URL without its password, for messages: "user:secret@" loses the
 * secret, and so does a "password=" parameter. */
static char *masked(const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	const char *scheme = strstr(url, "://"), *at, *colon, *pw;

	if (scheme && (at = strchr(scheme + 3, '@')) &&
	    (colon = memchr(scheme + 3, ':', (size_t)(at - scheme - 3)))) {
		strbuf_add(&sb, url, (size_t)(colon - url));
		strbuf_addstr(&sb, ":***");
		strbuf_addstr(&sb, at);
	} else {
		strbuf_addstr(&sb, url);
	}
	if ((pw = strstr(sb.buf, "password="))) {
		size_t start = (size_t)(pw - sb.buf) + 9, end = start;
		while (end < sb.len && sb.buf[end] != '&')
			end++;
		struct strbuf out = STRBUF_INIT;
		strbuf_add(&out, sb.buf, start);
		strbuf_addstr(&out, "***");
		strbuf_addstr(&out, sb.buf + end);
		strbuf_release(&sb);
		sb = out;
	}
	return strbuf_detach(&sb, NULL);
}

/* One message for a failure, naming the store, with what to do about
 * the schema's own troubles. */
static int fail(struct store *s, const char *what)
{
	struct pg *db = &PGS(s)->db;

	if (pg_failed_with(db, "42P01") || pg_failed_with(db, "3F000"))
		return error("store '%s': %s: the database has no perfbot schema: run "
			     "'perfbot lab init --db URL' as its admin first", s->target, what);
	if (pg_failed_with(db, "42501"))
		return error("store '%s': %s: %s (this login's roles do not allow it)", s->target,
			     what, db->err.buf);
	return error("store '%s': %s: %s", s->target, what, db->err.buf);
}

static int pgs_open(struct store *s, const char *spec, unsigned flags)
{
	struct pgs *p = xcalloc(1, sizeof(*p));
	int r;

	(void)flags;    /* the database and schema are made by `lab init` */
	s->impl = p;
	p->db = (struct pg)PG_INIT;
	p->on_connect[0] = "SET search_path = perfbot";
	p->db.on_connect = p->on_connect;
	p->db.quiet = true;
	r = pg_open(&p->db, spec);
	/* messages name the store; spec may be s->target itself, so after */
	free(s->target);
	s->target = masked(p->db.url);
	if (r < 0)
		return error("store '%s': cannot connect: %s", s->target, p->db.err.buf);
	return 0;
}

static void pgs_close(struct store *s)
{
	struct pgs *p = PGS(s);

	if (!p)
		return;
	pg_close(&p->db);
	free(p);
	s->impl = NULL;
}

/* Migrations run as perfbot_admin, which then owns what they make; a
 * login outside that role fails here, with fail()'s hint. */
static int pgs_exec(struct store *s, const char *sql, const char *what)
{
	struct pg *db = &PGS(s)->db;

	if (pg_exec(db, "SET LOCAL ROLE " LAB_ROLE_ADMIN, 0, NULL) < 0 ||
	    pg_exec_script(db, sql) < 0 || pg_exec(db, "RESET ROLE", 0, NULL) < 0)
		return fail(s, what);
	return 0;
}

static int pgs_begin(struct store *s)
{
	return pg_exec(&PGS(s)->db, "BEGIN", 0, NULL) < 0 ? fail(s, "cannot begin") : 0;
}

static int pgs_commit(struct store *s)
{
	return pg_exec(&PGS(s)->db, "COMMIT", 0, NULL) < 0 ? fail(s, "cannot commit") : 0;
}

static void pgs_rollback(struct store *s)
{
	struct pgs *p = PGS(s);

	if (p && p->db.conn && PQtransactionStatus(p->db.conn) != PQTRANS_IDLE)
		pg_exec(&p->db, "ROLLBACK", 0, NULL);
}

static int pgs_get_version(struct store *s, int *version)
{
	struct pg *db = &PGS(s)->db;
	PGresult *r;

	/* inside migrate()'s transaction: wait for any other migration (the
	 * lock `perfbot lab init` takes), then read the version it left */
	if (PQtransactionStatus(db->conn) == PQTRANS_INTRANS &&
	    pg_exec(db, "SELECT pg_advisory_xact_lock(hashtext('perfbot lab init'))", 0, NULL) < 0)
		return fail(s, "cannot lock the schema");
	r = pg_query(db, "SELECT version FROM perfbot.schema_version WHERE component = 'store'",
		     0, NULL);
	if (!r)
		return fail(s, "cannot read the schema version");
	*version = PQntuples(r) ? (int)pg_int(r, 0, 0) : 0;
	PQclear(r);
	return 0;
}

static int pgs_set_version(struct store *s, int version)
{
	char v[16];
	const char *p[1] = { v };

	snprintf(v, sizeof(v), "%d", version);
	if (pg_exec(&PGS(s)->db, "INSERT INTO perfbot.schema_version (component, version) "
		    "VALUES ('store', $1) ON CONFLICT (component) DO UPDATE "
		    "SET version = excluded.version", 1, p) < 0)
		return fail(s, "cannot set the schema version");
	return 0;
}

static struct store_stmt *pgs_prepare(struct store *s, const char *sql)
{
	struct pgs *p = PGS(s);
	struct store_stmt *st = xcalloc(1, sizeof(*st));
	PGresult *r;

	st->s = s;
	snprintf(st->name, sizeof(st->name), "perfbot_%d", ++p->nr_stmts);
	for (const char *d = strchr(sql, '$'); d; d = strchr(d + 1, '$')) {
		int n = atoi(d + 1);
		if (n > st->nparams)
			st->nparams = n;
	}
	st->params = xcalloc((size_t)st->nparams + 1, sizeof(char *));
	r = PQprepare(p->db.conn, st->name, sql, st->nparams, NULL);
	if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
		const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
		error("store '%s': cannot prepare a query: %s", s->target,
		      msg ? msg : PQerrorMessage(p->db.conn));
		PQclear(r);
		free(st->params);
		free(st);
		return NULL;
	}
	PQclear(r);
	st->row = -1;
	return st;
}

static void set_param(struct store_stmt *st, int n, char *v)
{
	if (n < 1 || n > st->nparams) {
		free(v);        /* reported at step: the value has no place */
		return;
	}
	free(st->params[n - 1]);
	st->params[n - 1] = v;
}

static void pgs_bind_int(struct store_stmt *st, int n, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	set_param(st, n, xstrdup(buf));
}

static void pgs_bind_double(struct store_stmt *st, int n, double v)
{
	char buf[32];

	if (isnan(v)) {
		set_param(st, n, NULL);
		return;
	}
	if (isinf(v))
		snprintf(buf, sizeof(buf), "%s", v > 0 ? "Infinity" : "-Infinity");
	else
		snprintf(buf, sizeof(buf), "%.17g", v);
	set_param(st, n, xstrdup(buf));
}

static void pgs_bind_text(struct store_stmt *st, int n, const char *v)
{
	set_param(st, n, xstrdup(v));
}

static int pgs_step(struct store_stmt *st)
{
	struct pgs *p = PGS(st->s);

	if (!st->res) {
		PGresult *r = PQexecPrepared(p->db.conn, st->name, st->nparams,
					     (const char *const *)st->params, NULL, NULL, 0);
		ExecStatusType rs = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
		if (rs != PGRES_TUPLES_OK && rs != PGRES_COMMAND_OK) {
			pg_take_error(&p->db, r);
			return fail(st->s, "query failed");
		}
		st->res = r;
		st->row = -1;
	}
	if (++st->row < PQntuples(st->res))
		return STORE_ROW;
	return STORE_DONE;
}

static int64_t pgs_column_int(struct store_stmt *st, int col)
{
	return (int64_t)pg_int(st->res, st->row, col);
}

static double pgs_column_double(struct store_stmt *st, int col)
{
	if (PQgetisnull(st->res, st->row, col))
		return NAN;
	/* float8 prints NaN, Infinity, -Infinity: strtod reads them all */
	return strtod(PQgetvalue(st->res, st->row, col), NULL);
}

static const char *pgs_column_text(struct store_stmt *st, int col)
{
	return PQgetisnull(st->res, st->row, col) ? "" : PQgetvalue(st->res, st->row, col);
}

static void pgs_reset(struct store_stmt *st)
{
	PQclear(st->res);
	st->res = NULL;
	st->row = -1;
	for (int i = 0; i < st->nparams; i++) {
		free(st->params[i]);
		st->params[i] = NULL;
	}
}

static void pgs_finalize(struct store_stmt *st)
{
	if (!st)
		return;
	pgs_reset(st);
	/* the server forgets prepared statements with the connection; one
	 * finalized before that would only be a name to DEALLOCATE */
	if (st->s->impl && PGS(st->s)->db.conn) {
		char sql[48];
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", st->name);
		pg_exec(&PGS(st->s)->db, sql, 0, NULL);
	}
	free(st->params);
	free(st);
}

/* A run's samples in one COPY: tens of thousands of rows in one round
 * trip instead of one statement each. */
static int pgs_put_samples(struct store *s, int64_t run_id, const int64_t *metric_ids,
			   const double *values, size_t n)
{
	struct pg *db = &PGS(s)->db;
	struct strbuf buf = STRBUF_INIT;
	PGresult *r, *more;
	bool sent;

	r = PQexec(db->conn, "COPY sample (metric_id, run_id, value) FROM STDIN");
	if (!r || PQresultStatus(r) != PGRES_COPY_IN) {
		pg_take_error(&PGS(s)->db, r);
		return fail(s, "cannot store samples");
	}
	PQclear(r);
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&buf, "%lld\t%lld\t", (long long)metric_ids[i], (long long)run_id);
		if (isnan(values[i]))
			strbuf_addstr(&buf, "\\N");
		else if (isinf(values[i]))
			strbuf_addstr(&buf, values[i] > 0 ? "Infinity" : "-Infinity");
		else
			strbuf_addf(&buf, "%.17g", values[i]);
		strbuf_addch(&buf, '\n');
	}
	sent = PQputCopyData(db->conn, buf.buf, (int)buf.len) == 1;
	sent = PQputCopyEnd(db->conn, sent ? NULL : "perfbot: sending failed") == 1 && sent;
	strbuf_release(&buf);
	r = PQgetResult(db->conn);
	while ((more = PQgetResult(db->conn)))
		PQclear(more);
	if (!sent || !r || PQresultStatus(r) != PGRES_COMMAND_OK) {
		pg_take_error(db, r);
		return fail(s, "cannot store samples");
	}
	PQclear(r);
	return 0;
}

const struct store_backend store_pg_backend = {
	.name = "postgresql",
	.accepts = pgs_accepts,
	.migrations = store_pg_migrations,
	.nr_migrations = STORE_PG_NR_MIGRATIONS,
	.query_override = pg_overrides,
	.open = pgs_open,
	.close = pgs_close,
	.exec = pgs_exec,
	.begin = pgs_begin,
	.commit = pgs_commit,
	.rollback = pgs_rollback,
	.get_version = pgs_get_version,
	.set_version = pgs_set_version,
	.prepare = pgs_prepare,
	.bind_int = pgs_bind_int,
	.bind_double = pgs_bind_double,
	.bind_text = pgs_bind_text,
	.step = pgs_step,
	.column_int = pgs_column_int,
	.column_double = pgs_column_double,
	.column_text = pgs_column_text,
	.reset = pgs_reset,
	.finalize = pgs_finalize,
	.put_samples = pgs_put_samples,
};
