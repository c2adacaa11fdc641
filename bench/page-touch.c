/*
 * page-touch: what touching memory costs on this machine after the CPU
 * has been idle, by how long.  The sampler's cost per tick follows from
 * it (see src/monitor/sampler.c): on the VM perfbot was written on, a
 * page not touched for a second costs 7-30 us to touch again, however
 * little is done in it.
 *
 *   page-touch [WAKES]
 *
 * For idle intervals of 1, 0.5, 0.25 and 0.1 s, wakes WAKES times
 * (default 10) from a timerfd and reads one byte from each of 100
 * distinct pages of a buffer written at start, then one byte from each of
 * 100 cache lines of a single page, and prints the mean time per page and
 * per line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define PAGES 100

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const double idle[] = { 1, 0.5, 0.25, 0.1 };
	int wakes = argc > 1 ? atoi(argv[1]) : 10;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	volatile unsigned char *buf = malloc(PAGES * page);
	unsigned sum = 0;

	if (!buf || wakes < 1) {
		fprintf(stderr, "usage: page-touch [WAKES]\n");
		return 2;
	}
	memset((void *)buf, 1, PAGES * page);
	printf("%-10s %16s %16s\n", "idle", "us per page", "us per line");
	for (size_t k = 0; k < sizeof(idle) / sizeof(idle[0]); k++) {
		time_t sec = (time_t)idle[k];
		long nsec = (long)((idle[k] - (double)sec) * 1e9);
		struct itimerspec its = { { sec, nsec }, { sec, nsec } };
		int fd = timerfd_create(CLOCK_MONOTONIC, 0);
		double pages = 0, lines = 0;
		uint64_t n;

		if (fd < 0 || timerfd_settime(fd, 0, &its, NULL) < 0) {
			perror("page-touch: timerfd");
			return 1;
		}
		for (int w = 0; w < wakes; w++) {
			double t0, t1, t2;

			if (read(fd, &n, sizeof(n)) != sizeof(n))
				return 1;
			/* a first touch absorbs the wake itself */
			sum += buf[0];
			t0 = now();
			for (size_t p = 1; p <= PAGES - 1; p++)
				sum += buf[p * page];
			t1 = now();
			for (size_t l = 1; l <= PAGES - 1; l++)
				sum += buf[(l * 64) % page];
			t2 = now();
			pages += t1 - t0;
			lines += t2 - t1;
		}
		close(fd);
		printf("%-10.2f %16.2f %16.3f\n", idle[k], pages * 1e6 / wakes / (PAGES - 1),
		       lines * 1e6 / wakes / (PAGES - 1));
	}
	return sum == 42;   /* keeps the reads */
}
