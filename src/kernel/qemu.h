#ifndef PERFBOT_KERNEL_QEMU_H
#define PERFBOT_KERNEL_QEMU_H
/*
 * The test box is a command line: every QEMU perfbot starts is made by
 * qemu_argv() here, and every run's perfbot.log holds it, shell-quoted,
 * so that anyone can replay a boot by hand.
 *
 *   qemu-system-x86_64 -nodefaults -no-user-config -display none
 *     -monitor none -nic none -no-reboot
 *     -accel tcg -cpu max            (KVM: -accel kvm -cpu host)
 *     -smp CPUS -m MEM
 *     [-object memory-backend-ram,id=node0,size=M0 -numa node,nodeid=0,
 *      memdev=node0,cpus=A-B ...]   (numa > 1: one per node)
 *     -kernel BZIMAGE -initrd INITRAMFS -append CMDLINE
 *     -chardev file,id=console,path=LOG -serial chardev:console
 *     -chardev file,id=results,path=OUT -serial chardev:results
 *
 * NUMA nodes split the memory evenly (node 0 takes what does not divide)
 * and the CPUs in contiguous ranges, node i getting CPUs [ceil(i*C/N),
 * ceil((i+1)*C/N)): with more nodes than CPUs some nodes (never node 0)
 * have memory only, as
 * on real boxes with CPU-less memory nodes.  Each node's memory is a
 * backend of its own because QEMU 7 refuses "-numa node,mem=" for its
 * current machine types.
 *
 * ttyS0 is the console (the run's dmesg file), ttyS1 carries the results
 * out: serial ports need no driver module, so the same initramfs serves
 * perfbot's tiny kernel and a distribution's generic one.  The kernel
 * command line is
 *
 *   console=ttyS0,115200 panic=-1 oops=panic [tsc_early_khz=K tsc=reliable]
 *   perfbot.epoch=SECONDS [brd.rd_nr=N brd.rd_size=KIB] [the job's
 *   kernel_cmdline]
 *
 * brd's pair is the job's `disk: <N>BRD_<size>`: a brd built into the
 * guest kernel makes its RAM disks at boot, and only the command line
 * sizes them.
 *
 * panic=-1 with -no-reboot turns a panic into QEMU's exit; oops=panic as
 * lkp boots its test kernels.  Under TCG the guest's TSC calibration is
 * at the mercy of a loaded host (a boot once measured 137 MHz and ran its
 * clock 20x fast): tsc_early_khz gives it the host's TSC rate, which TCG
 * passes through.  perfbot.epoch sets the guest's clock (initramfs.h).
 *
 * Under plain TCG (--accel tcg) the guest's clock is the host's: when
 * the host is loaded, QEMU's threads wait and the guest sees fewer
 * operations per second.  On this project's shared 2-core machine a
 * getppid benchmark's mean moved 3x within an hour, which no statistics
 * can bisect through.  icount (--accel icount, the fallback of auto)
 * runs TCG with -icount shift=5,sleep=on: the guest's clock advances 32
 * ns per instruction executed (idle time is skipped), whatever the host
 * does, so a benchmark's ops per second become a count of instructions
 * per operation: deterministic to 0.01% from boot to boot, and blind to
 * what instructions cost on real hardware (caches, memory, locks between
 * vCPUs, which icount runs one at a time).  The TSC then ticks at 1 GHz
 * of virtual time: tsc_early_khz=1000000.
 *
 * KVM is used only when it really boots a guest: on a PVM host /dev/kvm
 * opens fine but an ordinary kernel dies in instruction emulation.
 * qemu_choose_accel() boots the kernel once under KVM with
 * perfbot.probe=1 and wants /init's line on the console within seconds;
 * the answer is kept in the kernel cache per host (kernel release and
 * QEMU binary), so the probe runs once per machine.  Timings under TCG
 * are emulated: compare them with each other, not with a real machine.
 */
#include <signal.h>
#include <stdbool.h>
#include "runner/runner.h"
#include "util/run_command.h"
#include "util/strbuf.h"

struct held_dir;  /* util/fileio.h */

enum qemu_accel { QEMU_ACCEL_AUTO, QEMU_ACCEL_TCG, QEMU_ACCEL_KVM, QEMU_ACCEL_ICOUNT };

/* icount's virtual time per guest instruction: 2^5 = 32 ns (see above) */
#define QEMU_ICOUNT_SHIFT 5

struct qemu_vm {
	const char *qemu;            /* NULL: $PERFBOT_QEMU or qemu-system-x86_64 */
	const char *kernel;          /* bzImage */
	const char *initrd;          /* initramfs (initramfs.h) */
	const char *append;          /* more kernel command line, or NULL */
	enum qemu_accel accel;       /* TCG or KVM */
	int cpus;                    /* -smp */
	long mem_mb;                 /* -m, MiB */
	int numa;                    /* NUMA nodes (below); <= 1: none */
	unsigned long tsc_khz;       /* 0: no tsc_early_khz */
	int brd_nr;                  /* > 0: brd.rd_nr= and brd.rd_size= */
	unsigned long long brd_kib;
	long long epoch;             /* guest clock, seconds; 0: leave it */
	bool probe;                  /* perfbot.probe=1 (see above) */
	const char *console_path;    /* ttyS0 into this file */
	const char *results_path;    /* ttyS1 into this file */
	/* NULL, or the run dir held open (util/fileio.h) that the two paths
	 * name as /proc/self/fd/<fd>/...: QEMU inherits its fd */
	const struct held_dir *dir;
};

/* "tcg", "kvm", "icount", "auto" and back; -1 for an unknown name. */
const char *qemu_accel_name(enum qemu_accel a);
int qemu_accel_parse(const char *s, enum qemu_accel *a);

/* The kernel command line of vm (see above), appended to sb. */
void qemu_append(const struct qemu_vm *vm, struct strbuf *sb);
/* The whole argv of vm, appended to argv (QEMU's "," in paths doubled). */
void qemu_argv(const struct qemu_vm *vm, struct argv_list *argv);

/* The host's TSC rate in kHz from /proc/cpuinfo's text ("cpu MHz : 2445.426"
 * gives 2445426); 0 when it says none. */
unsigned long qemu_tsc_khz(const char *cpuinfo);

/* A running QEMU: start it with qemu_start, reap it with the calls of
 * run_command.h on p->cp (poll_command, kill_command). */
struct qemu_proc {
	struct child_process cp;
	struct argv_list argv;
};

/*
 * Start vm in its own process group, killed with perfbot even by kill -9
 * (PR_SET_PDEATHSIG); QEMU's own stdout and stderr go to err_path.  0, or
 * -1 after error().  Release p with qemu_proc_release once reaped.
 */
int qemu_start(const struct qemu_vm *vm, struct qemu_proc *p, const char *err_path);
void qemu_proc_release(struct qemu_proc *p);

/*
 * Boot vm with its accel and wait up to timeout_s for /init's line on the
 * console, then stop it: the probe.  vm->console_path and results_path
 * are set by the caller (scratch files).  1 when /init was reached, 0 when
 * not (why says what happened: "no /init within 8 s", QEMU's error), -1
 * when QEMU could not be started.
 */
int qemu_probe(const struct qemu_vm *vm, double timeout_s, volatile sig_atomic_t *stop,
	       struct strbuf *why);

/*
 * The accel to use for kernel under the cache dir: want unless AUTO;
 * for AUTO, ICOUNT when /dev/kvm cannot be opened, else the cached probe
 * answer for this host, else a fresh probe (booting kernel with initrd)
 * whose answer is cached.  force re-probes.  how gets one line saying why
 * ("icount: /dev/kvm: Permission denied", "icount (KVM probe: no /init
 * within 8 s)").  Returns want, KVM or ICOUNT; AUTO when a probe is due
 * and initrd is NULL: call again with an initramfs to boot.
 */
enum qemu_accel qemu_choose_accel(enum qemu_accel want, const char *cache, const char *kernel,
				  const char *initrd, bool force, volatile sig_atomic_t *stop,
				  struct strbuf *how);

#endif
