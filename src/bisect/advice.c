/*
 * advice.c: the sentences a bisection says about noise and runs (see
 * advice.h); numbers in, text out.
 */
#include "bisect/advice.h"
#include "report/busy.h"
#include "stats/summary.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void bisect_outlook_init(struct bisect_outlook *o, const struct sample_set *good,
			 const struct sample_set *bad, const struct bisect_params *p,
			 int nr_commits)
{
	double g = good->nr ? mean(good->v, good->nr) : NAN;
	double b = bad->nr ? mean(bad->v, bad->nr) : NAN;

	o->noise = bisect_noise(good, bad);
	o->shift = g != 0 ? (b - g) / fabs(g) : NAN;
	o->runs_needed = bisect_runs_needed(o->noise, o->shift, p->alpha);
	o->budget = p->max_total_runs;
	o->min_runs = p->min_runs;
	o->max_runs = p->max_runs;
	o->max_unknown = p->max_unknown_in_row;
	o->nr_commits = nr_commits;
	o->paired = p->paired;
}

/* The budget a bisection would want with n runs a commit: the mean
 * bound 5 (log2 N + 3) scaled by n / 5, times the default's factor
 * (and BISECT_PAIRED_COST for paired runs, as the default). */
static int budget_for(const struct bisect_outlook *o, int n)
{
	double steps = log2(o->nr_commits > 2 ? o->nr_commits : 2) + 3;

	return (int)ceil(BISECT_BUDGET_FACTOR * steps * (n > 5 ? n : 5) *
			 (o->paired ? BISECT_PAIRED_COST : 1));
}

void bisect_say_outlook(const struct bisect_outlook *o, const char *metric,
			struct strbuf *out)
{
	strbuf_addf(out, "%s: %+.1f%% from good to bad (means of their runs), noise %.1f%% a run", metric,
		    100 * o->shift, 100 * o->noise);
	if (o->runs_needed > 0)
		strbuf_addf(out, ": a verdict needs about %d run%s a commit", o->runs_needed,
			    o->runs_needed == 1 ? "" : "s");
	if (o->budget > 0)
		strbuf_addf(out, "; at most %d runs in all", o->budget);
	if (o->runs_needed > o->max_runs)
		strbuf_addf(out, " (more than --max-runs %d allows a commit: expect skips; "
			    "--runs %d would do)", o->max_runs, o->runs_needed);
	strbuf_addch(out, '\n');
}

void bisect_say_give_up(const struct bisect_outlook *o, enum bisect_stop why,
			int runs_spent, struct strbuf *out)
{
	strbuf_addstr(out, "no answer: ");
	if (why == BISECT_STOP_BUDGET)
		strbuf_addf(out, "the budget of %d runs is spent (%d used; --max-total-runs)",
			    o->budget, runs_spent);
	else if (why == BISECT_STOP_NOISE_SKIPS)
		strbuf_addf(out, "only skipped commits are left, and the noise left each of them "
			    "undecided after --max-runs %d runs (none failed to build or run), so "
			    "the list is the noise's, not the history's (%d runs used)",
			    o->max_runs, runs_spent);
	else
		strbuf_addf(out, "the verdicts stopped converging (%d commits in a row could "
			    "not be told good or bad; %d runs used)", o->max_unknown,
			    runs_spent);
	strbuf_addstr(out, ".\n");
	if (o->runs_needed > 0) {
		strbuf_addf(out, "At this noise (%.1f%% a run) a %+.1f%% change needs about %d run%s "
			    "a commit for a verdict.  Try --runs %d --max-total-runs %d, a longer "
			    "runtime (the job's runtime:, so that each run averages more), or a "
			    "quieter machine.\n", 100 * o->noise, 100 * o->shift, o->runs_needed,
			    o->runs_needed == 1 ? "" : "s", o->runs_needed,
			    budget_for(o, o->runs_needed));
	} else {
		strbuf_addstr(out, "The endpoints' noise could not be measured: try more runs "
			      "of them (--runs), a longer runtime or a quieter machine.\n");
	}
}

void bisect_say_noise_moved(const struct bisect_noise_check *c, struct strbuf *out)
{
	/* which way it went: only a rise counts (decide.h), but a move of
	 * the levels can come with noise that fell */
	const char *way = c->noise_after > c->noise_before ? "up from" :
		c->noise_after < c->noise_before ? "down from" : "as";

	strbuf_addf(out, "the machine's noise moved during the bisect: the endpoints "
		    "re-measured at the end give noise %.1f%% (%s %.1f%% at the start), good "
		    "moved %+.1f%% and bad %+.1f%%; the verdicts in between were made against "
		    "references that no longer hold, so the commit named is not to be trusted: "
		    "bisect again on a quieter machine\n", 100 * c->noise_after, way,
		    100 * c->noise_before, 100 * c->good_move, 100 * c->bad_move);
}

/* A number, or null when it is not finite (JSON has no NaN). */
static void number_or_null(struct json_writer *jw, const char *key, double v)
{
	jw_key(jw, key);
	if (isfinite(v))
		jw_number(jw, v, false);
	else
		jw_null(jw);
}

void bisect_outlook_json(const struct bisect_outlook *o, double good_mean, double bad_mean,
			 double p, const struct bisect_noise_check *recheck, double step_shift,
			 struct json_writer *jw)
{
	jw_key(jw, "endpoints");
	jw_object_begin(jw);
	number_or_null(jw, "good_mean", good_mean);
	number_or_null(jw, "bad_mean", bad_mean);
	number_or_null(jw, "rel_shift", o->shift);
	number_or_null(jw, "p", p);
	number_or_null(jw, "noise", o->noise);
	jw_key(jw, "runs_needed");
	jw_number(jw, o->runs_needed, true);
	if (recheck) {
		number_or_null(jw, "noise_end", recheck->noise_after);
		number_or_null(jw, "good_move", recheck->good_move);
		number_or_null(jw, "bad_move", recheck->bad_move);
		jw_key(jw, "noise_moved");
		jw_bool(jw, recheck->moved);
	}
	number_or_null(jw, "step_shift", step_shift);
	jw_key(jw, "partial_step");
	jw_bool(jw, bisect_partial_step(step_shift, o->shift));
	jw_object_end(jw);
}

/* Levenshtein distance of a and b (two rows). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(*row)), d;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* How far cand is from name, or SIZE_MAX when it is not close. */
static size_t closeness(const char *name, const char *cand)
{
	size_t ln = strlen(name), lc = strlen(cand), d = edit_distance(name, cand);
	size_t limit = (ln > lc ? ln : lc) / 3, cp = 0;
	const char *dot = strchr(cand, '.');

	if (limit < 2)
		limit = 2;
	if (d <= limit)
		return d;
	if (dot && !strcmp(dot + 1, name))
		return d;
	while (name[cp] && name[cp] == cand[cp])
		cp++;
	if (cp >= 4 && (!name[cp] || name[cp] == '.' || (cp && name[cp - 1] == '.')))
		return d;
	return SIZE_MAX;
}

int bisect_closest_names(const char *name, const char *const *names, int n,
			 const char **out, int max)
{
	size_t *dist = xcalloc((size_t)max + 1, sizeof(*dist));
	int nr = 0;

	for (int i = 0; i < n; i++) {
		size_t d = closeness(name, names[i]);
		int k;

		if (d == SIZE_MAX || !strcmp(name, names[i]))
			continue;
		/* insertion into the max closest, stable */
		for (k = nr; k > 0 && dist[k - 1] > d; k--) {
			if (k < max) {
				dist[k] = dist[k - 1];
				out[k] = out[k - 1];
			}
		}
		if (k < max) {
			dist[k] = d;
			out[k] = names[i];
			if (nr < max)
				nr++;
		}
	}
	free(dist);
	return nr;
}

void bisect_say_unknown_metric(const char *metric, const char *where,
			       const char *const *names, int n, struct strbuf *out)
{
	const char *close[3];
	int nc = bisect_closest_names(metric, names, n, close, 3);

	strbuf_addf(out, "--metric '%s' is not in the stats of %s", metric, where);
	if (!nc) {
		strbuf_addf(out, " (no name of its %d is close)", n);
		return;
	}
	strbuf_addstr(out, " (did you mean ");
	for (int i = 0; i < nc; i++)
		strbuf_addf(out, "%s'%s'", i == 0 ? "" : i == nc - 1 ? " or " : ", ", close[i]);
	strbuf_addstr(out, "?)");
}

void bisect_say_machine(double other_cpu, double steal, struct strbuf *out)
{
	strbuf_addstr(out, "the machine: ");
	if (isnan(other_cpu) && isnan(steal))
		strbuf_addstr(out, "its load was not recorded with these runs");
	else {
		strbuf_addstr(out, busy_machine(other_cpu, steal) ? "busy" : "not busy by perfbot's rule");
		if (!isnan(other_cpu))
			strbuf_addf(out, ", other work used %.0f%% of a CPU", other_cpu);
		if (!isnan(steal))
			strbuf_addf(out, ", steal %.0f%%", steal);
	}
	strbuf_addstr(out, " (mean of the endpoints' runs)\n");
}

void bisect_say_hidden(const char *metric, double shift, double p, double noise, int runs,
		       double mdc, double looked_for, double other_cpu, double steal,
		       struct strbuf *out)
{
	strbuf_addf(out, "no answer: %s differs by %+.1f%% from good to bad (p = %.2g), but at a "
		    "noise of %.1f%% a run and %d runs a side only a change of %.1f%% or more could "
		    "show: a %.0f%% change may be hidden in the noise, so \"nothing to bisect\" "
		    "cannot be said\n", metric, 100 * shift, p, 100 * noise, runs, 100 * mdc,
		    100 * looked_for);
	bisect_say_machine(other_cpu, steal, out);
	strbuf_addstr(out, "what to do: more runs of good and bad (perfbot run --commit; a bisect "
		      "counts the runs kept in the result tree), the job pinned to idle CPUs "
		      "(`cpuset:`), or a quieter machine; a kernel's bisect can run its guests "
		      "under `--accel icount`, whose time the machine does not move\n");
}
