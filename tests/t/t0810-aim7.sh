#!/bin/sh
# aim7 (workloads/aim7, src/runner/aim7.c, src/parse/aim7.c) through
# `perfbot run`: lkp's aim7-fs-1brd job splits into lkp's atoms; the short
# job's disk_rr runs in the run's directory, unprivileged; and as root,
# on a fresh ext4 over a RAM disk (brd, or loop images where the kernel
# has no brd), it gives aim7.jobs-per-min in stats.json and leaves
# nothing mounted.
. ./lib.sh

ROOT=$(cd ../.. && pwd)
JOBS=$ROOT/jobs

# run_atom ATOM: perfbot run ATOM (its own runner: no command after --);
# sets $rr, the result root.  Nothing it started may outlive it.
run_atom() {
	tag=$(test_tag)
	env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c t -M vmstat "$1" >out 2>err ||
		{ cat out err; return 1; }
	test_no_leftovers $tag || return 1
	rr=$(sed -n 's/: 1 run$//p' out)
	test -d "$rr/0" &&
	grep -q "is_incomplete_run: 0" "$rr/0/last_state" || {
		echo "run failed: $rr"; cat "$rr/0/last_state" "$rr/0/stderr"; false; }
}

# has_stat NAME: $rr/0/stats.json has a positive NAME.
has_stat() {
	python3 -c "import json, sys; sys.exit(not json.load(open(sys.argv[1])).get(sys.argv[2], 0) > 0)" \
		"$rr/0/stats.json" "$1" || {
		echo "no positive $1 in $rr/0/stats.json"; grep "\"${1%%.*}\." "$rr/0/stats.json"; false; }
}

test_expect_success 'the lkp job splits into lkp atoms, loads by fs and test' '
	perfbot split-job -o atoms "$JOBS/aim7-fs-1brd.yaml" >/dev/null &&
	test $(ls atoms | wc -l) -eq 12 &&
	for a in ext4-3000-disk_rr xfs-3000-disk_src btrfs-1500-disk_cp btrfs-500-disk_rw \
		 btrfs-500-disk_src btrfs-1500-disk_rr; do
		test -f atoms/aim7-fs-1brd-1BRD_48G-$a.yaml || { ls atoms; exit 1; }
	done &&
	perfbot install --command atoms/aim7-fs-1brd-1BRD_48G-xfs-3000-disk_rr.yaml >cmd &&
	grep -q "/aim7 --load=3000 disk_rr$" cmd
'

test_expect_success 'short job, no fs: disk_rr in the run directory' '
	perfbot split-job -o atoms "$JOBS/short/aim7-fs-1brd.yaml" fs=ext4 >/dev/null &&
	a=$(ls atoms/*ext4*disk_rr.yaml) &&
	sed -e "/^disk:/d" -e "/^fs:/d" -e "s/^  load: 100$/  load: 8/" -e "s/^  jobs: 200$/  jobs: 20/" \
		"$a" >nofs.yaml &&
	grep -q "^  load: 8$" nofs.yaml && ! grep -q "^fs:" nofs.yaml &&
	run_atom nofs.yaml &&
	has_stat aim7.jobs-per-min &&
	has_stat aim7.jobs-per-min-per-task &&
	has_stat aim7.real &&
	has_stat time.elapsed_time &&
	grep -q "^Tasks *jobs/min *jti" "$rr/0/aim7" &&
	grep -q "^    8 " "$rr/0/aim7" &&
	# its work directory is gone
	! ls -d aim7.* 2>/dev/null
'

test_expect_success 'short job on ext4 over a RAM disk: aim7.jobs-per-min' '
	if [ "$(id -u)" != 0 ]; then echo "# skipped: needs root (mkfs, mount)"; exit 0; fi
	command -v mkfs.ext4 >/dev/null && grep -qw ext4 /proc/filesystems ||
		{ echo "# skipped: no mkfs.ext4 or no ext4 in this kernel"; exit 0; }
	# the job as lkp gives it where brd loads; else the same on loop
	# images (perfbot run refuses 1BRD where the kernel has no brd)
	if modprobe -n -q brd 2>/dev/null && [ ! -e /sys/module/brd ]; then
		disk=1BRD_512M
	elif [ -e /dev/loop-control ] && command -v losetup >/dev/null; then
		disk=loop_512M
		echo "# no brd module here: the short job on disk: loop_512M instead"
	else
		echo "# skipped: neither brd nor loop devices"; exit 0
	fi
	perfbot split-job -o atoms "$JOBS/short/aim7-fs-1brd.yaml" fs=ext4 disk=$disk >/dev/null &&
	a=$(ls atoms/*ext4*.yaml) &&
	run_atom "$a" &&
	has_stat aim7.jobs-per-min &&
	grep -q "^  100 " "$rr/0/aim7" &&
	mnt=$(sed -n "s/^setup: mounted .* on \([^ ]*\) (ext4.*/\1/p" "$rr/0/perfbot.log") &&
	test -n "$mnt" &&
	! grep -q " $mnt " /proc/mounts
'

test_done
