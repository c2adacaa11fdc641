#!/bin/sh
# tests/run-unit.sh --summary: the output of a binary that failed comes
# after every binary's cmocka lines, so a log cut to its tail shows it
. ./lib.sh

RUNNER=$(cd .. && pwd)/run-unit.sh

# fake NAME RC LINE...: what a binary NAME printed, and its exit status
fake() {
	n=$1 rc=$2
	shift 2
	printf '%s\n' "$@" >"out/$n.out"
	echo "$rc" >"out/$n.rc"
}

test_expect_success 'a failure is printed after all binaries, the count last' '
	mkdir -p out &&
	fake test_a 0 "[  PASSED  ] 3 test(s)." &&
	fake test_b 1 "the assertion that broke" "[  PASSED  ] 1 test(s)." "[  FAILED  ] 2 test(s), listed below:" &&
	fake test_c 0 "[  PASSED  ] 4 test(s)." "[  SKIPPED ] 1 test(s), listed below:" &&
	test_must_fail 1 sh "$RUNNER" --summary out test_a test_b test_c >summary &&
	tail -n 1 summary >last &&
	echo "unit: 8 passed, 2 failed, 1 skipped" >want &&
	test_cmp want last &&
	n_c=$(grep -n "^test_c: \[  PASSED" summary | cut -d: -f1) &&
	n_fail=$(grep -n "^--- test_b failed (exit 1)" summary | cut -d: -f1) &&
	n_why=$(grep -n "^the assertion that broke" summary | cut -d: -f1) &&
	test "$n_c" -lt "$n_fail" && test "$n_fail" -lt "$n_why"
'

test_expect_success 'all passing: no failure block, exit 0' '
	rm -rf out && mkdir out &&
	fake test_a 0 "[  PASSED  ] 3 test(s)." &&
	sh "$RUNNER" --summary out test_a >summary &&
	! grep -q "^---" summary &&
	echo "unit: 3 passed, 0 failed, 0 skipped" >want &&
	tail -n 1 summary >last && test_cmp want last
'

test_expect_success 'a binary that died without a word counts as one failure' '
	rm -rf out && mkdir out &&
	fake test_a 134 "AddressSanitizer: heap-use-after-free" &&
	test_must_fail 1 sh "$RUNNER" --summary out test_a >summary &&
	grep -q "^--- test_a failed (exit 134)" summary &&
	grep -q "^AddressSanitizer" summary &&
	echo "unit: 0 passed, 1 failed, 0 skipped" >want &&
	tail -n 1 summary >last && test_cmp want last
'

test_done
