/*
 * libpq.c: libpq, loaded when lab mode first needs it.
 *
 * Linked as usual, libpq brings 24 more shared libraries (OpenSSL, GnuTLS,
 * Kerberos, LDAP, SASL, ...), and their relocations cost every perfbot
 * command about 30 ms of CPU at start on the test VM: ten times the rest of
 * start-up, a tenth of a 30,000-metric unite, for commands that never talk
 * to PostgreSQL.  So perfbot is not linked with libpq.  Each libpq function
 * it calls is defined here under its own name, with libpq's prototype
 * (libpq-fe.h is included, so the compiler checks every one), and calls the
 * real one, found with dlopen and dlsym on the first call of any.
 *
 * The handle and the function pointers are the one process-wide state
 * here, as the dynamic linker's own would have been: written once under
 * pthread_once, read-only after.  Without libpq on the machine, the first
 * call dies with one line that says so (nothing in lab mode can go on).
 *
 * A libpq function new to perfbot goes into PQ_FUNCTIONS below; until it
 * does, the link fails with "undefined reference", not at run time.
 */
#include <libpq-fe.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define LIBPQ_SONAME "libpq.so.5"

/* X(return type, name, parameters, arguments); V(name, parameters, arguments)
 * for the functions that return nothing */
#define PQ_FUNCTIONS(X, V) \
	X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), (keywords, values, expand_dbname)) \
	V(PQfinish, (PGconn *conn), (conn)) \
	X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg)) \
	V(PQconninfoFree, (PQconninfoOption *connOptions), (connOptions)) \
	X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
	X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn)) \
	X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
	X(int, PQsocket, (const PGconn *conn), (conn)) \
	X(int, PQbackendPID, (const PGconn *conn), (conn)) \
	X(PQnoticeReceiver, PQsetNoticeReceiver, (PGconn *conn, PQnoticeReceiver proc, void *arg), (conn, proc, arg)) \
	X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
	X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
	X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), (conn, stmtName, query, nParams, paramTypes)) \
	X(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
	X(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
	X(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
	X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
	X(int, PQconsumeInput, (PGconn *conn), (conn)) \
	X(PGnotify *, PQnotifies, (PGconn *conn), (conn)) \
	X(int, PQenterPipelineMode, (PGconn *conn), (conn)) \
	X(int, PQexitPipelineMode, (PGconn *conn), (conn)) \
	X(int, PQpipelineSync, (PGconn *conn), (conn)) \
	X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
	X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
	X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
	X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
	X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
	X(int, PQntuples, (const PGresult *res), (res)) \
	X(int, PQnfields, (const PGresult *res), (res)) \
	X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
	X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
	X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
	V(PQclear, (PGresult *res), (res)) \
	V(PQfreemem, (void *ptr), (ptr))

static struct {
#define POINTER(ret, name, params, args) ret (*name) params;
#define VPOINTER(name, params, args) void (*name) params;
	PQ_FUNCTIONS(POINTER, VPOINTER)
#undef POINTER
#undef VPOINTER
} pq;

static pthread_once_t pq_once = PTHREAD_ONCE_INIT;

static _Noreturn void pq_missing(const char *what)
{
	fprintf(stderr, "perfbot: lab mode needs PostgreSQL's client library: %s "
		"(install libpq5)\n", what);
	exit(1);
}

static void pq_load(void)
{
	void *dl = dlopen(LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!dl)
		pq_missing(dlerror());
	/* POSIX's way to a function pointer from dlsym's void * */
#define LOOKUP(name) \
	if (!(*(void **)&pq.name = dlsym(dl, #name))) \
		pq_missing(dlerror());
#define XLOOKUP(ret, name, params, args) LOOKUP(name)
#define VLOOKUP(name, params, args) LOOKUP(name)
	PQ_FUNCTIONS(XLOOKUP, VLOOKUP)
#undef XLOOKUP
#undef VLOOKUP
#undef LOOKUP
}

/* One definition per function: load on first use, then call through. */
#define FORWARD(ret, name, params, args) \
	ret name params \
	{ \
		pthread_once(&pq_once, pq_load); \
		return pq.name args; \
	}
#define VFORWARD(name, params, args) \
	void name params \
	{ \
		pthread_once(&pq_once, pq_load); \
		pq.name args; \
	}
PQ_FUNCTIONS(FORWARD, VFORWARD)
#undef FORWARD
#undef VFORWARD
