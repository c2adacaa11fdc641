/*
 * ebizzy: a small rewrite of the ebizzy benchmark's idea, a web
 * application server's memory behaviour: many threads, a large in-memory
 * working set, memory allocated and freed all the time.  Each thread
 * repeatedly picks one of --chunks chunks of sorted records at random,
 * copies it into freshly allocated memory (malloc, or mmap with -m),
 * looks up a random record in the copy (binary search, or linear with
 * -l) and frees the copy: one record.  It prints, per iteration, the
 * lines lkp's ebizzy parser reads (and perfbot's, src/parse/ebizzy.c):
 *
 *   Iteration: 1
 *   <records/s of all threads> records/s <per thread> <per thread> ...
 *   real  <s> s
 *   user  <s> s
 *   sys   <s> s
 *
 *   ebizzy [-t THREADS] [-S SECONDS] [-n ITERATIONS] [-c CHUNKS]
 *          [-s CHUNK_BYTES] [-m] [-l]
 *
 * Defaults: a thread per CPU, 10 s, 1 iteration, 10 chunks of 256 KB.
 * Exit status: 0, 1 when memory or a thread could not be had, 2 for bad
 * usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct opts {
	long threads, iterations, chunks;
	size_t chunk_size;
	double seconds;
	bool use_mmap, linear;
};

struct worker {
	const struct opts *o;
	unsigned long *const *chunks;
	volatile int *stop;
	unsigned long records;
	unsigned int seed;
	int failed;
	pthread_t th;
};

static size_t nr_records(const struct opts *o)
{
	return o->chunk_size / sizeof(unsigned long);
}

static unsigned long *alloc_copy(const struct opts *o)
{
	if (o->use_mmap) {
		void *p = mmap(NULL, o->chunk_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	return malloc(o->chunk_size);
}

static void free_copy(const struct opts *o, unsigned long *p)
{
	if (o->use_mmap)
		munmap(p, o->chunk_size);
	else
		free(p);
}

/* Whether key is among the n sorted records of v. */
static bool search(const unsigned long *v, size_t n, unsigned long key, bool linear)
{
	size_t lo = 0, hi = n;

	if (linear) {
		for (size_t i = 0; i < n; i++)
			if (v[i] == key)
				return true;
		return false;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] == key)
			return true;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	size_t n = nr_records(w->o);

	while (!*w->stop) {
		const unsigned long *src = w->chunks[(size_t)rand_r(&w->seed) % (size_t)w->o->chunks];
		unsigned long *copy = alloc_copy(w->o);

		if (!copy) {
			w->failed = 1;
			break;
		}
		memcpy(copy, src, w->o->chunk_size);
		/* a key taken from the chunk: the search always succeeds */
		if (search(copy, n, src[(size_t)rand_r(&w->seed) % n], w->o->linear))
			w->records++;
		free_copy(w->o, copy);
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

static void sleep_for(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int iteration(const struct opts *o, unsigned long *const *chunks, long it)
{
	struct worker *w = calloc((size_t)o->threads, sizeof(*w));
	volatile int stop = 0;
	struct rusage r0, r1;
	double t0, t1, total = 0;
	long started = 0;
	int ret = 0;

	if (!w) {
		fprintf(stderr, "ebizzy: out of memory\n");
		return 1;
	}
	getrusage(RUSAGE_SELF, &r0);
	t0 = now();
	for (; started < o->threads; started++) {
		w[started] = (struct worker){ .o = o, .chunks = chunks, .stop = &stop,
					      .seed = (unsigned int)(it * 7919 + started) };
		if (pthread_create(&w[started].th, NULL, work, &w[started])) {
			fprintf(stderr, "ebizzy: cannot start thread %ld\n", started);
			ret = 1;
			break;
		}
	}
	if (!ret)
		sleep_for(o->seconds);
	stop = 1;
	for (long i = 0; i < started; i++) {
		pthread_join(w[i].th, NULL);
		if (w[i].failed && !ret) {
			fprintf(stderr, "ebizzy: out of memory for a copy\n");
			ret = 1;
		}
	}
	t1 = now();
	getrusage(RUSAGE_SELF, &r1);
	if (!ret) {
		double elapsed = t1 - t0;

		for (long i = 0; i < o->threads; i++)
			total += (double)w[i].records;
		printf("Iteration: %ld\n%.0f records/s", it, total / elapsed);
		for (long i = 0; i < o->threads; i++)
			printf(" %.0f", (double)w[i].records / elapsed);
		printf("\nreal %5.2f s\nuser %5.2f s\nsys  %5.2f s\n", elapsed,
		       tv_seconds(r1.ru_utime) - tv_seconds(r0.ru_utime),
		       tv_seconds(r1.ru_stime) - tv_seconds(r0.ru_stime));
		fflush(stdout);
	}
	free(w);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: ebizzy [-t THREADS] [-S SECONDS] [-n ITERATIONS] [-c CHUNKS]\n"
		"              [-s CHUNK_BYTES] [-m] [-l]\n");
	exit(2);
}

static long positive(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 1)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	long nr_cpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct opts o = { nr_cpu > 0 ? nr_cpu : 1, 1, 10, 256 << 10, 10, false, false };
	unsigned long **chunks;
	char *end;
	int c, ret = 0;

	while ((c = getopt(argc, argv, "t:S:n:c:s:ml")) != -1) {
		switch (c) {
		case 't': o.threads = positive(optarg); break;
		case 'n': o.iterations = positive(optarg); break;
		case 'c': o.chunks = positive(optarg); break;
		case 's': o.chunk_size = (size_t)positive(optarg); break;
		case 'm': o.use_mmap = true; break;
		case 'l': o.linear = true; break;
		case 'S':
			o.seconds = strtod(optarg, &end);
			if (end == optarg || *end || o.seconds <= 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc || o.chunk_size < sizeof(unsigned long))
		usage();
	chunks = calloc((size_t)o.chunks, sizeof(*chunks));
	for (long i = 0; chunks && i < o.chunks; i++) {
		size_t n = nr_records(&o);
		unsigned long v = 0;

		chunks[i] = malloc(o.chunk_size);
		if (!chunks[i]) {
			o.chunks = i;
			ret = 1;
			break;
		}
		/* sorted, distinct records */
		for (size_t j = 0; j < n; j++)
			chunks[i][j] = v += 1 + (unsigned long)(j * 2654435761UL % 7);
	}
	if (!chunks || ret) {
		fprintf(stderr, "ebizzy: out of memory for the chunks\n");
		ret = 1;
	}
	for (long it = 1; !ret && it <= o.iterations; it++)
		ret = iteration(&o, chunks, it);
	for (long i = 0; chunks && i < o.chunks; i++)
		free(chunks[i]);
	free(chunks);
	return ret;
}
