#ifndef PERFBOT_LKP_TABLES_DATA_H
#define PERFBOT_LKP_TABLES_DATA_H
/*
 * lkp_tables_data.h: the tables of lkp_tables_data.c, for lkp_tables.c
 * only (everyone else asks lkp_tables.h's questions).  They are the text
 * of lkp-tests' etc/ files (failure, pass, stat-denylist, stat-allowlist,
 * report-allowlist, perf-metrics-*, index-latency-all.yaml,
 * index-perf-all.yaml, perf-metrics-threshold.yaml, the test-case lists)
 * and the families lkp treats as monitors: some 900 lines of data that
 * are read against lkp's files, not against code, so they stay apart from
 * the lookups.  Everything here is const.
 */
#include <stdbool.h>
#include <stddef.h>

#include "stats/lkp_regex.h"

/* The pattern tables, each with the anchor lkp applies it with */
extern const struct lkp_pattern_table lkp_failure_table;        /* etc/failure */
extern const struct lkp_pattern_table lkp_pass_table;           /* etc/pass */
/* etc/stat-denylist, split: the lines of any family, the unanchored ones
 * (tried against every name), and those of dmesg.* and kmsg.* */
extern const struct lkp_pattern_table lkp_denylist_table;
extern const struct lkp_pattern_table lkp_denylist_free_table;
extern const struct lkp_pattern_table lkp_denylist_dmesg_table;
extern const struct lkp_pattern_table lkp_denylist_kmsg_table;
extern const struct lkp_pattern_table lkp_allowlist_table;      /* etc/stat-allowlist */
extern const struct lkp_pattern_table lkp_report_table;         /* etc/report-allowlist */
extern const struct lkp_pattern_table lkp_perf_re_table;        /* etc/perf-metrics-patterns */
extern const struct lkp_pattern_table lkp_perf_prefix_table;    /* etc/perf-metrics-prefixes */
extern const struct lkp_pattern_table lkp_latency_table;        /* etc/index-latency-all.yaml */

/* A pattern (matched in full) and its direction: 1 higher is better, -1 lower */
struct lkp_directed_re {
	const char *re;
	int dir;
};

/* etc/index-perf-all.yaml */
extern const struct lkp_directed_re lkp_index_perf[];
extern const size_t lkp_nr_index_perf;

/*
 * etc/perf-metrics-threshold.yaml, in file order (lkp takes the first key
 * that matches in full).  is_int: the YAML value is an Integer, for which
 * lkp also requires delta >= value / 2 (integer division).
 */
struct lkp_threshold {
	const char *re;
	double v;
	bool is_int;
};
extern const struct lkp_threshold lkp_perf_thresholds[];
extern const size_t lkp_nr_perf_thresholds;

/* Word lists, sorted (strcmp) for bsearch: the families that are monitors,
 * lkp's own families (dmesg, kmsg, ...), the tests that are not
 * performance tests (etc/linux-test-cases, etc/other-test-cases) */
extern const char *const lkp_monitor_families[];
extern const size_t lkp_nr_monitor_families;
extern const char *const lkp_special_families[];
extern const size_t lkp_nr_special_families;
extern const char *const lkp_non_perf_tests[];
extern const size_t lkp_nr_non_perf_tests;

#endif
