#ifndef PERFBOT_RESULT_CHANGE_H
#define PERFBOT_RESULT_CHANGE_H
/*
 * Which metrics changed between a base matrix and a new one.
 *
 * Naming follows lkp-tests so that records compare field by field with
 * lkp's: "a" is the NEW side, "b" the BASE side.
 *
 * Two rules decide:
 *   RULE_LKP   lkp-tests' own heuristics, reproduced exactly (lkp_rule.c):
 *              trimmed sorted samples, the median as "mean", the
 *              default/gap/distance/variance variants and its filters.
 *   RULE_STAT  a real test (stat_rule.c): Welch's t and exact
 *              Mann-Whitney U, plus lkp's minimum-magnitude filters so
 *              that noise in huge counters does not flood.  Key metrics
 *              are tested at change_key_alpha(opt->alpha) each; the others
 *              are held to a false discovery rate of opt->alpha over the
 *              comparison (Benjamini-Hochberg).
 */
#include <stdbool.h>
#include "result/matrix.h"
#include "util/json_writer.h"

enum change_rule { RULE_STAT, RULE_LKP };

struct change_options {
	enum change_rule rule;
	bool more;              /* -m: families lkp hides by default too */
	bool has_gap;           /* --gap G */
	double gap;
	bool has_distance;      /* --distance D */
	double distance;
	bool has_variance;      /* --variance V */
	double variance;
	bool regression_only;   /* --regression-only */
	bool has_perf_profile;  /* -p N: perf-profile threshold */
	double perf_profile;
	bool perf_profile_is_int; /* the threshold is a Ruby Integer (compare's
	                           * default 5): lkp applies it only to stats
	                           * whose median is an Integer too; -p N is a
	                           * Float (to_f) and applies to Float medians */
	bool lkp_latency;       /* apply lkp's latency variant to index-latency
	                         * stats; off by default because lkp-tests
	                         * switched it off (latency_stat? is false) */
	bool whole;             /* lkp's 'whole': compare even with < 3 runs */
	double alpha;           /* RULE_STAT: the false discovery rate of the
	                         * non-key rows, and change_key_alpha(alpha) is
	                         * each key metric's level; default 0.05 */	bool near_misses;       /* RULE_STAT: also list, marked near_miss, the
	                         * metrics big enough to report that the tests
	                         * did not call changed (compare's note) */
};

void change_options_init(struct change_options *opt);

struct change_record {
	const char *stat;       /* borrowed from the NEW matrix (from BASE for a
	                         * metric only BASE has) */
	double *a, *b;          /* sorted (for lkp: margin-trimmed) samples, owned */
	int na, nb;
	bool int_a, int_b;      /* every sample of that side was an integer */
	double mean_a, mean_b;  /* lkp: the middle element; stat: arithmetic mean */
	double min_a, max_a, min_b, max_b, max;
	double ratio, delta, x, y, z;
	int nr_run;
	bool is_function_stat, is_latency;
	bool gap_distance;      /* lkp made a ChangedStat: record has gap_distance: 2 */
	bool has_boot_fix;      /* lkp's options had has_boot_fix set (regression-only) */
	double p_welch, p_mwu;  /* RULE_STAT p-values; NaN when not computed */
	bool mwu_exact;         /* p_mwu is the exact permutation p */
	bool key;               /* a key metric (change_key_metric) */
	double q;               /* RULE_STAT, non-key: Benjamini-Hochberg adjusted
	                         * p over the comparison; NaN for key metrics */
	bool too_few_samples;   /* RULE_STAT: the rank test could never reach the
	                         * metric's level, and Welch decided alone */	bool near_miss;         /* RULE_STAT with opt.near_misses: not changed,
	                         * only big enough to be (p_welch, q say why) */
};

struct change_list {
	struct change_record *r;
	int nr;
	size_t alloc;
	/* RULE_STAT: set when some metric had too few samples for the test to
	 * ever reach alpha; compare prints a footnote instead of pretending */
	int min_samples_needed;
	bool too_few_samples;
};

/* Compute the changed stats of a (new) against b (base), appending to out.
 * The matrices are not modified.  Returns 0 or -1 with a message. */
int changed_stats(const struct matrix *a, const struct matrix *b,
		  const struct change_options *opt, struct change_list *out);
int lkp_changed_stats(const struct matrix *a, const struct matrix *b,
		      const struct change_options *opt, struct change_list *out);
int stat_changed_stats(const struct matrix *a, const struct matrix *b,
		       const struct change_options *opt, struct change_list *out);

/*
 * A key metric: what a benchmark reports as its result (lkp's KPIs with a
 * known direction: throughput, ops, latency, time) and time.elapsed_time.
 * These decide whether a commit regressed (--fail-on-regression).
 */
bool change_key_metric(const char *stat);
/* The level each key metric is tested at under RULE_STAT: alpha / 10. */
double change_key_alpha(double alpha);

#define CHANGE_LIST_INIT { NULL, 0, 0, 0, false }
void change_list_init(struct change_list *l);

/* Append a fresh zeroed record (p-values NaN) to out and return it; the
 * pointer is valid until the next change_list_add. */
struct change_record *change_list_add(struct change_list *out);
/* Free every record's a and b and the array; l is left empty (reusable). */
void change_list_release(struct change_list *l);

/* Append lkp's interval text of r to out:
 * "[ %-10.5g - %-10.5g ] -- [ %-10.5g - %-10.5g ]" of min_a, max_a, min_b,
 * max_b (Ruby's "Inf"/"NaN" spelling for non-finite values). */
void change_record_interval(const struct change_record *r, struct strbuf *out);

/* One record as a JSON object with lkp's field names (plus p-values and
 * the options lkp merges into every record). */
void change_record_to_json(const struct change_record *r,
			   const struct change_options *opt, struct json_writer *jw);

/*
 * The same record as YAML-like text, as lkp's fixtures show it:
 *   <stat>:
 *     stat: <stat>
 *     interval: "[ ... ]"
 *     a: [10, 10, 10]
 *     ...
 * Names that are not plain words are double-quoted (JSON escapes).
 */
void change_record_to_yaml(const struct change_record *r,
			   const struct change_options *opt, struct strbuf *out);

#endif
