/*
 * build.c: building kernel commits out of tree, cached (see build.h).
 */
#include "kernel/build.h"
#include "runner/runner.h"
#include "kernel/bzimage.h"
#include "kernel/kconfig.h"
#include "git/git.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void kernel_cache_dir(const char *dir, struct strbuf *sb)
{
	const char *env = getenv("PERFBOT_KERNEL_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (dir && *dir)
		strbuf_addstr(sb, dir);
	else if (env && *env)
		strbuf_addstr(sb, env);
	else if (geteuid() == 0)
		strbuf_addstr(sb, "/var/cache/perfbot/kernel");
	else if (xdg && *xdg)
		strbuf_addf(sb, "%s/perfbot/kernel", xdg);
	else
		strbuf_addf(sb, "%s/.cache/perfbot/kernel", home && *home ? home : "/tmp");
}

void kernel_image_release(struct kernel_image *img)
{
	free(img->dir);
	free(img->bzimage);
	free(img->commit);
	free(img->kconfig);
	free(img->release);
	free(img->compiler);
	memset(img, 0, sizeof(*img));
}

/* "key: value" of an info file, xstrdup'd, or NULL. */
static char *info_field(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len > klen + 1 && !strncmp(l, key, klen) && l[klen] == ':') {
			const char *v = l + klen + 1;
			while (*v == ' ')
				v++;
			return xstrndup(v, len - (size_t)(v - l));
		}
		l = nl ? nl + 1 : l + len;
	}
	return NULL;
}

/*
 * The image's own config: an image dir's "config" (the cache's), else
 * "config-R" beside a "vmlinuz-R" (a distribution's /boot), else the
 * ".config" of the build tree a ".../arch/x86/boot/bzImage" is in.
 * Its path into sb, 0 when there is none.
 */
static int image_config(const struct kernel_image *img, bool in_cache, struct strbuf *sb)
{
	const char *base = strrchr(img->bzimage, '/');
	const char *tail = "/arch/x86/boot/bzImage";
	size_t len = strlen(img->bzimage), tlen = strlen(tail);

	base = base ? base + 1 : img->bzimage;
	strbuf_reset(sb);
	if (in_cache)
		path_join(sb, img->dir, "config");
	else if (!strncmp(base, "vmlinuz-", 8) && base[8])
		strbuf_addf(sb, "%s/config-%s", img->dir, base + 8);
	else if (len > tlen && !strcmp(img->bzimage + len - tlen, tail))
		strbuf_addf(sb, "%.*s/.config", (int)(len - tlen), img->bzimage);
	return sb->len && file_exists(sb->buf);
}

int kernel_image_load(const char *path, struct kernel_image *img)
{
	struct strbuf p = STRBUF_INIT, info = STRBUF_INIT, ver = STRBUF_INIT;
	int ret = -1;

	memset(img, 0, sizeof(*img));
	char *abs = realpath(path, NULL);
	if (!abs)
		return error("cannot read kernel '%s': %s", path, strerror(errno));
	if (is_dir(abs)) {
		img->dir = abs;
		path_join(&p, abs, "bzImage");
		img->bzimage = strbuf_detach(&p, NULL);
	} else {
		img->bzimage = abs;
		char *slash = strrchr(abs, '/');
		img->dir = xstrndup(abs, slash > abs ? (size_t)(slash - abs) : 1);
	}
	if (bzimage_read_version(img->bzimage, &ver) < 0)
		goto out;
	char *sp = strchr(ver.buf, ' ');
	img->release = xstrndup(ver.buf, sp ? (size_t)(sp - ver.buf) : ver.len);
	/* a bzImage of the cache knows its commit and config */
	path_join(&p, img->dir, "info");
	bool in_cache = file_exists(p.buf) && read_file(&info, p.buf) == 0;
	if (in_cache) {
		img->commit = info_field(info.buf, "commit");
		img->kconfig = info_field(info.buf, "kconfig");
		char *s = info_field(info.buf, "build_seconds");
		img->build_seconds = s ? atof(s) : 0;
		free(s);
	}
	if (image_config(img, in_cache, &p)) {
		struct strbuf cfg = STRBUF_INIT, cc = STRBUF_INIT;
		if (read_file(&cfg, p.buf) == 0 && kconfig_compiler(cfg.buf, &cc))
			img->compiler = strbuf_detach(&cc, NULL);
		strbuf_release(&cfg);
		strbuf_release(&cc);
	}
	if (!img->commit)
		img->commit = xstrdup(img->release);
	ret = 0;
out:
	strbuf_release(&p);
	strbuf_release(&info);
	strbuf_release(&ver);
	return ret;
}

void kernel_build_log_reason(const char *log, struct strbuf *why)
{
	const char *last = NULL, *last_end = NULL;

	for (const char *l = log; *l;) {
		const char *nl = strchr(l, '\n');
		const char *end = nl ? nl : l + strlen(l);
		const char *e = memmem(l, (size_t)(end - l), "error:", 6);
		if (e) {
			strbuf_add(why, l, (size_t)(end - l));
			return;
		}
		if (end > l) {
			last = l;
			last_end = end;
		}
		l = nl ? nl + 1 : end;
	}
	if (last)
		strbuf_add(why, last, (size_t)(last_end - last));
	else
		strbuf_addstr(why, "the build printed nothing");
}

/* ---- the steps ------------------------------------------------------- */

struct build {
	const struct kernel_build_opts *o;
	struct kconfig kc;
	struct strbuf cache, slot, src, obj, log, id;
	char *tree;              /* realpath of o->tree */
	char *sha;
	char *cc;                /* "CC=ccache gcc" or NULL */
	int lock_fd;
};

/* git -C dir args...; stdout into out (may be NULL), stderr to err_path
 * (NULL: dropped).  git's exit code (git/git.h). */
static int git_in(const char *dir, struct strbuf *out, const char *err_path, const char *const *args)
{
	struct git_cmd g = { .dir = dir, .out = out, .err_path = err_path };

	return git_run(&g, args);
}

static int resolve(struct build *b)
{
	struct strbuf out = STRBUF_INIT, spec = STRBUF_INIT;
	int ret = -1;

	b->tree = realpath(b->o->tree, NULL);
	if (!b->tree)
		return error("kernel tree '%s': %s", b->o->tree, strerror(errno));
	const char *top[] = { "rev-parse", "--git-dir", NULL };
	if (git_in(b->tree, &out, NULL, top) != 0) {
		error("'%s' is not a git repository: perfbot builds commits "
		      "(scripts/make-demo-kernel-repo.sh makes one of a source tarball)", b->tree);
		goto out;
	}
	strbuf_reset(&out);
	strbuf_addf(&spec, "%s^{commit}", b->o->commit ? b->o->commit : "HEAD");
	const char *rev[] = { "rev-parse", "--verify", "-q", spec.buf, NULL };
	if (git_in(b->tree, &out, NULL, rev) != 0) {
		error("%s: unknown revision '%s'", b->tree, b->o->commit ? b->o->commit : "HEAD");
		goto out;
	}
	strbuf_rtrim(&out);
	b->sha = strbuf_detach(&out, NULL);
	ret = 0;
out:
	strbuf_release(&out);
	strbuf_release(&spec);
	return ret;
}

/* Lock the tree's slot; says so when another build holds it. */
static int lock_slot(struct build *b)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	path_join(&path, b->slot.buf, "lock");
	b->lock_fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (b->lock_fd < 0) {
		error("cannot open '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	if (flock(b->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "perfbot: waiting for another build in '%s'\n", b->slot.buf);
		while (flock(b->lock_fd, LOCK_EX) < 0) {
			if (errno != EINTR || (b->o->stop && *b->o->stop)) {
				error("cannot lock '%s': %s", path.buf, strerror(errno));
				goto out;
			}
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

/* The slot's worktree, checked out at b->sha (made on first use). */
static int checkout(struct build *b)
{
	int rc;

	if (!is_dir(b->src.buf)) {
		/* a worktree dir removed by hand is still registered */
		const char *prune[] = { "worktree", "prune", NULL };
		const char *add[] = { "worktree", "add", "--detach", "--force", b->src.buf, b->sha, NULL };
		git_in(b->tree, NULL, NULL, prune);
		fprintf(stderr, "perfbot: checking out %.12s into '%s' (once per tree)\n", b->sha, b->src.buf);
		rc = git_in(b->tree, NULL, b->log.buf, add);
	} else {
		const char *co[] = { "checkout", "-q", "--detach", "--force", b->sha, NULL };
		rc = git_in(b->src.buf, NULL, b->log.buf, co);
	}
	if (rc != 0)
		return error("cannot check out %s in '%s' (see '%s')", b->sha, b->src.buf, b->log.buf);
	return 0;
}

/* The last line of the file at path (for the live status line). */
static void last_line(const char *path, struct strbuf *out)
{
	char buf[1024];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0) {
		off_t from = st.st_size > (off_t)sizeof(buf) - 1 ? st.st_size - (off_t)sizeof(buf) + 1 : 0;
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, from);
		if (n > 0) {
			buf[n] = '\0';
			while (n > 0 && buf[n - 1] == '\n')
				buf[--n] = '\0';
			char *nl = strrchr(buf, '\n');
			strbuf_addstr(out, nl ? nl + 1 : buf);
		}
	}
	close(fd);
}

/* Print the last n lines of the log to stderr. */
static void print_tail(const char *path, int n)
{
	struct strbuf text = STRBUF_INIT;

	if (read_file(&text, path) < 0)
		return;
	const char *p = text.buf + text.len;
	while (p > text.buf && p[-1] == '\n')
		p--;
	for (int seen = 0; p > text.buf; p--)
		if (p[-1] == '\n' && ++seen == n)
			break;
	fprintf(stderr, "perfbot: the end of '%s':\n%s", path, p);
	if (text.len && text.buf[text.len - 1] != '\n')
		fputc('\n', stderr);
	strbuf_release(&text);
}

/*
 * Run make in the slot: "make -C src O=obj [CC=...] [-jN] target",
 * appending its output to the build log.  0, 1 when make failed, -1 when
 * it could not run or perfbot was interrupted.
 */
static int run_make(struct build *b, const char *target, int jobs, const char *dir,
		    char *const *argv_override)
{
	struct argv_list argv = ARGV_LIST_INIT;
	struct strbuf ts = STRBUF_INIT, out = STRBUF_INIT;
	struct child_process cp;
	int fd, r, ret = -1;
	double t0 = now_seconds(), shown = 0;

	if (argv_override) {
		for (int i = 0; argv_override[i]; i++)
			argv_list_push(&argv, argv_override[i]);
	} else {
		argv_list_push(&argv, "make");
		argv_list_pushf(&argv, "-C%s", b->src.buf);
		argv_list_pushf(&argv, "O=%s", b->obj.buf);
		if (b->cc)
			argv_list_push(&argv, b->cc);
		if (jobs > 0)
			argv_list_pushf(&argv, "-j%d", jobs);
		argv_list_push(&argv, target);
	}
	/* the same commit builds the same kernel: no date, user or host in it */
	const char *log_ct[] = { "log", "-1", "--format=%ct", b->sha, NULL };
	git_in(b->tree, &out, NULL, log_ct);
	strbuf_rtrim(&out);
	strbuf_addf(&ts, "KBUILD_BUILD_TIMESTAMP=@%s", out.len ? out.buf : "0");
	char *env[] = { ts.buf, "KBUILD_BUILD_USER=perfbot", "KBUILD_BUILD_HOST=perfbot",
			"KBUILD_BUILD_VERSION=1", NULL };
	fd = open(b->log.buf, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot write '%s': %s", b->log.buf, strerror(errno));
		goto out;
	}
	{
		struct strbuf line = STRBUF_INIT;
		strbuf_addstr(&line, "$ ");
		argv_list_to_shell(&argv, &line);
		strbuf_addch(&line, '\n');
		if (write(fd, line.buf, line.len) < 0)
			warning("cannot write '%s': %s", b->log.buf, strerror(errno));
		if (b->o->verbose)
			fprintf(stderr, "perfbot: %s", line.buf);
		strbuf_release(&line);
	}
	child_process_init(&cp);
	cp.argv = argv.v;
	cp.env = env;
	cp.dir = dir;
	cp.out_fd = fd;
	cp.err_path = "&1";
	cp.no_stdin = true;
	cp.new_pgrp = true;
	cp.die_with_parent = true;
	r = start_command(&cp);
	close(fd);
	if (r < 0)
		goto out;
	for (;;) {
		r = poll_command(&cp);
		if (r < 0)
			goto out;
		if (r == FINISH_EXITED)
			break;
		if (b->o->stop && *b->o->stop) {
			kill_command(&cp, 2);
			error("kernel build interrupted");
			goto out;
		}
		double el = now_seconds() - t0;
		if (b->o->status_line && el - shown >= 0.5) {
			struct strbuf l = STRBUF_INIT;
			last_line(b->log.buf, &l);
			fprintf(stderr, "\r\033[Kbuilding %.12s %s: %s %dm%02ds  %.60s", b->sha, b->id.buf, target,
				(int)el / 60, (int)el % 60, l.buf);
			fflush(stderr);
			strbuf_release(&l);
			shown = el;
		}
		usleep(100000);
	}
	if (b->o->status_line)
		fprintf(stderr, "\r\033[K");
	ret = WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 0 ? 0 : 1;
out:
	argv_list_release(&argv);
	strbuf_release(&ts);
	strbuf_release(&out);
	return ret;
}

/*
 * Files under dir modified after t: what a build killed with -9 was
 * writing, possibly half-written but newer than their sources, which the
 * next make would take as up to date.  They are removed; returns how
 * many (-1 after error()).
 */
static int drop_newer(const char *dir, const struct timespec *t)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return error("cannot read '%s': %s", dir, strerror(errno));
	while ((de = readdir(d)) && n >= 0) {
		struct strbuf p = STRBUF_INIT;
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path_join(&p, dir, de->d_name);
		if (lstat(p.buf, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				int r = drop_newer(p.buf, t);
				n = r < 0 ? -1 : n + r;
			} else if (S_ISREG(st.st_mode) &&
				   (st.st_mtim.tv_sec > t->tv_sec ||
				    (st.st_mtim.tv_sec == t->tv_sec && st.st_mtim.tv_nsec >= t->tv_nsec))) {
				if (unlink(p.buf) == 0)
					n++;
			}
		}
		strbuf_release(&p);
	}
	closedir(d);
	return n;
}

/* The build marker: there while make builds; found at the start of the
 * next build, it says the last one was killed (see drop_newer). */
static int check_killed_build(struct build *b, struct strbuf *marker)
{
	struct stat st;

	path_join(marker, b->obj.buf, ".perfbot-building");
	if (lstat(marker->buf, &st) < 0)
		return 0;
	int n = drop_newer(b->obj.buf, &st.st_mtim);
	if (n < 0)
		return -1;
	fprintf(stderr, "perfbot: the last build in '%s' was killed: removed the %d file%s it was writing\n",
		b->obj.buf, n, n == 1 ? "" : "s");
	unlink(marker->buf);
	return 0;
}

/* Make obj/.config: in full the first time (kconfig.h), else olddefconfig. */
static int configure(struct build *b)
{
	struct strbuf keyfile = STRBUF_INIT, dot = STRBUF_INIT, have = STRBUF_INIT, p = STRBUF_INIT;
	int r = -1;

	path_join(&keyfile, b->obj.buf, ".perfbot-config");
	path_join(&dot, b->obj.buf, ".config");
	if (file_exists(keyfile.buf) && file_exists(dot.buf) && read_file(&have, keyfile.buf) == 0 &&
	    (strbuf_rtrim(&have), !strcmp(have.buf, b->kc.key))) {
		r = run_make(b, "olddefconfig", 0, NULL, NULL);
		goto out;
	}
	switch (b->kc.kind) {
	case KCONFIG_TINY:
	case KCONFIG_SMALL:
		r = run_make(b, "tinyconfig", 0, NULL, NULL);
		if (r)
			break;
		path_join(&p, b->obj.buf, b->kc.kind == KCONFIG_TINY ? "perfbot-tiny.config" :
					  "perfbot-small.config");
		if (write_file_atomic(p.buf, b->kc.text.buf, b->kc.text.len) < 0) {
			r = -1;
			break;
		}
		{
			struct strbuf script = STRBUF_INIT;
			path_join(&script, b->src.buf, "scripts/kconfig/merge_config.sh");
			char *argv[] = { "sh", script.buf, "-m", "-O", b->obj.buf, dot.buf, p.buf, NULL };
			/* merge_config.sh makes its temp files in the cwd */
			r = run_make(b, "merge_config.sh", 0, b->obj.buf, argv);
			strbuf_release(&script);
		}
		if (!r)
			r = run_make(b, "olddefconfig", 0, NULL, NULL);
		break;
	case KCONFIG_DEFCONFIG:
		r = run_make(b, "defconfig", 0, NULL, NULL);
		break;
	case KCONFIG_FILE:
		if (write_file_atomic(dot.buf, b->kc.text.buf, b->kc.text.len) < 0)
			r = -1;
		else
			r = run_make(b, "olddefconfig", 0, NULL, NULL);
		break;
	}
	if (!r && write_file_atomic(keyfile.buf, b->kc.key, strlen(b->kc.key)) < 0)
		r = -1;
out:
	if (!r && kconfig_is_fragment(&b->kc)) {
		struct strbuf cfg = STRBUF_INIT, miss = STRBUF_INIT;
		if (read_file(&cfg, dot.buf) == 0 && kconfig_missing(b->kc.text.buf, cfg.buf, &miss))
			warning("%.12s: the %s fragment's symbols that its .config lacks:\n%s", b->sha,
				b->kc.kind == KCONFIG_TINY ? "tiny" : "small", miss.buf);
		strbuf_release(&cfg);
		strbuf_release(&miss);
	}
	strbuf_release(&keyfile);
	strbuf_release(&dot);
	strbuf_release(&have);
	strbuf_release(&p);
	return r;
}

static int copy_file(const char *from, const char *to)
{
	struct strbuf data = STRBUF_INIT;
	int r = read_file(&data, from);

	if (r == 0)
		r = write_file_atomic(to, data.buf, data.len);
	strbuf_release(&data);
	return r;
}

/* Copy the build's results into images/<key>, renamed into place. */
static int store_image(struct build *b, const char *image_dir, double seconds)
{
	struct strbuf tmp = STRBUF_INIT, p = STRBUF_INIT, q = STRBUF_INIT, info = STRBUF_INIT;
	struct strbuf rel = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&tmp, "%s.tmp.%ld", image_dir, (long)getpid());
	remove_tree(tmp.buf);
	if (mkdir_p(tmp.buf, 0755) < 0)
		goto out;
	static const char *const files[][2] = {
		{ "arch/x86/boot/bzImage", "bzImage" }, { ".config", "config" },
		{ "System.map", "System.map" },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		strbuf_reset(&p);
		strbuf_reset(&q);
		path_join(&p, b->obj.buf, files[i][0]);
		path_join(&q, tmp.buf, files[i][1]);
		if (copy_file(p.buf, q.buf) < 0)
			goto out;
	}
	strbuf_reset(&p);
	path_join(&p, b->obj.buf, "include/config/kernel.release");
	read_file(&rel, p.buf);
	strbuf_rtrim(&rel);
	strbuf_addf(&info, "commit: %s\nkconfig: %s\nconfig_key: %s\nrelease: %s\ntree: %s\n"
		    "build_seconds: %.1f\n", b->sha, b->kc.name, b->kc.key, rel.buf, b->tree, seconds);
	strbuf_reset(&q);
	path_join(&q, tmp.buf, "info");
	if (write_file_atomic(q.buf, info.buf, info.len) < 0)
		goto out;
	strbuf_reset(&q);
	path_join(&q, tmp.buf, "build.log");
	copy_file(b->log.buf, q.buf);
	if (rename(tmp.buf, image_dir) < 0) {
		/* another perfbot stored the same build meanwhile: keep that */
		if (errno != EEXIST && errno != ENOTEMPTY) {
			error("cannot rename '%s' to '%s': %s", tmp.buf, image_dir, strerror(errno));
			goto out;
		}
	}
	ret = 0;
out:
	if (is_dir(tmp.buf))
		remove_tree(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&p);
	strbuf_release(&q);
	strbuf_release(&info);
	strbuf_release(&rel);
	return ret;
}

/* A commit that does not build: why gets the reason, the log is kept
 * beside the images and its tail printed. */
static void build_failed(struct build *b, struct strbuf *why)
{
	struct strbuf text = STRBUF_INIT, kept = STRBUF_INIT;

	if (read_file(&text, b->log.buf) == 0)
		kernel_build_log_reason(text.buf, why);
	strbuf_addf(&kept, "%s/images", b->cache.buf);
	mkdir_p(kept.buf, 0755);
	strbuf_addf(&kept, "/%s-%s.failed.log", b->sha, b->id.buf);
	if (write_file_atomic(kept.buf, text.buf, text.len) < 0)
		strbuf_addstr(&kept, b->log.buf);
	if (b->o->status_line)
		fprintf(stderr, "\r\033[K");
	print_tail(kept.buf, 20);
	strbuf_release(&text);
	strbuf_release(&kept);
}

static void build_release(struct build *b)
{
	kconfig_release(&b->kc);
	strbuf_release(&b->cache);
	strbuf_release(&b->slot);
	strbuf_release(&b->src);
	strbuf_release(&b->obj);
	strbuf_release(&b->log);
	strbuf_release(&b->id);
	free(b->tree);
	free(b->sha);
	free(b->cc);
	if (b->lock_fd >= 0)
		close(b->lock_fd);
}

int kernel_build(const struct kernel_build_opts *o, struct kernel_image *img, struct strbuf *why)
{
	struct build b;
	struct strbuf image_dir = STRBUF_INIT, p = STRBUF_INIT, marker = STRBUF_INIT;
	int ret = -1, r;

	memset(img, 0, sizeof(*img));
	memset(&b, 0, sizeof(b));
	b.o = o;
	b.lock_fd = -1;
	strbuf_init(&b.cache, 0);
	strbuf_init(&b.slot, 0);
	strbuf_init(&b.src, 0);
	strbuf_init(&b.obj, 0);
	strbuf_init(&b.log, 0);
	strbuf_init(&b.id, 0);
	if (kconfig_init(&b.kc, o->config) < 0 || resolve(&b) < 0)
		goto out;
	kconfig_id(&b.kc, &b.id);
	kernel_cache_dir(o->cache, &b.cache);
	/* git and make run elsewhere: the paths they get must be absolute */
	{
		char *abs = abs_path(b.cache.buf);
		strbuf_reset(&b.cache);
		strbuf_addstr(&b.cache, abs);
		free(abs);
	}
	strbuf_addf(&image_dir, "%s/images/%s-%s", b.cache.buf, b.sha, b.id.buf);
	path_join(&p, image_dir.buf, "info");
	if (file_exists(p.buf)) {
		if (kernel_image_load(image_dir.buf, img) < 0)
			goto out;
		img->cached = true;
		ret = 0;
		goto out;
	}
	const char *base = strrchr(b.tree, '/');
	strbuf_addf(&b.slot, "%s/trees/%s-%08llx", b.cache.buf, base && base[1] ? base + 1 : "tree",
		    (unsigned long long)(kconfig_hash(KCONFIG_HASH_INIT, b.tree, strlen(b.tree)) & 0xffffffffu));
	path_join(&b.src, b.slot.buf, "src");
	strbuf_addf(&b.obj, "%s/obj-%s", b.slot.buf, b.id.buf);
	path_join(&b.log, b.slot.buf, "build.log");
	if (mkdir_p(b.obj.buf, 0755) < 0 || lock_slot(&b) < 0)
		goto out;
	/* a fresh log per build (the image dir keeps a copy) */
	if (write_file_atomic(b.log.buf, "", 0) < 0)
		goto out;
	if (program_in_path("ccache"))
		b.cc = xstrdup("CC=ccache gcc");
	double t0 = now_seconds();
	int jobs = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (!o->status_line)
		fprintf(stderr, "perfbot: building %.12s (%s) in '%s' with -j%d%s\n", b.sha, b.id.buf,
			b.obj.buf, jobs, b.cc ? " and ccache" : "");
	if (check_killed_build(&b, &marker) < 0 || checkout(&b) < 0)
		goto out;
	r = configure(&b);
	if (r == 0) {
		if (write_file_atomic(marker.buf, "", 0) < 0)
			goto out;
		r = run_make(&b, "bzImage", jobs, NULL, NULL);
		/* make ended (also by an error or SIGTERM, after cleaning up) */
		if (r >= 0)
			unlink(marker.buf);
	}
	if (r) {
		if (r > 0) {
			build_failed(&b, why);
			ret = KERNEL_BUILD_FAILED;
		}
		goto out;
	}
	double secs = now_seconds() - t0;
	if (store_image(&b, image_dir.buf, secs) < 0 || kernel_image_load(image_dir.buf, img) < 0)
		goto out;
	img->build_seconds = secs;
	if (!o->status_line)
		fprintf(stderr, "perfbot: built %.12s in %.0fs\n", b.sha, secs);
	ret = 0;
out:
	build_release(&b);
	strbuf_release(&image_dir);
	strbuf_release(&p);
	strbuf_release(&marker);
	return ret;
}
