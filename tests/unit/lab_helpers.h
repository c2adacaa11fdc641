#ifndef PERFBOT_LAB_HELPERS_H
#define PERFBOT_LAB_HELPERS_H
/*
 * For the unit tests of lab mode: the throwaway PostgreSQL server that
 * tests/run-unit.sh starts (tests/pg.sh) is named by $PERFBOT_TEST_PG, a
 * superuser URL.  Each test gets a database of its own, migrated by
 * lab_migrate, and logins for two boxes and a submitter:
 *
 *     char *db = lab_test_db();                 // skips without a server
 *     struct pg box1 = PG_INIT;
 *     lab_test_open(&box1, db, "t_box1");       // a perfbot_worker login
 *     ...
 *     free(db);
 *
 * Without $PERFBOT_TEST_PG (a test binary run by hand) the test skips
 * with the reason; tests/run-unit.sh sets it wherever the server binaries
 * are installed, which CI does.
 */
#include "test_helpers.h"
#include "pg/pg.h"
#include "pg/schema.h"
#include "lab/init.h"
#include "util/xalloc.h"

/* Logins the tests use; roles are cluster-wide, made once per server. */
#define TEST_BOX1 "t_box1"
#define TEST_BOX2 "t_box2"
#define TEST_SUBMITTER "t_sub"
/* a watch's login: it submits and records what it reported */
#define TEST_WATCHER "t_watch"

/* The URL of dbname as user on the test server (its socket dir and port
 * from $PERFBOT_TEST_PG). */
static inline char *lab_test_conninfo(const char *dbname, const char *user)
{
	const char *url = getenv("PERFBOT_TEST_PG");
	PQconninfoOption *o = PQconninfoParse(url, NULL);
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(o);
	strbuf_addf(&sb, "postgresql:///%s?user=%s", dbname, user);
	for (PQconninfoOption *i = o; i->keyword; i++)
		if (i->val && (!strcmp(i->keyword, "host") || !strcmp(i->keyword, "port")))
			strbuf_addf(&sb, "&%s=%s", i->keyword, i->val);
	PQconninfoFree(o);
	return strbuf_detach(&sb, NULL);
}

static inline void lab_test_open(struct pg *db, const char *dbname, const char *user)
{
	char *ci = lab_test_conninfo(dbname, user);
	assert_int_equal(pg_open(db, ci), 0);
	free(ci);
}

/* Run sql as the superuser in dbname; fails the test on error. */
static inline void lab_test_sql(const char *dbname, const char *sql)
{
	struct pg db = PG_INIT;
	lab_test_open(&db, dbname, "postgres");
	assert_int_equal(pg_exec_script(&db, sql), 0);
	pg_close(&db);
}

/* One value of a query run as the superuser (xstrdup'd; NULL for NULL). */
static inline char *lab_test_value(const char *dbname, const char *sql)
{
	struct pg db = PG_INIT;
	PGresult *r;
	char *v;

	lab_test_open(&db, dbname, "postgres");
	r = pg_query(&db, sql, 0, NULL);
	assert_non_null(r);
	assert_int_equal(PQntuples(r), 1);
	v = pg_strdup(r, 0, 0);
	PQclear(r);
	pg_close(&db);
	return v;
}

/* A new, empty database on the test server (its name, yours to free);
 * skips the test without a server. */
static inline char *lab_test_empty_db(void)
{
	static int n;
	struct pg db = PG_INIT;
	struct strbuf name = STRBUF_INIT, sql = STRBUF_INIT;
	char *ci;

	if (!getenv("PERFBOT_TEST_PG")) {
		print_message("skipped: no test PostgreSQL server ($PERFBOT_TEST_PG unset; "
			      "tests/run-unit.sh starts one)\n");
		skip();
	}
	strbuf_addf(&name, "t_%ld_%d", (long)getpid(), ++n);
	ci = lab_test_conninfo("postgres", "postgres");
	assert_int_equal(pg_open(&db, ci), 0);
	free(ci);
	strbuf_addf(&sql, "CREATE DATABASE %s", name.buf);
	assert_int_equal(pg_exec(&db, sql.buf, 0, NULL), 0);
	pg_close(&db);
	strbuf_release(&sql);
	return strbuf_detach(&name, NULL);
}

/* A new database with the lab schema and the test logins. */
static inline char *lab_test_db(void)
{
	char *name = lab_test_empty_db();
	struct pg db = PG_INIT;
	struct lab_versions v;

	lab_test_open(&db, name, "postgres");
	assert_int_equal(lab_migrate(&db, &v), 0);
	assert_int_equal(v.lab_to, lab_schema_version());
	/* logins are cluster-wide: the first test database makes them */
	assert_int_equal(pg_exec_script(&db,
		"DO $$ BEGIN\n"
		"  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" TEST_BOX1 "') THEN\n"
		"    CREATE ROLE " TEST_BOX1 " LOGIN IN ROLE " LAB_ROLE_WORKER ";\n"
		"    CREATE ROLE " TEST_BOX2 " LOGIN IN ROLE " LAB_ROLE_WORKER ";\n"
		"    CREATE ROLE " TEST_SUBMITTER " LOGIN IN ROLE " LAB_ROLE_SUBMITTER ";\n"
		"  END IF;\n"
		"  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" TEST_WATCHER "') THEN\n"
		"    CREATE ROLE " TEST_WATCHER " LOGIN IN ROLE " LAB_ROLE_SUBMITTER ", "
		LAB_ROLE_REPORTER ";\n"
		"  END IF;\n"
		"END $$;\n"
		/* any group: the tests of registered groups make their own rows */
		"INSERT INTO perfbot.box_group VALUES ('" TEST_BOX1 "', '*'), ('" TEST_BOX2 "', '*')"),
		0);
	pg_close(&db);
	return name;
}

#endif
