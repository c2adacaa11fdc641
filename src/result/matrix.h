#ifndef PERFBOT_MATRIX_H
#define PERFBOT_MATRIX_H
/*
 * The matrix: every metric's samples across the runs of one _result_root,
 * as lkp-tests keeps it in matrix.json:
 *
 *   { "metric": [run0, run1, ...], ..., "stats_source": [".../0/stats.json", ...] }
 *
 * In memory every metric has ncols samples (and room for cols_room:
 * columns added one at a time do not reallocate every metric each time).
 * Files written by
 * lkp-tests may hold shorter arrays (a metric that disappeared in later runs
 * is not padded there); on load such arrays are padded with zeros at the
 * end, which is what lkp's own readers do (matrix_fill_missing_zeros).
 * An array longer than stats_source is an error.
 *
 * Each sample remembers whether it was an integer in the JSON, so that
 * integers stay integers when written back and lkp's "all-zero integer
 * metrics are dropped" rule can be applied exactly.
 *
 * Metric order is insertion order, as in lkp's Ruby hashes; `index` maps a
 * name to its position.
 */
#include <stdbool.h>
#include "util/strbuf.h"
#include "util/strmap.h"

struct metric {
	char *name;
	double *v;           /* ncols samples */
	bool *is_int;        /* per sample: was an integer in JSON */
};

struct matrix {
	struct metric *m;
	int nr;
	size_t alloc;
	int ncols;
	int cols_room;       /* every metric has room for max(ncols, cols_room) */
	char **sources;      /* stats_source: one per column, may be NULL */
	int nr_sources;
	size_t alloc_sources;
	struct strmap index; /* name -> position in m */
	char *path;          /* the file it was loaded from, for messages */
	/* the names and samples (matrix.c); matrix_release frees it whole */
	struct matrix_pool *pool;
};

void matrix_init(struct matrix *mx);
void matrix_release(struct matrix *mx);

/* Position of a metric, or -1. */
int matrix_find(const struct matrix *mx, const char *name);
/* The same, trying position hint first: a string compare instead of a
 * hash lookup when two matrices list their metrics in the same order, as
 * the runs of one test mostly do. */
int matrix_find_hint(const struct matrix *mx, const char *name, int hint);
/*
 * The values of metric in the columns whose run completed (its
 * last_state.is_incomplete_run is not 1), in column order, into out
 * (room for mx->ncols); returns how many: 0 when the metric is absent.
 * Incomplete runs are left out everywhere results are read, as compare
 * leaves them out.  With metric NULL, counts the complete runs.
 */
int matrix_complete_values(const struct matrix *mx, const char *metric, double *out);
/* Find or add a metric (new ones are zero-filled across existing columns). */
struct metric *matrix_get_or_add(struct matrix *mx, const char *name);

/*
 * Load matrix.json from path, which may be a _result_root directory (then
 * matrix.json or matrix.json.gz inside it is read) or a file (.json or
 * .json.gz).  Returns 0, or -1 after one "perfbot: ..." line saying which
 * file, where (line:column) and what was expected.  The text is JSON as
 * util/json_reader.h reads it (with lkp's NaN and Infinity).  Metrics
 * holding non-numeric samples are skipped with a warning naming their
 * line, as lkp skips string-valued stats.
 */
int matrix_load(struct matrix *mx, const char *path);
/*
 * Parse matrix JSON text into mx, which must be empty (as matrix_init left
 * it); `name` is used in messages.  A key given twice keeps its first
 * place and its last value, as in Ruby's and json-c's hashes.  On error
 * mx is left empty.
 */
int matrix_parse(struct matrix *mx, const char *text, size_t len, const char *name);

/*
 * matrix_parse printing nothing: each warning and the error it would print
 * are appended to log instead, as a level byte ('W' or 'E'), the message
 * and a NUL, for a caller that decides when to print them (in order, with
 * matrix_print_log, through warning() and error()) or checks them.
 */
int matrix_parse_quiet(struct matrix *mx, const char *text, size_t len, const char *name,
		       struct strbuf *log);
void matrix_print_log(const struct strbuf *log);
/* matrix_load printing nothing, its messages (a file that cannot be read
 * included) logged as matrix_parse_quiet's: for a thread that must not
 * print (compare's loaders). */
int matrix_load_quiet(struct matrix *mx, const char *path, struct strbuf *log);

/* Make room for ncols columns in every metric, now and when added later
 * (a hint: unite knows how many runs a root will get). */
void matrix_reserve_cols(struct matrix *mx, int ncols);
/* Append one column from flat stats (a matrix with ncols == 1), zero-padding
 * metrics first seen now in front.  source may be NULL. */
void matrix_add_column(struct matrix *mx, const struct matrix *stats, const char *source);
/* Replace column col with stats (metrics absent from stats become 0). */
void matrix_set_column(struct matrix *mx, int col, const struct matrix *stats);
/*
 * Parse a stats.json text (stats_parse_quiet's input) straight into column
 * col of mx, or into a new last column with stats_source `source` (may be
 * NULL) when col is -1: what stats_parse_quiet followed by matrix_set_column
 * or matrix_add_column gives, messages logged the same way, without a
 * matrix of the run's own (unite's hot path).  0, or -1 with mx unchanged.
 */
int matrix_parse_column(struct matrix *mx, int col, const char *text, size_t len,
			const char *name, const char *source, struct strbuf *log);
/* Drop metrics whose every sample is an integer zero (lkp's rule). */
void matrix_drop_empty(struct matrix *mx);

/* Render as lkp's matrix.json / avg.json / stddev.json. */
void matrix_to_json(const struct matrix *mx, struct strbuf *out);
void matrix_avg_to_json(const struct matrix *mx, struct strbuf *out);
void matrix_stddev_to_json(const struct matrix *mx, struct strbuf *out);

/* The same texts, written into af in pieces as they are rendered (the
 * caller commits af). */
enum matrix_file { MATRIX_FILE_MATRIX, MATRIX_FILE_AVG, MATRIX_FILE_STDDEV };
struct atomic_file;
void matrix_write_file(const struct matrix *mx, enum matrix_file which, struct atomic_file *af);

/*
 * Load a flat stats.json ({"metric": number}) as a one-column matrix.
 * Arrays are accepted too (a monitor's time series): their last value is
 * NOT taken; they are rejected with a message, since a stats file holds one
 * value per metric.
 */
int stats_load(struct matrix *stats, const char *path);
/* stats_load's parse of text in memory, logging as matrix_parse_quiet. */
int stats_parse_quiet(struct matrix *stats, const char *text, size_t len, const char *name,
		      struct strbuf *log);
/* Write a one-column matrix as flat stats.json. */
void stats_to_json(const struct matrix *stats, struct strbuf *out);

#endif
