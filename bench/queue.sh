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
#   submit       (fsync off only) `perfbot queue submit` one call a job
#   fetch        (fsync off only) `perfbot queue fetch` of 7 results of
#                30,000 metrics: wall, CPU and peak RSS
#   probe        (fsync off only) a real `perfbot worker` on 30 no-op jobs,
#                with perf found, then with a `perf` that exits 127 first in
#                PATH: what the perf probe (a `perf stat -a` of `true`,
#                once a worker since lab schema 4's change, once a job
#                before) costs a worker.  The throughput figures above
#                include no run_job, so no probe either.
#
# Each under the test server's settings (fsync off) and PostgreSQL's
# durable defaults (fsync, synchronous_commit on).  Prints `uptime`
# first: the figures mean little without the machine's load.
#
# Beside each throughput round, the CPU it took a job: the server's
# (its backends', counted as the postmaster reaps them: the workers'
# backends, and any autovacuum worker that ended meanwhile) and the
# clients' (queue-bench and its workers), and the rate 2 cores would
# allow at that cost, with nothing else running: what wall-clock
# figures on a shared box cannot show.
#
# QB_OLD and PERFBOT_OLD (another build's queue-bench and perfbot, say
# the commit before a change): each throughput, submit and fetch round
# runs that build too, on the same server, right before this one, so
# that the two are compared under the same load.  JOBS (5000) and
# SUBMITS (200) size the throughput and submit rounds.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PERFBOT=${PERFBOT:-$(pwd)/perfbot}
make -s BUILD="$BUILD" "$BUILD/bench/queue-bench" perfbot >&2
QB=$(pwd)/$BUILD/bench/queue-bench
JOBS=${JOBS:-5000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/pg.sh
HZ=$(getconf CLK_TCK)

# CPU seconds: the reaped children of the server's postmaster, of this shell
server_cpu() { awk -v hz="$HZ" '{ printf "%.2f", ($16 + $17) / hz }' "/proc/$(head -n 1 "$PG_DIR/data/postmaster.pid")/stat"; }
client_cpu() { awk -v hz="$HZ" '{ printf "%.2f", ($16 + $17) / hz }' "/proc/$$/stat"; }
# until the backends of the clients that left are gone (and reaped)
settle() {
	while [ "$("$PG_BIN/psql" -X -At "$1" -c "SELECT count(*) FROM pg_stat_activity
		WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")" != 0 ]; do
		sleep 0.05
	done
}
# throughput NAME LABEL QUEUE-BENCH PERFBOT
throughput() {
	u=$(db "tp$round$1" "$4")
	settle "$u"
	s0=$(server_cpu) c0=$(client_cpu)
	"$3" throughput "$u" 8 "$JOBS" >"$T/tp"
	settle "$u"
	s1=$(server_cpu) c1=$(client_cpu)
	echo "throughput round $round$2: $(cat "$T/tp")"
	awk -v s="$s0" -v S="$s1" -v c="$c0" -v C="$c1" -v n="$JOBS" 'BEGIN {
		s = S - s; c = C - c
		printf "  CPU a job: server %.2f ms, clients %.2f ms: 2 cores allow %.0f jobs/s\n",
			s * 1000 / n, c * 1000 / n, 2 * n / (s + c) }'
}

echo "uptime: $(uptime)"
for mode in test durable; do
	PG_DURABLE=
	[ $mode = durable ] && PG_DURABLE=1
	pg_start || { echo "no server: $PG_WHY" >&2; exit 1; }
	# a database NAME [PERFBOT] at that build's schema, where the box
	# (the superuser postgres here) is registered (schema 7) for the
	# workers' group bench and queue-bench's results' group box
	db() {
		dbu=$(echo "$PG_URL" | sed "s|///postgres|///$1|")
		pg_createdb "$1" >/dev/null && "${2:-$PERFBOT}" lab init --db "$dbu" >/dev/null &&
		"$PG_BIN/psql" -X -q "$dbu" -c "INSERT INTO perfbot.box_group VALUES ('postgres', 'bench'), ('postgres', 'box')" &&
		echo "$dbu"
	}

	echo "== server: $mode settings (fsync $( [ $mode = test ] && echo off || echo on ))"
	for round in 1 2 3; do
		if [ -n "${QB_OLD:-}" ]; then
			throughput old " (old)" "$QB_OLD" "$PERFBOT_OLD"
		fi
		throughput "" "" "$QB" "$PERFBOT"
	done

	u=$(db lat)
	printf 'testcase: mytest\nmytest:\n  command: "echo score: 1"\n' >"$T/j.yaml"
	"$PERFBOT" worker --db "$u" -g bench --dir "$T/w" --poll 5 2>"$T/worker.log" &
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

	if [ $mode = test ]; then
		mkdir -p "$T/noperf"
		printf '#!/bin/sh\nexit 127\n' >"$T/noperf/perf"
		chmod +x "$T/noperf/perf"
		for round in 1 2; do
			for probe in perf noperf; do
				pre=
				[ $probe = noperf ] && pre=$T/noperf:
				u=$(db "probe$round$probe")
				i=0
				while [ $i -lt 30 ]; do
					"$PERFBOT" queue submit --db "$u" "$T/j.yaml" >/dev/null
					i=$((i + 1))
				done
				PATH="$pre$PATH" "$PERFBOT" worker --db "$u" -g bench --dir "$T/p$round$probe" --poll 1 \
					2>"$T/probe.log" &
				wpid=$!
				while [ "$("$PG_BIN/psql" -X -At "$u" -c "SELECT count(*) FROM perfbot.queue
					WHERE state IN ('done', 'failed')")" != 30 ]; do
					sleep 0.2
				done
				kill $wpid; wait $wpid || true
				echo "probe round $round, $probe: $("$PG_BIN/psql" -X -At "$u" -c "
					SELECT format('%s jobs/s, start->done median %s ms (%s done)',
					  round(count(*) / extract(epoch FROM max(finished_at) - min(started_at)), 2),
					  round((percentile_cont(0.5) WITHIN GROUP (ORDER BY
					    extract(epoch FROM finished_at - started_at) * 1000))::numeric),
					  count(*))
					FROM perfbot.queue WHERE state = 'done'")"
			done
		done
	fi

	if [ -n "${QB_OLD:-}" ]; then
		u=$(db upold "$PERFBOT_OLD")
		echo "upload (old): $("$QB_OLD" upload "$u" 30000 7)"
	fi
	u=$(db up)
	echo "upload: $("$QB" upload "$u" 30000 7)"

	# submit and fetch as a user runs them, one perfbot a call, each
	# build in turn (old first when given) on a database of its own:
	#   submit  SUBMITS `queue submit`s of a one-line job, jobs/s
	#   fetch   `queue fetch` of 7 done jobs, each a result of 30,000
	#           metrics (queue-bench's upload), into a fresh result tree:
	#           the wall time, CPU and peak RSS of the one process (the
	#           bounded inflate of commit 2a388c8 streams each file 64 KiB
	#           at a time into place rather than allocating its claimed
	#           size); only where the server's settings do not matter
	if [ $mode = test ]; then
		for round in 1 2 3; do
			for b in old new; do
				if [ $b = old ]; then
					[ -n "${QB_OLD:-}" ] || continue
					q=$QB_OLD p=$PERFBOT_OLD
				else
					q=$QB p=$PERFBOT
				fi
				u=$(db "sub$round$b" "$p")
				t0=$(date +%s.%N)
				i=0
				while [ $i -lt "${SUBMITS:-200}" ]; do
					"$p" queue submit --db "$u" "$T/j.yaml" >/dev/null
					i=$((i + 1))
				done
				t1=$(date +%s.%N)
				echo "submit round $round ($b): $(awk -v a="$t0" -v b="$t1" -v n="${SUBMITS:-200}" \
					'BEGIN { printf "%.1f jobs/s, %.1f ms a call", n / (b - a), (b - a) * 1000 / n }')"
				u=$(db "fetch$round$b" "$p")
				"$q" upload "$u" 30000 7 >/dev/null
				ids=$("$PG_BIN/psql" -X -At "$u" -c "SELECT string_agg(id::text, ' ' ORDER BY id)
					FROM perfbot.queue WHERE state = 'done'")
				# shellcheck disable=SC2086
				/usr/bin/time -f "%e %U %S %M" -o "$T/ft" "$p" queue fetch --db "$u" \
					-r "$T/f$round$b" $ids >/dev/null
				read -r wall user sys rss <"$T/ft"
				echo "fetch round $round ($b): 7 results of 30,000 metrics in $wall s" \
					"(CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') s)," \
					"peak RSS $((rss / 1024)) MB"
			done
		done
	fi
	pg_stop
done
