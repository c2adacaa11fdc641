#!/bin/sh
# perfbot watch measures the commits of a pass in turns, A B C A B C ...,
# up to four at a time, each in a worktree of its own built once: load
# that comes and goes lands on all of them.  The order is read from the
# benchmark's own log of the commit it ran on, never from the clock.
. ./lib.sh

# make_repo DIR N: N commits on main, VALUE 1000
make_repo() {
	git init -q -b main "$1" && (
	cd "$1" && i=0 &&
	while [ $i -lt "$2" ]; do
		echo 1000 >VALUE && echo "line $i" >>LOG && git add VALUE LOG &&
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
			git commit -q -m "commit $i" || exit 1
		i=$((i + 1))
	done )
}

test_noise_bench "$TRASH/bench.sh" throughput
printf "testcase: mytest\n" >"$TRASH/job.yaml"
# the build: which commit was built, and where
cat >"$TRASH/build.sh" <<'EOF2'
#!/bin/sh
echo "$(git rev-parse HEAD) $(pwd)" >>"$BUILDLOG"
EOF2
chmod +x "$TRASH/build.sh"

watch() {
	perfbot watch --repo repo --branch main --job "$TRASH/job.yaml" --state-dir st \
		--result-root res --db s.db --once --build "$TRASH/build.sh" "$@" -- "$TRASH/bench.sh"
}
setup() {
	make_repo repo "$1" >/dev/null &&
	export COUNTER=$(pwd)/counter RUNLOG=$(pwd)/runlog BUILDLOG=$(pwd)/buildlog
}
# c N...: the shas of commits N..., one a line
c() { for i in "$@"; do git -C repo log --format=%H --grep="^commit $i\$" main; done; }

test_expect_success 'three commits take turns, newest first, each built once in its own worktree' '
	setup 3 &&
	watch --runs 2 >out 2>err &&
	cat out &&
	c 2 1 0 2 1 0 >expect &&
	test_cmp expect runlog &&
	cut -d" " -f1 buildlog >built && c 2 1 0 >expect && test_cmp expect built &&
	test $(cut -d" " -f2 buildlog | sort -u | wc -l) = 3 &&
	grep "^\[1/3\] .* \"commit 2\": 2 runs$" out &&
	grep "^\[3/3\] .* \"commit 0\": 2 runs$" out &&
	# each commit logged tested with its two runs
	for s in $(c 0 1 2); do grep -q "^tested $s 2$" st/log || exit 1; done
'

test_expect_success 'six commits: four take turns, then the other two' '
	setup 6 &&
	watch --runs 2 >out 2>err &&
	c 5 4 3 2 5 4 3 2 1 0 1 0 >expect &&
	test_cmp expect runlog &&
	# the worktrees are reused by the second four
	test $(cut -d" " -f2 buildlog | sort -u | wc -l) = 4
'

test_expect_success 'commits with some of their runs: only the missing ones, in turns' '
	setup 3 &&
	watch --runs 1 >out 2>err &&
	# two commits lose their log lines: their runs are found, each gets two more
	grep -v "^tested \($(c 2)\|$(c 1)\) " st/log >log && mv log st/log &&
	: >runlog && : >buildlog &&
	watch --runs 3 >out 2>err &&
	cat out &&
	grep "^\[1/2\] .* \"commit 2\": 2 runs more$" out &&
	grep "^\[2/2\] .* \"commit 1\": 2 runs more$" out &&
	c 2 1 2 1 >expect && test_cmp expect runlog &&
	test $(wc -l <buildlog) = 2 &&
	grep "^tested $(c 2) 3$" st/log && grep "^tested $(c 1) 3$" st/log
'

test_expect_success 'a commit that does not build drops out of the turns' '
	setup 3 &&
	watch --runs 2 --build "test \"\$(git log -1 --format=%s)\" != \"commit 1\"" >out 2>err &&
	cat out &&
	grep "^\[2/3\] [0-9a-f]*: the build failed (.*): skipped from now on$" out &&
	c 2 0 2 0 >expect && test_cmp expect runlog &&
	grep "^failed $(c 1) build$" st/log
'

test_done
