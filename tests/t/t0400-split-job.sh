#!/bin/sh
# t0400: `perfbot split-job` end to end: lkp's fixtures, the matrix with
# include defaults, overrides, re-splitting an atomic job, and the exit
# codes and messages of its errors.
. ./lib.sh

J=$DATA/jobs

test_expect_success 'lkp fixtures 1, 2, 3: same files, names and lines as lkp' '
	test_have_conformance || exit 0
	F=$SHARED/lkp/split-job &&
	mkdir -p spec/fixtures/split-job lkp/include out &&
	cp "$F"/*.yaml spec/fixtures/split-job/ &&
	cp -r "$F"/programs lkp/ && chmod -R u+w lkp &&
	cp "$F"/programs/split-job/include lkp/include/split-job &&
	cp -r "$J"/lkp-extra/programs lkp/ &&
	for n in 1 2 3; do
		perfbot split-job -t lkp-tbox --lkp-src "$PWD/lkp" -o out \
			spec/fixtures/split-job/$n.yaml >>stdout || exit 1
	done &&
	cat >expect <<-EOF &&
	spec/fixtures/split-job/1.yaml => out/1-test_1.yaml
	spec/fixtures/split-job/1.yaml => out/1-test_2.yaml
	spec/fixtures/split-job/1.yaml => out/1-test_3.yaml
	spec/fixtures/split-job/2.yaml => out/2-group_1-test_1.yaml
	spec/fixtures/split-job/2.yaml => out/2-group_1-test_2.yaml
	spec/fixtures/split-job/2.yaml => out/2-group_2-test_1.yaml
	spec/fixtures/split-job/2.yaml => out/2-group_2-test_2.yaml
	spec/fixtures/split-job/3.yaml => out/3-ext4.yaml
	spec/fixtures/split-job/3.yaml => out/3-xfs.yaml
	spec/fixtures/split-job/3.yaml => out/3-nfsv3.yaml
	EOF
	test_cmp expect stdout &&
	# lkp at the snapshot commit (bbbc29c) no longer makes the others as
	# its spec fixtures say: its job pass reads the include, where
	# job['split-job']['test'] is nil, so each atom gets the else branch
	test_cmp "$F/1-test_3.yaml" out/1-test_3.yaml &&
	for f in out/*.yaml; do grep -q "^- CONFIG_TEST_ELSE$" "$f" || exit 1; done
'

test_expect_success 'lkp fixture compatible.yaml with --compatible' '
	test_have_conformance || exit 0
	F=$SHARED/lkp/split-job &&
	mkdir -p lkp/include out &&
	cp -r "$F"/programs lkp/ && chmod -R u+w lkp &&
	cp "$F"/programs/split-job/include lkp/include/split-job &&
	cp "$F"/compatible.yaml . &&
	perfbot split-job --compatible --lkp-src "$PWD/lkp" -o out compatible.yaml >stdout &&
	echo "compatible.yaml => out/compatible-test_1.yaml" >expect &&
	test_cmp expect stdout &&
	grep -v -e testbox: -e tbox_group: out/compatible-test_1.yaml >actual &&
	test_cmp "$F"/compatible-test_1.yaml actual
'

test_expect_success 'the matrix: 2 fs x 2 tests, with include defaults' '
	cp "$J"/demo.yaml . &&
	perfbot split-job -t box-2 --lkp-src "$J/lkp" demo.yaml >stdout &&
	cat >expect <<-EOF &&
	demo.yaml => ./demo-ext4-size=1G-fast.yaml
	demo.yaml => ./demo-ext4-size=1G-slow.yaml
	demo.yaml => ./demo-xfs-size=1G-fast.yaml
	demo.yaml => ./demo-xfs-size=1G-slow.yaml
	EOF
	test_cmp expect stdout &&
	grep -q "^need_kconfig: EXT4_FS$" demo-ext4-size=1G-slow.yaml &&
	grep -q "^demo_mode: thorough$" demo-ext4-size=1G-slow.yaml &&
	grep -q "^tbox_group: box$" demo-xfs-size=1G-fast.yaml &&
	grep -q "^#! include/category/benchmark$" demo-xfs-size=1G-fast.yaml &&
	grep -q "^proc-vmstat:$" demo-xfs-size=1G-fast.yaml
'

test_expect_success 'an atomic job splits into itself' '
	cp "$J"/demo.yaml . &&
	mkdir o1 o2 &&
	perfbot split-job -t box-2 --lkp-src "$J/lkp" -o o1 demo.yaml >/dev/null &&
	perfbot split-job -t box-2 --lkp-src "$J/lkp" -o o2 o1/demo-xfs-size=1G-fast.yaml >stdout &&
	echo "o1/demo-xfs-size=1G-fast.yaml => o2/demo-xfs-size=1G-fast-xfs-size=1G-fast.yaml" >expect &&
	test_cmp expect stdout &&
	# as lkp: the job pass reads include/fs/xfs again (an accumulative
	# need_* key gathers its value), and the atom pass, finding xfs read,
	# falls back to OTHERS (one more XFS_FS, an empty section)
	sed "s/^need_kconfig: XFS_FS$/need_kconfig:\n- XFS_FS\n- XFS_FS\n- XFS_FS/" \
		o1/demo-xfs-size=1G-fast.yaml >expect.yaml &&
	printf "\n#! include/fs/OTHERS\n" >>expect.yaml &&
	test_cmp expect.yaml o2/demo-xfs-size=1G-fast-xfs-size=1G-fast.yaml
'

test_expect_success 'documents and overrides: -s and KEY=VALUE' '
	cp "$J"/multi.yaml . &&
	# lkp replaces a whole top-level key; "a.b: v" sets one option
	perfbot split-job -t box -s "hackbench: {mode: threads}" multi.yaml runtime=9s >stdout &&
	cat >expect <<-EOF &&
	multi.yaml => ./multi-threads-9s.yaml
	multi.yaml => ./multi-threads-9s.yaml
	multi.yaml => ./multi-threads-9s.yaml
	EOF
	test_cmp expect stdout &&
	perfbot split-job -t box -s "hackbench.mode: threads" multi.yaml runtime=9s >stdout &&
	cat >expect <<-EOF &&
	multi.yaml => ./multi-threads-9s.yaml
	multi.yaml => ./multi-pipe-threads-9s.yaml
	multi.yaml => ./multi-socket-threads-9s.yaml
	multi.yaml => ./multi-threads-9s.yaml
	EOF
	test_cmp expect stdout &&
	grep -q "^#! user overrides$" multi-pipe-threads-9s.yaml
'

test_expect_success 'an unknown key: kept, with one warning at file:line:col; run refuses it before any setup' '
	mkdir out &&
	(unset LKP_SRC; perfbot split-job -o out "$J"/bad-key.yaml >stdout 2>err) &&
	grep -qx "perfbot: warning: $J/bad-key.yaml:3:1: unknown key .hackbnech. kept as a program (not a benchmark, monitor or lkp program perfbot knows)" err &&
	test $(wc -l <err) = 1 &&
	f=$(sed -n "s|.* => ||p" stdout) && test -f "$f" &&
	grep -q "^hackbnech:$" "$f" && grep -q "^  mode: process$" "$f" &&
	test_must_fail 1 perfbot run -r res "$f" 2>err &&
	grep -q "^perfbot: $f:[0-9]*:[0-9]*: no runner for benchmark .hackbnech. (" err &&
	test $(grep -vc "^perfbot: warning: " err) = 1 && ! test -e res &&
	printf "testcase: hackbench\nhackbench:\nnr_thread: 2\nsize: 1G\n" >typo.yaml &&
	(unset LKP_SRC; perfbot split-job -o out typo.yaml >/dev/null 2>err) &&
	grep -q "^perfbot: warning: typo.yaml:3:1: unknown key .nr_thread. kept as a parameter (not a job key, monitor or benchmark perfbot knows)$" err &&
	test $(wc -l <err) = 1
'

test_expect_success 'YAML syntax error and missing include: exit 1 with a position' '
	printf "suite: x\nruntime: [a\n" >syn.yaml &&
	test_must_fail 1 perfbot split-job syn.yaml 2>err &&
	grep -q "^perfbot: syn.yaml:[0-9]*:[0-9]*: invalid YAML" err &&
	printf "suite: x\n<<: gone.yaml\n" >inc.yaml &&
	test_must_fail 1 perfbot split-job inc.yaml 2>err &&
	grep -q "inc.yaml:2:1: included file .gone.yaml. not found" err
'

test_expect_success 'bad command lines: exit 2 with usage; -o DIR is created' '
	test_must_fail 2 perfbot split-job 2>err &&
	grep -q "^usage: perfbot split-job" err &&
	test_must_fail 2 perfbot split-job --bogus x.yaml 2>err &&
	grep -q "^usage: perfbot split-job" err &&
	cp "$J"/multi.yaml . &&
	perfbot split-job -t box -o new/dir/ multi.yaml >stdout &&
	grep -q "^multi.yaml => new/dir/multi-process-300s.yaml$" stdout &&
	test -f new/dir/multi-process-300s.yaml &&
	! grep -q "//" stdout &&
	: >file &&
	test_must_fail 1 perfbot split-job -o file/sub multi.yaml 2>err &&
	grep -q "^perfbot: .*file/sub" err
'

test_expect_success '-c is the kconfig and -k the commit, as in lkp; long names say which' '
	printf "testcase: mytest\nruntime: 1s\n" >kc.yaml &&
	mkdir kc1 kc2 kc3 &&
	perfbot split-job -o kc1 -c cfg1 -k abc kc.yaml >/dev/null &&
	perfbot split-job -o kc2 --kconfig cfg1 --commit abc kc.yaml >/dev/null &&
	perfbot split-job -o kc3 --config cfg1 --kernel abc kc.yaml >/dev/null &&
	for d in kc1 kc2 kc3; do
		grep -q "^kconfig: cfg1$" $d/*.yaml && grep -q "^commit: abc$" $d/*.yaml || exit 1
	done &&
	perfbot split-job --help >help &&
	grep -q "^  -c, --kconfig KCONFIG .*not$" help &&
	perfbot run --help >help &&
	grep -A1 "^  -c, --commit ID " help | grep -q "split-job.s -c is the kconfig"
'

test_done
