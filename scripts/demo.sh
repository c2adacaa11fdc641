#!/bin/sh
# The demo of `make demo`: generate the demo repository, bisect its
# throughput regression with monitors and perf-profile on, print the report.
# Everything goes under $DEMO_DIR (default: a fresh temp dir).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PERFBOT=${PERFBOT:-$top/perfbot}
dir=${DEMO_DIR:-$(mktemp -d /tmp/perfbot-demo.XXXXXX)}
mkdir -p "$dir"
echo "perfbot demo in $dir"
sh "$top/scripts/make-demo-repo.sh" "$dir/repo" >/dev/null
good=$(git -C "$dir/repo" rev-list --max-parents=0 HEAD)
echo "bisecting mytest.throughput between $good (v1.0) and main (v1.1)..."
rc=0
"$PERFBOT" bisect -v --repo "$dir/repo" --good v1.0 --bad v1.1 \
	--job "$top/jobs/demo-bisect.yaml" --metric mytest.throughput \
	--build "make -s bench" --state "$dir/bisect.state" \
	--result-root "$dir/result" || rc=$?
if [ $rc -eq 0 ] && "$PERFBOT" help report >/dev/null 2>&1; then
	"$PERFBOT" report --bisect "$dir/bisect.state" --format html -o "$dir/report.html" &&
		echo "HTML report: $dir/report.html"
fi
exit $rc
