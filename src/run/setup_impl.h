#ifndef PERFBOT_RUN_SETUP_IMPL_H
#define PERFBOT_RUN_SETUP_IMPL_H
/*
 * Private to src/run/setup*.c: setup.c checks and applies a plan,
 * setup_plan.c makes one from a job, setup_undo.c replays journals.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "util/strbuf.h"

struct job_value;

#define JOURNAL_VERSION 1

struct run_fs_type {
	const char *name;           /* the job's `fs:` value */
	const char *fstype;         /* for mount(2) and /proc/filesystems */
	const char *mkfs;           /* NULL: nothing to make (tmpfs) */
	const char *mkfs_args[3];   /* before the device; force, quiet */
	const char *package;        /* Debian package of mkfs */
	const char *mount_data;     /* mount(2) options, or NULL */
	bool no_disk;               /* mounted without a device */
	const char *unsupported;    /* lkp knows it, perfbot does not: why */
};

/* "cannot work here": the reason printed as error() does and logged;
 * returns 1. */
__attribute__((format(printf, 2, 3)))
int setup_cannot(struct strbuf *log, const char *fmt, ...);
/* "FILE:LINE:COL: 'key' expected <expected>, got '<value>'" (the value
 * left out when v is NULL or hidden); returns -1. */
int setup_bad_value(const struct job_value *v, const char *key, const char *expected);
/* A small file (sysfs, /proc) into sb, trailing whitespace cut; 0 or -1. */
int setup_read_small(const char *path, struct strbuf *sb);
/* text into a sysfs file; 0 or -1. */
int setup_write_small(const char *path, const char *text);
/* Run argv; its stdout goes to log.  The exit code, or -1. */
int setup_run_tool(char *const *argv, struct strbuf *log);
/* Start time of pid in clock ticks since boot, with its state letter;
 * -1 when the process does not exist. */
long long setup_proc_start(pid_t pid, char *state);
void setup_free_list(char **list, size_t nr);
/* Replay a journal's text backwards: 0, or -1 when a step failed. */
int setup_replay_undo(const char *text, struct strbuf *log);
/* "1 GiB", "1.5 GiB", "1000 bytes": a size for messages. */
void setup_add_size(struct strbuf *sb, unsigned long long bytes);
/* A /proc/meminfo figure in bytes, 0 when unknown. */
unsigned long long setup_meminfo_bytes(const char *key);

struct run_setup;
struct run_setup_plan;
/* Append "word rest" to s's journal and write it, before the change it
 * announces; 0 or -1. */
__attribute__((format(printf, 3, 4)))
int setup_journal(struct run_setup *s, const char *word, const char *fmt, ...);

/* eatmem.c: the eater's check (0, 1 cannot work here: printed and
 * logged), its start (0 or -1 printed; s->eater set once journaled) and
 * the undo of an "eatmem <pid> <start>" journal line (0 or -1).
 * ram_disk: the bytes of RAM disks the same setup makes. */
int setup_eatmem_check(const struct run_setup_plan *plan, unsigned long long ram_disk,
		       struct strbuf *log);
int setup_eatmem_start(struct run_setup *s, const struct run_setup_plan *plan,
		       unsigned long long ram_disk, struct strbuf *log);
int setup_eatmem_undo(const char *rest, struct strbuf *log);

#endif
