#!/bin/sh
# perfbot kernel build: worktrees, out-of-tree dirs per config, the image
# cache, failed builds, kill -9.  The "kernel" is a stand-in tree whose
# Makefile answers Kbuild's targets in a blink: no compiler runs here.
. ./lib.sh

# make_tree DIR: a git history of a fake kernel; tags c1 c2 (good) and
# broken (fails like a compile error), slow (its bzImage takes 30 s).
make_tree() {
	mkdir -p "$1/scripts/kconfig" && (
	cd "$1" &&
	cat >Makefile <<'EOF' &&
# stands in for Kbuild: the config targets and bzImage, out of tree (O=)
O ?= .
tinyconfig defconfig:
	@mkdir -p $(O)
	@echo "CONFIG_64BIT=y" >$(O)/.config
	@echo "$@ $(CC)" >>$(O)/calls
olddefconfig:
	@echo "$@" >>$(O)/calls
bzImage:
	@echo "$@" >>$(O)/calls
	@if [ -f $(CURDIR)/broken ]; then echo "  CC init/main.o"; echo "init/main.c:1:1: error: planted"; exit 2; fi
	@if [ -f $(CURDIR)/slow ]; then echo "$$$$" >$(O)/slow.pid; sleep 30; fi
	@mkdir -p $(O)/arch/x86/boot $(O)/include/config
	@python3 $(CURDIR)/mkbz.py "$$(cat $(CURDIR)/VERSION)" >$(O)/arch/x86/boot/bzImage
	@echo map >$(O)/System.map
	@cat $(CURDIR)/VERSION >$(O)/include/config/kernel.release
EOF
	cat >mkbz.py <<'EOF' &&
import sys
b = bytearray(2048)
b[0x202:0x206] = b"HdrS"
b[0x20e:0x210] = (0x200).to_bytes(2, "little")
v = (sys.argv[1] + " (perfbot@perfbot) #1 SMP").encode()
b[0x400:0x400 + len(v)] = v
sys.stdout.buffer.write(bytes(b))
EOF
	cat >scripts/kconfig/merge_config.sh <<'EOF' &&
# merge_config.sh -m -O DIR BASE FRAGMENT: the fragment wins
while [ $# -gt 2 ]; do shift; done
cat "$2" >>"$1"
EOF
	echo 6.1.0-c1 >VERSION &&
	git init -q -b master . && git add . &&
	git -c user.name=t -c user.email=t@t commit -q -m c1 && git tag c1 &&
	echo 6.1.0-c2 >VERSION && git -c user.name=t -c user.email=t@t commit -q -am c2 && git tag c2 &&
	touch broken && git add broken && git -c user.name=t -c user.email=t@t commit -q -m broken &&
	git tag broken && git rm -q broken && touch slow && git add slow &&
	git -c user.name=t -c user.email=t@t commit -q -m slow && git tag slow )
}

make_tree "$TRASH/tree"
TREE=$TRASH/tree

test_expect_success 'a build: the bzImage in the cache, named by commit and config' '
	perfbot kernel build --tree "$TREE" --commit c1 --out cache >out 2>err &&
	sha=$(git -C "$TREE" rev-parse c1) &&
	img=$(cat out) &&
	case "$img" in "$(pwd)"/cache/images/$sha-x86_64-tiny-????????/bzImage) ;; *) echo "path: $img"; false;; esac &&
	test -f "$img" &&
	dir=${img%/bzImage} &&
	grep -q "^commit: $sha$" "$dir/info" &&
	grep -q "^kconfig: x86_64-tiny$" "$dir/info" &&
	grep -q "^release: 6.1.0-c1$" "$dir/info" &&
	grep -q "^CONFIG_64BIT=y$" "$dir/config" &&
	grep -q "^CONFIG_KERNEL_LZ4=y$" "$dir/config" &&
	test -f "$dir/build.log" && test -f "$dir/System.map" &&
	grep -q "building ${sha%????????????????????????????} (x86_64-tiny-" err &&
	obj=$(ls -d cache/trees/tree-*/obj-x86_64-tiny-*) &&
	printf "tinyconfig %s\nolddefconfig\nbzImage\n" "$(command -v ccache >/dev/null && echo "ccache gcc" || echo cc)" >want &&
	test_cmp want "$obj/calls"
'

test_expect_success 'the checkout is untouched: builds happen in a worktree' '
	test -z "$(git -C "$TREE" status --porcelain)" &&
	test "$(git -C "$TREE" rev-parse HEAD)" = "$(git -C "$TREE" rev-parse slow)" &&
	git -C "$TREE" worktree list | grep -q "cache/trees/tree-.*/src"
'

test_expect_success 'built before: found in the cache, nothing runs' '
	perfbot kernel build --tree "$TREE" --commit c1 --out ../1/cache >out 2>err &&
	grep -q "is built already" err &&
	test "$(cat out)" = "$(cat ../1/out)" &&
	test $(wc -l <$(ls -d ../1/cache/trees/tree-*/obj-x86_64-tiny-*)/calls) -eq 3
'

test_expect_success 'the next commit reuses the build dir: no new config' '
	perfbot kernel build --tree "$TREE" --commit c2 --out ../1/cache >out 2>err &&
	grep -q "^release: 6.1.0-c2$" "$(dirname "$(cat out)")/info" &&
	obj=$(ls -d ../1/cache/trees/tree-*/obj-x86_64-tiny-*) &&
	test "$(tail -n 2 "$obj/calls")" = "$(printf "olddefconfig\nbzImage")" &&
	test $(grep -c tinyconfig "$obj/calls") -eq 1
'

test_expect_success 'another config: its own build dir and key' '
	perfbot kernel build --tree "$TREE" --commit c2 --config defconfig --out ../1/cache >out 2>err &&
	case "$(cat out)" in */images/*-x86_64-defconfig-????????/bzImage) ;; *) cat out; false;; esac &&
	head -n 1 $(ls -d ../1/cache/trees/tree-*/obj-x86_64-defconfig-*)/calls | grep -q "^defconfig" &&
	printf "CONFIG_64BIT=y\n" >my.config &&
	perfbot kernel build --tree "$TREE" --commit c2 --config my.config --out ../1/cache >out2 2>err &&
	grep -q "^kconfig: x86_64-my$" "$(dirname "$(cat out2)")/info"
'

test_expect_success 'small: tinyconfig and its own fragment, its own build dir' '
	perfbot kernel build --tree "$TREE" --commit c2 --config small --out ../1/cache >out 2>err &&
	case "$(cat out)" in */images/*-x86_64-small-????????/bzImage) ;; *) cat out; false;; esac &&
	dir=$(dirname "$(cat out)") &&
	grep -q "^kconfig: x86_64-small$" "$dir/info" &&
	grep -q "^CONFIG_NUMA=y$" "$dir/config" &&
	grep -q "^CONFIG_BTRFS_FS=y$" "$dir/config" &&
	obj=$(ls -d ../1/cache/trees/tree-*/obj-x86_64-small-*) &&
	head -n 1 "$obj/calls" | grep -q "^tinyconfig" &&
	grep -q "^CONFIG_KALLSYMS_ALL=y$" "$obj/perfbot-small.config" &&
	test ! -e "$obj/perfbot-tiny.config" &&
	! grep -q "fragment.s symbols" err
'

test_expect_success 'a commit that does not build: exit 7, the first error, the log tail' '
	test_must_fail 7 perfbot kernel build --tree "$TREE" --commit broken --out ../1/cache >out 2>err &&
	grep -q "^perfbot: kernel build of .broken. failed: init/main.c:1:1: error: planted$" err &&
	grep -q "^  CC init/main.o$" err &&
	test ! -s out &&
	ls ../1/cache/images/*.failed.log >/dev/null &&
	test -z "$(ls -d ../1/cache/images/$(git -C "$TREE" rev-parse broken)-* 2>/dev/null | grep -v failed.log)"
'

test_expect_success 'bad input: not a git tree, an unknown revision, no --tree' '
	mkdir plain &&
	test_must_fail 1 perfbot kernel build --tree plain --out cache 2>err &&
	grep -q "is not a git repository" err &&
	test_must_fail 1 perfbot kernel build --tree "$TREE" --commit nosuch --out cache 2>err &&
	grep -q "unknown revision .nosuch." err &&
	test_must_fail 2 perfbot kernel build --out cache 2>err &&
	grep -q "needs --tree" err &&
	test_must_fail 2 perfbot kernel frobnicate 2>err &&
	grep -q "unknown kernel subcommand" err
'

test_expect_success 'kill -9 mid-build: make and its children die, the next build cleans up' '
	tag=$(test_tag) &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" kernel build --tree "$TREE" --commit slow --out ../1/cache >out 2>err & } &&
	pid=$! &&
	obj=$(ls -d ../1/cache/trees/tree-*/obj-x86_64-tiny-*) &&
	test_wait_for test -s "$obj/slow.pid" &&
	kill -9 $pid && { wait $pid || true; } &&
	test_no_leftovers $tag &&
	test -f "$obj/.perfbot-building" &&
	c3=$(git -C "$TREE" commit-tree -p c2 -m c3 "c2^{tree}") &&
	perfbot kernel build --tree "$TREE" --commit $c3 --out ../1/cache >out 2>err &&
	grep -q "the last build in .* was killed: removed the" err &&
	test ! -f "$obj/.perfbot-building"
'

test_done
