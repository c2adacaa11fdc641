#!/bin/sh
# lab mode under trouble: 4 workers x 200 jobs while workers are killed
# with -9 at random; the database restarted under running workers.
# Every job must end done exactly once, with all its results.
. ./lib.sh
. ./lab-lib.sh

# many_jobs FILE N: one job file of N atomic jobs, job k printing score k
# (a YAML document each: hash0, then one per later document; no score 0,
# which stats leave out as lkp does)
many_jobs() {
	printf 'testcase: mytest\nmytest:\n  command: "sleep 0.1; echo score: 1"\n' >"$1"
	k=2
	while [ $k -le "$2" ]; do
		printf -- '---\nmytest:\n  command: "sleep 0.1; echo score: %d"\n' $k >>"$1"
		k=$((k + 1))
	done
}

# exactly_once DB N: N jobs done, each with one upload, one run and the
# score its command prints; nothing else stored
exactly_once() {
	test "$(sql "$1" "SELECT string_agg(state || '=' || n, ',') FROM (SELECT state, count(*) n
		FROM perfbot.queue GROUP BY state) t")" = "done=$2" &&
	test "$(sql "$1" "SELECT count(*) || ',' || count(DISTINCT job_id) FROM perfbot.upload")" = "$2,$2" &&
	test "$(sql "$1" "SELECT count(*) FROM perfbot.result_root")" = "$2" &&
	test "$(sql "$1" "SELECT count(*) FROM perfbot.run")" = "$2" &&
	test "$(sql "$1" "SELECT count(*) FROM perfbot.queue q JOIN perfbot.upload u ON u.job_id = q.id
		JOIN perfbot.run r ON r.root_id = u.root_id JOIN perfbot.sample s ON s.run_id = r.id
		JOIN perfbot.metric m ON m.id = s.metric_id AND m.name = 'mytest.score'
		WHERE position('score: ' || s.value::bigint || '''' IN q.job) > 0
		AND u.attempt = q.attempt")" = "$2" &&
	test "$(sql "$1" "SELECT count(*) FROM perfbot.upload_file WHERE name = 'stats.json'")" = "$2"
}

# a random number in [0, $1)
rand() { echo $(( $(od -An -N2 -tu2 /dev/urandom) % $1 )); }

test_expect_success '4 workers x 200 jobs, workers killed with -9: each job done exactly once' '
	db=$(lab_db chaos) &&
	many_jobs jobs.yaml 200 &&
	perfbot queue submit --db "$(url chaos sub)" --attempts 100 jobs.yaml >queued &&
	test $(wc -l <queued) = 200 &&
	start() { bg perfbot worker --db "$(url chaos box$(( $1 % 2 + 1 )))" --dir w$1 \
		--lease 2 --poll 0.3 2>>log$1 && eval "w$1=\$pid"; } &&
	start 1 && start 2 && start 3 && start 4 &&
	kills=0 && t=0 &&
	while [ "$(sql chaos "SELECT count(*) FROM perfbot.queue WHERE state = '\''done'\''")" != 200 ]; do
		[ $t -lt 400 ] || { echo "not all done after $t rounds"; false; }
		sleep 0.$(( $(rand 5) + 3 )) &&
		# every other kill takes the box of a running job, the others
		# any box: busy or idle, uploading or claiming
		if [ $((kills % 2)) = 0 ]; then
			h=$(sql chaos "SELECT worker FROM perfbot.queue WHERE state = '\''running'\'' LIMIT 1")
			victim=0
			for k in 1 2 3 4; do eval "[ \"\${h#*:}\" = \"\$w$k\" ]" && victim=$k; done
		else
			victim=$(( $(rand 4) + 1 ))
		fi
		if [ $victim != 0 ]; then
			eval "kill -9 \$w$victim" && kills=$((kills + 1)) && start $victim
		fi
		t=$((t + 1))
	done &&
	echo "$kills workers killed" &&
	test $kills -ge 5 &&
	exactly_once chaos 200 &&
	# jobs were interrupted and run again: some took more than one attempt
	test "$(sql chaos "SELECT count(*) > 0 FROM perfbot.queue WHERE attempt > 1")" = t &&
	test "$(sql chaos "SELECT count(*) > 0 FROM perfbot.queue WHERE last_error LIKE
		'\''%the lease of % expired%'\''")" = t
'

test_expect_success 'the database restarted under running workers: they reconnect, nothing lost' '
	db=$(lab_db restart) &&
	many_jobs jobs.yaml 30 &&
	sed -i "s/sleep 0.1/sleep 0.5/" jobs.yaml &&
	perfbot queue submit --db "$(url restart sub)" jobs.yaml >/dev/null &&
	bg perfbot worker --db "$(url restart box1)" --dir w1 --lease 20 --poll 0.5 2>log1 && p1=$pid &&
	bg perfbot worker --db "$(url restart box2)" --dir w2 --lease 20 --poll 0.5 2>log2 && p2=$pid &&
	wait_sql restart "SELECT count(*) >= 5 FROM perfbot.queue WHERE state = '\''done'\''" t &&
	pg_restart &&
	wait_sql restart "SELECT count(*) >= 15 FROM perfbot.queue WHERE state = '\''done'\''" t &&
	pg_restart &&
	wait_sql restart "SELECT count(*) FROM perfbot.queue WHERE state = '\''done'\''" 30 120 &&
	test $(grep -c "database connection back after" log1) -ge 2 &&
	test $(grep -c "database connection back after" log2) -ge 2 &&
	exactly_once restart 30 &&
	kill -TERM $p1 $p2 && wait $p1 && wait $p2 &&
	grep -q "stopped$" log1
'

test_expect_success 'an idle worker waiting for a database that is gone stops at SIGTERM' '
	db=$(lab_db gone) &&
	bg perfbot worker --db "$(url gone box1)" --dir w --poll 0.2 2>log && p=$pid &&
	wait_sql gone "SELECT count(*) FROM pg_stat_activity WHERE usename = '\''box1'\'' AND datname = '\''gone'\''" 1 &&
	pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null &&
	test_wait_for grep -q "database unreachable" log &&
	kill -TERM $p &&
	gone() { ! kill -0 $p 2>/dev/null; } && test_wait_for gone &&
	wait $p &&
	grep -q "stopped$" log &&
	pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w start >/dev/null
'

test_done
