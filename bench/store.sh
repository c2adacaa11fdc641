#!/bin/sh
# bench/store.sh: speed and peak memory of the results store (SQLite).
#
#   bench/store.sh [--roots N] [--metrics M] [--runs R] [--repeat K] [--keep DIR]
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
# peak RSS of the largest.  Prints `uptime` first: on a loaded machine
# the figures are slower than the code.  Generating the tree (about 2 GB
# at the defaults) is timed apart; it is not a figure.  --keep DIR keeps
# the repository, tree and store in DIR (else a temp dir, removed).
set -e
cd "$(dirname "$0")/.."
. bench/lib.sh
need_time
PERFBOT=${PERFBOT:-$(pwd)/perfbot}
GEN="python3 $(pwd)/bench/gen-store.py"
ROOTS=10000 METRICS=3000 RUNS=3 REPEAT=5 KEEP=
while [ $# -gt 0 ]; do
	case $1 in
	--roots) ROOTS=$2; shift 2 ;;
	--metrics) METRICS=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--repeat) REPEAT=$2; shift 2 ;;
	--keep) KEEP=$2; shift 2 ;;
	*) echo "usage: bench/store.sh [--roots N] [--metrics M] [--runs R] [--repeat K] [--keep DIR]" >&2
	   exit 2 ;;
	esac
done
[ -x "$PERFBOT" ] || { echo "bench: build perfbot first (make)" >&2; exit 1; }
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

echo "# load: $(uptime)"
echo "# $ROOTS roots x $METRICS metrics x $RUNS runs ($((ROOTS * METRICS * RUNS)) samples)"

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
echo

printf '%-34s %12s %12s %10s\n' step total_ms per_root_ms peak_MB
s=$(secs)
rm -f "$DB" "$DB-wal" "$DB-shm"
/usr/bin/time -f %M -o "$T/rss" "$PERFBOT" index -q --db "$DB" "$T/tree" >"$T/out"
e=$(secs)
grep -q "$ROOTS stored" "$T/out" || { cat "$T/out" >&2; exit 1; }
ms=$(( (e - s) / 1000000 ))
printf '%-34s %12d %12s %10s\n' "index (new store)" "$ms" \
	"$(awk -v t="$ms" -v n="$ROOTS" 'BEGIN { printf "%.2f", t / n }')" "$(mb "$(tail -n 1 "$T/rss")")"
s=$(secs)
/usr/bin/time -f %M -o "$T/rss" "$PERFBOT" index -q --db "$DB" "$T/tree" >"$T/out"
e=$(secs)
grep -q "$ROOTS unchanged" "$T/out" || { cat "$T/out" >&2; exit 1; }
ms=$(( (e - s) / 1000000 ))
printf '%-34s %12d %12s %10s\n' "index again (nothing changed)" "$ms" \
	"$(awk -v t="$ms" -v n="$ROOTS" 'BEGIN { printf "%.3f", t / n }')" "$(mb "$(tail -n 1 "$T/rss")")"
echo "# store: $(du -m "$DB" | cut -f1) MB on disk"

M=mybench.throughput
row() {
	r=$(measure "$REPEAT" "$@")
	printf '%-34s %12s %12s %10s\n' "$label" "${r% *}" "" "$(mb "${r#* }")"
}
label="results --metric (one metric)" row "$PERFBOT" results --db "$DB" --metric $M --csv
"$PERFBOT" results --db "$DB" --metric $M --csv >"$T/q.csv"
test "$(($(wc -l <"$T/q.csv") - 1))" = $((ROOTS * RUNS))
label="history --json (one metric)" row "$PERFBOT" history --db "$DB" --repo "$T/repo" --metric $M --json
"$PERFBOT" history --db "$DB" --repo "$T/repo" --metric $M --json >"$T/h.json"
label="detect --input ($ROOTS points)" row "$PERFBOT" detect --input "$T/h.json"
label="detect --repo (history + detect)" row "$PERFBOT" detect --db "$DB" --repo "$T/repo" --metric $M
echo
"$PERFBOT" detect --db "$DB" --repo "$T/repo" --metric $M
