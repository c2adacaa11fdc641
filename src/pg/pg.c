/*
 * pg.c: libpq connections with one-line errors and reconnects (see pg.h).
 */
#include "pg/pg.h"
#include "util/error.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *lab_db_url(const char *opt)
{
	const char *url = opt ? opt : getenv("PERFBOT_DB");

	if (!url || !*url) {
		error("no database: give --db postgresql://... or set PERFBOT_DB");
		return NULL;
	}
	if (!pg_is_url(url)) {
		error("'%s' is no PostgreSQL URL (postgresql://[user@]host[:port]/dbname)", url);
		return NULL;
	}
	return url;
}

/* libpq messages end in a newline and often carry a second line of
 * hints ("Is the server running locally ..."); ours are one line. */
static void set_err(struct pg *db, const char *msg)
{
	const char *nl;

	strbuf_reset(&db->err);
	if (!msg || !*msg)
		msg = "unknown error";
	nl = strchr(msg, '\n');
	strbuf_add(&db->err, msg, nl ? (size_t)(nl - msg) : strlen(msg));
	strbuf_rtrim(&db->err);
}

/* Server NOTICEs ("relation already exists, skipping") are chatter for a
 * command-line tool; WARNINGs are worth a line. */
static void on_notice(void *arg, const PGresult *res)
{
	const char *sev = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	(void)arg;
	if (sev && !strcmp(sev, "WARNING") && msg)
		warning("database: %s", msg);
}

static int connect_once(struct pg *db)
{
	/* expand_dbname: the URL fills in everything it names; the keys
	 * before it are defaults that it may override */
	const char *keys[] = { "application_name", "connect_timeout", "dbname", NULL };
	const char *vals[] = { "perfbot", "10", db->url, NULL };
	PGconn *c = PQconnectdbParams(keys, vals, 1);

	db->sqlstate[0] = '\0';
	if (!c) {
		set_err(db, "out of memory");
		return -1;
	}
	if (PQstatus(c) != CONNECTION_OK) {
		set_err(db, PQerrorMessage(c));
		PQfinish(c);
		return -1;
	}
	PQsetNoticeReceiver(c, on_notice, NULL);
	db->conn = c;
	strbuf_reset(&db->prepared);
	for (const char *const *s = db->on_connect; s && *s; s++) {
		bool q = db->quiet;
		db->quiet = true;
		int r = pg_exec(db, *s, 0, NULL);
		db->quiet = q;
		if (r < 0) {
			PQfinish(c);
			db->conn = NULL;
			return -1;
		}
	}
	return 0;
}

int pg_open(struct pg *db, const char *url)
{
	free(db->url);
	db->url = xstrdup(url);
	if (connect_once(db) < 0) {
		if (!db->quiet)
			error("cannot connect to the database: %s", db->err.buf);
		return -1;
	}
	return 0;
}

void pg_close(struct pg *db)
{
	if (db->conn)
		PQfinish(db->conn);
	db->conn = NULL;
	free(db->url);
	db->url = NULL;
	strbuf_release(&db->err);
	strbuf_release(&db->prepared);
	db->sqlstate[0] = '\0';
}

void pg_take_error(struct pg *db, PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	db->sqlstate[0] = '\0';
	if (state && strlen(state) == 5)
		memcpy(db->sqlstate, state, 6);
	if (msg)
		set_err(db, msg);
	else if (res && *PQresultErrorMessage(res))
		set_err(db, PQresultErrorMessage(res));
	else
		set_err(db, db->conn ? PQerrorMessage(db->conn) : "not connected");
	PQclear(res);
}

void pg_say_error(const struct pg *db)
{
	/* perfbot's own SQLSTATEs (schema.c) carry messages for people */
	if (!strncmp(db->sqlstate, "PB", 2))
		error("%s", db->err.buf);
	else
		error("database: %s", db->err.buf);
}

/* Keep what a failed result says, and say it unless quiet. */
static void take_failure(struct pg *db, PGresult *res)
{
	pg_take_error(db, res);
	if (!db->quiet)
		pg_say_error(db);
}

static PGresult *query(struct pg *db, const char *sql, int n, const char *const *params,
		       const int *lengths, const int *formats, int result_format)
{
	PGresult *res;
	ExecStatusType st;

	if (!db->conn) {
		take_failure(db, NULL);
		return NULL;
	}
	res = PQexecParams(db->conn, sql, n, NULL, params, lengths, formats, result_format);
	st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		db->sqlstate[0] = '\0';
		return res;
	}
	take_failure(db, res);
	return NULL;
}

PGresult *pg_query_bin(struct pg *db, const char *sql, int n, const char *const *params,
		       const int *lengths, const int *formats)
{
	return query(db, sql, n, params, lengths, formats, 0);
}

PGresult *pg_query_binary_result(struct pg *db, const char *sql, int n, const char *const *params)
{
	return query(db, sql, n, params, NULL, NULL, 1);
}

PGresult *pg_query(struct pg *db, const char *sql, int n, const char *const *params)
{
	return query(db, sql, n, params, NULL, NULL, 0);
}

/* name is prepared on this connection */
static bool is_prepared(const struct pg *db, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = db->prepared.buf; (p = strstr(p, name)); p += len)
		if (p > db->prepared.buf && p[-1] == '\n' && p[len] == '\n')
			return true;
	return false;
}

int pg_prepare(struct pg *db, const char *name, const char *sql, int n)
{
	PGresult *res;

	if (db->conn && is_prepared(db, name))
		return 0;
	if (!db->conn) {
		take_failure(db, NULL);
		return -1;
	}
	res = PQprepare(db->conn, name, sql, n, NULL);
	if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
		take_failure(db, res);
		return -1;
	}
	PQclear(res);
	if (!db->prepared.len)
		strbuf_addch(&db->prepared, '\n');
	strbuf_addf(&db->prepared, "%s\n", name);
	return 0;
}

PGresult *pg_query_named(struct pg *db, const char *name, const char *sql, int n,
			 const char *const *params, const int *lengths, const int *formats)
{
	PGresult *res;
	ExecStatusType st;

	if (pg_prepare(db, name, sql, n) < 0)
		return NULL;
	res = PQexecPrepared(db->conn, name, n, params, lengths, formats, 0);
	st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		db->sqlstate[0] = '\0';
		return res;
	}
	take_failure(db, res);
	return NULL;
}

int pg_exec(struct pg *db, const char *sql, int n, const char *const *params)
{
	PGresult *r = pg_query(db, sql, n, params);

	if (!r)
		return -1;
	PQclear(r);
	return 0;
}

int pg_exec_script(struct pg *db, const char *sql)
{
	PGresult *res = db->conn ? PQexec(db->conn, sql) : NULL;
	ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		db->sqlstate[0] = '\0';
		PQclear(res);
		return 0;
	}
	take_failure(db, res);
	return -1;
}

int pg_pipeline_start(struct pg *db)
{
	if (!db->conn || !PQenterPipelineMode(db->conn)) {
		take_failure(db, NULL);
		return -1;
	}
	db->sqlstate[0] = '\0';
	db->syncs = 0;
	return 0;
}

int pg_pipeline_sync(struct pg *db)
{
	if (!PQpipelineSync(db->conn)) {
		take_failure(db, NULL);
		return -1;
	}
	db->syncs++;
	return 0;
}

int pg_pipeline_send(struct pg *db, const char *sql, int n, const char *const *params,
		     const int *lengths, const int *formats)
{
	if (!PQsendQueryParams(db->conn, sql, n, NULL, params, lengths, formats, 0)) {
		take_failure(db, NULL);
		return -1;
	}
	return 0;
}

int pg_pipeline_send_named(struct pg *db, const char *name, const char *sql, int n,
			   const char *const *params, const int *lengths, const int *formats)
{
	if (!is_prepared(db, name))
		return pg_pipeline_send(db, sql, n, params, lengths, formats);
	if (!PQsendQueryPrepared(db->conn, name, n, params, lengths, formats, 0)) {
		take_failure(db, NULL);
		return -1;
	}
	return 0;
}

int pg_pipeline_end(struct pg *db, PGresult **res, int n)
{
	int k = 0, nulls = 0, ret = 0;

	for (int i = 0; i < n; i++)
		res[i] = NULL;
	if (!PQpipelineSync(db->conn)) {
		take_failure(db, NULL);
		return -1;
	}
	/* statement k's results, then NULL; each sync's result after the
	 * statements before it, the last sync's last */
	for (;;) {
		PGresult *r = PQgetResult(db->conn);
		ExecStatusType st;

		if (!r) {
			/* two NULLs in a row: nothing more will come (the
			 * connection is gone) */
			if (++nulls > 1 || pg_broken(db)) {
				if (!ret)
					take_failure(db, NULL);
				ret = -1;
				break;
			}
			k++;
			continue;
		}
		nulls = 0;
		st = PQresultStatus(r);
		if (st == PGRES_PIPELINE_SYNC) {
			PQclear(r);
			/* the next statement's results follow a sync's at once */
			if (db->syncs-- > 0)
				continue;
			break;
		}
		if ((st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) && k < n && !res[k]) {
			res[k] = r;
		} else if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK &&
			   st != PGRES_PIPELINE_ABORTED && !ret) {
			take_failure(db, r);
			ret = -1;
		} else {
			PQclear(r);
		}
	}
	if (!PQexitPipelineMode(db->conn) && !ret) {
		take_failure(db, NULL);
		ret = -1;
	}
	return ret;
}

bool pg_broken(const struct pg *db)
{
	return !db->conn || PQstatus(db->conn) != CONNECTION_OK;
}

bool pg_failed_with(const struct pg *db, const char *state)
{
	return !strcmp(db->sqlstate, state);
}

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

int pg_reconnect(struct pg *db, double give_up_s, volatile sig_atomic_t *stop)
{
	double start = now_seconds(), wait = 0.1;

	if (db->conn)
		PQfinish(db->conn);
	db->conn = NULL;
	if (!db->lost) {
		db->lost = true;
		db->down_since = start;
	}
	for (;;) {
		if (connect_once(db) == 0) {
			fprintf(stderr, "perfbot: database connection back after %.1f s\n",
				now_seconds() - db->down_since);
			db->lost = db->down = false;
			return 0;
		}
		if (!db->down) {
			fprintf(stderr, "perfbot: database unreachable (%s): retrying\n", db->err.buf);
			db->down = true;
		}
		if ((stop && *stop) || (give_up_s > 0 && now_seconds() - start >= give_up_s))
			return -1;
		nap(wait);
		wait = wait * 2 > 2 ? 2 : wait * 2;
	}
}

long long pg_int(const PGresult *res, int r, int c)
{
	if (PQgetisnull(res, r, c))
		return 0;
	return strtoll(PQgetvalue(res, r, c), NULL, 10);
}

char *pg_strdup(const PGresult *res, int r, int c)
{
	if (PQgetisnull(res, r, c))
		return NULL;
	return xstrdup(PQgetvalue(res, r, c));
}
