# tests/pg.sh: a throwaway PostgreSQL 15 server for the tests, the one
# place that knows how to start and stop it (sourced; POSIX sh).
#
#   . ../pg.sh                   # from tests/t; tests/pg.sh from the root
#   pg_start || { echo "# skipped: $PG_WHY"; ...; }
#   psql "$PG_URL" -c '...'       # or: pg_sql 'SELECT 1'
#   pg_restart                    # pg_ctl restart, data kept
#   pg_stop                       # also run by the EXIT trap pg_start sets
#
# pg_start makes a temp dir holding the data directory and the Unix
# socket, runs initdb and pg_ctl from $PG_BIN (/usr/lib/postgresql/15/bin)
# as the postgres user when we are root (initdb refuses to run as root),
# as ourselves otherwise, with listen_addresses='' (nothing on the
# network unless pg_listen_tcp asks for it before pg_start) and
# fsync=off: a test server never needs to survive a power cut, and fsync
# is most of what initdb and a commit cost.
#
# PG_DURABLE=1 before pg_start keeps PostgreSQL's durable defaults
# (fsync, synchronous_commit, full_page_writes) for benchmarks that
# want a production server's figures.
#
# It exports PG_URL, a libpq connection URL for the superuser "postgres"
# on the socket (postgresql:///postgres?host=DIR&port=PORT&user=postgres),
# and PERFBOT_TEST_PG with the same value: that is how the cmocka unit
# tests find the server (tests/run-unit.sh starts one for them, with
# pg_start_unit below).
#
# PG_WHY says why pg_start failed; PG_MISSING=1 when the server binaries
# are missing, the one reason a test may skip: anything else is a
# failure to report.

: "${PG_BIN:=/usr/lib/postgresql/15/bin}"
PG_DIR=
PG_PORT=5432
PG_TCP_ADDR=
PG_TCP_NET=
PG_WHY=
PG_MISSING=

# pg_listen_tcp ADDRS PORT NET: before pg_start, listen on ADDRS (comma
# separated) at PORT too, and accept password (scram-sha-256) logins
# from NET (10.1.0.0/16).
pg_listen_tcp() {
	PG_TCP_ADDR=$1
	PG_PORT=$2
	PG_TCP_NET=$3
}

# Run a server program as the user owning the cluster (from /: the
# caller's directory may be closed to that user).
pg_as_owner() {
	if [ "$(id -u)" = 0 ]; then
		(cd / && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

pg_start() {
	if [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
		PG_WHY="PostgreSQL server binaries not found in $PG_BIN (apt-get install postgresql-15)"
		PG_MISSING=1
		return 1
	fi
	if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
		PG_WHY="no 'postgres' user to run the server as (apt-get install postgresql-15 makes it)"
		PG_MISSING=1
		return 1
	fi
	PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/perfbot-pg.XXXXXX") || { PG_WHY="mktemp failed"; return 1; }
	trap 'pg_stop' EXIT
	trap 'pg_stop; exit 130' INT TERM
	[ "$(id -u)" = 0 ] && chown postgres "$PG_DIR" && chmod 700 "$PG_DIR"
	if ! pg_as_owner "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust \
		-E UTF8 --locale=C --no-sync >"$PG_DIR/initdb.log" 2>&1; then
		PG_WHY="initdb failed: $(tail -n 3 "$PG_DIR/initdb.log")"
		return 1
	fi
	{
		echo "listen_addresses = '$PG_TCP_ADDR'"
		echo "port = $PG_PORT"
		echo "unix_socket_directories = '$PG_DIR'"
		if [ -z "${PG_DURABLE:-}" ]; then
			echo "fsync = off"
			echo "synchronous_commit = off"
			echo "full_page_writes = off"
		fi
		echo "max_connections = 200"
		echo "log_min_messages = warning"
	} >>"$PG_DIR/data/postgresql.conf"
	if [ -n "$PG_TCP_ADDR" ]; then
		echo "host all all $PG_TCP_NET scram-sha-256" >>"$PG_DIR/data/pg_hba.conf"
	fi
	if ! pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" \
		-w -t 30 start >/dev/null 2>&1; then
		PG_WHY="pg_ctl start failed: $(tail -n 3 "$PG_DIR/server.log" 2>/dev/null)"
		return 1
	fi
	PG_URL="postgresql:///postgres?host=$PG_DIR&port=$PG_PORT&user=postgres"
	PERFBOT_TEST_PG=$PG_URL
	export PG_URL PERFBOT_TEST_PG
}

# pg_start_unit: pg_start for the unit tests (tests/run-unit.sh, or the
# pool of tests/run-e2e.sh --unit).  True when the server runs, or when
# its binaries are missing: the lab tests skip then, as said here --
# unless $PERFBOT_REQUIRE names postgresql (make check-full: CI installs
# it).  False otherwise, having said why.
pg_start_unit() {
	pg_start && return 0
	echo "unit: lab tests skip: $PG_WHY"
	[ -n "$PG_MISSING" ] || return 1
	case " ${PERFBOT_REQUIRE:-} " in *" postgresql "*)
		echo "unit: PERFBOT_REQUIRE wants postgresql: failing, not skipping"; return 1 ;;
	esac
}

pg_restart() {
	pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" \
		-w -t 30 -m fast restart >/dev/null
}

# Stop the server (immediate: nothing in it is worth a checkpoint) and
# remove its directory.  Safe to call twice, or when nothing started.
pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	fi
	rm -rf "$PG_DIR"
	PG_DIR=
}

# pg_sql SQL [DB]: run SQL as the superuser, unaligned tuples only.
pg_sql() {
	"$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 \
		"postgresql:///${2:-postgres}?host=$PG_DIR&port=$PG_PORT&user=postgres" -c "$1"
}

# pg_createdb NAME: a fresh database; prints its URL.
pg_createdb() {
	pg_sql "CREATE DATABASE \"$1\"" >/dev/null &&
	echo "postgresql:///$1?host=$PG_DIR&port=$PG_PORT&user=postgres"
}
