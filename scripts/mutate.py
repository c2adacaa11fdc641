#!/usr/bin/env python3
"""scripts/mutate.py: the mutation test of perfbot (`make mutate`).

Each mutant of tests/mutants.txt is one small change to one line of src/
(a flipped comparison, a shifted constant, a dropped assignment).  A test
suite that checks what the code does must fail on it: the mutant is then
"killed".  One that passes every test "survived": either a test is
missing, or the change cannot be seen from outside (an equivalent mutant,
which the list must explain with an `equivalent:` line).

A mutant names its code by file and an exact snippet of the original text,
unique in the file, never by line number, so that it follows the code when
other work moves it.  When the snippet is gone or no longer unique the
mutant is "stale": listed and counted apart, so that the list can be
refreshed (`--stale` prints just those, with where the file changed).

How a run goes:
  1. the tree (tracked and untracked, not ignored files, plus an up to date
     build/ if there is one) is copied into a temporary directory, built,
     and the whole suite run once on it: that run must pass, and its test
     times set each test's time budget;
  2. each mutant gets a fresh copy of that built tree (cp -a), never the
     work tree; its one line is changed, make rebuilds what depends on it;
  3. the tests it names (`tests:`) run first; if none fails, the whole
     suite (unit binaries, then the end-to-end scripts, quickest first)
     until one fails.  A test over its budget counts as failing (a mutant
     that hangs the code is caught, too).  A test that failed once in the
     baseline but passed when run again is flaky: a kill by it counts only
     when it fails twice;
  4. the results print per layer (src/<layer>): killed, survived, stale,
     score = killed / (killed + survived); then the survivors.

Usage: scripts/mutate.py [-j N] [--smoke] [--only SUBSTR] [--list] [--stale]
                         [--keep] [--fast-only] [MUTANTS_FILE]
  -j N         mutants at a time (default 2)
  --smoke      only the mutants marked `smoke: yes`, their own tests only,
               no baseline run (the tree was just tested): `make check-full`
  --only S     only the mutants whose id contains S
  --fast-only  do not fall back to the whole suite (and no baseline run):
               a quick look while writing tests
  --list       print the mutants and whether each applies, run nothing
  --stale      print the stale mutants only, run nothing
  --keep       keep the temporary directory (its path is printed)

Exit status: 0 when the score reaches --target (default 90) and every
survivor is explained; 1 otherwise (or on a failing baseline); 2 usage.
The full report is also written to tests/out/mutate.txt.
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# process groups of the tests running now: killed if mutate.py is stopped
RUNNING = set()
RUNNING_LOCK = threading.Lock()
# cmocka's "[  ERROR   ] --- ..." and "[  FAILED  ] test_x"
FAILED_LINE = re.compile(r"^\[\s+(FAILED|ERROR)\s+\]")
KEYS = ("id", "file", "from", "to", "tests", "why", "equivalent", "smoke")


class Mutant:
    def __init__(self, fields, lineno):
        self.lineno = lineno
        self.id = fields.get("id", "")
        self.file = fields.get("file", "")
        self.old = fields.get("from", "")
        self.new = fields.get("to", "")
        self.tests = fields.get("tests", "").split()
        self.why = fields.get("why", "")
        self.equivalent = fields.get("equivalent", "")
        self.smoke = fields.get("smoke", "") == "yes"
        parts = self.file.split("/")
        self.layer = "/".join(parts[:2]) if len(parts) > 2 else parts[0]
        self.status = None      # killed survived stale broken
        self.detail = ""
        self.seconds = 0.0


def parse_mutants(path):
    """Blocks of `key: value` lines separated by blank lines; # comments."""
    mutants, fields, start, errors = [], {}, 0, []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if fields:
                mutants.append(Mutant(fields, start))
                fields = {}
            continue
        key, sep, value = line.partition(":")
        if not sep or key not in KEYS:
            errors.append(f"{path}:{n}: expected one of {', '.join(KEYS)}, "
                          f"then ':', got {line!r}")
            continue
        if key in fields:
            errors.append(f"{path}:{n}: '{key}' given twice in one mutant")
        if not fields:
            start = n
        fields[key] = value.strip()
    seen = set()
    for m in mutants:
        for k in ("id", "file", "from", "to"):
            if not getattr(m, {"from": "old", "to": "new"}.get(k, k)):
                errors.append(f"{path}:{m.lineno}: mutant without '{k}'")
        if m.id in seen:
            errors.append(f"{path}:{m.lineno}: duplicate id '{m.id}'")
        seen.add(m.id)
        if m.old == m.new:
            errors.append(f"{path}:{m.lineno}: '{m.id}' changes nothing")
    return mutants, errors


def snippet_state(root, m):
    """'ok', or why the mutant is stale."""
    try:
        with open(os.path.join(root, m.file), encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return f"cannot read {m.file}: {e.strerror}"
    n = text.count(m.old)
    if n == 0:
        return f"snippet not found in {m.file}"
    if n > 1:
        return f"snippet found {n} times in {m.file}"
    return "ok"


def apply(root, m):
    p = os.path.join(root, m.file)
    with open(p, encoding="utf-8") as f:
        text = f.read()
    with open(p, "w", encoding="utf-8") as f:
        f.write(text.replace(m.old, m.new, 1))
    # a new mtime even within the same second as the copy
    st = os.stat(p)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def copy_tree(src_root, dst):
    """Tracked and untracked (not ignored) files of src_root, plus build/."""
    files = subprocess.run(
        ["git", "-C", src_root, "ls-files", "-z", "--cached", "--others",
         "--exclude-standard"], check=True, capture_output=True).stdout
    files = [f for f in files.decode().split("\0") if f]
    os.makedirs(dst)
    for f in files:
        s = os.path.join(src_root, f)
        if not os.path.lexists(s):
            continue            # deleted in the work tree, not yet in git
        d = os.path.join(dst, f)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d, follow_symlinks=False)
    build = os.path.join(src_root, "build")
    if os.path.isdir(build):
        shutil.copytree(build, os.path.join(dst, "build"), symlinks=True,
                        ignore=shutil.ignore_patterns("*.gcda", "*.gcno"))


def child_env(tmp):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PERFBOT") and not k.startswith("MAKE")
           and k not in ("MFLAGS",)}
    env["TMPDIR"] = tmp
    env["LC_ALL"] = "C"
    return env


def run_group(argv, cwd, env, timeout):
    """Run argv in a process group of its own; kill the group on timeout.
    Returns (rc or None on timeout, output tail, seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    with RUNNING_LOCK:
        RUNNING.add(p.pid)
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        rc = None
    # whatever the test left in its group (it should leave nothing)
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    with RUNNING_LOCK:
        RUNNING.discard(p.pid)
    lines = out.decode(errors="replace").splitlines()
    # what failed: each "not ok" of an end-to-end script with the lines
    # after it, else the end of the output
    why = []
    for i, x in enumerate(lines):
        if x.startswith("not ok") or FAILED_LINE.search(x):
            why += lines[i:i + 12]
    return rc, (why or lines)[-40:], time.monotonic() - t0


class Suite:
    """The tests of one tree: unit binaries and end-to-end scripts."""

    def __init__(self, root):
        self.units = sorted(f[:-2] for f in os.listdir(os.path.join(root, "tests/unit"))
                            if f.startswith("test_") and f.endswith(".c"))
        self.e2e = sorted(f[:-3] for f in os.listdir(os.path.join(root, "tests/t"))
                          if f[:1] == "t" and f[1:2].isdigit() and f.endswith(".sh"))
        self.times = {}
        self.flaky = set()

    def resolve(self, name):
        if name in self.units or name in self.e2e:
            return name
        hits = [t for t in self.e2e if t.startswith(name)]
        return hits[0] if len(hits) == 1 else None

    def all(self):
        """Quickest first, so that a full run fails early."""
        return sorted(self.units, key=lambda t: self.times.get(t, 0)) + \
            sorted(self.e2e, key=lambda t: self.times.get(t, 0))

    def budget(self, name):
        # generous: a loaded machine (other work, the second mutant) can
        # make a test several times slower than its baseline; only a
        # mutant that hangs the code should run into this
        return max(120.0, 6 * self.times.get(name, 60.0) + 60)

    def targets(self, names):
        """make targets the tests need (the perfbot binary always)."""
        t = ["all"]
        for n in names:
            if n in self.units:
                t.append(f"build/tests/{n}")
        return t

    def run(self, root, name, env, timeout=None):
        if name in self.units:
            argv, cwd = [os.path.join(root, "build/tests", name)], root
            # the lab's tests need a PostgreSQL server (they skip without
            # one, and every lab mutant would survive): run-unit.sh starts one
            if name.startswith("test_lab"):
                argv = ["sh", os.path.join(root, "tests/run-unit.sh")] + argv
        else:
            env = dict(env, PERFBOT=os.path.join(root, "perfbot"))
            argv, cwd = ["sh", name + ".sh"], os.path.join(root, "tests/t")
        return run_group(argv, cwd, env, timeout or self.budget(name))


def make(root, targets, env, jobs=1):
    rc, tail, _ = run_group(["make", "-s", f"-j{jobs}", "BUILD=build"] + targets,
                            root, env, 3600)
    return rc == 0, tail[-10:]


def run_mutant(m, base, work, suite, args, log):
    t0 = time.monotonic()
    # a short name, whatever the id: the tests' temp dirs live under it,
    # and Chromium's socket path there must stay under sun_path's 108
    # bytes (from ids of about 27 characters on, the browser checks
    # failed whatever the mutant did, and a survivor counted as killed)
    d = os.path.join(work, "m-" + hashlib.sha1(m.id.encode()).hexdigest()[:8])
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run(["cp", "-a", base, d], check=True)
    tmp = os.path.join(d, ".tmp")
    os.makedirs(tmp)
    env = child_env(tmp)
    try:
        apply(d, m)
        fast = [suite.resolve(t) for t in m.tests]
        fast = [t for t in fast if t]
        ok, err = make(d, suite.targets(fast), env)
        if not ok:
            m.status, m.detail = "broken", "does not build: " + " | ".join(err[-3:])
            return
        order = list(fast)
        if not args.fast_only and not args.smoke:
            order += [t for t in suite.all() if t not in fast]
        for i, t in enumerate(order):
            if i == len(fast):
                # past the mutant's own tests: the rest of the unit tests
                # are linked only now (most mutants never get here)
                ok, err = make(d, ["unit-tests"], env)
                if not ok:
                    m.status, m.detail = "broken", "tests do not build: " + " | ".join(err[-3:])
                    return
            rc, tail, secs = suite.run(d, t, env)
            if rc != 0 and t in suite.flaky:
                log(f"  {m.id}: {t} failed; flaky at baseline, so run again")
                rc, tail, secs = suite.run(d, t, env)
            if rc != 0:
                how = "timeout" if rc is None else f"exit {rc}"
                m.status = "killed"
                m.detail = f"by {t} ({how}{', fast' if i < len(fast) else ''})"
                why = [x.strip() for x in tail
                       if x.startswith("not ok") or FAILED_LINE.search(x)]
                log(f"  {m.id}: {t}: " + " / ".join((why or [x.strip() for x in tail])[:3]))
                return
        m.status = "survived"
        m.detail = f"passed {len(order)} tests"
    finally:
        m.seconds = time.monotonic() - t0
        if not args.keep:
            shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--fast-only", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--stale", action="store_true")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--target", type=float, default=90.0)
    ap.add_argument("-h", "--help", action="store_true")
    ap.add_argument("file", nargs="?", default=os.path.join(ROOT, "tests/mutants.txt"))
    args = ap.parse_args()
    # SIGTERM as ^C: through the finally below, which stops the tests
    # running and removes the copies
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.help:
        print(__doc__)
        return 0

    mutants, errors = parse_mutants(args.file)
    if errors:
        for e in errors:
            print("mutate: " + e, file=sys.stderr)
        return 2
    if args.smoke:
        mutants = [m for m in mutants if m.smoke]
    if args.only:
        mutants = [m for m in mutants if args.only in m.id]
    suite = Suite(ROOT)
    for m in mutants:
        bad = [t for t in m.tests if not suite.resolve(t)]
        if bad:
            print(f"mutate: {args.file}:{m.lineno}: '{m.id}': unknown test "
                  f"{' '.join(bad)}", file=sys.stderr)
            return 2
        state = snippet_state(ROOT, m)
        if state != "ok":
            m.status, m.detail = "stale", state

    if args.list or args.stale:
        for m in mutants:
            if args.stale and m.status != "stale":
                continue
            print(f"{m.status or 'applies':8} {m.id:44} {m.file}"
                  + (f": {m.detail}" if m.detail else ""))
        return 0

    work = tempfile.mkdtemp(prefix="perfbot-mutate.")
    # readable by all, like a checkout: a test runs perfbot as nobody
    os.chmod(work, 0o755)
    shared = os.path.join(os.path.dirname(ROOT), "shared")
    if os.path.isdir(shared):
        os.symlink(shared, os.path.join(work, "shared"))
    outdir = os.path.join(ROOT, "tests/out")
    os.makedirs(outdir, exist_ok=True)
    report = open(os.path.join(outdir, "mutate.txt" if not args.smoke else "mutate-smoke.txt"), "w")
    lock = threading.Lock()

    def log(s):
        with lock:
            print(s, flush=True)
            report.write(s + "\n")
            report.flush()

    try:
        base = os.path.join(work, "base")
        copy_tree(ROOT, base)
        os.makedirs(os.path.join(base, ".tmp"))
        env = child_env(os.path.join(base, ".tmp"))
        log(f"mutate: {len(mutants)} mutants, building a copy of the tree in {work}")
        ok, err = make(base, ["all", "unit-tests"], env, jobs=2)
        if not ok:
            log("mutate: the unmutated tree does not build:\n  " + "\n  ".join(err))
            return 1
        if not args.smoke and not args.fast_only:
            log("mutate: baseline: the whole suite on the unmutated copy")
            failed = []
            for t in suite.all():
                rc, tail, secs = suite.run(base, t, env, timeout=900)
                suite.times[t] = secs
                if rc != 0:
                    log(f"  baseline: {t} fails unmutated:\n    " + "\n    ".join(tail))
                    rc, tail2, secs = suite.run(base, t, env, timeout=900)
                    if rc == 0:
                        # a test that fails now and then on a loaded
                        # machine: its kills are checked twice below
                        suite.flaky.add(t)
                        log(f"  baseline: {t} passes when run again: flaky, its kills are re-run")
                    else:
                        failed.append(t)
            total = sum(suite.times.values())
            log(f"mutate: baseline took {total:.0f}s for {len(suite.times)} tests")
            if failed:
                log("mutate: fix the failing tests first: " + " ".join(failed))
                return 1
        shutil.rmtree(os.path.join(base, ".tmp"), ignore_errors=True)
        shutil.rmtree(os.path.join(base, "tests/out"), ignore_errors=True)

        todo = [m for m in mutants if m.status != "stale"]
        done = [0]

        def one(m):
            run_mutant(m, base, work, suite, args, log)
            with lock:
                done[0] += 1
                n = done[0]
            log(f"[{n}/{len(todo)}] {m.status:8} {m.id} {m.detail} ({m.seconds:.0f}s)")

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
            for f in [ex.submit(one, m) for m in todo]:
                f.result()
    finally:
        with RUNNING_LOCK:
            for pgid in RUNNING:
                try:
                    os.killpg(pgid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        if args.keep:
            print(f"mutate: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    return summary(mutants, args, log)


def summary(mutants, args, log):
    layers = sorted({m.layer for m in mutants})
    log("")
    log(f"{'layer':14} {'mutants':>7} {'killed':>7} {'survived':>8} {'stale':>6} "
        f"{'broken':>6} {'score':>7}")
    tot = {"n": 0, "killed": 0, "survived": 0, "stale": 0, "broken": 0}

    def row(name, c):
        k, s = c["killed"], c["survived"]
        score = f"{100 * k / (k + s):6.1f}%" if k + s else "     - "
        log(f"{name:14} {c['n']:7} {k:7} {s:8} {c['stale']:6} {c['broken']:6} {score:>7}")

    for layer in layers:
        c = {"n": 0, "killed": 0, "survived": 0, "stale": 0, "broken": 0}
        for m in mutants:
            if m.layer == layer:
                c["n"] += 1
                c[m.status] += 1
        for k in c:
            tot[k] += c[k]
        row(layer, c)
    row("total", tot)

    bad = False
    survivors = [m for m in mutants if m.status == "survived"]
    if survivors:
        log("\nsurvivors:")
        for m in survivors:
            if m.equivalent:
                log(f"  {m.id} ({m.file}): equivalent: {m.equivalent}")
            else:
                bad = True
                log(f"  {m.id} ({m.file}): NOT EXPLAINED: {m.why}")
    for kind in ("stale", "broken"):
        ms = [m for m in mutants if m.status == kind]
        if ms:
            log(f"\n{kind}:")
            for m in ms:
                log(f"  {m.id}: {m.detail}")
    if any(m.status == "broken" for m in mutants):
        bad = True
    k, s = tot["killed"], tot["survived"]
    if args.smoke:
        return 1 if s or tot["broken"] else 0
    if k + s == 0 or 100 * k / (k + s) < args.target:
        log(f"\nmutate: score below the target of {args.target:.0f}%")
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
