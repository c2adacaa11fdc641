#ifndef PERFBOT_KERNEL_INITRAMFS_H
#define PERFBOT_KERNEL_INITRAMFS_H
/*
 * The initramfs perfbot boots a kernel under test with: everything the
 * job needs, nothing from the host's disk at run time.
 *
 *   /init            a shell script (below) run by busybox
 *   /bin/busybox     the host's busybox-static (its applets are linked at
 *                    boot); /bin/perfbot a static perfbot
 *   /bench/          perfbot's built-in benchmarks, static
 *                    ($PERFBOT_BENCH_DIR in the guest)
 *   /job.yaml        the atomic job, with the result-path keys set
 *   /dev/console, /dev/null   device nodes, so that init has a console
 *                    before devtmpfs is mounted
 *   /usr/bin, /lib   the host programs the job's setup and monitors run
 *                    (mkfs.ext4, losetup, perf...) with their libraries,
 *                    first in PATH (guestfiles.h)
 *   /lib/modules/R/  for a packaged kernel: the modules the job needs;
 *                    /init points the kernel's modprobe at kmod's and
 *                    loads modules_load
 *
 * /init exports PERFBOT_GUEST=1 (the run then records no
 * machine.other_cpu_percent: the VM is the job's alone, see run.h) and
 * mounts proc, sysfs, devtmpfs and a tmpfs on /tmp, as large as
 * 1 TiB: the job's loop disks (disk: loop_4G) are sparse files there, so
 * a job reading sparse files larger than the guest's memory (lkp's
 * lru-file-readtwice) runs in any guest; what a job really writes takes
 * guest memory, and the guest's OOM killer says so in dmesg.  It prints
 * "perfbot-guest: init <uptime>" (serial.h), sets the clock from the
 * kernel command line's perfbot.epoch=, runs `perfbot run -v --no-index
 * -n 1 -r /result <args> /job.yaml [-- command]` (the host indexes), prints
 * "perfbot-guest: exit <status>", sends the run dir as a gzipped newc
 * cpio on ttyS1 (raw mode), prints "perfbot-guest: sent <bytes>" and
 * reboots (QEMU runs with -no-reboot, so it exits).  With
 * perfbot.probe=1 on the command line it reboots right after the init
 * line: the KVM probe (qemu.h) only asks whether a guest gets that far.
 *
 * Static binaries are required, and checked (an ELF with a PT_INTERP
 * program header is dynamic): they are found in the "static dir",
 * $PERFBOT_STATIC_DIR or "<dir of the perfbot binary>/static" (make
 * builds perfbot, will-it-scale, vm-scalability, aim7 and bench-harness there),
 * and busybox at $PERFBOT_BUSYBOX or /bin/busybox.
 */
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

struct initramfs_spec {
	const char *job_yaml;        /* the atomic job's text */
	char *const *run_args;       /* extra `perfbot run` options, NULL-terminated */
	char *const *command;        /* the benchmark after --, or NULL */
	const char *static_dir;      /* NULL: initramfs_static_dir() */
	const char *busybox;         /* NULL: $PERFBOT_BUSYBOX or /bin/busybox */
	const char *hostname;        /* the guest's (the test box's name), or NULL */
	/* the host's files the job needs in the guest (guestfiles.h) */
	const char *const *programs; /* usr/bin/NAME with their libraries; a
					name this host lacks is left out */
	const char *modules_dir;     /* a packaged kernel's /lib/modules/RELEASE */
	const char *const *modules;  /* copied from it with what they need */
	const char *const *modules_load; /* loaded by /init before the run */
};

/* Append the guest's /init script for spec to out. */
void initramfs_init_script(const struct initramfs_spec *spec, struct strbuf *out);

/*
 * Build the initramfs of spec and store it in dir as "<hash>.cpio" (the
 * hash of its bytes: an identical one is reused), its path appended to
 * path.  0, or -1 after error() (a missing or dynamic program, with the
 * package or make target that provides it).
 */
int initramfs_build(const struct initramfs_spec *spec, const char *dir, struct strbuf *path);

/* $PERFBOT_STATIC_DIR, else "<dir of /proc/self/exe>/static" when it is a
 * directory, else "<that dir>/build/static" (exe_sibling_dir); appended. */
void initramfs_static_dir(struct strbuf *sb);

/* 1 when buf is a statically linked ELF executable, 0 when it is a
 * dynamic one, -1 when it is no ELF file at all. */
int elf_is_static(const unsigned char *buf, size_t len);

#endif
