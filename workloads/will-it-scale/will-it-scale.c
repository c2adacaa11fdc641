/*
 * will-it-scale: a small, self-contained rewrite of Anton Blanchard's
 * will-it-scale: run one tiny operation in a loop in 1..N parallel tasks,
 * as processes and as threads, and see whether the operations per second
 * grow with the tasks.  It prints runtest.py's CSV, which lkp's
 * will-it-scale parser (and perfbot's, src/parse/will-it-scale.c) reads:
 *
 *   tasks,processes,processes_idle,threads,threads_idle,linear
 *   0,0,100,0,100,0
 *   1,<ops/s>,<idle %>,<ops/s>,<idle %>,<linear>
 *   ...
 *
 * one row per task count: the operations per second of all tasks
 * together, as processes and as threads (0 for a mode not run), the
 * share of CPU time left idle meanwhile (from /proc/stat), and "linear",
 * the 1-task process rate times the task count (0 when 1 task was not
 * measured), which the parser turns into `scalability`.
 *
 *   will-it-scale [--duration=SEC] [--warmup=SEC] [--mode=process|thread|both]
 *                 [--tasks=1,2,4] [--no-affinity] TEST
 *   will-it-scale --list
 *   will-it-scale --check TEST
 *
 * --check does TEST's operation once in this process, as a process's task
 * and as a thread's, and fails unless both counted it: a test of the test
 * that no machine load can fail.  Each measurement starts the tasks, lets them run --warmup seconds
 * (default 1), then counts operations for --duration seconds (default 5;
 * fractions are fine, so that tests can run for a second).  Task i is
 * bound to CPU i modulo the CPUs unless --no-affinity, as the original.
 *
 * The tests (tests-mem.c, tests-file.c, tests-ipc.c; `will-it-scale --list`
 * says what each does) carry the original's names, one operation each:
 * page faults, mmap, brk, malloc, TLB flushes; file reads, writes, seeks,
 * locks, opens, unlinks, fallocate; pipes, sockets, eventfd, futexes,
 * mutexes, semaphores, poll, signals, sched_yield, getppid, context
 * switches.  Files live in a directory of their own under $TMPDIR (or
 * /tmp), removed after each measurement.
 *
 * Exit status: 0, 1 when a task could not set up (message on stderr), 2
 * for bad usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "wis.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS 4096

/* One counter per task, a cache line (or two) apart so that tasks do not
 * slow each other down by sharing one. */
struct counter {
	volatile unsigned long v;
	char pad[128 - sizeof(unsigned long)];
};

static const struct wtest *const tables[] = { wis_mem_tests, wis_file_tests, wis_ipc_tests };
#define NR_TABLES (sizeof(tables) / sizeof(tables[0]))

/* ---- what the tests share ------------------------------------------------ */

int wis_task_file(struct task *t, size_t size, bool filled, bool in_own_dir)
{
	const char *dir = t->g->dir;
	int fd;

	/* the shared directory's name is short enough: shared_setup() saw to it */
	if (in_own_dir) {
		if ((size_t)snprintf(t->dpath, sizeof(t->dpath), "%.256s/d%d", t->g->dir, t->id) >=
		    sizeof(t->dpath) || mkdir(t->dpath, 0700))
			return -1;
		dir = t->dpath;
	}
	if ((size_t)snprintf(t->path, sizeof(t->path), "%.300s/t%d", dir, t->id) >= sizeof(t->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(t->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	t->fd[0] = fd;
	if (!filled)
		return ftruncate(fd, (off_t)size);
	memset(t->buf, 'x', sizeof(t->buf));
	for (size_t off = 0; off < size; off += sizeof(t->buf))
		if (write(fd, t->buf, sizeof(t->buf)) != (ssize_t)sizeof(t->buf))
			return -1;
	return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
}

int wis_open_shared(struct task *t)
{
	t->fd[0] = open(t->g->file, O_RDWR);
	return t->fd[0] < 0 ? -1 : 0;
}

void wis_cleanup(struct task *t)
{
	if (t->map)
		munmap(t->map, t->map_len);
	t->map = NULL;
	for (int i = 0; i < 4; i++)
		if (t->fd[i] >= 0) {
			close(t->fd[i]);
			t->fd[i] = -1;
		}
	if (t->path[0])
		unlink(t->path);
	if (t->dpath[0])
		rmdir(t->dpath);
	if (t->has_mutex)
		pthread_mutex_destroy(&t->mutex);
	t->has_mutex = false;
}

/* The run's directory, the shared file in it, the shared mutex and semaphore. */
static int shared_setup(struct wis_shared *g)
{
	const char *tmp = getenv("TMPDIR");
	pthread_mutexattr_t ma;
	char buf[4096];

	memset(buf, 'x', sizeof(buf));
	g->fd = -1;
	if ((size_t)snprintf(g->dir, sizeof(g->dir), "%s/will-it-scale.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp") >= sizeof(g->dir) - 16) {
		fprintf(stderr, "will-it-scale: TMPDIR is too long\n");
		g->dir[0] = '\0';
		return -1;
	}
	if (!mkdtemp(g->dir)) {
		fprintf(stderr, "will-it-scale: cannot make a directory %s: %s\n", g->dir,
			strerror(errno));
		g->dir[0] = '\0';
		return -1;
	}
	snprintf(g->file, sizeof(g->file), "%.256s/shared", g->dir);
	g->fd = open(g->file, O_RDWR | O_CREAT | O_EXCL, 0600);
	for (size_t off = 0; g->fd >= 0 && off < WIS_FILESIZE; off += sizeof(buf))
		if (write(g->fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			close(g->fd);
			g->fd = -1;
		}
	if (g->fd < 0 || lseek(g->fd, 0, SEEK_SET)) {
		fprintf(stderr, "will-it-scale: cannot write %s: %s\n", g->file, strerror(errno));
		return -1;
	}
	if (pthread_mutexattr_init(&ma) || pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED) ||
	    pthread_mutex_init(&g->mutex, &ma) || sem_init(&g->sem, 1, 1)) {
		fprintf(stderr, "will-it-scale: cannot make a process-shared mutex\n");
		return -1;
	}
	pthread_mutexattr_destroy(&ma);
	return 0;
}

/* Remove the run's directory: what tasks killed in the middle left too. */
static void remove_tree(const char *path, int depth)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char sub[600];

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%.320s/%.255s", path, e->d_name);
		if (unlink(sub) && errno == EISDIR && depth < 2)
			remove_tree(sub, depth + 1);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

static void shared_cleanup(struct wis_shared *g)
{
	if (g->fd >= 0)
		close(g->fd);
	if (g->dir[0])
		remove_tree(g->dir, 0);
}

/* ---- measuring --------------------------------------------------------- */

struct opts {
	double duration, warmup;
	bool processes, threads, affinity;
	long tasks[64];
	int nr_tasks;
};

struct run {
	const struct wtest *test;
	const struct opts *o;
	struct task *t;         /* n tasks */
	struct counter *counters;
	volatile int *stop;
	int setup_err;          /* errno of a failed setup, in shared memory */
	struct wis_shared g;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Idle and total jiffies of all CPUs from /proc/stat's "cpu" line. */
static void cpu_times(unsigned long long *idle, unsigned long long *total)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*idle = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) >= 4) {
		/* guest time is already in user time */
		for (int i = 0; i < 8; i++)
			*total += v[i];
		*idle = v[3] + v[4];
	}
	fclose(f);
}

static void bind_cpu(int id, bool thread)
{
	long nr_cpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(id % (nr_cpu > 0 ? nr_cpu : 1), &set);
	if (thread)
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	else
		sched_setaffinity(0, sizeof(set), &set);
}

/* A task's life: bind, set up, loop until told to stop. */
static int task_main(struct run *r, struct task *t)
{
	if (r->o->affinity)
		bind_cpu(t->id, t->thread);
	for (int i = 0; i < 4; i++)
		t->fd[i] = -1;
	if (r->test->setup && r->test->setup(t)) {
		r->setup_err = errno ? errno : EINVAL;
		wis_cleanup(t);
		return 1;
	}
	while (!*t->stop)
		r->test->op(t);
	(r->test->cleanup ? r->test->cleanup : wis_cleanup)(t);
	return 0;
}

struct thread_arg {
	struct run *r;
	struct task *t;
};

static void *thread_main(void *arg)
{
	struct thread_arg *a = arg;

	task_main(a->r, a->t);
	return NULL;
}

static unsigned long sum_counts(const struct run *r, long n)
{
	unsigned long s = 0;

	for (long i = 0; i < n; i++)
		s += r->counters[i].v;
	return s;
}

/*
 * Run n tasks (threads or processes) of test; set *ops_per_sec and
 * *idle_pct.  0, or -1 after a message.
 */
static int measure(const struct wtest *test, const struct opts *o, long n, bool threads,
		   double *ops_per_sec, double *idle_pct)
{
	size_t head = (sizeof(struct run) + sizeof(int) + 4095) / 4096 * 4096;
	size_t shared_len = sizeof(struct counter) * (size_t)n + head;
	char *shared = mmap(NULL, shared_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct run r = { .test = test, .o = o };
	struct run *rs;
	pthread_t *th = NULL;
	struct thread_arg *args = NULL;
	pid_t *pids = NULL;
	unsigned long long i0, t0, i1, t1;
	unsigned long c0, c1;
	double s0, s1;
	int ret = 0;

	if (shared == MAP_FAILED) {
		fprintf(stderr, "will-it-scale: cannot map shared memory: %s\n", strerror(errno));
		return -1;
	}
	/* the run's fields the tasks write live in the shared page too */
	rs = (struct run *)shared;
	*rs = r;
	rs->stop = (volatile int *)(shared + sizeof(struct run));
	rs->counters = (struct counter *)(shared + head);
	rs->t = calloc((size_t)n, sizeof(struct task));
	if (!rs->t)
		fprintf(stderr, "will-it-scale: out of memory\n");
	if (!rs->t || shared_setup(&rs->g) < 0) {
		shared_cleanup(&rs->g);
		free(rs->t);
		munmap(shared, shared_len);
		return -1;
	}
	for (long i = 0; i < n; i++) {
		rs->t[i].id = (int)i;
		rs->t[i].thread = threads;
		rs->t[i].count = &rs->counters[i].v;
		rs->t[i].stop = rs->stop;
		rs->t[i].g = &rs->g;
	}
	if (threads) {
		th = calloc((size_t)n, sizeof(*th));
		args = calloc((size_t)n, sizeof(*args));
		for (long i = 0; th && args && i < n; i++) {
			args[i].r = rs;
			args[i].t = &rs->t[i];
			if (pthread_create(&th[i], NULL, thread_main, &args[i])) {
				fprintf(stderr, "will-it-scale: cannot start thread %ld\n", i);
				n = i;
				ret = -1;
				break;
			}
		}
	} else {
		pids = calloc((size_t)n, sizeof(*pids));
		for (long i = 0; pids && i < n; i++) {
			pids[i] = fork();
			if (pids[i] < 0) {
				fprintf(stderr, "will-it-scale: cannot fork: %s\n", strerror(errno));
				n = i;
				ret = -1;
				break;
			}
			if (pids[i] == 0)
				_exit(task_main(rs, &rs->t[i]));
		}
	}

	if (!ret) {
		sleep_for(o->warmup);
		cpu_times(&i0, &t0);
		c0 = sum_counts(rs, n);
		s0 = now();
		sleep_for(o->duration);
		c1 = sum_counts(rs, n);
		s1 = now();
		cpu_times(&i1, &t1);
		*ops_per_sec = (double)(c1 - c0) / (s1 - s0);
		*idle_pct = t1 > t0 ? 100.0 * (double)(i1 - i0) / (double)(t1 - t0) : 0;
	}
	*rs->stop = 1;
	for (long i = 0; i < n; i++) {
		if (threads) {
			pthread_join(th[i], NULL);
		} else {
			int status;
			double t = now();
			/* a task in a long operation gets a second, then SIGKILL */
			while (waitpid(pids[i], &status, WNOHANG) == 0) {
				if (now() - t > 1) {
					kill(pids[i], SIGKILL);
					waitpid(pids[i], &status, 0);
					break;
				}
				usleep(1000);
			}
		}
	}
	if (rs->setup_err) {
		fprintf(stderr, "will-it-scale: %s: task setup failed: %s\n", test->name,
			strerror(rs->setup_err));
		ret = -1;
	}
	shared_cleanup(&rs->g);
	free(th);
	free(args);
	free(pids);
	free(rs->t);
	munmap(shared, shared_len);
	return ret;
}

/* --check: one operation of test as each kind of task; 0 or 1 after a message. */
static int check_test(const struct wtest *test)
{
	static struct wis_shared g;     /* static: its mutex must not move */
	struct task *t = calloc(1, sizeof(*t));
	volatile int stop = 0;
	int ret = 0;

	if (!t || shared_setup(&g) < 0) {
		shared_cleanup(&g);
		free(t);
		return 1;
	}
	for (int thread = 0; thread <= 1 && !ret; thread++) {
		unsigned long count = 0;

		memset(t, 0, sizeof(*t));
		*t = (struct task){ .thread = thread, .count = &count, .stop = &stop, .g = &g,
				    .fd = { -1, -1, -1, -1 } };
		if (test->setup && test->setup(t)) {
			fprintf(stderr, "will-it-scale: %s: setup failed: %s\n", test->name, strerror(errno));
			wis_cleanup(t);
			ret = 1;
			break;
		}
		test->op(t);
		(test->cleanup ? test->cleanup : wis_cleanup)(t);
		if (!count) {
			fprintf(stderr, "will-it-scale: %s: the operation counted nothing as a %s\n",
				test->name, thread ? "thread" : "process");
			ret = 1;
		}
	}
	shared_cleanup(&g);
	free(t);
	if (!ret)
		printf("%s: ok\n", test->name);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: will-it-scale [--duration=SEC] [--warmup=SEC] [--mode=process|thread|both]\n"
		"                     [--tasks=1,2,4] [--no-affinity] TEST\n"
		"       will-it-scale --list\n"
		"       will-it-scale --check TEST\n");
	exit(2);
}

static void parse_tasks(const char *s, struct opts *o)
{
	char *end;

	o->nr_tasks = 0;
	for (;;) {
		long n = strtol(s, &end, 10);
		if (end == s || n < 1 || n > MAX_TASKS || o->nr_tasks == 64)
			usage();
		o->tasks[o->nr_tasks++] = n;
		if (!*end)
			return;
		if (*end != ',')
			usage();
		s = end + 1;
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "mode", required_argument, NULL, 'm' },
		{ "tasks", required_argument, NULL, 'n' },
		{ "no-affinity", no_argument, NULL, 'A' },
		{ "list", no_argument, NULL, 'l' },
		{ "check", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o = { 5, 1, true, true, true, { 0 }, 0 };
	const struct wtest *test = NULL;
	bool check = false;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "d:w:m:n:Alc", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o.duration = strtod(optarg, &end);
			if (*end || o.duration <= 0)
				usage();
			break;
		case 'w':
			o.warmup = strtod(optarg, &end);
			if (*end || o.warmup < 0)
				usage();
			break;
		case 'm':
			o.processes = !strcmp(optarg, "process") || !strcmp(optarg, "both");
			o.threads = !strcmp(optarg, "thread") || !strcmp(optarg, "both");
			if (!o.processes && !o.threads)
				usage();
			break;
		case 'n':
			parse_tasks(optarg, &o);
			break;
		case 'A':
			o.affinity = false;
			break;
		case 'c':
			check = true;
			break;
		case 'l':
			for (size_t i = 0; i < NR_TABLES; i++)
				for (const struct wtest *w = tables[i]; w->name; w++)
					printf("%-16s %s\n", w->name, w->doc);
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	for (size_t i = 0; i < NR_TABLES; i++)
		for (const struct wtest *w = tables[i]; w->name; w++)
			if (!strcmp(w->name, argv[optind]))
				test = w;
	if (!test) {
		fprintf(stderr, "will-it-scale: unknown test '%s' (see --list)\n", argv[optind]);
		return 2;
	}
	if (check)
		return check_test(test);
	if (!o.nr_tasks) {
		long nr_cpu = sysconf(_SC_NPROCESSORS_ONLN);
		for (long n = 1; n <= nr_cpu && o.nr_tasks < 64; n++)
			o.tasks[o.nr_tasks++] = n;
	}

	double linear_base = 0;
	printf("tasks,processes,processes_idle,threads,threads_idle,linear\n");
	printf("0,0,100,0,100,0\n");
	fflush(stdout);
	for (int i = 0; i < o.nr_tasks; i++) {
		long n = o.tasks[i];
		double p = 0, pi = 0, t = 0, ti = 0;

		if (o.processes && measure(test, &o, n, false, &p, &pi) < 0)
			return 1;
		if (o.threads && measure(test, &o, n, true, &t, &ti) < 0)
			return 1;
		if (n == 1)
			linear_base = o.processes ? p : t;
		printf("%ld,%.0f,%.2f,%.0f,%.2f,%.0f\n", n, p, pi, t, ti, linear_base * (double)n);
		fflush(stdout);
	}
	return ferror(stdout) ? 1 : 0;
}
