#!/bin/sh
# bench/queue.sh: the lab queue on a throwaway PostgreSQL 15 (tests/pg.sh)
#
#   throughput   claim + complete with 8 concurrent workers on no-op jobs
#                (bench/queue-bench.c: each completion uploads a one-run
#                result in the transaction that marks the job done);
#                target: at least 1,000 jobs/s on the 2-core VM
#   latency      submit to start: 100 jobs submitted one at a time to one
#                real `perfbot worker`, each 0.1 s after the one before is
#                done (so that what is measured is an idle worker's wake-up,
#                not a wait behind a job still running: on a loaded VM a
#                no-op job's run_job takes 0.1-0.6 s); the server's clock on
#                both ends (scheduled_at, started_at): median and p99; and
#                the time on the box, start to done (run_job and upload)
#   upload       one result of 30,000 metrics (stats.json, matrix.json)
#
# Each under the test server's settings (fsync off) and PostgreSQL's
# durable defaults (fsync, synchronous_commit on).  Prints `uptime`
# first: the figures mean little without the machine's load.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PERFBOT=${PERFBOT:-$(pwd)/perfbot}
make -s BUILD="$BUILD" "$BUILD/bench/queue-bench" perfbot >&2
QB=$(pwd)/$BUILD/bench/queue-bench
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/pg.sh

echo "uptime: $(uptime)"
for mode in test durable; do
	PG_DURABLE=
	[ $mode = durable ] && PG_DURABLE=1
	pg_start || { echo "no server: $PG_WHY" >&2; exit 1; }
	db() { pg_createdb "$1" >/dev/null && "$PERFBOT" lab init --db "$(echo "$PG_URL" | sed "s|///postgres|///$1|")" >/dev/null && echo "$PG_URL" | sed "s|///postgres|///$1|"; }

	echo "== server: $mode settings (fsync $( [ $mode = test ] && echo off || echo on ))"
	for round in 1 2 3; do
		u=$(db tp$round)
		echo "throughput round $round: $("$QB" throughput "$u" 8 5000)"
	done

	u=$(db lat)
	printf 'testcase: mytest\nmytest:\n  command: "echo score: 1"\n' >"$T/j.yaml"
	"$PERFBOT" worker --db "$u" --dir "$T/w" --poll 5 2>"$T/worker.log" &
	wpid=$!
	i=0
	while [ $i -lt 100 ]; do
		"$PERFBOT" queue submit --db "$u" "$T/j.yaml" >/dev/null
		i=$((i + 1))
		while [ "$("$PG_BIN/psql" -X -At "$u" -c "SELECT count(*) FROM perfbot.queue WHERE state = 'done'")" != $i ]; do
			sleep 0.05
		done
		sleep 0.1
	done
	kill $wpid; wait $wpid || true
	echo "latency submit->start (100 jobs, 1 idle worker): $("$PG_BIN/psql" -X -At "$u" -c "
		SELECT format('median %s ms, p99 %s ms, max %s ms; start->done median %s ms',
		  round(percentile_cont(0.5) WITHIN GROUP (ORDER BY x)::numeric, 1),
		  round(percentile_cont(0.99) WITHIN GROUP (ORDER BY x)::numeric, 1),
		  round(max(x)::numeric, 1),
		  round(percentile_cont(0.5) WITHIN GROUP (ORDER BY y)::numeric, 1))
		FROM (SELECT extract(epoch FROM started_at - scheduled_at) * 1000 AS x,
		        extract(epoch FROM finished_at - started_at) * 1000 AS y
		      FROM perfbot.queue) t")"

	u=$(db up)
	echo "upload: $("$QB" upload "$u" 30000 7)"
	pg_stop
done
