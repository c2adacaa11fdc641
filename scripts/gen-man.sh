#!/bin/sh
# gen-man.sh PERFBOT OUTDIR: perfbot(1) and one page per command,
# perfbot-<command>(1), made from the help text the binary prints
# (src/cmd/commands.h): the pages cannot drift from --help.
set -eu
perfbot=$1 out=$2
mkdir -p "$out"
version=$("$perfbot" --version | sed 's/^perfbot version //')

# roff-safe text: backslashes as \e, a leading . or ' behind \&
roff() { sed -e 's/\\/\\e/g' -e "s/^[.']/\\\\\\&&/"; }

"$perfbot" help | sed -n 's/^   \([a-z][a-z-]*\)  *\(.*\)$/\1 \2/p' >"$out/.commands"

{
	printf '.TH PERFBOT 1 "" "perfbot %s" "perfbot manual"\n' "$version"
	printf '.SH NAME\nperfbot \\- a performance regression robot\n'
	printf '.SH SYNOPSIS\n.B perfbot\n.I command\n[options]\n'
	printf '.SH DESCRIPTION\n'
	printf "perfbot runs a benchmark on each commit of a git tree while sampling\n"
	printf "the whole system, compares commits in lkp-tests' table (mean,\n"
	printf "%%stddev, %%change), finds where a metric changed along a branch,\n"
	printf "bisects, and writes reports.  Each command has its page.\n"
	printf '.SH COMMANDS\n'
	while read -r c summary; do
		printf '.TP\n.BR perfbot\\-%s (1)\n' "$c"
		printf '%s\n' "$summary" | roff
	done <"$out/.commands"
	printf '.SH SEE ALSO\n'
	sep=
	while read -r c summary; do
		printf '%s.BR perfbot\\-%s (1)' "$sep" "$c"
		sep=',
'
	done <"$out/.commands"
	printf '\n'
} >"$out/perfbot.1.tmp"
mv "$out/perfbot.1.tmp" "$out/perfbot.1"

while read -r c summary; do
	"$perfbot" help "$c" | sed 's/^usage: //' >"$out/.help"
	{
		printf '.TH PERFBOT\\-%s 1 "" "perfbot %s" "perfbot manual"\n' \
			"$(echo "$c" | tr a-z A-Z)" "$version"
		printf '.SH NAME\nperfbot\\-%s \\- ' "$c"
		printf '%s\n' "$summary" | roff
		# the usage lines up to the first blank one, then the rest as
		# written (its columns line up: no filling)
		printf '.SH SYNOPSIS\n.nf\n'
		sed '/^$/q' "$out/.help" | sed '/^$/d' | roff
		printf '.fi\n.SH DESCRIPTION\n.nf\n'
		sed '1,/^$/d' "$out/.help" | roff
		printf '.fi\n.SH SEE ALSO\n.BR perfbot (1)\n'
	} >"$out/perfbot-$c.1.tmp"
	mv "$out/perfbot-$c.1.tmp" "$out/perfbot-$c.1"
done <"$out/.commands"
rm -f "$out/.commands" "$out/.help"
