#!/bin/sh
# The demo of `make demo-watch`: generate a history with tags v1.0 ... v1.3
# and a regression between v1.1 and v1.2 that stays, let `perfbot watch
# --once` test it (every 3rd commit and the tags), find the change, bisect
# it and write the report; print the report and the mail's headers.
# Everything goes under $DEMO_DIR (default: a fresh temp dir).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PERFBOT=${PERFBOT:-$top/perfbot}
dir=${DEMO_DIR:-$(mktemp -d /tmp/perfbot-demo-watch.XXXXXX)}
mkdir -p "$dir"
echo "perfbot watch demo in $dir"
sh "$top/scripts/make-demo-watch-repo.sh" "$dir/repo"
start=$(date +%s)
rc=0
"$PERFBOT" watch --once --repo "$dir/repo" --branch main --job "$top/jobs/demo-bisect.yaml" \
	--metric mytest.throughput --stride 3 --tags --runs 2 --build "make -s bench" \
	--state-dir "$dir/state" --result-root "$dir/result" --db "$dir/perfbot.db" \
	--mail-cmd "cat >'$dir/mail.txt'" || rc=$?
echo "perfbot watch took $(( $(date +%s) - start )) s"
[ $rc -eq 0 ] || exit $rc
for f in "$dir"/state/reports/*.txt; do
	[ -f "$f" ] || { echo "no report written" >&2; exit 1; }
	echo
	echo "==> $f (and ${f%.txt}.html)"
	cat "$f"
done
if [ -f "$dir/mail.txt" ]; then
	echo
	echo "==> the mail's headers ($dir/mail.txt)"
	sed -n '1,/^$/p' "$dir/mail.txt"
fi
