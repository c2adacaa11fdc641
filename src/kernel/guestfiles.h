#ifndef PERFBOT_KERNEL_GUESTFILES_H
#define PERFBOT_KERNEL_GUESTFILES_H
/*
 * The host's files a guest's job needs besides perfbot's own static
 * programs (initramfs.h): what the job's setup and monitors run (mkfs.ext4,
 * losetup, modprobe, perf) with the shared libraries they load, and, for
 * a packaged kernel such as Debian's linux-image, the modules its setup
 * loads (ext4, xfs, btrfs, loop, brd) from the host's /lib/modules.
 *
 *   struct guest_files g;
 *   guest_files_init(&g, &cpio);
 *   guest_files_program(&g, "mkfs.ext4");      // 1: not on this host
 *   guest_files_modules(&g, "/lib/modules/6.1.0-57-amd64", mods);
 *   guest_files_release(&g);
 *
 * A program goes to /usr/bin/NAME under the name it was asked for (kmod
 * tells modprobe from lsmod by that name), its libraries to the paths
 * ldd names: the loader's path inside a program is absolute, and the
 * guest's loader, with no ld.so.cache, finds the rest in its default
 * directories (/lib/x86_64-linux-gnu is one).  Everything is copied as
 * it is on the host: a program and its libraries come from one package
 * version, and the guest runs the host's userspace on the kernel under
 * test, as lkp's rootfs does on its test boxes.
 *
 * Modules are copied with every module modules.dep says they need, and
 * the index files (modules.dep and its .bin, modules.alias.bin, ...)
 * whole, so that the guest's modprobe and the kernel's request_module()
 * (mount -t xfs asking for "fs-xfs") find them; a name the index lacks
 * (built into the kernel, or not in this kernel) is no error: setup says
 * what is missing in the guest as it would on a host.
 */
#include "kernel/cpio.h"
#include "runner/runner.h"

struct guest_files {
	struct cpio *c;
	struct argv_list added;      /* archive names in c, directories too */
};

void guest_files_init(struct guest_files *g, struct cpio *c);
void guest_files_release(struct guest_files *g);

/*
 * Add the host program name (found in /usr/sbin, /usr/bin, /sbin or /bin)
 * as usr/bin/NAME with the libraries it loads.  0; 1 when this host has
 * no such program; -1 after error() (unreadable, ldd failed).
 */
int guest_files_program(struct guest_files *g, const char *name);

/*
 * Add modules (names as modprobe takes them, '-' and '_' alike; NULL-
 * terminated) from dir (a /lib/modules/RELEASE), what they depend on, and
 * dir's index files, under lib/modules/RELEASE.  The number of modules
 * added, or -1 after error() (no modules.dep in dir, an unreadable file).
 */
int guest_files_modules(struct guest_files *g, const char *dir, const char *const *modules);

/* Add path's directories (a/b/c adds a and a/b) that are not in yet. */
void guest_files_parents(struct guest_files *g, const char *path);

/* The libraries of ldd's output text (appended to libs, as ldd names
 * them: "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2";
 * the vDSO and "not found" lines skipped).  -1 when a library is not
 * found, with its name in why; else the number of libraries. */
int guest_files_parse_ldd(const char *text, struct argv_list *libs, struct strbuf *why);

/*
 * What a job's guest needs from the host: the fs's mkfs and losetup for
 * fs: and disk:, perf for perf-stat and perf-profile (the -M list in
 * run_args when given, else the job's monitor keys, and any
 * `category: benchmark` job, whose default monitors include them), and
 * for a packaged kernel of release (NULL for perfbot's own builds, whose
 * configs build in what the seeds need) whose modules_root/release
 * (default /lib/modules) has a modules.dep: kmod's modprobe and the
 * modules of the fs (ext4 for ext2 and ext3 too, and crc32c, which they
 * checksum with) and the disks (loop; brd, which setup loads with the
 * job's sizes, copied but not loaded at boot).  Release n with
 * guest_need_release.
 */
struct guest_need {
	const char *programs[6];
	const char *modules[8];
	const char *load[8];         /* the modules /init loads */
	struct strbuf modules_dir;   /* empty: no modules */
};
struct job;
void guest_files_needs(struct guest_need *n, const struct job *atom, char *const *run_args,
		       const char *release, const char *modules_root);
void guest_need_release(struct guest_need *n);

#endif
