#ifndef PERFBOT_KERNEL_VM_H
#define PERFBOT_KERNEL_VM_H
/*
 * Runs on a kernel under test: the run backend (run/run.h) that boots a
 * kernel in QEMU once per run and runs the job inside.
 *
 *   struct kernel_vm vm;
 *   kernel_vm_prepare(&vm, &opts, atom, command);  // before run_job
 *   ro.backend = &vm.backend;
 *   run_job(&ro, &res);
 *   kernel_vm_release(&vm);
 *
 * prepare describes the kernel (kernel_image_load: commit and kconfig of
 * a cache build, else the bzImage's release), sets the atom's result-path
 * keys the lkp way unless the job sets them (commit: the kernel's commit;
 * kconfig: its config name, "x86_64-unknown" for a foreign bzImage;
 * compiler: the one its config names, kernel_image_load, else "gcc";
 * tbox_group: "vm-<accel>-<N>cpu-<M>G", "-<K>node" added with NUMA
 * nodes, since another topology is another box, unless o->tbox_group
 * names the lab box's; rootfs: "perfbot-initramfs"),
 * chooses TCG or KVM (qemu.h), and builds the initramfs with the atom.
 *
 * Each run boots the kernel (qemu.h, its command line logged), waits for
 * /init's line until the boot timeout, then for the job until its
 * timeout (the job's timeout, else twice its runtime plus a minute, as a
 * local run) plus two minutes for booting and sending, and classifies the
 * serial log (serial.h).  The run dir on the host gets:
 *
 *   the guest's run dir    job.yaml, the monitors, the benchmark's output,
 *                          stats.json, last_state, perfbot.log (it ran
 *                          the same `perfbot run` inside)
 *   dmesg                  the serial console, with lkp's "BUG: kernel
 *                          boot hang" line where the kernel could not say
 *   dmesg.json, boot-time.json   lkp's dmesg.* and boot-time.* stats,
 *                          added to stats.json
 *   last_state             plus "boot: ok|panic|no-init|...", "qemu_accel"
 *   perfbot.log            plus the host's lines: the QEMU command line,
 *                          the accel and why, boot and run times
 *
 * A boot that fails (panic, no init, hang, crash) is a run marked
 * incomplete (last_state.is_incomplete_run: 1 and the reason), with its
 * serial log kept and its dmesg.* stats, like lkp's boot failures.
 * QEMU runs in its own process group and dies with perfbot.
 */
#include <signal.h>
#include <stdbool.h>
#include "job/job.h"
#include "kernel/build.h"
#include "kernel/qemu.h"
#include "run/run.h"

struct kernel_vm_opts {
	const char *kernel;          /* bzImage, or an image dir of the cache */
	enum qemu_accel accel;       /* AUTO: KVM when it really works */
	const char *cache;           /* kernel cache (build.h), NULL: default */
	int cpus;                    /* <= 0: the job's nr_cpu, else 2 */
	long mem_mb;                 /* <= 0: the job's memory, else 1024 */
	int numa;                    /* QEMU NUMA nodes (qemu.h); <= 1: none */
	double boot_timeout;         /* seconds to /init; <= 0: 300 */
	const char *commit;          /* overrides the kernel's commit */
	const char *tbox_group;      /* overrides the VM's: a lab box's group */
	int verbose;
	bool status_line;
	volatile sig_atomic_t *stop;
};

struct kernel_vm {
	struct kernel_vm_opts o;
	struct kernel_image img;
	struct strbuf initrd;        /* the initramfs */
	struct strbuf accel_how;     /* why this accel */
	enum qemu_accel accel;
	unsigned long tsc_khz;
	const char *append;          /* the job's kernel_cmdline, or NULL */
	int brd_nr;                  /* the job's RAM disks (brd.rd_nr=), 0: none */
	unsigned long long brd_kib;  /* and their size (brd.rd_size=) */
	struct run_backend backend;  /* what run_job calls */
};

/*
 * Prepare runs of atom (changed: its result-path keys) on o->kernel; the
 * guest's `perfbot run` gets run_args (NULL-terminated, or NULL) and runs
 * `command` when not NULL.  0, or -1 after error() (no QEMU,
 * no busybox-static, no static perfbot, not a bzImage).  Release vm with
 * kernel_vm_release in every case.
 */
int kernel_vm_prepare(struct kernel_vm *vm, const struct kernel_vm_opts *o, struct job *atom,
		      char *const *run_args, char *const *command);
void kernel_vm_release(struct kernel_vm *vm);

/* lkp's memory sizes: "8G", "512M", "1024K"; plain numbers are MiB.
 * -1 when s is none of them. */
long kernel_vm_mem_mb(const char *s);

/*
 * The job's time limit in the guest in seconds: the timeout run_job
 * decodes (run/desc.h), on the host as in the guest, so that the host's
 * deadline (this plus a slack for the results to come out) never ends a
 * run the guest would still allow.
 * A job without a limit gets an hour: a guest that hangs must end.
 */
struct job_desc;
double kernel_vm_job_limit(const struct job_desc *d);

/* Guests have at most this many CPUs and NUMA nodes (QEMU's pc machine
 * takes more, a 2-core host gains nothing from them). */
#define KERNEL_VM_MAX_CPUS 64
#define KERNEL_VM_MAX_NODES 16

/*
 * The VM options that run, bisect and watch share, from their command
 * line: "cpus", "mem", "numa", "accel" and "boot-timeout" (name without
 * its dashes) with its argument into o.  0, or -1 after error() naming
 * the option and what it expects.
 */
int kernel_vm_opt(struct kernel_vm_opts *o, const char *name, const char *arg);

/*
 * The inverse of kernel_vm_opt: " --accel A --boot-timeout S --cpus N
 * --mem SIZE --numa N" for each option o sets (accel unless AUTO, the
 * numbers when > 0), appended to sb; kernel_vm_opt reads each back to
 * the same value.  For a bisect's log and the commands a report prints.
 */
void kernel_vm_opts_args(const struct kernel_vm_opts *o, struct strbuf *sb);

#endif
