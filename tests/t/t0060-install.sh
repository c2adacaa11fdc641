#!/bin/sh
# make install: the binary, perfbot(1) and a page per command made from
# Documentation/, bash completion; PREFIX and DESTDIR as packagers use them
. ./lib.sh

ROOT=$(cd ../.. && pwd)

test_expect_success 'make install DESTDIR PREFIX: binary, man pages, completion' '
	make -s -C "$ROOT" install DESTDIR="$(pwd)/d" PREFIX=/usr >log 2>&1 || { cat log; exit 1; } &&
	test -x d/usr/bin/perfbot &&
	test -f d/usr/share/man/man1/perfbot.1 &&
	test -f d/usr/share/bash-completion/completions/perfbot &&
	for c in $(perfbot help | sed -n "s/^   \([a-z][a-z-]*\) .*/\1/p"); do
		test -f d/usr/share/man/man1/perfbot-$c.1 || { echo "no page for $c"; exit 1; }
	done
'

test_expect_success 'man -l renders them: names, synopsis, every option' '
	test_have man groff || exit 0
	make -s -C "$ROOT" install DESTDIR="$(pwd)/d" PREFIX=/usr >log 2>&1 &&
	m=d/usr/share/man/man1 &&
	MANWIDTH=100 man -l $m/perfbot.1 >main.txt 2>err &&
	grep -q "^NAME" main.txt && grep -q "perfbot - a performance regression robot" main.txt &&
	grep -q "perfbot-bisect(1)" main.txt &&
	MANWIDTH=100 man -l $m/perfbot-run.1 >run.txt 2>err &&
	grep -q "perfbot-run - run a job.s benchmark with system monitors" run.txt &&
	grep -q "^SYNOPSIS" run.txt && grep -q "perfbot run JOB.yaml \[options\] \[-- COMMAND \[ARG...\]\]" run.txt &&
	grep -q -- "-r, --result-root DIR" run.txt &&
	for f in $m/*.1; do
		w=$(LC_ALL=C.UTF-8 groff -ww -man -Tutf8 -z "$f" 2>&1) &&
		test -z "$w" || { echo "$f: $w"; exit 1; }
	done
'

test_expect_success 'bash completion: commands, and options from each --help' '
	test_have bash || exit 0
	make -s -C "$ROOT" install DESTDIR="$(pwd)/d" PREFIX=/usr >log 2>&1 &&
	PATH=$(pwd)/d/usr/bin:$PATH bash -c "
		. d/usr/share/bash-completion/completions/perfbot
		COMP_WORDS=(perfbot ru); COMP_CWORD=1; _perfbot; echo \"1:\${COMPREPLY[*]}\"
		COMP_WORDS=(perfbot run j.yaml --result-r); COMP_CWORD=3; _perfbot; echo \"2:\${COMPREPLY[*]}\"
		COMP_WORDS=(perfbot compare --cs); COMP_CWORD=2; _perfbot; echo \"3:\${COMPREPLY[*]}\"
		COMP_WORDS=(perfbot run j.yaml -- --re); COMP_CWORD=4; _perfbot; echo \"4:\${COMPREPLY[*]}\"
		COMP_WORDS=(perfbot compare --rule \"\"); COMP_CWORD=3; _perfbot; echo \"5:\${COMPREPLY[*]}\"
		COMP_WORDS=(perfbot report --format h); COMP_CWORD=3; _perfbot; echo \"6:\${COMPREPLY[*]}\"
		COMP_WORDS=(perfbot history --format \"\"); COMP_CWORD=3; _perfbot; echo \"7:\${COMPREPLY[*]}\"
		COMP_WORDS=(perfbot report --rule l); COMP_CWORD=3; _perfbot; echo \"8:\${COMPREPLY[*]}\"
	" >out &&
	grep -qx "1:run" out &&
	grep -qx "2:--result-root" out &&
	grep -qx "3:--csv" out &&
	grep -qx "4:" out &&
	# an option value: the values --help lists, not the files here
	grep -qx "5:lkp stat" out &&
	grep -qx "6:html" out &&
	grep -qx "7:html text" out &&
	grep -qx "8:lkp" out
'

test_done
