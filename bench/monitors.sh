#!/bin/bash
# bench/monitors.sh [SECONDS]: CPU cost of perfbot's monitor sampler.
#
# Runs three times, for SECONDS each (default 60) at a 1 s interval, a
# shell baseline doing what lkp's monitor scripts do
# (bench/monitor-baseline.sh: one loop per monitor cat-ing its files each
# second) beside:
#   1. perfbot's sampler (bench/monitor-sampler -w) with lkp's default
#      monitors, none of them perf-*, each at its lkp pace (most every
#      second; proc-stat and slabinfo every 10 s; interrupts, softirqs and
#      cpuidle at the start and the end), as `perfbot run` samples them.
#      Its -w thread only wakes every second, half a second off the
#      sampler's ticks: the floor, what waking once a second costs on
#      this machine before a single file is read;
#   2. the sampler reading the same files at the same pace and doing
#      nothing else (-b): the least any sampler of these files can cost
#      here; (1) minus (2) is what perfbot adds to the kernel's work;
#   3. the sampler with every monitor sampled each second (-a): the
#      baseline's work exactly.
# Each process runs in a subshell whose `times` gives the CPU time of all
# it waited for; the samplers also report their sampling thread's own
# CPU time (start-up, the floor thread and the raw -> JSON stage at stop
# excluded).
#
# Targets (task h8), judged on runs of 60 s or more (a shorter run,
# `bench/monitors.sh 10`, is a quick check):
#   - the sampler (1) under 0.1% of one core: its sampling thread is
#     judged; the whole process is printed beside it;
#   - at least 20x less CPU than the baseline in the same run: judged on
#     (3), whole process against the baseline, the same files at the same
#     rate; (1)'s ratio is printed too.
# Exit 1 when a judged target is missed.
#
# On a VM the figures move from minute to minute: on the one perfbot was
# written on, touching a page of memory not touched for a second cost 7-30
# us for stretches of time (0.6 us after a quarter of a second), and 0.1 us
# at others, so a tick costs what the host makes of the pages it touches.
# (2) and the floor, measured in the same minutes, say how much of a figure
# is the machine's, and bench/page-touch, run last, what touching a page
# costs at that moment.
set -e
cd "$(dirname "$0")/.."
secs=${1:-60}
BUILD=${BUILD:-build}
SAMPLER=$BUILD/bench/monitor-sampler
make -s BUILD="$BUILD" "$SAMPLER" "$BUILD/bench/page-touch" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "XmY.ZZZs" of the children line of `times`, summed, in seconds
children_cpu() {
	sed -n 2p "$1" | tr 'ms' '  ' | awk '{ print $1 * 60 + $2 + $3 * 60 + $4 }'
}
field() {	# field FILE NAME
	sed -n "s/^$2: //p" "$1"
}

# beside SAMPLER-ARGS...: the sampler and the baseline at once
beside() {
	name=$1; shift
	mkdir "$tmp/$name" "$tmp/$name.lkp"
	( "$SAMPLER" "$@" "$tmp/$name" "$secs" >"$tmp/$name.out" 2>"$tmp/$name.err"
	  times >"$tmp/$name.times" ) &
	( sh bench/monitor-baseline.sh "$tmp/$name.lkp" "$secs"
	  times >"$tmp/$name.base" ) &
	wait
}
beside pace -w
beside reads -b
beside each -a

sed 's/^monitor-sampler: /  note: /' "$tmp/pace.err"
status=0
awk -v secs="$secs" \
    -v pace_thr="$(field "$tmp/pace.out" thread_cpu_seconds)" \
    -v pace_all="$(children_cpu "$tmp/pace.times")" \
    -v floor="$(field "$tmp/pace.out" floor_cpu_seconds)" \
    -v pace_base="$(children_cpu "$tmp/pace.base")" \
    -v reads_thr="$(field "$tmp/reads.out" thread_cpu_seconds)" \
    -v each_thr="$(field "$tmp/each.out" thread_cpu_seconds)" \
    -v each_all="$(children_cpu "$tmp/each.times")" \
    -v each_base="$(children_cpu "$tmp/each.base")" \
    -v nfiles="$(field "$tmp/each.out" files)" \
    -v nmon="$(find "$tmp/each" -name '*.json' | wc -l)" '
function pct(x) { return 100 * x / secs }
function row(name, x) { printf "%-52s %8.3f %10.3f%%\n", name, x, pct(x) }
BEGIN {
	printf "monitors: %d s at 1 s, %d monitors, %d files, each beside lkp-style shell loops\n", secs, nmon, nfiles
	printf "%-52s %8s %11s\n", "", "CPU s", "% of a core"
	print "1. perfbot sampler, each monitor at its lkp pace"
	row("   sampling thread", pace_thr)
	row("   whole process (start-up, JSON; floor excluded)", pace_all - floor)
	row("   floor: a thread that only wakes every second", floor)
	row("   beside it: shell loops, every monitor every second", pace_base)
	print "2. the same files read at the same pace, nothing else"
	row("   reading thread", reads_thr)
	row("   perfbot sampler above it, (1) - (2)", pace_thr - reads_thr)
	print "3. perfbot sampler, every monitor every second (-a)"
	row("   sampling thread", each_thr)
	row("   whole process (start-up, JSON)", each_all)
	row("   beside it: shell loops, every monitor every second", each_base)
	r1 = pace_all - floor > 0 ? pace_base / (pace_all - floor) : 0
	r3 = each_all > 0 ? each_base / each_all : 0
	printf "ratio: the shell loops use %.0fx the CPU of (1), %.0fx that of (3), doing the same\n", r1, r3
	ok1 = pct(pace_thr) < 0.1; ok2 = r3 >= 20
	printf "targets: sampler < 0.1%% of a core: %s; >= 20x less than the baseline: %s%s\n",
		ok1 ? "met" : "missed", ok2 ? "met" : "missed",
		secs < 60 ? " (not judged: run 60 s or more)" : ""
	exit secs >= 60 && !(ok1 && ok2)
}' || status=$?
echo "the machine now, touching memory after an idle interval (bench/page-touch):"
"$BUILD/bench/page-touch" 10 | sed 's/^/  /'
exit $status
