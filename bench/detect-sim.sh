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
# --otava (first): also run Apache Otava's default detection
# (bench/otava.py, python3) on the same histories and add its precision,
# recall, false changes per 1,000 points and CPU ms a history as columns
# before the verdict.  Otava's windows are its own (50 points); --pvalue
# and --min-change are perfbot's only.  Slow in Python: with --from 18 it
# is a few minutes for 500 series a row.
#
# Exit status: 0 when every target row passes (precision and recall
# >= 0.9 where the smallest step is at least 2.5x the noise, at most 1
# false change per 1,000 points on flat histories), else 1.  The verdict
# is perfbot's; Otava's columns are for comparison.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/bench/detect-sim" >&2
echo "# load: $(uptime)"
if [ "${1:-}" != --otava ]; then
	exec "$BUILD/bench/detect-sim" "$@"
fi
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/detect-sim.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
"$BUILD/bench/detect-sim" --series-out "$tmp/series" "$@" >"$tmp/table" || status=$?
[ "$status" -le 1 ] || exit "$status"
python3 bench/otava.py "$tmp/series" --tol "$(sed -n 's/.*true within \([0-9]*\) points.*/\1/p' "$tmp/table")" >"$tmp/otava"
# Otava's columns go before each row's verdict (after its last "| "), in
# the order of the rows
awk 'NR == FNR { o[++n] = sprintf("%6s %6s %7s %8s", $2, $3, $4, $5); next }
function put(s) { i = match($0, /\| [^|]*$/); print substr($0, 1, i - 1) "| " s " " substr($0, i) }
/^# sliding Welch/ { print; print "# Otava: bench/otava.py, its defaults (window 50, p 0.001, magnitude 0)"; next }
/^#  .*\| sliding Welch$/ { print $0 " | Otava"; next }
/^points / { printf "%s %6s %6s %7s %8s |\n", $0, "prec", "recall", "false/k", "cpu ms"; next }
/^ *[0-9]+ +[0-9.]+% / && r < n { put(o[++r]); next }
{ print }' "$tmp/otava" "$tmp/table"
exit "$status"
