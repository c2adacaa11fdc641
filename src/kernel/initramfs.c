/*
 * initramfs.c: the guest's initramfs and its /init (see initramfs.h).
 */
#include "kernel/initramfs.h"
#include "runner/runner.h"
#include "kernel/cpio.h"
#include "kernel/guestfiles.h"
#include "kernel/kconfig.h"
#include "kernel/serial.h"
#include "util/error.h"
#include "util/exedir.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Built-in benchmarks, copied into /bench when the static dir has them. */
static const char *const bench_programs[] = {
	"will-it-scale", "vm-scalability", "aim7", "bench-harness", NULL
};

int elf_is_static(const unsigned char *buf, size_t len)
{
	const Elf64_Ehdr *eh = (const void *)buf;

	if (len < sizeof(*eh) || memcmp(buf, ELFMAG, SELFMAG) || buf[EI_CLASS] != ELFCLASS64)
		return -1;
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > len ||
	    (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > len - eh->e_phoff)
		return -1;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(buf + eh->e_phoff + (size_t)i * sizeof(Elf64_Phdr));
		if (ph->p_type == PT_INTERP)
			return 0;
	}
	return 1;
}

void initramfs_static_dir(struct strbuf *sb)
{
	exe_sibling_dir(sb, "PERFBOT_STATIC_DIR", "static", NULL);
}

static void quoted_args(struct strbuf *out, char *const *args)
{
	struct argv_list a = ARGV_LIST_INIT;

	for (int i = 0; args && args[i]; i++)
		argv_list_push(&a, args[i]);
	if (a.nr) {
		strbuf_addch(out, ' ');
		argv_list_to_shell(&a, out);
	}
	argv_list_release(&a);
}

void initramfs_init_script(const struct initramfs_spec *spec, struct strbuf *out)
{
	strbuf_addstr(out,
		"#!/bin/busybox sh\n"
		"# perfbot's guest /init, written by `perfbot run --kernel`: runs one job,\n"
		"# sends its run dir out on ttyS1, reboots (see src/kernel/initramfs.h)\n"
		"/bin/busybox mount -t proc proc /proc\n"
		"/bin/busybox mount -t sysfs sysfs /sys\n"
		"/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
		"# /tmp holds the job's loop disks: sparse, so sized past the memory\n"
		"/bin/busybox mount -t tmpfs -o size=1t tmpfs /tmp\n"
		"/bin/busybox --install -s /bin\n"
		"export PATH=/usr/bin:/bin PERFBOT_BENCH_DIR=/bench PERFBOT_WORK_DIR=/tmp/perfbot HOME=/root\n"
		"export PERFBOT_GUEST=1\n");
	if (spec->modules_dir && spec->modules) {
		/* the kernel's request_module() (mount asking for fs-xfs) */
		strbuf_addstr(out, "[ -x /usr/bin/modprobe ] && echo /usr/bin/modprobe >/proc/sys/kernel/modprobe\n");
		if (spec->modules_load && spec->modules_load[0]) {
			strbuf_addstr(out, "modprobe -a");
			quoted_args(out, (char *const *)spec->modules_load);
			strbuf_addstr(out, "\n");
		}
	}
	if (spec->hostname) {
		char *name[] = { (char *)spec->hostname, NULL };
		/* the box's name, which perfbot run files the run under */
		strbuf_addstr(out, "hostname");
		quoted_args(out, name);
		strbuf_addstr(out, "\nexport HOSTNAME=$(hostname)\n");
	}
	strbuf_addstr(out,
		"read up idle </proc/uptime\n"
		"echo \"" GUEST_MARK_INIT "$up\"\n"
		"for w in $(cat /proc/cmdline); do\n"
		"\tcase $w in\n"
		"\tperfbot.epoch=*) date -s \"@${w#perfbot.epoch=}\" >/dev/null ;;\n"
		"\tperfbot.probe=1) reboot -f ;;\n"
		"\tesac\n"
		"done\n"
		/* the guest is the benchmark's own machine: no cgroup */
		"perfbot run -v --no-index --no-cgroup -n 1 -r /result");
	quoted_args(out, spec->run_args);
	strbuf_addstr(out, " /job.yaml");
	if (spec->command) {
		strbuf_addstr(out, " --");
		quoted_args(out, spec->command);
	}
	strbuf_addstr(out,
		"\n"
		"echo \"" GUEST_MARK_EXIT "$?\"\n"
		"n=0\n"
		"d=$(find /result -name stats.json | head -n 1)\n"
		"if [ -n \"$d\" ]; then\n"
		"\tcd \"${d%/stats.json}\"\n"
		"\t# raw: the tty must not turn \\n into \\r\\n in the archive\n"
		"\texec 3<>/dev/ttyS1\n"
		"\tstty raw -echo <&3\n"
		"\tn=$(find . | cpio -o -H newc 2>/dev/null | gzip -1 | tee /proc/self/fd/3 | wc -c)\n"
		"\texec 3>&-\n"
		"fi\n"
		"echo \"" GUEST_MARK_SENT "$n\"\n"
		"sync\n"
		"reboot -f\n");
}

/* Add the host file at path as name, checking it is a static executable
 * when exe; why names what provides it. */
static int add_file(struct cpio *c, const char *name, const char *path, bool exe, const char *why)
{
	struct strbuf data = STRBUF_INIT;
	int ret = -1;

	if (!file_exists(path)) {
		error("'%s' not found (%s)", path, why);
		goto out;
	}
	if (read_file(&data, path) < 0)
		goto out;
	if (exe && elf_is_static((const unsigned char *)data.buf, data.len) != 1) {
		error("'%s' is not a statically linked program, which the guest needs (%s)", path, why);
		goto out;
	}
	cpio_add(c, name, S_IFREG | (exe ? 0755 : 0644), data.buf, data.len);
	ret = 0;
out:
	strbuf_release(&data);
	return ret;
}

int initramfs_build(const struct initramfs_spec *spec, const char *dir, struct strbuf *path)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "tmp", "result", "bench",
					    "root", "etc", NULL };
	struct strbuf archive = STRBUF_INIT, sdir = STRBUF_INIT, p = STRBUF_INIT, script = STRBUF_INIT;
	struct cpio c;
	struct guest_files g = { NULL, ARGV_LIST_INIT };
	const char *bb = spec->busybox ? spec->busybox : getenv("PERFBOT_BUSYBOX");
	int ret = -1;

	if (spec->static_dir)
		strbuf_addstr(&sdir, spec->static_dir);
	else
		initramfs_static_dir(&sdir);
	cpio_init(&c, &archive);
	for (int i = 0; dirs[i]; i++)
		cpio_add(&c, dirs[i], S_IFDIR | 0755, NULL, 0);
	cpio_add_dev(&c, "dev/console", S_IFCHR | 0600, 5, 1);
	cpio_add_dev(&c, "dev/null", S_IFCHR | 0666, 1, 3);
	if (add_file(&c, "bin/busybox", bb && *bb ? bb : "/bin/busybox", true,
		     "Debian package busybox-static: scripts/deps.sh kernel") < 0)
		goto out;
	path_join(&p, sdir.buf, "perfbot");
	if (add_file(&c, "bin/perfbot", p.buf, true, "the static perfbot: make static") < 0)
		goto out;
	for (int i = 0; bench_programs[i]; i++) {
		struct strbuf name = STRBUF_INIT;
		strbuf_reset(&p);
		path_join(&p, sdir.buf, bench_programs[i]);
		strbuf_addf(&name, "bench/%s", bench_programs[i]);
		int r = file_exists(p.buf) ? add_file(&c, name.buf, p.buf, true, "make static") : 0;
		strbuf_release(&name);
		if (r < 0)
			goto out;
	}
	guest_files_init(&g, &c);
	/* the directories made above are in: not made again for a library */
	for (int i = 0; dirs[i]; i++)
		argv_list_push(&g.added, dirs[i]);
	for (int i = 0; spec->programs && spec->programs[i]; i++)
		if (guest_files_program(&g, spec->programs[i]) < 0)
			goto out;
	if (spec->modules_dir && spec->modules &&
	    guest_files_modules(&g, spec->modules_dir, spec->modules) < 0)
		goto out;
	cpio_add(&c, "job.yaml", S_IFREG | 0644, spec->job_yaml, strlen(spec->job_yaml));
	initramfs_init_script(spec, &script);
	cpio_add(&c, "init", S_IFREG | 0755, script.buf, script.len);
	cpio_finish(&c);

	/* named by content: the runs of a job, and every job with the same
	 * text, boot the same file, and a replayed command line finds it */
	uint64_t h = kconfig_hash(KCONFIG_HASH_INIT, archive.buf, archive.len);
	if (mkdir_p(dir, 0755) < 0)
		goto out;
	strbuf_addf(path, "%s/%016llx.cpio", dir, (unsigned long long)h);
	if (!file_exists(path->buf) && write_file_atomic(path->buf, archive.buf, archive.len) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&archive);
	strbuf_release(&sdir);
	strbuf_release(&p);
	strbuf_release(&script);
	guest_files_release(&g);
	return ret;
}
