/*
 * vm.c: runs on a kernel under test in QEMU (see vm.h).
 */
#include "kernel/vm.h"
#include "run/desc.h"
#include "run/setup.h"
#include "runner/runner.h"
#include "kernel/cpio.h"
#include "kernel/guestfiles.h"
#include "kernel/initramfs.h"
#include "kernel/serial.h"
#include "monitor/monitor.h"
#include "parse/parser.h"
#include "result/matrix.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BOOT_TIMEOUT 300.0      /* seconds to /init: a generic kernel under
				   TCG on a loaded 2-core host needs ~30 */
#define VM_NO_LIMIT 3600.0      /* a job without a limit: a guest that hangs
				   must still end */
#define SEND_SLACK 120.0        /* past the job's own timeout: the guest's
				   perfbot stops the benchmark itself first */

static int vm_run_once(void *ctx, const struct run_info *info, char **final_dir);


long kernel_vm_mem_mb(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0)
		return -1;
	switch (*end) {
	case '\0': case 'M': case 'm': return (long)v;
	case 'G': case 'g': return (long)(v * 1024);
	case 'K': case 'k': return (long)(v / 1024);
	default: return -1;
	}
}

int kernel_vm_opt(struct kernel_vm_opts *o, const char *name, const char *arg)
{
	char *end;
	long n;

	if (!strcmp(name, "accel")) {
		if (qemu_accel_parse(arg, &o->accel) < 0)
			return error("--accel expects auto, icount, tcg or kvm, got '%s'", arg);
	} else if (!strcmp(name, "boot-timeout")) {
		o->boot_timeout = parse_duration(arg);
		if (!(o->boot_timeout > 0) || o->boot_timeout > 86400)
			return error("--boot-timeout expects a duration such as 90, 90s or 5m (at most a day), got '%s'", arg);
	} else if (!strcmp(name, "mem")) {
		o->mem_mb = kernel_vm_mem_mb(arg);
		if (o->mem_mb < 64 || o->mem_mb > 1024L * 1024)
			return error("--mem expects a size from 64M to 1024G such as 2G or 512M, got '%s'", arg);
	} else if (!strcmp(name, "cpus") || !strcmp(name, "numa")) {
		int max = name[0] == 'c' ? KERNEL_VM_MAX_CPUS : KERNEL_VM_MAX_NODES;
		n = strtol(arg, &end, 10);
		if (end == arg || *end || n < 1 || n > max)
			return error("--%s expects a number from 1 to %d, got '%s'", name, max, arg);
		if (name[0] == 'c')
			o->cpus = (int)n;
		else
			o->numa = (int)n;
	} else {
		return error("no VM option '--%s'", name);
	}
	return 0;
}

void kernel_vm_opts_args(const struct kernel_vm_opts *o, struct strbuf *sb)
{
	if (o->accel != QEMU_ACCEL_AUTO)
		strbuf_addf(sb, " --accel %s", qemu_accel_name(o->accel));
	if (o->boot_timeout > 0)
		strbuf_addf(sb, " --boot-timeout %.15g", o->boot_timeout);
	if (o->cpus > 0)
		strbuf_addf(sb, " --cpus %d", o->cpus);
	if (o->mem_mb > 0) {
		if (o->mem_mb % 1024)
			strbuf_addf(sb, " --mem %ldM", o->mem_mb);
		else
			strbuf_addf(sb, " --mem %ldG", o->mem_mb / 1024);
	}
	if (o->numa > 0)
		strbuf_addf(sb, " --numa %d", o->numa);
}

/* The VM's size: the options, else the job's nr_cpu and memory (lkp's
 * host keys), else 1 GiB and 2 CPUs, 1 under icount: it runs vCPUs in
 * turn on one host thread, so a second one adds no parallelism, and
 * Debian's generic kernel hangs bringing it up there. */
static int vm_size(struct kernel_vm *vm, const struct job *atom, const struct job_desc_keys *k)
{
	long long nr = 0;
	const char *mem = k->memory;

	if (vm->o.cpus <= 0) {
		/* read here, not with the job's keys: only the VM refuses a
		 * bad nr_cpu, a run on this machine ignores it */
		if (job_get_int(atom, "nr_cpu", &nr) < 0)
			return -1;
		vm->o.cpus = nr > 0 && nr <= 64 ? (int)nr : vm->accel == QEMU_ACCEL_ICOUNT ? 1 : 2;
	}
	if (vm->o.mem_mb <= 0) {
		vm->o.mem_mb = mem ? kernel_vm_mem_mb(mem) : 1024;
		if (vm->o.mem_mb < 64)
			return error("%s: 'memory' expected a size such as 1G or 512M, got '%s'",
				     atom->path ? atom->path : "<job>", mem);
	}
	/* a node below 64 MiB cannot hold a kernel's per-node structures */
	if (vm->o.numa > 1 && vm->o.mem_mb / vm->o.numa < 64)
		return error("%d NUMA nodes need at least %d MiB of memory, the VM has %ld",
			     vm->o.numa, vm->o.numa * 64, vm->o.mem_mb);
	return 0;
}

/* The job's RAM disks (disk: <N>BRD_<size>) on the guest's command line:
 * a brd built into the kernel (the small config's) makes its disks at
 * boot from brd.rd_nr= and brd.rd_size=, and cannot resize them later;
 * a modular one takes modprobe's arguments instead.  -1 after error()
 * for a disk value perfbot does not know (before any boot). */
static int vm_brd(struct kernel_vm *vm, const struct job *atom)
{
	struct run_setup_plan plan;
	struct strbuf why = STRBUF_INIT;
	int r = run_setup_plan(atom, &plan, &why);

	strbuf_release(&why);
	if (r < 0)
		return -1;
	if (r == 0 && plan.disk == RUN_DISK_BRD) {
		vm->brd_nr = plan.nr_disks;
		vm->brd_kib = plan.disk_bytes >> 10;
	}
	return 0;
}

int kernel_vm_prepare(struct kernel_vm *vm, const struct kernel_vm_opts *o, struct job *atom,
		      char *const *run_args, char *const *command)
{
	struct strbuf cache = STRBUF_INIT, dir = STRBUF_INIT, cpuinfo = STRBUF_INIT, yaml = STRBUF_INIT;
	struct strbuf s = STRBUF_INIT;
	/* here, not where it is filled: every goto out releases it */
	struct guest_need need = { .programs = { NULL }, .modules_dir = STRBUF_INIT };
	const char *qemu = getenv("PERFBOT_QEMU");
	struct job_desc_keys keys;
	int ret = -1;

	memset(vm, 0, sizeof(*vm));
	vm->o = *o;
	strbuf_init(&vm->initrd, 0);
	strbuf_init(&vm->accel_how, 0);
	vm->backend.run_once = vm_run_once;
	vm->backend.ctx = vm;
	if (!program_in_path(qemu && *qemu ? qemu : "qemu-system-x86_64")) {
		error("%s not found (Debian package qemu-system-x86: scripts/deps.sh kernel)",
		      qemu && *qemu ? qemu : "qemu-system-x86_64");
		goto out;
	}
	if (kernel_image_load(o->kernel, &vm->img) < 0)
		goto out;
	job_desc_keys(atom, &keys);
	vm->append = keys.kernel_cmdline;
	if (vm_brd(vm, atom) < 0)
		goto out;
	if (read_file(&cpuinfo, "/proc/cpuinfo") == 0)
		vm->tsc_khz = qemu_tsc_khz(cpuinfo.buf);
	kernel_cache_dir(o->cache, &cache);
	path_join(&dir, cache.buf, "initrd");

	struct initramfs_spec spec = { .run_args = run_args, .command = command };
	/* the accel first: it names the test box.  A probe boots the job's
	 * initramfs as it is (perfbot.probe=1 stops at /init). */
	vm->accel = qemu_choose_accel(o->accel, cache.buf, vm->img.bzimage, NULL, false, o->stop,
				      &vm->accel_how);
	if (vm->accel == QEMU_ACCEL_AUTO) {
		/* the probe stops at /init: any job will do */
		job_to_yaml(atom, &yaml);
		spec.job_yaml = yaml.buf;
		if (initramfs_build(&spec, dir.buf, &vm->initrd) < 0)
			goto out;
		strbuf_reset(&vm->accel_how);
		vm->accel = qemu_choose_accel(o->accel, cache.buf, vm->img.bzimage, vm->initrd.buf, false,
					      o->stop, &vm->accel_how);
		strbuf_reset(&vm->initrd);
		strbuf_reset(&yaml);
	}

	if (vm_size(vm, atom, &keys) < 0)
		goto out;
	/* lkp's result path: the kernel's commit and config, the VM as box */
	job_set(atom, "commit", o->commit ? o->commit : vm->img.commit);
	if (vm->img.kconfig)
		job_set(atom, "kconfig", vm->img.kconfig);
	else
		job_set_default(atom, "kconfig", job_scalar_new("x86_64-unknown"));
	if (vm->o.mem_mb % 1024)
		strbuf_addf(&s, "vm-%s-%dcpu-%ldM", qemu_accel_name(vm->accel), vm->o.cpus, vm->o.mem_mb);
	else
		strbuf_addf(&s, "vm-%s-%dcpu-%ldG", qemu_accel_name(vm->accel), vm->o.cpus, vm->o.mem_mb / 1024);
	if (vm->o.numa > 1)
		strbuf_addf(&s, "-%dnode", vm->o.numa);
	/* the test box is the VM, whatever split-job took from this host
	 * (unless a lab worker names its results by its own group) */
	job_set(atom, "tbox_group", o->tbox_group ? o->tbox_group : s.buf);
	job_set(atom, "testbox", s.buf);
	job_set_default(atom, "rootfs", job_scalar_new("perfbot-initramfs"));
	/* the compiler that built the guest's kernel, not this machine's
	 * /proc/version's; "gcc" when the image comes with no config */
	job_set_default(atom, "compiler", job_scalar_new(vm->img.compiler ? vm->img.compiler : "gcc"));
	job_set(atom, "kernel", vm->img.bzimage);
	/* the guest runs the job where it is: without `kernel:` */
	struct job *guest = job_dup(atom);
	job_delete(guest, "kernel");
	/* nor its commit: one initramfs serves every commit of a bisect */
	job_delete(guest, "commit");
	job_to_yaml(guest, &yaml);
	job_free(guest);
	spec.job_yaml = yaml.buf;
	spec.hostname = s.buf;
	guest_files_needs(&need, atom, run_args, vm->img.kconfig ? NULL : vm->img.release, NULL);
	spec.programs = need.programs;
	if (need.modules_dir.len) {
		spec.modules_dir = need.modules_dir.buf;
		spec.modules = need.modules;
		spec.modules_load = need.load;
	}
	if (initramfs_build(&spec, dir.buf, &vm->initrd) < 0)
		goto out;
	if (o->verbose)
		fprintf(stderr, "perfbot: kernel %s (%s), accel %s, initramfs %s\n", vm->img.commit,
			vm->img.release, vm->accel_how.buf, vm->initrd.buf);
	ret = 0;
out:
	strbuf_release(&cache);
	strbuf_release(&dir);
	strbuf_release(&cpuinfo);
	strbuf_release(&yaml);
	strbuf_release(&s);
	guest_need_release(&need);
	return ret;
}

void kernel_vm_release(struct kernel_vm *vm)
{
	kernel_image_release(&vm->img);
	strbuf_release(&vm->initrd);
	strbuf_release(&vm->accel_how);
}

/* ---- one run ------------------------------------------------------------- */

struct boot {
	struct kernel_vm *vm;
	const struct run_info *info;
	struct held_dir dir;         /* the run dir, written through its fd */
	struct strbuf log;           /* the host's log lines */
	/* the files QEMU writes, as it is given them: in the held dir by
	 * /proc/self/fd/<fd>/<name> (fileio.h's held_dir_proc_path; QEMU
	 * inherits the fd), so that QEMU, which opens them itself, cannot
	 * be led out of it */
	struct strbuf console, results, qemu_out;
	double t0, t_init, t_end;
	enum boot_end end;
	bool interrupted;
	struct boot_report rep;
};

__attribute__((format(printf, 2, 3)))
static void note(struct boot *b, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	strbuf_addf(&b->log, "%.3f host: %s\n", now_seconds(), msg.buf);
	if (b->vm->o.verbose)
		fprintf(stderr, "perfbot: run %d/%d: %s\n", b->info->k, b->info->n, msg.buf);
	strbuf_release(&msg);
}

double kernel_vm_job_limit(const struct job_desc *d)
{
	return d->timeout > 0 ? d->timeout : VM_NO_LIMIT;
}

/* Whether the console says mark yet: its head and tail only, a console
 * flooded by the guest is not read whole ten times a second. */
static bool console_has(const char *path, const char *mark)
{
	struct strbuf s = STRBUF_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool r = fd >= 0 && serial_read_kept(fd, path, SERIAL_KEEP_HEAD, SERIAL_KEEP_TAIL, &s) >= 0 &&
		 memmem(s.buf, s.len, mark, strlen(mark));

	if (fd >= 0)
		close(fd);
	strbuf_release(&s);
	return r;
}

/* Boot and wait: until QEMU exits, a deadline passes or perfbot is
 * stopped.  0, or -1 when QEMU could not be started. */
static int boot_and_wait(struct boot *b)
{
	struct kernel_vm *vm = b->vm;
	struct qemu_vm q = {
		.kernel = vm->img.bzimage, .initrd = vm->initrd.buf, .append = vm->append,
		.accel = vm->accel, .cpus = vm->o.cpus, .mem_mb = vm->o.mem_mb, .numa = vm->o.numa,
		.tsc_khz = vm->tsc_khz, .brd_nr = vm->brd_nr, .brd_kib = vm->brd_kib,
		.epoch = (long long)time(NULL), .console_path = b->console.buf,
		.results_path = b->results.buf, .dir = &b->dir,
	};
	struct qemu_proc p;
	struct strbuf line = STRBUF_INIT;
	double boot_to = vm->o.boot_timeout > 0 ? vm->o.boot_timeout : BOOT_TIMEOUT;
	double job_to = kernel_vm_job_limit(b->info->desc) + SEND_SLACK, shown = 0;

	{
		/* to replay by hand: the files by the run dir's name, not by
		 * /proc/self/fd, which leads there only from this perfbot */
		struct qemu_vm named = q;
		struct strbuf con = STRBUF_INIT, res = STRBUF_INIT;
		struct argv_list a = ARGV_LIST_INIT;
		path_join(&con, b->dir.path, "dmesg");
		path_join(&res, b->dir.path, ".results.cpio.gz");
		named.console_path = con.buf;
		named.results_path = res.buf;
		named.dir = NULL;
		qemu_argv(&named, &a);
		strbuf_reset(&line);
		argv_list_to_shell(&a, &line);
		argv_list_release(&a);
		strbuf_release(&con);
		strbuf_release(&res);
	}
	note(b, "accel %s", vm->accel_how.buf);
	note(b, "boot (replay with): %s", line.buf);
	strbuf_release(&line);
	b->t0 = now_seconds();
	if (qemu_start(&q, &p, b->qemu_out.buf) < 0) {
		qemu_proc_release(&p);
		return -1;
	}
	b->end = BOOT_END_EXITED;
	for (;;) {
		int r = poll_command(&p.cp);
		if (r < 0)
			break;
		if (r == FINISH_EXITED)
			break;
		double now = now_seconds();
		if (vm->o.stop && *vm->o.stop) {
			b->interrupted = true;
			b->end = BOOT_END_KILLED;
			break;
		}
		if (b->t_init <= 0 && console_has(b->console.buf, GUEST_MARK_INIT)) {
			b->t_init = now;
			note(b, "/init reached after %.1fs", now - b->t0);
		}
		if (serial_file_over(b->console.buf, SERIAL_FILE_MAX) ||
		    serial_file_over(b->results.buf, SERIAL_FILE_MAX)) {
			note(b, "the guest wrote more than %u MiB on a serial port: stopping QEMU",
			     SERIAL_FILE_MAX >> 20);
			b->end = BOOT_END_FLOOD;
			break;
		}
		if ((b->t_init <= 0 && now - b->t0 > boot_to) || (b->t_init > 0 && now - b->t_init > job_to)) {
			note(b, "%s deadline passed (%.0fs): stopping QEMU", b->t_init > 0 ? "job" : "boot",
			     b->t_init > 0 ? job_to : boot_to);
			b->end = BOOT_END_KILLED;
			break;
		}
		if (vm->o.status_line && now - shown >= 0.5) {
			fprintf(stderr, "\r\033[Krun %d/%d: %s %.0fs", b->info->k, b->info->n,
				b->t_init > 0 ? "running in the guest" : "booting", now - b->t0);
			fflush(stderr);
			shown = now;
		}
		usleep(100000);
	}
	qemu_proc_release(&p);
	b->t_end = now_seconds();
	if (vm->o.status_line)
		fprintf(stderr, "\r\033[K");
	return 0;
}

/* Unpack the guest's run dir (its archive came on ttyS1); -1 when it is
 * not all there. */
static int take_results(struct boot *b)
{
	struct stat st;

	if (stat(b->results.buf, &st) < 0 || st.st_size != b->rep.sent_bytes) {
		note(b, "results: %lld bytes sent, %lld received", b->rep.sent_bytes,
		     stat(b->results.buf, &st) < 0 ? -1LL : (long long)st.st_size);
		return -1;
	}
	if (cpio_extract_file(b->results.buf, CPIO_MAX_BYTES, &b->dir, "the guest's results") < 0)
		return -1;
	note(b, "results: %lld bytes, unpacked", b->rep.sent_bytes);
	return 0;
}

static void put(struct matrix *stats, const char *name, double v, bool is_int)
{
	struct metric *m = matrix_get_or_add(stats, name);
	m->v[0] = v;
	m->is_int[0] = is_int;
}

/* "key: value" lines of a parser into stats as "<prefix>.key", and into
 * "<dir>/<prefix>.json" as a monitor's series. */
static int add_lines(struct boot *b, struct matrix *stats, const char *prefix, const char *lines)
{
	struct strbuf json = STRBUF_INIT, path = STRBUF_INIT, name = STRBUF_INIT;
	int ret = 0;

	for (const char *l = lines; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		const char *sep = memmem(l, len, ": ", 2);
		if (sep) {
			char *end;
			double v = strtod(sep + 2, &end);
			strbuf_reset(&name);
			strbuf_addf(&name, "%s.%.*s", prefix, (int)(sep - l), l);
			put(stats, name.buf, v, !memchr(sep + 2, '.', (size_t)(end - sep - 2)));
		}
		l += len + (nl ? 1 : 0);
	}
	if (*lines && monitor_stats_to_json(prefix, lines, strlen(lines), &json) > 0) {
		strbuf_addf(&path, "%s.json", prefix);
		ret = held_dir_write(&b->dir, path.buf, json.buf, json.len);
	}
	strbuf_release(&json);
	strbuf_release(&path);
	strbuf_release(&name);
	return ret;
}

/* Whether name is in the held dir (not followed). */
static bool has_file(const struct held_dir *dir, const char *name)
{
	struct stat st;

	return fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Append text to the file name of dir (made when missing), through the
 * dir's fd; what is there came from the guest, bounded by its archive's
 * limit (CPIO_MAX_BYTES) or the console's (SERIAL_FILE_MAX). */
static int append_file(const struct held_dir *dir, const char *name, const char *text)
{
	struct strbuf s = STRBUF_INIT;
	int ret = 0;

	if (has_file(dir, name))
		ret = held_dir_read(dir, name, &s, SERIAL_FILE_MAX);
	strbuf_addstr(&s, text);
	if (!ret)
		ret = held_dir_write(dir, name, s.buf, s.len);
	strbuf_release(&s);
	return ret;
}

/* dmesg and boot-time stats, last_state and the log: the host's part of
 * the run dir.  complete says whether the guest's run was. */
static int finish_run_dir(struct boot *b, bool got_results, bool *complete)
{
	struct strbuf text = STRBUF_INIT, lines = STRBUF_INIT, path = STRBUF_INIT, s = STRBUF_INIT;
	struct matrix stats;
	bool booted = b->rep.state == BOOT_OK && got_results;
	int ret = -1;

	matrix_init(&stats);
	stats.ncols = 1;
	/* lkp's line for what the kernel could not say itself */
	const char *fail = boot_failure_line(b->rep.state);
	if (fail) {
		strbuf_addf(&s, "%s\n", fail);
		if (append_file(&b->dir, "dmesg", s.buf) < 0)
			goto out;
	}
	path_join(&path, b->dir.path, "dmesg");
	if (held_dir_read(&b->dir, "dmesg", &text, SERIAL_FILE_MAX) < 0)
		goto out;
	const struct parser *dm = parser_find("dmesg");
	struct parse_input in = { text.buf, text.len, path.buf, b->dir.path };
	if (dm->parse(&in, &lines) < 0)
		goto out;
	/* the guest's stats, read through the held dir too */
	held_dir_proc_path(&b->dir, "stats.json", &path);
	if (booted && has_file(&b->dir, "stats.json") && stats_load(&stats, path.buf) < 0)
		goto out;
	if (add_lines(b, &stats, "dmesg", lines.buf) < 0)
		goto out;
	strbuf_reset(&lines);
	boot_time_stats(&b->rep, &lines);
	if (add_lines(b, &stats, "boot-time", lines.buf) < 0)
		goto out;
	*complete = booted && b->rep.exit_status == 0 && !b->interrupted;
	if (!booted || b->interrupted)
		put(&stats, "last_state.is_incomplete_run", 1, true);
	strbuf_reset(&text);
	stats_to_json(&stats, &text);
	if (held_dir_write(&b->dir, "stats.json", text.buf, text.len) < 0)
		goto out;

	strbuf_reset(&s);
	if (!booted || b->interrupted) {
		/* the guest wrote none: say why from outside */
		strbuf_addf(&s, "is_incomplete_run: 1\ninterrupted: %s\nreason: %s\n",
			    b->interrupted ? "true" : "false", b->interrupted ? "interrupted" : b->rep.reason.buf);
	}
	strbuf_addf(&s, "boot: %s\nqemu_accel: %s\n", boot_state_name(b->rep.state), qemu_accel_name(b->vm->accel));
	if (append_file(&b->dir, "last_state", s.buf) < 0)
		goto out;
	/* the machine is the guest (its perfbot wrote the file): say how it
	 * ran, so that a report can warn of emulated timings */
	if (has_file(&b->dir, "machine")) {
		strbuf_reset(&s);
		strbuf_addf(&s, "qemu_accel: %s\n", qemu_accel_name(b->vm->accel));
		if (append_file(&b->dir, "machine", s.buf) < 0)
			goto out;
	}
	note(b, "boot %s after %.1fs%s%s", boot_state_name(b->rep.state), b->t_end - b->t0,
	     b->rep.reason.len ? ": " : "", b->rep.reason.buf);
	if (b->qemu_out.len) {
		struct strbuf q = STRBUF_INIT;
		if (held_dir_read(&b->dir, ".qemu.out", &q, SERIAL_KEEP_TAIL) == 0 && q.len)
			note(b, "QEMU said: %s", q.buf);
		strbuf_release(&q);
	}
	ret = append_file(&b->dir, "perfbot.log", b->log.buf);
out:
	matrix_release(&stats);
	strbuf_release(&text);
	strbuf_release(&lines);
	strbuf_release(&path);
	strbuf_release(&s);
	return ret;
}

/*
 * An incomplete run says why on stderr, as a host run does (its failed
 * benchmark's status and stderr): the boot's reason, else the guest's own
 * last_state reason, and the run dir (its dmesg, perfbot.log).  Without it a --kernel run
 * ended in "1 run (some incomplete)" and exit 1, the cause only in files.
 */
static void say_incomplete(const struct boot *b, const char *dir)
{
	struct strbuf why = STRBUF_INIT, state = STRBUF_INIT;

	if (b->rep.reason.len) {
		strbuf_add(&why, b->rep.reason.buf, b->rep.reason.len);
	} else {
		/* through the dir held (published: its name is dir), bounded
		 * as every file the guest wrote */
		const char *r = held_dir_read(&b->dir, "last_state", &state, SERIAL_FILE_MAX) == 0 ?
				strstr(state.buf, "reason: ") : NULL;
		if (r && (r == state.buf || r[-1] == '\n'))
			strbuf_add(&why, r + 8, strcspn(r + 8, "\n"));
		else
			strbuf_addf(&why, "the guest's run exited %d", b->rep.exit_status);
	}
	fprintf(stderr, "perfbot: run %d/%d (%s) incomplete: %s\n", b->info->k, b->info->n, dir, why.buf);
	strbuf_release(&why);
	strbuf_release(&state);
}

static int vm_run_once(void *ctx, const struct run_info *info, char **final_dir)
{
	struct boot b;
	struct strbuf path = STRBUF_INIT;
	struct strbuf log = STRBUF_INIT;
	bool complete = false, got = false;
	int ret = -1;

	memset(&b, 0, sizeof(b));
	b.vm = ctx;
	b.info = info;
	b.dir.fd = -1;
	strbuf_init(&b.log, 0);
	strbuf_init(&b.console, 0);
	strbuf_init(&b.results, 0);
	strbuf_init(&b.qemu_out, 0);
	strbuf_init(&b.rep.reason, 0);
	if (run_dir_hold(info->result_root, &b.dir) < 0)
		goto out;
	job_to_yaml(info->job, &path);
	if (held_dir_write(&b.dir, "job.yaml", path.buf, path.len) < 0)
		goto out;
	held_dir_proc_path(&b.dir, "dmesg", &b.console);
	held_dir_proc_path(&b.dir, ".results.cpio.gz", &b.results);
	held_dir_proc_path(&b.dir, ".qemu.out", &b.qemu_out);
	if (boot_and_wait(&b) < 0)
		goto out;
	if (serial_read_console(b.console.buf, &log) < 0)
		goto out;
	boot_report_release(&b.rep);
	boot_classify(log.buf, log.len, b.end, &b.rep);
	if (b.rep.state == BOOT_OK && !b.interrupted) {
		got = take_results(&b) == 0;
		if (!got) {
			b.rep.state = BOOT_CRASH;
			strbuf_reset(&b.rep.reason);
			strbuf_addstr(&b.rep.reason, "crash: the results did not arrive whole");
		}
	}
	/* the host's job.yaml, which names the kernel, over the guest's */
	if (got && held_dir_write(&b.dir, "job.yaml", path.buf, path.len) < 0)
		goto out;
	if (finish_run_dir(&b, got, &complete) < 0)
		goto out;
	unlinkat(b.dir.fd, ".results.cpio.gz", 0);
	unlinkat(b.dir.fd, ".qemu.out", 0);
	if (run_dir_publish_held(info->result_root, &b.dir, final_dir) < 0)
		goto out;
	if (!complete && !b.interrupted)
		say_incomplete(&b, *final_dir);
	ret = complete ? 0 : 1;
out:
	if (ret < 0 && b.dir.fd >= 0)
		held_dir_remove(&b.dir);
	held_dir_close(&b.dir);
	strbuf_release(&path);
	strbuf_release(&log);
	strbuf_release(&b.log);
	strbuf_release(&b.console);
	strbuf_release(&b.results);
	strbuf_release(&b.qemu_out);
	boot_report_release(&b.rep);
	return ret;
}
