/*
 * driver.c: the bisect runner (see driver.h for the state and worktrees,
 * decide.h for the protocol it follows): the endpoints, the search and
 * its confirmations through git bisect, the check at the end.  The runs
 * themselves are measure.c's, the state file and bisect.json state.c's.
 */
#include "bisect/driver.h"
#include "bisect/internal.h"
#include "bisect/advice.h"
#include "bisect/decide.h"
#include "bisect/kernel.h"
#include "bisect/log.h"
#include "git/checkout.h"
#include "job/job.h"
#include "lab/queue.h"
#include "lab/remote.h"
#include "report/report.h"
#include "result/matrix.h"
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

struct decision *bisect_find_decision(struct bisect *b, const char *sha)
{
	for (int i = b->nr_d - 1; i >= 0; i--)
		if (!strcmp(b->d[i].sha, sha))
			return &b->d[i];
	return NULL;
}

struct decision *bisect_add_decision(struct bisect *b, const char *sha)
{
	struct decision *d = bisect_find_decision(b, sha);
	if (d)
		return d;
	ALLOC_GROW(b->d, (size_t)b->nr_d + 1, b->alloc_d);
	d = &b->d[b->nr_d++];
	memset(d, 0, sizeof(*d));
	d->sha = xstrdup(sha);
	return d;
}

/*
 * The runs decision d counted (its [from, used) that the result tree
 * has), pointing into its commit's samples, into *out; false when d is
 * skipped, is except's (NULL: none) or counted none.
 */
static bool decision_runs(struct bisect *b, const struct decision *d, const char *except,
			  struct sample_set *out)
{
	struct commit_samples *c;
	int end;

	if (d->v == BISECT_UNKNOWN || (except && !strcmp(d->sha, except)))
		return false;
	c = bisect_samples_of(b, d->sha, false);
	end = d->used < c->s.nr ? d->used : c->s.nr;
	*out = (struct sample_set){ c->s.v + d->from, end > d->from ? end - d->from : 0, 0 };
	return out->nr > 0;
}

/* The pooled sides: endpoints plus every decided commit (see decide.h). */
static void pools(struct bisect *b, struct sample_set *good, struct sample_set *bad, const char *except)
{
	sample_set_append(good, &bisect_samples_of(b, b->o->good, false)->s);
	sample_set_append(bad, &bisect_samples_of(b, b->o->bad, false)->s);
	for (int i = 0; i < b->nr_d; i++) {
		struct sample_set part;

		if (decision_runs(b, &b->d[i], except, &part))
			sample_set_append(b->d[i].v == BISECT_GOOD ? good : bad, &part);
	}
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
	struct commit_samples *g = bisect_samples_of(b, b->o->good, false);
	struct commit_samples *bd = bisect_samples_of(b, b->o->bad, false);

	*lo = (struct sample_set){ g->s.v, g->s.nr, 0 };
	*hi = (struct sample_set){ bd->s.v, bd->s.nr, 0 };
	for (int i = 0; i < b->nr_d; i++) {
		struct sample_set part;

		if (decision_runs(b, &b->d[i], except, &part))
			*(b->d[i].v == BISECT_GOOD ? lo : hi) = part;
	}
}

/*
 * The range's commits oldest first, for the positions of the trend model
 * (decide.h's bisect_trend): good is 0, range[i] is i + 1, bad the last.
 * --topo-order keeps a merged branch's commits together.  Without them
 * (git failed) the verdicts go without a trend.
 */
static void load_range(struct bisect *b)
{
	struct strbuf spec = STRBUF_INIT;
	size_t alloc = 0;

	strbuf_addf(&spec, "%s..%s", b->o->good, b->o->bad);
	if (bisect_git(b, b->o->repo, &b->range_buf, "rev-list", "--reverse", "--topo-order",
		       spec.buf, NULL) != 0)
		strbuf_reset(&b->range_buf);
	strbuf_release(&spec);
	for (char *l = b->range_buf.buf; *l;) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		ALLOC_GROW(b->range, (size_t)b->nr_range + 1, alloc);
		b->range[b->nr_range++] = l;
		if (!nl)
			break;
		l = nl + 1;
	}
}

/* sha's position (load_range), or -1 outside the range. */
static double position_of(struct bisect *b, const char *sha)
{
	if (!strcmp(sha, b->o->good))
		return 0;
	if (!strcmp(sha, b->o->bad))
		return b->nr_range;
	for (int i = 0; i < b->nr_range; i++)
		if (!strcmp(b->range[i], sha))
			return i + 1;
	return -1;
}

/* d's position, looked up once (the range is fixed for the bisection). */
static double decision_position(struct bisect *b, struct decision *d)
{
	if (!d->placed) {
		d->x = position_of(b, d->sha);
		d->placed = true;
	}
	return d->x;
}

/*
 * Where the tested commits lie and their runs, the endpoints included
 * and except's verdict left out (NULL: none), into *tr for the step at
 * sha; pt and runs must have room for b->nr_d + 2.  False without
 * positions.
 */
static bool positions(struct bisect *b, const char *sha, const char *except,
		      struct bisect_point *pt, struct sample_set *runs, struct bisect_trend *tr)
{
	const char *end[2] = { b->o->good, b->o->bad };

	tr->pt = pt;
	tr->nr = 0;
	tr->x = sha ? position_of(b, sha) : 0;
	if (!b->nr_range || tr->x < 0)
		return false;
	for (int e = 0; e < 2; e++) {
		runs[tr->nr] = bisect_samples_of(b, end[e], false)->s;
		runs[tr->nr].alloc = 0;
		pt[tr->nr] = (struct bisect_point){ position_of(b, end[e]),
						    e ? BISECT_BAD : BISECT_GOOD, &runs[tr->nr] };
		tr->nr++;
	}
	for (int i = 0; i < b->nr_d; i++) {
		struct decision *d = &b->d[i];

		if (!decision_runs(b, d, except, &runs[tr->nr]) || decision_position(b, d) <= 0)
			continue;
		pt[tr->nr] = (struct bisect_point){ d->x, d->v, &runs[tr->nr] };
		tr->nr++;
	}
	return true;
}

#define DECIDE_GAVE_UP (-2)

/*
 * Measure sha until a verdict under p, using runs from index `from` on;
 * old is the verdict a confirmation re-measures (bisect_confirm_verdict),
 * BISECT_UNKNOWN in the search.
 * Returns the verdict (UNKNOWN = skip) with *used the runs counted, -1,
 * or DECIDE_GAVE_UP when the budget or convergence ends the search.
 */
static int decide(struct bisect *b, const char *sha, const struct bisect_params *p, int from,
		  enum bisect_verdict old, int *used)
{
	/* room for positions(): the decisions do not change while sha is measured */
	struct bisect_point *pt = xcalloc((size_t)b->nr_d + 2, sizeof(*pt));
	struct sample_set *runs = xcalloc((size_t)b->nr_d + 2, sizeof(*runs));
	int ret;

	for (;;) {
		struct sample_set good = SAMPLE_SET_INIT, bad = SAMPLE_SET_INIT, lo, hi;
		struct commit_samples *c = bisect_samples_of(b, sha, false);
		struct sample_set step = { c->s.v + from, c->s.nr > from ? c->s.nr - from : 0, 0 };
		struct bisect_runs more;
		struct bisect_trend trend, *tr = &trend;
		pools(b, &good, &bad, sha);
		neighbours(b, sha, &lo, &hi);
		if (!positions(b, sha, sha, pt, runs, &trend))
			tr = NULL;
		int want = bisect_runs_wanted(&step, &good, &bad, &lo, &hi, tr, p, &more);
		enum bisect_verdict v = want ? BISECT_UNKNOWN : old != BISECT_UNKNOWN ?
			bisect_confirm_verdict(old, &step, &good, &bad, &lo, &hi, tr, p) :
			bisect_classify(&step, &good, &bad, &lo, &hi, tr, p);
		/* each verdict as it is made, as git bisect says each step */
		if (!b->o->no_progress && !want) {
			struct strbuf subject = STRBUF_INIT;
			bisect_subject_of(b, sha, &subject);
			fprintf(stderr, "perfbot: %s%.12s (\"%s\"): %s after %d run%s (mean %g; good %g, bad %g)\n",
				b->confirming ? "confirming " : "", sha, subject.buf, bisect_verdict_name(v), step.nr, step.nr == 1 ? "" : "s",
				step.nr ? mean(step.v, step.nr) : NAN, mean(good.v, good.nr),
				mean(bad.v, bad.nr));
			strbuf_release(&subject);
		}
		sample_set_release(&good);
		sample_set_release(&bad);
		if (!want) {
			*used = c->s.nr;
			ret = v;
			break;
		}
		if (!afford(b, want)) {
			ret = DECIDE_GAVE_UP;
			break;
		}
		int r = bisect_measure(b, WT_STEP, sha, more.step);
		if (r == 1) {
			*used = c->s.nr;
			ret = BISECT_UNKNOWN;   /* build failed: skip, like exit 125 */
			break;
		}
		if (r < 0 || bisect_measure(b, WT_GOOD, b->o->good, more.good) < 0 ||
		    bisect_measure(b, WT_BAD, b->o->bad, more.bad) < 0) {
			ret = -1;
			break;
		}
	}
	free(pt);
	free(runs);
	return ret;
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
	path_join(&path, b->dir.buf, bisect_wt_name[WT_STEP]);
	if (bisect_git(b, path.buf, &head, "rev-parse", "HEAD", NULL, NULL) != 0) {
		strbuf_release(&head);
		strbuf_release(&path);
		return GIT_ERROR;
	}
	strbuf_rtrim(&head);
	*sha = strbuf_detach(&head, NULL);
	strbuf_release(&path);
	return GIT_NEXT;
}

/*
 * The order to replay the verdicts to git in, as indices of b->d: the log's,
 * except that the bad ones come last, the latest in the range last of
 * all.  git bisect keeps one bad commit, the last one it was told, so a
 * confirmation that found an early commit bad (a descendant was judged
 * bad before it) would otherwise be forgotten, and git would propose the
 * commit again.
 */
static void replay_order(struct bisect *b, int *order)
{
	int n = 0;

	for (int i = 0; i < b->nr_d; i++)
		if (b->d[i].v != BISECT_BAD)
			order[n++] = i;
	for (int first = n, i = 0; i < b->nr_d; i++) {
		int k;

		if (b->d[i].v != BISECT_BAD)
			continue;
		/* insertion by position, descending, stable: without positions
		 * (all -1) the log's order */
		for (k = n; k > first &&
		     decision_position(b, &b->d[order[k - 1]]) < decision_position(b, &b->d[i]); k--)
			order[k] = order[k - 1];
		order[k] = i;
		n++;
	}
}

/* (Re)start git bisect in the step worktree from the verdicts so far. */
static enum git_state git_replay(struct bisect *b, char **sha, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	enum git_state st = GIT_ERROR;
	int *order = NULL;

	path_join(&path, b->dir.buf, bisect_wt_name[WT_STEP]);
	if (bisect_prepare(b, WT_STEP, b->o->bad) < 0)
		goto out;
	bisect_git(b, path.buf, NULL, "bisect", "reset", NULL, NULL);
	strbuf_reset(out);
	if (bisect_git(b, path.buf, out, "bisect", "start", b->o->bad, b->o->good, NULL) != 0) {
		error("git bisect start failed: %s", out->buf);
		goto out;
	}
	order = xmalloc(sizeof(*order) * (size_t)(b->nr_d ? b->nr_d : 1));
	replay_order(b, order);
	for (int k = 0; k < b->nr_d; k++) {
		const struct decision *d = &b->d[order[k]];

		strbuf_reset(out);
		if (bisect_git(b, path.buf, out, "bisect", bisect_verdict_name(d->v), d->sha, NULL) != 0 &&
		    !strstr(out->buf, "is the first bad commit")) {
			error("git bisect %s %s failed: %s", bisect_verdict_name(d->v), d->sha, out->buf);
			goto out;
		}
	}
	st = parse_git(b, out->buf, sha);
	/* git checked out the next step: it is not built yet */
	checkout_forget(&b->wt[WT_STEP]);
out:
	free(order);
	strbuf_release(&path);
	return st;
}

/* ---- main loop ----------------------------------------------------------- */

/* Parents of sha, as shas. */
static int parents_of(struct bisect *b, const char *sha, char ***out)
{
	struct strbuf s = STRBUF_INIT, spec = STRBUF_INIT;
	char **w;
	int n;

	strbuf_addf(&spec, "%s^@", sha);
	bisect_git(b, b->o->repo, &s, "rev-parse", spec.buf, NULL, NULL);
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

/* A candidate for confirmation, once: the commits of a final pair. */
static void add_candidate(struct bisect *b, char ***cand, int *nc, size_t *alloc,
			  const char *sha, bool want_good)
{
	struct decision *d = bisect_find_decision(b, sha);

	if (!d || d->v != (want_good ? BISECT_GOOD : BISECT_BAD) ||
	    !strcmp(sha, want_good ? b->o->good : b->o->bad))
		return;
	for (int i = 0; i < *nc; i++)
		if (!strcmp((*cand)[i], sha))
			return;
	ALLOC_GROW(*cand, (size_t)*nc + 1, *alloc);
	(*cand)[(*nc)++] = xstrdup(sha);
}

/*
 * The final pair of decide.h's step 3 from what git said: the commits
 * listed one a line (the first bad one; with only skipped commits left,
 * git's list of those and the first bad) that were judged bad, then
 * their parents judged good.
 * Endpoints need no confirmation.  Returns how many, in *cand.
 */
static int final_pair(struct bisect *b, const char *listed, char ***cand)
{
	char **w = NULL;
	int nw = 0, nc = 0;
	size_t alloc = 0, wa = 0;

	*cand = NULL;
	for (const char *l = listed; *l; ) {
		size_t n = strcspn(l, "\n"), h = strspn(l, "0123456789abcdef");

		if ((h == 40 || h == 64) && n == h) {
			ALLOC_GROW(w, (size_t)nw + 1, wa);
			w[nw++] = xstrndup(l, n);
		}
		l += n + (l[n] == '\n');
	}
	for (int i = 0; i < nw; i++)
		add_candidate(b, cand, &nc, &alloc, w[i], false);
	for (int i = 0; i < nw; i++) {
		char **par;
		int np = parents_of(b, w[i], &par);

		for (int k = 0; k < np; k++)
			add_candidate(b, cand, &nc, &alloc, par[k], true);
		bisect_free_words(par, np);
	}
	for (int i = 0; i < nw; i++)
		free(w[i]);
	free(w);
	return nc;
}

/*
 * Confirm the final pair that git's output names (decide.h, step 3), one
 * commit at a time: 1 when a verdict was reversed (git bisect must be
 * replayed and the search go on), 0 when every one stands, < 0 when it
 * cannot go on (*ret says how it ends).
 */
static int confirm_final_pair(struct bisect *b, const char *listed, int *ret)
{
	struct bisect_params cp = bisect_confirm_params(&b->p);
	char **cand;
	int nc = final_pair(b, listed, &cand), rc = 0;

	for (int i = 0; i < nc && !rc; i++) {
		struct decision *d = bisect_find_decision(b, cand[i]);
		int used, from = d->used, v;
		enum bisect_verdict old = d->v;

		if (d->confirmed)
			continue;
		d->from = from;
		d->v = BISECT_UNKNOWN;   /* out of its pool while re-measured */
		strbuf_reset(&b->why);
		b->confirming = true;
		v = decide(b, cand[i], &cp, from, old, &used);
		b->confirming = false;
		if (v < 0) {
			d->v = old;
			d->from = 0;
			if (v == DECIDE_GAVE_UP)
				*ret = BISECT_EXIT_UNTRUSTED;
			rc = -1;
			break;
		}
		d->v = (enum bisect_verdict)v;
		d->used = used;
		/* reversed: the next confirmation decides (decide.h) */
		d->confirmed = d->v == old;
		bisect_note_order(b, cand[i], bisect_verdict_name(d->v), from, used);
		if (bisect_record(b, "confirm", cand[i], d->v, used) < 0 ||
		    (d->v == BISECT_UNKNOWN && bisect_note_skip(b, cand[i], used) < 0)) {
			rc = -1;
			break;
		}
		if (d->v != old) {
			if (b->o->verbose)
				fprintf(stderr, "perfbot: confirming %.12s: re-measured %s, not %s\n", cand[i],
					bisect_verdict_name(d->v), bisect_verdict_name(old));
			rc = 1;
		}
	}
	for (int i = 0; i < nc; i++)
		free(cand[i]);
	free(cand);
	return rc;
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
		if (st == GIT_AMBIGUOUS || st == GIT_FOUND) {
			/*
			 * The final pair is confirmed before either answer:
			 * with only skipped commits left, a wrong verdict
			 * ends at their edge as it would at the first bad
			 * commit's.
			 */
			struct strbuf listed = STRBUF_INIT;
			int c;

			if (st == GIT_FOUND)
				strbuf_addf(&listed, "%s\n", sha);
			c = confirm_final_pair(b, st == GIT_FOUND ? listed.buf : out.buf, &ret);
			strbuf_release(&listed);

			if (c < 0)
				goto out;
			if (c > 0) {
				free(sha);
				st = git_replay(b, &sha, &out);
				continue;
			}
		}
		if (st == GIT_AMBIGUOUS) {
			if (!b->o->quiet)
				printf("only skipped commits are left; the first bad commit is one of:\n%s",
				       out.buf);
			ret = BISECT_EXIT_AMBIGUOUS;
			goto out;
		}
		if (st == GIT_FOUND) {
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
		int v = decide(b, sha, &b->p, 0, BISECT_UNKNOWN, &used);
		if (v < 0) {
			if (v == DECIDE_GAVE_UP)
				ret = BISECT_EXIT_UNTRUSTED;
			goto out;
		}
		struct decision *d = bisect_add_decision(b, sha);
		d->v = (enum bisect_verdict)v;
		d->used = used;
		d->from = 0;
		bisect_note_order(b, sha, bisect_verdict_name(d->v), 0, used);
		if (bisect_record(b, "verdict", sha, d->v, used) < 0 ||
		    (d->v == BISECT_UNKNOWN && bisect_note_skip(b, sha, used) < 0))
			goto out;
		struct strbuf path = STRBUF_INIT;
		path_join(&path, b->dir.buf, bisect_wt_name[WT_STEP]);
		strbuf_reset(&out);
		bisect_git(b, path.buf, &out, "bisect", bisect_verdict_name(d->v), sha, NULL);
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
	bisect_git(b, b->o->repo, &out, "rev-list", "--count", range.buf, NULL);
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
	    bisect_measure(b, WT_GOOD, b->o->good, n) || bisect_measure(b, WT_BAD, b->o->bad, n)) {
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

/* The first bad commit's step stands out of the range's trend
 * (bisect_step_stands_out), against its parent. */
static bool result_stands_out(struct bisect *b, const char *parent)
{
	struct bisect_point *pt = xcalloc((size_t)b->nr_d + 2, sizeof(*pt));
	struct sample_set *runs = xcalloc((size_t)b->nr_d + 2, sizeof(*runs));
	struct bisect_trend all;
	bool out = false;

	if (parent && b->result && positions(b, NULL, NULL, pt, runs, &all))
		out = bisect_step_stands_out(&all, &bisect_samples_of(b, parent, false)->s,
					     &bisect_samples_of(b, b->result, false)->s);
	free(pt);
	free(runs);
	return out;
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
		free(b->d[i].sha);
	free(b->d);
	free(b->result);
	strbuf_release(&b->dir);
	strbuf_release(&b->order);
	strbuf_release(&b->skips);
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

int bisect_run(struct bisect_opts *o, bool resume)
{
	struct bisect b;
	int ret = EXIT_ERROR;
	bool over = false;              /* an answer: no resume needs the worktrees */
	bool forget = false;            /* nor the state: it has no verdict */
	char *sha;

	memset(&b, 0, sizeof(b));
	b.o = o;
	strbuf_init(&b.dir, 0);
	strbuf_init(&b.order, 0);
	strbuf_init(&b.why, 0);
	strbuf_init(&b.skips, 0);
	strbuf_init(&b.range_buf, 0);
	strbuf_init(&b.said, 0);
	if (resume) {
		struct bisect_opts lo;
		memset(&lo, 0, sizeof(lo));
		if (bisect_load_log(&b, o->state_path, &lo) < 0) {
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
	if (bisect_check_repo(&b) < 0 || job_load(o->job_path, &b.job) < 0)
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
			say_state_exists(o->state_path);
			goto out;
		}
		/* record full shas, so that the log means the same later */
		if (bisect_rev_parse(&b, o->good, &sha) < 0)
			goto out;
		keep_name(&o->good, &o->good_name, sha);
		if (bisect_rev_parse(&b, o->bad, &sha) < 0)
			goto out;
		keep_name(&o->bad, &o->bad_name, sha);
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
		b.k.vm_opts = o->vm;
		b.k.verbose = o->verbose;
		b.k.stop = o->stop;
		b.k.command = o->nr_command ? o->command : NULL;
		if (bisect_kernel_init(&b.k, b.job, o->bad, &b.why) < 0)
			goto out;
	}
	bisect_params_init(&b.p, count_commits(&b));
	load_range(&b);
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

	/* 1. endpoints; a --metric their stored runs lack fails at once */
	if (bisect_check_metric(&b, "good", o->good) < 0 || bisect_check_metric(&b, "bad", o->bad) < 0) {
		ret = EXIT_USAGE;
		over = true;
		forget = !resume;
		goto out;
	}
	for (;;) {
		struct bisect_runs more;
		struct commit_samples *g = bisect_samples_of(&b, o->good, false), *bd = bisect_samples_of(&b, o->bad, false);
		if (!bisect_runs_wanted(NULL, &g->s, &bd->s, NULL, NULL, NULL, &b.p, &more))
			break;
		endpoint_progress(&b, g, bd, &more);
		/* the first run alone, so that a wrong --metric costs one */
		int first = b.metric_checked || more.good < 2 ? more.good : 1;
		int r = bisect_measure(&b, WT_GOOD, o->good, first);
		if (r == 0)
			r = bisect_measure(&b, WT_GOOD, o->good, more.good - first);
		if (r == 0)
			r = bisect_measure(&b, WT_BAD, o->bad, more.bad);
		if (r == BISECT_MEASURE_NO_METRIC) {
			ret = EXIT_USAGE;
			over = true;
			forget = !resume;
			goto out;
		}
		if (r) {
			if (r == 1)
				error("an endpoint could not be built or measured: nothing can be bisected");
			ret = o->stop && *o->stop ? BISECT_EXIT_INTERRUPTED : EXIT_ERROR;
			goto out;
		}
	}
	struct bisect_endpoints ep;
	struct commit_samples *g = bisect_samples_of(&b, o->good, false), *bd = bisect_samples_of(&b, o->bad, false);
	endpoint_progress(&b, g, bd, NULL);
	if (!bisect_check_endpoints(&g->s, &bd->s, &b.p, &ep)) {
		if (!o->quiet)
			printf("nothing to bisect: %s is %g on %.12s and %g on %.12s (%+.1f%%, p = %.2g)\n",
		       o->metric, ep.good_mean, o->good, ep.bad_mean, o->bad, 100 * ep.rel_shift, ep.p);
		ret = BISECT_EXIT_NOTHING;
		over = true;
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
	if (parent && !bisect_samples_of(&b, parent, false)->s.nr)
		bisect_measure(&b, WT_STEP, parent, b.p.min_runs > 3 ? b.p.min_runs : 3);
	bisect_write_json(&b, parent);
	if (!o->quiet) {
		bisect_print_report(&b);
		printf("bisect state: %s (report: perfbot report --bisect %s)\n", o->state_path,
		       o->state_path);
	}
	ret = b.recheck.moved ? BISECT_EXIT_UNTRUSTED : 0;
	/* a drift ends at a pair that differs by about nothing (decide.h) */
	double step = bisect_result_step(&b, parent);
	if (isfinite(step) && isfinite(b.outlook.shift) && !bisect_real_step(step, b.outlook.shift) &&
	    !result_stands_out(&b, parent)) {
		printf("no answer: the commit named changes %s by %+.1f%%, under 1/8 of the "
		       "%+.1f%% from good to bad, and no more than the range's trend explains: "
		       "the change is spread over the range (a drift), not one commit's step; "
		       "the commit named is not to be trusted\n",
		       o->metric, 100 * step, 100 * b.outlook.shift);
		ret = BISECT_EXIT_UNTRUSTED;
	}
	bisect_free_words(par, np);
	over = true;
out:
	/* an answer needs no worktree (report --bisect reads the state and
	 * the log; --resume makes them again): unregister them from the
	 * user's repository.  An interrupted one keeps them. */
	if (b.dir.len)
		remove_worktrees(&b, over ? o->repo : NULL);
	/* a wrong --metric at the start leaves nothing to resume */
	if (forget) {
		remove_tree(b.dir.buf);
		unlink(o->state_path);
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
	strbuf_release(&b.said);
	bisect_kernel_release(&b.k);
	strbuf_release(&b.why);
	strbuf_release(&b.skips);
	strbuf_release(&b.order);
	free(b.range);
	strbuf_release(&b.range_buf);
	return ret;
}
