#ifndef PERFBOT_STAT_TESTS_H
#define PERFBOT_STAT_TESTS_H
/*
 * Two-sample tests used to decide whether a metric changed (stat_rule.c),
 * and the special functions under them.  Our own code (the brief forbids
 * pulling in a stats library); tests/unit/test_stat_tests.c checks the
 * numbers against GSL and against brute-force enumeration.
 *
 * Conventions shared by every function here:
 *   - p-values are two-sided, in [0, 1];
 *   - NaN means "undefined": bad parameters, too few samples, or a NaN or
 *     infinite sample anywhere in the input (a corrupt measurement must not
 *     silently turn into "no change" or "changed");
 *   - nothing allocates memory the caller must free; inputs are not
 *     modified (except bh_adjust, which works in place).
 */
#include <stdbool.h>

/*
 * Regularized incomplete beta I_x(a, b) for a > 0, b > 0, 0 <= x <= 1,
 * by Lentz's continued fraction (on I_{1-x}(b, a) when x is past the
 * mean, where the fraction would converge slowly).  NaN for arguments
 * outside that domain.
 */
double incbeta(double a, double b, double x);

/*
 * Two-sided p of Student's t with df > 0 degrees of freedom (df may be
 * fractional, as Welch's is; df = INFINITY gives the normal limit):
 * P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2).  +-INFINITY t gives 0;
 * NaN t or df <= 0 gives NaN.
 */
double t_pvalue(double t, double df);

/*
 * Welch's unequal-variance t-test of mean(a) against mean(b).  Sets *t
 * (positive when a's mean is larger) and *df (Welch-Satterthwaite) when
 * not NULL; they are NaN when the p-value is.
 *
 * NaN when na < 2 or nb < 2 (no variance estimate) or on non-finite input.
 * Zero variance on both sides: the samples are two constants, so there is
 * no noise to weigh the difference against; p = 0 (t = +-INFINITY) if the
 * constants differ, p = 1 (t = 0) if they are equal; *df = na + nb - 2.
 * Means and variances are computed on values shifted by a[0] and centred
 * (two-pass with compensation), so 1e15 counters that differ by units keep
 * their low digits.
 */
double welch_test(const double *a, int na, const double *b, int nb, double *t, double *df);

/*
 * Mann-Whitney U of a against b, two-sided.  Sets res->u to U of sample
 * a (the number of pairs with a_i > b_j, ties counting 1/2) and
 * res->exact to whether the p-value is the exact permutation p, when res
 * is not NULL.
 *
 * Exact whenever the permutation distribution is cheap to count:
 *   - no ties, neither sample above MWU_EXACT_MAX_N: the distribution of
 *     U by mann_whitney_exact_p, at most 50 * 50 * 1250 ~ 3e6 additions
 *     and 1 MB at the limit;
 *   - ties, neither sample above MWU_EXACT_TIES_MAX_N: the distribution
 *     of the mid-rank sum under the observed tie structure by
 *     mann_whitney_exact_tied_p, at most 40 * 20 * 1640 ~ 1.3e6 additions.
 *     Integer counters nearly always tie, and the normal approximation is
 *     worst exactly there: [5,5,7,9,9] vs [3,3,4,5,5] gives 0.0301 by the
 *     approximation and 0.0476 exactly.
 * Past the limits, the normal approximation with the tie correction of
 * the variance and a continuity correction of 1/2; without ties it is
 * within 2e-3 of the exact p everywhere and within 5e-4 for p in
 * [0.01, 0.1] at 51 vs 51 (the error shrinks like 1/n).
 *
 * NaN when na < 1 or nb < 1 or on non-finite input.  All values tied
 * (the whole pooled sample is one value): p = 1, exact — ranks carry no
 * evidence.
 */
#define MWU_EXACT_MAX_N 50
#define MWU_EXACT_TIES_MAX_N 20
struct mwu_result {
	double u;
	bool exact;             /* p is the exact permutation p */
};
double mann_whitney_test(const double *a, int na, const double *b, int nb,
			 struct mwu_result *res);
/* mann_whitney_test, setting only *u (when not NULL). */
double mann_whitney(const double *a, int na, const double *b, int nb, double *u);

/*
 * Exact two-sided p of U = u when the pooled sample, sorted, falls into
 * nr_groups runs of equal values of the given sizes (1 for an untied
 * value), na of the values being a's: min(1, 2 * min(P(U <= u),
 * P(U >= u))) over the C(N, na) equally likely ways to choose which
 * values are a's, U computed with mid-ranks.  The doubled mid-rank sum is
 * an integer, so its distribution is counted by dynamic programming over
 * the groups: choosing k of a group of size t whose doubled mid-rank is r
 * adds k r, in C(t, k) ways.  Cost O(N * na * N^2).  NaN unless the sizes
 * are positive, na in [1, N - 1] and u a multiple of 1/2 in [0, na (N - na)].
 */
double mann_whitney_exact_tied_p(const int *group_sizes, int nr_groups, int na, double u);

/*
 * Exact two-sided p of U = u for sizes na, nb without ties:
 * min(1, 2 * min(P(U <= u), P(U >= u))), with the null distribution of U
 * counted by the recurrence N(m, n, u) = N(m-1, n, u-n) + N(m, n-1, u)
 * (the largest value belongs to a, beating all n of b, or to b).  Any
 * size works (cost O(na * nb * min(u, na*nb - u))); the counts are exact
 * integers in a double while C(na+nb, na) < 2^53 and carry rounding of
 * order 1e-14 beyond.  NaN unless na, nb >= 1 and u is an integer in
 * [0, na * nb].
 */
double mann_whitney_exact_p(int na, int nb, double u);

/*
 * Smallest p the exact two-sided Mann-Whitney can give for sizes na, nb:
 * min(1, 2 / C(na+nb, na)).  Used to tell "cannot reach alpha" from "no
 * change".  1 when a size is below 1.
 */
double mann_whitney_min_p(int na, int nb);

/*
 * Smallest n such that n runs per side let the exact Mann-Whitney reach
 * p < alpha (4 at alpha = 0.05, since 3 vs 3 gives at best 0.1).  -1 when
 * alpha is not in (0, 1].
 */
int mann_whitney_min_n(double alpha);

/*
 * Benjamini-Hochberg adjustment of n p-values, in place: p[i] becomes the
 * smallest alpha at which p[i] is a discovery under a false discovery rate
 * of alpha, i.e. min over ranks k >= rank(i) of p_(k) * m / k, capped at 1,
 * where m is the number of non-NaN entries.  NaN entries stay NaN and are
 * not counted in m.
 */
void bh_adjust(double *p, int n);

#endif
