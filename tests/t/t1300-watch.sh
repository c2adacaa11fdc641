#!/bin/sh
# perfbot watch: the robot's loop on a generated history with a planted
# regression: plan (stride, tags), runs, detect, bisect, reports (text and
# HTML), the mail, "reported once", resume after kill -9, bad branches,
# commits that do not build.
# e2e: early (one of the longest scripts: started first in the pool)
. ./lib.sh

# make_repo DIR: 16 commits on main, VALUE 1000 until commit 8 then 850
# (commit 8 "mm/demo: slow path", with a Link: trailer), tags v1.0
# (commit 0), v1.1 (6), v1.2 (12), v1.3 (15).
make_repo() {
	git init -q -b main "$1" && (
	cd "$1" &&
	i=0 && v=1000 &&
	while [ $i -lt 16 ]; do
		msg="commit $i"
		if [ $i -eq 8 ]; then
			v=850
			msg="mm/demo: take the slow path

Link: https://lore.kernel.org/r/20260101120000.8-1-dev@example.org"
		fi
		echo $v >VALUE && echo "line $i" >>LOG && git add VALUE LOG &&
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
			GIT_AUTHOR_NAME="Dave Developer" GIT_AUTHOR_EMAIL="dave@example.org" \
			git commit -q -m "$msg" &&
		case $i in 0) git tag v1.0 ;; 6) git tag v1.1 ;; 12) git tag v1.2 ;; 15) git tag v1.3 ;; esac
		i=$((i + 1))
	done )
}

# The benchmark: VALUE of the checkout with +-1% repeatable noise; one
# line per run in $RUNLOG (which commit ran)
test_noise_bench "$TRASH/bench.sh" throughput
printf 'testcase: mytest\n' >"$TRASH/job.yaml"

# watch ARGS...: perfbot watch on repo with the test's state, store and
# result tree, the benchmark above
watch() {
	perfbot watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db "$@" -- "$TRASH/bench.sh"
}
# the benchmark's counter and log, the mail folder: of the cwd's test
here() { export COUNTER=$(pwd)/counter RUNLOG=$(pwd)/runlog MAILDIR=$(pwd)/mails; }
# one history for all the tests: each gets its copy
make_repo "$TRASH/repo.orig" >/dev/null
setup() {
	cp -R "$TRASH/repo.orig" repo && here &&
	cat >mail.sh <<-\EOF &&
	#!/bin/sh
	n=$(ls "$MAILDIR" 2>/dev/null | wc -l)
	cat >"$MAILDIR/msg.$n"
	EOF
	chmod +x mail.sh && mkdir -p mails
}
sha_of() { git -C repo log --format=%H --grep="^$1" main; }

test_expect_success '--once: tests the grid and the tags, finds, bisects and reports the regression' '
	setup &&
	watch --once --stride 3 --tags --runs 2 --mail-cmd "$(pwd)/mail.sh" >out 2>err &&
	cat out &&
	c8=$(sha_of "mm/demo") &&
	# the tip, every 3rd from commit 0 (15 12 9 6 3 0) and the tags: 6 commits
	grep "^main at .*: 16 commits on the line, 6 to test (stride 3, tags)$" out &&
	grep "^\[1/6\] $(git -C repo rev-parse v1.3 | cut -c1-12) v1.3 \"commit 15\": 2 runs$" out &&
	grep "^\[6/6\] $(git -C repo rev-parse v1.0 | cut -c1-12) v1.0 \"commit 0\": 2 runs$" out &&
	grep "^detect mytest.throughput: 6 tested commits, 1 change, 1 regression$" out &&
	grep "^bisect mytest.throughput -1[0-9].[0-9]% (segment means, detect) between v1.1 and v1.2, and it.s still low as of v1.3: .*, 2 untested commits$" out &&
	grep "^bisect: first bad commit $c8 (\"mm/demo: take the slow path\")$" out &&
	# the watch hands its runs of the range s ends to the bisect: found
	# in the result tree, not run again
	range=$(sed -n "s/^bisect mytest.throughput .*: \([0-9a-f]*\.\.[0-9a-f]*\), 2 untested commits$/\1/p" out) &&
	test "${range%..*}" = "$(git -C repo rev-parse --short=12 v1.1)" &&
	for sha in ${range%..*} ${range#*..}; do
		grep "^perfbot: reusing 2 runs of $sha from $(pwd -P)/res/mytest/.*/$sha[0-9a-f]*$" err || return 1
	done &&
	txt=st/reports/mytest.throughput-$(echo $c8 | cut -c1-12).txt &&
	grep "^report: $(pwd)/$txt (and .html)$" out &&
	grep "between v1.1 and v1.2, and it.s still low as of v1.3" $txt &&
	grep "$(echo $c8 | cut -c1-10)" $txt &&
	grep -q "<html" st/reports/mytest.throughput-$(echo $c8 | cut -c1-12).html &&
	# the key metric table: the tags around the change and the latest
	grep -E "^ +v1\.1 +v1\.2 +v1\.3 *$" $txt &&
	change=$(sed -n "s/^We noticed a \(-[0-9.]*%\) regression.*/\1/p" $txt) &&
	grep "^Subject: .* mytest.throughput $change regression$" mails/msg.0 &&
	# the subject'"'"'s figure is the table'"'"'s: v1.2 against v1.1
	row=$(sed -n "/^ *v1\.1  *v1\.2  *v1\.3 *\$/,/mytest.throughput\$/p" $txt | tail -1) &&
	test "$(echo "$row" | awk "{print \$4}")" = "$change" &&
	# the mail: headers in the seeds'"'"' style, the greeting, the report
	test "$(ls mails)" = msg.0 &&
	sed -n "1,/^\$/p" mails/msg.0 >headers &&
	grep "^From: perfbot <perfbot@" headers &&
	grep "^To: Dave Developer <dave@example.org>$" headers &&
	grep "^Subject: \[mm/demo\] $(echo $c8 | cut -c1-10): mytest.throughput -1[0-9].[0-9]% regression$" headers &&
	grep "^In-Reply-To: <20260101120000.8-1-dev@example.org>$" headers &&
	grep "^References: <20260101120000.8-1-dev@example.org>$" headers &&
	grep "^Message-Id: <perfbot.watch.$(echo $c8 | cut -c1-12).mytest.throughput.[0-9]*@.*>$" headers &&
	grep "^Content-Type: text/plain; charset=UTF-8$" headers &&
	sed -n "/^\$/,\$p" mails/msg.0 | sed -n 2,3p >greeting &&
	printf "Hi Dave,\n\n" | test_cmp - greeting &&
	! grep "^Hello," mails/msg.0 &&
	grep "^We noticed a -1[0-9].[0-9]% regression of mytest.throughput in test case$" mails/msg.0 &&
	# a current 0-day mail'"'"'s commit line, test and trailer (no archive: no Closes:)
	grep "^commit: $c8 (\"mm/demo: take the slow path\")$" mails/msg.0 &&
	grep "^testcase: mytest$" mails/msg.0 &&
	grep "^| Reported-by: perfbot <perfbot@.*>$" mails/msg.0 &&
	! grep "Closes:" mails/msg.0 &&
	grep "^mailed $(pwd)/st/reports/mytest.throughput-.*\.mail$" out &&
	grep "^mailed " st/log &&
	# every commit of the plan tested once, none twice; the user'"'"'s checkout untouched
	grep -c "^tested " st/log >n && test "$(cat n)" = 6 &&
	test -z "$(git -C repo status --porcelain)"
'

# the next two go on where the first left its state (the runs are the
# slow part)
test_expect_success 'a second --once: nothing new, runs nothing, reports and mails nothing' '
	cd "$TRASH/1" && here &&
	n1=$(cat counter) &&
	watch --once --stride 3 --tags --runs 2 --mail-cmd "$(pwd)/mail.sh" >out 2>err &&
	cat out &&
	test "$(cat counter)" = "$n1" &&
	grep "^nothing new on main: its tip .* and every commit to test before it are tested$" out &&
	! grep "^report:" out && ! grep "^bisect" out && ! grep "^mailed" out &&
	test "$(ls mails)" = msg.0 &&
	# the bisect put commits 7 and 8 in the history: the change is now
	# between them, and its first bad commit was reported before
	grep "^detect mytest.throughput: 8 tested commits, 1 change, 1 regression$" out &&
	grep "^mytest.throughput -1[0-9].[0-9]% (segment means, detect) .*: no untested commit in .*$" out &&
	grep "^mytest.throughput: $(sha_of "mm/demo" | cut -c1-12) was reported before (.*/st/reports/mytest.throughput-.*.txt)$" out
'

test_expect_success 'new commits: only they are tested, at the grid from the first commit' '
	cd "$TRASH/1" && here &&
	(cd repo && for i in 16 17 18 19; do echo 850 >VALUE && echo "line $i" >>LOG &&
		git commit -q -a -m "commit $i" || exit 1; done) &&
	: >runlog &&
	watch --once --stride 3 --tags --runs 2 >out 2>&1 &&
	cat out &&
	# commits 18 (the grid: 18 = 6 x 3) and 19 (the tip)
	grep "^main at .*: 20 commits on the line, 2 to test (stride 3, tags)$" out &&
	grep "^\[1/2\] .* \"commit 19\": 2 runs$" out &&
	grep "^\[2/2\] .* \"commit 18\": 2 runs$" out &&
	sort -u runlog >ran && test $(wc -l <ran) = 2
'

test_expect_success 'killed after the runs, before the log line: the runs are found, not repeated' '
	cd "$TRASH/1" && here &&
	tip=$(git -C repo rev-parse main) &&
	grep -v "^tested $tip " st/log >log && mv log st/log &&
	n1=$(cat counter) &&
	watch --once --stride 3 --tags --runs 2 >out 2>&1 &&
	cat out &&
	grep "^\[1/1\] $(echo $tip | cut -c1-12) \"commit 19\": 2 runs already in the result tree$" out &&
	test "$(cat counter)" = "$n1" &&
	grep "^tested $tip 2$" st/log
'

test_expect_success 'a store started afresh: the runs already in the result tree go into it' '
	cd "$TRASH/1" && here &&
	n1=$(cat counter) &&
	perfbot watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st-fresh \
		--result-root res --db fresh.db --once --stride 3 --tags --runs 2 \
		-- "$TRASH/bench.sh" >out 2>&1 &&
	cat out &&
	grep "^\[1/[0-9]*\] .* \"commit 19\": 2 runs already in the result tree$" out &&
	! grep "is not in the store" out &&
	grep "^detect mytest.throughput: [0-9]* tested commits, 1 change, 1 regression$" out &&
	# its bisect, started afresh, finds every run it needs in the tree
	test "$(cat counter)" = "$n1" &&
	grep "^perfbot: every run counted was in the result tree already: the endpoints are not run again$" out &&
	grep "^bisect: first bad commit $(sha_of "mm/demo") " out
'

test_expect_success 'a mail command that fails: the mail stays pending, sent by the next pass' '
	cd "$TRASH/1" && here &&
	grep -v "^mailed " st/log >log && mv log st/log &&
	test_must_fail 1 watch --once --stride 3 --tags --runs 2 --mail-cmd false >out 2>err &&
	grep "^perfbot: --mail-cmd .false. failed (exit 1) on $(pwd)/st/reports/mytest.throughput-.*\.mail: it is sent again next time$" err &&
	! grep "^mailed" st/log &&
	watch --once --stride 3 --tags --runs 2 --mail-cmd "$(pwd)/mail.sh" >out 2>&1 &&
	grep "^mailed $(pwd)/st/reports/mytest.throughput-" out &&
	test "$(ls mails)" = "msg.0
msg.1" &&
	cmp mails/msg.0 mails/msg.1
'

test_expect_success 'kill -9 in the middle: the next start continues without repeating finished runs' '
	setup && export BENCH_SLEEP=0.3 &&
	{ "$PERFBOT" watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --stride 3 --runs 2 -- "$TRASH/bench.sh" >out1 2>&1 & } &&
	pid=$! &&
	# until two commits are tested, then kill it
	tested() { test "$(grep -c "^tested" st/log 2>/dev/null)" -ge "$1" 2>/dev/null; } &&
	test_wait_for tested 2 &&
	kill -9 $pid && { wait $pid || true; } &&
	grep -c "^tested" st/log >before && test "$(cat before)" -ge 2 &&
	cp runlog runlog.before &&
	unset BENCH_SLEEP &&
	watch --once --stride 3 --runs 2 --mail-cmd "$(pwd)/mail.sh" \
		--mail-to "Lead <lead@example.org>" --mail-from "robot <robot@example.org>" >out 2>&1 &&
	cat out &&
	# the addresses given; no greeting of the author then
	grep "^To: Lead <lead@example.org>$" mails/msg.0 &&
	grep "^From: robot <robot@example.org>$" mails/msg.0 &&
	grep "^| Reported-by: robot <robot@example.org>$" mails/msg.0 &&
	sed -n "/^\$/,\$p" mails/msg.0 | sed -n 2p | grep "^Hello,$" &&
	# the finished commits are not run again
	for c in $(sed -n "s/^tested \([0-9a-f]*\) .*/\1/p" st/log | head -n $(cat before)); do
		test $(grep -c "^$c\$" runlog) = 2 || { echo "$c ran again"; exit 1; }
	done &&
	grep "^bisect: first bad commit $(sha_of "mm/demo")" out &&
	test $(grep -c "^tested" st/log) = 6
'

test_expect_success 'SIGTERM in a pass: exit 130, and the next start continues' '
	setup && export BENCH_SLEEP=0.5 &&
	{ "$PERFBOT" watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --runs 2 --depth 3 -- "$TRASH/bench.sh" >out 2>err & } &&
	pid=$! &&
	test_wait_for grep -q "^tested" st/log &&
	kill -TERM $pid && rc=0 && wait $pid || rc=$? &&
	test $rc = 130 &&
	grep "^perfbot: watch: interrupted; the next start continues from here$" err &&
	unset BENCH_SLEEP &&
	watch --once --runs 2 --depth 3 >out 2>&1 &&
	test $(grep -c "^tested" st/log) = 3
'

test_expect_success 'a branch that does not exist: one error line, exit 1' '
	setup &&
	test_must_fail 1 watch --once >out 2>err --branch nosuch &&
	test_cmp - err <<-EOF
	perfbot: $(pwd)/repo: no branch '"'"'nosuch'"'"'
	EOF
'

test_expect_success 'a commit that does not build: recorded as failed, skipped next time' '
	setup &&
	(cd repo && echo broken >BROKEN && git add BROKEN && git commit -q -m "commit 16 broken" &&
		git rm -q BROKEN && git commit -q -m "commit 17 fixed") &&
	watch --once --build "test ! -e BROKEN" --depth 3 >out 2>err &&
	cat out &&
	broken=$(sha_of "commit 16") &&
	# the defaults: every commit (stride 1), 3 runs each
	grep "^main at .*: 3 commits on the line, 3 to test (stride 1)$" out &&
	grep "^\[1/3\] .* \"commit 17 fixed\": 3 runs$" out &&
	grep "^\[2/3\] $(echo $broken | cut -c1-12) \"commit 16 broken\": 3 runs$" out &&
	grep "^\[2/3\] $(echo $broken | cut -c1-12): the build failed (.*/build-$(echo $broken | cut -c1-12).log): skipped from now on$" out &&
	grep "^failed $broken build$" st/log &&
	grep "^\[3/3\] .*\"commit 15\": 3 runs$" out &&
	(cd repo && echo 1 >>LOG && git commit -q -a -m "commit 18") &&
	# a line cut short by a kill is dropped from the log
	printf "tested 0123456789abcdef" >>st/log &&
	watch --once --runs 1 --build "test ! -e BROKEN" --depth 4 >out 2>err &&
	cat out &&
	grep "^main at .*: 4 commits on the line, 1 to test (stride 1)$" out &&
	! grep "$(echo $broken | cut -c1-12)" out &&
	! grep 0123456789abcdef st/log &&
	test $(grep -c "^tested" st/log) = 3 &&
	# a line that is not one is an error naming the log and the line
	sed -i "1s/^[a-z]* /tasted /" st/log &&
	test_must_fail 1 watch --once --runs 1 --depth 4 >out 2>err &&
	grep "^perfbot: $(pwd)/st/log:1: expected .tested SHA RUNS., .failed SHA WHY., .mail FILE. or .mailed FILE., got .tasted " err
'

test_expect_success '--every: a pass, then waits; SIGTERM between passes ends it cleanly' '
	setup &&
	watch --once --runs 1 --depth 2 >/dev/null 2>&1 &&
	{ "$PERFBOT" watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --every 1s --runs 1 --depth 2 -- "$TRASH/bench.sh" >out 2>err & } &&
	pid=$! &&
	passes() { test "$(grep -c "^nothing new" out)" -ge "$1"; } &&
	test_wait_for passes 2 &&
	kill -TERM $pid && rc=0 && wait $pid || rc=$? &&
	test $rc = 0 && test "$(grep -c "^nothing new" out)" -ge 2
'

test_expect_success 'without --once or --every: a pass an hour' '
	setup &&
	watch --once --runs 1 --depth 2 >/dev/null 2>&1 &&
	{ "$PERFBOT" watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --runs 1 --depth 2 -- "$TRASH/bench.sh" >out 2>err & } &&
	pid=$! &&
	test_wait_for grep -q "^nothing new" out &&
	sleep 2 && kill -TERM $pid && rc=0 && wait $pid || rc=$? &&
	test $rc = 0 && test "$(grep -c "^nothing new" out)" = 1
'

test_expect_success 'a clone: each pass fetches, and follows the remote-tracking branch' '
	setup && git clone -q repo clone &&
	w() { perfbot watch --repo clone --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --runs 1 --depth 2 "$@" -- "$TRASH/bench.sh"; } &&
	w >out 2>&1 &&
	(cd repo && echo 1 >>LOG && git commit -q -a -m "commit 16 upstream") &&
	w --no-fetch >out 2>&1 &&
	grep "^nothing new on main" out &&
	w >out 2>&1 &&
	grep "^\[1/1\] .* \"commit 16 upstream\": 1 run$" out &&
	test "$(git -C clone rev-parse main)" != "$(git -C repo rev-parse main)"
'

test_expect_success 'a relative benchmark path is the one in the cwd, not the worktree' '
	setup && cp "$TRASH/bench.sh" b.sh &&
	perfbot watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --runs 1 --depth 1 -- ./b.sh >out 2>err &&
	grep "^tested $(git -C repo rev-parse main) 1$" st/log
'

test_expect_success 'one watch at a time on a state' '
	setup && mkdir st && exec 9>st/lock && flock -n 9 &&
	test_must_fail 1 watch --once 2>err &&
	grep "^perfbot: $(pwd)/st: another perfbot watch is running on this state$" err
'

test_expect_success 'usage errors exit 2' '
	setup &&
	test_must_fail 2 perfbot watch --repo repo --branch main 2>err &&
	grep "watch needs --repo DIR (or --kernel-tree DIR), --branch B and --job JOB.yaml" err &&
	test_must_fail 2 watch --once --every 5m 2>err &&
	grep "one pass, or one every DURATION" err &&
	test_must_fail 2 watch --every 5x 2>err &&
	grep "^perfbot: --every expects a duration > 0" err &&
	test_must_fail 2 watch --stride 0 2>err &&
	grep "^perfbot: --stride expects a whole number >= 1, got .0.$" err &&
	test_must_fail 2 watch --runs 1.5 2>err &&
	test_must_fail 2 watch --pvalue 1 2>err &&
	test_must_fail 2 perfbot watch --repo repo --branch main --job nosuch.yaml 2>err &&
	grep "cannot find the job" err &&
	# the kernel options: with --kernel-tree only, checked as run checks them
	for o in "--config tiny" "--accel tcg" "--boot-timeout 60" "--cpus 2" "--mem 2G" "--numa 2"; do
		test_must_fail 2 watch --once $o 2>err &&
		grep "^perfbot: ${o%% *} is for a kernel under test: it needs --kernel-tree$" err || exit 1
	done &&
	test_must_fail 2 perfbot watch --kernel-tree repo --branch main --job "$TRASH/job.yaml" \
		--numa 0 2>err &&
	grep "^perfbot: --numa expects a number from 1 to 16, got .0.$" err &&
	test_must_fail 2 perfbot watch --kernel-tree repo --branch main --job "$TRASH/job.yaml" \
		--mem 1T 2>err &&
	grep "^perfbot: --mem expects a size from 64M to 1024G" err &&
	test_must_fail 2 perfbot watch --kernel-tree repo --branch main --job "$TRASH/job.yaml" \
		--build make 2>err &&
	grep "^perfbot: --kernel-tree builds each commit itself: drop --build$" err &&
	test_must_fail 1 perfbot watch --kernel-tree repo --branch main --job "$TRASH/job.yaml" \
		--state-dir st --db postgresql://nowhere/lab --once 2>err &&
	grep "^perfbot: --kernel-tree runs here, not in the lab: drop --db postgresql://nowhere/lab$" err &&
	# small is a config perfbot knows, not a file (a tree of no kernel
	# fails its build: recorded, the pass goes on)
	git init -q empty && git -C empty commit -q --allow-empty -m empty &&
	PERFBOT_KERNEL_CACHE=$(pwd)/kc perfbot watch --kernel-tree empty --config small --branch master \
		--job "$TRASH/job.yaml" --state-dir st2 --db w.db --no-fetch --once >out 2>err || true &&
	grep -q "^perfbot: building [0-9a-f]* (x86_64-small-[0-9a-f]*)" err &&
	! grep -q "small.: No such file" err
'

# The machine moved: the commit "the code" runs at about 1500, the next,
# of the same tree, at about 1000 (a planted load that came and went with
# the commit: watch's turns spread a load that follows the clock).
cat >"$TRASH/bench-moved.sh" <<'EOS'
#!/bin/sh
n=$(cat "$COUNTER" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$COUNTER"
v=1000; [ "$(git -C "$PERFBOT_BUILD_DIR" log -1 --format=%s)" = "the code" ] && v=1500
echo "throughput: $((v + n % 3))"
EOS
chmod +x "$TRASH/bench-moved.sh"

test_expect_success 'the same tree at two levels: the machine moved, said, exit 6' '
	here && git init -q -b main same && echo 1 >same/VALUE && git -C same add VALUE &&
	git -C same commit -q -m "the code" && git -C same commit -q --allow-empty -m "no change" &&
	a=$(git -C same rev-parse HEAD~1) && b=$(git -C same rev-parse HEAD) &&
	test_must_fail 6 perfbot watch --repo same --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --runs 3 --metric mytest.throughput -- "$TRASH/bench-moved.sh" >out 2>err &&
	grep -q "^the machine moved: $(echo $a | cut -c1-12) and $(echo $b | cut -c1-12) have the same tree (the same code), yet mytest.throughput differs by -33.[0-9]% between them (150[0-9] -> 100[0-9]; noise 0.[0-9]% and 0.[0-9]% a run, 3 and 3 runs)" out
'

test_expect_success 'the same tree at one level: no such line, exit 0' '
	here && git init -q -b main same && echo 1 >same/VALUE && git -C same add VALUE &&
	git -C same commit -q -m "the code" && git -C same commit -q --allow-empty -m "no change" &&
	perfbot watch --repo same --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --runs 3 --metric mytest.throughput -- "$TRASH/bench.sh" >out 2>err &&
	! grep -q "the machine moved" out
'

# The noise rises tenfold from the 41st run on: the pass and the bisect's
# search are done by then, and the endpoints re-measured at the end show
# it, so the bisect has no answer to trust (its exit 6).  --once says
# so in its exit status, as for a moved machine, and reports nothing.
cat >"$TRASH/bench-noisy.sh" <<'EOS'
#!/bin/sh
n=$(cat "$COUNTER" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNTER"
v=$(cat "$PERFBOT_BUILD_DIR/VALUE")
h=$(( ((n + 1) * 2654435761) % 4294967296 )); h=$(( (h >> 13) % 61 - 30 ))
[ "$n" -ge 40 ] || h=$(( h / 30 ))
echo "throughput: $(( v + v * h / 100 ))"
EOS
chmod +x "$TRASH/bench-noisy.sh"

test_expect_success 'a bisect with no answer to trust: said, not reported, exit 6' '
	setup &&
	test_must_fail 6 perfbot watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --runs 2 --metric mytest.throughput \
		-- "$TRASH/bench-noisy.sh" >out 2>err &&
	grep -q "^bisect: no first bad commit (exit 6, see .*): not reported$" out &&
	grep -q "^perfbot: warning: the machine.s noise moved during the bisect" err &&
	! ls st/reports/*.txt 2>/dev/null &&
	! grep -q "the machine moved" out
'

test_done
