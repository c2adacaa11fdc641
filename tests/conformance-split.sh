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
	mkdir -p "$tmp/tree/${path%/*}" &&
	ln -s "$target" "$tmp/tree/$path" || exit 2
done || exit 2
T=$tmp/tree

# The jobs that lkp split (a split-jobs/<job>/ with atoms), in order.
# Each is split here with one perfbot a source; the file names and
# contents of all are then compared at once (a find, an awk and a diff
# a side, not a dozen programs a job: the processes were most of the
# time this took).
(cd "$C/tree/jobs" && find . -name '*.yaml') | sed 's|^\./||' | sort | sed 's|\.yaml$||' >"$tmp/all"
(cd "$C/split-jobs" && find . -name '*.yaml' ! -type d) | sed 's|^\./||' >"$tmp/exp-files"
sed 's|/[^/]*$||' "$tmp/exp-files" | sort -u >"$tmp/exp-dirs"
awk 'NR == FNR { has[$0] = 1; next } $0 in has' "$tmp/exp-dirs" "$tmp/all" >"$tmp/jobs"
# "job file" lines, for files of the jobs listed in $1 (a file of names)
# found under $2 (find's paths relative to the dir of the atoms)
job_files() {
	awk 'NR == FNR { want[$0] = 1; next }
		{ d = $0; sub(/\/[^\/]*$/, "", d); f = substr($0, length(d) + 2)
		  if (d in want) print d " " f }' "$1" "$2" | sort
}
job_files "$tmp/jobs" "$tmp/exp-files" >"$tmp/want"

# awk -v to=DIR "$norm" FILE...: each FILE without comment lines, blank
# lines and job_origin, as DIR/FILE
norm='FNR == 1 { if (out) close(out); out = to "/" FILENAME; printf "" >out }
	/^[[:space:]]*#/ || /^[[:space:]]*$/ || /^job_origin:/ { next }
	{ print >>out }'
# norm_all LIST FROM TO: the files of LIST ("job file" lines) under FROM
# normalized under TO, in a few awks
norm_all() {
	[ -s "$1" ] || return 0
	(cd "$3" && awk '{ print $1 }' "$1" | sort -u | xargs mkdir -p) &&
	(cd "$2" && awk '{ print $1 "/" $2 }' "$1" | xargs awk -v to="$3" "$norm")
}

# split_all SRC SIDE: split SRC/jobs/JOB.yaml for each job with SRC as
# LKP_SRC into $tmp/SIDE/out/JOB and compare with lkp's; writes
# $tmp/SIDE/why, a line "JOB REASON" for each job not identical
split_all() {
	s=$tmp/$2
	mkdir -p "$s/out" "$s/a" "$s/b" && : >"$s/why" && : >"$s/ok-jobs"
	while read -r job; do
		if [ ! -f "$1/jobs/$job.yaml" ]; then
			echo "$job FAIL $job: not in $1/jobs" >>"$s/why"
		elif ! LKP_SRC=$1 "$PERFBOT" split-job -t vm-snb -o "$s/out/$job" \
			"$1/jobs/$job.yaml" >/dev/null 2>"$s/stderr"; then
			line= && IFS= read -r line <"$s/stderr"
			echo "$job FAIL $job: $line" >>"$s/why"
		else
			echo "$job" >>"$s/ok-jobs"
		fi
	done <"$tmp/jobs"
	(cd "$s/out" && find . -name '*.yaml' ! -type d) | sed 's|^\./||' >"$s/files"
	job_files "$s/ok-jobs" "$s/files" >"$s/got"
	# the names: "JOB want N got M" where they differ, else the job's
	# files go to the comparison of contents
	awk 'FILENAME == ARGV[1] { ok[$1] = 1; next }
		FILENAME == ARGV[2] { w[$1] = w[$1] " " $2; nw[$1]++; next }
		{ g[$1] = g[$1] " " $2; ng[$1]++ }
		END { for (j in ok) if (w[j] != g[j]) print j, nw[j] + 0, ng[j] + 0 }' \
		"$s/ok-jobs" "$tmp/want" "$s/got" >"$s/names"
	awk 'FILENAME == ARGV[1] { bad[$1] = 1; next } FILENAME == ARGV[2] { ok[$1] = 1; next }
		($1 in ok) && !($1 in bad)' "$s/names" "$s/ok-jobs" "$tmp/want" >"$s/same"
	norm_all "$s/same" "$C/split-jobs" "$s/a" && norm_all "$s/same" "$s/out" "$s/b"
	while read -r job n m; do
		echo "$job NAMES $job: want $n, got $m" >>"$s/why"
	done <"$s/names"
	# the first file of a job that differs, as diff -r finds it
	diff -rq "$s/a" "$s/b" 2>&1 | sed -n "s|^Files $s/a/\(.*\)/\([^/ ]*\) and .* differ$|\1 \2|p" |
		awk '!($1 in seen) { seen[$1] = 1; print $1 " DIFF " $1 ": " $2 }' >>"$s/why"
}

# detail SIDE JOB REASON: with -v, the first lines of the difference
# REASON names, in $tmp/detail
detail() {
	[ $verbose = 1 ] || return 0
	case "$3" in
	NAMES*)
		(cd "$C/split-jobs/$2" && ls *.yaml) >"$tmp/w"
		(cd "$tmp/$1/out/$2" && ls *.yaml 2>/dev/null) >"$tmp/g"
		diff "$tmp/w" "$tmp/g" | head -n 10 >"$tmp/detail" ;;
	DIFF*)
		rm -rf "$tmp/a" "$tmp/b" && mkdir "$tmp/a" "$tmp/b" &&
		(cd "$C/split-jobs/$2" && awk -v to="$tmp/a" "$norm" *.yaml) &&
		(cd "$tmp/$1/out/$2" && awk -v to="$tmp/b" "$norm" *.yaml) &&
		diff -r "$tmp/a" "$tmp/b" | head -n 20 >"$tmp/detail" ;;
	esac
}

# report REASON WHERE: print a failure line and, with -v, its detail
report() {
	echo "$1 ($2)"
	[ $verbose = 1 ] && [ -s "$tmp/detail" ] && cat "$tmp/detail"
	rm -f "$tmp/detail"
}

# needs JOB: the catalog files lkp read (its `#! FILE` lines) that the
# snapshot does not hold
needs() {
	sed -n 's|^#! \([^ ]*\)$|\1|p' "$C/split-jobs/$1"/*.yaml | sort -u | while read -r f; do
		[ -e "$T/$f" ] || printf ' %s' "$f"
	done
}

split_all "$T" snap
[ -z "$FULL" ] || split_all "$FULL" full
# a line a job: JOB, its reason with the snapshot, with the full tree
# ("" when identical), apart by a byte no reason holds
sep=$(printf '\001')
awk -v sep="$sep" 'FILENAME == ARGV[1] || FILENAME == ARGV[2] {
		r = $0; sub(/^[^ ]* /, "", r)
		if (FILENAME == ARGV[1]) snap[$1] = r; else full[$1] = r
		next }
	{ print $0 sep snap[$0] sep full[$0] }' \
	"$tmp/snap/why" "$([ -n "$FULL" ] && echo "$tmp/full/why" || echo /dev/null)" "$tmp/jobs" >"$tmp/table"
ok=0 okfull=0 total=0
while IFS=$sep read -r job snap full; do
	total=$((total + 1))
	[ -z "$snap" ] && ok=$((ok + 1))
	if [ -z "$FULL" ]; then
		if [ -z "$snap" ]; then
			echo "ok $job"
		else
			detail snap "$job" "$snap"
			report "$snap" snapshot
		fi
		continue
	fi
	[ -z "$full" ] && okfull=$((okfull + 1))
	if [ -z "$snap" ] && [ -z "$full" ]; then
		echo "ok $job"
	elif [ -z "$full" ]; then
		n=$(needs "$job")
		if [ -n "$n" ]; then
			echo "ok-full $job: needs$n"
		else
			echo "$snap (snapshot, which holds every file lkp read)"
		fi
	else
		[ -n "$snap" ] && echo "$snap (snapshot)"
		detail full "$job" "$full"
		report "$full" "full tree"
	fi
done <"$tmp/table"
echo "identical with the snapshot: $ok/$total"
if [ -n "$FULL" ]; then
	echo "identical with the full tree: $okfull/$total"
else
	echo "identical with the full tree: skipped (set LKP_FULL_SRC to an lkp-tests tree at $(sed -n 's/^lkp-tests commit \([0-9a-f]\{7\}\).*/\1/p' "$T/ORIGIN" 2>/dev/null))"
fi
