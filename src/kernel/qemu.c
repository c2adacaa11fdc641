/*
 * qemu.c: QEMU's command line, starting it, and the KVM probe (qemu.h).
 */
#include "kernel/qemu.h"
#include "kernel/kconfig.h"
#include "kernel/serial.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* How long a guest may take to reach /init under KVM before the probe
 * says no: a real KVM guest gets there in about a second. */
#define KVM_PROBE_SECONDS 8

const char *qemu_accel_name(enum qemu_accel a)
{
	return a == QEMU_ACCEL_TCG ? "tcg" : a == QEMU_ACCEL_KVM ? "kvm" :
	       a == QEMU_ACCEL_ICOUNT ? "icount" : "auto";
}

int qemu_accel_parse(const char *s, enum qemu_accel *a)
{
	if (!strcmp(s, "tcg"))
		*a = QEMU_ACCEL_TCG;
	else if (!strcmp(s, "kvm"))
		*a = QEMU_ACCEL_KVM;
	else if (!strcmp(s, "icount"))
		*a = QEMU_ACCEL_ICOUNT;
	else if (!strcmp(s, "auto"))
		*a = QEMU_ACCEL_AUTO;
	else
		return -1;
	return 0;
}

void qemu_append(const struct qemu_vm *vm, struct strbuf *sb)
{
	strbuf_addstr(sb, "console=ttyS0,115200 panic=-1 oops=panic");
	/* icount's TSC counts virtual nanoseconds */
	if (vm->accel == QEMU_ACCEL_ICOUNT)
		strbuf_addstr(sb, " tsc_early_khz=1000000 tsc=reliable");
	else if (vm->tsc_khz)
		strbuf_addf(sb, " tsc_early_khz=%lu tsc=reliable", vm->tsc_khz);
	if (vm->epoch > 0)
		strbuf_addf(sb, " perfbot.epoch=%lld", vm->epoch);
	if (vm->probe)
		strbuf_addstr(sb, " perfbot.probe=1");
	if (vm->brd_nr > 0)
		strbuf_addf(sb, " brd.rd_nr=%d brd.rd_size=%llu", vm->brd_nr, vm->brd_kib);
	if (vm->append && *vm->append)
		strbuf_addf(sb, " %s", vm->append);
}

/* QEMU option values separate suboptions by ','; a literal one is ",,". */
static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == ',')
			strbuf_addch(sb, ',');
		strbuf_addch(sb, *s);
	}
}

static void chardev(struct argv_list *argv, const char *id, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "file,id=%s,path=", id);
	add_escaped(&sb, path);
	argv_list_push(argv, "-chardev");
	argv_list_push(argv, sb.buf);
	argv_list_push(argv, "-serial");
	argv_list_pushf(argv, "chardev:%s", id);
	strbuf_release(&sb);
}

/* -numa (see qemu.h): memory split evenly, CPUs in contiguous ranges */
static void numa_nodes(const struct qemu_vm *vm, struct argv_list *argv)
{
	long mem = vm->mem_mb > 0 ? vm->mem_mb : 1024;
	int cpus = vm->cpus > 0 ? vm->cpus : 1, n = vm->numa;

	if (n <= 1)
		return;
	for (int i = 0; i < n; i++) {
		long size = mem / n + (i == 0 ? mem % n : 0);
		/* rounded up: with fewer CPUs than nodes, node 0 has one (a
		 * guest renumbers its nodes so that the boot CPU's is 0) */
		int first = (i * cpus + n - 1) / n, end = ((i + 1) * cpus + n - 1) / n;

		argv_list_push(argv, "-object");
		argv_list_pushf(argv, "memory-backend-ram,id=node%d,size=%ldM", i, size);
		argv_list_push(argv, "-numa");
		if (end - first > 1)
			argv_list_pushf(argv, "node,nodeid=%d,memdev=node%d,cpus=%d-%d", i, i, first, end - 1);
		else if (end - first == 1)
			argv_list_pushf(argv, "node,nodeid=%d,memdev=node%d,cpus=%d", i, i, first);
		else
			argv_list_pushf(argv, "node,nodeid=%d,memdev=node%d", i, i);
	}
}

void qemu_argv(const struct qemu_vm *vm, struct argv_list *argv)
{
	struct strbuf append = STRBUF_INIT;
	const char *qemu = vm->qemu ? vm->qemu : getenv("PERFBOT_QEMU");
	bool kvm = vm->accel == QEMU_ACCEL_KVM;

	argv_list_push(argv, qemu && *qemu ? qemu : "qemu-system-x86_64");
	/* nothing QEMU would add by itself: no NIC, VGA, monitor, config */
	argv_list_push(argv, "-nodefaults");
	argv_list_push(argv, "-no-user-config");
	argv_list_push(argv, "-display");
	argv_list_push(argv, "none");
	argv_list_push(argv, "-monitor");
	argv_list_push(argv, "none");
	argv_list_push(argv, "-nic");
	argv_list_push(argv, "none");
	/* the guest's reboot (and panic=-1) ends QEMU */
	argv_list_push(argv, "-no-reboot");
	argv_list_push(argv, "-accel");
	argv_list_push(argv, kvm ? "kvm" : "tcg");
	if (vm->accel == QEMU_ACCEL_ICOUNT) {
		argv_list_push(argv, "-icount");
		argv_list_pushf(argv, "shift=%d,sleep=on", QEMU_ICOUNT_SHIFT);
	}
	argv_list_push(argv, "-cpu");
	argv_list_push(argv, kvm ? "host" : "max");
	argv_list_push(argv, "-smp");
	argv_list_pushf(argv, "%d", vm->cpus > 0 ? vm->cpus : 1);
	argv_list_push(argv, "-m");
	argv_list_pushf(argv, "%ld", vm->mem_mb > 0 ? vm->mem_mb : 1024);
	numa_nodes(vm, argv);
	argv_list_push(argv, "-kernel");
	argv_list_push(argv, vm->kernel);
	argv_list_push(argv, "-initrd");
	argv_list_push(argv, vm->initrd);
	qemu_append(vm, &append);
	argv_list_push(argv, "-append");
	argv_list_push(argv, append.buf);
	chardev(argv, "console", vm->console_path);
	chardev(argv, "results", vm->results_path);
	strbuf_release(&append);
}

unsigned long qemu_tsc_khz(const char *cpuinfo)
{
	const char *p = strstr(cpuinfo, "cpu MHz");

	if (!p || !(p = strchr(p, ':')))
		return 0;
	double mhz = strtod(p + 1, NULL);
	return mhz > 0 ? (unsigned long)(mhz * 1000 + 0.5) : 0;
}

int qemu_start(const struct qemu_vm *vm, struct qemu_proc *p, const char *err_path)
{
	memset(p, 0, sizeof(*p));
	qemu_argv(vm, &p->argv);
	child_process_init(&p->cp);
	p->cp.argv = p->argv.v;
	p->cp.out_path = err_path;
	p->cp.err_path = "&1";
	p->cp.no_stdin = true;
	p->cp.new_pgrp = true;
	p->cp.die_with_parent = true;
	if (vm->dir)
		p->cp.keep_fd = vm->dir->fd;
	/* the files QEMU appends to start empty: a stale log would classify
	 * this boot by the last one */
	if (write_file_atomic(vm->console_path, "", 0) < 0 || write_file_atomic(vm->results_path, "", 0) < 0)
		return -1;
	return start_command(&p->cp);
}

void qemu_proc_release(struct qemu_proc *p)
{
	if (p->cp.pid > 0)
		kill_command(&p->cp, 0);
	argv_list_release(&p->argv);
}

/* Whether the file at path holds /init's line yet. */
static bool init_reached(const char *path)
{
	struct strbuf log = STRBUF_INIT;
	bool r = false;

	if (read_file(&log, path) == 0)
		r = memmem(log.buf, log.len, GUEST_MARK_INIT, strlen(GUEST_MARK_INIT)) != NULL;
	strbuf_release(&log);
	return r;
}

int qemu_probe(const struct qemu_vm *vm, double timeout_s, volatile sig_atomic_t *stop,
	       struct strbuf *why)
{
	struct qemu_proc p;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&err, "%s.qemu", vm->console_path);
	if (qemu_start(vm, &p, err.buf) < 0) {
		qemu_proc_release(&p);
		strbuf_release(&err);
		return -1;
	}
	double t0 = now_seconds();
	for (;;) {
		if (init_reached(vm->console_path)) {
			ret = 1;
			break;
		}
		int r = poll_command(&p.cp);
		if (r != 1) {
			/* QEMU ended by itself: its complaint says why */
			read_file(&out, err.buf);
			strbuf_rtrim(&out);
			const char *nl = strrchr(out.buf, '\n');
			strbuf_addf(why, "QEMU exited: %s", out.len ? (nl ? nl + 1 : out.buf) : "no message");
			break;
		}
		if ((stop && *stop) || now_seconds() - t0 > timeout_s) {
			strbuf_addf(why, "no /init within %.0f s", timeout_s);
			break;
		}
		usleep(50000);
	}
	qemu_proc_release(&p);
	unlink(err.buf);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}

/* What identifies this host's answer: its kernel and its QEMU. */
static void host_key(const char *qemu, struct strbuf *sb)
{
	struct utsname u;
	struct stat st;
	struct strbuf path = STRBUF_INIT;

	if (uname(&u) == 0)
		strbuf_addf(sb, "%s %s", u.release, u.version);
	/* QEMU's path and its size and time: a new QEMU probes again */
	if (strchr(qemu, '/'))
		strbuf_addstr(&path, qemu);
	else
		strbuf_addf(&path, "/usr/bin/%s", qemu);
	if (stat(path.buf, &st) == 0)
		strbuf_addf(sb, " %s %lld %lld", path.buf, (long long)st.st_size, (long long)st.st_mtime);
	strbuf_release(&path);
}

enum qemu_accel qemu_choose_accel(enum qemu_accel want, const char *cache, const char *kernel,
				  const char *initrd, bool force, volatile sig_atomic_t *stop,
				  struct strbuf *how)
{
	struct strbuf key = STRBUF_INIT, file = STRBUF_INIT, saved = STRBUF_INIT, why = STRBUF_INIT;
	const char *qemu = getenv("PERFBOT_QEMU");
	/* without KVM: the emulator whose clock the host's load cannot move */
	const enum qemu_accel fallback = QEMU_ACCEL_ICOUNT;
	enum qemu_accel got = fallback;

	if (want != QEMU_ACCEL_AUTO) {
		strbuf_addf(how, "%s: as asked", qemu_accel_name(want));
		return want;
	}
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(how, "%s: /dev/kvm: %s", qemu_accel_name(fallback), strerror(errno));
		return fallback;
	}
	close(fd);
	host_key(qemu && *qemu ? qemu : "qemu-system-x86_64", &key);
	uint64_t h = kconfig_hash(KCONFIG_HASH_INIT, key.buf, key.len);
	strbuf_addf(&file, "%s/kvm-probe.%016llx", cache, (unsigned long long)h);
	if (!force && file_exists(file.buf) && read_file(&saved, file.buf) == 0 && saved.len > 4) {
		strbuf_rtrim(&saved);
		got = !strncmp(saved.buf, "kvm:", 4) ? QEMU_ACCEL_KVM : fallback;
		strbuf_addf(how, "%s (probed before: %s)", qemu_accel_name(got), file.buf);
		goto out;
	}
	if (!initrd) {
		got = QEMU_ACCEL_AUTO;
		goto out;
	}
	struct strbuf con = STRBUF_INIT, res = STRBUF_INIT;
	mkdir_p(cache, 0755);
	strbuf_addf(&con, "%s/kvm-probe.%ld.console", cache, (long)getpid());
	strbuf_addf(&res, "%s/kvm-probe.%ld.results", cache, (long)getpid());
	struct qemu_vm vm = {
		.kernel = kernel, .initrd = initrd, .accel = QEMU_ACCEL_KVM, .cpus = 1, .mem_mb = 512,
		.probe = true, .console_path = con.buf, .results_path = res.buf,
	};
	fprintf(stderr, "perfbot: probing KVM: does a guest reach /init within %d s?\n", KVM_PROBE_SECONDS);
	int r = qemu_probe(&vm, KVM_PROBE_SECONDS, stop, &why);
	unlink(con.buf);
	unlink(res.buf);
	strbuf_release(&con);
	strbuf_release(&res);
	if (r < 0 || (stop && *stop)) {
		strbuf_addf(how, "%s: the KVM probe did not run", qemu_accel_name(fallback));
		goto out;
	}
	got = r ? QEMU_ACCEL_KVM : fallback;
	strbuf_reset(&saved);
	strbuf_addf(&saved, "%s: %s\nhost: %s\n", qemu_accel_name(got), r ? "the guest reached /init" : why.buf,
		    key.buf);
	write_file_atomic(file.buf, saved.buf, saved.len);
	strbuf_addf(how, "%s (KVM probe: %s)", qemu_accel_name(got), r ? "the guest reached /init" : why.buf);
out:
	strbuf_release(&key);
	strbuf_release(&file);
	strbuf_release(&saved);
	strbuf_release(&why);
	return got;
}
