#ifndef PERFBOT_PARSE_UTIL_H
#define PERFBOT_PARSE_UTIL_H
/*
 * parse_util: the toolkit shared by the parsers in src/parse/.
 *
 * lkp's parsers are Ruby scripts (or shell + awk) whose output we must
 * reproduce byte for byte, so these helpers copy Ruby's semantics where
 * they matter: which bytes are whitespace, what String#split drops, how
 * String#to_f reads a number, how a Hash.new(0) sums and orders its keys.
 * Lines and fields come from util/lines.h (included here), the one line
 * and field toolkit of parsers and monitors alike: (pointer, length) views
 * into the input buffer.  Nothing here allocates per line: keys are built
 * in a caller-owned strbuf that is reset, not freed, between lines.
 *
 * A typical parser:
 *
 *	struct line_iter it;
 *	struct line l;
 *	struct field f[8];
 *
 *	line_iter_init(&it, in->buf, in->len);
 *	while (line_next(&it, &l)) {
 *		size_t n = split_ws(l.s, l.len, f, 8);
 *		if (n != 2)
 *			return parse_error(in, "foo", l.no, "expected 2 fields, found %zu", n);
 *		...
 *		emit_num(out, "foo.bar", v, is_int);
 *	}
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "parse/parser.h"
#include "util/lines.h"
#include "util/strbuf.h"

/* ---- searching ----------------------------------------------------- */

/* First occurrence of needle (of nlen bytes) in s[0..len), or NULL. */
const char *mem_find(const char *s, size_t len, const char *needle, size_t nlen);
/* Last occurrence, or NULL (what a greedy Ruby (.*)needle captures before). */
const char *mem_find_last(const char *s, size_t len, const char *needle, size_t nlen);

/* ---- numbers -------------------------------------------------------- */

/*
 * Ruby's String#to_f: skip leading whitespace, read the longest decimal
 * float prefix ("12abc" is 12.0; underscores between digits are allowed;
 * no hex, no "inf" or "nan"), 0.0 when there is none.  Correctly rounded.
 */
double ruby_to_f(const char *s, size_t len);

/*
 * Read an unsigned decimal "D+" or "D+.D+" at s[0..len) (all of it) into
 * *v, correctly rounded as strtod would, without strtod in the common case
 * (at most 15 significant digits).  Returns false when s is not of that
 * form.  The fast path of hot loops (perf-profile's percentages).
 */
bool parse_udecimal(const char *s, size_t len, double *v);

/*
 * Read a whole field as a number: optional sign, digits, optional fraction,
 * optional exponent ("-1", "2.50", "1e6"; not "1,000", "nan", "0x1f").
 * *is_int is true when there is neither fraction nor exponent, so that the
 * value prints back as an integer (Ruby's Integer vs Float).  Returns 0, or
 * -1 when the field is not such a number.
 */
int parse_field_number(const char *s, size_t len, double *v, bool *is_int);

/* ---- time ---------------------------------------------------------- */

/*
 * Seconds since the epoch of date "YYYY-MM-DD" and time "HH:MM:SS",
 * optionally followed by whitespace and "AM"/"PM", read as UTC.  (lkp's
 * Ruby Time.parse reads vmstat's stamps in the local zone and mpstat's
 * with "UTC" appended; lkp's fixtures, made in UTC, agree with this.)
 * Returns 0, or -1 when either part is not of that form or out of range.
 */
int utc_epoch(const char *date, size_t dlen, const char *time, size_t tlen,
	      long long *epoch);

/* ---- keys ----------------------------------------------------------- */

/*
 * Append a function symbol with gcc's clone suffixes removed (every
 * ".isra.N", ".constprop.N" and ".part.N", scanned once left to right as
 * Ruby's gsub does): "foo.isra.3.constprop.7" becomes "foo".  lkp does
 * this so that a symbol keeps its stat name across compiler changes.
 */
void key_add_symbol(struct strbuf *sb, const char *s, size_t len);

/*
 * Append s with Ruby's tr(from, to) applied, for plain character lists (no
 * ranges, no '^'): a byte found at from[i] becomes to[i], or the last byte
 * of to when to is shorter; with to == "" it is deleted.
 */
void key_add_tr(struct strbuf *sb, const char *s, size_t len,
		const char *from, const char *to);

/* Append s with each run of whitespace replaced by one c (Ruby's
 * gsub(/\s+/, c)): "Copy   rate" with '_' becomes "Copy_rate". */
void key_add_squeeze_ws(struct strbuf *sb, const char *s, size_t len, char c);

/* ---- an ordered map of sums (Ruby's Hash.new(0)) -------------------- */

struct kv_entry {
	const char *key;        /* NUL-terminated, owned by the map */
	size_t len;
	double val;
	unsigned long nr;       /* how many kvmap_add() calls hit the key */
	bool is_int;            /* every value added so far was an integer, as
				   Ruby's 0 + Integer stays an Integer */
	uint64_t hash;
};

/*
 * Keys keep their first-insertion order (Ruby's Hash order) in e[0..nr);
 * an open-addressing index finds them.  Keys may hold any byte and are
 * looked up by (pointer, length), so a caller can build a key in a reused
 * strbuf and never allocate per line.  Key bytes live in arena blocks that
 * the map frees on kvmap_release().
 */
struct kvmap {
	struct kv_entry *e;
	size_t nr, alloc;
	uint32_t *slot;         /* entry index + 1, 0 for an empty slot */
	size_t cap;             /* slots, a power of two */
	struct kv_block *blocks;
};

void kvmap_init(struct kvmap *m);
/* Free every key and the index; the map is then empty and reusable. */
void kvmap_release(struct kvmap *m);
/* Forget all keys (Ruby's Hash#clear), keeping the storage for reuse. */
void kvmap_clear(struct kvmap *m);
/* The entry for key, or NULL (like reading a Hash.new(0): nothing is added). */
struct kv_entry *kvmap_find(const struct kvmap *m, const char *key, size_t len);
/* The entry for key, added at the end with val 0 (an integer) when new.
 * The pointer is valid until the next call that adds a key. */
struct kv_entry *kvmap_get(struct kvmap *m, const char *key, size_t len);
/* h[key] += v: sums in call order (floating point addition is not
 * associative, and lkp's sums are compared as exact strings). */
void kvmap_add(struct kvmap *m, const char *key, size_t len, double v, bool is_int);
/* h[key] = v, keeping the key's first position. */
void kvmap_set(struct kvmap *m, const char *key, size_t len, double v, bool is_int);
/* The value of key, 0 when absent (Hash.new(0)[key]); *is_int may be NULL. */
double kvmap_value(const struct kvmap *m, const char *key, size_t len, bool *is_int);
/*
 * The entries in key byte order (Ruby's sort_by { |k, _| k }), as a new
 * array of m->nr pointers into the map: free() it, and use it before the
 * next call that adds a key.  The map itself keeps its order, so that
 * e - m->e still indexes any array kept in parallel to the entries.
 */
const struct kv_entry **kvmap_sorted(const struct kvmap *m);

/* ---- output --------------------------------------------------------- */

/* Append "key: value\n" with value as the given bytes. */
void emit_str(struct strbuf *out, const char *key, const char *val, size_t vlen);
/* Append "key: value\n" with value printed as Ruby prints it: an integer,
 * or Float#to_s (numfmt.h) when !is_int. */
void emit_num(struct strbuf *out, const char *key, double v, bool is_int);
/* The same with a key of klen bytes (need not be NUL-terminated). */
void emit_num_n(struct strbuf *out, const char *key, size_t klen, double v, bool is_int);

/* ---- errors --------------------------------------------------------- */

/*
 * Print "perfbot: <parser>: <input name>:<lineno>: <message>" (without
 * ":<lineno>" when lineno is 0) and return -1, so that a parser can
 * `return parse_error(in, "vmstat", l.no, "expected ...")`.
 */
__attribute__((format(printf, 4, 5)))
int parse_error(const struct parse_input *in, const char *parser, size_t lineno,
		const char *fmt, ...);

#endif
