#!/bin/sh
# perfbot unite: run dirs -> matrix.json, avg.json, stddev.json (lkp layout)
. ./lib.sh

mkrun() { # mkrun DIR JSON
	mkdir -p "$1" && printf '%s\n' "$2" >"$1/stats.json"
}

test_expect_success 'unite two runs writes lkp files' '
	mkrun rr/c/0 "{\"a.x\": 1, \"b.y\": 2.5}" &&
	mkrun rr/c/1 "{\"a.x\": 3, \"c.z\": 4}" &&
	perfbot unite rr/c/0 rr/c/1 &&
	test -f rr/c/matrix.json && test -f rr/c/avg.json && test -f rr/c/stddev.json &&
	here=$(pwd -P) &&
	cat >expect <<-EOF &&
	{
	  "a.x": [
	    1,
	    3
	  ],
	  "b.y": [
	    2.5,
	    0
	  ],
	  "c.z": [
	    0,
	    4
	  ],
	  "stats_source": [
	    "$here/rr/c/0/stats.json",
	    "$here/rr/c/1/stats.json"
	  ]
	}
	EOF
	test_cmp expect rr/c/matrix.json &&
	grep -q "\"a.x\": 2.0" rr/c/avg.json &&
	grep -q "\"a.x\": 1.0" rr/c/stddev.json
'

test_expect_success 're-uniting is idempotent' '
	mkrun rr/c/0 "{\"a.x\": 1}" && mkrun rr/c/1 "{\"a.x\": 2}" &&
	perfbot unite rr/c/0 rr/c/1 && cp rr/c/matrix.json first &&
	perfbot unite rr/c/1 rr/c/0 rr/c/1 &&
	test_cmp first rr/c/matrix.json
'

test_expect_success 'no temp files are left behind' '
	mkrun rr/c/0 "{\"a.x\": 1}" &&
	perfbot unite rr/c/0 &&
	test -z "$(ls -A rr/c | grep tmp)"
'

test_expect_success 'bad input: clear error, exit 1, matrix untouched' '
	mkrun rr/c/0 "{\"a.x\": 1}" && perfbot unite rr/c/0 && cp rr/c/matrix.json before &&
	mkrun rr/c/1 "{\"a.x\": [1," &&
	test_must_fail 1 perfbot unite rr/c/1 2>err &&
	grep -q "stats.json:[0-9]*:[0-9]*: unexpected end of file" err &&
	test_cmp before rr/c/matrix.json &&
	test_must_fail 1 perfbot unite rr/nonexistent 2>err &&
	grep -q "cannot unite" err
'

test_expect_success 'usage errors exit 2' '
	test_must_fail 2 perfbot unite &&
	test_must_fail 2 perfbot unite --bogus x
'

test_done
