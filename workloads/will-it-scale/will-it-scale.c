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
 *
 * Each measurement starts the tasks, lets them run --warmup seconds
 * (default 1), then counts operations for --duration seconds (default 5;
 * fractions are fine, so that tests can run for a second).  Task i is
 * bound to CPU i modulo the CPUs unless --no-affinity, as the original.
 *
 * The tests (one operation each; the original's names):
 *
 *   page_fault1      map 128 MB of anonymous memory, write each page (one
 *                    operation per page fault), unmap
 *   lock1            take and drop a POSIX write lock on a private file
 *   context_switch1  pass a byte to a partner task and back through two
 *                    pipes (two context switches)
 *   pipe1            write a byte into a private pipe and read it back
 *   mmap1            map and unmap 128 MB of anonymous memory
 *   getppid1         the cheapest system call
 *
 * Exit status: 0, 1 when a task could not set up (message on stderr), 2
 * for bad usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MEMSIZE (128UL << 20)
#define MAX_TASKS 4096

/* One counter per task, a cache line (or two) apart so that tasks do not
 * slow each other down by sharing one. */
struct counter {
	volatile unsigned long v;
	char pad[128 - sizeof(unsigned long)];
};

struct task {
	int id;
	bool thread;
	volatile unsigned long *count;
	volatile int *stop;
	/* the test's state */
	int fd[4];
	pid_t helper;
	pthread_t helper_thread;
	bool has_helper_thread;
};

struct wtest {
	const char *name;
	const char *doc;
	int (*setup)(struct task *t);           /* 0, or -1 with errno */
	void (*op)(struct task *t);             /* adds to *t->count */
	void (*cleanup)(struct task *t);
};

/* ---- the tests ---------------------------------------------------------- */

static void page_fault_op(struct task *t)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	for (unsigned long off = 0; off < MEMSIZE; off += (unsigned long)page) {
		p[off] = 1;
		(*t->count)++;
	}
	munmap(p, MEMSIZE);
}

static void mmap_op(struct task *t)
{
	void *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	munmap(p, MEMSIZE);
	(*t->count)++;
}

static void getppid_op(struct task *t)
{
	if (getppid() >= 0)
		(*t->count)++;
}

static int lock_setup(struct task *t)
{
	char path[] = "/tmp/will-it-scale.XXXXXX";

	t->fd[0] = mkstemp(path);
	if (t->fd[0] < 0)
		return -1;
	unlink(path);
	return 0;
}

static void lock_op(struct task *t)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	if (fcntl(t->fd[0], F_SETLK, &fl))
		return;
	fl.l_type = F_UNLCK;
	if (fcntl(t->fd[0], F_SETLK, &fl))
		return;
	(*t->count)++;
}

static void close_fds(struct task *t)
{
	for (int i = 0; i < 4; i++)
		if (t->fd[i] >= 0) {
			close(t->fd[i]);
			t->fd[i] = -1;
		}
}

static int pipe_setup(struct task *t)
{
	return pipe(t->fd);
}

static void pipe_op(struct task *t)
{
	char c = 0;

	if (write(t->fd[1], &c, 1) == 1 && read(t->fd[0], &c, 1) == 1)
		(*t->count)++;
}

/* The partner of context_switch1: echo bytes from fd[2] to fd[1] until EOF. */
static void echo_loop(int in, int out)
{
	char c;

	while (read(in, &c, 1) == 1)
		if (write(out, &c, 1) != 1)
			break;
}

static void *echo_thread(void *arg)
{
	struct task *t = arg;

	echo_loop(t->fd[2], t->fd[1]);
	return NULL;
}

/* fd[0]/fd[1]: partner -> task; fd[2]/fd[3]: task -> partner. */
static int context_switch_setup(struct task *t)
{
	if (pipe(t->fd) || pipe(t->fd + 2))
		return -1;
	if (t->thread) {
		if (pthread_create(&t->helper_thread, NULL, echo_thread, t)) {
			errno = EAGAIN;
			return -1;
		}
		t->has_helper_thread = true;
		return 0;
	}
	t->helper = fork();
	if (t->helper < 0)
		return -1;
	if (t->helper == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		echo_loop(t->fd[2], t->fd[1]);
		_exit(0);
	}
	return 0;
}

static void context_switch_op(struct task *t)
{
	char c = 0;

	if (write(t->fd[3], &c, 1) == 1 && read(t->fd[0], &c, 1) == 1)
		(*t->count)++;
}

static void context_switch_cleanup(struct task *t)
{
	/* EOF on the partner's input ends it */
	close(t->fd[3]);
	t->fd[3] = -1;
	if (t->has_helper_thread)
		pthread_join(t->helper_thread, NULL);
	if (t->helper > 0)
		waitpid(t->helper, NULL, 0);
	close_fds(t);
}

static const struct wtest tests[] = {
	{ "page_fault1", "write-fault every page of 128 MB of anonymous memory",
	  NULL, page_fault_op, NULL },
	{ "lock1", "take and drop a POSIX lock on a private file", lock_setup, lock_op, close_fds },
	{ "context_switch1", "ping-pong a byte with a partner through two pipes",
	  context_switch_setup, context_switch_op, context_switch_cleanup },
	{ "pipe1", "write and read back a byte through a private pipe", pipe_setup, pipe_op, close_fds },
	{ "mmap1", "map and unmap 128 MB of anonymous memory", NULL, mmap_op, NULL },
	{ "getppid1", "call getppid()", NULL, getppid_op, NULL },
};
#define NR_TESTS (sizeof(tests) / sizeof(tests[0]))

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
		return 1;
	}
	while (!*t->stop)
		r->test->op(t);
	if (r->test->cleanup)
		r->test->cleanup(t);
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
	size_t shared_len = sizeof(struct counter) * (size_t)n + 4096;
	char *shared = mmap(NULL, shared_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct run r = { test, o, NULL, NULL, NULL, 0 };
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
	rs->counters = (struct counter *)(shared + 4096);
	rs->t = calloc((size_t)n, sizeof(struct task));
	if (!rs->t) {
		fprintf(stderr, "will-it-scale: out of memory\n");
		munmap(shared, shared_len);
		return -1;
	}
	for (long i = 0; i < n; i++) {
		rs->t[i].id = (int)i;
		rs->t[i].thread = threads;
		rs->t[i].count = &rs->counters[i].v;
		rs->t[i].stop = rs->stop;
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
	free(th);
	free(args);
	free(pids);
	free(rs->t);
	munmap(shared, shared_len);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: will-it-scale [--duration=SEC] [--warmup=SEC] [--mode=process|thread|both]\n"
		"                     [--tasks=1,2,4] [--no-affinity] TEST\n"
		"       will-it-scale --list\n");
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
		{ NULL, 0, NULL, 0 }
	};
	struct opts o = { 5, 1, true, true, true, { 0 }, 0 };
	const struct wtest *test = NULL;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "d:w:m:n:Al", longopts, NULL)) != -1) {
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
		case 'l':
			for (size_t i = 0; i < NR_TESTS; i++)
				printf("%-16s %s\n", tests[i].name, tests[i].doc);
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	for (size_t i = 0; i < NR_TESTS; i++)
		if (!strcmp(tests[i].name, argv[optind]))
			test = &tests[i];
	if (!test) {
		fprintf(stderr, "will-it-scale: unknown test '%s' (see --list)\n", argv[optind]);
		return 2;
	}
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
