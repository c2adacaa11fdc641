#ifndef PERFBOT_BISECT_TREND_H
#define PERFBOT_BISECT_TREND_H
/*
 * The trend model of a bisection (decide.c's verdicts use it): the
 * log of the metric along the range as one line plus one step,
 *
 *     log y(x) = a + b x + c [x is on the bad side],
 *
 * fitted by weighted least squares to the mean log of each tested
 * commit's runs (weights: its runs; the logs clipped about their
 * commit's median at 2.5 robust scales, as decide.c clips the runs it
 * compares; of a commit of 2 runs that disagree by more than 1.5 times
 * as much, the one farther from the first fit's line is put that far
 * from the other, and the lines refitted), with the noise from the runs
 * about their own commit's mean.  A slow drift compounds per commit, so
 * it is a line in the log; the pooled sides of decide.h mix every level
 * along it, and their spread is the drift's, not the noise's.  Against the
 * two lines a commit's verdict is as sharp as against flat sides: the
 * lines' offset c is the step, however far the drift carried the ends.
 *
 * Internal to src/bisect/; decide.h declares struct bisect_trend.
 */
#include "bisect/decide.h"

#include <stdbool.h>

/*
 * At least this many tested commits (the endpoints among them) before a
 * fit: three parameters, which three commits determine (their runs, not
 * their scatter about the fit, give the noise); a fourth is the first
 * that can test the fit (lof_p).  Three, not four: the drift's second
 * verdict, between the first commit and an endpoint, then has the
 * lines to go by instead of the fixed level's midpoint, and takes 4 runs
 * instead of 12 (bench/bisect-sim.sh: the drift 75 -> 69 mean runs).
 * So decide.c's fixed level judges only the first verdict.
 */
#define TREND_MIN_POINTS 3

struct trend_fit {
	double beta[3];         /* a, b, c: x scaled to x0..x0 + scale -> 0..1 */
	double inv[3][3];       /* (X'WX)^-1: times s2, beta's covariance */
	double s2;              /* the runs' own noise (log), pooled */
	int df;                 /* its degrees of freedom */
	int npts;               /* tested commits fitted */
	double x0, scale;
	double lof_p;           /* p of the points' scatter about the fit
				 * against the noise (lack of fit); 1 with
				 * no degree left to test */
	double total;           /* mean log of the last point less the
				 * first: the direction from good to bad */
	double clip;            /* logs clipped at their commit's median
				 * +- clip (of 2 runs: the one off the line
				 * at the other +- 1.5 clip; 0: none),
				 * trend.c says why */
	double ystep;           /* the step's mean log (0: no step) */
	double side_y[2];       /* good's and bad's mean log, by runs */
	double side_n[2];       /* and their runs */
	double nb_y[2];         /* the step's neighbours' mean logs: the good
				 * point nearest below t->x, the bad nearest
				 * above */
	int nb_n[2];            /* and their runs (0: no such neighbour) */
	int side_pts[2];        /* tested commits on each side */
};

/*
 * Fit t's points, with the step's runs (may be NULL) counted in the
 * noise only.  False when there are fewer than TREND_MIN_POINTS, a value
 * is not positive (no log), or the positions leave the fit undetermined.
 */
bool trend_fit(const struct bisect_trend *t, const struct sample_set *step,
	       struct trend_fit *f);

/*
 * The references of a verdict by the trend, when the model stands for
 * this range: the step's runs against the good and the bad line at its
 * position.  d is the step (c, log), vd its variance; x the step's mean
 * log less the lines' midpoint there, vx the variance of x (the step's
 * runs and the fit's); df the noise's degrees.
 */
struct trend_refs {
	double d, vd, x, vx;
	int df;
};

/*
 * bench/bisect-sim.sh tuned these on a drift of -0.1% a commit with a
 * -10% step, against two steps and single steps (seeds 1-3): lower
 * neighbour or slope thresholds let a second step's two levels pass for
 * a trend (two steps lost up to a point of accuracy), higher ones left
 * drifts to the pooled sides; a step of fewer than 3 standard errors was
 * mostly two levels of a second step fitted as one line.
 */
#define TREND_NEIGHBOUR_Z 4.0
#define TREND_SLOPE_Z 5.0
#define TREND_LOF_P 0.01
#define TREND_STEP_Z 3.0
/*
 * With three commits the step is the bad one's distance from the line
 * through the other two (or the converse), extrapolated over the range:
 * its standard error is several times a commit's, and 3 of them leave
 * most drifts to the fixed level.  The verdict's ratio takes the step
 * less one standard error (decide.c), so a step of 1 is about the least
 * that can lean a verdict; a second step's levels pass the slope's 5
 * standard errors with three commits only rarely (bench/bisect-sim.sh,
 * the drift: 3 -> 97.0% in 75.7 mean runs, 2 -> 98.6% in 70.3, 1 ->
 * 99.0% in 69.0, two steps 98.7-98.8% throughout; 0 took two steps to
 * 97.0%).  The same holds with more commits while one side is its
 * endpoint alone: that side's level is the line of the other side's
 * commits carried across the range to one point, and at 3 standard
 * errors the trend declined such verdicts, which the pooled sides or a
 * neighbour hundreds of commits away then judged (bench/bisect-sim.sh,
 * seeds 1-3: the drift 98.9/99.1/99.0% in 68.9/67.6/68.6 mean runs ->
 * 99.0/99.2/99.1% in 68.1/66.8/67.9, t3 on the drift 90.8/90.8/90.6%
 * -> 92.2/91.8/91.5%, two steps 98.8/99.4/99.1% -> 98.6/99.4/99.1%).
 */
#define TREND_STEP_Z3 1.0

/*
 * Both tested neighbours of the fit's step (nb_y) lie TREND_NEIGHBOUR_Z
 * standard errors of f's noise off the rest of their side: each side's
 * level moves along the range, which a drift does and two flat sides
 * never do.  A neighbour's runs are among its side's, so its mean
 * differs from the side's by noise of variance s2 (1/n - 1/n_side).
 */
bool trend_neighbours_moved(const struct trend_fit *f);

/*
 * The fit alone shows a drift: its slope is TREND_SLOPE_Z standard
 * errors from 0, its lack of fit no worse than p = TREND_LOF_P (with
 * four commits or more; three fit exactly), and its step TREND_STEP_Z
 * standard errors from 0 (TREND_STEP_Z3 while a side has one tested
 * commit, as three commits always do): a drift whose neighbours are
 * still the endpoints.
 */
bool trend_sloped(const struct trend_fit *f);

/*
 * Whether the trend decides the step, and its references into *out: it
 * fits (with the step's runs in the noise), either of the two above
 * holds, and the step c goes the way from good to bad (a step against
 * it is no first bad commit).  False leaves the verdict to the pooled
 * sides.  sv is the variance of one of the step's runs in units of the
 * noise (decide.h's BISECT_PAIRED_VAR for paired runs, else 1).
 */
bool trend_decides(const struct bisect_trend *t, const struct sample_set *step, double sv,
		   struct trend_refs *out);

#endif
