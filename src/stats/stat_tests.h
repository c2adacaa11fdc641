#ifndef PERFBOT_STAT_TESTS_H
#define PERFBOT_STAT_TESTS_H
/*
 * Two-sample tests used to decide whether a metric changed.  Our own code
 * (the brief forbids pulling in a stats library); tests/unit checks the
 * numbers against GSL.
 *
 * Both return a two-sided p-value in [0, 1]; NaN when undefined (fewer
 * than 2 samples a side for Welch, or no variance in either sample with
 * equal means).
 */

/* Regularized incomplete beta I_x(a, b), by Lentz's continued fraction. */
double incbeta(double a, double b, double x);
/* Two-sided p of Student's t with df degrees of freedom: I_{df/(df+t^2)}(df/2, 1/2). */
double t_pvalue(double t, double df);

/*
 * Welch's unequal-variance t-test.  Sets *t and *df when not NULL.
 * Zero variance on both sides: p = 0 if the means differ, 1 if equal.
 */
double welch_test(const double *a, int na, const double *b, int nb, double *t, double *df);

/*
 * Mann-Whitney U, two-sided.  Exact (by counting rank-sum distributions)
 * when there are no ties and na + nb <= 50; otherwise the normal
 * approximation with tie correction and continuity correction.
 * Sets *u (U of sample a) when not NULL.
 */
double mann_whitney(const double *a, int na, const double *b, int nb, double *u);

/* Smallest p the exact two-sided Mann-Whitney can give for sizes na, nb:
 * 2 / C(na+nb, na).  Used to tell "cannot reach alpha" from "no change". */
double mann_whitney_min_p(int na, int nb);

#endif
