#!/bin/sh
# Debian packages perfbot needs, in one place.
#   deps.sh check    build/test packages present? install them when root,
#                    else print the exact apt-get line and fail
#   deps.sh install  same, plus what `make demo` runs (git, perf)
# Packages are only installed when missing, so a second run is instant.
set -e
BUILD_PKGS="gcc make pkg-config libfyaml-dev libjson-c-dev zlib1g-dev libsqlite3-dev libcmocka-dev libgsl-dev git"
DEMO_PKGS="linux-perf procps"

missing=""
for p in $BUILD_PKGS $( [ "$1" = install ] && echo $DEMO_PKGS ); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
	echo "perfbot: installing missing packages:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
	echo "perfbot: missing packages:$missing" >&2
	echo "run: sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
