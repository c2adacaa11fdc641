# tests/t/bisect-lib.sh: the fixtures of the perfbot bisect scripts
# (t070x), sourced after lib.sh: make_repo, the benchmark $TRASH/bench.sh
# and the job $TRASH/job.yaml.  The scripts run side by side, each with
# repositories of its own.

# bisect_side_branch I: test_value_repo's hook for make_repo -- a side
# branch from commit 6, merged at commit 10
bisect_side_branch() {
	if [ "$1" -eq 6 ]; then
		git checkout -q -b side && echo s >SIDE && git add SIDE &&
		GIT_COMMITTER_DATE="@1700000100 +0000" GIT_AUTHOR_DATE="@1700000100 +0000" \
			git commit -q -m "side work" &&
		git checkout -q main
	elif [ "$1" -eq 10 ]; then
		GIT_COMMITTER_DATE="@1700000200 +0000" GIT_AUTHOR_DATE="@1700000200 +0000" \
			git merge -q --no-ff -m "merge side" side
	fi
}

# make_repo DIR BAD_INDEX: 16 commits; from commit BAD_INDEX on, VALUE
# drops from 1000 to 850 (-15%); a side branch merged at commit 10; tags
# good (the first commit) and bad (the last).
make_repo() {
	test_value_repo "$1" 16 "$2" bisect_side_branch &&
	git -C "$1" tag good "$(git -C "$1" rev-list --max-parents=0 HEAD)" &&
	git -C "$1" tag bad HEAD
}


# The benchmark: VALUE from the checkout, with +-1% repeatable noise
test_noise_bench "$TRASH/bench.sh" score

cat >"$TRASH/job.yaml" <<'EOF2'
testcase: mytest
vmstat:
EOF2

