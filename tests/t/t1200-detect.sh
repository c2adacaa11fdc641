#!/bin/sh
# perfbot detect: change points of a history given as JSON (--input), the
# wording of each change, --json, the options' boundaries, bad input.
. ./lib.sh

# hist METRIC < lines "TAG S1 S2 S3" (TAG "-" for none): a history JSON
# with commits c01, c02, ... (padded to 40 characters) and subjects.
hist() {
	awk -v metric="$1" 'BEGIN { printf "{\"metric\": \"%s\", \"branch\": \"main\", \"points\": [\n", metric }
	{
		n++
		sep = n > 1 ? ",\n" : ""
		tag = $1 == "-" ? "" : "\"" $1 "\""
		printf "%s{\"commit\": \"c%02d%038d\", \"subject\": \"commit %d\", \"tags\": [%s], \"samples\": [", sep, n, 0, n, tag
		for (i = 2; i <= NF; i++) printf "%s%s", (i > 2 ? ", " : ""), $i
		printf "]}"
	}
	END { print "\n]}" }'
}

# the seed-001 shape: a drop between v1.1 and v1.2 that stays
regression() {
	hist mytest.throughput <<-\EOF
	v1.0 1000 1003 998
	- 1001 999 1004
	- 997 1002 1000
	v1.1 1002 998 1001
	- 702 699 703
	- 701 698 700
	v1.2 699 703 701
	- 700 702 698
	v1.3 703 697 701
	EOF
}

test_expect_success 'a regression between two tags that stays, in the seed'"'"'s words' '
	regression >h.json &&
	perfbot detect --input h.json >out &&
	cat >expect <<-\EOF &&
	mytest.throughput along main: 9 tested commits, 1 change (higher is better; pvalue 0.01, min-change 1%)

	regression: -30.0% (segment means 1000.42 -> 700.467, p = 6.5e-33) between v1.1 and v1.2, and it'"'"'s still low as of v1.3
	    last before c04000000000  v1.1          1000.33 ±  0%   3 runs  commit 4
	    first after c05000000000                701.333 ±  0%   3 runs  commit 5
	EOF
	test_cmp expect out
'

test_expect_success '--json: the fields, read back by Python' '
	regression >h.json &&
	perfbot detect --input h.json --json >out.json &&
	python3 - <<-\EOF
	import json
	d = json.load(open("out.json"))
	assert d["metric"] == "mytest.throughput" and d["points"] == 9 and d["direction"] == 1
	(c,) = d["changes"]
	assert c["kind"] == "regression", c
	assert abs(c["change"] - (700.4666666666667 / 1000.4166666666667 - 1)) < 1e-12
	assert c["last_before"]["commit"].startswith("c04") and c["last_before"]["tags"] == ["v1.1"]
	assert c["first_after"]["commit"].startswith("c05") and c["first_after"]["runs"] == 3
	assert c["tag_before"] == "v1.1" and c["tag_after"] == "v1.2"
	assert c["latest_tag"] == "v1.3" and c["still"] is True
	assert 0 < c["p"] <= 0.01 and c["p"] == max(c["p_split"], c["p_local"])
	assert c["where"] == "between v1.1 and v1.2, and it'"'"'s still low as of v1.3"
	EOF
'

test_expect_success 'same history, same answer; standard input works' '
	regression >h.json &&
	perfbot detect --input h.json --json >a &&
	perfbot detect --input - --json <h.json >b &&
	test_cmp a b
'

test_expect_success 'a fixed regression: no longer low as of the latest tag' '
	hist mytest.throughput >h.json <<-\EOF &&
	v1.0 1000 1003 998
	- 1001 999 1004
	- 997 1002 1000
	v1.1 1002 998 1001
	- 802 799 803
	- 801 798 800
	v1.2 799 803 801
	- 1000 1002 998
	- 1003 997 1001
	v1.3 1001 999 1000
	EOF
	perfbot detect --input h.json >out &&
	grep "^regression: -20.0% .* between v1.1 and v1.2, and it'"'"'s no longer low as of v1.3$" out &&
	grep "^improvement: +24.9% .* between v1.2 and v1.3, and it'"'"'s still high as of v1.3$" out
'

test_expect_success 'lower is better: a latency that grows is the regression' '
	regression | sed s/mytest.throughput/mytest.latency/ >h.json &&
	perfbot detect --input h.json >out &&
	grep "lower is better" out &&
	grep "^improvement: -30.0%" out &&
	perfbot detect --input h.json --fail-on-regression >/dev/null
'

test_expect_success 'unknown direction: a change, and --metric names it' '
	regression >h.json &&
	perfbot detect --input h.json --metric mytest.score >out &&
	grep "^mytest.score along main: .*direction unknown" out &&
	grep "^change: -30.0%" out
'

test_expect_success '--fail-on-regression exits 3 on a regression' '
	regression >h.json &&
	test_must_fail 3 perfbot detect --input h.json --fail-on-regression >/dev/null
'

# drifting: 40 commits whose level grows by 0.5% a commit, noise of a few
# tenths of a percent; the last one jumps 30% higher when given "jump"
drifting() {
	awk -v jump="${1-}" 'BEGIN {
		for (i = 0; i < 40; i++) {
			v = 1000 + 5 * i + ((i * 7) % 5 - 2) * 3
			if (i == 39 && jump == "jump") v = 1600
			printf "%s %d %d %d\n", (i % 10 ? "-" : "v" i / 10), v - 2, v + 1, v + 3
		}
	}' | hist mytest.throughput
}

test_expect_success 'a slow drift is one drift, not steps; a jump of the latest commit is said apart' '
	drifting >d.json &&
	perfbot detect --input d.json >out &&
	grep "^mytest.throughput along main: 40 tested commits, 0 changes" out &&
	grep "^drift: +19.[0-9]% over 40 commits (.*) from v0 to c40000000000, a slow improvement, not a step$" out &&
	! grep "^latest" out &&
	drifting jump >d.json &&
	perfbot detect --input d.json >out &&
	grep "^drift: +1[0-9].[0-9]% over 39 commits (.*) from v0 to c39000000000, a slow improvement, not a step$" out &&
	grep "^latest: +[0-9.]*% at the last commit (.*), too few to be a change yet$" out &&
	grep "^    jumped      c40000000000  " out &&
	perfbot detect --input d.json --json >out.json &&
	python3 - <<-\EOF
	import json
	d = json.load(open("out.json"))
	assert d["changes"] == [], d["changes"]
	(dr,) = d["drifts"]
	assert dr["kind"] == "improvement" and dr["commits"] == 39, dr
	assert dr["first"]["tags"] == ["v0"] and dr["last"]["index"] == 38, dr
	l = d["latest"]
	# from the end of the drift line, not the lagging mean of the window
	assert l["points"] == 1 and l["first"]["index"] == 39, l
	assert abs(l["after"] - 4802 / 3) < 1e-9 and l["before"] == dr["to"], l
	assert abs(l["change"] - (l["after"] / l["before"] - 1)) < 1e-12, l
	EOF
'

test_expect_success 'a flat history has no change' '
	hist mytest.throughput >h.json <<-\EOF &&
	v1.0 1000 1003 998
	- 1001 999 1004
	- 997 1002 1000
	v1.1 1002 998 1001
	- 1002 999 1003
	- 1001 998 1000
	v1.2 999 1003 1001
	EOF
	perfbot detect --input h.json >out &&
	grep "^mytest.throughput along main: 7 tested commits, 0 changes" out &&
	test $(wc -l <out) -eq 1
'

test_expect_success '--min-change is inclusive; --pvalue is the level' '
	regression >h.json &&
	perfbot detect --input h.json --min-change 29.9% >out &&
	grep "^regression" out &&
	perfbot detect --input h.json --min-change 0.3 >out &&
	grep ", 0 changes" out &&
	perfbot detect --input h.json --json --pvalue 0.5 >out &&
	grep "\"pvalue\": 0.5," out
'

test_expect_success 'a history too short for a change says so' '
	regression | head -n 6 >h &&
	{ cat h; echo "]}"; } | sed "6s/,\$//" >short.json &&
	perfbot detect --input short.json >out &&
	grep "5 tested commits, 0 changes" out &&
	grep "^(too few to tell: a change needs 3 tested commits on each side)$" out
'

test_expect_success 'an empty history is an error' '
	echo "{\"metric\": \"m\", \"points\": []}" >e.json &&
	test_must_fail 1 perfbot detect --input e.json 2>err &&
	test_cmp - err <<-\EOF
	perfbot: e.json: no tested commits in the history
	EOF
'

test_expect_success 'bad input: one line naming file, line, column and what was expected' '
	printf "{\"points\": [\n  {\"commit\": \"a\", \"mean\": \"x\"}\n]}\n" >bad.json &&
	test_must_fail 1 perfbot detect --input bad.json 2>err &&
	test_cmp - err <<-\EOF &&
	perfbot: bad.json:2:27: mean: expected a number
	EOF
	printf "{\"points\": [{\"mean\": 1}]}" >bad.json &&
	test_must_fail 1 perfbot detect --input bad.json 2>err &&
	grep "^perfbot: bad.json:1:13: a point without \"commit\"$" err &&
	printf "{\"points\": [{\"commit\": \"abc\", \"samples\": []}]}" >bad.json &&
	test_must_fail 1 perfbot detect --input bad.json 2>err &&
	grep "point abc: \"samples\" is empty" err &&
	printf "{\"points\": [{\"commit\": \"abc\", \"mean\": 1, \"runs\": 0.5}]}" >bad.json &&
	test_must_fail 1 perfbot detect --input bad.json 2>err &&
	grep "\"runs\" must be a whole number >= 1" err &&
	printf "{\"metric\": \"m\"}" >bad.json &&
	test_must_fail 1 perfbot detect --input bad.json 2>err &&
	grep "no \"points\" in the history" err &&
	test_must_fail 1 perfbot detect --input missing.json 2>err &&
	grep "^perfbot: cannot read .missing.json.: No such file or directory$" err
'

test_expect_success 'usage errors exit 2' '
	regression >h.json &&
	test_must_fail 2 perfbot detect 2>err &&
	grep "^perfbot: detect needs --repo DIR and --metric M (the store.s history), or --input FILE$" err &&
	test_must_fail 2 perfbot detect --repo . 2>err &&
	grep "detect needs --metric with --repo" err &&
	test_must_fail 2 perfbot detect --input h.json --repo . 2>err &&
	grep "the history comes from one of them" err &&
	test_must_fail 2 perfbot detect --input h.json --bisect 2>err &&
	grep "bisect needs --repo and --job" err &&
	test_must_fail 2 perfbot detect --input h.json --pvalue 1 2>err &&
	grep "between 0 and 1" err &&
	test_must_fail 2 perfbot detect --input h.json --pvalue x 2>err &&
	test_must_fail 2 perfbot detect --input h.json --min-change -1 2>err &&
	test_must_fail 2 perfbot detect --input h.json --seed 1.5 2>err &&
	test_must_fail 2 perfbot detect --input h.json extra 2>err
'

# make_repo DIR: 16 commits on main, VALUE 1000 until commit 8 then 850,
# tags v1.0 (commit 0), v1.1 (commit 6), v1.2 (commit 12), v1.3 (15).
release_tags() { case $1 in 0) git tag v1.0 ;; 6) git tag v1.1 ;; 12) git tag v1.2 ;; 15) git tag v1.3 ;; esac; }
make_repo() { test_value_repo "$1" 16 8 release_tags; }

# The benchmark: VALUE of the checkout (or of $SHA when set) with +-1%
# repeatable noise from a run counter, as mytest lines.
cat >"$TRASH/bench.sh" <<'EOS'
#!/bin/sh
n=$(cat "$COUNTER" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNTER"
if [ -n "$SHA" ]; then v=$(git -C "$REPO" show "$SHA:VALUE"); else v=$(cat "$PERFBOT_BUILD_DIR/VALUE"); fi
noise=$(awk -v n="$n" 'BEGIN { srand(n * 7 + 1); print int((rand() - 0.5) * 20) }')
echo "throughput: $((v + noise))"
EOS
chmod +x "$TRASH/bench.sh"
printf 'testcase: mytest\n' >"$TRASH/job.yaml"

# test every 3rd commit of the line (0, 3, ..., 15) into res/ and s.db
test_commits() {
	export REPO=$(pwd)/repo COUNTER=$(pwd)/counter &&
	for i in 0 3 6 9 12 15; do
		SHA=$(git -C repo log --format=%H --grep="^commit $i$" main) &&
		SHA=$SHA perfbot run -n 3 -M "" -r res -c $SHA --db s.db "$TRASH/job.yaml" \
			-- "$TRASH/bench.sh" >/dev/null 2>&1 || return 1
	done
}

test_expect_success 'from the store: the history of a branch, as perfbot history reads it' '
	make_repo repo && test_commits &&
	perfbot detect --repo repo --branch main --metric mytest.throughput --db s.db >out &&
	c6=$(git -C repo rev-parse v1.1) && c9=$(git -C repo log --format=%H --grep="^commit 9$" main) &&
	grep "^mytest.throughput along main: 6 tested commits, 1 change (higher is better" out &&
	grep "^regression: -15.*between v1.1 and v1.2, and it.s still low as of v1.3$" out &&
	grep "^    last before $(echo $c6 | cut -c1-12)  v1.1 .*  3 runs  commit 6$" out &&
	grep "^    first after $(echo $c9 | cut -c1-12) .*  3 runs  commit 9$" out &&
	perfbot history --repo repo --branch main --metric mytest.throughput --db s.db --json >h.json &&
	perfbot detect --input h.json >out2 &&
	test_cmp out out2
'

test_expect_success '--bisect hands the range to perfbot bisect, once' '
	make_repo repo && test_commits &&
	perfbot detect --repo repo --branch main --metric mytest.throughput --db s.db >/dev/null &&
	c8=$(git -C repo log --format=%H --grep="^commit 8$" main) &&
	unset SHA &&
	perfbot detect --repo repo --branch main --metric mytest.throughput --db s.db --bisect \
		--job "$TRASH/job.yaml" --result-root res --state-dir st -- "$TRASH/bench.sh" >out 2>err &&
	grep "^bisecting mytest.throughput between .* (2 untested commits)$" out &&
	grep "^first bad commit: $c8 (\"commit 8\")$" out &&
	# the bisect'"'"'s runs are in the store: commits 7 and 8 join the history
	ls st/bisect-*.state >states && test $(wc -l <states) = 1 &&
	n1=$(cat counter) &&
	perfbot detect --repo repo --branch main --metric mytest.throughput --db s.db --bisect \
		--job "$TRASH/job.yaml" --result-root res --state-dir st -- "$TRASH/bench.sh" >out2 2>&1 &&
	test "$(cat counter)" = "$n1" &&
	c7=$(git -C repo log --format=%H --grep="^commit 7$" main) &&
	grep "^    last before $(echo $c7 | cut -c1-12) .* commit 7$" out2 &&
	grep "^no untested commit between $(echo $c7 | cut -c1-12) and $(echo $c8 | cut -c1-12): the first bad commit is $(echo $c8 | cut -c1-12)$" out2 &&
	grep "^start --repo .$(pwd)/repo. " st/bisect-*.state
'

test_expect_success 'store errors: an unknown branch, an unknown metric' '
	make_repo repo && test_commits &&
	test_must_fail 1 perfbot detect --repo repo --branch nosuch --metric mytest.throughput --db s.db 2>err &&
	grep "nosuch" err && test $(wc -l <err) = 1 &&
	test_must_fail 1 perfbot detect --repo repo --metric mytest.nosuch --db s.db 2>err &&
	grep "mytest.nosuch" err && test $(wc -l <err) = 1
'

test_expect_success 'help' '
	perfbot help detect >out &&
	grep "^usage: perfbot detect --repo DIR" out &&
	grep "^perfbot detect --input FILE" out
'

test_done
