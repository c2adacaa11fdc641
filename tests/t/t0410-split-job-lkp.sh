#!/bin/sh
# t0410: every job of the lkp-tests snapshot (conformance tree/jobs) split
# with its catalog (LKP_SRC) as lkp's own split-job splits it
# (conformance split-jobs/), through tests/conformance-split.sh.  The
# count of identical jobs may rise, never fall below the pinned one.
. ./lib.sh

# jobs whose atoms (names and normalized YAML) equal lkp's, of 220
PINNED=110

test_expect_success "lkp's jobs split as lkp splits them (at least $PINNED identical)" '
	test_have_conformance || exit 0
	[ -d "$SHARED/lkp/tree/jobs" ] || { echo "# skipped: no lkp tree"; exit 0; }
	PERFBOT="$PERFBOT" sh "$TEST_DIR/../conformance-split.sh" "$SHARED/lkp" >report &&
	tail -n 1 report &&
	n=$(sed -n "s|^identical \([0-9]*\)/[0-9]*$|\1|p" report) &&
	test -n "$n" &&
	if [ "$n" -lt $PINNED ]; then
		grep -v "^ok " report | head -n 40
		echo "identical $n, below the pinned $PINNED"
		exit 1
	fi
'

test_expect_success 'the conformance script tells a differing split from an identical one' '
	test_have_conformance || exit 0
	[ -d "$SHARED/lkp/tree/jobs" ] || exit 0
	mkdir -p c/tree c/split-jobs/coremark &&
	cp -R "$SHARED/lkp/tree/." c/tree/ && chmod -R u+w c &&
	find c/tree/jobs -name "*.yaml" ! -name coremark.yaml -exec rm {} + &&
	cp "$SHARED/lkp/split-jobs/coremark/"*.yaml c/split-jobs/coremark/ &&
	PERFBOT="$PERFBOT" sh "$TEST_DIR/../conformance-split.sh" "$PWD/c" >out &&
	grep -q "^identical 1/1$" out &&
	f=$(ls c/split-jobs/coremark/*.yaml | head -n 1) &&
	chmod u+w "$f" && echo "extra: 1" >>"$f" &&
	PERFBOT="$PERFBOT" sh "$TEST_DIR/../conformance-split.sh" "$PWD/c" >out &&
	grep -q "^DIFF coremark" out &&
	grep -q "^identical 0/1$" out
'

test_expect_success 'nr_threads 100% stays 100% in the atom name, as lkp names it' '
	test_have_conformance || exit 0
	[ -d "$SHARED/lkp/tree/jobs" ] || exit 0
	LKP_SRC="$SHARED/lkp/tree" perfbot split-job -t vm-snb -o out/ \
		"$SHARED/lkp/tree/jobs/hackbench/hackbench.yaml" >stdout &&
	grep -q "100%" stdout &&
	! grep -q "//" stdout &&
	ls out | grep -q "100%"
'

test_done
