#!/bin/sh
# bench/compare.sh: speed of `perfbot unite` and `perfbot compare`.
#
# For 3,000 and 30,000 metrics, 2 commits x 5 runs: unite all runs (median
# of 5 full re-unites from scratch) and compare (median of 9), printing
# wall time and peak RSS, and unite's share of unite + compare --rule lkp
# (what lkp's own pipeline does; bench/lkp-ratio.sh times lkp's itself).
# Targets (issue 2): compare at 30,000 metrics under 100 ms and under
# 50 MB on the 2-core VM.
set -e
cd "$(dirname "$0")/.."
. bench/lib.sh
need_time
PERFBOT=${PERFBOT:-./perfbot}
BENCH_TMP=$(mktemp -d)
trap 'rm -rf "$BENCH_TMP"' EXIT

printf '%-8s %-16s %10s %10s\n' metrics step median_ms peak_MB
for n in 3000 30000; do
	d="$BENCH_TMP/r$n"
	sh bench/gen-results.sh "$d" "$n" 2 5
	# measure wants one command: wrap the unite of all 10 runs
	printf '#!/bin/sh\nrm -f %s/*/matrix.json\nexec %s unite %s/c*/[0-9]*\n' "$d" "$PERFBOT" "$d" >"$BENCH_TMP/unite.sh"
	r=$(measure 5 sh "$BENCH_TMP/unite.sh")
	unite_ms=${r% *}
	printf '%-8s %-16s %10s %10.1f\n' "$n" "unite (10 runs)" "${r% *}" "$(echo "${r#* }" | awk '{print $1/1024}')"
	for rule in stat lkp; do
		r=$(measure 9 $PERFBOT compare --rule $rule "$d"/c*0 "$d"/c*1)
		printf '%-8s %-16s %10s %10.1f\n' "$n" "compare --rule $rule" "${r% *}" "$(echo "${r#* }" | awk '{print $1/1024}')"
		[ $rule = lkp ] && lkp_ms=${r% *}
	done
	# unite + compare --rule lkp is what lkp's own unite + ncompare do:
	# how much of that pipeline is unite
	awk -v u="$unite_ms" -v c="$lkp_ms" 'BEGIN { printf "         (unite + compare --rule lkp: %.1f ms, unite %.0f%% of it)\n", u + c, 100 * u / (u + c) }'
	rows=$($PERFBOT compare "$d"/c*0 "$d"/c*1 | grep -c '%  ' || true)
	echo "         ($rows changed rows at $n metrics, stat rule)"
done
