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

test_expect_success '--all prints every metric, --pvalue adds p=' '
	perfbot compare --all --pvalue $BASE $NEW >out &&
	grep -q "interrupts.CAL" out &&
	grep -q "p=" out
'

test_expect_success '--legacy prints the ~ N% layout' '
	perfbot compare --legacy $BASE $NEW >out &&
	head -n 1 out | grep -q "^1d3d4437eae1bb2  9b17c62382dd2e7507984b989$" &&
	grep -q "^---------------  -------------------------$" out &&
	grep -q " ~ [0-9]%  *-36\\.[0-9]%  *8380345 ~ 0%  vm-scalability.throughput$" out
'

test_expect_success '--json is valid JSON with the rows' '
	perfbot compare --json $BASE $NEW >out.json &&
	python3 -c "import json,sys; d=json.load(open(\"out.json\")); assert any(s[\"stat\"]==\"vm-scalability.throughput\" and s[\"regression\"] for s in d[\"stats\"])"
'

test_expect_success '--fail-on-regression exits 3 on a KPI regression, 0 otherwise' '
	test_must_fail 3 perfbot compare --fail-on-regression $BASE $NEW >/dev/null 2>err &&
	grep -q "regression: vm-scalability.throughput" err &&
	perfbot compare --fail-on-regression $NEW $BASE >/dev/null
'

test_expect_success 'lkp rule prints the same kind of table' '
	perfbot compare --rule lkp $BASE $NEW >out &&
	grep -q "vm-scalability.throughput$" out
'

test_expect_success 'matrix.json file paths work as arguments' '
	perfbot compare $BASE/matrix.json $NEW/matrix.json >out &&
	grep -q "vm-scalability.throughput$" out
'

test_expect_success 'one run per side: footnote instead of a false claim' '
	mkdir -p a b &&
	echo "{\"t.ops\": [100]}" >a/matrix.json &&
	echo "{\"t.ops\": [50]}" >b/matrix.json &&
	perfbot compare a b >out &&
	grep -q "note: .*fewer than 2" out
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
	test_must_fail 2 perfbot compare --alpha 2 $BASE $NEW
'

test_done
