#!/bin/sh
# t1000: what a hostile job file or option cannot make perfbot do: write
# outside the result root or the output folder, print the content of a
# file it was made to include; and the clear errors of empty jobs and
# missing folders.
. ./lib.sh

job() { # job FILE [extra lines]
	f=$1; shift
	printf 'testcase: mytest\nmytest:\n  command: "echo score: 1"\n' >"$f"
	for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}

# nothing may appear outside res/ (the escape targets are ./esc*)
no_escape() { test -z "$(ls -d esc* 2>/dev/null)"; }

test_expect_success 'run: commit, kconfig, compiler, testcase with ../ are refused with file:line' '
	mkdir -p a/b/c/d/e/f/g/h &&
	job j1.yaml "commit: ../../../../../../../../esc1" &&
	test_must_fail 1 perfbot run -r res j1.yaml 2>err &&
	grep -q "^perfbot: j1.yaml:4:9: .commit. expected one path component" err &&
	job j2.yaml "kconfig: ../../../../../../../esc2" &&
	test_must_fail 1 perfbot run -r res j2.yaml 2>err &&
	grep -q "^perfbot: j2.yaml:4:10: .kconfig. expected one path component" err &&
	job j3.yaml "compiler: .." &&
	test_must_fail 1 perfbot run -r res j3.yaml 2>err &&
	grep -q "^perfbot: j3.yaml:4:11: .compiler. expected one path component.*got .\.\.." err &&
	printf "testcase: ../../esc3\nmytest:\n  command: \"echo score: 1\"\n" >j4.yaml &&
	test_must_fail 1 perfbot run -r res j4.yaml 2>err &&
	grep -q "^perfbot: j4.yaml:1:11: .testcase. expected one path component" err &&
	no_escape && test -z "$(find res -name stats.json)"
'

test_expect_success 'run -c ../x is refused, naming --commit' '
	job j.yaml &&
	test_must_fail 1 perfbot run -r res -c ../../../../../../../../esc j.yaml 2>err &&
	grep -q "^perfbot: --commit expected one path component" err &&
	test_must_fail 1 perfbot run -r res -c "" j.yaml 2>err &&
	grep -q "got .*: it is empty" err &&
	no_escape
'

test_expect_success 'a NUL in a quoted value is refused, not cut' '
	job j.yaml "commit: \"ok\\0/../../esc\"" &&
	test_must_fail 1 perfbot run -r res j.yaml 2>err &&
	grep -q "^perfbot: j.yaml:4:10: expected a value without NUL characters" err &&
	test -z "$(find res -name stats.json)"
'

test_expect_success 'split-job: commit, *_commit and -k cannot name a file outside -o' '
	mkdir out &&
	job j.yaml "commit: ../esc1" &&
	test_must_fail 1 perfbot split-job -o out j.yaml 2>err &&
	grep -q "^perfbot: j.yaml:4:9: .commit. expected one path component" err &&
	job k.yaml &&
	test_must_fail 1 perfbot split-job -o out -s "linux_commit: ../esc2" k.yaml 2>err &&
	grep -q "^perfbot: <-s>:1:15: .linux_commit. expected one path component" err &&
	test_must_fail 2 perfbot split-job -o out -k ../esc3 k.yaml 2>err &&
	grep -q "^perfbot: --kernel expected one path component" err &&
	test_must_fail 2 perfbot split-job -o out -c ../esc4 k.yaml 2>err &&
	grep -q "^perfbot: --config expected one path component" err &&
	no_escape && test -z "$(ls out)"
'

test_expect_success 'an include that is not .yaml: its content is never printed' '
	printf "root:SECRETHASH:20228:0:99999:7:::\ndaemon:*:1:0\n" >shadow &&
	printf "testcase: mytest\n<< : $PWD/shadow\n" >j1.yaml &&
	test_must_fail 1 perfbot run -r res j1.yaml 2>err &&
	grep -q "^perfbot: j1.yaml:2:1: expected job YAML (a mapping of keys such as .testcase:.) in included file .$PWD/shadow., got other text (<not shown>)$" err &&
	printf "SECRETKEY:\n  SECRETOPT: 1\n" >shadow2 &&
	printf "testcase: mytest\n<< : $PWD/shadow2\n" >j5.yaml &&
	test_must_fail 1 perfbot run -r res j5.yaml 2>err5 &&
	grep -q "^perfbot: warning: $PWD/shadow2:1:1: unknown key .<not shown[^>]*>. kept as a program" err5 &&
	grep -q "^perfbot: $PWD/shadow2:[0-9:]*: no runner for benchmark .<not shown[^>]*>. (" err5 &&
	! grep -q SECRET err5 &&
	printf "a: b: c\n SECRETWORD [\n" >garbage &&
	printf "testcase: mytest\n<< : garbage\n" >j2.yaml &&
	test_must_fail 1 perfbot split-job -o . j2.yaml 2>err2 &&
	grep -q "^perfbot: j2.yaml:2:1: expected job YAML .* in included file .garbage., got other text (<not shown>)$" err2 &&
	printf "runtime: SECRETVALUE\n" >inc &&
	job j3.yaml "<< : inc" &&
	test_must_fail 1 perfbot run -r res j3.yaml 2>err3 &&
	grep -q "inc:1:10: .runtime. expected a duration (300, 300s, 5m), got .<not shown" err3 &&
	! grep -q SECRET err err2 err3 &&
	cp inc inc.yaml && job j4.yaml "<< : inc.yaml" &&
	test_must_fail 1 perfbot run -r res j4.yaml 2>err4 &&
	grep -q "got .SECRETVALUE." err4
'

test_expect_success 'an include that is not job YAML is refused: split-job, run, nested; nothing written' '
	mkdir -p sec out2 &&
	printf "root:\$y\$j9T\$SECRETHASH:19000:0:99999:7:::\n" >sec/shadow &&
	printf "root:\$y\$j9T\$SECRETHASH:19000:0:99999:7::\nbin:*:SECRETDAY:0:99999:7:::\n" >sec/shadow.yaml &&
	for s in shadow shadow.yaml; do
		job k.yaml "<< : $PWD/sec/$s" &&
		test_must_fail 1 perfbot split-job -o out2 k.yaml >out 2>err &&
		grep -q "^perfbot: k.yaml:4:1: expected job YAML .* in included file .$PWD/sec/$s., got other text (<not shown>)$" err &&
		test_must_fail 1 perfbot run -r res2 k.yaml >>out 2>>err &&
		printf "testcase: mytest\nmytest:\n  command: x\n  << : sec/$s\n" >n.yaml &&
		test_must_fail 1 perfbot split-job -o out2 n.yaml >>out 2>>err &&
		grep -q "^perfbot: n.yaml:4:3: expected job YAML .* in included file .sec/$s., got other text (<not shown>)$" err &&
		! grep -rq SECRET out err out2 res2 || return 1
	done &&
	test -z "$(ls out2)" && test -z "$(find res2 -name job.yaml 2>/dev/null)"
'

test_expect_success 'split-job --lkp-src of a missing folder is an error' '
	job j.yaml &&
	test_must_fail 2 perfbot split-job --lkp-src /nonexistent/lkp -o . j.yaml 2>err &&
	test_cmp - err <<-\EOT
	perfbot: --lkp-src: '"'"'/nonexistent/lkp'"'"' is not a directory
	EOT
'

test_expect_success 'an empty job: run and split-job name the file' '
	: >empty.yaml && printf "# just a comment\n" >comment.yaml &&
	test_must_fail 1 perfbot run -r res empty.yaml 2>err &&
	test_must_fail 1 perfbot split-job -o . comment.yaml 2>err2 &&
	grep -q "^perfbot: empty.yaml: the job is empty" err &&
	grep -q "^perfbot: comment.yaml: the job is empty" err2 &&
	test -z "$(ls *-*.yaml 2>/dev/null)"
'

test_expect_success 'a benchmark that fails: its exit status and stderr, not a parser complaint' '
	printf "testcase: mytest\nmytest:\n  command: \"nosuchbench-t1000\"\n" >j.yaml &&
	test_must_fail 1 perfbot run -r res -c f1 -M vmstat j.yaml 2>err &&
	test_cmp - err <<-\EOT &&
	perfbot: mytest: the benchmark exited with status 127 (run 1/1): /bin/sh: 1: nosuchbench-t1000: not found
	EOT
	rr=$(ls -d res/mytest/*/*/*/*/*/f1) &&
	grep -q "^is_incomplete_run: 1$" "$rr/0/last_state" &&
	test_must_fail 1 perfbot run -r res -c f2 -M vmstat j.yaml -- sh -c "for w in 1 2 3 4 5 6; do echo line\$w >&2; done; echo x: 1; exit 3" 2>err &&
	printf "%s\n" "perfbot: mytest: the benchmark exited with status 3 (run 1/1), its stderr ends:" \
		"    line2" "    line3" "    line4" "    line5" "    line6" >expect &&
	test_cmp expect err
'

test_expect_success 'compare --alpha abc: one line; getopt errors name perfbot and the command' '
	test_must_fail 2 perfbot compare --alpha abc a b 2>err &&
	test_cmp - err <<-\EOT &&
	perfbot: --alpha expects a number between 0 and 1, got '"'"'abc'"'"'
	EOT
	test_must_fail 2 perfbot compare --nosuch a b 2>err &&
	head -n 1 err >first &&
	test_cmp - first <<-\EOT &&
	perfbot compare: unrecognized option '"'"'--nosuch'"'"'
	EOT
	test_must_fail 2 perfbot run -x 2>err &&
	grep -q "^perfbot run: invalid option -- .x.$" err
'

test_expect_success 'bisect --repo of a missing folder or not a git tree says so' '
	job j.yaml && mkdir plain &&
	test_must_fail 1 perfbot bisect --repo /nonexistent/repo --good a --bad b --job j.yaml \
		--metric mytest.score --state st 2>err &&
	test_cmp - err <<-\EOT &&
	perfbot: --repo '"'"'/nonexistent/repo'"'"': no such directory
	EOT
	test_must_fail 1 perfbot bisect --repo plain --good a --bad b --job j.yaml \
		--metric mytest.score --state st 2>err &&
	test_cmp - err <<-EOT &&
	perfbot: --repo '"'"'$PWD/plain'"'"': not a git repository
	EOT
	test ! -e st && test ! -e st.d
'

# The setup journals perfbot replays as root after a kill -9 (run/workdir.h):
# only its own, in a private work dir, naming only what it makes.
dead_journal() { # dead_journal WORKDIR N [lines]: a journal of a dead pid
	f=$1/setup-999999999-$2.state; shift 2
	printf "perfbot-setup 1\nowner 999999999 1\n" >"$f"
	for l in "$@"; do printf "%s\n" "$l" >>"$f"; done
}

test_expect_success 'a journal planted by another user is refused, nothing it names is touched' '
	test "$(id -u)" = 0 || { echo "# skipped: needs root (chown)"; exit 0; }
	job j.yaml && mkdir -m 700 work && export PERFBOT_WORK_DIR=$PWD/work &&
	mkdir work/setup-999999999-0 &&
	dead_journal work 0 "dir $PWD/work/setup-999999999-0" &&
	chown nobody work/setup-999999999-0.state &&
	perfbot run -r res -c pl1 -M vmstat j.yaml >out 2>err &&
	grep -q "^perfbot: $PWD/work/setup-999999999-0.state: owned by another user (uid 65534, 1 links), not a journal this perfbot wrote: refusing to replay it$" err &&
	test -d work/setup-999999999-0 && test -f work/setup-999999999-0.state &&
	! grep -q "cleaned up" err
'

test_expect_success 'a journal naming a file perfbot did not make is refused; its own is replayed' '
	job j.yaml && mkdir -m 700 work && export PERFBOT_WORK_DIR=$PWD/work &&
	echo precious >victim && mkdir -p fake/sys/devices/system/cpu/cpu0/cpufreq &&
	gov=$PWD/fake/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor &&
	echo performance >"$gov" &&
	dead_journal work 0 "image $PWD/victim" &&
	dead_journal work 1 "governor powersave $PWD/victim" &&
	dead_journal work 2 "governor powersave $gov" &&
	PERFBOT_MONITOR_ROOT=$PWD/fake perfbot run -r res -c pl2 -M vmstat j.yaml >out 2>err &&
	grep -q "^perfbot: $PWD/work/setup-999999999-0.state: line 3: image $PWD/victim: not an image perfbot makes (<setup dir>/disk<N>.img): refusing to replay it$" err &&
	grep -q "^perfbot: $PWD/work/setup-999999999-1.state: line 3: governor powersave $PWD/victim: not a scaling_governor file of the cpu sysfs tree: refusing to replay it$" err &&
	echo precious >expect && test_cmp expect victim &&
	ls work/setup-999999999-0.state work/setup-999999999-1.state &&
	printf powersave >expect && test_cmp expect "$gov" && test ! -e work/setup-999999999-2.state &&
	grep -q "^perfbot: cleaned up after a killed perfbot: 1 setup in $PWD/work (0 unmounted, 0 loop devices detached)$" err
'

test_expect_success 'a work dir others may write, or a link, is refused: the run does not start' '
	job j.yaml && mkdir -m 777 work && mkdir -m 700 mine && ln -s mine link &&
	PERFBOT_WORK_DIR=$PWD/work test_must_fail 1 perfbot run -r res -c wd1 -M vmstat j.yaml 2>err &&
	test_cmp - err <<-EOT &&
	perfbot: work dir '"'"'$PWD/work'"'"': writable by everyone (mode 0777); refusing to use it (remove it, or set PERFBOT_WORK_DIR to a folder of your own, mode 0700)
	EOT
	PERFBOT_WORK_DIR=$PWD/link test_must_fail 1 perfbot run -r res -c wd1 -M vmstat j.yaml 2>err &&
	grep -q "^perfbot: work dir .$PWD/link.: it is a symbolic link; refusing to use it" err &&
	test ! -e res/mytest/*/*/*/*/*/wd1/0
'

test_expect_success 'fs: the work dir is made 0700' '
	if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null || [ ! -e /dev/loop-control ]; then
		echo "# skipped: needs root, mkfs.ext4 and loop devices"; exit 0
	fi
	job j.yaml "fs: ext4" "disk: loop_64M" &&
	PERFBOT_WORK_DIR=$PWD/w/work perfbot run -r res -c wd2 -M vmstat j.yaml >out &&
	test "$(stat -c %a w/work)" = 700 &&
	test -z "$(ls w/work)"
'

test_done
