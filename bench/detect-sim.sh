#!/bin/sh
# bench/detect-sim.sh: build bench/detect-sim and print its table —
# precision, recall and false changes per 1,000 points of perfbot's
# change-point detection (src/stats/changepoint.h) on synthetic histories
# with known truth, beside a plain sliding-window Welch test on the same
# histories; then the CPU time and peak memory of one detection on
# 10,000-point histories.  The machine's load comes first: the times are
# CPU time, but a loaded machine still slows them.  Extra arguments go to
# detect-sim (--series, --seed, --pvalue, --min-change, --tol, --window,
# --quick, --show ROW, --from ROW; see the top of detect-sim.c).
#
# Exit status: 0 when every target row passes (precision and recall
# >= 0.9 where the smallest step is at least 2.5x the noise, at most 1
# false change per 1,000 points on flat histories), else 1.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/bench/detect-sim" >&2
echo "# load: $(uptime)"
exec "$BUILD/bench/detect-sim" "$@"
