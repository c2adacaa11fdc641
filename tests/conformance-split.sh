#!/bin/sh
# tests/conformance-split.sh: split every job of an lkp-tests catalog the
# way lkp's split-job does and compare with lkp's own output.
#
#   tests/conformance-split.sh [-v] [CONFORMANCE_DIR]
#
# CONFORMANCE_DIR (default ../shared/conformance/lkp beside the repo) holds
# tree/ (a snapshot of lkp-tests: jobs, include, params, hosts, programs)
# and split-jobs/<job>/ (lkp's `split-job -t vm-snb` of tree/jobs/<job>.yaml).
# Comment lines, blank lines and job_origin do not count.  Prints one line
# per job (ok / DIFF / FAIL / extra) and "identical N/TOTAL" last.
# -v shows the first lines of each difference.
set -u
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
root=$(cd "$(dirname "$0")/.." && pwd)
C=${1:-$root/../shared/conformance/lkp}
: "${PERFBOT:=$root/perfbot}"
[ -d "$C/tree/jobs" ] || { echo "conformance-split: $C/tree/jobs not found" >&2; exit 2; }
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

ok=0 total=0
for f in $(cd "$C/tree/jobs" && find . -name '*.yaml' | sed 's|^\./||' | sort); do
	job=${f%.yaml}
	exp=$C/split-jobs/$job
	ls "$exp"/*.yaml >/dev/null 2>&1 || continue
	total=$((total + 1))
	out=$tmp/out/$job
	mkdir -p "$out"
	if ! LKP_SRC=$T "$PERFBOT" split-job -t vm-snb -o "$out" \
		"$T/jobs/$f" >"$tmp/stdout" 2>"$tmp/stderr"; then
		echo "FAIL $job: $(head -n 1 "$tmp/stderr")"
		continue
	fi
	(cd "$exp" && ls *.yaml) >"$tmp/want"
	(cd "$out" && ls *.yaml 2>/dev/null) >"$tmp/got"
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		echo "NAMES $job: want $(wc -l <"$tmp/want"), got $(wc -l <"$tmp/got")"
		[ $verbose = 1 ] && diff "$tmp/want" "$tmp/got" | head -n 10
		continue
	fi
	# one awk per side: every file normalized into a folder, then one diff
	rm -rf "$tmp/a" "$tmp/b" && mkdir "$tmp/a" "$tmp/b"
	norm_dir "$exp" "$tmp/a" && norm_dir "$out" "$tmp/b"
	same=1
	if ! diff -r "$tmp/a" "$tmp/b" >"$tmp/diff" 2>&1; then
		same=0
		echo "DIFF $job: $(sed -n 's|^diff -r [^ ]*/\([^/ ]*\) .*|\1|p' "$tmp/diff" | head -n 1)"
		[ $verbose = 1 ] && head -n 20 "$tmp/diff"
	fi
	[ $same = 1 ] && { ok=$((ok + 1)); echo "ok $job"; }
done
echo "identical $ok/$total"
