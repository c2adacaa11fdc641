#!/bin/sh
# bench/aa.sh: false alarms and power of the change rules.
#
#   sh bench/aa.sh [--rev REV] [--quick] [--real [JOB]] [--real-root DIR]
#
# 1. A/A on generated matrices (bench/aa.c): two sides of n runs drawn
#    from one distribution, 1,000 metrics a comparison (50 of them key
#    metrics), 20 comparisons a cell: 20,000 metric-comparisons per cell,
#    n = 3, 5, 10 and five noise shapes, 10% noise.  Every flag is false.
# 2. Key metrics alone, 2,000 comparisons a cell: in how many A/A
#    comparisons in 100 the worst key metric is flagged.
# 3. Power: 2% normal noise, a 5% shift of the key metrics and of every
#    tenth other metric, 20 comparisons a cell: the share of the shifted
#    metrics flagged.
# Each cell prints a row per rule (stat, lkp, and benchstat's plain
# Mann-Whitney at 0.05 as mwu).
#
# --rev REV builds the generator against perfbot at git revision REV (in a
# temporary worktree, with this bench/aa.c) to print the figures of older
# code: the "before" column of doc/design/verdicts.md is `--rev 13305cc`.
# --quick: 5 comparisons a cell and 200 key comparisons (a smoke run).
# --real [JOB]: also the real A/A: JOB (default jobs/short/perf-bench-
# sched-pipe.yaml) run 2 x 10 times on one commit on this machine, the
# two sides alternating, with every monitor the job has; then `perfbot
# changed` of one side against the other, per rule, counting the flagged
# metrics.  --real-root DIR reuses (or keeps) the runs in DIR.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
rev= quick= real= job=jobs/short/perf-bench-sched-pipe.yaml real_root=
while [ $# -gt 0 ]; do
	case $1 in
	--rev) rev=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--real) real=1; shift
		case ${1:-} in *.yaml) job=$1; shift ;; esac ;;
	--real-root) real_root=$2; shift 2 ;;
	*) echo "usage: bench/aa.sh [--rev REV] [--quick] [--real [JOB]] [--real-root DIR]" >&2
	   exit 2 ;;
	esac
done

tmp=$(mktemp -d)
cleanup() {
	[ -n "$rev" ] && git worktree remove --force "$tmp/src" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

if [ -n "$rev" ]; then
	git worktree add -q --detach "$tmp/src" "$rev"
	cp bench/aa.c "$tmp/src/runner/aa.c"
	grep -q 'bench/aa:' "$tmp/src/Makefile" || sed -n '/^# false alarms and power/,/^\t\$(CC)/p' Makefile >>"$tmp/src/Makefile"
	make -s -C "$tmp/src" -j2 BUILD=build build/bench/aa perfbot >&2
	aa=$tmp/src/build/bench/aa perfbot=$tmp/src/perfbot
	echo "# perfbot at $(git rev-parse --short "$rev")"
else
	make -s -j2 BUILD="$BUILD" "$BUILD/bench/aa" >&2
	make -s -j2 BUILD="$BUILD" all >&2
	aa=$BUILD/bench/aa perfbot=$(pwd)/perfbot
	echo "# perfbot at $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' + changes')"
fi
cmps=20 keycmps=2000
[ -n "$quick" ] && cmps=5 keycmps=200

echo "## A/A, 10% noise, 1,000 metrics (50 key) x $cmps comparisons a cell: % flagged"
h=--header
for n in 3 5 10; do
	for noise in normal lognormal t3 bimodal poisson; do
		"$aa" $h --n $n --noise $noise --sigma 0.10 --comparisons $cmps
		h=
	done
done
echo
echo "## A/A, key metrics only (50 a comparison) x $keycmps comparisons: worstkey = the"
echo "## most often flagged key metric's share of comparisons"
h=--header
for n in 3 5 10; do
	for noise in normal t3 poisson; do
		"$aa" $h --n $n --noise $noise --sigma 0.10 --metrics 50 --keys 50 \
			--comparisons $keycmps --seed 7
		h=
	done
done
echo
echo "## power: 2% normal noise, 5% shift of the 50 key metrics and of every"
echo "## tenth other metric; % of the shifted metrics flagged"
h=--header
for n in 3 5 10; do
	"$aa" $h --n $n --noise normal --sigma 0.02 --shift -0.05 --comparisons $cmps --seed 3
	h=
done

[ -n "$real" ] || exit 0
echo
root=${real_root:-$tmp/real}
mkdir -p "$root"
runs=$(find "$root" -name stats.json 2>/dev/null | wc -l)
if [ "$runs" -lt 20 ]; then
	echo "# running $job 2 x 10 times (alternating sides) into $root" >&2
	for i in 1 2 3 4 5 6 7 8 9 10; do
		for side in aa-1 aa-2; do
			"$perfbot" run -n 1 -r "$root" -c $side "$job" >/dev/null
		done
	done
fi
echo "## real A/A: $job, 2 x 10 runs on one commit, sides alternating"
for base in $(find "$root" -type d -name aa-1); do
	new=$(dirname "$base")/aa-2
	total=$(grep -c '^  "[^"]*": \[' "$base/matrix.json")
	total=$((total - 1))	# stats_source
	for rule in stat lkp; do
		flagged=$("$perfbot" changed --rule $rule --json "$base" "$new" |
			grep -c '^  "[^"]*": {' || true)
		echo "$rule: $flagged of $total metrics flagged ($(echo "$base" | sed "s|^$root/||; s|/aa-1$||"))"
	done
done
