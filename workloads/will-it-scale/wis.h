/*
 * wis.h: what will-it-scale's tests (tests-*.c) and its harness
 * (will-it-scale.c) share.
 *
 * A test is one tiny operation that a task repeats until told to stop,
 * adding one to *count per operation (per page for the page-fault tests).
 * Tasks are processes or threads; per-task state lives in struct task,
 * state all tasks share (a file, a process-shared mutex and semaphore, a
 * futex word) in struct wis_shared, which the harness sets up in shared
 * memory before the tasks start, so that processes inherit it.
 */
#ifndef WIS_H
#define WIS_H

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define WIS_MEMSIZE (128UL << 20)       /* the memory tests' mapping */
#define WIS_FILESIZE (1UL << 20)        /* the file tests' files */
#define WIS_BUFSIZE 4096                /* one read or write */
#define WIS_NR_POLL 128                 /* poll1/poll2's entries */

/* Set up once per measurement, before the tasks start. */
struct wis_shared {
	char dir[256];          /* a temporary directory for the run's files */
	char file[300];         /* dir/shared: WIS_FILESIZE bytes of data */
	int fd;                 /* file, opened once: its offset is shared */
	pthread_mutex_t mutex;  /* process-shared */
	sem_t sem;              /* process-shared, value 1 */
	int futex;              /* one futex word for all tasks */
};

struct task {
	int id;
	bool thread;
	volatile unsigned long *count;
	volatile int *stop;
	struct wis_shared *g;
	/* the test's state; fd[] is -1 when unused, paths "" */
	int fd[4];
	char path[320];         /* the task's own file */
	char dpath[320];        /* the task's own directory */
	char *map;
	size_t map_len;
	int futex;
	unsigned long n;        /* operations done, where a test needs it */
	pthread_mutex_t mutex;
	bool has_mutex;
	pid_t helper;
	pthread_t helper_thread;
	bool has_helper_thread;
	struct pollfd pfd[WIS_NR_POLL];
	char buf[WIS_BUFSIZE];
};

struct wtest {
	const char *name;                       /* NULL ends a table */
	const char *doc;
	int (*setup)(struct task *t);           /* 0, or -1 with errno */
	void (*op)(struct task *t);             /* adds to *t->count */
	void (*cleanup)(struct task *t);        /* NULL: wis_cleanup() */
};

/* The tables of tests-mem.c, tests-file.c and tests-ipc.c. */
extern const struct wtest wis_mem_tests[], wis_file_tests[], wis_ipc_tests[];

/*
 * Make the task's own file (t->path in the shared directory, or in the
 * task's own directory when in_own_dir) of size bytes: of data when
 * filled, else sparse; open it read-write as fd[0].  0, or -1 with errno.
 */
int wis_task_file(struct task *t, size_t size, bool filled, bool in_own_dir);

/* Open the shared file read-write as fd[0].  0, or -1 with errno. */
int wis_open_shared(struct task *t);

/* The default cleanup: unmap, close the fds, remove the task's file and directory. */
void wis_cleanup(struct task *t);

#endif
