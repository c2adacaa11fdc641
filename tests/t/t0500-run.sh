#!/bin/sh
# perfbot run: result layout, stats, incomplete runs, signals, bad jobs
. ./lib.sh

# A benchmark in the mytest convention, quick and deterministic enough.
cat >"$TRASH/bench.sh" <<'EOS'
#!/bin/sh
i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done
echo "throughput: 1234.5"
echo "latency_us: 42"
echo "some other line"
EOS
chmod +x "$TRASH/bench.sh"
BENCH=$TRASH/bench.sh

job() { # job FILE [extra lines]
	f=$1; shift
	printf 'testcase: mytest\ncategory: benchmark\n' >"$f"
	for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}

test_expect_success 'two runs: lkp layout, stats and matrix' '
	job j.yaml "mytest:" "  command: $BENCH" &&
	perfbot run -n 2 -r res -c abc123 -M proc-vmstat,meminfo j.yaml >out &&
	rr=$(sed -n "s/: 2 runs$//p" out) &&
	test -d "$rr" &&
	case "$rr" in "$(pwd -P)"/res/mytest/*/abc123) ;; *) echo "layout: $rr"; false;; esac &&
	test -f "$rr/0/stats.json" && test -f "$rr/1/stats.json" &&
	test -f "$rr/0/job.yaml" && test -f "$rr/0/proc-vmstat" && test -f "$rr/0/time" &&
	grep -q "\"mytest.throughput\": 1234.5" "$rr/0/stats.json" &&
	grep -q "\"mytest.latency_us\": 42" "$rr/0/stats.json" &&
	grep -q "\"time.elapsed_time\"" "$rr/0/stats.json" &&
	grep -q "\"time.user_time\"" "$rr/0/stats.json" &&
	grep -q "\"proc-vmstat.nr_free_pages\"" "$rr/0/stats.json" &&
	grep -q "\"meminfo.Memused\"" "$rr/0/stats.json" &&
	grep -q "is_incomplete_run: 0" "$rr/0/last_state" &&
	grep -q "^nr_cpu: $(nproc)$" "$rr/0/machine" &&
	grep -q "^memory: [0-9]*G$" "$rr/0/machine" &&
	head -1 "$rr/0/proc-vmstat" | grep -q "^time: [0-9]" &&
	grep -q "\"stats_source\"" "$rr/matrix.json" &&
	test -z "$(ls -A "$rr" | grep "^\.run-")"
'

test_expect_success 'command after -- and a third run appended' '
	job j.yaml &&
	perfbot run -r res -c c1 -M vmstat j.yaml -- sh -c "echo ops: 7" >out &&
	perfbot run -r res -c c1 -M vmstat j.yaml -- sh -c "echo ops: 9" >out &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	test -d "$rr/0" && test -d "$rr/1" &&
	grep -q "\"mytest.ops\": 9" "$rr/1/stats.json" &&
	python3 -c "import json,sys; m=json.load(open(\"$rr/matrix.json\")); assert m[\"mytest.ops\"]==[7,9], m[\"mytest.ops\"]"
'

test_expect_success 'options anywhere before --, as run --help orders them' '
	job j.yaml &&
	perfbot run j.yaml --runs 2 --result-root res -c ord1 -M vmstat -- sh -c "echo ops: 5" -n 7 >out &&
	rr=$(sed -n "s/: 2 runs$//p" out) &&
	case "$rr" in "$(pwd -P)"/res/mytest/*/ord1) ;; *) echo "layout: $rr"; false;; esac &&
	test -f "$rr/1/stats.json" && ! test -d "$rr/2" &&
	grep -q "\"mytest.ops\": 5" "$rr/0/stats.json" &&
	perfbot run -r res j.yaml -c ord2 -M vmstat -- sh -c "echo \"\$1: 1\"" sh --runs >out &&
	grep -q "\"mytest.--runs\": 1" res/mytest/*/*/*/*/*/ord2/0/stats.json &&
	test_must_fail 2 perfbot run j.yaml --nosuch -r res -- true 2>err &&
	grep -q "usage: perfbot run" err &&
	test_must_fail 2 perfbot run j.yaml -r res -c ord3 sh -c true 2>err &&
	grep -q "unexpected argument .sh. (the benchmark command goes after --)" err &&
	! test -d res/mytest/*/*/*/*/*/ord3
'

test_expect_success 'a job of the user'"'"'s own is named by name:, else by its file' '
	job mine.yaml "name: quick-echo" "mytest:" "  command: '"'"'echo ops: 3'"'"'" &&
	perfbot run -r res -c n1 -M vmstat mine.yaml >out &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	case "$rr" in "$(pwd -P)"/res/mytest/quick-echo/*/n1) ;; *) echo "layout: $rr"; false;; esac &&
	job other.yaml "runtime: 3s" "mytest:" "  command: '"'"'echo ops: 4'"'"'" &&
	perfbot run -r res -c n1 -M vmstat other.yaml >out &&
	rr2=$(sed -n "s/: 1 run$//p" out) &&
	case "$rr2" in "$(pwd -P)"/res/mytest/other-3s/*/n1) ;; *) echo "layout: $rr2"; false;; esac &&
	grep -q "^name: other$" "$rr2/0/job.yaml" &&
	# the result'"'"'s job.yaml and a split atom name the same result root
	perfbot run -r res -c n1 -M vmstat "$rr2/0/job.yaml" >out &&
	test "$(sed -n "s/: 1 run$//p" out)" = "$rr2" && test -d "$rr2/1" &&
	perfbot split-job -o atoms other.yaml >/dev/null &&
	perfbot run -r res -c n1 -M vmstat atoms/other-*.yaml >out &&
	test "$(sed -n "s/: 1 run$//p" out)" = "$rr2" && test -d "$rr2/2" &&
	perfbot report "$rr" "$rr2" >rep &&
	grep -q "^        mytest/quick-echo$" rep &&
	# a command from the command line names nothing: parameters as before
	job cmdline.yaml "runtime: 2s" "mytest:" &&
	perfbot run -r res -c n1 -M vmstat cmdline.yaml -- sh -c "echo ops: 5" >out &&
	case "$(sed -n "s/: 1 run$//p" out)" in "$(pwd -P)"/res/mytest/2s/*/n1) ;; *) cat out; false;; esac &&
	job dots.yaml "name: .." "mytest:" "  command: '"'"'echo ops: 3'"'"'" &&
	test_must_fail 1 perfbot run -r res -c n1 dots.yaml 2>err &&
	grep -q "dots.yaml: the parameters" err &&
	test "$(wc -l <err)" = 1
'

test_expect_success 'a command names one result path, however it is given' '
	printf "#!/bin/sh\necho ops: 3\n" >prog && chmod +x prog &&
	printf "testcase: spin\nruntime: 3s\nmytest:\n  command: \$PERFBOT_BUILD_DIR/prog 3\n" >a.yaml &&
	printf "testcase: spin\nruntime: 3s\nspin:\n  command: \$PERFBOT_BUILD_DIR/prog 3\n" >b.yaml &&
	printf "testcase: spin\nruntime: 3s\n" >c.yaml &&
	perfbot run -r res -c w1 -M vmstat a.yaml >out1 &&
	perfbot run -r res -c w2 -M vmstat b.yaml >out2 2>err2 &&
	perfbot run -r res -c w3 -M vmstat c.yaml -- ./prog 3 >out3 &&
	! grep -q "unknown key" err2 &&
	for i in 1 2 3; do
		case "$(sed -n "s/: 1 run$//p" out$i)" in
		"$(pwd -P)"/res/spin/3s/*/w$i) ;; *) cat out$i; false;; esac || return 1
	done &&
	grep -q "\"spin.ops\": 3" res/spin/3s/*/*/*/*/w2/0/stats.json &&
	# the command is kept in job.yaml, not in the path
	grep -A1 "^mytest:" res/spin/3s/*/*/*/*/w3/0/job.yaml | grep -q "command: .*prog" &&
	R=$(echo res/spin/3s/*/*/*/*) &&
	perfbot report "$R/w1" "$R/w3" >rep &&
	grep -q "^        spin/3s$" rep &&
	! grep -q "PERFBOT_BUILD_DIR\|prog" rep &&
	perfbot compare "$R/w1" "$R/w2" >cmp &&
	! grep -q "PERFBOT_BUILD_DIR\|prog\|command" cmp
'

test_expect_success 'no terminal: a line a run on stderr; -v logs phases instead' '
	job j.yaml &&
	perfbot run -n 2 -r res -c pl1 -M vmstat j.yaml -- sh -c "echo ops: 1" >out 2>err &&
	grep -q "^perfbot: run 1/2: done in [0-9]*s$" err &&
	grep -q "^perfbot: run 2/2: done in [0-9]*s$" err &&
	test "$(grep -c "done in" err)" = 2 &&
	perfbot run -v -r res -c pl2 -M vmstat j.yaml -- sh -c "echo ops: 1" >out 2>err &&
	! grep -q "done in" err
'

test_expect_success '$PERFBOT_BUILD_DIR: the folder perfbot runs in, unless set' '
	job j.yaml && mkdir co && echo 7 >co/VALUE &&
	(cd co && perfbot run ../j.yaml -r ../res -c bd1 -M vmstat -- sh -c "echo v: \$(cat \$PERFBOT_BUILD_DIR/VALUE)") >out &&
	grep -q "\"mytest.v\": 7" res/mytest/*/*/*/*/*/bd1/0/stats.json &&
	mkdir other && echo 9 >other/VALUE &&
	(cd co && PERFBOT_BUILD_DIR=$(pwd -P)/../other perfbot run ../j.yaml -r ../res -c bd2 -M vmstat -- sh -c "echo v: \$(cat \$PERFBOT_BUILD_DIR/VALUE)") >out &&
	grep -q "\"mytest.v\": 9" res/mytest/*/*/*/*/*/bd2/0/stats.json
'

test_expect_success 'a timeout kills the benchmark group and marks the run incomplete' '
	job j.yaml "timeout: 1" &&
	tag=$(test_tag) &&
	test_must_fail 1 env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c t1 -M vmstat j.yaml \
		-- sh -c "sleep 30 & sleep 30" >out &&
	rr=$(ls -d res/mytest/*/*/*/*/*/t1) &&
	grep -q "is_incomplete_run: 1" "$rr/0/last_state" &&
	grep -q "timeout: true" "$rr/0/last_state" &&
	grep -q "\"last_state.is_incomplete_run\": 1" "$rr/0/stats.json" &&
	test_no_leftovers $tag
'

test_expect_success 'children the benchmark leaves behind are killed when it ends' '
	job j.yaml &&
	tag=$(test_tag) &&
	env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c bg1 -M vmstat j.yaml \
		-- sh -c "sleep 30 >/dev/null 2>&1 & echo a: 1" >out &&
	rr=$(ls -d res/mytest/*/*/*/*/*/bg1) &&
	grep -q "^is_incomplete_run: 0$" "$rr/0/last_state" &&
	test_no_leftovers $tag
'

# Durations in lkp's units: a timeout of 0.02m is 1.2 s, so the benchmark
# cannot have been stopped before 1.2 s (only a lower bound: a loaded
# machine makes it later, never earlier).
test_expect_success 'durations in minutes: timeout 0.02m is 1.2 s' '
	job j.yaml "timeout: 0.02m" &&
	test_must_fail 1 perfbot run -r res -c tm1 -M vmstat j.yaml -- sleep 30 >out &&
	rr=$(ls -d res/mytest/*/*/*/*/*/tm1) &&
	grep -q "^timeout: true$" "$rr/0/last_state" &&
	t=$(sed -n "s/.*benchmark ended after \([0-9.]*\)s$/\1/p" "$rr/0/perfbot.log") &&
	echo "ended after $t s" &&
	awk -v t="$t" "BEGIN { exit !(t >= 1.2 && t < 30) }"
'

test_expect_success 'non-zero exit marks the run incomplete' '
	job j.yaml &&
	test_must_fail 1 perfbot run -r res -c e1 -M vmstat j.yaml -- sh -c "echo x: 1; exit 3" &&
	rr=$(ls -d res/mytest/*/*/*/*/*/e1) &&
	printf "%s\n" "is_incomplete_run: 1" "exit_status: 3" "timeout: false" "interrupted: false" \
		"reason: benchmark exited with non-zero status" >expect &&
	grep -v "^isolation: " "$rr/0/last_state" >got &&
	test_cmp expect got &&
	grep -q "^isolation: \(cgroup perfbot/\|none: \)" "$rr/0/last_state" &&
	grep -q "\"last_state.is_incomplete_run\": 1" "$rr/0/stats.json" &&
	grep -q "\"last_state.exit_fail\": 1" "$rr/0/stats.json" &&
	grep -q "\"mytest.x\": 1" "$rr/0/stats.json" &&
	perfbot run -r res -c e1 -M vmstat j.yaml -- sh -c "echo x: 2" &&
	grep -q "\"last_state.is_incomplete_run\": 0" "$rr/1/stats.json" &&
	! grep -q "exit_fail" "$rr/1/stats.json" &&
	python3 -c "import json; m=json.load(open(\"$rr/matrix.json\")); assert m[\"last_state.is_incomplete_run\"]==[1,0], m"
'

test_expect_success 'a benchmark killed by a signal: exit_status 128+N, incomplete' '
	job j.yaml &&
	test_must_fail 1 perfbot run -r res -c sig1 -M vmstat j.yaml -- sh -c "echo x: 1; kill -TERM \$\$" &&
	rr=$(ls -d res/mytest/*/*/*/*/*/sig1) &&
	grep -q "^is_incomplete_run: 1$" "$rr/0/last_state" &&
	grep -q "^exit_status: 143$" "$rr/0/last_state"
'

test_expect_success 'exit 0 with nothing its parser can read: incomplete' '
	printf "testcase: will-it-scale\ncategory: benchmark\n" >w.yaml &&
	test_must_fail 1 perfbot run -r res -c p1 -M vmstat w.yaml -- sh -c "echo no table here" 2>err &&
	rr=$(ls -d res/will-it-scale/*/*/*/*/*/p1) &&
	grep -q "^is_incomplete_run: 1$" "$rr/0/last_state" &&
	grep -q "^exit_status: 0$" "$rr/0/last_state" &&
	grep -q "\"last_state.is_incomplete_run\": 1" "$rr/0/stats.json" &&
	grep -q "no will-it-scale results found" err
'

test_expect_success 'SIGINT stops the run, keeps it marked incomplete, exits 130' '
	job j.yaml &&
	tag=$(test_tag) &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c s1 -M vmstat j.yaml -- sleep 30 >out 2>err & } &&
	pid=$! &&
	sleep 2 && kill -INT $pid &&
	rc=0 && { wait $pid || rc=$?; } && test $rc -eq 130 &&
	grep -q interrupted err &&
	rr=$(ls -d res/mytest/*/*/*/*/*/s1) &&
	grep -q "is_incomplete_run: 1" "$rr/0/last_state" &&
	grep -q "interrupted: true" "$rr/0/last_state" &&
	test -f "$rr/matrix.json" &&
	test_no_leftovers $tag
'

test_expect_success 'kill -9 leaves no half-written result' '
	job j.yaml &&
	tag=$(test_tag) &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c k1 -M vmstat j.yaml -- sleep 31 >/dev/null 2>&1 & } &&
	pid=$! &&
	# killed once its run dir is made (at most 60 s: a loaded machine)
	n=0 && while ! ls -d res/mytest/*/*/*/*/*/k1/.run-0.* >/dev/null 2>&1 && [ $n -lt 600 ]; do
		sleep 0.1; n=$((n + 1)); done &&
	kill -9 $pid && { wait $pid || true; } &&
	{ kill $(test_leftovers $tag) 2>/dev/null || true; } &&
	rr=$(ls -d res/mytest/*/*/*/*/*/k1) &&
	test -z "$(ls "$rr")" &&
	ls -A "$rr" | grep -q "^\.run-0\." &&
	! test -f "$rr/matrix.json" &&
	! test -f "$rr/0/stats.json"
'

# PERFBOT_MONITOR_ROOT points the monitors (and the machine file) at a
# made-up /proc and /sys: here vmstat's files exist and cpufreq's do not,
# whatever this machine has.
test_expect_success 'a missing monitor source is skipped, the run goes on' '
	mkdir -p fake/proc fake/sys/devices/system/node/node0 fake/sys/devices/system/node/node1 &&
	cp /proc/stat /proc/vmstat fake/proc/ &&
	sed "s/^MemTotal: .*/MemTotal:        2621439 kB/" /proc/meminfo >fake/proc/meminfo &&
	printf "processor\t: 0\nmodel name\t: Fake CPU 9000 @ 1.00GHz\nflags\t\t: fpu\n" >fake/proc/cpuinfo &&
	job j.yaml &&
	PERFBOT_MONITOR_ROOT=$(pwd)/fake perfbot run -r res -c m1 -M vmstat,cpufreq j.yaml -- echo a: 1 >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	cpu0=$(pwd)/fake/sys/devices/system/cpu/cpu0/cpufreq/stats &&
	why="cpufreq: cannot read '"'"'$cpu0/time_in_state'"'"': No such file or directory" &&
	echo "perfbot: monitor skipped: $why" >expect &&
	grep "monitor skipped" err >actual &&
	test_cmp expect actual &&
	sed -n "/^skipped_monitors:$/,\$p" "$rr/0/last_state" >actual &&
	printf "skipped_monitors:\n  %s\n" "$why" >expect &&
	test_cmp expect actual &&
	grep -q "^is_incomplete_run: 0$" "$rr/0/last_state" &&
	test -s "$rr/0/vmstat" && ! test -e "$rr/0/cpufreq" &&
	grep -q "\"vmstat.memory.free\"" "$rr/0/stats.json" &&
	grep -q "\"mytest.a\": 1" "$rr/0/stats.json" &&
	! grep -q "cpufreq" "$rr/0/stats.json" &&
	grep -q "^model: Fake CPU 9000 @ 1.00GHz$" "$rr/0/machine" &&
	grep -q "^nr_node: 2$" "$rr/0/machine" &&
	grep -q "^memory: 2G$" "$rr/0/machine" &&
	sed -i "s/^MemTotal: .*/MemTotal:        2621440 kB/" fake/proc/meminfo &&

	mkdir -p "$cpu0" &&
	printf "2000000 100\n1000000 50\n" >"$cpu0/time_in_state" && echo 7 >"$cpu0/total_trans" &&
	PERFBOT_MONITOR_ROOT=$(pwd)/fake perfbot run -r res -c m2 -M vmstat,cpufreq j.yaml -- echo a: 1 >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	! grep -q "monitor skipped" err &&
	! grep -q "skipped_monitors" "$rr/0/last_state" &&
	grep -q "^cpu0.total_trans: 7$" "$rr/0/cpufreq" &&
	grep -q "\"cpufreq.cpu0.time_in_state.2000000\": 100," "$rr/0/stats.json" &&
	grep -q "\"cpufreq.cpu0.total_trans\": 7," "$rr/0/stats.json" &&
	grep -q "^memory: 3G$" "$rr/0/machine"
'

test_expect_success 'perf is probed only for a job with a perf monitor' '
	mkdir -p probe-bin &&
	printf "#!/bin/sh\necho \"\$*\" >>%s/perf-calls\nexit 1\n" "$(pwd)" >probe-bin/perf &&
	chmod +x probe-bin/perf &&
	job j.yaml &&
	PATH=$(pwd)/probe-bin:$PATH perfbot run -r res -c p1 -M vmstat j.yaml -- echo a: 1 >out 2>err &&
	! test -e perf-calls &&
	! grep -q "perf-stat\|perf stat" err &&
	PATH=$(pwd)/probe-bin:$PATH perfbot run -r res -c p2 -M vmstat,perf-stat j.yaml -- echo a: 1 >out 2>err &&
	grep -q "^stat -a " perf-calls &&
	grep -q "monitor skipped: perf-stat: perf stat -a failed (exit 1)" err
'

test_expect_success 'lkp monitors perfbot lacks: named in one line at the start and in last_state' '
	printf "testcase: mytest\nheartbeat:\nvmstat:\nlock_stat:\n" >j.yaml &&
	perfbot run -r res -c sk1 j.yaml -- sh -c "echo a: 1" >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	echo "perfbot: monitors skipped, not in perfbot yet: heartbeat, lock_stat" >expect &&
	grep "not in perfbot" err >actual &&
	test_cmp expect actual &&
	grep -q "^  not in perfbot yet: heartbeat, lock_stat$" "$rr/0/last_state" &&
	test -s "$rr/0/vmstat" &&
	# lkp'"'"'s benchmark set (split-job leaves its missing members out),
	# each name once
	job b.yaml "heartbeat:" "vmstat:" &&
	perfbot run -r res -c sk2 b.yaml -- sh -c "echo a: 1" >out 2>err &&
	grep "not in perfbot" err >actual &&
	test "$(wc -l <actual)" = 1 &&
	grep -q "yet: heartbeat, boot-time, uptime, lock_stat, perf-sched, " actual &&
	! grep -q "kmsg" actual &&
	printf "testcase: mytest\nvmstat:\n" >c.yaml &&
	perfbot run -r res -c sk3 c.yaml -- sh -c "echo a: 1" >out 2>err &&
	! grep -q "not in perfbot" err &&
	perfbot run -r res -c sk4 -M vmstat b.yaml -- sh -c "echo a: 1" >out 2>err &&
	! grep -q "not in perfbot" err &&
	# a job of two atoms (and two runs each): said once per invocation
	printf "testcase: mytest\nheartbeat:\nvmstat:\nmytest:\n  x:\n    - 1\n    - 2\n" >m.yaml &&
	perfbot run -n 2 -r res -c sk5 m.yaml -- sh -c "echo a: 1" >out 2>err &&
	test $(grep -c ": 2 runs$" out) -eq 2 &&
	test $(grep -c "not in perfbot" err) -eq 1
'

test_expect_success 'monitors sample at lkp'"'"'s pace unless the job gives an interval' '
	job j.yaml "proc-vmstat:" "softirqs:" "interrupts:" "  interval: 0.2" &&
	perfbot run -r res -c iv1 -i 0.2 j.yaml -- sh -c "sleep 3; echo a: 1" >out &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	test $(grep -c "^time:" "$rr/0/softirqs") -eq 2 &&
	test $(grep -c "^time:" "$rr/0/interrupts") -ge 5 &&
	test $(grep -c "^time:" "$rr/0/proc-vmstat") -ge 5 &&
	grep -q "\"softirqs.RCU\"" "$rr/0/stats.json" &&
	grep -q "sampler thread used [0-9.]*s of CPU, [0-9.]*% of a core" "$rr/0/perfbot.log" &&
	job j.yaml "interrupts:" "  interval: often" &&
	test_must_fail 1 perfbot run -r res j.yaml -- true 2>err &&
	grep -q "j.yaml:4:.*.interrupts.interval. expected a duration" err &&
	job j.yaml "proc-vmstat:" "  interval: 1" &&
	perfbot run -r res -c iv2 -i 0.2 j.yaml -- sh -c "sleep 1.1; echo a: 1" >out &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	test $(grep -c "^time:" "$rr/0/proc-vmstat") -le 3
'

test_expect_success 'fs: ext4 on a loop image: the benchmark runs in it, nothing is left behind' '
	if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null; then
		echo "# skipped: needs root and mkfs.ext4"
	else
		job j.yaml "fs: ext4" "disk: loop_128M" &&
		export PERFBOT_WORK_DIR=$(pwd)/work &&
		perfbot run -r res -c fs1 -M vmstat j.yaml -- sh -c "df -T . | tail -1; echo ok: 1" >out &&
		rr=$(sed -n "s/: 1 run$//p" out) &&
		case "$rr" in */loop_128M-ext4/*) ;; *) echo "path_params: $rr"; false;; esac &&
		grep -q "ext4 .*$(pwd)/work/" "$rr/0/mytest" &&
		! grep -q "$(pwd)/work" /proc/mounts &&
		! losetup -a | grep -q "$(pwd)/work"
	fi
'

test_expect_success 'no brd here: one line naming loop_<size>, before any folder or monitor' '
	if [ "$(id -u)" != 0 ]; then
		echo "# skipped: needs root (setup checks root before brd)"
	else
		# a modprobe that finds no module: brd is missing on any machine
		mkdir bin && printf "#!/bin/sh\nexit 1\n" >bin/modprobe && chmod +x bin/modprobe &&
		job j.yaml "disk: 2BRD_64M" &&
		(PATH="$(pwd)/bin:$PATH" && PERFBOT_WORK_DIR=$(pwd)/work && export PATH PERFBOT_WORK_DIR &&
		 test_must_fail 1 perfbot run -r res -c brd1 -M vmstat j.yaml -- sh -c "echo ok: 1" >out 2>err) &&
		test "$(wc -l <err)" = 1 &&
		grep -q "^perfbot: j.yaml:3:7: disk .2BRD_64M.: .*brd.*; use disk: loop_64M instead$" err &&
		! ls -d res/mytest/*/*/*/*/*/brd1 2>/dev/null &&
		! test -e work &&
		job k.yaml "disk: 1BRD" &&
		(PATH="$(pwd)/bin:$PATH" && PERFBOT_WORK_DIR=$(pwd)/work && export PATH PERFBOT_WORK_DIR &&
		 test_must_fail 1 perfbot run -r res -c brd1 -M vmstat k.yaml -- sh -c "echo ok: 1" 2>err) &&
		grep -q "; use disk: loop_1G instead$" err
	fi
'

test_expect_success 'perf-profile: symbols by shared object, no address or (deleted) in a name' '
	test_have perf cc strip || exit 0
	printf "int main(void){volatile unsigned long x=0;for(unsigned long i=0;i<200000000UL;i++)x+=i;return 0;}\n" >l.c &&
	cc -O0 -o loop l.c && strip loop &&
	job j.yaml "perf-profile:" "  delay: 0" &&
	# perfbot starts the benchmark once perf records (test_perf_ready);
	# the loop runs from a file removed under it: a "(deleted)" object
	cat >bench.sh <<-EOF &&
	cp ./loop ./loopx; ./loopx & p=\$!
	until readlink /proc/\$p/exe | grep -q loopx; do sleep 0.05; done
	rm ./loopx; wait; echo ops: 1
	EOF
	perfbot run j.yaml -r res -c pp1 -M perf-profile -- sh bench.sh >out &&
	st=$(ls res/mytest/*/*/*/*/*/pp1/0/stats.json) &&
	grep -q "\"perf-profile.children\.cpu-clock\.[A-Za-z_]" "$st" &&
	grep -q "\"perf-profile.self\.cpu-clock\.[A-Za-z_]" "$st" &&
	grep -q "\"perf-profile.calltrace\.cpu-clock\.[A-Za-z_]" "$st" &&
	! grep -E "\"perf-profile\.[^\"]*(\.0x[0-9a-f]+(\.|\")|deleted\)|\[unknown\])" "$st" &&
	# the raw file as the parser of lkp reads it: by shared object and
	# symbol, so the type column is the fourth field (the fifth after a
	# "(deleted)" object), never shifted by a command column
	awk "\$1 ~ /%\$/ && \$2 ~ /%\$/ { n++; if (!(\$4 ~ /^\\[.\\]\$/ || (\$4 == \"(deleted)\" && \$5 ~ /^\\[.\\]\$/))) bad++ }
	     END { exit !(n > 0 && !bad) }" "${st%/stats.json}/perf-profile"
'

test_expect_success 'bad jobs and options: clear errors' '
	printf "testcase: [a\n" >bad.yaml &&
	test_must_fail 1 perfbot run bad.yaml 2>err &&
	grep -q "bad.yaml:" err &&
	job j.yaml &&
	test_must_fail 1 perfbot run -r res j.yaml 2>err &&
	grep -q "the job names no benchmark" err &&
	test_must_fail 1 perfbot run -r res -M nosuch j.yaml -- true 2>err &&
	grep -q "unknown monitor .nosuch." err &&
	job j.yaml "fs: zfs" &&
	test_must_fail 1 perfbot run -r res j.yaml -- true 2>err &&
	grep -q "j.yaml:3:.*.fs. expected one of" err &&
	job j.yaml "runtime: soon" &&
	test_must_fail 1 perfbot run -r res j.yaml -- true 2>err &&
	grep -q "j.yaml:3:.*expected a duration" err &&
	job j.yaml "timeout: -5" &&
	test_must_fail 1 perfbot run -r res j.yaml -- true 2>err &&
	grep -q "j.yaml:3:.*.timeout. expected a duration (300, 300s, 5m), got .-5." err &&
	test_must_fail 2 perfbot run &&
	test_must_fail 2 perfbot run --runs 0 j.yaml &&
	test_must_fail 1 perfbot run nonexistent.yaml
'

test_done
