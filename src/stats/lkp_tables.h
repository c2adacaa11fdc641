#ifndef PERFBOT_LKP_TABLES_H
#define PERFBOT_LKP_TABLES_H
/*
 * What lkp-tests knows about metric names, as declared tables: which stats
 * are pass/fail counts ("function stats"), which are latencies, which are
 * performance metrics and their magnitude thresholds, which families are
 * hidden unless -m, which prefixes are tests (not monitors), and which way
 * is better for key performance indicators.
 *
 * The patterns are facts about lkp's metric names, written as tables in
 * lkp_tables_data.c and asked by lkp_tables.c; every decision that uses
 * them lives in lkp_rule.c, stat_rule.c or the compare renderer.
 */
#include <stdbool.h>

#include "stats/lkp_regex.h"

/* pass/fail style stat (dmesg.*, kmsg.*, *.fail, *.pass, ...) */
bool lkp_function_stat(const char *stat);
/* latency stat (lkp's index-latency table) */
bool lkp_latency_stat(const char *stat);
/* listed as a performance metric (relaxes the ratio > 1.05 filter) */
bool lkp_perf_metric(const char *stat);
/* lkp's reasonable_perf_change?: per-family magnitude thresholds */
bool lkp_reasonable_perf_change(const char *stat, double delta, double max);
/* shown without -m: allowlisted, or not in the denylist */
bool lkp_bisectable_stat(const char *stat);
/* in lkp's report allowlist (shown without -m even if denylisted) */
bool lkp_report_allowlisted(const char *stat);
/* the part before the first '.' names a test program, not a monitor */
bool lkp_test_base(const char *base, int len);
/* stat is a test's metric (test base, and not "<test>.time.*") */
bool lkp_test_stat(const char *stat);
/* A key performance indicator: a test's metric, minus lkp's KPI denylist
 * (vm-scalability.stddev, unixbench.incomplete_result). */
bool lkp_kpi_stat(const char *stat);
/*
 * Direction of a key performance indicator: +1 higher is better
 * (throughput, jobs-per-min, ops), -1 lower is better (latency, time,
 * elapsed), 0 unknown.
 */
int lkp_kpi_direction(const char *stat);
/* The place of stat among lkp's primary metrics (etc/index-perf.yaml:
 * vm-scalability.throughput, hackbench.throughput, ...), from 1; 0 when
 * it is none.  A report's headline is the test's primary metric. */
int lkp_primary_rank(const char *stat);

/*
 * The tables' pattern facts (lkp_regex.h: struct lkp_re_cache), kept by a
 * caller that asks about many names, as lkp_changed_stats does: zeroed is
 * empty, lkp_tables_cache_release frees.  The _cached functions are the
 * ones above with the same answers; c NULL derives the facts every time.
 */
#define LKP_TABLES_NR_LISTS 12
struct lkp_tables_cache {
	struct lkp_re_cache list[LKP_TABLES_NR_LISTS];
};
void lkp_tables_cache_release(struct lkp_tables_cache *c);
bool lkp_function_stat_cached(struct lkp_tables_cache *c, const char *stat);
bool lkp_latency_stat_cached(struct lkp_tables_cache *c, const char *stat);
bool lkp_perf_metric_cached(struct lkp_tables_cache *c, const char *stat);
bool lkp_reasonable_perf_change_cached(struct lkp_tables_cache *c, const char *stat,
				       double delta, double max);
bool lkp_bisectable_stat_cached(struct lkp_tables_cache *c, const char *stat);
bool lkp_report_allowlisted_cached(struct lkp_tables_cache *c, const char *stat);

/* lkp_regex_match(), the matcher under these tables: see lkp_regex.h */

/*
 * Check the tables against the assumptions their fast path makes (every
 * pattern parses, none has a '|' outside parentheses, the word lists are
 * sorted for bsearch).  Returns NULL, or the first offending entry.  For
 * the unit tests: an edit of a table that breaks them fails there.
 */
const char *lkp_tables_selfcheck(void);

#endif
