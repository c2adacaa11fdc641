#!/bin/sh
# perfbot watch --kernel-tree and a kernel bisect's VM, on a stand-in
# kernel tree (lib.sh's make_kernel_tree): each commit boots Debian's
# packaged kernel with the commit's benchmark score in its setup
# header.  A boot under TCG takes ~10 s here, so the tests boot four
# times; the others stop at a boot timeout of 1 s.
# e2e: early (QEMU guests under TCG: the longest scripts; a load that
# slows them cannot fail them, their deadlines are 20 minutes)
. ./lib.sh

test_have qemu-system-x86_64 busybox python3 || { test_done; exit 0; }
test_packaged_kernel
# the kernel cache (builds, initramfs, the probe's answer) stays in the test
export PERFBOT_KERNEL_CACHE="$TRASH/kcache"

make_kernel_tree "$TRASH/tree"
TREE=$TRASH/tree
C1=$(git -C "$TREE" rev-parse c1)
C2=$(git -C "$TREE" rev-parse c2)
C3=$(git -C "$TREE" rev-parse c3)

cat >"$TRASH/job.yaml" <<'EOF'
testcase: mytest
category: benchmark
runtime: 2s
timeout: 20m
mytest:
  command: "echo throughput: $(od -An -tu2 -j 504 -N 2 /sys/kernel/boot_params/data)"
EOF
# the VM the tests ask for, and the box it names
VM="--accel tcg --mem 2G --numa 2"
BOX=vm-tcg-2cpu-2G-2node

test_expect_success 'watch --kernel-tree: each commit built in the cache and booted, the job inside' '
	perfbot watch --kernel-tree "$TREE" --branch main --job "$TRASH/job.yaml" $VM \
		--boot-timeout 20m --state-dir "$TRASH/st" --result-root "$TRASH/res" --db "$TRASH/s.db" \
		--once --runs 1 --metric mytest.throughput >out 2>err &&
	grep -q "^\[1/3\] $(echo $C3 | cut -c1-12): the kernel does not build (init/main.c:1:1: error: planted): skipped from now on$" out &&
	grep -q "^failed $C3 build$" "$TRASH/st/log" &&
	grep -q "^tested $C2 1$" "$TRASH/st/log" &&
	grep -q "^tested $C1 1$" "$TRASH/st/log" &&
	grep -q "^detect mytest.throughput: 2 tested commits, 0 changes, 0 regressions (too few to tell yet)$" out &&
	# lkp s path: the VM as the box, the config, the commit; the score the kernel s
	r1=$(ls -d "$TRASH"/res/mytest/*/$BOX/perfbot-initramfs/x86_64-tiny/clang-16/$C1) &&
	r2=$(ls -d "$TRASH"/res/mytest/*/$BOX/perfbot-initramfs/x86_64-tiny/clang-16/$C2) &&
	grep -q "\"mytest.throughput\": 1000" "$r1/0/stats.json" &&
	grep -q "\"mytest.throughput\": 850" "$r2/0/stats.json" &&
	grep -q "^qemu_accel: tcg$" "$r2/0/last_state" &&
	grep -q "host: boot (replay with): qemu-system-x86_64 .*-numa node" "$r2/0/perfbot.log" &&
	test -f "$TRASH"/kcache/images/$C2-x86_64-tiny-*/bzImage &&
	# the user s checkout is never built in
	test -z "$(git -C "$TREE" status --porcelain)"
'

test_expect_success 'the next pass builds nothing and finds the results under the VM' '
	perfbot watch --kernel-tree "$TREE" --branch main --job "$TRASH/job.yaml" $VM \
		--boot-timeout 20m --state-dir "$TRASH/st" --result-root "$TRASH/res" --db "$TRASH/s.db" \
		--once --runs 1 --metric mytest.throughput >out 2>err &&
	grep -q "^nothing new on main" out &&
	grep -q "^detect mytest.throughput: 2 tested commits" out &&
	! grep -q "building" err
'

# a finished bisect of c1..c2 as perfbot bisect writes it (bisect.json,
# "kernel" included), on the watch s runs: its reproduce lines, pasted
test_expect_success 'a kernel bisect report s reproduce lines build and boot when pasted' '
	r1=$(ls -d "$TRASH"/res/mytest/*/$BOX/perfbot-initramfs/x86_64-tiny/clang-16/$C1) &&
	r2=$(ls -d "$TRASH"/res/mytest/*/$BOX/perfbot-initramfs/x86_64-tiny/clang-16/$C2) &&
	mkdir bj &&
	cat >bj/bisect.json <<-EOF &&
	{"version": 1, "repo": "$TREE", "metric": "mytest.throughput", "good": "$C1", "bad": "$C2",
	 "first_bad": "$C2", "parent": "$C1", "job": "$TRASH/job.yaml", "result_base": "$TRASH/res",
	 "kernel": {"tree": "$TREE", "config": "tiny", "accel": "tcg", "mem_mb": 2048, "numa": 2,
	            "boot_timeout": 1200},
	 "commits": {"$C1": {"result_root": "$r1"}, "$C2": {"result_root": "$r2"}}}
	EOF
	perfbot report --bisect bj >report &&
	grep -q "with each commit.s kernel built and booted in turn" report &&
	grep "K=\$(perfbot kernel build --tree $TREE --commit $C2 --config tiny) && perfbot run --kernel \"\$K\" --accel tcg --boot-timeout 1200 --mem 2G --numa 2 $TRASH/job.yaml --result-root $TRASH/res$" report >line &&
	sed "s/^ *//" line >repro.sh &&
	PATH=$(dirname "$PERFBOT"):$PATH sh repro.sh >out 2>err &&
	grep -q "is built already" err &&
	grep -q "^$r2: 1 run$" out &&
	test -f "$r2/1/stats.json" &&
	grep -q "\"mytest.throughput\": 850" "$r2/1/stats.json"
'

test_expect_success 'bisect --kernel-tree: the VM of the log, also on --resume' '
	test_must_fail 1 perfbot bisect --kernel-tree "$TREE" --good c1 --bad c2 --job "$TRASH/job.yaml" \
		--metric mytest.throughput $VM --boot-timeout 1 --state st --result-root res 2>err &&
	grep -q "an endpoint could not be built or measured" err &&
	grep -q "^start .* --accel tcg --boot-timeout 1 --mem 2G --numa 2 " st &&
	ls -d res/mytest/*/$BOX/perfbot-initramfs/x86_64-tiny/clang-16/$C1/0 &&
	grep -q "^reason: .*hang: .* before the boot timeout$" res/mytest/*/$BOX/*/*/clang-16/$C1/0/last_state &&
	test_must_fail 1 perfbot bisect --resume --state st 2>err &&
	grep -q "an endpoint could not be built or measured" err &&
	test -d res/mytest/*/$BOX/perfbot-initramfs/x86_64-tiny/clang-16/$C1/1 &&
	test "$(ls -d res/mytest/*/*/*/*/clang-16/$C1 | wc -l)" -eq 1
'

test_expect_success 'watch hands a regression s range to bisect --kernel-tree with its VM' '
	# a history of six tested commits in the store (user-space runs of
	# the job), the step at c2: watch bisects it with the kernel tree
	git init -q -b main tree2 && cp -R "$TREE"/Makefile "$TREE"/value.py "$TREE"/scripts tree2/ &&
	i=0 && while [ $i -lt 6 ]; do
		if [ $i -lt 3 ]; then echo 1000 >tree2/VALUE; else echo 850 >tree2/VALUE; fi &&
		echo $i >tree2/N && git -C tree2 add . && git -C tree2 commit -q -m "k$i" &&
		sha=$(git -C tree2 rev-parse HEAD) &&
		v=$(cat tree2/VALUE) &&
		perfbot run -n 1 -r ures --commit $sha --db s.db "$TRASH/job.yaml" -- \
			sh -c "echo throughput: $v" >/dev/null 2>&1 &&
		echo "tested $sha 1" >>log || exit 1
		i=$((i + 1))
	done &&
	mkdir st2 && mv log st2/log &&
	test_must_fail 1 perfbot watch --kernel-tree "$(pwd)/tree2" --branch main --job "$TRASH/job.yaml" \
		$VM --boot-timeout 1 --metric mytest.throughput --state-dir "$(pwd)/st2" --result-root "$(pwd)/res" \
		--db s.db --once >out 2>err &&
	grep -q "^bisect mytest.throughput -15.0%" out &&
	state=$(ls st2/bisect-*.state) &&
	grep -q "^start --repo .$(pwd)/tree2. .* --kernel-tree .$(pwd)/tree2. --config .tiny. --accel tcg --boot-timeout 1 --mem 2G --numa 2 " "$state" &&
	ls -d res/mytest/*/$BOX/perfbot-initramfs/x86_64-tiny/clang-16/*/0/last_state
'

test_done
