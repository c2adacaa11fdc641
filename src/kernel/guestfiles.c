/*
 * guestfiles.c: host programs with their libraries, and kernel modules
 * with their dependencies, into a guest's initramfs (see guestfiles.h).
 */
#include "kernel/guestfiles.h"
#include "run/desc.h"
#include "run/setup.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void guest_files_init(struct guest_files *g, struct cpio *c)
{
	g->c = c;
	g->added = (struct argv_list)ARGV_LIST_INIT;
}

void guest_files_release(struct guest_files *g)
{
	argv_list_release(&g->added);
}

static bool added(const struct guest_files *g, const char *name)
{
	for (size_t i = 0; i < g->added.nr; i++)
		if (!strcmp(g->added.v[i], name))
			return true;
	return false;
}

void guest_files_parents(struct guest_files *g, const char *path)
{
	struct strbuf dir = STRBUF_INIT;

	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		strbuf_reset(&dir);
		strbuf_add(&dir, path, (size_t)(p - path));
		if (dir.len && !added(g, dir.buf)) {
			cpio_add(g->c, dir.buf, S_IFDIR | 0755, NULL, 0);
			argv_list_push(&g->added, dir.buf);
		}
	}
	strbuf_release(&dir);
}

/* The host file path (a symlink followed) as name, once. */
static int add_copy(struct guest_files *g, const char *name, const char *path, unsigned perm)
{
	struct strbuf data = STRBUF_INIT;

	if (added(g, name))
		return 0;
	if (read_file(&data, path) < 0) {
		strbuf_release(&data);
		return -1;
	}
	guest_files_parents(g, name);
	cpio_add(g->c, name, S_IFREG | perm, data.buf, data.len);
	argv_list_push(&g->added, name);
	strbuf_release(&data);
	return 0;
}

int guest_files_parse_ldd(const char *text, struct argv_list *libs, struct strbuf *why)
{
	int n = 0;

	for (const char *line = text; *line; ) {
		const char *eol = strchrnul(line, '\n');
		struct strbuf l = STRBUF_INIT;
		char *p, *path = NULL;

		strbuf_add(&l, line, (size_t)(eol - line));
		line = *eol ? eol + 1 : eol;
		p = l.buf + strspn(l.buf, " \t");
		/* "libc.so.6 => /lib/.../libc.so.6 (0x...)", "/lib64/ld-... (0x...)",
		 * "linux-vdso.so.1 (0x...)", "libfoo.so.1 => not found" */
		char *arrow = strstr(p, "=> ");
		if (arrow) {
			path = arrow + 3;
			if (!strncmp(path, "not found", 9)) {
				if (why) {
					strbuf_add(why, p, (size_t)(strcspn(p, " \t")));
					strbuf_addstr(why, " not found");
				}
				strbuf_release(&l);
				return -1;
			}
		} else if (*p == '/') {
			path = p;
		}
		if (path && *path == '/') {
			path[strcspn(path, " \t")] = '\0';
			argv_list_push(libs, path);
			n++;
		}
		strbuf_release(&l);
	}
	return n;
}

static char *find_program(const char *name)
{
	static const char *const dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin", NULL };
	struct strbuf p = STRBUF_INIT;

	for (int i = 0; dirs[i]; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dirs[i], name);
		if (access(p.buf, X_OK) == 0)
			return strbuf_detach(&p, NULL);
	}
	strbuf_release(&p);
	return NULL;
}

int guest_files_program(struct guest_files *g, const char *name)
{
	struct strbuf out = STRBUF_INIT, dest = STRBUF_INIT, why = STRBUF_INIT;
	struct argv_list libs = ARGV_LIST_INIT;
	char *path = find_program(name);
	int ret = -1;

	if (!path)
		return 1;
	strbuf_addf(&dest, "usr/bin/%s", name);
	if (add_copy(g, dest.buf, path, 0755) < 0)
		goto out;
	/* ldd: a static program is "not a dynamic executable", exit 1 */
	char *const argv[] = { "ldd", path, NULL };
	int r = capture_command_err(argv, NULL, &out, "/dev/null");
	if (r != 0 && strstr(out.buf, "=>")) {
		error("ldd '%s' failed (exit %d)", path, r);
		goto out;
	}
	if (r == 0 && guest_files_parse_ldd(out.buf, &libs, &why) < 0) {
		error("'%s' cannot run in the guest: %s on this host", path, why.buf);
		goto out;
	}
	for (size_t i = 0; i < libs.nr; i++)
		if (add_copy(g, libs.v[i] + 1, libs.v[i], 0755) < 0)
			goto out;
	ret = 0;
out:
	free(path);
	strbuf_release(&out);
	strbuf_release(&dest);
	strbuf_release(&why);
	argv_list_release(&libs);
	return ret;
}

/* "kernel/fs/ext4/ext4.ko" names module "ext4"; '-' and '_' alike */
static bool names_module(const char *path, size_t len, const char *module)
{
	const char *base = path;
	size_t n = strlen(module);

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	if ((size_t)(path + len - base) != n + 3 || memcmp(base + n, ".ko", 3))
		return false;
	for (size_t i = 0; i < n; i++) {
		char a = base[i] == '-' ? '_' : base[i], b = module[i] == '-' ? '_' : module[i];
		if (a != b)
			return false;
	}
	return true;
}

/* The line of modules.dep for module: "kernel/a.ko: kernel/b.ko ...". */
static const char *dep_line(const char *dep, const char *module, size_t *len)
{
	for (const char *line = dep; *line; ) {
		const char *eol = strchrnul(line, '\n'), *colon = memchr(line, ':', (size_t)(eol - line));
		if (colon && names_module(line, (size_t)(colon - line), module)) {
			*len = (size_t)(eol - line);
			return line;
		}
		line = *eol ? eol + 1 : eol;
	}
	return NULL;
}

static int add_module_file(struct guest_files *g, const char *dir, const char *rel,
			   const char *file, size_t len)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;
	int r;

	strbuf_addf(&name, "lib/modules/%s/%.*s", rel, (int)len, file);
	strbuf_addf(&path, "%s/%.*s", dir, (int)len, file);
	r = add_copy(g, name.buf, path.buf, 0644);
	strbuf_release(&name);
	strbuf_release(&path);
	return r;
}

int guest_files_modules(struct guest_files *g, const char *dir, const char *const *modules)
{
	static const char *const index[] = {
		"modules.dep", "modules.dep.bin", "modules.alias", "modules.alias.bin",
		"modules.softdep", "modules.symbols.bin", "modules.builtin", "modules.builtin.bin",
		"modules.builtin.alias.bin", "modules.devname", "modules.order", NULL
	};
	struct strbuf dep = STRBUF_INIT, p = STRBUF_INIT;
	const char *rel = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	int n = -1;

	strbuf_addf(&p, "%s/modules.dep", dir);
	if (read_file(&dep, p.buf) < 0)
		goto out;
	for (int i = 0; index[i]; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, index[i]);
		if (file_exists(p.buf) && add_module_file(g, dir, rel, index[i], strlen(index[i])) < 0)
			goto out;
	}
	n = 0;
	for (int i = 0; modules[i]; i++) {
		size_t len;
		const char *line = dep_line(dep.buf, modules[i], &len);
		if (!line)
			continue;
		/* the module and its dependencies: words of the line, the
		 * first one with its ':' */
		for (size_t at = 0; at < len; ) {
			size_t w = strcspn(line + at, " :\n");
			if (w && add_module_file(g, dir, rel, line + at, w) < 0) {
				n = -1;
				goto out;
			}
			at += w;
			at += strspn(line + at, " :");
			if (line[at] == '\n')
				break;
		}
		n++;
	}
out:
	strbuf_release(&dep);
	strbuf_release(&p);
	return n;
}

/*
 * (guestfiles.h) What the job's setup and monitors run in the guest that perfbot's own
 * initramfs lacks (guestfiles.h): the fs's mkfs and losetup for fs: and
 * disk:, perf for perf-stat and perf-profile, and for a packaged kernel
 * (no perfbot build: its kconfig unknown) with its modules on this host,
 * the modules of the fs and disks with kmod's modprobe to load them.
 * A job's own monitor list (-M) decides perf as it decides the guest's run.
 */
void guest_files_needs(struct guest_need *n, const struct job *atom, char *const *run_args,
		       const char *release, const char *modules_root)
{
	struct run_setup_plan plan;
	struct strbuf why = STRBUF_INIT;
	const char *monitors = NULL;
	size_t np = 0, nm = 0, nl = 0;

	memset(n, 0, sizeof(*n));
	strbuf_init(&n->modules_dir, 0);
	for (int i = 0; run_args && run_args[i] && run_args[i + 1]; i++)
		if (!strcmp(run_args[i], "-M"))
			monitors = run_args[i + 1];
	/* a benchmark without monitor keys gets lkp's default set, perf's too */
	struct job_desc_keys k;
	job_desc_keys(atom, &k);
	if (monitors ? strstr(monitors, "perf-") != NULL :
	    job_lookup(atom, "perf-profile") || job_lookup(atom, "perf-stat") ||
	    (k.category && !strcmp(k.category, "benchmark")))
		n->programs[np++] = "perf";
	memset(&plan, 0, sizeof(plan));
	if (run_setup_plan(atom, &plan, &why) != 0)
		plan.fs = NULL, plan.disk = RUN_DISK_NONE;   /* the guest's run says why */
	strbuf_release(&why);
	if (run_setup_fs_mkfs(plan.fs))
		n->programs[np++] = run_setup_fs_mkfs(plan.fs);
	if (plan.disk == RUN_DISK_LOOP)
		n->programs[np++] = "losetup";

	if (!release || !*release || strchr(release, '/') || !strcmp(release, "..") || !strcmp(release, "."))
		return;
	strbuf_addf(&n->modules_dir, "%s/%s", modules_root ? modules_root : "/lib/modules", release);
	struct strbuf dep = STRBUF_INIT;
	strbuf_addf(&dep, "%s/modules.dep", n->modules_dir.buf);
	bool have = file_exists(dep.buf);
	strbuf_release(&dep);
	if (!have || (!plan.fs && plan.disk == RUN_DISK_NONE)) {
		strbuf_reset(&n->modules_dir);
		return;
	}
	n->programs[np++] = "modprobe";
	if (plan.fs && run_setup_fs_mkfs(plan.fs)) {
		const char *t = run_setup_fs_type(plan.fs);
		n->modules[nm++] = n->load[nl++] = t;
		/* Debian's ext4 module also mounts ext2 and ext3 */
		if (!strncmp(t, "ext", 3) && strcmp(t, "ext4"))
			n->modules[nm++] = n->load[nl++] = "ext4";
		/* what ext4, xfs and btrfs checksum with (modules.softdep's crc32c) */
		n->modules[nm++] = n->load[nl++] = "crc32c_generic";
		n->modules[nm++] = n->load[nl++] = "crc32c-intel";
	}
	if (plan.disk == RUN_DISK_LOOP)
		n->modules[nm++] = n->load[nl++] = "loop";
	/* brd is loaded by the setup itself: with the job's sizes */
	if (plan.disk == RUN_DISK_BRD)
		n->modules[nm++] = "brd";
}

void guest_need_release(struct guest_need *n)
{
	strbuf_release(&n->modules_dir);
}
