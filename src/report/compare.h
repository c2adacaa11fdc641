#ifndef PERFBOT_COMPARE_H
#define PERFBOT_COMPARE_H
/*
 * The commit comparison of lkp's ncompare: for a BASE and one or more NEW
 * matrices, which metrics changed and, per column, their mean, stddev and
 * change against BASE.  compare_build() computes; the renderers in
 * compare_table.c print the text table (modern or --legacy) or JSON.
 *
 * Row order is ncompare's: families counted by changed rows, test metrics
 * first (count 0), pass/fail families before everything (-10000 + n),
 * then the rest by ascending count; inside a family by name (perf-profile
 * by its first two name components) and then by change.
 */
#include <pthread.h>
#include <stdbool.h>
#include "job/axes.h"
#include "result/matrix.h"
#include "result/change.h"


struct compare_col {
	char *path;             /* as given on the command line */
	char *label;            /* shown in headers: the commit, or the
	                         * column's value of the axis compared along */
	char *commit;           /* the commit (the result root's dir name) */
	struct matrix mx;
	bool *incomplete;       /* per run: last_state.is_incomplete_run == 1 */
	int runs;               /* all runs */
	int complete_runs;      /* runs not marked incomplete */
	struct axis *axes;      /* from the first run's job.yaml, may be empty */
	int nr_axes;
};

struct compare_row {
	const char *stat;       /* borrowed from a column's matrix */
	bool failure;           /* pass/fail stat: fails and %reproduction */
	bool abs_change;        /* change is a difference, not a percentage */
	double *avg, *stddev;   /* per column; stddev -1 when < 2 samples */
	double *fails;          /* failure rows: sum of samples per column */
	double *change;         /* per NEW column (ncols - 1) */
	double *p;              /* per NEW column: Welch p (NaN if untestable) */
	bool *sig;              /* per NEW column: the rule called that
	                         * column's change a change (what is coloured) */
	bool changed;           /* decided changed (rows of --all may not be) */
	int direction;          /* lkp_kpi_direction() of stat */
	bool regression;        /* changed, and the bad way for its direction
	                         * (dmesg.* and kmsg.* counts: more is worse,
	                         * as lkp reports them) */
	long sort_family;
	char *sort_key;
};

/* A change big enough for the table that the rule did not call changed
 * (compare->explain): what the note after the table lists. */
struct compare_hidden {
	const char *stat;       /* borrowed from a column's matrix */
	int col;                /* the NEW column */
	double change;          /* as the table's %change column */
	bool abs_change;
	bool key;               /* a key metric: p against alpha/10 */
	double p, level;        /* the deciding p (q for a non-key metric, the
	                         * BH-adjusted p) and what it had to go below */
	int na, nb;             /* runs of NEW and BASE */
	int runs_needed;        /* a side, if the means and spreads hold; 0: > 50 */
};

struct compare {
	struct compare_col *col;
	int ncols;
	struct compare_row *row;
	int nrows;
	struct change_options opt;
	bool all;               /* every metric, not only changed ones */
	bool too_few_samples;   /* some test could not reach alpha */
	int min_samples_needed;
	struct axis *common;    /* axes equal in every column (minus commit) */
	int nr_common;
	char *axis;             /* the key the columns are labelled by, or
	                         * NULL: by commit ("commit:" in the header) */	bool explain;           /* find the hidden changes (the text tables) */
	struct compare_hidden *hidden;
	int nhidden;
};

/* Load the matrices named by paths (BASE first).  0 or -1 with a message
 * (the first failing column's, as if loaded one after the other). */
int compare_load(struct compare *cmp, char *const *paths, int n);
/*
 * How compare_load_opts parses the matrices: in up to `threads` threads
 * (the caller's included), each other one got from spawn
 * (pthread_create's signature without attributes: 0 or an error number);
 * spawn NULL or failing, the caller's thread parses that share too.
 * compare_load: pthread_create, as many threads as online CPUs.  The
 * columns and the messages are the same either way.
 */
struct compare_load_opts {
	int (*spawn)(pthread_t *thread, void *(*fn)(void *), void *arg);
	int threads;
};
int compare_load_opts(struct compare *cmp, char *const *paths, int n,
		      const struct compare_load_opts *opts);
/* Read column c's job parameters (axes.c); empty when no job.yaml. */
void compare_col_axes(struct compare_col *c);
/* Fill cmp->common: axes equal in every column, without commit. */
void compare_common_axes(struct compare *cmp);
/*
 * Compare along key, as ncompare -c: label each column by its job's value
 * of key (fs, nr_threads, any job key) instead of its commit.  0, or -1
 * naming the column whose job has no such key.
 */
int compare_label_by_axis(struct compare *cmp, const char *key);
/* The first axis (in key order) every column has and not all alike, or
 * NULL. */
const char *compare_differing_axis(const struct compare *cmp);
/* Samples of stat in column c, complete runs only unless all_runs; a
 * metric the column lacks reads as zeros, as in lkp.  out holds c->runs. */
int compare_col_samples(const struct compare_col *c, const char *stat, bool all_runs, double *out);
/* Decide the changed rows and compute their numbers. */
int compare_build(struct compare *cmp);
void compare_release(struct compare *cmp);

/* A mean as the table prints it, 10 wide: %.2f below 1000, %.4g above 1e8,
 * else the integer part (compare_table.c). */
void compare_print_avg(struct strbuf *out, double avg);
/* Renderers (compare_table.c).  pvalue adds a p= column. */
void compare_print_table(const struct compare *cmp, struct strbuf *out, bool pvalue);
void compare_print_legacy(const struct compare *cmp, struct strbuf *out);
/* The legacy layout's pieces, for compare --metric too: the header of n
 * column labels (BASE first; eol ends its two lines), and one column's
 * cell: for a NEW column (change not NULL; NaN prints blanks) the change,
 * then the avg and " ~N%" (blanks when sd_percent < 0). */
void compare_print_legacy_header(struct strbuf *out, const char *const *labels, int n, const char *eol);
void compare_print_legacy_cell(struct strbuf *out, const double *change, bool abs_change,
			       double avg, double sd_percent);
/*
 * The note on the hidden changes (cmp->hidden), empty when none: how many
 * changes the rule did not show, why (p against the level, lkp's 3-run
 * minimum), the runs a side that would show each, and that --all shows
 * them.  Apart from the table, so that lkp's table stays lkp's bytes.
 */
void compare_print_hidden(const struct compare *cmp, struct strbuf *out);
void compare_print_json(const struct compare *cmp, struct strbuf *out);
/* --csv: a line per metric and column (compare --help names the fields). */
void compare_print_csv(const struct compare *cmp, struct strbuf *out);
/*
 * compare --metric (compare_metric.c): metric across the jobs of cmp's
 * columns (loaded, not built), a row per job, a column per commit and a
 * TOTAL row, in seed 000's layout.  0, or -1 with a message: the metric
 * in no column, one commit only, or a job twice at one commit.
 */
int compare_print_metric(const struct compare *cmp, const char *metric, struct strbuf *out);

#endif
