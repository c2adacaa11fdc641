#!/bin/sh
# perfbot bisect on a machine whose speed drifts: a step's runs take
# turns with both endpoints' (good, step, bad), the step is judged on
# the endpoints' level of its own turns, a deterministic benchmark runs
# unpaired, and only commits the noise left undecided are no answer
# (exit 6).
# Every benchmark here is repeatable: its drift and noise come from the
# run counter, not from the machine.
# e2e: early (one of the longest scripts: started first in the pool)
. ./lib.sh
. ./bisect-lib.sh

# bench-drift.sh: lib.sh's noise bench, with $DRIFT and $QUIET_BENCH
test_noise_bench "$TRASH/bench-drift.sh" score
# bench-kill.sh: the same, but run number $KILL_AT (from 0) kills the
# perfbot that started it (the eldest of its perfbot ancestors) with -9
# instead, once
cat >"$TRASH/bench-kill.sh" <<\EOF
#!/bin/sh
n=$(cat "$COUNTER" 2>/dev/null || echo 0)
if [ "$n" = "${KILL_AT:-}" ] && [ ! -e "$COUNTER.killed" ]; then
	: >"$COUNTER.killed"
	p=$$ top=
	while [ "$p" -gt 1 ]; do
		p=$(awk "{ print \$4 }" "/proc/$p/stat")
		[ "$(cat "/proc/$p/comm")" = perfbot ] && top=$p
	done
	[ -n "$top" ] && kill -9 "$top"
	exit 1
fi
exec "$(dirname "$0")/bench-drift.sh"
EOF
chmod +x "$TRASH/bench-kill.sh"

# turns RUNLOG GOOD BAD: every run of a commit other than the endpoints
# has a run of good just before it and one of bad just after it
turns() {
	awk -v g="$2" -v b="$3" '{ l[NR] = $0 }
		END { for (i = 1; i <= NR; i++) if (l[i] != g && l[i] != b) {
			n++; if (l[i - 1] != g || l[i + 1] != b) off++ }
		      exit !(n > 0 && off == 0) }' "$1"
}

test_expect_success 'a step runs in turns with both endpoints: good, step, bad' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter RUNLOG=$(pwd)/runlog &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench-drift.sh" >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	grep -q "^first bad commit: $want" out &&
	turns runlog "$(git -C repo rev-parse good)" "$(git -C repo rev-parse bad)"
'

# 0.8% faster a run: unpaired, the endpoints re-measured at the end have
# moved far past half the change, and the answer is not to be trusted
# (exit 6); paired, every verdict took the levels of its own turns
test_expect_success 'a machine that speeds up as the bisect goes: the right commit, trusted' '
	make_repo repo 11 && export COUNTER=$(pwd)/counter-d RUNLOG=$(pwd)/runlog-d DRIFT=8 &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state std --result-root resd -- "$TRASH/bench-drift.sh" >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 11$" bad) &&
	grep -q "^first bad commit: $want" out &&
	! grep -q "noise moved" out &&
	# the endpoints did move: their runs at the end against the start
	grep -q "\"good_move\": 0\.[2-9]" std.d/bisect.json
'

# The bisect above again, killed with -9 in the middle of a turn of its
# second step (the run of the step between the good endpoint's and the
# bad's), then resumed.  The log kept how many runs made the endpoints'
# level (its "endpoints" line; the rest are the turns' and the
# recheck's) and the level of each paired run's turn ("turn" lines), so
# the resumed bisect judges the runs it finds in the result tree, made
# in turns on a drifting machine, as the whole one did: its second
# verdict sees the same pools, and the answer is the same.
test_expect_success 'killed mid-turn and resumed, the drifting bisect judges as before' '
	make_repo repo 11 && export COUNTER=$(pwd)/counter RUNLOG=$(pwd)/runlog DRIFT=8 &&
	grep -q "^endpoints 4 4$" ../2/std &&
	grep -q "^turn [0-9a-f]* 0 [0-9.]*$" ../2/std &&
	second=$(grep "^verdict " ../2/std | sed -n "2s/^verdict \\([0-9a-f]*\\) .*/\\1/p") &&
	test -n "$second" &&
	at=$(grep -n "^$second$" ../2/runlog-d | sed -n "2s/:.*//p") &&
	test_must_fail 137 env KILL_AT=$((at - 1)) "$PERFBOT" bisect --repo repo --good good --bad bad \
		--job "$TRASH/job.yaml" --metric mytest.score --state st --result-root res \
		-- "$TRASH/bench-kill.sh" >out 2>err &&
	grep -q "^turn $second 0 " st && ! grep -q "^turn $second 1 " st &&
	perfbot bisect --resume --state st >out2 2>err2 &&
	short=$(echo $second | cut -c1-12) &&
	grep "^perfbot: $short " ../2/err | head -n 1 | sed "s/.*; good/good/" >pools &&
	grep "^perfbot: $short " err2 | head -n 1 | sed "s/.*; good/good/" >pools2 &&
	test -s pools && test_cmp pools pools2 &&
	# its run before the crash counts on the level of its turn too: the
	# step, a good commit, is within 2% of the good pool (raw, that run
	# would be some 12% above it, with the drift)
	grep "^perfbot: $short " err2 | head -n 1 |
		sed "s/.*(mean \([0-9.e+]*\); good \([0-9.e+]*\),.*/\1 \2/" >level &&
	awk "{ d = \$1 / \$2 - 1; exit !(d > -0.02 && d < 0.02) }" level &&
	want=$(git -C repo log --format=%H --grep="^commit 11$" bad) &&
	grep -q "^first bad commit: $want" out2
'

test_expect_success 'a bad turn or endpoints line in the log: the file, the line, what was wanted' '
	cd ../2 &&
	n=$(grep -n "^turn " std | sed -n "1s/:.*//p") &&
	sed "${n}s/^turn \([0-9a-f]*\) 0 .*/turn \1 0 fast/" std >stt &&
	test_must_fail 1 perfbot bisect --resume --state stt >out3 2>err3 &&
	grep -q "^perfbot: .*/stt:$n: expected .verdict., .confirm., .turn., .endpoints. or .result., got .turn [0-9a-f]* 0 fast.$" err3 &&
	sed "s/^endpoints 4 4$/endpoints 40 4/" std >ste &&
	test_must_fail 1 perfbot bisect --resume --state ste >out4 2>err4 &&
	grep -q "^perfbot: .*/ste: the log says the endpoints had 40 and 4 runs; the result tree has 2[0-9] and 2[0-9]: were runs removed?$" err4
'

test_expect_success 'a deterministic benchmark (noise at the floor) runs unpaired' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter-q RUNLOG=$(pwd)/runlog-q QUIET_BENCH=1 &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state stq --result-root resq -- "$TRASH/bench-drift.sh" >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	grep -q "^first bad commit: $want" out &&
	! turns runlog-q "$(git -C repo rev-parse good)" "$(git -C repo rev-parse bad)"
'

# Only skipped commits left: commit 8 (the first bad one) skipped as
# the search skips a commit the noise leaves undecided at --max-runs,
# its neighbours judged; the log says so, as a bisect that met that
# noise would have written it.  The rest is measured as ever.
test_expect_success 'only commits the noise left undecided: exit 6, the machine, what to do' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter-n &&
	c7=$(git -C repo log --format=%H --grep="^commit 7$" bad) &&
	c8=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	c9=$(git -C repo log --format=%H --grep="^commit 9$" bad) &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state stn --result-root resn -- "$TRASH/bench-drift.sh" >out 2>err &&
	sed -n "1,2p" stn >st2 &&
	echo "verdict $c7 good 0" >>st2 && echo "verdict $c8 skip 4" >>st2 &&
	echo "# skip $c8: no verdict after 4 runs" >>st2 && echo "verdict $c9 bad 0" >>st2 &&
	cp st2 st3 &&
	test_must_fail 6 perfbot bisect --resume --state st2 >out2 2>err2 &&
	grep -q "^only skipped commits are left; the first bad commit is one of:$" out2 &&
	grep -q "^$c8$" out2 && grep -q "^$c9$" out2 &&
	grep -q "^confirm $c9 bad [0-9]*$" st2 &&
	grep -q "^no answer: only skipped commits are left, and the noise left each of them undecided after --max-runs 32 runs (none failed to build or run)" out2 &&
	grep -q "^At this noise" out2 &&
	grep -q "^the machine: .*(mean of the endpoints. runs)$" out2 &&
	# the same list, commit 8 skipped for its build: exit 5, as before
	sed -i "s/^# skip $c8: .*/# skip $c8: does not build (see build.log)/" st3 &&
	test_must_fail 5 perfbot bisect --resume --state st3 >out3 2>err3 &&
	grep -q "^$c8$" out3 && ! grep -q "^no answer" out3
'

test_done
