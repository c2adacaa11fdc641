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
TEST_DIR=$(pwd)
DATA=$(cd ../data && pwd)
# PERFBOT_CONFORMANCE: elsewhere (a git worktree), as for the unit tests
SHARED=${PERFBOT_CONFORMANCE:-$(cd ../.. && pwd)/../shared/conformance}
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/perfbot-t.XXXXXX")
# perfbot run and bisect index into the store: never the user's own
export PERFBOT_DB="$TRASH/perfbot.db"
# git as on a fresh machine: neither this machine's global or system
# config (an identity, safe.directory, aliases) nor its absence may decide
# a test; the tests' own commits have an identity of their own.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="perfbot tests" GIT_AUTHOR_EMAIL="tests@perfbot.invalid"
export GIT_COMMITTER_NAME="perfbot tests" GIT_COMMITTER_EMAIL="tests@perfbot.invalid"
test_count=0 test_fail=0
perfbot() { "$PERFBOT" "$@"; }

test_expect_success() {
	test_count=$((test_count + 1))
	d="$TRASH/$test_count"
	mkdir -p "$d"
	[ -z "${TEST_CPU:-}" ] || { times >"$d/.times0"; date +%s.%N >"$d/.wall0"; }
	if (cd "$d" && set -e && eval "$2") >"$d/.log" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_fail=$((test_fail + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$d/.log" | tail -n 25
	fi
	[ -z "${TEST_CPU:-}" ] || { times >"$d/.times1" && date +%s.%N >"$d/.wall1" && test_cpu_line "$d"; }
}

# With $TEST_CPU set, each test is followed by "# cpu N.NN s, wall N.N s":
# the CPU time (user + system) of what it ran, from the shell's `times` before
# and after it (its children's, once reaped: not in $(...), whose
# subshell has none), and its wall time, to find what makes a script
# heavy or slow.
test_cpu_line() {
	awk 'FILENAME ~ /wall/ { w[m++] = $1; next }
		FNR == 2 { gsub(/[ms]/, " "); t[n++] = $1 * 60 + $2 + $3 * 60 + $4 }
		END { printf "# cpu %.2f s, wall %.1f s\n", t[1] - t[0], w[1] - w[0] }' \
		"$1/.times0" "$1/.times1" "$1/.wall0" "$1/.wall1"
}

# Skip (pass with a message) when the conformance data is absent -- or
# fail where $PERFBOT_REQUIRE names conformance (make check-full: CI must
# not pass for a check it never made).
test_have_conformance() {
	[ -d "$SHARED" ] && return 0
	if test_required conformance; then
		echo "$SHARED not found, but PERFBOT_REQUIRE wants conformance: failing, not skipping"
		exit 1
	fi
	echo "# skipped: $SHARED not found"
	return 1
}

# test_have PROGRAM...: true when all are installed.  Otherwise the test
# is skipped (the caller writes `test_have X || exit 0`, which passes with
# the reason printed) -- unless $PERFBOT_REQUIRE names the program: `make
# check-full` lists there what its packages (scripts/deps.sh test) install, so
# that a test CI means to run never vanishes silently; it fails instead.
test_required() {
	case " ${PERFBOT_REQUIRE:-} " in *" $1 "*) return 0 ;; esac
	return 1
}
test_have() {
	for p in "$@"; do
		command -v "$p" >/dev/null 2>&1 && continue
		if test_required "$p"; then
			echo "$p is not installed, but PERFBOT_REQUIRE wants it: failing, not skipping"
			exit 1
		fi
		echo "# skipped: $p not installed"
		return 1
	done
}

# test_packaged_kernel: sets KERNEL to Debian's newest /boot/vmlinuz-*
# (linux-image-amd64), or ends the script: skipped, or failed where
# $PERFBOT_REQUIRE names vmlinuz (make check-full installs it)
test_packaged_kernel() {
	KERNEL=$(ls /boot/vmlinuz-* 2>/dev/null | sort | tail -n 1)
	[ -n "$KERNEL" ] && return 0
	if test_required vmlinuz; then
		echo "no /boot/vmlinuz-* (linux-image-amd64), but PERFBOT_REQUIRE wants it: failing, not skipping"
		exit 1
	fi
	echo "# skipped: no /boot/vmlinuz-* (linux-image-amd64)"
	test_done
	exit 0
}

# browser_check [--selftest] PAGE SHOT: browser-check.sh, whose exit 77
# (no Chromium) skips the check -- or fails it where PERFBOT_REQUIRE names
# chromium, as `make check-full` does (it installs chromium): there a missing
# browser must not pass for a checked page.
browser_check() {
	rc=0
	sh "$TEST_DIR/browser-check.sh" "$@" || rc=$?
	if [ $rc -eq 77 ]; then
		if test_required chromium; then
			echo "chromium is not installed, but PERFBOT_REQUIRE wants it"
			return 1
		fi
		echo "# skipped: the browser checks (chromium is not installed)"
		return 0
	fi
	return $rc
}

# test_value_repo DIR N K [HOOK]: a git repository DIR on branch main of
# N commits "commit 0".."commit N-1" at fixed dates (the same hashes on
# every run), commit i writing the benchmark's number to VALUE (1000, 850
# from commit K on) and a line to LOG; HOOK, a shell function, runs in DIR
# after each commit with i as its argument (tags, say).
test_value_repo() {
	git init -q -b main "$1" && (
	cd "$1" && i=0 && v=1000 &&
	while [ $i -lt "$2" ]; do
		[ $i -eq "$3" ] && v=850
		echo $v >VALUE && echo "line $i" >>LOG && git add VALUE LOG &&
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
			git commit -q -m "commit $i" || exit 1
		if [ $# -ge 4 ]; then "$4" $i || exit 1; fi
		i=$((i + 1))
	done )
}

# test_noise_bench FILE KEY [VALUE_FILE]: write FILE, a benchmark in the
# mytest convention printing "KEY: N", N the number in the checkout's
# VALUE_FILE ($PERFBOT_BUILD_DIR/VALUE by default) plus a noise of -10..10
# from a hash of the run counter kept in $COUNTER: repeatable, and not
# awk's srand(n), whose first rand() mawk makes the same for neighbouring
# seeds (runs came in equal pairs).  With $RUNLOG set it first appends the
# checkout's commit there; with $BENCH_SLEEP set it sleeps that long.
# With $QUIET_BENCH set there is no noise; with $DRIFT set the n-th run
# is times (1000 + DRIFT * n) / 1000: a machine that gets DRIFT/10 %
# faster with every run, as when other load falls away.
test_noise_bench() {
	{
		echo "#!/bin/sh"
		echo "key=$2 file=${3:-VALUE}"
		cat <<-\EOS
		n=$(cat "$COUNTER" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNTER"
		v=$(cat "$PERFBOT_BUILD_DIR/$file")
		[ -n "${RUNLOG:-}" ] && git -C "$PERFBOT_BUILD_DIR" rev-parse HEAD >>"$RUNLOG"
		h=$((n + 1))
		h=$(((((h >> 16) ^ h) * 73244475) & 4294967295))
		h=$(((((h >> 16) ^ h) * 73244475) & 4294967295))
		noise=$(((((h >> 16) ^ h) % 21) - 10))
		[ -n "${QUIET_BENCH:-}" ] && noise=0
		[ -n "${BENCH_SLEEP:-}" ] && sleep "$BENCH_SLEEP"
		echo "$key: $(((v + noise) * (1000 + ${DRIFT:-0} * n) / 1000))"
		EOS
	} >"$1" && chmod +x "$1"
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

# Processes a test left running, found by what the test gave them and never
# by name (other tests on this machine run sleep, iperf3, redis-server too):
# start the command under test as
#     env PERFBOT_TEST_TAG=$(test_tag) perfbot run ...
# (the tag is inherited by everything it starts), then
#     test_no_leftovers "$tag"
# fails, listing them, when a process started with that tag is still alive
# after a grace of up to 5 s (a killed process takes a moment to go).
# test_wait_for CMD...: poll until CMD succeeds (a file or process another
# process makes), so that a signal lands at a known point, not after a
# guessed sleep.  Bounded by 10 minutes, for what died first: however
# busy the machine, the wait ends as soon as CMD succeeds.
test_wait_for() {
	n=0
	until "$@"; do
		n=$((n + 1))
		[ $n -lt 6000 ] || { echo "never came: $*"; return 1; }
		sleep 0.1
	done
}
test_tag() { echo "perfbot-t-$$-$test_count"; }
test_leftovers() {
	grep -lsxzF "PERFBOT_TEST_TAG=$1" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|^/proc/\([0-9]*\)/environ$|\1|'
	return 0
}
test_no_leftovers() {
	n=0
	while [ -n "$(test_leftovers "$1")" ]; do
		n=$((n + 1))
		if [ $n -ge 300 ]; then
			echo "left running:"
			for p in $(test_leftovers "$1"); do
				echo "  $p: $(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null)"
			done
			return 1
		fi
		sleep 0.1
	done
}

test_done() {
	echo "# passed $((test_count - test_fail)) failed $test_fail"
	[ $test_fail -eq 0 ] && rm -rf "$TRASH"
	[ $test_fail -eq 0 ]
}

# make_kernel_tree DIR: a stand-in kernel tree for perfbot kernel build,
# in a git repository at DIR.  Its Makefile answers the targets the build
# runs (tinyconfig, defconfig, olddefconfig, bzImage, out of tree with
# O=) and "builds" Debian's packaged kernel (/boot/vmlinuz-*: call
# test_packaged_kernel first) with the commit's VALUE in the setup
# header's obsolete ram_size field, which the guest reads back from
# /sys/kernel/boot_params/data.  Its config names clang 16 as the
# compiler (Debian's kernel was built by gcc 12: the result path's
# compiler is the config's).  Commits: c1 (VALUE 1000), c2 (850),
# c3 (does not build: "init/main.c:1:1: error: planted").
make_kernel_tree() {
	mkdir -p "$1/scripts/kconfig" && (
	cd "$1" &&
	cat >Makefile <<'EOF' &&
# stands in for Kbuild: the config targets and bzImage, out of tree (O=)
O ?= .
KERNEL := $(lastword $(sort $(wildcard /boot/vmlinuz-*)))
tinyconfig defconfig:
	@mkdir -p $(O)
	@echo "CONFIG_64BIT=y" >$(O)/.config
	@echo "CONFIG_CC_VERSION_TEXT=\"Debian clang version 16.0.6 (15)\"" >>$(O)/.config
olddefconfig:
	@true
bzImage:
	@if [ -f $(CURDIR)/broken ]; then echo "init/main.c:1:1: error: planted"; exit 2; fi
	@mkdir -p $(O)/arch/x86/boot $(O)/include/config
	@python3 $(CURDIR)/value.py $(KERNEL) "$$(cat $(CURDIR)/VALUE)" $(O)/arch/x86/boot/bzImage
	@echo map >$(O)/System.map
	@echo 6.1.0-fake >$(O)/include/config/kernel.release
EOF
	cat >value.py <<'EOF' &&
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[0x1f8:0x1fa] = int(sys.argv[2]).to_bytes(2, "little")   # ram_size: unused
open(sys.argv[3], "wb").write(bytes(b))
EOF
	cat >scripts/kconfig/merge_config.sh <<'EOF' &&
while [ $# -gt 2 ]; do shift; done
cat "$2" >>"$1"
EOF
	echo 1000 >VALUE &&
	git init -q -b main . && git add . && git commit -q -m c1 && git tag c1 &&
	echo 850 >VALUE && git commit -q -am c2 && git tag c2 &&
	touch broken && git add broken && git commit -q -m "c3 broken" && git tag c3 )
}
