#!/bin/sh
# gen-results.sh DIR NMETRICS [COMMITS] [RUNS]
# Deterministically generate an lkp-style result tree:
#   DIR/<commit>/<run>/stats.json
# with NMETRICS metrics named like real ones (proc-vmstat.*, meminfo.*,
# numa-vmstat.nodeN.*, interrupts.*, softirqs.*, perf-profile.calltrace.*,
# the benchmark's own), about 5% of which shift between the commits.
set -e
dir=$1 n=$2 commits=${3:-2} runs=${4:-5}
for c in $(seq 0 $((commits - 1))); do
	commit=$(printf 'c%039d' "$c")
	for r in $(seq 0 $((runs - 1))); do
		mkdir -p "$dir/$commit/$r"
		awk -v n="$n" -v c="$c" -v r="$r" 'BEGIN {
			srand(1000 * c + r + 1)
			split("proc-vmstat meminfo numa-vmstat numa-numastat interrupts softirqs perf-profile.calltrace.cycles-pp perf-profile.children.cycles-pp slabinfo diskstats vmstat", fam, " ")
			printf "{\n"
			printf "  \"vm-scalability.throughput\": %d,\n", (c ? 8400000 : 13200000) * (1 + (rand() - 0.5) * 0.02)
			for (i = 1; i < n; i++) {
				f = fam[(i % 11) + 1]
				if (f ~ /^numa/) name = sprintf("%s.node%d.stat_%d", f, i % 4, i)
				else if (f ~ /^perf-profile/) name = sprintf("%s.func_%d.caller_%d.entry_SYSCALL_64", f, i, i % 97)
				else name = sprintf("%s.metric_%d", f, i)
				base = (f ~ /^perf-profile/) ? (i % 50) / 3 + 0.1 : 1000 + (i * 7919) % 100000000
				shift = (c && i % 20 == 0) ? 1.3 : 1
				v = base * shift * (1 + (rand() - 0.5) * 0.04)
				if (f ~ /^perf-profile|meminfo/) printf "  \"%s\": %.2f", name, v
				else printf "  \"%s\": %d", name, v
				printf (i < n - 1) ? ",\n" : "\n"
			}
			printf "}\n"
		}' >"$dir/$commit/$r/stats.json"
	done
done
