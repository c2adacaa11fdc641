#!/bin/sh
# browser-check.sh [--selftest] PAGE.html SCREENSHOT.png
#
# Opens PAGE in a real headless Chromium (Debian's `chromium`, or
# $CHROMIUM) and fails when the page
#   - refers to anything outside itself (src/href/url() with a scheme or
#     "//": a self-contained page fetches nothing),
#   - writes anything to the console or throws (Chromium logs both as
#     "CONSOLE" lines on stderr with --enable-logging=stderr; the report
#     page is silent when all is well, so any console line is a failure),
#   - or, with --selftest, does not report data-selftest="ok" on <body>
#     when opened as PAGE#selftest (the report's script then sorts and
#     filters its table once and checks the outcome).
# It saves a screenshot of the page (1280 px wide) as SCREENSHOT.
#
# Exit: 0 passed, 1 failed (why on stderr), 77 Chromium is not installed.
set -u
selftest=
if [ "${1:-}" = --selftest ]; then
	selftest=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: browser-check.sh [--selftest] PAGE.html SCREENSHOT.png" >&2
	exit 1
fi
page=$1 shot=$2
[ -f "$page" ] || { echo "browser-check: no page '$page'" >&2; exit 1; }

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
	for b in chromium chromium-browser; do
		if command -v "$b" >/dev/null 2>&1; then
			browser=$b
			break
		fi
	done
fi
if [ -z "$browser" ]; then
	echo "browser-check: skipped: chromium is not installed (apt-get install -y chromium)"
	exit 77
fi

# fetches: src=/href= with a scheme or "//", and CSS url(); the SVG
# namespace (xmlns="http://...") is a name, not a fetch
if grep -Eio "(src|href|action|poster|data)=[\"']?([a-z][a-z0-9+.-]*:|//)[^\"' >]*|url\\([\"']?([a-z][a-z0-9+.-]*:|//)[^)]*\\)" "$page" |
	grep -Eiv "^href=[\"']?#" >"$shot.fetch" 2>/dev/null && [ -s "$shot.fetch" ]; then
	echo "browser-check: $page is not self-contained; it refers to:" >&2
	sed 's/^/    /' "$shot.fetch" >&2
	rm -f "$shot.fetch"
	exit 1
fi
rm -f "$shot.fetch"

abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
profile=$(mktemp -d "${TMPDIR:-/tmp}/browser-check.XXXXXX")
log=$profile/stderr
trap 'rm -rf "$profile"' EXIT INT TERM

run_chromium() {
	rm -rf "$profile/user"
	mkdir -p "$profile/user"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$profile/user" \
		--enable-logging=stderr --v=0 "$@" 2>>"$log"
}

: >"$log"
rm -f "$shot"
mkdir -p "$(dirname "$shot")"
run_chromium --screenshot="$shot" --window-size=1280,2000 "file://$abs" >/dev/null
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$shot" ]; then
	echo "browser-check: chromium failed (exit $rc) or wrote no screenshot" >&2
	tail -n 20 "$log" >&2
	exit 1
fi
if [ -n "$selftest" ]; then
	run_chromium --dump-dom "file://$abs#selftest" >"$profile/dom"
	if ! grep -q 'data-selftest="ok"' "$profile/dom"; then
		echo "browser-check: the page's selftest did not pass:" >&2
		grep -o 'data-selftest="[^"]*"' "$profile/dom" >&2 || echo "    (no result)" >&2
		exit 1
	fi
fi
if grep -E "CONSOLE|Uncaught" "$log" >"$profile/console"; then
	echo "browser-check: the page wrote to the console or threw:" >&2
	sed 's/^/    /' "$profile/console" >&2
	exit 1
fi
echo "browser-check: ok: $page (screenshot $shot)"
exit 0
