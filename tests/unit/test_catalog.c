/*
 * test_catalog.c: src/job/catalog.c, an lkp catalog's files asked about
 * once: the answers are those of stat, access and reading the file, and
 * a second question does not reach the file system.
 */
#include "test_helpers.h"

#include <sys/stat.h>

#include "job/catalog.h"
#include "job/split.h"
#include "util/xalloc.h"

TEST_TMPDIR("catalog")

/* tmpdir/rel with text and mode (directories made as needed) */
static void put(const char *rel, const char *text, mode_t mode)
{
	struct strbuf p = STRBUF_INIT;
	char *slash;

	strbuf_addf(&p, "%s/%s", tmpdir, rel);
	slash = strrchr(p.buf, '/');
	*slash = 0;
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	assert_int_equal(chmod(p.buf, mode), 0);
	strbuf_release(&p);
}

static const char *path(struct strbuf *sb, const char *rel)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", tmpdir, rel);
	return sb->buf;
}

static void test_mode_and_access(void **state)
{
	const char *dirs[] = { tmpdir, NULL };
	struct job_catalog c;
	struct strbuf p = STRBUF_INIT;

	(void)state;
	put("programs/fio/run", "#!/bin/sh\n", 0755);
	put("programs/fio/setup", "#!/bin/sh\n", 0644);
	job_catalog_init(&c, dirs);
	assert_true(job_catalog_active(&c));
	assert_true(S_ISREG(job_catalog_mode(&c, path(&p, "programs/fio/run"))));
	assert_true(S_ISDIR(job_catalog_mode(&c, path(&p, "programs/fio"))));
	assert_int_equal(job_catalog_mode(&c, path(&p, "programs/none")), 0);
	assert_true(job_catalog_access_x(&c, path(&p, "programs/fio/run")));
	assert_false(job_catalog_access_x(&c, path(&p, "programs/none/run")));

	/* remembered: what changes afterwards is not seen by this catalog */
	put("programs/none/run", "#!/bin/sh\n", 0755);
	assert_int_equal(chmod(path(&p, "programs/fio/run"), 0644), 0);
	assert_int_equal(job_catalog_mode(&c, path(&p, "programs/none")), 0);
	assert_false(job_catalog_access_x(&c, path(&p, "programs/none/run")));
	assert_true(job_catalog_access_x(&c, path(&p, "programs/fio/run")));
	job_catalog_release(&c);

	/* a new one sees it */
	job_catalog_init(&c, dirs);
	assert_true(S_ISDIR(job_catalog_mode(&c, path(&p, "programs/none"))));
	assert_true(job_catalog_access_x(&c, path(&p, "programs/none/run")));
	job_catalog_release(&c);
	strbuf_release(&p);
}

static void test_programs(void **state)
{
	static const char *const run[] = { "run", NULL };
	static const char *const scripts[] = { "setup", "run", "daemon", NULL };
	const char *dirs[] = { "/nonexistent-perfbot-dir", tmpdir, NULL };
	struct job_catalog c;
	struct strbuf dir = STRBUF_INIT, want = STRBUF_INIT;

	(void)state;
	put("programs/exec/run", "#!/bin/sh\n", 0755);
	put("programs/plain/run", "#!/bin/sh\n", 0644);     /* not executable */
	put("programs/rundir/run/x", "", 0644);             /* run is a folder */
	put("programs/daemon/daemon", "#!/bin/sh\n", 0700);
	job_catalog_init(&c, dirs);
	/* the second include dir holds it: the first is passed over */
	assert_true(job_catalog_program_dir(&c, "exec", &dir));
	strbuf_addf(&want, "%s/programs/exec", tmpdir);
	assert_string_equal(dir.buf, want.buf);
	assert_false(job_catalog_program_dir(&c, "absent", &dir));
	assert_int_equal(dir.len, 0);
	/* names that would leave programs/ are no programs */
	assert_false(job_catalog_program_dir(&c, "", &dir));
	assert_false(job_catalog_program_dir(&c, "..", &dir));
	assert_false(job_catalog_program_dir(&c, "exec/..", &dir));

	assert_true(job_catalog_has_script(&c, "exec", run));
	assert_false(job_catalog_has_script(&c, "plain", run));
	assert_false(job_catalog_has_script(&c, "rundir", run));
	assert_false(job_catalog_has_script(&c, "daemon", run));
	assert_true(job_catalog_has_script(&c, "daemon", scripts));
	assert_false(job_catalog_has_script(&c, ".", scripts));
	assert_false(job_catalog_has_script(&c, "", scripts));
	job_catalog_release(&c);

	/* no include dir: no catalog, no program */
	{
		const char *none[] = { NULL };
		job_catalog_init(&c, none);
		assert_false(job_catalog_active(&c));
		assert_false(job_catalog_program_dir(&c, "exec", &dir));
		assert_false(job_catalog_has_script(&c, "exec", run));
		job_catalog_release(&c);
	}
	strbuf_release(&dir);
	strbuf_release(&want);
}

static void test_lkp_src(void **state)
{
	struct job_catalog c;
	char *old = getenv("LKP_SRC") ? xstrdup(getenv("LKP_SRC")) : NULL;

	(void)state;
	setenv("LKP_SRC", tmpdir, 1);
	job_catalog_init(&c, NULL);
	assert_true(job_catalog_active(&c));
	assert_string_equal(c.dirs[0], tmpdir);
	assert_null(c.dirs[1]);
	job_catalog_release(&c);
	setenv("LKP_SRC", "", 1);
	job_catalog_init(&c, NULL);
	assert_false(job_catalog_active(&c));
	job_catalog_release(&c);
	if (old)
		setenv("LKP_SRC", old, 1);
	else
		unsetenv("LKP_SRC");
	free(old);
}

static void test_read(void **state)
{
	const char *dirs[] = { tmpdir, NULL };
	struct job_catalog c;
	struct strbuf p = STRBUF_INIT;
	struct stderr_capture cap;
	const char *text, *again;
	size_t len;
	char *msg;

	(void)state;
	put("params/disk", "/(\\d+)HDD/\t{ nr_hdd: $1.to_i }\n", 0644);
	job_catalog_init(&c, dirs);
	assert_int_equal(job_catalog_read(&c, path(&p, "params/disk"), &text, &len), 0);
	assert_string_equal(text, "/(\\d+)HDD/\t{ nr_hdd: $1.to_i }\n");
	assert_int_equal(len, strlen(text));
	put("params/disk", "changed\n", 0644);
	assert_int_equal(job_catalog_read(&c, path(&p, "params/disk"), &again, &len), 0);
	assert_ptr_equal(again, text);

	/* a failed read says why each time it is asked, and is not kept */
	capture_start(&cap);
	assert_int_equal(job_catalog_read(&c, path(&p, "params/none"), &text, &len), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "params/none"));
	free(msg);
	put("params/none", "now\n", 0644);
	capture_start(&cap);
	assert_int_equal(job_catalog_read(&c, path(&p, "params/none"), &text, &len), 0);
	msg = capture_end(&cap);
	assert_string_equal(msg, "");
	assert_string_equal(text, "now\n");
	free(msg);
	job_catalog_release(&c);
	strbuf_release(&p);
}

static void test_script_options(void **state)
{
	const char *dirs[] = { tmpdir, NULL };
	struct job_catalog c;
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	const struct job_option *o;
	size_t nr;

	(void)state;
	strbuf_addstr(&text, "#!/bin/sh\n# - nr_threads\n# = test\n# - bad name\n#- x\n");
	/* a line longer than the reader's 511 bytes comes in pieces, and a
	 * piece may read as a header line, as with lkp's reader */
	strbuf_addch(&text, '#');
	for (int i = 1; i < 511; i++)
		strbuf_addch(&text, 'x');
	strbuf_addstr(&text, "# - piece\n# - dots.and_under1\n\n# - after_empty\n");
	put("programs/x/run", text.buf, 0755);
	job_catalog_init(&c, dirs);
	o = job_catalog_script_options(&c, path(&p, "programs/x/run"), &nr);
	assert_int_equal(nr, 4);
	assert_string_equal(o[0].name, "nr_threads");
	assert_int_equal(o[0].type, '-');
	assert_string_equal(o[1].name, "test");
	assert_int_equal(o[1].type, '=');
	assert_string_equal(o[2].name, "piece");
	assert_string_equal(o[3].name, "dots.and_under1");
	/* asked again: the same, not read again */
	put("programs/x/run", "# - other\n", 0755);
	assert_ptr_equal(job_catalog_script_options(&c, path(&p, "programs/x/run"), &nr), o);
	assert_int_equal(nr, 4);
	/* a script that cannot be opened declares nothing */
	o = job_catalog_script_options(&c, path(&p, "programs/x/none"), &nr);
	assert_int_equal(nr, 0);
	job_catalog_release(&c);
	strbuf_release(&p);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_and_access),
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_lkp_src),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_script_options),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
