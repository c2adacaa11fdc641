/*
 * Unit tests of the reduction table and create_stats_matrix
 * (src/monitor/reduce.c), and of dump-stat, the stats lines -> time series
 * step (monitor_stats_to_json in src/monitor/sampler.c).
 */
#include "test_helpers.h"
#include "monitor/monitor.h"
#include "monitor/reduce.h"
#include "result/matrix.h"

#include <stdbool.h>
#include <zlib.h>

static void test_kind(void **state)
{
	static const struct { const char *name; enum reduce_kind kind; } cases[] = {
		{ "proc-vmstat.pgfree", REDUCE_EVENT },
		{ "proc-vmstat.numa_hit", REDUCE_EVENT },
		{ "proc-vmstat.nr_free_pages", REDUCE_GAUGE },
		{ "numa-numastat.node0.numa_hit", REDUCE_EVENT },
		{ "numa-vmstat.node0.numa_hit", REDUCE_EVENT },
		{ "numa-vmstat.node12.pgfree", REDUCE_EVENT },
		{ "numa-vmstat.node0.nr_written", REDUCE_EVENT },
		{ "numa-vmstat.node0.nr_free_pages", REDUCE_GAUGE },
		{ "numa-vmstat.nodeX.pgfree", REDUCE_GAUGE },
		{ "numa-meminfo.node0.MemFree", REDUCE_GAUGE },
		{ "interrupts.CPU0.LOC:Local_timer_interrupts", REDUCE_EVENT },
		{ "softirqs.RCU", REDUCE_EVENT },
		{ "softirqs.CPU1.TIMER", REDUCE_EVENT },
		{ "cpuidle.POLL.time", REDUCE_EVENT },
		{ "diskstats.read_ios.sda", REDUCE_EVENT },
		{ "diskstats.flush_ios.nvme0n1", REDUCE_EVENT },
		{ "diskstats.in_flight.sda", REDUCE_GAUGE },
		{ "proc-stat.cpu0.user", REDUCE_EVENT },
		{ "proc-stat.ctxt", REDUCE_EVENT },
		{ "proc-stat.procs_running", REDUCE_GAUGE },
		{ "meminfo.Memused", REDUCE_GAUGE },
		{ "vmstat.system.cs", REDUCE_GAUGE },
		{ "slabinfo.kmalloc-64.num_objs", REDUCE_GAUGE },
		{ "time.user_time", REDUCE_INDEPENDENT },
		{ "time.voluntary_context_switches", REDUCE_INDEPENDENT },
		{ "time.elapsed_time", REDUCE_GAUGE },
		{ "time.maximum_resident_set_size", REDUCE_GAUGE },
		{ "perf-stat.total.cycles", REDUCE_INDEPENDENT },
		{ "vm-scalability.throughput", REDUCE_GAUGE },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (reduce_kind(cases[i].name) != cases[i].kind)
			fail_msg("%s: kind %d, expected %d", cases[i].name,
				 reduce_kind(cases[i].name), cases[i].kind);
}

static void test_add_max(void **state)
{
	assert_true(reduce_add_max("time.elapsed_time"));
	assert_true(reduce_add_max("vm-scalability.time.elapsed_time"));
	assert_true(reduce_add_max("iostat.sda.await"));
	assert_true(reduce_add_max("iostat.dm-0.avgqu-sz"));
	assert_true(reduce_add_max("numa-meminfo.node1.AnonPages"));
	assert_false(reduce_add_max("numa-meminfo.node10.AnonPages"));
	assert_false(reduce_add_max("numa-meminfo.node1.AnonPagesExtra"));
	assert_false(reduce_add_max("time.elapsed_time.max"));
	assert_false(reduce_add_max("iostat.sda.await.max"));
	assert_false(reduce_add_max("time.user_time"));
	assert_true(reduce_ignore_part("perf-stat.ps.cycles"));
	assert_false(reduce_ignore_part("proc-vmstat.pgfree"));
}

static void check(struct reduced r, double v, bool is_int)
{
	assert_true(r.v == v);
	assert_int_equal(r.is_int, is_int);
}

static void test_series(void **state)
{
	double ctr[] = { 10, 15, 30 };
	double ind[] = { 1, 2, 3 };
	double mix[] = { 1, 2.5 };
	bool mix_int[] = { true, false };
	double g[] = { 1, 2, 4 };
	double tenth[10];
	bool tenth_int[10];

	/* event counter: last - first */
	check(reduce_series("proc-vmstat.pgfree", ctr, NULL, 3), 20, true);
	check(reduce_series("proc-vmstat.pgfree", mix, mix_int, 2), 1.5, false);
	/* independent counter: sum, integer while all are */
	check(reduce_series("time.user_time", ind, NULL, 3), 6, true);
	check(reduce_series("time.user_time", mix, mix_int, 2), 3.5, false);
	/* gauge: the mean, always a float */
	check(reduce_series("vmstat.system.cs", g, NULL, 3), 7.0 / 3, false);
	check(reduce_series_len("vmstat.system.cs", g, NULL, 2, 4), 0.75, false);
	/* one sample: as is, whatever the kind */
	check(reduce_series("proc-vmstat.pgfree", ctr, NULL, 1), 10, true);
	check(reduce_series("vmstat.system.cs", mix + 1, mix_int + 1, 1), 2.5, false);
	/* max keeps the sample's type */
	check(reduce_max(mix, mix_int, 2), 2.5, false);
	check(reduce_max(ctr, NULL, 3), 30, true);
	/* Ruby's Array#sum compensates: ten 0.1 make 1.0, not 0.9999999999999999 */
	for (int i = 0; i < 10; i++) {
		tenth[i] = 0.1;
		tenth_int[i] = false;
	}
	check(reduce_series("time.user_time", tenth, tenth_int, 10), 1.0, false);
	check(reduce_series("meminfo.Memused", tenth, tenth_int, 10), 0.1, false);
}

static void check_json(const char *monitor, const char *lines, int metrics, const char *json)
{
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(monitor_stats_to_json(monitor, lines, strlen(lines), &out), metrics);
	assert_string_equal(out.buf, json);
	strbuf_release(&out);
}

static void test_dump_stat(void **state)
{
	/* all-zero metrics dropped; a late key zero-filled in front */
	check_json("m", "time: 1\na: 0\nb: 1\ntime: 2\na: 0\nb: 2\nc: 5\n", 3,
		   "{\n  \"m.time\": [\n    1,\n    2\n  ],\n"
		   "  \"m.b\": [\n    1,\n    2\n  ],\n"
		   "  \"m.c\": [\n    0,\n    5\n  ]\n}\n");
	/* floats need a '.'; "1e5" is Ruby's to_i of it, 1 */
	check_json("m", "x: 1.50\ny: 1e5\n# comment\nz: \n", 2,
		   "{\n  \"m.x\": [\n    1.5\n  ],\n  \"m.y\": [\n    1\n  ]\n}\n");
	/* a value that is not a number drops its whole sample */
	check_json("m", "time: 1\na: 1\ntime: 2\na: oops\nb: 3\ntime: 3\na: 4\nb: 5\n", 3,
		   "{\n  \"m.time\": [\n    1,\n    3\n  ],\n"
		   "  \"m.a\": [\n    1,\n    4\n  ],\n"
		   "  \"m.b\": [\n    0,\n    5\n  ]\n}\n");
	/* a last sample missing keys was cut short: dropped ... */
	check_json("m", "time: 1\na: 1\nb: 2\ntime: 2\na: 3\n", 3,
		   "{\n  \"m.time\": [\n    1\n  ],\n  \"m.a\": [\n    1\n  ],\n"
		   "  \"m.b\": [\n    2\n  ]\n}\n");
	/* ... except in lkp's unstructured monitors */
	check_json("meminfo", "time: 1\na: 1\nb: 2\ntime: 2\na: 3\n", 3,
		   "{\n  \"meminfo.time\": [\n    1,\n    2\n  ],\n"
		   "  \"meminfo.a\": [\n    1,\n    3\n  ],\n"
		   "  \"meminfo.b\": [\n    2\n  ]\n}\n");
	/* nothing to write */
	check_json("m", "# nothing\nx: \n", 0, "");
	check_json("m", "a: 0\n", 0, "");
	/* float zeros go too: lkp's dump-stat tests val[0] != 0 and
	 * val.sum != 0, and in Ruby 0.0 == 0, so `time`'s "user_time: 0.00"
	 * of a short command is in neither time.json nor stats.json there
	 * (checked with lkp's programs/time/parse | sbin/dump-stat); unite's
	 * integer-only rule is about matrix.json (result/matrix.h) */
	check_json("time", "user_time: 0.00\nsystem_time: 0.01\nexit_status: 0\n", 1,
		   "{\n  \"time.system_time\": [\n    0.01\n  ]\n}\n");
	check_json("m", "time: 1\na: 0.0\ntime: 2\na: 0.5\n", 2,
		   "{\n  \"m.time\": [\n    1,\n    2\n  ],\n"
		   "  \"m.a\": [\n    0.0,\n    0.5\n  ]\n}\n");
}

static void test_dump_stat_error(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const char *bad = "a b: 1\n";

	assert_int_equal(monitor_stats_to_json("m", bad, strlen(bad), &out), -1);
	strbuf_release(&out);
}

static void put_file(const char *dir, const char *name, const char *text)
{
	struct strbuf p = STRBUF_INIT;

	path_join(&p, dir, name);
	if (strstr(name, ".gz")) {
		gzFile gz = gzopen(p.buf, "wb");
		assert_non_null(gz);
		assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
		gzclose(gz);
	} else {
		assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	}
	strbuf_release(&p);
}

/* monitors_to_stats_part of dir held open, as a run's dir is */
static int to_stats(const char *dir, double begin, double end, struct matrix *stats)
{
	struct held_dir hd;
	int r;

	if (held_dir_open(&hd, dir) < 0)
		return -1;
	r = monitors_to_stats_part(&hd, begin, end, stats);
	held_dir_close(&hd);
	return r;
}

static void test_to_stats(void **state)
{
	char *dir = test_tmpdir("reduce");
	struct matrix stats;
	struct strbuf out = STRBUF_INIT;

	/* the layout lkp's dump-stat writes (JSON.pretty_generate) */
	put_file(dir, "proc-vmstat.json",
		 "{\n  \"proc-vmstat.pgfree\": [\n    100,\n    150,\n    400\n  ],\n"
		 "  \"proc-vmstat.nr_free_pages\": [\n    10,\n    20,\n    30\n  ],\n"
		 "  \"proc-vmstat.time\": [\n    1000,\n    1001,\n    1002\n  ]\n}\n");
	put_file(dir, "time.json", "{\"time.user_time\": [13.7], \"time.elapsed_time\": [3723.0]}");
	put_file(dir, "vmstat.json.gz", "{\"vmstat.system.cs\": [100, 200]}");
	put_file(dir, "job.json", "{\"testcase\": \"x\"}");
	put_file(dir, "stats.json", "{\"x\": 1}");
	put_file(dir, "empty.json", "");
	matrix_init(&stats);
	assert_int_equal(to_stats(dir, 0, 0, &stats), 0);
	stats_to_json(&stats, &out);
	assert_string_equal(out.buf,
		"{\n"
		"  \"proc-vmstat.pgfree\": 300,\n"
		"  \"proc-vmstat.nr_free_pages\": 20.0,\n"
		"  \"time.user_time\": 13.7,\n"
		"  \"time.elapsed_time\": 3723.0,\n"
		"  \"time.elapsed_time.max\": 3723.0,\n"
		"  \"vmstat.system.cs\": 150.0\n"
		"}\n");
	matrix_release(&stats);
	strbuf_release(&out);
	test_rm_rf(dir);
	free(dir);
}

static void test_to_stats_part(void **state)
{
	char *dir = test_tmpdir("reduce");
	struct matrix stats;
	struct strbuf json = STRBUF_INIT;

	strbuf_addstr(&json, "{\"proc-vmstat.time\": [");
	for (int i = 0; i < 10; i++)
		strbuf_addf(&json, "%s%d", i ? ", " : "", 1000 + i);
	strbuf_addstr(&json, "], \"proc-vmstat.pgfree\": [");
	for (int i = 0; i < 10; i++)
		strbuf_addf(&json, "%s%d", i ? ", " : "", 10 * i * i);
	strbuf_addstr(&json, "], \"proc-vmstat.nr_free_pages\": [1, 2, 3, 4, 5, 6]"
		      ", \"perf-stat.ps.cycles\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}");
	put_file(dir, "proc-vmstat.json", json.buf);
	matrix_init(&stats);
	/* samples from 3 s to before 7 s: indexes 3..6 */
	assert_int_equal(to_stats(dir, 3, 7, &stats), 0);
	assert_int_equal(stats.nr, 3);
	assert_true(stats.m[matrix_find(&stats, "proc-vmstat.pgfree")].v[0] == 360 - 90);
	/* 4, 5, 6 of a shorter series, divided by the window's 4 samples */
	assert_true(stats.m[matrix_find(&stats, "proc-vmstat.nr_free_pages")].v[0] == 15.0 / 4);
	/* perf-stat's totals ignore the window */
	assert_true(stats.m[matrix_find(&stats, "perf-stat.ps.cycles")].v[0] == 55);
	matrix_release(&stats);
	strbuf_release(&json);
	test_rm_rf(dir);
	free(dir);
}

static void test_to_stats_errors(void **state)
{
	char *dir = test_tmpdir("reduce");
	struct matrix stats;

	matrix_init(&stats);
	put_file(dir, "proc-vmstat.json", "{\"proc-vmstat.pgfree\": [1, \"x\"], \"proc-vmstat.pgalloc\": [1, 5]}");
	assert_int_equal(to_stats(dir, 0, 0, &stats), 0);
	assert_int_equal(stats.nr, 1);
	assert_string_equal(stats.m[0].name, "proc-vmstat.pgalloc");
	put_file(dir, "broken.json", "{\"a\": [1,");
	assert_int_equal(to_stats(dir, 0, 0, &stats), -1);
	/* a link in a run's dir is not followed (the dir is perfbot's: it
	 * made no link there) */
	struct strbuf p = STRBUF_INIT, target = STRBUF_INIT;
	struct stderr_capture cap;
	path_join(&p, dir, "broken.json");
	assert_int_equal(unlink(p.buf), 0);
	path_join(&target, dir, "outside");
	put_file(dir, "outside", "{\"b\": [1]}");
	strbuf_reset(&p);
	path_join(&p, dir, "linked.json");
	assert_int_equal(symlink(target.buf, p.buf), 0);
	capture_start(&cap);
	assert_int_equal(to_stats(dir, 0, 0, &stats), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "linked.json': it is a symbolic link (refusing to follow it)"));
	free(msg);
	strbuf_release(&p);
	strbuf_release(&target);
	matrix_release(&stats);
	matrix_init(&stats);
	assert_int_equal(to_stats("/nonexistent-dir", 0, 0, &stats), -1);
	matrix_release(&stats);
	test_rm_rf(dir);
	free(dir);
}

/*
 * The window is on times relative to the first sample, unless they are
 * relative already: lkp shifts only a series whose first time is past
 * 2 s.  A series of at most 2 samples is never cut.
 */
static void test_to_stats_part_edges(void **state)
{
	static const struct {
		const char *times;
		double begin, end, want;        /* gauge mean over the window */
	} cases[] = {
		/* 1.5 s is below the 2 s mark: taken as relative already, so
		 * [2, 4) holds the samples at 2.5 and 3.5 */
		{ "[1.5, 2.5, 3.5, 4.5, 5.5]", 2, 4, (20 + 30) / 2.0 },
		/* exactly 2: still relative */
		{ "[2, 3, 4, 5, 6]", 2, 4, (10 + 20) / 2.0 },
		/* past 2: shifted to start at 0, so [2, 4) is 4.5 and 5.5 */
		{ "[2.5, 3.5, 4.5, 5.5, 6.5]", 2, 4, (30 + 40) / 2.0 },
		/* begin only: from 3 s to the end, over the remaining samples */
		{ "[1000, 1001, 1002, 1003, 1004]", 3, 0, (40 + 50) / 2.0 },
		/* end only */
		{ "[1000, 1001, 1002, 1003, 1004]", 0, 2, (10 + 20) / 2.0 },
	};
	char *dir = test_tmpdir("reduce");

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf json = STRBUF_INIT;
		struct matrix stats;
		int pos;

		strbuf_addf(&json, "{\"meminfo.time\": %s, \"meminfo.Active\": [10, 20, 30, 40, 50]}",
			    cases[i].times);
		put_file(dir, "meminfo.json", json.buf);
		matrix_init(&stats);
		assert_int_equal(to_stats(dir, cases[i].begin, cases[i].end, &stats), 0);
		pos = matrix_find(&stats, "meminfo.Active");
		assert_true(pos >= 0);
		if (stats.m[pos].v[0] != cases[i].want)
			fail_msg("times %s, window %g..%g: %g, want %g", cases[i].times,
				 cases[i].begin, cases[i].end, stats.m[pos].v[0], cases[i].want);
		matrix_release(&stats);
		strbuf_release(&json);
	}

	/* 2 samples: no window, whatever begin and end say */
	put_file(dir, "meminfo.json", "{\"meminfo.time\": [1000, 1005], \"meminfo.Active\": [10, 20]}");
	struct matrix stats;
	matrix_init(&stats);
	assert_int_equal(to_stats(dir, 3, 4, &stats), 0);
	assert_true(matrix_find(&stats, "meminfo.Active") >= 0);
	assert_true(stats.m[matrix_find(&stats, "meminfo.Active")].v[0] == 15);
	matrix_release(&stats);
	test_rm_rf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_add_max),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_dump_stat),
		cmocka_unit_test(test_dump_stat_error),
		cmocka_unit_test(test_to_stats),
		cmocka_unit_test(test_to_stats_part),
		cmocka_unit_test(test_to_stats_part_edges),
		cmocka_unit_test(test_to_stats_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
