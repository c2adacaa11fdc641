/*
 * plot_scale.c: the plot data model (see plot.h) and what both renderers
 * share: data extent, gnuplot-like tick choice and number formatting.
 */
#include "report/plot.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void plot_init(struct plot *p, const char *title)
{
	memset(p, 0, sizeof(*p));
	p->title = xstrdup_or_null(title);
	p->text_width = PLOT_TEXT_WIDTH;
	p->text_height = PLOT_TEXT_HEIGHT;
	p->svg_width = PLOT_SVG_WIDTH;
	p->svg_height = PLOT_SVG_HEIGHT;
}

void plot_release(struct plot *p)
{
	size_t i;

	for (i = 0; i < p->nr_series; i++) {
		free(p->series[i]->name);
		free(p->series[i]->points);
		free(p->series[i]);
	}
	free(p->series);
	for (i = 0; i < p->nr_marks; i++)
		free(p->marks[i].label);
	free(p->marks);
	free(p->bands);
	free(p->title);
	free(p->ylabel);
	plot_init(p, NULL);
}

void plot_set_ylabel(struct plot *p, const char *ylabel)
{
	free(p->ylabel);
	p->ylabel = xstrdup_or_null(ylabel);
}

struct plot_series *plot_add_series(struct plot *p, const char *name,
				    enum plot_marker marker, bool lines)
{
	struct plot_series *s = xcalloc(1, sizeof(*s));

	s->name = xstrdup_or_null(name);
	s->marker = marker;
	s->lines = lines;
	ALLOC_GROW(p->series, p->nr_series + 1, p->alloc_series);
	p->series[p->nr_series++] = s;
	return s;
}

void plot_series_add(struct plot_series *s, double x, double y)
{
	ALLOC_GROW(s->points, s->nr + 1, s->alloc);
	s->points[s->nr].x = x;
	s->points[s->nr].y = y;
	s->nr++;
}

void plot_add_band(struct plot *p, double x_lo, double x_hi, double mean,
		   double stddev, enum plot_marker marker)
{
	struct plot_band *b;

	ALLOC_GROW(p->bands, p->nr_bands + 1, p->alloc_bands);
	b = &p->bands[p->nr_bands++];
	b->x_lo = x_lo;
	b->x_hi = x_hi;
	b->mean = mean;
	b->stddev = stddev;
	b->marker = marker;
}

void plot_add_mark(struct plot *p, double x, const char *label)
{
	ALLOC_GROW(p->marks, p->nr_marks + 1, p->alloc_marks);
	p->marks[p->nr_marks].x = x;
	p->marks[p->nr_marks].label = xstrdup_or_null(label);
	p->nr_marks++;
}

bool plot_value_ok(double v)
{
	return isfinite(v) && fabs(v) <= PLOT_MAX_ABS;
}

static void extend(double v, bool *any, double *lo, double *hi)
{
	if (!plot_value_ok(v))
		return;
	if (!*any || v < *lo)
		*lo = v;
	if (!*any || v > *hi)
		*hi = v;
	*any = true;
}

bool plot_data_range(const struct plot *p, bool with_bands,
		     double *xlo, double *xhi, double *ylo, double *yhi)
{
	bool anyx = false, anyy = false;
	double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
	size_t i, j;

	for (i = 0; i < p->nr_series; i++) {
		const struct plot_series *s = p->series[i];

		for (j = 0; j < s->nr; j++) {
			if (!plot_value_ok(s->points[j].x) ||
			    !plot_value_ok(s->points[j].y))
				continue;
			extend(s->points[j].x, &anyx, &x0, &x1);
			extend(s->points[j].y, &anyy, &y0, &y1);
		}
	}
	for (i = 0; i < p->nr_marks; i++)
		extend(p->marks[i].x, &anyx, &x0, &x1);
	for (i = 0; with_bands && i < p->nr_bands; i++) {
		const struct plot_band *b = &p->bands[i];
		double sd = plot_value_ok(b->stddev) ? fabs(b->stddev) : 0;

		if (!plot_value_ok(b->mean) || !plot_value_ok(b->x_lo) ||
		    !plot_value_ok(b->x_hi))
			continue;
		/* a one-x band is drawn one x unit wide (see plot.h) */
		extend(b->x_lo == b->x_hi ? b->x_lo - 0.5 : b->x_lo, &anyx, &x0, &x1);
		extend(b->x_lo == b->x_hi ? b->x_hi + 0.5 : b->x_hi, &anyx, &x0, &x1);
		extend(b->mean - sd, &anyy, &y0, &y1);
		extend(b->mean + sd, &anyy, &y0, &y1);
	}
	/* marks alone give an x extent but nothing to scale y on */
	if (!anyy)
		return false;
	*xlo = x0;
	*xhi = x1;
	*ylo = y0;
	*yhi = y1;
	return true;
}

void plot_range_widen(double *lo, double *hi)
{
	double mid;

	if (*lo > *hi) {
		double t = *lo;
		*lo = *hi;
		*hi = t;
	}
	/* below this, %g-ish labels and character rows cannot tell ends apart */
	if (*hi - *lo > fmax(fabs(*lo), fabs(*hi)) * 1e-10)
		return;
	mid = *lo / 2 + *hi / 2;
	if (mid == 0) {
		*lo = -1;
		*hi = 1;
	} else {
		*lo = mid - fabs(mid) * 0.01;
		*hi = mid + fabs(mid) * 0.01;
	}
}

/*
 * gnuplot's quantize_normal_tics with its default guide of 20: with the
 * range normalised to xnorm in [1, 10) times a power of ten, the step is
 * the first entry whose bound exceeds xnorm.  Each gives 4 to 10 intervals.
 */
static const struct {
	double below;           /* xnorm < below */
	int tenths;             /* step = tenths / 10 * power */
} tick_steps[] = {
	{ 2, 2 },
	{ 5, 5 },
	{ 10, 10 },
};

/* Relative tolerance for values that sit on a boundary but for rounding. */
#define TICK_SLACK 1e-9

void plot_axis_ticks(struct plot_axis *ax, double lo, double hi)
{
	double range, power, xnorm;
	size_t i;
	int tenths = 10;

	plot_range_widen(&lo, &hi);
	range = hi - lo;
	power = pow(10, floor(log10(range)));
	xnorm = range / power;
	/* log10 and the subtraction may land one off near powers of ten */
	if (xnorm >= 10 * (1 - TICK_SLACK)) {
		power *= 10;
		xnorm /= 10;
	} else if (xnorm < 1 - TICK_SLACK) {
		power /= 10;
		xnorm *= 10;
	}
	for (i = 0; i < sizeof(tick_steps) / sizeof(tick_steps[0]); i++) {
		/* 0.3 - 0.1 is 0.19999999999999998: still a range of 0.2 */
		if (xnorm < tick_steps[i].below * (1 - TICK_SLACK)) {
			tenths = tick_steps[i].tenths;
			break;
		}
	}
	ax->step = tenths * power / 10;
	ax->kmin = (long long)floor(lo / ax->step + TICK_SLACK);
	ax->kmax = (long long)ceil(hi / ax->step - TICK_SLACK);
	if (ax->kmax <= ax->kmin)
		ax->kmax = ax->kmin + 1;
	ax->min = plot_axis_tick(ax, ax->kmin);
	ax->max = plot_axis_tick(ax, ax->kmax);

	/* gnuplot's "%g" has 6 digits; add some only if labels would repeat */
	for (ax->prec = 6; ax->prec < 17; ax->prec++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		long long k;
		bool distinct = true;

		for (k = ax->kmin; k < ax->kmax && distinct; k++) {
			strbuf_reset(&a);
			strbuf_reset(&b);
			plot_axis_label(ax, &a, plot_axis_tick(ax, k));
			plot_axis_label(ax, &b, plot_axis_tick(ax, k + 1));
			distinct = strcmp(a.buf, b.buf) != 0;
		}
		strbuf_release(&a);
		strbuf_release(&b);
		if (distinct)
			break;
	}
}

long long plot_tick_stride(double interval, double min_gap)
{
	if (!(interval > 0) || interval >= min_gap)
		return 1;
	return (long long)ceil(min_gap / interval - TICK_SLACK);
}

bool plot_tick_shown(long long k, long long stride)
{
	return k % stride == 0;
}

double plot_axis_tick(const struct plot_axis *ax, long long k)
{
	return (double)k * ax->step;
}

void plot_add_number(struct strbuf *sb, char conv, int prec, double v)
{
	size_t start = sb->len, i, j;
	bool radix_done = false;

	if (conv == 'f')
		strbuf_addf(sb, "%.*f", prec, v);
	else
		strbuf_addf(sb, "%.*g", prec, v);
	/*
	 * printf's radix follows LC_NUMERIC, possibly as several bytes; in
	 * its output everything but digits, sign, exponent and inf/nan
	 * letters is the radix: write it back as one '.'.
	 */
	for (i = j = start; i < sb->len; i++) {
		char c = sb->buf[i];

		if (strchr("0123456789+-eEinfaINFA", c)) {
			sb->buf[j++] = c;
		} else if (!radix_done) {
			sb->buf[j++] = '.';
			radix_done = true;
			while (i + 1 < sb->len &&
			       !strchr("0123456789+-eEinfaINFA", sb->buf[i + 1]))
				i++;
		}
	}
	strbuf_setlen(sb, j);
}

void plot_axis_label(const struct plot_axis *ax, struct strbuf *sb, double v)
{
	plot_add_number(sb, 'g', ax->prec, v);
}

/* Length of the valid UTF-8 sequence (a non-ASCII XML Char) at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
		return 0;
	/* U+FFFE and U+FFFF are not XML characters */
	if (c == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf))
		return 0;
	return n;
}

void plot_xml_escape(struct strbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		size_t n;

		switch (*u) {
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		case '\t': case '\n': case '\r':
			strbuf_addch(sb, *u);
			break;
		default:
			if (*u < 0x20 || *u == 0x7f) {
				strbuf_addch(sb, '?');
			} else if (*u < 0x80) {
				strbuf_addch(sb, *u);
			} else if ((n = utf8_len(u)) != 0) {
				strbuf_add(sb, u, n);
				u += n;
				continue;
			} else {
				strbuf_addch(sb, '?');
			}
		}
		u++;
	}
}
