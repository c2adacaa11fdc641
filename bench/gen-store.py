#!/usr/bin/env python3
"""gen-store.py: generate lkp-layout result roots for the store's tests and
bench/store.sh.

    gen-store.py BASE [--roots N | --commits FILE] [--metrics M] [--runs R]
                 [--testcase T] [--path-params P] [--tbox T] [--gz]
                 [--stats-only] [--step-at K --step PCT] [--seed S]

Writes BASE/<testcase>/<path_params>/<tbox>/debian-12/x86_64-rhel/gcc-12/
<commit>/ with matrix.json (lkp's pretty layout, stats_source naming the
run dirs) or, with --stats-only, only <run>/stats.json.  Commits are
c0000000...0001 style names, or the shas of --commits FILE in order (one
root per line).  Metric 0 is <testcase>.throughput, around 1000, multiplied
by 1 + PCT/100 from root K on; the others are named like real monitors.
Values are deterministic for a seed.
"""
import argparse
import gzip
import json
import os
import random

FAMILIES = ["proc-vmstat", "meminfo", "numa-vmstat.node0", "interrupts", "softirqs",
            "perf-profile.children.cycles-pp", "slabinfo", "vmstat", "time", "diskstats"]


def metric_names(testcase, n):
    names = [testcase + ".throughput"]
    for i in range(1, n):
        names.append("%s.metric_%d" % (FAMILIES[i % len(FAMILIES)], i))
    return names


def write(path, text, gz):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if gz:
        with gzip.open(path + ".gz", "wt") as f:
            f.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--roots", type=int, default=2)
    ap.add_argument("--commits")
    ap.add_argument("--metrics", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--testcase", default="mybench")
    ap.add_argument("--path-params", default="performance-30s")
    ap.add_argument("--tbox", default="vm-2p")
    ap.add_argument("--gz", action="store_true")
    ap.add_argument("--stats-only", action="store_true")
    ap.add_argument("--step-at", type=int, default=-1)
    ap.add_argument("--step", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    if a.commits:
        with open(a.commits) as f:
            commits = [l.split()[0] for l in f if l.strip()]
    else:
        commits = ["c%039d" % i for i in range(a.roots)]
    names = metric_names(a.testcase, a.metrics)
    base = [1000.0] + [1000 + (i * 7919) % 100000 for i in range(1, a.metrics)]
    rng = random.Random(a.seed)
    job = os.path.join(a.base, a.testcase, a.path_params, a.tbox, "debian-12", "x86_64-rhel",
                       "gcc-12")
    for k, commit in enumerate(commits):
        root = os.path.join(job, commit)
        shift = 1 + a.step / 100 if 0 <= a.step_at <= k else 1
        cols = []
        for r in range(a.runs):
            col = []
            for i, b in enumerate(base):
                v = b * (shift if i == 0 else 1) * (1 + rng.uniform(-0.01, 0.01))
                col.append(round(v, 2) if i == 0 else int(v))
            cols.append(col)
        if a.stats_only:
            for r, col in enumerate(cols):
                stats = dict(zip(names, col))
                write(os.path.join(root, str(r), "stats.json"), json.dumps(stats, indent=2), a.gz)
            continue
        mx = {n: [cols[r][i] for r in range(a.runs)] for i, n in enumerate(names)}
        mx["stats_source"] = [os.path.join(root, str(r), "stats.json") for r in range(a.runs)]
        write(os.path.join(root, "matrix.json"), json.dumps(mx, indent=2) + "\n", a.gz)


if __name__ == "__main__":
    main()
