#!/bin/sh
# t0520: the benchmark runs in a cgroup of its own (src/run/cgroup.h):
# what it starts dies with the run even after `setsid`, its cgroup dirs
# go, a perfbot killed with -9 leaves cgroups the next run reaps; where
# cgroups cannot be used the run says why, once, and records it; every
# run records what else the machine did (machine.* in stats.json, the
# machine file), and compare names a side that ran on a busy machine.
. ./lib.sh

# A cgroup parent of this script's own: another perfbot on the machine
# (a make check beside, a user's runs) reaps dead runs' cgroups under
# "perfbot" only, never what these tests plant and kill.
export PERFBOT_CGROUP_PARENT="perfbot-t0520-$$"
P=$PERFBOT_CGROUP_PARENT

# Whether perfbot can make cgroups here: root, and a hierarchy mounted
# writable.  The tests that need them skip with the reason otherwise.
cgroups_usable() {
	if [ "$(id -u)" != 0 ]; then
		echo "# skipped: not root"
		return 1
	fi
	if ! grep -qE " - cgroup2? " /proc/self/mountinfo; then
		echo "# skipped: no cgroup hierarchy mounted"
		return 1
	fi
	return 0
}

# the pids of processes whose command line is exactly "$*"
pids_of() {
	want="$*"
	for p in $(ls /proc | grep "^[0-9][0-9]*$"); do
		c=$(tr "\0" " " 2>/dev/null <"/proc/$p/cmdline") || continue
		[ "$c" = "$want " ] && echo "$p"
	done
	return 0
}

# the cgroup dirs "$P/<pid>-*" of pid $1, in every hierarchy
cgroup_dirs() {
	for m in $(awk "\$0 ~ / - cgroup2? / { print \$5 }" /proc/self/mountinfo); do
		ls -d "$m/$P/$1"-* 2>/dev/null
	done
	return 0
}

job() {
	printf "testcase: mytest\nmytest:\n  command: \"%s\"\n" "$1" >j.yaml
}

test_expect_success 'setsid child dies with the run; the cgroup dirs go' '
	cgroups_usable || exit 0 &&
	tag=$(test_tag) && secs=$((1000 + $$ % 1000)) &&
	job "setsid sleep $secs & sleep 0.2; echo score: 1" &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -v -n 2 -r res -c a -M vmstat j.yaml >out 2>err & } &&
	pid=$! && wait $pid &&
	test -z "$(pids_of sleep $secs)" &&
	test_no_leftovers $tag &&
	test -z "$(cgroup_dirs $pid)" &&
	leaf=$(sed -n "s|.*isolated in cgroup $P/\($pid-[0-9][0-9]*\) .*|\1|p" err | head -n 1) &&
	test -n "$leaf" &&
	grep -q "killed 1 process the benchmark left in its cgroup" err &&
	rr=$(ls -d res/mytest/*/*/*/*/*/a) &&
	grep -q "^isolation: cgroup $P/$leaf (" "$rr/0/last_state" &&
	grep -q "^isolation: cgroup $P/$leaf (" "$rr/0/machine" &&
	# each run its own cgroup, named after this perfbot
	test $(grep -c "isolated in cgroup $P/$pid-[0-9]* " err) = 2 &&
	grep "^isolation: cgroup $P/$pid-[0-9]* (" "$rr/1/machine" >leaf1 &&
	! grep -q "^isolation: cgroup $P/$leaf (" leaf1 &&
	grep -q "^other_cpu_percent: [0-9.]*$" "$rr/0/machine" &&
	grep -q "^loadavg_start: [0-9.]*$" "$rr/0/machine" &&
	grep -q "\"machine.other_cpu_percent\": [0-9.]*,$" "$rr/0/stats.json" &&
	grep -q "\"machine.run_cpu_percent\": [0-9.]*,$" "$rr/0/stats.json" &&
	grep -q "\"machine.steal_percent\": [0-9.]*,$" "$rr/0/stats.json" &&
	grep -q "\"machine.loadavg_end\": [0-9.]*" "$rr/0/stats.json"
'

test_expect_success 'killed with -9: the next run reaps the leftover cgroup' '
	cgroups_usable || exit 0 &&
	tag=$(test_tag) && secs=$((2000 + $$ % 1000)) &&
	# the benchmark outlives any wait here (it is killed with the run);
	# the wait is for perfbot to start it, however busy the machine
	job "setsid sleep $secs & sleep 3600; echo score: 1" &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c k -M vmstat j.yaml >/dev/null 2>&1 & } &&
	pid=$! && sleeping() { test -n "$(pids_of sleep $secs)"; } && test_wait_for sleeping &&
	test -n "$(pids_of sleep $secs)" &&
	test -n "$(cgroup_dirs $pid)" &&
	kill -9 $pid && { wait $pid || true; } &&
	test -n "$(cgroup_dirs $pid)" &&
	job "echo score: 1" &&
	perfbot run -r res -c k2 -M vmstat j.yaml >out 2>err &&
	grep "^perfbot: cleaned up after a killed perfbot: .*1 cgroup ($P/<pid>-<n>, [01] process" err &&
	test -z "$(cgroup_dirs $pid)" &&
	test -z "$(pids_of sleep $secs)" &&
	test_no_leftovers $tag
'

# A leftover with a live process in it (a kill -9 under cgroup v1 has no
# cgroup.kill to take it): made by hand, as a dead perfbot would leave it.
test_expect_success 'a leftover cgroup with a process in it: killed, removed' '
	cgroups_usable || exit 0 &&
	v2=$(awk "\$0 ~ / - cgroup2 / { print \$5; exit }" /proc/self/mountinfo) &&
	if [ -z "$v2" ]; then echo "# skipped: no cgroup v2 here"; exit 0; fi &&
	dead=$(sh -c "echo \$\$") && tag=$(test_tag) && secs=$((3000 + $$ % 1000)) &&
	mkdir -p "$v2/$P/$dead-1" &&
	{ env PERFBOT_TEST_TAG=$tag setsid sleep $secs & } &&
	sleeping() { test -n "$(pids_of sleep $secs)"; } && test_wait_for sleeping &&
	echo "$(pids_of sleep $secs)" >"$v2/$P/$dead-1/cgroup.procs" &&
	job "echo score: 1" &&
	perfbot run -r res -c l -M vmstat j.yaml >out 2>err &&
	grep -q "^perfbot: cleaned up after a killed perfbot: 1 cgroup ($P/<pid>-<n>, 1 process killed)$" err &&
	! test -d "$v2/$P/$dead-1" &&
	test_no_leftovers $tag
'

test_expect_success 'no cgroup: one warning, the reason in last_state and machine' '
	printf "1 0 0:1 / /sys rw - sysfs sysfs rw\n" >mountinfo &&
	job "echo score: 1" &&
	env PERFBOT_CGROUP_MOUNTINFO=$PWD/mountinfo "$PERFBOT" run -n 2 -r res -c n -M vmstat \
		j.yaml >out 2>err &&
	grep -c "warning: the benchmark runs without a cgroup" err >count &&
	echo 1 >expect && test_cmp expect count &&
	grep -q "(no cgroup hierarchy is mounted)" err &&
	rr=$(ls -d res/mytest/*/*/*/*/*/n) &&
	grep -q "^isolation: none: no cgroup hierarchy is mounted$" "$rr/1/last_state" &&
	grep -q "^isolation: none: no cgroup hierarchy is mounted$" "$rr/1/machine" &&
	grep -q "\"machine.other_cpu_percent\"" "$rr/1/stats.json" &&
	perfbot run --no-cgroup -r res -c o -M vmstat j.yaml >out 2>err &&
	! grep -q warning err &&
	grep -q "^isolation: none: --no-cgroup$" res/mytest/*/*/*/*/*/o/0/last_state
'

test_expect_success 'cpuset: pinned where a cpuset controller is; bad ones refused' '
	job "grep Cpus_allowed_list /proc/self/status | sed \"s/.*:[[:space:]]*/cpus: /\"; echo score: 1" &&
	printf "cpuset: 0\n" >>j.yaml &&
	test_must_fail 1 perfbot run --cpuset 0-x -r res -c c1 -M vmstat j.yaml 2>err &&
	grep -q "^perfbot: --cpuset expects CPUs like 0-1 or 0,2, got .0-x.$" err &&
	cgroups_usable || exit 0 &&
	if ! grep -qE " - cgroup .*cpuset" /proc/self/mountinfo &&
	   ! grep -qw cpuset /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		echo "# skipped: no cpuset controller"; exit 0
	fi &&
	perfbot run -r res -c c2 -M vmstat j.yaml >out 2>err &&
	rr=$(ls -d res/mytest/*/*/*/*/*/c2) &&
	grep -q "\"mytest.cpus\": 0," "$rr/0/stats.json" &&
	grep -q "cpuset.cpus=0" "$rr/0/last_state" &&
	test_must_fail 1 perfbot run --cpuset 999 -r res -c c3 -M vmstat j.yaml 2>err &&
	grep -q "^perfbot: cpuset .999.: .* (cpuset.cpus of .*/$P/[0-9]*-1)$" err &&
	test -z "$(ls -A res/mytest/*/*/*/*/*/c3)" &&
	p=$(sed -n "s/.*(cpuset.cpus of .*\/perfbot\/\([0-9]*\)-1)$/\1/p" err) &&
	test -n "$p" && test -z "$(cgroup_dirs $p)"
'

# the rule's boundary (report/busy.h): a mean of exactly 50 is not busy
test_expect_success 'compare and report name the side that ran on a busy machine' '
	for side in quiet edge busy; do
		for k in 0 1 2; do
			d=r/$side/$k && mkdir -p $d &&
			case $side in
			quiet) o=5.5 ;;
			edge) o=$(echo "49.5 50.0 50.5" | cut -d" " -f$((k + 1))) ;;
			busy) o=$(echo "50.0 50.5 51.0" | cut -d" " -f$((k + 1))) ;;
			esac &&
			printf "{\n  \"mytest.score\": %d,\n  \"machine.other_cpu_percent\": %s\n}\n" \
				$((100 + k)) $o >$d/stats.json || exit 1
		done
		perfbot unite r/$side/0 r/$side/1 r/$side/2 >/dev/null || exit 1
	done &&
	perfbot compare r/quiet r/busy >out &&
	grep "^note: " out >notes &&
	echo "note: NEW busy ran on a busy machine: other work used 50.5% of a CPU on average (machine.other_cpu_percent, busy above 50)" >expect &&
	test_cmp expect notes &&
	! grep -q "machine\.other_cpu_percent *[0-9]" out &&
	perfbot compare r/busy r/quiet >out2 &&
	grep -q "^note: BASE busy ran on a busy machine" out2 &&
	perfbot compare r/quiet r/edge >out3 &&
	! grep -q "busy machine" out3 &&
	perfbot compare --legacy r/quiet r/busy >out4 &&
	grep -q "^note: NEW busy ran on a busy machine" out4 &&
	perfbot report r/quiet r/busy >rep &&
	grep -qxF "$(cat expect)" rep &&
	perfbot report --format html r/quiet r/busy >rep.html &&
	grep -qF "<p>$(cat expect)</p>" rep.html &&
	perfbot report r/quiet r/edge >rep2 &&
	! grep -q "busy machine" rep2
'

# the parent dirs are left by design (other runs may be making theirs);
# this script's own go
for m in $(awk "\$0 ~ / - cgroup2? / { print \$5 }" /proc/self/mountinfo); do
	rmdir "$m/$P" 2>/dev/null
done
test_done
