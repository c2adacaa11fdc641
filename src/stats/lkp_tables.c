/*
 * lkp_tables.c: the questions perfbot asks of lkp-tests' metric-name
 * tables (lkp_tables.h): function stat, latency, performance metric,
 * threshold, bisectable, test, KPI and its direction.  The tables
 * themselves, transcribed from lkp's etc/ files, are in lkp_tables_data.c;
 * the KPI lists (etc/index-perf.yaml, lib/stats.rb) stay here by their code.
 */
#include "stats/lkp_tables.h"
#include "stats/lkp_tables_data.h"
#include "stats/lkp_regex.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) LKP_ARRAY_SIZE(a)

/* ------------------------------------------------------------------ */
/* Lookups                                                             */
/* ------------------------------------------------------------------ */

/* Is the len bytes at name one of the sorted words? */
static bool in_sorted(const char *const *words, size_t nr, const char *name, int len)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(words[mid], name, (size_t)len);

		if (c == 0 && words[mid][len] != '\0')
			c = 1;
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Which of a struct lkp_tables_cache's lists holds a table's facts */
enum list_id {
	L_FAILURE, L_PASS, L_DENY, L_DENY_FREE, L_DENY_DMESG, L_DENY_KMSG, L_ALLOW,
	L_REPORT, L_PERF_RE, L_PERF_PREFIX, L_LATENCY, L_THRESHOLDS, L_NR
};
_Static_assert(L_NR == LKP_TABLES_NR_LISTS, "one cache list per table");

static struct lkp_re_cache *list_of(struct lkp_tables_cache *c, enum list_id id)
{
	return c ? &c->list[id] : NULL;
}

static bool match(struct lkp_tables_cache *c, enum list_id id, const struct lkp_pattern_table *t,
		  const char *stat)
{
	return lkp_table_match_cached(t, list_of(c, id), stat);
}

void lkp_tables_cache_release(struct lkp_tables_cache *c)
{
	for (int i = 0; i < L_NR; i++)
		lkp_re_cache_release(&c->list[i]);
}

bool lkp_function_stat(const char *stat)
{
	return lkp_function_stat_cached(NULL, stat);
}

bool lkp_function_stat_cached(struct lkp_tables_cache *c, const char *stat)
{
	if (strstr(stat, ".time.") || strstr(stat, ".timestamp:") ||
	    strstr(stat, ".bootstage:"))
		return false;
	return match(c, L_FAILURE, &lkp_failure_table, stat) || match(c, L_PASS, &lkp_pass_table, stat);
}

bool lkp_latency_stat(const char *stat)
{
	return lkp_latency_stat_cached(NULL, stat);
}

bool lkp_latency_stat_cached(struct lkp_tables_cache *c, const char *stat)
{
	return match(c, L_LATENCY, &lkp_latency_table, stat);
}

bool lkp_test_base(const char *base, int len)
{
	if (len <= 0)
		return false;
	return !in_sorted(lkp_monitor_families, lkp_nr_monitor_families, base, len) &&
	       !in_sorted(lkp_special_families, lkp_nr_special_families, base, len);
}

bool lkp_test_stat(const char *stat)
{
	const char *dot = strchr(stat, '.');
	int len = dot ? (int)(dot - stat) : (int)strlen(stat);

	if (!lkp_test_base(stat, len))
		return false;
	/* kpi_stat?: "<test>.time.*" is the time monitor's view of the test */
	return !(dot && !strncmp(dot + 1, "time.", 5));
}

bool lkp_perf_metric(const char *stat)
{
	return lkp_perf_metric_cached(NULL, stat);
}

bool lkp_perf_metric_cached(struct lkp_tables_cache *c, const char *stat)
{
	const char *dot;
	int len;

	if (match(c, L_PERF_RE, &lkp_perf_re_table, stat) ||
	    match(c, L_PERF_PREFIX, &lkp_perf_prefix_table, stat))
		return true;
	/* the test prefixes ("<test>.") of performance tests */
	dot = strchr(stat, '.');
	if (!dot)
		return false;
	len = (int)(dot - stat);
	return lkp_test_base(stat, len) &&
	       !in_sorted(lkp_non_perf_tests, lkp_nr_non_perf_tests, stat, len);
}

bool lkp_reasonable_perf_change(const char *stat, double delta, double max)
{
	return lkp_reasonable_perf_change_cached(NULL, stat, delta, max);
}

bool lkp_reasonable_perf_change_cached(struct lkp_tables_cache *c, const char *stat,
				       double delta, double max)
{
	for (size_t i = 0; i < lkp_nr_perf_thresholds; i++) {
		const struct lkp_threshold *t = &lkp_perf_thresholds[i];

		if (!lkp_table_re_match_cached(list_of(c, L_THRESHOLDS), i, lkp_nr_perf_thresholds,
					       t->re, stat, LKP_ANCHOR_FULL))
			continue;
		if (max < t->v)
			return false;
		if (t->is_int && delta < floor(t->v / 2))
			return false;
		return true;
	}

	if (!strncmp(stat, "iostat", 6))
		return max > 1;
	if (!strncmp(stat, "pagetypeinfo", 12) || !strncmp(stat, "buddyinfo", 9) ||
	    !strncmp(stat, "slabinfo", 8))
		return delta > 100;
	if (!strncmp(stat, "proc-vmstat", 11) || strstr(stat, "meminfo"))
		return max > 1000;
	if (!strncmp(stat, "lock_stat", 9)) {
		if (!strcmp(stat, "waittime-total"))
			return delta > 10000;
		if (!strcmp(stat, "holdtime-total"))
			return delta > 100000;
		if (strstr(stat, "time"))
			return delta > 1000;
		return delta > 10000;
	}
	if (!strncmp(stat, "interrupts", 10) || !strncmp(stat, "softirqs", 8))
		return max > 10000;
	return true;
}

bool lkp_bisectable_stat(const char *stat)
{
	return lkp_bisectable_stat_cached(NULL, stat);
}

bool lkp_bisectable_stat_cached(struct lkp_tables_cache *c, const char *stat)
{
	/* perfbot's machine.* (run/meanwhile.h) describe the run's machine,
	 * not its result: compare says under the table when a side was
	 * busy (report/busy.h); -m shows them */
	if (!strncmp(stat, "machine.", 8))
		return false;
	if (match(c, L_ALLOW, &lkp_allowlist_table, stat))
		return true;
	if (!strncmp(stat, "dmesg.", 6) && match(c, L_DENY_DMESG, &lkp_denylist_dmesg_table, stat))
		return false;
	if (!strncmp(stat, "kmsg.", 5) && match(c, L_DENY_KMSG, &lkp_denylist_kmsg_table, stat))
		return false;
	return !match(c, L_DENY, &lkp_denylist_table, stat) &&
	       !match(c, L_DENY_FREE, &lkp_denylist_free_table, stat);
}

bool lkp_report_allowlisted(const char *stat)
{
	return lkp_report_allowlisted_cached(NULL, stat);
}

bool lkp_report_allowlisted_cached(struct lkp_tables_cache *c, const char *stat)
{
	return match(c, L_REPORT, &lkp_report_table, stat);
}

/*
 * Name heuristics for KPIs missing from lkp's index tables.  TOKEN words
 * must stand between non-alphanumeric characters ("ops" but not "loops"),
 * SUFFIX ones end the name or a token ("_ms" but not "_msg").
 */
enum word_pos { ANYWHERE, TOKEN, SUFFIX };

struct direction_word {
	const char *word;
	enum word_pos pos;
	int dir;
};

static const struct direction_word direction_words[] = {
	{ "latency", ANYWHERE, -1 },
	{ "elapsed", ANYWHERE, -1 },
	{ "_time", SUFFIX, -1 },
	{ "_ns", SUFFIX, -1 },
	{ "_us", SUFFIX, -1 },
	{ "_ms", SUFFIX, -1 },
	{ "throughput", ANYWHERE, 1 },
	{ "jobs-per-min", ANYWHERE, 1 },
	{ "_per_sec", ANYWHERE, 1 },
	{ "bandwidth", ANYWHERE, 1 },
	{ "ops", TOKEN, 1 },
	{ "iops", TOKEN, 1 },
};

static bool word_at(const char *stat, const struct direction_word *w)
{
	size_t n = strlen(w->word);

	for (const char *p = strstr(stat, w->word); p; p = strstr(p + 1, w->word)) {
		char before = p == stat ? '.' : p[-1], after = p[n];

		switch (w->pos) {
		case ANYWHERE:
			return true;
		case TOKEN:
			if (!lkp_is_alnum(before) && !lkp_is_alnum(after))
				return true;
			break;
		case SUFFIX:
			if (!lkp_is_alnum(after))
				return true;
			break;
		}
	}
	return false;
}

/* etc/index-perf.yaml: each test's primary metrics (the weight is unused
 * here, so nepim's 0.5 is written 1: the field is an int direction),
 * fewer than index-perf-all's key metrics: vm-scalability.throughput, not
 * vm-scalability.median */
static const struct lkp_directed_re index_perf_primary[] = {
	{ "aim7\\.jobs-per-min", 1 },
	{ "aim9\\..+\\.ops_per_sec", 1 },
	{ "apachebench\\.requests_per_second", 1 },
	{ "blogbench\\..+\\_score", 1 },
	{ "boot-time\\.boot", -1 },
	{ "boot-time\\.dhcp", -1 },
	{ "dbench\\.throughput-MB\\/sec", 1 },
	{ "ebizzy\\.throughput", 1 },
	{ "fio\\..+\\_iops", 1 },
	{ "fio\\..+\\_MBps", 1 },
	{ "fio\\..+\\_us", -1 },
	{ "fsmark\\.files_per_sec", 1 },
	{ "ftq\\.counts", 1 },
	{ "ftrace-onoff\\.ops", 1 },
	{ "fwq\\.counts", 1 },
	{ "glbenchmark\\.fps", 1 },
	{ "hackbench\\.throughput", 1 },
	{ "iostat\\..+\\.wkB\\/s", 1 },
	{ "iozone\\.average_KBps", 1 },
	{ "iperf\\..+\\.bps", 1 },
	{ "kbuild\\.build-time", -1 },
	{ "kbuild\\.time\\.elapsed_time", -1 },
	{ "linpack\\.GFlops", 1 },
	{ "nepim\\..+\\.kbps_in", 1 },
	{ "nepim\\..+\\.kbps_out", 1 },
	{ "netperf\\.Throughput_Mbps", 1 },
	{ "netperf\\.Throughput_tps", 1 },
	{ "nuttcp\\.throughput_Mbps", 1 },
	{ "pbzip2\\.throughput", 1 },
	{ "perf-bench-numa-mem\\.GB_sec_total", 1 },
	{ "perf-bench-sched-pipe\\.ops_per_sec", 1 },
	{ "pft\\.faults_per_sec_per_cpu", 1 },
	{ "pigz\\.throughput", 1 },
	{ "pixz\\.throughput", 1 },
	{ "qperf\\..+\\.bw", 1 },
	{ "qperf\\..+\\_bw", 1 },
	{ "reaim\\.jobs_per_min", 1 },
	{ "sockperf\\..+\\_MBps", 1 },
	{ "sysbench-fileio\\..+_operations\\/s", 1 },
	{ "tbench\\.throughput-MB\\/sec", 1 },
	{ "thrulay\\.throughput", 1 },
	{ "tlbflush\\.mem_acc_cost_ns_time", -1 },
	{ "unixbench\\.score", 1 },
	{ "unixbench\\.throughput", 1 },
	{ "uperf\\..+bps", 1 },
	{ "vm-scalability\\.migrate_mbps", 1 },
	{ "vm-scalability\\.throughput", 1 },
	{ "will-it-scale\\..+\\_ops", 1 },
	{ "will-it-scale\\.scalability", 1 },
};

/* lib/stats.rb's $kpi_stat_denylist: test metrics that are not KPIs */
static const char *const kpi_denylist[] = {
	"vm-scalability.stddev",
	"unixbench.incomplete_result",
};

bool lkp_kpi_stat(const char *stat)
{
	for (size_t i = 0; i < ARRAY_SIZE(kpi_denylist); i++)
		if (!strcmp(stat, kpi_denylist[i]))
			return false;
	return lkp_test_stat(stat);
}

int lkp_primary_rank(const char *stat)
{
	for (size_t i = 0; i < ARRAY_SIZE(index_perf_primary); i++)
		if (lkp_table_re_match(index_perf_primary[i].re, stat, LKP_ANCHOR_FULL))
			return (int)i + 1;
	return 0;
}

int lkp_kpi_direction(const char *stat)
{
	for (size_t i = 0; i < lkp_nr_index_perf; i++)
		if (lkp_table_re_match(lkp_index_perf[i].re, stat, LKP_ANCHOR_FULL))
			return lkp_index_perf[i].dir;
	if (lkp_table_match(&lkp_latency_table, stat))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(direction_words); i++)
		if (word_at(stat, &direction_words[i]))
			return direction_words[i].dir;
	return 0;
}

const char *lkp_tables_selfcheck(void)
{
	static const struct lkp_pattern_table *const tables[] = {
		&lkp_failure_table, &lkp_pass_table, &lkp_denylist_table, &lkp_denylist_free_table,
		&lkp_denylist_dmesg_table, &lkp_denylist_kmsg_table, &lkp_allowlist_table,
		&lkp_report_table, &lkp_perf_re_table, &lkp_perf_prefix_table, &lkp_latency_table,
	};

	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		const char *bad = lkp_table_check(tables[i]);
		if (bad)
			return bad;
	}
	for (size_t i = 0; i < lkp_nr_perf_thresholds; i++)
		if (!lkp_table_pattern_ok(lkp_perf_thresholds[i].re))
			return lkp_perf_thresholds[i].re;
	for (size_t i = 0; i < lkp_nr_index_perf; i++)
		if (!lkp_table_pattern_ok(lkp_index_perf[i].re))
			return lkp_index_perf[i].re;
	for (size_t i = 0; i < ARRAY_SIZE(index_perf_primary); i++)
		if (!lkp_table_pattern_ok(index_perf_primary[i].re))
			return index_perf_primary[i].re;
	for (size_t i = 1; i < lkp_nr_monitor_families; i++)
		if (strcmp(lkp_monitor_families[i - 1], lkp_monitor_families[i]) >= 0)
			return lkp_monitor_families[i];
	for (size_t i = 1; i < lkp_nr_non_perf_tests; i++)
		if (strcmp(lkp_non_perf_tests[i - 1], lkp_non_perf_tests[i]) >= 0)
			return lkp_non_perf_tests[i];
	for (size_t i = 1; i < lkp_nr_special_families; i++)
		if (strcmp(lkp_special_families[i - 1], lkp_special_families[i]) >= 0)
			return lkp_special_families[i];
	return NULL;
}
