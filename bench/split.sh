#!/bin/sh
# split.sh [-n RUNS] [-f] [CONFORMANCE_DIR]: what `perfbot split-job` costs
# on lkp's catalog.  Two loads (-f: the first only):
#   fxmark     lkp's jobs/fxmark.yaml (480 atoms), RUNS times: median wall
#              and CPU (user+sys) seconds of perfbot, then the calls of
#              one run (strace -c): stat, access, open, all
#   conformance  tests/conformance-split.sh (220 jobs, lkp's split-jobs
#              compared), once: wall and CPU seconds, its "identical"
#              count, and the same calls summed over every process
# CONFORMANCE_DIR defaults to ../shared/conformance/lkp beside the repo.
# Needs strace and GNU time.  The wall times depend on the machine's load
# (fsync of each atom file); the CPU times and call counts much less.
#
#   PERFBOT=./perfbot sh bench/split.sh -n 5
set -u
runs=5 fxmark_only=0
while :; do
	case ${1:-} in
	-n) runs=$2; shift 2 ;;
	-f) fxmark_only=1; shift ;;
	*) break ;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
C=${1:-$root/../shared/conformance/lkp}
perfbot=${PERFBOT:-$root/perfbot}
case $perfbot in /*) ;; *) perfbot=$PWD/$perfbot ;; esac
[ -d "$C/tree/jobs" ] || { echo "split.sh: $C/tree/jobs not found" >&2; exit 2; }
command -v strace >/dev/null && [ -x /usr/bin/time ] ||
	{ echo "split.sh: strace and GNU time (/usr/bin/time) are needed" >&2; exit 2; }
BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-split.XXXXXX") || exit 1
trap 'rm -rf "$BENCH_TMP"' EXIT INT TERM
T=$BENCH_TMP

# calls FILE: "stat S, access A, open O, all N" from strace -c's table
calls() {
	awk '$NF == "newfstatat" || $NF == "stat" || $NF == "lstat" || $NF == "statx" { s += $4 }
	     $NF == "access" || $NF == "faccessat" || $NF == "faccessat2" { a += $4 }
	     $NF == "openat" || $NF == "open" { o += $4 }
	     $NF == "total" { t = $4 }
	     END { printf "stat %d, access %d, open %d, all %d\n", s, a, o, t }' "$1"
}

# split_fxmark [CMD...]: one split of fxmark into a fresh folder, run by
# CMD (/usr/bin/time, strace)
split_fxmark() {
	rm -rf "$T/out" &&
	LKP_SRC=$C/tree "$@" "$perfbot" split-job -t vm-snb -o "$T/out" \
		"$C/tree/jobs/fxmark.yaml" >/dev/null
}

: >"$T/times"
for i in $(seq "$runs"); do
	split_fxmark /usr/bin/time -f "%e %U %S" -o "$T/t" || exit 1
	tail -n 1 "$T/t" >>"$T/times"
done
atoms=$(ls "$T/out" | wc -l)
sort -n "$T/times" | awk -v n="$runs" -v atoms="$atoms" '
	{ w[NR] = $1; c[NR] = $2 + $3 }
	END {
		m = int((NR + 1) / 2)
		# CPU: its own median
		for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
			if (c[j] < c[i]) { x = c[i]; c[i] = c[j]; c[j] = x }
		printf "fxmark (%d atoms, %d runs): wall %.2f s, cpu %.2f s (medians)\n",
		       atoms, n, w[m], c[m]
	}'
split_fxmark strace -f -c -o "$T/strace" || exit 1
echo "fxmark calls: $(calls "$T/strace")"
[ "$fxmark_only" = 1 ] && exit 0

/usr/bin/time -f "%e %U %S" -o "$T/t" \
	env PERFBOT="$perfbot" sh "$root/tests/conformance-split.sh" "$C" >"$T/report" 2>&1
awk '{ printf "conformance-split.sh: wall %.1f s, cpu %.1f s\n", $1, $2 + $3 }' "$T/t"
grep '^identical with the snapshot' "$T/report"
strace -f -c -o "$T/strace" env PERFBOT="$perfbot" \
	sh "$root/tests/conformance-split.sh" "$C" >/dev/null 2>&1
echo "conformance-split.sh calls: $(calls "$T/strace")"
