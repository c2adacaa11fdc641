#!/bin/sh
# fs:, disk: and their undo (src/run/setup.c), driven through the
# test_setup binary's driver mode (tests/unit/test_setup.c) standing in
# for `perfbot run`: apply, hold until SIGTERM then undo, or die with
# kill -9 and let run_setup_cleanup_stale clean up.  The tests that make
# loop devices and mounts need root and say so when skipped.
. ./lib.sh

# The unit test binary next to the perfbot under test (build-*/tests/),
# or build/tests/ for the top-level ./perfbot; TEST_SETUP overrides.
if [ -z "${TEST_SETUP:-}" ]; then
	d=$(dirname "$PERFBOT")
	if [ -x "$d/tests/test_setup" ]; then
		TEST_SETUP=$d/tests/test_setup
	else
		TEST_SETUP=$d/build/tests/test_setup
	fi
fi
# (a function run in the background is a subshell: start the binary
# itself there, so that $! is its pid)
ts() { "$TEST_SETUP" "$@"; }

have_ts() {
	[ -x "$TEST_SETUP" ] && return 0
	echo "# skipped: $TEST_SETUP not built (make $TEST_SETUP)"
	return 1
}

have_root() {
	[ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null &&
		return 0
	echo "# skipped: needs root and loop devices"
	return 1
}

have_fs() { # have_fs FS: its mkfs and kernel support
	command -v "mkfs.$1" >/dev/null && grep -qw "$1" /proc/filesystems
}

job() { # job FILE [lines]
	f=$1; shift
	printf 'testcase: t\n' >"$f"
	for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}

# wait_ready OUT PID: until the driver printed "ready" (30 s at most)
wait_ready() {
	i=0
	while ! grep -q '^ready$' "$1"; do
		kill -0 "$2" 2>/dev/null || { cat "$1"; return 1; }
		i=$((i + 1))
		[ $i -lt 300 ] || { kill -9 "$2"; echo "timeout"; return 1; }
		sleep 0.1
	done
}

# assert_clean BASE: nothing of BASE mounted or attached, no journal left
assert_clean() {
	! grep -q "$1" /proc/mounts &&
	! losetup -a | grep -q "$1" &&
	! ls "$1" | grep -q '^setup-'
}

test_expect_success 'an unknown fs names the job file, line and column' '
	have_ts || exit 0
	job j.yaml "fs: zfs" &&
	test_must_fail 2 ts --apply j.yaml "$PWD/base" 2>err &&
	grep -q "^perfbot: j.yaml:2:5: .fs. expected one of ext2 ext3 ext4 xfs btrfs f2fs tmpfs, got .zfs.$" err &&
	test ! -e base
'

test_expect_success 'a bad disk size names the job file, line and column' '
	have_ts || exit 0
	job j.yaml "fs: ext4" "disk: loop_12Q" &&
	test_must_fail 2 ts --apply j.yaml "$PWD/base" 2>err &&
	grep -q "^perfbot: j.yaml:3:7: .disk. expected loop_<size> or <N>BRD_<size>" err
'

test_expect_success 'lkp host disks and nfs cannot work here: exit 1, said why' '
	have_ts || exit 0
	job j.yaml "disk: 1HDD" &&
	test_must_fail 1 ts --apply j.yaml "$PWD/base" >out 2>err &&
	grep -q "names the host.s own HDD disks" err &&
	grep -q "^setup: cannot work here: disk .1HDD." out &&
	job j.yaml "fs: nfsv3" &&
	test_must_fail 1 ts --apply j.yaml "$PWD/base" 2>err &&
	grep -q "fs .nfsv3. is an NFS export" err &&
	test ! -e base
'

test_expect_success 'cleanup of a missing work dir does nothing' '
	have_ts || exit 0
	ts --cleanup "$PWD/none" >out &&
	grep -q "^cleaned=0$" out
'

test_expect_success 'loop ext4: mounted, writable, env given; SIGTERM undoes' '
	have_ts && have_root || exit 0
	job j.yaml "fs: ext4" "disk: loop_256M" &&
	{ "$TEST_SETUP" --apply j.yaml "$PWD/base" --hold >out 2>err & } &&
	pid=$! && echo $pid >hold.pid &&
	wait_ready out $pid &&
	mnt=$(sed -n "s/^mnt=//p" out) &&
	echo hello >"$mnt/file" && sync &&
	grep -q " $mnt ext4 " /proc/mounts &&
	grep -q "^env PERFBOT_FS_DIR=$mnt$" out &&
	grep -q "^env mount_points=$mnt$" out &&
	grep -q "^env partitions=/dev/loop[0-9]*$" out &&
	grep -q "^env nr_partitions=1$" out &&
	grep -q "^setup: mkfs.ext4 -q -F /dev/loop" out &&
	losetup -a | grep -q "$PWD/base/setup-" &&
	kill -TERM $pid && wait $pid && rm hold.pid &&
	grep -q "^undo=0$" out &&
	grep -q "^undo: unmounted $mnt$" out &&
	assert_clean "$PWD/base"
'

test_expect_success 'xfs and btrfs, where their tools are installed' '
	have_ts && have_root || exit 0
	for fs in xfs btrfs; do
		have_fs $fs || { echo "# skipped $fs"; continue; }
		job j.yaml "fs: $fs" "disk: loop_512M" &&
		ts --apply j.yaml "$PWD/base" >out 2>err &&
		mnt=$(sed -n "s/^mnt=//p" out) &&
		grep -q " $mnt $fs " /proc/mounts &&
		echo hello >"$mnt/file" &&
		ts --cleanup "$PWD/base" >cl &&
		grep -q "^cleaned=1$" cl &&
		assert_clean "$PWD/base" || exit 1
	done
'

test_expect_success 'kill -9 mid-run leaves a journal; cleanup_stale undoes it' '
	have_ts && have_root || exit 0
	job j.yaml "fs: ext4" "disk: loop_128M" &&
	{ "$TEST_SETUP" --apply j.yaml "$PWD/base" --hold >out 2>err & } &&
	pid=$! && echo $pid >hold.pid &&
	wait_ready out $pid &&
	mnt=$(sed -n "s/^mnt=//p" out) &&
	ts --cleanup "$PWD/base" >live &&
	grep -q "^cleaned=0$" live &&
	grep -q "still runs, left alone" live &&
	kill -9 $pid && { wait $pid || true; } && rm hold.pid &&
	grep -q " $mnt ext4 " /proc/mounts &&
	ls base/setup-*.state &&
	ts --cleanup "$PWD/base" >cl &&
	grep -q "^cleaned=1$" cl &&
	grep -q "^setup: cleaning up after pid $pid " cl &&
	grep -q "^undo: unmounted $mnt$" cl &&
	grep -q "^undo: detached /dev/loop" cl &&
	assert_clean "$PWD/base" &&
	test -z "$(ls base)"
'

test_expect_success 'tmpfs needs no disk' '
	have_ts && have_root || exit 0
	job j.yaml "fs: tmpfs" &&
	ts --apply j.yaml "$PWD/base" >out 2>err &&
	mnt=$(sed -n "s/^mnt=//p" out) &&
	grep -q "^tmpfs $mnt tmpfs " /proc/mounts &&
	! grep -q "^env partitions=" out &&
	ts --cleanup "$PWD/base" >cl &&
	assert_clean "$PWD/base"
'

test_expect_success 'brd: works, or exit 1 naming brd; the fallback uses /dev/shm' '
	have_ts && have_root || exit 0
	test ! -e /sys/module/brd || { echo "# skipped: brd loaded"; exit 0; }
	job j.yaml "fs: ext4" "disk: 1BRD_64M" &&
	if ts --apply j.yaml "$PWD/base" >out 2>err; then
		grep -q "^env partitions=/dev/ram0$" out &&
		ts --cleanup "$PWD/base" >cl && test ! -e /sys/module/brd
	else
		test $? = 1 && grep -q "brd" err
	fi &&
	assert_clean "$PWD/base" &&
	ts --apply j.yaml "$PWD/base" --brd-fallback >out 2>err &&
	ts --cleanup "$PWD/base" >cl &&
	grep -q "^cleaned=1$" cl &&
	assert_clean "$PWD/base" &&
	! ls /dev/shm | grep -q "^perfbot-setup-"
'

# a failed test may have left a holding driver or a crashed setup behind:
# stop the one (it undoes on SIGTERM), clean up the other
driver_gone() { ! kill -0 "$1" 2>/dev/null; }
for f in "$TRASH"/*/hold.pid; do
	[ -f "$f" ] || continue
	p=$(cat "$f")
	# only if that pid is still our driver (a pid can be reused)
	grep -q test_setup "/proc/$p/cmdline" 2>/dev/null || continue
	kill -TERM "$p" 2>/dev/null || continue
	# its undo may take long on a loaded machine: wait for it, not 5 s
	test_wait_for driver_gone "$p" || true
done
if [ -x "$TEST_SETUP" ] && [ "$(id -u)" = 0 ]; then
	for b in "$TRASH"/*/base; do
		[ -d "$b" ] && ts --cleanup "$b" >/dev/null 2>&1
	done
fi
test_done
