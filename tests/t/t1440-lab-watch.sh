#!/bin/sh
# perfbot watch --db postgresql://...: each commit's runs go through the
# lab's queue to two boxes, which check it out and build it; the history
# is in the local store ($PERFBOT_DB), into which the fetched runs are
# indexed; the regression's bisect goes through the queue too (as perfbot
# bisect --db); the report is written and recorded once.
. ./lib.sh
. ./lab-lib.sh

# 10 commits; from commit 5 on, VALUE drops from 1000 to 850 (-15%);
# tags v1.0, v1.1, v1.2 on commits 0, 3 and 9
release_tags() { case $1 in 0) git tag v1.0 ;; 3) git tag v1.1 ;; 9) git tag v1.2 ;; esac; }
make_repo() { test_value_repo "$1" 10 5 release_tags; }

# The benchmark: the value the box built, +-1% noise from a counter.
cat >"$TRASH/bench.sh" <<'EOS'
#!/bin/sh
n=$(cat "$COUNTER" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNTER"
v=$(cat "$PERFBOT_BUILD_DIR/built")
noise=$(awk -v n="$n" 'BEGIN { srand(n * 7 + 1); print int((rand() - 0.5) * 20) }')
echo "throughput: $((v + noise))"
EOS
chmod +x "$TRASH/bench.sh"
printf 'testcase: mytest\n' >"$TRASH/job.yaml"

test_expect_success 'watch --db: the commits and the bisect run on the boxes; reported once' '
	db=$(lab_db wat) && make_repo repo && export COUNTER=$(pwd)/counter &&
	bg perfbot worker --db "$(url wat box1)" --dir w1 --poll 0.3 --allow-build 2>log1 &&
	bg perfbot worker --db "$(url wat box2)" --dir w2 --poll 0.3 --allow-build 2>log2 &&
	perfbot watch --once --repo repo --branch main --job "$TRASH/job.yaml" --stride 2 --tags \
		--runs 2 --build "cp VALUE built" --state-dir st --result-root res \
		--db "$(url wat sub)" -- "$TRASH/bench.sh" >out 2>err &&
	cat out &&
	want=$(git -C repo log --format=%H --grep="^commit 5$" main) &&
	# the tip (9), the grid (8 6 4 2 0) and the tags (v1.1 = commit 3)
	grep "^main at .*: 10 commits on the line, 7 to test (stride 2, tags)$" out &&
	grep "^detect mytest.throughput: 7 tested commits, 1 change, 1 regression$" out &&
	grep "^bisect: first bad commit $want (\"commit 5\")$" out &&
	test -f st/reports/mytest.throughput-$(echo $want | cut -c1-12).txt &&
	# every run came from the queue; this machine built nothing
	test "$(sql wat "SELECT count(*) >= 14 AND bool_and(state = '\''done'\'') FROM perfbot.queue")" = t &&
	grep -q "^queued [0-9]* " st/lab-jobs &&
	! test -e st/wt/built &&
	# the runs fetched are in the local store (the lab store is read-only to
	# a submitter): the history and what was reported
	perfbot history --repo repo --branch main --metric mytest.throughput >h &&
	grep "^mytest.throughput along main of .*: 10 commits, 7 tested" h &&
	n=$(sql wat "SELECT count(*) FROM perfbot.queue") &&
	perfbot watch --once --repo repo --branch main --job "$TRASH/job.yaml" --stride 2 --tags \
		--runs 2 --build "cp VALUE built" --state-dir st --result-root res \
		--db "$(url wat sub)" -- "$TRASH/bench.sh" >out2 2>&1 &&
	grep "^nothing new on main" out2 && ! grep "^report:" out2 &&
	test "$(sql wat "SELECT count(*) FROM perfbot.queue")" = "$n"
'

test_done
