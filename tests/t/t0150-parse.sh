#!/bin/sh
# perfbot parse: lkp's parsers through the binary, byte for byte
. ./lib.sh

# lkp's check ignores one trailing newline: $(cat) drops them all, and
# the printf puts exactly one back on both sides


test_expect_success 'every conformance fixture, through the binary' '
	if test_have_conformance; then
		fails=0 n=0 &&
		for dir in "$SHARED"/lkp/stats/*/; do
			name=$(basename "$dir")
			for raw in "$dir"*; do
				case "$raw" in *.yaml) continue;; esac
				[ -f "$raw.yaml" ] || continue
				n=$((n + 1))
				if [ -d "$raw" ]; then
					perfbot parse --result-root "$raw" "$name" </dev/null >got 2>/dev/null || true
				else
					perfbot parse "$name" "$raw" >got 2>/dev/null || true
				fi
				printf "%s\n" "$(cat got)" >a && printf "%s\n" "$(cat "$raw.yaml")" >b &&
				cmp -s a b || { echo "differs: $name/$(basename "$raw")"; fails=$((fails + 1)); }
			done
		done &&
		echo "$n fixtures" && test $n -ge 50 && test $fails -eq 0
	fi
'

test_expect_success 'stdin works like a file' '
	printf "throughput: 12\nnoise\nlatency_us: 3.50\n" >raw &&
	perfbot parse mytest raw >a && perfbot parse mytest <raw >b && test_cmp a b &&
	printf "throughput: 12\nlatency_us: 3.5\n" >expect && test_cmp expect a
'

test_expect_success 'sampled monitors parse their raw files' '
	printf "time: 1700000000\nnr_free_pages 5\npgfault 7\ntime: 1700000001\nnr_free_pages 6\npgfault 9\n" >pv &&
	perfbot parse proc-vmstat pv >out &&
	grep -q "^time: 1700000000$" out && grep -q "^pgfault: 9$" out
'

test_expect_success 'errors: unknown parser exits 2, missing file 1, garbage 1' '
	test_must_fail 2 perfbot parse nosuch </dev/null 2>err && grep -q "unknown parser" err &&
	test_must_fail 1 perfbot parse hackbench /nonexistent 2>err && grep -q "cannot read" err &&
	echo garbage >g && test_must_fail 1 perfbot parse hackbench g 2>err &&
	grep -q "hackbench: g:" err &&
	test_must_fail 2 perfbot parse
'

test_done
