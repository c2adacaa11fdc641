#!/bin/sh
# scripts/coverage.sh [BUILD_DIR]: line and branch coverage of src/, per folder.
#
# Builds perfbot and the unit tests with gcov instrumentation in BUILD_DIR
# (default build-cov, never the normal build/), runs the unit and the
# end-to-end suites once, collects the counts with lcov and prints one
# row per folder of src/ plus the total.  The HTML pages (genhtml) land in
# BUILD_DIR/html; the table is also saved as BUILD_DIR/coverage.txt.
#
# A failing test does not stop the measurement (the figures are still
# worth having) but makes the script exit 1 after the table.
#
# Targets (issue 16): >= 90% of lines in src/stats, src/result, src/parse
# and src/util; >= 80% overall.  `make coverage` runs this.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${1:-build-cov}
case $B in build|build-asan) echo "coverage.sh: use a build dir of its own, not $B" >&2; exit 2 ;; esac
command -v lcov >/dev/null || { echo "coverage.sh: lcov is not installed (scripts/deps.sh list coverage)" >&2; exit 1; }

make -s -j2 BUILD="$B" CFLAGS="-O0 -g --coverage" all unit-tests >/dev/null || exit 1
find "$B" -name '*.gcda' -delete

rc=0
tests=$(ls "$B"/tests/test_* 2>/dev/null | grep -v '\.gc')
sh tests/run-unit.sh $tests | tail -n 1 || rc=1
PERFBOT=$(pwd)/$B/perfbot sh tests/run-e2e.sh | tail -n 1 || rc=1

LC="--rc lcov_branch_coverage=1 --quiet"
lcov $LC --capture --directory "$B" --base-directory . --no-external \
	--output-file "$B/all.info" 2>/dev/null || exit 1
lcov $LC --extract "$B/all.info" "$(pwd)/src/*" --output-file "$B/coverage.info" || exit 1

# Per folder from the tracefile's per-file counters: LF/LH (lines),
# BRF/BRH (branches).  Files that no test ever loaded still count: the
# whole library is linked into perfbot, so gcov notes exist for all.
awk -v root="$(pwd)/" '
/^SF:/ { f = substr($0, 4); sub(root, "", f); n = split(f, p, "/"); d = p[1] "/" p[2]; if (n == 2) d = "src"; dirs[d] = 1 }
/^LF:/ { lf[d] += substr($0, 4) } /^LH:/ { lh[d] += substr($0, 4) }
/^BRF:/ { bf[d] += substr($0, 5) } /^BRH:/ { bh[d] += substr($0, 5) }
function pct(h, t) { return t ? sprintf("%5.1f%%", 100 * h / t) : "    - " }
END {
	printf "%-14s %15s %7s %15s %7s\n", "folder", "lines", "", "branches", ""
	nd = 0; for (d in dirs) list[++nd] = d
	for (i = 1; i <= nd; i++) for (j = i + 1; j <= nd; j++) if (list[j] < list[i]) { t = list[i]; list[i] = list[j]; list[j] = t }
	for (i = 1; i <= nd; i++) { d = list[i]
		printf "%-14s %7d/%-7d %7s %7d/%-7d %7s\n", d, lh[d], lf[d], pct(lh[d], lf[d]), bh[d], bf[d], pct(bh[d], bf[d])
		L += lf[d]; LH += lh[d]; BF += bf[d]; BH += bh[d] }
	printf "%-14s %7d/%-7d %7s %7d/%-7d %7s\n", "total", LH, L, pct(LH, L), BH, BF, pct(BH, BF)
}' "$B/coverage.info" | tee "$B/coverage.txt"

if command -v genhtml >/dev/null; then
	genhtml $LC --branch-coverage --output-directory "$B/html" "$B/coverage.info" >/dev/null 2>&1 &&
		echo "html: $B/html/index.html"
fi
exit $rc
