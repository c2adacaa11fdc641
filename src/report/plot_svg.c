/*
 * plot_svg.c: plots as one self-contained <svg> element for HTML reports.
 *
 * Self-contained means no fonts, stylesheets or scripts from elsewhere and
 * no <style> element (inside an HTML page its rules would apply to the
 * whole page): every look is an attribute, the font the generic
 * "sans-serif".  The element has a viewBox and no fixed size, so it
 * shrinks with its container, up to its natural svg_width.
 *
 * Layout, in viewBox units, from the top: the title (bold, centred over
 * the box), the box with y tick labels on its left (the same ticks as
 * plot_ascii, from plot_axis_ticks) and light grid lines at the ticks,
 * the mark labels under the box, then a legend of the named series.
 * Ticks closer than a line of text are thinned (plot_tick_stride); so are
 * the mark labels, taken in the order added (left to right), so that no
 * two overlap.
 * The x axis has no ticks, as x is sample order; the data's x extent is
 * inset by POINT_INSET from the box's sides so that end points stay clear
 * of the border.
 *
 * Drawing order (later on top): bands (translucent mean +- stddev
 * rectangles with a dashed mean line), marks (dotted verticals), the box
 * and ticks, series lines, then points.  A point is a circle with a
 * <title> child, which browsers show as a tooltip: "<series>: <value>".
 * Colours by marker kind: GOOD filled green, BAD hollow red (its stroke
 * heavier), NEUTRAL filled grey; lines and bands take the stroke colour.
 *
 * Coordinates are printed with one decimal ("12.5", "300"), independent
 * of the locale, so the output is byte-for-byte reproducible.
 */
#include "report/plot.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <math.h>
#include <string.h>

#define FONT_SIZE 11
#define TITLE_SIZE 14
#define MARK_FONT_SIZE 10
#define CHAR_WIDTH 0.6          /* average glyph width, in font sizes */
#define TICK_LENGTH 4
#define POINT_RADIUS 3
#define POINT_INSET 8

static const struct marker_style {
	const char *fill, *stroke, *stroke_width;
} marker_style[] = {
	[PLOT_NEUTRAL] = { "#7f7f7f", "#7f7f7f", "1" },
	[PLOT_GOOD] = { "#2ca02c", "#2ca02c", "1" },
	[PLOT_BAD] = { "#ffffff", "#d62728", "1.5" },
};

/* A coordinate: one decimal at most, "." as the radix, never "-0". */
static void num(struct strbuf *sb, double v)
{
	size_t start = sb->len;

	plot_add_number(sb, 'f', 1, v);
	if (sb->len - start >= 2 && !strcmp(sb->buf + sb->len - 2, ".0"))
		strbuf_setlen(sb, sb->len - 2);
	if (!strcmp(sb->buf + start, "-0")) {
		strbuf_setlen(sb, start);
		strbuf_addch(sb, '0');
	}
}

/* Append ` name="v"` with v as num() prints it. */
static void attr_num(struct strbuf *sb, const char *name, double v)
{
	strbuf_addf(sb, " %s=\"", name);
	num(sb, v);
	strbuf_addch(sb, '"');
}

static void line(struct strbuf *sb, double x1, double y1, double x2, double y2)
{
	strbuf_addstr(sb, "<line");
	attr_num(sb, "x1", x1);
	attr_num(sb, "y1", y1);
	attr_num(sb, "x2", x2);
	attr_num(sb, "y2", y2);
	strbuf_addstr(sb, "/>\n");
}

struct mapping {
	double lo, scale, origin;
};

static double map(const struct mapping *m, double v)
{
	return m->origin + (v - m->lo) * m->scale;
}

struct layout {
	double w, h;
	double left, right, top, bottom;        /* the box */
	struct mapping mx, my;
	struct plot_axis ax;
};

static bool has_mark_labels(const struct plot *p)
{
	size_t i;

	for (i = 0; i < p->nr_marks; i++)
		if (p->marks[i].label && plot_value_ok(p->marks[i].x))
			return true;
	return false;
}

static bool has_legend(const struct plot *p)
{
	size_t i;

	for (i = 0; i < p->nr_series; i++)
		if (p->series[i]->name)
			return true;
	return false;
}

static void compute_layout(const struct plot *p, struct layout *l)
{
	struct strbuf label = STRBUF_INIT;
	double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
	size_t widest = 0;
	long long k;

	plot_data_range(p, true, &xlo, &xhi, &ylo, &yhi);
	plot_axis_ticks(&l->ax, ylo, yhi);
	plot_range_widen(&xlo, &xhi);
	for (k = l->ax.kmin; k <= l->ax.kmax; k++) {
		strbuf_reset(&label);
		plot_axis_label(&l->ax, &label, plot_axis_tick(&l->ax, k));
		if (label.len > widest)
			widest = label.len;
	}
	strbuf_release(&label);

	l->w = p->svg_width > 0 ? p->svg_width : PLOT_SVG_WIDTH;
	l->h = p->svg_height > 0 ? p->svg_height : PLOT_SVG_HEIGHT;
	l->left = 10 + (p->ylabel ? 18 : 0) + TICK_LENGTH + 4 +
		  widest * CHAR_WIDTH * FONT_SIZE;
	l->right = l->w - 16;
	l->top = p->title ? 30 : 12;
	l->bottom = l->h - 10 - (has_mark_labels(p) ? 16 : 0) -
		    (has_legend(p) ? 18 : 0);
	/* a silly size still gives a box, if a cramped one */
	if (l->right < l->left + 100)
		l->right = l->left + 100;
	if (l->bottom < l->top + 60)
		l->bottom = l->top + 60;
	if (l->w < l->right + 16)
		l->w = l->right + 16;
	if (l->h < l->bottom + 10)
		l->h = l->bottom + 10;

	l->mx.lo = xlo;
	l->mx.origin = l->left + POINT_INSET;
	l->mx.scale = (l->right - l->left - 2 * POINT_INSET) / (xhi - xlo);
	l->my.lo = l->ax.min;
	l->my.origin = l->bottom;
	l->my.scale = -(l->bottom - l->top) / (l->ax.max - l->ax.min);
}

/* A value as the tooltip shows it: integers whole, others shortest. */
/* A value in a tooltip as the tables print it (.2f below 1000, a whole
 * number up to 1e8, .4g above), not to the last digit of a double. */
static void tooltip_value(struct strbuf *sb, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		fmt_number(sb, v, false);
	else if (a < 1000)
		fmt_ruby_fixed(sb, v, 0, 2, false);
	else if (a > 100000000)
		strbuf_addf(sb, "%.4g", v);
	else
		strbuf_addf(sb, "%lld", (long long)v);
}

static void draw_bands(struct strbuf *sb, const struct plot *p,
		       const struct layout *l)
{
	size_t i;

	for (i = 0; i < p->nr_bands; i++) {
		const struct plot_band *b = &p->bands[i];
		const struct marker_style *ms = &marker_style[b->marker];
		double x0 = b->x_lo, x1 = b->x_hi;
		double sd = plot_value_ok(b->stddev) ? fabs(b->stddev) : 0;

		if (!plot_value_ok(b->mean) || !plot_value_ok(x0) ||
		    !plot_value_ok(x1))
			continue;
		if (x0 > x1) {
			x0 = b->x_hi;
			x1 = b->x_lo;
		}
		if (x0 == x1) {
			x0 -= 0.5;
			x1 += 0.5;
		}
		strbuf_addf(sb, "<g fill=\"%s\" stroke=\"%s\">\n",
			    ms->stroke, ms->stroke);
		if (sd > 0) {
			strbuf_addstr(sb, "<rect");
			attr_num(sb, "x", map(&l->mx, x0));
			attr_num(sb, "y", map(&l->my, b->mean + sd));
			attr_num(sb, "width", map(&l->mx, x1) - map(&l->mx, x0));
			attr_num(sb, "height", map(&l->my, b->mean - sd) -
				 map(&l->my, b->mean + sd));
			strbuf_addstr(sb, " fill-opacity=\"0.15\" stroke=\"none\"/>\n");
		}
		strbuf_addstr(sb, "<line");
		attr_num(sb, "x1", map(&l->mx, x0));
		attr_num(sb, "y1", map(&l->my, b->mean));
		attr_num(sb, "x2", map(&l->mx, x1));
		attr_num(sb, "y2", map(&l->my, b->mean));
		strbuf_addstr(sb, " stroke-width=\"1.5\" stroke-dasharray=\"6,3\"><title>mean ");
		tooltip_value(sb, b->mean);
		strbuf_addstr(sb, " &#177; ");
		tooltip_value(sb, sd);
		strbuf_addstr(sb, "</title></line>\n</g>\n");
	}
}

static void draw_marks(struct strbuf *sb, const struct plot *p,
		       const struct layout *l)
{
	size_t i;

	if (!p->nr_marks)
		return;
	strbuf_addstr(sb, "<g stroke=\"#999999\" stroke-dasharray=\"2,3\">\n");
	for (i = 0; i < p->nr_marks; i++) {
		double x = map(&l->mx, p->marks[i].x);

		if (plot_value_ok(p->marks[i].x))
			line(sb, x, l->top, x, l->bottom);
	}
	strbuf_addstr(sb, "</g>\n");
	if (!has_mark_labels(p))
		return;
	strbuf_addf(sb, "<g font-size=\"%d\" fill=\"#555555\">\n", MARK_FONT_SIZE);
	/* left to right, a label that would start before the last shown
	 * one ends (plus a blank) is left out: labels never overlap */
	double end = -HUGE_VAL;
	for (i = 0; i < p->nr_marks; i++) {
		double x;
		if (!p->marks[i].label || !plot_value_ok(p->marks[i].x))
			continue;
		x = map(&l->mx, p->marks[i].x) + 2;
		if (x < end)
			continue;
		end = x + (strlen(p->marks[i].label) + 1) * CHAR_WIDTH * MARK_FONT_SIZE;
		strbuf_addstr(sb, "<text");
		attr_num(sb, "x", x);
		attr_num(sb, "y", l->bottom + 14);
		strbuf_addch(sb, '>');
		plot_xml_escape(sb, p->marks[i].label);
		strbuf_addstr(sb, "</text>\n");
	}
	strbuf_addstr(sb, "</g>\n");
}

static void draw_axes(struct strbuf *sb, const struct plot *p,
		      const struct layout *l)
{
	const struct plot_axis *ax = &l->ax;
	/* labels one line apart at least */
	long long k, stride = plot_tick_stride(-l->my.scale * ax->step,
					       FONT_SIZE + 1);

	strbuf_addstr(sb, "<g stroke=\"#e8e8e8\">\n");
	for (k = ax->kmin + 1; k < ax->kmax; k++) {
		double y = map(&l->my, plot_axis_tick(ax, k));

		if (plot_tick_shown(k, stride))
			line(sb, l->left, y, l->right, y);
	}
	strbuf_addstr(sb, "</g>\n<rect");
	attr_num(sb, "x", l->left);
	attr_num(sb, "y", l->top);
	attr_num(sb, "width", l->right - l->left);
	attr_num(sb, "height", l->bottom - l->top);
	strbuf_addstr(sb, " fill=\"none\" stroke=\"#333333\"/>\n");
	strbuf_addstr(sb, "<g stroke=\"#333333\">\n");
	for (k = ax->kmin; k <= ax->kmax; k++) {
		double y = map(&l->my, plot_axis_tick(ax, k));

		if (plot_tick_shown(k, stride))
			line(sb, l->left - TICK_LENGTH, y, l->left, y);
	}
	strbuf_addstr(sb, "</g>\n<g text-anchor=\"end\" fill=\"#333333\">\n");
	for (k = ax->kmin; k <= ax->kmax; k++) {
		double t = plot_axis_tick(ax, k);

		if (!plot_tick_shown(k, stride))
			continue;
		strbuf_addstr(sb, "<text");
		attr_num(sb, "x", l->left - TICK_LENGTH - 2);
		attr_num(sb, "y", map(&l->my, t));
		strbuf_addstr(sb, " dy=\"0.35em\">");
		plot_axis_label(ax, sb, t);
		strbuf_addstr(sb, "</text>\n");
	}
	strbuf_addstr(sb, "</g>\n");

	if (p->title) {
		strbuf_addstr(sb, "<text");
		attr_num(sb, "x", (l->left + l->right) / 2);
		attr_num(sb, "y", 18);
		strbuf_addf(sb, " text-anchor=\"middle\" font-size=\"%d\""
			    " font-weight=\"bold\">", TITLE_SIZE);
		plot_xml_escape(sb, p->title);
		strbuf_addstr(sb, "</text>\n");
	}
	if (p->ylabel) {
		double cy = (l->top + l->bottom) / 2;

		strbuf_addstr(sb, "<text x=\"14\"");
		attr_num(sb, "y", cy);
		strbuf_addstr(sb, " text-anchor=\"middle\" transform=\"rotate(-90 14 ");
		num(sb, cy);
		strbuf_addstr(sb, ")\">");
		plot_xml_escape(sb, p->ylabel);
		strbuf_addstr(sb, "</text>\n");
	}
}

/* One <polyline> per run of drawable points: a bad point breaks the line. */
static void draw_lines(struct strbuf *sb, const struct plot_series *s,
		       const struct layout *l)
{
	size_t i, run = 0;

	for (i = 0; i <= s->nr; i++) {
		bool ok = i < s->nr && plot_value_ok(s->points[i].x) &&
			  plot_value_ok(s->points[i].y);

		if (ok) {
			strbuf_addstr(sb, run ? " " : "<polyline points=\"");
			num(sb, map(&l->mx, s->points[i].x));
			strbuf_addch(sb, ',');
			num(sb, map(&l->my, s->points[i].y));
			run++;
		} else if (run) {
			strbuf_addf(sb, "\" fill=\"none\" stroke=\"%s\""
				    " stroke-opacity=\"0.6\"/>\n",
				    marker_style[s->marker].stroke);
			run = 0;
		}
	}
}

static void draw_points(struct strbuf *sb, const struct plot_series *s,
			const struct layout *l)
{
	const struct marker_style *ms = &marker_style[s->marker];
	struct strbuf tip = STRBUF_INIT;
	size_t i;

	strbuf_addf(sb, "<g fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\">\n",
		    ms->fill, ms->stroke, ms->stroke_width);
	for (i = 0; i < s->nr; i++) {
		const struct plot_point *pt = &s->points[i];

		if (!plot_value_ok(pt->x) || !plot_value_ok(pt->y))
			continue;
		strbuf_addstr(sb, "<circle");
		attr_num(sb, "cx", map(&l->mx, pt->x));
		attr_num(sb, "cy", map(&l->my, pt->y));
		strbuf_addf(sb, " r=\"%d\"><title>", POINT_RADIUS);
		strbuf_reset(&tip);
		if (s->name)
			strbuf_addf(&tip, "%s: ", s->name);
		tooltip_value(&tip, pt->y);
		plot_xml_escape(sb, tip.buf);
		strbuf_addstr(sb, "</title></circle>\n");
	}
	strbuf_addstr(sb, "</g>\n");
	strbuf_release(&tip);
}

static void draw_legend(struct strbuf *sb, const struct plot *p,
			const struct layout *l)
{
	double x = l->left, y = l->h - 10;
	size_t i;

	if (!has_legend(p))
		return;
	strbuf_addstr(sb, "<g>\n");
	for (i = 0; i < p->nr_series; i++) {
		const struct plot_series *s = p->series[i];
		const struct marker_style *ms = &marker_style[s->marker];

		if (!s->name)
			continue;
		strbuf_addstr(sb, "<circle");
		attr_num(sb, "cx", x + POINT_RADIUS);
		attr_num(sb, "cy", y - POINT_RADIUS);
		strbuf_addf(sb, " r=\"%d\" fill=\"%s\" stroke=\"%s\""
			    " stroke-width=\"%s\"/>\n", POINT_RADIUS,
			    ms->fill, ms->stroke, ms->stroke_width);
		strbuf_addstr(sb, "<text");
		attr_num(sb, "x", x + 2 * POINT_RADIUS + 4);
		attr_num(sb, "y", y);
		strbuf_addch(sb, '>');
		plot_xml_escape(sb, s->name);
		strbuf_addstr(sb, "</text>\n");
		x += 2 * POINT_RADIUS + 4 + strlen(s->name) * CHAR_WIDTH *
		     FONT_SIZE + 16;
	}
	strbuf_addstr(sb, "</g>\n");
}

void plot_svg(const struct plot *p, struct strbuf *out)
{
	struct layout l;
	size_t i;

	compute_layout(p, &l);
	strbuf_addstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
	num(out, l.w);
	strbuf_addch(out, ' ');
	num(out, l.h);
	strbuf_addstr(out, "\" style=\"width:100%;max-width:");
	num(out, l.w);
	strbuf_addf(out, "px;height:auto\" role=\"img\""
		    " font-family=\"sans-serif\" font-size=\"%d\">\n", FONT_SIZE);
	if (p->title) {
		strbuf_addstr(out, "<title>");
		plot_xml_escape(out, p->title);
		strbuf_addstr(out, "</title>\n");
	}
	strbuf_addstr(out, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");

	draw_bands(out, p, &l);
	draw_marks(out, p, &l);
	draw_axes(out, p, &l);
	for (i = 0; i < p->nr_series; i++)
		if (p->series[i]->lines)
			draw_lines(out, p->series[i], &l);
	for (i = 0; i < p->nr_series; i++)
		draw_points(out, p->series[i], &l);
	draw_legend(out, p, &l);
	strbuf_addstr(out, "</svg>\n");
}
