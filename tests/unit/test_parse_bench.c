/*
 * test_parse_bench.c: the benchmark parsers and bench_util.
 *
 * Every lkp fixture of every benchmark parser must come out byte for byte
 * (lkp's own check ignores one trailing newline difference, and so do
 * we); the fixtures are found by listing lkp/stats/<parser>/, and the
 * table says how many each parser has, so that none goes unnoticed.
 * Hand-made inputs then pin each parser's error path (a message naming
 * the parser, the input and the line) or its documented lenient output,
 * and the rules no fixture reaches; bench_util's Ruby arithmetic is
 * checked against values Ruby prints.
 */
#include "test_helpers.h"
#include "parse/bench_util.h"
#include "parse/parser.h"

#include <dirent.h>
#include <math.h>
#include <limits.h>

/* ---- helpers -------------------------------------------------------- */

static const struct parser *must_find(const char *name)
{
	const struct parser *p = parser_find(name);

	if (!p)
		fail_msg("no parser '%s'", name);
	return p;
}

/* Run parser name on input with stderr captured into err. */
static int run_capture(const char *name, const char *input, const char *result_root,
		       struct strbuf *out, struct strbuf *err)
{
	struct parse_input in = { input, strlen(input), "<test>", result_root };
	struct stderr_capture cap;
	int ret;

	strbuf_reset(out);
	capture_start(&cap);
	ret = must_find(name)->parse(&in, out);
	capture_end_sb(&cap, err);
	return ret;
}

static void expect_output(const char *name, const char *input, const char *expected)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	if (run_capture(name, input, NULL, &out, &err))
		fail_msg("%s failed: %s", name, err.buf);
	assert_string_equal(out.buf, expected);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* The parser must fail with "<name>: <test>:<line>: ...<why>...". */
static void expect_error(const char *name, const char *input, unsigned line,
			 const char *why)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, where = STRBUF_INIT;

	strbuf_addf(&where, "perfbot: %s: <test>:%u: ", name, line);
	assert_int_equal(run_capture(name, input, NULL, &out, &err), -1);
	if (!strstr(err.buf, where.buf) || !strstr(err.buf, why))
		fail_msg("%s: expected '%s' and '%s' in: %s", name, where.buf, why, err.buf);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&where);
}

/* ---- fixtures ------------------------------------------------------- */

struct fixture_set {
	const char *parser;
	int nr;                 /* fixtures lkp ships for it */
};

static const struct fixture_set fixture_sets[] = {
	{ "vm-scalability", 2 }, { "will-it-scale", 1 }, { "hackbench", 1 },
	{ "stress-ng", 7 }, { "perf-bench-sched-messaging", 1 },
	{ "perf-bench-mem", 1 }, { "perf-bench-futex", 3 },
	{ "perf-bench-syscall", 1 }, { "perf-bench-numa-mem", 1 }, { "fio", 4 },
	{ "iperf", 2 }, { "dbench", 1 }, { "tbench", 1 }, { "unixbench", 2 },
	{ "stream", 1 }, { "netperf", 1 }, { "fsmark", 1 }, { "kbuild", 2 },
	{ "kernbench", 1 }, { "openssl-speed", 2 }, { "redis", 1 },
	{ "schbench", 1 }, { "coremark", 1 }, { "aim9", 1 }, { "lmbench3", 1 },
	{ "memtier", 1 },
};
#define NR_FIXTURE_SETS (sizeof(fixture_sets) / sizeof(fixture_sets[0]))

/* Equal, or different by exactly one trailing newline (lkp's check). */
static bool same_output(const struct strbuf *a, const struct strbuf *b)
{
	if (a->len == b->len)
		return !memcmp(a->buf, b->buf, a->len);
	if (a->len == b->len + 1)
		return a->buf[b->len] == '\n' && !memcmp(a->buf, b->buf, b->len);
	if (b->len == a->len + 1)
		return b->buf[a->len] == '\n' && !memcmp(a->buf, b->buf, a->len);
	return false;
}

/*
 * Run the parser on lkp/stats/<parser>/<raw> and compare with <raw>.yaml.
 * A raw that is a directory is a whole result dir (fio): it is passed as
 * the result root, with its captured stdout (<dir>/fio) as the input.
 */
static void check_fixture(const struct parser *p, const char *dir, const char *raw)
{
	struct strbuf path = STRBUF_INIT, input = STRBUF_INIT, exp = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, stdout_file = STRBUF_INIT;
	struct parse_input in = { NULL, 0, NULL, NULL };

	strbuf_addf(&path, "%s/%s/%s", conformance_dir(), dir, raw);
	if (is_dir(path.buf)) {
		strbuf_addf(&stdout_file, "%s/%s", path.buf, p->name);
		if (file_exists(stdout_file.buf))
			assert_int_equal(read_file(&input, stdout_file.buf), 0);
		in.result_root = path.buf;
	} else {
		assert_int_equal(read_file(&input, path.buf), 0);
	}
	in.buf = input.buf;
	in.len = input.len;
	in.name = path.buf;
	strbuf_addstr(&path, ".yaml");
	assert_int_equal(read_file(&exp, path.buf), 0);
	strbuf_setlen(&path, path.len - 5);
	if (p->parse(&in, &out))
		fail_msg("%s failed on %s", p->name, path.buf);
	if (!same_output(&out, &exp))
		fail_msg("%s: output differs from %s.yaml:\n%s", path.buf, path.buf, out.buf);
	strbuf_release(&path);
	strbuf_release(&input);
	strbuf_release(&exp);
	strbuf_release(&out);
	strbuf_release(&stdout_file);
}

static void test_fixtures(void **state)
{
	const struct fixture_set *set = *state;
	const struct parser *p = must_find(set->parser);
	struct strbuf dir = STRBUF_INIT, full = STRBUF_INIT;
	struct dirent **names;
	int n, seen = 0;

	skip_without_conformance();
	strbuf_addf(&dir, "lkp/stats/%s", set->parser);
	strbuf_addf(&full, "%s/%s", conformance_dir(), dir.buf);
	n = scandir(full.buf, &names, NULL, alphasort);
	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".yaml")) {
			names[i]->d_name[len - 5] = '\0';
			check_fixture(p, dir.buf, names[i]->d_name);
			seen++;
		}
		free(names[i]);
	}
	free(names);
	assert_int_equal(seen, set->nr);
	strbuf_release(&dir);
	strbuf_release(&full);
}

static void test_registry(void **state)
{
	/* parsers lkp ships no fixture for (aim7's is awk, untested there) */
	static const char *const others[] = { "tbench", "mytest", "aim7" };

	for (size_t i = 0; i < NR_FIXTURE_SETS; i++)
		assert_string_equal(must_find(fixture_sets[i].parser)->name,
				    fixture_sets[i].parser);
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		assert_null(must_find(others[i])->unimplemented_reason);
}

/* ---- malformed input: each parser's error or lenient output ---------- */

static void test_errors_empty(void **state)
{
	/* nothing to measure is an error, never silently empty stats */
	static const struct {
		const char *parser, *why;
	} cases[] = {
		{ "vm-scalability", "no vm-scalability samples found" },
		{ "will-it-scale", "no will-it-scale results found" },
		{ "hackbench", "no hackbench runs found" },
		{ "stress-ng", "no stress-ng metrics found" },
		{ "perf-bench-sched-messaging", "expected a 'Total time" },
		{ "perf-bench-mem", "no rates found" },
		{ "perf-bench-futex", "no summary found" },
		{ "perf-bench-syscall", "no results found" },
		{ "perf-bench-numa-mem", "no results found" },
		{ "fio", "no JSON document" },
		{ "iperf", "no valid iperf session" },
		{ "dbench", "no 'Throughput" },
		{ "tbench", "no 'Throughput" },
		{ "stream", "no STREAM results found" },
		{ "netperf", "no netperf result rows found" },
		{ "fsmark", "no 'FSUse%" },
		{ "kbuild", "no build found" },
		{ "kernbench", "no kernbench summary found" },
		{ "openssl-speed", "no 'rsa 4096 bits' or 'sha256'" },
		{ "redis", "expected SET and GET sections" },
		{ "schbench", "no 'Wakeup Latencies'" },
		{ "coremark", "no 'Iterations/Sec" },
		{ "aim9", "no aim9 result row found" },
		{ "aim7", "no 'Tasks jobs/min jti ...' result table found" },
		{ "lmbench3", "no lmbench3 results found" },
		{ "memtier", "no complete 'Sets' row found" },
		{ "mytest", "no 'name: number' lines found" },
		{ "ebizzy", "no '<number> records/s' line found" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		expect_error(cases[i].parser, "", 1, cases[i].why);
		expect_error(cases[i].parser, "some\ngarbage\nhere\n", 3, cases[i].why);
	}
}

static void test_errors_malformed(void **state)
{
	expect_error("vm-scalability", "1 bytes remapped, 100 usecs, 5 MB/s\n", 1,
		     "remap time below 1024 usecs");
	expect_error("will-it-scale", "2,10,0.0,0,0,5\n", 1, "after a 'tasks,processes,...' header");
	/* lkp reads "waking D/D" with one digit each: 16 threads give no stat */
	expect_error("perf-bench-futex",
		     "[Run 1]: Avg per-thread latency (waking 1/16 threads) in 0.0091 ms (+-25.33%)\n"
		     "Avg per-thread latency (waking 1/16 threads) in 0.0216 ms (+-17.01%)\n", 2,
		     "one digit each");
	expect_error("will-it-scale", "tasks,processes,threads\n2,10,0\n", 2,
		     "expected 3 comma-separated values");
	expect_error("hackbench", "Time: 1.5\n", 1, "expected 'Running in");
	expect_error("ebizzy", "x records/s\n", 1, "expected '<number> records/s ...'");
	expect_error("ebizzy", "10 records/s 5 y\n", 1, "per-thread figure 'y' is no number");
	expect_error("ebizzy", "10 records/s\nreal 3.00\n", 2, "expected 'real <seconds> s'");
	expect_error("hackbench", "Time: soon\n", 1, "expected 'Time: <seconds>'");
	expect_error("stress-ng", "x\nstress-ng: info:  [1] this stressor is not "
		     "implemented on this system\n", 2, "stressor not implemented");
	expect_error("stress-ng", "stress-ng: info: [1] (secs) (secs) (secs)\n"
		     "stress-ng: info: [1] (average per stressor)\n", 2,
		     "expected '<stressor> <value> <unit>'");
	expect_error("perf-bench-mem", "       8.2 GB/sec\n", 1, "rate before");
	expect_error("perf-bench-syscall", "     Total time: 1.234 [sec]\n", 1, "result before");
	expect_error("perf-bench-numa-mem", " main,  x.y, secs, runtime-max/thread\n", 1,
		     "expected a number");
	expect_error("fio", "{\"jobs\": [", 1, "bad fio JSON: unexpected end of JSON");
	expect_error("fio", "warning\n{\"jobs\": []} trailing", 2,
		     "bad fio JSON: unexpected character");
	expect_error("fio", "{\"jobs\": [{}]}", 1, "jobs[0]: missing or bad \"read\"");
	expect_error("fio", "{\"jobs\": [{\"read\": {\"iops\": 1}, \"write\": {}}]}", 1,
		     "missing or bad \"clat_ns\"");
	expect_error("iperf", "{\"end\": {}}\n{\"end\": ", 2, "no valid iperf session");
	expect_error("dbench", "Throughput 12 MB/sec\n", 1, "expected 'max_latency=<ms>'");
	expect_error("tbench", "Throughput x MB/sec 1 clients 1 procs max_latency=1 ms\n", 1,
		     "expected 'Throughput <MB/s>");
	expect_error("stream", "Copy: 1 2 3\n", 1, "rate before");
	expect_error("netperf", "212992 212992  10240    300.01     8255.00\n", 1,
		     "no units header found");
	expect_error("fsmark", "FSUse%  Count\n 5 51200 8192 x 390190\n", 2,
		     "expected numbers in the Files/sec");
	expect_error("kbuild", "start time: 1.5\n", 1, "no build found");
	expect_error("kernbench", "Elapsed Time\n", 1, "expected 'Elapsed Time <mean>");
	expect_error("openssl-speed", "sha256 1k 2k\n", 1, "expected 'sha256' and 6 rates");
	expect_error("openssl-speed", "rsa 4096 bits 1s\n", 1, "expected 'rsa 4096 bits");
	expect_error("redis", "  throughput summary: 1.00 requests per second\n", 1,
		     "header first");
	expect_error("schbench", "Wakeup Latencies percentiles\n  50.0th: 5\n", 2,
		     "latencies before an 'Iteration' line");
	expect_error("schbench", "Iteration\nWakeup Latencies percentiles\n 50.0th:\n", 3,
		     "expected '<percentile>th: <usec>'");
	expect_error("schbench", "Iteration\nIteration\nWakeup Latencies percentiles\n"
		     " 50.0th: 4\n", 4, "an iteration lacks its wakeup latency_50%_us");
	expect_error("coremark", "Iterations/Sec   : fast\n", 1, "expected 'Iterations/Sec");
	expect_error("aim9", "     1 tcp_test 300.00\n", 1, "expected '<number> <test>");
	/* aim7: a short row, a field that is not a number, a header last */
	expect_error("aim7", "x\nTasks    jobs/min  jti  jobs/min/task      real       cpu\n"
		     " 3000  484435.52   97\n", 3,
		     "expected '<tasks> <jobs/min> <jti> <jobs/min/task> <real> <cpu>', found 3 fields");
	expect_error("aim7", "Tasks    jobs/min  jti  jobs/min/task      real       cpu\n"
		     " 3000  484435.52   97  161.4785  37.16  n/a  Sun\n", 2,
		     "expected a number for cpu (field 6), got 'n/a'");
	expect_error("aim7", "\n\nTasks    jobs/min  jti  jobs/min/task      real       cpu\n", 3,
		     "expected a result row after the 'Tasks jobs/min jti ...' header");
	expect_error("memtier", "SET 0.1\n", 1, "expected 'SET <msec> <percent>'");
	expect_error("memtier", "Sets 1 2 3 4 5 6 7 8 9\n", 1, "expected at most 9 columns");
}

static void test_lenient(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	/* lkp's explicit failure stat */
	assert_int_equal(run_capture("unixbench", "", NULL, &out, &err), 0);
	assert_string_equal(out.buf, "test.fail: 1\n");
	assert_non_null(strstr(err.buf, "no 'Benchmark Run:' duration"));
	assert_int_equal(run_capture("unixbench",
				     "Run: \"2D graphics: rects\": X broken; aborting\n",
				     NULL, &out, &err), 0);
	assert_string_equal(out.buf, "test.fail: 1\n");
	assert_string_equal(err.buf, "");
	/* a cut-off vm-scalability run: throughput only, and a warning */
	assert_int_equal(run_capture("vm-scalability",
				     "1000 bytes / 10 usecs = 100 KB/s\n./case-anon\n",
				     NULL, &out, &err), 0);
	assert_string_equal(out.buf, "# 1 100\nthroughput: 100\n");
	assert_non_null(strstr(err.buf, "incomplete vm-scalability output"));
	/* a malformed iperf session is skipped with a warning */
	assert_int_equal(run_capture("iperf", "{\"end\": {\"sum\": {\"bits_per_second\": 8}}}"
				     "{\"end\": 1", NULL, &out, &err), 0);
	assert_string_equal(out.buf, "udp.bps: 8.0\n");
	assert_non_null(strstr(err.buf, "session 2: malformed JSON"));
	/* stress-ng stops at a sigaction failure */
	expect_output("stress-ng", "stress-ng: fail:  [1] stress-ng: sigaction signal 6 "
		      "'SIGABRT': errno=22 (Invalid argument)\nstress-ng: info: [1] x\n",
		      "sigaction.fail: 1\n");
	/* aim7: AIM7's table as its multitask prints it (fields 2 to 6 as
	 * they stand, the date ignored); the row after the header is taken
	 * whatever it holds, as lkp's awk getline takes it */
	expect_output("aim7", "AIM Multiuser Benchmark - Suite VII\n\n"
		      "Tasks    jobs/min  jti  jobs/min/task      real       cpu\n"
		      " 3000  484435.52   97       161.4785     37.16   1179.86   Sun Dec  6 2026\n"
		      "\nAIM Multiuser Benchmark - Suite VII Testing over....\n",
		      "jobs-per-min: 484435.52\njti: 97\njobs-per-min-per-task: 161.4785\n"
		      "real: 37.16\ncpu: 1179.86\n");
	/* aim9 stops at a skipped test */
	expect_output("aim9", "     1 fork_test    Skipping\n     2 tcp_test 1 2 3 4.5 x\n",
		      "fork_test.skip: 1\n");
	strbuf_release(&out);
	strbuf_release(&err);
}

/* ---- rules the fixtures do not reach ------------------------------- */

static void test_rules(void **state)
{
	expect_output("hackbench",
		      "Instance: 1\n"
		      "Running in process mode with 2 groups using 20 file descriptors each (== 40 tasks)\n"
		      "Each sender will pass 100 messages of 100 bytes\n"
		      "Time: 2.0\n"
		      "Instance: 2\n"
		      "Running in threaded mode with 2 groups using 20 file descriptors each (== 40 tasks)\n"
		      "Each sender passed 100 messages of 100 bytes in average\n"
		      "Time: 4.0\nTime: 2.0\n",
		      "throughput: 195.0\nthroughput_best: 195.0\nthroughput_avg: 146.25\n"
		      "throughput_worst: 97.5\n"
		      "throughput.instance1: 195.0\nthroughput_avg.instance1: 195.0\n"
		      "throughput_worst.instance1: 195.0\n"
		      "throughput.instance2: 195.0\nthroughput_avg.instance2: 130.0\n"
		      "throughput_worst.instance2: 97.5\n");
	/* lkp's own example: stddev_percent is the per-thread standard
	 * deviation in percent of the total, 1.5 * 100 / 21348 */
	expect_output("ebizzy",
		      "Iteration: 1\n21348 records/s 10675 10672\nreal  3.00 s\nuser  1.96 s\n"
		      "sys   4.05 s\nIteration: 2\n100 records/s\nreal  1.00 s\n",
		      "throughput: 21348\nthroughput.per_thread.min: 10672\n"
		      "throughput.per_thread.max: 10675\n"
		      "throughput.per_thread.stddev_percent: 0.0070264193367060145\n"
		      "time.real: 3.0\ntime.user: 1.96\ntime.sys: 4.05\n"
		      "throughput: 100\ntime.real: 1.0\n");
	expect_output("will-it-scale",
		      "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		      "1,100,0.5,0,0,100\n"
		      "2,190,0.1,0,0,200\n"
		      "3,0,0,0,0,300\n"
		      "x: tests/context_switch1.c:33: child: Assertion `ret == 1' failed.\n",
		      "1.processes: 100\n1.processes_idle: 0.5\n1.threads: 0\n"
		      "1.threads_idle: 0\n1.linear: 100\n"
		      "2.processes: 190\n2.processes_idle: 0.1\n2.threads: 0\n"
		      "2.threads_idle: 0\n2.linear: 200\n"
		      "Assertion_ret_==_1_failed: 1\n"
		      "scalability: 0.950000\nper_process_ops: 97\nper_thread_ops: 0\n"
		      "workload: 290\n");
	/* tasks=1 alone gives no scalability; the 0-task idle row is skipped
	 * whatever it holds; a row with threads but no processes is kept */
	expect_output("will-it-scale",
		      "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		      "0,5,100,5,100,0\n"
		      "1,100,0.5,90,0.5,100\n",
		      "1.processes: 100\n1.processes_idle: 0.5\n1.threads: 90\n"
		      "1.threads_idle: 0.5\n1.linear: 100\n"
		      "per_process_ops: 100\nper_thread_ops: 90\nworkload: 190\n");
	expect_output("will-it-scale",
		      "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		      "2,0,0,180,0.1,200\n",
		      "2.processes: 0\n2.processes_idle: 0\n2.threads: 180\n"
		      "2.threads_idle: 0.1\n2.linear: 200\n"
		      "scalability: 0.000000\nper_process_ops: 0\nper_thread_ops: 90\n"
		      "workload: 180\n");
	expect_output("stress-ng",
		      "stress-ng: metrc: [1] stressor bogo ops real time usr time\n"
		      "stress-ng: metrc: [1]  (secs)  (secs)  (secs)\n"
		      "stress-ng: metrc: [1] uprobe 0 60.00 0.21 0.87 0.00 0.00 0.01 1792\n"
		      "stress-ng: metrc: [1] dentry 650354.00 directory entries allocated "
		      "(maximum of 224 instances)\n"
		      "stress-ng: metrc: [1] x86syscall 120.82 nanosecs per call (excluding "
		      "test overhead (harmonic mean of 224 instances)\n"
		      "stress-ng: metrc: [1] flock 0.00 nanosecs per call (total of 2 instances)\n"
		      "stress-ng: info:  [1] for a 60.00s run time:\n"
		      "stress-ng: metrc: [1] late 1 60.00 0.21 0.87 0.00 0.00 0.01 1792\n",
		      "uprobe.fail: 1\n"
		      "dentry.directory_entries_allocated.pass: 1\n"
		      "dentry.directory_entries_allocated: 650354.00\n"
		      "x86syscall.nanosecs_per_call_excluding_test_overhead.pass: 1\n"
		      "x86syscall.nanosecs_per_call_excluding_test_overhead: 120.82\n"
		      "flock.nanosecs_per_call.fail: 1\n");
	expect_output("vm-scalability",
		      "./case-anon-w\n"
		      "4096000 bytes faulted in 2.0-1.0 seconds\n"
		      "1024 bytes / 10 usecs = 100 KB/s\n"
		      "1024 bytes / 10 usecs = 300 KB/s\n"
		      "./case-anon-w\n"
		      "1024 bytes / 10 usecs = 200 KB/s\n"
		      "4 * 4096 bytes migrated, 10 usecs, 77 MB/s\n"
		      "2000000 usecs to free memory\n",
		      "# 2 400\n# 1 4000.0\nmigrate_mbps: 77\n# 1 200\n"
		      "throughput: 300\nstddev%:   33.3333\nfree_time:  2\n"
		      "median: 250\nmedian_stddev%: 20\nworkload: 3.08\n"
		      /* the fault rates were cleared by the last case: lkp prints NaN */
		      "throughput_fault: 4000\nstddev_fault%:   NaN\n"
		      "median_fault: 4000\nmedian_fault_stddev%: 0\n");
	expect_output("perf-bench-futex",
		      "[Run 1]: Wokeup 8 of 8 threads in 0.0170 ms\n"
		      "Averaged 12 operations/sec (+- 1.50%), total secs = 3\n",
		      "ops/s: 12\nstddev%: 1.50\n");
	/* wake-parallel: lkp's fixture stats/perf-bench-futex/04; the
	 * per-run lines have a "(+-" too, only the summary counts */
	expect_output("perf-bench-futex",
		      "Run summary [PID 3042]: blocking on 8 threads (at [shared] futex "
		      "0x56100c564878), 8 threads waking up 1 at a time.\n\n"
		      "[Run 1]: Avg per-thread latency (waking 1/8 threads) in 0.0054 ms (+-16.84%)\n"
		      "[Run 10]: Avg per-thread latency (waking 1/8 threads) in 0.0055 ms (+-9.72%)\n"
		      "Avg per-thread latency (waking 1/8 threads) in 0.0112 ms (+-21.72%)\n",
		      "avg_per_thread_latency_ms: 0.0112\nstddev%: 21.72\n");
	/* wake and requeue are anchored as in lkp: a summary after text is not one */
	expect_output("perf-bench-futex",
		      "x Wokeup 8 of 8 threads in 0.0170 ms (+-1.00%)\n"
		      "Requeued 8 of 8 threads in 0.0138 ms (+-3.86%)\n",
		      "requeued_time_ms: 0.0138\nstddev%: 3.86\n");
	expect_output("mytest", "hello\nops: 007\nlat_us: 1.50\nbig: 2e3\nneg: -4\n"
		      "two words: 5\nx:5\n12:30:01 foo\nrate: 1,000\nvt: 3.50\v\n",
		      "ops: 7\nlat_us: 1.5\nbig: 2000.0\nneg: -4\n");
	expect_output("iperf", "  {\"end\": {\"sum_sent\": {\"bits_per_second\": 10},"
		      " \"sum_received\": {\"bits_per_second\": 9.5}}}\n"
		      "{\"end\": {\"sum_sent\": {\"bits_per_second\": 20}}}  \n",
		      "tcp.sender.bps: 15.0\ntcp.receiver.bps: 9.5\n");
}

/* fio's result root: fio.output wins, else one fio.output.<N> per instance */
static void write_text(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;

	path_join(&path, dir, name);
	assert_int_equal(write_file_atomic(path.buf, text, strlen(text)), 0);
	strbuf_release(&path);
}

static void test_fio_result_root(void **state)
{
	static const char job[] =
		"{\"jobs\": [{\"read\": {\"bw\": 2048, \"iops\": %s, \"total_ios\": %s,"
		" \"clat\": {\"mean\": 1, \"stddev\": 0.5},"
		" \"slat\": {\"mean\": 2, \"stddev\": null}},"
		" \"write\": {\"iops\": 0, \"clat_ns\": {\"mean\": 0, \"stddev\": 0,"
		" \"percentile\": {\"95.000000\": 7, \"99.500000\": 8}},"
		" \"slat_ns\": {\"mean\": 0, \"stddev\": 0}}}]}\n";
	char *dir = test_tmpdir("fio");
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;

	assert_int_equal(run_capture("fio", "", dir, &out, &err), -1);
	assert_non_null(strstr(err.buf, "no fio.output or fio.output.<N>"));

	strbuf_addf(&text, job, "1.5", "10");
	write_text(dir, "fio.output.10", text.buf);
	strbuf_reset(&text);
	strbuf_addf(&text, job, "2", "5");
	write_text(dir, "fio.output.9", text.buf);
	assert_int_equal(run_capture("fio", "ignored", dir, &out, &err), 0);
	assert_string_equal(out.buf,
		"read_bw_MBps: 4.0\nread_iops: 3.5\nread_clat_mean_ns: 1.0\n"
		"read_clat_stddev: 0.5\nread_slat_mean_us: 2.0\n"
		"write_bw_MBps: 0.0\nwrite_iops: 0\nwrite_clat_mean_ns: 0.0\n"
		"write_clat_stddev: 0.0\nwrite_clat_95%_ns: 7.0\n"
		"write_slat_mean_us: 0.0\nwrite_slat_stddev: 0.0\nworkload: 15\n"
		"read_bw_MBps.instance9: 2.0\nread_iops.instance9: 2\n"
		"read_clat_mean_ns.instance9: 1\nread_clat_stddev.instance9: 0.5\n"
		"read_slat_mean_us.instance9: 2\nread_slat_stddev.instance9: \n"
		"write_bw_MBps.instance9: 0.0\nwrite_iops.instance9: 0\n"
		"write_clat_mean_ns.instance9: 0\nwrite_clat_stddev.instance9: 0\n"
		"write_clat_95%_ns.instance9: 7\nwrite_slat_mean_us.instance9: 0\n"
		"write_slat_stddev.instance9: 0\nworkload.instance9: 5\n"
		"read_bw_MBps.instance10: 2.0\nread_iops.instance10: 1.5\n"
		"read_clat_mean_ns.instance10: 1\nread_clat_stddev.instance10: 0.5\n"
		"read_slat_mean_us.instance10: 2\nread_slat_stddev.instance10: \n"
		"write_bw_MBps.instance10: 0.0\nwrite_iops.instance10: 0\n"
		"write_clat_mean_ns.instance10: 0\nwrite_clat_stddev.instance10: 0\n"
		"write_clat_95%_ns.instance10: 7\nwrite_slat_mean_us.instance10: 0\n"
		"write_slat_stddev.instance10: 0\nworkload.instance10: 10\n");

	write_text(dir, "fio.output", "not json\n");
	assert_int_equal(run_capture("fio", "", dir, &out, &err), -1);
	assert_non_null(strstr(err.buf, "/fio.output:1: no JSON document"));

	test_rm_rf(dir);
	free(dir);
	strbuf_release(&text);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* ---- bench_util ----------------------------------------------------- */

static void test_ruby_numbers(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	double tenth[10];
	struct rnum mixed[3] = { rnum_int(1), rnum_int(2), rnum_float(0.5) };
	struct rnum ints[2] = { rnum_int(1), rnum_int(2) };
	struct rnum r;

	/* Float#round(2): half up, with Ruby's check against the decimal */
	assert_true(rb_round(2.675, 2) == 2.68);
	assert_true(rb_round(1.005, 2) == 1.01);
	assert_true(rb_round(-1.005, 2) == -1.01);
	assert_true(rb_round(2920311.9866639087, 2) == 2920311.99);
	assert_true(rb_round(0.0001, 2) == 0.0);
	assert_true(rb_round(1e300, 2) == 1e300);
	assert_true(isnan(rb_round(NAN, 2)));
	/* Array#sum is compensated: [0.1] * 10 sums to exactly 1.0 */
	for (int i = 0; i < 10; i++)
		tenth[i] = 0.1;
	assert_true(rb_fsum(tenth, 10, 0.0) == 1.0);
	assert_true(lkp_average(tenth, 10) == 0.1);
	r = rnum_sum(ints, 2);
	assert_true(r.is_int && r.i == 3);
	r = rnum_sum(mixed, 3);
	assert_true(!r.is_int && r.f == 3.5);
	fmt_rnum(&sb, r);
	strbuf_addch(&sb, ' ');
	fmt_trunc(&sb, -3.9);
	strbuf_addch(&sb, ' ');
	fmt_trunc(&sb, 1e19);
	assert_string_equal(sb.buf, "3.5 -3 10000000000000000000");
	/* String#to_i */
	assert_int_equal(rb_to_i(" -12abc"), -12);
	assert_int_equal(rb_to_i("1_000"), 1000);
	assert_int_equal(rb_to_i("abc"), 0);
	assert_true(rb_to_i("99999999999999999999") == LLONG_MAX);
	assert_true(is_decimal(" 1.5e3 "));
	assert_false(is_decimal("0x10"));
	assert_false(is_decimal("1.5s"));
	/* statistics.rb */
	{
		double v[] = { 1, 2, 3, 4 };
		assert_true(fabs(lkp_stddev(v, 4) - sqrt(1.25)) < 1e-15);
		assert_true(fabs(lkp_harmonic_mean(v, 4) - 1.92) < 1e-12);
		assert_true(fabs(lkp_relative_stddev(v, 4) - sqrt(1.25) * 40) < 1e-12);
	}
	strbuf_release(&sb);
}

static void test_text_helpers(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct dmap m = DMAP_INIT;

	lkp_normalize(&sb, "write128 MB/sec");
	strbuf_addch(&sb, '|');
	lkp_normalize(&sb, " memory_rate_(MB_per_sec) ");
	strbuf_addch(&sb, '|');
	lkp_normalize(&sb, "__a,  \"b\"[c]:d__");
	strbuf_addch(&sb, '|');
	lkp_normalize(&sb, "x.....y...z");
	assert_string_equal(sb.buf, "write128_MB/sec|memory_rate_MB_per_sec|a_b_c_d|x.y...z");

	dvec_push(dmap_get(&m, "b"), 1);
	dvec_push(dmap_get(&m, "a"), 2);
	dvec_push(dmap_get(&m, "b"), 3);
	assert_int_equal(m.nr, 2);
	assert_string_equal(m.v[0].key, "b");
	assert_int_equal(m.v[0].vals.nr, 2);

	dmap_release(&m);
	strbuf_release(&sb);
}

static void test_latency_tables(void **state)
{
	struct lat_tables t = LAT_TABLES_INIT;
	struct lat_series s = LAT_SERIES_INIT;
	struct dvec col = DVEC_INIT;
	size_t a = lat_table_new(&t), b = lat_table_new(&t);

	lat_table_set(&t, a, 1, 50);
	lat_table_set(&t, a, 3, 99);
	lat_table_set(&t, b, 0, 10);
	lat_series_add(&s, a);
	lat_series_add(&s, b);
	lat_series_add(&s, a);  /* a reference twice, as lkp's arrays may hold */
	lat_normalize(&t, &s);
	assert_int_equal(lat_width(&t, &s), 4);
	lat_column(&t, &s, 0, &col);
	assert_true(col.nr == 3 && col.v[0] == 0 && col.v[1] == 10 && col.v[2] == 0);
	lat_column(&t, &s, 2, &col);
	assert_true(col.v[0] == 50 && col.v[1] == 10);
	dvec_release(&col);
	lat_tables_release(&t);
	lat_series_release(&s);
}

/* What a hostile output can make a parse hold: LAT_MAX_CELLS buckets in
 * all tables, and as many in a series' normalized columns. */
static void test_latency_budget(void **state)
{
	struct lat_tables t = LAT_TABLES_INIT;
	struct lat_series s = LAT_SERIES_INIT;
	size_t a = lat_table_new(&t), b = lat_table_new(&t);
	size_t w = LAT_MAX_CELLS / 8;

	(void)state;
	assert_int_equal(LAT_MAX_CELLS, 1u << 23);
	/* one bucket past the budget in a fresh table: refused, nothing held */
	assert_int_equal(lat_table_set(&t, a, LAT_MAX_CELLS, 1), -1);
	assert_int_equal(t.v[a].nr, 0);
	/* up to the budget, across tables; one more bucket is refused */
	assert_int_equal(lat_table_set(&t, a, LAT_MAX_CELLS - 2, 1), 0);
	assert_int_equal(lat_table_set(&t, b, 0, 1), 0);
	assert_int_equal(t.cells, LAT_MAX_CELLS);
	assert_int_equal(lat_table_set(&t, b, 1, 1), -1);
	assert_int_equal(lat_table_set(&t, a, 5, 2), 0);        /* no growth */
	lat_tables_release(&t);

	/* a series of 8 rows as wide as LAT_MAX_CELLS / 8 normalizes; 9 not */
	t = (struct lat_tables)LAT_TABLES_INIT;
	a = lat_table_new(&t);
	assert_int_equal(lat_table_set(&t, a, w - 1, 1), 0);
	for (int i = 0; i < 8; i++)
		lat_series_add(&s, a);
	assert_int_equal(lat_normalize(&t, &s), 0);
	lat_series_add(&s, a);
	assert_int_equal(lat_normalize(&t, &s), -1);
	lat_tables_release(&t);
	lat_series_release(&s);
}

int main(void)
{
	struct CMUnitTest tests[NR_FIXTURE_SETS + 10];
	size_t n = 0;

	for (size_t i = 0; i < NR_FIXTURE_SETS; i++) {
		struct CMUnitTest t = cmocka_unit_test_prestate(test_fixtures,
								(void *)&fixture_sets[i]);
		t.name = fixture_sets[i].parser;
		tests[n++] = t;
	}
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_registry);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_errors_empty);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_errors_malformed);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_lenient);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_rules);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_fio_result_root);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_ruby_numbers);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_text_helpers);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_latency_tables);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_latency_budget);
	return _cmocka_run_group_tests("parse_bench", tests, n, NULL, NULL);
}
