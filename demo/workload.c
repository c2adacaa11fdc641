/*
 * workload.c: the demo's multi-threaded benchmark.
 *
 * Each of nproc threads repeatedly hashes a private buffer (a "work unit")
 * and accounts the result.  It prints lines in the `name: number` form that
 * perfbot's mytest convention turns into metrics:
 *
 *   throughput: <work units per second, all threads>
 *   per_thread_ops: <work units per second per thread>
 *
 * make-demo-repo.sh builds a git history of this file; one commit moves the
 * accounting under a global spinlock (demo_spin_lock), the way seed 000's
 * grab_super_passive took _raw_spin_lock in a hot path.  That commit should
 * cost about 15% of throughput on a 2-core machine, and the lock shows up
 * in perf-profile.
 *
 * usage: workload [seconds]   (default 5; $WORKLOAD_SECONDS overrides)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define BUF_WORDS 256

struct worker {
	pthread_t tid;
	uint64_t units;
	uint64_t sink;
	double seconds;
};

static atomic_int stop_flag;
/* @@ACCOUNTING_DECL@@ */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One work unit: FNV-style mixing over a private buffer. */
static uint64_t __attribute__((noinline)) work_unit(uint64_t *buf, uint64_t seed)
{
	uint64_t h = seed ^ 0xcbf29ce484222325ULL;
	for (int i = 0; i < BUF_WORDS; i++) {
		h = (h ^ buf[i]) * 0x100000001b3ULL;
		buf[i] += h >> 7;
	}
	return h;
}

static void __attribute__((noinline)) account(struct worker *w, uint64_t h)
{
	/* @@ACCOUNTING@@ */
	w->sink += h;
	w->units++;
}

static void *run(void *arg)
{
	struct worker *w = arg;
	uint64_t buf[BUF_WORDS];

	for (int i = 0; i < BUF_WORDS; i++)
		buf[i] = (uint64_t)i * 2654435761u;
	while (!atomic_load_explicit(&stop_flag, memory_order_relaxed))
		account(w, work_unit(buf, w->units));
	return NULL;
}

int main(int argc, char **argv)
{
	const char *env = getenv("WORKLOAD_SECONDS");
	double seconds = argc > 1 ? atof(argv[1]) : env ? atof(env) : 5;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	struct worker *w;
	uint64_t total = 0;

	if (n < 1)
		n = 1;
	w = calloc((size_t)n, sizeof(*w));
	if (!w)
		return 1;
	double t0 = now();
	for (long i = 0; i < n; i++)
		if (pthread_create(&w[i].tid, NULL, run, &w[i]))
			return 1;
	while (now() - t0 < seconds)
		usleep(10000);
	atomic_store(&stop_flag, 1);
	for (long i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].units;
	}
	double el = now() - t0;
	printf("throughput: %.0f\n", total / el);
	printf("per_thread_ops: %.0f\n", total / el / n);
	printf("threads: %ld\n", n);
	return 0;
}
