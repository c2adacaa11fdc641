#!/bin/sh
# perfbot <command> --help: every option a command takes is in its help
. ./lib.sh

SRC=$(cd ../../src && pwd)

test_expect_success 'each long option of each command is in its --help' '
	for f in "$SRC"/cmd/*.c; do
		c=$(basename "$f" .c)
		perfbot "$c" --help >help || { echo "$c --help failed"; exit 1; }
		head -n 1 help | grep -q "^usage: perfbot $c" || { echo "$c: no usage line"; exit 1; }
		for o in $(grep -o "{ \"[a-z][a-z-]*\", *[a-z]*_argument" "$f" | sed "s/{ \"\([^\"]*\)\".*/\1/"); do
			grep -q -- "--$o\\b" help || { echo "$c --help lacks --$o"; exit 1; }
		done
	done
'

test_expect_success 'report --help is the full option list, not a bare usage' '
	perfbot report --help >help &&
	for o in --bisect --format --output --legacy --plotter --tag --more --rule; do
		grep -q -- "^ *\(-[a-z], \)\?$o" help || { echo "no $o"; exit 1; }
	done &&
	perfbot help report >help2 && test_cmp help help2
'

test_done
