/*
 * driver.c: the bisect runner (see driver.h for the state and worktrees,
 * decide.h for the protocol it follows): the endpoints, then the search
 * (search.c), then the check at the end and the report; `--reset`.  The
 * runs themselves are measure.c's, the state file and bisect.json
 * state.c's.
 */
#include "bisect/driver.h"
#include "bisect/internal.h"
#include "bisect/decide.h"
#include "bisect/kernel.h"
#include "bisect/log.h"
#include "git/checkout.h"
#include "job/job.h"
#include "lab/remote.h"
#include "pg/url.h"
#include "run/leftovers.h"
#include "run/run.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The endpoints again, fresh runs at the end, against their runs at the
 * start: a machine whose noise moved meanwhile (another job started)
 * made the verdicts in between against references that no longer hold.
 * Within the budget only; the report says what was found.  A bisect
 * that ran nothing (every verdict from runs in the result tree, a
 * watch's or an earlier bisect's) had no "meanwhile": its runs were
 * checked by the bisect that made them, and fresh ones would be the
 * only runs it makes.
 */
static void recheck_endpoints(struct bisect *b)
{
	int n = b->p.ref_min_runs;
	struct commit_samples *g, *bd;

	if (!b->runs_made) {
		if (!b->o->no_progress)
			fprintf(stderr, "perfbot: every run counted was in the result tree already: "
				"the endpoints are not run again\n");
		b->stop = BISECT_GO_ON;
		return;
	}
	if (!b->start_good || !bisect_afford(b, 2 * n) ||
	    bisect_measure_sides(b, (const struct bisect_side[]){ { WT_GOOD, b->o->good, n },
							  { WT_BAD, b->o->bad, n } }, 2, NULL)) {
		b->stop = BISECT_GO_ON;        /* the answer stands, unchecked */
		return;
	}
	g = bisect_samples_of(b, b->o->good, false);
	bd = bisect_samples_of(b, b->o->bad, false);
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
static void endpoint_progress(struct bisect *b, const struct sample_set *g,
			      const struct sample_set *bd, const struct bisect_runs *more)
{
	struct strbuf sb = STRBUF_INIT;

	if (b->o->no_progress)
		return;
	strbuf_addstr(&sb, "perfbot: endpoints: ");
	endpoint_side("good", b->o->good, g, &sb);
	strbuf_addstr(&sb, "; ");
	endpoint_side("bad", b->o->bad, bd, &sb);
	if (more)
		strbuf_addf(&sb, "; measuring %d more of good, %d of bad", more->good, more->bad);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

/*
 * Unregister the worktrees under b->dir from repo (git bisect reset in
 * the step's first, so that no bisect of theirs lingers in the
 * repository's git dir).  Worktrees gone by hand are pruned.
 */
static void remove_worktrees(struct bisect *b, const char *repo)
{
	struct strbuf path = STRBUF_INIT;

	path_join(&path, b->dir.buf, bisect_wt_name[WT_STEP]);
	if (is_dir(path.buf))
		bisect_git(b, path.buf, NULL, "bisect", "reset", NULL, NULL);
	for (int i = 0; repo && i < 3; i++) {
		strbuf_reset(&path);
		path_join(&path, b->dir.buf, bisect_wt_name[i]);
		checkout_remove(repo, path.buf);
	}
	strbuf_release(&path);
}

/* A scratch bisection for the state at path (lo its options), the log
 * read into it unless load is false; -1 when it cannot be read (an error
 * said why). */
static int peek_state(struct bisect *b, struct bisect_opts *lo, const char *path, bool load)
{
	memset(b, 0, sizeof(*b));
	memset(lo, 0, sizeof(*lo));
	b->o = lo;
	strbuf_init(&b->dir, 0);
	strbuf_init(&b->order, 0);
	strbuf_init(&b->skips, 0);
	strbuf_addf(&b->dir, "%s.d", path);
	return load ? bisect_load_log(b, path, lo) : 0;
}

static void peek_release(struct bisect *b, struct bisect_opts *lo)
{
	for (int i = 0; i < b->nr_d; i++)
		bisect_decision_release(&b->d[i]);
	free(b->d);
	free(b->result);
	strbuf_release(&b->dir);
	strbuf_release(&b->order);
	strbuf_release(&b->skips);
	bisect_turns_release(b);
	bisect_opts_release(lo);
}

int bisect_reset(const char *state_path, const char *repo, int verbose)
{
	struct bisect b;
	struct bisect_opts lo;
	bool have_state = file_exists(state_path);
	int ret = 0;

	/* the worktrees are registered in the state's own repository */
	peek_state(&b, &lo, state_path, have_state);
	if (!have_state && !is_dir(b.dir.buf)) {
		fprintf(stderr, "perfbot: no bisect state at %s: nothing to reset\n", state_path);
		peek_release(&b, &lo);
		return 0;
	}
	lo.verbose = verbose;
	remove_worktrees(&b, lo.repo ? lo.repo : repo);
	if (remove_tree(b.dir.buf) < 0)
		ret = EXIT_ERROR;
	else if (have_state && unlink(state_path) < 0)
		ret = error("cannot remove '%s': %s", state_path, strerror(errno)) ? EXIT_ERROR : 0;
	else
		fprintf(stderr, "perfbot: removed the bisect state %s and %s\n", state_path, b.dir.buf);
	peek_release(&b, &lo);
	return ret;
}

/*
 * A new bisect where a state is: say what it is and what to do, as an
 * error (the state is the user's until --reset).
 */
static void say_state_exists(const char *path)
{
	struct bisect b;
	struct bisect_opts lo;
	struct strbuf what = STRBUF_INIT;

	if (peek_state(&b, &lo, path, true) < 0)
		strbuf_addstr(&what, "unreadable");
	else if (b.result)
		strbuf_addf(&what, "finished: first bad commit %s", b.result);
	else
		strbuf_addf(&what, "unfinished: %d verdict%s", b.nr_d, b.nr_d == 1 ? "" : "s");
	error("a bisect state is already at %s (%s); use --resume to %s it or "
	      "--reset to start over", path, what.buf, b.result ? "see" : "continue");
	strbuf_release(&what);
	peek_release(&b, &lo);
}

/* Resolve *rev to sha, keeping the user's name for it ("v1", "main~3")
 * in *name so that the report can say it; a sha or a prefix of it is no
 * name to keep. */
static void keep_name(char **rev, char **name, char *sha)
{
	free(*name);
	*name = strncmp(sha, *rev, strlen(*rev)) ? *rev : NULL;
	if (!*name)
		free(*rev);
	*rev = sha;
}

void bisect_measure_copy(struct bisect_measure *dst, const struct bisect_measure *src)
{
	dst->build = src->build ? xstrdup(src->build) : NULL;
	dst->kernel_tree = src->kernel_tree ? xstrdup(src->kernel_tree) : NULL;
	dst->kconfig = src->kconfig ? xstrdup(src->kconfig) : NULL;
	dst->vm = src->vm;
	dst->command = NULL;
	dst->nr_command = src->nr_command;
	if (src->nr_command) {
		dst->command = xcalloc((size_t)src->nr_command + 1, sizeof(char *));
		for (int i = 0; i < src->nr_command; i++)
			dst->command[i] = xstrdup(src->command[i]);
	}
}

void bisect_measure_release(struct bisect_measure *m)
{
	free(m->build);
	free(m->kernel_tree);
	free(m->kconfig);
	for (int i = 0; i < m->nr_command; i++)
		free(m->command[i]);
	free(m->command);
	memset(m, 0, sizeof(*m));
}

void bisect_opts_release(struct bisect_opts *o)
{
	free(o->repo);
	free(o->good);
	free(o->bad);
	free(o->good_name);
	free(o->bad_name);
	free(o->job_path);
	free(o->metric);
	bisect_measure_release(&o->m);
	free(o->result_base);
	free(o->db);
	free(o->state_path);
	memset(o, 0, sizeof(*o));
}

/*
 * How bisect_run ends: its exit code; over: there is an answer (or
 * nothing to bisect), so no resume needs the worktrees; forget: nor the
 * state, which has no verdict.
 */
struct ending {
	int ret;
	bool over, forget;
};

static void init_bisection(struct bisect *b, struct bisect_opts *o)
{
	memset(b, 0, sizeof(*b));
	b->o = o;
	strbuf_init(&b->dir, 0);
	strbuf_init(&b->order, 0);
	strbuf_init(&b->why, 0);
	strbuf_init(&b->skips, 0);
	strbuf_init(&b->range_buf, 0);
	strbuf_init(&b->said, 0);
}

/*
 * --resume: the options of the log's start line replace o's, but for
 * how this process was asked to run; the verdicts into b.  -1 after an
 * error.
 */
static int resume_opts(struct bisect *b, struct bisect_opts *o)
{
	struct bisect_opts lo;

	memset(&lo, 0, sizeof(lo));
	if (bisect_load_log(b, o->state_path, &lo) < 0) {
		bisect_opts_release(&lo);
		return -1;
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
	if (o->db || !pg_is_url(lo.db)) {
		free(lo.db);
		lo.db = o->db;
		o->db = NULL;
	}
	lo.stop = o->stop;
	o->state_path = NULL;
	bisect_opts_release(o);
	*o = lo;
	return 0;
}

/*
 * What every bisection needs before its first run: nothing left of a
 * perfbot killed with -9, the repository and the job, "<state>.d", and
 * the lab's connection with --db postgresql://.  -1 after an error.
 */
static int open_bisection(struct bisect *b)
{
	struct bisect_opts *o = b->o;

	/* what a perfbot killed with -9 left (a run's mounts, loop devices) */
	if (run_reap_leftovers(NULL) < 0)
		return -1;
	if (bisect_check_repo(b) < 0 || job_load(o->job_path, &b->job) < 0)
		return -1;
	strbuf_addf(&b->dir, "%s.d", o->state_path);
	if (mkdir_p(b->dir.buf, 0755) < 0)
		return -1;
#ifdef PERFBOT_NO_LAB
	if (pg_is_url(o->db))
		return error("this perfbot is built without lab mode (--db %s)", o->db);
#else
	if (pg_is_url(o->db) && o->m.kernel_tree) {
		/* the lab's boxes build the user space they are given, not a
		 * kernel to boot: that flow is a box's own (kexec), not here */
		return error("--kernel-tree runs here, not in the lab: drop --db %s", o->db);
	}
	if (pg_is_url(o->db)) {
		struct strbuf journal = STRBUF_INIT;
		path_join(&journal, b->dir.buf, "lab-jobs");
		b->lab = xcalloc(1, sizeof(*b->lab));
		int r = lab_remote_open(b->lab, o->db, journal.buf);
		b->lab->verbose = o->verbose;
		strbuf_release(&journal);
		if (r < 0)
			return -1;
	}
#endif
	return 0;
}

/*
 * A new bisection: refused where a state is; the endpoints resolved to
 * full shas, so that the log means the same later, and the log's start
 * line written.  -1 after an error.
 */
static int start_log(struct bisect *b)
{
	struct bisect_opts *o = b->o;
	struct strbuf line = STRBUF_INIT;
	char *sha;
	int r;

	if (file_exists(o->state_path)) {
		say_state_exists(o->state_path);
		return -1;
	}
	if (bisect_rev_parse(b, o->good, &sha) < 0)
		return -1;
	keep_name(&o->good, &o->good_name, sha);
	if (bisect_rev_parse(b, o->bad, &sha) < 0)
		return -1;
	keep_name(&o->bad, &o->bad_name, sha);
	strbuf_addstr(&line, "# perfbot bisect log: replayed by `perfbot bisect --resume`\n");
	bisect_start_line(o, &line);
	r = write_file_atomic(o->state_path, line.buf, line.len);
	strbuf_release(&line);
	return r < 0 ? -1 : 0;
}

/*
 * The kernel each step boots (--kernel-tree), the range, and the
 * protocol's parameters from its size and the options.  -1 after an
 * error.
 */
static int set_params(struct bisect *b)
{
	struct bisect_opts *o = b->o;

	/* a kernel bisect files its runs under the VM and the config: the
	 * job gets those keys before any result is looked up */
	if (o->m.kernel_tree) {
		bisect_kernel_setup(&b->k, &o->m, o->verbose, o->stop);
		if (bisect_kernel_init(&b->k, b->job, o->bad, &b->why) < 0)
			return -1;
	}
	bisect_params_init(&b->p, bisect_count_commits(b));
	bisect_load_range(b);
	if (o->runs > 0)
		b->p.min_runs = o->runs;
	if (o->max_runs > 0)
		b->p.max_runs = o->max_runs < b->p.min_runs ? b->p.min_runs : o->max_runs;
	if (o->max_total_runs > 0)
		b->p.max_total_runs = o->max_total_runs;
	if (o->alpha > 0) {
		/* --alpha is the search's budget per bisection (default 0.09) */
		double verdicts = log2(bisect_count_commits(b) > 2 ? bisect_count_commits(b) : 2);
		b->p.confirm_alpha = b->p.confirm_alpha / b->p.alpha * (o->alpha / verdicts);
		b->p.alpha = o->alpha / verdicts;
	}
	return 0;
}

/* The endpoints' mean machine.* figures (NaN: not recorded), for
 * bisect_say_machine. */
static void endpoints_machine(struct bisect *b, double *other_cpu, double *steal)
{
	*other_cpu = (bisect_stat_mean(b, b->o->good, "machine.other_cpu_percent") +
		      bisect_stat_mean(b, b->o->bad, "machine.other_cpu_percent")) / 2;
	*steal = (bisect_stat_mean(b, b->o->good, "machine.steal_percent") +
		  bisect_stat_mean(b, b->o->bad, "machine.steal_percent")) / 2;
}

/*
 * Step 1 (decide.h): the endpoints measured until they suffice; a
 * --metric their runs lack ends the bisection at once, and a new one
 * leaves nothing behind.  0 to go on, -1 when it ends (e says how).
 */
static int measure_endpoints(struct bisect *b, bool resume, struct ending *e)
{
	struct bisect_opts *o = b->o;

	if (bisect_check_metric(b, "good", o->good) < 0 || bisect_check_metric(b, "bad", o->bad) < 0) {
		e->ret = EXIT_USAGE;
		e->over = true;
		e->forget = !resume;
		return -1;
	}
	/* resumed after the endpoints were judged: their level is in the
	 * log, and the runs since are the turns' (check_endpoints) */
	if (b->logged_good)
		return 0;
	for (;;) {
		struct bisect_runs more;
		struct commit_samples *g = bisect_samples_of(b, o->good, false), *bd = bisect_samples_of(b, o->bad, false);
		if (!bisect_runs_wanted(NULL, &g->s, &bd->s, NULL, NULL, NULL, &b->p, &more))
			return 0;
		endpoint_progress(b, &g->s, &bd->s, &more);
		/* the first run alone, so that a wrong --metric costs one; then
		 * in turns (bad first after it), so that load that comes and
		 * goes lands on both */
		int first = !b->metric_checked && more.good > 0;
		int r = first ? bisect_measure(b, WT_GOOD, o->good, 1) : 0;
		const struct bisect_side sides[] = { { WT_GOOD, o->good, more.good - first },
						     { WT_BAD, o->bad, more.bad } };
		if (r == 0)
			r = bisect_measure_sides(b, first ? (const struct bisect_side[]){ sides[1], sides[0] } : sides,
						 2, NULL);
		if (r == BISECT_MEASURE_NO_METRIC) {
			e->ret = EXIT_USAGE;
			e->over = true;
			e->forget = !resume;
			return -1;
		}
		if (r) {
			if (r == 1)
				error("an endpoint could not be built or measured: nothing can be bisected");
			e->ret = o->stop && *o->stop ? BISECT_EXIT_INTERRUPTED : EXIT_ERROR;
			return -1;
		}
	}
}

/*
 * The endpoints differ, or there is nothing to bisect (an answer, said
 * on stdout); say what their noise means for the runs to come, and start
 * the plot with them.  0 to go on, -1 when it ends (e says how).
 */
static int check_endpoints(struct bisect *b, struct ending *e)
{
	struct bisect_opts *o = b->o;
	struct bisect_endpoints ep;
	const struct sample_set *gs = &bisect_samples_of(b, o->good, false)->s;
	const struct sample_set *bs = &bisect_samples_of(b, o->bad, false)->s;
	/*
	 * The endpoints' level is the runs they had when judged here; later
	 * runs are the paired turns' and the recheck's.  A resumed bisection
	 * takes the count from the log's "endpoints" line, so that it judges
	 * every run as the bisection before the crash did.
	 */
	struct sample_set g = { gs->v, gs->nr, 0 }, bd = { bs->v, bs->nr, 0 };
	if (b->logged_good) {
		if (g.nr < b->logged_good || bd.nr < b->logged_bad) {
			error("%s: the log says the endpoints had %d and %d runs; the result "
			      "tree has %d and %d: were runs removed?", o->state_path,
			      b->logged_good, b->logged_bad, g.nr, bd.nr);
			return -1;
		}
		g.nr = b->logged_good;
		bd.nr = b->logged_bad;
	}

	endpoint_progress(b, &g, &bd, NULL);
	if (!bisect_check_endpoints(&g, &bd, &b->p, &ep)) {
		/* "nothing" only when the noise could have shown the change */
		double mdc = bisect_min_detectable(&g, &bd, b->p.alpha);
		double looked_for = b->p.min_shift > BISECT_CHANGE_LOOKED_FOR ? b->p.min_shift :
				    BISECT_CHANGE_LOOKED_FOR;
		if (!(mdc <= looked_for)) {
			struct strbuf msg = STRBUF_INIT;
			int runs = g.nr < bd.nr ? g.nr : bd.nr;
			double other, steal;
			endpoints_machine(b, &other, &steal);
			bisect_say_hidden(o->metric, ep.rel_shift, ep.p, bisect_noise(&g, &bd),
					  runs, mdc, looked_for, other, steal, &msg);
			fputs(msg.buf, stdout);
			strbuf_release(&msg);
			e->ret = BISECT_EXIT_UNTRUSTED;
			e->over = true;
			return -1;
		}
		if (!o->quiet)
			printf("nothing to bisect: %s is %g on %.12s and %g on %.12s (%+.1f%%, means of "
			       "their runs, p = %.2g)\n",
		       o->metric, ep.good_mean, o->good, ep.bad_mean, o->bad, 100 * ep.rel_shift, ep.p);
		e->ret = BISECT_EXIT_NOTHING;
		e->over = true;
		return -1;
	}
	if (o->verbose)
		fprintf(stderr, "perfbot: %s: %g -> %g (%+.1f%%, means of the endpoints' runs, "
			"p = %.2g): bisecting\n", o->metric,
			ep.good_mean, ep.bad_mean, 100 * ep.rel_shift, ep.p);
	/* paired runs (decide.h), unless the noise is a deterministic
	 * guest's, which the machine's load does not move */
	struct sample_set none = SAMPLE_SET_INIT;
	b->p.paired = !(bisect_noise(&g, &none) <= BISECT_NOISE_FLOOR &&
			bisect_noise(&bd, &none) <= BISECT_NOISE_FLOOR);
	if (b->p.paired && o->max_total_runs <= 0)
		b->p.max_total_runs = bisect_paired_budget(bisect_count_commits(b));
	/* say at the start what this noise means for the runs to come */
	bisect_outlook_init(&b->outlook, &g, &bd, &b->p, bisect_count_commits(b));
	b->start_good = g.nr;
	b->start_bad = bd.nr;
	if (!b->logged_good && bisect_record_endpoints(b) < 0)
		return -1;
	{
		struct strbuf line = STRBUF_INIT;
		strbuf_addstr(&line, "perfbot: ");
		bisect_say_outlook(&b->outlook, o->metric, &line);
		fputs(line.buf, stderr);
		strbuf_release(&line);
	}
	/* the plot starts with the endpoints, as lkp's does */
	struct strbuf head = STRBUF_INIT;
	strbuf_addf(&head, "%s good-endpoint -1 -1\n%s bad-endpoint -1 -1\n", o->good, o->bad);
	{
		struct strbuf merged = STRBUF_INIT;
		strbuf_addstr(&merged, head.buf);
		strbuf_addstr(&merged, b->order.buf);
		strbuf_release(&b->order);
		b->order = merged;
	}
	strbuf_release(&head);
	return 0;
}

/*
 * Steps 2 and 3 (decide.h), unless the log holds the answer: the search
 * and its confirmations (search.c), then the endpoints again.  0 with an
 * answer, -1 when it ends without one (e says how).
 */
static int search_and_recheck(struct bisect *b, struct ending *e)
{
	struct bisect_opts *o = b->o;
	int r;

	if (b->result)
		return 0;
	r = bisect_search(b);
	if (r == BISECT_EXIT_UNTRUSTED) {
		struct strbuf msg = STRBUF_INIT;
		double other, steal;
		bisect_say_give_up(&b->outlook, b->stop, bisect_runs_spent(b), &msg);
		endpoints_machine(b, &other, &steal);
		bisect_say_machine(other, steal, &msg);
		fputs(msg.buf, stdout);
		strbuf_release(&msg);
	}
	if (r != 0) {
		e->ret = o->stop && *o->stop ? BISECT_EXIT_INTERRUPTED : r > 0 ? r : EXIT_ERROR;
		return -1;
	}
	recheck_endpoints(b);
	return 0;
}

/*
 * The answer: its parent measured for the comparison table, bisect.json
 * and the report written; untrusted when the endpoints' noise moved or
 * when a drift explains the step it names.
 */
static void finish(struct bisect *b, struct ending *e)
{
	struct bisect_opts *o = b->o;
	char **par;
	int np = bisect_parents_of(b, b->result, &par);
	const char *parent = np ? par[0] : NULL;

	/* the parent must have runs for the comparison table */
	if (parent && !bisect_samples_of(b, parent, false)->s.nr)
		bisect_measure(b, WT_STEP, parent, b->p.min_runs > 3 ? b->p.min_runs : 3);
	bisect_write_json(b, parent);
	if (!o->quiet) {
		bisect_print_report(b);
		printf("bisect state: %s (report: perfbot report --bisect %s)\n", o->state_path,
		       o->state_path);
	}
	e->ret = b->recheck.moved ? BISECT_EXIT_UNTRUSTED : 0;
	/* a drift ends at a pair that differs by about nothing (decide.h) */
	double step = bisect_result_step(b, parent);
	if (isfinite(step) && isfinite(b->outlook.shift) && !bisect_real_step(step, b->outlook.shift) &&
	    !bisect_result_stands_out(b, parent)) {
		printf("no answer: the commit named changes %s by %+.1f%%, under 1/8 of the "
		       "%+.1f%% from good to bad, and no more than the range's trend explains: "
		       "the change is spread over the range (a drift), not one commit's step; "
		       "the commit named is not to be trusted\n",
		       o->metric, 100 * step, 100 * b->outlook.shift);
		e->ret = BISECT_EXIT_UNTRUSTED;
	}
	bisect_free_words(par, np);
	e->over = true;
}

/* The worktrees and the state as e leaves them, and b released. */
static void close_bisection(struct bisect *b, const struct ending *e)
{
	/* an answer needs no worktree (report --bisect reads the state and
	 * the log; --resume makes them again): unregister them from the
	 * user's repository.  An interrupted one keeps them. */
	if (b->dir.len)
		remove_worktrees(b, e->over ? b->o->repo : NULL);
	/* a wrong --metric at the start leaves nothing to resume */
	if (e->forget) {
		remove_tree(b->dir.buf);
		unlink(b->o->state_path);
	}
	for (int i = 0; i < b->nr_d; i++)
		bisect_decision_release(&b->d[i]);
	free(b->d);
	for (int i = 0; i < b->nr_cs; i++) {
		free(b->cs[i].sha);
		sample_set_release(&b->cs[i].s);
	}
	free(b->cs);
	for (int i = 0; i < 3; i++)
		checkout_release(&b->wt[i]);
#ifndef PERFBOT_NO_LAB
	if (b->lab)
		lab_remote_release(b->lab);
#endif
	free(b->lab);
	free(b->result);
	job_free(b->job);
	strbuf_release(&b->dir);
	strbuf_release(&b->said);
	bisect_kernel_release(&b->k);
	strbuf_release(&b->why);
	strbuf_release(&b->skips);
	bisect_turns_release(b);
	strbuf_release(&b->order);
	free(b->range);
	strbuf_release(&b->range_buf);
}

/*
 * The phases of a bisection, each ending it when it must: the options
 * (from the log with --resume), the repository, job and lab, the log's
 * start line (new ones), the parameters; then decide.h's steps: the
 * endpoints, the search and its confirmations, the answer.
 */
int bisect_run(struct bisect_opts *o, bool resume)
{
	struct bisect b;
	struct ending e = { EXIT_ERROR, false, false };

	init_bisection(&b, o);
	if (resume && resume_opts(&b, o) < 0)
		goto out;
	if (open_bisection(&b) < 0)
		goto out;
	if (!resume && start_log(&b) < 0)
		goto out;
	if (set_params(&b) < 0)
		goto out;
	if (measure_endpoints(&b, resume, &e) < 0 || check_endpoints(&b, &e) < 0)
		goto out;
	if (search_and_recheck(&b, &e) < 0)
		goto out;
	finish(&b, &e);
out:
	close_bisection(&b, &e);
	return e.ret;
}
