/*
 * test_compare_load.c: compare_load's threads (src/report/compare.c).
 * The columns' matrices are parsed in threads, or, without one (none to
 * be had, or none asked for), one after the other: the same matrices and
 * the same messages either way, a later column's never printed after an
 * earlier column's error.
 */
#include "test_helpers.h"
#include "test_spawn.h"
#include "report/compare.h"
#include "util/fileio.h"

#include <errno.h>
#include <zlib.h>

TEST_TMPDIR("compare_load")

static const struct compare_load_opts ways[] = {
	{ spawn_ok, 3 }, { spawn_fails, 3 }, { NULL, 3 }, { spawn_ok, 1 },
};
#define NR_WAYS (sizeof(ways) / sizeof(ways[0]))

static void put(const char *dir, const char *text)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", tmpdir, dir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addstr(&p, "/matrix.json");
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
}

static int setup(void **state)
{
	struct strbuf p = STRBUF_INIT;
	const char *zipped = "{\"a.x\": [7, 8], \"c.z\": [1.5, 2.5]}";
	gzFile gz;

	tmpdir_setup(state);
	put("good", "{\"a.x\": [1, 2, 3], \"b.y\": [4, 5, 6]}");
	put("warn", "{\"a.x\": [1, 2], \"s.t\": [\"x\", \"y\"]}");
	put("warn2", "{\"a.x\": [5, 6], \"s.u\": [\"x\", 1]}");
	put("bad", "{\n \"a\": [1,\n");
	put("empty", "{}");
	put("zero", "");        /* read, not mapped: nothing to map */
	/* a root holding matrix.json.gz only, as lkp's often do */
	strbuf_addf(&p, "%s/gz", tmpdir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addstr(&p, "/matrix.json.gz");
	gz = gzopen(p.buf, "wb");
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, zipped, (unsigned)strlen(zipped)), (int)strlen(zipped));
	assert_int_equal(gzclose(gz), Z_OK);
	strbuf_release(&p);
	return 0;
}

/*
 * Load the roots named (under tmpdir) in one way; what it printed into
 * err, and every column's matrix.json rendering (or "-" past a failure)
 * into mats.  Returns compare_load_opts's result.
 */
static int load(const struct compare_load_opts *way, const char *const *names, int n,
		struct strbuf *err, struct strbuf *mats)
{
	struct stderr_capture cap;
	struct compare cmp;
	char *paths[8];
	int ret;

	assert_true(n <= 8);
	for (int i = 0; i < n; i++) {
		struct strbuf p = STRBUF_INIT;
		strbuf_addf(&p, "%s/%s", tmpdir, names[i]);
		paths[i] = strbuf_detach(&p, NULL);
	}
	capture_start(&cap);
	ret = compare_load_opts(&cmp, paths, n, way);
	capture_end_sb(&cap, err);
	strbuf_reset(mats);
	for (int i = 0; i < cmp.ncols; i++) {
		matrix_to_json(&cmp.col[i].mx, mats);
		strbuf_addf(mats, "|%d|\n", cmp.col[i].runs);
	}
	compare_release(&cmp);
	for (int i = 0; i < n; i++)
		free(paths[i]);
	return ret;
}

/* Every way gives what the sequential load (no spawn, one thread) gives. */
static void check_all_ways(const char *const *names, int n, int want_ret, const char *want_err)
{
	const struct compare_load_opts serial = { NULL, 1 };
	struct strbuf err0 = STRBUF_INIT, mats0 = STRBUF_INIT, err = STRBUF_INIT, mats = STRBUF_INIT;

	assert_int_equal(load(&serial, names, n, &err0, &mats0), want_ret);
	if (strcmp(err0.buf, want_err))
		fail_msg("printed\n%s\nexpected\n%s", err0.buf, want_err);
	for (size_t w = 0; w < NR_WAYS; w++) {
		assert_int_equal(load(&ways[w], names, n, &err, &mats), want_ret);
		assert_string_equal(err.buf, err0.buf);
		assert_string_equal(mats.buf, mats0.buf);
	}
	strbuf_release(&err0);
	strbuf_release(&mats0);
	strbuf_release(&err);
	strbuf_release(&mats);
}

static void test_same_matrices_and_warnings(void **state)
{
	const char *const names[] = { "good", "warn", "gz", "warn2" };
	struct strbuf want = STRBUF_INIT, err = STRBUF_INIT, mats = STRBUF_INIT;

	(void)state;
	strbuf_addf(&want, "perfbot: warning: %s/warn/matrix.json:1:17: metric 's.t': sample 0 "
		    "is not a number; metric skipped\n", tmpdir);
	strbuf_addf(&want, "perfbot: warning: %s/warn2/matrix.json:1:17: metric 's.u': sample 0 "
		    "is not a number; metric skipped\n", tmpdir);
	check_all_ways(names, 4, 0, want.buf);
	assert_int_equal(load(&ways[0], names, 4, &err, &mats), 0);
	assert_non_null(strstr(mats.buf, "\"c.z\""));   /* the .gz one */
	strbuf_release(&want);
	strbuf_release(&err);
	strbuf_release(&mats);
}

/* The first failing column's message, after the warnings of the columns
 * before it, and nothing of the columns after it. */
static void test_first_error_only(void **state)
{
	const char *const bad_second[] = { "warn", "bad", "warn2" };
	const char *const missing_second[] = { "good", "nowhere", "bad" };
	const char *const empty_second[] = { "good", "empty", "nowhere" };
	const char *const zero_second[] = { "good", "zero", "empty" };
	struct strbuf want = STRBUF_INIT;

	(void)state;
	strbuf_addf(&want, "perfbot: warning: %s/warn/matrix.json:1:17: metric 's.t': sample 0 "
		    "is not a number; metric skipped\n", tmpdir);
	strbuf_addf(&want, "perfbot: %s/bad/matrix.json:3:1: unexpected end of file, expected "
		    "a JSON value after ','\n", tmpdir);
	check_all_ways(bad_second, 3, -1, want.buf);
	strbuf_reset(&want);
	strbuf_addf(&want, "perfbot: cannot read '%s/nowhere': No such file or directory\n", tmpdir);
	check_all_ways(missing_second, 3, -1, want.buf);
	strbuf_reset(&want);
	strbuf_addf(&want, "perfbot: %s/empty/matrix.json: empty matrix: no metrics to compare\n",
		    tmpdir);
	check_all_ways(empty_second, 3, -1, want.buf);
	strbuf_reset(&want);
	strbuf_addf(&want, "perfbot: %s/zero/matrix.json:1:1: unexpected end of file, expected "
		    "a JSON value\n", tmpdir);
	check_all_ways(zero_second, 3, -1, want.buf);
	strbuf_release(&want);
}

/* One thread per column up to opts.threads, the caller's thread included. */
static void test_thread_count(void **state)
{
	const char *const names[] = { "good", "gz", "good" };
	const struct compare_load_opts two = { spawn_ok, 2 }, many = { spawn_ok, 8 };
	struct strbuf err = STRBUF_INIT, mats = STRBUF_INIT;

	(void)state;
	*spawn_calls() = 0;
	assert_int_equal(load(&two, names, 3, &err, &mats), 0);
	assert_int_equal(*spawn_calls(), 1);
	*spawn_calls() = 0;
	assert_int_equal(load(&many, names, 3, &err, &mats), 0);
	assert_int_equal(*spawn_calls(), 2);
	*spawn_calls() = 0;
	assert_int_equal(load(&ways[3], names, 3, &err, &mats), 0);
	assert_int_equal(*spawn_calls(), 0);
	strbuf_release(&err);
	strbuf_release(&mats);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_matrices_and_warnings),
		cmocka_unit_test(test_first_error_only),
		cmocka_unit_test(test_thread_count),
	};
	return cmocka_run_group_tests(tests, setup, tmpdir_teardown);
}
