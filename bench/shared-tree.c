/*
 * shared-tree: what the shared-tree rules cost (doc/design/speed.md),
 * the old way and the new one alternating, in the same dir:
 *
 *   shared-tree DIR FILES SIZE ROUNDS
 *
 *   write   FILES files of SIZE bytes each through write_file_atomic
 *           (temp file, write, fsync, rename, fsync of the dir): new,
 *           the temp made by temp_file_create (O_EXCL | O_NOFOLLOW,
 *           never reused); old, the temp opened O_CREAT | O_TRUNC as
 *           fileio.c did before commit eddb09e, the rest the library's;
 *           held, the same files by name in the dir held open
 *           (held_dir_write: openat, renameat, fsync of the dir's fd),
 *           as a run writes its run dir (src/run/run.c)
 *   dir     FILES run dirs made and removed: new, mkdir_fresh (mkdir,
 *           then an O_NOFOLLOW | O_DIRECTORY open and fstat to check
 *           it is ours); old, a plain mkdir
 *
 * Each of ROUNDS rounds runs old then new; prints the median and the
 * range over the rounds of the microseconds a file (or dir) took, and
 * for the writes the CPU time a file too (the fsyncs' waits left out).
 */
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* this process's CPU time, seconds: the syscalls' cost without the
 * waits for the disk, which dominate the wall time and its noise */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* fileio.c's write_file_atomic before eddb09e: its atomic_file_open
 * opened "<path>.tmp.<pid>" O_CREAT | O_TRUNC, following links. */
static int old_write_file_atomic(const char *path, const void *data, size_t len)
{
	struct atomic_file af;

	strbuf_init(&af.path, 0);
	strbuf_init(&af.tmp, 0);
	strbuf_addstr(&af.path, path);
	strbuf_addf(&af.tmp, "%s.tmp.%ld", path, (long)getpid());
	af.dfd = AT_FDCWD;
	af.name_at = 0;
	af.err = 0;
	af.synced = false;
	af.fd = open(af.tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (af.fd < 0) {
		strbuf_release(&af.path);
		strbuf_release(&af.tmp);
		return -1;
	}
	atomic_file_write(&af, data, len);
	return atomic_file_commit(&af);
}

enum way { OLD, NEW, HELD };

/* microseconds a file for FILES writes, wall (returned) and CPU (*cpu);
 * hd holds dir */
static double writes(const struct held_dir *hd, int files, const char *data, size_t len,
		     enum way way, double *cpu)
{
	struct strbuf p = STRBUF_INIT;
	double t = now_seconds(), c = cpu_seconds();

	for (int i = 0; i < files; i++) {
		int r;

		strbuf_reset(&p);
		if (way == HELD) {
			strbuf_addf(&p, "f%d.json", i);
			r = held_dir_write(hd, p.buf, data, len);
		} else {
			strbuf_addf(&p, "%s/f%d.json", hd->path, i);
			r = way == OLD ? old_write_file_atomic(p.buf, data, len) :
			    write_file_atomic(p.buf, data, len);
		}
		if (r < 0) {
			perror(p.buf);
			exit(1);
		}
	}
	t = now_seconds() - t;
	*cpu = (cpu_seconds() - c) * 1e6 / files;
	strbuf_release(&p);
	return t * 1e6 / files;
}

static double dirs(const char *dir, int n, int old)
{
	struct strbuf p = STRBUF_INIT;
	double t = now_seconds();

	for (int i = 0; i < n; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/.run-%d.%ld", dir, i, (long)getpid());
		if (old ? mkdir(p.buf, 0777) : mkdir_fresh(p.buf, 0777)) {
			perror(p.buf);
			exit(1);
		}
	}
	t = now_seconds() - t;
	/* removed outside the timing: both ways remove alike */
	for (int i = 0; i < n; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/.run-%d.%ld", dir, i, (long)getpid());
		rmdir(p.buf);
	}
	strbuf_release(&p);
	return t * 1e6 / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void report(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	printf("  %-22s median %8.1f us  range %.1f-%.1f\n", what, v[n / 2], v[0], v[n - 1]);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: shared-tree DIR FILES SIZE ROUNDS\n");
		return 2;
	}
	const char *dir = argv[1];
	int files = atoi(argv[2]), rounds = atoi(argv[4]);
	size_t size = (size_t)atol(argv[3]);
	char *data = xmalloc(size + 1);
	double *w[3], *wc[3], *d[2];
	struct held_dir hd = { open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), NULL };

	if (files < 1 || rounds < 1) {
		fprintf(stderr, "shared-tree: FILES and ROUNDS must be at least 1\n");
		return 2;
	}
	if (hd.fd < 0) {
		perror(dir);
		return 1;
	}
	hd.path = xstrdup(dir);
	memset(data, 'x', size);
	for (int k = 0; k < 3; k++) {
		w[k] = xcalloc((size_t)rounds, sizeof(double));
		wc[k] = xcalloc((size_t)rounds, sizeof(double));
	}
	for (int k = 0; k < 2; k++)
		d[k] = xcalloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++) {
		for (int old = 1; old >= 0; old--)
			d[!old][r] = dirs(dir, files, old);
		for (enum way way = OLD; way <= HELD; way++)
			w[way][r] = writes(&hd, files, data, size, way, &wc[way][r]);
	}
	printf("%d files of %zu bytes, %d rounds (old, new, held in each)\n", files, size, rounds);
	report("write, old (O_TRUNC)", w[OLD], rounds);
	report("write, new (O_EXCL)", w[NEW], rounds);
	report("write, held (openat)", w[HELD], rounds);
	report("write CPU, old", wc[OLD], rounds);
	report("write CPU, new", wc[NEW], rounds);
	report("write CPU, held", wc[HELD], rounds);
	report("run dir, old (mkdir)", d[0], rounds);
	report("run dir, new (fresh)", d[1], rounds);
	for (int k = 0; k < 3; k++) {
		free(w[k]);
		free(wc[k]);
	}
	for (int k = 0; k < 2; k++)
		free(d[k]);
	held_dir_close(&hd);
	free(data);
	return 0;
}
