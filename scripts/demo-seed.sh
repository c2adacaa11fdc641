#!/bin/sh
# The demo of `make demo-seed`: seed 001's story, unattended.  On Debian's
# linux-source-6.1, a branch with three releases (seed-v1, seed-v2,
# seed-v3) and, between the first two, a commit that makes page reclaim
# take folios off the LRU lists in tiny batches
# (scripts/make-seed-kernel-repo.sh).  perfbot watch, as Intel's robot
# watches a kernel branch, tests each release (the small config, built
# and booted in QEMU with 2 NUMA nodes), runs lkp's lru-file-readtwice in
# the guest with lkp's monitors, notices the drop of
# vm-scalability.throughput by itself, bisects it to the planted commit,
# and writes the mail: the table against the parent with the reclaim
# signature (proc-vmstat, numa-vmstat.nodeN, perf-profile) and the
# per-sample plot.
#
# Everything goes under $DEMO_DIR (default /var/cache/perfbot/kernel-demo
# as root, else ~/.cache/perfbot/kernel-demo), with the kernel demo's
# tree: the first build of the tree dominates (minutes), later ones are
# incremental, and a second demo reuses builds and runs.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PERFBOT=${PERFBOT:-$top/perfbot}
. "$top/scripts/demo-lib.sh"
kernel_demo_dir
repo=$DEMO_DIR/linux
out=$DEMO_DIR/seed
t0=$(date +%s)
echo "perfbot seed demo in $out"
sh "$top/scripts/make-seed-kernel-repo.sh" "$repo"
# a fresh watch each time (its state and reports); runs and builds are kept
rm -rf "$out/state" "$out/mail.txt" "$out/perfbot.db"
mkdir -p "$out"
echo "watching branch seed of $repo: each release built (small config)," \
	"booted with 2 NUMA nodes, lru-file-readtwice run inside..."
rc=0
"$PERFBOT" watch --once --kernel-tree "$repo" --repo "$repo" --branch seed --tags \
	--stride 2 --depth 10 --no-fetch --config small --accel icount --numa 2 --mem 320M \
	--job "$top/jobs/kernel-lru-file-readtwice.yaml" --metric vm-scalability.throughput \
	--runs 2 --state-dir "$out/state" --result-root "$out/result" --db "$out/perfbot.db" \
	--mail-cmd "cat >'$out/mail.txt'" || rc=$?
t1=$(date +%s)
if [ $rc -eq 0 ] && [ -f "$out/mail.txt" ]; then
	planted=$(git -C "$repo" rev-parse --short=10 refs/seed/planted)
	echo
	cat "$out/mail.txt"
	echo
	if grep -q "$planted" "$out/mail.txt"; then
		echo "the robot found the planted commit ($(git -C "$repo" log -1 --format=%s refs/seed/planted))"
	else
		echo "the mail does NOT name the planted commit $planted" >&2
		rc=1
	fi
	ls "$out"/state/reports/*.html 2>/dev/null | sed 's/^/HTML report: /'
elif [ $rc -eq 0 ]; then
	echo "no regression reported: no mail written" >&2
	rc=1
fi
echo "demo-seed took $((t1 - t0)) s"
exit $rc
