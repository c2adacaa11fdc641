/*
 * aim7: perfbot's own multiuser disk benchmark in the manner of AIM Suite
 * VII's `multitask` (not packaged in Debian), printing the result table
 * that lkp's aim7 parser reads (and perfbot's, src/parse/aim7.c).
 *
 *   aim7 [--load=N] [--jobs=N] [--file-size=BYTES] [--runtime=SEC]
 *        [--dir=DIR] TEST
 *   aim7 --list
 *
 * It forks load tasks (processes) at once, holds them at a start line
 * until all exist, then lets them go together: each task runs TEST's job
 * --jobs times (default 20), in a private work directory made under DIR
 * (default ".", where `perfbot run` puts the job's mounted filesystem),
 * on files of its own of --file-size bytes (default 128 KiB), created
 * and removed by every job as AIM7's disk jobs do.  With --runtime a task
 * starts no job after that many seconds, so the count, not the load,
 * decides when a slow filesystem ends.
 *
 * The jobs (block: 4 KiB; every job creates its file(s), writes them
 * sequentially unless said otherwise, and unlinks them at the end):
 *
 *   disk_rr        then one block read at each of size/block random offsets
 *   disk_rw        random block writes instead of the sequential fill
 *   disk_wrt       the sequential fill alone
 *   disk_rd        then the file read back sequentially
 *   disk_cp        then copied block by block to a second file
 *   disk_src       a directory of 32 empty files: readdir, a stat of each
 *                  name and of 32 missing ones, then unlink and rmdir
 *   creat-clo      32 times: creat, write a block, close, unlink
 *   sync_disk_rw   then random block writes, each followed by fsync (at
 *                  most 32 a job: a sync per block is slow on any disk)
 *
 * Disk space: at most load x file-size at once (twice that for disk_cp;
 * disk_src and creat-clo need a few blocks a task), e.g. 375 MiB for
 * lkp's load of 3000 at the default size, 1.1 GiB for disk_rd's 9000.
 * The run checks that DIR's filesystem has that much free before it
 * starts, and says so when it has not (exit 1).
 *
 * The output, after a few lines naming the run, is AIM7's table:
 *
 *   Tasks    jobs/min  jti  jobs/min/task      real       cpu
 *    3000   484435.52   97       161.4785     37.16   1179.86   <date>
 *
 *   jobs/min        jobs completed by all tasks per minute of real time
 *   jti             "job timing index": how evenly the tasks finished,
 *                   100 * (1 - stddev / mean of the tasks' elapsed times),
 *                   truncated to 0..100
 *   jobs/min/task   jobs/min / tasks
 *   real            seconds from the start line to the last task's end
 *   cpu             user + system seconds of all the tasks
 *
 * Exit status: 0; 1 when a task failed (its error on stderr, and no
 * table, so that a failed run cannot pass for a slow one); 2 for bad
 * usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096
#define DIR_FILES 32            /* disk_src's files, creat-clo's rounds */
#define SYNC_WRITES 32          /* sync_disk_rw's fsyncs a job, at most */
#define MAX_LOAD 100000
#define MAX_FILE_SIZE (64LL << 20)

struct opts {
	long load, jobs;
	long long file_size;
	double runtime;         /* 0: no limit */
	const char *dir;
};

/* What one task did, in memory shared with the parent. */
struct result {
	double secs;
	unsigned long jobs;
	int err;                /* errno of a failure, else 0 */
	char what[160];         /* the failing call and file */
};

/* One task's state. */
struct task {
	long id;
	const struct opts *o;
	uint64_t rng;
	char *buf;              /* one block, written and read */
	char name[2][64];       /* its files */
	struct result *res;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Record the first failure: the call and the file it was about. */
static int fail(struct task *t, const char *call, const char *file)
{
	if (!t->res->err) {
		t->res->err = errno ? errno : EIO;
		snprintf(t->res->what, sizeof(t->res->what), "%s '%s'", call, file);
	}
	return -1;
}

/* xorshift64*: each task's own reproducible offsets */
static uint64_t rnd(struct task *t)
{
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 2685821657736338717ULL;
}

static long nr_blocks(const struct task *t)
{
	return (long)(t->o->file_size / BLOCK);
}

static off_t random_block(struct task *t)
{
	return (off_t)(rnd(t) % (uint64_t)nr_blocks(t)) * BLOCK;
}

static int write_all(struct task *t, int fd, off_t off, const char *file)
{
	ssize_t n;

	do
		n = pwrite(fd, t->buf, BLOCK, off);
	while (n < 0 && errno == EINTR);
	if (n != BLOCK) {
		if (n >= 0)
			errno = ENOSPC;
		return fail(t, "write", file);
	}
	return 0;
}

static int read_block(struct task *t, int fd, off_t off, const char *file)
{
	ssize_t n;

	do
		n = pread(fd, t->buf, BLOCK, off);
	while (n < 0 && errno == EINTR);
	if (n != BLOCK) {
		if (n >= 0)
			errno = EIO;    /* a short read of a file it just wrote */
		return fail(t, "read", file);
	}
	return 0;
}

/* Create file k of the task, optionally filled sequentially; fd or -1. */
static int create(struct task *t, int k, bool fill, int extra_flags)
{
	int fd = open(t->name[k], O_RDWR | O_CREAT | O_TRUNC | extra_flags, 0644);

	if (fd < 0)
		return fail(t, "create", t->name[k]);
	for (long b = 0; fill && b < nr_blocks(t); b++) {
		t->buf[0] = (char)b;
		if (write_all(t, fd, (off_t)b * BLOCK, t->name[k]) < 0) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

static int finish(struct task *t, int fd, int k, int ret)
{
	if (fd >= 0 && close(fd) && !ret)
		ret = fail(t, "close", t->name[k]);
	if (unlink(t->name[k]) && !ret)
		ret = fail(t, "unlink", t->name[k]);
	return ret;
}

static int job_disk_rr(struct task *t)
{
	int fd = create(t, 0, true, 0), ret = 0;

	if (fd < 0)
		return finish(t, -1, 0, -1);
	for (long i = 0; !ret && i < nr_blocks(t); i++)
		ret = read_block(t, fd, random_block(t), t->name[0]);
	return finish(t, fd, 0, ret);
}

static int job_disk_rw(struct task *t)
{
	int fd = create(t, 0, false, 0), ret = 0;

	if (fd < 0)
		return finish(t, -1, 0, -1);
	for (long i = 0; !ret && i < nr_blocks(t); i++)
		ret = write_all(t, fd, random_block(t), t->name[0]);
	return finish(t, fd, 0, ret);
}

static int job_disk_wrt(struct task *t)
{
	int fd = create(t, 0, true, 0);

	return finish(t, fd, 0, fd < 0 ? -1 : 0);
}

static int job_disk_rd(struct task *t)
{
	int fd = create(t, 0, true, 0), ret = 0;

	if (fd < 0)
		return finish(t, -1, 0, -1);
	for (long b = 0; !ret && b < nr_blocks(t); b++)
		ret = read_block(t, fd, (off_t)b * BLOCK, t->name[0]);
	return finish(t, fd, 0, ret);
}

static int job_disk_cp(struct task *t)
{
	int in = create(t, 0, true, 0), out = -1, ret = 0;

	if (in < 0)
		return finish(t, -1, 0, -1);
	out = create(t, 1, false, 0);
	if (out < 0) {
		finish(t, in, 0, -1);
		return finish(t, -1, 1, -1);
	}
	for (long b = 0; !ret && b < nr_blocks(t); b++) {
		ret = read_block(t, in, (off_t)b * BLOCK, t->name[0]);
		if (!ret)
			ret = write_all(t, out, (off_t)b * BLOCK, t->name[1]);
	}
	ret = finish(t, in, 0, ret);
	return finish(t, out, 1, ret);
}

static int job_disk_src(struct task *t)
{
	char path[128];
	struct stat st;
	DIR *d;
	struct dirent *de;
	int ret = 0, seen = 0;

	if (mkdir(t->name[0], 0755))
		return fail(t, "mkdir", t->name[0]);
	for (int i = 0; !ret && i < DIR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", t->name[0], i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || close(fd))
			ret = fail(t, "create", path);
	}
	if (!ret && !(d = opendir(t->name[0])))
		ret = fail(t, "opendir", t->name[0]);
	else if (!ret) {
		while ((de = readdir(d)))
			seen += de->d_name[0] == 'f';
		closedir(d);
		if (seen != DIR_FILES) {
			errno = EIO;
			ret = fail(t, "readdir (files missing)", t->name[0]);
		}
	}
	for (int i = 0; !ret && i < 2 * DIR_FILES; i++) {
		/* the second half are names that are not there */
		snprintf(path, sizeof(path), "%s/%c%d", t->name[0], i < DIR_FILES ? 'f' : 'x',
			 i % DIR_FILES);
		if (!stat(path, &st) != (i < DIR_FILES))
			ret = fail(t, "stat", path);
	}
	for (int i = 0; i < DIR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", t->name[0], i);
		if (unlink(path) && errno != ENOENT && !ret)
			ret = fail(t, "unlink", path);
	}
	if (rmdir(t->name[0]) && !ret)
		ret = fail(t, "rmdir", t->name[0]);
	return ret;
}

static int job_creat_clo(struct task *t)
{
	for (int i = 0; i < DIR_FILES; i++) {
		int fd = creat(t->name[0], 0644);
		if (fd < 0)
			return fail(t, "creat", t->name[0]);
		if (finish(t, fd, 0, write_all(t, fd, 0, t->name[0])) < 0)
			return -1;
	}
	return 0;
}

static int job_sync_disk_rw(struct task *t)
{
	int fd = create(t, 0, true, 0), ret = 0;
	long n = nr_blocks(t) < SYNC_WRITES ? nr_blocks(t) : SYNC_WRITES;

	if (fd < 0)
		return finish(t, -1, 0, -1);
	for (long i = 0; !ret && i < n; i++) {
		ret = write_all(t, fd, random_block(t), t->name[0]);
		if (!ret && fsync(fd))
			ret = fail(t, "fsync", t->name[0]);
	}
	return finish(t, fd, 0, ret);
}

struct test {
	const char *name;
	int (*job)(struct task *t);
	int files;              /* file_size files a task holds at once */
	const char *doc;
};

static const struct test tests[] = {
	{ "disk_rr", job_disk_rr, 1, "random reads of a file" },
	{ "disk_rw", job_disk_rw, 1, "random writes of a file" },
	{ "disk_wrt", job_disk_wrt, 1, "sequential writes of a file" },
	{ "disk_rd", job_disk_rd, 1, "sequential reads of a file" },
	{ "disk_cp", job_disk_cp, 2, "a file copied" },
	{ "disk_src", job_disk_src, 0, "a directory's files created, listed and looked up" },
	{ "creat-clo", job_creat_clo, 0, "files created, written, closed and unlinked" },
	{ "sync_disk_rw", job_sync_disk_rw, 1, "random writes, each followed by fsync" },
};
#define NR_TESTS (sizeof(tests) / sizeof(tests[0]))

/* The task's body, once released from the start line. */
static void run_task(const struct test *tc, struct task *t, double t0)
{
	double deadline = t->o->runtime > 0 ? t0 + t->o->runtime : INFINITY;

	for (long j = 0; j < t->o->jobs && now() < deadline; j++) {
		if (tc->job(t) < 0)
			break;
		t->res->jobs++;
	}
	t->res->secs = now() - t0;
}

/* Bytes a task holds at most at once. */
static long long task_bytes(const struct test *tc, const struct opts *o)
{
	return tc->files ? tc->files * o->file_size : (long long)(DIR_FILES + 1) * BLOCK;
}

static int check_space(const struct test *tc, const struct opts *o)
{
	struct statvfs sv;
	long long need = task_bytes(tc, o) * o->load, avail;

	if (statvfs(".", &sv)) {
		fprintf(stderr, "aim7: cannot statvfs '%s': %s\n", o->dir, strerror(errno));
		return -1;
	}
	avail = (long long)sv.f_bavail * (long long)sv.f_frsize;
	/* a tenth kept for the filesystem's own metadata (btrfs' above all) */
	if (need > avail / 10 * 9) {
		fprintf(stderr, "aim7: %s needs %lld bytes at load %ld, '%s' has %lld free "
			"(lower --load or --file-size)\n", tc->name, need, o->load, o->dir, avail);
		return -1;
	}
	return 0;
}

/* 100 * (1 - stddev/mean) of the tasks' times, in 0..100. */
static int jti(const struct result *res, long n)
{
	double sum = 0, sq = 0, mean, sd, v;

	for (long i = 0; i < n; i++)
		sum += res[i].secs;
	mean = sum / (double)n;
	if (mean <= 0)
		return 100;
	for (long i = 0; i < n; i++)
		sq += (res[i].secs - mean) * (res[i].secs - mean);
	sd = sqrt(sq / (double)n);
	v = 100 * (1 - sd / mean);
	return v < 0 ? 0 : v > 100 ? 100 : (int)v;
}

static void print_table(const struct opts *o, const struct result *res, double real)
{
	struct rusage ru;
	unsigned long long jobs = 0;
	double cpu = 0, jpm;
	time_t t = time(NULL);
	char date[64];

	for (long i = 0; i < o->load; i++)
		jobs += res[i].jobs;
	if (!getrusage(RUSAGE_CHILDREN, &ru))
		cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		      (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (real < 1e-6)
		real = 1e-6;
	jpm = (double)jobs * 60 / real;
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", localtime(&t));
	printf("Tasks    jobs/min  jti  jobs/min/task      real       cpu\n");
	printf("%5ld  %10.2f  %3d  %13.4f  %8.2f  %8.2f   %s\n", o->load, jpm,
	       jti(res, o->load), jpm / (double)o->load, real, cpu, date);
}

static int run_test(const struct test *tc, const struct opts *o)
{
	size_t res_len = sizeof(struct result) * (size_t)o->load;
	struct result *res;
	volatile int *abort_flag;
	char work[64];
	int start[2], status, ret = 0;
	long started = 0;
	double t0;

	if (chdir(o->dir)) {
		fprintf(stderr, "aim7: cannot enter '%s': %s\n", o->dir, strerror(errno));
		return 1;
	}
	if (check_space(tc, o) < 0)
		return 1;
	snprintf(work, sizeof(work), "aim7.%ld", (long)getpid());
	if (mkdir(work, 0755) || chdir(work)) {
		fprintf(stderr, "aim7: cannot make '%s/%s': %s\n", o->dir, work, strerror(errno));
		return 1;
	}
	res = mmap(NULL, res_len + sizeof(int), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED || pipe(start)) {
		fprintf(stderr, "aim7: out of memory or file descriptors\n");
		return 1;
	}
	memset(res, 0, res_len + sizeof(int));
	abort_flag = (volatile int *)((char *)res + res_len);

	printf("aim7 (perfbot): test %s, %s\n", tc->name, tc->doc);
	printf("load %ld tasks, %ld jobs a task, file size %lld bytes, dir %s", o->load, o->jobs,
	       o->file_size, o->dir);
	if (o->runtime > 0)
		printf(", no job started after %g s", o->runtime);
	printf("\n");
	fflush(stdout);

	for (; started < o->load; started++) {
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "aim7: cannot fork task %ld of %ld: %s\n", started + 1,
				o->load, strerror(errno));
			*abort_flag = 1;
			ret = 1;
			break;
		}
		if (pid == 0) {
			struct task t = { .id = started, .o = o, .res = &res[started] };
			char c;

			close(start[1]);
			t.rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(started + 1);
			snprintf(t.name[0], sizeof(t.name[0]), "t%ld.a", started);
			snprintf(t.name[1], sizeof(t.name[1]), "t%ld.b", started);
			t.buf = aligned_alloc(BLOCK, BLOCK);
			/* the start line: EOF once the parent closes its end */
			while (read(start[0], &c, 1) < 0 && errno == EINTR)
				;
			if (*abort_flag)
				_exit(1);
			if (!t.buf) {
				errno = ENOMEM;
				fail(&t, "malloc", "-");
				_exit(1);
			}
			memset(t.buf, 'a' + (int)(started % 26), BLOCK);
			run_task(tc, &t, now());
			_exit(t.res->err ? 1 : 0);
		}
	}
	t0 = now();
	close(start[1]);
	close(start[0]);
	for (pid_t w; (w = wait(&status)) > 0 || errno == EINTR;)
		if (w > 0 && (!WIFEXITED(status) || WEXITSTATUS(status)))
			ret = 1;
	double real = now() - t0;

	for (long i = 0; i < started; i++)
		if (res[i].err) {
			fprintf(stderr, "aim7: task %ld: %s: %s\n", i + 1, res[i].what,
				strerror(res[i].err));
			ret = 1;
		}
	if (!ret)
		print_table(o, res, real);
	else
		fprintf(stderr, "aim7: %s failed: no result\n", tc->name);
	munmap(res, res_len + sizeof(int));
	if (chdir("..") || rmdir(work)) {
		fprintf(stderr, "aim7: cannot remove '%s/%s': %s\n", o->dir, work, strerror(errno));
		ret = 1;
	}
	if (fflush(stdout))
		ret = 1;
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: aim7 [--load=N] [--jobs=N] [--file-size=BYTES] [--runtime=SEC]\n"
		"            [--dir=DIR] TEST\n"
		"       aim7 --list\n");
	exit(2);
}

/* "64k", "1m", "131072"; -1 when malformed. */
static long long parse_bytes(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || v < 0 || errno)
		return -1;
	switch (*end) {
	case '\0': return v;
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	default: return -1;
	}
	return end[1] ? -1 : v;
}

static long parse_count(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 1 || v > max)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "load", required_argument, NULL, 'l' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "file-size", required_argument, NULL, 's' },
		{ "runtime", required_argument, NULL, 't' },
		{ "dir", required_argument, NULL, 'd' },
		{ "list", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o = { 1, 20, 128 << 10, 0, "." };
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "l:j:s:t:d:", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': o.load = parse_count(optarg, MAX_LOAD); break;
		case 'j': o.jobs = parse_count(optarg, 1L << 30); break;
		case 's':
			o.file_size = parse_bytes(optarg);
			/* whole blocks: the random offsets are block numbers */
			if (o.file_size < BLOCK || o.file_size > MAX_FILE_SIZE ||
			    o.file_size % BLOCK)
				usage();
			break;
		case 't':
			o.runtime = strtod(optarg, &end);
			if (end == optarg || *end || !(o.runtime > 0))
				usage();
			break;
		case 'd': o.dir = optarg; break;
		case 'L':
			for (size_t i = 0; i < NR_TESTS; i++)
				printf("%-14s %s\n", tests[i].name, tests[i].doc);
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	for (size_t i = 0; i < NR_TESTS; i++)
		if (!strcmp(tests[i].name, argv[optind]))
			return run_test(&tests[i], &o);
	fprintf(stderr, "aim7: unknown test '%s' (see --list)\n", argv[optind]);
	return 2;
}
