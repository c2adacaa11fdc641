#ifndef PERFBOT_PG_PG_H
#define PERFBOT_PG_PG_H
/*
 * PostgreSQL connections for lab mode (the queue, the workers, the
 * PostgreSQL backend of the store): a thin layer over libpq that keeps
 * the URL for reconnecting, turns libpq's multi-line messages into
 * perfbot's one-line errors, and remembers the SQLSTATE of the last
 * failure so that callers can tell "lease lost" from "server gone".
 *
 * Every statement is parameterized (PQexecParams): SQL text is constant,
 * values travel apart from it, so no value can ever be read as SQL.
 *
 *   struct pg db = PG_INIT;
 *   if (pg_open(&db, url) < 0) ...          // message printed
 *   const char *p[] = { "42" };
 *   PGresult *r = pg_query(&db, "SELECT $1::int + 1", 1, p);
 *   if (!r) ...                             // message printed, db.sqlstate set
 *   ... PQgetvalue(r, 0, 0) ...
 *   PQclear(r);
 *   pg_close(&db);
 *
 * A connection that breaks (server restarted, network down) makes the
 * query fail with pg_broken() true; pg_reconnect() then opens a new one,
 * retrying with backoff, and replays db->on_connect (LISTEN, SET ...).
 * Work in an open transaction is lost with the connection: callers redo
 * the whole transaction, which is why each of theirs is idempotent.
 */
#include <signal.h>
#include <stdbool.h>
#include <libpq-fe.h>
#include "pg/url.h"
#include "util/strbuf.h"

struct pg {
	PGconn *conn;
	char *url;                    /* as given to pg_open (owned) */
	/* Statements run after every successful (re)connect, NULL-ended;
	 * borrowed: set before pg_open, keep alive as long as db. */
	const char *const *on_connect;
	bool quiet;                   /* failures set err but print nothing */
	bool lost;                    /* pg_reconnect is at work on it */
	bool down;                    /* and said it is unreachable */
	double down_since;            /* when pg_reconnect was first called */
	char sqlstate[6];             /* of the last failure; "" for a client-side one */
	struct strbuf err;            /* the last failure, one line */
	struct strbuf prepared;       /* "\n<name>\n..." prepared on conn */
	int syncs;                    /* pg_pipeline_sync's in the pipeline under way */
};
#define PG_INIT { NULL, NULL, NULL, false, false, false, 0, "", STRBUF_INIT, STRBUF_INIT, 0 }

/*
 * The database URL of a lab command: opt (from --db) when set, else
 * $PERFBOT_DB.  NULL after an error saying how to give one, or when the
 * value is not a PostgreSQL URL.
 */
const char *lab_db_url(const char *opt);

/*
 * Connect to url (a libpq URL or "key=value ..." string).  0, or -1 after
 * "perfbot: cannot connect to the database: <libpq's first line>".
 * Either way, pg_close(db) when done with it.
 */
int pg_open(struct pg *db, const char *url);
/* Close and free; db is PG_INIT again (on_connect kept).  Fine twice. */
void pg_close(struct pg *db);

/*
 * Run sql with n text parameters ($1..$n; a NULL entry is SQL NULL).
 * Returns the result (the caller PQclear()s it) when the statement
 * succeeded, or NULL after "perfbot: database: <message>" (just
 * "perfbot: <message>" for perfbot's own SQLSTATEs, PBxxx, whose
 * messages are written for people), with db->sqlstate and db->err set.
 */
PGresult *pg_query(struct pg *db, const char *sql, int n, const char *const *params);
/* The same, with lengths and formats per parameter (1 = binary, for bytea). */
PGresult *pg_query_bin(struct pg *db, const char *sql, int n, const char *const *params,
		       const int *lengths, const int *formats);
/* pg_query with the result in binary: bytea as raw bytes, int4 and int8
 * in network byte order. */
PGresult *pg_query_binary_result(struct pg *db, const char *sql, int n, const char *const *params);
/*
 * Statements run often (a worker's claim and heartbeat, the upload): sql
 * is prepared on the server under name once a connection (PQprepare; a
 * new connection prepares it again), so that each run is a bind and an
 * execute, without the parse and plan of the SQL text.  Otherwise as
 * pg_query_bin.  One name, one sql, for the life of db.
 */
PGresult *pg_query_named(struct pg *db, const char *name, const char *sql, int n,
			 const char *const *params, const int *lengths, const int *formats);
/* Prepare as pg_query_named does, without running: before a pipeline
 * that sends it with pg_pipeline_send_named.  0 or -1. */
int pg_prepare(struct pg *db, const char *name, const char *sql, int n);
/* pg_query for statements whose rows do not matter: 0 or -1. */
int pg_exec(struct pg *db, const char *sql, int n, const char *const *params);
/*
 * Run a script of several statements (the simple query protocol, which
 * takes no parameters): only for constant SQL such as migrations.  0 or -1.
 */
int pg_exec_script(struct pg *db, const char *sql);

/*
 * A pipeline (libpq's pipeline mode): statements sent one after another
 * without waiting for answers, all answered after one round trip instead
 * of one each.  Between pg_pipeline_start and pg_pipeline_end, only
 * pg_pipeline_send on db.  A statement that fails makes the server skip
 * the rest (inside BEGIN, the transaction is then aborted: ROLLBACK it).
 *
 * pg_pipeline_end sends the sync, reads every answer, and leaves pipeline
 * mode.  The results of the first n statements go to res[0..n-1] (the
 * caller PQclear()s them; NULL for one that failed or was skipped).
 * 0 when every statement succeeded; -1 with db->sqlstate and db->err of
 * the first failure, said as pg_query says it unless db->quiet.
 */
int pg_pipeline_start(struct pg *db);
int pg_pipeline_send(struct pg *db, const char *sql, int n, const char *const *params,
		     const int *lengths, const int *formats);
/* pg_pipeline_send of a statement pg_prepare made (sent as sql if the
 * connection has no such statement) */
int pg_pipeline_send_named(struct pg *db, const char *name, const char *sql, int n,
			   const char *const *params, const int *lengths, const int *formats);
int pg_pipeline_end(struct pg *db, PGresult **res, int n);
/* End a transaction inside the pipeline: what was sent since the last
 * sync is one transaction (committed unless BEGIN opened one), and a
 * statement that fails skips the rest of it only, up to here. */
int pg_pipeline_sync(struct pg *db);
/* Say db's last failure as pg_query would have (after a quiet one). */
void pg_say_error(const struct pg *db);

/* Take a failed result's SQLSTATE and message into db (from the
 * connection when res is NULL), printing nothing, and PQclear res: for
 * callers of libpq's own calls (COPY, prepared statements). */
void pg_take_error(struct pg *db, PGresult *res);

/* The last failure lost the connection: reconnect before trying again. */
bool pg_broken(const struct pg *db);
/* The last failure's SQLSTATE is state (5 characters). */
bool pg_failed_with(const struct pg *db, const char *state);

/*
 * Reconnect after pg_broken(): tries every 0.1 s at first, backing off to
 * 2 s, until it connects (0), *stop becomes non-zero or give_up_s seconds
 * pass (-1, quietly: call again to keep trying).  give_up_s <= 0 means
 * never give up.  Prints one line when the database first proves
 * unreachable and one when the connection is back (with how long it was
 * lost), however many calls that takes.
 */
int pg_reconnect(struct pg *db, double give_up_s, volatile sig_atomic_t *stop);

/* Integer of row r, column c of res (0 for NULL or garbage). */
long long pg_int(const PGresult *res, int r, int c);
/* Text of row r, column c, xstrdup'd; NULL for SQL NULL. */
char *pg_strdup(const PGresult *res, int r, int c);

#endif
