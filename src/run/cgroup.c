/*
 * cgroup.c: the run's cgroup (see cgroup.h).
 */
#include "run/cgroup.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *cgroup_parent_name(void)
{
	const char *p = getenv("PERFBOT_CGROUP_PARENT");

	/* one safe component, else the default */
	if (!p || !*p || strchr(p, '/') || !strcmp(p, ".") || !strcmp(p, "..") || strlen(p) > 64)
		return "perfbot";
	return p;
}

#define MOUNTINFO "/proc/self/mountinfo"

/* ---- parsers ---------------------------------------------------------- */

/* The next space-separated field of *p, or NULL at the end. */
static char *next_field(char **p)
{
	char *s = *p, *e;

	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	e = s + strcspn(s, " ");
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

/* mountinfo's "\040" escapes, undone in place. */
static void unescape_octal(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

static unsigned controllers_of(const char *opts)
{
	static const struct { const char *name; unsigned bit; } known[] = {
		{ "cpu", CG_CPU }, { "cpuacct", CG_CPUACCT }, { "cpuset", CG_CPUSET },
		{ "blkio", CG_BLKIO }, { "freezer", CG_FREEZER },
	};
	unsigned bits = 0;

	for (const char *o = opts; *o;) {
		size_t n = strcspn(o, ",");
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (strlen(known[i].name) == n && !strncmp(o, known[i].name, n))
				bits |= known[i].bit;
		o += n;
		if (*o)
			o++;
	}
	return bits;
}

int cgroup_parse_mountinfo_line(const char *line, struct cgroup_mount *m)
{
	char *copy = xstrdup(line), *p = copy, *f[5], *fs, *super;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	copy[strcspn(copy, "\n")] = '\0';
	for (int i = 0; i < 5; i++)
		if (!(f[i] = next_field(&p)))
			goto out;
	/* optional fields up to "-", then the type, the source, super options */
	for (;;) {
		char *o = next_field(&p);
		if (!o)
			goto out;
		if (!strcmp(o, "-"))
			break;
	}
	fs = next_field(&p);
	if (!fs || !next_field(&p) || !(super = next_field(&p)))
		goto out;
	ret = 0;
	if (!strcmp(fs, "cgroup2"))
		m->version = 2;
	else if (!strcmp(fs, "cgroup"))
		m->version = 1;
	else
		goto out;
	unescape_octal(f[4]);
	m->path = xstrdup(f[4]);
	m->controllers = m->version == 1 ? controllers_of(super) : 0;
	ret = 1;
out:
	free(copy);
	return ret;
}

void cgroup_mounts_free(struct cgroup_mount *m, int n)
{
	for (int i = 0; i < n; i++)
		free(m[i].path);
	free(m);
}

int cgroup_pick_mounts(const char *mountinfo, struct cgroup_mount **out)
{
	struct cgroup_mount *res = NULL, m;
	unsigned taken = 0;
	bool have_v2 = false;
	int n = 0;

	for (const char *l = mountinfo; *l;) {
		const char *nl = strchrnul(l, '\n');
		char *line = xstrndup(l, (size_t)(nl - l));
		l = *nl ? nl + 1 : nl;
		int r = cgroup_parse_mountinfo_line(line, &m);
		free(line);
		if (r <= 0)
			continue;
		if ((m.version == 2 && have_v2) || (m.version == 1 && !(m.controllers & ~taken))) {
			free(m.path);
			continue;
		}
		if (m.version == 2)
			have_v2 = true;
		m.controllers &= ~taken;
		taken |= m.controllers;
		res = xrealloc(res, sizeof(*res) * (size_t)(n + 1));
		res[n++] = m;
	}
	/* v2 first: it is the one that kills */
	for (int i = 1; i < n; i++)
		if (res[i].version == 2) {
			m = res[i];
			memmove(res + 1, res, sizeof(*res) * (size_t)i);
			res[0] = m;
		}
	*out = res;
	return n;
}

static int parse_ull(const char *s, const char **end, unsigned long long *v)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &e, 10);
	if (errno)
		return -1;
	*end = e;
	return 0;
}

int cgroup_parse_cpu_stat(const char *text, struct cgroup_cpu_stat *st)
{
	for (const char *l = text; *l;) {
		const char *nl = strchrnul(l, '\n'), *sp = memchr(l, ' ', (size_t)(nl - l)), *end;
		unsigned long long v;

		if (nl == l) {
			l = *nl ? nl + 1 : nl;
			continue;
		}
		if (!sp || parse_ull(sp + 1, &end, &v) < 0 || end != nl)
			return -1;
		size_t k = (size_t)(sp - l);
#define KEY(s) (k == sizeof(s) - 1 && !strncmp(l, s, k))
		if (KEY("usage_usec")) {
			st->usage_usec = v;
			st->has_usage = true;
		} else if (KEY("nr_throttled")) {
			st->nr_throttled = v;
			st->has_throttled = true;
		} else if (KEY("throttled_usec")) {
			st->throttled_usec = v;
		} else if (KEY("throttled_time")) {
			st->throttled_usec = v / 1000;
		}
#undef KEY
		l = *nl ? nl + 1 : nl;
	}
	return 0;
}

int cgroup_parse_cpuacct_usage(const char *text, struct cgroup_cpu_stat *st)
{
	unsigned long long v;
	const char *end;

	if (parse_ull(text, &end, &v) < 0 || (*end && strcmp(end, "\n")))
		return -1;
	st->usage_usec = v / 1000;
	st->has_usage = true;
	return 0;
}

long cgroup_leaf_pid(const char *name)
{
	char *end;
	long pid;

	if (!isdigit((unsigned char)*name))
		return -1;
	errno = 0;
	pid = strtol(name, &end, 10);
	if (errno || pid <= 0 || *end != '-' || !isdigit((unsigned char)end[1]))
		return -1;
	for (end++; isdigit((unsigned char)*end); end++)
		;
	return *end ? -1 : pid;
}

/* ---- files of a cgroup ------------------------------------------------ */

/* Write s to dir/file: 0, or -1 with errno. */
static int cg_write(const char *dir, const char *file, const char *s)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret = -1, e;

	path_join(&path, dir, file);
	fd = open(path.buf, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = write(fd, s, strlen(s));
		ret = n == (ssize_t)strlen(s) ? 0 : -1;
		e = errno;
		close(fd);
		errno = e;
	}
	strbuf_release(&path);
	return ret;
}

static int cg_read(const char *dir, const char *file, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int r;

	strbuf_reset(sb);
	path_join(&path, dir, file);
	r = read_file_quiet(sb, path.buf, 1 << 20);
	strbuf_release(&path);
	return r;
}

/* A setting: written, or noted as what kept it out. */
static void cg_set(struct strbuf *settings, const char *dir, const char *file, const char *val,
		   bool note)
{
	int r = cg_write(dir, file, val);

	if (!note)
		return;
	strbuf_addf(settings, "%s%s=%s", settings->len ? ", " : "", file, val);
	if (r < 0)
		strbuf_addf(settings, " (%s)", errno == ENOENT ? "absent" : strerror(errno));
}

/* v1 cpuset: a new cgroup has no CPUs nor memory nodes: its parent's. */
static void cpuset_inherit(const char *parent, const char *dir)
{
	struct strbuf v = STRBUF_INIT;
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };

	for (int i = 0; i < 2; i++) {
		struct strbuf cur = STRBUF_INIT;
		if (cg_read(dir, files[i], &cur) == 0) {
			strbuf_rtrim(&cur);
			if (!cur.len && cg_read(parent, files[i], &v) == 0) {
				strbuf_rtrim(&v);
				if (v.len)
					cg_write(dir, files[i], v.buf);
			}
		}
		strbuf_release(&cur);
	}
	strbuf_release(&v);
}

/* The weights of one dir (perfbot/ or the run's); note: into settings. */
static void set_weights(const struct cgroup_mount *m, const char *dir, struct strbuf *settings,
			bool note)
{
	char buf[64];

	if (m->version == 2) {
		struct strbuf ctl = STRBUF_INIT;
		if (cg_read(dir, "cgroup.controllers", &ctl) == 0) {
			if (strstr(ctl.buf, "cpu")) {
				snprintf(buf, sizeof(buf), "%d", CGROUP_CPU_WEIGHT);
				cg_set(settings, dir, "cpu.weight", buf, note);
			}
			if (strstr(ctl.buf, "io")) {
				snprintf(buf, sizeof(buf), "default %d", CGROUP_IO_WEIGHT);
				cg_set(settings, dir, "io.weight", buf, note);
			}
		}
		strbuf_release(&ctl);
		return;
	}
	if (m->controllers & CG_CPU) {
		snprintf(buf, sizeof(buf), "%d", CGROUP_CPU_SHARES);
		cg_set(settings, dir, "cpu.shares", buf, note);
	}
	if (m->controllers & CG_BLKIO) {
		snprintf(buf, sizeof(buf), "%d", CGROUP_IO_WEIGHT);
		cg_set(settings, dir, "blkio.weight", buf, note);
	}
}

/* v2: the controllers a child of dir may use, enabled (what fails stays off). */
static void enable_v2_controllers(const char *dir)
{
	static const char *const want[] = { "cpu", "io", "cpuset" };
	struct strbuf ctl = STRBUF_INIT, tok = STRBUF_INIT;

	if (cg_read(dir, "cgroup.controllers", &ctl) == 0)
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			strbuf_reset(&tok);
			strbuf_addf(&tok, " %s ", want[i]);
			strbuf_rtrim(&ctl);
			struct strbuf padded = STRBUF_INIT;
			strbuf_addf(&padded, " %s ", ctl.buf);
			if (strstr(padded.buf, tok.buf)) {
				strbuf_reset(&tok);
				strbuf_addf(&tok, "+%s", want[i]);
				cg_write(dir, "cgroup.subtree_control", tok.buf);
			}
			strbuf_release(&padded);
		}
	strbuf_release(&ctl);
	strbuf_release(&tok);
}

/* The pids in dir's cgroup.procs, appended; how many. */
static int read_pids(const char *dir, long **pids, int *nr)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	if (cg_read(dir, "cgroup.procs", &sb) == 0)
		for (char *p = sb.buf; *p;) {
			char *end;
			long pid = strtol(p, &end, 10);
			if (end == p)
				break;
			if (pid > 0) {
				*pids = xrealloc(*pids, sizeof(long) * (size_t)(*nr + 1));
				(*pids)[(*nr)++] = pid;
				n++;
			}
			p = end + strspn(end, "\n");
		}
	strbuf_release(&sb);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/*
 * Kill what is in the cgroup of dirs (one path per hierarchy) and remove
 * them.  The processes that were there, or -1 when a dir stays (printed).
 */
static int kill_and_remove(char **paths, const int *versions, int n)
{
	long *pids = NULL;
	int nr = 0, left = 0, ret = 0;
	const char *freezer = NULL;
	bool killed_v2 = false;

	for (int i = 0; i < n; i++)
		if (!nr)
			read_pids(paths[i], &pids, &nr);
	left = nr;
	free(pids);
	pids = NULL;
	if (left) {
		for (int i = 0; i < n && !killed_v2; i++)
			if (versions[i] == 2 && cg_write(paths[i], "cgroup.kill", "1") == 0)
				killed_v2 = true;
		if (!killed_v2)
			for (int i = 0; i < n && !freezer; i++) {
				struct strbuf st = STRBUF_INIT;
				if (versions[i] == 1 && cg_read(paths[i], "freezer.state", &st) == 0)
					freezer = paths[i];
				strbuf_release(&st);
			}
		if (freezer && cg_write(freezer, "freezer.state", "FROZEN") == 0) {
			/* frozen, nothing forks while it is killed */
			for (int t = 0; t < 200; t++) {
				struct strbuf st = STRBUF_INIT;
				bool done = cg_read(freezer, "freezer.state", &st) == 0 &&
					    !strncmp(st.buf, "FROZEN", 6);
				strbuf_release(&st);
				if (done)
					break;
				sleep_ms(5);
			}
			nr = 0;
			read_pids(freezer, &pids, &nr);
			for (int k = 0; k < nr; k++)
				kill((pid_t)pids[k], SIGKILL);
			free(pids);
			pids = NULL;
			cg_write(freezer, "freezer.state", "THAWED");
		}
	}
	/* until every hierarchy says empty (SIGKILL what still is) and the
	 * dirs are gone: 10 s at most */
	for (int t = 0; t < 1000; t++) {
		bool busy = false;
		for (int i = 0; i < n; i++) {
			if (!paths[i])
				continue;
			nr = 0;
			if (read_pids(paths[i], &pids, &nr)) {
				for (int k = 0; k < nr; k++)
					kill((pid_t)pids[k], SIGKILL);
				busy = true;
			} else if (rmdir(paths[i]) == 0 || errno == ENOENT) {
				free(paths[i]);
				paths[i] = NULL;
			} else if (errno == EBUSY) {
				busy = true;
			} else {
				ret = error("cannot remove cgroup %s: %s", paths[i], strerror(errno));
				free(paths[i]);
				paths[i] = NULL;
			}
			free(pids);
			pids = NULL;
		}
		if (!busy)
			break;
		sleep_ms(10);
	}
	for (int i = 0; i < n; i++)
		if (paths[i]) {
			ret = error("cannot remove cgroup %s: it is still busy after 10 s", paths[i]);
			free(paths[i]);
			paths[i] = NULL;
		}
	return ret < 0 ? -1 : left;
}

/* ---- the run's cgroup ------------------------------------------------- */

void run_cgroup_release(struct run_cgroup *cg)
{
	for (int i = 0; i < cg->nr; i++) {
		if (cg->dir[i].procs_fd >= 0)
			close(cg->dir[i].procs_fd);
		free(cg->dir[i].path);
	}
	free(cg->dir);
	free(cg->fds);
	if (cg->kill_fd >= 0)
		close(cg->kill_fd);
	free(cg->name);
	strbuf_release(&cg->settings);
	memset(cg, 0, sizeof(*cg));
	strbuf_init(&cg->settings, 0);
	cg->kill_fd = -1;
}

static int read_mounts(const char *mountinfo, struct cgroup_mount **mounts)
{
	struct strbuf text = STRBUF_INIT;
	int n = -1;

	if (read_file_quiet(&text, mountinfo ? mountinfo : MOUNTINFO, 1 << 22) == 0)
		n = cgroup_pick_mounts(text.buf, mounts);
	strbuf_release(&text);
	return n;
}

int run_cgroup_create(struct run_cgroup *cg, const char *mountinfo, const char *leaf,
		      const char *cpuset, struct strbuf *why)
{
	struct cgroup_mount *mounts = NULL;
	struct strbuf parent = STRBUF_INIT, dir = STRBUF_INIT;
	int n, ret = 1;

	memset(cg, 0, sizeof(*cg));
	strbuf_init(&cg->settings, 0);
	cg->kill_fd = -1;
	strbuf_addf(&dir, "%s/%s", cgroup_parent_name(), leaf);
	cg->name = strbuf_detach(&dir, NULL);
	n = read_mounts(mountinfo, &mounts);
	if (n < 0) {
		strbuf_addf(why, "cannot read %s: %s", mountinfo ? mountinfo : MOUNTINFO,
			    strerror(errno));
		goto out;
	}
	if (!n) {
		strbuf_addstr(why, "no cgroup hierarchy is mounted");
		goto out;
	}
	if (geteuid() != 0) {
		strbuf_addstr(why, "not root");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const struct cgroup_mount *m = &mounts[i];
		struct cgroup_dir *d;

		strbuf_reset(&parent);
		path_join(&parent, m->path, cgroup_parent_name());
		if (m->version == 2)
			enable_v2_controllers(m->path);
		if (mkdir(parent.buf, 0755) < 0 && errno != EEXIST) {
			strbuf_addf(why, "cannot create %s: %s", parent.buf, strerror(errno));
			goto undo;
		}
		if (m->version == 2)
			enable_v2_controllers(parent.buf);
		if (m->controllers & CG_CPUSET)
			cpuset_inherit(m->path, parent.buf);
		set_weights(m, parent.buf, &cg->settings, false);
		strbuf_reset(&dir);
		path_join(&dir, parent.buf, leaf);
		if (mkdir(dir.buf, 0755) < 0) {
			int e = errno;
			if (e == EEXIST) {
				/* a dead perfbot's of the same pid: not ours to keep */
				char *p[1] = { xstrdup(dir.buf) };
				int v[1] = { m->version };
				kill_and_remove(p, v, 1);
				e = mkdir(dir.buf, 0755) < 0 ? errno : 0;
			}
			if (e) {
				strbuf_addf(why, "cannot create %s: %s", dir.buf, strerror(e));
				goto undo;
			}
		}
		cg->dir = xrealloc(cg->dir, sizeof(*cg->dir) * (size_t)(cg->nr + 1));
		d = &cg->dir[cg->nr++];
		d->path = xstrdup(dir.buf);
		d->version = m->version;
		d->controllers = m->controllers;
		d->procs_fd = -1;
		strbuf_addf(&cg->settings, "%s%s %s", cg->settings.len ? "; " : "",
			    m->version == 2 ? "v2" : "v1", m->path);
		size_t before = cg->settings.len;
		strbuf_addstr(&cg->settings, ": ");
		size_t mark = cg->settings.len;
		struct strbuf s = STRBUF_INIT;
		set_weights(m, dir.buf, &s, true);
		if (m->controllers & CG_CPUSET)
			cpuset_inherit(parent.buf, dir.buf);
		if (cpuset && (m->controllers & CG_CPUSET || m->version == 2)) {
			struct strbuf ctl = STRBUF_INIT;
			bool has = m->version == 1 ||
				   (cg_read(dir.buf, "cgroup.controllers", &ctl) == 0 &&
				    strstr(ctl.buf, "cpuset"));
			strbuf_release(&ctl);
			if (has) {
				if (cg_write(dir.buf, "cpuset.cpus", cpuset) < 0) {
					error("cpuset '%s': %s (cpuset.cpus of %s)", cpuset,
					      strerror(errno), dir.buf);
					strbuf_release(&s);
					ret = -1;
					goto undo;
				}
				strbuf_addf(&s, "%scpuset.cpus=%s", s.len ? ", " : "", cpuset);
			}
		}
		strbuf_add(&cg->settings, s.buf, s.len);
		strbuf_release(&s);
		if (cg->settings.len == mark)
			strbuf_setlen(&cg->settings, before);
		strbuf_reset(&dir);
		path_join(&dir, d->path, "cgroup.procs");
		d->procs_fd = open(dir.buf, O_WRONLY | O_CLOEXEC);
		if (d->procs_fd < 0) {
			strbuf_addf(why, "cannot open %s: %s", dir.buf, strerror(errno));
			goto undo;
		}
		if (m->version == 2 && cg->kill_fd < 0) {
			strbuf_reset(&dir);
			path_join(&dir, d->path, "cgroup.kill");
			cg->kill_fd = open(dir.buf, O_WRONLY | O_CLOEXEC);
		}
	}
	if (cpuset && !strstr(cg->settings.buf, "cpuset.cpus=")) {
		strbuf_addf(why, "no cpuset controller to pin to %s", cpuset);
		goto undo;
	}
	cg->fds = xcalloc((size_t)cg->nr, sizeof(int));
	for (int i = 0; i < cg->nr; i++)
		cg->fds[i] = cg->dir[i].procs_fd;
	ret = 0;
	goto out;
undo:
	run_cgroup_destroy(cg);
out:
	if (ret)
		run_cgroup_release(cg);
	cgroup_mounts_free(mounts, n > 0 ? n : 0);
	strbuf_release(&parent);
	strbuf_release(&dir);
	return ret;
}

void run_cgroup_cpu_stat(const struct run_cgroup *cg, struct cgroup_cpu_stat *st)
{
	struct strbuf sb = STRBUF_INIT;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < cg->nr; i++) {
		const struct cgroup_dir *d = &cg->dir[i];
		struct cgroup_cpu_stat one = { 0 };
		if (d->version == 2 || (d->controllers & CG_CPU)) {
			if (cg_read(d->path, "cpu.stat", &sb) == 0 &&
			    cgroup_parse_cpu_stat(sb.buf, &one) == 0) {
				if (one.has_usage && !st->has_usage) {
					st->usage_usec = one.usage_usec;
					st->has_usage = true;
				}
				if (one.has_throttled && !st->has_throttled) {
					st->nr_throttled = one.nr_throttled;
					st->throttled_usec = one.throttled_usec;
					st->has_throttled = true;
				}
			}
		}
		if ((d->controllers & CG_CPUACCT) && !st->has_usage &&
		    cg_read(d->path, "cpuacct.usage", &sb) == 0)
			cgroup_parse_cpuacct_usage(sb.buf, st);
	}
	strbuf_release(&sb);
}

int run_cgroup_destroy(struct run_cgroup *cg)
{
	char **paths = xcalloc((size_t)(cg->nr ? cg->nr : 1), sizeof(char *));
	int *versions = xcalloc((size_t)(cg->nr ? cg->nr : 1), sizeof(int));
	int n = cg->nr, r;

	for (int i = 0; i < n; i++) {
		if (cg->dir[i].procs_fd >= 0)
			close(cg->dir[i].procs_fd);
		cg->dir[i].procs_fd = -1;
		paths[i] = cg->dir[i].path;
		cg->dir[i].path = NULL;
		versions[i] = cg->dir[i].version;
	}
	r = kill_and_remove(paths, versions, n);
	free(paths);
	free(versions);
	run_cgroup_release(cg);
	return r;
}

int cgroup_reap(const char *mountinfo, bool (*alive)(long pid), int *killed)
{
	struct cgroup_mount *mounts = NULL;
	struct strbuf parent = STRBUF_INIT;
	int n = read_mounts(mountinfo, &mounts), removed = 0;
	char **seen = NULL;
	int nseen = 0;

	*killed = 0;
	for (int i = 0; i < n; i++) {
		DIR *d;
		struct dirent *de;

		strbuf_reset(&parent);
		path_join(&parent, mounts[i].path, cgroup_parent_name());
		if (!(d = opendir(parent.buf)))
			continue;
		while ((de = readdir(d))) {
			long pid = cgroup_leaf_pid(de->d_name);
			if (pid < 0 || alive(pid))
				continue;
			char *p[1];
			int v[1] = { mounts[i].version };
			struct strbuf path = STRBUF_INIT;
			path_join(&path, parent.buf, de->d_name);
			p[0] = strbuf_detach(&path, NULL);
			int k = kill_and_remove(p, v, 1);
			/* one cgroup spans the hierarchies: count it once */
			bool known = false;
			for (int s = 0; s < nseen; s++)
				known |= !strcmp(seen[s], de->d_name);
			if (!known) {
				*killed += k > 0 ? k : 0;
				seen = xrealloc(seen, sizeof(char *) * (size_t)(nseen + 1));
				seen[nseen++] = xstrdup(de->d_name);
				removed++;
			}
		}
		closedir(d);
	}
	for (int s = 0; s < nseen; s++)
		free(seen[s]);
	free(seen);
	cgroup_mounts_free(mounts, n > 0 ? n : 0);
	strbuf_release(&parent);
	return removed;
}
