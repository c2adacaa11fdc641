#!/bin/sh
# t1020: kill -9 at random moments of `perfbot run` and `perfbot bisect`:
# nothing the killed perfbot started lives on (die_with_parent), and the
# next start reaps what it left (run/leftovers.h): half-made ".run-K.<pid>"
# dirs, setup journals, mounts and loop devices; a bisect --resume'd after
# the kill reaches the same answer.
#
# PERFBOT_KILL9_ROUNDS sets the number of kills (default 20, as the issue
# asks; each round is about a second: the kill comes 0.05-1.2 s after the
# start, with 3 short runs per start).  The fs (ext4 on a loop image) and
# perf-profile are used where this machine has them (root, mkfs.ext4,
# loop devices; a perf that can record), and said when not.
# e2e: early (long in wall time, light on CPU: started first in the pool)
. ./lib.sh
# cgroups of this script's own: no other perfbot reaps what it kills
export PERFBOT_CGROUP_PARENT="perfbot-t1020-$$"

ROUNDS=${PERFBOT_KILL9_ROUNDS:-20}

have_loop_fs() {
	[ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null &&
		command -v mkfs.ext4 >/dev/null && grep -qw ext4 /proc/filesystems
}
have_perf_record() {
	command -v perf >/dev/null &&
		perf record -q -a -o "$TRASH/probe.data" -- sleep 0.1 >/dev/null 2>&1
}

# the leftovers of base W and result tree R (the tree of a -c commit)
no_mounts_or_loops() {
	! grep -q " $1/" /proc/mounts && ! losetup -a 2>/dev/null | grep -q "$1/"
}
no_run_dirs() { test -z "$(find "$1" -name ".run-*")"; }

test_expect_success "run: $ROUNDS kills at random moments leave nothing behind" '
	tag=$(test_tag) && export PERFBOT_WORK_DIR=$PWD/work &&
	printf "testcase: mytest\n" >j.yaml &&
	if have_loop_fs; then
		printf "fs: ext4\ndisk: loop_64M\n" >>j.yaml
	else
		echo "# no fs: needs root, loop devices and mkfs.ext4"
	fi &&
	if have_perf_record; then
		printf "perf-profile:\n  delay: 0\n" >>j.yaml && mon=vmstat,perf-profile
	else
		echo "# no perf-profile: perf cannot record here" && mon=vmstat
	fi &&
	i=0 && cleaned=0 &&
	while [ $i -lt $ROUNDS ]; do
		i=$((i + 1)) &&
		t=$(awk -v s=$i "BEGIN { srand(s); printf \"%.2f\", 0.05 + rand() * 1.15 }") &&
		{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -n 3 -r res -c k -M $mon j.yaml \
			-- sh -c "sleep 30 & sleep 0.2; echo score: 1" >/dev/null 2>>starts & } &&
		pid=$! && sleep $t && kill -9 $pid && { wait $pid || true; } &&
		# what it started died with it: before anyone cleans up
		test_no_leftovers $tag || { echo "round $i, killed after $t s"; exit 1; }
	done &&
	n=$(grep -c "^perfbot: cleaned up after a killed perfbot: " starts || true) &&
	echo "# $ROUNDS kills; $n starts cleaned up after the one before" &&
	test "$n" -gt 0 &&
	env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -n 1 -r res -c k -M $mon j.yaml \
		-- sh -c "echo score: 1" >out 2>err &&
	test_no_leftovers $tag &&
	rr=$(ls -d res/mytest/*/*/*/*/*/k) &&
	no_run_dirs res &&
	no_mounts_or_loops "$PWD/work" &&
	test -z "$(ls work 2>/dev/null)" &&
	ls "$rr" | grep -q "^[0-9]*$" &&
	test -f "$rr/matrix.json"
'

test_expect_success 'the start after a kill names what it cleaned, in one line' '
	export PERFBOT_WORK_DIR=$PWD/work && tag=$(test_tag) &&
	printf "testcase: mytest\n" >j.yaml &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c c1 -M vmstat j.yaml -- sleep 3600 \
		>/dev/null 2>&1 & } &&
	pid=$! && rr= &&
	run_dir_made() { test -n "$(ls -A res/mytest/*/*/*/*/*/c1 2>/dev/null)"; } &&
	test_wait_for run_dir_made &&
	kill -9 $pid && { wait $pid || true; } &&
	test_no_leftovers $tag &&
	rr=$(ls -d res/mytest/*/*/*/*/*/c1) &&
	ls -A "$rr" | grep -q "^\.run-0\.$pid$" &&
	perfbot run -r res -c c1 -M vmstat j.yaml -- echo score: 1 >out 2>err &&
	grep -c "^perfbot: cleaned up" err >count && echo 1 >expect && test_cmp expect count &&
	# and the cgroup of the benchmark, when the kill came after it was made
	grep -q "^perfbot: cleaned up after a killed perfbot: 1 half-made run dir (.run-\*) in $PWD/$rr\(, 1 cgroup ($PERFBOT_CGROUP_PARENT/<pid>-<n>, [0-9]* processes killed)\)\{0,1\}$" err &&
	no_run_dirs res && test -d "$rr/0" && ! test -e "$rr/1"
'

# make_repo DIR: 12 commits, VALUE drops from 1000 to 850 at commit 7
make_repo() {
	test_value_repo "$1" 12 7 &&
	git -C "$1" tag good "$(git -C "$1" rev-list --max-parents=0 HEAD)" && git -C "$1" tag bad HEAD
}

test_expect_success 'bisect: killed with -9, --resume reaps and reaches the same answer' '
	export PERFBOT_WORK_DIR=$PWD/work && tag=$(test_tag) &&
	make_repo repo && printf "testcase: mytest\n" >job.yaml &&
	cat >bench.sh <<-\EOS &&
	#!/bin/sh
	sleep 30 &
	sleep 0.3
	echo "score: $(cat "$PERFBOT_BUILD_DIR/VALUE")"
	EOS
	chmod +x bench.sh &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" bisect --repo repo --good good --bad bad \
		--job job.yaml --metric mytest.score --state st --result-root res --no-index \
		-- "$PWD/bench.sh" >/dev/null 2>&1 & } &&
	pid=$! && sleep 2.5 && kill -9 $pid && { wait $pid || true; } &&
	test_no_leftovers $tag &&
	! grep -q "^result" st &&
	env PERFBOT_TEST_TAG=$tag "$PERFBOT" bisect --resume --state st >out 2>err &&
	test_no_leftovers $tag &&
	want=$(git -C repo log --format=%H --grep="^commit 7$" bad) &&
	grep -q "^first bad commit: $want" out &&
	no_run_dirs res &&
	perfbot bisect --repo repo --good good --bad bad --job job.yaml --metric mytest.score \
		--state st2 --result-root res2 --no-index -- "$PWD/bench.sh" >out2 2>&1 &&
	grep "^first bad commit" out >a && grep "^first bad commit" out2 >b && test_cmp a b
'

for m in $(awk "\$0 ~ / - cgroup2? / { print \$5 }" /proc/self/mountinfo); do
	rmdir "$m/$PERFBOT_CGROUP_PARENT" 2>/dev/null
done
test_done
