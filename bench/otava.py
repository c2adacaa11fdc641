#!/usr/bin/env python3
"""otava.py: Apache Otava's default change-point detection, rewritten in
plain Python 3 (standard library only), as the reference that
bench/detect-sim.sh --otava puts beside perfbot's detection.

    otava.py SERIES-FILE [--window 50] [--pvalue 0.001] [--magnitude 0]
                         [--tol 2]

Reads the synthetic histories detect-sim --series-out wrote, one a line:
"ROW N K t1 .. tK v0 .. v(N-1)" (row number, points, the K true change
points, the points' values), runs the detection on each and prints one
line a row: "ROW precision recall false/k cpu-ms", a detection true within
--tol points of a true change (the matching of detect-sim,
cps_score_add).  precision and recall are "-" where nothing was found or
there was nothing to find.

Followed: apache/otava at tag 0.8.0-incubating-rc2 (commit 1ceb153,
2026-04-22): otava/analysis.py (compute_change_points, split, merge,
TTestSignificanceTester), otava/change_point_divisive/detector.py,
calculator.py (PairDistanceCalculator) and base.py, and the defaults of
otava/series.py AnalysisOptions and otava/main.py (window 50, max p-value
0.001, min magnitude 0, not the original E-Divisive).  The method:

  split: windows of 50 points, each starting half a window after the
    last (or at the last change found in it, if later); in each window,
    E-Divisive: the split tau (and end kappa) of a piece that maximise
    Q = 2/(m+n) sum|X-Y| - 2m/((m+n)(n-1)) sum_{i<k}|Xi-Xk|
          - 2n/((m+n)(m-1)) sum_{j<k}|Yj-Yk|
    over every piece between the changes found so far is tested with
    Student's t (pooled variance, from the sides' population sd, as
    Otava passes np.std to scipy's ttest_ind_from_stats) of the piece's
    two sides, at 10x the p-value (0.01); the window's search stops at
    the first candidate that fails.  The union of the windows' changes are
    the weak change points.
  merge: each weak change point is tested (same t) between its
    neighbours; while the largest p is at or above 0.001 (or all pass and
    the smallest magnitude max(|b/a - 1|, |a/b - 1|) is not above 0),
    that point is dropped and the two points from its index on (the right
    neighbour and the one after it, as Otava does; the left neighbour
    keeps its old p) are tested again.

Our own code: Q comes from prefix sums of the window's distances in
O(L^2) a piece instead of numpy matrices; the t distribution from the
regularised incomplete beta function.  Where scipy would give a t of
0/0 (equal means, no variance: never with continuous data), p is 1.
"""
import math
import sys
import time


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + \
        a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def t_two_sided(t, df):
    if math.isinf(t):
        return 0.0
    return betainc(df / 2, 0.5, df / (df + t * t))


class Stats:
    """A change point's t-test between the pieces either side of it."""

    def __init__(self, left, right):
        n1, n2 = len(left), len(right)
        self.m1 = sum(left) / n1
        self.m2 = sum(right) / n2
        v1 = sum((x - self.m1) ** 2 for x in left) / n1 if n1 >= 2 else 0.0
        v2 = sum((x - self.m2) ** 2 for x in right) / n2 if n2 >= 2 else 0.0
        if n1 + n2 <= 2:
            self.p = 1.0
            return
        df = n1 + n2 - 2
        denom = math.sqrt(((n1 - 1) * v1 + (n2 - 1) * v2) / df * (1 / n1 + 1 / n2))
        if denom == 0:
            self.p = 1.0 if self.m1 == self.m2 else 0.0
        else:
            self.p = t_two_sided((self.m1 - self.m2) / denom, df)

    def magnitude(self):
        f = self.m2 / self.m1 - 1 if self.m1 != 0 else 0
        b = self.m1 / self.m2 - 1 if self.m2 != 0 else 0
        return max(abs(f), abs(b))


def best_split(z, prefix, s, e):
    """The (qhat, tau) maximising Q(tau, kappa) over s < tau < kappa <= e,
    the first in (tau, kappa) order on a tie (numpy's argmax)."""
    best_q, best_tau = None, None
    sxx = 0.0
    for tau in range(s + 1, e):
        if tau - 1 > s:      # X gains z[tau - 1]
            sxx += prefix[tau - 1][tau - 1] - prefix[s][tau - 1]
        n = tau - s
        sxy = syy = 0.0
        for kappa in range(tau + 1, e + 1):
            y = kappa - 1
            sxy += prefix[tau][y] - prefix[s][y]
            syy += prefix[y][y] - prefix[tau][y]
            m = kappa - tau
            q = 2 * sxy / (m + n)
            if n > 1:
                q -= 2 * m * sxx / ((m + n) * (n - 1))
            if m > 1:
                q -= 2 * n * syy / ((m + n) * (m - 1))
            if best_q is None or q > best_q:
                best_q, best_tau = q, tau
    return best_q, best_tau


def pieces(cps, n):
    """The pieces between sorted change points (Otava's get_intervals)."""
    ends = [0] + cps + [n]
    return [(ends[i], ends[i + 1]) for i in range(len(ends) - 1) if ends[i] != ends[i + 1]]


def window_changes(z, pvalue):
    """E-Divisive with the t-test on one window (ChangePointDetector)."""
    n = len(z)
    prefix = [[0.0] * n for _ in range(n + 1)]   # prefix[a][c] = sum_{i<a} |z_i - z_c|
    for a in range(n):
        row, nxt = prefix[a], prefix[a + 1]
        za = z[a]
        for c in range(n):
            nxt[c] = row[c] + abs(za - z[c])
    cps = []
    while True:
        cand = None
        for s, e in pieces(cps, n):
            if e - s > 1:
                q, tau = best_split(z, prefix, s, e)
                if cand is None or q > cand[0]:
                    cand = (q, tau, s, e)
        if cand is None:
            break
        _, tau, s, e = cand
        if not Stats(z[s:tau], z[tau:e]).p <= pvalue:
            break
        cps = sorted(cps + [tau])
    return cps


def split(x, window, pvalue):
    start, step, weak = 0, window // 2, []
    while start < len(x):
        end = min(start + window, len(x))
        new = [start + c for c in window_changes(x[start:end], pvalue)]
        start = max(new[-1] if new else 0, start + step)
        weak += [c for c in new if c not in weak]
    return sorted(weak)


def stats_at(x, cps, k):
    lo = cps[k - 1] if k > 0 else 0
    hi = cps[k + 1] if k + 1 < len(cps) else len(x)
    return Stats(x[lo:cps[k]], x[cps[k]:hi])


def merge(x, cps, max_pvalue, min_magnitude):
    st = [stats_at(x, cps, k) for k in range(len(cps))]
    while cps:
        w = max(range(len(cps)), key=lambda k: st[k].p)
        if st[w].p < max_pvalue:
            w = min(range(len(cps)), key=lambda k: st[k].magnitude())
            if st[w].magnitude() > min_magnitude:
                break
        del cps[w], st[w]
        for k in (w, w + 1):
            if k < len(cps):
                st[k] = stats_at(x, cps, k)
    return cps


def otava(x, window=50, max_pvalue=0.001, min_magnitude=0.0):
    """compute_change_points: the first points after each change."""
    first = max_pvalue * 10 if max_pvalue < 0.05 else \
        (max_pvalue * 2 if max_pvalue < 0.5 else max_pvalue)
    return merge(x, split(x, window, first), max_pvalue, min_magnitude)


def score(truth, found, tol):
    """True and false detections, changes missed (detect-sim's matching)."""
    i = j = tp = fp = fn = 0
    while i < len(truth) and j < len(found):
        if abs(truth[i] - found[j]) <= tol:
            tp, i, j = tp + 1, i + 1, j + 1
        elif found[j] < truth[i]:
            fp, j = fp + 1, j + 1
        else:
            fn, i = fn + 1, i + 1
    return tp, fp + len(found) - j, fn + len(truth) - i


def main(argv):
    opt = {"--window": 50, "--pvalue": 0.001, "--magnitude": 0.0, "--tol": 2}
    args = argv[1:]
    if len(args) % 2 != 1 or any(a not in opt for a in args[1::2]):
        sys.exit("usage: otava.py SERIES-FILE [--window W] [--pvalue P] "
                 "[--magnitude M] [--tol T]")
    for k, v in zip(args[1::2], args[2::2]):
        opt[k] = type(opt[k])(v)
    rows = {}
    with open(args[0]) as f:
        for line in f:
            w = line.split()
            row, n, k = int(w[0]), int(w[1]), int(w[2])
            truth = [int(t) for t in w[3:3 + k]]
            x = [float(v) for v in w[3 + k:]]
            if len(x) != n:
                sys.exit("otava.py: row %d: %d values, not %d" % (row, len(x), n))
            t0 = time.process_time()
            found = otava(x, opt["--window"], opt["--pvalue"], opt["--magnitude"])
            ms = 1000 * (time.process_time() - t0)
            r = rows.setdefault(row, [0, 0, 0, 0, 0.0, 0])
            for i, v in enumerate(score(truth, found, opt["--tol"])):
                r[i] += v
            r[3] += n
            r[4] += ms
            r[5] += 1
    for row, (tp, fp, fn, points, ms, series) in sorted(rows.items()):
        prec = "%.3f" % (tp / (tp + fp)) if tp + fp else "-"
        rec = "%.3f" % (tp / (tp + fn)) if tp + fn else "-"
        print("%d %s %s %.2f %.2f" % (row, prec, rec, 1000 * fp / points, ms / series))


if __name__ == "__main__":
    main(sys.argv)
