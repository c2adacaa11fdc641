#!/bin/sh
# The man pages (Documentation/ through scripts/gen-man.sh, as `make man`):
# one per command of the command table, each listing exactly the options
# of its --help, and clean for man's own checks.
. ./lib.sh

TOP=$(cd ../.. && pwd)
GEN="$TOP/scripts/gen-man.sh"
MAN="$TRASH/man"

# help_options CMD: the options --help gives CMD, one a line: those of the
# usage lines (the first paragraph, and any line starting "perfbot ") and
# of the option list (a line whose first word starts with "-": the words
# before the description, or the whole line when no two spaces part them)
help_options() {
	perfbot help "$1" | sed "1s/^usage: //" | awk '
		/^$/ { head = 0 }
		NR == 1 { head = 1 }
		head || /^perfbot / { print; next }
		/^[ \t]+-/ { sub(/^[ \t]+/, ""); sub(/  .*/, ""); print }
	' | tr " ,|[]()" "\n\n\n\n\n\n\n" | grep -E -- "^--?[A-Za-z][A-Za-z0-9-]*$" | sort -u
}

# all_help_words CMD: every option-like word of CMD's --help
all_help_words() {
	perfbot help "$1" | tr " ,|[]()=:;\"" "\n\n\n\n\n\n\n\n\n\n" |
		grep -E -- "^--?[A-Za-z][A-Za-z0-9-]*$" | sort -u
}

# man_options PAGE: the options of a man page, the terms of its OPTIONS
man_options() {
	awk '
		/^\.SH / { opts = ($2 == "OPTIONS") }
		opts && prev == ".TP" { print }
		{ prev = $0 }
	' "$1" | sed -e "s/\\\\f[BIR]//g" -e "s/\\\\-/-/g" | tr " ," "\n\n" |
		grep -E -- "^--?[A-Za-z][A-Za-z0-9-]*$" | sort -u
}

commands() {
	perfbot help | sed -n "s/^   \([a-z][a-z-]*\)  *.*$/\1/p"
}

test_expect_success 'gen-man.sh writes perfbot(1) and a page per command' '
	sh "$GEN" "$PERFBOT" "$MAN" &&
	test -s "$MAN/perfbot.1" &&
	sed -e "s/\\\\f[BIR]//g" -e "s/\\\\-/-/g" "$MAN/perfbot.1" >plain &&
	n=0 &&
	for c in $(commands); do
		test -s "$MAN/perfbot-$c.1" || { echo "no page for $c"; exit 1; }
		grep -qx "perfbot $c" plain ||
			{ echo "perfbot(1) does not list $c"; exit 1; }
		n=$((n + 1))
	done &&
	test "$n" -ge 15 &&
	test "$(ls "$MAN" | wc -l)" -eq $((n + 1)) &&
	# every `code` span closed, the ones over two lines too
	! grep -n "\`" "$MAN"/*.1 &&
	grep -q "\\\\fBperfbot help COMMAND\\\\fR or \\\\fBperfbot\$" "$MAN/perfbot.1"
'

# check_pages MANDIR: a line per option that --help and the page do not
# share; the number of --help options seen in $nr_options
check_pages() {
	nr_options=0
	for c in $(commands); do
		help_options "$c" >help.opts
		man_options "$1/perfbot-$c.1" >man.opts
		all_help_words "$c" >help.words
		nr_options=$((nr_options + $(wc -l <help.opts)))
		for o in $(comm -23 help.opts man.opts); do
			echo "perfbot-$c(1) lacks $o of its --help"
		done
		for o in $(comm -23 man.opts help.words); do
			echo "perfbot-$c(1) has $o, which its --help does not know"
		done
	done
}

test_expect_success 'every option of each --help is in its man page, and back' '
	sh "$GEN" "$PERFBOT" "$MAN" &&
	check_pages "$MAN" >problems &&
	cat problems &&
	test ! -s problems &&
	test "$nr_options" -ge 150
'

test_expect_success 'the check sees an option missing from a page, or one too many' '
	cp -R "$TOP/Documentation" doc &&
	awk "!/^--max-total-runs N::\$/ { print } /^--reset::\$/ { print \"--frobnicate::\" }" \
		doc/perfbot-bisect.txt >b &&
	mv b doc/perfbot-bisect.txt &&
	grep -qx -- "--frobnicate::" doc/perfbot-bisect.txt &&
	sh "$GEN" "$PERFBOT" out doc &&
	check_pages out >problems &&
	cat problems &&
	test "$(wc -l <problems)" = 2 &&
	grep -qx "perfbot-bisect(1) lacks --max-total-runs of its --help" problems &&
	grep -qx "perfbot-bisect(1) has --frobnicate, which its --help does not know" problems
'

test_expect_success 'a command without its page, or a page without its command, fails' '
	cp -R "$TOP/Documentation" doc &&
	rm doc/perfbot-unite.txt &&
	! sh "$GEN" "$PERFBOT" out doc 2>err &&
	grep "no .*perfbot-unite.txt for perfbot unite" err &&
	cp -R "$TOP/Documentation" doc2 &&
	cp doc2/perfbot-run.txt doc2/perfbot-nosuch.txt &&
	! sh "$GEN" "$PERFBOT" out2 doc2 2>err &&
	grep "no command .nosuch." err
'

test_expect_success 'roff: a leading dot and backslashes are escaped' '
	cp -R "$TOP/Documentation" doc &&
	printf "\n.SH INJECTED\nC:\\\\dir and \`-x\`\n" >>doc/perfbot-parse.txt &&
	sh "$GEN" "$PERFBOT" out doc &&
	grep -q "^\\\\&\\.SH INJECTED" out/perfbot-parse.1 &&
	grep -q "C:\\\\edir and \\\\fB\\\\-x\\\\fR" out/perfbot-parse.1
'

test_expect_success 'man --warnings is silent on every page' '
	test_have man || exit 0
	sh "$GEN" "$PERFBOT" "$MAN" &&
	for p in "$MAN"/*.1; do
		MANWIDTH=80 man --warnings -l "$p" >out 2>err ||
			{ echo "$p: man failed"; cat err; exit 1; }
		test -s out || { echo "$p: empty"; exit 1; }
		test ! -s err || { echo "$p:"; cat err; exit 1; }
	done
'

test_done
