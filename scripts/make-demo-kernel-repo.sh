#!/bin/sh
# make-demo-kernel-repo.sh DIR: the kernel demo's git history, on top of
# Debian's linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz).
#
# 16 commits: the Debian tree as the first (tag v6.1-debian), small
# changes to files the tiny kernel builds (so that each bisect step
# really recompiles something) or to documentation (nothing to rebuild),
# and a branch "getppid-checks" merged back (non-linear history) whose
# second commit makes getppid() re-read the parent's tgid in a loop: a
# slowdown in the cheapest system call, which will-it-scale's getppid1
# measures.  Tags: v6.1-debian (good), demo-head (bad), demo-planted (the
# first bad commit, for checking the bisect's answer).
#
# Dates and authors are fixed, so the shas are the same on every machine
# with the same tarball: a second run (or the demo on a machine that
# already built these commits) reuses kernel builds by sha.  An existing
# DIR whose demo-head tag is there is kept as it is.
#
# Two quirks of the tarball: its tree is 75,000 files (`git add` takes
# about a minute), and its top-level .gitignore ignores generated-file
# patterns that some source files match, hence `git add -f`.
set -e
dir=$1
tarball=${KERNEL_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -n "$dir" ] || { echo "usage: $0 DIR" >&2; exit 2; }
# the history's version: a change below bumps it, and an older history
# is replayed on the same base commit (whose checkout and kernel builds
# stay valid: only the files the new commits change get new times)
version=demo-history-2
if git -C "$dir" rev-parse -q --verify "refs/tags/$version" >/dev/null 2>&1; then
	echo "$dir: kept (demo-head is $(git -C "$dir" rev-parse --short demo-head))"
	exit 0
fi
export GIT_AUTHOR_NAME="Demo Developer" GIT_AUTHOR_EMAIL="demo@example.org"
export GIT_COMMITTER_NAME="Demo Developer" GIT_COMMITTER_EMAIL="demo@example.org"
n=1
commit() { # commit MESSAGE (dates fixed: the shas are reproducible)
	n=$((n + 1))
	GIT_AUTHOR_DATE="@$((1767225600 + n * 3600)) +0000" GIT_COMMITTER_DATE="@$((1767225600 + n * 3600)) +0000" \
		git commit -q -a -m "$1"
}
# a comment line at the end of a C file: a real recompile, no change in code
cnote() { # cnote FILE TEXT
	printf '\n/* %s */\n' "$2" >>"$1"
}
dnote() { # dnote FILE TEXT
	printf '\n%s\n' "$2" >>"$1"
}

if git -C "$dir" rev-parse -q --verify refs/tags/v6.1-debian >/dev/null 2>&1; then
	cd "$dir"
	echo "$dir: replaying the demo history on v6.1-debian"
	git checkout -q -f -B master v6.1-debian
	git branch -q -D getppid-checks 2>/dev/null || true
	for t in $(git tag -l 'demo-*'); do git tag -d "$t" >/dev/null; done
else
	[ -f "$tarball" ] || {
		echo "make-demo-kernel-repo: '$tarball' not found (package linux-source-6.1: scripts/deps.sh kernel)" >&2
		exit 1
	}
	rm -rf "$dir"
	mkdir -p "$dir"
	cd "$dir"
	echo "unpacking $tarball into $dir ..."
	tar -xJf "$tarball" --strip-components=1
	git init -q -b master .
	git config user.name "Demo Developer"
	git config user.email "demo@example.org"
	git config gc.auto 0
	git config core.untrackedCache true
	echo "committing the tree (about a minute) ..."
	git add -f .
	GIT_AUTHOR_DATE="@$((1767225600 + 3600)) +0000" GIT_COMMITTER_DATE="@$((1767225600 + 3600)) +0000" \
		git commit -q -m "Linux 6.1 (Debian linux-source-6.1 $(sed -n 's/^SUBLEVEL = //p' Makefile))"
	git tag v6.1-debian
fi

dnote Documentation/admin-guide/README.rst "This tree is the history of perfbot's kernel demo."
commit "Documentation: say what this demo tree is"
cnote kernel/sys.c "getuid() and friends map ids through the caller's user namespace."
commit "kernel/sys: note how the id system calls map through namespaces"
cnote mm/page_alloc.c "Watermark boosting is undone by kswapd once the zone is balanced."
commit "mm/page_alloc: note who undoes watermark boosting"
fork=$(git rev-parse HEAD)
cnote fs/proc/array.c "The status file is read by ps(1) and top(1) on every refresh."
commit "proc: note who reads /proc/PID/status"

git checkout -q -b getppid-checks "$fork"
git apply <<'EOP'
--- a/kernel/sys.c
+++ b/kernel/sys.c
@@ -965,12 +965,17 @@ SYSCALL_DEFINE0(gettid)
  * value of ->real_parent under rcu_read_lock(), see
  * release_task()->call_rcu(delayed_put_task_struct).
  */
+static inline int parent_tgid(void)
+{
+	return task_tgid_vnr(rcu_dereference(current->real_parent));
+}
+
 SYSCALL_DEFINE0(getppid)
 {
 	int pid;
 
 	rcu_read_lock();
-	pid = task_tgid_vnr(rcu_dereference(current->real_parent));
+	pid = parent_tgid();
 	rcu_read_unlock();
 
 	return pid;
EOP
commit "kernel/sys: look up getppid's parent in a helper"
git apply <<'EOP'
--- a/kernel/sys.c
+++ b/kernel/sys.c
@@ -970,12 +970,29 @@ static inline int parent_tgid(void)
 	return task_tgid_vnr(rcu_dereference(current->real_parent));
 }
 
+/*
+ * Re-read the parent until two reads agree a number of times over, in
+ * case the caller is being reparented while we look.
+ */
+static noinline int parent_tgid_stable(void)
+{
+	int i, pid = parent_tgid();
+
+	for (i = 0; i < 4; i++) {
+		int again = parent_tgid();
+
+		if (again != pid)
+			pid = again;
+	}
+	return pid;
+}
+
 SYSCALL_DEFINE0(getppid)
 {
 	int pid;
 
 	rcu_read_lock();
-	pid = parent_tgid();
+	pid = parent_tgid_stable();
 	rcu_read_unlock();
 
 	return pid;
EOP
commit "kernel/sys: make getppid robust against concurrent reparenting"
git tag demo-planted
cnote kernel/sys.c "getppid() re-reads the parent: see parent_tgid_stable()."
commit "kernel/sys: point to the reparenting check"
dnote Documentation/admin-guide/README.rst "getppid() now double-checks the parent it returns."
commit "Documentation: mention getppid's parent check"

git checkout -q master
cnote lib/string.c "The generic string functions are overridden by arch/ versions where faster."
commit "lib/string: note the arch overrides"
cnote init/main.c "rdinit= names the initramfs program to run instead of /init."
commit "init: note rdinit="
GIT_AUTHOR_DATE="@$((1767225600 + 100 * 3600)) +0000" GIT_COMMITTER_DATE="@$((1767225600 + 100 * 3600)) +0000" \
	git merge -q --no-ff -m "Merge branch 'getppid-checks'" getppid-checks
n=100
dnote MAINTAINERS "# perfbot demo: no maintainer entries changed."
commit "MAINTAINERS: a note for the demo"
cnote mm/mmap.c "mmap_region() is where a new mapping is merged with its neighbours."
commit "mm/mmap: note where mappings merge"
cnote kernel/fork.c "copy_process() is the heart of fork(), clone() and kernel threads."
commit "fork: note copy_process's callers"
dnote Documentation/process/howto.rst "This tree is a demo history."
commit "Documentation: note the demo history in the howto"
git tag demo-head
git tag "$version"
echo "$dir: $(git rev-list --count v6.1-debian..demo-head) commits after v6.1-debian; first bad: $(git rev-parse --short demo-planted)"
