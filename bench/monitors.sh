#!/bin/bash
# bench/monitors.sh [SECONDS]: CPU cost of perfbot's monitor sampler.
#
# Runs, at the same time and for SECONDS (default 60), perfbot's sampler
# (bench/monitor-sampler: lkp's default monitors, none of them perf-*, at
# 1 s) and a shell baseline doing what lkp's monitor scripts do
# (bench/monitor-baseline.sh: one loop per monitor cat-ing its files each
# second).  Each is run in a subshell whose `times` gives the CPU time of
# everything it waited for; the sampler also reports its sampling alone
# (up to sampler_stop) apart from the raw -> JSON stage at stop.
# Prints CPU seconds, % of one core, and the ratio.  Targets (task h8),
# judged on runs of 60 s or more (a shorter run, `bench/monitors.sh 10`, is
# a quick check: the process's start and the JSON files weigh more there):
# sampler under 0.1% of one core, and at least 20x less CPU than the
# baseline.  Exit 1 when a judged target is missed.
set -e
cd "$(dirname "$0")/.."
secs=${1:-60}
BUILD=${BUILD:-build}
SAMPLER=$BUILD/bench/monitor-sampler
make -s BUILD="$BUILD" "$SAMPLER" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/perfbot" "$tmp/lkp"

# "XmY.ZZZs" of the children line of `times`, summed, in seconds
children_cpu() {
	sed -n 2p "$1" | tr 'ms' '  ' | awk '{ print $1 * 60 + $2 + $3 * 60 + $4 }'
}

( "$SAMPLER" "$tmp/perfbot" "$secs" >"$tmp/sampler.out" 2>"$tmp/sampler.err"
  times >"$tmp/sampler.times" ) &
( sh bench/monitor-baseline.sh "$tmp/lkp" "$secs"
  times >"$tmp/baseline.times" ) &
wait

sed 's/^monitor-sampler: /  note: /' "$tmp/sampler.err"
p_total=$(children_cpu "$tmp/sampler.times")
p_sampling=$(sed -n 's/^sampling_cpu_seconds: //p' "$tmp/sampler.out")
p_self=$(sed -n 's/^cpu_seconds: //p' "$tmp/sampler.out")
b_total=$(children_cpu "$tmp/baseline.times")
nraw=$(find "$tmp/perfbot" -name '*.json' | wc -l)

awk -v secs="$secs" -v pt="$p_total" -v ps="$p_sampling" -v pself="$p_self" \
    -v bt="$b_total" -v n="$nraw" '
function pct(x) { return 100 * x / secs }
BEGIN {
	printf "monitors: %d s at 1 s interval, %d monitors, both at once\n", secs, n
	printf "%-34s %10s %12s\n", "", "CPU s", "% of a core"
	printf "%-34s %10.3f %11.3f%%\n", "perfbot sampler (whole process)", pt, pct(pt)
	printf "%-34s %10.3f %11.3f%%\n", "  sampling (to sampler_stop)", ps, pct(ps)
	printf "%-34s %10.3f %11.3f%%\n", "  raw -> <name>.json at stop", pself - ps, pct(pself - ps)
	printf "%-34s %10.3f %11.3f%%\n", "lkp-style shell loops", bt, pct(bt)
	ratio = pt > 0 ? bt / pt : 0
	printf "ratio: the shell loops use %.0fx the CPU of the sampler\n", ratio
	ok1 = pct(pt) < 0.1; ok2 = ratio >= 20
	printf "targets: < 0.1%% of a core: %s; >= 20x less than the baseline: %s%s\n",
		ok1 ? "met" : "missed", ok2 ? "met" : "missed",
		secs < 60 ? " (not judged: run 60 s or more)" : ""
	exit secs >= 60 && !(ok1 && ok2)
}'
