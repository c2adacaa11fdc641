/*
 * bench/rx.c: time to match parser patterns against a line of N digits,
 * perfbot's util/rx against glibc's regexec (run by bench/rx.sh).
 *
 *   build/bench/rx [MAX_GLIBC_DIGITS]
 *
 * Prints one line per (pattern, N): milliseconds for each matcher.
 * glibc is skipped past MAX_GLIBC_DIGITS (default 25000): it is quadratic
 * and would take minutes.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/rx.h"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	static const char *const patterns[] = {
		"([0-9]+) bytes \\([0-9.]+ .B(, [0-9.]+ .iB)?\\) copied",    /* vm-scalability */
		"([0-9,]+)[[:space:]]*ops/sec",                                /* perf-bench-syscall */
		"[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9].*$", /* netperf */
	};
	static const long sizes[] = { 1000, 5000, 25000, 100000, 1000000 };
	long max_glibc = argc > 1 ? atol(argv[1]) : 25000;

	printf("%-12s %9s %12s %12s\n", "pattern", "digits", "rx ms", "glibc ms");
	for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
		struct rx re;
		regex_t g;
		if (rx_compile(&re, patterns[p], NULL) < 0 ||
		    regcomp(&g, patterns[p], REG_EXTENDED))
			return 1;
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			char *s = malloc((size_t)sizes[k] + 1);
			double t0, t1, t2 = -1;
			struct rx_sub m[4];
			regmatch_t gm[4];
			if (!s)
				return 1;
			memset(s, '1', (size_t)sizes[k]);
			s[sizes[k]] = '\0';
			t0 = now_ms();
			rx_exec(&re, s, m, 4);
			t1 = now_ms();
			if (sizes[k] <= max_glibc) {
				regexec(&g, s, 4, gm, 0);
				t2 = now_ms() - t1;
			}
			printf("%-12zu %9ld %12.2f ", p, sizes[k], t1 - t0);
			if (t2 >= 0)
				printf("%12.2f\n", t2);
			else
				printf("%12s\n", "(skipped)");
			fflush(stdout);
			free(s);
		}
		rx_release(&re);
		regfree(&g);
	}
	return 0;
}
