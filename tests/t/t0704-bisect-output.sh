#!/bin/sh
# perfbot bisect: what it says (noise, steps, -v, -q), where it keeps
# its state, the --max-total-runs budget
. ./lib.sh
. ./bisect-lib.sh

test_expect_success 'says the noise and the runs a verdict needs, and checks the endpoints at the end' '
	make_repo repo7 8 &&
	export COUNTER=$(pwd)/counter7 &&
	perfbot bisect --repo repo7 --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st7 --result-root res7 -- "$TRASH/bench.sh" >out 2>err &&
	grep -q "^perfbot: mytest.score: -1[45].[0-9]% from good to bad (means of their runs), noise 0.[0-9]% a run: a verdict needs about 1 run a commit; at most 720 runs in all$" err &&
	grep -q "\"runs_needed\": 1" st7.d/bisect.json &&
	grep -q "\"noise_moved\": false" st7.d/bisect.json &&
	grep -q "\"step_shift\": -0.1[45]" st7.d/bisect.json
'

test_expect_success 'says each step; the state in the git dir by default; -v kept for --resume' '
	make_repo repo 5 && export COUNTER=$(pwd)/counter &&
	mkdir cwd && cd cwd &&
	perfbot bisect -v --repo ../repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --result-root ../res -- "$TRASH/bench.sh" >out 2>err &&
	cd .. &&
	test -z "$(ls -A cwd | grep -v "^out$" | grep -v "^err$")" &&
	st=repo/.git/perfbot-bisect/state &&
	grep -q "^result " $st && test -f $st.d/bisect.json &&
	grep -q "^start .* --verbose 1" $st &&
	grep -q "^perfbot: endpoints: good [0-9a-f]\{12\}: 0 runs; bad [0-9a-f]\{12\}: 0 runs; measuring [0-9]* more of good, [0-9]* of bad$" cwd/err &&
	grep -q "^perfbot: endpoints: good [0-9a-f]\{12\}: [1-9][0-9]* runs, mean [0-9.]*, noise [0-9.]*%; bad" cwd/err &&
	grep -q "^perfbot: [0-9a-f]\{12\} (\"commit [0-9]*\"): good after [0-9]* runs\? (mean " cwd/err &&
	grep -q "^perfbot: [0-9a-f]\{12\} (\"commit [0-9]*\"): bad after [0-9]* runs\? (mean " cwd/err &&
	grep -q "^bisect state: $(pwd -P)/repo/.git/perfbot-bisect/state " cwd/out &&
	(cd repo && perfbot bisect --resume) >out2 2>err2 &&
	grep -q "^first bad commit: $(git -C repo log --format=%H --grep="^commit 5$" bad) " out2 &&
	test_must_fail 2 perfbot bisect --resume 2>err3 &&
	grep -q "no --state, and .\.. is no git repository to keep the bisect in (resume in the repository, or give --state)" err3
'

test_expect_success '-q: no progress lines, the result still printed' '
	make_repo repo 5 && export COUNTER=$(pwd)/counter &&
	perfbot bisect -q --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	grep -q "^first bad commit: " out &&
	! grep -q "endpoints:" err && ! grep -q " after [0-9]* run" err &&
	! grep -q -- "--verbose" st
'

test_expect_success 'gives up within --max-total-runs, saying what to try' '
	make_repo repo8 8 &&
	export COUNTER=$(pwd)/counter8 &&
	test_must_fail 6 perfbot bisect --repo repo8 --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --max-total-runs 10 --state st8 --result-root res8 \
		-- "$TRASH/bench.sh" >out 2>err &&
	# the endpoints 8 runs, then a first step of 2 turns would pass 10
	grep -q "^no answer: the budget of 10 runs is spent (8 used; --max-total-runs)\.$" out &&
	grep -q "needs about 1 run a commit for a verdict.  Try --runs 1 --max-total-runs 717," out &&
	! grep -q "^first bad commit" out &&
	grep -q "^start .* --max-total-runs 10 " st8 &&
	test "$(find res8 -name stats.json | wc -l)" -eq 8 &&
	test_must_fail 2 perfbot bisect --repo repo8 --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --max-total-runs 0 --state st9 -- true
'

test_done
