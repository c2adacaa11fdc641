#!/bin/sh
# bench/bisect-sim.sh: build bench/bisect-sim and print its table — the
# bisection strategies of src/bisect/sim.h on 2,000 random histories of
# 64 and of 1,024 commits (5% noise, 10% shift), plus the rows that are
# reported but not required (--harder: 10% noise with a 5% shift, and
# 2% outliers).  Extra arguments go to bisect-sim (--histories, --seed,
# --alpha, ...; see the top of bisect-sim.c).
#
# Exit status: 0 when the adaptive strategy meets both targets (>= 99%
# found, mean runs <= 5 * (log2 N + 3)) in every required row, else 1.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/bench/bisect-sim" >&2
exec "$BUILD/bench/bisect-sim" "$@"
