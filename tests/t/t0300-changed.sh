#!/bin/sh
# perfbot changed: lkp's changed-stat records (--rule lkp) and the stat
# rule's, as YAML-like text or JSON; option and input errors.
. ./lib.sh

BASE=$DATA/changed/base
NEW=$DATA/changed/new

test_expect_success 'lkp rule: the record of an improvement, as lkp writes it' '
	perfbot changed --rule lkp $BASE $NEW >out &&
	sed -n "1,21p" out >head &&
	cat >expect <<-\EOF &&
	will-it-scale.per_process_ops:
	  stat: will-it-scale.per_process_ops
	  interval: "[ 1.198e+05  - 1.215e+05  ] -- [ 99500      - 1.01e+05   ]"
	  a: [119800, 120000, 121500]
	  b: [99500, 100000, 101000]
	  is_function_stat: false
	  is_latency: false
	  ratio: 1.2
	  delta: 20000
	  mean_a: 120000
	  mean_b: 100000
	  x: 1700
	  y: 18800
	  z: 1500
	  min_a: 119800
	  max_a: 121500
	  min_b: 99500
	  max_b: 101000
	  max: 121500
	  nr_run: 3
	  gap_distance: 2
	EOF
	test_cmp expect head
'

test_expect_success 'lkp rule: which stats change, in lkp order' '
	perfbot changed --rule lkp $BASE $NEW >out &&
	grep "^[^ ]" out >names &&
	cat >expect <<-\EOF &&
	will-it-scale.per_process_ops:
	"dmesg.WARNING:at_mm/foo.c:#bar":
	"dmesg.BUG:fixed_in_new":
	EOF
	test_cmp expect names
'

test_expect_success '--csv: a line per changed metric, the same numbers as --json' '
	perfbot changed --rule lkp --csv $BASE $NEW >out.csv &&
	perfbot changed --rule lkp --json $BASE $NEW >out.json &&
	head -n 1 out.csv | grep -q "^stat,mean_a,mean_b,min_a,max_a,min_b,max_b,ratio,delta,x,y,z,nr_run,p_welch,p_mwu.$" &&
	python3 - <<-\EOF
	import csv, json
	rows = list(csv.DictReader(open("out.csv", newline="")))
	j = json.load(open("out.json"))
	assert [r["stat"] for r in rows] == list(j), ([r["stat"] for r in rows], list(j))
	for r in rows:
	    for k in ("mean_a", "mean_b", "ratio", "delta", "nr_run"):
	        assert float(r[k]) == float(j[r["stat"]][k]), (r["stat"], k, r[k], j[r["stat"]][k])
	    assert r["p_welch"] == "" and r["p_mwu"] == ""
	EOF
	test_must_fail 2 perfbot changed --csv --json $BASE $NEW 2>err &&
	grep -q "give one" err
'

test_expect_success '-m shows denylisted families (interrupts)' '
	perfbot changed --rule lkp -m $BASE $NEW >out &&
	grep -q "^interrupts.CPU0.LOC:" out &&
	perfbot changed --rule lkp $BASE $NEW >out2 &&
	! grep -q "^interrupts" out2
'

test_expect_success '--regression-only drops the fix, keeps the regression' '
	perfbot changed --rule lkp --regression-only $BASE $NEW >out &&
	grep -q "^\"dmesg.WARNING:at_mm/foo.c:#bar\":" out &&
	! grep -q "fixed_in_new" out &&
	grep -q "^  regression-only: true$" out
'

test_expect_success '--json: one object keyed by metric, lkp number types' '
	perfbot changed --rule lkp --json -m --gap 0.5 $BASE $NEW >out.json &&
	python3 - <<-\EOF
	import json
	d = json.load(open("out.json"))
	assert list(d) == ["will-it-scale.per_process_ops", "interrupts.CPU0.LOC",
	                   "dmesg.WARNING:at_mm/foo.c:#bar", "dmesg.BUG:fixed_in_new"], list(d)
	r = d["will-it-scale.per_process_ops"]
	assert r["stat"] == "will-it-scale.per_process_ops"
	assert r["mean_a"] == 120000 and isinstance(r["mean_a"], int)
	assert isinstance(r["ratio"], float) and r["ratio"] == 1.2
	assert r["gap"] == 0.5 and r["more"] is True and "gap_distance" not in r
	f = d["dmesg.BUG:fixed_in_new"]
	assert f["ratio"] == 5 and isinstance(f["ratio"], int) and f["is_function_stat"] is True
	EOF
'

test_expect_success 'stat rule (the default) adds p-values' '
	perfbot changed --json $BASE $NEW >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); r=d[\"will-it-scale.per_process_ops\"]; assert 0 <= r[\"p_welch\"] <= 1 and \"p_mwu\" in r" &&
	perfbot changed --rule stat --alpha 0.01 $BASE $NEW >out &&
	grep -q "^  p_welch: " out
'

test_expect_success 'matrix.json files, gzipped ones, and dirs read the same' '
	perfbot changed --rule lkp $BASE $NEW >by-dir &&
	perfbot changed --rule lkp $BASE/matrix.json $NEW/matrix.json >by-file &&
	test_cmp by-dir by-file &&
	mkdir gz &&
	gzip -c $NEW/matrix.json >gz/matrix.json.gz &&
	perfbot changed --rule lkp $BASE gz >by-gz &&
	test_cmp by-dir by-gz
'

test_expect_success '--variance with fewer than 10 runs: nothing, as lkp' '
	perfbot changed --rule lkp --json --variance 1 $BASE $NEW >out &&
	test "$(cat out)" = "{}"
'

test_expect_success 'incomplete runs: only pass/fail stats, then the rest without them' '
	mkdir b n &&
	echo "{\"t.ops\": [10, 10, 10], \"stats_source\": [\"0\", \"1\", \"2\"]}" >b/matrix.json &&
	echo "{\"t.ops\": [20, 99, 20, 20], \"last_state.is_incomplete_run\": [0, 1, 0, 0], \"stats_source\": [\"0\", \"1\", \"2\", \"3\"]}" >n/matrix.json &&
	perfbot changed --rule lkp --json b n >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); r=d[\"t.ops\"]; assert r[\"a\"]==[20,20,20] and r[\"nr_run\"]==3, r; assert d[\"last_state.is_incomplete_run\"][\"nr_run\"]==4"
'

test_expect_success 'no change: empty output, exit 0' '
	perfbot changed --rule lkp $BASE $BASE >out &&
	test ! -s out &&
	perfbot changed --rule lkp --json $BASE $BASE >out &&
	test "$(cat out)" = "{}"
'

test_expect_success 'bad options exit 2 with the usage' '
	test_must_fail 2 perfbot changed --bogus $BASE $NEW 2>err &&
	grep -q "unknown option .--bogus." err && grep -q "^usage: perfbot changed" err &&
	test_must_fail 2 perfbot changed --rule fuzzy $BASE $NEW 2>err &&
	grep -q "not a rule" err &&
	test_must_fail 2 perfbot changed --gap x $BASE $NEW 2>err &&
	grep -q "\-\-gap: .x. is not a number" err &&
	test_must_fail 2 perfbot changed --alpha 2 $BASE $NEW 2>err &&
	grep -q "not between 0 and 1" err &&
	test_must_fail 2 perfbot changed --alpha 1 $BASE $NEW 2>err &&
	grep -q "^perfbot: --alpha: 1 is not between 0 and 1$" err &&
	test_must_fail 2 perfbot changed --alpha 0 $BASE $NEW 2>err &&
	perfbot changed --alpha 0.999 $BASE $NEW >/dev/null &&
	test_must_fail 2 perfbot changed -p 2>err &&
	grep -q "needs a value" err &&
	test_must_fail 2 perfbot changed $BASE 2>err &&
	grep -q "expected BASE and NEW, got 1 argument$" err
'

test_expect_success 'unreadable or broken input exits 1 naming the file' '
	test_must_fail 1 perfbot changed $BASE nowhere 2>err &&
	grep -q "nowhere" err &&
	mkdir bad &&
	printf "{\n \"a\": [1,\n" >bad/matrix.json &&
	test_must_fail 1 perfbot changed --rule lkp $BASE bad 2>err &&
	grep -q "bad/matrix.json:3" err
'

test_done
