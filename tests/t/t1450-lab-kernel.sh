#!/bin/sh
# perfbot worker --kernel-tree: a kernel test box of the lab.  Each
# queued job's commit is built through the kernel cache and booted in
# QEMU, the job run inside, the results uploaded as any box's; on the
# stand-in kernel tree of lib.sh (make_kernel_tree), whose commits boot
# Debian's packaged kernel with the commit's score in its setup header.
# One boot under TCG (~10 s here); the other tests stop before booting.
# e2e: early (a QEMU guest under TCG: a long script; a load that slows
# it cannot fail it, its deadlines are 20 minutes)
. ./lib.sh

test_have qemu-system-x86_64 busybox python3 || { test_done; exit 0; }
test_packaged_kernel
. ./lab-lib.sh
# the kernel cache (builds, initramfs, the probe's answer) stays in the test
export PERFBOT_KERNEL_CACHE="$TRASH/kcache"

make_kernel_tree "$TRASH/tree"
TREE=$TRASH/tree
C2=$(git -C "$TREE" rev-parse c2)
C3=$(git -C "$TREE" rev-parse c3)
cat >"$TRASH/job.yaml" <<'EOF2'
testcase: mytest
category: benchmark
runtime: 2s
timeout: 20m
mytest:
  command: "echo throughput: $(od -An -tu2 -j 504 -N 2 /sys/kernel/boot_params/data)"
EOF2
VM="--accel tcg --boot-timeout 20m --mem 2G --numa 2"

test_expect_success 'a kernel worker builds the job commit, boots it with the job inside, uploads' '
	db=$(lab_db kern) && S=$(url kern sub) &&
	perfbot queue submit --db "$S" "$TRASH/job.yaml" --commit c2 >/dev/null &&
	perfbot worker --db "$(url kern box1)" --once --dir w -g kbox \
		--kernel-tree "$TREE" $VM 2>err &&
	grep -q "done, results uploaded$" err &&
	test "$(sql kern "SELECT state FROM perfbot.queue WHERE id = 1")" = done &&
	# lkp s path: the box s group, the guest s rootfs, the config, the
	# compiler its .config names, the commit as queued (the upload takes
	# no other)
	rr=$(sql kern "SELECT path FROM perfbot.result_root") &&
	case "$rr" in lab:1/mytest/*/kbox/perfbot-initramfs/x86_64-tiny/clang-16/c2) ;; *) false ;; esac &&
	# the score is the booted kernel s
	test "$(sql kern "SELECT s.value FROM perfbot.sample s JOIN perfbot.metric m
		ON m.id = s.metric_id WHERE m.name = \$\$mytest.throughput\$\$")" = 850 &&
	perfbot queue fetch --db "$S" 1 -r got >out &&
	r=$(sed -n "s/: 1 run$//p" out) &&
	grep -q "^qemu_accel: tcg$" "$r/0/last_state" &&
	grep -q "host: boot (replay with): qemu-system-x86_64 .*-numa node" "$r/0/perfbot.log" &&
	test -f "$r/0/dmesg" &&
	# built once, in the kernel cache; the tree untouched
	test -f "$TRASH"/kcache/images/$C2-x86_64-tiny-*/bzImage &&
	test -z "$(git -C "$TREE" status --porcelain)" &&
	test -z "$(ls w | grep -v repos)"
'

test_expect_success 'a commit that does not build fails the job with the compiler s line' '
	perfbot queue submit --db "$(url kern sub)" "$TRASH/job.yaml" --commit $C3 \
		--attempts 1 >/dev/null &&
	perfbot worker --db "$(url kern box1)" --once --dir w -g kbox \
		--kernel-tree "$TREE" $VM 2>err &&
	sql kern "SELECT last_error FROM perfbot.queue WHERE id = 2" >e &&
	grep -q "^attempt 1: the kernel does not build (init/main.c:1:1: error: planted)$" e &&
	test "$(sql kern "SELECT count(*) FROM perfbot.upload")" = 1
'

test_expect_success 'a kernel worker refuses jobs it cannot boot: no commit, a repo to check out' '
	S=$(url kern sub) &&
	perfbot queue submit --db "$S" "$TRASH/job.yaml" --attempts 1 >/dev/null &&
	perfbot worker --db "$(url kern box1)" --once --dir w --kernel-tree "$TREE" 2>err &&
	sql kern "SELECT last_error FROM perfbot.queue WHERE id = 3" | grep -q "no commit: this worker boots" &&
	perfbot queue submit --db "$S" "$TRASH/job.yaml" --repo "$TREE" --commit c2 \
		--attempts 1 >/dev/null &&
	perfbot worker --db "$(url kern box1)" --once --dir w --kernel-tree "$TREE" 2>err &&
	sql kern "SELECT last_error FROM perfbot.queue WHERE id = 4" | grep -q "names a repo to check out" &&
	test "$(sql kern "SELECT count(*) FROM perfbot.upload")" = 1
'

test_expect_success 'worker: VM options need --kernel-tree; a tree must be a repository' '
	test_must_fail 2 perfbot worker --db "$(url kern box1)" --once --numa 2 2>err &&
	grep -q "^perfbot: --numa sets the kernel a job boots: it needs --kernel-tree$" err &&
	test_must_fail 2 perfbot worker --db "$(url kern box1)" --once --config small 2>err &&
	grep -q "^perfbot: --config sets the kernel a job boots: it needs --kernel-tree$" err &&
	test_must_fail 2 perfbot worker --db "$(url kern box1)" --kernel-tree "$TREE" --numa 99 2>err &&
	grep -q "^perfbot: --numa expects a number from 1 to 16, got .99.$" err &&
	test_must_fail 1 perfbot worker --db "$(url kern box1)" --once --kernel-tree "$TRASH" 2>err &&
	test "$(sql kern "SELECT count(*) FROM perfbot.queue WHERE state = \$\$queued\$\$")" = 0
'

test_done
