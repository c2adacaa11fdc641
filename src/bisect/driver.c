/*
 * driver.c: the bisect runner (see driver.h for the state and worktrees,
 * decide.h for the protocol it follows).
 */
#include "bisect/driver.h"
#include "bisect/advice.h"
#include "bisect/decide.h"
#include "bisect/kernel.h"
#include "bisect/log.h"
#include "job/job.h"
#include "lab/queue.h"
#include "lab/remote.h"
#include "report/report.h"
#include "result/matrix.h"
#include "run/checkout.h"
#include "run/leftovers.h"
#include "run/run.h"
#include "stats/summary.h"
#include "util/fileio.h"
#include "util/json_writer.h"
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

/* ---- bisection state ------------------------------------------------- */

struct decision {
	char *sha;
	enum bisect_verdict v;
	int used;            /* runs counted for the verdict (its first `used`) */
	int from;            /* first run counted (fresh runs of a confirmation) */
	bool confirmed;
};

struct commit_samples {
	char *sha;
	struct sample_set s;         /* complete runs, in run order */
};

struct bisect {
	struct bisect_opts *o;
	struct job *job;
	struct bisect_params p;
	struct decision *d;
	int nr_d;
	size_t alloc_d;
	struct commit_samples *cs;
	int nr_cs;
	size_t alloc_cs;
	struct strbuf dir;           /* "<state>.d" */
	struct checkout wt[3];       /* the good, bad and step worktrees */
	struct lab_remote *lab;      /* --db postgresql://: runs on the lab's boxes */
	char *result;                /* first bad commit, when found */
	struct strbuf order;         /* "sha verdict\n" in the order measured, for the plot */
	struct bisect_outlook outlook;       /* the endpoints' noise, at the start */
	int start_good, start_bad;   /* the endpoints' runs at the start */
	enum bisect_stop stop;       /* why the search gave up, if it did */
	struct bisect_noise_check recheck;   /* the endpoints at the end */
	bool rechecked;
	struct bisect_kernel k;      /* --kernel-tree */
	struct strbuf why;           /* why the commit being measured cannot be */
	struct strbuf skips;         /* "sha reason\n" of skipped commits */
};

enum { WT_GOOD, WT_BAD, WT_STEP };
static const char *const wt_name[] = { "good", "bad", "step" };

static struct decision *find_decision(struct bisect *b, const char *sha)
{
	for (int i = b->nr_d - 1; i >= 0; i--)
		if (!strcmp(b->d[i].sha, sha))
			return &b->d[i];
	return NULL;
}

static struct decision *add_decision(struct bisect *b, const char *sha)
{
	struct decision *d = find_decision(b, sha);
	if (d)
		return d;
	ALLOC_GROW(b->d, (size_t)b->nr_d + 1, b->alloc_d);
	d = &b->d[b->nr_d++];
	memset(d, 0, sizeof(*d));
	d->sha = xstrdup(sha);
	return d;
}

/* Run git -C dir with the arguments up to a NULL; stdout into out. */
__attribute__((sentinel))
static int git(struct bisect *b, const char *dir, struct strbuf *out, ...)
{
	char *argv[16] = { "git", "-C", (char *)dir };
	struct strbuf tmp = STRBUF_INIT;
	va_list ap;
	int n = 3, rc;

	va_start(ap, out);
	while (n < 15 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	/* git's progress chatter ("HEAD is now at ...") would interleave with
	 * the report; errors are what matters and come back in out/exit code */
	rc = capture_command_err(argv, NULL, out ? out : &tmp, b->o->verbose > 1 ? NULL : "/dev/null");
	if (b->o->verbose > 1)
		fprintf(stderr, "perfbot: git %s %s %s -> %d\n", argv[3], n > 4 ? argv[4] : "", n > 5 ? argv[5] : "", rc);
	strbuf_release(&tmp);
	return rc;
}

static int rev_parse(struct bisect *b, const char *rev, char **sha)
{
	struct strbuf out = STRBUF_INIT, spec = STRBUF_INIT;

	strbuf_addf(&spec, "%s^{commit}", rev);
	if (git(b, b->o->repo, &out, "rev-parse", "--verify", "-q", spec.buf, NULL) != 0) {
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
static int check_repo(struct bisect *b)
{
	const char *repo = b->o->repo;

	if (!repo)
		return error("the bisect names no --repo");
	if (!is_dir(repo))
		return error("--repo '%s': %s", repo,
			     file_exists(repo) ? "not a directory" : "no such directory");
	if (git(b, repo, NULL, "rev-parse", "--git-dir", NULL) != 0)
		return error("--repo '%s': not a git repository", repo);
	return 0;
}

static void subject_of(struct bisect *b, const char *sha, struct strbuf *out)
{
	git(b, b->o->repo, out, "log", "-1", "--format=%s", sha, NULL);
	strbuf_rtrim(out);
}

/* Samples of the metric for sha from the result tree (complete runs). */
static struct commit_samples *samples_of(struct bisect *b, const char *sha, bool reload)
{
	struct commit_samples *c = NULL;
	struct strbuf rr = STRBUF_INIT;
	struct matrix mx;

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
	}
	sample_set_release(&c->s);
	matrix_init(&mx);
	if (job_result_root(b->job, b->o->result_base, sha, &rr) == 0 &&
	    (file_exists(rr.buf) && is_dir(rr.buf))) {
		struct strbuf mpath = STRBUF_INIT;
		path_join(&mpath, rr.buf, "matrix.json");
		if (file_exists(mpath.buf) && matrix_load(&mx, rr.buf) == 0) {
			double *v = xmalloc(sizeof(double) * ((size_t)mx.ncols + 1));
			int n = matrix_complete_values(&mx, b->o->metric, v);

			for (int r = 0; r < n; r++)
				sample_set_add(&c->s, v[r]);
			free(v);
		}
		strbuf_release(&mpath);
	}
	matrix_release(&mx);
	strbuf_release(&rr);
	return c;
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
static int prepare(struct bisect *b, int w, const char *sha)
{
	struct checkout *c = &b->wt[w];

	/* kernels build in the kernel cache: the endpoints need no worktree,
	 * the step's is git bisect's */
	if (b->o->kernel_tree && w != WT_STEP)
		return prepare_kernel(b, sha);

	if (!c->path) {
		struct strbuf path = STRBUF_INIT;

		path_join(&path, b->dir.buf, wt_name[w]);
		/* in the lab the boxes build; here only git bisect checks out */
		checkout_init(c, b->o->repo, path.buf, b->lab ? NULL : b->o->build, b->dir.buf);
		c->verbose = b->o->verbose;
		c->stop = b->o->stop;
		strbuf_release(&path);
	}
	int r = checkout_prepare(c, sha);
	if (r == 0 && b->o->kernel_tree)
		r = prepare_kernel(b, sha);
	else if (r == 1) {
		strbuf_reset(&b->why);
		strbuf_addf(&b->why, "does not build (see %s/build-%.12s.log)", b->dir.buf, sha);
	}
	return r;
}

#ifndef PERFBOT_NO_LAB
/*
 * measure() in the lab: the n runs go to the queue as n entries, so that
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
	int before, after, got;

	shell_quote_argv(&cmd, b->o->command, b->o->nr_command);
	memset(&j, 0, sizeof(j));
	j.job = b->job;
	j.command = cmd.len ? cmd.buf : NULL;
	j.repo = repo;
	j.build = b->o->build;
	j.commit = sha;
	j.tbox_group = job_get(b->job, "tbox_group");
	j.priority = QUEUE_PRIORITY_DEFAULT;
	got = job_result_root(b->job, b->o->result_base, sha, &rr);
	before = samples_of(b, sha, false)->s.nr;
	if (got == 0)
		got = lab_remote_run(b->lab, &j, n, rr.buf, b->o->stop);
	after = samples_of(b, sha, true)->s.nr;
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

/* Run the job n more times on sha in worktree w. 0, 1 build failed, -1. */
#endif

static int measure(struct bisect *b, int w, const char *sha, int n)
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
	r = prepare(b, w, sha);
	if (r)
		return r;
	path_join(&path, b->dir.buf, wt_name[w]);
	strbuf_addf(&env, "PERFBOT_BUILD_DIR=%s", path.buf);
	char *envv[] = { env.buf, NULL };
	/* the live line says which phase: the endpoints (good, bad) or a step */
	strbuf_addf(&label, "bisect %s %.12s ", wt_name[w], sha);
	memset(&ro, 0, sizeof(ro));
	ro.job = b->job;
	ro.runs = n;
	ro.result_base = b->o->result_base;
	ro.commit = sha;
	ro.command = b->o->nr_command ? b->o->command : NULL;
	ro.env = envv;
	ro.workdir = path.buf;
	ro.verbose = b->o->verbose > 1;
	ro.status_line = isatty(2) && !b->o->verbose && !b->o->no_progress;
	ro.stop = b->o->stop;
	ro.label = label.buf;
	ro.backend = b->o->kernel_tree ? &b->k.vm.backend : NULL;
	ro.index = !b->o->no_index;
	ro.db = b->o->db;
	int before = samples_of(b, sha, false)->s.nr;
	r = run_job(&ro, &res);
	if (b->o->verbose)
		fprintf(stderr, "perfbot: %.12s: %d run%s (%s)\n", sha, res.nr_runs, res.nr_runs == 1 ? "" : "s",
			res.nr_incomplete ? "some incomplete" : "complete");
	run_result_release(&res);
	strbuf_release(&env);
	strbuf_release(&path);
	strbuf_release(&label);
	int after = samples_of(b, sha, true)->s.nr;
	if (b->o->stop && *b->o->stop)
		return -1;
	if (r < 0)
		return -1;
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

/* The pooled sides: endpoints plus every decided commit (see decide.h). */
static void pools(struct bisect *b, struct sample_set *good, struct sample_set *bad, const char *except)
{
	sample_set_append(good, &samples_of(b, b->o->good, false)->s);
	sample_set_append(bad, &samples_of(b, b->o->bad, false)->s);
	for (int i = 0; i < b->nr_d; i++) {
		struct decision *d = &b->d[i];
		if (d->v == BISECT_UNKNOWN || (except && !strcmp(d->sha, except)))
			continue;
		struct commit_samples *c = samples_of(b, d->sha, false);
		struct sample_set part = { c->s.v + d->from, 0, 0 };
		int end = d->used < c->s.nr ? d->used : c->s.nr;
		part.nr = end > d->from ? end - d->from : 0;
		sample_set_append(d->v == BISECT_GOOD ? good : bad, &part);
	}
}

/* Remember a step for the plot and bisect.json: which samples of sha
 * (from, to) led to the verdict `what`; -1, -1 means all of them. */
static void note_order(struct bisect *b, const char *sha, const char *what, int from, int to)
{
	strbuf_addf(&b->order, "%s %s %d %d\n", sha, what, from, to);
}

/* One parsed line of b->order; fields point into a copy the caller frees. */
struct step_line {
	char *sha, *what;
	int from, to;
};

static const char *next_step(const char *l, struct step_line *st, char **copy)
{
	const char *nl = strchr(l, '\n');
	char *line = xstrndup(l, (size_t)(nl - l)), *save = NULL;

	*copy = line;
	st->sha = strtok_r(line, " ", &save);
	st->what = strtok_r(NULL, " ", &save);
	char *f = strtok_r(NULL, " ", &save), *t = strtok_r(NULL, " ", &save);
	st->from = f ? atoi(f) : -1;
	st->to = t ? atoi(t) : -1;
	return nl + 1;
}

/* The samples a step counted (all when its range is unknown). */
static struct sample_set step_samples(struct bisect *b, const struct step_line *st)
{
	struct commit_samples *c = samples_of(b, st->sha, false);
	struct sample_set s = { c->s.v, c->s.nr, 0 };
	if (st->from >= 0 && st->to >= st->from && st->to <= c->s.nr) {
		s.v = c->s.v + st->from;
		s.nr = st->to - st->from;
	}
	return s;
}

/* Runs of the bisection's commits in the result tree (complete ones). */
static int runs_spent(struct bisect *b)
{
	int n = 0;

	for (int i = 0; i < b->nr_cs; i++)
		n += b->cs[i].s.nr;
	return n;
}

/*
 * May n more runs be spent?  Sets b->stop when not: the budget, or the
 * verdicts UNKNOWN in a row at the end of the log (decide.h).
 */
static bool afford(struct bisect *b, int n)
{
	struct bisect_progress pr = { runs_spent(b), 0 };

	for (int i = b->nr_d - 1; i >= 0 && b->d[i].v == BISECT_UNKNOWN; i--)
		pr.unknown_in_row++;
	if (!b->stop)
		b->stop = bisect_should_stop(&pr, n, &b->p);
	return !b->stop;
}

/*
 * The runs of the step's tested neighbours (decide.h): the verdicts
 * narrow the range, so the latest good one and the latest bad one bound
 * it; the endpoints until there are such.
 */
static void neighbours(struct bisect *b, const char *except, struct sample_set *lo,
		       struct sample_set *hi)
{
	struct commit_samples *g = samples_of(b, b->o->good, false);
	struct commit_samples *bd = samples_of(b, b->o->bad, false);

	*lo = (struct sample_set){ g->s.v, g->s.nr, 0 };
	*hi = (struct sample_set){ bd->s.v, bd->s.nr, 0 };
	for (int i = 0; i < b->nr_d; i++) {
		struct decision *d = &b->d[i];
		struct commit_samples *c;
		int end;

		if (d->v == BISECT_UNKNOWN || !strcmp(d->sha, except))
			continue;
		c = samples_of(b, d->sha, false);
		end = d->used < c->s.nr ? d->used : c->s.nr;
		if (end <= d->from)
			continue;
		*(d->v == BISECT_GOOD ? lo : hi) =
			(struct sample_set){ c->s.v + d->from, end - d->from, 0 };
	}
}

#define DECIDE_GAVE_UP (-2)

/*
 * Measure sha until a verdict under p, using runs from index `from` on.
 * Returns the verdict (UNKNOWN = skip) with *used the runs counted, -1,
 * or DECIDE_GAVE_UP when the budget or convergence ends the search.
 */
static int decide(struct bisect *b, const char *sha, const struct bisect_params *p, int from, int *used)
{
	for (;;) {
		struct sample_set good = SAMPLE_SET_INIT, bad = SAMPLE_SET_INIT, lo, hi;
		struct commit_samples *c = samples_of(b, sha, false);
		struct sample_set step = { c->s.v + from, c->s.nr > from ? c->s.nr - from : 0, 0 };
		struct bisect_runs more;
		pools(b, &good, &bad, sha);
		neighbours(b, sha, &lo, &hi);
		int want = bisect_runs_wanted(&step, &good, &bad, &lo, &hi, p, &more);
		enum bisect_verdict v = want ? BISECT_UNKNOWN : bisect_classify(&step, &good, &bad, &lo, &hi, p);
		/* each verdict as it is made, as git bisect says each step */
		if (!b->o->no_progress && !want) {
			struct strbuf subject = STRBUF_INIT;
			subject_of(b, sha, &subject);
			fprintf(stderr, "perfbot: %.12s (\"%s\"): %s after %d run%s (mean %g; good %g, bad %g)\n",
				sha, subject.buf, bisect_verdict_name(v), step.nr, step.nr == 1 ? "" : "s",
				step.nr ? mean(step.v, step.nr) : NAN, mean(good.v, good.nr),
				mean(bad.v, bad.nr));
			strbuf_release(&subject);
		}
		sample_set_release(&good);
		sample_set_release(&bad);
		if (!want) {
			*used = c->s.nr;
			return v;
		}
		if (!afford(b, want))
			return DECIDE_GAVE_UP;
		int r = measure(b, WT_STEP, sha, more.step);
		if (r == 1) {
			*used = c->s.nr;
			return BISECT_UNKNOWN;   /* build failed: skip, like exit 125 */
		}
		if (r < 0 || measure(b, WT_GOOD, b->o->good, more.good) < 0 ||
		    measure(b, WT_BAD, b->o->bad, more.bad) < 0)
			return -1;
	}
}

/* ---- git bisect ------------------------------------------------------ */

enum git_state { GIT_NEXT, GIT_FOUND, GIT_AMBIGUOUS, GIT_ERROR };

static enum git_state parse_git(struct bisect *b, const char *out, char **sha)
{
	const char *p = strstr(out, " is the first bad commit");
	*sha = NULL;
	if (p) {
		const char *bol = p;
		while (bol > out && bol[-1] != '\n')
			bol--;
		*sha = xstrndup(bol, (size_t)(p - bol));
		return GIT_FOUND;
	}
	if (strstr(out, "only 'skip'ped commits left"))
		return GIT_AMBIGUOUS;
	struct strbuf head = STRBUF_INIT, path = STRBUF_INIT;
	path_join(&path, b->dir.buf, wt_name[WT_STEP]);
	if (git(b, path.buf, &head, "rev-parse", "HEAD", NULL, NULL) != 0) {
		strbuf_release(&head);
		strbuf_release(&path);
		return GIT_ERROR;
	}
	strbuf_rtrim(&head);
	*sha = strbuf_detach(&head, NULL);
	strbuf_release(&path);
	return GIT_NEXT;
}

/* (Re)start git bisect in the step worktree from the verdicts so far. */
static enum git_state git_replay(struct bisect *b, char **sha, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	enum git_state st = GIT_ERROR;

	path_join(&path, b->dir.buf, wt_name[WT_STEP]);
	if (prepare(b, WT_STEP, b->o->bad) < 0)
		goto out;
	git(b, path.buf, NULL, "bisect", "reset", NULL, NULL);
	strbuf_reset(out);
	if (git(b, path.buf, out, "bisect", "start", b->o->bad, b->o->good, NULL) != 0) {
		error("git bisect start failed: %s", out->buf);
		goto out;
	}
	for (int i = 0; i < b->nr_d; i++) {
		strbuf_reset(out);
		if (git(b, path.buf, out, "bisect", bisect_verdict_name(b->d[i].v), b->d[i].sha, NULL) != 0 &&
		    !strstr(out->buf, "is the first bad commit")) {
			error("git bisect %s %s failed: %s", bisect_verdict_name(b->d[i].v), b->d[i].sha, out->buf);
			goto out;
		}
	}
	st = parse_git(b, out->buf, sha);
	/* git checked out the next step: it is not built yet */
	checkout_forget(&b->wt[WT_STEP]);
out:
	strbuf_release(&path);
	return st;
}

/* ---- the report -------------------------------------------------------- */

/*
 * What the report says about the endpoints: their means and shift, the
 * noise at the start and the runs a verdict needed, the noise at the
 * end and whether it moved, and the first bad commit's own step against
 * its parent (which may explain only part of the shift).
 */
/* The first bad commit's relative change against its parent (NaN when
 * either has no runs). */
static double result_step(struct bisect *b, const char *parent)
{
	double step = NAN;

	if (parent && b->result) {
		struct commit_samples *pa = samples_of(b, parent, false);
		struct commit_samples *fb = samples_of(b, b->result, false);
		double mp = pa->s.nr ? mean(pa->s.v, pa->s.nr) : NAN;

		if (fb->s.nr && mp != 0)
			step = (mean(fb->s.v, fb->s.nr) - mp) / fabs(mp);
	}
	return step;
}

static void endpoints_json(struct bisect *b, const char *parent, struct json_writer *jw)
{
	struct commit_samples *g = samples_of(b, b->o->good, false);
	struct commit_samples *bd = samples_of(b, b->o->bad, false);
	struct sample_set g0 = { g->s.v, b->start_good, 0 }, b0 = { bd->s.v, b->start_bad, 0 };
	double step = result_step(b, parent);

	bisect_outlook_json(&b->outlook, mean(g0.v, g0.nr), mean(b0.v, b0.nr),
			    bisect_pvalue(&g0, &b0, &b->p), b->rechecked ? &b->recheck : NULL,
			    step, jw);
}

/* One skip's reason, remembered for bisect.json (the last one wins). */
static void remember_skip(struct bisect *b, const char *sha, const char *why)
{
	strbuf_addf(&b->skips, "%s ", sha);
	for (const char *p = why; *p; p++)
		strbuf_addch(&b->skips, *p == '\n' ? ' ' : *p);
	strbuf_addch(&b->skips, '\n');
}

/* Say why sha was skipped: "# skip <sha>: <why>" in the log, read back
 * on --resume, and in bisect.json's step (the report shows it). */
static int note_skip(struct bisect *b, const char *sha, int used)
{
	struct strbuf line = STRBUF_INIT;
	int r;

	if (!b->why.len)
		strbuf_addf(&b->why, "no verdict after %d runs", used);
	remember_skip(b, sha, b->why.buf);
	strbuf_addf(&line, "# skip %s: ", sha);
	for (const char *p = b->why.buf; *p; p++)
		strbuf_addch(&line, *p == '\n' ? ' ' : *p);
	strbuf_addch(&line, '\n');
	r = bisect_log_append(b->o->state_path, line.buf);
	strbuf_release(&line);
	return r;
}

/* The remembered reason sha was skipped, or NULL. */
static const char *skip_reason(const struct bisect *b, const char *sha, struct strbuf *sb)
{
	size_t n = strlen(sha);
	const char *found = NULL;

	for (const char *l = b->skips.buf; *l;) {
		const char *nl = strchr(l, '\n');
		if (!strncmp(l, sha, n) && l[n] == ' ') {
			strbuf_reset(sb);
			strbuf_add(sb, l + n + 1, (size_t)(nl - l - n - 1));
			found = sb->buf;
		}
		l = nl + 1;
	}
	return found;
}

/* An argument for a command line people copy: as it is when the shell
 * takes it so, else single-quoted. */
static void quote_arg(struct strbuf *sb, const char *s)
{
	if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-")])
		strbuf_addstr(sb, s);
	else
		shell_quote(sb, s);
}

/* The command that repeats this bisect, every option that changes what it
 * measures or where it keeps things spelled out, for the report's "how to
 * reproduce" (a bare --repo --good --bad --job --metric would run
 * without the build, into another result tree, on another state). */
static void reproduce_command(const struct bisect_opts *o, const char *job, struct strbuf *sb)
{
	static const char *const names[] = { "--repo", "--good", "--bad", "--job", "--metric" };
	const char *values[] = { o->repo, o->good, o->bad, job, o->metric };

	strbuf_addstr(sb, "perfbot bisect");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strbuf_addf(sb, " %s ", names[i]);
		quote_arg(sb, values[i]);
	}
	if (o->build) {
		strbuf_addstr(sb, " --build ");
		quote_arg(sb, o->build);
	}
	if (o->kernel_tree) {
		strbuf_addstr(sb, " --kernel-tree ");
		quote_arg(sb, o->kernel_tree);
		if (o->kconfig) {
			strbuf_addstr(sb, " --config ");
			quote_arg(sb, o->kconfig);
		}
	}
	if (o->runs > 0)
		strbuf_addf(sb, " --runs %d", o->runs);
	if (o->max_runs > 0)
		strbuf_addf(sb, " --max-runs %d", o->max_runs);
	if (o->max_total_runs > 0)
		strbuf_addf(sb, " --max-total-runs %d", o->max_total_runs);
	if (o->alpha > 0)
		strbuf_addf(sb, " --alpha %g", o->alpha);
	strbuf_addstr(sb, " --state ");
	quote_arg(sb, o->state_path);
	strbuf_addstr(sb, " --result-root ");
	quote_arg(sb, o->result_base);
	if (o->no_index) {
		strbuf_addstr(sb, " --no-index");
	} else if (o->db) {
		strbuf_addstr(sb, " --db ");
		quote_arg(sb, o->db);
	}
	if (o->nr_command) {
		strbuf_addstr(sb, " --");
		for (int i = 0; i < o->nr_command; i++) {
			strbuf_addch(sb, ' ');
			quote_arg(sb, o->command[i]);
		}
	}
}

static void write_bisect_json(struct bisect *b, const char *parent)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT, s = STRBUF_INIT, rr = STRBUF_INIT;
	struct json_writer jw;
	char *job_abs = realpath(b->o->job_path, NULL);

	/* every commit named below gets its entry in "commits" */
	for (const char *l = b->order.buf; *l;) {
		struct step_line st;
		char *copy;
		l = next_step(l, &st, &copy);
		samples_of(b, st.sha, false);
		free(copy);
	}
	if (b->result)
		samples_of(b, b->result, false);
	if (parent)
		samples_of(b, parent, false);
	jw_init(&jw, &out);
	jw_object_begin(&jw);
	jw_key(&jw, "version"); jw_number(&jw, 1, true);
	jw_key(&jw, "repo"); jw_string(&jw, b->o->repo);
	jw_key(&jw, "metric"); jw_string(&jw, b->o->metric);
	jw_key(&jw, "good"); jw_string(&jw, b->o->good);
	jw_key(&jw, "bad"); jw_string(&jw, b->o->bad);
	if (b->result) {
		jw_key(&jw, "first_bad"); jw_string(&jw, b->result);
		subject_of(b, b->result, &s);
		jw_key(&jw, "first_bad_subject"); jw_string(&jw, s.buf);
	}
	if (parent) {
		jw_key(&jw, "parent"); jw_string(&jw, parent);
	}
	if (b->start_good)
		endpoints_json(b, parent, &jw);
	jw_key(&jw, "job"); jw_string(&jw, job_abs ? job_abs : b->o->job_path);
	jw_key(&jw, "result_base"); jw_string(&jw, b->o->result_base);
	strbuf_reset(&s);
	reproduce_command(b->o, job_abs ? job_abs : b->o->job_path, &s);
	jw_key(&jw, "command"); jw_string(&jw, s.buf);
	jw_key(&jw, "commits");
	jw_object_begin(&jw);
	for (int i = 0; i < b->nr_cs; i++) {
		jw_key(&jw, b->cs[i].sha);
		jw_object_begin(&jw);
		strbuf_reset(&s);
		subject_of(b, b->cs[i].sha, &s);
		jw_key(&jw, "subject"); jw_string(&jw, s.buf);
		strbuf_reset(&rr);
		job_result_root(b->job, b->o->result_base, b->cs[i].sha, &rr);
		jw_key(&jw, "result_root"); jw_string(&jw, rr.buf);
		jw_object_end(&jw);
	}
	jw_object_end(&jw);
	jw_key(&jw, "steps");
	jw_array_begin(&jw);
	for (const char *l = b->order.buf; *l;) {
		struct step_line st;
		char *copy;
		l = next_step(l, &st, &copy);
		struct sample_set used = step_samples(b, &st);
		jw_object_begin(&jw);
		jw_key(&jw, "commit"); jw_string(&jw, st.sha);
		jw_key(&jw, "verdict"); jw_string(&jw, st.what);
		if (!strcmp(st.what, "skip") && skip_reason(b, st.sha, &s)) {
			jw_key(&jw, "reason");
			jw_string(&jw, s.buf);
		}
		jw_key(&jw, "samples");
		jw_array_begin(&jw);
		for (int k = 0; k < used.nr; k++)
			jw_number(&jw, used.v[k], false);
		jw_array_end(&jw);
		jw_object_end(&jw);
		free(copy);
	}
	jw_array_end(&jw);
	jw_object_end(&jw);
	strbuf_addf(&path, "%s/bisect.json", b->dir.buf);
	write_file_atomic(path.buf, out.buf, out.len);
	free(job_abs);
	strbuf_release(&out);
	strbuf_release(&path);
	strbuf_release(&s);
	strbuf_release(&rr);
}

/* The first bad commit line, then the report of bisect.json (report.h):
 * the same text `perfbot report --bisect STATE` prints. */
static void print_report(struct bisect *b)
{
	struct strbuf subject = STRBUF_INIT, out = STRBUF_INIT;
	struct report r;
	struct report_options ro;

	subject_of(b, b->result, &subject);
	printf("first bad commit: %s (\"%s\")\n\n", b->result, subject.buf);
	report_options_init(&ro);
	if (report_load_bisect(&r, b->o->state_path, &ro) == 0 && report_text(&r, &out) == 0)
		fwrite(out.buf, 1, out.len, stdout);
	report_release(&r);
	strbuf_release(&subject);
	strbuf_release(&out);
}

/* ---- main loop ----------------------------------------------------------- */

static int load_log(struct bisect *b, const char *path, struct bisect_opts *o)
{
	struct strbuf text = STRBUF_INIT;
	int lineno = 0, ret = 0;
	bool started = false;

	if (read_file(&text, path) < 0)
		return -1;
	for (char *l = text.buf; *l && !ret;) {
		char *nl = strchr(l, '\n');
		if (!nl)
			break;   /* a torn last line (crash mid-write) is ignored */
		*nl = '\0';
		lineno++;
		if (!strncmp(l, "# skip ", 7) && started) {
			/* why a commit was skipped (note_skip) */
			char *colon = strstr(l + 7, ": ");
			if (colon) {
				*colon = '\0';
				remember_skip(b, l + 7, colon + 2);
			}
		} else if (!*l || *l == '#') {
			/* comments and blank lines */
		} else if (!started) {
			ret = bisect_parse_start(l, path, lineno, o);
			started = true;
		} else {
			char sha[128], what[16];
			int n;
			char kind[16];
			if (sscanf(l, "%15s %127s %15s %d", kind, sha, what, &n) == 4 &&
			    (!strcmp(kind, "verdict") || !strcmp(kind, "confirm"))) {
				struct decision *d = add_decision(b, sha);
				enum bisect_verdict v = !strcmp(what, "good") ? BISECT_GOOD :
							!strcmp(what, "bad") ? BISECT_BAD : BISECT_UNKNOWN;
				if (!strcmp(kind, "confirm")) {
					d->from = d->used;
					d->confirmed = true;
				}
				d->v = v;
				d->used = n;
				note_order(b, sha, what, d->from, n);
			} else if (sscanf(l, "%15s %127s", kind, sha) == 2 && !strcmp(kind, "result")) {
				free(b->result);
				b->result = xstrdup(sha);
			} else {
				ret = error("%s:%d: expected 'verdict', 'confirm' or 'result', got '%s'", path, lineno, l);
			}
		}
		l = nl + 1;
	}
	if (!ret && !started)
		ret = error("%s: no 'start' line: not a bisect state", path);
	strbuf_release(&text);
	return ret;
}

static int record(struct bisect *b, const char *kind, const char *sha, enum bisect_verdict v, int used)
{
	struct strbuf line = STRBUF_INIT;
	int r;

	strbuf_addf(&line, "%s %s %s %d\n", kind, sha, bisect_verdict_name(v), used);
	r = bisect_log_append(b->o->state_path, line.buf);
	strbuf_release(&line);
	return r;
}

/* Parents of sha, as shas. */
static int parents_of(struct bisect *b, const char *sha, char ***out)
{
	struct strbuf s = STRBUF_INIT, spec = STRBUF_INIT;
	char **w;
	int n;

	strbuf_addf(&spec, "%s^@", sha);
	git(b, b->o->repo, &s, "rev-parse", spec.buf, NULL, NULL);
	bisect_split_words(s.buf, &w, &n);
	/* rev-parse prints one per line: split_words splits at blanks only */
	for (int i = 0; i < n; i++) {
		char *nl;
		while ((nl = strchr(w[i], '\n')))
			*nl = '\0';
	}
	strbuf_release(&s);
	strbuf_release(&spec);
	*out = w;
	return n;
}

static int bisect_loop(struct bisect *b)
{
	struct strbuf out = STRBUF_INIT;
	char *sha = NULL;
	int ret = -1;
	enum git_state st = git_replay(b, &sha, &out);

	for (;;) {
		if (b->o->stop && *b->o->stop)
			goto out;
		if (st == GIT_ERROR)
			goto out;
		if (st == GIT_AMBIGUOUS) {
			if (!b->o->quiet)
				printf("only skipped commits are left; the first bad commit is one of:\n%s",
				       out.buf);
			ret = BISECT_EXIT_AMBIGUOUS;
			goto out;
		}
		if (st == GIT_FOUND) {
			/* confirmation: the first bad commit and its good parents */
			char **par;
			int np = parents_of(b, sha, &par);
			const char *cand[8];
			int nc = 0;
			if (strcmp(sha, b->o->bad))
				cand[nc++] = sha;
			for (int i = 0; i < np && nc < 8; i++)
				if (strcmp(par[i], b->o->good) && find_decision(b, par[i]))
					cand[nc++] = par[i];
			bool flipped = false;
			struct bisect_params cp = bisect_confirm_params(&b->p);
			for (int i = 0; i < nc && !flipped; i++) {
				struct decision *d = find_decision(b, cand[i]);
				if (!d || d->confirmed)
					continue;
				int used, from = d->used;
				enum bisect_verdict old = d->v;
				d->from = from;
				d->v = BISECT_UNKNOWN;   /* out of its pool while re-measured */
				strbuf_reset(&b->why);
				int v = decide(b, cand[i], &cp, from, &used);
				if (v < 0) {
					d->v = old;
					d->from = 0;
					bisect_free_words(par, np);
					if (v == DECIDE_GAVE_UP)
						ret = BISECT_EXIT_UNTRUSTED;
					goto out;
				}
				d->v = (enum bisect_verdict)v;
				d->used = used;
				d->confirmed = true;
				note_order(b, cand[i], bisect_verdict_name(d->v), from, used);
				if (record(b, "confirm", cand[i], d->v, used) < 0 ||
				    (d->v == BISECT_UNKNOWN && note_skip(b, cand[i], used) < 0)) {
					bisect_free_words(par, np);
					goto out;
				}
				if (d->v != old) {
					if (b->o->verbose)
						fprintf(stderr, "perfbot: %.12s re-measured: %s, not %s\n", cand[i],
							bisect_verdict_name(d->v), bisect_verdict_name(old));
					flipped = true;
				}
			}
			bisect_free_words(par, np);
			if (flipped) {
				free(sha);
				st = git_replay(b, &sha, &out);
				continue;
			}
			b->result = sha;
			sha = NULL;
			struct strbuf line = STRBUF_INIT;
			strbuf_addf(&line, "result %s\n", b->result);
			bisect_log_append(b->o->state_path, line.buf);
			strbuf_release(&line);
			ret = 0;
			goto out;
		}
		/* GIT_NEXT: measure the commit git checked out */
		strbuf_reset(&b->why);
		int used;
		int v = decide(b, sha, &b->p, 0, &used);
		if (v < 0) {
			if (v == DECIDE_GAVE_UP)
				ret = BISECT_EXIT_UNTRUSTED;
			goto out;
		}
		struct decision *d = add_decision(b, sha);
		d->v = (enum bisect_verdict)v;
		d->used = used;
		d->from = 0;
		note_order(b, sha, bisect_verdict_name(d->v), 0, used);
		if (record(b, "verdict", sha, d->v, used) < 0 ||
		    (d->v == BISECT_UNKNOWN && note_skip(b, sha, used) < 0))
			goto out;
		struct strbuf path = STRBUF_INIT;
		path_join(&path, b->dir.buf, wt_name[WT_STEP]);
		strbuf_reset(&out);
		git(b, path.buf, &out, "bisect", bisect_verdict_name(d->v), sha, NULL);
		strbuf_release(&path);
		free(sha);
		checkout_forget(&b->wt[WT_STEP]);
		st = parse_git(b, out.buf, &sha);
	}
out:
	free(sha);
	strbuf_release(&out);
	return ret;
}

static int count_commits(struct bisect *b)
{
	struct strbuf out = STRBUF_INIT, range = STRBUF_INIT;
	int n;

	strbuf_addf(&range, "%s..%s", b->o->good, b->o->bad);
	git(b, b->o->repo, &out, "rev-list", "--count", range.buf, NULL);
	n = atoi(out.buf);
	strbuf_release(&out);
	strbuf_release(&range);
	return n + 1;
}

/*
 * The endpoints again, fresh runs at the end, against their runs at the
 * start: a machine whose noise moved meanwhile (another job started)
 * made the verdicts in between against references that no longer hold.
 * Within the budget only; the report says what was found.
 */
static void recheck_endpoints(struct bisect *b)
{
	int n = b->p.ref_min_runs;
	struct commit_samples *g, *bd;

	if (!b->start_good || !afford(b, 2 * n) ||
	    measure(b, WT_GOOD, b->o->good, n) || measure(b, WT_BAD, b->o->bad, n)) {
		b->stop = BISECT_GO_ON;        /* the answer stands, unchecked */
		return;
	}
	g = samples_of(b, b->o->good, false);
	bd = samples_of(b, b->o->bad, false);
	{
		struct sample_set g0 = { g->s.v, b->start_good, 0 }, b0 = { bd->s.v, b->start_bad, 0 };
		struct sample_set g1 = { g->s.v + g->s.nr - n, n, 0 };
		struct sample_set b1 = { bd->s.v + bd->s.nr - n, n, 0 };

		b->rechecked = true;
		if (bisect_noise_moved(&g0, &b0, &g1, &b1, &b->p, &b->recheck)) {
			struct strbuf msg = STRBUF_INIT;
			strbuf_addstr(&msg, "perfbot: warning: ");
			bisect_say_noise_moved(&b->recheck, &msg);
			fputs(msg.buf, stderr);
			strbuf_release(&msg);
		}
	}
}

/* One side of the endpoints: "good 63dcc45838cf: 4 runs, mean 990,
 * noise 0.5%" (the runs' stddev over their mean). */
static void endpoint_side(const char *what, const char *sha, const struct sample_set *s,
			  struct strbuf *sb)
{
	strbuf_addf(sb, "%s %.12s: %d run%s", what, sha, s->nr, s->nr == 1 ? "" : "s");
	if (s->nr) {
		double m = mean(s->v, s->nr);
		strbuf_addf(sb, ", mean %g", m);
		if (s->nr > 1 && m != 0)
			strbuf_addf(sb, ", noise %.1f%%", 100 * stddev_sample(s->v, s->nr) / fabs(m));
	}
}

/* The endpoint phase as it goes: what is measured, and what more is
 * wanted (more: NULL once they suffice).  Minutes pass here before the
 * first step; this says why. */
static void endpoint_progress(struct bisect *b, const struct commit_samples *g,
			      const struct commit_samples *bd, const struct bisect_runs *more)
{
	struct strbuf sb = STRBUF_INIT;

	if (b->o->no_progress)
		return;
	strbuf_addstr(&sb, "perfbot: endpoints: ");
	endpoint_side("good", b->o->good, &g->s, &sb);
	strbuf_addstr(&sb, "; ");
	endpoint_side("bad", b->o->bad, &bd->s, &sb);
	if (more)
		strbuf_addf(&sb, "; measuring %d more of good, %d of bad", more->good, more->bad);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int bisect_run(struct bisect_opts *o, bool resume)
{
	struct bisect b;
	int ret = EXIT_ERROR;
	char *sha;

	memset(&b, 0, sizeof(b));
	b.o = o;
	strbuf_init(&b.dir, 0);
	strbuf_init(&b.order, 0);
	strbuf_init(&b.why, 0);
	strbuf_init(&b.skips, 0);
	if (resume) {
		struct bisect_opts lo;
		memset(&lo, 0, sizeof(lo));
		if (load_log(&b, o->state_path, &lo) < 0) {
			bisect_opts_release(&lo);
			goto out;
		}
		lo.state_path = o->state_path;
		/* -v given at the start stays; a -v now says how much */
		if (o->verbose)
			lo.verbose = o->verbose;
		/* not in the log: how this process was asked to run */
		lo.quiet = o->quiet;
		lo.no_progress = o->no_progress;
		lo.no_index = o->no_index;
		/* ... except a lab's database: where the runs are made, and
		 * the jobs the journal (STATE.d/lab-jobs) waits for live */
		if (o->db || !lo.db || (strncmp(lo.db, "postgresql://", 13) &&
					strncmp(lo.db, "postgres://", 11))) {
			free(lo.db);
			lo.db = o->db;
			o->db = NULL;
		}
		lo.stop = o->stop;
		o->state_path = NULL;
		bisect_opts_release(o);
		*o = lo;
	}
	/* what a perfbot killed with -9 left (a run's mounts, loop devices) */
	if (run_reap_leftovers(NULL) < 0)
		goto out;
	if (check_repo(&b) < 0 || job_load(o->job_path, &b.job) < 0)
		goto out;
	strbuf_addf(&b.dir, "%s.d", o->state_path);
	if (mkdir_p(b.dir.buf, 0755) < 0)
		goto out;
#ifdef PERFBOT_NO_LAB
	if (o->db && (!strncmp(o->db, "postgresql://", 13) || !strncmp(o->db, "postgres://", 11))) {
		error("this perfbot is built without lab mode (--db %s)", o->db);
		goto out;
	}
#else
	if (o->db && pg_is_url(o->db) && o->kernel_tree) {
		/* the lab's boxes build the user space they are given, not a
		 * kernel to boot: that flow is a box's own (kexec), not here */
		error("--kernel-tree runs here, not in the lab: drop --db %s", o->db);
		goto out;
	}
	if (o->db && pg_is_url(o->db)) {
		struct strbuf journal = STRBUF_INIT;
		path_join(&journal, b.dir.buf, "lab-jobs");
		b.lab = xcalloc(1, sizeof(*b.lab));
		int r = lab_remote_open(b.lab, o->db, journal.buf);
		b.lab->verbose = o->verbose;
		strbuf_release(&journal);
		if (r < 0)
			goto out;
	}
#endif
	if (!resume) {
		if (file_exists(o->state_path)) {
			error("'%s' exists: continue it with --resume, or remove it", o->state_path);
			goto out;
		}
		/* record full shas, so that the log means the same later */
		if (rev_parse(&b, o->good, &sha) < 0)
			goto out;
		free(o->good);
		o->good = sha;
		if (rev_parse(&b, o->bad, &sha) < 0)
			goto out;
		free(o->bad);
		o->bad = sha;
		struct strbuf line = STRBUF_INIT;
		strbuf_addstr(&line, "# perfbot bisect log: replayed by `perfbot bisect --resume`\n");
		bisect_start_line(o, &line);
		if (write_file_atomic(o->state_path, line.buf, line.len) < 0) {
			strbuf_release(&line);
			goto out;
		}
		strbuf_release(&line);
	}
	/* a kernel bisect files its runs under the VM and the config: the
	 * job gets those keys before any result is looked up */
	if (o->kernel_tree) {
		b.k.tree = o->kernel_tree;
		b.k.config = o->kconfig;
		b.k.verbose = o->verbose;
		b.k.stop = o->stop;
		b.k.command = o->nr_command ? o->command : NULL;
		if (bisect_kernel_init(&b.k, b.job, o->bad, &b.why) < 0)
			goto out;
	}
	bisect_params_init(&b.p, count_commits(&b));
	if (o->runs > 0)
		b.p.min_runs = o->runs;
	if (o->max_runs > 0)
		b.p.max_runs = o->max_runs < b.p.min_runs ? b.p.min_runs : o->max_runs;
	if (o->max_total_runs > 0)
		b.p.max_total_runs = o->max_total_runs;
	if (o->alpha > 0) {
		/* --alpha is the search's budget per bisection (default 0.09) */
		double verdicts = log2(count_commits(&b) > 2 ? count_commits(&b) : 2);
		b.p.confirm_alpha = b.p.confirm_alpha / b.p.alpha * (o->alpha / verdicts);
		b.p.alpha = o->alpha / verdicts;
	}

	/* 1. endpoints */
	for (;;) {
		struct bisect_runs more;
		struct commit_samples *g = samples_of(&b, o->good, false), *bd = samples_of(&b, o->bad, false);
		if (!bisect_runs_wanted(NULL, &g->s, &bd->s, NULL, NULL, &b.p, &more))
			break;
		endpoint_progress(&b, g, bd, &more);
		int r = measure(&b, WT_GOOD, o->good, more.good);
		if (r == 0)
			r = measure(&b, WT_BAD, o->bad, more.bad);
		if (r) {
			if (r == 1)
				error("an endpoint could not be built or measured: nothing can be bisected");
			ret = o->stop && *o->stop ? BISECT_EXIT_INTERRUPTED : EXIT_ERROR;
			goto out;
		}
	}
	struct bisect_endpoints ep;
	struct commit_samples *g = samples_of(&b, o->good, false), *bd = samples_of(&b, o->bad, false);
	endpoint_progress(&b, g, bd, NULL);
	if (!bisect_check_endpoints(&g->s, &bd->s, &b.p, &ep)) {
		if (!o->quiet)
			printf("nothing to bisect: %s is %g on %.12s and %g on %.12s (%+.1f%%, p = %.2g)\n",
		       o->metric, ep.good_mean, o->good, ep.bad_mean, o->bad, 100 * ep.rel_shift, ep.p);
		ret = BISECT_EXIT_NOTHING;
		goto out;
	}
	if (o->verbose)
		fprintf(stderr, "perfbot: %s: %g -> %g (%+.1f%%, p = %.2g): bisecting\n", o->metric,
			ep.good_mean, ep.bad_mean, 100 * ep.rel_shift, ep.p);
	/* say at the start what this noise means for the runs to come */
	bisect_outlook_init(&b.outlook, &g->s, &bd->s, &b.p, count_commits(&b));
	b.start_good = g->s.nr;
	b.start_bad = bd->s.nr;
	{
		struct strbuf line = STRBUF_INIT;
		strbuf_addstr(&line, "perfbot: ");
		bisect_say_outlook(&b.outlook, o->metric, &line);
		fputs(line.buf, stderr);
		strbuf_release(&line);
	}
	/* the plot starts with the endpoints, as lkp's does */
	struct strbuf head = STRBUF_INIT;
	strbuf_addf(&head, "%s good-endpoint -1 -1\n%s bad-endpoint -1 -1\n", o->good, o->bad);
	{
		struct strbuf merged = STRBUF_INIT;
		strbuf_addstr(&merged, head.buf);
		strbuf_addstr(&merged, b.order.buf);
		strbuf_release(&b.order);
		b.order = merged;
	}
	strbuf_release(&head);

	/* 2 and 3: search and confirmation */
	if (!b.result) {
		int r = bisect_loop(&b);
		if (r == BISECT_EXIT_UNTRUSTED) {
			struct strbuf msg = STRBUF_INIT;
			bisect_say_give_up(&b.outlook, b.stop, runs_spent(&b), &msg);
			fputs(msg.buf, stdout);
			strbuf_release(&msg);
		}
		if (r != 0) {
			ret = o->stop && *o->stop ? BISECT_EXIT_INTERRUPTED : r > 0 ? r : EXIT_ERROR;
			goto out;
		}
		recheck_endpoints(&b);
	}
	char **par;
	int np = parents_of(&b, b.result, &par);
	const char *parent = np ? par[0] : NULL;
	/* the parent must have runs for the comparison table */
	if (parent && !samples_of(&b, parent, false)->s.nr)
		measure(&b, WT_STEP, parent, b.p.min_runs > 3 ? b.p.min_runs : 3);
	write_bisect_json(&b, parent);
	if (!o->quiet) {
		print_report(&b);
		printf("bisect state: %s (report: perfbot report --bisect %s)\n", o->state_path,
		       o->state_path);
	}
	ret = b.recheck.moved ? BISECT_EXIT_UNTRUSTED : 0;
	/* a drift ends at a pair that differs by about nothing (decide.h) */
	double step = result_step(&b, parent);
	if (isfinite(step) && isfinite(b.outlook.shift) && !bisect_real_step(step, b.outlook.shift)) {
		printf("no answer: the commit named changes %s by %+.1f%%, under 1/8 of the "
		       "%+.1f%% from good to bad: the change is spread over the range (a drift), "
		       "not one commit's step; the commit named is not to be trusted\n",
		       o->metric, 100 * step, 100 * b.outlook.shift);
		ret = BISECT_EXIT_UNTRUSTED;
	}
	bisect_free_words(par, np);
out:
	if (b.dir.len) {
		struct strbuf path = STRBUF_INIT;
		path_join(&path, b.dir.buf, wt_name[WT_STEP]);
		if (is_dir(path.buf))
			git(&b, path.buf, NULL, "bisect", "reset", NULL, NULL);
		strbuf_release(&path);
	}
	for (int i = 0; i < b.nr_d; i++)
		free(b.d[i].sha);
	free(b.d);
	for (int i = 0; i < b.nr_cs; i++) {
		free(b.cs[i].sha);
		sample_set_release(&b.cs[i].s);
	}
	free(b.cs);
	for (int i = 0; i < 3; i++)
		checkout_release(&b.wt[i]);
#ifndef PERFBOT_NO_LAB
	if (b.lab)
		lab_remote_release(b.lab);
#endif
	free(b.lab);
	free(b.result);
	job_free(b.job);
	strbuf_release(&b.dir);
	bisect_kernel_release(&b.k);
	strbuf_release(&b.why);
	strbuf_release(&b.skips);
	strbuf_release(&b.order);
	return ret;
}
