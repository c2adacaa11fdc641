#!/bin/sh
# bench/busy-check.sh: issue 36's last target -- `make check` passes N
# times in a row with `stress-ng --cpu 4` running the whole time (or on
# the machine as it is, --load quiet), each in a fresh clone of HEAD as
# a developer would run it.
#
#   sh bench/busy-check.sh [--tries N] [--load quiet|busy]
#
# Per try: pass or FAIL, the wall time, the load average at its start,
# and the unit and e2e counts from its log; a failing try's last lines.
# The clone and its logs are in a temp dir (private, as a clone in a
# root's 0700 home is), removed at the end unless a try failed (then its
# path is printed).
#
# Exit status: 0 when every try passed, else 1.
set -eu
cd "$(dirname "$0")/.."
TRIES=3 LOAD=busy
while [ $# -gt 0 ]; do
	case $1 in
	--tries) TRIES=$2; shift 2 ;;
	--load) LOAD=$2; shift 2 ;;
	*) echo "usage: sh bench/busy-check.sh [--tries N] [--load quiet|busy]" >&2; exit 2 ;;
	esac
done
case $LOAD in quiet|busy) ;; *) echo "bench/busy-check.sh: --load quiet or busy" >&2; exit 2 ;; esac
[ "$LOAD" = quiet ] || command -v stress-ng >/dev/null || {
	echo "bench/busy-check.sh: stress-ng is needed for --load busy (apt-get install stress-ng)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/perfbot-busy-check.XXXXXX")
stress= keep=
cleanup() { [ -z "$stress" ] || kill "$stress" 2>/dev/null || true; [ -n "$keep" ] || rm -rf "$T"; }
trap cleanup EXIT INT TERM
if [ "$LOAD" = busy ]; then
	stress-ng --cpu 4 --timeout 0 >/dev/null 2>&1 & stress=$!
	sleep 2
fi
# every try tests this commit, whatever is committed meanwhile
rev=$(git rev-parse HEAD)
echo "bench/busy-check.sh at $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'):" \
	"$TRIES tries, load $LOAD"
passed=0 t=1
while [ "$t" -le "$TRIES" ]; do
	d="$T/try-$t"
	git clone -q . "$d" && git -C "$d" checkout -q "$rev"
	# the conformance data, where the developer's clone finds it
	[ ! -d ../shared ] || ln -s "$(cd ../shared && pwd)" "$T/shared"
	la=$(cut -d" " -f1 /proc/loadavg) s=$(date +%s) rc=0
	(cd "$d" && make check) >"$d.log" 2>&1 || rc=$?
	took=$(($(date +%s) - s))
	counts=$(grep -E "^(unit|e2e): [0-9]+ passed" "$d.log" | tr '\n' ' ' || true)
	if [ $rc = 0 ]; then
		passed=$((passed + 1))
		echo "  try $t (load average $la): pass in $took s; $counts"
		rm -rf "$d" "$d.log"
	else
		keep=1
		echo "  try $t (load average $la): FAIL (exit $rc) after $took s; $counts; log $d.log"
		tail -n 15 "$d.log" | sed 's/^/    | /'
	fi
	rm -f "$T/shared"
	t=$((t + 1))
done
echo "make check: $passed of $TRIES passed, load $LOAD"
[ "$passed" = "$TRIES" ]
