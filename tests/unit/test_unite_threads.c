/* Unit tests of unite's second thread (src/result/unite.c): avg.json and
 * stddev.json rendered in it, or, without a thread (none to be had, or
 * none asked for), one after the other: the same files either way; and
 * what a file that cannot be written leaves. */
#include "test_helpers.h"
#include "test_spawn.h"
#include "result/unite.h"
#include "util/fileio.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

TEST_TMPDIR("unite")

/* Root TAG's two runs; ret_want: what uniting them with opts returns. */
static void unite_runs(const char *tag, const struct unite_opts *opts, int ret_want)
{
	struct strbuf p = STRBUF_INIT, d0 = STRBUF_INIT, d1 = STRBUF_INIT;
	const char *s0 = "{\"a.x\": 1, \"a.y\": 2.5, \"a.z\": 0}";
	const char *s1 = "{\"a.y\": 3.25, \"a.x\": 4, \"a.w\": 7}";

	strbuf_addf(&d0, "%s/%s/0", tmpdir, tag);
	strbuf_addf(&d1, "%s/%s/1", tmpdir, tag);
	assert_int_equal(mkdir_p(d0.buf, 0755), 0);
	assert_int_equal(mkdir_p(d1.buf, 0755), 0);
	strbuf_addf(&p, "%s/stats.json", d0.buf);
	assert_int_equal(write_file_atomic(p.buf, s0, strlen(s0)), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/stats.json", d1.buf);
	assert_int_equal(write_file_atomic(p.buf, s1, strlen(s1)), 0);
	char *dirs[] = { d0.buf, d1.buf };
	assert_int_equal(unite_run_dirs_opts(dirs, 2, opts), ret_want);
	strbuf_release(&p);
	strbuf_release(&d0);
	strbuf_release(&d1);
}

static const char *const names[] = { "matrix.json", "avg.json", "stddev.json" };

/* Unite root TAG's two runs with opts; its three files, concatenated. */
static void unite_with(const char *tag, const struct unite_opts *opts, struct strbuf *files)
{
	struct strbuf p = STRBUF_INIT;

	unite_runs(tag, opts, 0);
	for (int i = 0; i < 3; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s/%s", tmpdir, tag, names[i]);
		assert_int_equal(read_file_maybe_gz(files, p.buf, NULL), 0);
		strbuf_addf(files, "--\n");
	}
	strbuf_release(&p);
}

/* What root TAG holds besides its runs and lock: "matrix.json avg.json" */
static void root_files(const char *tag, struct strbuf *out)
{
	struct strbuf cmd = STRBUF_INIT;
	FILE *f;
	char line[256];

	strbuf_reset(out);
	strbuf_addf(&cmd, "ls -A %s/%s | grep -v '^[01]$' | grep -v '^.unite.lock$'", tmpdir, tag);
	f = popen(cmd.buf, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		strbuf_addf(out, "%s%s", out->len ? " " : "", line);
	}
	pclose(f);
	strbuf_release(&cmd);
}

/*
 * A temp name that is taken (here by a directory) is gone around, not
 * reused (fileio.h's temp_file_create), and what is there stays.  A file
 * that cannot be committed (avg.json is a directory with something in
 * it): the files before it are written, it and the later ones are not.
 */
static void test_write_failures(void **state)
{
	const struct unite_opts threads = { spawn_ok };
	struct strbuf p = STRBUF_INIT, msg = STRBUF_INIT, ls = STRBUF_INIT;
	struct stderr_capture cap;
	(void)state;

	strbuf_addf(&p, "%s/o/avg.json.tmp.%ld", tmpdir, (long)getpid());
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	capture_start(&cap);
	unite_runs("o", &threads, 0);
	capture_end_sb(&cap, &msg);
	assert_string_equal(msg.buf, "");
	root_files("o", &ls);
	strbuf_addstr(&msg, "avg.json ");
	strbuf_addstr(&msg, p.buf + strlen(tmpdir) + 3);
	strbuf_addstr(&msg, " matrix.json stddev.json");
	assert_string_equal(ls.buf, msg.buf);   /* the three, and the obstacle */
	assert_true(is_dir(p.buf));

	strbuf_reset(&p);
	strbuf_addf(&p, "%s/c/avg.json/x", tmpdir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	capture_start(&cap);
	unite_runs("c", &threads, -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "cannot write '"));
	assert_non_null(strstr(msg.buf, "/c/avg.json': "));
	root_files("c", &ls);
	assert_string_equal(ls.buf, "avg.json matrix.json");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/c/avg.json", tmpdir);
	assert_true(is_dir(p.buf));
	strbuf_release(&p);
	strbuf_release(&msg);
	strbuf_release(&ls);
}

static void test_thread_or_not_same_files(void **state)
{
	const struct unite_opts threads = { spawn_ok }, fails = { spawn_fails }, serial = { NULL };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT, want = STRBUF_INIT;
	char *p;

	(void)state;
	*spawn_calls() = 0;
	unite_with("t", &threads, &a);
	assert_int_equal(*spawn_calls(), 1);     /* one root written, one thread */
	unite_with("f", &fails, &b);
	assert_int_equal(*spawn_calls(), 2);
	unite_with("s", &serial, &c);
	assert_int_equal(*spawn_calls(), 2);
	/* the files name their runs: make the three trees' paths alike */
	for (struct strbuf *sb = &b; sb; sb = sb == &b ? &c : NULL)
		while ((p = strstr(sb->buf, sb == &b ? "/f/" : "/s/")))
			p[1] = 't';
	assert_string_equal(a.buf, b.buf);
	assert_string_equal(a.buf, c.buf);
	/* and they are right: a.w new in run 1, zero in run 0 */
	strbuf_addf(&want, "{\n  \"a.x\": [\n    1,\n    4\n  ],\n  \"a.y\": [\n    2.5,\n    3.25\n  ],\n"
		    "  \"a.w\": [\n    0,\n    7\n  ],\n  \"stats_source\": [\n"
		    "    \"%s/t/0/stats.json\",\n    \"%s/t/1/stats.json\"\n  ]\n}\n--\n"
		    "{\n  \"a.x\": 2.5,\n  \"a.y\": 2.875,\n  \"a.w\": 3.5\n}\n--\n"
		    "{\n  \"a.x\": 1.5,\n  \"a.y\": 0.375,\n  \"a.w\": 3.5\n}\n--\n", tmpdir, tmpdir);
	assert_string_equal(a.buf, want.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	strbuf_release(&want);
}

/* A unite killed while writing left temp files: the next unite of the
 * root removes those whose process is gone, and only those. */
static void test_dead_temps(void **state)
{
	const struct unite_opts threads = { spawn_ok };
	struct strbuf p = STRBUF_INIT, ls = STRBUF_INIT, want = STRBUF_INIT;
	pid_t dead = fork();
	(void)state;

	assert_true(dead >= 0);
	if (!dead)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	strbuf_addf(&p, "%s/k", tmpdir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/k/matrix.json.tmp.%ld", tmpdir, (long)dead);
	assert_int_equal(write_file_atomic(p.buf, "{", 1), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/k/avg.json.tmp.%ld", tmpdir, (long)getppid());
	assert_int_equal(write_file_atomic(p.buf, "{", 1), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/k/stddev.json.tmp.%ldx", tmpdir, (long)dead);
	assert_int_equal(write_file_atomic(p.buf, "{", 1), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/k/other.json.tmp.%ld", tmpdir, (long)dead);
	assert_int_equal(write_file_atomic(p.buf, "{", 1), 0);
	unite_runs("k", &threads, 0);
	root_files("k", &ls);
	strbuf_addf(&want, "avg.json avg.json.tmp.%ld matrix.json other.json.tmp.%ld stddev.json "
		    "stddev.json.tmp.%ldx", (long)getppid(), (long)dead, (long)dead);
	assert_string_equal(ls.buf, want.buf);
	strbuf_release(&p);
	strbuf_release(&ls);
	strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_or_not_same_files),
		cmocka_unit_test(test_write_failures),
		cmocka_unit_test(test_dead_temps),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
