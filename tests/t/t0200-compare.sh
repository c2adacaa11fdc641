#!/bin/sh
# perfbot compare: ncompare's table, legacy layout, JSON, exit codes
. ./lib.sh

BASE=$DATA/compare/1d3d4437eae1bb2
NEW=$DATA/compare/9b17c62382dd2e7507984b989

test_expect_success 'table header is ncompare'"'"'s' '
	perfbot compare $BASE $NEW >out &&
	head -n 1 out | grep -q "^=========================================================================================$" &&
	sed -n 2,3p out >axes &&
	printf "compiler/cpufreq_governor/fs/kconfig/rootfs/runtime/tbox_group/test/testcase:\n  gcc-4.9/performance/xfs/x86_64-rhel/debian-x86_64-2015-02-07.cgz/300s/brickland2/lru-file-readtwice/vm-scalability\n" >expect &&
	test_cmp expect axes &&
	grep -q "^commit: $" out &&
	grep -q "^  1d3d4437eae1bb2$" out &&
	grep -q "^         %stddev     %change         %stddev$" out &&
	grep -q "^             \\\\          |                \\\\  $" out
'

test_expect_success 'changed metrics, in ncompare row format' '
	perfbot compare $BASE $NEW >out &&
	grep -q "^  13217683 \\(± *[0-9]*%\\|      \\)    -36\\.[0-9]%    8380345        vm-scalability.throughput$" out &&
	grep -q "proc-vmstat.pgscan_direct_normal$" out &&
	grep -q "perf-profile.calltrace.cycles-pp._raw_spin_lock" out
'

test_expect_success 'test metrics come first' '
	perfbot compare $BASE $NEW | grep "%  \\|  [a-z]" | grep -v "^commit" >rows &&
	sed -n "/stddev/,\$p" rows | sed -n 2p | grep -q "vm-scalability"
'

test_expect_success 'noise is not reported as a change' '
	perfbot compare $BASE $NEW >out &&
	! grep -q "interrupts.CAL" out
'

test_expect_success 'perf-profile change is an absolute difference' '
	perfbot compare $BASE $NEW | grep "perf-profile.self.cycles-pp._raw_spin_lock$" >row &&
	grep -q "+25\\.9  " row
'

test_expect_success 'perf-profile change rounds as lkp'"'"'s ncompare (Ruby) prints it: 0.48 -> 0.33 is -0.2' '
	mkdir b n &&
	printf "{\"perf-profile.self.cycles-pp.foo\": [0.32, 0.64]}\n" >b/matrix.json &&
	printf "{\"perf-profile.self.cycles-pp.foo\": [0.39, 0.27]}\n" >n/matrix.json &&
	perfbot compare --rule lkp -a b n | grep "cycles-pp.foo$" >row &&
	echo "      0.48 ± 33%      -0.2        0.33 ± 18%  perf-profile.self.cycles-pp.foo" >expect &&
	test_cmp expect row
'

test_expect_success '--csv: a line per metric and column, the numbers of --json' '
	perfbot compare --csv $BASE $NEW >out.csv &&
	perfbot compare --json $BASE $NEW >out.json &&
	head -n 1 out.csv | grep -q "^stat,commit,path,runs,complete_runs,mean,stddev,fails,change,change_unit,p_welch,direction,changed,regression.$" &&
	python3 - <<-\EOF
	import csv, json
	rows = list(csv.DictReader(open("out.csv", newline="")))
	j = json.load(open("out.json"))
	assert len(rows) == 2 * len(j["stats"]), (len(rows), len(j["stats"]))
	for k, st in enumerate(j["stats"]):
	    base, new = rows[2 * k], rows[2 * k + 1]
	    assert base["stat"] == new["stat"] == st["stat"]
	    assert base["commit"] == j["columns"][0]["label"] and new["commit"] == j["columns"][1]["label"]
	    assert base["change"] == "" and base["change_unit"] == ""
	    if st["failure"]:
	        assert float(new["fails"]) == st["fails"][1] and new["mean"] == ""
	    else:
	        assert float(base["mean"]) == st["avg"][0] and float(new["mean"]) == st["avg"][1]
	    unit = "absolute" if "abs_change" in st else "percent"
	    assert new["change_unit"] == unit
	    assert float(new["change"]) == st.get("abs_change", st.get("change_percent"))[0]
	    assert new["changed"] == ("1" if st["changed"] else "0")
	    assert new["regression"] == ("1" if st["regression"] else "0")
	EOF
	grep -q "^vm-scalability.throughput,9b17c62382dd2e7507984b989,.*,percent," out.csv &&
	test_must_fail 2 perfbot compare --csv --json $BASE $NEW 2>err &&
	grep -q "give one" err
'

test_expect_success '--csv: identical runs have a stddev of 0, a single run none' '
	for c in same1 same2 one; do
		mkdir -p $c/0 &&
		printf "testcase: fio-basic\n" >$c/0/job.yaml || exit 1
	done &&
	printf "{\"fio.write_bw_MBps\": [100, 100, 100]}\n" >same1/matrix.json &&
	printf "{\"fio.write_bw_MBps\": [200, 200, 200]}\n" >same2/matrix.json &&
	printf "{\"fio.write_bw_MBps\": [150]}\n" >one/matrix.json &&
	perfbot compare --csv same1 same2 >out.csv &&
	grep "^fio.write_bw_MBps," out.csv | cut -d, -f6,7 >got &&
	printf "100,0\n200,0\n" >expect &&
	test_cmp expect got &&
	perfbot compare --csv --all same1 one >out.csv &&
	grep "^fio.write_bw_MBps," out.csv | cut -d, -f6,7 >got &&
	printf "100,0\n150,\n" >expect &&
	test_cmp expect got
'

test_expect_success '--axis KEY: columns named by a job key; one commit under two fs is told apart' '
	for fs in btrfs xfs; do
		mkdir -p $fs/base/0 &&
		printf "testcase: fio-basic\nfs: $fs\nruntime: 300s\nnr_threads: 8\n" >$fs/base/0/job.yaml || exit 1
	done &&
	printf "{\"fio.write_bw_MBps\": [100, 101, 100, 101]}\n" >btrfs/base/matrix.json &&
	printf "{\"fio.write_bw_MBps\": [200, 201, 200, 201]}\n" >xfs/base/matrix.json &&
	perfbot compare btrfs/base xfs/base >out &&
	sed -n 2,9p out >head &&
	printf "nr_threads/runtime/testcase:\n  8/300s/fio-basic\n\nfs: \n  btrfs\n  xfs\n\n           btrfs                         xfs \n" >expect &&
	test_cmp expect head &&
	perfbot compare --axis nr_threads btrfs/base xfs/base >out &&
	sed -n 2,3p out | grep -q "^  300s/fio-basic$" &&
	grep -q "^nr_threads: $" out &&
	perfbot compare --axis fs --csv btrfs/base xfs/base | grep -q "^fio.write_bw_MBps,xfs,xfs/base," &&
	test_must_fail 1 perfbot compare --axis nosuch btrfs/base xfs/base 2>err &&
	grep -q "btrfs/base: its job has no .nosuch. to compare along" err &&
	perfbot report --axis fs btrfs/base xfs/base | grep -q "^fs: $"
'

test_expect_success 'the axes are lkp Job#axes: rootfs by its file name, a false program left out' '
	for c in ra rb; do
		mkdir -p $c/0 &&
		printf "testcase: fio-basic\nrootfs: /osimage/debian/debian-x86_64.cgz\nsleep: false\nruntime: 300s\n" >$c/0/job.yaml || exit 1
	done &&
	printf "{\"fio.write_bw_MBps\": [100, 101]}\n" >ra/matrix.json &&
	printf "{\"fio.write_bw_MBps\": [200, 201]}\n" >rb/matrix.json &&
	perfbot compare ra rb >out &&
	sed -n 2,3p out >head &&
	printf "rootfs/runtime/testcase:\n  debian-x86_64.cgz/300s/fio-basic\n" >expect &&
	test_cmp expect head
'

test_expect_success 'the whole table, as ncompare prints it' '
	(cd "$DATA/compare" && perfbot compare 1d3d4437eae1bb2 9b17c62382dd2e7507984b989) >out &&
	test_cmp "$DATA/compare/expect/table.txt" out
'

test_expect_success '--pvalue adds the p column, --all every metric' '
	(cd "$DATA/compare" && perfbot compare --pvalue 1d3d4437eae1bb2 9b17c62382dd2e7507984b989) >out &&
	test_cmp "$DATA/compare/expect/pvalue.txt" out &&
	(cd "$DATA/compare" && perfbot compare --all --pvalue 1d3d4437eae1bb2 9b17c62382dd2e7507984b989) >out &&
	test_cmp "$DATA/compare/expect/all-pvalue.txt" out
'

# Rows of the formats' edges: stddev% blank up to 2% exactly, changes
# with one decimal below 100,000% and %.2g from there, averages with two
# decimals below 1000, whole from 1000 to 1e8, %.4g above.
test_expect_success 'number formats at their edges' '
	mkdir -p b n &&
	echo "{\"mytest.a\": [98, 102], \"mytest.b\": [97, 103], \"mytest.c\": [1, 1], \"mytest.d\": [1, 1], \"mytest.e\": [1000, 1000], \"mytest.f\": [100000000, 100000000], \"mytest.g\": [999.99, 999.99], \"mytest.h\": [100000001, 100000001], \"mytest.i\": [1, 1], \"mytest.z\": [0, 0], \"mytest.j%\": [2, 2]}" >b/matrix.json &&
	echo "{\"mytest.a\": [98, 102], \"mytest.b\": [97, 103], \"mytest.c\": [101, 101], \"mytest.d\": [1001, 1001], \"mytest.e\": [1000, 1000], \"mytest.f\": [100000000, 100000000], \"mytest.g\": [999.99, 999.99], \"mytest.h\": [100000001, 100000001], \"mytest.i\": [1000.999, 1000.999], \"mytest.z\": [5, 5], \"mytest.j%\": [5, 5]}" >n/matrix.json &&
	perfbot compare --all b n | grep "  mytest\." >rows &&
	cat >expect <<-\EOF &&
	    100.00            +0.0%     100.00        mytest.a
	    100.00 ±  3%      +0.0%     100.00 ±  3%  mytest.b
	      1.00        +10000.0%     101.00        mytest.c
	      1.00          +1e+05%       1001        mytest.d
	      1000            +0.0%       1000        mytest.e
	 100000000            +0.0%  100000000        mytest.f
	    999.99            +0.0%     999.99        mytest.g
	     1e+08            +0.0%      1e+08        mytest.h
	      1.00        +99999.9%       1000        mytest.i
	      2.00            +3.0        5.00        mytest.j%
	      0.00         +5e+102%       5.00        mytest.z
	EOF
	test_cmp expect rows
'

test_expect_success '--legacy prints the ~ N% layout' '
	perfbot compare --legacy $BASE $NEW >out &&
	head -n 1 out | grep -q "^1d3d4437eae1bb2  9b17c62382dd2e7507984b989$" &&
	grep -q "^---------------  -------------------------$" out &&
	# the columns of seed 001: the change ends at column 26, under its
	# "^^^^^^" legend, one blank before the 10-wide avg
	grep -q "^  13217683 ~ 1%     -36.6%    8380345 ~ 0%  vm-scalability.throughput$" out
'

# JSON: the same document as expect/json.json, numbers to 1e-9
json_same() {
	python3 -c "
import json, math, sys
def same(a, b, where):
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), where
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300), (where, a, b)
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), (where, list(a), b)
        for k in a: same(a[k], b[k], where + \".\" + k)
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), (where, a, b)
        for i, (x, y) in enumerate(zip(a, b)): same(x, y, where + \"[%d]\" % i)
    else:
        assert type(a) == type(b) and a == b, (where, a, b)
same(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), \"\")
" "$1" "$2"
}

test_expect_success '--json: rule, alpha, columns, every row and number' '
	(cd "$DATA/compare" && perfbot compare --json 1d3d4437eae1bb2 9b17c62382dd2e7507984b989) >out.json &&
	json_same "$DATA/compare/expect/json.json" out.json &&
	grep -q "^  \"alpha\": 0.05,$" out.json &&
	(cd "$DATA/compare" && perfbot compare --json --alpha 0.01 1d3d4437eae1bb2 9b17c62382dd2e7507984b989) >out.json &&
	grep -q "^  \"alpha\": 0.01,$" out.json &&
	(cd "$DATA/compare" && perfbot compare --json --rule lkp 1d3d4437eae1bb2 9b17c62382dd2e7507984b989) >out.json &&
	head -n 3 out.json >head &&
	printf "{\n  \"rule\": \"lkp\",\n  \"columns\": [\n" >expect &&
	test_cmp expect head
'

test_expect_success '--fail-on-regression exits 3 on a KPI regression, 0 otherwise' '
	test_must_fail 3 perfbot compare --fail-on-regression $BASE $NEW >/dev/null 2>err &&
	grep -q "regression: vm-scalability.throughput" err &&
	perfbot compare --fail-on-regression $NEW $BASE >/dev/null
'

test_expect_success 'lkp rule: its decisions in the same table' '
	(cd "$DATA/compare" && perfbot compare --rule lkp 1d3d4437eae1bb2 9b17c62382dd2e7507984b989) >out &&
	test_cmp "$DATA/compare/expect/lkp.txt" out &&
	mkdir -p b n &&
	echo "{\"mytest.score\": [100, 101], \"mytest.ops\": [20, 22]}" >b/matrix.json &&
	echo "{\"mytest.score\": [200, 202], \"mytest.ops\": [20, 21]}" >n/matrix.json &&
	perfbot compare b n | grep "  mytest\." >rows &&
	echo "    100.50          +100.0%     201.00        mytest.score" >expect &&
	test_cmp expect rows &&
	perfbot compare --rule lkp b n >out &&
	! grep -q "mytest" out &&
	tail -n 3 out >tail &&
	printf "%s\n" "               b                           n " "---------------- --------------------------- " "" >expect &&
	test_cmp expect tail
'

test_expect_success 'matrix.json file paths work as arguments' '
	(cd "$DATA/compare" && perfbot compare 1d3d4437eae1bb2/matrix.json 9b17c62382dd2e7507984b989/matrix.json) >out &&
	test_cmp "$DATA/compare/expect/table.txt" out
'

test_expect_success 'one run per side: footnote instead of a false claim' '
	mkdir -p a b &&
	echo "{\"t.ops\": [100]}" >a/matrix.json &&
	echo "{\"t.ops\": [50]}" >b/matrix.json &&
	perfbot compare a b >out &&
	tail -n 3 out >note &&
	printf "%s\n" "note: some metrics have fewer than 2 complete runs on a side, so no test" \
		"      can call them changed at alpha=0.05; run at least 4 per side" \
		"      (Mann-Whitney needs 4 per side to reach alpha=0.05)." >expect &&
	test_cmp expect note &&
	perfbot compare --alpha 0.01 a b >out &&
	grep -q "^      can call them changed at alpha=0.01; run at least 5 per side$" out &&
	perfbot compare --alpha 0.1 a b >out &&
	grep -q "^      can call them changed at alpha=0.1; run at least 4 per side$" out &&
	perfbot compare --alpha 0.2 a b >out &&
	grep -q "^      can call them changed at alpha=0.2; run at least 3 per side$" out &&
	perfbot compare --json --all a b >out.json &&
	python3 -c "import json; s=json.load(open(\"out.json\"))[\"stats\"][0]; assert s[\"avg\"]==[100, 50] and s[\"stddev\"]==[-1, -1], s"
'

test_expect_success 'incomplete runs are left out of the averages and the test' '
	mkdir -p i1 i2 &&
	echo "{\"mytest.ops\": [100, 102, 900], \"last_state.is_incomplete_run\": [0, 0, 1]}" >i1/matrix.json &&
	echo "{\"mytest.ops\": [200, 202, 204], \"last_state.is_incomplete_run\": [0, 0, 0]}" >i2/matrix.json &&
	perfbot compare i1 i2 | grep "  [a-z][a-z_-]*\.[a-z]" >rows &&
	cat >expect <<-\EOF &&
	          1:3          -33%            :3     last_state.is_incomplete_run
	    101.00          +100.0%     202.00        mytest.ops
	EOF
	test_cmp expect rows &&
	perfbot compare --json i1 i2 >out.json &&
	python3 -c "import json; c=json.load(open(\"out.json\"))[\"columns\"]; assert [(x[\"runs\"], x[\"complete_runs\"]) for x in c]==[(3, 2), (3, 3)], c"
'

test_expect_success 'bad input gives a clear error' '
	mkdir -p bad empty &&
	printf "{\n \"a\": [1,\n" >bad/matrix.json &&
	echo "{}" >empty/matrix.json &&
	test_must_fail 1 perfbot compare $BASE bad 2>err &&
	grep -q "bad/matrix.json:3:1: unexpected end of file" err &&
	test_must_fail 1 perfbot compare $BASE empty 2>err &&
	grep -q "empty matrix" err &&
	test_must_fail 1 perfbot compare $BASE nowhere 2>err &&
	grep -q "cannot read" err &&
	test_must_fail 2 perfbot compare $BASE &&
	test_must_fail 2 perfbot compare --rule nope $BASE $NEW &&
	test_must_fail 2 perfbot compare --alpha 2 $BASE $NEW &&
	test_must_fail 2 perfbot compare --alpha 1 $BASE $NEW &&
	test_must_fail 2 perfbot compare --alpha 0 $BASE $NEW &&
	perfbot compare --alpha 0.999 $BASE $NEW >/dev/null
'

test_expect_success 'a bad NEW: the columns before it warn, in order, and nothing after it is read' '
	mkdir -p w1 w2 gzonly bad &&
	printf "{\n \"a\": [1,\n" >bad/matrix.json &&
	printf "{\"a.x\": [1, 2], \"s.t\": [\"x\", \"y\"]}\n" >w1/matrix.json &&
	printf "{\"a.x\": [3, 4], \"s.u\": [\"x\", 1]}\n" >w2/matrix.json &&
	printf "{\"a.x\": [5, 6]}\n" | gzip >gzonly/matrix.json.gz &&
	test_must_fail 1 perfbot compare w1 bad w2 2>err &&
	printf "%s\n" "perfbot: warning: w1/matrix.json:1:17: metric '"'"'s.t'"'"': sample 0 is not a number; metric skipped" \
		"perfbot: bad/matrix.json:3:1: unexpected end of file, expected a JSON value after '"'"','"'"'" >expect &&
	test_cmp expect err &&
	test_must_fail 1 perfbot compare --rule lkp w1 w2 nowhere bad 2>err &&
	printf "%s\n" "perfbot: warning: w1/matrix.json:1:17: metric '"'"'s.t'"'"': sample 0 is not a number; metric skipped" \
		"perfbot: warning: w2/matrix.json:1:17: metric '"'"'s.u'"'"': sample 0 is not a number; metric skipped" \
		"perfbot: cannot read '"'"'nowhere'"'"': No such file or directory" >expect &&
	test_cmp expect err &&
	perfbot compare -a w1 gzonly 2>err >out &&
	grep -q "a.x$" out
'

test_expect_success 'a change hidden at 2 runs a side is named after the table, with its p and the runs that would show it' '
	mkdir hb hn &&
	echo "{\"will-it-scale.per_process_ops\": [1000000, 1080000], \"vmstat.cpu.us\": [50, 51]}" >hb/matrix.json &&
	echo "{\"will-it-scale.per_process_ops\": [663000, 716000], \"vmstat.cpu.us\": [50, 51]}" >hn/matrix.json &&
	perfbot compare hb hn >out &&
	test $(grep -c per_process_ops out) = 1 &&
	grep -q "^note: 1 change big enough for the table is not shown, at 2 runs a side:$" out &&
	grep -q "^ *-33\\.7%  p=0\\.026, needs < 0\\.005 *3 runs *will-it-scale.per_process_ops$" out &&
	! grep -q "vmstat.cpu.us" out &&
	perfbot compare --rule lkp hb hn >lkp 2>err &&
	! grep -q note lkp &&
	grep -q "lkp.s rule compares only with 3 runs on a side" err &&
	perfbot compare --all hb hn >all &&
	! grep -q note all
'

test_done
