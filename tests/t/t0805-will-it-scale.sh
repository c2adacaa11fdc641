#!/bin/sh
# t0805: will-it-scale's tests: every test lkp's will-it-scale jobs name
# is one the runner takes and one the built-in program does (--check: one
# operation as a process's task and as a thread's, counted), and a brief
# run of each prints a CSV row for both modes.
. ./lib.sh

BIN=$(dirname "$PERFBOT")/bin
[ -x "$BIN/will-it-scale" ] || BIN=$(dirname "$PERFBOT")/build/bin
WIS=$BIN/will-it-scale

test_expect_success 'every test of --list is a choice of the runner and does its operation' '
	"$WIS" --list | cut -d" " -f1 >names &&
	test $(wc -l <names) -eq 60 &&
	while read -r t; do
		printf "testcase: will-it-scale\nwill-it-scale:\n  test: %s\n" "$t" >job.yaml &&
		perfbot install --command job.yaml >cmd &&
		grep -q " $t\$" cmd &&
		"$WIS" --check "$t" || exit 1
	done <names
'

test_expect_success 'the runner refuses a test the program lacks' '
	printf "testcase: will-it-scale\nwill-it-scale:\n  test: nosuch1\n" >job.yaml &&
	test_must_fail 1 perfbot install --command job.yaml 2>err &&
	grep -q "got .nosuch1." err
'

test_expect_success "every test named by lkp's will-it-scale jobs runs, as processes and threads" '
	test_have_conformance || exit 0
	for f in "$SHARED"/lkp/tree/jobs/will-it-scale/*.yaml; do
		perfbot split-job -o atoms "$f" >/dev/null || exit 1
	done &&
	sed -n "s/^  test: //p" atoms/*.yaml | sort -u >names &&
	test $(wc -l <names) -eq 60 &&
	# each does its operation: it is a test of --list, which the first
	# test runs with --check, each once
	"$WIS" --list | cut -d" " -f1 | sort >listed &&
	comm -23 names listed >unknown && test_cmp /dev/null unknown &&
	while read -r t; do
		"$WIS" --duration=0.01 --warmup=0 --mode=both --tasks=2 "$t" >out &&
		tail -n 1 out | grep -q "^2,[0-9]*,[0-9.]*,[0-9]*,[0-9.]*,0$" || { echo "failed: $t"; exit 1; }
	done <names
'

# tlb_flush3 maps its pages again after unmapping them; at the old
# address (MAP_FIXED) it mapped over what another thread had put in the
# hole meanwhile (a starting thread's stack) and crashed: 14 of 40 runs
# of 8 threads did, so 20 runs show it all but surely
test_expect_success 'tlb_flush3 as 8 threads never maps over another thread' '
	i=0 && while [ $i -lt 20 ]; do
		"$WIS" --duration=0.01 --warmup=0 --mode=thread --tasks=8 tlb_flush3 >out ||
			{ echo "run $i: exit $?"; exit 1; }
		i=$((i + 1))
	done
'

test_done
