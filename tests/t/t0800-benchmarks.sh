#!/bin/sh
# The benchmarks: jobs/ are valid lkp jobs; `perfbot install` (dry run,
# not root, --list, --command); bench-harness; and the short jobs of the
# built-in benchmarks (and, where Debian's programs are installed, of the
# Debian ones) run through `perfbot run` into lkp's stats.
#
# The benchmark's command comes from `perfbot install --command` and is
# given after `--`, which works whether or not run.c asks the runners
# itself (then `perfbot run ATOM.yaml` alone runs the same command).
. ./lib.sh

ROOT=$(cd ../.. && pwd)
JOBS=$ROOT/jobs
BIN=$(dirname "$PERFBOT")/bin
[ -x "$BIN/bench-harness" ] || BIN=$(dirname "$PERFBOT")/build/bin
HARNESS=$BIN/bench-harness

# bench_run JOB: run the single-atom JOB's benchmark; sets $rr.  Whatever
# the benchmark started (servers too) must be gone once perfbot returns.
bench_run() {
	bench_job=$1
	bench_cmd=$(perfbot install --command "$bench_job") || return 1
	echo "command: $bench_cmd"
	eval "set -- $bench_cmd"
	bench_tag=$(test_tag)
	env PERFBOT_TEST_TAG=$bench_tag "$PERFBOT" run -r res -c t -M vmstat "$bench_job" -- "$@" >out ||
		{ cat out; return 1; }
	test_no_leftovers $bench_tag || return 1
	rr=$(sed -n 's/: 1 run$//p' out)
	test -d "$rr/0" &&
	grep -q "is_incomplete_run: 0" "$rr/0/last_state" || {
		echo "run failed: $rr"; cat "$rr/0/last_state" "$rr/0/stderr"; false; }
}

# atom JOB PATTERN: split JOB into atoms/ and print the atom matching PATTERN.
atom() {
	mkdir -p atoms &&
	perfbot split-job -o atoms "$1" >/dev/null &&
	ls atoms/*$2*.yaml | head -n 1
}

# has_stat NAME: $rr/0/stats.json has a positive NAME.
has_stat() {
	python3 -c "import json, sys; sys.exit(not json.load(open(sys.argv[1])).get(sys.argv[2], 0) > 0)" \
		"$rr/0/stats.json" "$1" || {
		echo "no positive $1 in $rr/0/stats.json"; grep "\"${1%%.*}\." "$rr/0/stats.json"; false; }
}

# have PROGRAM...: skip (pass with a message) unless all are installed,
# or fail when $PERFBOT_REQUIRE wants them (lib.sh's test_have).
have() { test_have "$@"; }

test_expect_success 'every job and short job is a valid lkp job' '
	mkdir out &&
	for f in "$JOBS"/*.yaml "$JOBS"/short/*.yaml; do
		perfbot split-job -o out "$f" >/dev/null || { echo "invalid: $f"; exit 1; }
	done &&
	test $(ls "$JOBS"/short/*.yaml | wc -l) -ge 20
'

test_expect_success 'every runner has a job and a short job' '
	perfbot install --list >list &&
	test $(wc -l <list) -eq 19 &&
	for r in $(cut -d" " -f1 list); do
		grep -l "^testcase: $r\$" "$JOBS"/*.yaml >/dev/null &&
		grep -l "^testcase: $r\$" "$JOBS"/short/*.yaml >/dev/null || { echo "no job for $r"; exit 1; }
	done
'

test_expect_success 'install --list names packages and availability' '
	perfbot install --list >list &&
	grep -q "^vm-scalability  *(built in)  *available$" list &&
	grep -q "^hackbench  *rt-tests  *" list &&
	grep -q "^redis  *redis-tools redis-server  *" list &&
	grep -q "^perf-bench-futex  *linux-perf  *" list
'

# A fake dpkg-query on PATH decides what is installed.
fake_dpkg() { # installed|missing
	mkdir -p fake &&
	if [ "$1" = installed ]; then
		printf "#!/bin/sh\nprintf installed\n" >fake/dpkg-query
	else
		printf "#!/bin/sh\nexit 1\n" >fake/dpkg-query
	fi &&
	chmod +x fake/dpkg-query
}

test_expect_success 'install --dry-run prints what it would install' '
	fake_dpkg missing &&
	PATH=$(pwd)/fake:$PATH perfbot install --dry-run "$JOBS/short/hackbench.yaml" "$JOBS/short/redis.yaml" \
		"$JOBS/short/tbench.yaml" "$JOBS/short/dbench.yaml" "$JOBS/short/will-it-scale.yaml" >out &&
	cat >expect <<-\EOF &&
	hackbench: rt-tests (missing)
	redis: redis-tools (missing), redis-server (missing)
	tbench: dbench (missing)
	dbench: dbench (missing)
	will-it-scale: built in (workloads/will-it-scale): build it with `make`
	would run: apt-get install -y rt-tests redis-tools redis-server dbench
	EOF
	test_cmp expect out
'

test_expect_success 'install: nothing to do when the packages are there' '
	fake_dpkg installed &&
	PATH=$(pwd)/fake:$PATH perfbot install "$JOBS/short/hackbench.yaml" >out &&
	printf "hackbench: rt-tests (installed)\nnothing to install\n" >expect &&
	test_cmp expect out
'

test_expect_success 'install as a user prints the command and exits 1' '
	command -v setpriv >/dev/null || { echo "# skipped: no setpriv"; exit 0; }
	# the scratch dir is private, and so may be the clone (a root whose
	# home is 0700): the fake dpkg-query, perfbot and the job go where
	# nobody can read them
	fk=$(mktemp -d /tmp/perfbot-fake.XXXXXX) &&
	printf "#!/bin/sh\nexit 1\n" >"$fk/dpkg-query" &&
	cp "$PERFBOT" "$fk/perfbot" && cp "$JOBS/short/hackbench.yaml" "$fk/job.yaml" &&
	chmod 755 "$fk" "$fk/dpkg-query" "$fk/perfbot" && chmod 644 "$fk/job.yaml" &&
	rc=0 && PATH=$fk:$PATH setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$fk/perfbot" install "$fk/job.yaml" >out 2>err || rc=$?
	rm -rf "$fk" &&
	test $rc -eq 1 &&
	grep -q "^run as root: apt-get install -y rt-tests$" out &&
	grep -q "installing packages needs root" err
'

test_expect_success 'install: a job without a benchmark, a bad job' '
	printf "testcase: mytest\nmytest:\n  command: true\n" >j.yaml &&
	test_must_fail 1 perfbot install --dry-run j.yaml 2>err &&
	grep -q "j.yaml: the job names no benchmark perfbot can install" err &&
	printf "testcase: fio\nfio:\n  rw: sideways\n" >k.yaml &&
	test_must_fail 1 perfbot install --command k.yaml 2>err &&
	grep -q "k.yaml:3:7: fio: .rw. expected one of read, write," err &&
	test_must_fail 2 perfbot install
'

test_expect_success 'install --command prints one command per atom' '
	perfbot install --command "$JOBS/short/will-it-scale.yaml" >out &&
	test $(wc -l <out) -eq 5 &&
	grep -q "^$BIN/will-it-scale --duration=1.6 --warmup=0.4 --mode=process --tasks=[0-9,]* page_fault1$" out &&
	grep -q " mmap1$" out
'

# ---- bench-harness ------------------------------------------------------

test_expect_success 'harness: {run_dir}, iterations, exit codes' '
	PERFBOT_RUN_DIR=/some/dir "$HARNESS" -- echo "x{run_dir}/f" >out &&
	echo "x/some/dir/f" >expect && test_cmp expect out &&
	"$HARNESS" -- echo "{run_dir}" >out && echo . >expect && test_cmp expect out &&
	"$HARNESS" --iterations=2 -- echo hi >out &&
	printf "Iterations: 1\nhi\nIterations: 2\nhi\n" >expect && test_cmp expect out &&
	test_must_fail 3 "$HARNESS" -- sh -c "exit 3" &&
	test_must_fail 125 "$HARNESS" --bogus -- true &&
	test_must_fail 125 "$HARNESS" --server true -- -- true
'

test_expect_success 'harness: a server that never listens is stopped, exit 125' '
	tag=$(test_tag) &&
	test_must_fail 125 env PERFBOT_TEST_TAG=$tag "$HARNESS" --port=auto --wait=0.5 --server sleep 30 \
		-- -- echo no >out 2>err &&
	grep -q "the server .sleep. is not listening on port" err &&
	test ! -s out &&
	test_no_leftovers $tag
'

test_expect_success 'harness: a server that exits early, a taken port' '
	test_must_fail 125 "$HARNESS" --port=auto --server false -- -- true 2>err &&
	grep -q "the server .false. exited before listening" err &&
	python3 -c "
import socket, sys, time
s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(20)" >port &
	pid=$! &&
	n=0 && while [ ! -s port ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done &&
	test -s port &&
	test_must_fail 125 "$HARNESS" --port=$(cat port) --server sleep 5 -- -- true 2>err &&
	kill $pid &&
	grep -q "port $(cat port) is already taken" err
'

test_expect_success 'harness: the adapter, its raw output, its failure' '
	printf "     Total time: 0.5 [sec]\n  2.5 usecs/op\n  400000 ops/sec\n" >raw &&
	"$HARNESS" --adapt=perf-bench-sched-pipe --raw=kept -- cat raw >out &&
	printf "total_time_sec: 0.5\nusecs_per_op: 2.5\nops_per_sec: 400000\n" >expect &&
	test_cmp expect out && test_cmp raw kept &&
	test_must_fail 125 "$HARNESS" --adapt=perf-bench-sched-pipe -- echo nothing 2>err &&
	grep -q "no known result line" err &&
	test_must_fail 125 "$HARNESS" --adapt=no-such -- true
'

# ---- the built-in benchmarks through perfbot run -------------------------

# The short jobs below run shorter still (a shorter runtime, fewer loops):
# what is checked is the stats a run gives, which a second of a busy
# loop gives as well as four.

# shorter JOB SED...: JOB with the sed expressions applied, as short.yaml;
# fails when that changed nothing (the job file moved on)
shorter() {
	j=$1 && shift &&
	sed "$@" "$j" >short.yaml &&
	! cmp -s "$j" short.yaml || { echo "shorter: $* changes nothing in $j"; false; }
}

test_expect_success 'will-it-scale short job: per_process_ops from perfbot run' '
	a=$(atom "$JOBS/short/will-it-scale.yaml" page_fault1) &&
	shorter "$a" -e "s/^runtime: 4s$/runtime: 1s/" &&
	bench_run short.yaml &&
	has_stat will-it-scale.per_process_ops &&
	has_stat will-it-scale.1.processes &&
	has_stat will-it-scale.2.processes &&
	! grep -q "will-it-scale.1.threads\": [1-9]" "$rr/0/stats.json" &&
	test -f "$rr/0/will-it-scale.json" && test -f "$rr/matrix.json"
'

test_expect_success 'ebizzy short job: throughput and time stats from perfbot run' '
	shorter "$JOBS/short/ebizzy.yaml" -e "s/^  duration: 2s$/  duration: 1s/" &&
	bench_run short.yaml &&
	has_stat ebizzy.throughput &&
	has_stat ebizzy.throughput.per_thread.min &&
	has_stat ebizzy.throughput.per_thread.max &&
	has_stat ebizzy.time.real &&
	grep -q "\"ebizzy.throughput.per_thread.stddev_percent\"" "$rr/0/stats.json"
'

test_expect_success 'vm-scalability short job: throughput, stddev, median, workload' '
	a=$(atom "$JOBS/short/vm-scalability.yaml" anon-w-seq) &&
	shorter "$a" -e "s/^runtime: 5s$/runtime: 1s/" &&
	bench_run short.yaml &&
	has_stat vm-scalability.throughput &&
	has_stat vm-scalability.median &&
	has_stat vm-scalability.workload &&
	grep -q "\"vm-scalability.stddev%\"" "$rr/0/stats.json"
'

# (and without its memory eater, which would hold all but 4 GiB of this
# machine's memory: t1025 tests eatmem)
test_expect_success 'the seed job (lru-file-readtwice), without its filesystems' '
	sed -e "/^disk:/d" -e "/^fs:/,/^$/d" -e "/^eatmem:/d" -e "/^  eatmem_/d" \
		-e "s/^runtime: .*/runtime: 3s/" -e "s/^  test: lru-file-readtwice$/&\\n  size: 512m/" \
		"$JOBS/short/vm-scalability-lru-file-readtwice.yaml" >seed.yaml &&
	! grep -q "^fs:" seed.yaml && ! grep -q "^eatmem:\|^  eatmem_" seed.yaml &&
	grep -q "^  size: 512m$" seed.yaml &&
	bench_run seed.yaml &&
	has_stat vm-scalability.throughput &&
	has_stat vm-scalability.median &&
	grep -q " copied, " "$rr/0/vm-scalability" &&
	test $(grep -c " copied, " "$rr/0/vm-scalability") -eq $((2 * $(nproc)))
'

# ---- Debian's benchmarks, where installed -------------------------------

test_expect_success 'hackbench (rt-tests)' '
	have hackbench || exit 0
	a=$(atom "$JOBS/short/hackbench.yaml" pipe) &&
	shorter "$a" -e "s/^  loops: 2000$/  loops: 200/" &&
	bench_run short.yaml &&
	has_stat hackbench.throughput &&
	test $(grep -c "^Iterations: " "$rr/0/hackbench") -eq 3
'

test_expect_success 'stress-ng' '
	have stress-ng || exit 0
	printf "testcase: stress-ng\nnr_threads: 2\nstress-ng:\n  test: pipe\n  testtime: 1\n" >j.yaml &&
	bench_run j.yaml &&
	has_stat stress-ng.pipe.ops_per_sec
'

test_expect_success 'perf bench sched messaging and futex' '
	have perf || exit 0
	bench_run "$JOBS/short/perf-bench-sched-messaging.yaml" &&
	has_stat perf-bench-sched-messaging.total_time_sec &&
	printf "testcase: perf-bench-futex\nruntime: 1\nnr_task: 2\nperf-bench-futex:\n  test: hash\n" >j.yaml &&
	bench_run j.yaml &&
	has_stat perf-bench-futex.ops/s &&
	printf "testcase: perf-bench-futex\nnr_task: 2\nperf-bench-futex:\n  test: wake-parallel\n" >j.yaml &&
	bench_run j.yaml &&
	has_stat perf-bench-futex.avg_per_thread_latency_ms
'

test_expect_success 'fio: its JSON lands in the run dir' '
	have fio || exit 0
	printf "testcase: fio\nruntime: 1\nfio:\n  rw: write\n  test_size: 32m\n  time_based: yes\n" >j.yaml &&
	bench_run j.yaml &&
	test -s "$rr/0/fio.output" &&
	has_stat fio.write_bw_MBps &&
	! ls task_0.* 2>/dev/null
'

test_expect_success 'iperf3 with its server on loopback' '
	have iperf3 || exit 0
	printf "testcase: iperf\nruntime: 1\niperf:\n  protocol: tcp\n" >j.yaml &&
	bench_run j.yaml &&
	has_stat iperf.tcp.sender.bps
'

test_expect_success 'tbench against tbench_srv' '
	have tbench tbench_srv || exit 0
	printf "testcase: tbench\nruntime: 3\nnr_threads: 2\ntbench:\n" >j.yaml &&
	bench_run j.yaml &&
	has_stat tbench.throughput_MB/s
'

test_expect_success 'redis-benchmark against a private redis-server' '
	have redis-benchmark redis-server || exit 0
	bench_run "$JOBS/short/redis.yaml" &&
	has_stat redis.set_avg_throughput_rps &&
	has_stat redis.get_avg_throughput_rps &&
	grep -q "\"redis.set_latency_[0-9]*ms%\"" "$rr/0/stats.json"
'

test_expect_success 'sysbench, adapted to the mytest convention' '
	have sysbench || exit 0
	printf "testcase: sysbench\n" >j.yaml &&
	perfbot run -r res -c t -M vmstat j.yaml -- \
		"$HARNESS" --adapt=sysbench -- sysbench cpu --threads=2 --time=1 run >out &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	has_stat sysbench.events_per_second &&
	grep -q "\"sysbench.latency_avg_ms\"" "$rr/0/stats.json" &&
	grep -q "CPU speed:" "$rr/0/stderr"
'

test_done
