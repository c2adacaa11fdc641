#ifndef PERFBOT_TEST_HELPERS_H
#define PERFBOT_TEST_HELPERS_H
/*
 * Shared by the cmocka unit tests in tests/unit/test_*.c: each file is one
 * test binary (found by the Makefile's wildcard) whose main() runs
 * cmocka_run_group_tests.
 *
 * CONFORMANCE_DIR is ../shared/conformance relative to the project root;
 * tests that read it call skip_without_conformance() first, which prints
 * why and skips when the folder is absent -- or fails where
 * $PERFBOT_REQUIRE names "conformance" (make check-full, CI).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/strbuf.h"
#include "util/fileio.h"

/* A fresh directory /tmp/perfbot-test-<name>.XXXXXX (free the name). */
static inline char *test_tmpdir(const char *name)
{
	char tmpl[128];

	snprintf(tmpl, sizeof(tmpl), "/tmp/perfbot-test-%s.XXXXXX", name);
	assert_non_null(mkdtemp(tmpl));
	return strdup(tmpl);
}

/*
 * The fixtures of a test group sharing one temp dir: TEST_TMPDIR("x")
 * defines `tmpdir` (/tmp/perfbot-test-x.XXXXXX while the tests run) and
 * the cmocka setup and teardown that make and remove it, tmpdir_setup
 * and tmpdir_teardown.
 */
#define TEST_TMPDIR(name) \
	static char *tmpdir; \
	static int tmpdir_setup(void **state) \
	{ \
		(void)state; \
		tmpdir = test_tmpdir(name); \
		return 0; \
	} \
	static int tmpdir_teardown(void **state) \
	{ \
		(void)state; \
		test_rm_rf(tmpdir); \
		free(tmpdir); \
		tmpdir = NULL; \
		return 0; \
	}

/* rm -rf dir, which must work. */
static inline void test_rm_rf(const char *dir)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
}

/* The number of entries of dir ("." and ".." not counted). */
static inline int test_dir_size(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/*
 * What another user who can write a shared result root does to a run
 * dir, without timing: test_dir_moved makes <top>/run and holds it in
 * hd, renames it to <top>/moved and puts a symbolic link <top>/run ->
 * <top>/victim in its place (victim: an empty dir, standing for one of
 * root's).  A write through hd must land in moved, and none in victim
 * (test_dir_size(m->victim.buf) == 0); hd.path is still ".../run".
 */
struct moved_dir {
	char *top;
	struct strbuf run, moved, victim;
	struct held_dir hd;
};

static inline void test_dir_moved(struct moved_dir *m, const char *name)
{
	m->top = test_tmpdir(name);
	strbuf_init(&m->run, 0);
	strbuf_init(&m->moved, 0);
	strbuf_init(&m->victim, 0);
	path_join(&m->run, m->top, "run");
	path_join(&m->moved, m->top, "moved");
	path_join(&m->victim, m->top, "victim");
	assert_int_equal(held_dir_make(&m->hd, m->run.buf, 0755), 0);
	assert_int_equal(mkdir(m->victim.buf, 0755), 0);
	assert_int_equal(rename(m->run.buf, m->moved.buf), 0);
	assert_int_equal(symlink(m->victim.buf, m->run.buf), 0);
}

static inline void test_dir_moved_release(struct moved_dir *m)
{
	held_dir_close(&m->hd);
	test_rm_rf(m->top);
	free(m->top);
	strbuf_release(&m->run);
	strbuf_release(&m->moved);
	strbuf_release(&m->victim);
}

static inline const char *conformance_dir(void)
{
	const char *d = getenv("PERFBOT_CONFORMANCE");
	return d ? d : "../shared/conformance";
}

/*
 * Whether the space-separated words of $PERFBOT_REQUIRE hold what: the
 * test that needs it then fails instead of skipping (as tests/t/lib.sh's
 * test_required does for the e2e scripts).
 */
static inline int test_required(const char *what)
{
	const char *p = getenv("PERFBOT_REQUIRE");
	size_t n = strlen(what);

	while (p && *p) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (len == n && !strncmp(p, what, n))
			return 1;
		p += len;
	}
	return 0;
}

/*
 * Skip the current test, with a message, when the conformance data is
 * missing; fail it instead where PERFBOT_REQUIRE names conformance.
 */
#define skip_without_conformance() do { \
	if (!is_dir(conformance_dir())) { \
		if (test_required("conformance")) \
			fail_msg("%s not found, but PERFBOT_REQUIRE wants conformance", \
				 conformance_dir()); \
		print_message("skipped: %s not found\n", conformance_dir()); \
		skip(); \
	} \
} while (0)

/* Read a file relative to the conformance dir into sb (fails the test on error). */
static inline void read_conformance(struct strbuf *sb, const char *rel)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", conformance_dir(), rel);
	assert_int_equal(read_file(sb, path.buf), 0);
	strbuf_release(&path);
}

/*
 * Capture what error()/warning() print on stderr between start and end:
 *
 *     struct stderr_capture cap;
 *     capture_start(&cap);
 *     ...code under test...
 *     char *msg = capture_end(&cap);   // you now own msg (free() it)
 */
struct stderr_capture {
	int saved_fd;
	FILE *file;
};

static inline void capture_start(struct stderr_capture *c)
{
	fflush(stderr);
	c->file = tmpfile();
	assert_non_null(c->file);
	c->saved_fd = dup(2);
	assert_true(c->saved_fd >= 0);
	assert_true(dup2(fileno(c->file), 2) >= 0);
}

/* End the capture, replacing sb's content with what was printed. */
static inline void capture_end_sb(struct stderr_capture *c, struct strbuf *sb)
{
	char buf[4096];
	size_t n;

	fflush(stderr);
	assert_true(dup2(c->saved_fd, 2) >= 0);
	close(c->saved_fd);
	rewind(c->file);
	strbuf_reset(sb);
	while ((n = fread(buf, 1, sizeof(buf), c->file)) > 0)
		strbuf_add(sb, buf, n);
	fclose(c->file);
}

static inline char *capture_end(struct stderr_capture *c)
{
	struct strbuf sb = STRBUF_INIT;

	capture_end_sb(c, &sb);
	return strbuf_detach(&sb, NULL);
}

#endif
