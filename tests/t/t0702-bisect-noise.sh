#!/bin/sh
# perfbot bisect and noise: nothing to bisect, a change the noise may
# hide, a step on a drift
. ./lib.sh
. ./bisect-lib.sh

test_expect_success 'nothing to bisect when good and bad do not differ' '
	make_repo repo 99 && export COUNTER=$(pwd)/counter &&
	printf "testcase: mytest\nvmstat:\nheartbeat:\n" >j2.yaml &&
	test_must_fail 4 perfbot bisect --repo repo --good good --bad bad --job j2.yaml \
		--metric mytest.score --state st --result-root res -- "$TRASH/bench.sh" >out 2>&1 &&
	grep -q "nothing to bisect" out &&
	test "$(git -C repo worktree list | wc -l)" = 1 &&
	# a monitor perfbot lacks: said once, not once a run
	test "$(cat counter)" -gt 2 &&
	test "$(grep -c "not in perfbot yet: heartbeat" out)" = 1
'

# A noisy benchmark: VALUE +-30% from the same repeatable hash.
cat >"$TRASH/bench-noisy.sh" <<'EOS'
#!/bin/sh
n=$(cat "$COUNTER" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNTER"
v=$(cat "$PERFBOT_BUILD_DIR/VALUE")
h=$((n + 1))
h=$(((((h >> 16) ^ h) * 73244475) & 4294967295))
h=$(((((h >> 16) ^ h) * 73244475) & 4294967295))
noise=$(((((h >> 16) ^ h) % 601) - 300))
echo "score: $((v + noise))"
EOS
chmod +x "$TRASH/bench-noisy.sh"

test_expect_success 'no "nothing to bisect" when the noise could hide the change: exit 6' '
	make_repo repo 99 && export COUNTER=$(pwd)/counter-noisy &&
	test_must_fail 6 perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state stn --result-root resn -- "$TRASH/bench-noisy.sh" >out 2>err &&
	! grep -q "^nothing to bisect" out &&
	grep -q "^no answer: mytest.score differs by [-+][0-9.]*% from good to bad (p = [0-9.e-]*), but at a noise of [1-9][0-9]\.[0-9]% a run and [0-9]* runs a side only a change of [0-9.]*% or more could show: a 5% change may be hidden" out &&
	grep -q "^the machine: .*(mean of the endpoints. runs)$" out &&
	grep -q "^what to do: more runs of good and bad" out &&
	test "$(git -C repo worktree list | wc -l)" = 1
'

# make_drift_repo DIR: 48 commits on a drift of -1% a commit (compounded)
# from 2000, and a -4% step at commit 30: the step is under 1/8 of the
# -40% from good to bad, so only the trend of the verdicts along the
# range (git rev-list's positions) tells it from the drift.
make_drift_repo() {
	git init -q -b main "$1" && (
	cd "$1" && git config user.name t && git config user.email t@t &&
	i=0 &&
	while [ $i -lt 48 ]; do
		awk -v i=$i 'BEGIN { printf "%d\n", 2000 * 0.99 ^ i * (i >= 30 ? 0.96 : 1) }' >VALUE &&
		git add VALUE && git commit -q -m "commit $i" && i=$((i + 1))
	done
	git tag good "$(git rev-list --max-parents=0 HEAD)" && git tag bad HEAD )
}

test_expect_success 'a step on a drift: found by the trend, said to explain part of the change' '
	make_drift_repo drift &&
	export COUNTER=$(pwd)/counter-drift &&
	perfbot bisect --repo drift --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state std --result-root resd -- "$TRASH/bench.sh" >out 2>err &&
	want=$(git -C drift log --format=%H --grep="^commit 30$" bad) &&
	grep -q "^first bad commit: $want (\"commit 30\")" out &&
	! grep -q "^no answer" out &&
	perfbot report --bisect std >report &&
	grep -q "This commit explains -4\.[0-9]% of the -4[0-9]\.[0-9]% from good to" report
'

test_done
