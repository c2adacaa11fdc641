/*
 * measure.c: what the bisect runner measures with (internal.h): git in
 * the repository and the worktrees, each commit's samples from the
 * result tree, and the runs of the job, here or in the lab.
 */
#include "bisect/internal.h"
#include "bisect/advice.h"
#include "bisect/decide.h"
#include "bisect/kernel.h"
#include "bisect/log.h"
#include "git/checkout.h"
#include "git/git.h"
#include "job/job.h"
#include "lab/queue.h"
#include "lab/remote.h"
#include "report/report.h"
#include "result/matrix.h"
#include "run/interleave.h"
#include "run/desc.h"
#include "run/leftovers.h"
#include "run/run.h"
#include "stats/summary.h"
#include "store/ingest.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_writer.h"
#include "util/printable.h"
#include "util/quote.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const bisect_wt_name[3] = { "good", "bad", "step" };

/* Run git -C dir with the arguments up to a NULL; stdout into out.
 * git's progress chatter ("HEAD is now at ...") would interleave with
 * the report: errors come back in the exit code (git/git.h). */
__attribute__((sentinel))
int bisect_git(struct bisect *b, const char *dir, struct strbuf *out, ...)
{
	struct git_cmd g = { .dir = dir, .out = out, .verbose = b->o->verbose };
	va_list ap;
	int rc;

	va_start(ap, out);
	rc = git_runv(&g, ap);
	va_end(ap);
	return rc;
}

int bisect_rev_parse(struct bisect *b, const char *rev, char **sha)
{
	struct strbuf out = STRBUF_INIT, spec = STRBUF_INIT;

	strbuf_addf(&spec, "%s^{commit}", rev);
	if (bisect_git(b, b->o->repo, &out, "rev-parse", "--verify", "-q", spec.buf, NULL) != 0) {
		strbuf_release(&out);
		strbuf_release(&spec);
		return error("%s: unknown revision '%s'", b->o->repo, rev);
	}
	strbuf_rtrim(&out);
	*sha = strbuf_detach(&out, NULL);
	strbuf_release(&spec);
	return 0;
}

/* --repo names a git repository: said before any revision is looked up
 * in it ("unknown revision" would blame the revision) */
int bisect_check_repo(struct bisect *b)
{
	const char *repo = b->o->repo;

	if (!repo)
		return error("the bisect names no --repo");
	if (!is_dir(repo))
		return error("--repo '%s': %s", repo,
			     file_exists(repo) ? "not a directory" : "no such directory");
	if (bisect_git(b, repo, NULL, "rev-parse", "--git-dir", NULL) != 0)
		return error("--repo '%s': not a git repository", repo);
	return 0;
}

void bisect_subject_of(struct bisect *b, const char *sha, struct strbuf *out)
{
	size_t at = out->len;

	bisect_git(b, b->o->repo, out, "log", "-1", "--format=%s", sha, NULL);
	strbuf_rtrim(out);
	/* anyone's text: it reaches the console and the report */
	make_printable(out->buf + at, out->len - at, false);
}

/*
 * Whether matrix column col is a run of this bisect's own kernel build:
 * always for user space (the result path is all there is to compare);
 * a kernel run's dir is <rr>/<N>, N from the column's stats source.
 */
static bool column_is_ours(struct bisect *b, const struct matrix *mx, int col, const char *rr,
			   const char *sha, struct strbuf *other)
{
	const char *src = col < mx->nr_sources ? mx->sources[col] : NULL;
	struct strbuf dir = STRBUF_INIT;
	bool ours;

	if (!b->o->m.kernel_tree || b->lab)
		return true;
	if (!src) {
		strbuf_addstr(other, "no run dir");
		return false;
	}
	/* ".../<N>/stats.json": the run dir is N under today's result root,
	 * wherever the tree was when the matrix was written */
	const char *end = strrchr(src, '/'), *start = end;
	while (start && start > src && start[-1] != '/')
		start--;
	strbuf_addstr(&dir, rr);
	if (end && end > start)
		strbuf_addf(&dir, "/%.*s", (int)(end - start), start);
	ours = end && end > start && bisect_kernel_run_is_ours(&b->k, dir.buf, sha, other);
	strbuf_release(&dir);
	return ours;
}

struct commit_samples *bisect_samples_of(struct bisect *b, const char *sha, bool reload)
{
	struct commit_samples *c = NULL;
	struct strbuf rr = STRBUF_INIT, other = STRBUF_INIT;
	struct matrix mx;
	bool first = false;
	int left_out = 0;

	for (int i = 0; i < b->nr_cs; i++)
		if (!strcmp(b->cs[i].sha, sha))
			c = &b->cs[i];
	if (c && !reload)
		return c;
	if (!c) {
		ALLOC_GROW(b->cs, (size_t)b->nr_cs + 1, b->alloc_cs);
		c = &b->cs[b->nr_cs++];
		c->sha = xstrdup(sha);
		c->s = (struct sample_set)SAMPLE_SET_INIT;
		first = true;
	}
	sample_set_release(&c->s);
	matrix_init(&mx);
	if (job_result_root(b->job, b->o->result_base, sha, &rr) == 0 &&
	    (file_exists(rr.buf) && is_dir(rr.buf))) {
		struct strbuf mpath = STRBUF_INIT;
		path_join(&mpath, rr.buf, "matrix.json");
		if (file_exists(mpath.buf) && matrix_load(&mx, rr.buf) == 0) {
			int m = matrix_find(&mx, b->o->metric);
			int inc = matrix_find(&mx, "last_state.is_incomplete_run");

			/* matrix_complete_values, run by run */
			for (int col = 0; m >= 0 && col < mx.ncols; col++) {
				if (inc >= 0 && mx.m[inc].v[col] == 1)
					continue;
				/* other: the first build left out, for the message */
				size_t had = other.len;
				if (column_is_ours(b, &mx, col, rr.buf, sha, &other))
					sample_set_add(&c->s, mx.m[m].v[col]);
				else if (left_out++)
					strbuf_setlen(&other, had);
			}
		}
		strbuf_release(&mpath);
	}
	if (first && !b->o->no_progress && c->s.nr)
		fprintf(stderr, "perfbot: reusing %d run%s of %.12s from %s\n", c->s.nr,
			c->s.nr == 1 ? "" : "s", sha, rr.buf);
	if (first && !b->o->no_progress && left_out)
		fprintf(stderr, "perfbot: %d run%s of %.12s in %s booted another build of it (%s): "
			"not reused\n", left_out, left_out == 1 ? "" : "s", sha, rr.buf, other.buf);
	matrix_release(&mx);
	strbuf_release(&rr);
	strbuf_release(&other);
	return c;
}

int bisect_check_metric(struct bisect *b, const char *what, const char *sha)
{
	struct strbuf rr = STRBUF_INIT, mpath = STRBUF_INIT, where = STRBUF_INIT, msg = STRBUF_INIT;
	struct matrix mx;
	int ret = 0;

	matrix_init(&mx);
	if (job_result_root(b->job, b->o->result_base, sha, &rr) == 0)
		path_join(&mpath, rr.buf, "matrix.json");
	if (mpath.len && file_exists(mpath.buf) && matrix_load(&mx, rr.buf) == 0 &&
	    matrix_complete_values(&mx, NULL, NULL) > 0) {
		/* a complete run: its stats are what the benchmark gives */
		b->metric_checked = true;
		if (matrix_find(&mx, b->o->metric) < 0) {
			const char **names = xcalloc((size_t)mx.nr + 1, sizeof(*names));

			for (int i = 0; i < mx.nr; i++)
				names[i] = mx.m[i].name;
			strbuf_addf(&where, "%s %.12s", what, sha);
			bisect_say_unknown_metric(b->o->metric, where.buf, names, mx.nr, &msg);
			error("%s", msg.buf);
			free(names);
			ret = -1;
		}
	}
	matrix_release(&mx);
	strbuf_release(&rr);
	strbuf_release(&mpath);
	strbuf_release(&where);
	strbuf_release(&msg);
	return ret;
}

/* --kernel-tree: build sha in the kernel cache, boot it for its runs;
 * 1 when it does not build (b->why says why) */
static int prepare_kernel(struct bisect *b, const char *sha)
{
	strbuf_reset(&b->why);
	int r = bisect_kernel_prepare(&b->k, sha, &b->why);
	if (r > 0) {
		struct strbuf w = STRBUF_INIT;
		warning("%.12s does not build (%s): skipping it", sha, b->why.buf);
		strbuf_addf(&w, "does not build: %s", b->why.buf);
		strbuf_release(&b->why);
		b->why = w;
	}
	return r;
}

/* Prepare worktree w at sha and build it, unless already built there. */
int bisect_prepare(struct bisect *b, int w, const char *sha)
{
	struct checkout *c = &b->wt[w];

	/* kernels build in the kernel cache: the endpoints need no worktree,
	 * the step's is git bisect's, without files (git bisect start
	 * --no-checkout: a kernel tree's 75,000 files took minutes to check
	 * out and to remove) */
	if (b->o->m.kernel_tree && w != WT_STEP)
		return prepare_kernel(b, sha);
	if (b->o->m.kernel_tree) {
		struct strbuf path = STRBUF_INIT;
		path_join(&path, b->dir.buf, bisect_wt_name[w]);
		int r = is_dir(path.buf) ? 0 : bisect_git(b, b->o->repo, NULL, "worktree", "add",
							 "--no-checkout", "--detach", path.buf, sha, NULL);
		if (r)
			error("%s: cannot add a worktree at %s for git bisect", b->o->repo, path.buf);
		strbuf_release(&path);
		return r ? -1 : prepare_kernel(b, sha);
	}

	if (!c->path) {
		struct strbuf path = STRBUF_INIT;

		path_join(&path, b->dir.buf, bisect_wt_name[w]);
		/* in the lab the boxes build; here only git bisect checks out */
		checkout_init(c, b->o->repo, path.buf, b->lab ? NULL : b->o->m.build, b->dir.buf);
		c->verbose = b->o->verbose;
		c->stop = b->o->stop;
		strbuf_release(&path);
	}
	int r = checkout_prepare(c, sha);
	if (r == 0 && b->o->m.kernel_tree)
		r = prepare_kernel(b, sha);
	else if (r == 1) {
		strbuf_reset(&b->why);
		strbuf_addf(&b->why, "does not build (see %s/build-%.12s.log)", b->dir.buf, sha);
	}
	return r;
}

#ifndef PERFBOT_NO_LAB
/*
 * bisect_measure() in the lab: the n runs go to the queue as n entries, so that
 * as many boxes as are free run them at once; they check sha out of the
 * repository and build it themselves, and their runs are fetched into
 * sha's result root here (src/lab/remote.h, journalled in "<state>.d/
 * lab-jobs" so that --resume waits for what is out instead of queueing
 * it again).  The boxes are those of the job's tbox_group, else any.
 */
static int measure_in_lab(struct bisect *b, const char *sha, int n)
{
	struct strbuf rr = STRBUF_INIT, cmd = STRBUF_INIT;
	struct lab_remote_job j;
	char *repo = abs_path(b->o->repo);
	struct job_desc_keys keys;
	int before, after, got;

	shell_quote_argv(&cmd, b->o->m.command, b->o->m.nr_command);
	memset(&j, 0, sizeof(j));
	j.job = b->job;
	j.command = cmd.len ? cmd.buf : NULL;
	j.repo = repo;
	j.build = b->o->m.build;
	j.commit = sha;
	job_desc_keys(b->job, &keys);
	j.tbox_group = keys.tbox_group;
	j.priority = QUEUE_PRIORITY_DEFAULT;
	got = job_result_root(b->job, b->o->result_base, sha, &rr);
	before = bisect_samples_of(b, sha, false)->s.nr;
	if (got == 0)
		got = lab_remote_run(b->lab, &j, n, rr.buf, b->o->stop);
	if (got > 0)
		b->runs_made += got;
	after = bisect_samples_of(b, sha, true)->s.nr;
	if (b->o->verbose && got >= 0)
		fprintf(stderr, "perfbot: %.12s: %d run%s from the lab\n", sha, got, got == 1 ? "" : "s");
	free(repo);
	strbuf_release(&rr);
	strbuf_release(&cmd);
	if ((b->o->stop && *b->o->stop) || got < 0)
		return -1;
	if (after <= before) {
		warning("%.12s: %d lab run%s gave no '%s'", sha, n, n == 1 ? "" : "s", b->o->metric);
		return 1;
	}
	return 0;
}

#endif

/* Run the job n more times on sha in worktree w. 0, 1 build failed, -1. */
int bisect_measure(struct bisect *b, int w, const char *sha, int n)
{
	struct run_opts ro;
	struct run_result res;
	struct strbuf env = STRBUF_INIT, path = STRBUF_INIT, label = STRBUF_INIT;
	int r;

	if (n <= 0)
		return 0;
#ifndef PERFBOT_NO_LAB
	if (b->lab)
		return measure_in_lab(b, sha, n);
#endif
	r = bisect_prepare(b, w, sha);
	if (r)
		return r;
	path_join(&path, b->dir.buf, bisect_wt_name[w]);
	strbuf_addf(&env, "PERFBOT_BUILD_DIR=%s", path.buf);
	char *envv[] = { env.buf, NULL };
	/* the live line says which phase: the endpoints (good, bad), a step or
	 * the re-measurement of the final pair */
	strbuf_addf(&label, "bisect %s %.12s ", b->confirming ? "confirming" : bisect_wt_name[w], sha);
	memset(&ro, 0, sizeof(ro));
	ro.job = b->job;
	ro.runs = n;
	ro.result_base = b->o->result_base;
	ro.commit = sha;
	ro.command = b->o->m.nr_command ? b->o->m.command : NULL;
	ro.env = envv;
	ro.workdir = path.buf;
	ro.verbose = b->o->verbose > 1;
	ro.status_line = isatty(2) && !b->o->verbose && !b->o->no_progress;
	ro.stop = b->o->stop;
	ro.said = &b->said;
	ro.label = label.buf;
	ro.backend = b->o->m.kernel_tree ? &b->k.vm.backend : NULL;
	int before = bisect_samples_of(b, sha, false)->s.nr;
	b->runs_made += n;
	r = run_job(&ro, &res);
	if (res.united && !b->o->no_index)
		store_index_result_root(b->o->db, res.result_root);
	if (b->o->verbose)
		fprintf(stderr, "perfbot: %.12s: %d run%s (%s)\n", sha, res.nr_runs, res.nr_runs == 1 ? "" : "s",
			res.nr_incomplete ? "some incomplete" : "complete");
	run_result_release(&res);
	strbuf_release(&env);
	strbuf_release(&path);
	strbuf_release(&label);
	int after = bisect_samples_of(b, sha, true)->s.nr;
	if (b->o->stop && *b->o->stop)
		return -1;
	if (r < 0)
		return -1;
	/* the first complete run says whether --metric is among its stats */
	if (!b->metric_checked && bisect_check_metric(b, bisect_wt_name[w], sha) < 0)
		return BISECT_MEASURE_NO_METRIC;
	/* every run incomplete, or the metric missing: more runs would only
	 * repeat that, so the commit cannot be measured (a skip for a step) */
	if (after <= before) {
		warning("%.12s: %d run%s gave no '%s' (see the last_state and stderr files of its runs)",
			sha, n, n == 1 ? "" : "s", b->o->metric);
		/* the reason its runs recorded (a kernel's: panic, no init...) */
		struct strbuf rr = STRBUF_INIT;
		strbuf_reset(&b->why);
		strbuf_addf(&b->why, "%d run%s gave no '%s'", n, n == 1 ? "" : "s", b->o->metric);
		if (job_result_root(b->job, b->o->result_base, sha, &rr) == 0) {
			strbuf_addstr(&b->why, ": ");
			if (bisect_kernel_run_reason(rr.buf, &b->why) < 0)
				strbuf_setlen(&b->why, b->why.len - 2);
		}
		strbuf_release(&rr);
		return 1;
	}
	return 0;
}

int bisect_measure_sides(struct bisect *b, const struct bisect_side *sides, int nr, int *failed)
{
	int want[3], *plan, n, r = 0;

	if (nr < 1 || nr > 3)
		die("bisect_measure_sides: %d sides", nr);
	/* the lab's boxes run a side's runs at once: turns mean nothing there */
	if (b->lab) {
		for (int i = 0; i < nr && r == 0; i++)
			if ((r = bisect_measure(b, sides[i].w, sides[i].sha, sides[i].n)) && failed)
				*failed = i;
		return r;
	}
	for (int i = 0; i < nr; i++)
		want[i] = sides[i].n;
	plan = xcalloc((size_t)interleave_total(want, nr) + 1, sizeof(*plan));
	n = interleave_plan(want, nr, plan);
	for (int k = 0; k < n && r == 0; k++) {
		const struct bisect_side *sd = &sides[plan[k]];
		r = bisect_measure(b, sd->w, sd->sha, 1);
		if (r && failed)
			*failed = plan[k];
	}
	free(plan);
	return r;
}

double bisect_stat_mean(struct bisect *b, const char *sha, const char *stat)
{
	struct strbuf rr = STRBUF_INIT;
	struct matrix mx;
	double sum = 0;
	int n = 0;

	matrix_init(&mx);
	if (job_result_root(b->job, b->o->result_base, sha, &rr) == 0 && is_dir(rr.buf) &&
	    matrix_load_quiet(&mx, rr.buf, &b->why) == 0) {
		double *v = xmalloc(sizeof(double) * ((size_t)mx.ncols + 1));
		n = matrix_complete_values(&mx, stat, v);
		for (int r = 0; r < n; r++)
			sum += v[r];
		free(v);
	}
	matrix_release(&mx);
	strbuf_release(&rr);
	return n > 0 ? sum / n : NAN;
}
