#!/bin/sh
# t1005: a result tree another user can write (here `nobody`), used by
# root: root never writes through that user's symbolic links (temp files,
# run dirs, also renamed away mid-run: the benchmark's output, the
# monitors', valgrind's; .unite.lock), never reads endless files planted
# as stats.json,
# and unite's averages of finite values near DBL_MAX stay finite.  Each
# attack is planted by nobody, then perfbot runs as root; the root-owned
# victim must be unchanged and perfbot must succeed or fail in one line.
#
# The pid perfbot will have is known: a shell plants the links naming
# its own pid ($$), then execs perfbot, which keeps that pid.
. ./lib.sh

if [ "$(id -u)" != 0 ] || ! command -v runuser >/dev/null || ! id nobody >/dev/null 2>&1; then
	echo "ok 1 # skip: needs root, runuser and a user nobody"
	test_done
	exit 0
fi
# nobody must reach the trash dir (mktemp -d made it 0700)
chmod 755 "$TRASH"
export PERFBOT_WORK_DIR="$TRASH/work"

as_nobody() { runuser -u nobody -- "$@"; }

# A result root "res/<name>" owned by nobody with run dirs 0..N-1, each
# holding the stats.json given; a root-owned file "victim" beside it.
shared_root() { # name stats.json...
	r=res/$1; shift
	mkdir -p "$r" && k=0
	for s in "$@"; do
		mkdir "$r/$k" && printf '%s\n' "$s" >"$r/$k/stats.json"
		k=$((k + 1))
	done
	chown -R nobody "$r" &&
	printf 'secret\n' >victim && chmod 644 victim
}

victim_intact() { test "$(cat victim)" = secret && test "$(stat -c %u victim)" = 0; }

# exactly one line, starting with "perfbot: "
one_line_error() { test "$(wc -l <"$1")" = 1 && grep -q '^perfbot: ' "$1"; }

test_expect_success 'unite: links planted at every temp name of its pid are not written through' '
	shared_root u "{\"a.x\": 1}" &&
	sh -c "for f in matrix.json avg.json stddev.json; do
			runuser -u nobody -- ln -s $PWD/victim res/u/\$f.tmp.\$\$ || exit 9
		done
		exec \"$PERFBOT\" unite res/u/0" 2>err &&
	victim_intact &&
	test -f res/u/avg.json && ! test -L res/u/avg.json &&
	grep -q "\"a.x\": 1" res/u/avg.json &&
	test "$(find res/u -maxdepth 1 -name "*.tmp.*" -type l | wc -l)" = 3 &&
	test ! -s err
'

test_expect_success 'unite: a link at a final name is replaced, not written through' '
	shared_root f "{\"a.x\": 2}" &&
	as_nobody ln -s "$PWD/victim" res/f/avg.json &&
	perfbot unite res/f/0 2>err &&
	victim_intact && ! test -L res/f/avg.json
'

test_expect_success 'unite: .unite.lock as a link is refused in one line, its target not made' '
	shared_root l "{\"a.x\": 1}" &&
	as_nobody ln -s "$PWD/victim" res/l/.unite.lock &&
	test_must_fail 1 perfbot unite res/l/0 2>err &&
	one_line_error err &&
	grep -q "cannot lock .*/res/l/.unite.lock.: it is a symbolic link" err &&
	victim_intact &&
	rm res/l/.unite.lock &&
	as_nobody ln -s "$PWD/made-by-root" res/l/.unite.lock &&
	test_must_fail 1 perfbot unite res/l/0 2>err &&
	one_line_error err &&
	! test -e made-by-root && ! test -e res/l/matrix.json
'

test_expect_success 'unite: stats.json linked to /dev/zero is refused in one line, not read' '
	shared_root z "{\"a.x\": 1}" &&
	rm res/z/0/stats.json &&
	as_nobody ln -s /dev/zero res/z/0/stats.json &&
	# a bound on memory makes the old unbounded read fail fast; ASan
	# reserves terabytes of address space, so under it a time limit
	(if [ -n "${ASAN_OPTIONS:-}" ]; then lim="timeout 120"; else lim=; ulimit -v 1000000; fi &&
	 test_must_fail 1 $lim "$PERFBOT" unite res/z/0) 2>err &&
	one_line_error err &&
	grep -q "cannot read .*/res/z/0/stats.json.: not a regular file" err &&
	! test -e res/z/matrix.json
'

test_expect_success 'unite: means of finite values near DBL_MAX are finite (README: exact sums)' '
	shared_root m "{\"a.x\": 1.7e308}" "{\"a.x\": 1.7e308}" &&
	perfbot unite res/m/0 res/m/1 &&
	grep -q "\"a.x\": 1.7e+308" res/m/avg.json &&
	grep -q "\"a.x\": 0.0" res/m/stddev.json &&
	! grep -qi nan res/m/avg.json res/m/stddev.json
'

job() { printf 'testcase: mytest\nmytest:\n  command: "echo score: 1"\n' >"$1"; }

test_expect_success 'run: a link planted at its .run-K.<pid> dir receives nothing' '
	job j.yaml &&
	perfbot run -r res -n 1 j.yaml 2>/dev/null &&
	root=$(dirname "$(dirname "$(find res -name stats.json)")") &&
	chown -R nobody res &&
	mkdir elsewhere &&
	sh -c "for k in 0 1 2 3; do
			runuser -u nobody -- ln -s $PWD/elsewhere $root/.run-\$k.\$\$ || exit 9
		done
		exec \"$PERFBOT\" run -r res -n 1 j.yaml" 2>err &&
	test -z "$(ls -A elsewhere)" &&
	test -f "$root/1/stats.json" &&
	test "$(find "$root" -maxdepth 1 -name ".run-*" -type l | wc -l)" = 4 &&
	test "$(find "$root" -maxdepth 1 -name ".run-*" -type d | wc -l)" = 0
'

# The benchmark plays the other user: between the making of the run dir
# and the writing of its files, nobody renames it away and plants a link
# at its name.  Every file of the run -- the benchmark's output and
# stderr, the monitors' raw files and JSON, time -- goes into the dir.
test_expect_success 'run: its dir renamed away mid-run, a link planted: the files go to the dir' '
	printf "testcase: mytest\n" >m.yaml &&
	perfbot run -r res/mid -n 1 m.yaml -- echo score: 0 2>/dev/null &&
	root=$(dirname "$(dirname "$(find res/mid -name stats.json)")") &&
	chown -R nobody res/mid && mkdir elsewhere &&
	test_must_fail 1 perfbot run -r res/mid -n 1 -M proc-vmstat,meminfo m.yaml -- sh -c "
		runuser -u nobody -- sh -c \"mv \$PERFBOT_RUN_DIR \$PERFBOT_RUN_DIR.moved &&
			ln -s $PWD/elsewhere \$PERFBOT_RUN_DIR\" && echo score: 1" 2>err &&
	grep -q "^perfbot: directory .*/\.run-1\.[0-9]*. was replaced while in use (its name no longer leads to it); refusing to publish it$" err &&
	moved=$(find "$root" -maxdepth 1 -name ".run-1.*.moved") && test -d "$moved" &&
	for f in job.yaml mytest mytest.json stderr time time.json proc-vmstat proc-vmstat.json \
		meminfo meminfo.json last_state stats.json machine perfbot.log; do
		test -f "$moved/$f" || return 1
	done &&
	test -z "$(ls -A elsewhere)" &&
	grep -q "^score: 1$" "$moved/mytest" &&
	! test -e "$root/1"
'

# The same, the benchmark writing its stderr after the move and failing:
# stderr was opened through the held dir, so it lands there, and the
# error quotes its tail from there.
test_expect_success 'run: stderr after the move goes to the dir, and the error quotes it' '
	printf "testcase: mytest\n" >m.yaml &&
	perfbot run -r res -n 1 -M "" m.yaml -- echo score: 0 2>/dev/null &&
	chown -R nobody res && mkdir elsewhere &&
	test_must_fail 1 perfbot run -r res -n 1 -M "" m.yaml -- sh -c "
		runuser -u nobody -- sh -c \"mv \$PERFBOT_RUN_DIR \$PERFBOT_RUN_DIR.moved &&
			ln -s $PWD/elsewhere \$PERFBOT_RUN_DIR\" && echo planted-err-line >&2 && exit 3" 2>err &&
	grep -q "^perfbot: mytest: the benchmark exited with status 3 (run 1/1): planted-err-line$" err &&
	moved=$(find res -name ".run-1.*.moved") && test -d "$moved" &&
	grep -q "^planted-err-line$" "$moved/stderr" &&
	test -z "$(ls -A elsewhere)"
'

# measure: instructions: the count runs the benchmark again under
# valgrind, whose files (cachegrind.out.<pid>, valgrind.log.<pid>) it
# opens itself: it is given the held dir as /proc/self/fd/<fd>.  The
# benchmark moves the dir in the timed run only (the marker file).
test_have valgrind &&
test_expect_success 'run: measure: instructions, its dir moved mid-run: valgrind writes into the dir' '
	printf "testcase: mytest\nmeasure: instructions\n" >vg.yaml &&
	perfbot run -r res -n 1 -M "" vg.yaml -- echo score: 0 2>/dev/null &&
	chown -R nobody res && mkdir elsewhere &&
	test_must_fail 1 perfbot run -r res -n 1 -M "" vg.yaml -- sh -c "
		[ -e $PWD/moved-once ] || { touch $PWD/moved-once &&
		runuser -u nobody -- sh -c \"mv \$PERFBOT_RUN_DIR \$PERFBOT_RUN_DIR.moved &&
			ln -s $PWD/elsewhere \$PERFBOT_RUN_DIR\"; } && echo score: 1" 2>err &&
	grep -q "was replaced while in use" err &&
	moved=$(find res -name ".run-1.*.moved") && test -d "$moved" &&
	ls "$moved"/cachegrind/cachegrind.out.* "$moved"/cachegrind/valgrind.log.* >/dev/null &&
	grep -q "^score: 1$" "$moved/cachegrind/stdout" &&
	grep -q "\"mytest.instructions\": [1-9]" "$moved/stats.json" &&
	test -z "$(ls -A elsewhere)"
'

test_done
