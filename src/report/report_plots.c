/*
 * report_plots.c: the data of the report's two plots — a bisect's runs
 * per tested commit, and one metric's runs per compared commit — with
 * the markers that say which side each is on.
 */
#include "report/report.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


static bool verdict_good(enum report_verdict v)
{
	return v == VERDICT_GOOD || v == VERDICT_GOOD_ENDPOINT;
}

static bool verdict_bad(enum report_verdict v)
{
	return v == VERDICT_BAD || v == VERDICT_BAD_ENDPOINT;
}

void report_bisect_plot(const struct report *r, bool by_side, struct plot *p)
{
	const struct report_bisect *b = r->bisect;
	struct plot_series *good, *bad, *skip = NULL;
	int ng = 0, nb = 0, x = 0, nskip = 0;

	plot_init(p, b->metric);
	for (int i = 0; i < b->nr_steps; i++)
		if (b->steps[i].verdict == VERDICT_SKIP)
			nskip += b->steps[i].nr;
	if (by_side) {
		/* lkp's email plot: bad samples first, as points only */
		bad = plot_add_series(p, "bad", PLOT_BAD, false);
		good = plot_add_series(p, "good", PLOT_GOOD, true);
	} else {
		good = plot_add_series(p, "good", PLOT_GOOD, false);
		bad = plot_add_series(p, "bad", PLOT_BAD, false);
		if (nskip)
			skip = plot_add_series(p, "skip", PLOT_NEUTRAL, false);
	}
	for (int i = 0; i < b->nr_steps; i++) {
		const struct report_step *s = &b->steps[i];
		if (!by_side && s->nr) {
			char label[16];
			/* short ids while they fit under their samples */
			if (b->nr_steps <= 8)
				snprintf(label, sizeof(label), "%.7s", s->commit);
			else
				snprintf(label, sizeof(label), "%d", i + 1);
			plot_add_mark(p, x + 0.5, label);
		}
		for (int k = 0; k < s->nr; k++) {
			if (verdict_good(s->verdict))
				plot_series_add(good, by_side ? ++ng : ++x, s->samples[k]);
			else if (verdict_bad(s->verdict))
				plot_series_add(bad, by_side ? ++nb : ++x, s->samples[k]);
			else if (skip)
				plot_series_add(skip, ++x, s->samples[k]);
		}
	}
}

bool report_bisect_stable(const struct report *r)
{
	const struct report_bisect *b = r->bisect;
	double gmin = INFINITY, gmax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;

	for (int i = 0; i < b->nr_steps; i++) {
		const struct report_step *s = &b->steps[i];
		for (int k = 0; k < s->nr; k++) {
			double v = s->samples[k];
			if (verdict_good(s->verdict)) {
				gmin = fmin(gmin, v);
				gmax = fmax(gmax, v);
			} else if (verdict_bad(s->verdict)) {
				bmin = fmin(bmin, v);
				bmax = fmax(bmax, v);
			}
		}
	}
	if (!isfinite(gmin) || !isfinite(bmin))
		return false;
	return gmax < bmin || bmax < gmin;
}

void report_metric_plot(const struct compare *cmp, int row, struct plot *p)
{
	const struct compare_row *rw = &cmp->row[row];
	int x = 0, worse = 0;
	enum plot_marker *mk = xcalloc((size_t)cmp->ncols, sizeof(*mk));

	/* which columns are worse than BASE, for the row's direction */
	for (int i = 1; i < cmp->ncols; i++)
		if (rw->direction * (rw->avg[i] - rw->avg[0]) < 0)
			worse++;
	for (int i = 0; i < cmp->ncols; i++) {
		if (!rw->direction)
			mk[i] = PLOT_NEUTRAL;
		else if (i == 0)
			mk[i] = worse ? PLOT_GOOD : PLOT_BAD;
		else
			mk[i] = rw->direction * (rw->avg[i] - rw->avg[0]) < 0 ? PLOT_BAD : PLOT_GOOD;
	}
	plot_init(p, rw->stat);
	for (int i = 0; i < cmp->ncols; i++) {
		const struct compare_col *c = &cmp->col[i];
		double *s = xcalloc((size_t)c->runs + 1, sizeof(double));
		int n = report_samples(cmp, i, rw->stat, s);
		char label[16];
		snprintf(label, sizeof(label), "%.12s", c->label);
		struct plot_series *ser = plot_add_series(p, c->label, mk[i], false);
		plot_add_mark(p, x + 0.5, label);
		for (int k = 0; k < n; k++)
			plot_series_add(ser, ++x, s[k]);
		if (n)
			plot_add_band(p, x - n + 1, x, mean(s, n), n > 1 ? stddev_pop(s, n) : 0,
				      mk[i]);
		free(s);
	}
	free(mk);
}
