/*
 * Unit tests of src/run/run.c's small public pieces: the default result
 * base and its environment order, and the run dirs' numbering
 * (run_dir_hold, run_dir_publish_held).  The runs themselves are tested end
 * to end by tests/t/t0500-run.sh.
 */
#include "test_helpers.h"
#include "run/run.h"
#include "util/fileio.h"
#include "util/xalloc.h"

TEST_TMPDIR("run")

static void result_base(const char *env, const char *xdg, const char *home, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

#define SET(name, v) ((v) ? setenv(name, v, 1) : unsetenv(name))
	SET("PERFBOT_RESULT_ROOT", env);
	SET("XDG_DATA_HOME", xdg);
	SET("HOME", home);
#undef SET
	run_default_result_base(&sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/* $PERFBOT_RESULT_ROOT, then $XDG_DATA_HOME, then ~; empty counts as unset. */
static void test_default_result_base(void **state)
{
	char *home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
	char *xdg = getenv("XDG_DATA_HOME") ? xstrdup(getenv("XDG_DATA_HOME")) : NULL;
	char *env = getenv("PERFBOT_RESULT_ROOT") ? xstrdup(getenv("PERFBOT_RESULT_ROOT")) : NULL;
	(void)state;

	result_base("/r", "/x", "/h", "/r");
	result_base("", "/x", "/h", "/x/perfbot/result");
	result_base(NULL, "/x", "/h", "/x/perfbot/result");
	result_base(NULL, "", "/h", "/h/.local/share/perfbot/result");
	result_base(NULL, NULL, "/h", "/h/.local/share/perfbot/result");
	result_base(NULL, NULL, "", "/tmp/.local/share/perfbot/result");
	result_base(NULL, NULL, NULL, "/tmp/.local/share/perfbot/result");

	home ? setenv("HOME", home, 1) : unsetenv("HOME");
	xdg ? setenv("XDG_DATA_HOME", xdg, 1) : unsetenv("XDG_DATA_HOME");
	env ? setenv("PERFBOT_RESULT_ROOT", env, 1) : unsetenv("PERFBOT_RESULT_ROOT");
	free(home);
	free(xdg);
	free(env);
}

static void make_dir(const char *root, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	path_join(&p, root, name);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_release(&p);
}

/* A new run takes the number after the highest numbered dir (names that
 * are not whole numbers, or not below a million, do not count), both for
 * its hidden work dir and again when it is published: runs published
 * meanwhile by another perfbot push it further. */
static void test_run_dir_numbering(void **state)
{
	struct strbuf root = STRBUF_INIT, tmp = STRBUF_INIT, want = STRBUF_INIT;
	struct held_dir hd;
	char *final = NULL;
	(void)state;

	strbuf_addstr(&root, tmpdir);

	/* an empty root: run 0 */
	assert_int_equal(run_dir_hold(root.buf, &hd), 0);
	strbuf_addstr(&tmp, hd.path);
	strbuf_addf(&want, "%s/.run-0.%ld", root.buf, (long)getpid());
	assert_string_equal(tmp.buf, want.buf);
	assert_true(is_dir(tmp.buf));
	assert_int_equal(run_dir_publish_held(root.buf, &hd, &final), 0);
	assert_string_equal(hd.path, final);
	held_dir_close(&hd);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/0", root.buf);
	assert_string_equal(final, want.buf);
	assert_true(is_dir(final));
	assert_false(is_dir(tmp.buf));
	free(final);
	final = NULL;

	/* gaps and names that are not run numbers */
	make_dir(root.buf, "7");
	make_dir(root.buf, "12abc");
	make_dir(root.buf, "x");
	make_dir(root.buf, "1000000");
	make_dir(root.buf, "-3");
	assert_int_equal(run_dir_hold(root.buf, &hd), 0);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/.run-8.%ld", root.buf, (long)getpid());
	assert_string_equal(hd.path, want.buf);

	/* runs 8 and 9 published by others while this one ran: it becomes 10 */
	make_dir(root.buf, "8");
	make_dir(root.buf, "9/0");
	assert_int_equal(run_dir_publish_held(root.buf, &hd, &final), 0);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/10", root.buf);
	assert_string_equal(final, want.buf);
	held_dir_close(&hd);
	free(final);
	final = NULL;

	/* a work dir that is gone: an error naming it, nothing published */
	assert_int_equal(run_dir_hold(root.buf, &hd), 0);
	strbuf_reset(&tmp);
	strbuf_addstr(&tmp, hd.path);
	assert_int_equal(rmdir(tmp.buf), 0);
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(run_dir_publish_held(root.buf, &hd, &final), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "was replaced"));
	assert_non_null(strstr(msg, tmp.buf));
	free(msg);
	assert_null(final);
	held_dir_close(&hd);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/11", root.buf);
	assert_false(is_dir(want.buf));

	strbuf_release(&root);
	strbuf_release(&tmp);
	strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_result_base),
		cmocka_unit_test_setup_teardown(test_run_dir_numbering, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
