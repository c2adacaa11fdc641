#!/bin/sh
# perfbot results: the stored values by job, commit, metric and parameter,
# as a table, JSON and CSV (read back with Python's json and csv modules)
. ./lib.sh

GEN="python3 $(cd ../.. && pwd)/bench/gen-store.py"

# A store of two jobs (30 roots of 3 runs, and 2 roots of 1), an odd
# metric name, a NaN, an incomplete run and a job.yaml with parameters.
setup_store() {
	$GEN tree --roots 30 --metrics 5 --runs 3 &&
	$GEN tree --roots 2 --metrics 3 --runs 1 --path-params other --seed 7 &&
	r=tree/odd/pp/box/fs/kc/cc/abcdef1234 &&
	mkdir -p $r/0 $r/1 &&
	printf "testcase: odd\nfs: xfs\nruntime: 30s\n" >$r/0/job.yaml &&
	cat >$r/matrix.json <<-EOF &&
	{"odd,\"name\"": [1, 2], "plain": [NaN, 2.5], "last_state.is_incomplete_run": [0, 1],
	 "stats_source": ["$(pwd)/$r/0/stats.json", "$(pwd)/$r/1/stats.json"]}
	EOF
	perfbot index -q --db p.db tree >/dev/null
}

# check.py FORMAT FILE: the output against the matrix.json files
cat >"$TRASH/check.py" <<'EOF'
import csv, json, math, os, sys
fmt, path = sys.argv[1], sys.argv[2]
want = {}
for d, _, files in os.walk("tree"):
    if "matrix.json" not in files:
        continue
    m = json.load(open(os.path.join(d, "matrix.json")))
    src = m.pop("stats_source")
    root = os.path.realpath(d)
    for name, vals in m.items():
        for run, v in enumerate(vals):
            num = int(os.path.basename(os.path.dirname(src[run])))
            want[(root, num, name)] = v
got = {}
if fmt == "json":
    for r in json.load(open(path)):
        for name, vals in r["stats"].items():
            for run, v in zip(r["runs"], vals):
                if v is not None:
                    got[(r["path"], run["run"], name)] = v
else:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        root = os.path.dirname(row["path"])
        got[(root, int(row["run"]), row["metric"])] = float(row["value"])
def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b
filt = sys.argv[3] if len(sys.argv) > 3 else None
if filt:
    want = {k: v for k, v in want.items() if eval(filt, {"k": k})}
assert set(got) == set(want), (len(got), len(want), sorted(set(got) ^ set(want))[:5])
bad = [k for k in want if not same(float(got[k]), float(want[k]))]
assert not bad, bad[:5]
print(len(got))
EOF

test_expect_success 'JSON: every stored value, as the matrix files have them' '
	setup_store &&
	perfbot results --db p.db --json >out.json &&
	test "$(python3 "$TRASH/check.py" json out.json)" = $((30 * 3 * 5 + 2 * 3 + 3 * 2)) &&
	python3 -c "
import json
d = json.load(open(\"out.json\"))
odd = [r for r in d if r[\"testcase\"] == \"odd\"][0]
assert [r[\"incomplete\"] for r in odd[\"runs\"]] == [False, True], odd
assert odd[\"commit\"] == \"abcdef1234\" and odd[\"path_params\"] == \"pp\" and odd[\"compiler\"] == \"cc\"
assert odd[\"runs\"][1][\"path\"].endswith(\"/abcdef1234/1\")
assert odd[\"stats\"][\"odd,\\\"name\\\"\"] == [1, 2]
assert str(odd[\"stats\"][\"plain\"][0]) == \"nan\"
# jobs by identity, then commits
keys = [(r[\"testcase\"], r[\"path_params\"], r[\"commit\"]) for r in d]
assert keys == sorted(keys), keys
"
'

test_expect_success 'CSV: RFC 4180 with a header, one row per value, odd names quoted' '
	setup_store &&
	perfbot results --db p.db --csv >out.csv &&
	test "$(python3 "$TRASH/check.py" csv out.csv)" = $((30 * 3 * 5 + 2 * 3 + 3 * 2)) &&
	head -1 out.csv | tr -d "\r" >head &&
	echo "testcase,path_params,tbox_group,rootfs,kconfig,compiler,commit,run,incomplete,metric,value,path" >expect &&
	test_cmp expect head &&
	grep -q "^odd,pp,box,fs,kc,cc,abcdef1234,0,0,\"odd,\"\"name\"\"\",1,/" out.csv &&
	grep -q "^odd,pp,box,fs,kc,cc,abcdef1234,1,1,plain,2.5,/" out.csv &&
	grep -q ",plain,NaN," out.csv
'

test_expect_success 'filters: --testcase, --commit prefixes, --metric globs, --param, --job' '
	setup_store &&
	perfbot results --db p.db --json --commit c0000000000000000000000000000000000000001 --commit abc >o.json &&
	python3 "$TRASH/check.py" json o.json "k[0].split(\"/\")[-1][:4] == \"abcd\" or k[0].split(\"/\")[-1].startswith(\"c0000000000000000000000000000000000000001\")" &&
	perfbot results --db p.db --csv --metric "mybench.*" --metric "*metric_1" >o.csv &&
	python3 "$TRASH/check.py" csv o.csv "k[2] == \"mybench.throughput\" or k[2].endswith(\"metric_1\")" &&
	perfbot results --db p.db --json --testcase odd >o.json &&
	python3 "$TRASH/check.py" json o.json "\"/odd/\" in k[0]" &&
	perfbot results --db p.db --json --param fs=xfs --param runtime=30s >o.json &&
	python3 "$TRASH/check.py" json o.json "\"/odd/\" in k[0]" &&
	perfbot results --db p.db --json --job mybench/other >o.json &&
	python3 "$TRASH/check.py" json o.json "\"/other/\" in k[0]" &&
	perfbot results --db p.db --json --param path_params=other --metric mybench.throughput >o.json &&
	test "$(python3 "$TRASH/check.py" json o.json "\"/other/\" in k[0] and k[2] == \"mybench.throughput\"")" = 2
'

test_expect_success 'one metric over many roots (metric by metric) equals the run-by-run read' '
	setup_store &&
	perfbot results --db p.db --json --metric mybench.throughput >one.json &&
	perfbot results --db p.db --json >all.json &&
	python3 -c "
import json
one = json.load(open(\"one.json\"))
all = json.load(open(\"all.json\"))
cut = [dict(r, stats={k: v for k, v in r[\"stats\"].items() if k == \"mybench.throughput\"}) for r in all]
cut = [r for r in cut if r[\"stats\"]]
assert one == cut, (len(one), len(cut))
assert len(one) == 32
"
'

test_expect_success 'the text table: a block per root, a column per run, * for incomplete runs' '
	setup_store &&
	perfbot results --db p.db --testcase odd >out &&
	root=$(cd tree/odd/pp/box/fs/kc/cc/abcdef1234 && pwd -P) &&
	cat >expect <<-EOF &&
	# odd/pp/box/fs/kc/cc abcdef1234
	# $root
	                                                  run 0           run 1*
	last_state.is_incomplete_run                          0               1
	odd,"name"                                            1               2
	plain                                               NaN             2.5
	EOF
	test_cmp expect out
'

test_expect_success 'a stored name with terminal escapes is shown with ? for each control' '
	r=esc/odd/pp/box/fs/kc/cc/abcdef1234 &&
	mkdir -p $r/0 &&
	printf "testcase: odd\n" >$r/0/job.yaml &&
	cat >$r/matrix.json <<-EOF &&
	{"x\u001b]0;owned\u0007.y\u001b[2J": [1], "stats_source": ["$(pwd)/$r/0/stats.json"]}
	EOF
	perfbot index -q --db esc.db esc >/dev/null &&
	perfbot results --db esc.db >out &&
	grep "^x?\]0;owned?\.y?\[2J  " out &&
	! grep "$(printf "\033")" out
'

test_expect_success 'nothing matches: an empty array, a header, or a note; exit 0' '
	setup_store &&
	perfbot results --db p.db --json --testcase none >o.json &&
	test "$(python3 -c "import json; print(json.load(open(\"o.json\")))")" = "[]" &&
	perfbot results --db p.db --csv --metric "no.*" >o.csv &&
	test $(wc -l <o.csv) = 1 &&
	perfbot results --db p.db --commit zzz >o.txt 2>err &&
	test ! -s o.txt &&
	grep -q "^perfbot: no stored results match$" err
'

test_expect_success 'bad input: a --param without =, a missing store, stray arguments' '
	setup_store &&
	test_must_fail 1 perfbot results --db p.db --param fs 2>err &&
	grep -q "^perfbot: --param expects KEY=VALUE, got .fs.$" err &&
	test_must_fail 1 perfbot results --db nothere.db 2>err &&
	grep -q "^perfbot: store .nothere.db. does not exist: .perfbot index. builds it$" err &&
	test ! -f nothere.db &&
	test_must_fail 2 perfbot results --db p.db stray 2>err &&
	grep -q "unexpected argument .stray." err
'

test_done
