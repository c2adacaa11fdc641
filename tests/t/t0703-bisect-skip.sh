#!/bin/sh
# perfbot bisect --build: commits that do not build are skipped
# e2e: early (one of the longest scripts: started first in the pool)
. ./lib.sh
. ./bisect-lib.sh

# The first bad commit itself does not build: skipped, git bisect can only
# say it is one of two.  Measuring it anyway (ignoring the failure) would
# name it; taking it as good would name its child.
test_expect_success 'a failing build skips the commit' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter &&
	c8=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	c9=$(git -C repo log --format=%H --grep="^commit 9$" bad) &&
	test_must_fail 5 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--build "echo building; test \$(git rev-parse HEAD) != $c8" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	grep -q "^only skipped commits are left; the first bad commit is one of:$" out &&
	grep -q "^$c8$" out && grep -q "^$c9$" out &&
	! grep -q "^first bad commit" out &&
	grep -q "^verdict $c8 skip [0-9]*$" st &&
	! grep -q "^verdict $c8 \(good\|bad\)" st &&
	grep -q "^verdict $c9 bad " st &&
	! grep -q "^result" st &&
	c8s=$(echo $c8 | cut -c1-12) &&
	grep -q "build of $c8s failed (see .*st.d/build-$c8s.log): skipping it" err &&
	grep -q "^building$" st.d/build-$c8s.log &&
	grep -q "^# skip $c8: does not build (see .*st.d/build-$c8s.log)$" st &&
	! test -d res/mytest/*/*/*/*/*/$c8
'

# With only skipped commits left, the commits bounding them are the final
# pair and are confirmed as such: a wrong verdict ends at the edge of the
# skipped ones as it would at the first bad commit.  Here the log calls
# commit 5 bad (it is good) and commit 4 does not build.
test_expect_success 'only skipped commits left: their bounds are confirmed first' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter &&
	c3=$(git -C repo log --format=%H --grep="^commit 3$" bad) &&
	c4=$(git -C repo log --format=%H --grep="^commit 4$" bad) &&
	c5=$(git -C repo log --format=%H --grep="^commit 5$" bad) &&
	c8=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--build "test \$(git rev-parse HEAD) != $c4" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	sed -n "1,2p" st >st2 &&
	echo "verdict $c3 good 0" >>st2 && echo "verdict $c5 bad 0" >>st2 &&
	perfbot bisect --resume --state st2 >out2 2>err2 &&
	grep -q "^verdict $c4 skip 0$" st2 &&
	grep -q "^confirm $c5 good [0-9]*$" st2 &&
	grep -q "^first bad commit: $c8" out2 &&
	! grep -q "only skipped commits are left" out2
'

# A confirmation reverses a verdict, and git, told the verdicts again,
# has only skipped commits left (it exits non-zero saying so): an answer,
# exit 5, not an error.  Here the log calls commit 9 good (it is bad) and
# commit 8 does not build; the search ends at commit 10, whose parent 9
# is confirmed bad.
test_expect_success 'only skipped commits left after a reversed verdict: exit 5, not an error' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter &&
	c7=$(git -C repo log --format=%H --grep="^commit 7$" bad) &&
	c8=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	c9=$(git -C repo log --format=%H --grep="^commit 9$" bad) &&
	test_must_fail 5 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--build "test \$(git rev-parse HEAD) != $c8" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	sed -n "1,2p" st >st2 &&
	echo "verdict $c7 good 0" >>st2 && echo "verdict $c8 skip 0" >>st2 &&
	echo "verdict $c9 good 0" >>st2 &&
	test_must_fail 5 perfbot bisect --resume --state st2 >out2 2>err2 &&
	grep -q "^confirm $c9 bad [0-9]*$" st2 &&
	grep -q "^only skipped commits are left; the first bad commit is one of:$" out2 &&
	grep -q "^$c8$" out2 && grep -q "^$c9$" out2 &&
	! grep -q "failed" err2
'

test_expect_success 'a skipped commit: its reason in the log and the report, also after --resume' '
	make_repo repo 12 && export COUNTER=$(pwd)/counter &&
	mid=$(git -C repo rev-list --bisect good..bad) && mids=$(echo $mid | cut -c1-12) &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--build "test \$(git rev-parse HEAD) != $mid" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 12$" bad) &&
	grep -q "^first bad commit: $want" out &&
	grep -q "^verdict $mid skip " st &&
	grep -q "^# skip $mid: does not build (see .*st.d/build-$mids.log)$" st &&
	grep -q "^The bisect skipped these commits:$" out &&
	grep -q "^  $mids (\"commit [0-9]*\"): does not build (see .*build-$mids.log)$" out &&
	perfbot bisect --resume --state st >out2 2>err2 &&
	grep -q "^  $mids (\"commit [0-9]*\"): does not build (see " out2 &&
	# the state and its worktrees removed by hand: the same bisect again
	rm -rf st st.d &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--build "test \$(git rev-parse HEAD) != $mid" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out3 2>err3 &&
	grep -q "^first bad commit: $want" out3
'

test_done
