#ifndef PERFBOT_KERNEL_SERIAL_H
#define PERFBOT_KERNEL_SERIAL_H
/*
 * Reading a boot's serial console: did the kernel reach perfbot's /init,
 * run the job and send the results, or did it panic, find no init, hang
 * or crash?  And lkp's boot-time stats from the same log.
 *
 * The guest's /init (initramfs.c) prints marker lines on the console:
 *
 *   perfbot-guest: init <uptime>     /init started, <uptime> guest seconds
 *                                    after the kernel did
 *   perfbot-guest: exit <status>     the job's `perfbot run` ended
 *   perfbot-guest: sent <bytes>      the results went out on ttyS1
 *
 * All functions here but the readers are pure: they read a log held in
 * memory.  The readers bound what is kept of a stream the guest writes
 * (QEMU puts each serial port in a file): a hostile or broken kernel may
 * write hundreds of megabytes there.
 */
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

#define GUEST_MARK_INIT "perfbot-guest: init "
#define GUEST_MARK_EXIT "perfbot-guest: exit "
#define GUEST_MARK_SENT "perfbot-guest: sent "

enum boot_state {
	BOOT_OK,            /* the job ran and its results were sent */
	BOOT_PANIC,         /* "Kernel panic - not syncing" (an oops, with oops=panic) */
	BOOT_NO_INIT,       /* the kernel found no init to run */
	BOOT_EARLY_HANG,    /* killed at the boot deadline: not one line of output */
	BOOT_HANG,          /* killed at the boot deadline before /init */
	BOOT_JOB_TIMEOUT,   /* /init ran, the job did not end before its deadline */
	BOOT_CRASH,         /* QEMU ended before the results, with no panic line */
	BOOT_NO_RESULTS,    /* the kernel ran /init, perfbot in the guest made no run */
};

/* What is kept of a console: its first and its last bytes. */
#define SERIAL_KEEP_HEAD (4u << 20)
#define SERIAL_KEEP_TAIL (4u << 20)

/*
 * Read fd to its end into out, keeping its first head bytes and its last
 * tail bytes; between them, when bytes were left out, one line saying how
 * many.  A regular file's middle is skipped unread.  Returns the number
 * of bytes left out, or -1 after error() naming what.  tail > 0.
 */
long long serial_read_kept(int fd, const char *what, size_t head, size_t tail,
			   struct strbuf *out);
/*
 * The console file at path, bounded by SERIAL_KEEP_HEAD and _TAIL; when
 * bytes were left out, the file is rewritten with what was kept and a
 * warning names it.  0, or -1 after error().
 */
int serial_read_console(const char *path, struct strbuf *out);

/* How the boot ended, as the host saw it. */
enum boot_end {
	BOOT_END_EXITED,    /* QEMU exited by itself (reboot, panic=-1) */
	BOOT_END_KILLED,    /* perfbot killed it at a deadline */
	BOOT_END_FLOOD,     /* perfbot killed it: a serial file passed SERIAL_FILE_MAX */
};

/*
 * What a guest may write on one serial port while it runs (the console,
 * the results archive, whose unpacked size CPIO_MAX_BYTES bounds, packed
 * in gzip): past it the guest is stopped, so that a hostile or runaway
 * guest cannot fill the host's disk.
 */
#define SERIAL_FILE_MAX (512u << 20)

/* Whether the file at path is larger than max bytes (a missing file is
 * not). */
bool serial_file_over(const char *path, unsigned long long max);

struct boot_report {
	enum boot_state state;
	double init_uptime;     /* guest seconds to /init; -1: not reached */
	double kernel_boot;     /* timestamp of "Freeing unused kernel ..."; -1 */
	double smp_boot;        /* seconds to bring up the CPUs; -1 */
	double last_stamp;      /* the log's last timestamp; -1 */
	long long sent_bytes;   /* from the sent marker; -1: no marker */
	int exit_status;        /* of the guest's perfbot run; -1: no marker */
	struct strbuf reason;   /* one line for last_state ("kernel panic: ...") */
};

/* Classify the serial log of one boot (see enum boot_state).  Release r
 * with boot_report_release. */
void boot_classify(const char *log, size_t len, enum boot_end end, struct boot_report *r);
void boot_report_release(struct boot_report *r);

/* "ok", "panic", "no-init", "early-boot-hang", "boot-hang", "timeout",
 * "crash", "no-results" */
const char *boot_state_name(enum boot_state s);

/*
 * The line lkp's test harness appends to the dmesg file of a boot that
 * failed where the kernel could not say so itself ("BUG: kernel boot
 * hang"), so that the dmesg stats name it; NULL when the log says enough.
 */
const char *boot_failure_line(enum boot_state s);

/* lkp's boot-time stats lines ("boot: 1.52", "kernel_boot: 1.31",
 * "smp_boot: 0.02"), those that r knows, appended to out. */
void boot_time_stats(const struct boot_report *r, struct strbuf *out);

#endif
