#!/bin/sh
# perfbot report: email text and one-file HTML, from BASE NEW or a bisect;
# the HTML opened in headless Chromium (browser-check.sh), screenshots in
# tests/out/.
. ./lib.sh

ROOT=$(cd ../.. && pwd)
OUT=$ROOT/tests/out
CHECK=$(pwd)/browser-check.sh

# browser_check: lib.sh
B=$DATA/report/bisect
# the good and bad commits of the bisect: result roots without run dirs
BASE=$B/result/3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a098
NEW=$B/result/d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1
PARENT=7c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b
FIRST=9b17c62382dd2e7507984b989a1b2c3d4e5f6a7b
export PERFBOT_PROC_DIR=$DATA/report/proc

test_expect_success 'text: the first paragraph, the key metrics and their legend' '
	perfbot report $BASE $NEW >out &&
	head -n 1 out | grep -q "^Hello,$" &&
	grep -q "^We noticed a +62.0% regression of mytest.latency_ms between$" out &&
	grep -q "^      4.06 ~ 1%     +62.0%       6.58 ~ 0%  mytest.latency_ms$" out &&
	grep -q "^  13151990 ~ 0%     -35.8%    8438084 ~ 0%  mytest.throughput$" out &&
	grep -q "^             ^^     ^^^^^^$" out &&
	grep -q "^        stddev%    change%$" out &&
	grep -q "^commit: $" out &&
	grep -q "perf-profile.self.cycles-pp._raw_spin_lock$" out &&
	grep -q "^Each point below represents a sample run of mytest.latency_ms:$" out &&
	grep -q "^The test machine has 4 CPUs" out &&
	tail -n 2 out | head -n 1 | grep -q "^Thanks,$"
'

test_expect_success 'text: --tag annotates commits and names them in the prose' '
	perfbot report --tag v6.9=3f1c2a9e --tag "v6.10-rc1=d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1" $BASE $NEW >out &&
	grep -q "^  3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a098 (v6.9)$" out &&
	grep -q "^  d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1 (v6.10-rc1)$" out &&
	grep -q "^We noticed a +62.0% regression of mytest.latency_ms between v6.9 and$" out &&
	grep -q "^v6.10-rc1\\. Of the other key metrics, 1 regressed\\." out
'

test_expect_success 'text: -o writes the same report; --legacy the ~ N% tables' '
	perfbot report $BASE $NEW >stdout &&
	perfbot report -o file.txt $BASE $NEW >none &&
	test ! -s none &&
	test_cmp stdout file.txt &&
	perfbot report --legacy $BASE $NEW >legacy &&
	grep -q "~ [0-9]%.*-35.8%.*mytest.throughput$" legacy &&
	! grep -q "±" legacy
'

test_expect_success 'bisect: state file, bisect.json or their dir give one report' '
	perfbot report --bisect $B/perfbot-bisect.state >a &&
	perfbot report --bisect $B/bisect.json >b &&
	perfbot report --bisect $B >c &&
	test_cmp a b && test_cmp a c &&
	grep -q "^We noticed a -35.8% regression of mytest.throughput in test case$" a &&
	grep -q "^        mytest/8-30s-lru-file-readtwice$" a &&
	grep -q "^between v6.9 and v6.10. The bisect leads us to commit 9b17c62382 (\"fs:$" a &&
	grep -q "^  $PARENT (parent of first bad commit)$" a &&
	grep -q "^  $FIRST (first bad commit)$" a &&
	grep -q "^compiler/kconfig/nr_threads/rootfs/runtime/tbox_group/test/testcase:$" a &&
	grep -q "^The bisect looks stable, each point below represents a sample run:$" a &&
	grep -q "^perf report for $FIRST:$" a &&
	grep -q "^    40.12%  bench    \\[kernel.kallsyms\\]  \\[k\\] _raw_spin_lock$" a &&
	grep -q "^The test machine has 128 CPUs" a &&
	grep -q "perfbot bisect --repo /srv/git/mytest --good 3f1c2a9e" a
'

test_expect_success 'bisect: the state file of perfbot bisect, with its STATE.d/bisect.json' '
	mkdir -p run/perfbot-bisect.state.d &&
	echo "# state" >run/perfbot-bisect.state &&
	sed -e "s|\"result/|\"$B/result/|" -e "s|\"job.yaml\"|\"$B/job.yaml\"|" \
		$B/bisect.json >run/perfbot-bisect.state.d/bisect.json &&
	perfbot report --bisect run/perfbot-bisect.state >out &&
	grep -q "^  $FIRST (first bad commit)$" out &&
	grep -q "^The bisect looks stable" out
'

test_expect_success 'bisect: the perf-profile rows come biggest change first' '
	perfbot report --bisect $B | sed -n "/^The perf-profile changes/,/^perf report/p" | grep "perf-profile\\." >rows &&
	head -n 1 rows | grep -q "+25.7 .*perf-profile.self.cycles-pp._raw_spin_lock$" &&
	tail -n 1 rows | grep -q "perf-profile.self.cycles-pp.memset_erms$"
'

test_expect_success 'run dirs are found through stats_source; their machine file is used' '
	for c in aaaa1111 bbbb2222; do
		for r in 0 1 2 3 4; do
			mkdir -p res/$c/$r &&
			if [ $c = aaaa1111 ]; then t=$((1000 + r)); else t=$((700 + r)); fi &&
			printf "{\n  \"mytest.throughput\": %s,\n  \"time.user_time\": 10.5\n}\n" $t >res/$c/$r/stats.json || return 1
		done &&
		printf "suite: mytest\ntestcase: mytest\nruntime: 10s\nmytest:\n  test: t1\n" >res/$c/0/job.yaml &&
		printf "model: Test CPU 9000\nnr_cpu: 3\nmemory: 2G\n" >res/$c/0/machine &&
		perfbot unite res/$c/0 res/$c/1 res/$c/2 res/$c/3 res/$c/4 || return 1
	done &&
	perfbot report res/aaaa1111 res/bbbb2222 >out &&
	grep -q "^We noticed a -29.9% regression of mytest.throughput in test case$" out &&
	grep -q "^        mytest/10s-t1$" out &&
	grep -q "^runtime/test/testcase:$" out &&
	grep -q "^  10s/t1/mytest$" out &&
	grep -q "^The test machine has 3 CPUs (Test CPU 9000) and 2G memory" out &&
	grep -q "res/bbbb2222/0/machine)\.$" out &&
	grep -q "perfbot run .*res/aaaa1111/0/job.yaml --commit aaaa1111$" out
'

test_expect_success 'no change: said so, and no plot' '
	perfbot report $BASE $BASE >out &&
	grep -q "^We compared 3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a098 and$" out &&
	grep -q "^3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a098 and noticed no significant$" out &&
	grep -q "^change of the key metrics (mytest.latency_ms: +0.0%)\\.$" out &&
	! grep -q "represents a sample run" out
'

test_expect_success 'usage errors exit 2' '
	test_must_fail 2 perfbot report 2>err &&
	grep -q "needs --bisect STATE, or a BASE and at least one NEW" err &&
	test_must_fail 2 perfbot report $BASE 2>err &&
	test_must_fail 2 perfbot report --format pdf $BASE $NEW 2>err &&
	grep -q "expects .text. or .html., got .pdf." err &&
	test_must_fail 2 perfbot report --tag novalue $BASE $NEW 2>err &&
	grep -q "expects NAME=COMMIT" err &&
	test_must_fail 2 perfbot report --bisect $B $BASE 2>err &&
	test_must_fail 2 perfbot report --plotter ascii-art $BASE $NEW 2>err &&
	test_must_fail 2 perfbot report --plotter gnuplot --format html $BASE $NEW 2>err &&
	grep -q "HTML report has its own SVG charts" err
'

test_expect_success 'errors exit 1 and name what is missing' '
	test_must_fail 1 perfbot report --bisect nowhere/state 2>err &&
	grep -q "cannot read bisect state .nowhere/state." err &&
	mkdir empty &&
	test_must_fail 1 perfbot report --bisect empty 2>err &&
	grep -q "no .empty/bisect.json. for bisect state .empty." err &&
	printf "{\"version\": 1,\n \"metric\": [" >empty/bisect.json &&
	test_must_fail 1 perfbot report --bisect empty 2>err &&
	grep -q "empty/bisect.json:2:" err &&
	test_must_fail 1 perfbot report $BASE no/such/root 2>err &&
	grep -q "no/such/root" err &&
	test_must_fail 1 perfbot report -o no/such/dir/out.txt $BASE $NEW 2>err
'

test_expect_success '--plotter gnuplot: an error when it is not installed' '
	mkdir bin &&
	test_must_fail 1 env PATH=$(pwd)/bin "$PERFBOT" report --plotter gnuplot $BASE $NEW >out 2>err &&
	grep -q "gnuplot.* is not installed" err
'

test_expect_success '--plotter gnuplot draws with gnuplot when installed' '
	test_have gnuplot || exit 0
	perfbot report --plotter gnuplot --bisect $B >out &&
	sed -n "/bisect looks stable/,/good samples/p" out >plot &&
	grep -q "mytest.throughput" plot &&
	grep -q "O" plot && grep -q "\\*" plot &&
	test $(wc -l <plot) -ge 15
'

test_expect_success 'browser-check fails on a broken page, an external fetch, a missing selftest' '
	printf "<!DOCTYPE html><p>x</p><script>nosuchfunction();</script>\n" >broken.html &&
	printf "<!DOCTYPE html><p>x</p><script src=\"https://example.com/x.js\"></script>\n" >fetch.html &&
	printf "<!DOCTYPE html><p>fine</p>\n" >fine.html &&
	rc=0 && { sh "$CHECK" fine.html fine.png >log 2>&1 || rc=$?; } &&
	if [ $rc -eq 77 ]; then
		cat log
		! test_required chromium || exit 1
		exit 0
	fi &&
	test $rc -eq 0 &&
	test_must_fail 1 sh "$CHECK" broken.html broken.png 2>err &&
	grep -q "Uncaught ReferenceError" err &&
	test_must_fail 1 sh "$CHECK" fetch.html fetch.png 2>err &&
	grep -q "not self-contained" err &&
	test_must_fail 1 sh "$CHECK" --selftest fine.html fine.png 2>err &&
	grep -q "selftest did not pass" err
'

test_expect_success 'HTML: one self-contained file, checked in Chromium (compare)' '
	perfbot report --format html -o report.html $BASE $NEW &&
	grep -q "^<!DOCTYPE html>" report.html &&
	test $(grep -c "<script" report.html) -eq 1 &&
	! grep -Eq "(src|href)=\"(https?:)?//" report.html &&
	grep -q "<table id=\"metrics\" class=\"sortable\">" report.html &&
	grep -q "<svg" report.html &&
	mkdir -p "$OUT" &&
	browser_check --selftest report.html "$OUT/report-compare.png"
'

test_expect_success 'HTML: bisect report checked in Chromium' '
	perfbot report --format html --bisect $B -o bisect.html &&
	grep -q "<section id=\"bisect\">" bisect.html &&
	grep -q "<tr class=\"reg\"><td class=\"name mono\"><a href=\"#chart-1\">mytest.throughput</a>" bisect.html &&
	mkdir -p "$OUT" &&
	browser_check --selftest bisect.html "$OUT/report-bisect.png"
'

test_expect_success 'the headline is the test'"'"'s primary metric, changed or not (lkp'"'"'s index-perf.yaml)' '
	mkdir a b &&
	printf "{\"vm-scalability.median\": [1000, 1001, 999, 1000], \"vm-scalability.throughput\": [5000, 5010, 4990, 5000]}\n" >a/matrix.json &&
	printf "{\"vm-scalability.median\": [500, 501, 499, 500], \"vm-scalability.throughput\": [4000, 4010, 3990, 4000]}\n" >b/matrix.json &&
	perfbot report a b >out &&
	grep -q "^We noticed a -20.0% regression of vm-scalability.throughput between a$" out &&
	sed -n "/^-----/{n;p;}" out | head -n 1 | grep -q "vm-scalability.throughput$" &&
	printf "{\"vm-scalability.median\": [500, 501, 499, 500], \"vm-scalability.throughput\": [5001, 5011, 4991, 5001]}\n" >b/matrix.json &&
	perfbot report a b >out &&
	tr "\n" " " <out | grep -q "noticed no significant change of vm-scalability.throughput (+0.0%), but of the other key metrics, 1 regressed\." &&
	sed -n "/^-----/{n;p;}" out | head -n 1 | grep -q "      5000 ~ 0%      +0.0%       5001 ~ 0%  vm-scalability.throughput$"
'

test_expect_success 'HTML: %stddev by the text table'"'"'s rule, tooltips formatted, call chains unwrapped' '
	mkdir a b &&
	pp=perf-profile.calltrace.cycles-pp.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.ccccccccccccccccccccccccccc &&
	printf "{\"mytest.x\": [1, 2.5, 1, 2.5], \"$pp\": [10, 11, 10, 11]}\n" >a/matrix.json &&
	printf "{\"mytest.x\": [10, 10.2, 10, 10.2], \"$pp\": [20, 21, 20, 21]}\n" >b/matrix.json &&
	perfbot report a b >out.txt &&
	perfbot report --format html a b >out.html &&
	grep -q "^      1.75 ~42%    +477.1%      10.10 ~ 0%  mytest.x$" out.txt &&
	grep -q "data-v=\"1.75\">1.75<span class=\"sd\">±42%</span>" out.html &&
	grep -q "data-v=\"10.1\">10.10<span class=\"sd\"></span>" out.html &&
	grep -q "<td class=\"name mono pp\">$pp</td>" out.html &&
	grep -q "<td class=\"name mono\">mytest.x</td>" out.html &&
	grep -q "td.name.pp{white-space:nowrap" out.html &&
	grep -q "<title>mean 1.75 &#177; 0.75</title>" out.html
'

# a result root of 3 runs: matrix.json from the JSON given, and with
# testcase T a job.yaml in run 0 naming it
write_root() {
	mkdir -p "$1/0" &&
	echo "$2" >"$1/matrix.json" &&
	if test -n "${3-}"; then echo "testcase: $3" >"$1/0/job.yaml"; fi
}

test_expect_success 'the key metric named is the test'"'"'s own, not iostat'"'"'s that lkp lists first' '
	write_root wb "{\"will-it-scale.per_process_ops\": [500000, 501000, 499000], \"iostat.vda.wkB/s\": [100, 102, 98]}" &&
	write_root wn "{\"will-it-scale.per_process_ops\": [500500, 499500, 500000], \"iostat.vda.wkB/s\": [72, 73, 71]}" &&
	perfbot report wb wn >out &&
	grep -q "^metrics (will-it-scale.per_process_ops: +0.0%)\\.$" out &&
	! grep -q "iostat" out
'

test_expect_success 'the job'"'"'s testcase decides whose metrics are its own' '
	write_root jb "{\"will-it-scale.per_process_ops\": [500000, 501000, 499000], \"aim7.jobs-per-min\": [100, 102, 98]}" will-it-scale &&
	write_root jn "{\"will-it-scale.per_process_ops\": [500500, 499500, 500000], \"aim7.jobs-per-min\": [72, 73, 71]}" will-it-scale &&
	perfbot report jb jn >out &&
	grep -q "^will-it-scale.per_process_ops (+0.0%), but of the other key metrics, 1$" out
'

test_done
