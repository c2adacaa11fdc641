#!/bin/sh
# tests/conformance-split.sh: split every job of an lkp-tests catalog the
# way lkp's split-job does and compare with lkp's own output.
#
#   [LKP_FULL_SRC=LKP_TREE] tests/conformance-split.sh [-v] [CONFORMANCE_DIR]
#
# CONFORMANCE_DIR (default ../shared/conformance/lkp beside the repo) holds
# tree/ (a snapshot of lkp-tests: jobs, include, params, hosts, programs)
# and split-jobs/<job>/ (lkp's `split-job -t vm-snb` of tree/jobs/<job>.yaml).
# Comment lines, blank lines and job_origin do not count.
#
# Each job splits with the snapshot as LKP_SRC and, when LKP_FULL_SRC names
# an lkp-tests tree (at the commit tree/ORIGIN names), with that too: the
# snapshot lacks most programs/*/include files, and lkp's own split-job given
# the snapshot does not produce split-jobs/ for the jobs that read one
# either, so those jobs can only be matched against the full catalog.
# One line per job:
#   ok JOB                   identical with the snapshot
#   ok-full JOB: needs F...  identical with the full tree only; F are the
#                            catalog files lkp read (its `#!` lines) that
#                            the snapshot lacks
#   DIFF|NAMES|FAIL JOB: ... (snapshot) or (full tree)
# and the two counts last:
#   identical with the snapshot: N/TOTAL
#   identical with the full tree: M/TOTAL   (or why it was skipped)
# -v shows the first lines of each difference.
set -u
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
root=$(cd "$(dirname "$0")/.." && pwd)
C=${1:-$root/../shared/conformance/lkp}
: "${PERFBOT:=$root/perfbot}"
FULL=${LKP_FULL_SRC:-}
[ -d "$C/tree/jobs" ] || { echo "conformance-split: $C/tree/jobs not found" >&2; exit 2; }
if [ -n "$FULL" ] && [ ! -d "$FULL/programs" ]; then
	echo "conformance-split: LKP_FULL_SRC=$FULL: no programs/ there, not an lkp-tests tree" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/conf-split.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the snapshot lost lkp's symlinks: split a copy that has them back
cp -R "$C/tree" "$tmp/tree" && chmod -R u+w "$tmp/tree" || exit 2
grep -v '^#' "$root/tests/data/lkp-tree-symlinks.txt" | while read -r path target; do
	[ -e "$tmp/tree/$path" ] && continue
	mkdir -p "$(dirname "$tmp/tree/$path")" &&
	ln -s "$target" "$tmp/tree/$path" || exit 2
done || exit 2
T=$tmp/tree

# norm_dir FROM TO: FROM/*.yaml without comment lines, blank lines and
# job_origin, as TO/<same name>
norm_dir() {
	(cd "$1" && awk -v to="$2" '
		FNR == 1 { if (out) close(out); out = to "/" FILENAME; printf "" >out }
		/^[[:space:]]*#/ || /^[[:space:]]*$/ || /^job_origin:/ { next }
		{ print >>out }' *.yaml)
}

# split_cmp SRC JOB EXP: split SRC/jobs/JOB.yaml with SRC as LKP_SRC and
# compare with EXP; sets $why to "" when identical, else to the reason
split_cmp() {
	out=$tmp/out/$2
	rm -rf "$out" "$tmp/detail" && mkdir -p "$out"
	why=
	if ! LKP_SRC=$1 "$PERFBOT" split-job -t vm-snb -o "$out" \
		"$1/jobs/$2.yaml" >"$tmp/stdout" 2>"$tmp/stderr"; then
		why="FAIL $2: $(head -n 1 "$tmp/stderr")"
		return
	fi
	(cd "$3" && ls *.yaml) >"$tmp/want"
	(cd "$out" && ls *.yaml 2>/dev/null) >"$tmp/got"
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		why="NAMES $2: want $(wc -l <"$tmp/want"), got $(wc -l <"$tmp/got")"
		[ $verbose = 1 ] && diff "$tmp/want" "$tmp/got" | head -n 10 >"$tmp/detail"
		return
	fi
	# one awk per side: every file normalized into a folder, then one diff
	rm -rf "$tmp/a" "$tmp/b" && mkdir "$tmp/a" "$tmp/b"
	norm_dir "$3" "$tmp/a" && norm_dir "$out" "$tmp/b"
	if ! diff -r "$tmp/a" "$tmp/b" >"$tmp/diff" 2>&1; then
		why="DIFF $2: $(sed -n 's|^diff -r [^ ]*/\([^/ ]*\) .*|\1|p' "$tmp/diff" | head -n 1)"
		[ $verbose = 1 ] && head -n 20 "$tmp/diff" >"$tmp/detail"
	fi
}

# report REASON WHERE: print a failure line and, with -v, its detail
report() {
	echo "$1 ($2)"
	[ $verbose = 1 ] && [ -s "$tmp/detail" ] && cat "$tmp/detail"
	rm -f "$tmp/detail"
}

# needs EXP: the catalog files lkp read (its `#! FILE` lines) that the
# snapshot does not hold
needs() {
	sed -n 's|^#! \([^ ]*\)$|\1|p' "$1"/*.yaml | sort -u | while read -r f; do
		[ -e "$T/$f" ] || printf ' %s' "$f"
	done
}

ok=0 okfull=0 total=0
for f in $(cd "$C/tree/jobs" && find . -name '*.yaml' | sed 's|^\./||' | sort); do
	job=${f%.yaml}
	exp=$C/split-jobs/$job
	ls "$exp"/*.yaml >/dev/null 2>&1 || continue
	total=$((total + 1))
	split_cmp "$T" "$job" "$exp"
	snap=$why
	[ -z "$snap" ] && ok=$((ok + 1))
	if [ -z "$FULL" ]; then
		if [ -z "$snap" ]; then echo "ok $job"; else report "$snap" snapshot; fi
		continue
	fi
	if [ ! -f "$FULL/jobs/$f" ]; then
		full="FAIL $job: not in $FULL/jobs"
	else
		split_cmp "$FULL" "$job" "$exp"
		full=$why
	fi
	[ -z "$full" ] && okfull=$((okfull + 1))
	if [ -z "$snap" ] && [ -z "$full" ]; then
		echo "ok $job"
	elif [ -z "$full" ]; then
		n=$(needs "$exp")
		if [ -n "$n" ]; then
			echo "ok-full $job: needs$n"
		else
			echo "$snap (snapshot, which holds every file lkp read)"
		fi
		rm -f "$tmp/detail"
	else
		[ -n "$snap" ] && echo "$snap (snapshot)"
		report "$full" "full tree"
	fi
done
echo "identical with the snapshot: $ok/$total"
if [ -n "$FULL" ]; then
	echo "identical with the full tree: $okfull/$total"
else
	echo "identical with the full tree: skipped (set LKP_FULL_SRC to an lkp-tests tree at $(sed -n 's/^lkp-tests commit \([0-9a-f]\{7\}\).*/\1/p' "$T/ORIGIN" 2>/dev/null))"
fi
