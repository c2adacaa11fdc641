/*
 * unite.c: stats.json of runs -> matrix.json, avg.json, stddev.json.
 *
 * The runs of one call are grouped by _result_root: a root's matrix is
 * loaded when its first run comes, takes the columns of all its runs in
 * memory, and is written once, after its last run.  Uniting the runs one
 * by one (load, add a column, write three files with their fsyncs) made
 * ten runs of 30,000 metrics take seconds, most of it re-reading and
 * re-writing the same matrix.
 *
 * The files come out as if each run had been united by itself, in the
 * order given: the columns are applied one at a time in that order, with
 * lkp's all-zero rule after each, and when a run fails, every root is
 * written with the runs before it, which is what uniting them one by one
 * would have left.  A root's lock is held from its first run to its write.
 */
#include "result/unite.h"
#include "result/matrix.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/*
 * Roots open (locked, matrix in memory) at once.  Past this many, as
 * with runs of many roots interleaved, the root open longest is written
 * and unlocked early and re-read if another of its runs comes: the same
 * files, at the cost of the old way's extra write.
 */
#define MAX_OPEN_ROOTS 32

/* One run dir of the command line. */
struct run {
	char *real;             /* realpath, or NULL (errno in err) */
	int err;
	char *root;             /* its _result_root (the parent dir) */
	bool last;              /* no later run of the same root */
	int left;               /* runs of the same root from this one on */
};

/* A _result_root being united: held open (util/fileio.h), so that the
 * files are written in the dir that was locked, even when another user
 * who can write its parent renames it away and plants a link. */
struct root {
	char *dir;              /* borrowed from a struct run */
	struct held_dir hd;
	int lock_fd;
	struct matrix mx;
};

/* Let go of r's lock and its dir. */
static void release_root(struct root *r)
{
	close(r->lock_fd);      /* releases the flock */
	held_dir_close(&r->hd);
}

/* The root's three files, in the order they are committed. */
static const struct {
	const char *name;
	enum matrix_file which;
} root_files[] = {
	{ "matrix.json", MATRIX_FILE_MATRIX },
	{ "avg.json", MATRIX_FILE_AVG },
	{ "stddev.json", MATRIX_FILE_STDDEV },
};
#define NR_ROOT_FILES (sizeof(root_files) / sizeof(root_files[0]))

/* avg.json and stddev.json, rendered and written in a thread of their own
 * while matrix.json is: the three are a fifth of unite's time at 30,000
 * metrics, avg and stddev two thirds of that.  The thread only reads mx. */
struct reduced_job {
	const struct matrix *mx;
	struct atomic_file *af;         /* root_files[1] and on */
};

static void *render_reduced(void *arg)
{
	struct reduced_job *job = arg;

	for (size_t f = 1; f < NR_ROOT_FILES; f++) {
		matrix_write_file(job->mx, root_files[f].which, &job->af[f]);
		atomic_file_sync(&job->af[f]);
	}
	return NULL;
}

/* Write a root's files and let go of its lock.  0 or -1. */
static int close_root(struct root *r, const struct unite_opts *opts)
{
	struct atomic_file af[NR_ROOT_FILES];
	struct reduced_job job = { &r->mx, af };
	pthread_t thread;
	bool threaded;
	size_t opened;
	int ret = -1;

	for (opened = 0; opened < NR_ROOT_FILES; opened++)
		if (atomic_file_open_in(&af[opened], &r->hd, root_files[opened].name) < 0)
			break;
	if (opened < NR_ROOT_FILES) {
		while (opened > 0)
			atomic_file_abort(&af[--opened]);
		goto out;
	}
	threaded = opts->spawn && opts->spawn(&thread, render_reduced, &job) == 0;
	matrix_write_file(&r->mx, MATRIX_FILE_MATRIX, &af[0]);
	atomic_file_sync(&af[0]);
	/* no thread (none to be had): the same, one after the other */
	if (threaded)
		pthread_join(thread, NULL);
	else
		render_reduced(&job);
	/* in order; past a failure, the later files stay as they were */
	ret = atomic_file_commit_all(af, NR_ROOT_FILES);
out:
	release_root(r);
	matrix_release(&r->mx);
	return ret;
}

/*
 * The temp files of a root's files that a unite killed while writing them
 * left ("matrix.json.tmp.<pid>", or "...tmp.<pid>.<hex>" when that name
 * was taken: see temp_file_create): removed once the root is locked, when
 * their process is gone.  (Another writer of such a name without the
 * lock, a live process, keeps its file.)  unlink removes a link planted
 * at such a name, never what it points to.
 */
static void remove_dead_temps(const struct held_dir *hd)
{
	struct dirent *de;
	int fd = dup(hd->fd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		for (size_t f = 0; f < NR_ROOT_FILES; f++) {
			size_t n = strlen(root_files[f].name);
			const char *pid = de->d_name + n + 5;
			char *end;
			long v;

			if (strncmp(de->d_name, root_files[f].name, n) || strncmp(de->d_name + n, ".tmp.", 5))
				continue;
			v = strtol(pid, &end, 10);
			if (*end == '.' && strlen(end) == 9 && strspn(end + 1, "0123456789abcdef") == 8)
				end += 9;
			if (end == pid || *end || v <= 0 || v == (long)getpid() ||
			    kill((pid_t)v, 0) == 0 || errno != ESRCH)
				continue;
			if (unlinkat(hd->fd, de->d_name, 0) < 0 && errno != ENOENT)
				warning("cannot remove the dead unite's '%s/%s': %s", hd->path,
					de->d_name, strerror(errno));
		}
	}
	closedir(d);
}

/* Lock the root dir and load its matrix, if it has one.  0 or -1. */
static int open_root(struct root *r, char *dir)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	r->dir = dir;
	matrix_init(&r->mx);
	if (held_dir_open(&r->hd, dir) < 0)
		goto out;
	path_join(&path, dir, ".unite.lock");
	/* a link planted in a shared root is refused, not followed */
	r->lock_fd = held_dir_open_file(&r->hd, ".unite.lock", O_RDWR | O_CREAT, "lock");
	if (r->lock_fd < 0) {
		held_dir_close(&r->hd);
		goto out;
	}
	if (flock(r->lock_fd, LOCK_EX) < 0) {
		error("cannot lock '%s': %s", path.buf, strerror(errno));
		release_root(r);
		goto out;
	}
	remove_dead_temps(&r->hd);
	/* an lkp tree may hold matrix.json.gz only: matrix_load finds either */
	strbuf_reset(&path);
	path_join(&path, dir, "matrix.json");
	if (file_exists(path.buf) || (strbuf_addstr(&path, ".gz"), file_exists(path.buf))) {
		if (matrix_load(&r->mx, dir) < 0) {
			release_root(r);
			matrix_release(&r->mx);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

/* The run's stats (text read from the file `name`) become its column:
 * in place when it has one already.  0, or -1 with the root unchanged. */
static int add_run(struct root *r, const struct file_text *text, const char *name, const char *stats_path)
{
	struct matrix *mx = &r->mx;
	struct strbuf log = STRBUF_INIT;
	int col = -1, ret;

	for (int c = 0; c < mx->nr_sources; c++)
		if (mx->sources[c] && !strcmp(mx->sources[c], stats_path))
			col = c;
	ret = matrix_parse_column(mx, col, text->text, text->len, name, stats_path, &log);
	matrix_print_log(&log);
	strbuf_release(&log);
	if (!ret)
		matrix_drop_empty(mx);
	return ret;
}

/* Resolve every run dir and mark each root's last run. */
static struct run *plan_runs(char *const *run_dirs, int n)
{
	struct run *runs = xcalloc((size_t)(n ? n : 1), sizeof(*runs));
	struct strmap seen;
	char real[PATH_MAX];

	for (int i = 0; i < n; i++) {
		if (!realpath(run_dirs[i], real)) {
			runs[i].err = errno;
			continue;
		}
		runs[i].real = xstrdup(real);
		runs[i].root = xstrdup(dirname(real));
	}
	strmap_init(&seen);
	for (int i = n - 1; i >= 0; i--) {
		int later;

		if (!runs[i].root)
			continue;
		later = strmap_get(&seen, runs[i].root);
		runs[i].left = later >= 0 ? runs[later].left + 1 : 1;
		runs[i].last = later < 0;
		strmap_put(&seen, runs[i].root, i);
	}
	strmap_release(&seen);
	return runs;
}

/* Close open root k, keeping the others in the order they were opened. */
static int close_open_root(struct root *open_roots, int *nr_open, int k, const struct unite_opts *opts)
{
	int ret = close_root(&open_roots[k], opts);

	memmove(open_roots + k, open_roots + k + 1, sizeof(*open_roots) * (size_t)(*nr_open - k - 1));
	(*nr_open)--;
	return ret;
}

/* Unite a run (arg on the command line) into its root, opened if need
 * be.  0 or -1 with a message. */
static int unite_one(const struct run *run, const char *arg, struct root *open_roots, int *nr_open,
		     const struct unite_opts *opts)
{
	struct strbuf stats_path = STRBUF_INIT;
	struct file_text text = { "", 0, NULL, STRBUF_INIT };
	struct root *r = NULL;
	char *used = NULL;
	bool opened = false;
	int ret = -1;

	if (!run->real) {
		error("cannot unite '%s': %s", arg, strerror(run->err));
		goto out;
	}
	if (!is_dir(run->real)) {
		error("cannot unite '%s': not a run directory", arg);
		goto out;
	}
	path_join(&stats_path, run->real, "stats.json");
	if (file_text_open(&text, stats_path.buf, &used) < 0)
		goto out;

	for (int k = 0; k < *nr_open && !r; k++)
		if (!strcmp(open_roots[k].dir, run->root))
			r = &open_roots[k];
	if (!r) {
		if (*nr_open == MAX_OPEN_ROOTS && close_open_root(open_roots, nr_open, 0, opts) < 0)
			goto out;
		r = &open_roots[*nr_open];
		if (open_root(r, run->root) < 0)
			goto out;
		(*nr_open)++;
		opened = true;
		/* room for every column this call may add at once */
		matrix_reserve_cols(&r->mx, r->mx.ncols + run->left);
	}
	if (add_run(r, &text, used, stats_path.buf) < 0) {
		/* opened for this run only: nothing of it to write */
		if (opened) {
			release_root(r);
			matrix_release(&r->mx);
			(*nr_open)--;
		}
		goto out;
	}
	ret = 0;
out:
	free(used);
	file_text_release(&text);
	strbuf_release(&stats_path);
	return ret;
}

static int spawn_pthread(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	return pthread_create(thread, NULL, fn, arg);
}

int unite_run_dirs(char *const *run_dirs, int n)
{
	const struct unite_opts opts = { spawn_pthread };

	return unite_run_dirs_opts(run_dirs, n, &opts);
}

int unite_run_dirs_opts(char *const *run_dirs, int n, const struct unite_opts *opts)
{
	struct run *runs = plan_runs(run_dirs, n);
	struct root *open_roots = xcalloc(MAX_OPEN_ROOTS, sizeof(*open_roots));
	int nr_open = 0, ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		ret = unite_one(&runs[i], run_dirs[i], open_roots, &nr_open, opts);
		if (ret < 0)
			break;
		if (!runs[i].last)
			continue;
		/* the root's last run: write it now */
		for (int k = 0; k < nr_open; k++)
			if (!strcmp(open_roots[k].dir, runs[i].root)) {
				ret = close_open_root(open_roots, &nr_open, k, opts);
				break;
			}
	}
	/* after a failure: what the runs before it made of the other roots */
	for (int k = 0; k < nr_open; k++)
		if (close_root(&open_roots[k], opts) < 0)
			ret = -1;

	for (int i = 0; i < n; i++) {
		free(runs[i].real);
		free(runs[i].root);
	}
	free(runs);
	free(open_roots);
	return ret;
}
