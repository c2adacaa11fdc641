#!/bin/sh
# t0410: every job of the lkp-tests snapshot (conformance tree/jobs) split
# with its catalog (LKP_SRC) as lkp's own split-job splits it
# (conformance split-jobs/), through tests/conformance-split.sh.  The
# counts of identical jobs may rise, never fall below the pinned ones.
#
# Two figures: with the snapshot as LKP_SRC, and with a full lkp-tests
# tree at the snapshot's commit (LKP_FULL_SRC; skipped when unset).  The
# snapshot lacks most programs/*/include files, and lkp's own split-job
# given the snapshot does not produce split-jobs/ for the jobs that read
# one either (2 of those 110 at the commit pinned below), so those jobs
# count against the full tree only; the script names what each needed.
. ./lib.sh

# jobs whose atoms (names and normalized YAML) equal lkp's, of 220
PINNED=112
PINNED_FULL=220

test_expect_success "lkp's jobs split as lkp splits them (at least $PINNED with the snapshot, $PINNED_FULL with a full tree)" '
	test_have_conformance || exit 0
	[ -d "$SHARED/lkp/tree/jobs" ] || { echo "# skipped: no lkp tree"; exit 0; }
	PERFBOT="$PERFBOT" sh "$TEST_DIR/../conformance-split.sh" "$SHARED/lkp" >report &&
	tail -n 2 report &&
	n=$(sed -n "s|^identical with the snapshot: \([0-9]*\)/[0-9]*$|\1|p" report) &&
	test -n "$n" &&
	if [ "$n" -lt $PINNED ]; then
		grep -v "^ok " report | head -n 40
		echo "identical with the snapshot $n, below the pinned $PINNED"
		exit 1
	fi &&
	if [ -z "${LKP_FULL_SRC:-}" ]; then
		grep -q "^identical with the full tree: skipped (set LKP_FULL_SRC" report &&
		echo "# full tree skipped: set LKP_FULL_SRC to an lkp-tests tree at $(cut -d" " -f3 "$SHARED/lkp/tree/ORIGIN" | cut -c1-7)"
		exit
	fi &&
	m=$(sed -n "s|^identical with the full tree: \([0-9]*\)/[0-9]*$|\1|p" report) &&
	test -n "$m" &&
	if [ "$m" -lt $PINNED_FULL ]; then
		grep -v "^ok" report | head -n 40
		echo "identical with the full tree $m, below the pinned $PINNED_FULL"
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
	grep -q "^identical with the snapshot: 1/1$" out &&
	f=$(ls c/split-jobs/coremark/*.yaml | head -n 1) &&
	chmod u+w "$f" && echo "extra: 1" >>"$f" &&
	PERFBOT="$PERFBOT" sh "$TEST_DIR/../conformance-split.sh" "$PWD/c" >out &&
	grep -q "^DIFF coremark" out &&
	grep -q "^identical with the snapshot: 0/1$" out
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


# own_section FILE: the atom's first section (the job file's own keys, up
# to the first "#! " file lkp or perfbot added) without comment lines,
# blank lines and job_origin, as tests/conformance-split.sh compares
own_section() {
	awk '/^#! /{ n++; next } n == 1 && !/^[[:space:]]*#/ && !/^[[:space:]]*$/ && !/^job_origin:/' "$1"
}

# jobs perfbot refused without a catalog (unknown key 'size', 'concurrency',
# 'ENV_VAR', 'md'; fs and disk with options; duplicate keys over an
# included base), which lkp splits
REFUSED="vm-scalability/vm-scalability apachebench debug aim7-fs-raid
fio-basic/fio-basic-local-disk xfstests/xfstests-generic-dax fsmark/fsmark-1brd
hackbench/hackbench-cpuset"

test_expect_success "without LKP_SRC, lkp's jobs that were refused split with lkp's names and keys" '
	test_have_conformance || exit 0
	[ -d "$SHARED/lkp/tree/jobs" ] || { echo "# skipped: no lkp tree"; exit 0; }
	for job in $REFUSED; do
		exp=$SHARED/lkp/split-jobs/$job
		rm -rf out && mkdir out &&
		(unset LKP_SRC; perfbot split-job -t vm-snb -o out \
			"$SHARED/lkp/tree/jobs/$job.yaml" >/dev/null 2>err) &&
		(cd "$exp" && ls *.yaml) >want && (cd out && ls *.yaml) >got &&
		test_cmp want got &&
		for f in $(cat want); do
			own_section "$exp/$f" >a && own_section "out/$f" >b &&
			test -s a && test_cmp a b || { echo "differs: $job $f"; exit 1; }
		done || exit 1
		# lkp parameters and programs: no warning, but debug.yaml
		# sets a parameter and a program no lkp program declares
		if [ "$job" = debug ]; then
			grep -q "debug.yaml:3:1: unknown key .ENV_VAR. kept as a parameter" err &&
			grep -q "debug.yaml:4:1: unknown key .a. kept as a program" err &&
			test $(wc -l <err) = 2 || exit 1
		else
			test ! -s err || { cat err; echo "warned: $job"; exit 1; }
		fi
	done
'

test_done
