#!/bin/sh
# layers.sh: the include graph between the directories of src/, checked
# against their layer order (make check-layers, run by make check).
#
# Usage: scripts/layers.sh [-q] [SRCDIR]
#
# Prints each edge "from -> to  N" (N: the #include lines of from's files
# naming a header of to), then fails (exit 1) naming what is wrong:
#   - a cycle, as "cycle: a -> b -> a";
#   - a directory that includes one of its own layer or of a layer above
#     it, with the files and headers that make the edge;
#   - a directory in no layer (place it in LAYERS below).
# -q prints the problems only.  SRCDIR (default: the src/ beside this
# script) is what is read; the tests point it at made-up trees.
#
# The layers, top first: a directory may include only those of the layers
# below its own, never one of its own layer (peers stay independent) nor
# one above.  Files directly in src/ (perfbot.c, main) may include anything.
#
#   cmd            the commands: options in, exit codes out
#   watch          follow a branch: detect, then bisect each range (range.c)
#   bisect detect  find the commit / find the change in a history
#   lab report     the PostgreSQL job queue and its worker / reports
#   kernel         build a kernel, run a job in QEMU
#   run store      run a job on this machine / the result store
#   monitor runner what samples the system / how a benchmark is started
#   job result     the job description / a run's matrices, what changed
#   stats parse    numbers and stat-name tables / raw output into stats
#   pg git         the PostgreSQL connection / git, worktrees
#   util           strbuf, files, JSON, processes, errors
#
# This is the order of issue 39 (cmd > watch > bisect/detect > run >
# monitor/parse/runner > job/result/stats > store > util) with these
# changes, each forced by what the code does:
#   - store sits above job, result and stats, not below: it ingests
#     results, indexes them by job axes and keeps summaries; it is a peer
#     of run, which hands results to its callers and never includes it;
#   - stats sits below result: result's matrices use its summaries, and
#     what changed between two matrices (result/change.h) uses its tests;
#   - parse sits at the bottom with stats: a parser needs only util, and
#     monitors, runs, the VM and the job layer (which asks whether a key
#     names a parser) all read through it;
#   - kernel sits between bisect/detect/report and run: it runs jobs (run,
#     runner, monitor) in a VM, and reports name its VM options;
#   - lab and report sit below bisect (which queues lab jobs and writes
#     reports) and above kernel, run and store;
#   - pg and git, the one PostgreSQL and the one git layer, sit on util.
LAYERS='cmd
watch
bisect detect
lab report
kernel
run store
monitor runner
job result
stats parse
pg git
util'

quiet=0
if [ "${1-}" = -q ]; then
	quiet=1
	shift
fi
src=${1:-$(dirname "$0")/../src}
if [ ! -d "$src" ]; then
	echo "layers.sh: no directory $src" >&2
	exit 2
fi

# "from to file header" for every #include "dir/..." naming another
# directory of src/ (a header of one's own directory is no edge)
dirs=$(cd "$src" && for d in */; do [ -d "$d" ] && echo "${d%/}"; done)
edges=$(cd "$src" && find . -mindepth 2 -name '*.[ch]' | LC_ALL=C sort |
	xargs awk -v dirs="$dirs" '
	BEGIN { n = split(dirs, d, "\n"); for (i = 1; i <= n; i++) isdir[d[i]] = 1 }
	/^[ \t]*#[ \t]*include[ \t]*"[^"\/]+\/[^"]*"/ {
		h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
		to = h; sub(/\/.*/, "", to)
		f = FILENAME; sub(/^\.\//, "", f)
		from = f; sub(/\/.*/, "", from)
		if (to != from && (to in isdir))
			print from, to, f, h
	}') || exit 2

printf '%s\n' "$edges" | LC_ALL=C awk -v quiet="$quiet" -v layers="$LAYERS" \
	-v dirs="$dirs" '
function die_msg(m) { print "layers.sh: " m; bad = 1 }
# depth-first search; a grey node met again closes a cycle
function visit(n,    i, k, m, path) {
	colour[n] = 1
	stack[++depth] = n
	for (i = 1; i <= nsucc[n]; i++) {
		m = succ[n, i]
		if (colour[m] == 1) {
			path = ""
			for (k = depth; stack[k] != m; k--)
				path = " -> " stack[k] path
			die_msg("cycle: " m path " -> " m)
		} else if (!colour[m])
			visit(m)
	}
	depth--
	colour[n] = 2
}
BEGIN {
	nl = split(layers, line, "\n")
	for (i = 1; i <= nl; i++) {
		nw = split(line[i], w, " ")
		for (j = 1; j <= nw; j++)
			rank[w[j]] = i
	}
	nd = split(dirs, d, "\n")
	for (i = 1; i <= nd; i++)
		if (d[i] != "" && !(d[i] in rank))
			die_msg("src/" d[i] "/ is in no layer: place it in LAYERS of scripts/layers.sh")
}
NF == 4 {
	e = $1 " -> " $2
	if (!(e in count))
		order[++ne] = e
	count[e]++
	if (!((e, $3, $4) in seen)) {
		seen[e, $3, $4] = 1
		where[e] = where[e] "\n    src/" $3 " includes " $4
	}
}
END {
	# print by the from layer, then the to layer
	for (i = 1; i <= ne; i++) {
		split(order[i], ft, " -> ")
		key[i] = sprintf("%03d %-12s %03d %-12s\t%s", rank[ft[1]], ft[1],
				 rank[ft[2]], ft[2], order[i])
	}
	for (i = 2; i <= ne; i++)
		for (j = i; j > 1 && key[j - 1] > key[j]; j--) {
			t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
		}
	if (!quiet)
		print "include edges between src/ directories (#include lines):"
	for (i = 1; i <= ne; i++) {
		e = substr(key[i], index(key[i], "\t") + 1)
		split(e, ft, " -> ")
		f = ft[1]; t = ft[2]
		if (!quiet)
			printf "  %-8s -> %-8s %4d\n", f, t, count[e]
		succ[f, ++nsucc[f]] = t
		node[f] = node[t] = 1
		if ((f in rank) && (t in rank) && rank[t] <= rank[f])
			up[++nup] = e
	}
	# visit in layer order so that a cycle is named the same each time
	for (i = 1; i <= ne; i++) {
		split(substr(key[i], index(key[i], "\t") + 1), ft, " -> ")
		if (!colour[ft[1]])
			visit(ft[1])
	}
	for (i = 1; i <= nup; i++) {
		split(up[i], ft, " -> ")
		die_msg(ft[1] " includes " ft[2] ", " \
			(rank[ft[2]] == rank[ft[1]] ? "a peer of its layer" : "a layer above it") \
			":" where[up[i]])
	}
	exit bad
}'
