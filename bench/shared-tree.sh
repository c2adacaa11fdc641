#!/bin/sh
# bench/shared-tree.sh: what the shared-tree rules cost (bench/shared-tree.c):
# write_file_atomic with its temp made O_EXCL | O_NOFOLLOW against the old
# O_CREAT | O_TRUNC open and against held_dir_write (by name in a dir held
# open, as a run writes its run dir), and mkdir_fresh against a plain
# mkdir, the ways alternating in one dir of the disk the result trees are on
# (DIR, default a temp dir under /var/tmp).  FILES (200) files of SIZE
# (4096) bytes a round, ROUNDS (9) rounds.  Prints `uptime` first.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/bench/shared-tree" >&2
D=$(mktemp -d "${DIR:-/var/tmp}/shared-tree.XXXXXX")
trap 'rm -rf "$D"' EXIT
echo "uptime: $(uptime)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
"$BUILD/bench/shared-tree" "$D" "${FILES:-200}" "${SIZE:-4096}" "${ROUNDS:-9}"
