#!/bin/sh
# Run each cmocka test binary given as argument; print one summary line.
# cmocka prints its own "[  PASSED  ] N test(s)." per binary; this adds the
# overall "N passed, N failed" line that CI reads.
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
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
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
