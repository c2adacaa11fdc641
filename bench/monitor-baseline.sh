#!/bin/sh
# bench/monitor-baseline.sh DIR SECONDS: the shell baseline for
# bench/monitors.sh -- what lkp-tests' monitor scripts do for the monitors
# perfbot's sampler replaces: one loop per monitor, all at once, each
# second "time: $(date ...)" and a cat of the file into a raw file in DIR
# (per NUMA node for numa-*, per CPU and state for cpuidle, per CPU for
# cpufreq), and vmstat running itself.  A monitor whose files are missing
# here is skipped, as lkp's scripts exit.  Stops after SECONDS and waits
# for its loops, so that their CPU time is counted as its children's.
dir=$1
secs=$2
[ -d "$dir" ] && [ -n "$secs" ] || { echo "usage: $0 DIR SECONDS" >&2; exit 2; }

# proc-vmstat and the other /proc files: lkp's proc-vmstat monitor
plain() {
	[ -r "$2" ] || return 0
	while :; do
		echo "time: $(date +%s)"
		cat "$2"
		sleep 1
	done >"$dir/$1"
}

# numa-vmstat, numa-numastat, numa-meminfo
numa() {
	[ -r /sys/devices/system/node/node0/"$2" ] || return 0
	nodes=$(cd /sys/devices/system/node && echo node[0-9]*)
	while :; do
		echo "time: $(date +%s.%N)"
		for n in $nodes; do
			echo "node: ${n#node}"
			cat /sys/devices/system/node/"$n/$2"
		done
		sleep 1
	done >"$dir/$1"
}

cpuidle() {
	[ -r /sys/devices/system/cpu/cpu0/cpuidle/state0/name ] || return 0
	while :; do
		echo "time: $(date +%s.%N)"
		for d in /sys/devices/system/cpu/cpu*/cpuidle/state*/; do
			cpu=${d#/sys/devices/system/cpu/}
			cpu=${cpu%%/*}
			name=$(sed 's/ /-/g' "$d/name")
			read -r t <"$d/time"
			read -r u <"$d/usage"
			echo "$cpu.$name.time: $t"
			echo "$cpu.$name.usage: $u"
		done
		sleep 1
	done >"$dir/cpuidle"
}

cpufreq() {
	[ -r /sys/devices/system/cpu/cpu0/cpufreq/stats/time_in_state ] || return 0
	while :; do
		echo "time: $(date +%s.%N)"
		for cpu in $(cd /sys/devices/system/cpu && echo cpu[0-9]*); do
			s=/sys/devices/system/cpu/$cpu/cpufreq/stats
			while read -r f t; do
				echo "$cpu.time_in_state.$f: $t"
			done <"$s/time_in_state"
			read -r n <"$s/total_trans"
			echo "$cpu.total_trans: $n"
		done
		sleep 1
	done >"$dir/cpufreq"
}

pids=
plain proc-vmstat /proc/vmstat & pids="$pids $!"
plain meminfo /proc/meminfo & pids="$pids $!"
plain proc-stat /proc/stat & pids="$pids $!"
plain softirqs /proc/softirqs & pids="$pids $!"
plain interrupts /proc/interrupts & pids="$pids $!"
plain diskstats /proc/diskstats & pids="$pids $!"
plain slabinfo /proc/slabinfo & pids="$pids $!"
numa numa-vmstat vmstat & pids="$pids $!"
numa numa-numastat numastat & pids="$pids $!"
numa numa-meminfo meminfo & pids="$pids $!"
cpuidle & pids="$pids $!"
cpufreq & pids="$pids $!"
vmstat --timestamp -n 1 >"$dir/vmstat" & pids="$pids $!"

sleep "$secs"
# shellcheck disable=SC2086
kill $pids 2>/dev/null
wait
exit 0
