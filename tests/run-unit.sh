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
jobs=1
case "${1:-}" in
-j) jobs=${2:?-j needs a number}; shift 2 ;;
-j*) jobs=${1#-j}; shift ;;
esac
case "$jobs" in ''|*[!0-9]*|0) echo "run-unit.sh: -j wants a positive number, not '$jobs'" >&2; exit 2 ;; esac
src=$(cd "$(dirname "$0")/unit" && pwd)
pass=0 fail=0 skipped=0
# git as on a fresh machine (see tests/t/lib.sh)
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# The lab-mode tests need PostgreSQL: one throwaway server for the whole
# run (tests/pg.sh, stopped on exit), named to them by $PERFBOT_TEST_PG.
# Only missing server binaries let them skip, and not where
# $PERFBOT_REQUIRE names postgresql (make check-full: CI installs it).
. "$(dirname "$0")/pg.sh"
if ! pg_start; then
	echo "unit: lab tests skip: $PG_WHY"
	[ -n "$PG_MISSING" ] || exit 1
	case " ${PERFBOT_REQUIRE:-} " in *" postgresql "*)
		echo "unit: PERFBOT_REQUIRE wants postgresql: failing, not skipping"; exit 1 ;;
	esac
fi
out_dir=$(mktemp -d "${TMPDIR:-/tmp}/run-unit.XXXXXX") || exit 1
trap 'rm -rf "$out_dir"; pg_stop' EXIT
# run_one BINARY: its output and exit status into $out_dir
run_one='n=$(basename "$1"); "$1" >"$0/$n.out" 2>&1; echo $? >"$0/$n.rc"'
lab= other=
for t in "$@"; do
	if grep -q '"lab_helpers.h"' "$src/$(basename "$t").c" 2>/dev/null; then
		lab="$lab $t"
	else
		other="$other $t"
	fi
done
[ -z "$lab" ] || { for t in $lab; do sh -c "$run_one" "$out_dir" "$t"; done; } &
printf '%s\n' $other | xargs -r -P "$jobs" -n 1 sh -c "$run_one" "$out_dir"
wait
for t in "$@"; do
	n=$(basename "$t")
	out=$(cat "$out_dir/$n.out" 2>/dev/null)
	rc=$(cat "$out_dir/$n.rc" 2>/dev/null)
	rc=${rc:-1}
	printf '%s\n' "$out" | grep -E '^\[  (FAILED|ERROR|SKIPPED) |^\[  PASSED  \]' | sed "s|^|$(basename "$t"): |"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
	s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
	pass=$((pass + ${p:-0}))
	skipped=$((skipped + ${s:-0}))
	if [ $rc -ne 0 ]; then
		printf '%s\n' "$out" | tail -n 30
		fail=$((fail + ${f:-1}))
	fi
done
echo "unit: $pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
