/*
 * lab/remote.c's journal: a batch whose "submitted" line is missing (a
 * kill between the queue's COMMIT and the journal's fsync) is found again
 * in the queue by its reference, once; a bad line is one error naming
 * the journal's file and line.
 */
#include "lab_helpers.h"
#include "lab/queue.h"
#include "lab/remote.h"

TEST_TMPDIR("lab-remote")

static char *journal_with(const char *name, const char *text)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", tmpdir, name);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	return strbuf_detach(&p, NULL);
}

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(read_file(&sb, path), 0);
	return strbuf_detach(&sb, NULL);
}

static long long queue(struct pg *db, const char *commit, const char *ref)
{
	struct queue_job j = { "a.yaml", "testcase: t\n", commit, NULL, NULL, NULL, 5, 1, 3, ref };
	long long id;

	assert_int_equal(queue_submit(db, &j, &id), 0);
	return id;
}

static void assert_entry(struct lab_remote *r, int i, long long id, const char *commit,
			 bool fetched)
{
	assert_true(i < r->nr);
	assert_int_equal(r->e[i].id, id);
	assert_string_equal(r->e[i].commit, commit);
	assert_int_equal(r->e[i].fetched, fetched);
}

/* Batch r1 was committed (ids 1, 2) but its "queued" lines never written;
 * r2 (id 3) is whole; r3 never reached the queue.  Opened, the journal
 * takes 1 and 2 under r1's commit and closes r1 and r3; opened again, it
 * asks nothing more and writes nothing. */
static void test_open_adopts_a_batch_the_journal_lacks(void **state)
{
	char *db = lab_test_db(), *url = lab_test_conninfo(db, TEST_SUBMITTER), *path, *text;
	struct pg sub = PG_INIT;
	struct lab_remote r;

	lab_test_open(&sub, db, TEST_SUBMITTER);
	assert_int_equal(queue(&sub, "c0ffee", "r1"), 1);
	assert_int_equal(queue(&sub, "c0ffee", "r1"), 2);
	assert_int_equal(queue(&sub, "beef", "r2"), 3);
	assert_int_equal(queue(&sub, "c0ffee", NULL), 4);   /* no batch: not ours to take */
	pg_close(&sub);
	path = journal_with("adopt", "submit r2 beef\nqueued 3 beef\nsubmitted r2\nfetched 3\n"
			    "submit r1 c0ffee\nsubmit r3 dead\n");

	assert_int_equal(lab_remote_open(&r, url, path), 0);
	assert_int_equal(r.nr, 3);
	assert_entry(&r, 0, 3, "beef", true);
	assert_entry(&r, 1, 1, "c0ffee", false);
	assert_entry(&r, 2, 2, "c0ffee", false);
	assert_int_equal(r.nr_unsure, 0);
	lab_remote_release(&r);
	text = slurp(path);
	assert_string_equal(text, "submit r2 beef\nqueued 3 beef\nsubmitted r2\nfetched 3\n"
			    "submit r1 c0ffee\nsubmit r3 dead\n"
			    "submitted r3\nqueued 1 c0ffee\nqueued 2 c0ffee\nsubmitted r1\n");

	assert_int_equal(lab_remote_open(&r, url, path), 0);
	assert_int_equal(r.nr, 3);
	assert_int_equal(r.nr_unsure, 0);
	lab_remote_release(&r);
	char *again = slurp(path);
	assert_string_equal(again, text);
	free(again);
	free(text);
	free(path);
	free(url);
	free(db);
}

/* A "queued" line already there for an id of an unsure batch (killed
 * between two "queued" lines) is not taken twice. */
static void test_open_takes_the_rest_of_a_cut_batch(void **state)
{
	char *db = lab_test_db(), *url = lab_test_conninfo(db, TEST_SUBMITTER), *path, *text;
	struct pg sub = PG_INIT;
	struct lab_remote r;

	lab_test_open(&sub, db, TEST_SUBMITTER);
	queue(&sub, "c0ffee", "r1");
	queue(&sub, "c0ffee", "r1");
	pg_close(&sub);
	path = journal_with("cut", "submit r1 c0ffee\nqueued 1 c0ffee\n");
	assert_int_equal(lab_remote_open(&r, url, path), 0);
	assert_int_equal(r.nr, 2);
	assert_entry(&r, 0, 1, "c0ffee", false);
	assert_entry(&r, 1, 2, "c0ffee", false);
	lab_remote_release(&r);
	text = slurp(path);
	assert_string_equal(text, "submit r1 c0ffee\nqueued 1 c0ffee\nqueued 2 c0ffee\n"
			    "submitted r1\n");
	free(text);
	free(path);
	free(url);
	free(db);
}

/* Each bad line, its own journal: refused before any connection, with
 * the file and line. */
static void test_bad_lines(void **state)
{
	static const char *bad[] = {
		"submit r1\n",                 /* no commit */
		"submit r1 c0ffee extra\n",
		"submitted\n",
		"submitted r1 extra\n",
		"submittedr1\n",
		"submitx r1 c0ffee\n",
		"queued 1\n",
		"queued 1 c0ffee extra\n",
		"fetched 1 extra\n",
		"submit 0123456789abcdef0123456789abcdef0 c0ffee\n",   /* a ref too long */
	};
	struct lab_remote r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
		struct stderr_capture cap;
		char *path, *msg;

		strbuf_addf(&text, "submit r0 aa\nqueued 1 aa\n%s", bad[i]);
		path = journal_with("bad", text.buf);
		capture_start(&cap);
		/* no server: the journal is read before the connection */
		assert_int_equal(lab_remote_open(&r, "postgresql:///none?host=/nonexistent", path),
				 -1);
		msg = capture_end(&cap);
		strbuf_addf(&want, "%s:3: expected 'submit REF COMMIT', 'queued ID COMMIT', "
			    "'submitted REF' or 'fetched ID'", path);
		if (!strstr(msg, want.buf))
			fail_msg("line '%s': got '%s'", bad[i], msg);
		lab_remote_release(&r);
		free(msg);
		free(path);
		strbuf_release(&want);
		strbuf_release(&text);
	}
}

/* A journal planted as a link (to a file of root's, say) is refused,
 * read and written alike; the file it names is untouched. */
static void test_journal_link_refused(void **state)
{
	struct strbuf link = STRBUF_INIT;
	struct lab_remote r;
	struct stderr_capture cap;
	char *target = journal_with("target", "secret\n"), *msg, *text;
	(void)state;

	strbuf_addf(&link, "%s/planted", tmpdir);
	assert_int_equal(symlink(target, link.buf), 0);
	capture_start(&cap);
	assert_int_equal(lab_remote_open(&r, "postgresql:///none?host=/nonexistent", link.buf), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "it is a symbolic link"));
	assert_null(strstr(msg, "secret"));
	lab_remote_release(&r);
	text = slurp(target);
	assert_string_equal(text, "secret\n");
	free(text);
	free(msg);
	free(target);
	strbuf_release(&link);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_adopts_a_batch_the_journal_lacks),
		cmocka_unit_test(test_open_takes_the_rest_of_a_cut_batch),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_journal_link_refused),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
