#!/bin/sh
# bench/busy.sh: issue 36's figures for a busy machine -- the bisection of
# a planted regression in generated repositories, and the benchmark's
# run-to-run noise, on the quiet machine and under `stress-ng --cpu 4`.
#
#   sh bench/busy.sh [--tries N] [--commits N] [--shift PCT] [--runs N]
#                    [--load quiet|busy|both] [--measure time|instructions]
#
# Each try makes a repository of --commits commits (default 16) whose
# benchmark, a CPU loop sized by the checkout's VALUE, does --shift percent
# more work (default 12) from a commit chosen by the try's seed on; then
# `perfbot bisect --metric mytest.ops_per_sec` (or mytest.instructions
# with --measure instructions) runs on it.  Per load it prints: the
# noise of --runs runs (default 10) of one commit (stddev/mean), then
# each try's outcome: right (the planted commit), WRONG (another),
# exit 6 (no answer to trust, the busy-machine message), nothing (exit
# 4: "nothing to bisect", a miss), other exit codes; and the tally.
#
# The busy half runs stress-ng --cpu 4 for its whole length: it loads the
# machine, so run it when nothing else needs the CPUs.  The issue's
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

# The benchmark: VALUE million loop steps, timed by itself.
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
	printf("ops_per_sec: %.0f\n", (double)n * 1e6 / s);
	return 0;
}
EOC
cc -O1 -o "$T/loop" "$T/loop.c"
printf "testcase: mytest\nmeasure: %s\n" "$MEASURE" >"$T/job.yaml"

# make_repo DIR SEED: COMMITS commits, VALUE 100, then 100+SHIFT from the
# seed's commit on; prints that commit's number
make_repo() {
	bad=$((1 + $2 * 7919 % (COMMITS - 1)))
	git init -q -b main "$1"
	( cd "$1" && git config user.name busy && git config user.email busy@perfbot.invalid &&
	  i=0 && v=100 &&
	  while [ $i -lt "$COMMITS" ]; do
		[ $i -eq $bad ] && v=$((100 + SHIFT))
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

fail=0
for load in $loads; do
	if [ "$load" = busy ]; then
		stress-ng --cpu 4 --timeout 0 >/dev/null 2>&1 & stress=$!
		sleep 2
	fi
	make_repo "$T/noise-repo-$load" 0 >/dev/null
	echo "$load ($(cut -d" " -f1-3 /proc/loadavg)): noise of $METRIC: $(noise "$T/noise-repo-$load" "$load")"
	right=0 wrong=0 six=0 nothing=0 other=0 t=1
	while [ $t -le "$TRIES" ]; do
		r="$T/$load-$t"
		want_i=$(make_repo "$r" "$t")
		want=$(git -C "$r" log --format=%H --grep="^commit $want_i\$" bad)
		s=$(date +%s)
		rc=0
		"$PERFBOT" bisect --repo "$r" --good good --bad bad --job "$T/job.yaml" \
			--metric "$METRIC" --state "$r.st" --result-root "$r.res" --no-index -q \
			-- "$T/loop" >"$r.out" 2>"$r.err" || rc=$?
		if [ $rc = 0 ] && grep -q "^first bad commit: $want" "$r.out"; then what=right; right=$((right + 1))
		elif [ $rc = 0 ]; then what=WRONG; wrong=$((wrong + 1))
		elif [ $rc = 6 ]; then what="exit 6"; six=$((six + 1))
		elif [ $rc = 4 ]; then what=nothing; nothing=$((nothing + 1))
		else what="exit $rc"; other=$((other + 1))
		fi
		echo "  $load try $t: $COMMITS commits, planted at $want_i: $what ($(($(date +%s) - s)) s)"
		t=$((t + 1))
	done
	echo "$load: $right right, $six exit 6, $wrong WRONG, $nothing nothing to bisect, $other other, of $TRIES"
	[ $((wrong + nothing)) = 0 ] || fail=1
	if [ -n "$stress" ]; then kill "$stress"; wait "$stress" 2>/dev/null || true; stress=; fi
done
exit $fail
