#!/bin/sh
# bench/kernel.sh: kernels under test, measured.
#
#   1. builds of the tiny kernel (perfbot kernel build --config tiny) of the
#      demo tree (scripts/make-demo-kernel-repo.sh): a full build (the one
#      recorded in the kernel cache when the tree was built before: the
#      first build is 10-15 minutes of 2 cores and is not repeated), and an
#      incremental one, a one-file change after the commit before it
#   2. boot to /init under TCG, host wall time and guest time
#      (boot-time.boot), 3 boots; and whether KVM boots a guest here
#   3. guest noise: getppid1 (jobs/kernel-getppid.yaml) over 10 boots of
#      one kernel, mean and stddev%
#   4. the planted-regression bisect (make demo-kernel's), from a fresh
#      state and result tree: steps, builds, boots and total time
#   5. the small config (--config small): full and incremental build as in
#      1, and boot to /init with 2 NUMA nodes under icount and TCG, 3 boots
#      each, with whether the guest saw node1, ext4/xfs/btrfs and ram0/loop0
#
#   6. the seeds' jobs in the guest (--config small at v6.1-debian, 2
#      NUMA nodes): lru-file-readtwice (jobs/kernel-lru-file-readtwice.yaml,
#      320 MiB) and aim7 disk_rr on ext4 over brd (the ext4 atom of
#      jobs/short/aim7-fs-1brd.yaml, 1 GiB), 5 boots each under icount and TCG:
#      wall time per run, the metric's mean and stddev%, and the reclaim
#      counters' means
#   7. seed 002's table: aim7 disk_rr over brd on btrfs, ext4 and xfs
#      (jobs/short/aim7-fs-1brd.yaml, split as lkp splits it) on four
#      kernels of make demo-seed's tree -- the planted commit's parent,
#      the planted commit, seed-v2 and seed-v3, as seed 002 compares the
#      parent, the first bad commit and a fixes branch's base and head --
#      small config, icount, 2 NUMA nodes, $SEED002_RUNS runs (default 1)
#      a kernel and fs: the compare table of each fs, and
#      aim7.jobs-per-min across the three as one table (compare --metric)
# `bench/kernel.sh small` runs 5 alone, `bench/kernel.sh seeds` 6 alone,
# `bench/kernel.sh seed002` 7 alone.
#
# Needs the kernel packages (scripts/deps.sh kernel) and a built perfbot.
# Run it with `nice -n 10` on a shared machine.  Timings under TCG are
# emulated: they compare kernels with each other, not with real machines.
set -e
cd "$(dirname "$0")/.."
PERFBOT=${PERFBOT:-$(pwd)/perfbot}
DEMO_DIR=${DEMO_DIR:-/var/cache/perfbot/kernel-demo}
B=$(mktemp -d "${TMPDIR:-/tmp}/perfbot-bench-kernel.XXXXXX")
trap 'rm -rf "$B"' EXIT
repo=$DEMO_DIR/linux
job=$(pwd)/jobs/kernel-getppid.yaml
sh scripts/make-demo-kernel-repo.sh "$repo" >/dev/null
cache=${PERFBOT_KERNEL_CACHE:-/var/cache/perfbot/kernel}
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'; }
field() { sed -n "s/^$1: //p" "$2"; }

# the full build of --config CFG at v6.1-debian (or its time recorded in
# the cache; sets $img), then a one-file change: the first commit that
# touches kernel/sys.c, built right after its parent (both taken out of
# the image cache first)
builds() { # builds CFG
	base=$(git -C "$repo" rev-parse v6.1-debian)
	img=$($PERFBOT kernel build --tree "$repo" --commit "$base" --config "$1" 2>"$B/err") ||
		{ cat "$B/err"; exit 1; }
	if grep -q "is built already" "$B/err"; then
		echo "full build of $(echo "$base" | cut -c1-12): $(field build_seconds "$(dirname "$img")/info") s" \
			"(recorded when it was built)"
	else
		echo "full build of $(echo "$base" | cut -c1-12): $(field build_seconds "$(dirname "$img")/info") s"
	fi
	one=$(git -C "$repo" log --format=%H --reverse v6.1-debian..demo-head -- kernel/sys.c | head -n 1)
	prev=$(git -C "$repo" rev-parse "$one^")
	for c in "$prev" "$one"; do
		rm -rf "$cache"/images/"$c"-x86_64-"$1"-*
	done
	$PERFBOT kernel build --tree "$repo" --commit "$prev" --config "$1" >/dev/null 2>"$B/err" ||
		{ cat "$B/err"; exit 1; }
	t0=$(now)
	$PERFBOT kernel build --tree "$repo" --commit "$one" --config "$1" >/dev/null 2>"$B/err" ||
		{ cat "$B/err"; exit 1; }
	echo "incremental build ($(git -C "$repo" diff --shortstat "$prev" "$one")): $(secs "$t0" "$(now)") s"
}

small() {
	echo "== 5. the small config ($(nproc) CPUs, ccache $(command -v ccache >/dev/null && echo on || echo off))"
	builds small
	cat >"$B/small.yaml" <<'EOF'
testcase: mytest
mytest:
  command: "echo nodes: $(ls -d /sys/devices/system/node/node* | wc -l); echo kallsyms: $(grep -c . /proc/kallsyms); for f in ext4 xfs btrfs; do echo fs_$f: $(grep -cw $f /proc/filesystems); done; echo ram0: $(ls /sys/block | grep -cx ram0); echo loop0: $(ls /sys/block | grep -cx loop0)"
EOF
	for accel in icount tcg; do
		rm -rf "$B/small-$accel"
		$PERFBOT run --accel $accel --numa 2 --mem 1G -n 3 -r "$B/small-$accel" --kernel "$img" \
			"$B/small.yaml" >/dev/null 2>"$B/err" || { cat "$B/err"; exit 1; }
		for d in "$B/small-$accel"/mytest/*/*/*/*/*/*/[0-9]*; do
			h=$(sed -n 's/.*host: \/init reached after \([0-9.]*\)s$/\1/p' "$d/perfbot.log")
			python3 - "$d/stats.json" "$accel $(basename "$d")" "$h" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
g = lambda k: s.get("mytest." + k)
print("%s: host %s s to /init, guest %s s (boot-time.boot); nodes %s, kallsyms %s, "
      "ext4/xfs/btrfs %s/%s/%s, ram0 %s, loop0 %s"
      % (sys.argv[2], sys.argv[3], s.get("boot-time.boot"), g("nodes"), g("kallsyms"),
         g("fs_ext4"), g("fs_xfs"), g("fs_btrfs"), g("ram0"), g("loop0")))
EOF
		done
	done
}
seeds() {
	echo "== 6. the seeds' jobs in the guest (small config, 2 NUMA nodes, 5 boots each)"
	img=$($PERFBOT kernel build --tree "$repo" --commit v6.1-debian --config small 2>"$B/err") ||
		{ cat "$B/err"; exit 1; }
	$PERFBOT split-job -o "$B/atoms" jobs/short/aim7-fs-1brd.yaml >/dev/null
	for accel in icount tcg; do
		for j in jobs/kernel-lru-file-readtwice.yaml "$(ls "$B"/atoms/*ext4*.yaml | head -n 1)"; do
			rm -rf "$B/seed"
			# lru-file-readtwice's files outgrow 320 MiB (reclaim runs);
			# aim7's 512 MiB ram disk needs room beside the guest's own
			case $j in *lru-file-readtwice*) mem=320M ;; *) mem=1G ;; esac
			t0=$(now)
			$PERFBOT run --accel $accel --numa 2 --mem $mem -n 5 -r "$B/seed" --kernel "$img" \
				"$j" >/dev/null 2>"$B/err" || { tail -n 5 "$B/err"; exit 1; }
			t1=$(now)
			python3 - "$accel" "$(basename "$j" .yaml)" "$(secs "$t0" "$t1")" \
				"$B"/seed/*/*/*/*/*/*/*/matrix.json <<'EOF'
import json, sys, statistics as st
accel, job, wall, path = sys.argv[1:5]
m = json.load(open(path))
key = "vm-scalability.throughput" if "vm-scalability.throughput" in m else "aim7.jobs-per-min"
v = m[key]
mean = st.mean(v)
extra = ", ".join("%s %.0f" % (k.split(".", 1)[1], st.mean(m[k]))
                  for k in ("proc-vmstat.pgscan_kswapd", "proc-vmstat.pgsteal_kswapd",
                            "proc-vmstat.allocstall_movable") if k in m)
print("%s %s: %.0f s per run; %s n=%d mean %.0f stddev %.2f%%%s"
      % (accel, job[:40], float(wall) / len(v), key, len(v), mean,
         100 * st.pstdev(v) / mean, "; " + extra if extra else ""))
EOF
		done
	done
}
seed002() {
	runs=${SEED002_RUNS:-1}
	echo "== 7. seed 002's table: aim7 disk_rr on btrfs/ext4/xfs over brd, 4 kernels" \
		"(small config, icount, 2 NUMA nodes, $runs run(s) each)"
	sh scripts/make-seed-kernel-repo.sh "$repo" >/dev/null
	$PERFBOT split-job -o "$B/atoms" jobs/short/aim7-fs-1brd.yaml >/dev/null
	t0=$(now)
	for c in refs/seed/planted^ refs/seed/planted seed-v2 seed-v3; do
		sha=$(git -C "$repo" rev-parse "$c")
		img=$($PERFBOT kernel build --tree "$repo" --commit "$sha" --config small 2>"$B/err") ||
			{ cat "$B/err"; exit 1; }
		for j in "$B"/atoms/*.yaml; do
			t1=$(now)
			$PERFBOT run --accel icount --numa 2 --mem 1G -n "$runs" -r "$B/s002" \
				--kernel "$img" "$j" >/dev/null 2>"$B/err" || { tail -n 5 "$B/err"; exit 1; }
			echo "$c ($(echo "$sha" | cut -c1-12)) $(basename "$j" .yaml | sed 's/.*-1BRD_512M-\([a-z0-9]*\)-.*/\1/'):" \
				"$(secs "$t1" "$(now)") s"
		done
	done
	echo "total: $(secs "$t0" "$(now)") s"
	# a result root per fs and kernel: <root>/aim7/<fs params>/<box>/<rootfs>/<kconfig>/<cc>/<sha>
	order() { for c in refs/seed/planted^ refs/seed/planted seed-v2 seed-v3; do
		ls -d "$B"/s002/aim7/*-$1-*/*/*/*/*/"$(git -C "$repo" rev-parse "$c")"; done; }
	for fs in btrfs ext4 xfs; do
		echo "-- $fs"
		$PERFBOT compare $(order $fs) | grep -v "^$" | head -n 40
	done
	echo "-- aim7.jobs-per-min, a row per fs"
	$PERFBOT compare --metric aim7.jobs-per-min $(for fs in btrfs ext4 xfs; do order $fs; done)
}
if [ "${1:-}" = seed002 ]; then
	seed002
	exit 0
fi
if [ "${1:-}" = seeds ]; then
	seeds
	exit 0
fi
if [ "${1:-}" = small ]; then
	small
	exit 0
fi

echo "== 1. builds (tiny config, $(nproc) CPUs, ccache $(command -v ccache >/dev/null && echo on || echo off))"
builds tiny

echo "== 2. boot to /init"
cat >"$B/boot.yaml" <<'EOF'
testcase: mytest
mytest:
  command: "echo ok: 1"
EOF
$PERFBOT run --accel tcg -n 3 -r "$B/boot" -M meminfo --kernel "$img" "$B/boot.yaml" >/dev/null 2>"$B/err" ||
	{ cat "$B/err"; exit 1; }
for d in "$B"/boot/mytest/*/*/*/*/*/*/[0-9]*; do
	h=$(sed -n 's/.*host: \/init reached after \([0-9.]*\)s$/\1/p' "$d/perfbot.log")
	g=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['boot-time.boot'])" "$d/stats.json")
	echo "TCG boot $(basename "$d"): host ${h} s to /init, guest ${g} s (boot-time.boot)"
done
echo "KVM: $($PERFBOT kernel probe --kernel "$img" 2>/dev/null)"

echo "== 3. guest noise: getppid1, 10 boots of one kernel"
$PERFBOT run --accel tcg -n 10 -r "$B/noise" --kernel "$img" "$job" >/dev/null 2>"$B/err" ||
	{ cat "$B/err"; exit 1; }
python3 - "$B"/noise/will-it-scale/*/*/*/*/*/*/matrix.json <<'EOF'
import json, sys, statistics as st
v = json.load(open(sys.argv[1]))["will-it-scale.per_process_ops"]
m = st.mean(v)
print("per_process_ops: n=%d mean %.0f stddev %.1f%% min %.0f max %.0f"
      % (len(v), m, 100 * st.pstdev(v) / m, min(v), max(v)))
EOF

echo "== 4. the planted-regression bisect (fresh state and results)"
images_before=$(ls -d "$cache"/images/*-x86_64-tiny-* 2>/dev/null | grep -vc failed.log || true)
t0=$(now)
$PERFBOT bisect --kernel-tree "$repo" --config tiny --good v6.1-debian --bad demo-head \
	--job "$job" --metric will-it-scale.per_process_ops --state "$B/st" --result-root "$B/bisect" \
	--no-index >"$B/out" 2>"$B/err" || { tail -n 30 "$B/err"; exit 1; }
t1=$(now)
images_after=$(ls -d "$cache"/images/*-x86_64-tiny-* 2>/dev/null | grep -vc failed.log || true)
head -n 3 "$B/out"
planted=$(git -C "$repo" rev-parse demo-planted)
grep -q "^result $planted$" "$B/st" && echo "found the planted commit" || echo "MISSED the planted commit"
steps=$(grep -c "^verdict " "$B/st" || true)
confirms=$(grep -c "^confirm " "$B/st" || true)
commits=$(grep -h "^\(verdict\|confirm\) " "$B/st" | awk '{print $2}' | sort -u | wc -l)
boots=$(ls -d "$B"/bisect/will-it-scale/*/*/*/*/*/*/[0-9]* | wc -l)
echo "steps: $steps verdicts + $confirms confirmations over $commits commits (plus the 2 endpoints)"
echo "builds: $((images_after - images_before)) new kernels built, the rest from the cache"
echo "boots: $boots (one per run)"
echo "total: $(secs "$t0" "$t1") s"

small
seeds
seed002
