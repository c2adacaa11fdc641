# tests/t/lab-lib.sh: what the lab-mode tests share (sourced after lib.sh).
#
# Starts the throwaway PostgreSQL server (../pg.sh) or, only when its
# binaries are missing, skips the whole script with the reason (fails
# where $PERFBOT_REQUIRE names postgresql: lib.sh's test_required).  Then:
#
#   url DB [USER]     a login's URL for database DB (default: postgres)
#   lab_db NAME       a fresh database with the lab schema, box1 and box2
#                     registered for any group (box_group '*'); prints its URL
#   sql DB SQL        one query as the superuser, unaligned tuples
#   job FILE CMD ...  a mytest job running CMD, extra lines appended
#   bg perfbot ARGS   perfbot (or any command) in the background; its pid,
#                     not a subshell's, in $pid
#   wait_sql DB SQL V [SECONDS]  until SQL gives V (default 60 s)
#
# Logins box1 and box2 (perfbot_worker) and sub (perfbot_submitter)
# exist.  Background perfbots are killed at exit, before the server
# stops, even when a test fails; then $LAB_EXIT_HOOK runs.  Set LAB_TCP
# to "ADDRS PORT NET" before sourcing for a server on the network too
# (pg_listen_tcp).
. ../pg.sh

if [ -n "${LAB_TCP:-}" ]; then
	# shellcheck disable=SC2086
	pg_listen_tcp $LAB_TCP
fi
if ! pg_start; then
	[ -n "$PG_MISSING" ] || { echo "not ok - PostgreSQL: $PG_WHY"; exit 1; }
	test_required postgresql &&
		{ echo "not ok - $PG_WHY, but PERFBOT_REQUIRE wants postgresql"; exit 1; }
	echo "# skipped: $PG_WHY"
	test_done
	exit 0
fi
PSQL="$PG_BIN/psql -X -q -At -v ON_ERROR_STOP=1"
LAB_EXIT_HOOK=${LAB_EXIT_HOOK:-:}
# the background pids live outside $TRASH: test_done removes $TRASH
# when every test passed, before this trap runs
LAB_PIDS=$(mktemp "${TMPDIR:-/tmp}/perfbot-lab-pids.XXXXXX")
trap 'for p in $(cat "$LAB_PIDS" 2>/dev/null); do kill -9 $p 2>/dev/null; done;
	rm -f "$LAB_PIDS"; $LAB_EXIT_HOOK; pg_stop' EXIT

url() { echo "postgresql:///$1?host=$PG_DIR&port=$PG_PORT&user=${2:-postgres}"; }
lab_db() {
	pg_createdb "$1" >/dev/null && perfbot lab init --db "$(url "$1")" >/dev/null &&
	sql "$1" "INSERT INTO perfbot.box_group VALUES ('box1', '*'), ('box2', '*')" &&
	url "$1"
}
sql() { $PSQL "$(url "$1")" -c "$2"; }
job() {
	f=$1 c=$2; shift 2
	printf 'testcase: mytest\nmytest:\n  command: "%s"\n' "$c" >"$f"
	for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}
bg() {
	if [ "$1" = perfbot ]; then shift; set -- "$PERFBOT" "$@"; fi
	"$@" & pid=$!; echo $pid >>"$LAB_PIDS"
}
wait_sql() {
	i=0
	while [ "$(sql "$1" "$2")" != "$3" ]; do
		[ $i -ge $((${4:-60} * 10)) ] && { echo "timed out: $2 is $(sql "$1" "$2"), not $3"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

lab_db first >/dev/null &&
pg_sql "CREATE ROLE box1 LOGIN IN ROLE perfbot_worker;
	CREATE ROLE box2 LOGIN IN ROLE perfbot_worker;
	CREATE ROLE sub LOGIN IN ROLE perfbot_submitter" >/dev/null ||
	{ echo "not ok - cannot make the test logins"; exit 1; }
