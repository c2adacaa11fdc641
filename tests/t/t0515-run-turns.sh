#!/bin/sh
# perfbot run over several atomic jobs (a job with `commit: [v1, v2]`, or
# any list): their runs take turns, v1 v2 v1 v2 ..., so that load that
# comes and goes lands on every side.  The order is read from each run's
# perfbot.log (its first line is stamped when the run began).
. ./lib.sh

# "<side> <run>" of every run under res, in the order they began
run_order() {
	for f in res/mytest/*/*/*/*/*/*/*/perfbot.log; do
		echo "$(head -n 1 "$f" | cut -d" " -f1) $f"
	done | sort -n | sed "s|.* res/mytest/\([^/]*\)/[^ ]*/\([^/]*\)/\([0-9]*\)/perfbot.log$|\1 \2 \3|"
}

test_expect_success 'the commits of a job take turns, each its runs united once' '
	printf "testcase: mytest\ncommit:\n- v1\n- v2\n" >job.yaml &&
	perfbot run job.yaml -n 3 -M "" --no-index -r res -- sh -c "echo v: 1" >out 2>err &&
	run_order >order &&
	printf "defaults v1 0\ndefaults v2 0\ndefaults v1 1\ndefaults v2 1\ndefaults v1 2\ndefaults v2 2\n" >expect &&
	test_cmp expect order &&
	# one line an atom, with all its runs
	test $(grep -c ": 3 runs$" out) = 2 &&
	grep -q "/v1: 3 runs$" out && grep -q "/v2: 3 runs$" out &&
	sed -n "/\"mytest.v\": \[/,/\]/p" res/mytest/defaults/*/*/*/*/v1/matrix.json >v &&
	test $(grep -c "^    1,\?$" v) = 3
'

test_expect_success 'three atoms take turns too' '
	printf "testcase: mytest\nmytest:\n  size:\n  - 1\n  - 2\n  - 3\n" >job.yaml &&
	perfbot run job.yaml -n 2 -M "" --no-index -r res -- sh -c "echo v: 1" >out 2>err &&
	run_order | cut -d" " -f1,3 >order &&
	printf "1 0\n2 0\n3 0\n1 1\n2 1\n3 1\n" >expect &&
	test_cmp expect order
'

test_done
