# bench/lib.sh: helpers shared by the bench scripts.
#
# measure N CMD...: run CMD N times, print "median_ms peak_rss_kb" of the
# runs (wall time from date +%s%N, peak RSS from GNU time's %M).
measure() {
	n=$1; shift
	: >"$BENCH_TMP/times"
	for i in $(seq "$n"); do
		s=$(date +%s%N)
		/usr/bin/time -f %M -o "$BENCH_TMP/rss" "$@" >/dev/null 2>"$BENCH_TMP/err" || {
			cat "$BENCH_TMP/err" >&2; return 1; }
		e=$(date +%s%N)
		echo "$(( (e - s) / 1000 )) $(tail -n 1 "$BENCH_TMP/rss")" >>"$BENCH_TMP/times"
	done
	sort -n "$BENCH_TMP/times" | awk '{ t[NR] = $1; if ($2 > m) m = $2 }
		END { printf "%.1f %d\n", t[int((NR + 1) / 2)] / 1000, m }'
}

need_time() {
	[ -x /usr/bin/time ] && return 0
	echo "bench: GNU time is needed (apt-get install time)" >&2
	exit 1
}
