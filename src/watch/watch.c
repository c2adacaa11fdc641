/*
 * watch.c: perfbot watch, the robot's loop (see watch.h): a pass picks
 * the commits to test, runs them, finds the regressions in the store's
 * history, bisects each new one, writes and mails its report.
 */
#include "util/error.h"
#include "watch/internal.h"
#include "bisect/driver.h"
#include "detect/detect.h"
#include "watch/range.h"
#include "git/checkout.h"
#include "git/git.h"
#include "job/job.h"
#include "report/report.h"
#include "result/matrix.h"
#include "run/desc.h"
#include "run/interleave.h"
#include "run/run.h"
#include "stats/lkp_tables.h"
#include "pg/url.h"
#include "store/history.h"
#include "store/ingest.h"
#include "store/store.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/printable.h"
#include "util/quote.h"
#include "util/run_command.h"
#include "util/strmap.h"
#include "util/xalloc.h"
#ifndef PERFBOT_NO_LAB
#include "pg/pg.h"
#include "lab/queue.h"
#include "lab/remote.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int watch_plan(int n, int base, int stride, const bool *tagged, const bool *done, int *out)
{
	int nr = 0;

	if (stride < 1)
		stride = 1;
	for (int p = n - 1; p >= 0; p--) {
		bool pick = p == n - 1 || (base + p) % stride == 0 || (tagged && tagged[p]);
		if (pick && !(done && done[p]))
			out[nr++] = p;
	}
	return nr;
}

/* --- the state: its lock and log --------------------------------------- */


static const char *keep(struct watch *w, const char *s, size_t len)
{
	ALLOC_GROW(w->keys, (size_t)w->nr_keys + 1, w->alloc_keys);
	return w->keys[w->nr_keys++] = xstrndup(s, len);
}

/* Take one log line into the maps.  0, or -1 after naming it. */
static int log_line(struct watch *w, const char *line, size_t len, int lineno)
{
	const char *sp = memchr(line, ' ', len), *arg, *end = line + len;
	size_t kw;

	if (!sp)
		goto bad;
	kw = (size_t)(sp - line);
	arg = sp + 1;
	if (kw == 6 && !strncmp(line, "tested", 6)) {
		const char *sp2 = memchr(arg, ' ', (size_t)(end - arg));
		if (!sp2 || sp2 == arg)
			goto bad;
		strmap_put(&w->tested, keep(w, arg, (size_t)(sp2 - arg)), 1);
	} else if (kw == 6 && !strncmp(line, "failed", 6)) {
		const char *sp2 = memchr(arg, ' ', (size_t)(end - arg));
		if (!sp2 || sp2 == arg)
			goto bad;
		strmap_put(&w->failed, keep(w, arg, (size_t)(sp2 - arg)), 1);
	} else if (kw == 4 && !strncmp(line, "mail", 4) && arg < end) {
		const char *k = keep(w, arg, (size_t)(end - arg));
		if (strmap_get(&w->mails, k) < 0) {
			strmap_put(&w->mails, k, 1);
			ALLOC_GROW(w->pending, (size_t)w->nr_pending + 1, w->alloc_pending);
			w->pending[w->nr_pending++] = (char *)k;
		}
	} else if (kw == 6 && !strncmp(line, "mailed", 6) && arg < end) {
		strmap_put(&w->mailed, keep(w, arg, (size_t)(end - arg)), 1);
	} else {
		goto bad;
	}
	return 0;
bad:
	return error("%s:%d: expected 'tested SHA RUNS', 'failed SHA WHY', 'mail FILE' or "
		     "'mailed FILE', got '%.*s'", w->log_path.buf, lineno, (int)len, line);
}

/* Read the log; a last line cut short by a kill is dropped from the file. */
static int log_load(struct watch *w)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *nl;
	int lineno = 0, ret = 0;

	if (!file_exists(w->log_path.buf))
		return 0;
	if (read_file(&sb, w->log_path.buf) < 0)
		return -1;
	for (p = sb.buf; ret == 0 && (nl = memchr(p, '\n', sb.len - (size_t)(p - sb.buf))); p = nl + 1) {
		lineno++;
		if (nl > p && *p != '#')
			ret = log_line(w, p, (size_t)(nl - p), lineno);
	}
	if (ret == 0 && p < sb.buf + sb.len && truncate(w->log_path.buf, (off_t)(p - sb.buf)) < 0)
		ret = error("cannot truncate '%s': %s", w->log_path.buf, strerror(errno));
	strbuf_release(&sb);
	return ret;
}

/* Append one line to the log and fsync it, then take it in. */
int log_append(struct watch *w, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int fd, ret = 0;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* kept and appended to: a link planted at its name is refused */
	fd = open_nofollow(w->log_path.buf, O_WRONLY | O_APPEND | O_CREAT, "append to");
	if (fd < 0)
		ret = -1;
	else if (write(fd, sb.buf, sb.len) != (ssize_t)sb.len || fsync(fd) < 0)
		ret = error("cannot append to '%s': %s", w->log_path.buf, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (ret == 0)
		ret = log_line(w, sb.buf, sb.len - 1, 0);
	strbuf_release(&sb);
	return ret;
}

static int lock_state(struct watch *w)
{
	struct strbuf path = STRBUF_INIT;

	path_join(&path, w->state.buf, "lock");
	w->lock_fd = open_nofollow(path.buf, O_RDWR | O_CREAT, "open");
	if (w->lock_fd < 0) {
		/* the message is printed */
	} else if (flock(w->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			error("%s: another perfbot watch is running on this state", w->state.buf);
		else
			error("cannot lock '%s': %s", path.buf, strerror(errno));
		close(w->lock_fd);
		w->lock_fd = -1;
	}
	strbuf_release(&path);
	return w->lock_fd < 0 ? -1 : 0;
}

/* $XDG_DATA_HOME/perfbot/watch/<testcase>-<id>: one state per repository,
 * branch and job (FNV-1a of the three). */
static int default_state(struct watch *w)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	struct job_desc_keys keys;
	const char *tc;
	const char *parts[3] = { w->o->repo, w->o->branch, w->o->job_path };
	uint64_t h = 0xcbf29ce484222325ULL;

	job_desc_keys(w->job, &keys);
	tc = keys.testcase;
	if (!tc)
		return error("%s: the job has no testcase", w->o->job_path);
	if (check_path_component(tc, "the job's testcase") < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		for (const char *p = parts[i]; ; p++) {
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
			if (!*p)
				break;
		}
	if (xdg && *xdg)
		strbuf_addf(&w->state, "%s/perfbot/watch", xdg);
	else
		strbuf_addf(&w->state, "%s/.local/share/perfbot/watch", home && *home ? home : "/tmp");
	strbuf_addf(&w->state, "/%s-%012llx", tc, (unsigned long long)(h >> 16));
	return 0;
}

/* --- git ---------------------------------------------------------------- */

static int git_out(const struct watch *w, struct strbuf *out, const char *a1, const char *a2,
		   const char *a3, const char *a4)
{
	struct git_cmd g = { .dir = w->o->repo, .out = out };
	return git_runl(&g, a1, a2, a3, a4, NULL);
}

/* The first remote's name, or an empty sb when there is none. */
static void first_remote(const struct watch *w, struct strbuf *sb)
{
	if (git_out(w, sb, "remote", NULL, NULL, NULL) != 0)
		strbuf_reset(sb);
	char *nl = strchr(sb->buf, '\n');
	if (nl)
		strbuf_setlen(sb, (size_t)(nl - sb->buf));
}

/* Fetch when there is a remote; resolve the branch (its remote-tracking
 * ref first, which a fetch moves).  0, 1 no such branch, -1. */
static int resolve_branch(struct watch *w, char **tip)
{
	struct strbuf remote = STRBUF_INIT, ref = STRBUF_INIT, out = STRBUF_INIT;
	int r = 1;

	*tip = NULL;
	first_remote(w, &remote);
	if (remote.len && w->o->fetch) {
		if (git_out(w, &out, "fetch", "--quiet", remote.buf, NULL) != 0)
			warning("%s: git fetch %s failed: watching what is there", w->o->repo, remote.buf);
	}
	if (remote.len) {
		strbuf_addf(&ref, "refs/remotes/%s/%s", remote.buf, w->o->branch);
		r = git_resolve_commit(w->o->repo, ref.buf, tip);
	}
	if (r == 1)
		r = git_resolve_commit(w->o->repo, w->o->branch, tip);
	strbuf_release(&remote);
	strbuf_release(&ref);
	strbuf_release(&out);
	return r;
}

/* The number of commits on rev's first-parent line. */
static long line_length(const struct watch *w, const char *rev)
{
	struct strbuf out = STRBUF_INIT;
	long n = -1;

	if (git_out(w, &out, "rev-list", "--first-parent", "--count", rev) == 0)
		n = strtol(out.buf, NULL, 10);
	strbuf_release(&out);
	return n;
}

/* A commit's field through git log -1 --format=FMT, trimmed. */
void commit_field(const struct watch *w, const char *sha, const char *fmt, struct strbuf *sb)
{
	struct strbuf f = STRBUF_INIT;

	strbuf_addf(&f, "--format=%s", fmt);
	if (git_out(w, sb, "log", "-1", f.buf, sha) != 0)
		strbuf_reset(sb);
	strbuf_rtrim(sb);
	/* anyone's text: it reaches the console, reports and mails */
	make_printable(sb->buf, sb->len, true);
	strbuf_release(&f);
}

/* --- testing a commit ---------------------------------------------------- */

/* Complete runs of the job on sha in the result tree. */
static int complete_runs(const struct watch *w, const char *sha)
{
	struct strbuf rr = STRBUF_INIT, mp = STRBUF_INIT;
	struct matrix mx;
	int n = 0;

	matrix_init(&mx);
	if (job_result_root(w->job, w->result_base, sha, &rr) == 0) {
		path_join(&mp, rr.buf, "matrix.json");
		if (file_exists(mp.buf) && matrix_load(&mx, rr.buf) == 0)
			n = matrix_complete_values(&mx, NULL, NULL);
	}
	matrix_release(&mx);
	strbuf_release(&rr);
	strbuf_release(&mp);
	return n;
}

static int runs_per_commit(const struct watch *w)
{
	struct job_desc_keys keys;

	if (w->o->runs > 0)
		return w->o->runs;
	job_desc_keys(w->job, &keys);
	if (keys.nr_run > 0 && keys.nr_run < 1000)
		return (int)keys.nr_run;
	return WATCH_RUNS_DEFAULT;
}

#ifndef PERFBOT_NO_LAB
/* The runs on the lab's boxes, fetched into sha's result root here and
 * indexed into the lab's store.  Returns how many came back, or -1. */
static int test_in_lab(struct watch *w, const char *sha, int n)
{
	struct strbuf rr = STRBUF_INIT, cmd = STRBUF_INIT, journal = STRBUF_INIT;
	struct lab_remote_job j;
	struct job_desc_keys keys;
	int got = -1;

	if (!w->remote_open) {
		path_join(&journal, w->state.buf, "lab-jobs");
		int r = lab_remote_open(&w->remote, w->o->db, journal.buf);
		strbuf_release(&journal);
		if (r < 0)
			return -1;
		w->remote.verbose = w->o->verbose;
		w->remote_open = true;
	}
	shell_quote_argv(&cmd, w->o->m.command, w->o->m.nr_command);
	memset(&j, 0, sizeof(j));
	j.job = w->job;
	j.command = cmd.len ? cmd.buf : NULL;
	j.repo = w->o->repo;
	j.build = w->o->m.build;
	j.commit = sha;
	job_desc_keys(w->job, &keys);
	j.tbox_group = keys.tbox_group;
	j.priority = QUEUE_PRIORITY_DEFAULT;
	if (job_result_root(w->job, w->result_base, sha, &rr) == 0)
		got = lab_remote_run(&w->remote, &j, n, rr.buf, w->o->stop);
	if (got > 0)
		store_index_result_root(w->store, rr.buf);
	strbuf_release(&rr);
	strbuf_release(&cmd);
	return got;
}
#endif

/*
 * A kernel watch's sha: built in the kernel cache (at once when built
 * before) and its VM prepared, which gives the job its result-path keys
 * (kconfig, the VM as tbox_group): bisect/kernel.h, as a kernel bisect's
 * step.  0; 1 when it does not build (printed, recorded as failed); -1.
 */
static int kernel_prepare(struct watch *w, const char *sha, int k, int nr)
{
	struct strbuf why = STRBUF_INIT;
	int r = bisect_kernel_prepare(&w->kernel, sha, &why);

	if (r == 1) {
		printf("[%d/%d] %.12s: the kernel does not build (%s): skipped from now on\n",
		       k, nr, sha, why.buf);
		fflush(stdout);
		r = log_append(w, "failed %s build\n", sha) < 0 ? -1 : 1;
	}
	strbuf_release(&why);
	return r;
}

/*
 * Before results are looked up on a pass that built nothing: the job's
 * keys from the newest tested commit of the line (a cached build).  0,
 * also when none is tested; -1.
 */
static int kernel_keys(struct watch *w, const struct git_commit *line, int n)
{
	if (!w->o->m.kernel_tree || w->kernel.vm_ready)
		return 0;
	for (int p = n - 1; p >= 0; p--) {
		if (strmap_get(&w->tested, line[p].sha) < 0)
			continue;
		struct strbuf why = STRBUF_INIT;
		int r = bisect_kernel_prepare(&w->kernel, line[p].sha, &why);
		strbuf_release(&why);
		if (r <= 0)
			return r;
	}
	return 0;
}

/*
 * A commit of the pass being measured: the commits of a group take turns
 * (run/interleave.h), each in a worktree of its own, built once.
 */
struct turn {
	const char *sha;
	struct strbuf what;          /* "<sha12> [tags] \"subject\"" */
	int k, nr;                   /* [k/nr] in the pass's lines */
	int want, have;              /* runs wanted, complete before the turns */
	struct checkout *co;         /* NULL with a kernel tree */
	bool done;                   /* logged (tested or failed) */
};

/*
 * Before t's turns: its kernel or its worktree built, the runs it lacks
 * said.  A commit with all its runs, one that does not build, and one
 * measured in the lab (whose boxes run its runs at once: turns mean
 * nothing there) are logged and done.  0, or -1 error or stopped.
 */
static int turn_begin(struct watch *w, struct turn *t)
{
	int r;

	/* a kernel's runs are filed under its VM and config: known once built */
	if (w->o->m.kernel_tree && !w->lab) {
		r = kernel_prepare(w, t->sha, t->k, t->nr);
		if (r) {
			t->done = true;
			return r < 0 ? -1 : 0;
		}
	}
	t->have = complete_runs(w, t->sha);
	printf("[%d/%d] %s: ", t->k, t->nr, t->what.buf);
	if (t->have >= t->want) {
		printf("%d runs already in the result tree\n", t->have);
		fflush(stdout);
		/* a result tree kept from an earlier watch, its store started
		 * afresh: the runs belong in this store's history too */
		struct strbuf rr = STRBUF_INIT;
		if (job_result_root(w->job, w->result_base, t->sha, &rr) == 0)
			store_index_result_root(w->store, rr.buf);
		strbuf_release(&rr);
		t->done = true;
		return log_append(w, "tested %s %d\n", t->sha, t->have);
	}
	printf("%d run%s%s\n", t->want - t->have, t->want - t->have == 1 ? "" : "s",
	       t->have ? " more" : "");
	fflush(stdout);
#ifndef PERFBOT_NO_LAB
	if (w->lab) {
		int got = test_in_lab(w, t->sha, t->want - t->have);
		if (got < 0)
			return -1;
		t->done = true;
		if (got == 0) {
			printf("[%d/%d] %.12s: no run came back from the lab: skipped from now on\n",
			       t->k, t->nr, t->sha);
			return log_append(w, "failed %s lab\n", t->sha);
		}
		return log_append(w, "tested %s %d\n", t->sha, t->have + got);
	}
#endif
	r = t->co ? checkout_prepare(t->co, t->sha) : 0;
	if (r < 0)
		return -1;
	if (r == 1) {
		printf("[%d/%d] %.12s: the build failed (%s/build-%.12s.log): skipped from now on\n",
		       t->k, t->nr, t->sha, w->state.buf, t->sha);
		fflush(stdout);
		t->done = true;
		return log_append(w, "failed %s build\n", t->sha);
	}
	return 0;
}

/* One turn: one run of t's job.  0, or -1 error or stopped. */
static int turn_run(struct watch *w, struct turn *t)
{
	struct strbuf env = STRBUF_INIT, label = STRBUF_INIT;
	struct run_opts ro;
	struct run_result res;
	int r;

	/* the VM boots the commit's kernel: another commit's ran last */
	if (w->o->m.kernel_tree) {
		r = kernel_prepare(w, t->sha, t->k, t->nr);
		if (r) {
			t->done = true;
			return r < 0 ? -1 : 0;
		}
	}
	if (t->co)
		strbuf_addf(&env, "PERFBOT_BUILD_DIR=%s", t->co->path);
	char *envv[] = { t->co ? env.buf : NULL, NULL };
	strbuf_addf(&label, "watch [%d/%d] %.12s", t->k, t->nr, t->sha);
	memset(&ro, 0, sizeof(ro));
	ro.job = w->job;
	ro.runs = 1;
	ro.result_base = w->result_base;
	ro.commit = t->sha;
	ro.command = w->o->m.nr_command ? w->o->m.command : NULL;
	ro.env = envv;
	ro.workdir = t->co ? t->co->path : NULL;
	/* a kernel: each run boots it, the job runs inside (kernel/vm.h) */
	ro.backend = w->o->m.kernel_tree ? &w->kernel.vm.backend : NULL;
	ro.verbose = w->o->verbose > 0;
	ro.status_line = w->tty && !w->o->verbose;
	ro.stop = w->o->stop;
	ro.said = &w->said;
	ro.label = label.buf;
	r = run_job(&ro, &res);
	if (res.united)
		store_index_result_root(w->o->db, res.result_root);
	run_result_release(&res);
	strbuf_release(&env);
	strbuf_release(&label);
	return (w->o->stop && *w->o->stop) || r < 0 ? -1 : 0;
}

/* After t's last turn: tested, or failed when no run is complete. */
static int turn_end(struct watch *w, struct turn *t)
{
	int have = complete_runs(w, t->sha);

	t->done = true;
	if (have == 0) {
		printf("[%d/%d] %.12s: no complete run (see its runs' last_state): skipped from now on\n",
		       t->k, t->nr, t->sha);
		fflush(stdout);
		return log_append(w, "failed %s runs\n", t->sha);
	}
	return log_append(w, "tested %s %d\n", t->sha, have);
}

/*
 * Measure nr (<= WATCH_TURNS) commits of the pass, plan's positions in
 * line, the first [k0 + 1/nr_plan]: each built (or found measured), then
 * their missing runs in turns, A B C A B C ..., so that load that comes
 * and goes lands on all of them, not on the commit that ran then.  0, or
 * -1 error or stopped.
 */
static int test_group(struct watch *w, const struct git_commit *line, const int *plan, int nr,
		      int k0, int nr_plan, const struct git_ref *tags, int nr_tags)
{
	struct turn t[WATCH_TURNS];
	int want[WATCH_TURNS], left[WATCH_TURNS], *order = NULL;
	int n = 0, ret = 0, per = runs_per_commit(w);

	for (int i = 0; i < nr; i++) {
		const struct git_commit *cm = &line[plan[i]];
		memset(&t[i], 0, sizeof(t[i]));
		t[i].sha = cm->sha;
		strbuf_init(&t[i].what, 0);
		strbuf_addf(&t[i].what, "%.12s", cm->sha);
		for (int j = 0; j < nr_tags; j++)
			if (!strcmp(tags[j].sha, cm->sha))
				strbuf_addf(&t[i].what, " %s", tags[j].name);
		strbuf_addf(&t[i].what, " \"%s\"", cm->subject ? cm->subject : "");
		t[i].k = k0 + i + 1;
		t[i].nr = nr_plan;
		t[i].want = per;
		t[i].co = w->o->m.kernel_tree ? NULL : &w->co[i];
	}
	for (int i = 0; i < nr && ret == 0; i++)
		ret = turn_begin(w, &t[i]);
	for (int i = 0; i < nr; i++)
		left[i] = want[i] = t[i].done ? 0 : t[i].want - t[i].have;
	if (ret == 0) {
		order = xcalloc((size_t)interleave_total(want, nr) + 1, sizeof(*order));
		n = interleave_plan(want, nr, order);
	}
	for (int j = 0; j < n && ret == 0; j++) {
		struct turn *tj = &t[order[j]];
		if (tj->done)
			continue;       /* its kernel stopped building */
		ret = turn_run(w, tj);
		if (ret == 0 && --left[order[j]] == 0 && !tj->done)
			ret = turn_end(w, tj);
	}
	for (int i = 0; i < nr; i++)
		strbuf_release(&t[i].what);
	free(order);
	return ret;
}

void free_strings(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* --- a pass --------------------------------------------------------------- */

static int one_pass(struct watch *w)
{
	struct git_commit *line = NULL;
	struct git_ref *tags = NULL;
	struct strmap pos;
	char *tip = NULL, **metrics = NULL;
	bool *tagged = NULL, *done = NULL;
	int *plan = NULL, n = 0, nr_tags = 0, nr_plan, nr_metrics = 0, base = 0, ret = -1, tested = 0;

	strmap_init(&pos);
	switch (resolve_branch(w, &tip)) {
	case 0:
		break;
	case 1:
		error("%s: no branch '%s'", w->o->repo, w->o->branch);
		/* fall through */
	default:
		goto out;
	}
	if (git_first_parent(w->o->repo, tip, w->o->depth, &line, &n) < 0)
		goto out;
	if (w->o->depth > 0 && n == w->o->depth) {
		long total = line_length(w, tip);
		base = total > n ? (int)(total - n) : 0;
	}
	tagged = xcalloc((size_t)n + 1, sizeof(bool));
	done = xcalloc((size_t)n + 1, sizeof(bool));
	plan = xcalloc((size_t)n + 1, sizeof(int));
	for (int i = 0; i < n; i++) {
		strmap_put(&pos, line[i].sha, i);
		done[i] = strmap_get(&w->tested, line[i].sha) >= 0 ||
			  strmap_get(&w->failed, line[i].sha) >= 0;
		tested += strmap_get(&w->tested, line[i].sha) >= 0;
	}
	if (w->o->tags) {
		if (git_refs(w->o->repo, "refs/tags", &tags, &nr_tags) < 0)
			goto out;
		for (int i = 0; i < nr_tags; i++) {
			int p = strmap_get(&pos, tags[i].sha);
			if (p >= 0)
				tagged[p] = true;
		}
	}
	nr_plan = watch_plan(n, base, w->o->stride, w->o->tags ? tagged : NULL, done, plan);
	if (nr_plan == 0) {
		printf("nothing new on %s: its tip %.12s and every commit to test before it "
		       "are tested\n", w->o->branch, tip);
	} else {
		printf("%s at %.12s: %d commit%s on the line, %d to test (stride %d%s)\n",
		       w->o->branch, tip, n, n == 1 ? "" : "s", nr_plan, w->o->stride,
		       w->o->tags ? ", tags" : "");
	}
	fflush(stdout);
	for (int k = 0; k < nr_plan; k += WATCH_TURNS) {
		int nr = nr_plan - k < WATCH_TURNS ? nr_plan - k : WATCH_TURNS;
		if (test_group(w, line, plan + k, nr, k, nr_plan, tags, nr_tags) < 0)
			goto out;
		for (int i = 0; i < nr; i++)
			tested += strmap_get(&w->tested, line[plan[k + i]].sha) >= 0;
	}
	if (tested == 0) {
		printf("no tested commit yet: nothing to detect\n");
		ret = 0;
		goto out;
	}
	if (kernel_keys(w, line, n) < 0)
		goto out;
	watched_metrics(w, line, n, &metrics, &nr_metrics);
	if (!nr_metrics)
		warning("the runs have no key metric with a known direction: name one with --metric");
	ret = 0;
	for (int i = 0; i < nr_metrics && ret == 0; i++)
		ret = detect_metric(w, tip, metrics[i]);
	if (ret == 0)
		ret = send_mails(w);
out:
	free_strings(metrics, nr_metrics);
	git_commits_release(line, n);
	git_refs_release(tags, nr_tags);
	strmap_release(&pos);
	free(tip);
	free(tagged);
	free(done);
	free(plan);
	return ret;
}

static void watch_release(struct watch *w)
{
	strmap_release(&w->tested);
	strmap_release(&w->failed);
	strmap_release(&w->mails);
	strmap_release(&w->mailed);
	free_strings(w->keys, w->nr_keys);
	free(w->pending);
	for (int i = 0; i < WATCH_TURNS; i++)
		checkout_release(&w->co[i]);
	bisect_kernel_release(&w->kernel);
	strbuf_release(&w->said);
	job_free(w->job);
	free(w->result_base);
	strbuf_release(&w->state);
	strbuf_release(&w->reports);
	strbuf_release(&w->log_path);
	if (w->lock_fd >= 0)
		close(w->lock_fd);
#ifndef PERFBOT_NO_LAB
	if (w->remote_open)
		lab_remote_release(&w->remote);
#endif
}

/* Sleep until the next pass is due; false when stopped meanwhile. */
static bool wait_next(struct watch *w, double start)
{
	while (!(w->o->stop && *w->o->stop)) {
		double left = start + w->o->every - now_seconds();
		if (left <= 0)
			return true;
		struct timespec ts = { 0, 200000000L };
		if (left < 0.2)
			ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	return false;
}

int watch_run(struct watch_opts *o)
{
	struct watch w;
	struct strbuf sb = STRBUF_INIT;
	int ret = EXIT_ERROR;

	memset(&w, 0, sizeof(w));
	w.o = o;
	w.lock_fd = -1;
	strbuf_init(&w.state, 0);
	strbuf_init(&w.reports, 0);
	strbuf_init(&w.log_path, 0);
	strbuf_init(&w.said, 0);
	strmap_init(&w.tested);
	strmap_init(&w.failed);
	strmap_init(&w.mails);
	strmap_init(&w.mailed);
	w.tty = isatty(2);
	if (git_check_repo(o->repo) < 0 || job_load(o->job_path, &w.job) < 0)
		goto out;
#ifdef PERFBOT_NO_LAB
	if (pg_is_url(o->db)) {
		error("this perfbot is built without lab mode (--db %s)", o->db);
		goto out;
	}
#else
	w.lab = pg_is_url(o->db);
#endif
	w.store = w.lab ? NULL : o->db;
	if (o->m.kernel_tree && w.lab) {
		/* as bisect: the lab's boxes build user space, not a kernel to boot */
		error("--kernel-tree runs here, not in the lab: drop --db %s", o->db);
		goto out;
	}
	/* a kernel watch builds and boots as a kernel bisect's steps do */
	bisect_kernel_setup(&w.kernel, &o->m, o->verbose, o->stop);
	w.kernel.job = w.job;
	if (o->state_dir)
		strbuf_addstr(&w.state, o->state_dir);
	else if (default_state(&w) < 0)
		goto out;
	if (o->reports_dir)
		strbuf_addstr(&w.reports, o->reports_dir);
	else
		path_join(&w.reports, w.state.buf, "reports");
	path_join(&w.log_path, w.state.buf, "log");
	if (o->result_base) {
		w.result_base = xstrdup(o->result_base);
	} else {
		run_default_result_base(&sb);
		w.result_base = abs_path(sb.buf);
	}
	if (mkdir_p(w.state.buf, 0755) < 0 || lock_state(&w) < 0 || log_load(&w) < 0)
		goto out;
	for (int i = 0; i < WATCH_TURNS; i++) {
		strbuf_reset(&sb);
		path_join(&sb, w.state.buf, "wt");
		if (i)
			strbuf_addf(&sb, "-%d", i);
		checkout_init(&w.co[i], o->repo, sb.buf, w.lab ? NULL : o->m.build, w.state.buf);
		w.co[i].verbose = o->verbose;
		w.co[i].stop = o->stop;
	}
	printf("watching %s of %s with %s (state %s)\n", o->branch, o->repo, o->job_path, w.state.buf);
	fflush(stdout);
	for (;;) {
		double start = now_seconds();
		if (one_pass(&w) < 0) {
			ret = (o->stop && *o->stop) ? WATCH_EXIT_INTERRUPTED : EXIT_ERROR;
			if (ret == WATCH_EXIT_INTERRUPTED || o->once)
				goto out;
			/* a robot keeps going: the next pass may find it fixed */
			warning("the pass failed: trying again in %g s", o->every);
		}
		if (o->once || !wait_next(&w, start))
			break;
	}
	/* a robot that keeps going says it in each pass's output; --once,
	 * which a script reads, in its status too */
	ret = o->once && (w.moved || w.untrusted) ? WATCH_EXIT_MACHINE_MOVED : 0;
out:
	if (ret == WATCH_EXIT_INTERRUPTED)
		fprintf(stderr, "perfbot: watch: interrupted; the next start continues from here\n");
	watch_release(&w);
	strbuf_release(&sb);
	return ret;
}

void watch_opts_release(struct watch_opts *o)
{
	free(o->repo);
	free(o->branch);
	free(o->job_path);
	free_strings(o->metrics, o->nr_metrics);
	bisect_measure_release(&o->m);
	free(o->result_base);
	free(o->db);
	free(o->state_dir);
	free(o->reports_dir);
	free(o->mail_cmd);
	free(o->mail_to);
	free(o->mail_from);
	memset(o, 0, sizeof(*o));
}
