#!/bin/sh
# gen-man.sh PERFBOT OUTDIR [DOCDIR]: the man pages, perfbot(1) and one
# perfbot-<command>(1) per command of `perfbot help` (src/cmd/commands.h),
# made from DOCDIR/perfbot.txt and DOCDIR/perfbot-<command>.txt (DOCDIR:
# Documentation/ beside this script).
# A command without its page, or a page without its command, is an error:
# the pages and the command table cannot drift apart.
#
# The pages are written in a small subset of AsciiDoc, readable as they
# are, which this script turns into roff with awk (no new dependency):
#
#   perfbot-run(1)          the title, underlined with '='
#   ==============
#   OPTIONS                 a section, underlined with '-' (.SH)
#   -------
#   -n, --runs N::          an option (or any term): one or more lines
#           text...         ending in '::', then its text up to a blank line
#                           (.TP; the options bold, their arguments italic)
#   ....                    a literal block, up to the next '....' (.nf)
#   `perfbot run`           bold; everything else is filled text
#
# In SYNOPSIS every line is kept as written.
set -eu
perfbot=$1 out=$2
doc=${3:-$(dirname "$0")/../Documentation}
mkdir -p "$out"
version=$("$perfbot" --version | sed 's/^perfbot version //')

awk_prog=$out/.txt2man.awk
cat >"$awk_prog" <<'EOF'
function esc(s) {
	gsub(/\\/, "\\e", s)
	return s
}
# `code` bold, its hyphens minus signs (options are typed as shown); a
# span may go on over the next line (incode carries it)
function inline(s,    out, i, part) {
	s = esc(s)
	out = ""
	while (1) {
		i = index(s, "`")
		part = i ? substr(s, 1, i - 1) : s
		if (incode)
			gsub(/-/, "\\-", part)
		out = out part
		if (!i)
			break
		out = out (incode ? "\\fR" : "\\fB")
		incode = !incode
		s = substr(s, i + 1)
	}
	return out
}
# a line of text: a leading . or apostrophe would be a request
function text(s) {
	sub(/^[ \t]+/, "", s)
	s = inline(s)
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}
# an option term, "--runs N": the option bold, its argument italic;
# a term with `code` in it is taken as written
function term(s,    n, w, i, out, x) {
	if (index(s, "`"))
		return inline(s)
	n = split(s, w, " ")
	out = ""
	for (i = 1; i <= n; i++) {
		x = esc(w[i])
		if (w[i] ~ /^-/) {
			gsub(/-/, "\\-", x)
			x = "\\fB" x "\\fR"
		} else
			x = "\\fI" x "\\fR"
		out = out (i > 1 ? " " : "") x
	}
	return out
}
{ line[NR] = $0 }
END {
	title = line[1]
	sub(/\(1\)$/, "", title)
	t = toupper(title)
	gsub(/-/, "\\-", t)
	printf ".TH %s 1 \"\" \"perfbot %s\" \"perfbot manual\"\n", t, version
	# paths and metric names must not be hyphenated
	print ".nh"
	i = (line[2] ~ /^=+$/) ? 3 : 2
	lit = 0; synopsis = 0; para = 0; terms = ""
	for (; i <= NR; i++) {
		l = line[i]
		if (lit) {
			if (l == "....") {
				print ".fi\n.RE"
				lit = 0
				para = 0
				continue
			}
			l = esc(l)
			if (l ~ /^[.']/)
				l = "\\&" l
			print l
			continue
		}
		if (l != "" && (i + 1) <= NR && line[i + 1] ~ /^-+$/ &&
		    length(line[i + 1]) == length(l)) {
			if (synopsis)
				print ".fi"
			print ".SH " l
			synopsis = (l == "SYNOPSIS")
			if (synopsis)
				print ".nf"
			i++
			para = 0
			continue
		}
		if (synopsis) {
			# kept as written, its indentation too
			if (l != "") {
				l = inline(l)
				if (l ~ /^[.']/)
					l = "\\&" l
				print l
			}
			continue
		}
		if (l == "....") {
			print ".PP\n.RS 4\n.nf"
			lit = 1
			continue
		}
		if (l == "") {
			para = 0
			incode = 0
			continue
		}
		if (l ~ /::$/) {
			s = substr(l, 1, length(l) - 2)
			if (terms == "")
				terms = term(s)
			else
				terms = terms ", " term(s)
			continue
		}
		if (terms != "") {
			print ".TP\n" terms
			terms = ""
			para = 1
		} else if (!para) {
			print ".PP"
			para = 1
		}
		print text(l)
	}
	if (synopsis)
		print ".fi"
	if (lit)
		print ".fi\n.RE"
}
EOF

"$perfbot" help | sed -n 's/^   \([a-z][a-z-]*\)  *.*$/\1/p' >"$out/.commands"
for page in "$doc"/perfbot-*.txt; do
	c=${page##*/perfbot-}
	c=${c%.txt}
	grep -qx "$c" "$out/.commands" ||
		{ echo "gen-man.sh: $page: no command '$c' in perfbot help" >&2; exit 1; }
done
for c in '' $(cat "$out/.commands"); do
	name=perfbot${c:+-$c}
	[ -f "$doc/$name.txt" ] ||
		{ echo "gen-man.sh: no $doc/$name.txt for perfbot $c" >&2; exit 1; }
	awk -v version="$version" -f "$awk_prog" "$doc/$name.txt" >"$out/$name.1.tmp"
	mv "$out/$name.1.tmp" "$out/$name.1"
done
rm -f "$out/.commands" "$awk_prog"
