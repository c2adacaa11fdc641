/*
 * detect.c: change points of a series, annotated with direction, tags and
 * whether the latest tag still shows the change (see detect.h).
 */
#include "detect/detect.h"
#include "stats/lkp_tables.h"
#include "util/error.h"
#include "util/json_writer.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *detect_kind_name(enum detect_kind k)
{
	switch (k) {
	case DETECT_REGRESSION: return "regression";
	case DETECT_IMPROVEMENT: return "improvement";
	default: return "change";
	}
}

const char *detect_tag(const struct series *s, int i)
{
	return i >= 0 && i < s->nr && s->pt[i].nr_tags ? s->pt[i].tags[0] : NULL;
}

/* Mean of the point means in [lo, hi). */
static double level(const struct series *s, int lo, int hi)
{
	double sum = 0;

	for (int i = lo; i < hi; i++)
		sum += s->pt[i].cp.mean;
	return sum / (hi - lo);
}

static void annotate(const struct series *s, const struct detect_result *r, int k)
{
	struct detect_change *c = &r->ch[k];
	int idx = c->cp.index, lo, hi;

	c->kind = !r->direction || c->cp.change == 0 ? DETECT_CHANGE :
		r->direction * c->cp.change < 0 ? DETECT_REGRESSION : DETECT_IMPROVEMENT;
	c->tag_before = c->tag_after = c->latest_tag = -1;
	for (int i = 0; i < s->nr; i++) {
		if (!s->pt[i].nr_tags)
			continue;
		if (i < idx)
			c->tag_before = i;
		else if (c->tag_after < 0)
			c->tag_after = i;
		c->latest_tag = i;
	}
	c->still = -1;
	c->latest_level = NAN;
	if (c->latest_tag < idx)
		return;
	/* the segment between the changes around latest_tag */
	lo = idx;
	hi = s->nr;
	for (int j = k + 1; j < r->nr; j++) {
		if (r->ch[j].cp.index > c->latest_tag) {
			hi = r->ch[j].cp.index;
			break;
		}
		lo = r->ch[j].cp.index;
	}
	c->latest_level = level(s, lo, hi);
	c->still = c->cp.after != c->cp.before &&
		(c->latest_level - c->cp.before) / (c->cp.after - c->cp.before) >= 0.5;
}

int detect_series(const struct series *s, const char *metric, const struct cp_options *opt,
		  struct detect_result *out)
{
	struct cp_point *pts = xmalloc(sizeof(*pts) * (size_t)(s->nr > 0 ? s->nr : 1));
	struct cp_result cr;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!metric)
		metric = s->metric;
	out->direction = metric ? lkp_kpi_direction(metric) : 0;
	for (int i = 0; i < s->nr; i++)
		pts[i] = s->pt[i].cp;
	cp_result_init(&cr);
	ret = cp_detect(pts, s->nr, opt, &cr);
	free(pts);
	if (ret < 0)
		return -1;
	out->nr = cr.nr;
	out->ch = xcalloc((size_t)cr.nr + 1, sizeof(*out->ch));
	out->splits_tested = cr.splits_tested;
	out->permutations = cr.permutations;
	for (int k = 0; k < cr.nr; k++)
		out->ch[k].cp = cr.change[k];
	out->nr_drift = cr.nr_drift;
	out->drift = xcalloc((size_t)cr.nr_drift + 1, sizeof(*out->drift));
	if (cr.nr_drift)
		memcpy(out->drift, cr.drift, sizeof(*out->drift) * (size_t)cr.nr_drift);
	out->latest = cr.latest;
	for (int k = 0; k < cr.nr; k++)
		annotate(s, out, k);
	cp_result_release(&cr);
	return 0;
}

void detect_result_release(struct detect_result *r)
{
	free(r->ch);
	free(r->drift);
	memset(r, 0, sizeof(*r));
}

/* A point's name in prose: its tag, else its short sha. */
static void point_name(const struct series *s, int i, struct strbuf *sb)
{
	const char *tag = detect_tag(s, i);

	if (tag)
		strbuf_addstr(sb, tag);
	else
		strbuf_addf(sb, "%.12s", s->pt[i].commit);
}

void detect_where(const struct series *s, const struct detect_change *c, struct strbuf *sb)
{
	int idx = c->cp.index;
	const char *side = c->cp.after < c->cp.before ? "low" : "high";

	/* the tags around the change, as the seed's "between v3.11 and
	 * v3.12"; the commits themselves where no tag is on that side */
	strbuf_addstr(sb, "between ");
	point_name(s, c->tag_before >= 0 ? c->tag_before : idx - 1, sb);
	strbuf_addstr(sb, " and ");
	point_name(s, c->tag_after >= 0 ? c->tag_after : idx, sb);
	if (c->still == 1)
		strbuf_addf(sb, ", and it's still %s as of ", side);
	else if (c->still == 0)
		strbuf_addf(sb, ", and it's no longer %s as of ", side);
	if (c->still >= 0)
		point_name(s, c->latest_tag, sb);
}

static void point_line(const struct series *s, int i, const char *what, struct strbuf *out)
{
	const struct series_point *p = &s->pt[i];
	const char *tag = detect_tag(s, i);

	strbuf_addf(out, "    %-11s %.12s  %-8s %12.6g", what, p->commit, tag ? tag : "",
		    p->cp.mean);
	if (p->cp.n >= 2 && isfinite(p->cp.stddev) && p->cp.mean != 0)
		strbuf_addf(out, " ±%3.0f%%", 100 * p->cp.stddev / fabs(p->cp.mean));
	else
		strbuf_addstr(out, "      ");
	strbuf_addf(out, "  %2d run%s", p->cp.n, p->cp.n == 1 ? " " : "s");
	if (p->subject)
		strbuf_addf(out, "  %s", p->subject);
	strbuf_addch(out, '\n');
}

static const char *drift_words(int direction, double change)
{
	if (!direction || change == 0)
		return "a slow change, not a step";
	return direction * change < 0 ? "a slow regression, not a step" :
		"a slow improvement, not a step";
}

static const char *direction_words(int d)
{
	return d > 0 ? "higher is better" : d < 0 ? "lower is better" : "direction unknown";
}

void detect_print_text(const struct series *s, const struct detect_result *r,
		       const struct cp_options *opt, struct strbuf *out)
{
	strbuf_addf(out, "%s", s->metric ? s->metric : "the metric");
	if (s->branch)
		strbuf_addf(out, " along %s", s->branch);
	strbuf_addf(out, ": %d tested commit%s, %d change%s (%s; pvalue %g, min-change %g%%)\n",
		    s->nr, s->nr == 1 ? "" : "s", r->nr, r->nr == 1 ? "" : "s",
		    direction_words(r->direction), opt->pvalue, 100 * opt->min_change);
	for (int k = 0; k < r->nr; k++) {
		const struct detect_change *c = &r->ch[k];

		strbuf_addf(out, "\n%s: ", detect_kind_name(c->kind));
		if (isinf(c->cp.change))
			strbuf_addf(out, "from 0 to %g", c->cp.after);
		else
			strbuf_addf(out, "%+.1f%%", 100 * c->cp.change);
		/* every percentage says what it compares: here the means of
		 * the segments either side of the change point */
		strbuf_addf(out, " (segment means %.6g -> %.6g, p = %.2g) ", c->cp.before,
			    c->cp.after, c->cp.p);
		detect_where(s, c, out);
		strbuf_addch(out, '\n');
		point_line(s, c->cp.index - 1, "last before", out);
		point_line(s, c->cp.index, "first after", out);
	}
	for (int k = 0; k < r->nr_drift; k++) {
		const struct cp_drift *d = &r->drift[k];

		strbuf_addstr(out, "\ndrift: ");
		if (isinf(d->change))
			strbuf_addf(out, "from 0 to %g", d->to);
		else
			strbuf_addf(out, "%+.1f%%", 100 * d->change);
		strbuf_addf(out, " over %d commits (%.6g -> %.6g, p = %.2g) from ", d->hi - d->lo,
			    d->from, d->to, d->p);
		point_name(s, d->lo, out);
		strbuf_addstr(out, " to ");
		point_name(s, d->hi - 1, out);
		strbuf_addf(out, ", %s\n", drift_words(r->direction, d->change));
	}
	if (r->latest.index > 0) {
		const struct cp_change *l = &r->latest;
		int k = s->nr - l->index;

		strbuf_addstr(out, "\nlatest: ");
		if (isinf(l->change))
			strbuf_addf(out, "from 0 to %g", l->after);
		else
			strbuf_addf(out, "%+.1f%%", 100 * l->change);
		strbuf_addf(out, " at the last %s (%.6g -> %.6g, p = %.2g), too few to be a change yet\n",
			    k == 1 ? "commit" : "2 commits", l->before, l->after, l->p);
		for (int i = l->index; i < s->nr; i++)
			point_line(s, i, "jumped", out);
	}
}

static void string_or_null(struct json_writer *jw, const char *v)
{
	if (v)
		jw_string(jw, v);
	else
		jw_null(jw);
}

static void number_or_null(struct json_writer *jw, double v)
{
	if (isfinite(v))
		jw_number(jw, v, false);
	else
		jw_null(jw);
}

static void point_json(struct json_writer *jw, const struct series *s, int i)
{
	const struct series_point *p = &s->pt[i];

	jw_object_begin(jw);
	jw_key(jw, "index");
	jw_number(jw, i, true);
	jw_key(jw, "commit");
	jw_string(jw, p->commit);
	jw_key(jw, "subject");
	string_or_null(jw, p->subject);
	jw_key(jw, "tags");
	jw_array_begin(jw);
	for (int k = 0; k < p->nr_tags; k++)
		jw_string(jw, p->tags[k]);
	jw_array_end(jw);
	jw_key(jw, "mean");
	number_or_null(jw, p->cp.mean);
	jw_key(jw, "stddev");
	number_or_null(jw, p->cp.stddev);
	jw_key(jw, "runs");
	jw_number(jw, p->cp.n, true);
	jw_object_end(jw);
}

void detect_print_json(const struct series *s, const struct detect_result *r,
		       const struct cp_options *opt, struct strbuf *out)
{
	struct json_writer jw;
	struct strbuf where = STRBUF_INIT;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_key(&jw, "metric");
	string_or_null(&jw, s->metric);
	jw_key(&jw, "branch");
	string_or_null(&jw, s->branch);
	jw_key(&jw, "points");
	jw_number(&jw, s->nr, true);
	jw_key(&jw, "direction");
	jw_number(&jw, r->direction, true);
	jw_key(&jw, "pvalue");
	jw_number(&jw, opt->pvalue, false);
	jw_key(&jw, "min_change");
	jw_number(&jw, opt->min_change, false);
	jw_key(&jw, "changes");
	jw_array_begin(&jw);
	for (int k = 0; k < r->nr; k++) {
		const struct detect_change *c = &r->ch[k];

		jw_object_begin(&jw);
		jw_key(&jw, "kind");
		jw_string(&jw, detect_kind_name(c->kind));
		jw_key(&jw, "change");
		number_or_null(&jw, c->cp.change);
		jw_key(&jw, "before");
		jw_number(&jw, c->cp.before, false);
		jw_key(&jw, "after");
		jw_number(&jw, c->cp.after, false);
		jw_key(&jw, "p");
		jw_number(&jw, c->cp.p, false);
		jw_key(&jw, "p_split");
		jw_number(&jw, c->cp.p_split, false);
		jw_key(&jw, "p_local");
		jw_number(&jw, c->cp.p_local, false);
		jw_key(&jw, "window");
		jw_array_begin(&jw);
		jw_number(&jw, c->cp.lo, true);
		jw_number(&jw, c->cp.hi, true);
		jw_array_end(&jw);
		jw_key(&jw, "last_before");
		point_json(&jw, s, c->cp.index - 1);
		jw_key(&jw, "first_after");
		point_json(&jw, s, c->cp.index);
		jw_key(&jw, "tag_before");
		string_or_null(&jw, detect_tag(s, c->tag_before));
		jw_key(&jw, "tag_after");
		string_or_null(&jw, detect_tag(s, c->tag_after));
		jw_key(&jw, "latest_tag");
		string_or_null(&jw, c->still >= 0 ? detect_tag(s, c->latest_tag) : NULL);
		jw_key(&jw, "still");
		if (c->still >= 0)
			jw_bool(&jw, c->still == 1);
		else
			jw_null(&jw);
		jw_key(&jw, "where");
		strbuf_reset(&where);
		detect_where(s, c, &where);
		jw_string(&jw, where.buf);
		jw_object_end(&jw);
	}
	jw_array_end(&jw);
	jw_key(&jw, "drifts");
	jw_array_begin(&jw);
	for (int k = 0; k < r->nr_drift; k++) {
		const struct cp_drift *d = &r->drift[k];

		jw_object_begin(&jw);
		jw_key(&jw, "kind");
		jw_string(&jw, detect_kind_name(!r->direction || d->change == 0 ? DETECT_CHANGE :
						r->direction * d->change < 0 ? DETECT_REGRESSION :
						DETECT_IMPROVEMENT));
		jw_key(&jw, "change");
		number_or_null(&jw, d->change);
		jw_key(&jw, "from");
		jw_number(&jw, d->from, false);
		jw_key(&jw, "to");
		jw_number(&jw, d->to, false);
		jw_key(&jw, "p");
		jw_number(&jw, d->p, false);
		jw_key(&jw, "commits");
		jw_number(&jw, d->hi - d->lo, true);
		jw_key(&jw, "first");
		point_json(&jw, s, d->lo);
		jw_key(&jw, "last");
		point_json(&jw, s, d->hi - 1);
		jw_object_end(&jw);
	}
	jw_array_end(&jw);
	jw_key(&jw, "latest");
	if (r->latest.index > 0) {
		jw_object_begin(&jw);
		jw_key(&jw, "change");
		number_or_null(&jw, r->latest.change);
		jw_key(&jw, "before");
		jw_number(&jw, r->latest.before, false);
		jw_key(&jw, "after");
		jw_number(&jw, r->latest.after, false);
		jw_key(&jw, "p");
		jw_number(&jw, r->latest.p, false);
		jw_key(&jw, "points");
		jw_number(&jw, s->nr - r->latest.index, true);
		jw_key(&jw, "first");
		point_json(&jw, s, r->latest.index);
		jw_object_end(&jw);
	} else {
		jw_null(&jw);
	}
	jw_object_end(&jw);
	strbuf_release(&where);
}

int detect_cp_option(struct cp_options *cp, const char *opt, const char *arg)
{
	bool pvalue = !strcmp(opt, "--pvalue"), is_int;
	size_t len = strlen(arg);
	bool pct = !pvalue && len > 1 && arg[len - 1] == '%';
	char *num = xstrndup(arg, pct ? len - 1 : len);
	double v;
	int r = parse_number(num, &v, &is_int);

	free(num);
	if (pvalue) {
		if (r < 0 || !(v > 0 && v < 1))
			return error("--pvalue expects a number between 0 and 1, got '%s'", arg);
		cp->pvalue = v;
		return 0;
	}
	if (r < 0 || !(v >= 0))
		return error("%s expects a number >= 0 or a percentage, got '%s'", opt, arg);
	cp->min_change = pct ? v / 100 : v;
	return 0;
}
