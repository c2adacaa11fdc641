#!/bin/sh
# perfbot run's kmsg monitor: the kernel log of the run into <result>/kmsg,
# and its kmsg.* and dmesg.* counters into stats.json
. ./lib.sh

# Writing to /dev/kmsg takes root (CAP_SYSLOG is not enough with
# kernel.printk_devkmsg=off), reading it may be restricted (dmesg_restrict).
have_kmsg() {
	if ! [ -w /dev/kmsg ] || ! [ -r /dev/kmsg ]; then
		echo "# skipped: /dev/kmsg is not readable and writable here (not root?)"
		return 1
	fi
}

test_expect_success 'a line the kernel logs during the run: in kmsg, counted in stats.json' '
	have_kmsg || exit 0
	tag=$(test_tag) &&
	echo "<6>$tag: before the run" >/dev/kmsg &&
	printf "testcase: mytest\ncategory: benchmark\n" >j.yaml &&
	perfbot run -r res -c km1 -M kmsg j.yaml -- sh -c "
		echo \"<3>$tag[1]: segfault at 0 ip 0000000000000000 sp 0000000000000000 error 4\" >/dev/kmsg &&
		echo \"<4>WARNING: CPU: 0 PID: 1 at lib/perfbotkmsg.c:12 perfbotkmsg_test+0x1/0x2\" >/dev/kmsg &&
		echo ops: 1" >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	# user space writes are facility user, as dmesg --decode prints them
	grep -q "^user  :err   : \[ *[0-9]*\.[0-9]\{6\}\] $tag\[1\]: segfault at 0 " "$rr/0/kmsg" &&
	grep -q "^user  :warn  : .*WARNING: CPU: 0 PID: 1 at lib/perfbotkmsg.c:12" "$rr/0/kmsg" &&
	# the log from before the run is not the run'"'"'s
	! grep -q "$tag: before the run" "$rr/0/kmsg" &&
	grep -q "\"kmsg.segfault_at_ip_sp_error\": 1," "$rr/0/stats.json" &&
	grep -q "\"dmesg.WARNING:at_lib/perfbotkmsg.c:#perfbotkmsg_test\": 1," "$rr/0/stats.json" &&
	grep -q "\"dmesg.boot_failures\": 1," "$rr/0/stats.json" &&
	grep -q "\"kmsg.timestamp:last\": " "$rr/0/stats.json" &&
	! grep -q "not in perfbot" err
'

test_expect_success 'a line logged as the benchmark ends is drained at the stop' '
	have_kmsg || exit 0
	tag=$(test_tag) &&
	printf "testcase: mytest\n" >j.yaml &&
	perfbot run -r res -c km2 -M kmsg -i 30 j.yaml -- sh -c "
		sleep 0.3; echo \"<6>$tag: at the end\" >/dev/kmsg; echo ops: 1" >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	grep -q "$tag: at the end" "$rr/0/kmsg"
'

test_expect_success 'kmsg is one of the default monitors of a benchmark job' '
	have_kmsg || exit 0
	printf "testcase: mytest\ncategory: benchmark\n" >j.yaml &&
	perfbot run -r res -c km3 j.yaml -- sh -c "echo ops: 1" >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	test -f "$rr/0/kmsg" &&
	! grep "not in perfbot yet: .*kmsg" err
'

test_done
