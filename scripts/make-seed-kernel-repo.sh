#!/bin/sh
# make-seed-kernel-repo.sh DIR: the history of `make demo-seed`, seed
# 001's story on Debian's linux-source-6.1: a branch "seed" from
# v6.1-debian (the kernel demo's base commit: scripts/make-demo-kernel-
# repo.sh makes DIR when it lacks it) with three release tags and, between
# the first two, a commit that slows page reclaim down:
#
#   seed-v1   the last good release
#   refs/seed/planted "mm/vmscan: make inode and dentry shrinking follow each
#             node's LRU batches": the batch of folios shrink_lruvec()
#             takes off an LRU list at a time shrinks with the number of
#             online NUMA nodes, 32 >> 2N (2 with 2 nodes), and every
#             batch also runs the node's slab shrinkers (super_cache_count
#             and the others) -- lru-file-readtwice, reclaim-bound once the
#             page cache is full, slows down, and perf-profile shows
#             shrink_slab, the shrinkers' count functions and the LRU lock
#             grow, as in seed 001
#   seed-v2   a release with it and unrelated commits around it
#             (the planted commit is marked refs/seed/planted, not a tag:
#             watch --tags would test it because it is tagged)
#   seed-v3   a later release: still slow
#
# Other commits change comments in files the small config builds (a
# real recompile for each bisect step) or documentation.  Dates and
# authors are fixed, so shas are the same on every machine with the same
# tarball, and kernel builds are reused by sha.  An existing branch of
# this history's version is kept as it is.
set -e
dir=$1
[ -n "$dir" ] || { echo "usage: $0 DIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
version=seed-history-3
if git -C "$dir" rev-parse -q --verify "refs/seed/$version" >/dev/null 2>&1; then
	echo "$dir: kept (seed-v3 is $(git -C "$dir" rev-parse --short seed-v3))"
	exit 0
fi
git -C "$dir" rev-parse -q --verify refs/tags/v6.1-debian >/dev/null 2>&1 ||
	sh "$top/scripts/make-demo-kernel-repo.sh" "$dir"
cd "$dir"
export GIT_AUTHOR_NAME="Seed Developer" GIT_AUTHOR_EMAIL="seed@example.org"
export GIT_COMMITTER_NAME="Seed Developer" GIT_COMMITTER_EMAIL="seed@example.org"
n=200
# Commits are made on a private index, never in a checkout: the tree is
# 75,000 files, and the user's (or the kernel demo's) checkout is left
# alone.  `git apply --cached` applies a patch to the index alone.
export GIT_INDEX_FILE="$(git rev-parse --absolute-git-dir)/perfbot-seed-index"
tmp=$(mktemp "${TMPDIR:-/tmp}/perfbot-seed-blob.XXXXXX")
trap 'rm -f "$tmp" "$GIT_INDEX_FILE"' EXIT
git read-tree v6.1-debian
head=$(git rev-parse v6.1-debian)
commit() { # commit MESSAGE (dates fixed: the shas are reproducible)
	n=$((n + 1))
	head=$(GIT_AUTHOR_DATE="@$((1767225600 + n * 3600)) +0000" \
		GIT_COMMITTER_DATE="@$((1767225600 + n * 3600)) +0000" \
		git commit-tree "$(git write-tree)" -p "$head" -m "$1")
}
cnote() { # cnote FILE TEXT: a comment line at the end of a C file
	git cat-file blob ":$1" >"$tmp"
	printf '\n/* %s */\n' "$2" >>"$tmp"
	git update-index --cacheinfo "100644,$(git hash-object -w "$tmp"),$1"
}
dnote() { # dnote FILE TEXT: a line at the end of a text file
	git cat-file blob ":$1" >"$tmp"
	printf '\n%s\n' "$2" >>"$tmp"
	git update-index --cacheinfo "100644,$(git hash-object -w "$tmp"),$1"
}
tag() { git tag -f "$1" "$head" >/dev/null; }
# refs the demo checks its answer with, out of refs/tags: watch --tags
# tests every tag, and must not be handed the answer
mark() { git update-ref "refs/seed/$1" "$head"; }

for t in $(git tag -l 'seed-*'); do git tag -d "$t" >/dev/null; done
git for-each-ref --format='%(refname)' refs/seed/ | while read -r r; do git update-ref -d "$r"; done

cnote mm/vmscan.c "kswapd sleeps once every zone of its node is balanced."
commit "mm/vmscan: note when kswapd sleeps"
dnote Documentation/admin-guide/mm/concepts.rst "Reclaim is per node: kswapd runs on each."
commit "Documentation/mm: say that reclaim runs per node"
cnote mm/page-writeback.c "Dirty pages are throttled per backing device, not per node."
commit "mm/page-writeback: note where dirty pages are throttled"
tag seed-v1

cnote fs/dcache.c "The dentry LRU is shrunk by the superblock's shrinker."
commit "fs/dcache: note who shrinks the dentry LRU"
cnote mm/filemap.c "filemap_read() copies from the page cache, reading ahead."
commit "mm/filemap: note what filemap_read does"
git apply --cached <<'EOP'
--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -5908,6 +5908,18 @@ static void lru_gen_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc
 
 #endif /* CONFIG_LRU_GEN */
 
+/*
+ * Take folios off an LRU list in batches that shrink as nodes are added,
+ * so that the reclaim of one node holds its LRU lock for less time and
+ * the reclaimers of the other nodes are not held up behind it.
+ */
+static unsigned long node_scan_batch(void)
+{
+	unsigned long batch = SWAP_CLUSTER_MAX >> (2 * num_online_nodes());
+
+	return batch ? batch : 1;
+}
+
 static void shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
 {
 	unsigned long nr[NR_LRU_LISTS];
@@ -5951,11 +5963,18 @@ static void shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
 
 		for_each_evictable_lru(lru) {
 			if (nr[lru]) {
-				nr_to_scan = min(nr[lru], SWAP_CLUSTER_MAX);
+				nr_to_scan = min(nr[lru], node_scan_batch());
 				nr[lru] -= nr_to_scan;
 
 				nr_reclaimed += shrink_list(lru, nr_to_scan,
 							    lruvec, sc);
+				/*
+				 * The node's dentries and inodes pin its page
+				 * cache: shrink them with each batch.
+				 */
+				shrink_slab(sc->gfp_mask,
+					    lruvec_pgdat(lruvec)->node_id,
+					    lruvec_memcg(lruvec), sc->priority);
 			}
 		}
 
EOP
commit "mm/vmscan: make inode and dentry shrinking follow each node's LRU batches

With more NUMA nodes, more kswapd threads and direct reclaimers contend
for the LRU locks.  Take folios off a list in smaller batches as nodes
are added, so that one node's reclaim holds its lock for less time, and
shrink the node's dentry and inode caches, which pin its page cache,
with each batch rather than once per pass."
mark planted
cnote fs/super.c "super_cache_count() is called per node when the shrinker is node aware."
commit "fs/super: note how the superblock shrinker counts"
dnote Documentation/admin-guide/sysctl/vm.rst "vfs_cache_pressure scales what the superblock shrinker counts."
commit "Documentation/sysctl: relate vfs_cache_pressure to the shrinker"
tag seed-v2

cnote mm/page_alloc.c "The per-cpu lists are drained when a zone runs low."
commit "mm/page_alloc: note when per-cpu lists are drained"
cnote kernel/fork.c "Each new task inherits its parent's mempolicy."
commit "fork: note the inherited mempolicy"
tag seed-v3
git update-ref refs/heads/seed "$head"
mark "$version"
echo "$dir: branch seed, $(git rev-list --count seed-v1..seed-v3) commits from seed-v1 to seed-v3;" \
	"planted: $(git rev-parse --short refs/seed/planted)"
