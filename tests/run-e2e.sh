#!/bin/sh
# Run the end-to-end shell tests tests/t/t*.sh with $PERFBOT set.
#
#   sh tests/run-e2e.sh [-j N] [--unit 'BINARY...'] [tNNNN-name.sh...]
#                                       (default: all scripts, N=1)
#
# Each test script sources tests/t/lib.sh and ends with test_done, which
# prints "# passed N failed N"; this sums them into one closing line.
# With -j N, N scripts run side by side.  They may: each works in a temp
# dir of its own, which holds its PostgreSQL server (socket and data) and
# kernel cache, and names what is machine-wide (cgroup parents, network
# namespaces and addresses) after its pid.  A script with a line
# "# e2e: early (why)" (the QEMU guests, the longest bisects) starts
# first; the others follow, the longest of their last run first.
# With --unit, the cmocka binaries named (blank-separated, as `make
# check` gives $(TESTS)) run in the same pool, after the early scripts
# and before the others, as tests/run-unit.sh runs them (the lab's in
# one lane, a PostgreSQL server for them), and their lines come before
# the scripts' (their failures at the end, with the scripts'): the CPUs
# are kept busy by both, with no phase of the unit tests alone.
# The whole output of each script is kept in tests/out/e2e/<script>.log,
# with its exit status and its time; the results are printed in the
# scripts' order whatever the order they finished in, each with its
# wall and CPU time, then the ten slowest scripts (the critical path of
# -j) and the ten that use the most CPU (what bounds -j on few CPUs), and the
# failures are repeated at the end, just above the closing line, because a
# CI log is often read from its tail only.
jobs=1 units=
while :; do
	case "${1:-}" in
	-j) jobs=${2:?-j needs a number}; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--unit)
		# absolute: the scripts run in tests/t
		for b in ${2?--unit needs the binaries}; do
			case "$b" in /*) ;; *) b=$(pwd)/$b ;; esac
			units="$units $b"
		done
		shift 2 ;;
	*) break ;;
	esac
done
case "$jobs" in ''|*[!0-9]*|0) echo "run-e2e.sh: -j wants a positive number, not '$jobs'" >&2; exit 2 ;; esac
cd "$(dirname "$0")/t" || exit 1
logs=../out/e2e
mkdir -p "$logs" || exit 1
[ $# -gt 0 ] || set -- t[0-9]*.sh

# run_one SCRIPT: run it, its output, exit status and time into its log
# (the unit tests' server is theirs: the scripts start their own)
run_one='unset PG_URL PERFBOT_TEST_PG UNIT_DIR
	start=$(date +%s)
	sh "$1" >"$0/$1.out" 2>&1
	rc=$?
	times >"$0/$1.times"	# not in $(...): a subshell has no children yet
	cpu=$(sed -n "2{s/m/ /g;s/s//g;p}" "$0/$1.times" | awk "{ printf \"%d\", \$1 * 60 + \$2 + \$3 * 60 + \$4 + 0.5 }")
	{ cat "$0/$1.out"; printf "# exit status %d\n# took %d s, %d s of CPU\n" $rc $(($(date +%s) - start)) "$cpu"; } >"$0/$1.log"
	rm -f "$0/$1.out" "$0/$1.times"'

# the order: the longest first, so that the pool does not end waiting
# for one script alone -- those marked early, then the others; in each
# group by the time their last run here took (tests/out/e2e), the
# longest first, else by name
early= later=
for t in "$@"; do
	[ -f "$t" ] || { echo "run-e2e.sh: no test script $t" >&2; exit 2; }
	took=$(sed -n 's/^# took \([0-9]*\) s.*/\1/p' "$logs/$t.log" 2>/dev/null)
	if grep -q '^# e2e: early' "$t"; then
		early="$early${took:-0} $t
"
	else
		later="$later${took:-0} $t
"
	fi
	rm -f "$logs/$t.log"
done
early=$(printf '%s' "$early" | sort -s -k1,1nr | cut -d' ' -f2)
later=$(printf '%s' "$later" | sort -s -k1,1nr | cut -d' ' -f2)
# the unit binaries: their server, their outputs (tests/run-unit.sh)
if [ -n "$units" ]; then
	. ../pg.sh
	pg_start_unit || exit 1
	UNIT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/run-unit.XXXXXX") || exit 1
	export UNIT_DIR
	trap 'rm -rf "$UNIT_DIR"; pg_stop' EXIT
fi
# at most $jobs at a time (xargs -P starts the next when any one ends),
# a line an item: a lane of unit binaries ("unit B..."), or a script
{
	printf '%s\n' $early
	[ -z "$units" ] || sh ../run-unit.sh --items $units | sed 's/^/unit /'
	printf '%s\n' $later
} | xargs -r -L 1 -P "$jobs" sh -c 'if [ "$1" = unit ]; then
		shift; cd ../.. && exec sh tests/run-unit.sh --run "$UNIT_DIR" "$@"
	fi
	'"$run_one" "$logs"

unit_rc=0
# the unit binaries' lines now, the output of those that failed at the
# end with the scripts' (CI keeps only the tail of the log)
if [ -n "$units" ]; then
	sh ../run-unit.sh --summary "$UNIT_DIR" $units >"$UNIT_DIR/summary" || unit_rc=1
	sed '/^--- /,$d' "$UNIT_DIR/summary"
fi
pass=0 fail=0 failed= times= cpus=
for t in "$@"; do
	out=$(cat "$logs/$t.log" 2>/dev/null)
	printf '%s\n' "$out" | grep -E '^(not ok|ok) |^#   ' | sed "s|^|$t: |"
	p=$(printf '%s\n' "$out" | sed -n 's/^# passed \([0-9]*\) failed \([0-9]*\)$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^# passed \([0-9]*\) failed \([0-9]*\)$/\2/p')
	rc=$(printf '%s\n' "$out" | sed -n 's/^# exit status \([0-9]*\)$/\1/p')
	took=$(printf '%s\n' "$out" | sed -n 's/^# took \([0-9]*\) s, .*/\1/p')
	cpu=$(printf '%s\n' "$out" | sed -n 's/^# took [0-9]* s, \([0-9]*\) s of CPU$/\1/p')
	echo "$t: took ${took:-?} s, ${cpu:-?} s of CPU"
	times="$times${took:-0} $t
"
	cpus="$cpus${cpu:-0} $t
"
	if [ -z "$p" ]; then
		printf '%s\n' "$out" | tail -n 20
		f=1 p=0
	fi
	[ "${rc:-1}" -ne 0 ] && [ "${f:-0}" -eq 0 ] && f=1
	[ "${f:-0}" -ne 0 ] && failed="$failed $t"
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "slowest scripts (s):"
printf '%s' "$times" | sort -rn | head -n 10 | sed 's/^/  /'
# on a machine with few CPUs the suite is bound by the CPU it needs
echo "CPU: $(printf '%s' "$cpus" | awk '{ s += $1 } END { print s + 0 }') s in all; the most (s):"
printf '%s' "$cpus" | sort -rn | head -n 10 | sed 's/^/  /'
for t in $failed; do
	echo "--- $t failed (whole output: tests/out/e2e/$t.log); its last lines:"
	grep -E '^not ok ' "$logs/$t.log" | sed "s|^|$t: |"
	tail -n 25 "$logs/$t.log"
done
[ -z "$units" ] || sed -n '/^--- /,$p' "$UNIT_DIR/summary"
echo "e2e: $pass passed, $fail failed${failed:+ (failed:$failed)}"
[ $fail -eq 0 ] && [ $unit_rc -eq 0 ]
