/*
 * stress-ng.c: Debian's stress-ng, run as lkp's programs/stress-ng/run
 * runs it:
 *
 *   stress-ng --timeout <testtime> --times --verify --metrics-brief
 *             --no-rand-seed --<test> <nr_threads>
 *   stress-ng ... --sequential <nr_threads> --class <class> --exclude spawn,exec
 *
 * testtime defaults to 1 s as in lkp, nr_threads to every CPU.  stress-ng
 * writes its metrics table to stderr, where lkp's `2>&1` picks it up; here
 * --stdout sends everything to stdout, which `perfbot run` parses.
 * Memory-class runs add lkp's --minimize and exclude `stack` as well.
 */
#include "runner/runner.h"

#include <stdbool.h>
#include <string.h>

static const char *const programs[] = { "stress-ng", NULL };
static const char *const options[] = { "test", "class", "nr_threads", "testtime", NULL };

/*
 * The stressors of stress-ng 0.15.06 (Debian 12's; `stress-ng --stressors`).
 * `test:` becomes an option "--<test>", so only a stressor's name may: a
 * job's "job" or "log-file" would make stress-ng read or write a file.
 */
static const char *const stressors[] = {
	"access", "af-alg", "affinity", "aio", "aiol", "apparmor", "alarm", "atomic",
	"bad-altstack", "bad-ioctl", "bigheap", "bind-mount", "binderfs", "branch", "brk",
	"bsearch", "cache", "cacheline", "cap", "chattr", "chdir", "chmod", "chown", "chroot",
	"clock", "clone", "close", "context", "copy-file", "cpu", "cpu-online", "crypt",
	"cyclic", "daemon", "dccp", "dekker", "dentry", "dev", "dev-shm", "dir", "dirdeep",
	"dirmany", "dnotify", "dup", "dynlib", "efivar", "enosys", "env", "epoll", "eventfd",
	"exec", "exit-group", "fallocate", "fanotify", "far-branch", "fault", "fcntl", "fiemap",
	"fifo", "file-ioctl", "filename", "flock", "flushcache", "fork", "forkheavy", "fp",
	"fp-error", "fpunch", "fsize", "fstat", "full", "funccall", "funcret", "futex", "get",
	"getdent", "getrandom", "goto", "gpu", "handle", "hash", "hdd", "heapsort", "hrtimers",
	"hsearch", "icache", "icmp-flood", "idle-page", "inode-flags", "inotify", "io", "iomix",
	"ioport", "ioprio", "io-uring", "ipsec-mb", "itimer", "jpeg", "judy", "kcmp", "key",
	"kill", "klog", "kvm", "l1cache", "landlock", "lease", "link", "list", "llc-affinity",
	"loadavg", "locka", "lockbus", "lockf", "lockofd", "longjmp", "loop", "lsearch",
	"madvise", "malloc", "matrix", "matrix-3d", "mcontend", "membarrier", "memcpy", "memfd",
	"memhotplug", "memrate", "memthrash", "mergesort", "mincore", "misaligned", "mknod",
	"mlock", "mlockmany", "mmap", "mmapaddr", "mmapfixed", "mmapfork", "mmaphuge",
	"mmapmany", "mprotect", "mq", "mremap", "msg", "msync", "msyncmany", "munmap", "mutex",
	"nanosleep", "netdev", "netlink-proc", "netlink-task", "nice", "nop", "null", "numa",
	"oom-pipe", "opcode", "open", "pagemove", "pageswap", "pci", "personality", "peterson",
	"physpage", "pidfd", "ping-sock", "pipe", "pipeherd", "pkey", "plugin", "poll", "prctl",
	"prefetch", "priv-instr", "procfs", "pthread", "ptrace", "pty", "qsort", "quota",
	"race-sched", "radixsort", "randlist", "ramfs", "rawdev", "rawpkt", "rawsock", "rawudp",
	"rdrand", "readahead", "reboot", "regs", "remap", "rename", "resched", "resources",
	"revio", "ring-pipe", "rlimit", "rmap", "rotate", "rseq", "rtc", "schedpolicy", "sctp",
	"seal", "seccomp", "secretmem", "seek", "sem", "sem-sysv", "sendfile", "session", "set",
	"shellsort", "shm", "shm-sysv", "sigabrt", "sigchld", "sigfd", "sigfpe", "sigio",
	"signal", "signest", "sigpending", "sigpipe", "sigq", "sigrt", "sigsegv", "sigsuspend",
	"sigtrap", "skiplist", "sleep", "smi", "sock", "sockabuse", "sockdiag", "sockfd",
	"sockpair", "sockmany", "softlockup", "spawn", "sparsematrix", "splice", "stack",
	"stackmmap", "str", "stream", "swap", "switch", "symlink", "sync-file", "syncload",
	"sysbadaddr", "syscall", "sysinfo", "sysinval", "sysfs", "tee", "timer", "timerfd",
	"tlb-shootdown", "tmpfs", "touch", "tree", "tsc", "tsearch", "tun", "udp", "udp-flood",
	"umount", "unshare", "uprobe", "urandom", "userfaultfd", "usersyscall", "utime", "vdso",
	"vecfp", "vecmath", "vecshuf", "vecwide", "verity", "vfork", "vforkmany", "vm",
	"vm-addr", "vm-rw", "vm-segv", "vm-splice", "wait", "waitcpu", "watchdog", "wcs",
	"x86cpuid", "x86syscall", "xattr", "yield", "zero", "zlib", "zombie", NULL
};

/* stress-ng's classes (`stress-ng --class '?'`) */
static const char *const classes[] = {
	"cpu", "cpu-cache", "device", "filesystem", "gpu", "interrupt", "io", "memory", "network", "os", "pipe", "scheduler", "security", "vm", NULL
};

static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test = runner_opt(rj, "test"), *class = runner_opt(rj, "class");
	long long nr;
	double testtime;

	if (runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, &nr, why) < 0 ||
	    runner_opt_seconds(rj, "testtime", 1, &testtime, why) < 0)
		return -1;
	if (!test == !class) {
		strbuf_addstr(why, "stress-ng: the job needs either 'test' (a stressor) or 'class'");
		return -1;
	}
	if (test && !listed(stressors, test))
		return runner_bad_opt(rj, "test", "a stressor of stress-ng --stressors", why);
	if (class && !listed(classes, class))
		return runner_bad_opt(rj, "class", "a class of stress-ng (cpu, io, memory, os, ...)",
				      why);
	if (nr < 0)
		return runner_bad_opt(rj, "nr_threads", "0 (one per CPU) or more", why);

	argv_list_push(argv, "stress-ng");
	argv_list_push(argv, "--timeout");
	argv_list_pushf(argv, "%g", testtime);
	argv_list_push(argv, "--times");
	argv_list_push(argv, "--verify");
	argv_list_push(argv, "--metrics-brief");
	argv_list_push(argv, "--no-rand-seed");
	argv_list_push(argv, "--stdout");
	if (test) {
		argv_list_pushf(argv, "--%s", test);
		argv_list_pushf(argv, "%lld", nr);
	} else {
		bool memory = !strcmp(class, "memory");
		argv_list_push(argv, "--sequential");
		argv_list_pushf(argv, "%lld", nr);
		argv_list_push(argv, "--class");
		argv_list_push(argv, class);
		if (memory)
			argv_list_push(argv, "--minimize");
		argv_list_push(argv, "--exclude");
		argv_list_pushf(argv, "spawn,exec%s", memory ? ",stack" : "");
	}
	return 0;
}

const struct runner runner_stress_ng = {
	.name = "stress-ng",
	.summary = "one stressor or a class of them, with bogo-ops metrics",
	.packages = "stress-ng",
	.programs = programs,
	.options = options,
	.build = build,
};
