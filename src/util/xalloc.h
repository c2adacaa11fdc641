#ifndef PERFBOT_XALLOC_H
#define PERFBOT_XALLOC_H
/*
 * Checked allocation, as in git's wrapper.c.
 *
 * x*alloc never return NULL: on exhaustion they print
 * "perfbot: out of memory" and exit(1).  A robot that has run out of memory
 * cannot produce a trustworthy result anyway, and one checked place beats
 * hundreds of unchecked ones.
 *
 * error(), warning(), die() and the exit codes are util/error.h's: a file
 * that uses them includes it.
 */
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grow *arr (of *alloc elements of size elem) to hold at least want. */
void *xgrow(void *arr, size_t elem, size_t want, size_t *alloc);
#define ALLOC_GROW(arr, want, alloc) \
	((arr) = xgrow((arr), sizeof(*(arr)), (want), &(alloc)))

/*
 * For commands that read large documents, build from them and exit (unite,
 * compare): keep freed memory in the heap rather than give it back.  glibc
 * maps each block over 128 KiB afresh (a 1.4 MB stats.json, a matrix's
 * arrays) and unmaps it when freed, so every file read faults its pages in
 * anew; on a VM a page fault costs microseconds, and that was a third of
 * unite's time at 30,000 metrics (bench/compare.sh).  Not for long-lived
 * commands (worker, watch), whose heap would keep its peak.
 */
void xalloc_batch_mode(void);

#endif
