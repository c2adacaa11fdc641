#!/bin/sh
# bench/lkp-ratio.sh: perfbot's unite + compare against lkp-tests' own
# pipeline on the same tree (issue 15: perfbot 100x faster).
#
#   LKP_SRC=/path/to/lkp-tests sh bench/lkp-ratio.sh [METRICS [ROUNDS]]
#
# The tree: bench/gen-results.sh METRICS (30,000) x 2 commits x 5 runs,
# one copy for each side.
#   lkp:     sbin/unite-stats once per run, as lkp's post-run calls it
#            (each loads the matrix, adds the run's column, writes
#            matrix/avg/stddev.json into _result_root and, capped at 100
#            columns, into the level above), then ncompare's engine
#            (lib/compare.rb through bench/lkp-ncompare.rb: sbin/ncompare
#            finds result roots only in lkp's result database).
#   perfbot: one `perfbot unite` of the 10 runs, then `compare --rule lkp`.
# Each round re-unites from scratch (the united files removed first); the
# two sides run alternately, ROUNDS (3) times.  Prints the medians of CPU
# time (user + sys, what to quote on a loaded machine) and of wall time,
# and the ratios.  Skips with the reason when lkp or a gem is missing.
set -e
cd "$(dirname "$0")/.."
. bench/lib.sh
need_time
PERFBOT=${PERFBOT:-./perfbot}
n=${1:-30000} rounds=${2:-3}

if [ -z "$LKP_SRC" ] || [ ! -f "$LKP_SRC/lib/compare.rb" ] || [ ! -x "$LKP_SRC/sbin/unite-stats" ]; then
	echo "bench/lkp-ratio.sh: skipped: LKP_SRC must name an lkp-tests tree (lib/compare.rb, sbin/unite-stats)" >&2
	exit 0
fi
LKP_SRC=$(cd "$LKP_SRC" && pwd)
export LKP_SRC
# the gems lkp's unite-stats and compare.rb load
if ! command -v ruby >/dev/null 2>&1 ||
   ! ruby -e 'require "active_support/core_ext/enumerable"; require "git"; require "tty-command"' 2>/dev/null; then
	echo "bench/lkp-ratio.sh: skipped: lkp's Ruby needs: $(sh scripts/deps.sh list lkp)" >&2
	exit 0
fi

BENCH_TMP=$(mktemp -d)
trap 'rm -rf "$BENCH_TMP"' EXIT
sh bench/gen-results.sh "$BENCH_TMP/lkp" "$n" 2 5
cp -a "$BENCH_TMP/lkp" "$BENCH_TMP/pb"
c0=$(printf 'c%039d' 0) c1=$(printf 'c%039d' 1)

# Each side as one script, so that GNU time counts every process of it.
cat >"$BENCH_TMP/lkp.sh" <<EOF
set -e
[ "\$1" = compare ] || rm -f "$BENCH_TMP"/lkp/*.json "$BENCH_TMP"/lkp/c*/*.json
for run in "$BENCH_TMP"/lkp/c*/[0-9]*; do
	[ "\$1" = compare ] || ruby "$LKP_SRC/sbin/unite-stats" "\$run"
done
[ "\$1" = unite ] || ruby bench/lkp-ncompare.rb "$BENCH_TMP/lkp/$c0" "$BENCH_TMP/lkp/$c1"
EOF
cat >"$BENCH_TMP/pb.sh" <<EOF
set -e
[ "\$1" = compare ] || rm -f "$BENCH_TMP"/pb/*.json "$BENCH_TMP"/pb/c*/*.json
[ "\$1" = compare ] || $PERFBOT unite "$BENCH_TMP"/pb/c*/[0-9]*
[ "\$1" = unite ] || $PERFBOT compare --rule lkp "$BENCH_TMP/pb/$c0" "$BENCH_TMP/pb/$c1"
EOF

# CPU time: perf stat's task-clock of the script and all it starts, to a
# microsecond, where perf works; else GNU time's user + sys, which it
# prints to 10 ms, a tenth of perfbot's whole pipeline here.
if perf stat -x, -e task-clock -o /dev/null true 2>/dev/null; then
	cpu_clock=perf
else
	cpu_clock=time
fi

# step SIDE WHAT: time one run into $BENCH_TMP/t.SIDE.WHAT ("cpu_ms wall_ms")
step() {
	[ "$2" = compare ] && sh "$BENCH_TMP/$1.sh" unite >/dev/null 2>&1
	if [ $cpu_clock = perf ]; then
		/usr/bin/time -f '0 0 %e' -o "$BENCH_TMP/time" \
			perf stat -x, -e task-clock -o "$BENCH_TMP/perf" sh "$BENCH_TMP/$1.sh" "$2" \
			>"$BENCH_TMP/out.$1" 2>"$BENCH_TMP/err" || { cat "$BENCH_TMP/err" >&2; exit 1; }
		cpu=$(awk -F, '$3 ~ /^task-clock/ { print $1 / 1000 }' "$BENCH_TMP/perf")
	else
		/usr/bin/time -f '%U %S %e' -o "$BENCH_TMP/time" sh "$BENCH_TMP/$1.sh" "$2" \
			>"$BENCH_TMP/out.$1" 2>"$BENCH_TMP/err" || { cat "$BENCH_TMP/err" >&2; exit 1; }
		cpu=
	fi
	# compare alone: the unite before it is not counted, but its files stay
	awk -v cpu="$cpu" '{ printf "%d %d\n", cpu != "" ? cpu * 1000 : ($1 + $2) * 1000, $3 * 1000 }' \
		"$BENCH_TMP/time" >>"$BENCH_TMP/t.$1.$2"
}
median() {
	sort -n -k"$2" "$1" | awk -v k="$2" '{ t[NR] = $k } END { print t[int((NR + 1) / 2)] }'
}

echo "lkp-tests $(git -C "$LKP_SRC" rev-parse --short HEAD 2>/dev/null || echo '(no git)'), $n metrics, 2 commits x 5 runs, $rounds rounds, CPU by $cpu_clock, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$rounds"); do
	for what in unite compare all; do
		step lkp $what
		step pb $what
	done
done
printf '%-22s %12s %12s %12s %12s\n' step lkp_cpu_ms perfbot_cpu lkp_wall_ms perfbot_wall
for what in unite compare all; do
	lc=$(median "$BENCH_TMP/t.lkp.$what" 1) pc=$(median "$BENCH_TMP/t.pb.$what" 1)
	lw=$(median "$BENCH_TMP/t.lkp.$what" 2) pw=$(median "$BENCH_TMP/t.pb.$what" 2)
	printf '%-22s %12d %12d %12d %12d\n' "$what" "$lc" "$pc" "$lw" "$pw"
done
lc=$(median "$BENCH_TMP/t.lkp.all" 1) pc=$(median "$BENCH_TMP/t.pb.all" 1)
lw=$(median "$BENCH_TMP/t.lkp.all" 2) pw=$(median "$BENCH_TMP/t.pb.all" 2)
awk -v lc="$lc" -v pc="$pc" -v lw="$lw" -v pw="$pw" 'BEGIN {
	printf "unite + compare: perfbot %.0fx faster in CPU time, %.0fx in wall time (goal 100x)\n",
		lc / (pc ? pc : 1), lw / (pw ? pw : 1) }'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# the two tables (the last round's): their rows, and how many differ
rows() { awk '$1 ~ /^[0-9.e+]+$/ && $NF ~ /[.]/' "$1"; }
rows "$BENCH_TMP/out.lkp" >"$BENCH_TMP/rows.lkp"
rows "$BENCH_TMP/out.pb" >"$BENCH_TMP/rows.pb"
echo "rows: lkp's ncompare $(wc -l <"$BENCH_TMP/rows.lkp"), perfbot's compare --rule lkp $(wc -l <"$BENCH_TMP/rows.pb"), in one and not the other $(sort "$BENCH_TMP/rows.lkp" "$BENCH_TMP/rows.pb" | uniq -u | wc -l)"
