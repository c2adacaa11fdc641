#!/bin/sh
# bench/busy.sh: issue 36's figures for a busy machine -- the bisection of
# a planted regression in generated repositories, and the benchmark's
# run-to-run noise, on the quiet machine and under `stress-ng --cpu 4`.
#
#   sh bench/busy.sh [--tries N] [--commits N] [--shift PCT] [--runs N]
#                    [--load quiet|busy|both] [--measure time|instructions]
#
# Each try makes a repository of --commits commits (default 16) whose
# benchmark, a CPU loop sized by the checkout's VALUE, runs --shift
# percent slower (default 12) from a commit chosen by the try's seed on;
# then
# `perfbot bisect --metric mytest.ops_per_sec` (or mytest.instructions
# with --measure instructions) runs on it.  Per load it prints: the
# noise of --runs runs (default 10) of one commit (stddev/mean), then
# each try's outcome: right (the planted commit), WRONG (another),
# exit 6 (no answer to trust, the busy-machine message), nothing (exit
# 4: "nothing to bisect", a miss), other exit codes; and the tally.
#
# With --load both the two take turns, a quiet try then a busy one, so
# that a run cut short has as many of each.  A busy try runs beside
# stress-ng --cpu 4: it loads the machine, so run it when nothing else
# needs the CPUs.  The issue's
# target: under load, 10 of 10 tries right or exit 6, never WRONG or
# nothing; the noise within 2x of the quiet machine's.
#
# Exit status: 0 when no try was WRONG or nothing, else 1.
set -eu
cd "$(dirname "$0")/.."
TRIES=10 COMMITS=16 SHIFT=12 RUNS=10 LOAD=both MEASURE=time
while [ $# -gt 0 ]; do
	case $1 in
	--tries) TRIES=$2; shift 2 ;;
	--commits) COMMITS=$2; shift 2 ;;
	--shift) SHIFT=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--load) LOAD=$2; shift 2 ;;
	--measure) MEASURE=$2; shift 2 ;;
	*) echo "usage: sh bench/busy.sh [--tries N] [--commits N] [--shift PCT] [--runs N]" \
		"[--load quiet|busy|both] [--measure time|instructions]" >&2; exit 2 ;;
	esac
done
case $LOAD in quiet) loads=quiet ;; busy) loads=busy ;; both) loads="quiet busy" ;;
*) echo "bench/busy.sh: --load quiet, busy or both" >&2; exit 2 ;; esac
case $MEASURE in time) METRIC=mytest.ops_per_sec ;; instructions) METRIC=mytest.instructions ;;
*) echo "bench/busy.sh: --measure time or instructions" >&2; exit 2 ;; esac

make -s -j2 perfbot >&2
PERFBOT=$PWD/perfbot
command -v stress-ng >/dev/null || [ "$LOAD" = quiet ] || {
	echo "bench/busy.sh: stress-ng is needed for the busy half (apt-get install stress-ng)" >&2; exit 1; }
[ "$MEASURE" = time ] || command -v valgrind >/dev/null || {
	echo "bench/busy.sh: valgrind is needed for --measure instructions" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/perfbot-busy.XXXXXX")
stress=
cleanup() { [ -z "$stress" ] || kill "$stress" 2>/dev/null || true; rm -rf "$T"; }
trap cleanup EXIT INT TERM

# The benchmark: 100 million operations of VALUE/100 loop steps each,
# timed by itself: VALUE 113 makes each operation 13 % longer, so
# ops_per_sec drops by 1 - 100/113 (11.5 %; a rate of loop steps would
# not move at all) and the instructions rise by 13 %.
cat >"$T/loop.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(void)
{
	const char *d = getenv("PERFBOT_BUILD_DIR");
	char path[4096];
	long n = 100;
	FILE *f;
	snprintf(path, sizeof(path), "%s/VALUE", d ? d : ".");
	if ((f = fopen(path, "r"))) { if (fscanf(f, "%ld", &n) != 1) n = 100; fclose(f); }
	struct timespec a, b;
	volatile unsigned long x = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n * 1000000L; i++)
		x += (unsigned long)i ^ (x >> 3);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("ops_per_sec: %.0f\n", 100e6 / s);
	return 0;
}
EOC
cc -O1 -o "$T/loop" "$T/loop.c"
printf "testcase: mytest\nmeasure: %s\n" "$MEASURE" >"$T/job.yaml"

# make_repo DIR SEED: COMMITS commits, VALUE 100, then 10000/(100-SHIFT)
# (113 for 12: the throughput SHIFT percent lower) from the seed's commit
# on; prints that commit's number
make_repo() {
	bad=$((1 + $2 * 7919 % (COMMITS - 1)))
	git init -q -b main "$1"
	( cd "$1" && git config user.name busy && git config user.email busy@perfbot.invalid &&
	  i=0 && v=100 &&
	  while [ $i -lt "$COMMITS" ]; do
		[ $i -eq $bad ] && v=$((10000 / (100 - SHIFT)))
		echo $v >VALUE && echo "line $i" >>LOG && git add VALUE LOG &&
		git commit -q -m "commit $i" || exit 1
		i=$((i + 1))
	  done
	  git tag good "$(git rev-list --max-parents=0 HEAD)" && git tag bad HEAD )
	echo $bad
}

# noise DIR: stddev/mean in percent of the metric over RUNS runs of DIR's VALUE
noise() {
	PERFBOT_BUILD_DIR=$1 "$PERFBOT" run "$T/job.yaml" -n "$RUNS" -M "" --no-index \
		-r "$T/noise-$2" -c n -- "$T/loop" >/dev/null 2>&1 || true
	python3 - "$T/noise-$2" "$METRIC" <<'EOP'
import glob, json, statistics, sys
m = json.load(open(glob.glob(sys.argv[1] + "/mytest/*/*/*/*/*/n/matrix.json")[0]))
v = m.get(sys.argv[2], [])
print("%.2f%% of %d runs" % (100 * statistics.stdev(v) / statistics.mean(v), len(v)) if len(v) > 1 else "no runs")
EOP
}

# stress-ng --cpu 4 while busy, none while quiet
load_on() {
	if [ "$1" = busy ] && [ -z "$stress" ]; then
		stress-ng --cpu 4 --timeout 0 >/dev/null 2>&1 & stress=$!
		sleep 2
	elif [ "$1" = quiet ] && [ -n "$stress" ]; then
		kill "$stress"; wait "$stress" 2>/dev/null || true; stress=
	fi
}

echo "bench/busy.sh at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC'):" \
	"$TRIES tries, $COMMITS commits, -$SHIFT% planted, $METRIC"
for load in $loads; do
	load_on "$load"
	make_repo "$T/noise-repo-$load" 0 >/dev/null
	echo "$load (load average $(cut -d" " -f1-3 /proc/loadavg)): noise of $METRIC: $(noise "$T/noise-repo-$load" "$load")"
	eval "right_$load=0 wrong_$load=0 six_$load=0 nothing_$load=0 other_$load=0 secs_$load=0 runs_$load=0"
done
# the loads take turns, try after try: a run cut short still has both
t=1
while [ $t -le "$TRIES" ]; do
	for load in $loads; do
		load_on "$load"
		r="$T/$load-$t"
		want_i=$(make_repo "$r" "$t")
		want=$(git -C "$r" log --format=%H --grep="^commit $want_i\$" bad)
		s=$(date +%s) la=$(cut -d" " -f1 /proc/loadavg)
		rc=0
		"$PERFBOT" bisect --repo "$r" --good good --bad bad --job "$T/job.yaml" \
			--metric "$METRIC" --state "$r.st" --result-root "$r.res" --no-index -q \
			-- "$T/loop" >"$r.out" 2>"$r.err" || rc=$?
		why=
		if [ $rc = 0 ] && grep -q "^first bad commit: $want" "$r.out"; then what=right
		elif [ $rc = 0 ]; then what=wrong
		elif [ $rc = 6 ]; then what=six
			# which no answer, and what the machine was doing; else
			# (the noise moved, a drift) the last line that says why
			why=$(grep -m1 "^no answer: " "$r.out" | cut -c12-140)
			m=$(grep -m1 "^the machine: " "$r.out" | cut -c14-90)
			[ -z "$m" ] || why="$why; $m"
			[ -n "$why" ] || why=$(grep -m1 "^the machine.s noise moved\|^no answer" "$r.out" | cut -c1-160)
			# the endpoints re-measured at the end: a warning on stderr
			[ -n "$why" ] || why=$(grep -m1 "warning: the machine.s noise moved" "$r.err" |
				sed "s/^perfbot: warning: //" | cut -c1-160)
			[ -n "$why" ] || why=$(grep -v "^$" "$r.out" | tail -n 1 | cut -c1-160)
		elif [ $rc = 4 ]; then what=nothing
		else what=other
			why=$(grep -m1 "failed\|error" "$r.err" | cut -c1-120)
		fi
		took=$(($(date +%s) - s))
		# the runs the bisect made: one stats.json each
		runs=$(find "$r.res" -name stats.json 2>/dev/null | wc -l)
		eval "${what}_$load=\$((${what}_$load + 1)) secs_$load=\$((secs_$load + took))" \
			"runs_$load=\$((runs_$load + runs))"
		case $what in six) what="exit 6: $why" ;; other) what="exit $rc${why:+: $why}" ;;
		wrong) what=WRONG ;; nothing) what="nothing to bisect" ;; esac
		echo "  $load try $t: planted at $want_i, load average $la: $what ($runs runs, $took s)"
	done
	t=$((t + 1))
done
load_on quiet
fail=0
for load in $loads; do
	eval "echo \"$load: \$right_$load right, \$six_$load exit 6, \$wrong_$load WRONG,\" \
		\"\$nothing_$load nothing to bisect, \$other_$load other, of $TRIES\" \
		\"(mean \$((runs_$load / TRIES)) runs and \$((secs_$load / TRIES)) s a try)\""
	eval "[ \$((wrong_$load + nothing_$load)) = 0 ]" || fail=1
done
exit $fail
