#!/bin/sh
# Run the libFuzzer targets (tests/fuzz/fuzz_*.c, built by `make fuzz`
# into build-fuzz/fuzz/) one after the other, each for FUZZ_SECONDS, and
# print one line per target: executions, executions per second, coverage
# (libFuzzer's edges "cov" and features "ft"), corpus size and crashes.
#
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_TARGETS   which targets (default: all built), e.g. "parse json"
#   FUZZ_MAX_LEN   the longest input libFuzzer makes (default 4096: the
#                  parsers run ~40 inputs a second on 16 KiB, thousands on short)
#   FUZZ_BUILD     the build directory (default build-fuzz)
#   FUZZ_RUNS      at most this many inputs per target, from a fixed
#                  seed (FUZZ_SEED, default 1): make check-full's smoke, so
#                  that CI replays the same inputs on every machine and
#                  FUZZ_SECONDS is only a cap (a slower machine runs a
#                  prefix of the same sequence, never other inputs)
#
# Seeds are copied at each run into $FUZZ_BUILD/seeds/<target>/ from the
# conformance data (../shared/conformance/lkp, when present), tests/data,
# jobs/ and tests/fuzz/seeds/<target>/; what libFuzzer finds stays in
# $FUZZ_BUILD/corpus/<target>/ (kept between runs, never committed), a
# crash in $FUZZ_BUILD/crashes/<target>/.  Exit 1 when any target found
# a crash, a leak or a timeout: each such input is a bug to fix and a
# regression test to add (doc/design/fuzzing.md).
set -u

SECONDS_PER=${FUZZ_SECONDS:-60}
MAX_LEN=${FUZZ_MAX_LEN:-4096}
B=${FUZZ_BUILD:-build-fuzz}
LKP=../shared/conformance/lkp
TARGETS=${FUZZ_TARGETS:-$(cd "$B/fuzz" 2>/dev/null && ls fuzz_* | sed 's/^fuzz_//')}

[ -n "$TARGETS" ] || { echo "perfbot: fuzz: no targets in $B/fuzz (run make fuzz)" >&2; exit 2; }
[ -d "$LKP" ] || echo "fuzz: $LKP absent: seeding from tests/data and jobs/ only" >&2

# seed NAME FILE: copy FILE into the seeds of target NAME (named by its path)
seed() {
	cp "$2" "$B/seeds/$1/$(echo "$2" | tr '/.' '__')"
}
# seed_parser PARSER FILE: FILE prefixed with "PARSER\n" (fuzz_parse.c)
seed_parser() {
	{ echo "$1"; cat "$2"; } >"$B/seeds/parse/$(echo "$2" | tr '/.' '__')"
}

make_seeds() {
	rm -rf "$B/seeds"
	for t in $TARGETS; do
		rm -rf "$B/crashes/$t"
		mkdir -p "$B/seeds/$t" "$CORPUS/$t" "$B/crashes/$t"
		[ -d "tests/fuzz/seeds/$t" ] && cp tests/fuzz/seeds/$t/* "$B/seeds/$t/" 2>/dev/null
	done
	for t in $TARGETS; do
		case $t in
		parse)
			if [ -d "$LKP/stats" ]; then
				for d in "$LKP"/stats/*/; do
					p=$(basename "$d")
					find "$d" -type f ! -name '*.yaml' | while read -r f; do
						seed_parser "$p" "$f"
					done
				done
			fi
			# monitor snapshots, as the sampler writes them
			for m in meminfo softirqs interrupts diskstats slabinfo \
				 proc-vmstat:vmstat proc-stat:stat; do
				f=tests/data/monitor/root/proc/${m#*:}
				[ -f "$f" ] || continue
				{ echo "${m%%:*}"; echo "time: 1700000000.5"; cat "$f"
				  echo "time: 1700000001.5"; cat "$f"; } >"$B/seeds/parse/mon-${m%%:*}"
			done ;;
		job|split)
			for f in jobs/*.yaml tests/data/jobs/*.yaml; do seed "$t" "$f"; done
			if [ -d "$LKP" ]; then
				for f in "$LKP"/split-job/*.yaml; do seed "$t" "$f"; done
				find "$LKP/tree/jobs" -name '*.yaml' | head -40 | while read -r f; do
					seed "$t" "$f"
				done
			fi ;;
		erb)
			find tests/data/jobs -path '*/include/*' -type f | while read -r f; do
				seed erb "$f"
			done
			[ -d "$LKP/tree" ] && grep -rl '<%' "$LKP/tree/include" "$LKP/tree/programs" 2>/dev/null |
				head -40 | while read -r f; do seed erb "$f"; done ;;
		json|matrix)
			find tests/data -name '*.json' | head -40 | while read -r f; do
				seed "$t" "$f"
			done ;;
		esac
	done
}

DETERMINISTIC=
CORPUS=$B/corpus
if [ -n "${FUZZ_RUNS:-}" ]; then
	DETERMINISTIC="-runs=$FUZZ_RUNS -seed=${FUZZ_SEED:-1}"
	# a corpus of its own, emptied: what an earlier run found would
	# change the inputs that follow (make fuzz keeps $B/corpus)
	CORPUS=$B/corpus-smoke
	rm -rf "$CORPUS"
fi
make_seeds
[ -d "$LKP/tree" ] && export PERFBOT_FUZZ_LKP="$(cd "$LKP/tree" && pwd)"

printf '%-8s %10s %8s %7s %7s %6s %8s\n' target execs exec/s cov ft corpus crashes
failed=0
for t in $TARGETS; do
	bin=$B/fuzz/fuzz_$t
	log=$B/fuzz-$t.log
	[ -x "$bin" ] || { echo "perfbot: fuzz: $bin not built" >&2; failed=1; continue; }
	PERFBOT_FUZZ_STATS=$B/fuzz-$t.runs "$bin" -max_total_time="$SECONDS_PER" $DETERMINISTIC \
		-max_len="$MAX_LEN" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
		-print_final_stats=1 -artifact_prefix="$B/crashes/$t/" \
		"$CORPUS/$t" "$B/seeds/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	corp=$(ls "$CORPUS/$t" | wc -l)
	crashes=$(ls "$B/crashes/$t" | wc -l)
	[ "$rc" = 0 ] || [ "$crashes" -gt 0 ] || crashes="rc=$rc"
	printf '%-8s %10s %8s %7s %7s %6s %8s\n' "$t" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}" "${ft:-?}" "$corp" "$crashes"
	if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
		failed=1
		echo "perfbot: fuzz: $t failed (exit $rc); $log says:" >&2
		grep -E 'ERROR|SUMMARY|fuzz: |Test unit written|deadly signal' "$log" | head -8 >&2
	fi
	# fuzz_parse counts the inputs each parser ran
	if [ -s "$B/fuzz-$t.runs" ]; then
		sort -k2 -n -r "$B/fuzz-$t.runs" | awk '{ printf "  %s %s", $1, $2; if (NR % 4 == 0) printf "\n" } END { if (NR % 4) printf "\n" }'
		rm -f "$B/fuzz-$t.runs"
	fi
done
exit $failed
