#ifndef PERFBOT_REPORT_H
#define PERFBOT_REPORT_H
/*
 * Reports people act on: `perfbot report`, as email text (report_text.c)
 * or as one self-contained HTML file (report_html.c), in the voice of
 * lkp's 0-day emails ("We noticed a -48.8% regression of ...").
 *
 * One data model, two renderers.  report_load_compare() (BASE NEW ...)
 * or report_load_bisect() (--bisect STATE) gathers everything a report
 * says (report_common.c, report_bisect.c):
 *
 *   main     the changed metrics: compare of BASE against the NEWs, or of
 *            the first bad commit against the parent it was compared with
 *   kpi      the key metrics across the commits (every run of every
 *            column, all=true, then only lkp_kpi_stat rows are shown):
 *            BASE NEW...; or good, parent, first bad, bad when bisecting
 *   headline the metric the first paragraph names, its change, and
 *            whether it is a regression (lkp_kpi_direction)
 *   job      the job.yaml of the first run dir that stats_source lists
 *            (the parameter keys line "compiler/.../testcase:" comes
 *            from it), the machine (a `machine` file in a run dir, else
 *            this machine's /proc, and the report says which), and the
 *            perf report call graph (perf-profile.txt) of the NEW or
 *            first bad commit's first run dir
 *
 * A run dir is found from matrix.json's stats_source: the dir of its
 * first entry, or when that is gone (results copied elsewhere), the dir
 * of the same name next to matrix.json.
 *
 * Renderers only read the report: the same report gives the same bytes
 * (no time, no locale, no absolute paths but those given).
 *
 * Ownership: struct report owns everything it points to;
 * report_release() frees it all.
 */
#include <stdbool.h>
#include "report/compare.h"
#include "report/plot.h"
#include "util/strbuf.h"

enum report_format { REPORT_TEXT, REPORT_HTML };
enum report_plotter { PLOTTER_BUILTIN, PLOTTER_GNUPLOT };

/* --tag NAME=COMMIT: COMMIT is a commit id, a prefix of one, or a
 * result dir's name. */
struct report_tag {
	const char *name, *commit;      /* borrowed from argv */
};

struct report_options {
	enum report_format format;
	bool legacy;                    /* '~ N%' tables (seeds 000, 001) */
	bool more;                      /* -m: families hidden by default;
	                                 * always on when bisecting */
	enum change_rule rule;
	const char *axis;               /* --axis: columns by this job key */
	enum report_plotter plotter;
	const char *gnuplot;            /* the program; NULL: "gnuplot" */
	const struct report_tag *tags;
	int nr_tags;
	/* where /proc is read when no run dir has a `machine` file; NULL:
	 * "/proc" (the tests point it at a fake one) */
	const char *proc_dir;
	/*
	 * perfbot watch, for a bisect report: where the branch's history puts
	 * the change, in words ("between v1.1 and v1.2, and it's still low as
	 * of v1.3"), said instead of "between GOOD and BAD"; and the result
	 * roots of the key metric's table (the tags around the change, then
	 * the latest), instead of good, parent, first bad and bad.  The
	 * headline's change is then the table's first against its second.
	 * NULL and 0: as `perfbot report` does.
	 */
	const char *where;
	char *const *kpi_roots;
	int nr_kpi_roots;
	/*
	 * A bisect report that is mailed (perfbot watch --mail-cmd): the
	 * mailbox of its Reported-by: trailer and the URL of its Closes:
	 * trailer, printed under the test's parameters as a current 0-day
	 * mail has them.  NULL: no such trailer.
	 */
	const char *reported_by;
	const char *closes;
};

void report_options_init(struct report_options *opt);

/* One commit (a column of the main or the kpi compare). */
struct report_commit {
	char *id;                       /* the commit, or the result dir's name */
	char *subject;                  /* NULL when unknown */
	char *tag;                      /* its first tag (bisect.json, --tag),
	                                 * or NULL: the name the prose uses */
	char **notes;                   /* "parent of first bad commit", tags */
	int nr_notes;
	size_t alloc_notes;
};

/* Add note to c unless it is there already (copied). */
void report_commit_note(struct report_commit *c, const char *note);
/* Append " (note1, note2)" to sb, or nothing when c has no notes. */
void report_commit_notes(const struct report_commit *c, struct strbuf *sb);
/* Does commit c answer to ref (equal, or ref a prefix of at least 4
 * characters of the id)? */
bool report_commit_matches(const struct report_commit *c, const char *ref);

/* --- bisect.json (report_bisect.c) -------------------------------- */

enum report_verdict {
	VERDICT_GOOD,
	VERDICT_BAD,
	VERDICT_SKIP,
	VERDICT_GOOD_ENDPOINT,
	VERDICT_BAD_ENDPOINT,
};

struct report_step {
	char *commit;
	enum report_verdict verdict;
	char *reason;                   /* why a skip was skipped, or NULL */
	double *samples;
	int nr;
};

struct report_bisect_commit {
	char *sha, *subject;            /* subject may be NULL */
	char *result_root;              /* resolved against the file's dir */
	char **tags;
	int nr_tags;
};

/*
 * bisect.json, version 1, as `perfbot bisect` writes it (src/bisect/state.c):
 *   {"version": 1, "repo": "/path", "metric": "m", "good": sha, "bad": sha,
 *    "good_name": "v1", "bad_name": "v3",     (optional: as the user named them)
 *    "first_bad": sha, "first_bad_subject": "...", "parent": sha,
 *    "job": "/abs/job.yaml", "result_base": "/abs/result",
 *    "commits": {sha: {"subject": "...", "result_root": "...",
 *                      "tags": ["v1.0"]}},
 *    "steps": [{"commit": sha, "verdict": "good"|"bad"|"skip"|
 *               "good-endpoint"|"bad-endpoint", "samples": [...],
 *               "reason": "does not build: ..."}, ...],  (reason: skips)
 *    "endpoints": {"good_mean": x, "bad_mean": y, "rel_shift": r, "p": p},
 *    "command": "perfbot bisect ...",            (optional)
 *    "kernel": {"tree": "/abs/linux", "config": "tiny", "accel": "icount",
 *               "cpus": 2, "mem_mb": 2048, "numa": 2, "boot_timeout": 90}}
 *                 (a kernel bisect's: the numbers only when given)
 * Relative paths are taken relative to the file's directory.  Unknown
 * keys are ignored (newer writers may add some).
 */
struct report_bisect {
	char *path;                     /* the bisect.json read */
	char *repo, *metric, *good, *bad, *first_bad, *first_bad_subject;
	char *parent, *job, *result_base, *command;     /* may be NULL */
	char *good_name, *bad_name;     /* as the user named good and bad, or NULL */
	struct report_bisect_commit *commits;
	int nr_commits;
	struct report_step *steps;
	int nr_steps;
	bool has_endpoints;
	double good_mean, bad_mean, rel_shift, p;
	/* what the bisect measured of its noise (NaN when not written) */
	double noise, noise_end, runs_needed;
	double step_shift;              /* the first bad commit against its parent */
	bool partial_step;              /* step_shift explains only part of rel_shift */
	bool noise_moved;               /* the endpoints disagreed at the end */
	/* a kernel bisect (NULL otherwise): each commit is built in the
	 * kernel cache with kernel_config and booted with kernel_vm_args
	 * (" --accel icount --numa 2", perfbot run's options) */
	char *kernel_tree, *kernel_config, *kernel_vm_args;
};

/*
 * Find bisect.json from what --bisect was given: the file itself, the
 * directory holding it, or the bisect state file (then "<state>.d/", where
 * `perfbot bisect` keeps its files, else beside it).  Appends the path to
 * sb.  Returns 0, or -1 with a message when there is none.
 */
int report_bisect_find(const char *state, struct strbuf *sb);
/* Load bisect.json at path.  0, or -1 with a message naming the file
 * (and line:column for syntax errors) and what was expected. */
int report_bisect_load(struct report_bisect *b, const char *path);
/* Parse bisect.json text; name is used in messages and relative paths
 * are resolved against dirname(name). */
int report_bisect_parse(struct report_bisect *b, const char *text, size_t len,
			const char *name);
void report_bisect_release(struct report_bisect *b);
/* The commit entry of sha (exact, or a unique prefix), or NULL. */
const struct report_bisect_commit *report_bisect_commit(const struct report_bisect *b,
							const char *sha);
const char *report_verdict_name(enum report_verdict v);
/*
 * The bisect's notes on its own trustworthiness, as paragraphs wrapped
 * at width: the endpoints' noise and the runs a verdict needed; that the
 * first bad commit explains only part of the change ("this commit
 * explains -10.0% of the -19.0%"); a warning when the machine's noise
 * moved during the bisect.  Nothing when bisect.json has none of them.
 */
void report_bisect_notes(const struct report_bisect *b, int width, struct strbuf *out);

/* --- the machine ---------------------------------------------------- */

struct report_machine {
	char *model;                    /* CPU model name, NULL when unknown */
	long nr_cpu;                    /* 0 when unknown */
	unsigned long long memory_kb;   /* 0 when unknown */
	char *accel;                    /* a QEMU guest's accel ("tcg", "kvm":
	                                 * `qemu_accel` in the file), or NULL */
	char *source;                   /* what it was read from (a sentence
	                                 * fragment: "<path>" or "this
	                                 * machine's /proc") */
};

/*
 * Parse a `machine` file: lkp's hosts/ "key: value" lines, of which
 * model (or "model name"), nr_cpu and memory (with a K/M/G/T suffix or in
 * kB) are read; other keys are ignored.  Returns 0, or -1 with a message
 * "NAME:LINE: ..." for a line that is not "key: value" or a bad number.
 */
int report_machine_parse(struct report_machine *m, const char *text, const char *name);
/* Fill model and nr_cpu from /proc/cpuinfo text ("model name" lines, and
 * the number of "processor" lines). */
void report_machine_cpuinfo(struct report_machine *m, const char *text);
/* Fill memory_kb from /proc/meminfo text (MemTotal). */
void report_machine_meminfo(struct report_machine *m, const char *text);
/* Append "16G" / "512M" / "1.5T" style memory size, as lkp writes it. */
void report_memory_size(unsigned long long kb, struct strbuf *sb);
void report_machine_release(struct report_machine *m);

/* --- the report ----------------------------------------------------- */

enum report_kind {
	CHANGE_NONE,                    /* no key metric changed */
	CHANGE_REGRESSION,
	CHANGE_IMPROVEMENT,
	CHANGE_UNKNOWN,                 /* changed, direction unknown */
};

/* What the first paragraph says; report_headline_text() words it. */
struct report_headline {
	const char *metric;             /* NULL: nothing to name */
	enum report_kind kind;
	double change;                  /* percent, or a difference */
	bool abs_change;
	const char *testcase;           /* "mytest/300s-fast", may be NULL */
	const char *base, *new;         /* the two commits it is between */
	/* further NEW columns: "-47.6% as of v3.13-rc6" */
	const char *const *more_labels;
	const double *more_changes;
	int nr_more;
	/* said instead of "between BASE and NEW" and the as-of clauses
	 * (report_options.where), or NULL */
	const char *where;
	/* bisect: the first bad commit (short id) and its subject */
	const char *first_bad, *first_bad_subject;
	int other_regressions, other_improvements;      /* other key metrics */
	int changed;                    /* changed metrics in all */
};

/*
 * Append the first paragraph (wrapped at 72 columns, ending with a blank
 * line): "We noticed a -48.8% regression of M in test case ... between B
 * and N.", improvements, unknown directions and no change alike.
 */
void report_headline_text(const struct report_headline *h, struct strbuf *out);

/* Append text wrapped at width columns, each line prefixed by indent
 * (words are never broken: a longer word gets a line of its own). */
void report_wrap(struct strbuf *out, const char *text, int width, const char *indent);

/*
 * The call graph of a perf-profile.txt (perf report --no-children -g
 * graph,0.5,caller output): from its "# Overhead" header line (or its
 * first line that is no comment), at most max_lines lines, trailing
 * blanks trimmed, appended to out.  Returns how many lines were left out.
 */
int report_profile_excerpt(const char *text, int max_lines, struct strbuf *out);

struct report {
	struct report_options opt;
	struct report_bisect *bisect;   /* NULL unless --bisect */
	struct compare main;            /* the changed metrics */
	struct report_commit *main_commits;     /* main.ncols */
	struct compare kpi;             /* all metrics; shown: kpi_rows */
	struct report_commit *kpi_commits;      /* kpi.ncols */
	int *kpi_rows;                  /* rows of kpi shown, headline first */
	int nr_kpi_rows;
	int headline_row;               /* in main, or -1 */
	int headline_kpi_row;           /* in kpi, or -1 */
	struct report_headline headline;
	char *headline_base, *headline_new, *headline_bad_short;
	char **more_labels;
	double *more_changes;
	char *testcase;                 /* testcase/path_params, or NULL */
	struct axis *axes;              /* the job's parameters, sorted */
	int nr_axes;
	char *job_path;                 /* the job to reproduce with, or NULL */
	struct report_machine machine;
	struct strbuf profile;          /* the call graph excerpt */
	char *profile_path;             /* where it came from, or NULL */
	int profile_left_out;           /* lines not quoted */
	const char *profile_commit;     /* label of its column */
	int *perf_rows;                 /* changed perf-profile.* rows of main,
	                                 * by decreasing absolute change */
	int nr_perf_rows;
};

/*
 * Build a report of BASE (paths[0]) against the NEWs.  Returns 0, or -1
 * with a message; release r in both cases.
 */
int report_load_compare(struct report *r, char *const *paths, int n,
			const struct report_options *opt);
/* Build a report of the bisect whose state is at state (see
 * report_bisect_find).  0, or -1 with a message; release r in both cases. */
int report_load_bisect(struct report *r, const char *state,
		       const struct report_options *opt);
void report_release(struct report *r);

/*
 * A view of some rows of cmp, in the given order, for the table
 * renderers: a shallow copy sharing cmp's columns and rows.  Free
 * view->row with free() only (never compare_release the view).
 */
void report_compare_view(const struct compare *cmp, const int *rows, int n,
			 struct compare *view);

/* The complete-run samples of stat in column col of cmp, into out (which
 * must hold cmp->col[col].runs values); returns how many. */
int report_samples(const struct compare *cmp, int col, const char *stat, double *out);

/* The plots the reports draw (the caller releases them).  The bisect
 * steps: good and bad samples each numbered on their own (lkp's email
 * plot) when by_side, else all in measurement order with a mark per step
 * (the HTML chart).  A metric of a compare: each column's samples in
 * turn, with mean +- stddev bands. */
void report_bisect_plot(const struct report *r, bool by_side, struct plot *p);
void report_metric_plot(const struct compare *cmp, int row, struct plot *p);
/* Do the bisect's good and bad samples not overlap? */
bool report_bisect_stable(const struct report *r);

/* "The test machine has 8 CPUs (model) and 16G memory (from SOURCE).",
 * appended to sb; false (nothing appended) when nothing is known. */
bool report_machine_sentence(const struct report *r, struct strbuf *sb);
/* How to reproduce: the sentence leading in (intro), one command per line
 * (cmds: perfbot run per commit, perfbot compare) and, when bisecting,
 * the bisect's own command line (bisect.json's "command", else one made
 * of its fields).  A kernel bisect's line per commit builds it and boots
 * it: `K=$(perfbot kernel build --tree T --commit SHA --config C) &&
 * perfbot run --kernel "$K" <kernel_vm_args> JOB --result-root R`. */
void report_reproduce(const struct report *r, struct strbuf *intro, struct strbuf *cmds,
		      struct strbuf *bisect);
/* Append each line of lines prefixed by indent. */
void report_wrap_lines(struct strbuf *out, const char *lines, const char *indent);

/* Renderers.  report_text returns 0, or -1 with a message (gnuplot
 * failed); report_html cannot fail. */
int report_text(const struct report *r, struct strbuf *out);
void report_html(const struct report *r, struct strbuf *out);

/* Render p with gnuplot's dumb terminal (opt->gnuplot), appending to
 * out.  0, or -1 with a message ("not installed" when it is not found
 * in PATH). */
int report_gnuplot(const struct plot *p, const char *program, struct strbuf *out);

#endif
