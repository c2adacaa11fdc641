#!/bin/sh
# bench/bisect-sim.sh: build bench/bisect-sim and print its table — the
# bisection of src/bisect/sim.h on 2,000 random histories a scenario:
# accuracy, mean, 99th percentile and largest number of runs, against the
# mean bound 5 * (log2 N + 3) and the budget (--max-total-runs' default).
# With no scenario option it prints doc/design/bisect.md's table (normal, t3,
# bimodal and lognormal noise, a drift, two steps, outliers, a shift
# below the noise); with --n, --shape, --noise, --shift, --drift,
# --second-step, --outliers it prints that one scenario (see the top of
# bisect-sim.c for every option).
#
# Exit status: 0 when every row meets its targets, else 1.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/bench/bisect-sim" >&2
exec "$BUILD/bench/bisect-sim" "$@"
