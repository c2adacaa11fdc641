#!/bin/sh
# perfbot index: the store built from result trees, refreshed, pruned;
# kill -9 mid-index; run's hook; bad input (broken matrix, locked,
# corrupt and newer databases)
# e2e: early (one of the longest scripts: started first in the pool)
. ./lib.sh

GEN="python3 $(cd ../.. && pwd)/bench/gen-store.py"
DB=$TRASH/p.db

# sql DB QUERY: rows as a|b|c lines, read with Python's sqlite3
sql() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute(sys.argv[2]):
    print("|".join(map(str, r)))' "$@"
}

# kill9.py PERFBOT DB ROOT N: `perfbot index --force --db DB ROOT`
# killed with -9 once it said it stored N roots; its stdout in out, the
# lines it wrote to stderr until then in err.  Its stderr is a pipe of
# one page, read no further then: the index stops in a write (the page
# full) however fast it goes, so it is killed mid-index, never after it
# finished.
cat >"$TRASH/kill9.py" <<'EOF'
import fcntl, os, signal, subprocess, sys
perfbot, db, root, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
r, w = os.pipe()
fcntl.fcntl(w, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
with open("out", "wb") as out:
    p = subprocess.Popen([perfbot, "index", "--force", "--db", db, root], stdout=out, stderr=w)
os.close(w)
err = b""
with os.fdopen(r, "rb", buffering=0) as f:
    while err.count(b" stored ") < n:
        line = f.readline()
        if not line:
            sys.exit("the index ended after %d roots: %r" % (err.count(b" stored "), err[-300:]))
        err += line
    p.send_signal(signal.SIGKILL)
    p.wait()
open("err", "wb").write(err)
if p.returncode != -signal.SIGKILL:
    sys.exit("the index ended with %d, not killed" % p.returncode)
EOF

# everything stored but the time of indexing, in a stable order
dump() {
	sql "$1" "SELECT j.testcase, j.path_params, j.tbox_group, j.rootfs, j.kconfig, j.compiler,
		r.rev, r.path, r.signature, ru.number, ru.incomplete, ru.path, m.name, s.value
		FROM sample s JOIN metric m ON m.id = s.metric_id JOIN run ru ON ru.id = s.run_id
		JOIN result_root r ON r.id = ru.root_id JOIN job j ON j.id = r.job_id
		ORDER BY r.path, ru.number, m.name"
}

test_expect_success 'index an lkp tree: identity from the path, runs, every value' '
	$GEN tree --roots 2 --metrics 5 --runs 3 &&
	perfbot index --db p.db tree >out 2>err &&
	echo "2 result roots: 2 stored, 0 unchanged, 0 forgotten, 0 skipped (p.db)" >expect &&
	test_cmp expect out &&
	test $(grep -c "^perfbot: index \[[12]/2\]: stored .*/c[0-9]* (3 runs, 5 metrics)$" err) = 2 &&
	sql p.db "SELECT testcase, path_params, tbox_group, rootfs, kconfig, compiler FROM job" >jobs &&
	echo "mybench|performance-30s|vm-2p|debian-12|x86_64-rhel|gcc-12" >expect &&
	test_cmp expect jobs &&
	test "$(sql p.db "SELECT count(*) FROM sample")" = 30 &&
	test "$(sql p.db "SELECT group_concat(number) FROM run GROUP BY root_id LIMIT 1")" = "0,1,2" &&
	root=$(pwd -P)/tree/mybench/performance-30s/vm-2p/debian-12/x86_64-rhel/gcc-12/c000000000000000000000000000000000000001 &&
	test "$(sql p.db "SELECT rev FROM result_root WHERE path = '\''$root'\''")" = c000000000000000000000000000000000000001 &&
	test "$(sql p.db "SELECT path FROM run WHERE number = 2 ORDER BY id DESC LIMIT 1")" = "$root/2" &&
	python3 -c "
import json, sqlite3
m = json.load(open(\"$root/matrix.json\"))
c = sqlite3.connect(\"p.db\")
got = {}
for name, num, v in c.execute(\"SELECT m.name, ru.number, s.value FROM sample s JOIN metric m ON m.id = s.metric_id JOIN run ru ON ru.id = s.run_id JOIN result_root r ON r.id = ru.root_id WHERE r.path = ?\", (\"$root\",)):
    got.setdefault(name, [None] * 3)[num] = v
del m[\"stats_source\"]
assert got == m, (got, m)
"
'

test_expect_success 'indexing again changes nothing; --force rereads; -q is quiet' '
	$GEN tree --roots 3 --metrics 4 --runs 2 &&
	perfbot index --db p.db tree >/dev/null 2>&1 &&
	dump p.db >before &&
	perfbot index --db p.db tree >out 2>err &&
	grep -q "3 result roots: 0 stored, 3 unchanged, 0 forgotten, 0 skipped" out &&
	test $(grep -c "unchanged" err) = 3 &&
	dump p.db >after &&
	test_cmp before after &&
	perfbot index -q --force --db p.db tree >out 2>err &&
	grep -q "3 result roots: 3 stored, 0 unchanged" out &&
	test ! -s err &&
	dump p.db >after &&
	test_cmp before after
'

test_expect_success 'an unchanged root is judged by the stat of its files alone, not read' '
	$GEN tree --roots 2 --metrics 4 --runs 2 &&
	$GEN st --roots 1 --metrics 3 --runs 2 --stats-only &&
	perfbot index -q --db p.db tree st >/dev/null &&
	# the same size and mtime over bytes that do not parse: still unchanged
	for f in $(ls tree/*/*/*/*/*/*/*/matrix.json | head -n 1) $(ls st/*/*/*/*/*/*/*/1/stats.json); do
		cp -p $f $f.orig &&
		head -c $(wc -c <$f.orig) /dev/zero | tr "\0" "x" >$f &&
		touch -r $f.orig $f && rm $f.orig || return 1
	done &&
	perfbot index -q --db p.db tree st >out &&
	grep -q "3 result roots: 0 stored, 3 unchanged, 0 forgotten, 0 skipped" out &&
	test_must_fail 1 perfbot index -q --force --db p.db tree st >out 2>err &&
	grep -q "3 result roots: 1 stored, 0 unchanged, 0 forgotten, 2 skipped" out
'

test_expect_success 'a changed root is stored again, a vanished one forgotten' '
	$GEN tree --roots 3 --metrics 4 --runs 2 &&
	perfbot index -q --db p.db tree >/dev/null &&
	c2=$(ls -d tree/*/*/*/*/*/*/c*2) &&
	$GEN tree2 --roots 3 --metrics 6 --runs 4 --seed 9 &&
	cp tree2/*/*/*/*/*/*/c*2/matrix.json "$c2/matrix.json" &&
	rm -r tree/*/*/*/*/*/*/c*0 &&
	perfbot index --db p.db tree >out 2>/dev/null &&
	grep -q "2 result roots: 1 stored, 1 unchanged, 1 forgotten, 0 skipped" out &&
	test "$(sql p.db "SELECT count(*) FROM run")" = 6 &&
	test "$(sql p.db "SELECT count(*) FROM sample")" = $((2 * 4 + 4 * 6))
'

test_expect_success 'pruning stays under the ROOT given, and a missing ROOT is an error' '
	$GEN a --roots 2 --metrics 2 --runs 1 &&
	$GEN ab --roots 1 --metrics 2 --runs 1 &&
	perfbot index -q --db p.db a ab >/dev/null &&
	rm -r a/mybench/*/*/*/*/*/c*1 &&
	perfbot index --db p.db a >out 2>/dev/null &&
	grep -q "1 result root: 0 stored, 1 unchanged, 1 forgotten" out &&
	test "$(sql p.db "SELECT count(*) FROM result_root")" = 2 &&
	test_must_fail 1 perfbot index --db p.db a nonexistent 2>err &&
	grep -q "^perfbot: cannot index .nonexistent.: No such file or directory$" err &&
	test "$(sql p.db "SELECT count(*) FROM result_root")" = 2
'

test_expect_success 'matrix.json.gz and stats-only roots (stats.json.gz too)' '
	$GEN gz --roots 1 --metrics 3 --runs 2 --gz &&
	$GEN st --roots 1 --metrics 3 --runs 3 --stats-only --testcase st &&
	$GEN stgz --roots 1 --metrics 2 --runs 2 --stats-only --gz --testcase stgz &&
	perfbot index --db p.db gz st stgz >out 2>err &&
	grep -q "3 result roots: 3 stored" out &&
	grep -q "stored .*/gz/.* (2 runs, 3 metrics)" err &&
	grep -q "stored .*/st/.* (3 runs, 3 metrics)" err &&
	grep -q "stored .*/stgz/.* (2 runs, 2 metrics)" err &&
	test "$(sql p.db "SELECT count(*) FROM sample")" = $((6 + 9 + 4)) &&
	test "$(sql p.db "SELECT group_concat(testcase) FROM (SELECT testcase FROM job ORDER BY 1)")" = "mybench,st,stgz"
'

test_expect_success 'incomplete runs, run numbers from stats_source, params from job.yaml' '
	r=tree/t/pp/box/fs/kc/cc/abc &&
	mkdir -p $r/3 $r/7 &&
	printf "testcase: t\nruntime: 30s\nfs: xfs\ntbox_group: box\ncommit: abc\nt:\n  nr_threads: 4\n" >$r/3/job.yaml &&
	cat >$r/matrix.json <<-EOF &&
	{"t.ops": [1, 2], "last_state.is_incomplete_run": [0, 1],
	 "stats_source": ["$(pwd)/$r/3/stats.json", "/elsewhere/$r/7/stats.json"]}
	EOF
	perfbot index -q --db p.db tree >/dev/null &&
	sql p.db "SELECT number, incomplete FROM run ORDER BY number" >runs &&
	printf "3|0\n7|1\n" >expect && test_cmp expect runs &&
	test "$(sql p.db "SELECT path FROM run WHERE number = 7")" = "$(pwd -P)/$r/7" &&
	sql p.db "SELECT name, value FROM job_param ORDER BY name" >params &&
	printf "fs|xfs\nnr_threads|4\nruntime|30s\n" >expect &&
	test_cmp expect params
'

test_expect_success 'a broken matrix.json: one line with file:line:col, skipped, nothing half-stored' '
	$GEN tree --roots 3 --metrics 3 --runs 2 &&
	perfbot index -q --db p.db tree >/dev/null &&
	dump p.db >before &&
	bad=$(ls -d tree/*/*/*/*/*/*/c*1) &&
	printf "{\n  \"a\": [1,\n  2,\n  oops]\n}\n" >$bad/matrix.json &&
	test_must_fail 1 perfbot index --db p.db tree >out 2>err &&
	grep -q "3 result roots: 0 stored, 2 unchanged, 0 forgotten, 1 skipped" out &&
	grep "^perfbot: " err | grep -v "index \[" >msg &&
	test $(wc -l <msg) = 1 &&
	grep -q "$bad/matrix.json:4:3: " msg &&
	grep -q "index \[2/3\]: skipped $(cd $bad && pwd -P)$" err &&
	dump p.db >after &&
	test_cmp before after
'

test_expect_success 'a broken stats.json of a stats-only root is skipped the same way' '
	$GEN st --roots 1 --metrics 3 --runs 2 --stats-only &&
	f=$(ls st/*/*/*/*/*/*/*/1/stats.json) &&
	printf "{\"x\": 1,\n\"y\": }\n" >$f &&
	test_must_fail 1 perfbot index --db p.db st >out 2>err &&
	grep -q "$f:2:" err &&
	test "$(sql p.db "SELECT count(*) FROM result_root")" = 0
'

test_expect_success 'kill -9 mid-index leaves the store as it was; the next index completes it' '
	$GEN big --roots 60 --metrics 100 --runs 3 &&
	$GEN big --roots 2 --metrics 100 --runs 3 --seed 5 >/dev/null &&
	perfbot index -q --db p.db big/mybench/performance-30s/vm-2p/debian-12/x86_64-rhel/gcc-12/c000000000000000000000000000000000000000 >/dev/null &&
	dump p.db >before &&
	python3 "$TRASH/kill9.py" "$PERFBOT" p.db big 5 &&
	test ! -s out &&
	test $(grep -c stored err) -lt 60 &&
	test "$(sql p.db "PRAGMA integrity_check")" = ok &&
	dump p.db >after &&
	test_cmp before after &&
	perfbot index --db p.db big >out 2>/dev/null &&
	grep -q "60 result roots: 59 stored, 1 unchanged" out &&
	test "$(sql p.db "SELECT count(*) FROM sample")" = $((60 * 3 * 100))
'

test_expect_success 'default store: $PERFBOT_DB, else $XDG_DATA_HOME/perfbot/perfbot.db' '
	$GEN tree --roots 1 --metrics 2 --runs 1 &&
	PERFBOT_DB=$(pwd)/env.db perfbot index -q tree >out &&
	grep -q "(.*/env.db)$" out && test -f env.db &&
	(unset PERFBOT_DB; XDG_DATA_HOME=$(pwd)/xdg perfbot index -q tree >out) &&
	test -f xdg/perfbot/perfbot.db &&
	(unset PERFBOT_DB XDG_DATA_HOME; HOME=$(pwd)/home perfbot index -q tree >out) &&
	test -f home/.local/share/perfbot/perfbot.db
'

test_expect_success 'a locked store: the busy timeout, then a clear error; a short lock is waited out' '
	$GEN tree --roots 1 --metrics 2 --runs 1 &&
	perfbot index -q --db p.db tree >/dev/null &&
	{ python3 -c "
import sqlite3, time, sys
c = sqlite3.connect(\"p.db\", isolation_level=None)
c.execute(\"BEGIN IMMEDIATE\")
open(\"locked\", \"w\").close()
time.sleep(float(sys.argv[1]))
c.execute(\"COMMIT\")
" 3 & } &&
	while [ ! -f locked ]; do sleep 0.05; done &&
	start=$(date +%s%N) &&
	PERFBOT_DB_TIMEOUT=0.5 test_must_fail 1 perfbot index -q --force --db p.db tree 2>err &&
	end=$(date +%s%N) &&
	test $(( (end - start) / 1000000 )) -ge 500 &&
	test $(wc -l <err) = 1 &&
	grep -q "^perfbot: store .p.db.: cannot start a write transaction: database is locked; another process holds it (gave up after 0.5 s; \$PERFBOT_DB_TIMEOUT sets the wait)$" err &&
	wait && rm locked &&
	{ python3 -c "
import sqlite3, time
c = sqlite3.connect(\"p.db\", isolation_level=None)
c.execute(\"BEGIN IMMEDIATE\")
open(\"locked\", \"w\").close()
time.sleep(1.5)
c.execute(\"COMMIT\")
" & } &&
	while [ ! -f locked ]; do sleep 0.05; done &&
	perfbot index -q --force --db p.db tree >out &&
	grep -q "1 stored" out &&
	wait
'

test_expect_success 'a corrupt store, a newer schema, a foreign file: one line each, nothing touched' '
	$GEN tree --roots 1 --metrics 2 --runs 1 &&
	head -c 10000 /dev/urandom | tr -d "\0" >bad.db && cp bad.db bad.orig &&
	test_must_fail 1 perfbot index --db bad.db tree 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "^perfbot: store .bad.db.: cannot open: file is not a database (move it away: .perfbot index. rebuilds the store from the result tree)$" err &&
	cmp bad.db bad.orig &&
	perfbot index -q --db new.db tree >/dev/null &&
	sql new.db "PRAGMA user_version = 3" &&
	test_must_fail 1 perfbot index --db new.db tree 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "^perfbot: store .new.db. has schema version 3, newer than this perfbot.s 2: use a newer perfbot, or move the store away and .perfbot index. rebuilds it$" err &&
	test "$(sql new.db "PRAGMA user_version")" = 3 &&
	sql other.db "CREATE TABLE t (x)" && sql other.db "PRAGMA user_version = 4" &&
	test_must_fail 1 perfbot index --db other.db tree 2>err &&
	grep -q "is an SQLite database of another program" err
'

test_expect_success 'readers: not held up by a writer (WAL); a corrupt or newer store is one line' '
	$GEN tree --roots 2 --metrics 2 --runs 1 &&
	perfbot index -q --db p.db tree >/dev/null &&
	perfbot results --db p.db --csv >before.csv &&
	{ python3 -c "
import sqlite3, time
c = sqlite3.connect(\"p.db\", isolation_level=None)
c.execute(\"BEGIN IMMEDIATE\")
c.execute(\"DELETE FROM sample\")
open(\"locked\", \"w\").close()
time.sleep(3)
c.execute(\"ROLLBACK\")
" & } &&
	while [ ! -f locked ]; do sleep 0.05; done &&
	PERFBOT_DB_TIMEOUT=0 perfbot results --db p.db --csv >during.csv &&
	test_cmp before.csv during.csv &&
	PERFBOT_DB_TIMEOUT=0 test_must_fail 1 perfbot index -q --force --db p.db tree 2>err &&
	grep -q "database is locked; another process holds it" err &&
	wait && rm locked &&
	head -c 10000 /dev/urandom | tr -d "\0" >bad.db &&
	test_must_fail 1 perfbot results --db bad.db 2>err &&
	test $(wc -l <err) = 1 && grep -q "^perfbot: store .bad.db.: cannot open: file is not a database" err &&
	test_must_fail 1 perfbot history --db bad.db --repo . --metric m 2>err &&
	test $(wc -l <err) = 1 && grep -q "file is not a database" err &&
	sql p.db "PRAGMA user_version = 9" &&
	test_must_fail 1 perfbot results --db p.db 2>err &&
	test $(wc -l <err) = 1 && grep -q "has schema version 9, newer than this perfbot" err &&
	test_must_fail 1 perfbot detect --db p.db --repo . --metric m 2>err &&
	test $(wc -l <err) = 1 && grep -q "has schema version 9, newer than this perfbot" err
'

test_expect_success 'perfbot run indexes what it writes; --no-index does not' '
	printf "testcase: mytest\n" >j.yaml &&
	perfbot run -n 2 -r res -c v1 -M vmstat --db run.db j.yaml -- sh -c "echo ops: 7" >out &&
	rr=$(sed -n "s/: 2 runs$//p" out) &&
	test "$(sql run.db "SELECT path FROM result_root")" = "$rr" &&
	test "$(sql run.db "SELECT count(*) FROM run")" = 2 &&
	test "$(sql run.db "SELECT s.value FROM sample s JOIN metric m ON m.id = s.metric_id WHERE m.name = '\''mytest.ops'\'' LIMIT 1")" = 7.0 &&
	perfbot run -r res -c v1 -M vmstat --db run.db j.yaml -- sh -c "echo ops: 9" >out &&
	test "$(sql run.db "SELECT count(*) FROM run")" = 3 &&
	perfbot run -r res -c v2 -M vmstat --db norun.db --no-index j.yaml -- sh -c "echo ops: 1" >out &&
	test ! -f norun.db
'

test_expect_success 'an indexing failure in perfbot run warns, keeps the runs, says how to repair' '
	printf "testcase: mytest\n" >j.yaml &&
	head -c 10000 /dev/urandom | tr -d "\0" >bad.db &&
	perfbot run -r res -c v1 -M vmstat --db bad.db j.yaml -- sh -c "echo ops: 7" >out 2>err &&
	rr=$(sed -n "s/: 1 run$//p" out) &&
	test -f "$rr/0/stats.json" && test -f "$rr/matrix.json" &&
	grep -q "^perfbot: warning: the runs in .$rr. are kept but not indexed; .perfbot index $rr. repairs it$" err &&
	perfbot index -q --db good.db "$rr" >/dev/null &&
	test "$(sql good.db "SELECT count(*) FROM run")" = 1
'

# a 6-commit line whose VALUE drops from 1000 to 800 at commit 3
bisect_repo() {
	git init -q -b main repo && (
	cd repo && git config user.name t && git config user.email t@t &&
	for i in 0 1 2 3 4 5; do
		v=1000 && [ $i -ge 3 ] && v=800
		echo $v >VALUE && echo "line $i" >>LOG && git add VALUE LOG &&
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
			git commit -q -m "commit $i" || exit 1
	done ) &&
	printf "testcase: mytest\n" >j.yaml &&
	cat >bench.sh <<-\EOS &&
	#!/bin/sh
	n=$(cat "$COUNTER" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNTER"
	echo "score: $(( $(cat "$PERFBOT_BUILD_DIR/VALUE") + n % 5 ))"
	EOS
	chmod +x bench.sh &&
	export COUNTER=$(pwd)/counter
}

test_expect_success 'perfbot bisect indexes each step it runs; --no-index does not' '
	bisect_repo &&
	good=$(git -C repo rev-list --max-parents=0 main) &&
	perfbot bisect --repo repo --good $good --bad main --job j.yaml --metric mytest.score \
		--state st --result-root res --db b.db -- "$(pwd)/bench.sh" >out 2>err &&
	bad=$(git -C repo log --format=%H --grep="^commit 3$" main) &&
	grep -q "^first bad commit: $bad" out &&
	# every root the bisect wrote is stored, with every run it holds
	find res -name matrix.json | sed "s|/matrix.json$||" | while read d; do
		(cd "$d" && pwd -P); done | sort >on_disk &&
	sql b.db "SELECT path FROM result_root ORDER BY path" >stored &&
	test_cmp on_disk stored &&
	grep -q "$bad" stored &&
	test "$(sql b.db "SELECT count(*) FROM run")" = "$(find res -name stats.json | wc -l)" &&
	test "$(sql b.db "SELECT count(DISTINCT rev) FROM result_root")" -ge 3 &&
	rm -rf st st.d res &&
	perfbot bisect --repo repo --good $good --bad main --job j.yaml --metric mytest.score \
		--state st --result-root res --db nob.db --no-index -- "$(pwd)/bench.sh" >out 2>err &&
	grep -q "^first bad commit: $bad" out &&
	test ! -f nob.db
'

test_done
