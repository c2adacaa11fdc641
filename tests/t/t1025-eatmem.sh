#!/bin/sh
# t1025: `eatmem:` (lkp's memory eater, src/run/eatmem.h) in perfbot run:
# 64 MiB are mlocked by a child of perfbot while the benchmark runs (VmLck
# of $PERFBOT_EATMEM_PID; it holds only /dev/null open) and gone after
# the run, after a kill -9 of perfbot (nothing stays locked; the next
# start cleans the journal), and
# a request that would leave less than the safe margin is refused with
# the job's file:line.  Needs mlock of 64 MiB (root, or ulimit -Hl) and
# 64 MiB plus the margin available; skipped with the reason otherwise.
. ./lib.sh

# may this machine lock 64 MiB?  (prints why not)
can_eat() {
	lim=$(ulimit -Hl)
	if [ "$(id -u)" != 0 ] && [ "$lim" != unlimited ] && [ "$lim" -lt 65536 ]; then
		echo "# skipped: mlock of 64 MiB not permitted (not root, ulimit -Hl is $lim KiB)"
		return 1
	fi
	# perfbot's margin: the larger of 512 MiB and MemTotal/32, in KiB
	awk '/^MemTotal:/ { t = $2 } /^MemAvailable:/ { a = $2 }
	     END { m = t / 32; if (m < 524288) m = 524288; exit !(a >= m + 65536 + 65536) }' \
		/proc/meminfo && return 0
	echo "# skipped: less than 64 MiB above the eater's margin available"
	return 1
}

# vmlck PID: its VmLck in KiB, empty when it is gone
vmlck() { awk '/^VmLck:/ { print $2 }' /proc/$1/status 2>/dev/null; }

# a job eating 64 MiB
printf "testcase: mytest\neatmem:\n  eatmem_size: 64M\n" >"$TRASH/eat.yaml"

test_expect_success 'run: 64 MiB locked while the benchmark runs, released after' '
	can_eat || exit 0
	export PERFBOT_WORK_DIR=$PWD/work && tag=$(test_tag) &&
	cat >bench.sh <<-\EOS &&
	#!/bin/sh
	p=$PERFBOT_EATMEM_PID
	echo "$p" >"$OUT/pid"
	awk "/^VmLck:/ { print \$2 }" /proc/$p/status >"$OUT/vmlck"
	cat /proc/$p/comm >"$OUT/comm"
	ps -o pgid= -p $p | tr -d " " >"$OUT/pgid"
	ls /proc/$p/fd | sort -n >"$OUT/fds"
	echo score: 1
	EOS
	chmod +x bench.sh &&
	env OUT=$PWD PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c k -M vmstat "$TRASH/eat.yaml" \
		-- "$PWD/bench.sh" >out 2>err &&
	cat err &&
	pid=$(cat pid) && test -n "$pid" &&
	test "$(cat vmlck)" -ge 65536 &&
	echo perfbot-eatmem >expect && test_cmp expect comm &&
	test "$(cat pgid)" = "$pid" &&
	printf "0\n1\n2\n" >expect && test_cmp expect fds &&
	grep -q "^perfbot: eatmem: locking 64 MiB (.* available, eatmem_size .64M.) \.\.\.$" err &&
	grep -q "^perfbot: eatmem: locked 64 MiB in [0-9.]* s (pid $pid)$" err &&
	test_no_leftovers $tag &&
	test -z "$(vmlck $pid)" &&
	{ ! test -e /proc/$pid/comm || ! grep -qx perfbot-eatmem /proc/$pid/comm; } &&
	rr=$(ls -d res/mytest/*/*/*/*/*/k) &&
	case "$rr" in res/mytest/64M/*) ;; *) echo "no 64M in $rr"; exit 1 ;; esac &&
	grep -qx "locked_bytes: 67108864" "$rr/0/eatmem" &&
	grep -qx "pid: $pid" "$rr/0/eatmem" &&
	grep -qx "asked: eatmem_size .64M." "$rr/0/eatmem" &&
	grep -q "setup: eatmem: locked 64 MiB" "$rr/0/perfbot.log" &&
	test -z "$(ls work 2>/dev/null)"
'

test_expect_success 'kill -9 of perfbot: nothing stays locked, the next start cleans up' '
	can_eat || exit 0
	export PERFBOT_WORK_DIR=$PWD/work && tag=$(test_tag) &&
	{ env PERFBOT_TEST_TAG=$tag "$PERFBOT" run -r res -c k -M vmstat "$TRASH/eat.yaml" \
		-- sh -c "echo \$PERFBOT_EATMEM_PID >$PWD/pid; sleep 30" >/dev/null 2>err & } &&
	bot=$! && n=0 &&
	while ! test -s pid && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done &&
	pid=$(cat pid) &&
	test "$(vmlck $pid)" -ge 65536 &&
	ls work | grep -q "^setup-$bot-0.state$" &&
	grep -q "^eatmem $pid " work/setup-$bot-0.state &&
	kill -9 $bot && { wait $bot || true; } &&
	test_no_leftovers $tag &&
	test -z "$(vmlck $pid)" &&
	"$PERFBOT" run -r res -c k2 -M vmstat "$TRASH/eat.yaml" -- echo score: 1 >out 2>err2 &&
	grep -q "^perfbot: cleaned up after a killed perfbot: 1 setup in " err2 &&
	test -z "$(ls work 2>/dev/null)"
'

test_expect_success 'a request leaving less than the margin is refused, naming the job line' '
	printf "testcase: mytest\neatmem:\n  eatmem_size: 100%%\n" >j.yaml &&
	test_must_fail 1 perfbot run -r res -c k -M vmstat j.yaml -- echo score: 1 2>err &&
	test $(wc -l <err) -eq 1 &&
	grep -q "^perfbot: j.yaml:3:16: eatmem: eatmem_size .100%. would leave 0 bytes of the .* available (MemAvailable), less than the safe margin of " err &&
	test -z "$(ls -A res 2>/dev/null)" &&
	printf "testcase: mytest\neatmem:\n  eatmem_size: 64Q\n" >bad.yaml &&
	test_must_fail 1 perfbot run -r res -c k -M vmstat bad.yaml -- echo score: 1 2>err &&
	grep -q "^perfbot: bad.yaml:3:16: .eatmem_size. expected a size as 16G or 512M, or N% of MemAvailable (1-100), got .64Q.$" err
'

test_done
