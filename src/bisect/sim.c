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
	h->base = 1000;
	h->shift = shift;
	h->noise = *noise;
}

double sim_measure(const struct sim_history *h, int c, struct rng *r)
{
	double z = rng_normal(r);
	double m = h->base * (c >= h->first_bad ? 1 + h->shift : 1);

	if (h->noise.outlier_rate > 0 &&
	    rng_uniform(r) < h->noise.outlier_rate)
		z *= h->noise.outlier_scale;
	return m * (1 + h->noise.sigma * z);
}

const struct sim_strategy sim_strategies[] = {
	{ "adaptive", 0, SIM_DECIDE_TEST, true, true, true },
	{ "fixed-5", 5, SIM_DECIDE_TEST, false, true, false },
	{ "fixed-1", 1, SIM_DECIDE_NEAREST, false, false, false },
	{ NULL, 0, SIM_DECIDE_TEST, false, false, false },
};

/* What the search knows of one commit: the runner's log, in effect. */
struct commit {
	struct sample_set runs;
	enum bisect_verdict v;
	bool tested;            /* v is a verdict (UNKNOWN: skipped) */
	bool confirmed;
};

struct search {
	const struct sim_history *h;
	const struct sim_strategy *st;
	struct rng *r;
	struct commit *c;       /* one per commit; 0 and last are the endpoints */
	struct sample_set good, bad;    /* the sides, as decide.h's step 2 */
	int last;
	int runs;
};

static void draw(struct search *s, int commit, int n)
{
	for (int i = 0; i < n; i++)
		sample_set_add(&s->c[commit].runs, sim_measure(s->h, commit, s->r));
	s->runs += n;
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
			sample_set_append(&s->good, &c->runs);
		else if (c->v == BISECT_BAD)
			sample_set_append(&s->bad, &c->runs);
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

/* Measure commit i afresh under p, as strategy says, and record its verdict. */
static void test_commit(struct search *s, int i, const struct bisect_params *p)
{
	struct commit *c = &s->c[i];
	struct bisect_runs more;

	c->runs.nr = 0;
	c->tested = false;
	build_sides(s);
	if (s->st->runs) {
		draw(s, i, s->st->runs);
	} else {
		while (bisect_runs_wanted(&c->runs, &s->good, &s->bad, p, &more)) {
			draw(s, i, more.step);
			draw(s, 0, more.good);
			draw(s, s->last, more.bad);
			/* the endpoints' new runs belong in the sides at once */
			build_sides(s);
		}
	}
	if (s->st->decide == SIM_DECIDE_NEAREST)
		c->v = nearest(&c->runs, &s->good, &s->bad);
	else
		c->v = bisect_classify(&c->runs, &s->good, &s->bad, p);
	c->tested = true;
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
		test_commit(s, ends[e], cp);
		out->confirm_runs += s->runs - before;
		c->confirmed = true;
		if (c->v != old) {
			out->corrected++;
			out->skipped += c->v == BISECT_UNKNOWN;
			return 1;
		}
	}
	return 0;
}

bool sim_bisect(const struct sim_history *h, const struct sim_strategy *st,
		const struct bisect_params *p, struct rng *r,
		struct sim_result *out)
{
	struct search s = { h, st, r, NULL, SAMPLE_SET_INIT, SAMPLE_SET_INIT,
			    h->nr_commits - 1, 0 };
	struct bisect_params cp = bisect_confirm_params(p);
	struct bisect_endpoints ep;
	struct bisect_runs more;
	int lo, hi;

	memset(out, 0, sizeof(*out));
	out->found = -1;
	s.c = xcalloc((size_t)h->nr_commits, sizeof(*s.c));
	s.c[0].v = BISECT_GOOD;
	s.c[s.last].v = BISECT_BAD;
	s.c[0].tested = s.c[s.last].tested = true;

	if (st->runs) {
		draw(&s, 0, st->runs);
		draw(&s, s.last, st->runs);
	} else {
		while (bisect_runs_wanted(NULL, &s.c[0].runs, &s.c[s.last].runs,
					  p, &more)) {
			draw(&s, 0, more.good);
			draw(&s, s.last, more.bad);
		}
	}
	out->endpoint_runs = s.runs;
	if (st->check &&
	    !bisect_check_endpoints(&s.c[0].runs, &s.c[s.last].runs, p, &ep)) {
		out->outcome = SIM_NOTHING;
		goto done;
	}

	/* each pass tests an untested commit or confirms an unconfirmed
	 * one, so this ends */
	for (;;) {
		int next;

		bounds(&s, &lo, &hi);
		if (hi - lo > 1) {
			next = next_commit(&s, lo, hi);
			if (next < 0)
				break;
			out->steps++;
			test_commit(&s, next, p);
			out->skipped += s.c[next].v == BISECT_UNKNOWN;
			continue;
		}
		if (!st->confirm || !confirm_pair(&s, lo, hi, &cp, out))
			break;
	}
	if (hi - lo == 1) {
		out->outcome = SIM_FOUND;
		out->found = hi;
	} else {
		out->outcome = SIM_AMBIGUOUS;
	}
done:
	out->runs = s.runs;
	for (int i = 0; i <= s.last; i++)
		sample_set_release(&s.c[i].runs);
	free(s.c);
	sample_set_release(&s.good);
	sample_set_release(&s.bad);
	return out->found == h->first_bad;
}

void sim_run(const struct sim_scenario *sc, const struct sim_strategy *st,
	     const struct bisect_params *p, struct sim_summary *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < sc->histories; i++) {
		struct rng layout, noise;
		struct sim_history h;
		struct sim_result res;

		rng_seed(&layout, rng_derive(sc->seed, (uint64_t)i, 0));
		rng_seed(&noise, rng_derive(sc->seed, (uint64_t)i, 1));
		sim_history_init(&h, sc->nr_commits, sc->shift, &sc->noise, &layout);
		if (sim_bisect(&h, st, p, &noise, &res))
			out->correct++;
		out->ambiguous += res.outcome == SIM_AMBIGUOUS;
		out->nothing += res.outcome == SIM_NOTHING;
		out->runs += res.runs;
		out->skipped += res.skipped;
		out->corrected += res.corrected;
		if (res.runs > out->max_runs)
			out->max_runs = res.runs;
		out->histories++;
	}
	out->accuracy = out->histories ? (double)out->correct / out->histories : 0;
	out->mean_runs = out->histories ? (double)out->runs / out->histories : 0;
}

double sim_runs_bound(int nr_commits)
{
	return 5 * (log2(nr_commits) + 3);
}
