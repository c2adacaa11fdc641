#!/bin/sh
# perfbot run --kernel: Debian's packaged kernel (linux-image-amd64, in
# scripts/deps.sh's test group) booted in QEMU under TCG with perfbot's
# initramfs; the job runs inside, the result tree is written on the host.
# Boot failures: no init (a panic), a boot that misses its deadline.
# kill -9 of perfbot takes QEMU with it.
# e2e: early (QEMU guests under TCG: the longest scripts; a load that
# slows them cannot fail them, their deadlines are 20 minutes)
. ./lib.sh

test_have qemu-system-x86_64 busybox || { test_done; exit 0; }
test_packaged_kernel
# the kernel cache (initramfs files, the KVM probe's answer) stays in the test
export PERFBOT_KERNEL_CACHE="$TRASH/kcache"
RELEASE=$(basename "$KERNEL" | sed 's/^vmlinuz-//')
# the compiler Debian's config-R beside vmlinuz-R names (by its version
# number: perfbot reads CONFIG_CC_VERSION_TEXT), gcc-12 for bookworm's
KCC=$(sed -n "s/^CONFIG_GCC_VERSION=\([1-9][0-9]*\)[0-9]\{4\}$/gcc-\1/p" "$(dirname "$KERNEL")/config-$RELEASE")

cat >"$TRASH/job.yaml" <<'EOF'
testcase: mytest
category: benchmark
runtime: 2s
timeout: 20m
mytest:
  command: "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo ops: 42; echo loops: $i"
EOF

test_expect_success 'a run in the guest: lkp layout on the host, the kernel in the path' '
	test -n "$KCC" &&
	perfbot run --accel tcg --boot-timeout 20m -r res --kernel "$KERNEL" -M proc-vmstat,meminfo "$TRASH/job.yaml" >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	case "$rr" in "$(pwd -P)"/res/mytest/*/vm-tcg-2cpu-1G/perfbot-initramfs/x86_64-unknown/$KCC/$RELEASE) ;;
		*) echo "path: $rr"; false;; esac &&
	grep -q "\"mytest.ops\": 42" "$rr/0/stats.json" &&
	grep -q "\"mytest.loops\": 20000" "$rr/0/stats.json" &&
	grep -q "\"proc-vmstat\." "$rr/0/stats.json" &&
	grep -q "\"boot-time.boot\"" "$rr/0/stats.json" &&
	grep -q "\"boot-time.kernel_boot\"" "$rr/0/stats.json" &&
	grep -q "\"dmesg.timestamp:last\"" "$rr/0/stats.json" &&
	grep -q "\"last_state.is_incomplete_run\": 0" "$rr/0/stats.json" &&
	grep -q "^is_incomplete_run: 0$" "$rr/0/last_state" &&
	grep -q "^boot: ok$" "$rr/0/last_state" &&
	grep -q "^qemu_accel: tcg$" "$rr/0/last_state" &&
	grep -q "^kernel: \"*$KERNEL\"*$" "$rr/0/job.yaml" &&
	grep -q "^commit: $RELEASE$" "$rr/0/job.yaml" &&
	grep -q "^perfbot-guest: sent [1-9]" "$rr/0/dmesg" &&
	grep -q "Linux version $RELEASE" "$rr/0/dmesg" &&
	grep -q "host: boot (replay with): qemu-system-x86_64 .* -accel tcg .*tsc_early_khz=" "$rr/0/perfbot.log" &&
	grep -q "benchmark started" "$rr/0/perfbot.log" &&
	test -f "$rr/0/proc-vmstat" && test -f "$rr/0/mytest" && test -f "$rr/0/machine" &&
	grep -q "\"mytest.ops\"" "$rr/matrix.json" &&
	test -z "$(ls -A "$rr" | grep "^\.run-")" &&
	test ! -e "$rr/0/.results.cpio.gz"
'

test_expect_success 'no init: an incomplete run, the panic in dmesg.* and the reason' '
	sed "s/^runtime: 2s$/runtime: 2s\nkernel_cmdline: rdinit=\/job.yaml/" "$TRASH/job.yaml" >j.yaml &&
	test_must_fail 1 perfbot run --accel tcg --boot-timeout 20m -r res --kernel "$KERNEL" j.yaml >out 2>err &&
	rr=$(sed -n "s/: 1 run (some incomplete)$//p" out) &&
	cat "$rr/0/last_state" &&	# (shown only when the test fails)
	grep -q "^is_incomplete_run: 1$" "$rr/0/last_state" &&
	grep -q "^reason: no init: No working init found" "$rr/0/last_state" &&
	grep -q "^boot: no-init$" "$rr/0/last_state" &&
	grep -q "\"dmesg.Kernel_panic-not_syncing:No_working_init_found\": 1" "$rr/0/stats.json" &&
	grep -q "\"dmesg.boot_failures\": 1" "$rr/0/stats.json" &&
	grep -q "\"last_state.is_incomplete_run\": 1" "$rr/0/stats.json" &&
	grep -q "Kernel panic - not syncing" "$rr/0/dmesg" &&
	grep -q "rdinit=/job.yaml" "$rr/0/perfbot.log" &&
	grep -q "^perfbot: run 1/1 ($rr/0) incomplete: no init: No working init found" err
'

test_expect_success 'a boot that misses its deadline: killed, lkp s hang line, incomplete' '
	test_must_fail 1 perfbot run --accel tcg --boot-timeout 1 -r res --kernel "$KERNEL" "$TRASH/job.yaml" >out 2>err &&
	rr=$(sed -n "s/: 1 run (some incomplete)$//p" out) &&
	grep -q "^reason: .*hang: .* before the boot timeout$" "$rr/0/last_state" &&
	grep -q "^BUG: kernel .*boot hang$" "$rr/0/dmesg" &&
	grep -q "\"dmesg.BUG:kernel_.*boot_hang\": 1" "$rr/0/stats.json" &&
	grep -q "boot deadline passed" "$rr/0/perfbot.log" &&
	grep -q "^perfbot: run 1/1 ($rr/0) incomplete: .*hang: .* before the boot timeout$" err
'

# the QEMU among the processes started with tag $1, if any
tagged_qemu() {
	for p in $(test_leftovers "$1"); do
		grep -qas qemu-system "/proc/$p/cmdline" && echo "$p"
	done
	return 0
}

test_expect_success 'kill -9 of perfbot: QEMU dies with it' '
	tag=$(test_tag) &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run --accel tcg -r res --kernel "$KERNEL" "$TRASH/job.yaml" >out 2>err & } &&
	pid=$! &&
	qemu_up() { test -n "$(tagged_qemu $tag)"; } && test_wait_for qemu_up &&
	kill -9 $pid && { wait $pid || true; } &&
	test_no_leftovers $tag
'

test_expect_success 'bad input: a kernel that is no bzImage, an unknown accel, VM sizes' '
	echo nope >notakernel &&
	test_must_fail 1 perfbot run --accel tcg -r res --kernel notakernel "$TRASH/job.yaml" 2>err &&
	grep -q "is not a bzImage" err &&
	test_must_fail 2 perfbot run --accel hvf --kernel "$KERNEL" "$TRASH/job.yaml" 2>err &&
	grep -q "accel expects auto, icount, tcg or kvm" err &&
	test_must_fail 2 perfbot run --numa 0 --kernel "$KERNEL" "$TRASH/job.yaml" 2>err &&
	grep -q "^perfbot: --numa expects a number from 1 to 16, got .0.$" err &&
	test_must_fail 2 perfbot run --mem 2T --kernel "$KERNEL" "$TRASH/job.yaml" 2>err &&
	grep -q "^perfbot: --mem expects a size from 64M to 1024G" err &&
	test_must_fail 1 perfbot run --accel tcg --numa 4 --mem 128M -r res --kernel "$KERNEL" "$TRASH/job.yaml" 2>err &&
	grep -q "4 NUMA nodes need at least 256 MiB of memory, the VM has 128" err
'

# lkp's host key, without --mem: the boot need not succeed (1 s) to show it
test_expect_success 'the job key memory: 2G reaches QEMU as -m 2048 and names the box' '
	sed "s/^runtime: 2s$/runtime: 2s\nmemory: 2G/" "$TRASH/job.yaml" >j.yaml &&
	grep -q "^memory: 2G$" j.yaml &&
	{ perfbot run --accel tcg --boot-timeout 1 -r res --kernel "$KERNEL" j.yaml >out 2>err || :; } &&
	grep -rq "boot (replay with): qemu-system-x86_64 .* -m 2048 " res &&
	ls -d res/mytest/*/vm-tcg-2cpu-2G
'

# Seed 001 in the guest: lkp's lru-file-readtwice job, its ext4 atom as
# lkp splits it, on Debian's packaged kernel with 2 NUMA nodes.  The
# guest gets the host's mkfs.ext4, losetup, kmod and perf with their
# libraries and the kernel's ext4 and loop modules; the sparse files
# outgrow its memory, so reclaim runs: pgscan moves, per-node rows.
# Under icount the guest's 30 s are instructions: the readers fill its
# 320 MiB and reclaim starts whatever the host does (pgscan_kswapd 14206
# here), where TCG's 30 s of wall time would depend on the host's load.
test_expect_success 'the seed job in the guest under icount: reclaim, NUMA nodes' '
	test_have mkfs.ext4 losetup || exit 0
	test -f "/lib/modules/$RELEASE/modules.dep" || exit 0
	perfbot split-job -o split "$TEST_DIR/../../jobs/short/vm-scalability-lru-file-readtwice.yaml" >/dev/null &&
	atom=$(ls split/*-ext4-*.yaml) &&
	sed -e "s/^runtime: .*/runtime: 30s/" -e "/^timeout:/d" "$atom" >ext4.yaml &&
	echo "timeout: 20m" >>ext4.yaml &&
	{ perfbot run --accel icount --boot-timeout 20m --numa 2 --mem 320M -r seed --kernel "$KERNEL" ext4.yaml >out 2>err ||
		{ tail -n 5 err; cat seed/*/*/*/*/*/*/*/0/last_state; false; }; } &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	cat "$rr/0/last_state" &&
	case "$rr" in */vm-scalability/loop_4G-4G-ext4-30s-lru-file-readtwice/vm-icount-1cpu-320M-2node/*) ;;
		*) echo "path: $rr"; false;; esac &&
	s="$rr/0/stats.json" &&
	grep -q "^is_incomplete_run: 0$" "$rr/0/last_state" &&
	grep -q "\"vm-scalability.throughput\": [1-9]" "$s" &&
	grep -q "\"numa-vmstat.node1.nr_file_pages\": [1-9]" "$s" &&
	grep -Eq "\"numa-numastat.node1.(numa_hit|numa_miss)\": [1-9]" "$s" &&
	grep -q "\"numa-meminfo.node1." "$s" &&
	grep -Eq "\"proc-vmstat.(pgscan_kswapd|pgscan_direct)\": [1-9]" "$s" &&
	grep -Eq "\"proc-vmstat.(pgsteal_kswapd|pgsteal_direct)\": [1-9]" "$s" &&
	grep -q "setup: mounted /dev/loop[0-9]* on .* (ext4)" "$rr/0/perfbot.log" &&
	# kswapd working for the job is no other work: not in a guest of its own
	grep -q "\"machine.run_cpu_percent\"" "$s" &&
	! grep -q "\"machine.other_cpu_percent\"" "$s"
'

# The aim7 short job in the guest: the static aim7 from /bench on ext4
# over the kernel's brd, both modules from the packaged kernel; fewer
# tasks and a shorter runtime than the job's, to keep the test short.
test_expect_success 'aim7 disk_rr in the guest on ext4 over brd: aim7.jobs-per-min, perf-profile symbols' '
	test_have mkfs.ext4 || exit 0
	test -f "/lib/modules/$RELEASE/modules.dep" || exit 0
	find "/lib/modules/$RELEASE" -name "brd.ko*" | grep -q . ||
		{ echo "# skipped: the kernel has no brd module"; exit 0; }
	perfbot split-job -o split "$TEST_DIR/../../jobs/short/aim7-fs-1brd.yaml" fs=ext4 >/dev/null &&
	atom=$(ls split/*-ext4-*.yaml) &&
	sed -e "s/^  load: 100$/  load: 20/" -e "s/^  runtime: .*/  runtime: 10s/" -e "/^timeout:/d" "$atom" >aim7.yaml &&
	echo "timeout: 20m" >>aim7.yaml &&
	grep -q "^  load: 20$" aim7.yaml &&
	perfbot run --accel tcg --boot-timeout 20m --mem 1G -r res --kernel "$KERNEL" -M vmstat,perf-profile aim7.yaml >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	grep -q "^is_incomplete_run: 0$" "$rr/0/last_state" &&
	grep -q "^setup: modprobe brd rd_nr=1 rd_size=524288$" "$rr/0/perfbot.log" &&
	grep -q "setup: mounted /dev/ram0 on .* (ext4)" "$rr/0/perfbot.log" &&
	grep -q "^   20 " "$rr/0/aim7" &&
	grep -q "\"aim7.jobs-per-min\": [1-9]" "$rr/0/stats.json" &&
	# perf in the guest resolves the guest kernel s symbols
	if test_have perf; then
		grep -Eq "\"perf-profile.self.cpu-clock.[a-z_]+\": [0-9]" "$rr/0/stats.json" || {
			echo "no kernel symbols in perf-profile"; false; }
	fi
'

test_done
