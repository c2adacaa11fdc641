#!/bin/sh
# lkp-atoms.sh [LKP_TREE]: how many job atoms of an lkp-tests tree's jobs/
# perfbot runs here.  Every job file is split (perfbot split-job) and each
# atom counts as running when `perfbot install --command ATOM` builds its
# benchmark's command: a runner exists for its testcase and takes every
# option the atom gives.  Prints "atoms: N, run here: M" and, per
# testcase, the atoms that run.  Atoms of a testcase no runner has
# (`perfbot install --list`) are counted without asking perfbot.
#
#   PERFBOT=./perfbot sh bench/lkp-atoms.sh ../shared/conformance/lkp/tree
set -u
tree=${1:-$(dirname "$0")/../../shared/conformance/lkp/tree}
perfbot=${PERFBOT:-perfbot}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lkp-atoms.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

"$perfbot" install --list | cut -d" " -f1 >"$tmp/runners"

find "$tree/jobs" -name '*.yaml' | sort | while read -r job; do
	rm -rf "$tmp/atoms" && mkdir "$tmp/atoms" &&
	"$perfbot" split-job -o "$tmp/atoms" "$job" >/dev/null 2>&1 || continue
	for a in "$tmp"/atoms/*.yaml; do
		[ -f "$a" ] || continue
		tc=$(sed -n 's/^testcase: *//p' "$a" | head -n 1)
		if grep -qxF "$tc" "$tmp/runners" &&
		   "$perfbot" install --command "$a" >/dev/null 2>&1; then
			echo "+ ${tc:-?}"
		else
			echo "- ${tc:-?}"
		fi
	done
done >"$tmp/list"
total=$(wc -l <"$tmp/list")
ran=$(grep -c '^+' "$tmp/list")
echo "atoms: $total, run here: $ran"
sort "$tmp/list" | uniq -c | sort -k3 -k2 | awk '{ printf "%6d %s %s\n", $1, $2, $3 }' | grep '^ *[0-9]* +' 
