#!/bin/sh
# bench/store.sh: speed and peak memory of the results store (SQLite).
#
#   bench/store.sh [--roots N] [--metrics M] [--runs R] [--repeat K]
#                  [--keep DIR [--reuse]]
#
# Defaults are issue 10's numbers: 10,000 result roots of 3,000 metrics
# (3 runs each), one per commit of a generated 10,000-commit git line
# (git fast-import, a tag every 1,000 commits), the throughput 10% lower
# from the middle on (bench/gen-store.py).  Then:
#
#   index      `perfbot index` of the whole tree into a new store, in its
#              one transaction: total wall time, time per root, peak RSS;
#              and again with nothing changed (each root's signature only)
#   query      one metric across every root: `perfbot results --metric
#              --csv` (the store alone) and `perfbot history --json` (the
#              store and the branch's first-parent line from git);
#              target: under 200 ms
#   detect     change points of the 10,000-point history: `perfbot detect
#              --input` (detection alone, from history's JSON) and `perfbot
#              detect --repo` (history + detection); target: under 1 s
#
# Each query and detection is the median of K runs (--repeat, 5), with the
# peak RSS of the largest.  Every step prints wall time and CPU time (user
# + sys, git's included): `uptime` comes first, and on a loaded machine
# the wall time is the machine's more than the code's.  Generating the
# tree (about 2 GB at the defaults) is timed apart; it is not a figure.
# --keep DIR keeps the repository, tree and store in DIR (else a temp dir,
# removed); --reuse measures what DIR holds from an earlier --keep run,
# without generating or indexing it anew (only the unchanged re-index).
set -e
cd "$(dirname "$0")/.."
. bench/lib.sh
need_time
PERFBOT=${PERFBOT:-$(pwd)/perfbot}
GEN="python3 $(pwd)/bench/gen-store.py"
ROOTS=10000 METRICS=3000 RUNS=3 REPEAT=5 KEEP= REUSE=
while [ $# -gt 0 ]; do
	case $1 in
	--roots) ROOTS=$2; shift 2 ;;
	--metrics) METRICS=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--repeat) REPEAT=$2; shift 2 ;;
	--keep) KEEP=$2; shift 2 ;;
	--reuse) REUSE=1; shift ;;
	*) echo "usage: bench/store.sh [--roots N] [--metrics M] [--runs R] [--repeat K] [--keep DIR [--reuse]]" >&2
	   exit 2 ;;
	esac
done
[ -x "$PERFBOT" ] || { echo "bench: build perfbot first (make)" >&2; exit 1; }
[ -z "$REUSE" ] || [ -n "$KEEP" ] || { echo "bench: --reuse needs --keep DIR" >&2; exit 2; }
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" && BENCH_TMP=$(cd "$KEEP" && pwd)
else
	BENCH_TMP=$(mktemp -d)
	trap 'rm -rf "$BENCH_TMP"' EXIT
fi
T=$BENCH_TMP
DB=$T/store.db
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
secs() { date +%s%N; }
# timed N CMD...: run CMD N times; "wall_ms cpu_ms peak_kb": the medians
# of wall and CPU time (user + sys, children included), the largest RSS
timed() {
	n=$1; shift
	: >"$T/times"
	for i in $(seq "$n"); do
		s=$(secs)
		/usr/bin/time -f "%M %U %S" -o "$T/rss" "$@" >"$T/out" 2>"$T/err" || {
			cat "$T/err" >&2; return 1; }
		e=$(secs)
		echo "$(( (e - s) / 1000 )) $(tail -n 1 "$T/rss")" >>"$T/times"
	done
	w=$(awk '{ print $1 / 1000 }' "$T/times" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }')
	c=$(awk '{ print ($3 + $4) * 1000 }' "$T/times" | sort -n | awk '{ v[NR] = $1 } END { printf "%.0f", v[int((NR + 1) / 2)] }')
	m=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$T/times")
	echo "$w $c $m"
}
# row LABEL PER N CMD...: a line of the table; PER: divide by it for per_root
row() {
	label=$1 per=$2; shift 2
	set -- $(timed "$@")
	printf '%-34s %11s %9s %12s %9s\n' "$label" "$1" "$2" \
		"$( [ "$per" = - ] && echo - || awk -v t="$1" -v n="$per" 'BEGIN { printf "%.3f", t / n }')" "$(mb "$3")"
}

echo "# load: $(uptime)"
echo "# $ROOTS roots x $METRICS metrics x $RUNS runs ($((ROOTS * METRICS * RUNS)) samples)"

if [ -z "$REUSE" ]; then
	# the git line: one commit per root, fixed dates, a tag every 1,000
	s=$(secs)
	rm -rf "$T/repo" "$T/tree" "$DB" "$DB-wal" "$DB-shm"
	git init -q -b master "$T/repo"
	awk -v n="$ROOTS" 'BEGIN {
		for (i = 1; i <= n; i++) {
			msg = "commit " i; body = i "\n"
			printf "commit refs/heads/master\nmark :%d\n", i
			printf "author t <t@t> %d +0000\ncommitter t <t@t> %d +0000\n", 1700000000 + i, 1700000000 + i
			printf "data %d\n%s\n", length(msg), msg
			if (i > 1) printf "from :%d\n", i - 1
			printf "M 644 inline f\ndata %d\n%s\n", length(body), body
			if (i % 1000 == 0) printf "reset refs/tags/v%d.0\nfrom :%d\n\n", i / 1000, i
		}
	}' | git -C "$T/repo" fast-import --quiet
	git -C "$T/repo" log --first-parent --reverse --format=%H master >"$T/line"
	$GEN "$T/tree" --commits "$T/line" --metrics "$METRICS" --runs "$RUNS" \
		--step-at $((ROOTS / 2)) --step -10
	echo "# generated the repository and tree in $(( ($(secs) - s) / 1000000000 )) s ($(du -sh "$T/tree" | cut -f1))"
else
	[ -d "$T/tree" ] && [ -f "$DB" ] && [ -d "$T/repo" ] || {
		echo "bench: --reuse: no tree, repo and store.db in $T" >&2; exit 1; }
	echo "# reusing $T (tree, repo, store)"
fi
echo

printf '%-34s %11s %9s %12s %9s\n' step wall_ms cpu_ms wall/root_ms peak_MB
if [ -z "$REUSE" ]; then
	row "index (new store)" "$ROOTS" 1 "$PERFBOT" index -q --db "$DB" "$T/tree"
	grep -q "$ROOTS stored" "$T/out" || { cat "$T/out" >&2; exit 1; }
fi
row "index again (nothing changed)" "$ROOTS" 1 "$PERFBOT" index -q --db "$DB" "$T/tree"
grep -q "$ROOTS unchanged" "$T/out" || { cat "$T/out" >&2; exit 1; }
echo "# store: $(du -m "$DB" | cut -f1) MB on disk"

M=mybench.throughput
row "results --metric (one metric)" - "$REPEAT" "$PERFBOT" results --db "$DB" --metric $M --csv
test "$(($(wc -l <"$T/out") - 1))" = $((ROOTS * RUNS))
row "history --json (one metric)" - "$REPEAT" "$PERFBOT" history --db "$DB" --repo "$T/repo" --metric $M --json
cp "$T/out" "$T/h.json"
row "detect --input ($ROOTS points)" - "$REPEAT" "$PERFBOT" detect --input "$T/h.json"
row "detect --repo (history + detect)" - "$REPEAT" "$PERFBOT" detect --db "$DB" --repo "$T/repo" --metric $M
echo
cat "$T/out"
