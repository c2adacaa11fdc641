#!/bin/sh
# bench/rx.sh: the parsers' regular expressions on a line of N digits,
# util/rx (linear) against glibc's regexec (quadratic on this input).
#
#   sh bench/rx.sh            # glibc up to 25,000 digits
#   sh bench/rx.sh 100000     # and at 100,000 (minutes)
set -u
cd "$(dirname "$0")/.." || exit 1
make -s build/bench/rx || exit 1
echo "patterns: 0 vm-scalability, 1 perf-bench-syscall, 2 netperf"
build/bench/rx "${1:-25000}"
