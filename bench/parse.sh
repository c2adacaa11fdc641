#!/bin/sh
# bench/parse.sh: throughput of `perfbot parse perf-profile` on a 50 MB report.
#
# Builds the input in a temporary directory by concatenating lkp's
# perf-profile fixture (../shared/conformance/lkp/stats/perf-profile/1) up
# to 50 MiB, runs `perfbot parse perf-profile FILE >/dev/null` RUNS times
# (default 5) and prints the median wall time, the throughput (MB = 10^6
# bytes) against the 400 MB/s target, and the peak RSS.
#
#   sh bench/parse.sh                 # uses ./perfbot
#   PERFBOT=build-x/perfbot RUNS=9 sh bench/parse.sh
#
# Exits 0 after printing, 1 when it cannot run, and 3 with BENCH_STRICT=1
# when the median is below the target.
set -u
cd "$(dirname "$0")/.." || exit 1

PERFBOT=${PERFBOT:-./perfbot}
RUNS=${RUNS:-5}
SIZE=$((50 * 1024 * 1024))
TARGET=400
CONF=${PERFBOT_CONFORMANCE:-../shared/conformance}
FIXTURE=$CONF/lkp/stats/perf-profile/1

if [ ! -f "$FIXTURE" ]; then
	echo "parse bench: skipped: $FIXTURE not found"
	exit 0
fi
if [ ! -x "$PERFBOT" ]; then
	echo "parse bench: $PERFBOT not built (make, or set PERFBOT)" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfbot-parse-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# Double the file until it reaches SIZE: a few cat calls, not thousands.
cp "$FIXTURE" "$tmp/in"
while [ "$(wc -c <"$tmp/in")" -lt "$SIZE" ]; do
	cat "$tmp/in" "$tmp/in" >"$tmp/next" && mv "$tmp/next" "$tmp/in"
done
head -c "$SIZE" "$tmp/in" >"$tmp/report" && rm -f "$tmp/in"
bytes=$(wc -c <"$tmp/report")

# Check once that the parser accepts it before timing anything.
if ! "$PERFBOT" parse perf-profile "$tmp/report" >"$tmp/out"; then
	echo "parse bench: perfbot parse perf-profile failed" >&2
	exit 1
fi
echo "input: $bytes bytes ($(wc -l <"$tmp/out") stats lines out)"

# Peak RSS in kB of one run: /usr/bin/time when there is one, else the
# highest VmHWM seen while polling /proc.
peak_rss() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$tmp/rss" "$PERFBOT" parse perf-profile "$tmp/report" >/dev/null
		tail -n 1 "$tmp/rss"
		return
	fi
	"$PERFBOT" parse perf-profile "$tmp/report" >/dev/null &
	pid=$! hwm=0
	while kill -0 "$pid" 2>/dev/null; do
		v=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
		[ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
		sleep 0.01
	done
	wait "$pid"
	echo "$hwm"
}

: >"$tmp/times"
i=0
while [ "$i" -lt "$RUNS" ]; do
	t0=$(date +%s%N)
	"$PERFBOT" parse perf-profile "$tmp/report" >/dev/null || exit 1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000)) >>"$tmp/times"     # microseconds
	i=$((i + 1))
done
median_us=$(sort -n "$tmp/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
rss=$(peak_rss)

awk -v us="$median_us" -v b="$bytes" -v runs="$RUNS" -v rss="$rss" -v target="$TARGET" 'BEGIN {
	mbs = b / us;                   # bytes per microsecond = MB/s
	printf "runs: %d, median wall time: %.1f ms\n", runs, us / 1000;
	ok = (mbs >= target);
	printf "throughput: %.0f MB/s (target >= %d MB/s: %s)\n", mbs, target,
	       (ok ? "ok" : "BELOW");
	printf "peak RSS: %.1f MB\n", rss / 1024;
	exit (ok ? 0 : 3)
}'
below=$?
if [ "$below" -ne 0 ] && [ "${BENCH_STRICT:-0}" = 1 ]; then
	exit 3
fi
exit 0
