/*
 * sim.c: simulated histories and the bisection search over them (see
 * sim.h), to measure how often each strategy names the true first bad
 * commit and how many benchmark runs it spends doing so.
 */
#include "bisect/sim.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_history_init(struct sim_history *h, int n, double shift,
		      const struct sim_noise *noise, struct rng *r)
{
	h->nr_commits = n;
	h->first_bad = 1 + (int)rng_below(r, (uint64_t)(n - 1));
	h->second_bad = -1;
	h->base = 1000;
	h->shift = shift;
	h->second_shift = 0;
	h->drift = 0;
	h->time_drift = 0;
	h->noise = *noise;
}

void sim_history_second_step(struct sim_history *h, double second_shift, struct rng *r)
{
	int a, b;

	do {
		a = 1 + (int)rng_below(r, (uint64_t)(h->nr_commits - 1));
		b = 1 + (int)rng_below(r, (uint64_t)(h->nr_commits - 1));
	} while (a == b);
	h->first_bad = a < b ? a : b;
	h->second_bad = a < b ? b : a;
	h->second_shift = second_shift;
}

/* Z of the noise's shape (sim.h) */
static double shaped(enum sim_shape shape, struct rng *r)
{
	double z = rng_normal(r), chi = 0;

	switch (shape) {
	case SIM_T3:
		for (int i = 0; i < 3; i++) {
			double y = rng_normal(r);
			chi += y * y;
		}
		return z / sqrt(chi / 3);
	case SIM_BIMODAL:
		return z * M_SQRT1_2 + (rng_uniform(r) < 0.3 ? 2 : 0);
	case SIM_NORMAL:
	case SIM_LOGNORMAL:
		break;
	}
	return z;
}

double sim_measure(const struct sim_history *h, int c, int t, struct rng *r)
{
	double z = shaped(h->noise.shape, r);
	double m = h->base * pow(1 + h->drift, c) * (c >= h->first_bad ? 1 + h->shift : 1);

	if (h->time_drift != 0)
		m *= pow(1 + h->time_drift, t);
	if (h->second_bad > 0 && c >= h->second_bad)
		m *= 1 + h->second_shift;
	if (h->noise.outlier_rate > 0 &&
	    rng_uniform(r) < h->noise.outlier_rate)
		z *= h->noise.outlier_scale;
	if (h->noise.shape == SIM_LOGNORMAL)
		return m * exp(h->noise.sigma * z);
	return m * (1 + h->noise.sigma * z);
}

const struct sim_strategy sim_strategies[] = {
	{ "adaptive", 0, SIM_DECIDE_TEST, true, true, true, true, true },
	{ "unpaired", 0, SIM_DECIDE_TEST, true, true, true, true, false },
	{ "no-trend", 0, SIM_DECIDE_TEST, true, true, true, false, true },
	{ "fixed-5", 5, SIM_DECIDE_TEST, false, true, false, false, false },
	{ "fixed-1", 1, SIM_DECIDE_NEAREST, false, false, false, false, false },
	{ NULL, 0, SIM_DECIDE_TEST, false, false, false, false, false },
};

/* What the search knows of one commit: the runner's log, in effect. */
struct commit {
	struct sample_set runs;         /* as measured */
	struct sample_set mids;         /* of paired runs: their turns' endpoints
					 * (bisect_turn_mid) */
	struct sample_set paired;       /* the runs on the endpoints' level
					 * (bisect_paired_runs), when mids has any */
	enum bisect_verdict v;
	bool tested;            /* v is a verdict (UNKNOWN: skipped) */
	bool confirmed;
	bool reversed;          /* a confirmation changed its verdict */
};

struct search {
	const struct sim_history *h;
	const struct sim_strategy *st;
	struct rng *r;
	struct commit *c;       /* one per commit; 0 and last are the endpoints */
	struct sample_set good, bad;    /* the sides, as decide.h's step 2 */
	struct bisect_point *pt;        /* room for positions() */
	int last;
	int runs;
	const struct bisect_params *p;  /* the budget's */
	int unknown_in_row;
	enum bisect_stop stop;          /* set when the search must end */
	/* paired (decide.h): the endpoints as evidence are their runs before
	 * the search, the level every paired run is put on; their runs in
	 * the turns only correct the steps' */
	bool paired;
	struct sample_set start[2];     /* into c[0].runs and c[last].runs */
};

/* May the search spend n more runs?  Sets s->stop when not. */
static bool afford(struct search *s, int n)
{
	struct bisect_progress pr = { s->runs, s->unknown_in_row };

	if (!s->stop)
		s->stop = bisect_should_stop(&pr, n, s->p);
	return !s->stop;
}

static void draw(struct search *s, int commit, int n)
{
	for (int i = 0; i < n; i++)
		sample_set_add(&s->c[commit].runs, sim_measure(s->h, commit, s->runs++, s->r));
	/* the runs may have moved */
	s->start[0].v = s->c[0].runs.v;
	s->start[1].v = s->c[s->last].runs.v;
}

/* The runs a verdict compares of commit i: the paired ones where there
 * are, an endpoint's before the search when paired. */
static const struct sample_set *view(const struct search *s, int i)
{
	const struct commit *c = &s->c[i];

	if (s->paired && (i == 0 || i == s->last))
		return &s->start[i != 0];
	return c->mids.nr ? &c->paired : &c->runs;
}

/* The paired runs of commit i on the level of the endpoints' runs before
 * the search. */
static void refresh_paired(struct search *s, int i)
{
	bisect_paired_runs(&s->c[i].runs, &s->c[i].mids, &s->start[0], &s->start[1],
			   &s->c[i].paired);
}

/* n turns of good, commit i and bad, in that order: the step halfway
 * between its endpoint runs, where a steady drift cancels. */
static void draw_turns(struct search *s, int i, int n)
{
	struct commit *g = &s->c[0], *b = &s->c[s->last];

	for (int k = 0; k < n; k++) {
		draw(s, 0, 1);
		draw(s, i, 1);
		draw(s, s->last, 1);
		sample_set_add(&s->c[i].mids, bisect_turn_mid(g->runs.v[g->runs.nr - 1],
							      b->runs.v[b->runs.nr - 1]));
	}
	refresh_paired(s, i);
}

/* Rebuild the sides from the verdicts: the endpoints, plus (when the
 * strategy pools) every commit judged so far. */
static void build_sides(struct search *s)
{
	s->good.nr = s->bad.nr = 0;
	for (int i = 0; i <= s->last; i++) {
		const struct commit *c = &s->c[i];
		bool endpoint = i == 0 || i == s->last;

		if (!c->tested || (!endpoint && !s->st->pool))
			continue;
		if (c->v == BISECT_GOOD)
			sample_set_append(&s->good, view(s, i));
		else if (c->v == BISECT_BAD)
			sample_set_append(&s->bad, view(s, i));
	}
}

static enum bisect_verdict nearest(const struct sample_set *step,
				   const struct sample_set *good,
				   const struct sample_set *bad)
{
	double m = mean(step->v, step->nr);
	double dg = fabs(m - mean(good->v, good->nr));
	double db = fabs(m - mean(bad->v, bad->nr));

	return db < dg ? BISECT_BAD : BISECT_GOOD;
}

/* The runs of commit i's tested neighbours: the last commit judged good
 * before it, the first judged bad after it (the endpoints at least). */
static void neighbours(const struct search *s, int i, const struct sample_set **lo,
		       const struct sample_set **hi)
{
	int l = 0, h = s->last;

	for (int k = 1; k < i; k++)
		if (s->c[k].tested && s->c[k].v == BISECT_GOOD)
			l = k;
	for (int k = s->last - 1; k > i; k--)
		if (s->c[k].tested && s->c[k].v == BISECT_BAD)
			h = k;
	*lo = view(s, l);
	*hi = view(s, h);
}

/*
 * Where the tested commits lie (decide.h's bisect_trend), i's own left
 * out (i < 0: none); pt has room for every commit.
 */
static void positions(const struct search *s, int i, struct bisect_point *pt,
		      struct bisect_trend *tr)
{
	tr->pt = pt;
	tr->nr = 0;
	tr->x = i;
	for (int k = 0; k <= s->last; k++)
		if (k != i && s->c[k].tested && s->c[k].v != BISECT_UNKNOWN)
			pt[tr->nr++] = (struct bisect_point){ k, s->c[k].v, view(s, k) };
}

/*
 * Measure commit i afresh under p, as strategy says, and record its
 * verdict (a confirmation's, bisect_confirm_verdict, when it was judged
 * old before); false (and nothing recorded) when the budget stopped it.
 */
static bool test_commit(struct search *s, int i, const struct bisect_params *p,
			enum bisect_verdict old)
{
	struct commit *c = &s->c[i];
	const struct sample_set *lo, *hi;
	struct bisect_runs more;
	struct bisect_trend where, *tr = s->st->trend ? &where : NULL;

	c->runs.nr = 0;
	c->mids.nr = 0;
	c->paired.nr = 0;
	c->tested = false;
	build_sides(s);
	neighbours(s, i, &lo, &hi);
	/* the runs the points refer to grow in place as they are drawn */
	positions(s, i, s->pt, &where);
	if (s->st->runs) {
		if (!afford(s, s->st->runs))
			return false;
		draw(s, i, s->st->runs);
	} else {
		while (bisect_runs_wanted(view(s, i), &s->good, &s->bad, lo, hi, tr, p, &more)) {
			if (!afford(s, more.step + more.good + more.bad))
				return false;
			if (p->paired) {
				draw_turns(s, i, more.step);
			} else {
				draw(s, i, more.step);
				draw(s, 0, more.good);
				draw(s, s->last, more.bad);
			}
			/* the endpoints' new runs belong in the sides at once */
			build_sides(s);
		}
	}
	if (s->st->decide == SIM_DECIDE_NEAREST)
		c->v = nearest(&c->runs, &s->good, &s->bad);
	else if (old != BISECT_UNKNOWN)
		c->v = bisect_confirm_verdict(old, view(s, i), &s->good, &s->bad, lo, hi, tr, p);
	else
		c->v = bisect_classify(view(s, i), &s->good, &s->bad, lo, hi, tr, p);
	c->tested = true;
	s->unknown_in_row = c->v == BISECT_UNKNOWN ? s->unknown_in_row + 1 : 0;
	return true;
}

/* The last commit judged good and the first judged bad. */
static void bounds(const struct search *s, int *lo, int *hi)
{
	*lo = 0;
	*hi = s->last;
	for (int i = 1; i < s->last; i++) {
		if (s->c[i].tested && s->c[i].v == BISECT_GOOD)
			*lo = i;
	}
	for (int i = s->last - 1; i > 0; i--) {
		if (s->c[i].tested && s->c[i].v == BISECT_BAD)
			*hi = i;
	}
}

/*
 * The commit to test in (lo, hi): the middle, or when that was skipped
 * the untested one nearest to it (below first on a tie).  -1 when every
 * commit strictly between lo and hi has been skipped.
 */
static int next_commit(const struct search *s, int lo, int hi)
{
	int mid = lo + (hi - lo) / 2;

	for (int d = 0; mid - d > lo || mid + d < hi; d++) {
		if (mid - d > lo && !s->c[mid - d].tested)
			return mid - d;
		if (mid + d < hi && !s->c[mid + d].tested)
			return mid + d;
	}
	return -1;
}

/*
 * Confirm lo, then hi (endpoints need none).  Returns 1 when a verdict
 * changed, so that the search must go on, 0 when both stand.
 */
static int confirm_pair(struct search *s, int lo, int hi,
			const struct bisect_params *cp, struct sim_result *out)
{
	int ends[2] = { lo, hi };

	for (int e = 0; e < 2; e++) {
		struct commit *c = &s->c[ends[e]];
		enum bisect_verdict old = c->v;
		int before = s->runs;

		if (ends[e] == 0 || ends[e] == s->last || c->confirmed)
			continue;
		out->steps++;
		if (!test_commit(s, ends[e], cp, old)) {
			c->v = old;     /* the budget ended it: nothing learnt */
			return 0;
		}
		out->confirm_runs += s->runs - before;
		out->reconfirmed += c->reversed;
		/* a reversed verdict is one measurement against another: a
		 * third decides when the commit is at the edge again */
		c->confirmed = c->v == old;
		c->reversed |= c->v != old;
		if (c->v != old) {
			out->corrected++;
			out->skipped += c->v == BISECT_UNKNOWN;
			return 1;
		}
	}
	return 0;
}

static double rel_change(const struct sample_set *from, const struct sample_set *to)
{
	double m = mean(from->v, from->nr);

	return m != 0 ? (mean(to->v, to->nr) - m) / fabs(m) : NAN;
}

/* The runner's final check (decide.h): lo -> hi against good -> bad,
 * else against the trend of every verdict. */
static bool real_step(struct search *s, int lo, int hi)
{
	struct bisect_trend all;

	if (bisect_real_step(rel_change(&s->c[lo].runs, &s->c[hi].runs),
			     rel_change(&s->c[0].runs, &s->c[s->last].runs)))
		return true;
	if (!s->st->trend)
		return false;
	positions(s, -1, s->pt, &all);
	return bisect_step_stands_out(&all, &s->c[lo].runs, &s->c[hi].runs);
}

bool sim_bisect(const struct sim_history *h, const struct sim_strategy *st,
		const struct bisect_params *params, struct rng *r,
		struct sim_result *out)
{
	struct bisect_params pp = *params, *p = &pp;
	struct search s = { h, st, r, NULL, SAMPLE_SET_INIT, SAMPLE_SET_INIT, NULL,
			    h->nr_commits - 1, 0, p, 0, BISECT_GO_ON, false,
			    { SAMPLE_SET_INIT, SAMPLE_SET_INIT } };
	struct bisect_params cp;
	struct bisect_endpoints ep;
	struct bisect_runs more;
	int lo, hi;

	pp.paired = st->paired;
	cp = bisect_confirm_params(p);

	memset(out, 0, sizeof(*out));
	out->found = -1;
	s.c = xcalloc((size_t)h->nr_commits, sizeof(*s.c));
	s.pt = xcalloc((size_t)h->nr_commits, sizeof(*s.pt));
	s.c[0].v = BISECT_GOOD;
	s.c[s.last].v = BISECT_BAD;
	s.c[0].tested = s.c[s.last].tested = true;

	if (st->runs) {
		if (afford(&s, 2 * st->runs)) {
			draw(&s, 0, st->runs);
			draw(&s, s.last, st->runs);
		}
	} else {
		while (bisect_runs_wanted(NULL, &s.c[0].runs, &s.c[s.last].runs, NULL, NULL, NULL,
					  p, &more) && afford(&s, more.good + more.bad)) {
			/* in turns, as the runner measures them, where the order
			 * matters (the machine drifts); else in blocks, as the
			 * figures before the drift were drawn */
			for (int k = 0; h->time_drift != 0 && (k < more.good || k < more.bad); k++) {
				draw(&s, 0, k < more.good);
				draw(&s, s.last, k < more.bad);
			}
			if (h->time_drift == 0) {
				draw(&s, 0, more.good);
				draw(&s, s.last, more.bad);
			}
		}
	}
	if (s.stop)
		goto gave_up;
	out->endpoint_runs = s.runs;
	s.paired = p->paired;
	s.start[0] = (struct sample_set){ s.c[0].runs.v, s.c[0].runs.nr, 0 };
	s.start[1] = (struct sample_set){ s.c[s.last].runs.v, s.c[s.last].runs.nr, 0 };
	if (st->check &&
	    !bisect_check_endpoints(&s.c[0].runs, &s.c[s.last].runs, p, &ep)) {
		out->outcome = SIM_NOTHING;
		goto done;
	}

	/* each pass tests an untested commit or confirms an unconfirmed
	 * one; only a reversal leaves one unconfirmed, and each costs runs,
	 * so the budget ends this */
	for (;;) {
		int next;

		bounds(&s, &lo, &hi);
		/* only skipped commits left between lo and hi: confirmed as a
		 * final pair (decide.h, step 3), since a wrong verdict ends at
		 * the edge of them too */
		next = hi - lo > 1 ? next_commit(&s, lo, hi) : -1;
		if (next >= 0) {
			out->steps++;
			if (!test_commit(&s, next, p, BISECT_UNKNOWN))
				break;
			out->skipped += s.c[next].v == BISECT_UNKNOWN;
			if (afford(&s, 0))
				continue;
			break;
		}
		if (!st->confirm || !confirm_pair(&s, lo, hi, &cp, out))
			break;
	}
gave_up:
	if (s.stop) {
		out->outcome = SIM_GAVE_UP;
		out->stop = s.stop;
	} else if (hi - lo == 1) {
		out->outcome = SIM_FOUND;
		out->found = hi;
		if (st->check && !real_step(&s, lo, hi)) {
			out->outcome = SIM_SPREAD;
			out->found = -1;
		}
	} else {
		out->outcome = SIM_AMBIGUOUS;
	}
done:
	out->runs = s.runs;
	for (int i = 0; i <= s.last; i++) {
		sample_set_release(&s.c[i].runs);
		sample_set_release(&s.c[i].mids);
		sample_set_release(&s.c[i].paired);
	}
	free(s.c);
	free(s.pt);
	sample_set_release(&s.good);
	sample_set_release(&s.bad);
	return out->found >= 0 && (out->found == h->first_bad || out->found == h->second_bad);
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

void sim_run(const struct sim_scenario *sc, const struct sim_strategy *st,
	     const struct bisect_params *p, struct sim_summary *out)
{
	int *runs = xmalloc(sizeof(int) * (size_t)(sc->histories > 0 ? sc->histories : 1));

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < sc->histories; i++) {
		struct rng layout, noise;
		struct sim_history h;
		struct sim_result res;

		rng_seed(&layout, rng_derive(sc->seed, (uint64_t)i, 0));
		rng_seed(&noise, rng_derive(sc->seed, (uint64_t)i, 1));
		sim_history_init(&h, sc->nr_commits, sc->shift, &sc->noise, &layout);
		if (sc->second_shift != 0)
			sim_history_second_step(&h, sc->second_shift, &layout);
		h.drift = sc->drift;
		h.time_drift = sc->time_drift;
		if (sim_bisect(&h, st, p, &noise, &res))
			out->correct++;
		out->ambiguous += res.outcome == SIM_AMBIGUOUS;
		out->nothing += res.outcome == SIM_NOTHING;
		out->gave_up += res.outcome == SIM_GAVE_UP;
		out->spread += res.outcome == SIM_SPREAD;
		out->wrong += res.outcome == SIM_FOUND && res.found != h.first_bad &&
			res.found != h.second_bad;
		runs[i] = res.runs;
		out->runs += res.runs;
		out->endpoint_runs += res.endpoint_runs;
		out->confirm_runs += res.confirm_runs;
		out->skipped += res.skipped;
		out->corrected += res.corrected;
		out->reconfirmed += res.reconfirmed;
		if (res.runs > out->max_runs)
			out->max_runs = res.runs;
		out->histories++;
	}
	out->accuracy = out->histories ? (double)out->correct / out->histories : 0;
	out->mean_runs = out->histories ? (double)out->runs / out->histories : 0;
	if (out->histories) {
		/* the nearest-rank 99th percentile */
		int k = (int)ceil(0.99 * out->histories) - 1;

		qsort(runs, (size_t)out->histories, sizeof(int), cmp_int);
		out->p99_runs = runs[k < 0 ? 0 : k];
	}
	free(runs);
}

double sim_runs_bound(int nr_commits)
{
	return 5 * (log2(nr_commits) + 3);
}
