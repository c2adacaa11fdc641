#!/bin/sh
# Run each cmocka test binary given as argument; print one summary line.
#
#   sh tests/run-unit.sh [-j N] BINARY...
#
# cmocka prints its own "[  PASSED  ] N test(s)." per binary; this adds the
# overall "N passed, N failed" line that CI reads.  With -j N, N binaries
# run side by side (most of their time is spent waiting on the programs
# they start); the results are printed in the order given all the same.
# The binaries of lab mode (their source includes lab_helpers.h) take
# turns in one lane of their own: each makes the server's cluster-wide
# logins if missing, and two doing that at once would collide.
#
# The parts, for a pool that runs the binaries beside other work
# (tests/run-e2e.sh --unit, what `make check` runs); the caller starts
# the server first (tests/pg.sh's pg_start_unit):
#
#   sh tests/run-unit.sh --items BINARY...       the pool's items, one a
#       line: the lab lane's binaries first, on one line, then the others
#   sh tests/run-unit.sh --run DIR BINARY...     run them in turn, each
#       one's output and exit status into DIR
#   sh tests/run-unit.sh --summary DIR BINARY... what they said, and the
#       closing line; exit status 1 when one failed
src=$(cd "$(dirname "$0")/unit" && pwd)
# git as on a fresh machine (see tests/t/lib.sh)
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# is_lab BINARY: a binary of the lab lane
is_lab() {
	grep -q '"lab_helpers.h"' "$src/$(basename "$1").c" 2>/dev/null
}

# items BINARY...: the lab lane on one line (first: it takes longest),
# then each other binary on a line of its own
items() {
	lab= other=
	for t in "$@"; do
		if is_lab "$t"; then lab="$lab $t"; else other="$other $t"; fi
	done
	[ -z "$lab" ] || echo $lab
	[ -z "$other" ] || printf '%s\n' $other
}

# run DIR BINARY...: each in turn, its output and exit status into DIR
run() {
	dir=$1
	shift
	for t in "$@"; do
		n=$(basename "$t")
		"$t" >"$dir/$n.out" 2>&1
		echo $? >"$dir/$n.rc"
	done
}

# summary DIR BINARY...: cmocka's lines of each, then the output of each
# that failed, and the closing line.  The failures come last so that a
# log cut to its tail (CI keeps only that) still shows them.
summary() {
	dir=$1
	shift
	pass=0 fail=0 skipped=0 failed=
	for t in "$@"; do
		n=$(basename "$t")
		out=$(cat "$dir/$n.out" 2>/dev/null)
		rc=$(cat "$dir/$n.rc" 2>/dev/null)
		rc=${rc:-1}
		printf '%s\n' "$out" | grep -E '^\[  (FAILED|ERROR|SKIPPED) |^\[  PASSED  \]' | sed "s|^|$n: |"
		p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
		s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p')
		f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
		pass=$((pass + ${p:-0}))
		skipped=$((skipped + ${s:-0}))
		if [ $rc -ne 0 ]; then
			failed="$failed $n"
			fail=$((fail + ${f:-1}))
		fi
	done
	for n in $failed; do
		echo "--- $n failed (exit $(cat "$dir/$n.rc" 2>/dev/null)), its last lines:"
		tail -n 30 "$dir/$n.out" 2>/dev/null
	done
	echo "unit: $pass passed, $fail failed, $skipped skipped"
	[ $fail -eq 0 ]
}

case "${1:-}" in
--items) shift; items "$@"; exit ;;
--run) shift; run "$@"; exit ;;
--summary) shift; summary "$@"; exit ;;
esac

jobs=1
case "${1:-}" in
-j) jobs=${2:?-j needs a number}; shift 2 ;;
-j*) jobs=${1#-j}; shift ;;
esac
case "$jobs" in ''|*[!0-9]*|0) echo "run-unit.sh: -j wants a positive number, not '$jobs'" >&2; exit 2 ;; esac

# The lab-mode tests need PostgreSQL: one throwaway server for the whole
# run (tests/pg.sh, stopped on exit), named to them by $PERFBOT_TEST_PG.
. "$(dirname "$0")/pg.sh"
pg_start_unit || exit 1
out_dir=$(mktemp -d "${TMPDIR:-/tmp}/run-unit.XXXXXX") || exit 1
trap 'rm -rf "$out_dir"; pg_stop' EXIT
# at most $jobs at a time, the lab lane one of them
items "$@" | xargs -r -L 1 -P "$jobs" sh "$0" --run "$out_dir"
summary "$out_dir" "$@"
