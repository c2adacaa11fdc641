#ifndef PERFBOT_BENCH_UTIL_H
#define PERFBOT_BENCH_UTIL_H
/*
 * bench_util: what the benchmark parsers (src/parse/<benchmark>.c) share.
 *
 * lkp-tests' parsers are Ruby scripts, and their outputs are compared as
 * exact strings, so the arithmetic they lean on is reproduced here bit for
 * bit: String#to_f / #to_i, Array#sum (Kahan-Babuska compensated when a
 * Float is involved), Float#round(n) (round-half-up with Ruby's
 * correction), and lib/statistics.rb's average, standard_deviation and
 * harmonic_mean with their exact operation order.  Ruby's Float#to_s is
 * fmt_ruby_float in util/numfmt.h.
 *
 * Built on parse_util.h (String#to_f, parse_error()) and util/lines.h.
 * Input is walked line by line with line_next_str(), which gives each
 * line NUL-terminated, and split with split_ws_str(); matching uses POSIX
 * extended regular expressions through util/rx.h, which matches in time
 * linear in the line (glibc's regexec takes seconds on a long run of
 * digits, and a benchmark's output is not ours to trust).
 *
 * Error policy shared by the benchmark parsers: a parser that finds none
 * of the lines it looks for fails (parse_error(): "perfbot: <parser>:
 * <file>:<line>: ...", naming what it expected) rather than printing
 * nothing, so that "could not measure" is never mistaken for "no
 * metrics"; so does one that meets a line it cannot read where lkp would
 * crash or print garbage.  Where lkp prints an explicit failure stat
 * (unixbench's test.fail, stress-ng's <stressor>.fail, aim9's <test>.skip)
 * or keeps going past a bad part (iperf's bad sessions, vm-scalability's
 * cut-off last sample) that output is kept, with a warning where lkp logs
 * one.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "parse/parse_util.h"
#include "parse/parser.h"
#include "util/rx.h"
#include "util/strbuf.h"

/* ---- Ruby numbers ---- */

/* String#to_f of a NUL-terminated string (parse_util's ruby_to_f). */
static inline double rb_to_f(const char *s)
{
	return ruby_to_f(s, strlen(s));
}
/* String#to_i (base 10), saturating at the long long range. */
long long rb_to_i(const char *s);
/* True when the whole of s (surrounding whitespace aside) is a decimal
 * number such as "12", "-3.5" or "1e6": the parsers' sanity check before
 * they trust a field that lkp would silently turn into 0. */
bool is_decimal(const char *s);

/* Float#round(ndigits) for ndigits >= 1 (round half away from zero, with
 * Ruby's overflow/underflow shortcuts and its x*10^n correction). */
double rb_round(double x, int ndigits);

/* A growable array of doubles. */
struct dvec {
	size_t nr, alloc;
	double *v;
};
#define DVEC_INIT { 0, 0, NULL }
void dvec_push(struct dvec *d, double x);
void dvec_release(struct dvec *d);

/*
 * An ordered map of names to dvecs: Ruby's Hash.new { |h, k| h[k] = [] },
 * whose keys keep their first-insertion order.
 */
struct dmap {
	size_t nr, alloc;
	struct dmap_entry {
		char *key;
		struct dvec vals;
	} *v;
};
#define DMAP_INIT { 0, 0, NULL }
/* The values of key, added empty at the end when new.  The pointer is
 * valid until the next dmap_get() of a new key. */
struct dvec *dmap_get(struct dmap *m, const char *key);
void dmap_release(struct dmap *m);

/*
 * Array#sum of Floats: Kahan-Babuska summation starting from init (0.0 for
 * a plain #sum of Floats, which Ruby starts from Integer 0 then converts).
 * Integral values below 2^53 sum exactly, so an Integer array's sum is
 * this too.
 */
double rb_fsum(const double *v, size_t n, double init);
/* lib/statistics.rb Enumerable#average: sum / length.to_f (n >= 1). */
double lkp_average(const double *v, size_t n);
/* standard_deviation: sqrt(1 / n.to_f * sum((x - avg)**2)), the sum taken
 * left to right from 0 (n >= 1). */
double lkp_stddev(const double *v, size_t n);
/* relative_stddev: standard_deviation * 100 / average. */
double lkp_relative_stddev(const double *v, size_t n);
/* harmonic_mean: n / (0 + 1/x1 + 1/x2 ...), left to right (n >= 1). */
double lkp_harmonic_mean(const double *v, size_t n);

/*
 * A Ruby number that may be an Integer or a Float, for values whose type
 * shows in the output (JSON numbers, sums of mixed arrays).
 */
/*
 * i is 128 bits so that sums of parsed 64-bit Integers stay exact, as
 * Ruby's do (its Integers grow without bound): a hostile output with
 * values near 2^63 must not wrap around (or trip UBSan).
 */
struct rnum {
	bool is_int;
	__int128 i;
	double f;
};
static inline struct rnum rnum_int(long long i)
{
	struct rnum r = { true, i, 0.0 };
	return r;
}

static inline struct rnum rnum_float(double f)
{
	struct rnum r = { false, 0, f };
	return r;
}

/* A growable array of rnums. */
struct rvec {
	size_t nr, alloc;
	struct rnum *v;
};
#define RVEC_INIT { 0, 0, NULL }
void rvec_push(struct rvec *r, struct rnum x);
void rvec_release(struct rvec *r);
/* Sort by value, as Array#sort! compares Integers and Floats. */
void rvec_sort(struct rvec *r);
/* The values as doubles, in a dvec the caller releases. */
void rvec_to_dvec(const struct rvec *r, struct dvec *out);

/* Array#sum of mixed Integers and Floats (Integer 0 for n == 0). */
struct rnum rnum_sum(const struct rnum *v, size_t n);
double rnum_to_f(struct rnum r);
/* Append Integer#to_s or Float#to_s. */
void fmt_rnum(struct strbuf *sb, struct rnum r);

/* Ruby's sprintf of a Float with a C conversion (fmt such as "%g",
 * "%f", "%.2f"): as C, except NaN and infinities, which Ruby spells
 * "NaN", "Inf" and "-Inf". */
void fmt_c_double(struct strbuf *sb, const char *fmt, double v);

/* Ruby's printf "%d" of a Float: truncation toward zero. */
void fmt_trunc(struct strbuf *sb, double v);

/* ---- output ---- */

/* Append "<key>: <value>\n", the key made by printf-style keyfmt. */
__attribute__((format(printf, 3, 4)))
void put_str(struct strbuf *out, const char *val, const char *keyfmt, ...);
__attribute__((format(printf, 3, 4)))
void put_float(struct strbuf *out, double val, const char *keyfmt, ...);
__attribute__((format(printf, 3, 4)))
void put_int(struct strbuf *out, long long val, const char *keyfmt, ...);

/* lib/tests/stats.rb LKP::Stats.normalize: strip, squeeze whitespace and
 * ,"_[]():  runs to one '_', drop leading/trailing '_', squeeze "...."+
 * to '.'.  Appends to out. */
void lkp_normalize(struct strbuf *out, const char *s);

/* ---- JSON ---- */

struct json_object;
/*
 * Parse s[0..len) as exactly one JSON document (whitespace may follow, as
 * Ruby's JSON.parse allows; anything else is an error).  Returns the
 * document (json_object_put() it), or NULL with *why set to a static
 * description.
 */
struct json_object *json_parse_whole(const char *s, size_t len, const char **why);

/* ---- formats shared by several benchmarks ---- */

/* dbench's and tbench's "Throughput N MB/sec  C clients  P procs
 * max_latency=L ms" summaries (see dbench.c); name is the parser's, for
 * messages. */
int parse_dbench_format(const struct parse_input *in, struct strbuf *out,
			const char *name);

/*
 * Latency distributions as redis' and memtier's lkp parsers keep them: a
 * table per benchmark process, percent by bucket, where a bucket nothing
 * was printed for is Ruby's nil (NAN here).  A series lists tables by
 * index, because lkp's arrays hold references: a table may appear in a
 * series twice, and memtier's GET table is shared by every process.
 */
struct lat_tables {
	size_t nr, alloc;
	struct dvec *v;
	size_t cells;           /* buckets held by all tables */
};
/*
 * The buckets a parse may hold: all tables together, and each series'
 * normalized columns (64 MiB of doubles each).  A bucket is lkp's index
 * (memtier's msec * 100, redis' msec), so one line of 30 bytes naming a
 * latency of 900 s asked for 90 million (720 MB), per table; a real
 * run's tables are far below it (64 processes with a 1.3 s tail).
 */
#define LAT_MAX_CELLS (1u << 23)
struct lat_series {
	size_t nr, alloc;
	size_t *rows;           /* indices into a lat_tables */
};
#define LAT_TABLES_INIT { 0, 0, NULL, 0 }
#define LAT_SERIES_INIT { 0, 0, NULL }

/* Add an empty table; returns its index. */
size_t lat_table_new(struct lat_tables *t);
/* table[bucket] = percent, growing the table with nils: 0, or -1 (nothing
 * set) when the tables would pass LAT_MAX_CELLS. */
int lat_table_set(struct lat_tables *t, size_t table, size_t bucket, double percent);
void lat_series_add(struct lat_series *s, size_t table);
/* lkp's normalize_latencies: pad every table of s to the widest and fill
 * each nil with the bucket before it (0 for the first).  0, or -1 (nothing
 * done) when the series' tables at that width would pass LAT_MAX_CELLS. */
int lat_normalize(struct lat_tables *t, const struct lat_series *s);
/* Buckets of a normalized series (0 when empty). */
size_t lat_width(const struct lat_tables *t, const struct lat_series *s);
/* Column bucket of the normalized series s as a dvec (replaced). */
void lat_column(const struct lat_tables *t, const struct lat_series *s,
		size_t bucket, struct dvec *col);
void lat_tables_release(struct lat_tables *t);
void lat_series_release(struct lat_series *s);

/* ---- regular expressions ---- */

/*
 * POSIX extended regexps (util/rx.h) compiled once per parse call from a
 * constant table.  Patterns are constants of the program, so a pattern that does
 * not compile is a bug and dies.
 */
void rx_compile_all(struct rx *re, const char *const *patterns, size_t n);
void rx_free_all(struct rx *re, size_t n);
/* Match s against re, filling up to nm submatches (m may be NULL). */
bool rx_match(const struct rx *re, const char *s, struct rx_sub *m, size_t nm);
/* Replace sb by group i of the last match of s ("" if it did not take
 * part); returns sb->buf. */
const char *rx_group(struct strbuf *sb, const char *s, const struct rx_sub *m, size_t i);

#endif
