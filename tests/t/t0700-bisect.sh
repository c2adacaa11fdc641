#!/bin/sh
# perfbot bisect: a real git history with a merge, a benchmark whose
# value comes from the checkout; the runs stored and reused, a wrong
# --metric, Ctrl-C and --reset, usage errors
. ./lib.sh
. ./bisect-lib.sh

test_expect_success 'finds the first bad commit in a history with a merge' '
	make_repo repo 8 &&
	export COUNTER=$(pwd)/counter &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	grep -q "^first bad commit: $want (\"commit 8\")" out &&
	# each verdict said without -v, as git bisect says each step
	grep -q "^perfbot: $(echo $want | cut -c1-12) (\"commit 8\"): bad after [0-9]* runs\? (mean " err &&
	# the final pair re-measured says so, apart from the search steps
	grep -q "^perfbot: confirming $(echo $want | cut -c1-12) (\"commit 8\"): bad after [0-9]* runs\? (mean " err &&
	grep -q "^perfbot: confirming [0-9a-f]\{12\} (\"commit 7\"): good after " err &&
	grep -q "mytest.score" out &&
	grep -q "each point below represents a sample run" out &&
	grep -q "^        perfbot run $TRASH/job.yaml --commit [0-9a-f]* --result-root $(pwd -P)/res$" out &&
	grep -q "^        perfbot bisect --repo $(pwd -P)/repo --good [0-9a-f]* --bad [0-9a-f]* --job $TRASH/job.yaml --metric mytest.score --state $(pwd -P)/st --result-root $(pwd -P)/res -- $TRASH/bench.sh$" out &&
	grep -q "^result $want" st &&
	test -f st.d/bisect.json &&
	test -z "$(git -C repo status --porcelain)" &&
	! test -f repo/.git/BISECT_LOG &&
	# an answer leaves no worktree registered in the repository
	test "$(git -C repo worktree list | wc -l)" = 1 &&
	! test -e st.d/step
'

test_expect_success 'runs are stored under each commit and reused on a second bisect' '
	make_repo repo 5 && export COUNTER=$(pwd)/counter &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>&1 &&
	n1=$(cat counter) &&
	test -d res/mytest/*/*/*/*/*/$(git -C repo rev-parse good)/0 &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st2 --result-root res -- "$TRASH/bench.sh" >out2 2>&1 &&
	n2=$(cat counter) &&
	# no new run: each verdict counts the first runs that give one, as
	# the first bisect did, and its confirmation the runs after them
	# (fresh to the verdict); the endpoints are not run again, since the
	# bisect ran nothing whose noise they would check
	test "$n2" = "$n1" &&
	# the same verdicts; the second made no turns, and its endpoints
	# are all the runs it found
	grep "^verdict \|^confirm \|^result " st >a &&
	grep "^verdict \|^confirm \|^result " st2 >b && test_cmp a b &&
	grep -q "^endpoints 4 4$" st && grep -q "^endpoints 22 22$" st2 && ! grep -q "^turn " st2 &&
	good=$(git -C repo rev-parse good) &&
	# the endpoints: 8 runs before the search and one in each of the
	# 14 turns of the steps (2 + 2 + 2 + 2, confirmations 3 + 3)
	grep "^perfbot: reusing 22 runs of $(echo $good | cut -c1-12) from $(pwd -P)/res/mytest/.*/$good$" out2 &&
	grep "^perfbot: every run counted was in the result tree already: the endpoints are not run again$" out2 &&
	! grep "^perfbot: every run counted" out &&
	grep "^first bad commit" out >a && grep "^first bad commit" out2 >b && test_cmp a b &&
	# a finished state: a new bisect says what it is and what to do
	first=$(grep "^result " st | cut -d" " -f2) &&
	test_must_fail 1 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out3 2>err3 &&
	grep -q "^perfbot: a bisect state is already at $(pwd -P)/st (finished: first bad commit $first); use --resume to see it or --reset to start over$" err3 &&
	test "$(cat counter)" = "$n2" &&
	perfbot bisect --reset --state st 2>err4 &&
	! test -e st && ! test -e st.d && test -e st2 &&
	perfbot bisect --reset --state st 2>err5 &&
	grep -q "nothing to reset" err5
'

# A misspelt --metric costs one run (of good), or none when good has
# runs stored: the closest names of their stats are named, exit 2.
test_expect_success 'a wrong --metric fails after one run, naming the closest names' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter &&
	test_must_fail 2 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.scor --state st --result-root res -- "$TRASH/bench.sh" >out 2>err &&
	test "$(cat counter)" = 1 &&
	grep -q "^perfbot: --metric .mytest.scor. is not in the stats of good [0-9a-f]\{12\} (did you mean .mytest.score.?)$" err &&
	test "$(grep -v "^perfbot: endpoints: " err | wc -l)" = 1 &&
	! test -e st && ! test -e st.d &&
	test "$(git -C repo worktree list | wc -l)" = 1 &&
	test_must_fail 2 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric score --state st --result-root res -- "$TRASH/bench.sh" >out2 2>err2 &&
	test "$(cat counter)" = 1 &&
	grep -q "^perfbot: --metric .score. is not in the stats of good [0-9a-f]\{12\} (did you mean .mytest.score." err2
'

# Ctrl-C mid-run: "interrupted" once, nothing about the killed
# benchmark (its half output is not parsed); the state stays for
# --resume, a new bisect over it says so, --reset removes it all.
test_expect_success 'Ctrl-C says interrupted once; --reset removes the state and its worktrees' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter && export BENCH_SLEEP=3 &&
	{ "$PERFBOT" bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>err & } &&
	pid=$! && test_wait_for test -s counter && kill -INT $pid && { wait $pid || echo $? >rc; } &&
	test "$(cat rc)" = 130 &&
	test "$(grep -c interrupted err)" = 1 &&
	grep -q "^perfbot: interrupted: continue with .perfbot bisect --resume --state $(pwd -P)/st.$" err &&
	! grep -q "no .name: number. lines" err &&
	test "$(git -C repo worktree list | wc -l)" -gt 1 &&
	unset BENCH_SLEEP &&
	test_must_fail 1 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out2 2>err2 &&
	grep -q "^perfbot: a bisect state is already at $(pwd -P)/st (unfinished: 0 verdicts); use --resume to continue it or --reset to start over$" err2 &&
	perfbot bisect --reset --state st 2>err3 &&
	grep -q "^perfbot: removed the bisect state $(pwd -P)/st and $(pwd -P)/st.d$" err3 &&
	! test -e st && ! test -e st.d &&
	test "$(git -C repo worktree list | wc -l)" = 1 &&
	test_must_fail 2 perfbot bisect --reset --resume --state st
'

test_expect_success 'usage and state errors' '
	test_must_fail 2 perfbot bisect --repo x &&
	test_must_fail 1 perfbot bisect --resume --state nonexistent 2>err &&
	grep -q "no bisect to resume" err &&
	echo "garbage" >badstate &&
	test_must_fail 1 perfbot bisect --resume --state badstate 2>err &&
	grep -q "badstate:1: expected a .start. line" err &&
	make_repo repo 3 &&
	test_must_fail 1 perfbot bisect --repo repo --good nosuch --bad bad --job "$TRASH/job.yaml" \
		--metric m --state st3 --result-root res -- true 2>err &&
	grep -q "unknown revision .nosuch." err &&
	# a kernel bisect builds and boots here: not with --build, not in the lab
	test_must_fail 2 perfbot bisect --kernel-tree repo --good good --bad bad --build true \
		--job "$TRASH/job.yaml" --metric m --state st4 --result-root res 2>err &&
	grep -q "kernel-tree builds each commit itself: drop --build" err &&
	test_must_fail 1 perfbot bisect --kernel-tree repo --good good --bad bad \
		--db postgresql://nowhere/lab --job "$TRASH/job.yaml" --metric m \
		--state st4 --result-root res 2>err &&
	grep -q "kernel-tree runs here, not in the lab: drop --db postgresql://nowhere/lab" err &&
	! test -e st4 &&
	# --kernel is run.s (a kernel to boot), no abbreviation of --kernel-tree
	for k in "--kernel repo" --kernel=repo "--kern repo"; do
		test_must_fail 2 perfbot bisect $k --good good --bad bad \
			--job "$TRASH/job.yaml" --metric m --state st5 --result-root res 2>err &&
		grep -q "bisect has no --kernel: did you mean --kernel-tree?" err || exit 1
	done &&
	! test -e st5
'

test_expect_success 'a kernel bisect s VM options: checked, need --kernel-tree, kept in the log' '
	export PERFBOT_KERNEL_CACHE=$(pwd)/kcache &&
	make_repo repo 3 &&
	for o in "--accel tcg" "--boot-timeout 60" "--cpus 2" "--mem 2G" "--numa 2"; do
		test_must_fail 2 perfbot bisect --repo repo --good good --bad bad $o \
			--job "$TRASH/job.yaml" --metric m --state st6 --result-root res 2>err &&
		grep -q "^perfbot: ${o%% *} sets the VM a kernel boots in: it needs --kernel-tree$" err || exit 1
	done &&
	test_must_fail 2 perfbot bisect --kernel-tree repo --good good --bad bad --numa 17 \
		--job "$TRASH/job.yaml" --metric m --state st6 --result-root res 2>err &&
	grep -q "^perfbot: --numa expects a number from 1 to 16, got .17.$" err &&
	test_must_fail 2 perfbot bisect --kernel-tree repo --good good --bad bad --accel fast \
		--job "$TRASH/job.yaml" --metric m --state st6 --result-root res 2>err &&
	grep -q "^perfbot: --accel expects auto, icount, tcg or kvm, got .fast.$" err &&
	! test -e st6 &&
	# the tree has no Makefile: the bad endpoint does not build, but the
	# log is written first, with the VM that --resume boots
	test_must_fail 1 perfbot bisect --kernel-tree repo --good good --bad bad --accel tcg \
		--numa 2 --mem 2G --cpus 3 --boot-timeout 90 --job "$TRASH/job.yaml" --metric m \
		--state st6 --result-root res 2>err &&
	grep -q "the bad endpoint does not build" err &&
	grep -q "^start .* --kernel-tree .* --config .tiny. --accel tcg --boot-timeout 90 --cpus 3 --mem 2G --numa 2 --runs " st6 &&
	test_must_fail 2 perfbot bisect --resume --state st6 --numa 4 2>err &&
	grep -q "^perfbot: --numa: --resume takes the VM of the bisect.s log, not a new one$" err &&
	sed "s/--numa 2/--numa 99/" st6 >st6.bad &&
	test_must_fail 1 perfbot bisect --resume --state st6.bad 2>err &&
	grep -q "st6.bad:2: the VM option .--numa 99. is not valid" err
'

test_done
