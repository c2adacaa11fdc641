#!/bin/sh
# measure: instructions -- each run also counts the benchmark's
# instructions under valgrind's cachegrind (<testcase>.instructions): the
# same code gives the same count on a busy machine, so a bisect on it
# finds a change of a few percent that the clock would drown.
# e2e: early (one of the longest scripts: started first in the pool)
. ./lib.sh

test_have valgrind || { test_done; exit 0; }

# The benchmark: a shell loop of VALUE iterations ($PERFBOT_BUILD_DIR's,
# else 1000), one process (valgrind's start costs more than the loop);
# with FAIL_UNDER_VALGRIND set it fails where valgrind preloads itself
# (the count run only).
cat >"$TRASH/bench.sh" <<'EOF2'
#!/bin/sh
case "${FAIL_UNDER_VALGRIND:-}:${LD_PRELOAD:-}" in 1:*vgpreload*) echo "planted failure" >&2; exit 3 ;; esac
n=1000
[ -f "${PERFBOT_BUILD_DIR:-}/VALUE" ] && read n <"$PERFBOT_BUILD_DIR/VALUE"
i=0
while [ $i -lt $n ]; do i=$((i + 1)); done
echo "loops: $i"
EOF2
chmod +x "$TRASH/bench.sh"

cat >"$TRASH/job.yaml" <<'EOF2'
testcase: mytest
measure: instructions
EOF2

test_expect_success 'each run has <testcase>.instructions beside the wall clock, the same in every run' '
	perfbot run "$TRASH/job.yaml" -n 3 -M "" --no-index -r res -- "$TRASH/bench.sh" >out 2>err &&
	for k in 0 1 2; do
		s=$(echo res/mytest/*/*/*/*/*/*/$k/stats.json) &&
		grep "\"mytest.instructions\": [1-9][0-9]*,$" "$s" | sed "s/,$//" >>counts &&
		grep -q "\"mytest.loops\": 1000," "$s" &&
		grep -q "\"time.elapsed_time\": " "$s" &&
		ls $(dirname "$s")/cachegrind/cachegrind.out.* >/dev/null &&
		grep -q "counted [0-9]* instructions in [0-9]* process" $(dirname "$s")/perfbot.log || exit 1
	done &&
	test $(wc -l <counts) = 3 &&
	# exact: the same code, the same environment, the same count
	test $(sort -u counts | wc -l) = 1 &&
	# the timed run is not valgrind s: the loop ran twice a run
	grep -c "^loops: 1000$" res/mytest/*/*/*/*/*/*/0/mytest >n && test "$(cat n)" = 1 &&
	grep -q "^loops: 1000$" res/mytest/*/*/*/*/*/*/0/cachegrind/stdout
'

# The count depends on the environment's size, and PERFBOT_RUN_DIR is
# ".run-K.<pid>": run 10's name is longer than run 9's, a new perfbot's
# pid may be too.
test_expect_success 'run 10, by another perfbot, counts what run 0 counted' '
	perfbot run "$TRASH/job.yaml" -M "" --no-index -r exact -- "$TRASH/bench.sh" >out 2>err &&
	rr=$(dirname exact/mytest/*/*/*/*/*/*/0) &&
	for k in 1 2 3 4 5 6 7 8 9; do cp -R "$rr/0" "$rr/$k" || exit 1; done &&
	perfbot run "$TRASH/job.yaml" -M "" --no-index -r exact -- "$TRASH/bench.sh" >out 2>err &&
	grep -q "setup in .*/\.run-10\." "$rr/10/perfbot.log" &&
	grep "\"mytest.instructions\": " "$rr/0/stats.json" >c0 &&
	grep "\"mytest.instructions\": " "$rr/10/stats.json" >c10 &&
	test_cmp c0 c10
'

test_expect_success 'a count that fails marks the run incomplete, saying why' '
	FAIL_UNDER_VALGRIND=1 test_must_fail 1 perfbot run "$TRASH/job.yaml" -M "" --no-index -r res \
		-- "$TRASH/bench.sh" >out 2>err &&
	grep -q "perfbot: mytest: the count of instructions under cachegrind failed (run 1/1): the benchmark under valgrind failed (see .*/cachegrind)" err &&
	grep -q "^reason: the count of instructions under cachegrind failed$" res/mytest/*/*/*/*/*/*/0/last_state &&
	grep -q "planted failure" res/mytest/*/*/*/*/*/*/0/cachegrind/stderr &&
	! grep -q "mytest.instructions" res/mytest/*/*/*/*/*/*/0/stats.json
'

test_expect_success 'measure: a bad value, or no valgrind, is refused before any run' '
	printf "testcase: mytest\nmeasure: cycles\n" >bad.yaml &&
	test_must_fail 1 perfbot run bad.yaml -M "" --no-index -r res -- true 2>err &&
	grep -q "bad.yaml:2:10: .measure. expected time or instructions, got .cycles." err &&
	printf "testcase: mytest\nmeasure: time\n" >time.yaml &&
	perfbot run time.yaml -M "" --no-index -r res -- "$TRASH/bench.sh" >out 2>err &&
	! grep -q instructions res/mytest/*/*/*/*/*/*/0/stats.json &&
	! test -e res/mytest/*/*/*/*/*/*/0/cachegrind &&
	PATH=/nonexistent test_must_fail 1 "$PERFBOT" run "$TRASH/job.yaml" -M "" --no-index -r res2 \
		-- /bin/true 2>err &&
	grep -q "needs valgrind (Debian package valgrind), not found in \$PATH" err &&
	! test -e res2/mytest
'

# 8 commits; from commit 5 on the loop runs 4 % longer (1000 -> 1040)
make_repo() {
	git init -q -b main "$1" && (
	cd "$1" && i=0 && v=1000 &&
	while [ $i -lt 8 ]; do
		[ $i -eq 5 ] && v=1040
		echo $v >VALUE && echo "line $i" >>LOG && git add VALUE LOG &&
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
			git commit -q -m "commit $i" || exit 1
		i=$((i + 1))
	done
	git tag good "$(git rev-list --max-parents=0 HEAD)" && git tag bad HEAD )
}

# No CPU hog beside it (it burnt a CPU for the whole bisect): the count
# is the same on a busy machine as on an idle one (test 1: exact in every
# run), and the noise of 0 below is what no clock would give.
test_expect_success 'a bisect on mytest.instructions finds a +4 % change, with no noise' '
	make_repo repo &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.instructions --state st --result-root res --no-index \
		-- "$TRASH/bench.sh" >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 5$" bad) &&
	grep -q "^first bad commit: $want (\"commit 5\")" out &&
	# the endpoints: exact, no noise to overcome
	grep -q "noise 0\.0*%" err
'

test_done
