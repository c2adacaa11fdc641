/*
 * evidence.c: what the verdicts so far say, for the bisect runner
 * (internal.h): the runs each decision counted, pooled by side or as the
 * step's neighbours; the range's positions for the trend model
 * (decide.h's bisect_trend); the run budget.  Reads the result tree
 * through measure.c; runs nothing.
 */
#include "bisect/internal.h"
#include "bisect/decide.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/*
 * The runs decision d counted (its [from, used) that the result tree
 * has), pointing into its commit's samples, into *out; paired ones
 * (decide.h) on the endpoints' level as their runs stand now, pointing
 * into d->paired.  False when d is skipped, is except's (NULL: none) or
 * counted none.
 */
static bool decision_runs(struct bisect *b, struct decision *d, const char *except,
			  struct sample_set *out)
{
	struct commit_samples *c;
	int end;

	if (d->v == BISECT_UNKNOWN || (except && !strcmp(d->sha, except)))
		return false;
	c = bisect_samples_of(b, d->sha, false);
	end = d->used < c->s.nr ? d->used : c->s.nr;
	*out = (struct sample_set){ c->s.v + d->from, end > d->from ? end - d->from : 0, 0 };
	if (out->nr && b->nr_turns) {
		bisect_level_runs(b, d->sha, out, d->from, &d->paired);
		*out = (struct sample_set){ d->paired.v, d->paired.nr, 0 };
	}
	return out->nr > 0;
}

void bisect_endpoint_runs(struct bisect *b, bool bad, struct sample_set *out)
{
	struct commit_samples *c = bisect_samples_of(b, bad ? b->o->bad : b->o->good, false);
	int start = bad ? b->start_bad : b->start_good;

	*out = (struct sample_set){ c->s.v, c->s.nr, 0 };
	if (b->p.paired && start > 0 && start < out->nr)
		out->nr = start;
}

void bisect_level_runs(struct bisect *b, const char *sha, const struct sample_set *runs, int from,
		       struct sample_set *out)
{
	struct sample_set g, bd, mids = SAMPLE_SET_INIT;

	/* NaN for a run of no turn (found in the result tree, or not paired) */
	bisect_turn_mids(b, sha, from, runs->nr, &mids);
	bisect_endpoint_runs(b, false, &g);
	bisect_endpoint_runs(b, true, &bd);
	bisect_paired_runs(runs, &mids, &g, &bd, out);
	sample_set_release(&mids);
}

/* The pooled sides: endpoints plus every decided commit (see decide.h). */
void bisect_pools(struct bisect *b, struct sample_set *good, struct sample_set *bad, const char *except)
{
	struct sample_set g, bd;

	bisect_endpoint_runs(b, false, &g);
	bisect_endpoint_runs(b, true, &bd);
	sample_set_append(good, &g);
	sample_set_append(bad, &bd);
	for (int i = 0; i < b->nr_d; i++) {
		struct sample_set part;

		if (decision_runs(b, &b->d[i], except, &part))
			sample_set_append(b->d[i].v == BISECT_GOOD ? good : bad, &part);
	}
}

/* Runs of the bisection's commits in the result tree (complete ones). */
int bisect_runs_spent(struct bisect *b)
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
bool bisect_afford(struct bisect *b, int n)
{
	struct bisect_progress pr = { bisect_runs_spent(b), 0 };

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
void bisect_neighbours(struct bisect *b, const char *except, struct sample_set *lo,
		       struct sample_set *hi)
{
	bisect_endpoint_runs(b, false, lo);
	bisect_endpoint_runs(b, true, hi);
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
void bisect_load_range(struct bisect *b)
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

/* sha's position (bisect_load_range), or -1 outside the range. */
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
double bisect_decision_position(struct bisect *b, struct decision *d)
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
bool bisect_positions(struct bisect *b, const char *sha, const char *except,
		      struct bisect_point *pt, struct sample_set *runs, struct bisect_trend *tr)
{
	const char *end[2] = { b->o->good, b->o->bad };

	tr->pt = pt;
	tr->nr = 0;
	tr->x = sha ? position_of(b, sha) : 0;
	if (!b->nr_range || tr->x < 0)
		return false;
	for (int e = 0; e < 2; e++) {
		bisect_endpoint_runs(b, e, &runs[tr->nr]);
		pt[tr->nr] = (struct bisect_point){ position_of(b, end[e]),
						    e ? BISECT_BAD : BISECT_GOOD, &runs[tr->nr] };
		tr->nr++;
	}
	for (int i = 0; i < b->nr_d; i++) {
		struct decision *d = &b->d[i];

		if (!decision_runs(b, d, except, &runs[tr->nr]) || bisect_decision_position(b, d) <= 0)
			continue;
		pt[tr->nr] = (struct bisect_point){ d->x, d->v, &runs[tr->nr] };
		tr->nr++;
	}
	return true;
}

int bisect_count_commits(struct bisect *b)
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

/* The first bad commit's step stands out of the range's trend
 * (bisect_step_stands_out), against its parent. */
bool bisect_result_stands_out(struct bisect *b, const char *parent)
{
	struct bisect_point *pt = xcalloc((size_t)b->nr_d + 2, sizeof(*pt));
	struct sample_set *runs = xcalloc((size_t)b->nr_d + 2, sizeof(*runs));
	struct bisect_trend all;
	bool out = false;

	if (parent && b->result && bisect_positions(b, NULL, NULL, pt, runs, &all))
		out = bisect_step_stands_out(&all, &bisect_samples_of(b, parent, false)->s,
					     &bisect_samples_of(b, b->result, false)->s);
	free(pt);
	free(runs);
	return out;
}
