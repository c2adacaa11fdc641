#!/bin/sh
# make-demo-watch-repo.sh DIR: the history `make demo-watch` watches: 26
# commits on main of the demo's benchmark (demo/workload.c, both versions
# taken from make-demo-repo.sh's history, so that the workload and its
# regression are the same as the bisect demo's), tagged v1.0 (commit 0),
# v1.1 (8), v1.2 (17) and v1.3 (25); commit 13 moves the accounting under
# a global spinlock, and the throughput stays low after it.  Dates and
# authors are fixed: the shas are the same on every machine.
#
# Why 26: watch --stride 3 --tags then tests 6 commits on each side of the
# change, enough for detect's permutation test to see a -10% step through
# a loaded 2-core machine's noise (with 14 commits, 4 against 3 were not),
# and leaves 2 untested commits in the range for the bisect.
set -e
dir=$1
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$dir" ] || { echo "usage: $0 DIR" >&2; exit 2; }
rm -rf "$dir" "$dir.src"
sh "$top/scripts/make-demo-repo.sh" "$dir.src" >/dev/null
mkdir -p "$dir"
git -C "$dir.src" show v1.0:workload.c >"$dir/.good.c"
git -C "$dir.src" show v1.1:workload.c >"$dir/.bad.c"
git -C "$dir.src" show v1.0:Makefile >"$dir/Makefile"
rm -rf "$dir.src"
cd "$dir"
git init -q -b main .
git config user.name "Demo Developer"
git config user.email "demo@example.org"
n=0
commit() { # commit MESSAGE
	n=$((n + 1))
	GIT_AUTHOR_DATE="@$((1767225600 + n * 3600)) +0000" GIT_COMMITTER_DATE="@$((1767225600 + n * 3600)) +0000" \
		git commit -q -m "$1"
}
mv .good.c workload.c
echo "demo workload history" >NOTES
git add workload.c Makefile NOTES
commit "workload: hash private buffers on every CPU"
git tag v1.0
for i in $(seq 1 25); do
	if [ $i -eq 13 ]; then
		mv .bad.c workload.c
		git add workload.c
		commit "workload: account work units in one shared total

Keep one total of all the work done instead of a sum per thread.

Signed-off-by: Demo Developer <demo@example.org>
Link: https://lore.kernel.org/r/20260101130000.13-1-demo@example.org"
	else
		echo "main change $i" >>NOTES
		git add NOTES
		commit "notes: describe run $i"
	fi
	case $i in 8) git tag v1.1 ;; 17) git tag v1.2 ;; 25) git tag v1.3 ;; esac
done
