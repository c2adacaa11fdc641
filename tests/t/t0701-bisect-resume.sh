#!/bin/sh
# perfbot bisect --resume: after kill -9, a torn state line, a
# reversed verdict, a replayed log
# e2e: early (one of the longest scripts: started first in the pool)
. ./lib.sh
. ./bisect-lib.sh

test_expect_success 'kill -9 then --resume reaches the same answer' '
	make_repo repo 11 && export COUNTER=$(pwd)/counter && export BENCH_SLEEP=0.3 &&
	{ "$PERFBOT" bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >/dev/null 2>&1 & } &&
	pid=$! && test_wait_for grep -q "^verdict " st && kill -9 $pid && { wait $pid || true; } &&
	! grep -q "^result" st &&
	unset BENCH_SLEEP &&
	{ perfbot bisect --resume --state st >out 2>err || { cat err; false; }; } &&
	want=$(git -C repo log --format=%H --grep="^commit 11$" bad) &&
	grep -q "^first bad commit: $want" out
'

# A crash mid-write leaves a last line without its newline: --resume
# ignores it rather than trust half a record.
test_expect_success 'a torn last line of the state is not replayed' '
	make_repo repo 5 && export COUNTER=$(pwd)/counter &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>&1 &&
	want=$(git -C repo log --format=%H --grep="^commit 5$" bad) &&
	other=$(git -C repo log --format=%H --grep="^commit 9$" bad) &&
	sed -n "1,2p" st >st2 &&
	printf "result %s" "$other" >>st2 &&
	perfbot bisect --resume --state st2 >out2 2>err2 &&
	grep -q "^first bad commit: $want" out2 &&
	grep -q "^result $want$" st2
'

# A confirmation that reverses a verdict is one measurement against
# another: the commit is confirmed again when it is at the edge, and the
# verdict stands once two agree.  Here a replayed confirm line calls the
# last good commit bad; resumed, the runner measures it afresh (good,
# reversed again) and once more (good, agreed), and ends at the real step.
test_expect_success 'a reversed verdict is confirmed again, also after --resume' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>&1 &&
	seven=$(git -C repo log --format=%H --grep="^commit 7$" bad) &&
	n=$(awk -v c=$seven "\$1 == \"verdict\" && \$2 == c { print \$4 }" st) &&
	test -n "$n" &&
	sed "/^confirm /,\$d" st >st3 &&
	echo "confirm $seven bad $n" >>st3 &&
	perfbot bisect --resume --state st3 >out3 2>err3 &&
	want=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	grep -q "^first bad commit: $want" out3 &&
	test "$(grep -c "^confirm $seven " st3)" -eq 3 &&
	grep "^confirm $seven " st3 | tail -2 | cut -d" " -f3 >verdicts &&
	printf "good\ngood\n" >expect && test_cmp expect verdicts
'

# git bisect keeps one bad commit, the last it was told; a log where a bad
# verdict on commit 10 follows one on its ancestor, commit 8 (as after a
# confirmation that found an early commit bad), must not make git forget
# commit 8 and propose it, or commit 9 past it, again.
test_expect_success 'the earliest bad verdict bounds the search when the log is replayed' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter &&
	c8=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	c9=$(git -C repo log --format=%H --grep="^commit 9$" bad) &&
	c10=$(git -C repo log --format=%H --grep="^commit 10$" bad) &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	sed -n "1,2p" st >st2 &&
	echo "verdict $c8 bad 0" >>st2 && echo "verdict $c10 bad 0" >>st2 &&
	perfbot bisect --resume --state st2 >out2 2>err2 &&
	grep -q "^first bad commit: $c8" out2 &&
	test "$(grep -c "^verdict $c8 " st2)" -eq 1 &&
	! grep -q "^verdict $c9 " st2
'

test_done
