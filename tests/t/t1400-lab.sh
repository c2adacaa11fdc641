#!/bin/sh
# lab mode: lab init, the queue from the command line, workers running
# jobs (checkout and build of a commit, failures, cancel, an expired
# lease) against a throwaway PostgreSQL server (tests/pg.sh)
# e2e: early (long in wall time, light on CPU: started first in the pool)
. ./lib.sh
. ./lab-lib.sh

test_expect_success 'lab init makes the roles and schema, then has nothing to do' '
	pg_createdb init >/dev/null &&
	perfbot lab init --db "$(url init)" >out &&
	printf "store schema: version 0 -> 2\nlab schema: version 0 -> 7\n" >expect &&
	test_cmp expect out &&
	perfbot lab init --db "$(url init)" >out &&
	printf "store schema: version 2, up to date\nlab schema: version 7, up to date\n" >expect &&
	test_cmp expect out &&
	test "$(sql init "SELECT string_agg(rolname, \$\$,\$\$ ORDER BY rolname) FROM pg_roles
		WHERE rolname LIKE \$\$perfbot\\_%\$\$")" = "perfbot_admin,perfbot_reporter,perfbot_submitter,perfbot_worker"
'

test_expect_success 'lab init: missing, bad and unreachable databases, a plain login' '
	(unset PERFBOT_DB; test_must_fail 2 perfbot lab init 2>err) &&
	grep -q "^perfbot: no database: give --db postgresql://... or set PERFBOT_DB$" err &&
	test_must_fail 2 perfbot lab init --db /tmp/x.db 2>err &&
	grep -q "is no PostgreSQL URL" err &&
	test_must_fail 1 perfbot lab init --db "postgresql:///x?host=$TRASH/nowhere" 2>err &&
	grep -q "^perfbot: cannot connect to the database: connection to server on socket" err &&
	test $(wc -l <err) = 1 &&
	pg_createdb plain >/dev/null && pg_sql "CREATE ROLE plain LOGIN" &&
	test_must_fail 1 perfbot lab init --db "$(url plain plain)" 2>err &&
	grep -q "run the first .perfbot lab init. as a superuser" err
'

# The worker's times are durations as a job's timeout is written; a bad
# one is said in one line before any database is reached.
test_expect_success 'worker --lease, --poll and --boot-timeout take durations' '
	for o in "--lease 11m" "--poll 1.5x" "--poll 1e1" "--lease 0.05s"; do
		test_must_fail 2 perfbot worker --db postgresql:///nowhere $o 2>err &&
		test "$(wc -l <err)" = 1 &&
		grep -q "^perfbot: ${o%% *} expects a duration from 0.1 s to [0-9]* s (30, 30s, 5m), got .${o#* }.$" err || exit 1
	done &&
	test_must_fail 2 perfbot worker --db postgresql:///nowhere --kernel-tree . --boot-timeout 2x 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^perfbot: --boot-timeout expects a duration such as 90, 90s or 5m (at most a day), got .2x.$" err &&
	# good durations pass the parser: the next check says what is missing
	test_must_fail 2 perfbot worker --db postgresql:///nowhere --lease 5m --poll 30s --boot-timeout 2m 2>err &&
	grep -q "^perfbot: --boot-timeout sets the kernel a job boots: it needs --kernel-tree$" err
'

test_expect_success 'submit splits the job: one entry per atomic job, all or nothing' '
	db=$(lab_db submit) && S=$(url submit sub) &&
	job j.yaml "echo score: 1" "  x: [1, 2]" &&
	perfbot queue submit --db "$S" j.yaml --commit abc -p 3 -n 2 >out &&
	printf "queued 1 j-echo_score:_1-1-abc.yaml\nqueued 2 j-echo_score:_1-2-abc.yaml\n" >expect &&
	test_cmp expect out &&
	test "$(sql submit "SELECT string_agg(concat_ws(\$\$ \$\$, priority, runs, tbox_group,
		commit), \$\$,\$\$) FROM perfbot.queue")" = "3 2  abc,3 2  abc" &&
	# the atoms leave it to the box to name itself
	sql submit "SELECT job FROM perfbot.queue WHERE id = 1" >atom &&
	! grep -q "^testbox:" atom && ! grep -q "^tbox_group:" atom && ! grep -q "^arch:" atom &&
	grep -q "^commit: abc" atom && grep -q "^  x: 1" atom &&
	# with a group, the atoms keep it
	perfbot queue submit --db "$S" j.yaml -g ivb44 >out &&
	sql submit "SELECT job FROM perfbot.queue WHERE id = 3" | grep -q "^tbox_group: ivb44" &&
	test "$(sql submit "SELECT tbox_group FROM perfbot.queue WHERE id = 4")" = ivb44 &&
	# one run unless told
	perfbot queue submit --db "$S" j.yaml -c abc >out &&
	test "$(sql submit "SELECT runs FROM perfbot.queue WHERE id = 5")" = 1
'

test_expect_success 'submit refuses bad options before queueing anything' '
	db=$(lab_db subbad) && S=$(url subbad sub) &&
	job j.yaml "echo score: 1" &&
	test_must_fail 2 perfbot queue submit --db "$S" -p 10 j.yaml 2>err &&
	grep -q "^perfbot: --priority expects a number from 0 to 9, got .10.$" err &&
	test_must_fail 2 perfbot queue submit --db "$S" -n 0 j.yaml 2>err &&
	test_must_fail 2 perfbot queue submit --db "$S" --attempts 101 j.yaml 2>err &&
	test_must_fail 2 perfbot queue submit --db "$S" --build make j.yaml 2>err &&
	grep -q "^perfbot: --build needs --repo" err &&
	test_must_fail 2 perfbot queue submit --db "$S" --repo /r j.yaml 2>err &&
	grep -q "^perfbot: --repo needs --commit" err &&
	test_must_fail 2 perfbot queue submit --db "$S" -c ../x j.yaml 2>err &&
	grep -q "^perfbot: --commit expected one path component" err &&
	test_must_fail 2 perfbot queue submit --db "$S" -g a/b j.yaml 2>err &&
	grep -q "^perfbot: --tbox-group expected one path component" err &&
	printf "testcase: mytest\nruntime: {a: 1}\n" >bad.yaml &&
	test_must_fail 1 perfbot queue submit --db "$S" bad.yaml 2>err &&
	grep -q "bad.yaml:2:.*.runtime. expected a scalar or a list of scalars, got a mapping" err &&
	# a worker login may not queue
	test_must_fail 1 perfbot queue submit --db "$(url subbad box1)" j.yaml 2>err &&
	grep -q "permission denied for function submit" err &&
	test "$(sql subbad "SELECT count(*) FROM perfbot.queue")" = 0
'

test_expect_success 'list, cancel and retry from the command line' '
	db=$(lab_db cli) && S=$(url cli sub) &&
	job j.yaml "echo score: 1" "  x: [1, 2, 3]" &&
	perfbot queue submit --db "$S" j.yaml -c c0ffee >/dev/null &&
	perfbot queue cancel --db "$S" 2 3 >out &&
	printf "cancelled 2\ncancelled 3\n" >expect && test_cmp expect out &&
	test_must_fail 1 perfbot queue cancel --db "$S" 3 9 >out 2>err &&
	printf "perfbot: job 3 is cancelled: nothing to cancel\nperfbot: no job 9\n" >expect &&
	test_cmp expect err &&
	perfbot queue retry --db "$S" 3 >out &&
	echo "queued again 3" >expect && test_cmp expect out &&
	perfbot queue list --db "$S" >out &&
	head -1 out | grep -q "^ *ID  STATE *PRI *TRY  TBOX_GROUP *BOX *LEASE *COMMIT *JOB$" &&
	grep -q "^ *1  queued *5 *0/3  \* .*c0ffee *j-echo_score:_1-1-c0ffee.yaml$" out &&
	grep -q "^ *2  cancelled " out &&
	grep -q "^ *3  queued *5 *0/3 " out &&
	perfbot queue list --db "$S" --state cancelled >out &&
	test $(wc -l <out) = 2 &&
	test_must_fail 1 perfbot queue list --db "$S" --state runing 2>err &&
	grep -q "unknown state .runing." err &&
	test_must_fail 2 perfbot queue cancel --db "$S" x1 2>err &&
	grep -q "^perfbot: .x1. is no job id$" err &&
	# a box may not look at the queue
	test_must_fail 1 perfbot queue list --db "$(url cli box1)" 2>err &&
	grep -q "permission denied for table queue" err
'

test_expect_success 'a worker runs a job and uploads runs, matrix and raw files' '
	db=$(lab_db work) && S=$(url work sub) &&
	job j.yaml "echo score: 7" "meminfo:" &&
	perfbot queue submit --db "$S" j.yaml -c v1 -n 2 >/dev/null &&
	perfbot worker --db "$(url work box1)" --once --dir w -g lkp-x 2>err &&
	grep -q "^perfbot: worker: job 1 attempt 1 (j-echo_score:_7-v1.yaml): claimed (2 runs, commit v1)$" err &&
	grep -q "^perfbot: worker: job 1 attempt 1 (j-echo_score:_7-v1.yaml): done, results uploaded$" err &&
	perfbot queue list --db "$S" --state done | grep -q "^ *1  done .*box1 (" &&
	# the compiler: the running kernel'"'"'s (gcc-12), else gcc
	case "$(sql work "SELECT path FROM perfbot.result_root")" in
	"lab:1/mytest/j/lkp-x/$(. /etc/os-release; echo "$ID-$VERSION_ID-$(uname -m)")/$(uname -m)-local/gcc"*/v1) ;;
	*) false ;; esac &&
	test "$(sql work "SELECT count(*) FROM perfbot.run")" = 2 &&
	test "$(sql work "SELECT string_agg(value::text, \$\$,\$\$) FROM perfbot.sample s
		JOIN perfbot.metric m ON m.id = s.metric_id WHERE m.name = \$\$mytest.score\$\$")" = 7,7 &&
	sql work "SELECT run || \$\$/\$\$ || name FROM perfbot.upload_file" >files &&
	grep -q "^-1/matrix.json$" files && grep -q "^0/meminfo$" files &&
	grep -q "^1/meminfo.json$" files && grep -q "^0/stats.json$" files &&
	grep -q "^0/job.yaml$" files &&
	# the box named itself in the job it ran
	perfbot queue fetch --db "$S" 1 -r got >out &&
	rr=$(sed -n "s/: 2 runs$//p" out) && test -d "$rr/1" &&
	grep -q "^testbox: $(hostname)$" "$rr/0/job.yaml" &&
	grep -q "^tbox_group: lkp-x$" "$rr/0/job.yaml" &&
	grep -q "\"mytest.score\": 7" "$rr/1/stats.json" &&
	head -1 "$rr/0/meminfo" | grep -q "^time: " &&
	perfbot compare "$rr" "$rr" >/dev/null &&
	# nothing left behind on the box
	test -z "$(ls w | grep -v repos)" &&
	# --once with nothing queued returns at once
	perfbot worker --db "$(url work box1)" --once --dir w 2>err &&
	! grep -q claimed err
'

# A repository whose VALUE differs per commit.
make_repo() {
	git init -q -b main "$1" && (cd "$1" && git config user.name t && git config user.email t@t &&
	echo 100 >VALUE && git add VALUE && git commit -q -m one &&
	echo 90 >VALUE && git commit -q -am two)
}

test_expect_success 'a job naming a repo: the box checks the commit out and builds it' '
	db=$(lab_db repo) && S=$(url repo sub) &&
	make_repo repo && first=$(git -C repo rev-parse HEAD~1) &&
	job j.yaml "echo score: \$(cat \$PERFBOT_BUILD_DIR/built)" &&
	perfbot queue submit --db "$S" j.yaml --repo "$(pwd)/repo" --commit HEAD~1 \
		--build "sed s/0/1/ VALUE >built" >/dev/null &&
	perfbot worker --db "$(url repo box1)" --once --dir w --allow-build 2>err &&
	grep -q "done, results uploaded" err &&
	test "$(sql repo "SELECT rev FROM perfbot.result_root")" = "$first" &&
	test "$(sql repo "SELECT s.value FROM perfbot.sample s JOIN perfbot.metric m
		ON m.id = s.metric_id WHERE m.name = \$\$mytest.score\$\$")" = 110 &&
	# the user repository is untouched; the box keeps one bare cache
	test -z "$(git -C repo status --porcelain)" &&
	test $(ls -d w/repos/*.git | wc -l) = 1 &&
	# a second job on the newer commit fetches into the same cache
	(cd repo && echo 80 >VALUE && git commit -q -am three) &&
	perfbot queue submit --db "$S" j.yaml --repo "$(pwd)/repo" --commit main \
		--build "cp VALUE built" >/dev/null &&
	perfbot worker --db "$(url repo box1)" --once --dir w --allow-build 2>err &&
	test "$(sql repo "SELECT s.value FROM perfbot.sample s JOIN perfbot.metric m
		ON m.id = s.metric_id JOIN perfbot.run r ON r.id = s.run_id JOIN perfbot.result_root
		t ON t.id = r.root_id WHERE m.name = \$\$mytest.score\$\$ AND t.rev = \$\$$(git -C repo rev-parse main)\$\$")" = 80
'

test_expect_success 'failures go back to the queue, then the job is parked with its last error' '
	db=$(lab_db fail) && S=$(url fail sub) &&
	make_repo repo &&
	job j.yaml "echo score: 1" &&
	perfbot queue submit --db "$S" j.yaml --repo "$(pwd)/repo" --commit HEAD \
		--build "echo compiling; echo oops >&2; exit 3" --attempts 2 >/dev/null &&
	perfbot worker --db "$(url fail box1)" --once --dir w --allow-build 2>err &&
	grep -q "failed: build failed (exit status 3): oops (back in the queue)$" err &&
	perfbot queue list --db "$S" >out &&
	grep -q "^ *1  queued .* 1/2 " out &&
	grep -q "last error: attempt 1: build failed (exit status 3): oops$" out &&
	perfbot worker --db "$(url fail box2)" --once --dir w --allow-build 2>err &&
	grep -q "(no attempt left: parked)$" err &&
	perfbot queue list --db "$S" --state failed | grep -q "last error: attempt 2: build failed" &&
	# a commit the repository does not have
	perfbot queue submit --db "$S" j.yaml --repo "$(pwd)/repo" --commit nosuch --attempts 1 >/dev/null &&
	perfbot worker --db "$(url fail box1)" --once --dir w --allow-build 2>err &&
	sql fail "SELECT last_error FROM perfbot.queue WHERE id = 2" | grep -q "has no commit .nosuch." &&
	# a benchmark that fails every run
	job bad.yaml "exit 5" &&
	perfbot queue submit --db "$S" bad.yaml --attempts 1 >/dev/null &&
	perfbot worker --db "$(url fail box1)" --once --dir w --allow-build 2>err &&
	sql fail "SELECT last_error FROM perfbot.queue WHERE id = 3" >e &&
	grep -q "^attempt 1: all 1 run incomplete" e &&
	test "$(sql fail "SELECT count(*) FROM perfbot.upload")" = 0 &&
	# and retry gives it another attempt
	perfbot queue retry --db "$S" 3 >/dev/null &&
	perfbot queue list --db "$S" --state queued | grep -q "^ *3  queued .* 1/2 "
'

test_expect_success 'queue list shows an error with escapes as ?, on one line' '
	db=$(lab_db esc) && S=$(url esc sub) && q=$(printf "\047") &&
	job j.yaml "echo score: 1" &&
	perfbot queue submit --db "$S" j.yaml >/dev/null &&
	sql esc "UPDATE perfbot.queue SET last_error = E${q}a\\033]0;owned\\007b\\nforged row${q}" &&
	perfbot queue list --db "$S" >out &&
	grep -q "last error: a?\]0;owned?b?forged row$" out &&
	! grep -q "$(printf "\033")" out &&
	test "$(wc -l <out)" = 3
'

test_expect_success 'a job cancelled while it runs is stopped and nothing is uploaded' '
	db=$(lab_db cancel) && S=$(url cancel sub) &&
	job j.yaml "sleep 60; echo score: 1" &&
	perfbot queue submit --db "$S" j.yaml >/dev/null &&
	tag=$(test_tag) &&
	bg env PERFBOT_TEST_TAG=$tag "$PERFBOT" worker --db "$(url cancel box1)" --once --dir w \
		--lease 1.5 2>err &&
	wait_sql cancel "SELECT state FROM perfbot.queue" running &&
	perfbot queue cancel --db "$S" 1 >/dev/null &&
	wait $pid &&
	grep -q "no longer ours (cancelled, or its lease expired): stopping it" err &&
	grep -q "dropped what it made" err &&
	test "$(sql cancel "SELECT state FROM perfbot.queue")" = cancelled &&
	test "$(sql cancel "SELECT count(*) FROM perfbot.upload")" = 0 &&
	test -z "$(ls w | grep -v repos)" &&
	# the benchmark was stopped with the job, not left running
	test_no_leftovers $tag
'

test_expect_success 'an expired lease: another box runs the job, the late upload is refused' '
	db=$(lab_db lease) && S=$(url lease sub) &&
	job j.yaml "sleep 2; echo score: 1" &&
	perfbot queue submit --db "$S" j.yaml >/dev/null &&
	bg perfbot worker --db "$(url lease box1)" --once --dir w1 --lease 1 2>err1 &&
	wait_sql lease "SELECT state FROM perfbot.queue" running &&
	# the box hangs (network gone, machine stuck): no heartbeat
	kill -STOP $pid &&
	sleep 1.5 &&
	perfbot worker --db "$(url lease box2)" --once --dir w2 --lease 30 2>err2 &&
	grep -q "attempt 2 (.*): done, results uploaded" err2 &&
	kill -CONT $pid && wait $pid &&
	grep -q "no longer ours\|results refused: no longer ours" err1 &&
	test "$(sql lease "SELECT box || \$\$ \$\$ || attempt FROM perfbot.upload")" = "box2 2" &&
	test "$(sql lease "SELECT count(*) FROM perfbot.run")" = 1 &&
	sql lease "SELECT last_error FROM perfbot.queue" | grep -q "attempt 1: the lease of .* (box1) expired"
'

test_expect_success 'a worker probes perf once, and each upload claims the next job' '
	db=$(lab_db chain) && S=$(url chain sub) &&
	mkdir -p fakeperf &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/perf.log\"\nexit 127\n" "$PWD" >fakeperf/perf &&
	chmod +x fakeperf/perf && : >perf.log &&
	job c.yaml "echo score: 3" &&
	for i in 1 2 3; do perfbot queue submit --db "$S" c.yaml >/dev/null || return 1; done &&
	PATH="$PWD/fakeperf:$PATH" bg perfbot worker --db "$(url chain box1)" --dir w --poll 1 2>err &&
	wait_sql chain "SELECT count(*) FROM perfbot.queue WHERE state = \$\$done\$\$" 3 &&
	kill $pid && wait $pid;
	test "$(grep -c "done, results uploaded" err)" = 3 &&
	# one probe (a perf stat -a of true) for the three jobs
	test "$(grep -c "^stat -a .* -- true$" perf.log)" = 1 &&
	# jobs 2 and 3 were claimed in the transaction that completed the one
	# before (now() is the transaction'"'"'s start)
	test "$(sql chain "SELECT count(*) FROM perfbot.queue a JOIN perfbot.queue b
		ON b.id = a.id + 1 AND b.started_at = a.finished_at")" = 2
'

test_expect_success 'a worker stopped while its upload claims the next job hands that job back unspent' '
	db=$(lab_db handback) && S=$(url handback sub) &&
	job h.yaml "echo score: 3" &&
	for i in 1 2; do perfbot queue submit --db "$S" h.yaml >/dev/null || return 1; done &&
	# the upload of job 1 waits on this lock: the stop comes while it waits
	bg $PSQL "$(url handback)" -c "BEGIN" -c "SET application_name = locker" \
		-c "LOCK TABLE perfbot.upload_file IN EXCLUSIVE MODE" -c "SELECT pg_sleep(600)" &&
	wait_sql handback "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE c.relname = \$\$upload_file\$\$ AND l.mode = \$\$ExclusiveLock\$\$ AND l.granted" 1 &&
	bg perfbot worker --db "$(url handback box1)" --dir w --poll 1 2>err &&
	w=$pid &&
	wait_sql handback "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = \$\$Lock\$\$
		AND usename = \$\$box1\$\$" 1 &&
	kill -TERM $w &&
	sql handback "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = \$\$locker\$\$" >/dev/null &&
	wait $w &&
	grep "job 1 .*done, results uploaded" err &&
	grep "job 2 .*handed back unstarted: the worker is stopping (back in the queue)" err &&
	test "$(sql handback "SELECT string_agg(id || \$\$ \$\$ || state || \$\$ \$\$ || attempt || \$\$/\$\$ ||
		max_attempts || \$\$ \$\$ || coalesce(last_error, \$\$-\$\$), \$\$, \$\$ ORDER BY id)
		FROM perfbot.queue")" = "1 done 1/3 -, 2 queued 1/4 -"
'

test_expect_success 'who may do what: their own jobs, their groups, bounded leases, reported' '
	db=$(lab_db authz) && S=$(url authz sub) &&
	pg_sql "CREATE ROLE sub2 LOGIN IN ROLE perfbot_submitter;
		CREATE ROLE box3 LOGIN IN ROLE perfbot_worker" &&
	job j.yaml "echo score: 1" &&
	perfbot queue submit --db "$S" j.yaml -c abc >/dev/null &&
	# another submitter may neither cancel nor retry it
	test_must_fail 1 perfbot queue cancel --db "$(url authz sub2)" 1 2>err &&
	grep -q "job 1 was submitted by sub: only they or a perfbot_admin may cancel it" err &&
	perfbot queue cancel --db "$S" 1 >/dev/null &&
	test_must_fail 1 perfbot queue retry --db "$(url authz sub2)" 1 2>err &&
	grep -q "only they or a perfbot_admin may retry it" err &&
	# an admin may
	perfbot queue retry --db "$(url authz)" 1 >/dev/null &&
	test "$(sql authz "SELECT state FROM perfbot.queue")" = queued &&
	# only perfbot_reporter writes what watch reported
	test_must_fail 1 $PSQL "$S" -c "INSERT INTO perfbot.reported (job_id, metric, good, bad,
		report, reported_at) VALUES (1, \$\$m\$\$, \$\$a\$\$, \$\$b\$\$, \$\$r\$\$, 0)" 2>err &&
	grep -q "permission denied for table reported" err &&
	# a box claims only the groups it is registered for
	sql authz "INSERT INTO perfbot.box_group VALUES (\$\$box3\$\$, \$\$g1\$\$)" &&
	test_must_fail 1 perfbot worker --db "$(url authz box3)" --once --dir w -g g2 2>err &&
	grep -q "box box3 is not registered for tbox_group g2" err &&
	test "$(sql authz "SELECT state FROM perfbot.queue")" = queued &&
	perfbot worker --db "$(url authz box3)" --once --dir w -g g1 2>err &&
	grep -q "done, results uploaded" err &&
	# a lease of a day is no more
	test_must_fail 2 perfbot worker --db "$(url authz box3)" --lease 86400 2>err &&
	grep -q "^perfbot: --lease expects a duration from 0.1 s to 600 s (30, 30s, 5m), got .86400.$" err &&
	perfbot queue submit --db "$S" j.yaml -c abc >/dev/null &&
	$PSQL "$(url authz box3)" -c "SELECT id FROM perfbot.claim(\$\$g1\$\$, \$\$w\$\$, 86400)" &&
	test "$(sql authz "SELECT round(extract(epoch FROM lease_expires_at - started_at))
		FROM perfbot.queue WHERE id = 2")" = 600 &&
	# the new expiry less now() in the same statement: one transaction
	# time, so exact however long the machine takes between calls
	test "$($PSQL "$(url authz box3)" -tAc "SELECT round(extract(epoch FROM
		perfbot.heartbeat(2, 1, 86400) - now()))")" = 600
'

test_expect_success 'a box uploads only under the identity of the job it holds' '
	db=$(lab_db forge) && S=$(url forge sub) &&
	job j.yaml "echo score: 1" &&
	perfbot queue submit --db "$S" j.yaml -c abc >/dev/null &&
	B="$(url forge box1)" &&
	$PSQL "$B" -c "SELECT id FROM perfbot.claim(\$\$g\$\$, \$\$w\$\$, 60)" >/dev/null &&
	forge() {
		$PSQL "$B" -c "SELECT perfbot.upload_job(1, 1, \$\$$1\$\$, \$\${}\$\$, \$\${0}\$\$,
			\$\${1}\$\$, \$\${m}\$\$, \$\${1}\$\$, \$\${}\$\$, \$\${}\$\$, \$\${}\$\$, \$\${}\$\$)" 2>err
	} &&
	test_must_fail 1 forge "othertest/j/g/r/k/c/abc" &&
	grep -q "is not of the job.s testcase mytest" err &&
	test_must_fail 1 forge "mytest/j/g/r/k/c/deadbeef" &&
	grep -q "is not of the job.s commit abc" err &&
	long=$(printf "%05000d" 0) &&
	test_must_fail 1 forge "mytest/$long/g/r/k/c/abc" &&
	grep -q "at most 255 bytes" err &&
	test_must_fail 1 forge "mytest/a$(printf "\\033")b/g/r/k/c/abc" &&
	grep -q "no control character" err &&
	test "$(sql forge "SELECT count(*) FROM perfbot.upload")" = 0 &&
	# what an old server let in, a fetch refuses to write
	forge "mytest/notj/g/r/k/c/abc" &&
	test_must_fail 1 perfbot queue fetch --db "$S" 1 -r got 2>err &&
	grep -q "job 1: result root .mytest/notj/g/r/k/c/abc. is not the job.s: its parameters is .notj., not .j." err &&
	! test -e got/mytest/notj
'

test_expect_success 'worker --allow: a job not allowed fails with the reason and never runs' '
	db=$(lab_db allow) && S=$(url allow sub) &&
	job evil.yaml "id > $TRASH/pwned; echo score: 1" &&
	perfbot queue submit --db "$S" evil.yaml --attempts 1 >/dev/null &&
	perfbot worker --db "$(url allow box1)" --once --dir w --allow stream \
		--allow-command "echo score: 1" 2>err &&
	! test -e "$TRASH/pwned" &&
	sql allow "SELECT state || \$\$ \$\$ || last_error FROM perfbot.queue WHERE id = 1" >e &&
	grep -q "^failed attempt 1: job 1: testcase .mytest. is not allowed on this box (--allow)$" e &&
	# mytest allowed, but not that command
	perfbot queue submit --db "$S" evil.yaml --attempts 1 >/dev/null &&
	perfbot worker --db "$(url allow box1)" --once --dir w --allow-command "echo score: 1" 2>err &&
	! test -e "$TRASH/pwned" &&
	sql allow "SELECT last_error FROM perfbot.queue WHERE id = 2" |
		grep -q "command .id > .*pwned; echo score: 1. is not allowed on this box" &&
	# the command allowed runs
	job ok.yaml "echo score: 1" &&
	perfbot queue submit --db "$S" ok.yaml >/dev/null &&
	perfbot worker --db "$(url allow box1)" --once --dir w --allow-command "echo score: 1" 2>err &&
	grep -q "done, results uploaded" err &&
	# a build from the queue needs --allow-build
	make_repo repo &&
	perfbot queue submit --db "$S" ok.yaml --repo "$(pwd)/repo" --commit HEAD \
		--build "touch $TRASH/built" --attempts 1 >/dev/null &&
	perfbot worker --db "$(url allow box1)" --once --dir w 2>err &&
	! test -e "$TRASH/built" &&
	sql allow "SELECT last_error FROM perfbot.queue WHERE id = 4" |
		grep -q "this worker runs no build commands from the queue (start it with --allow-build)"
'

test_expect_success 'a queued job never makes a box read a file: includes expanded on submit, refused on the box' '
	db=$(lab_db inc) && S=$(url inc sub) &&
	# a submitter writing the queue directly: the box reads and runs nothing
	printf "mytest:\n  command: \"touch $TRASH/pwned; echo score: 1\"\n" >box.yaml &&
	$PSQL "$S" -c "SELECT perfbot.submit(\$\$evil.yaml\$\$,
		\$\$testcase: mytest
<< : $TRASH/box.yaml
\$\$, NULL, NULL, NULL, NULL, 5, 1, 1)" >/dev/null &&
	perfbot worker --db "$(url inc box1)" --once --dir w 2>err &&
	grep -q "(evil.yaml): claimed" err &&
	! test -e "$TRASH/pwned" &&
	sql inc "SELECT state || \$\$ \$\$ || last_error FROM perfbot.queue WHERE id = 1" >e &&
	grep -q "^failed attempt 1: .*evil.yaml:2:1: .<<:. includes a file, which a queued job may not do (perfbot queue submit expands includes before queueing)$" e &&
	test "$(sql inc "SELECT count(*) FROM perfbot.upload")" = 0 &&
	# queue submit expands the includes: the queue holds the whole job, which runs
	printf "runtime: 7\n" >base.yaml &&
	job j.yaml "echo score: 1" "<< : base.yaml" &&
	perfbot queue submit --db "$S" j.yaml >/dev/null &&
	sql inc "SELECT job FROM perfbot.queue WHERE id = 2" >atom &&
	grep -q "^runtime: 7$" atom && ! grep -q "<<" atom &&
	perfbot worker --db "$(url inc box1)" --once --dir w 2>err &&
	grep -q "done, results uploaded" err
'

# root fetching into a result tree another user (nobody) can write
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then
	chmod 755 "$TRASH"
	test_expect_success 'queue fetch: links planted at its .fetch-<run>.<pid> names receive nothing' '
		db=$(lab_db fl) && S=$(url fl sub) &&
		job j.yaml "echo score: 3" &&
		perfbot queue submit --db "$S" j.yaml -n 2 >/dev/null &&
		perfbot worker --db "$(url fl box1)" --once --dir w 2>err &&
		perfbot queue fetch --db "$S" 1 -r got >out &&
		rel=$(sed -n "s|^got/||; s/: 2 runs$//p" out) && test -n "$rel" &&
		mkdir shared victim && chown nobody shared &&
		runuser -u nobody -- mkdir -p "shared/$rel" &&
		test_must_fail 1 sh -c "for k in 0 1; do
				runuser -u nobody -- ln -s $PWD/victim shared/$rel/.fetch-\$k.\$\$ || exit 9
			done
			exec \"$PERFBOT\" queue fetch --db \"$S\" 1 -r shared" >out 2>err &&
		test -z "$(ls -A victim)" &&
		test "$(wc -l <err)" = 1 &&
		grep -q "^perfbot: cannot create .*/.fetch-0\.[0-9]*.: it exists and is not a directory of ours$" err &&
		test "$(find "shared/$rel" -maxdepth 1 -name ".fetch-*" -type l | wc -l)" = 2 &&
		test "$(find "shared/$rel" -mindepth 1 -maxdepth 1 ! -name ".fetch-*" | wc -l)" = 0
	'
fi

test_expect_success 'worker --user: the job runs as an unprivileged user' '
	test "$(id -u)" = 0 || { echo "# skipped: not root"; return 0; } &&
	db=$(lab_db asuser) && S=$(url asuser sub) &&
	chmod 755 "$TRASH" &&
	job u.yaml "echo score: \$(id -u); id -u >\$HOME/uid" &&
	perfbot queue submit --db "$S" u.yaml >/dev/null &&
	perfbot worker --db "$(url asuser box1)" --once --dir w --user nobody 2>err &&
	grep -q "done, results uploaded" err &&
	v=$(sql asuser "SELECT s.value FROM perfbot.sample s JOIN perfbot.metric m
		ON m.id = s.metric_id WHERE m.name = \$\$mytest.score\$\$") &&
	test "$v" = "$(id -u nobody)" && test "$v" != 0 &&
	test_must_fail 1 perfbot worker --db "$(url asuser box1)" --once --dir w --user root 2>err &&
	grep -q "is root: name an unprivileged user" err
'

test_expect_success 'a worker starting cleans the job dirs of dead workers' '
	db=$(lab_db clean) &&
	mkdir -p w/job-7.1.999999/result w/job-8.1.$$ &&
	perfbot worker --db "$(url clean box1)" --once --dir w 2>err &&
	! test -d w/job-7.1.999999 && test -d w/job-8.1.$$
'

test_done
