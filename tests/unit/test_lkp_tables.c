/*
 * test_lkp_tables.c: lkp's metric-name tables (src/stats/lkp_tables.c)
 * and the pattern matcher under them.
 *
 * A few names per table, each chosen so that the answer depends on one
 * line of lkp's etc/ file (or on how lkp anchors that file), plus the
 * matcher's Ruby-regexp features one by one, and a timing bound: a name
 * against every table must stay cheap enough for 30,000 metrics.
 */
#include "test_helpers.h"

#include <time.h>

#include "stats/lkp_regex.h"
#include "stats/lkp_tables.h"

static void test_selfcheck(void **state)
{
	const char *bad = lkp_tables_selfcheck();

	if (bad)
		fail_msg("table entry breaks the matcher's assumptions: %s", bad);
}

static void test_regex_syntax(void **state)
{
	/* literals, escapes, any */
	assert_true(lkp_regex_match("a\\.b", "xa.by", false));
	assert_false(lkp_regex_match("a\\.b", "xaXby", false));
	assert_true(lkp_regex_match("a.b", "aXb", true));
	/* anchors */
	assert_false(lkp_regex_match("^b", "ab", false));
	assert_true(lkp_regex_match("b$", "ab", false));
	assert_false(lkp_regex_match("a", "ab", true));
	/* classes: ranges, negation, escapes, a ']' first */
	assert_true(lkp_regex_match("^x[0-9]+$", "x123", false));
	assert_false(lkp_regex_match("^x[0-9]+$", "x12a", false));
	assert_true(lkp_regex_match("^[^_]*$", "abc", false));
	assert_false(lkp_regex_match("^[^_]*$", "a_c", false));
	assert_true(lkp_regex_match("[\\-]", "a-b", false));
	assert_true(lkp_regex_match("[{]x[}]", "{x}", false));
	assert_true(lkp_regex_match("[]a]", "]", true));
	/* groups, alternation, quantifiers on groups */
	assert_true(lkp_regex_match("^(E|R)IP", "RIP", false));
	assert_false(lkp_regex_match("^(E|R)IP", "XIP", false));
	assert_true(lkp_regex_match("m(un)?map", "mmap", true));
	assert_true(lkp_regex_match("m(un)?map", "munmap", true));
	assert_false(lkp_regex_match("m(un)?map", "ununmap", true));
	assert_true(lkp_regex_match("(ab)+c", "ababc", true));
	assert_true(lkp_regex_match("(a|)*c", "aac", true));        /* empty iterations end */
	assert_true(lkp_regex_match("^(.*\\.)?time..*", "fxmark.time.x", false));
	assert_true(lkp_regex_match("^(.*\\.)?time..*", "time.x", false));
	assert_false(lkp_regex_match("^(.*\\.)?time..*", "uptime.x", false));
	/* top-level alternation splits the whole pattern */
	assert_true(lkp_regex_match("^a|b", "xb", false));
	assert_false(lkp_regex_match("^a|^b", "xb", false));
	/* braces: counted, else literal */
	assert_true(lkp_regex_match("^T[0-9]{1,5}\\]", "T12345]", false));
	assert_false(lkp_regex_match("^T[0-9]{1,5}\\]", "T123456]", false));
	assert_true(lkp_regex_match("^a{2}$", "aa", false));
	assert_false(lkp_regex_match("^a{2}$", "aaa", false));
	assert_true(lkp_regex_match("{#:#}", "x{#:#}", false));
	/* backtracking into a greedy star */
	assert_true(lkp_regex_match(".+\\.(error|warn|fail)[^_]*$", "a.b.fail", false));
	assert_false(lkp_regex_match(".+\\.(error|warn|fail)[^_]*$", "a.b.fail_x", false));
	/* malformed groups are literal, not a crash */
	assert_true(lkp_regex_match("^ltp(", "ltp(", false));
	assert_true(lkp_regex_match("^a)b", "a)b", false));
	/* an empty alternative is in every name: no literal to look for */
	assert_true(lkp_regex_match("(a|)c", "c", true));
	assert_true(lkp_regex_match("(|a)c", "xc", false));
	assert_false(lkp_regex_match("x(a|b)c", "xc", false));
	/* a repeated byte ends the literal start ("xa", then a+) */
	assert_true(lkp_regex_match("^xa+b", "xaaab", false));
	assert_false(lkp_regex_match("^xa+b", "xb", false));
	/* the literal start is compared whole, not just its lead byte, even
	 * when the name holds it further on */
	assert_false(lkp_regex_match("^abc", "axx.abc", false));
	assert_false(lkp_regex_match("abc", "axx.abc", true));
}

/*
 * A cache's slot holds the facts of the pattern and anchor it was filled
 * from: another pattern, or the same with another anchoring, gets its own
 * (stale facts of "^foo" would let "foo.x" match "^bar").
 */
static void test_re_cache(void **state)
{
	struct lkp_re_cache c = { 0 };

	assert_true(lkp_table_re_match_cached(&c, 0, 1, "^foo", "foo.x", LKP_ANCHOR_NONE));
	assert_false(lkp_table_re_match_cached(&c, 0, 1, "^bar", "foo.x", LKP_ANCHOR_NONE));
	assert_true(lkp_table_re_match_cached(&c, 0, 1, "^bar", "bar", LKP_ANCHOR_NONE));
	assert_false(lkp_table_re_match_cached(&c, 0, 1, "^bar", "bxx.bar", LKP_ANCHOR_NONE));
	/* "foo" unanchored, then the same text as /^(foo)/ and /^(foo)$/ */
	assert_true(lkp_table_re_match_cached(&c, 0, 1, "foo", "xfoo", LKP_ANCHOR_NONE));
	assert_false(lkp_table_re_match_cached(&c, 0, 1, "foo", "xfoo", LKP_ANCHOR_START));
	assert_true(lkp_table_re_match_cached(&c, 0, 1, "foo", "foo.x", LKP_ANCHOR_START));
	assert_false(lkp_table_re_match_cached(&c, 0, 1, "foo", "foo.x", LKP_ANCHOR_FULL));
	/* a slot past the ones allocated grows the cache */
	assert_true(lkp_table_re_match_cached(&c, 5, 2, "a\\.b", "a.b", LKP_ANCHOR_FULL));
	assert_true(c.nr >= 6);
	assert_true(lkp_table_re_match_cached(&c, 0, 1, "foo", "foo", LKP_ANCHOR_FULL));
	lkp_re_cache_release(&c);
	assert_null(c.f);
}

/* The cached lookups answer as the plain ones, name after name (the
 * second time from facts derived the first). */
static void test_tables_cached(void **state)
{
	static const char *const names[] = {
		"dmesg.BUG:kernel_NULL_pointer_dereference", "dmesg.RIP:ida_free",
		"dmesg.boot_failures", "kmsg.T12345]foo", "kmsg.T123456]foo",
		"ltp.syscalls.fail", "ltp.foo.fail_rate", "kselftests.net.pass",
		"proc-vmstat.pgfault", "meminfo.Active", "perf-profile.self.foo",
		"interrupts.CPU0.LOC", "dbench.max_latency", "dbench.max_latency.x",
		"iostat.sda.await.max", "aim7.time.elapsed_time", "time.user_time",
		"lock_stat.foo.contentions", "turbostat.PkgWatt", "turbostat.Avg_MHz",
		"will-it-scale.per_process_ops", "vmstat.system.cs", "slabinfo.x",
		"perf-profile.self.x", "stress-ng.foo.fail", "",
	};
	struct lkp_tables_cache c = { 0 };

	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			const char *n = names[i];

			assert_int_equal(lkp_function_stat_cached(&c, n), lkp_function_stat(n));
			assert_int_equal(lkp_latency_stat_cached(&c, n), lkp_latency_stat(n));
			assert_int_equal(lkp_perf_metric_cached(&c, n), lkp_perf_metric(n));
			assert_int_equal(lkp_bisectable_stat_cached(&c, n), lkp_bisectable_stat(n));
			assert_int_equal(lkp_report_allowlisted_cached(&c, n), lkp_report_allowlisted(n));
			for (double d = 0; d < 2000; d += 49)
				assert_int_equal(lkp_reasonable_perf_change_cached(&c, n, d, d / 2),
						 lkp_reasonable_perf_change(n, d, d / 2));
		}
	/* and NULL is the plain lookup */
	assert_true(lkp_function_stat_cached(NULL, "dmesg.foo"));
	assert_false(lkp_bisectable_stat_cached(NULL, "dmesg.boot_failures"));
	lkp_tables_cache_release(&c);
}

static void test_function_stat(void **state)
{
	/* etc/failure, anchored at the start: "dmesg.*" */
	assert_true(lkp_function_stat("dmesg.BUG:kernel_NULL_pointer_dereference"));
	assert_true(lkp_function_stat("kmsg.foo"));
	assert_true(lkp_function_stat("last_state.is_incomplete_run"));
	assert_true(lkp_function_stat("stderr.foo"));
	/* .+\.(error|warn|fail)[^_]*$ */
	assert_true(lkp_function_stat("ltp.syscalls.fail"));
	assert_true(lkp_function_stat("xfstests.generic.001.fail"));
	assert_false(lkp_function_stat("ltp.foo.fail_rate"));
	/* etc/pass */
	assert_true(lkp_function_stat("kselftests.net.pass"));
	assert_true(lkp_function_stat("libhugetlbfs-test.x.killed_by_signal"));
	/* time/timestamp/bootstage are never pass/fail */
	assert_false(lkp_function_stat("dmesg.timestamp:foo"));
	assert_false(lkp_function_stat("kmsg.bootstage:foo"));
	assert_false(lkp_function_stat("ltp.time.fail"));
	assert_false(lkp_function_stat("will-it-scale.per_process_ops"));
	assert_false(lkp_function_stat("notdmesg.foo"));
}

static void test_bisectable(void **state)
{
	assert_true(lkp_bisectable_stat("will-it-scale.per_process_ops"));
	/* denylist: families, one-off dmesg lines, a {m,n} count */
	assert_false(lkp_bisectable_stat("interrupts.CPU0.LOC"));
	assert_false(lkp_bisectable_stat("perf-profile.self.cycles-pp.foo"));
	assert_false(lkp_bisectable_stat("dmesg.boot_failures"));
	assert_false(lkp_bisectable_stat("dmesg.RIP:ida_free"));
	assert_true(lkp_bisectable_stat("dmesg.RIP:foo"));
	assert_false(lkp_bisectable_stat("kmsg.T12345]foo"));
	assert_true(lkp_bisectable_stat("kmsg.T123456]foo"));
	/* lines without an anchor match anywhere */
	assert_false(lkp_bisectable_stat("dmesg.Modules_linked_in:foo"));
	/* perfbot's machine.* (run/meanwhile.h): hidden, and no test's */
	assert_false(lkp_bisectable_stat("machine.other_cpu_percent"));
	assert_false(lkp_test_stat("machine.other_cpu_percent"));
	assert_false(lkp_kpi_stat("machine.steal_percent"));
	assert_true(lkp_bisectable_stat("machinery.ops"));
	/* allowlist wins over the denylist */
	assert_true(lkp_bisectable_stat("stress-ng.foo.fail"));
	assert_true(lkp_bisectable_stat("kmsg.sanitizer_foo"));
}

static void test_report_allowlist(void **state)
{
	assert_true(lkp_report_allowlisted("meminfo.Active"));
	assert_true(lkp_report_allowlisted("perf-profile.self.foo"));
	assert_false(lkp_report_allowlisted("interrupts.CPU0.LOC"));
	assert_false(lkp_report_allowlisted("softirqs.NET_RX"));
}

static void test_latency_stat(void **state)
{
	/* index-latency-all.yaml keys, matched in full */
	assert_true(lkp_latency_stat("dbench.max_latency"));
	assert_false(lkp_latency_stat("dbench.max_latency.x"));
	assert_true(lkp_latency_stat("iostat.sda.await.max"));
	assert_true(lkp_latency_stat("stress-ng.vm.ms_munmap_avg._duration"));
	assert_true(lkp_latency_stat("stress-ng.vm.ms_mmap_max._duration"));
	assert_false(lkp_latency_stat("will-it-scale.per_process_ops"));
}

static void test_perf_metric(void **state)
{
	/* etc/perf-metrics-patterns */
	assert_true(lkp_perf_metric("aim7.time.elapsed_time"));
	assert_true(lkp_perf_metric("time.user_time"));
	assert_true(lkp_perf_metric("lock_stat.foo.contentions"));
	/* etc/perf-metrics-prefixes */
	assert_true(lkp_perf_metric("proc-vmstat.pgfault"));
	assert_true(lkp_perf_metric("turbostat.PkgWatt"));
	assert_false(lkp_perf_metric("turbostat.Avg_MHz"));
	/* a performance test's prefix; functional tests' are not */
	assert_true(lkp_perf_metric("will-it-scale.per_process_ops"));
	assert_false(lkp_perf_metric("fxmark.ssd_ext4.works/sec"));
	assert_false(lkp_perf_metric("ltp.foo.pass"));
	assert_false(lkp_perf_metric("xfstests.generic.001.foo")); /* the list's last */
	/* monitors are not tests */
	assert_false(lkp_perf_metric("meminfo.Active"));
	assert_false(lkp_perf_metric("dmesg.foo"));
}

static void test_reasonable_perf_change(void **state)
{
	/* threshold table: perf-profile.* 1 (max >= 1, Integer: delta >= 0) */
	assert_false(lkp_reasonable_perf_change("perf-profile.self.x", 0.3, 0.8));
	assert_true(lkp_reasonable_perf_change("perf-profile.self.x", 0.3, 1.8));
	/* the first full match wins: perf-profile.* before the 2.00 Float line */
	assert_true(lkp_reasonable_perf_change(
		"perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath", 0.1, 1.5));
	/* Integer thresholds also want delta >= v / 2 */
	assert_false(lkp_reasonable_perf_change("vmstat.system.cs", 49, 1000));
	assert_true(lkp_reasonable_perf_change("vmstat.system.cs", 50, 1000));
	assert_false(lkp_reasonable_perf_change("iostat.sda.util", 50, 9));
	/* family rules after the table */
	assert_false(lkp_reasonable_perf_change("iostat.sda.foo", 50, 1));
	assert_true(lkp_reasonable_perf_change("iostat.sda.foo", 50, 2));
	assert_false(lkp_reasonable_perf_change("slabinfo.x", 100, 1e9));
	assert_true(lkp_reasonable_perf_change("slabinfo.x", 101, 1e9));
	assert_false(lkp_reasonable_perf_change("numa-meminfo.x", 1e9, 1000));
	assert_true(lkp_reasonable_perf_change("lock_stat.x.holdtime", 1001, 0));
	assert_false(lkp_reasonable_perf_change("lock_stat.x.contentions", 9999, 0));
	assert_false(lkp_reasonable_perf_change("softirqs.x", 1e9, 10000));
	assert_true(lkp_reasonable_perf_change("will-it-scale.per_process_ops", 0, 0));
}

static void test_test_base(void **state)
{
	assert_true(lkp_test_base("will-it-scale", 13));
	assert_true(lkp_test_base("fxmark.works", 6));   /* only len bytes count */
	assert_false(lkp_test_base("meminfo", 7));
	assert_false(lkp_test_base("perf-profile", 12));
	assert_false(lkp_test_base("turbostat", 9));
	assert_false(lkp_test_base("dmesg", 5));
	assert_false(lkp_test_base("time", 4));       /* both lists' last entries: */
	assert_false(lkp_test_base("zoneinfo", 8));   /* their lengths are all read */
	assert_false(lkp_test_base("", 0));
	assert_true(lkp_test_stat("will-it-scale.per_process_ops"));
	assert_false(lkp_test_stat("will-it-scale.time.elapsed_time"));
	assert_false(lkp_test_stat("vmstat.cpu.us"));
}

static void test_kpi_direction(void **state)
{
	/* index-perf-all.yaml */
	assert_int_equal(lkp_kpi_direction("will-it-scale.per_process_ops"), 1);
	assert_int_equal(lkp_kpi_direction("kernbench.elapsed_time"), -1);
	assert_int_equal(lkp_kpi_direction("fio.write_bw_MBps"), 1);
	assert_int_equal(lkp_kpi_direction("pts.x.ms"), -1);
	/* index-latency-all.yaml */
	assert_int_equal(lkp_kpi_direction("pgbench.latency_ms"), -1);
	/* heuristics */
	assert_int_equal(lkp_kpi_direction("foo.requests_per_sec"), 1);
	assert_int_equal(lkp_kpi_direction("foo.bandwidth"), 1);
	assert_int_equal(lkp_kpi_direction("foo.total_ops"), 1);
	assert_int_equal(lkp_kpi_direction("foo.run_time"), -1);
	assert_int_equal(lkp_kpi_direction("foo.wait_us"), -1);
	assert_int_equal(lkp_kpi_direction("foo.loops"), 0);
	assert_int_equal(lkp_kpi_direction("foo.msgs_msg"), 0);
	assert_int_equal(lkp_kpi_direction("foo.bar"), 0);
	/* KPIs are test metrics minus lkp's KPI denylist */
	assert_true(lkp_kpi_stat("vm-scalability.throughput"));
	assert_false(lkp_kpi_stat("vm-scalability.stddev"));
	assert_false(lkp_kpi_stat("unixbench.incomplete_result"));
	assert_false(lkp_kpi_stat("proc-vmstat.pgfree"));
}

/* 30,000 names against every table: well under the 100 ms compare budget */
static void test_speed(void **state)
{
	static const char *const families[] = {
		"proc-vmstat.", "perf-profile.children.cycles-pp.", "meminfo.",
		"dmesg.WARNING:at_", "will-it-scale.", "interrupts.CPU",
	};
	char name[96];
	struct timespec t0, t1;
	int n = 0;
	double ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 30000; i++) {
		snprintf(name, sizeof(name), "%s%d.metric_%d", families[i % 6], i % 97, i);
		n += lkp_function_stat(name) + lkp_bisectable_stat(name) +
		     lkp_report_allowlisted(name) + lkp_latency_stat(name);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	print_message("30000 names: %.1f ms (%d)\n", ms, n);
	/* generous for sanitizer builds; the -O2 build takes ~50 ms here, a
	 * sixth of it for the dmesg.* names (136 denylist lines of their own) */
	assert_true(ms < 1500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selfcheck),
		cmocka_unit_test(test_regex_syntax),
		cmocka_unit_test(test_re_cache),
		cmocka_unit_test(test_tables_cached),
		cmocka_unit_test(test_function_stat),
		cmocka_unit_test(test_bisectable),
		cmocka_unit_test(test_report_allowlist),
		cmocka_unit_test(test_latency_stat),
		cmocka_unit_test(test_perf_metric),
		cmocka_unit_test(test_reasonable_perf_change),
		cmocka_unit_test(test_test_base),
		cmocka_unit_test(test_kpi_direction),
		cmocka_unit_test(test_speed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
