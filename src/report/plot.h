#ifndef PERFBOT_PLOT_H
#define PERFBOT_PLOT_H
/*
 * Per-sample plots for reports: one data model, two renderers.
 *
 *   plot_ascii()  text in the style of gnuplot's "dumb" terminal, as lkp's
 *                 bisect emails show it ("each point below represents a
 *                 sample run"), 80x20 characters by default;
 *   plot_svg()    a self-contained <svg> element for the HTML report.
 *
 * Both take their y axis from plot_axis_ticks() (plot_scale.c), so a text
 * and an HTML report of the same data show the same ticks.  Output depends
 * only on the plot: no time, no locale (numbers always use '.').
 *
 * Building a plot:
 *
 *   struct plot p;
 *   plot_init(&p, "vm-scalability.throughput");
 *   struct plot_series *good = plot_add_series(&p, "1d3d4437", PLOT_GOOD, true);
 *   plot_series_add(good, 1, 13222395);
 *   ...
 *   plot_ascii(&p, &sb);
 *   plot_release(&p);
 *
 * Ownership: the plot owns copies of every string and point given to it;
 * plot_release() frees them all.  Series are allocated one by one, so a
 * pointer returned by plot_add_series() stays valid until plot_release().
 *
 * Marker kinds are display roles, not bisect verdicts: GOOD draws '*' and a
 * filled green circle, BAD draws 'O' and a hollow red circle, NEUTRAL 'x'
 * and a filled grey circle.  The caller decides which series is BAD: for a
 * regression the new commit's samples, for an improvement (if it wants the
 * better commit green) the base's.
 *
 * Points whose coordinates are not finite, or exceed PLOT_MAX_ABS in
 * magnitude, are not drawn and break a series' line.
 */
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

#define PLOT_TEXT_WIDTH 80      /* gnuplot "dumb size 80,20", as lkp uses */
#define PLOT_TEXT_HEIGHT 20
#define PLOT_SVG_WIDTH 640      /* viewBox user units */
#define PLOT_SVG_HEIGHT 320
#define PLOT_MAX_ABS 1e300      /* beyond this a value is treated as garbage */

enum plot_marker {
	PLOT_NEUTRAL,
	PLOT_GOOD,
	PLOT_BAD,
};

struct plot_point {
	double x, y;
};

struct plot_series {
	char *name;                 /* owned; NULL: unnamed (no legend entry) */
	enum plot_marker marker;
	bool lines;                 /* join consecutive points ("linespoints") */
	struct plot_point *points;  /* owned, in drawing order */
	size_t nr, alloc;
};

/* Mean +- stddev over the x interval [x_lo, x_hi]; drawn by plot_svg only. */
struct plot_band {
	double x_lo, x_hi;          /* x_lo == x_hi: one x unit wide around x */
	double mean, stddev;
	enum plot_marker marker;    /* colour, as for points */
};

/* A vertical separator at x with an optional label under the x axis
 * (e.g. where the samples of the next commit begin). */
struct plot_mark {
	double x;
	char *label;                /* owned; may be NULL */
};

struct plot {
	char *title;                /* owned; may be NULL */
	char *ylabel;               /* owned; may be NULL */
	struct plot_series **series;    /* owned, each owned; nr_series of them */
	size_t nr_series, alloc_series;
	struct plot_band *bands;
	size_t nr_bands, alloc_bands;
	struct plot_mark *marks;    /* should be in increasing x */
	size_t nr_marks, alloc_marks;
	/* Canvas sizes, set to the defaults by plot_init; 0 or less also
	 * means the default. */
	int text_width, text_height;    /* plot_ascii, in characters */
	int svg_width, svg_height;      /* plot_svg, viewBox user units */
};

/* Start an empty plot with the default sizes; title may be NULL. */
void plot_init(struct plot *p, const char *title);
/* Free everything the plot owns and leave it as after plot_init(p, NULL). */
void plot_release(struct plot *p);
/* Replace the y axis label (copied; NULL removes it). */
void plot_set_ylabel(struct plot *p, const char *ylabel);
/* Append a series (name copied, may be NULL).  The returned series belongs
 * to the plot and stays valid until plot_release(). */
struct plot_series *plot_add_series(struct plot *p, const char *name,
				    enum plot_marker marker, bool lines);
/* Append the point (x, y) to a series. */
void plot_series_add(struct plot_series *s, double x, double y);
void plot_add_band(struct plot *p, double x_lo, double x_hi, double mean,
		   double stddev, enum plot_marker marker);
/* Append a separator at x (label copied, may be NULL). */
void plot_add_mark(struct plot *p, double x, const char *label);

/*
 * Render p as gnuplot dumb-terminal text, appending to out: text_height
 * lines (trailing blanks trimmed, each ending in '\n'), at most text_width
 * characters wide.  Sizes below a usable minimum are raised to it.  Bands
 * and series names are not drawn.  See plot_ascii.c for the layout rules.
 */
void plot_ascii(const struct plot *p, struct strbuf *out);

/*
 * Render p as one <svg> element (no XML declaration, no external
 * resources), appending to out; it ends with a newline.  See plot_svg.c.
 */
void plot_svg(const struct plot *p, struct strbuf *out);

/* --- Shared by the renderers (plot_scale.c); exposed for tests. --- */

/*
 * A y axis: ticks at k * step for k in [kmin, kmax], the range [min, max]
 * being exactly the first and the last tick.  prec is the %g precision
 * that gives every tick a distinct label (6, gnuplot's, unless too few).
 */
struct plot_axis {
	double min, max, step;
	long long kmin, kmax;
	int prec;
};

/*
 * Choose ticks for data in [lo, hi] as gnuplot's autoscale does: a step
 * of 1, 2 or 5 times a power of ten giving 4 to 10 intervals over the
 * data, then the range extended outward to multiples of the step.  An
 * empty range (lo == hi, or a difference below 1e-10 relative) is first
 * widened by 1% of |lo| each way, or to [-1, 1] around 0.  lo > hi is
 * swapped.  Values must be finite and within PLOT_MAX_ABS.
 */
void plot_axis_ticks(struct plot_axis *ax, double lo, double hi);
/* The value of tick k (exact k * step, so tick 0 is +0). */
double plot_axis_tick(const struct plot_axis *ax, long long k);
/* Append the label of value v with ax->prec, like C's "%g" in the C
 * locale ("1.5e+07", "9e+06", "0.2"). */
void plot_axis_label(const struct plot_axis *ax, struct strbuf *sb, double v);

/*
 * Which ticks get a label when a tick interval is interval units long
 * (rows, pixels) and labels need min_gap units: tick k is shown when k is
 * a multiple of the returned stride (1 unless crowded), which keeps 0.
 */
long long plot_tick_stride(double interval, double min_gap);
bool plot_tick_shown(long long k, long long stride);

/* Widen an empty range as plot_axis_ticks() does (also used for x). */
void plot_range_widen(double *lo, double *hi);

/* Append v as printf's "%.*g" (conv 'g') or "%.*f" (conv 'f') would in
 * the C locale: the radix is '.' whatever LC_NUMERIC says. */
void plot_add_number(struct strbuf *sb, char conv, int prec, double v);

/* A point is drawn when this holds for both its coordinates. */
bool plot_value_ok(double v);

/*
 * The extent of what the plot draws: points, marks and (when with_bands)
 * bands' mean +- stddev and x interval.  Returns false, leaving the
 * outputs untouched, when there is nothing to draw.
 */
bool plot_data_range(const struct plot *p, bool with_bands,
		     double *xlo, double *xhi, double *ylo, double *yhi);

/* Append s with <, >, &, " and ' as entities; control characters and
 * invalid UTF-8 bytes become '?' so that the result is always XML 1.0. */
void plot_xml_escape(struct strbuf *sb, const char *s);

#endif
