#!/bin/sh
# perfbot history: a metric along a branch's first-parent line in git
# order, from the store: table, plot with tags, HTML, JSON; bad input
. ./lib.sh

GEN="python3 $(cd ../.. && pwd)/bench/gen-store.py"

# A repository of 12 commits on master (tags v1.0 at 2, v1.1 annotated at
# 7) with a side branch merged after 5, fixed dates so that shas are the
# same on every run; results for every first-parent commit (the
# throughput 20% lower from commit 8 on) and for the side commit.
setup_repo() {
	export GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" GIT_COMMITTER_DATE="2024-01-01T00:00:00Z" &&
	git init -q -b master repo &&
	(
		cd repo &&
		git config user.email t@t && git config user.name t &&
		for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
			echo $i >f && git add f && git commit -qm "commit $i" &&
			case $i in
			2) git tag v1.0 ;;
			7) git tag -a v1.1 -m v1.1 ;;
			5) git checkout -qb side && echo s >g && git add g &&
			   git commit -qm "side 1" && git checkout -q master &&
			   git merge -q --no-ff -m "merge side" side ;;
			esac
		done
	) &&
	git -C repo log --first-parent --reverse --format=%H >line &&
	git -C repo rev-parse side >side &&
	$GEN res --commits line --metrics 3 --runs 3 --step-at 8 --step -20 &&
	$GEN res --commits side --metrics 3 --runs 2 &&
	perfbot index -q --db p.db res >/dev/null
}

test_expect_success 'the table: first-parent commits in git order, tags, %change, runs' '
	setup_repo &&
	perfbot history --db p.db --repo repo --metric mybench.throughput >out &&
	head -n 3 out >head &&
	cat >expect <<-EOF &&
	mybench.throughput along HEAD of repo: 13 commits, 13 tested, oldest first
	job: mybench/performance-30s/vm-2p/debian-12/x86_64-rhel/gcc-12
	(left out: 0 incomplete runs, 1 result root of commits not on these 13)
	EOF
	test_cmp expect head &&
	sed -n "5p" out | grep -q "^      mean  %stddev   %change  runs  commit        tags  subject$" &&
	sed -n "6,18p" out | awk "{print \$NF}" >order &&
	printf "%s\n" 1 2 3 4 5 side 6 7 8 9 10 11 12 >expect && test_cmp expect order &&
	sed -n "7p" out | grep -q " v1\.0  commit 2$" &&
	sed -n "13p" out | grep -q " v1\.1  commit 7$" &&
	sed -n "14p" out | grep -q " -20\.[0-9]%     3  $(sed -n 9p line | cut -c1-12)        commit 8$" &&
	sed -n "6p" out | grep -q "^ *[0-9.]* ±  [01]%                 3  $(head -c 12 line)        commit 1$"
'

test_expect_success 'the plot: every sample run, tags as marked columns with their names' '
	setup_repo &&
	perfbot history --db p.db --repo repo --metric mybench.throughput >out &&
	grep -q "^Each point below represents a sample run" out &&
	grep -q "^ *mybench.throughput$" out &&
	grep -v "^$" out | tail -n 1 | grep -q "^ *v1\.0  *v1\.1$" &&
	test $(sed -n "/^Each point/,\$p" out | grep -c "++") -ge 4 &&
	test $(sed -n "/^ *mybench.throughput$/,\$p" out | grep -c "") = 19
'

test_expect_success 'JSON: the series as history.h has it, checked with Python' '
	setup_repo &&
	perfbot history --db p.db --repo repo --branch master --metric mybench.throughput --json >h.json &&
	python3 -c "
import json, statistics
h = json.load(open(\"h.json\"))
line = open(\"line\").read().split()
assert h[\"branch\"] == \"master\" and h[\"head\"] == line[-1] and h[\"commits\"] == 13
assert h[\"job\"][\"testcase\"] == \"mybench\" and h[\"job\"][\"path_params\"] == \"performance-30s\"
assert [p[\"commit\"] for p in h[\"points\"]] == line
assert [p[\"pos\"] for p in h[\"points\"]] == list(range(13))
for p in h[\"points\"]:
    assert p[\"runs\"] == len(p[\"samples\"]) == 3
    assert abs(p[\"mean\"] - statistics.mean(p[\"samples\"])) < 1e-9
    assert abs(p[\"stddev\"] - statistics.stdev(p[\"samples\"])) < 1e-9
assert h[\"points\"][1][\"tags\"] == [\"v1.0\"] and h[\"points\"][7][\"tags\"] == [\"v1.1\"]
assert [(t[\"name\"], t[\"pos\"]) for t in h[\"tags\"]] == [(\"v1.0\", 1), (\"v1.1\", 7)]
assert h[\"off_line_roots\"] == 1 and h[\"incomplete_runs\"] == 0
assert h[\"points\"][8][\"mean\"] < 0.85 * h[\"points\"][7][\"mean\"]
"
'

test_expect_success 'the side branch has its own line; --limit keeps the newest commits' '
	setup_repo &&
	perfbot history --db p.db --repo repo --branch side --metric mybench.throughput --json >s.json &&
	python3 -c "
import json
h = json.load(open(\"s.json\"))
assert h[\"commits\"] == 6, h[\"commits\"]
assert h[\"points\"][-1][\"commit\"] == open(\"side\").read().strip()
assert h[\"points\"][-1][\"runs\"] == 2
" &&
	perfbot history --db p.db --repo repo --metric mybench.throughput --limit 4 --json >l.json &&
	python3 -c "
import json
h = json.load(open(\"l.json\"))
assert h[\"commits\"] == 4 and [p[\"pos\"] for p in h[\"points\"]] == [0, 1, 2, 3]
assert h[\"points\"][0][\"subject\"] == \"commit 9\"
"
'

test_expect_success 'HTML: one page with the chart, checked in Chromium' '
	setup_repo &&
	perfbot history --db p.db --repo repo --metric mybench.throughput --format html -o h.html &&
	grep -q "<svg" h.html && grep -q "v1\.1" h.html &&
	python3 -c "
import html.parser
class P(html.parser.HTMLParser):
    pass
P().feed(open(\"h.html\").read())
" &&
	mkdir -p "$TEST_DIR/../out" &&
	browser_check h.html "$TEST_DIR/../out/history.png"
'

test_expect_success 'perfbot detect reads the JSON: the step after v1.1' '
	setup_repo &&
	perfbot history --db p.db --repo repo --metric mybench.throughput --json >h.json &&
	perfbot detect --input h.json >d.txt &&
	grep -q "^regression: -[12][09]\.[0-9]% " d.txt &&
	grep -q "between v1.1 and $(sed -n 9p line | cut -c1-12)" d.txt
'

test_expect_success 'bad input: no such branch, no repository, unknown metric, two jobs; one line each' '
	setup_repo &&
	test_must_fail 1 perfbot history --db p.db --repo repo --branch nope --metric mybench.throughput 2>err &&
	echo "perfbot: no branch or commit '\''nope'\'' in '\''repo'\''" >expect && test_cmp expect err &&
	mkdir notrepo &&
	test_must_fail 1 perfbot history --db p.db --repo notrepo --metric mybench.throughput 2>err &&
	echo "perfbot: '\''notrepo'\'' is not a git repository" >expect && test_cmp expect err &&
	test_must_fail 1 perfbot history --db p.db --repo repo --metric nope 2>err &&
	echo "perfbot: metric '\''nope'\'' is not in the store '\''p.db'\''" >expect && test_cmp expect err &&
	$GEN res --commits line --metrics 1 --runs 1 --path-params other >/dev/null &&
	perfbot index -q --db p.db res >/dev/null &&
	test_must_fail 1 perfbot history --db p.db --repo repo --metric mybench.throughput 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "is stored for 2 jobs on .HEAD. (mybench/other/.*, mybench/performance-30s/.*): choose one with --job or --param$" err &&
	perfbot history --db p.db --repo repo --metric mybench.throughput --job mybench/other >out &&
	grep -q "job: mybench/other/" out &&
	test_must_fail 2 perfbot history --db p.db --repo repo --metric m --limit 0 &&
	test_must_fail 2 perfbot history --db p.db --repo repo --metric m --format pdf &&
	test_must_fail 2 perfbot history --db p.db --metric m
'

test_expect_success 'a branch with no tested commit yet: one line saying so' '
	setup_repo &&
	(cd repo && git checkout -qb fresh && echo x >f && git commit -qam fresh) &&
	test_must_fail 1 perfbot history --db p.db --repo repo --branch fresh --limit 1 --metric mybench.throughput 2>err &&
	echo "perfbot: none of the 1 commits of '\''fresh'\'' in '\''repo'\'' has a complete run of '\''mybench.throughput'\'' in the store" >expect &&
	test_cmp expect err
'

test_expect_success "results --commit takes a tag, a branch or HEAD~N with --repo" '
	# v1.0 is commit 2, v1.1 (annotated) commit 7
	setup_repo &&
	v10=$(git -C repo rev-parse "v1.0^{commit}") && v11=$(git -C repo rev-parse "v1.1^{commit}") &&
	perfbot results --db p.db --repo repo --commit v1.0 --json >out.json &&
	python3 -c "import json,sys; r = json.load(open(\"out.json\")); assert [x[\"commit\"] for x in r] == [sys.argv[1]], r" $v10 &&
	perfbot results --db p.db --repo repo --commit v1.1 --commit side --csv >out.csv &&
	cut -d, -f7 out.csv | sort -u >got &&
	{ echo commit; echo $v11; cat side; } | sort >expect && test_cmp expect got &&
	perfbot results --db p.db --repo repo --commit master~11 --json >out2.json &&
	python3 -c "import json; assert len(json.load(open(\"out2.json\"))) == 1" &&
	# a prefix of a stored name still matches; without --repo a tag is no prefix
	perfbot results --db p.db --repo repo --commit $(cut -c1-8 side) --json >out3.json &&
	python3 -c "import json; assert len(json.load(open(\"out3.json\"))) == 1" &&
	perfbot results --db p.db --commit v1.0 >out4 2>err4 &&
	grep -q "^perfbot: no stored results match$" err4 &&
	test_must_fail 1 perfbot results --db p.db --repo nowhere --commit v1.0 2>err5 &&
	test -s err5
'

test_done
