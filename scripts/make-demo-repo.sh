#!/bin/sh
# make-demo-repo.sh DIR: the demo's git history of a small multi-threaded
# benchmark (demo/workload.c): 30 commits, a feature branch merged back
# (non-linear history), and on that branch one commit that moves the
# benchmark's accounting under a global spinlock in the hot path, as in
# seed 000's _raw_spin_lock story.  Dates and authors are fixed, so the
# shas are the same on every machine.
set -e
dir=$1
src=$(cd "$(dirname "$0")/../demo" && pwd)
[ -n "$dir" ] || { echo "usage: $0 DIR" >&2; exit 2; }
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
git init -q -b main .
git config user.name "Demo Developer"
git config user.email "demo@example.org"
n=0
commit() { # commit MESSAGE
	n=$((n + 1))
	export GIT_AUTHOR_DATE="2026-01-01T00:00:00+00:00 +$n" GIT_COMMITTER_DATE="2026-01-01T00:00:00+00:00 +$n"
	GIT_AUTHOR_DATE="@$((1767225600 + n * 3600)) +0000" GIT_COMMITTER_DATE="@$((1767225600 + n * 3600)) +0000" \
		git commit -q -a -m "$1"
}
note() { echo "$1" >>NOTES; }
fnote() { echo "$1" >>FEATURE; git add FEATURE; }

sed -e 's|/\* @@ACCOUNTING_DECL@@ \*/||' -e 's|/\* @@ACCOUNTING@@ \*/||' "$src/workload.c" >workload.c
cat >Makefile <<'EOM'
bench: workload.c
	$(CC) -O2 -g -fno-omit-frame-pointer -pthread -o bench workload.c
EOM
echo "demo workload history" >NOTES
git add workload.c Makefile NOTES
commit "workload: hash private buffers on every CPU"
for i in 1 2 3 4 5 6 7; do
	note "main change $i"
	commit "notes: describe run $i"
done
git checkout -q -b feature
fnote "shared accounting planned"; commit "notes: plan shared accounting"
fnote "counters"; commit "workload: document the counters"
# the bad commit: accounting under a global lock in the hot path
sed -e 's|/\* @@ACCOUNTING_DECL@@ \*/|static atomic_int lock_word;\nstatic uint64_t shared_total;\n\n/* a test-and-test-and-set spinlock, like the kernel'"'"'s _raw_spin_lock */\nstatic void __attribute__((noinline)) demo_spin_lock(void)\n{\n\twhile (atomic_exchange_explicit(\&lock_word, 1, memory_order_acquire))\n\t\twhile (atomic_load_explicit(\&lock_word, memory_order_relaxed))\n\t\t\t;\n}\n\nstatic void demo_spin_unlock(void)\n{\n\tatomic_store_explicit(\&lock_word, 0, memory_order_release);\n}|' \
    -e 's|/\* @@ACCOUNTING@@ \*/|demo_spin_lock();\n\tfor (int i = 0; i < 8; i++)\n\t\tshared_total = shared_total * 31 + (h >> i);\n\tdemo_spin_unlock();|' \
    "$src/workload.c" >workload.c
commit "workload: account work units in one shared total"
for i in 1 2 3; do
	fnote "follow-up $i"; commit "notes: shared total follow-up $i"
done
git checkout -q main
for i in 8 9 10; do
	note "main change $i"; commit "notes: describe run $i"
done
GIT_AUTHOR_DATE="@$((1767225600 + 100 * 3600)) +0000" GIT_COMMITTER_DATE="@$((1767225600 + 100 * 3600)) +0000" \
	git merge -q --no-ff -m "Merge branch 'feature'" feature
n=100
for i in 11 12 13 14 15 16 17 18 19 20 21 22 23; do
	note "main change $i"; commit "notes: describe run $i"
done
git tag v1.0 "$(git rev-list --max-parents=0 HEAD)"
git tag v1.1 HEAD
