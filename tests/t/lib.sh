# tests/t/lib.sh: a tiny git-t/-style harness for end-to-end tests.
#
#   . ./lib.sh
#   test_expect_success 'what it checks' '
#       perfbot compare a b >out &&
#       grep -q throughput out
#   '
#   test_done
#
# Each test body runs in a fresh subshell inside its own scratch directory
# $TRASH (removed at the end unless a test failed).  `perfbot` runs the
# binary under test ($PERFBOT).  $DATA is tests/data, $SHARED the
# conformance folder (may be missing: use test_have_conformance).
set -u
: "${PERFBOT:=$(cd ../.. && pwd)/perfbot}"
DATA=$(cd ../data && pwd)
SHARED=$(cd ../.. && pwd)/../shared/conformance
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/perfbot-t.XXXXXX")
test_count=0 test_fail=0
perfbot() { "$PERFBOT" "$@"; }

test_expect_success() {
	test_count=$((test_count + 1))
	d="$TRASH/$test_count"
	mkdir -p "$d"
	if (cd "$d" && set -e && eval "$2") >"$d/.log" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_fail=$((test_fail + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$d/.log" | tail -n 25
	fi
}

# Skip (pass with a message) when the conformance data is absent.
test_have_conformance() {
	[ -d "$SHARED" ] && return 0
	echo "# skipped: $SHARED not found"
	return 1
}

# test_cmp expected actual: diff with a readable failure.
test_cmp() { diff -u "$1" "$2"; }

# test_must_fail CODE cmd...: cmd must exit with CODE.
test_must_fail() {
	want=$1; shift
	"$@" && { echo "expected exit $want, got 0"; return 1; }
	rc=$?
	[ "$rc" -eq "$want" ] || { echo "expected exit $want, got $rc"; return 1; }
}

test_done() {
	echo "# passed $((test_count - test_fail)) failed $test_fail"
	[ $test_fail -eq 0 ] && rm -rf "$TRASH"
	[ $test_fail -eq 0 ]
}
