#!/bin/sh
# Run the end-to-end shell tests tests/t/t*.sh with $PERFBOT set.
# Each test script sources tests/t/lib.sh and ends with test_done, which
# prints "# passed N failed N"; this sums them into one closing line.
# The whole output of each script is kept in tests/out/e2e/<script>.log;
# the failures are repeated at the end, just above the closing line,
# because a CI log is often read from its tail only.
cd "$(dirname "$0")/t" || exit 1
logs=../out/e2e
mkdir -p "$logs" || exit 1
pass=0 fail=0 failed=
for t in t[0-9]*.sh; do
	[ -f "$t" ] || continue
	out=$(sh "$t" 2>&1)
	rc=$?
	printf '%s\n# exit status %d\n' "$out" $rc >"$logs/$t.log"
	printf '%s\n' "$out" | grep -E '^(not ok|ok) |^#   ' | sed "s|^|$t: |"
	p=$(printf '%s\n' "$out" | sed -n 's/^# passed \([0-9]*\) failed \([0-9]*\)$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^# passed \([0-9]*\) failed \([0-9]*\)$/\2/p')
	if [ -z "$p" ]; then
		printf '%s\n' "$out" | tail -n 20
		f=1 p=0
	fi
	[ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ] && f=1
	[ "${f:-0}" -ne 0 ] && failed="$failed $t"
	pass=$((pass + p))
	fail=$((fail + f))
done
for t in $failed; do
	echo "--- $t failed (whole output: tests/out/e2e/$t.log); its last lines:"
	grep -E '^not ok ' "$logs/$t.log" | sed "s|^|$t: |"
	tail -n 25 "$logs/$t.log"
done
echo "e2e: $pass passed, $fail failed${failed:+ (failed:$failed)}"
[ $fail -eq 0 ]
