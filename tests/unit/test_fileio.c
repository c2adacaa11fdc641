/* Unit tests of src/util/fileio.c's pieces for large files: atomic_file
 * (a file written in pieces, committed or dropped whole) and file_text
 * (a file mapped, or read when it cannot be). */
#include "test_helpers.h"
#include "util/fileio.h"

#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

TEST_TMPDIR("fileio")

/* How many entries tmpdir holds. */
static int entries(void)
{
	struct strbuf cmd = STRBUF_INIT;
	FILE *f;
	int n = -1;

	strbuf_addf(&cmd, "ls -A %s | wc -l", tmpdir);
	f = popen(cmd.buf, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &n), 1);
	pclose(f);
	strbuf_release(&cmd);
	return n;
}

static void path_in(struct strbuf *p, const char *name)
{
	strbuf_reset(p);
	path_join(p, tmpdir, name);
}

static void test_atomic_file_pieces(void **state)
{
	struct strbuf p = STRBUF_INIT, back = STRBUF_INIT;
	struct atomic_file af;
	(void)state;

	path_in(&p, "f");
	assert_int_equal(write_file_atomic(p.buf, "old", 3), 0);
	assert_int_equal(atomic_file_open(&af, p.buf), 0);
	atomic_file_write(&af, "one,", 4);
	atomic_file_write(&af, "", 0);
	atomic_file_write(&af, "two", 3);
	/* until the commit, readers see the old file */
	assert_int_equal(read_file(&back, p.buf), 0);
	assert_string_equal(back.buf, "old");
	assert_int_equal(entries(), 2);         /* f and its temp file */
	assert_int_equal(atomic_file_commit(&af), 0);
	strbuf_reset(&back);
	assert_int_equal(read_file(&back, p.buf), 0);
	assert_string_equal(back.buf, "one,two");
	assert_int_equal(entries(), 1);

	/* abort: the old file stays, the temp file goes */
	assert_int_equal(atomic_file_open(&af, p.buf), 0);
	atomic_file_write(&af, "new", 3);
	atomic_file_abort(&af);
	strbuf_reset(&back);
	assert_int_equal(read_file(&back, p.buf), 0);
	assert_string_equal(back.buf, "one,two");
	assert_int_equal(entries(), 1);
	strbuf_release(&p);
	strbuf_release(&back);
}

static void test_atomic_file_errors(void **state)
{
	struct strbuf p = STRBUF_INIT, back = STRBUF_INIT, msg = STRBUF_INIT;
	struct stderr_capture cap;
	struct atomic_file af;
	struct rlimit old, small;
	(void)state;

	/* a write that fails (past RLIMIT_FSIZE: EFBIG) is reported at the
	 * commit, once, and the old file stays */
	path_in(&p, "g");
	assert_int_equal(write_file_atomic(p.buf, "old", 3), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 4;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(atomic_file_open(&af, p.buf), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	atomic_file_write(&af, "abcd", 4);
	atomic_file_write(&af, "efgh", 4);      /* fails: the file is at its limit */
	atomic_file_write(&af, "ijkl", 4);      /* not tried after a failure */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	capture_start(&cap);
	assert_int_equal(atomic_file_commit(&af), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "cannot write '"));
	assert_non_null(strstr(msg.buf, "/g': File too large"));
	assert_null(strstr(strstr(msg.buf, "File too large") + 1, "cannot write"));
	assert_int_equal(read_file(&back, p.buf), 0);
	assert_string_equal(back.buf, "old");
	assert_int_equal(entries(), 1);

	/* a rename that fails (onto a directory that is not empty) */
	path_in(&p, "d/x");
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	path_in(&p, "d");
	assert_int_equal(atomic_file_open(&af, p.buf), 0);
	atomic_file_write(&af, "x", 1);
	capture_start(&cap);
	assert_int_equal(atomic_file_commit(&af), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "/d': "));
	assert_true(is_dir(p.buf));
	assert_int_equal(entries(), 2);         /* g and d: no temp file */

	/* commit_all: in order, stopping at the first that fails (h2 is a
	 * directory with something in it); the later ones are dropped */
	{
		struct atomic_file three[3];
		const char *names[] = { "h1", "h2", "h3" };

		path_in(&p, "h2/x");
		assert_int_equal(mkdir_p(p.buf, 0755), 0);
		for (int i = 0; i < 3; i++) {
			path_in(&p, names[i]);
			assert_int_equal(atomic_file_open(&three[i], p.buf), 0);
			atomic_file_write(&three[i], names[i], 2);
		}
		atomic_file_sync(&three[0]);
		atomic_file_sync(&three[0]);    /* once is enough, twice harmless */
		capture_start(&cap);
		assert_int_equal(atomic_file_commit_all(three, 3), -1);
		capture_end_sb(&cap, &msg);
		assert_non_null(strstr(msg.buf, "/h2': "));
		assert_null(strstr(msg.buf, "h3"));
		path_in(&p, "h1");
		strbuf_reset(&back);
		assert_int_equal(read_file(&back, p.buf), 0);
		assert_string_equal(back.buf, "h1");
		path_in(&p, "h3");
		assert_false(file_exists(p.buf));
		assert_int_equal(entries(), 4);         /* g, d, h1, h2: no temp file */
	}

	/* an open that fails names the file, not its temp file */
	path_in(&p, "none/f");
	capture_start(&cap);
	assert_int_equal(atomic_file_open(&af, p.buf), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "/none/f': No such file or directory"));
	strbuf_release(&p);
	strbuf_release(&back);
	strbuf_release(&msg);
}

static void write_gz(const char *path, const char *text)
{
	gzFile gz = gzopen(path, "wb");

	assert_non_null(gz);
	assert_int_equal(gzputs(gz, text), (int)strlen(text));
	assert_int_equal(gzclose(gz), Z_OK);
}

/* path (packed.json) opens as packed.json.gz's text, gunzipped into
 * memory, quietly when err is not NULL. */
static void expect_packed(const char *path, struct strbuf *err)
{
	struct file_text ft;
	char *used = NULL;

	assert_int_equal(err ? file_text_open_quiet(&ft, path, &used, err) :
			 file_text_open(&ft, path, &used), 0);
	assert_null(ft.map);
	assert_int_equal(ft.len, 8);
	assert_memory_equal(ft.text, "{\"b\": 2}", 8);
	assert_non_null(strstr(used, "/packed.json.gz"));
	free(used);
	file_text_release(&ft);
}

static void test_file_text(void **state)
{
	struct strbuf p = STRBUF_INIT, msg = STRBUF_INIT;
	struct stderr_capture cap;
	struct file_text ft;
	char *used = NULL;
	(void)state;

	/* a plain file is mapped: the same bytes, not NUL-terminated */
	path_in(&p, "plain.json");
	assert_int_equal(write_file_atomic(p.buf, "{\"a\": 1}", 8), 0);
	assert_int_equal(file_text_open(&ft, p.buf, &used), 0);
	assert_non_null(ft.map);
	assert_int_equal(ft.len, 8);
	assert_memory_equal(ft.text, "{\"a\": 1}", 8);
	assert_string_equal(used, p.buf);
	free(used);
	used = NULL;
	file_text_release(&ft);
	assert_null(ft.map);
	assert_int_equal(ft.len, 0);

	/* an empty file cannot be mapped: read, "" */
	path_in(&p, "empty.json");
	assert_int_equal(write_file_atomic(p.buf, "", 0), 0);
	assert_int_equal(file_text_open(&ft, p.buf, NULL), 0);
	assert_null(ft.map);
	assert_int_equal(ft.len, 0);
	assert_string_equal(ft.text, "");
	file_text_release(&ft);

	/* only the .gz exists: it is found and gunzipped */
	path_in(&p, "packed.json.gz");
	write_gz(p.buf, "{\"b\": 2}");
	path_in(&p, "packed.json");
	expect_packed(p.buf, NULL);

	/* neither: read_file_maybe_gz's message, *used NULL, safe release */
	path_in(&p, "none.json");
	capture_start(&cap);
	assert_int_equal(file_text_open(&ft, p.buf, &used), -1);
	capture_end_sb(&cap, &msg);
	assert_null(used);
	assert_non_null(strstr(msg.buf, "none.json': No such file or directory"));
	file_text_release(&ft);

	/* quietly: the same text; the message that would be printed is kept
	 * in err instead */
	{
		struct strbuf err = STRBUF_INIT;

		path_in(&p, "packed.json");
		expect_packed(p.buf, &err);
		path_in(&p, "plain.json");
		assert_int_equal(file_text_open_quiet(&ft, p.buf, NULL, &err), 0);
		assert_non_null(ft.map);
		file_text_release(&ft);
		assert_string_equal(err.buf, "");
		capture_start(&cap);
		path_in(&p, "none.json");
		assert_int_equal(file_text_open_quiet(&ft, p.buf, &used, &err), -1);
		assert_null(used);
		file_text_release(&ft);
		assert_non_null(strstr(err.buf, "cannot read '"));
		assert_non_null(strstr(err.buf, "/none.json': No such file or directory"));
		path_in(&p, "quiet.d");
		assert_int_equal(mkdir_p(p.buf, 0755), 0);
		assert_int_equal(file_text_open_quiet(&ft, p.buf, NULL, &err), -1);
		file_text_release(&ft);
		assert_non_null(strstr(err.buf, "/quiet.d': Is a directory"));
		capture_end_sb(&cap, &msg);
		assert_string_equal(msg.buf, "");
		strbuf_release(&err);
	}

	/* a directory named so: an error, as read_file gives */
	path_in(&p, "dir.json");
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	capture_start(&cap);
	assert_int_equal(file_text_open(&ft, p.buf, &used), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "Is a directory"));
	free(used);
	file_text_release(&ft);
	strbuf_release(&p);
	strbuf_release(&msg);
}

/* path's text, which must be text. */
static void expect_text(const char *path, const char *text)
{
	struct strbuf back = STRBUF_INIT;

	assert_int_equal(read_file(&back, path), 0);
	assert_string_equal(back.buf, text);
	strbuf_release(&back);
}

/* The temp name "<tmpdir>/<name>.tmp.<our pid>". */
static void our_temp(struct strbuf *p, const char *name)
{
	path_in(p, name);
	strbuf_addf(p, ".tmp.%ld", (long)getpid());
}

/*
 * A shared result tree: another user planted a link at the temp name
 * root will use, or left a file there.  Neither is written through or
 * truncated; the file still comes out whole.
 */
static void test_atomic_file_planted(void **state)
{
	struct strbuf p = STRBUF_INIT, victim = STRBUF_INIT, t = STRBUF_INIT;
	struct stat st;
	(void)state;

	path_in(&victim, "victim");
	assert_int_equal(write_file_atomic(victim.buf, "secret", 6), 0);

	/* a link at "<f>.tmp.<pid>": not followed, left alone */
	our_temp(&t, "f");
	assert_int_equal(symlink(victim.buf, t.buf), 0);
	path_in(&p, "f");
	assert_int_equal(write_file_atomic(p.buf, "new", 3), 0);
	expect_text(p.buf, "new");
	expect_text(victim.buf, "secret");
	assert_int_equal(lstat(t.buf, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	/* a file at the temp name (a stale temp, or a hard link to a file
	 * of root's): not truncated, not written */
	our_temp(&t, "g");
	assert_int_equal(link(victim.buf, t.buf), 0);
	path_in(&p, "g");
	assert_int_equal(write_file_atomic(p.buf, "new", 3), 0);
	expect_text(p.buf, "new");
	expect_text(t.buf, "secret");
	expect_text(victim.buf, "secret");

	/* a dangling link (O_CREAT would make its target) */
	our_temp(&t, "h");
	path_in(&p, "made-through-link");
	assert_int_equal(symlink(p.buf, t.buf), 0);
	path_in(&p, "h");
	assert_int_equal(write_file_atomic(p.buf, "new", 3), 0);
	path_in(&p, "made-through-link");
	assert_false(file_exists(p.buf));

	/* a link at the final name is replaced by the rename, not followed */
	path_in(&p, "i");
	assert_int_equal(symlink(victim.buf, p.buf), 0);
	assert_int_equal(write_file_atomic(p.buf, "new", 3), 0);
	assert_int_equal(lstat(p.buf, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	expect_text(p.buf, "new");
	expect_text(victim.buf, "secret");

	/* the second name is "<f>.tmp.<pid>.<8 hex>", a new file */
	{
		struct strbuf tmp = STRBUF_INIT;
		int fd;

		path_in(&p, "f");
		fd = temp_file_create(&tmp, p.buf);
		assert_true(fd >= 0);
		close(fd);
		our_temp(&t, "f");
		assert_int_equal(strncmp(tmp.buf, t.buf, t.len), 0);
		assert_int_equal(tmp.len, t.len + 9);
		assert_int_equal(tmp.buf[t.len], '.');
		assert_int_equal(strspn(tmp.buf + t.len + 1, "0123456789abcdef"), 8);
		unlink(tmp.buf);
		strbuf_release(&tmp);
	}
	strbuf_release(&p);
	strbuf_release(&victim);
	strbuf_release(&t);
}

/* Locks and logs that are kept: a link or a FIFO at the name is refused. */
static void test_open_nofollow(void **state)
{
	struct strbuf p = STRBUF_INIT, victim = STRBUF_INIT, msg = STRBUF_INIT;
	struct stderr_capture cap;
	int fd;
	(void)state;

	path_in(&victim, "victim");
	assert_int_equal(write_file_atomic(victim.buf, "secret", 6), 0);
	path_in(&p, "lock");
	assert_int_equal(symlink(victim.buf, p.buf), 0);
	capture_start(&cap);
	assert_int_equal(open_nofollow(p.buf, O_RDWR | O_CREAT, "lock"), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "cannot lock '"));
	assert_non_null(strstr(msg.buf, "/lock': it is a symbolic link (refusing to follow it)\n"));
	assert_ptr_equal(strchr(msg.buf, '\n'), msg.buf + msg.len - 1);  /* one line */

	path_in(&p, "fifo");
	assert_int_equal(mkfifo(p.buf, 0644), 0);
	capture_start(&cap);
	assert_int_equal(open_nofollow(p.buf, O_WRONLY | O_APPEND | O_CREAT, "append to"), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "/fifo': not a regular file"));

	path_in(&p, "log");
	fd = open_nofollow(p.buf, O_WRONLY | O_APPEND | O_CREAT, "append to");
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a\n", 2), 2);
	close(fd);
	expect_text(p.buf, "a\n");
	expect_text(victim.buf, "secret");
	strbuf_release(&p);
	strbuf_release(&victim);
	strbuf_release(&msg);
}

/* A run's or a fetch's dir is new: never a link, never another's dir. */
static void test_mkdir_fresh(void **state)
{
	struct strbuf p = STRBUF_INIT, other = STRBUF_INIT;
	(void)state;

	path_in(&other, "elsewhere");
	assert_int_equal(mkdir_p(other.buf, 0755), 0);
	path_in(&p, ".run-0.1");
	assert_int_equal(symlink(other.buf, p.buf), 0);
	assert_int_equal(mkdir_fresh(p.buf, 0755), 1);
	assert_int_equal(mkdir_fresh(other.buf, 0755) == 0, 1);        /* ours: made anew */

	/* a real dir of ours (a dead run of our pid): removed, made anew */
	path_in(&p, ".run-1.1/stale");
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	path_in(&p, ".run-1.1");
	assert_int_equal(mkdir_fresh(p.buf, 0755), 0);
	assert_true(is_dir(p.buf));
	strbuf_addstr(&p, "/stale");
	assert_false(file_exists(p.buf));

	/* a file there is not ours to remove */
	path_in(&p, "file");
	assert_int_equal(write_file_atomic(p.buf, "x", 1), 0);
	assert_int_equal(mkdir_fresh(p.buf, 0755), 1);
	expect_text(p.buf, "x");

	path_in(&p, "new");
	assert_int_equal(mkdir_fresh(p.buf, 0755), 0);
	assert_true(is_dir(p.buf));
	strbuf_release(&p);
	strbuf_release(&other);
}

/*
 * The attack on a run dir, step by step rather than timed: another user
 * who can write the result root renames the fresh dir away between its
 * making and its files, and plants a link with its name to a dir of
 * theirs.  Every file goes into the dir that was made (now "moved"),
 * nothing through the link into "victim", and the dir is not published:
 * its name leads to the link, not to it.
 */
static void test_held_dir_planted_link(void **state)
{
	struct strbuf run = STRBUF_INIT, moved = STRBUF_INIT, victim = STRBUF_INIT;
	struct strbuf p = STRBUF_INIT, to = STRBUF_INIT;
	struct stderr_capture cap;
	struct atomic_file af;
	struct held_dir hd;
	char *msg;
	int fd;
	(void)state;

	path_in(&run, ".run-0.1");
	path_in(&moved, "moved");
	path_in(&victim, "victim");
	path_in(&to, "0");
	assert_int_equal(mkdir_p(victim.buf, 0755), 0);
	assert_int_equal(held_dir_make(&hd, run.buf, 0755), 0);
	assert_string_equal(hd.path, run.buf);
	assert_int_equal(rename(run.buf, moved.buf), 0);
	assert_int_equal(symlink(victim.buf, run.buf), 0);

	assert_int_equal(held_dir_write(&hd, "stats.json", "{}", 2), 0);
	assert_int_equal(atomic_file_open_in(&af, &hd, "last_state"), 0);
	atomic_file_write(&af, "x: 1\n", 5);
	assert_int_equal(atomic_file_commit(&af), 0);
	fd = held_dir_create(&hd, "mytest");
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "out\n", 4), 4);
	close(fd);
	fd = held_dir_open_read(&hd, "mytest");
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(test_dir_size(victim.buf), 0);
	path_in(&p, "moved/stats.json");
	expect_text(p.buf, "{}");
	path_in(&p, "moved/last_state");
	expect_text(p.buf, "x: 1\n");
	path_in(&p, "moved/mytest");
	expect_text(p.buf, "out\n");

	/* a name taken is never opened: the file was there, or a link */
	capture_start(&cap);
	assert_int_equal(held_dir_create(&hd, "mytest"), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "cannot create '"));
	assert_non_null(strstr(msg, "/.run-0.1/mytest': File exists"));
	free(msg);
	path_in(&p, "moved/link");
	assert_int_equal(symlink(victim.buf, p.buf), 0);
	assert_int_equal(held_dir_open_read(&hd, "link"), -1);

	capture_start(&cap);
	assert_int_equal(held_dir_publish(&hd, to.buf), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "was replaced while in use"));
	free(msg);
	assert_false(file_exists(to.buf));
	assert_int_equal(test_dir_size(victim.buf), 0);

	/* its real name back: published, and written to under the new name */
	assert_int_equal(unlink(run.buf), 0);
	assert_int_equal(rename(moved.buf, run.buf), 0);
	assert_int_equal(held_dir_publish(&hd, to.buf), 0);
	assert_string_equal(hd.path, to.buf);
	assert_int_equal(held_dir_write(&hd, "perfbot.log", "", 0), 0);
	path_in(&p, "0/perfbot.log");
	assert_true(file_exists(p.buf));
	/* a taken name: 1, nothing said, nothing moved */
	path_in(&p, "1/x");
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	path_in(&p, "1");
	assert_int_equal(held_dir_publish(&hd, p.buf), 1);
	assert_string_equal(hd.path, to.buf);
	held_dir_close(&hd);
	held_dir_close(&hd);
	assert_null(hd.path);
	strbuf_release(&run);
	strbuf_release(&moved);
	strbuf_release(&victim);
	strbuf_release(&p);
	strbuf_release(&to);
}

/* A dir that exists, held (a result root for unite): never through a
 * link, its lock file neither; files land in it once it is renamed. */
static void test_held_dir_open(void **state)
{
	struct strbuf root = STRBUF_INIT, link = STRBUF_INIT, p = STRBUF_INIT;
	struct stderr_capture cap;
	struct held_dir hd;
	char *msg;
	int fd;
	(void)state;

	path_in(&root, "root");
	path_in(&link, "link");
	assert_int_equal(mkdir_p(root.buf, 0755), 0);
	assert_int_equal(symlink(root.buf, link.buf), 0);
	capture_start(&cap);
	assert_int_equal(held_dir_open(&hd, link.buf), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "cannot open directory '"));
	assert_non_null(strstr(msg, "/link': it is a symbolic link or not a directory"));
	free(msg);
	held_dir_close(&hd);

	assert_int_equal(held_dir_open(&hd, root.buf), 0);
	fd = held_dir_open_file(&hd, ".unite.lock", O_RDWR | O_CREAT, "lock");
	assert_true(fd >= 0);
	close(fd);
	path_in(&p, "root/.unite.lock");
	assert_true(file_exists(p.buf));
	path_in(&p, "root/planted");
	assert_int_equal(symlink(root.buf, p.buf), 0);
	capture_start(&cap);
	assert_int_equal(held_dir_open_file(&hd, "planted", O_RDWR | O_CREAT, "lock"), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "cannot lock '"));
	assert_non_null(strstr(msg, "/root/planted': it is a symbolic link"));
	free(msg);
	path_in(&p, "moved");
	assert_int_equal(rename(root.buf, p.buf), 0);
	assert_int_equal(held_dir_write(&hd, "matrix.json", "{}", 2), 0);
	path_in(&p, "moved/matrix.json");
	expect_text(p.buf, "{}");
	held_dir_close(&hd);
	strbuf_release(&root);
	strbuf_release(&link);
	strbuf_release(&p);
}

/* file_text reads only regular files, of at most FILE_TEXT_MAX bytes:
 * a stats.json linked to /dev/zero or a FIFO is an error, not RAM. */
static void test_file_text_bounds(void **state)
{
	struct strbuf p = STRBUF_INIT, msg = STRBUF_INIT;
	struct stderr_capture cap;
	struct file_text ft;
	int fd;
	(void)state;

	/* the FIFO first: a mutant that reads /dev/zero would eat RAM */
	path_in(&p, "fifo.json");
	assert_int_equal(mkfifo(p.buf, 0644), 0);
	capture_start(&cap);
	assert_int_equal(file_text_open(&ft, p.buf, NULL), -1);
	capture_end_sb(&cap, &msg);
	file_text_release(&ft);
	assert_non_null(strstr(msg.buf, "/fifo.json': not a regular file"));

	path_in(&p, "stats.json");
	assert_int_equal(symlink("/dev/zero", p.buf), 0);
	capture_start(&cap);
	assert_int_equal(file_text_open(&ft, p.buf, NULL), -1);
	capture_end_sb(&cap, &msg);
	file_text_release(&ft);
	assert_non_null(strstr(msg.buf, "/stats.json': not a regular file"));

	/* a sparse file past the bound: refused before it is read */
	path_in(&p, "huge.json");
	fd = open(p.buf, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)FILE_TEXT_MAX + 1), 0);
	close(fd);
	capture_start(&cap);
	assert_int_equal(file_text_open(&ft, p.buf, NULL), -1);
	capture_end_sb(&cap, &msg);
	file_text_release(&ft);
	assert_non_null(strstr(msg.buf, "/huge.json' is larger than 1 GiB"));
	strbuf_release(&p);
	strbuf_release(&msg);
}

/*
 * What a held dir gives the programs that open their files themselves
 * (perf, valgrind, QEMU), a subdir of it, a bounded read, and a removal:
 * the dir renamed away and a link planted at its name (test_dir_moved),
 * each still works in the dir held and nothing in the link's target.
 */
static void test_held_dir_moved_tools(void **state)
{
	struct strbuf p = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	struct stderr_capture cap;
	struct held_dir sub;
	struct moved_dir m;
	FILE *f;
	(void)state;

	test_dir_moved(&m, "fileio-moved");
	/* a program given the path writes into the dir held */
	held_dir_proc_path(&m.hd, "perf.data", &p);
	strbuf_addf(&want, "/proc/self/fd/%d/perf.data", m.hd.fd);
	assert_string_equal(p.buf, want.buf);
	assert_non_null(f = fopen(p.buf, "w"));
	fputs("data\n", f);
	assert_int_equal(fclose(f), 0);
	held_dir_proc_path(&m.hd, NULL, &p);
	strbuf_setlen(&want, want.len - strlen("/perf.data"));
	assert_string_equal(p.buf, want.buf);

	/* read back through the fd, bounded */
	assert_int_equal(held_dir_read(&m.hd, "perf.data", &got, 5), 0);
	assert_string_equal(got.buf, "data\n");
	strbuf_reset(&got);
	capture_start(&cap);
	assert_int_equal(held_dir_read(&m.hd, "perf.data", &got, 4), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "/run/perf.data' is larger than 4 bytes"));
	free(msg);
	capture_start(&cap);
	assert_int_equal(held_dir_read(&m.hd, "none", &got, 4), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "cannot read '"));
	assert_non_null(strstr(msg, "/run/none': No such file or directory"));
	free(msg);

	/* a new subdir, held in turn; made once only */
	assert_int_equal(held_dir_make_in(&sub, &m.hd, "cachegrind", 0755), 0);
	strbuf_reset(&want);
	path_join(&want, m.run.buf, "cachegrind");
	assert_string_equal(sub.path, want.buf);
	assert_int_equal(held_dir_write(&sub, "stdout", "x", 1), 0);
	held_dir_close(&sub);
	capture_start(&cap);
	assert_int_equal(held_dir_make_in(&sub, &m.hd, "cachegrind", 0755), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "/run/cachegrind': File exists"));
	free(msg);
	assert_int_equal(sub.fd, -1);
	held_dir_close(&sub);
	strbuf_reset(&p);
	path_join(&p, m.moved.buf, "cachegrind/stdout");
	assert_true(file_exists(p.buf));
	assert_int_equal(test_dir_size(m.victim.buf), 0);

	/* given up: what is in it goes, the name (the link) and what it
	 * leads to are left alone */
	assert_int_equal(held_dir_remove(&m.hd), 0);
	assert_int_equal(test_dir_size(m.moved.buf), 0);
	assert_true(is_dir(m.moved.buf));
	assert_true(is_dir(m.run.buf));
	/* its name leading to it again: removed whole */
	assert_int_equal(unlink(m.run.buf), 0);
	assert_int_equal(rename(m.moved.buf, m.run.buf), 0);
	assert_int_equal(held_dir_write(&m.hd, "x", "x", 1), 0);
	assert_int_equal(held_dir_remove(&m.hd), 0);
	assert_false(file_exists(m.run.buf));
	assert_int_equal(test_dir_size(m.top), 1);      /* victim */
	test_dir_moved_release(&m);
	strbuf_release(&p);
	strbuf_release(&want);
	strbuf_release(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_atomic_file_pieces, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_atomic_file_errors, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_file_text, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_atomic_file_planted, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_open_nofollow, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_mkdir_fresh, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_held_dir_planted_link, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_held_dir_open, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test(test_held_dir_moved_tools),
		cmocka_unit_test_setup_teardown(test_file_text_bounds, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
