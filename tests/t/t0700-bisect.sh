#!/bin/sh
# perfbot bisect: a real git history, a benchmark whose value comes from
# the checkout, noise, merges, skips, resume after kill -9
. ./lib.sh

# make_repo DIR BAD_INDEX: 16 commits; from commit BAD_INDEX on, VALUE
# drops from 1000 to 850 (-15%); a side branch merged at commit 10.
make_repo() {
	git init -q -b main "$1" && (
	cd "$1" && git config user.name t && git config user.email t@t &&
	i=0 && v=1000 &&
	while [ $i -lt 16 ]; do
		[ $i -eq "$2" ] && v=850
		echo $v >VALUE && echo "line $i" >>LOG && git add VALUE LOG &&
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
			git commit -q -m "commit $i" &&
		if [ $i -eq 6 ]; then
			git checkout -q -b side && echo s >SIDE && git add SIDE &&
			GIT_COMMITTER_DATE="@$((1700000100)) +0000" git commit -q -m "side work" &&
			git checkout -q main
		fi
		if [ $i -eq 10 ]; then
			GIT_COMMITTER_DATE="@$((1700000200)) +0000" git merge -q --no-ff -m "merge side" side
		fi
		i=$((i + 1))
	done
	git tag good "$(git rev-list --max-parents=0 HEAD)" && git tag bad HEAD )
}

# The benchmark: VALUE from the checkout, with +-1% repeatable noise
test_noise_bench "$TRASH/bench.sh" score

cat >"$TRASH/job.yaml" <<'EOF2'
testcase: mytest
vmstat:
EOF2

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
	# new runs only where they must be fresh: the confirmations (past
	# the runs their verdict counted) and the endpoints re-measured
	fresh=$(awk "\$1 == \"verdict\" { v[\$2] = \$4 } \$1 == \"confirm\" { s += \$4 - v[\$2] } END { print s + 0 }" st2) &&
	test "$fresh" -gt 0 &&
	test $((n2 - n1)) -eq $((fresh + 2 * 4)) &&
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
	pid=$! && sleep 1.5 && kill -INT $pid && { wait $pid || echo $? >rc; } &&
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

test_expect_success 'kill -9 then --resume reaches the same answer' '
	make_repo repo 11 && export COUNTER=$(pwd)/counter && export BENCH_SLEEP=0.3 &&
	{ "$PERFBOT" bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >/dev/null 2>&1 & } &&
	pid=$! && sleep 4 && kill -9 $pid && { wait $pid || true; } &&
	! grep -q "^result" st &&
	unset BENCH_SLEEP &&
	perfbot bisect --resume --state st >out 2>err &&
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

test_expect_success 'nothing to bisect when good and bad do not differ' '
	make_repo repo 99 && export COUNTER=$(pwd)/counter &&
	printf "testcase: mytest\nvmstat:\nheartbeat:\n" >j2.yaml &&
	test_must_fail 4 perfbot bisect --repo repo --good good --bad bad --job j2.yaml \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>&1 &&
	grep -q "nothing to bisect" out &&
	test "$(git -C repo worktree list | wc -l)" = 1 &&
	# a monitor perfbot lacks: said once, not once a run
	test "$(cat counter)" -gt 2 &&
	test "$(grep -c "not in perfbot yet: heartbeat" out)" = 1
'

# A noisy benchmark: VALUE +-30% from the same repeatable hash.
cat >"$TRASH/bench-noisy.sh" <<'EOS'
#!/bin/sh
n=$(cat "$COUNTER" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNTER"
v=$(cat "$PERFBOT_BUILD_DIR/VALUE")
h=$((n + 1))
h=$(((((h >> 16) ^ h) * 73244475) & 4294967295))
h=$(((((h >> 16) ^ h) * 73244475) & 4294967295))
noise=$(((((h >> 16) ^ h) % 601) - 300))
echo "score: $((v + noise))"
EOS
chmod +x "$TRASH/bench-noisy.sh"

test_expect_success 'no "nothing to bisect" when the noise could hide the change: exit 6' '
	make_repo repo 99 && export COUNTER=$(pwd)/counter-noisy &&
	test_must_fail 6 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state stn --result-root resn -- "$TRASH/bench-noisy.sh" >out 2>err &&
	! grep -q "^nothing to bisect" out &&
	grep -q "^no answer: mytest.score differs by [-+][0-9.]*% from good to bad (p = [0-9.e-]*), but at a noise of [1-9][0-9]\.[0-9]% a run and [0-9]* runs a side only a change of [0-9.]*% or more could show: a 5% change may be hidden" out &&
	grep -q "^the machine: .*(mean of the endpoints. runs)$" out &&
	grep -q "^what to do: more runs of good and bad" out &&
	test "$(git -C repo worktree list | wc -l)" = 1
'

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

test_expect_success 'says the noise and the runs a verdict needs, and checks the endpoints at the end' '
	make_repo repo7 8 &&
	export COUNTER=$(pwd)/counter7 &&
	perfbot bisect --repo repo7 --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state st7 --result-root res7 -- "$TRASH/bench.sh" >out 2>err &&
	grep -q "^perfbot: mytest.score: -1[45].[0-9]% from good to bad, noise 0.[0-9]% a run: a verdict needs about 1 run a commit; at most 180 runs in all$" err &&
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
	grep -q "^no answer: the budget of 10 runs is spent (10 used; --max-total-runs)\.$" out &&
	grep -q "needs about 1 run a commit for a verdict.  Try --runs 1 --max-total-runs" out &&
	! grep -q "^first bad commit" out &&
	grep -q "^start .* --max-total-runs 10 " st8 &&
	test "$(find res8 -name stats.json | wc -l)" -eq 10 &&
	test_must_fail 2 perfbot bisect --repo repo8 --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --max-total-runs 0 --state st9 -- true
'

# The report names the range as the user did, the short id beside it;
# the start line keeps the names, so --resume says them too.
test_expect_success "the report names good and bad as given: v1 (sha) and v3 (sha)" '
	make_repo named 8 && git -C named tag v1 good && git -C named tag v3 bad &&
	export COUNTER=$(pwd)/counter-named &&
	perfbot bisect --repo named --good v1 --bad v3 --job "$TRASH/job.yaml" \
		--metric mytest.score --state stn --result-root resn -- "$TRASH/bench.sh" >out 2>err &&
	g=$(git -C named rev-parse v1 | cut -c1-10) && b=$(git -C named rev-parse v3 | cut -c1-10) &&
	tr "\n" " " <out | grep -q "between v1 ($g) and v3 ($b)\." &&
	grep -q "^start .* --good-name .v1. --bad-name .v3. " stn &&
	perfbot report --bisect stn >report &&
	tr "\n" " " <report | grep -q "between v1 ($g) and v3 ($b)\." &&
	rm stn.d/bisect.json &&
	perfbot bisect --resume --state stn >out2 2>err2 &&
	tr "\n" " " <out2 | grep -q "between v1 ($g) and v3 ($b)\." &&
	# a sha as given is no name: the range is said by id alone
	perfbot bisect --repo named --good $(git -C named rev-parse v1) --bad v3 --job "$TRASH/job.yaml" \
		--metric mytest.score --state sts --result-root resn -- "$TRASH/bench.sh" >out3 2>err3 &&
	! grep -q -- "--good-name" sts &&
	tr "\n" " " <out3 | grep -q "between $g and v3 ($b)\."
'

# make_drift_repo DIR: 48 commits on a drift of -1% a commit (compounded)
# from 2000, and a -4% step at commit 30: the step is under 1/8 of the
# -40% from good to bad, so only the trend of the verdicts along the
# range (git rev-list's positions) tells it from the drift.
make_drift_repo() {
	git init -q -b main "$1" && (
	cd "$1" && git config user.name t && git config user.email t@t &&
	i=0 &&
	while [ $i -lt 48 ]; do
		awk -v i=$i 'BEGIN { printf "%d\n", 2000 * 0.99 ^ i * (i >= 30 ? 0.96 : 1) }' >VALUE &&
		git add VALUE && git commit -q -m "commit $i" && i=$((i + 1))
	done
	git tag good "$(git rev-list --max-parents=0 HEAD)" && git tag bad HEAD )
}

test_expect_success 'a step on a drift: found by the trend, said to explain part of the change' '
	make_drift_repo drift &&
	export COUNTER=$(pwd)/counter-drift &&
	perfbot bisect --repo drift --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state std --result-root resd -- "$TRASH/bench.sh" >out 2>err &&
	want=$(git -C drift log --format=%H --grep="^commit 30$" bad) &&
	grep -q "^first bad commit: $want (\"commit 30\")" out &&
	! grep -q "^no answer" out &&
	perfbot report --bisect std >report &&
	grep -q "This commit explains -4\.[0-9]% of the -4[0-9]\.[0-9]% from good to" report
'

# The runs log: which worktree each run ran in, one a line.
cat >"$TRASH/bench-log.sh" <<'EOS'
#!/bin/sh
basename "$PERFBOT_BUILD_DIR" >>"$RUNS_LOG"
exec "$TRASH/bench.sh"
EOS
chmod +x "$TRASH/bench-log.sh"

test_expect_success 'the endpoints take turns: good bad good bad, at the start and at the end' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter RUNS_LOG=$(pwd)/runs.log TRASH &&
	rm -f runs.log &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state sti --result-root resi -- "$TRASH/bench-log.sh" >out 2>err &&
	# the endpoints before the first step: never the same side twice in a row
	sed "/^step$/,\$d" runs.log >start &&
	test "$(wc -l <start)" -ge 4 &&
	test "$(head -1 start)" = good &&
	test "$(uniq start | wc -l)" = "$(wc -l <start)" &&
	# the check at the end: the last runs are the endpoints, in turns
	tail -4 runs.log | tr "\n" " " >end &&
	grep -qx "good bad good bad " end
'

test_done
