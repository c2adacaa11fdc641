#ifndef PERFBOT_RUN_SETUP_H
#define PERFBOT_RUN_SETUP_H
/*
 * The machine state a job asks for, made before a run and undone after:
 * lkp-tests' `disk:` (a RAM disk or a loop image), `fs:` (mkfs and mount
 * it) and `cpufreq_governor:`.  lkp does this in its setup/disk, setup/fs
 * and setup/cpufreq_governor scripts; perfbot does it here, in C, so that
 * every change it makes is journaled and undone even after kill -9.
 *
 * The job keys (an atomic job: no lists left):
 *
 *   disk: loop_<size>       a sparse image of <size> under work_base,
 *                           attached with `losetup --find --show
 *                           --direct-io=on` (perfbot's own form)
 *   disk: <N>BRD_<size>     N brd RAM disks of <size> each (lkp's form,
 *                           `modprobe brd rd_nr=N rd_size=<KiB>`,
 *                           or a built-in brd booted with that size);
 *                           <N>BRD alone is lkp's default size, 1G
 *   disk: <N>HDD, <N>SSD,   real disks of an lkp host file: perfbot does
 *         <N>PMEM, <N>SRD_S not manage them ("cannot work here")
 *   fs: ext2|ext3|ext4|xfs|btrfs|f2fs
 *                           mkfs on every disk, each mounted on a fresh
 *                           dir under work_base; without `disk:` a
 *                           loop_1G image is made (RUN_SETUP_DEFAULT_DISK)
 *   fs: tmpfs               a tmpfs mount, no disk
 *   fs: nfsv3, nfsv4, cifs, smb*, udf, ocfs2, and any fs2:
 *                           lkp's, not done by perfbot ("cannot work here")
 *   cpufreq_governor: G     written to every online CPU's
 *                           cpufreq/scaling_governor, the old values
 *                           restored by undo; without cpufreq (most VMs)
 *                           "skipped: no cpufreq" goes to the log
 *   eatmem: {eatmem_size: S}
 *                           lkp's memory eater: a child of perfbot
 *                           mlocks and prefaults S of anonymous memory
 *                           for the run (run/eatmem.h has the forms:
 *                           sizes, N% of MemAvailable, eatmem_leave)
 *
 * Sizes are lkp's: digits, then K, M, G, T or P (powers of 1024, either
 * case, an optional trailing B); plain digits are bytes.
 *
 * The caller's steps (src/run/run.c), with the plan that decoding the job
 * made (run_setup_plan, through job_desc_decode: desc.setup):
 *
 *   run_setup_cleanup_stale(work_base, NULL, &log);   // once, at the start
 *   struct run_setup s = RUN_SETUP_INIT;
 *   int r = desc.setup_cannot ? run_setup_refuse(desc.setup_why.buf, &log) :
 *           run_setup_apply_plan(&desc.setup, work_base, &s, &log);
 *   if (r)                 // 1: cannot work here, -1: error; both printed
 *           ...            // nothing is left set up
 *   // benchmark: cwd s.mnt (when not NULL), environment += s.env
 *   run_setup_undo(&s, &log);   // after stats, also after a failure or
 *                               // SIGINT/SIGTERM; twice is harmless
 *
 * work_base is private (run/workdir.h: made 0700, checked on each use).
 * Crash safety: apply keeps a journal "<work_base>/setup-<pid>-<n>.state"
 * (through write_file_atomic) and writes each change's line *before*
 * making the change, so the journal always names a superset of what
 * exists.  Undo replays the journal backwards; every undo step is
 * idempotent (a missing mount, loop device or file is fine), so replaying
 * a journal whose last step never happened is safe.  A perfbot killed
 * with -9 leaves its journal behind; run_setup_cleanup_stale replays the
 * journals whose owner process is gone.  Journal format, version 1:
 *
 *   perfbot-setup 1
 *   owner <pid> <starttime>     the process and its /proc start time
 *   dir <path>                  the setup dir (holds images, mount dirs)
 *   brd <n>                     about to modprobe brd
 *   image <path>                about to create a loop image; undo
 *                               detaches every loop device backed by it
 *   loop <dev> <path>           dev was attached to image path
 *   mountdir <path>             about to mkdir a mount point
 *   mount <path>                about to mount on path
 *   governor <old> <file>       about to change a scaling_governor file
 *   eatmem <pid> <starttime>    the eater was forked (it locks nothing
 *                               before this line is written); undo kills
 *                               it when it is still that process
 *
 * The last field may contain spaces (it is the rest of the line).
 */
#include <stdbool.h>
#include <stddef.h>
#include "job/job.h"
#include "run/eatmem.h"
#include "util/strbuf.h"

/* The disk made for `fs:` when the job names none. */
#define RUN_SETUP_DEFAULT_DISK "loop_1G"

/* One disk: a loop device or a brd RAM disk. */
struct run_setup_dev {
	char *dev;              /* "/dev/loop3", "/dev/ram0" */
	char *image;            /* the loop's backing file, NULL for brd */
	char *mnt;              /* its mount point, NULL without fs */
};

struct run_setup {
	/* --- inputs: set before run_setup_apply_plan, zero means default --- */

	/* The cpufreq tree; NULL: /sys/devices/system/cpu (tests point it
	 * at a fake tree). */
	const char *cpu_sysfs;
	/* The modules' tree; NULL: /sys/module.  A brd built into the
	 * kernel (brd/ without initstate) is used when its RAM disks are the
	 * job's: as many and of the size (brd.rd_nr=, brd.rd_size= on the
	 * kernel command line, which perfbot's VM sets); else refused. */
	const char *module_sysfs;
	/* When brd cannot be loaded (no brd module in this kernel), use
	 * loop images in /dev/shm instead: RAM-backed too, but through the
	 * loop driver, so not the same numbers.  Off: "cannot work here". */
	bool brd_fallback;
	/* Called after each journal write, before the change it announces,
	 * with the journal line's first word ("dir", "image", "mount", ...);
	 * tests use it to kill the process mid-setup. */
	void (*on_step)(const char *step, void *data);
	void *on_step_data;

	/* --- outputs of run_setup_apply_plan, owned by s --- */

	const char *fs;               /* the fs mounted ("ext4"), or NULL */
	const char *mnt;              /* the first mount point, or NULL */
	struct run_setup_dev *devs;   /* the disks made, in order */
	size_t nr_devs, alloc_devs;
	/*
	 * NULL-terminated "NAME=value" entries for the benchmark:
	 * PERFBOT_FS_DIR (= mnt) and lkp's mount_points (all mount points,
	 * space-separated) when something is mounted; lkp's partitions
	 * (the devices) and nr_partitions when disks were made;
	 * PERFBOT_EATMEM_PID when an eater runs (lkp's
	 * $TMP/pid-bg-proc-eatmem).  NULL when there is nothing to pass.
	 */
	char **env;
	/* the memory eater (eatmem:): its pid (0: none) and what it locked;
	 * eat_avail is MemAvailable just before it began */
	long eater;
	unsigned long long eaten, eat_avail;

	/* --- private --- */
	char *state_path;             /* the journal file, NULL when none */
	struct strbuf journal;        /* its text */
};

#define RUN_SETUP_INIT { .journal = STRBUF_INIT }

/*
 * Undo what run_setup_apply_plan did, newest first: restore governors, unmount
 * (retrying for 2 s while busy, then a lazy unmount), detach loop
 * devices, remove images and dirs, unload brd, delete the journal; then
 * free s's outputs and reset it to RUN_SETUP_INIT (keeping the inputs).
 * Safe on a zeroed s, after a failed apply and when called twice.
 * Returns 0, or -1 when something could not be undone (printed, logged;
 * the journal is kept so that run_setup_cleanup_stale retries later).
 */
int run_setup_undo(struct run_setup *s, struct strbuf *log);

/*
 * Replay the journals under work_dir whose owner process is gone (a
 * perfbot killed with -9, or a failed undo); journals of live processes
 * are left alone.  work_dir must be private and each journal ours and
 * naming only what perfbot makes, its governor files under cpu_sysfs
 * (NULL: /sys/devices/system/cpu) -- see run/workdir.h; anything else is
 * refused with an error and left as it is.  Logs what it did.  Returns
 * the number of setups cleaned (0 when none, also when work_dir does not
 * exist), or -1 when the work dir is refused or a journal could not be
 * undone completely or was refused (printed).
 */
int run_setup_cleanup_stale(const char *work_dir, const char *cpu_sysfs, struct strbuf *log);

/* --- the parts, for tests ----------------------------------------- */

/*
 * Parse an lkp size ("48G", "512m", "1GB", "4096") into *bytes.  0, or -1
 * (no message) for anything else, zero, or more than 2^63.
 */
int run_setup_parse_size(const char *text, unsigned long long *bytes);

enum run_disk_kind {
	RUN_DISK_NONE,
	RUN_DISK_LOOP,          /* loop_<size> */
	RUN_DISK_BRD,           /* <N>BRD_<size> */
};

struct run_fs_type;

/* What a job asks for, checked but not yet applied. */
struct run_setup_plan {
	const struct run_fs_type *fs;   /* NULL: no fs */
	const char *fs_name;            /* its name, borrowed from the table */
	enum run_disk_kind disk;
	int nr_disks;
	unsigned long long disk_bytes;  /* size of each disk */
	bool default_disk;              /* disk made because fs had none */
	char disk_desc[48];             /* the disk as the job wrote it */
	const struct job_value *disk_val; /* its value, for FILE:LINE:COL; or NULL */
	const char *governor;           /* borrowed from the job, or NULL */
	struct run_eatmem_plan eatmem;  /* kind RUN_EATMEM_NONE: no eater */
};

/*
 * Read fs, disk and cpufreq_governor of job into plan.  Returns 0; 1 for
 * what perfbot knows but cannot do (lkp's host disks, nfs/cifs, ...) with
 * the reason in why; -1 after error("FILE:LINE:COL: ...") for values it
 * does not know.
 */
int run_setup_plan(const struct job *job, struct run_setup_plan *plan,
		   struct strbuf *why);

/*
 * Make the disks, file systems and governor of plan (see the top of this
 * file), under work_base (made 0700 when missing; refused when not
 * private, see run/workdir.h).  Human-readable "setup: ..." lines are
 * appended to log.  All checks (tools, root, sizes against free space
 * and RAM, kernel support, governor availability) happen before any
 * change.  Returns
 *    0  done (or nothing to do); outputs filled
 *    1  cannot work here: a message names what is missing (a tool and its
 *       Debian package, root, brd, kernel support, space or RAM) on stderr
 *       and in log; nothing was changed
 *   -1  an error (a failed mkfs, mount, ...), printed with error();
 *       whatever was done is already undone
 * After a non-zero return s holds nothing and run_setup_undo is a no-op.
 */
int run_setup_apply_plan(const struct run_setup_plan *plan, const char *work_base,
			 struct run_setup *s, struct strbuf *log);
/*
 * The checks of run_setup_apply_plan alone, changing nothing: 0, 1
 * (cannot work here, named on stderr and in log) or -1, as it returns.
 * Run once before the first run, so that a job this machine cannot set
 * up fails before any run directory or monitor.  cpu_sysfs as in struct
 * run_setup.
 */
int run_setup_check_plan(const struct run_setup_plan *plan, const char *work_base,
			 const char *cpu_sysfs, struct strbuf *log);
/* What the run says when run_setup_plan returned 1 with why: the reason
 * on stderr and in log ("cannot work here"); returns 1. */
int run_setup_refuse(const char *why, struct strbuf *log);
/*
 * Free s's outputs and reset them (keeping the inputs), undoing nothing:
 * run_setup_undo's last step.  Alone, it leaves everything set up and
 * the journal in work_base, as a crash would (the tests' stand-in for
 * kill -9; run_setup_cleanup_stale replays it later).
 */
void run_setup_forget(struct run_setup *s);

/* The Debian package that provides an fs's mkfs, or NULL (tmpfs). */
const char *run_setup_fs_package(const struct run_fs_type *fs);
/* Its mkfs program ("mkfs.xfs"), or NULL; its type for mount(2) ("xfs"). */
const char *run_setup_fs_mkfs(const struct run_fs_type *fs);
const char *run_setup_fs_type(const struct run_fs_type *fs);

#endif
