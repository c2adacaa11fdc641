#!/bin/sh
# libpq is loaded on first use (src/pg/libpq.c): commands that never talk
# to PostgreSQL run without it, and lab mode without it says so in one
# line.  "Without it": in a mount namespace of the test's own, /dev/null
# is bound over the library, so that dlopen fails there and nowhere else.
. ./lib.sh

test_have unshare ldconfig || { test_done; exit 0; }
LIBPQ=$(ldconfig -p | awk '$1 == "libpq.so.5" { print $NF; exit }')
if [ -z "$LIBPQ" ] || ! unshare -m true 2>/dev/null; then
	echo "# skipped: no libpq.so.5 or no mount namespaces here"
	test_done
	exit 0
fi
# without_libpq CMD...: CMD with libpq.so.5 unloadable
without_libpq() {
	unshare -m sh -c 'mount --bind /dev/null "$0" && exec "$@"' "$LIBPQ" "$@"
}

test_expect_success 'perfbot itself does not load libpq at start' '
	"$PERFBOT" --version >/dev/null &&
	LD_DEBUG=files "$PERFBOT" --version 2>ld.log >/dev/null &&
	! grep -q "libpq" ld.log
'

test_expect_success 'without libpq: other commands run' '
	mkdir -p r/0 &&
	printf "{\"a.b\": 1}\n" >r/0/stats.json &&
	without_libpq "$PERFBOT" unite r/0 &&
	test -s r/matrix.json
'

test_expect_success 'without libpq: lab mode fails in one line that names it' '
	test_must_fail 1 without_libpq "$PERFBOT" lab init --db "postgresql:///x?host=$TRASH/nowhere" 2>err &&
	grep -q "^perfbot: lab mode needs PostgreSQL.s client library: .*libpq.so.5.* (install libpq5)$" err &&
	test $(wc -l <err) = 1
'

test_expect_success 'with libpq: the same command reaches libpq (and the socket is missing)' '
	test_must_fail 1 "$PERFBOT" lab init --db "postgresql:///x?host=$TRASH/nowhere" 2>err &&
	grep -q "^perfbot: cannot connect to the database: connection to server on socket" err
'

test_done
