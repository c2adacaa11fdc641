/*
 * plot_ascii.c: plots as text, in the style of gnuplot's dumb terminal as
 * lkp-tests drives it for bisect emails ("dumb nofeed size 80,20", ytics
 * nomirror, no xtics, good samples "linespoints lt 0", bad ones "points").
 *
 * The picture is drawn on a character canvas whose y grows upward, as
 * gnuplot's does.  Every cell remembers the priority of what set it and
 * is only overwritten by something of higher priority, so data lines
 * never cut the border or text, and points win over everything but text.
 *
 * Layout on a W x H canvas (columns 0..W-1, rows counted from the bottom):
 *   - the box's left border is at column L + 4, L being the widest y tick
 *     label; the labels end two columns left of it, right-aligned; the
 *     right border is at W - 4;
 *   - the box spans rows 2 .. H - 4; the title is centred over the box on
 *     row H - 2, the y label (if any) on row H - 3 above the tick labels;
 *   - ticks are "++" on the left border only (gnuplot's "ytics nomirror");
 *     on a canvas too low for one row per tick, only every n-th is drawn
 *     (plot_tick_stride);
 *   - the x axis has no ticks: x is the sample order; [min x, max x] fills
 *     the box exactly, first and last points sitting on the border;
 *   - marks are ':' columns inside the box with their label on row 1,
 *     starting at the mark (or after the previous label), cut one column
 *     short of the next labelled mark;
 *   - lines between consecutive points (series with lines) use ':' for
 *     steep runs, '.' for flat ones, '+' for exact diagonals and at the
 *     ends, as gnuplot's dumb vector does for its dotted line type 0;
 *   - points are '*' (GOOD), 'O' (BAD) and 'x' (NEUTRAL).
 * Text is ASCII: a control byte or a UTF-8 sequence shows as one '?', so
 * that columns stay aligned.
 */
#include "report/plot.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* gnuplot dumb's priorities: axis lines < border < points < text */
enum {
	PRIO_LINE = 1,
	PRIO_BORDER = 2,
	PRIO_POINT = 4,
	PRIO_TEXT = 5,
};

/* Characters of a line kind: steep run, flat run, ends and diagonals. */
struct pen {
	char steep, flat, end;
	int prio;
};

static const struct pen data_pen = { ':', '.', '+', PRIO_LINE };
static const struct pen border_pen = { '|', '-', '+', PRIO_BORDER };

static const char marker_char[] = {
	[PLOT_NEUTRAL] = 'x',
	[PLOT_GOOD] = '*',
	[PLOT_BAD] = 'O',
};

struct canvas {
	int w, h;
	char *cell;
	unsigned char *prio;
};

static void put(struct canvas *c, int x, int y, char ch, int prio)
{
	size_t i;

	if (x < 0 || y < 0 || x >= c->w || y >= c->h)
		return;
	i = (size_t)y * (size_t)c->w + (size_t)x;
	if (prio <= c->prio[i])
		return;
	c->cell[i] = ch;
	c->prio[i] = (unsigned char)prio;
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

/*
 * A line from (x0, y0) to (x1, y1), stepping along the longer axis.  The
 * offset on the other axis is truncated toward zero after adding 0.5, as
 * gnuplot does: a falling run breaks later than a rising one, which is
 * visible in lkp's plots and kept so that ours look the same.
 */
static void vector(struct canvas *c, const struct pen *pen,
		   int x0, int y0, int x1, int y1)
{
	int dx = x1 - x0, dy = y1 - y0;
	int adx = abs(dx), ady = abs(dy), d;

	if (adx == ady) {
		for (d = 0; d <= adx; d++)
			put(c, x0 + d * sign(dx), y0 + d * sign(dy), pen->end, pen->prio);
		return;
	}
	put(c, x0, y0, pen->end, pen->prio);
	if (ady > adx) {
		for (d = 1; d < ady; d++)
			put(c, x0 + (int)((double)dx * d / ady + 0.5),
			    y0 + d * sign(dy), pen->steep, pen->prio);
	} else {
		for (d = 1; d < adx; d++)
			put(c, x0 + d * sign(dx),
			    y0 + (int)((double)dy * d / adx + 0.5),
			    pen->flat, pen->prio);
	}
	put(c, x1, y1, pen->end, pen->prio);
}

/* s as one printable ASCII character per character (see the top). */
static void ascii_text(struct strbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u; u++) {
		if (*u >= 0x20 && *u < 0x7f)
			strbuf_addch(sb, *u);
		else if (*u < 0x80 || *u >= 0xc0)
			strbuf_addch(sb, '?');
		/* UTF-8 continuation bytes were counted with their lead */
	}
}

/* Text from column x on row y, at most max characters. */
static void put_text(struct canvas *c, int x, int y, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i < max; i++)
		put(c, x + (int)i, y, s[i], PRIO_TEXT);
}

/* Data to canvas coordinates: gnuplot's map_x/map_y. */
struct mapping {
	double lo, scale;
	int origin;
};

static int map(const struct mapping *m, double v)
{
	return (int)(m->origin + (v - m->lo) * m->scale + 0.5);
}

static void draw_ticks(struct canvas *c, const struct plot_axis *ax,
		       const struct mapping *my, int xleft)
{
	struct strbuf label = STRBUF_INIT;
	/* one row apart at least, or labels would share a row */
	long long k, stride = plot_tick_stride(my->scale * ax->step, 1);

	for (k = ax->kmin; k <= ax->kmax; k++) {
		double t = plot_axis_tick(ax, k);
		int y = map(my, t);

		if (!plot_tick_shown(k, stride))
			continue;
		vector(c, &border_pen, xleft, y, xleft + 1, y);
		strbuf_reset(&label);
		plot_axis_label(ax, &label, t);
		put_text(c, xleft - 1 - (int)label.len, y, label.buf, label.len);
	}
	strbuf_release(&label);
}

static void draw_marks(struct canvas *c, const struct plot *p,
		       const struct mapping *mx, int ybot, int ytop)
{
	struct strbuf label = STRBUF_INIT;
	int free_from = 0;      /* first column no earlier label uses */
	size_t i, j;
	int y;

	for (i = 0; i < p->nr_marks; i++) {
		int x, end = c->w;

		if (!plot_value_ok(p->marks[i].x))
			continue;
		x = map(mx, p->marks[i].x);
		for (y = ybot + 1; y < ytop; y++)
			put(c, x, y, data_pen.steep, data_pen.prio);
		if (!p->marks[i].label)
			continue;
		for (j = i + 1; j < p->nr_marks; j++) {
			if (p->marks[j].label && plot_value_ok(p->marks[j].x)) {
				end = map(mx, p->marks[j].x) - 1;
				break;
			}
		}
		if (x < free_from)
			x = free_from;
		if (end <= x)
			continue;
		strbuf_reset(&label);
		ascii_text(&label, p->marks[i].label);
		put_text(c, x, ybot - 1, label.buf, (size_t)(end - x));
		free_from = x + (int)(label.len < (size_t)(end - x) ?
				      label.len : (size_t)(end - x)) + 1;
	}
	strbuf_release(&label);
}

static void draw_series(struct canvas *c, const struct plot_series *s,
			const struct mapping *mx, const struct mapping *my)
{
	size_t i;
	bool have_prev = false;
	int px = 0, py = 0;

	for (i = 0; s->lines && i < s->nr; i++) {
		const struct plot_point *pt = &s->points[i];
		int x, y;

		if (!plot_value_ok(pt->x) || !plot_value_ok(pt->y)) {
			have_prev = false;
			continue;
		}
		x = map(mx, pt->x);
		y = map(my, pt->y);
		if (have_prev)
			vector(c, &data_pen, px, py, x, y);
		px = x;
		py = y;
		have_prev = true;
	}
}

static void draw_points(struct canvas *c, const struct plot_series *s,
			const struct mapping *mx, const struct mapping *my)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct plot_point *pt = &s->points[i];

		if (plot_value_ok(pt->x) && plot_value_ok(pt->y))
			put(c, map(mx, pt->x), map(my, pt->y),
			    marker_char[s->marker], PRIO_POINT);
	}
}

static size_t widest_label(const struct plot_axis *ax)
{
	struct strbuf label = STRBUF_INIT;
	size_t w = 0;
	long long k;

	for (k = ax->kmin; k <= ax->kmax; k++) {
		strbuf_reset(&label);
		plot_axis_label(ax, &label, plot_axis_tick(ax, k));
		if (label.len > w)
			w = label.len;
	}
	strbuf_release(&label);
	return w;
}

void plot_ascii(const struct plot *p, struct strbuf *out)
{
	struct plot_axis ax;
	struct mapping mx, my;
	struct canvas c;
	struct strbuf text = STRBUF_INIT;
	double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
	int xleft, xright, ybot, ytop, x, y;
	size_t i;

	plot_data_range(p, false, &xlo, &xhi, &ylo, &yhi);
	plot_axis_ticks(&ax, ylo, yhi);
	plot_range_widen(&xlo, &xhi);

	xleft = (int)widest_label(&ax) + 4;
	c.w = p->text_width > 0 ? p->text_width : PLOT_TEXT_WIDTH;
	c.h = p->text_height > 0 ? p->text_height : PLOT_TEXT_HEIGHT;
	/* room for a box at least 6 columns wide and 2 rows high inside */
	if (c.w < xleft + 10)
		c.w = xleft + 10;
	if (c.h < 8)
		c.h = 8;
	xright = c.w - 4;
	ybot = 2;
	ytop = c.h - 4;
	c.cell = xmalloc((size_t)c.w * (size_t)c.h);
	c.prio = xcalloc((size_t)c.w * (size_t)c.h, 1);
	memset(c.cell, ' ', (size_t)c.w * (size_t)c.h);

	mx.lo = xlo;
	mx.scale = (xright - xleft) / (xhi - xlo);
	mx.origin = xleft;
	my.lo = ax.min;
	my.scale = (ytop - ybot) / (ax.max - ax.min);
	my.origin = ybot;

	/* ticks before the border, so that the border keeps their '+' */
	draw_ticks(&c, &ax, &my, xleft);
	vector(&c, &border_pen, xleft, ybot, xleft, ytop);
	vector(&c, &border_pen, xleft, ytop, xright, ytop);
	vector(&c, &border_pen, xright, ytop, xright, ybot);
	vector(&c, &border_pen, xright, ybot, xleft, ybot);

	if (p->title) {
		ascii_text(&text, p->title);
		x = (xleft + xright) / 2 - (int)text.len / 2;
		if (x + (int)text.len > c.w)
			x = c.w - (int)text.len;
		put_text(&c, x < 0 ? 0 : x, c.h - 2, text.buf, text.len);
	}
	if (p->ylabel) {
		strbuf_reset(&text);
		ascii_text(&text, p->ylabel);
		put_text(&c, xleft - 1 - (int)widest_label(&ax), c.h - 3,
			 text.buf, text.len);
	}

	for (i = 0; i < p->nr_series; i++)
		draw_series(&c, p->series[i], &mx, &my);
	draw_marks(&c, p, &mx, ybot, ytop);
	for (i = 0; i < p->nr_series; i++)
		draw_points(&c, p->series[i], &mx, &my);

	for (y = c.h - 1; y >= 0; y--) {
		const char *row = c.cell + (size_t)y * (size_t)c.w;
		int len = c.w;

		while (len > 0 && row[len - 1] == ' ')
			len--;
		strbuf_add(out, row, (size_t)len);
		strbuf_addch(out, '\n');
	}
	free(c.cell);
	free(c.prio);
	strbuf_release(&text);
}
