#!/bin/sh
# The demo of `make demo-kernel`: a kernel regression bisected by building
# and booting each commit.  From Debian's linux-source-6.1, a history of
# 16 commits with a merge (scripts/make-demo-kernel-repo.sh) where one
# commit slows getppid() down; perfbot bisects will-it-scale's getppid1,
# run in a QEMU guest of each commit's tiny kernel, to that commit, and
# prints the report.  Builds are cached in the kernel cache (perfbot kernel
# build), runs in the result tree: a second demo reuses both.
#
# Everything goes under $DEMO_DIR (default /var/cache/perfbot/kernel-demo
# as root, else ~/.cache/perfbot/kernel-demo).  The first build of the
# tree dominates: 10-15 minutes on an idle 2-core machine.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PERFBOT=${PERFBOT:-$top/perfbot}
. "$top/scripts/demo-lib.sh"
kernel_demo_dir
repo=$DEMO_DIR/linux
state=$DEMO_DIR/bisect.state
t0=$(date +%s)
echo "perfbot kernel demo in $DEMO_DIR"
sh "$top/scripts/make-demo-kernel-repo.sh" "$repo"
# a fresh bisect each time; the runs in $DEMO_DIR/result are reused
rm -rf "$state" "$state.d"
echo "bisecting will-it-scale.per_process_ops (getppid1 in a QEMU guest) between" \
	"v6.1-debian and demo-head; each commit is built (tiny config) and booted..."
rc=0
"$PERFBOT" bisect -v --kernel-tree "$repo" --config tiny --good v6.1-debian --bad demo-head \
	--job "$top/jobs/kernel-getppid.yaml" --metric will-it-scale.per_process_ops \
	--state "$state" --result-root "$DEMO_DIR/result" || rc=$?
t1=$(date +%s)
if [ $rc -eq 0 ]; then
	planted=$(git -C "$repo" rev-parse demo-planted)
	if grep -q "^result $planted$" "$state"; then
		echo "the bisect found the planted commit ($(git -C "$repo" log -1 --format=%s "$planted"))"
	else
		echo "the bisect did NOT find the planted commit $planted" >&2
		rc=1
	fi
	"$PERFBOT" report --bisect "$state" --format html -o "$DEMO_DIR/report.html" &&
		echo "HTML report: $DEMO_DIR/report.html"
fi
echo "demo-kernel took $((t1 - t0)) s"
exit $rc
