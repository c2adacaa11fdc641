/*
 * test_store_reported.c: the regressions perfbot watch handled
 * (src/store/store_reported.c): found by range or by first bad commit,
 * recorded once, kept across reopening.  On both backends: test_x_pg
 * runs test_x on a fresh database of the test PostgreSQL server.
 */
#include "lab_helpers.h"
#include "store/store.h"
#include "util/xalloc.h"

TEST_TMPDIR("reported")
static char dbpath[256];

static int setup(void **state)
{
	tmpdir_setup(state);
	snprintf(dbpath, sizeof(dbpath), "%s/p.db", tmpdir);
	return 0;
}

static void test_reported(void **state)
{
	struct store *s;
	struct strbuf report = STRBUF_INIT;
	struct store_reported r = { 7, "mytest.throughput", "c8", "c6", "c9", "/r/a.txt" };
	(void)state;

	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	assert_int_equal(store_reported_find(s, 7, r.metric, NULL, "c6", "c9", &report), 0);
	assert_int_equal(store_reported_find(s, 7, r.metric, "c8", NULL, NULL, &report), 0);
	assert_int_equal(report.len, 0);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_reported_add(s, &r), 0);
	assert_int_equal(store_commit(s), 0);
	store_close(s);

	/* after reopening: by range, by culprit; not for another job, metric
	 * or range */
	assert_int_equal(store_open(&s, dbpath, 0), 0);
	assert_int_equal(store_reported_find(s, 7, r.metric, NULL, "c6", "c9", &report), 1);
	assert_string_equal(report.buf, "/r/a.txt");
	strbuf_reset(&report);
	assert_int_equal(store_reported_find(s, 7, r.metric, "c8", NULL, NULL, &report), 1);
	assert_string_equal(report.buf, "/r/a.txt");
	assert_int_equal(store_reported_find(s, 8, r.metric, "c8", NULL, NULL, NULL), 0);
	assert_int_equal(store_reported_find(s, 7, "mytest.latency", "c8", NULL, NULL, NULL), 0);
	assert_int_equal(store_reported_find(s, 7, r.metric, NULL, "c6", "c8", NULL), 0);

	/* the same range again keeps the first record; another range with the
	 * same culprit is a row of its own, found by either */
	r.report = "/r/b.txt";
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_reported_add(s, &r), 0);
	r.good = "c7";
	assert_int_equal(store_reported_add(s, &r), 0);
	/* a range whose bisect named nothing */
	r.good = "c1";
	r.bad = "c2";
	r.culprit = NULL;
	r.report = NULL;
	assert_int_equal(store_reported_add(s, &r), 0);
	assert_int_equal(store_commit(s), 0);
	strbuf_reset(&report);
	assert_int_equal(store_reported_find(s, 7, r.metric, NULL, "c6", "c9", &report), 1);
	assert_string_equal(report.buf, "/r/a.txt");
	strbuf_reset(&report);
	assert_int_equal(store_reported_find(s, 7, r.metric, NULL, "c7", "c9", &report), 1);
	assert_string_equal(report.buf, "/r/b.txt");
	strbuf_reset(&report);
	assert_int_equal(store_reported_find(s, 7, r.metric, "c8", NULL, NULL, &report), 1);
	assert_string_equal(report.buf, "/r/a.txt");
	strbuf_reset(&report);
	assert_int_equal(store_reported_find(s, 7, r.metric, NULL, "c1", "c2", &report), 1);
	assert_string_equal(report.buf, "");
	store_close(s);
	strbuf_release(&report);
}

/* On PostgreSQL, under a watch's login (submitter and reporter), with
 * the jobs the records name (its foreign keys hold, SQLite's are not
 * enforced). */
static void test_reported_pg(void **state)
{
	char *db = lab_test_db(), *url = lab_test_conninfo(db, TEST_WATCHER);

	lab_test_sql(db, "INSERT INTO perfbot.job (id, testcase, path_params, tbox_group, rootfs,"
		     " kconfig, compiler) SELECT i, 't' || i, '', '', '', '', '' "
		     "FROM generate_series(1, 8) i");
	snprintf(dbpath, sizeof(dbpath), "%s", url);
	test_reported(state);
	free(url);
	free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reported, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_reported_pg, setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
