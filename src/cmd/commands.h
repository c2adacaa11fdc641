/* COMMAND(name, C identifier, summary, usage text); see cmd.h. */
COMMAND("compare", compare, "compare commits: mean, %stddev and %change per metric",
	"perfbot compare [options] BASE NEW [NEW2 ...]\n"
	"\n"
	"BASE and NEW are _result_root directories holding matrix.json, or\n"
	"matrix.json files.  Prints lkp's ncompare table of changed metrics.\n"
	"\n"
	"  -a, --all             print every metric, not only changed ones\n"
	"  -m, --more            include families hidden by default (interrupts, ...)\n"
	"      --rule stat|lkp   decision rule (default: stat)\n"
	"      --alpha A         significance level for --rule stat (default 0.05)\n"
	"      --pvalue          add a p= column (stat rule)\n"
	"  -p, --perf-profile-threshold N\n"
	"                        perf-profile threshold (lkp rule)\n"
	"      --legacy          the older '~ N%' layout\n"
	"      --json            machine-readable output\n"
	"      --fail-on-regression\n"
	"                        exit 3 when a key metric regressed significantly\n")
COMMAND("changed", changed, "per-metric change decisions, as lkp records",
	"perfbot changed [options] BASE NEW\n"
	"\n"
	"Prints the changed-stat records of NEW against BASE (lkp's field names:\n"
	"stat, a, b, mean_a, mean_b, min_a, max_a, min_b, max_b, ratio, delta,\n"
	"x, y, z, nr_run, interval; p-values with --rule stat).\n"
	"\n"
	"      --rule stat|lkp   decision rule (default: stat)\n"
	"      --json            JSON object keyed by metric (default: YAML-like text)\n"
	"      --alpha A         significance level (stat rule)\n"
	"  -m, --more            include families hidden by default\n"
	"      --gap G           lkp's gap variant\n"
	"      --distance D      lkp's distance variant\n"
	"      --variance V      lkp's variance variant\n"
	"      --regression-only only regressions of pass/fail stats\n"
	"  -p N                  perf-profile threshold\n")
COMMAND("unite", unite, "build matrix.json, avg.json, stddev.json from run dirs",
	"perfbot unite RUN_DIR...\n"
	"\n"
	"Adds each run's stats.json as a column of matrix.json in the run's\n"
	"parent directory (the _result_root), replacing the column of a run\n"
	"united before, and rewrites avg.json and stddev.json.\n")
COMMAND("run", run, "run a job's benchmark with system monitors",
	"perfbot run JOB.yaml [options] [-- COMMAND [ARG...]]\n"
	"\n"
	"Runs the job's benchmark (or COMMAND) N times while sampling the\n"
	"system, writes lkp's result layout under the result root\n"
	"(<root>/<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/\n"
	"<compiler>/<commit>/<run>/) and unites the runs into matrix.json.\n"
	"COMMAND's stdout lines 'name: number' become <testcase>.<name> metrics.\n"
	"\n"
	"  -n, --runs N          runs (default: the job's nr_run, else 1)\n"
	"  -r, --result-root DIR result root (default: $PERFBOT_RESULT_ROOT,\n"
	"                        else ~/.local/share/perfbot/result)\n"
	"  -c, --commit ID       the commit the runs belong to (default: uname -r)\n"
	"  -M, --monitors LIST   comma-separated monitors instead of the job's\n"
	"  -i, --interval SEC    monitor sampling interval (default 1)\n"
	"  -v, --verbose         log each phase on stderr\n")
COMMAND("parse", parse, "run a parser on raw output and print lkp stats lines",
	"perfbot parse NAME [FILE]\n"
	"perfbot parse --list\n"
	"\n"
	"Reads FILE (standard input without it) and prints lkp's 'key: value'\n"
	"lines.  --result-root DIR for parsers that read a result dir (fio).\n")
COMMAND("split-job", split_job, "expand a job's arrays into atomic jobs", "perfbot split-job [options] JOB.yaml... [KEY=VALUE...]\n\nWrites one atomic job per point of JOB's parameter matrix, named\n<job>-<path_params>.yaml as lkp-tests' split-job names them, and prints\n'JOB => DIR/atomic.yaml' for each.\n\n  -o, --output DIR      where to write (default: .)\n  -t, --test-box NAME   testbox (default: $HOSTNAME or the host name)\n  -c, --config KCONFIG  set kconfig\n  -k, --kernel COMMIT   set commit\n  -s, --set 'KEY: VAL'  add or override a key (also KEY=VAL arguments)\n      --lkp-src DIR     an lkp-tests-like root for includes, programs/,\n                        include/ and hosts/ (repeatable; default $LKP_SRC)\n      --compatible      refine a job lkp already expanded\n      --no-defaults     do not add defaults from include files\n")
