#!/bin/sh
# perfbot bisect --db postgresql://...: the runs of each step go through
# the lab's queue to two boxes, which check each commit out and build it;
# killed with -9 and resumed, the bisect waits for the jobs it had out
# instead of queueing them again, and fetches each job once.
# e2e: early (long in wall time, light on CPU: started first in the pool)
. ./lib.sh
. ./lab-lib.sh

# 16 commits; from commit BAD on, VALUE drops from 1000 to 850 (-15%)
make_repo() {
	test_value_repo "$1" 16 "$2" &&
	git -C "$1" tag good "$(git -C "$1" rev-list --max-parents=0 HEAD)" && git -C "$1" tag bad HEAD
}

# The benchmark: the value the box built, with +-1% repeatable noise
test_noise_bench "$TRASH/bench.sh" score built
printf 'testcase: mytest\n' >"$TRASH/job.yaml"

# fetched_once DB RESULTS: every done job's run is in the result tree once
fetched_once() {
	test "$(find "$2" -name stats.json -path "*/[0-9]*/stats.json" | wc -l)" = \
		"$(sql "$1" "SELECT count(*) FROM perfbot.queue WHERE state = 'done'")"
}

test_expect_success 'bisect --db: the steps run on two boxes, which build each commit' '
	db=$(lab_db bis) && make_repo repo 8 && export COUNTER=$(pwd)/counter &&
	bg perfbot worker --db "$(url bis box1)" --dir w1 --poll 0.3 --allow-build 2>log1 &&
	bg perfbot worker --db "$(url bis box2)" --dir w2 --poll 0.3 --allow-build 2>log2 &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --build "cp VALUE built" --state st --result-root res \
		--db "$(url bis sub)" -- "$TRASH/bench.sh" >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 8$" bad) &&
	grep -q "^first bad commit: $want (\"commit 8\")" out &&
	# every run came from the queue, one run a job, from both boxes
	test "$(sql bis "SELECT count(*) > 8 AND bool_and(runs = 1) AND bool_and(state = '\''done'\'')
		FROM perfbot.queue")" = t &&
	test "$(sql bis "SELECT count(DISTINCT box) FROM perfbot.upload")" = 2 &&
	fetched_once bis res &&
	grep -q "^queued [0-9]* $want$" st.d/lab-jobs &&
	test "$(grep -c "^queued" st.d/lab-jobs)" = "$(grep -c "^fetched" st.d/lab-jobs)" &&
	# the boxes built; this machine did not
	! test -e st.d/step/built &&
	grep -q "done, results uploaded" log1 && grep -q "done, results uploaded" log2
'

test_expect_success 'bisect --db killed with -9 and resumed: jobs out are waited for, not queued again' '
	db=$(lab_db bisr) && make_repo repo 11 && export COUNTER=$(pwd)/counter &&
	export BENCH_SLEEP=0.5 &&
	bg perfbot worker --db "$(url bisr box1)" --dir w1 --poll 0.3 --allow-build 2>log1 &&
	bg perfbot worker --db "$(url bisr box2)" --dir w2 --poll 0.3 --allow-build 2>log2 &&
	{ "$PERFBOT" bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --build "cp VALUE built" --state st --result-root res \
		--db "$(url bisr sub)" -- "$TRASH/bench.sh" >/dev/null 2>&1 & } &&
	pid=$! &&
	# killed while some of its jobs are still out
	wait_sql bisr "SELECT count(*) > 4 FROM perfbot.queue" t &&
	kill -9 $pid && { wait $pid || true; } &&
	# (the queue, not the journal: a kill between the COMMIT and the
	# journal leaves jobs only a "submit REF" line speaks of)
	test "$(sql bisr "SELECT count(*) FROM perfbot.queue")" -gt "$(grep -c "^fetched" st.d/lab-jobs)" &&
	unset BENCH_SLEEP &&
	perfbot bisect --resume --state st >out 2>err &&
	want=$(git -C repo log --format=%H --grep="^commit 11$" bad) &&
	grep -q "^first bad commit: $want" out &&
	fetched_once bisr res &&
	test "$(sql bisr "SELECT count(*) FROM perfbot.queue WHERE state <> '\''done'\''")" = 0
'

test_done
