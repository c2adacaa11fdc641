#!/bin/sh
# perfbot bisect: the endpoints by the names given, and measured in
# turns
. ./lib.sh
. ./bisect-lib.sh

# The report names the range as the user did, the short id beside it;
# the start line keeps the names, so --resume says them too.
test_expect_success "the report names good and bad as given: v1 (sha) and v3 (sha)" '
	make_repo named 8 && git -C named tag v1 good && git -C named tag v3 bad &&
	export COUNTER=$(pwd)/counter-named &&
	perfbot bisect --repo named --good v1 --bad v3 --job "$TRASH/job.yaml" \
		--metric mytest.score --state stn --result-root resn -- "$TRASH/bench.sh" >out 2>err &&
	g=$(git -C named rev-parse v1 | cut -c1-10) && b=$(git -C named rev-parse v3 | cut -c1-10) &&
	tr "\n" " " <out | grep -q "between v1 ($g) and v3 ($b)\." &&
	grep -q "^start .* --good-name .v1. --bad-name .v3. " stn &&
	perfbot report --bisect stn >report &&
	tr "\n" " " <report | grep -q "between v1 ($g) and v3 ($b)\." &&
	rm stn.d/bisect.json &&
	perfbot bisect --resume --state stn >out2 2>err2 &&
	tr "\n" " " <out2 | grep -q "between v1 ($g) and v3 ($b)\." &&
	# a sha as given is no name: the range is said by id alone
	perfbot bisect --repo named --good $(git -C named rev-parse v1) --bad v3 --job "$TRASH/job.yaml" \
		--metric mytest.score --state sts --result-root resn -- "$TRASH/bench.sh" >out3 2>err3 &&
	! grep -q -- "--good-name" sts &&
	tr "\n" " " <out3 | grep -q "between $g and v3 ($b)\."
'

# The runs log: which worktree each run ran in, one a line.
cat >"$TRASH/bench-log.sh" <<'EOS'
#!/bin/sh
basename "$PERFBOT_BUILD_DIR" >>"$RUNS_LOG"
exec "$TRASH/bench.sh"
EOS
chmod +x "$TRASH/bench-log.sh"

test_expect_success 'the endpoints take turns: good bad good bad, at the start and at the end' '
	make_repo repo 8 && export COUNTER=$(pwd)/counter RUNS_LOG=$(pwd)/runs.log TRASH &&
	rm -f runs.log &&
	perfbot bisect --repo repo --good good --bad bad --job "$TRASH/job.yaml" \
		--metric mytest.score --state sti --result-root resi -- "$TRASH/bench-log.sh" >out 2>err &&
	# the endpoints before the first step: never the same side twice in a row
	sed "/^step$/,\$d" runs.log >start &&
	test "$(wc -l <start)" -ge 4 &&
	test "$(head -1 start)" = good &&
	test "$(uniq start | wc -l)" = "$(wc -l <start)" &&
	# the check at the end: the last runs are the endpoints, in turns
	tail -4 runs.log | tr "\n" " " >end &&
	grep -qx "good bad good bad " end
'

test_done
