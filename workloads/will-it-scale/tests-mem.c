/*
 * tests-mem.c: will-it-scale's memory tests (the original's names; the
 * operations are this program's own, see the table's docs).
 */
#include "wis.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned long page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (unsigned long)p : 4096;
}

/* Write one byte into each page of p, one operation per page fault. */
static void touch_pages(struct task *t, char *p, size_t len)
{
	unsigned long page = page_size();

	for (unsigned long off = 0; off < len; off += page) {
		p[off] = 1;
		(*t->count)++;
	}
}

static void page_fault1_op(struct task *t)
{
	char *p = mmap(NULL, WIS_MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	touch_pages(t, p, WIS_MEMSIZE);
	munmap(p, WIS_MEMSIZE);
}

static int sparse_file_setup(struct task *t)
{
	return wis_task_file(t, WIS_MEMSIZE, false, false);
}

/* page_fault2: copy-on-write faults of a private file mapping. */
static void page_fault2_op(struct task *t)
{
	char *p = mmap(NULL, WIS_MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, t->fd[0], 0);

	if (p == MAP_FAILED)
		return;
	touch_pages(t, p, WIS_MEMSIZE);
	munmap(p, WIS_MEMSIZE);
}

/* page_fault3: faults of a shared file mapping; the truncation frees the pages. */
static void page_fault3_op(struct task *t)
{
	char *p = mmap(NULL, WIS_MEMSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd[0], 0);

	if (p == MAP_FAILED)
		return;
	touch_pages(t, p, WIS_MEMSIZE);
	munmap(p, WIS_MEMSIZE);
	if (ftruncate(t->fd[0], 0) || ftruncate(t->fd[0], (off_t)WIS_MEMSIZE))
		return;
}

static void mmap1_op(struct task *t)
{
	void *p = mmap(NULL, WIS_MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	munmap(p, WIS_MEMSIZE);
	(*t->count)++;
}

static void mmap2_op(struct task *t)
{
	void *p = mmap(NULL, WIS_MEMSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd[0], 0);

	if (p == MAP_FAILED)
		return;
	munmap(p, WIS_MEMSIZE);
	(*t->count)++;
}

/* The volatile pointer keeps the compiler from eliding malloc and free. */
static void malloc_free(struct task *t, size_t size)
{
	void *volatile p = malloc(size);

	if (!p)
		return;
	free(p);
	(*t->count)++;
}

static void malloc1_op(struct task *t)
{
	malloc_free(t, WIS_MEMSIZE);
}

static void malloc2_op(struct task *t)
{
	malloc_free(t, 1);
}

/*
 * Grow the heap by a page and shrink it back.  The break is one per
 * process: threads take turns through the shared mutex, or one thread's
 * shrink would cut into another's page.
 */
static void brk_op(struct task *t, bool touch)
{
	unsigned long page = page_size();
	char *b;

	if (t->thread)
		pthread_mutex_lock(&t->g->mutex);
	b = sbrk(0);
	if (b != (void *)-1 && !brk(b + page)) {
		if (touch)
			b[0] = 1;
		if (!brk(b))
			(*t->count)++;
	}
	if (t->thread)
		pthread_mutex_unlock(&t->g->mutex);
}

static void brk1_op(struct task *t)
{
	brk_op(t, false);
}

static void brk2_op(struct task *t)
{
	brk_op(t, true);
}

#define TLB_LEN (64UL * 4096)

static int tlb_setup(struct task *t)
{
	t->map = mmap(NULL, TLB_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->map == MAP_FAILED) {
		t->map = NULL;
		return -1;
	}
	t->map_len = TLB_LEN;
	return 0;
}

static void touch_quietly(char *p, size_t len)
{
	unsigned long page = page_size();

	for (unsigned long off = 0; off < len; off += page)
		((volatile char *)p)[off] = 1;
}

/* tlb_flush1: fault pages in, drop them with MADV_DONTNEED (a TLB flush
 * on every CPU the process's threads run on). */
static void tlb_flush1_op(struct task *t)
{
	if (!t->map)
		return;
	touch_quietly(t->map, t->map_len);
	if (!madvise(t->map, t->map_len, MADV_DONTNEED))
		(*t->count)++;
}

/* tlb_flush2: write-protect touched pages and unprotect them. */
static void tlb_flush2_op(struct task *t)
{
	if (!t->map)
		return;
	touch_quietly(t->map, t->map_len);
	if (!mprotect(t->map, t->map_len, PROT_READ) &&
	    !mprotect(t->map, t->map_len, PROT_READ | PROT_WRITE))
		(*t->count)++;
}

/* tlb_flush3: unmap touched pages and map them again -- wherever the
 * kernel puts them: as threads, another task's mapping (a thread's
 * stack as it starts, a malloc arena) may take the hole between munmap
 * and mmap, and MAP_FIXED at the old address would map over it (the
 * threads run crashed so under load, t0805). */
static void tlb_flush3_op(struct task *t)
{
	void *p;

	if (!t->map)
		return;
	touch_quietly(t->map, t->map_len);
	munmap(t->map, t->map_len);
	p = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		t->map = NULL;  /* the next operations count nothing */
		return;
	}
	t->map = p;
	(*t->count)++;
}

const struct wtest wis_mem_tests[] = {
	{ "brk1", "grow the heap by a page and shrink it back", NULL, brk1_op, NULL },
	{ "brk2", "grow the heap by a page, write to it, shrink it back", NULL, brk2_op, NULL },
	{ "malloc1", "malloc and free 128 MB (an mmap and munmap)", NULL, malloc1_op, NULL },
	{ "malloc2", "malloc and free 1 byte", NULL, malloc2_op, NULL },
	{ "mmap1", "map and unmap 128 MB of anonymous memory", NULL, mmap1_op, NULL },
	{ "mmap2", "map and unmap 128 MB of a private file, shared", sparse_file_setup, mmap2_op, NULL },
	{ "page_fault1", "write-fault every page of 128 MB of anonymous memory",
	  NULL, page_fault1_op, NULL },
	{ "page_fault2", "write-fault every page of a private mapping of a 128 MB file",
	  sparse_file_setup, page_fault2_op, NULL },
	{ "page_fault3", "write-fault every page of a shared mapping of a 128 MB file",
	  sparse_file_setup, page_fault3_op, NULL },
	{ "tlb_flush1", "write 64 pages, drop them with madvise(MADV_DONTNEED)",
	  tlb_setup, tlb_flush1_op, NULL },
	{ "tlb_flush2", "write 64 pages, mprotect them read-only and back",
	  tlb_setup, tlb_flush2_op, NULL },
	{ "tlb_flush3", "write 64 pages, unmap them and map them again",
	  tlb_setup, tlb_flush3_op, NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};
