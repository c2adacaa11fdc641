#!/bin/sh
# perfbot compare --metric: one metric across jobs, seed 000's second table
. ./lib.sh

M=perf-profile.cpu-cycles._raw_spin_lock.grab_super_passive.super_cache_count.shrink_slab.do_try_to_free_pages
A=1d3d4437eae1bb2
B=9b17c62382dd2e7507984b989

# root JOB COMMIT V1 V2 [incomplete-flags]: a result root holding M's runs
root() {
	d=$TRASH/result/brickland2/debug2/vm-scalability/$1/$2
	mkdir -p "$d"
	if [ -n "${5:-}" ]; then
		printf '{ "%s": [%s, %s], "last_state.is_incomplete_run": [%s] }\n' "$M" "$3" "$4" "$5" >"$d/matrix.json"
	else
		printf '{ "%s": [%s, %s], "other.metric": [1, 1] }\n' "$M" "$3" "$4" >"$d/matrix.json"
	fi
	echo "$d"
}
# means and spreads chosen to print seed 000's lines
R1=$(root 300s-btrfs-lru-file-readtwice $A 10.897 13.397)
R2=$(root 300s-btrfs-lru-file-readtwice $B 36.8 38.46)
R3=$(root 300s-ext4-lru-file-readtwice $A 10.78 14.98)
R4=$(root 300s-ext4-lru-file-readtwice $B 37.27 37.27)
R5=$(root 300s-xfs-lru-file-readtwice $A 13.844 16.644)
R6=$(root 300s-xfs-lru-file-readtwice $B 37.0 38.0)

test_expect_success 'seed 000: a row per job, a column per commit, TOTAL' '
	perfbot compare --metric $M $R1 $R2 $R3 $R4 $R5 $R6 >out &&
	cat >expect <<-EOF &&
	1d3d4437eae1bb2  9b17c62382dd2e7507984b989  
	---------------  -------------------------  
	     12.15 ~10%    +209.8%      37.63 ~ 2%  brickland2/debug2/vm-scalability/300s-btrfs-lru-file-readtwice
	     12.88 ~16%    +189.4%      37.27 ~ 0%  brickland2/debug2/vm-scalability/300s-ext4-lru-file-readtwice
	     15.24 ~ 9%    +146.0%      37.50 ~ 1%  brickland2/debug2/vm-scalability/300s-xfs-lru-file-readtwice
	     40.27         +179.1%     112.40       TOTAL $M
	EOF
	test_cmp expect out
'

test_expect_success 'roots in any order: commits and jobs in order of first appearance' '
	perfbot compare --metric $M $R6 $R3 $R5 $R4 $R1 $R2 >out &&
	head -n 1 out | grep -q "^9b17c62382dd2e7            1d3d4437eae1bb2  $" &&
	sed -n 3p out | grep -q "^     37.50 ~ 1%     -59.3%      15.24 ~ 9%  .*/300s-xfs-lru-file-readtwice$" &&
	sed -n 4p out | grep -q "/300s-ext4-lru-file-readtwice$" &&
	sed -n 5p out | grep -q "/300s-btrfs-lru-file-readtwice$"
'

test_expect_success 'matrix.json files name their roots too' '
	perfbot compare --metric $M $R1/matrix.json $R2/matrix.json >out &&
	sed -n 4p out | grep -q "^     12.15         +209.8%      37.63       TOTAL $M$"
'

test_expect_success 'a job without a result at one commit: blanks, and not in TOTAL' '
	perfbot compare --metric $M $R1 $R2 $R3 $R4 $R5 >out &&
	sed -n 5p out | grep -q "^     15.24 ~ 9%                             brickland2/debug2/vm-scalability/300s-xfs-lru-file-readtwice$" &&
	sed -n 6p out | grep -q "^     25.03         +199.3%      74.90       TOTAL $M$" &&
	sed -n 7p out | grep -q "^(1 of 3 jobs lack a result at some commit: blank there, and not in TOTAL)$"
'

test_expect_success 'incomplete runs are left out' '
	I1=$(root incomplete $A 10 1000 "0, 1") &&
	I2=$(root incomplete $B 20 22 "0, 0") &&
	perfbot compare --metric $M $I1 $I2 >out &&
	sed -n 3p out | grep -q "^     10.00 ~ 0%    +110.0%      21.00 ~ 4%  brickland2/debug2/vm-scalability/incomplete$"
'

test_expect_success 'roots outside a result/ tree are labelled by their directory' '
	mkdir -p a/$A a/$B &&
	cp $R1/matrix.json a/$A/ && cp $R2/matrix.json a/$B/ &&
	perfbot compare --metric $M a/$A a/$B >out &&
	sed -n 3p out | grep -q "  $PWD/a$"
'

test_expect_success 'errors: no such metric, one commit, a job twice, other outputs' '
	test_must_fail 1 perfbot compare --metric no.such $R1 $R2 2>err &&
	grep -q "^perfbot: compare --metric: no.such is in none of the result roots$" err &&
	test_must_fail 1 perfbot compare --metric $M $R1 $R3 2>err &&
	grep -q "^perfbot: compare --metric: all result roots are of commit $A; give the same jobs at two commits or more$" err &&
	test_must_fail 1 perfbot compare --metric $M $R1 $R2 $R1 2>err &&
	grep -q "^perfbot: compare --metric: $R1 and $R1 are the same job at the same commit$" err &&
	for o in --json --csv --all --pvalue "--axis fs" --fail-on-regression; do
		test_must_fail 2 perfbot compare --metric $M $o $R1 $R2 2>err &&
		grep -q "^perfbot: --metric prints its own table" err || return 1
	done
'

test_done
