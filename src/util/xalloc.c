/* xalloc.c: allocation that cannot return NULL (see xalloc.h). */
#include "util/xalloc.h"
#include "util/error.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("perfbot: out of memory\n", stderr);
	exit(EXIT_ERROR);
}

void xalloc_batch_mode(void)
{
	/* 32 MiB is the largest mmap threshold glibc takes on 64 bits; the
	 * trim threshold and top pad keep freed space for the next file.
	 * mallopt failing (another libc) only costs speed. */
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, 256 << 20);
	(void)mallopt(M_TOP_PAD, 16 << 20);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom();
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		oom();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		oom();
	return p;
}

void *xgrow(void *arr, size_t elem, size_t want, size_t *alloc)
{
	if (want <= *alloc)
		return arr;
	size_t n = *alloc ? *alloc : 8;
	while (n < want)
		n = n * 2;
	if (n > SIZE_MAX / elem)
		oom();
	*alloc = n;
	return xrealloc(arr, n * elem);
}
