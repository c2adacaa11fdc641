/* Unit tests of git_run (src/git/git.c), the one way perfbot runs git:
 * -C, stdout, a quiet probe's exit code, an error with git's reason,
 * stderr into a file, and -vv's trace. */
#include "test_helpers.h"
#include "git/git.h"
#include "git/checkout.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <unistd.h>

TEST_TMPDIR("git")

static char *repo;

static int setup(void **state)
{
	struct strbuf cmd = STRBUF_INIT;

	tmpdir_setup(state);
	repo = xmalloc(strlen(tmpdir) + 8);
	sprintf(repo, "%s/repo", tmpdir);
	strbuf_addf(&cmd, "git init -q %s && git -C %s -c user.name=t -c user.email=t@t "
		    "commit -q --allow-empty -m first", repo, repo);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	return 0;
}

static int teardown(void **state)
{
	free(repo);
	return tmpdir_teardown(state);
}

static void test_out_appended(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct git_cmd g = { .dir = repo, .out = &out };

	(void)state;
	strbuf_addstr(&out, "kept:");
	assert_int_equal(git_runl(&g, "log", "-1", "--format=%s", NULL), 0);
	assert_string_equal(out.buf, "kept:first\n");
	strbuf_release(&out);
}

/* no dir: perfbot's cwd, as a clone between absolute paths runs */
static void test_no_dir(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct git_cmd g = { .out = &out };
	const char *args[] = { "-C", repo, "rev-parse", "--is-inside-work-tree", NULL };

	(void)state;
	assert_int_equal(git_run(&g, args), 0);
	assert_string_equal(out.buf, "true\n");
	strbuf_release(&out);
}

/* without what: git's own exit code, nothing printed */
static void test_quiet_probe(void **state)
{
	struct git_cmd g = { .dir = repo };
	struct stderr_capture cap;
	char *msg;

	(void)state;
	capture_start(&cap);
	int rc = git_runl(&g, "cat-file", "-e", "0123456789012345678901234567890123456789", NULL);
	msg = capture_end(&cap);
	assert_int_equal(rc, 1);
	assert_string_equal(msg, "");
	free(msg);
	g.dir = tmpdir;          /* no repository: git says 128 */
	capture_start(&cap);
	rc = git_runl(&g, "rev-parse", "--git-dir", NULL);
	msg = capture_end(&cap);
	assert_int_equal(rc, 128);
	assert_string_equal(msg, "");
	free(msg);
}

/* with what: -1 and one line that ends with git's reason */
static void test_what_names_the_reason(void **state)
{
	struct git_cmd g = { .dir = repo, .what = "cannot check out nope" };
	struct stderr_capture cap;
	char *msg;

	(void)state;
	capture_start(&cap);
	int rc = git_runl(&g, "checkout", "-q", "nope", NULL);
	msg = capture_end(&cap);
	assert_int_equal(rc, -1);
	assert_true(!strncmp(msg, "perfbot: cannot check out nope: ", 32));
	assert_non_null(strstr(msg + 32, "nope"));
	assert_int_equal(strchr(msg, '\n') - msg, (long)strlen(msg) - 1);
	free(msg);
	/* success prints nothing and is 0, not git's code */
	capture_start(&cap);
	rc = git_runl(&g, "rev-parse", "HEAD", NULL);
	msg = capture_end(&cap);
	assert_int_equal(rc, 0);
	assert_string_equal(msg, "");
	free(msg);
}

static void test_err_path(void **state)
{
	struct strbuf path = STRBUF_INIT, log = STRBUF_INIT;
	struct git_cmd g = { .dir = repo };

	(void)state;
	strbuf_addf(&path, "%s/git.log", tmpdir);
	g.err_path = path.buf;
	assert_int_equal(git_runl(&g, "checkout", "-q", "nope", NULL), 1);
	assert_int_equal(read_file(&log, path.buf), 0);
	assert_non_null(strstr(log.buf, "nope"));
	strbuf_release(&path);
	strbuf_release(&log);
}

/* -vv: git's stderr and the command with its exit code */
static void test_verbose_trace(void **state)
{
	struct git_cmd g = { .dir = repo, .verbose = 2 };
	struct stderr_capture cap;
	struct strbuf want = STRBUF_INIT;
	char *msg;

	(void)state;
	capture_start(&cap);
	int rc = git_runl(&g, "checkout", "-q", "nope", NULL);
	msg = capture_end(&cap);
	assert_int_equal(rc, 1);
	strbuf_addf(&want, "perfbot: git -C %s checkout -q nope -> 1\n", repo);
	assert_true(strlen(msg) > want.len);
	assert_string_equal(msg + strlen(msg) - want.len, want.buf);
	assert_non_null(strstr(msg, "error: pathspec"));
	free(msg);
	g.verbose = 1;           /* -v alone says nothing of git */
	capture_start(&cap);
	git_runl(&g, "checkout", "-q", "nope", NULL);
	msg = capture_end(&cap);
	assert_string_equal(msg, "");
	free(msg);
	strbuf_release(&want);
}

/* git that cannot be run at all: -1 whatever what says */
static void test_no_git(void **state)
{
	struct git_cmd g = { .dir = repo };
	char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	int rc;

	(void)state;
	setenv("PATH", "/nonexistent", 1);
	rc = git_runl(&g, "status", NULL);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	/* exec fails in the child: 127, as a shell says */
	assert_int_equal(rc, 127);
}

/* The names of dir's HEAD~1 and HEAD, into first and second. */
static void two_heads(const char *dir, struct strbuf *first, struct strbuf *second)
{
	struct git_cmd g = { .dir = dir, .out = first };

	assert_int_equal(git_runl(&g, "rev-parse", "HEAD~1", NULL), 0);
	g.out = second;
	assert_int_equal(git_runl(&g, "rev-parse", "HEAD", NULL), 0);
	strbuf_rtrim(first);
	strbuf_rtrim(second);
}

/* A worktree's index.lock left by a git killed with perfbot: a later
 * checkout takes it as a dead git's, removes it and goes on. */
static void test_checkout_stale_lock(void **state)
{
	struct strbuf cmd = STRBUF_INIT, wt = STRBUF_INIT, logs = STRBUF_INIT,
		      lock = STRBUF_INIT, head = STRBUF_INIT, first = STRBUF_INIT,
		      second = STRBUF_INIT;
	struct git_cmd g = { .dir = repo };
	struct checkout c;

	(void)state;
	strbuf_addf(&cmd, "git -C %s -c user.name=t -c user.email=t@t commit -q --allow-empty "
		    "-m second", repo);
	assert_int_equal(system(cmd.buf), 0);
	two_heads(repo, &first, &second);
	strbuf_addf(&wt, "%s/wt", tmpdir);
	strbuf_addf(&logs, "%s/logs", tmpdir);
	checkout_init(&c, repo, wt.buf, NULL, logs.buf);
	c.lock_wait = 0.2;
	assert_int_equal(checkout_prepare(&c, first.buf), 0);
	strbuf_addf(&lock, "%s/.git/worktrees/wt/index.lock", repo);
	assert_int_equal(write_file_atomic(lock.buf, "", 0), 0);
	assert_int_equal(checkout_prepare(&c, second.buf), 0);
	assert_false(file_exists(lock.buf));
	g.dir = wt.buf;
	g.out = &head;
	assert_int_equal(git_runl(&g, "rev-parse", "HEAD", NULL), 0);
	strbuf_rtrim(&head);
	assert_string_equal(head.buf, second.buf);
	checkout_release(&c);
	strbuf_release(&cmd);
	strbuf_release(&wt);
	strbuf_release(&logs);
	strbuf_release(&lock);
	strbuf_release(&head);
	strbuf_release(&first);
	strbuf_release(&second);
}

/* A worktree left half checked out by a git killed with perfbot: a
 * tracked file changed, a file of the next commit already there,
 * untracked.  The worktree is perfbot's own, so the next checkout
 * overwrites both instead of aborting (kill -9, then bisect --resume). */
static void test_checkout_torn_tree(void **state)
{
	struct strbuf cmd = STRBUF_INIT, r = STRBUF_INIT, wt = STRBUF_INIT, logs = STRBUF_INIT,
		      p = STRBUF_INIT, text = STRBUF_INIT, first = STRBUF_INIT, second = STRBUF_INIT;
	struct checkout c;

	(void)state;
	strbuf_addf(&r, "%s/torn", tmpdir);
	strbuf_addf(&cmd, "git init -q %s && cd %s && echo a >F && git add F && "
		    "git -c user.name=t -c user.email=t@t commit -q -m one && "
		    "echo b >F && echo g >G && git add F G && "
		    "git -c user.name=t -c user.email=t@t commit -q -m two", r.buf, r.buf);
	assert_int_equal(system(cmd.buf), 0);
	two_heads(r.buf, &first, &second);
	strbuf_addf(&wt, "%s/torn-wt", tmpdir);
	strbuf_addf(&logs, "%s/torn-logs", tmpdir);
	checkout_init(&c, r.buf, wt.buf, NULL, logs.buf);
	c.lock_wait = 0.2;
	assert_int_equal(checkout_prepare(&c, first.buf), 0);
	strbuf_addf(&p, "%s/F", wt.buf);
	assert_int_equal(write_file_atomic(p.buf, "half\n", 5), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/G", wt.buf);
	assert_int_equal(write_file_atomic(p.buf, "in the way\n", 11), 0);
	assert_int_equal(checkout_prepare(&c, second.buf), 0);
	assert_int_equal(read_file(&text, p.buf), 0);
	assert_string_equal(text.buf, "g\n");
	strbuf_reset(&p);
	strbuf_reset(&text);
	strbuf_addf(&p, "%s/F", wt.buf);
	assert_int_equal(read_file(&text, p.buf), 0);
	assert_string_equal(text.buf, "b\n");
	checkout_release(&c);
	strbuf_release(&cmd);
	strbuf_release(&r);
	strbuf_release(&wt);
	strbuf_release(&logs);
	strbuf_release(&p);
	strbuf_release(&text);
	strbuf_release(&first);
	strbuf_release(&second);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_appended),
		cmocka_unit_test(test_no_dir),
		cmocka_unit_test(test_quiet_probe),
		cmocka_unit_test(test_what_names_the_reason),
		cmocka_unit_test(test_err_path),
		cmocka_unit_test(test_verbose_trace),
		cmocka_unit_test(test_no_git),
		cmocka_unit_test(test_checkout_stale_lock),
		cmocka_unit_test(test_checkout_torn_tree),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
