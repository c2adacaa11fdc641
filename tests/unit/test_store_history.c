/* Unit tests of src/store/history.c and src/git/git.c: a metric along a
 * real git repository's first-parent line, from a store filled here. */
#include "test_helpers.h"
#include "store/history.h"
#include "store/job_filter.h"
#include "store/store.h"
#include "result/matrix.h"
#include "git/git.h"
#include "util/xalloc.h"

#include <math.h>

TEST_TMPDIR("hist")
static char repo[128], dbpath[128];
/* the line's commits, oldest first: c1 c2 c3 merge c4 c5; side s1 merged */
static char line[6][41], side[41];

static void sh(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_addf(&cmd, "cd %s && ", repo);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	strbuf_addstr(&cmd, " >/dev/null 2>&1");
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
}

static void head_sha(char *out)
{
	struct strbuf cmd = STRBUF_INIT;
	strbuf_addf(&cmd, "git -C %s rev-parse HEAD", repo);
	FILE *f = popen(cmd.buf, "r");
	assert_non_null(f);
	assert_non_null(fgets(out, 41, f));
	pclose(f);
	strbuf_release(&cmd);
}

static int setup(void **state)
{
	tmpdir_setup(state);
	snprintf(repo, sizeof(repo), "%s/repo", tmpdir);
	snprintf(dbpath, sizeof(dbpath), "%s/p.db", tmpdir);
	return 0;
}

static void make_repo(void)
{
	struct strbuf cmd = STRBUF_INIT;
	strbuf_addf(&cmd, "mkdir -p %s && git init -q -b master %s", repo, repo);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	sh("git config user.email t@t && git config user.name t");
	sh("echo 1 >f && git add f && git commit -qm 'commit one'");
	head_sha(line[0]);
	sh("echo 2 >f && git commit -qam 'commit two' && git tag v1.0");
	head_sha(line[1]);
	sh("echo 3 >f && git commit -qam 'commit three' && git tag -a v1.1 -m 'annotated' && git tag zz-also");
	head_sha(line[2]);
	sh("git checkout -qb side && echo s >g && git add g && git commit -qm 'side one'");
	head_sha(side);
	sh("git checkout -q master && git merge -q --no-ff -m 'merge side' side");
	head_sha(line[3]);
	sh("echo 4 >f && git commit -qam 'commit four'");
	head_sha(line[4]);
	/* a tag of a tree is no commit: left out */
	sh("git tag tree-tag HEAD^{tree}");
	sh("echo 5 >f && git commit -qam 'commit five'");
	head_sha(line[5]);
	/* a branch whose one new commit was never tested */
	sh("git checkout -qb fresh && echo 6 >f && git commit -qam 'fresh' && git checkout -q master");
}

static const char *const job_a[SJ_NR] = { "bench", "pp", "box", "fs", "kc", "cc" };
static const char *const job_b[SJ_NR] = { "bench", "other", "box", "fs", "kc", "cc" };

/* Store a root for rev with the given samples of "bench.score". */
static void put(struct store *s, const char *const *job, const char *rev, const double *v, int n,
		int incomplete_run)
{
	struct matrix mx;
	struct store_run runs[8];
	struct store_root r;
	char path[256];
	static int seq;

	matrix_init(&mx);
	for (int k = 0; k < n; k++) {
		struct matrix col;
		matrix_init(&col);
		col.ncols = 1;
		struct metric *m = matrix_get_or_add(&col, "bench.score");
		m->v[0] = v[k];
		matrix_add_column(&mx, &col, NULL);
		matrix_release(&col);
		runs[k].number = k;
		runs[k].incomplete = k == incomplete_run;
		runs[k].path = "p";
	}
	snprintf(path, sizeof(path), "/r/%d/%s", seq++, rev);
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < SJ_NR; i++)
		r.job[i] = job[i];
	r.rev = rev;
	r.path = path;
	r.signature = "";
	r.runs = runs;
	r.nr_runs = n;
	r.mx = &mx;
	assert_int_equal(store_put_root(s, &r), 0);
	matrix_release(&mx);
}

static struct store *fill(void)
{
	struct store *s;
	char abbrev[8];

	make_repo();
	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	assert_int_equal(store_begin(s), 0);
	put(s, job_a, line[0], (double[]){ 10, 12 }, 2, -1);
	put(s, job_a, "v1.0", (double[]){ 20 }, 1, -1);              /* a tag name */
	snprintf(abbrev, sizeof(abbrev), "%.7s", line[2]);
	put(s, job_a, abbrev, (double[]){ 30, 31, 99 }, 3, 2);        /* 7 hex digits; run 2 incomplete */
	put(s, job_a, side, (double[]){ 5 }, 1, -1);                  /* merged in: off the line */
	put(s, job_a, line[5], (double[]){ 50, 52, 54 }, 3, -1);
	put(s, job_a, line[5], (double[]){ 56 }, 1, -1);              /* a second root, same commit */
	put(s, job_a, "6.1.0-13-amd64", (double[]){ 1 }, 1, -1);      /* uname -r: no commit */
	put(s, job_b, line[4], (double[]){ 7 }, 1, -1);
	assert_int_equal(store_commit(s), 0);
	return s;
}

static void test_git_helpers(void **state)
{
	struct git_commit *c;
	struct git_ref *r;
	int nr;
	char *sha;
	(void)state;
	make_repo();
	assert_int_equal(git_first_parent(repo, "master", 0, &c, &nr), 0);
	assert_int_equal(nr, 6);
	for (int i = 0; i < 6; i++)
		assert_string_equal(c[i].sha, line[i]);
	assert_string_equal(c[3].subject, "merge side");
	git_commits_release(c, nr);
	assert_int_equal(git_first_parent(repo, "master", 2, &c, &nr), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(c[0].sha, line[4]);
	git_commits_release(c, nr);

	assert_int_equal(git_refs(repo, "refs/tags", &r, &nr), 0);
	assert_int_equal(nr, 3);                 /* the tree's tag left out */
	assert_string_equal(r[0].name, "v1.0");
	assert_string_equal(r[0].sha, line[1]);
	assert_string_equal(r[1].name, "v1.1");  /* annotated: peeled */
	assert_string_equal(r[1].sha, line[2]);
	assert_string_equal(r[2].name, "zz-also");
	git_refs_release(r, nr);

	assert_int_equal(git_resolve_commit(repo, "v1.1", &sha), 0);
	assert_string_equal(sha, line[2]);
	free(sha);
	assert_int_equal(git_resolve_commit(repo, "nope", &sha), 1);
	assert_null(sha);
	/* an option-looking name is a name, not an option */
	assert_int_equal(git_resolve_commit(repo, "--all", &sha), 1);
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(git_resolve_commit(tmpdir, "HEAD", &sha), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "is not a git repository"));
	free(msg);
}

static void test_history_points(void **state)
{
	struct history h;
	struct history_query q = { repo, "master", "bench.score", "bench/pp", NULL, 0, 0 };
	(void)state;
	struct store *s = fill();

	assert_int_equal(history_load(s, &q, &h), 0);
	assert_string_equal(h.head, line[5]);
	assert_int_equal(h.nr_commits, 6);
	assert_string_equal(h.job.field[SJ_PATH_PARAMS], "pp");
	/* c1 (full sha), c2 (tag name), c3 (abbreviated), c5 (two roots) */
	assert_int_equal(h.nr, 4);
	assert_int_equal(h.points[0].pos, 0);
	assert_int_equal(h.points[0].n, 2);
	assert_true(h.points[0].mean == 11);
	assert_true(fabs(h.points[0].stddev - sqrt(2)) < 1e-12);   /* n - 1 */
	assert_string_equal(h.points[0].subject, "commit one");
	assert_int_equal(h.points[1].pos, 1);
	assert_true(h.points[1].stddev == 0);                       /* one run */
	assert_int_equal(h.points[1].nr_tags, 1);
	assert_string_equal(h.points[1].tags[0], "v1.0");
	assert_int_equal(h.points[2].pos, 2);
	assert_int_equal(h.points[2].n, 2);                         /* incomplete left out */
	assert_true(h.points[2].samples[1] == 31);
	assert_int_equal(h.points[2].nr_tags, 2);
	assert_string_equal(h.points[2].tags[1], "zz-also");
	assert_int_equal(h.points[3].pos, 5);
	assert_int_equal(h.points[3].n, 4);
	/* by root, then run */
	assert_true(h.points[3].samples[0] == 50 && h.points[3].samples[3] == 56);
	assert_int_equal(h.incomplete_runs, 1);
	assert_int_equal(h.off_line_roots, 2);                      /* side, uname */
	assert_int_equal(h.nr_tags, 3);
	assert_string_equal(h.tags[1].name, "v1.1");
	assert_int_equal(h.tags[1].pos, 2);
	history_release(&h);

	/* the newest 2 commits only */
	q.limit = 2;
	assert_int_equal(history_load(s, &q, &h), 0);
	assert_int_equal(h.nr_commits, 2);
	assert_int_equal(h.nr, 1);
	assert_int_equal(h.points[0].pos, 1);
	assert_int_equal(h.nr_tags, 0);
	history_release(&h);

	/* the other job by --param; a job of one commit */
	q.limit = 0;
	q.job = NULL;
	const char *params[] = { "path_params=other" };
	q.params = params;
	q.nr_params = 1;
	assert_int_equal(history_load(s, &q, &h), 0);
	assert_int_equal(h.nr, 1);
	assert_int_equal(h.points[0].pos, 4);
	history_release(&h);
	store_close(s);
}

static char *load_fails(struct store *s, const struct history_query *q)
{
	struct history h;
	struct stderr_capture cap;
	capture_start(&cap);
	int r = history_load(s, q, &h);
	char *msg = capture_end(&cap);
	if (r != -1)
		print_message("expected a failure, got %d\n", r);
	assert_int_equal(r, -1);
	assert_int_equal(h.nr, 0);
	assert_null(h.points);
	assert_int_equal(strchr(msg, '\n') - msg, (long)strlen(msg) - 1);
	return msg;
}

static void test_history_errors(void **state)
{
	struct history_query q = { repo, "master", "bench.score", NULL, NULL, 0, 0 };
	char *msg;
	(void)state;
	struct store *s = fill();

	/* two jobs hold the metric on the line */
	msg = load_fails(s, &q);
	assert_non_null(strstr(msg, "'bench.score' is stored for 2 jobs on 'master'"));
	assert_non_null(strstr(msg, "bench/other/box/fs/kc/cc, bench/pp/box/fs/kc/cc"));
	free(msg);
	q.branch = "nope";
	msg = load_fails(s, &q);
	assert_non_null(strstr(msg, "no branch or commit 'nope' in"));
	free(msg);
	q.branch = "master";
	q.metric = "no.such";
	msg = load_fails(s, &q);
	assert_non_null(strstr(msg, "metric 'no.such' is not in the store"));
	free(msg);
	q.metric = "bench.score";
	q.job = "nobench";
	msg = load_fails(s, &q);
	assert_non_null(strstr(msg, "no stored results of 'bench.score' for the job given"));
	free(msg);
	/* a branch whose newest commit was never tested */
	q.job = "bench/pp";
	q.branch = "fresh";
	q.limit = 1;
	msg = load_fails(s, &q);
	assert_non_null(strstr(msg, "none of the 1 commits of 'fresh'"));
	free(msg);
	q.limit = 0;
	q.branch = "master";
	q.repo = tmpdir;
	msg = load_fails(s, &q);
	assert_non_null(strstr(msg, "is not a git repository"));
	free(msg);
	store_close(s);
}

/* A job whose runs are all incomplete is no candidate for the line. */
static void test_history_incomplete_job(void **state)
{
	struct history h;
	struct history_query q = { repo, "master", "bench.score", NULL, NULL, 0, 0 };
	struct store *s;
	char *msg;
	(void)state;

	make_repo();
	assert_int_equal(store_open(&s, dbpath, STORE_CREATE), 0);
	assert_int_equal(store_begin(s), 0);
	put(s, job_a, line[1], (double[]){ 10, 11 }, 2, -1);
	put(s, job_b, line[2], (double[]){ 7 }, 1, 0);
	put(s, job_b, line[3], (double[]){ 8 }, 1, 0);
	assert_int_equal(store_commit(s), 0);

	/* not "stored for 2 jobs": the one with complete runs is chosen */
	assert_int_equal(history_load(s, &q, &h), 0);
	assert_int_equal(h.nr, 1);
	assert_int_equal(h.points[0].pos, 1);
	assert_int_equal(h.points[0].n, 2);
	history_release(&h);
	/* named, it has no point to show */
	q.job = "bench/other";
	msg = load_fails(s, &q);
	assert_non_null(strstr(msg, "has a complete run of 'bench.score'"));
	free(msg);
	store_close(s);
}

static void test_job_filter(void **state)
{
	struct store_job_filter f;
	struct store_job_info ji;
	struct store_param params[1] = { { "fs", "xfs" } };
	char *fields[SJ_NR] = { "mytest", "3s", "box", "deb", "kc", "gcc" };
	struct stderr_capture cap;
	(void)state;
	memset(&ji, 0, sizeof(ji));
	memcpy(ji.field, fields, sizeof(fields));
	ji.params = params;
	ji.nr_params = 1;

	const char *good[] = { "fs=xfs", "tbox_group=box" };
	assert_int_equal(store_job_filter_init(&f, "mytest", "mytest/3s", good, 2), 0);
	assert_true(store_job_filter_match(&f, &ji));
	store_job_filter_release(&f);
	assert_int_equal(store_job_filter_init(&f, NULL, "mytest", NULL, 0), 0);
	assert_true(store_job_filter_match(&f, &ji));
	store_job_filter_release(&f);
	/* a testcase prefix is not the testcase; path_params must be whole */
	const char *no_jobs[] = { "my", "mytest/3", "mytest/3s/box", "mytes/3s" };
	for (size_t i = 0; i < sizeof(no_jobs) / sizeof(no_jobs[0]); i++) {
		assert_int_equal(store_job_filter_init(&f, NULL, no_jobs[i], NULL, 0), 0);
		assert_false(store_job_filter_match(&f, &ji));
		store_job_filter_release(&f);
	}
	const char *bad_param[] = { "fs=ext4" };
	assert_int_equal(store_job_filter_init(&f, NULL, NULL, bad_param, 1), 0);
	assert_false(store_job_filter_match(&f, &ji));
	store_job_filter_release(&f);
	const char *missing[] = { "nr_threads=4" };
	assert_int_equal(store_job_filter_init(&f, NULL, NULL, missing, 1), 0);
	assert_false(store_job_filter_match(&f, &ji));
	store_job_filter_release(&f);
	assert_int_equal(store_job_filter_init(&f, "other", NULL, NULL, 0), 0);
	assert_false(store_job_filter_match(&f, &ji));
	store_job_filter_release(&f);
	/* K=V forms */
	const char *malformed[] = { "fs", "=xfs" };
	for (int i = 0; i < 2; i++) {
		capture_start(&cap);
		int r = store_job_filter_init(&f, NULL, NULL, malformed + i, 1);
		char *msg = capture_end(&cap);
		assert_int_equal(r, -1);
		assert_non_null(strstr(msg, "--param expects KEY=VALUE"));
		free(msg);
	}
	/* "K=" asks for an empty value */
	const char *empty[] = { "kconfig=" };
	assert_int_equal(store_job_filter_init(&f, NULL, NULL, empty, 1), 0);
	assert_false(store_job_filter_match(&f, &ji));
	store_job_filter_release(&f);

	/* a job file: its atomic jobs' testcase/path_params */
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/j.yaml", tmpdir);
	const char *yaml = "testcase: mytest\nruntime: [3s, 5s]\n";
	assert_int_equal(write_file_atomic(path.buf, yaml, strlen(yaml)), 0);
	assert_int_equal(store_job_filter_init(&f, NULL, path.buf, NULL, 0), 0);
	assert_int_equal(f.nr_names, 2);
	assert_string_equal(f.names[0], "mytest/3s");
	assert_string_equal(f.names[1], "mytest/5s");
	assert_true(store_job_filter_match(&f, &ji));
	store_job_filter_release(&f);
	strbuf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_git_helpers, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_history_points, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_history_errors, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_history_incomplete_job, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_job_filter, setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
