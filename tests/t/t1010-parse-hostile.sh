#!/bin/sh
# t1010: parsers fed hostile output: sums past 2^63 are exact (as lkp's
# Ruby prints them), long digit runs parse in linear time, and an endless
# input stops at a bound with a clear error.
. ./lib.sh

test_expect_success 'softirqs and interrupts sums past 2^63 are exact' '
	printf "time: 1\n    CPU0 CPU1\n HI: 9223372036854775807 1\n" >sirq &&
	perfbot parse softirqs sirq >out &&
	grep -qx "HI: 9223372036854775808" out &&
	printf "time: 1\n    CPU0 CPU1\nLOC: 18446744073709551615 5 Local timer\n" >irq &&
	perfbot parse interrupts irq >out &&
	grep -qx "LOC:Local_timer: 18446744073709551620" out
'

test_expect_success 'vm-scalability: byte and rate sums past 2^63 are exact' '
	for i in 1 2; do
		echo "9223372036854775807 bytes / 10 usecs = 9223372036854775807 KB/s"
	done >vm &&
	perfbot parse vm-scalability vm >out &&
	grep -qx "# 2 18446744073709551614" out &&
	grep -qx "workload: 18014398509481984.00" out
'

test_expect_success 'a 100,000-digit line is parsed at once by the regexp parsers' '
	python3 -c "print(\"1\" * 100000)" >digits &&
	python3 -c "print(\"1\" * 100000 + \" bytes / 1 usecs = 5 KB/s\")" >digits2 &&
	for p in vm-scalability perf-bench-syscall netperf stream unixbench redis; do
		# a guard against a hang (glibc regexec took 354 s here), not a
		# speed measurement: bench/parse.sh measures
		timeout 60 "$PERFBOT" parse $p digits >/dev/null 2>&1
		test $? -ne 124 || { echo "$p hung"; exit 1; }
	done &&
	timeout 60 "$PERFBOT" parse vm-scalability digits2 >out &&
	grep -qx "throughput: 5" out
'

test_expect_success 'parse of an endless input stops with an error naming the bound' '
	test_must_fail 1 perfbot parse hackbench /dev/zero 2>err &&
	test_cmp - err <<-\EOT &&
	perfbot: /dev/zero:1: a line longer than 1 MiB (perfbot reads lines of at most that length)
	EOT
	test_must_fail 1 perfbot parse hackbench </dev/zero 2>err &&
	grep -q "^perfbot: <stdin>:1: a line longer than 1 MiB" err
'

# found by fuzzing (tests/fuzz/fuzz_parse.c): a NUL inside a field cut it
# when printed, and softirqs wrote "CPU0.\001 C" without ": value"
test_expect_success 'NUL bytes in an output read as spaces, with one warning' '
	printf "time: 1\n    CPU0 CPU1\n HI:\000 5 6\nRCU: 1\000 2\000\n" >nul &&
	perfbot parse softirqs nul >out 2>err &&
	test_cmp - out <<-\EOT &&
	time: 1
	CPU0.HI: 5
	CPU1.HI: 6
	HI: 11
	CPU0.RCU: 1
	CPU1.RCU: 2
	RCU: 3
	EOT
	test_cmp - err <<-\EOT &&
	perfbot: warning: nul:3: NUL bytes in the output read as spaces
	EOT
	perfbot parse softirqs <nul >out2 2>err &&
	test_cmp out out2 &&
	grep -qx "perfbot: warning: <stdin>:3: NUL bytes in the output read as spaces" err
'

test_expect_success 'a NUL inside a value is a blank there: "12<NUL>34" is no number' '
	printf "a: 1\nops: 12\00034\n" >nul &&
	perfbot parse mytest nul >out 2>err &&
	test_cmp - out <<-\EOT &&
	a: 1
	EOT
	grep -qx "perfbot: warning: nul:2: NUL bytes in the output read as spaces" err
'

test_done
