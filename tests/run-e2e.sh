#!/bin/sh
# Run the end-to-end shell tests tests/t/t*.sh with $PERFBOT set.
# Each test script sources tests/t/lib.sh and ends with test_done, which
# prints "# passed N failed N"; this sums them into one closing line.
cd "$(dirname "$0")/t" || exit 1
pass=0 fail=0
for t in t[0-9]*.sh; do
	[ -f "$t" ] || continue
	out=$(sh "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(not ok|ok) |^#   ' | sed "s|^|$t: |"
	p=$(printf '%s\n' "$out" | sed -n 's/^# passed \([0-9]*\) failed \([0-9]*\)$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^# passed \([0-9]*\) failed \([0-9]*\)$/\2/p')
	if [ -z "$p" ]; then
		printf '%s\n' "$out" | tail -n 20
		f=1 p=0
	fi
	[ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ] && f=1
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "e2e: $pass passed, $fail failed"
[ $fail -eq 0 ]
