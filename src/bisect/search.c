/*
 * search.c: the search and its confirmations (decide.h's steps 2 and 3)
 * through real git bisect in the step worktree: each commit git proposes
 * is measured until a verdict, the verdicts are logged (state.c) and
 * told to git, and the final pair is re-measured before an answer.
 * What the verdicts so far say is evidence.c's, the runs measure.c's.
 */
#include "bisect/internal.h"
#include "bisect/decide.h"
#include "bisect/log.h"
#include "git/checkout.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECIDE_GAVE_UP (-2)

/*
 * Paired runs (decide.h): n turns of the good endpoint, sha and the bad
 * endpoint, in that order, so that the step runs halfway between its
 * endpoint runs and a steady drift cancels; each new run of sha gets its
 * turn's bisect_turn_mid, kept in b->turns and logged as the turn ends
 * (none when an endpoint's run of the turn is missing), so that the
 * verdicts and --resume take it the same way.  Returns
 * bisect_measure_sides', with *step_failed set when sha is what failed.
 */
static int measure_turns(struct bisect *b, const char *sha, int n, bool *step_failed)
{
	const struct bisect_side sides[] = { { WT_GOOD, b->o->good, 1 }, { WT_STEP, sha, 1 },
					     { WT_BAD, b->o->bad, 1 } };
	int r = 0, failed = -1;

	for (int k = 0; k < n && r == 0; k++) {
		int g0 = bisect_samples_of(b, b->o->good, false)->s.nr;
		int b0 = bisect_samples_of(b, b->o->bad, false)->s.nr;
		int s0 = bisect_samples_of(b, sha, false)->s.nr;
		r = bisect_measure_sides(b, sides, 3, &failed);
		/* after the runs: bisect_samples_of may have moved them */
		const struct sample_set *g = &bisect_samples_of(b, b->o->good, false)->s;
		const struct sample_set *bd = &bisect_samples_of(b, b->o->bad, false)->s;
		int ns = bisect_samples_of(b, sha, false)->s.nr;
		if (g->nr == g0 || bd->nr == b0)
			continue;
		for (int i = s0; i < ns; i++)
			if (bisect_record_turn(b, sha, i, bisect_turn_mid(g->v[g->nr - 1],
									  bd->v[bd->nr - 1])) < 0)
				r = -1;
	}
	*step_failed = r > 0 && failed == 1;
	return r;
}

/*
 * Measure sha until a verdict under p, using runs from index `from` on;
 * old is the verdict a confirmation re-measures (bisect_confirm_verdict),
 * BISECT_UNKNOWN in the search.  Under p->paired the fresh runs come in
 * turns with the endpoints' (measure_turns) and the verdict takes them
 * on the endpoints' level (bisect_level_runs), as the pools take the
 * decision's runs later.
 * Returns the verdict (UNKNOWN = skip) with *used the runs counted, -1,
 * or DECIDE_GAVE_UP when the budget or convergence ends the search.
 */
static int decide(struct bisect *b, const char *sha, const struct bisect_params *p, int from,
		  enum bisect_verdict old, int *used)
{
	/* room for bisect_positions(): the decisions do not change while sha is measured */
	struct bisect_point *pt = xcalloc((size_t)b->nr_d + 2, sizeof(*pt));
	struct sample_set *runs = xcalloc((size_t)b->nr_d + 2, sizeof(*runs));
	struct sample_set paired = SAMPLE_SET_INIT;
	int ret;

	for (bool found = true;; found = false) {
		struct sample_set good = SAMPLE_SET_INIT, bad = SAMPLE_SET_INIT, lo, hi;
		struct commit_samples *c = bisect_samples_of(b, sha, false);
		struct sample_set step = { c->s.v + from, c->s.nr > from ? c->s.nr - from : 0, 0 };
		struct bisect_runs more;

		if (p->paired) {
			/* runs found in the result tree: their turn if this
			 * bisection made them before a crash (the log's),
			 * else none */
			bisect_level_runs(b, sha, &step, from, &paired);
			step = (struct sample_set){ paired.v, paired.nr, 0 };
		}
		struct bisect_trend trend, *tr = &trend;
		bisect_pools(b, &good, &bad, sha);
		bisect_neighbours(b, sha, &lo, &hi);
		if (!bisect_positions(b, sha, sha, pt, runs, &trend))
			tr = NULL;
		int want = bisect_runs_wanted(&step, &good, &bad, &lo, &hi, tr, p, &more);
		/*
		 * Runs found in the result tree (a watch's, an earlier
		 * bisect's): the verdict counts the fewest of them, in run
		 * order, that give one, as if they had just been measured; the
		 * later ones stay uncounted, fresh runs for a confirmation.
		 */
		for (int k = 1; found && !want && k < step.nr; k++) {
			struct sample_set first = { step.v, k, 0 };
			struct bisect_runs m;
			if (!bisect_runs_wanted(&first, &good, &bad, &lo, &hi, tr, p, &m)) {
				step.nr = k;
				break;
			}
		}
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
			*used = from + step.nr;
			ret = v;
			break;
		}
		if (!bisect_afford(b, want)) {
			ret = DECIDE_GAVE_UP;
			break;
		}
		bool step_failed;
		int r;
		if (p->paired) {
			r = measure_turns(b, sha, more.step, &step_failed);
		} else {
			/* in turns: load that comes and goes lands on all three */
			const struct bisect_side sides[] = { { WT_STEP, sha, more.step },
				{ WT_GOOD, b->o->good, more.good }, { WT_BAD, b->o->bad, more.bad } };
			int failed = -1;
			r = bisect_measure_sides(b, sides, 3, &failed);
			step_failed = failed == 0;
		}
		if (r == 1 && step_failed) {
			*used = bisect_samples_of(b, sha, false)->s.nr;
			ret = BISECT_UNKNOWN;   /* build failed: skip, like exit 125 */
			break;
		}
		if (r < 0) {
			ret = -1;
			break;
		}
	}
	free(pt);
	free(runs);
	sample_set_release(&paired);
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
	/* a kernel bisect's git bisect checks nothing out (measure.c) */
	if (bisect_git(b, path.buf, &head, "rev-parse", b->o->m.kernel_tree ? "BISECT_HEAD" : "HEAD",
		       NULL, NULL) != 0) {
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
		     bisect_decision_position(b, &b->d[order[k - 1]]) < bisect_decision_position(b, &b->d[i]); k--)
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
	if ((b->o->m.kernel_tree ?
	     bisect_git(b, path.buf, out, "bisect", "start", "--no-checkout", b->o->bad, b->o->good, NULL) :
	     bisect_git(b, path.buf, out, "bisect", "start", b->o->bad, b->o->good, NULL)) != 0) {
		error("git bisect start failed: %s", out->buf);
		goto out;
	}
	order = xmalloc(sizeof(*order) * (size_t)(b->nr_d ? b->nr_d : 1));
	replay_order(b, order);
	for (int k = 0; k < b->nr_d; k++) {
		const struct decision *d = &b->d[order[k]];

		strbuf_reset(out);
		/* git exits non-zero with only skipped commits left: an
		 * answer (GIT_AMBIGUOUS), as on the search's own path */
		if (bisect_git(b, path.buf, out, "bisect", bisect_verdict_name(d->v), d->sha, NULL) != 0 &&
		    !strstr(out->buf, "is the first bad commit") &&
		    !strstr(out->buf, "only 'skip'ped commits left")) {
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
int bisect_parents_of(struct bisect *b, const char *sha, char ***out)
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

/*
 * Whether the commits git has left (listed one a line, with only skipped
 * commits left) that were skipped were all skipped for the noise, none
 * for a build or run that failed: then the list is the noise's, which
 * more runs or a quieter machine would shorten, not the history's.
 */
static bool skipped_by_noise_only(struct bisect *b, const char *listed)
{
	int noise = 0;

	for (const char *l = listed; *l; ) {
		size_t n = strcspn(l, "\n"), h = strspn(l, "0123456789abcdef");

		if ((h == 40 || h == 64) && n == h) {
			char *sha = xstrndup(l, n);
			struct decision *d = bisect_find_decision(b, sha);
			bool skipped = d && d->v == BISECT_UNKNOWN, by_noise = skipped &&
				bisect_skipped_by_noise(b, sha);

			free(sha);
			if (skipped && !by_noise)
				return false;
			noise += by_noise;
		}
		l += n + (l[n] == '\n');
	}
	return noise > 0;
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
		int np = bisect_parents_of(b, w[i], &par);

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
		if (bisect_record(b, "confirm", d) < 0 ||
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

int bisect_search(struct bisect *b)
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
			/* the noise's list is no answer: the driver says so */
			if (skipped_by_noise_only(b, out.buf)) {
				b->stop = BISECT_STOP_NOISE_SKIPS;
				ret = BISECT_EXIT_UNTRUSTED;
			}
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
		if (bisect_record(b, "verdict", d) < 0 ||
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
