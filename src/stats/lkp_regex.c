/*
 * lkp_regex.c: a matcher for the Ruby regexps of lkp's etc/ files (see
 * lkp_regex.h), interpreted directly from their text.
 *
 * A small backtracking matcher that knows the part of Ruby's syntax these
 * files use: literals and \-escapes, ., [classes], (groups) with |, the
 * quantifiers * + ? {m,n}, and ^ $.  Nothing is compiled, so there is no
 * global mutable state.  Speed comes from rejecting early instead: an
 * anchored pattern's literal start is compared before the matcher runs,
 * and so is (with strstr) the longest literal a match must contain;
 * tables sorted by their patterns' first byte are looked up by the name's
 * first byte.  Those facts of a pattern are derived from its text before
 * each name, or once into a caller's struct lkp_re_cache.
 */
#include "stats/lkp_regex.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

enum atom_kind { A_CHAR, A_ESC, A_ANY, A_CLASS, A_GROUP, A_BOL, A_EOL };

struct atom {
	enum atom_kind kind;
	const char *p;          /* first byte of the atom */
	const char *ae;         /* one past the atom (for A_GROUP: past ')') */
	const char *after;      /* one past its quantifier */
	int min, max;           /* repetitions; max < 0: unbounded */
};

/* What to match once the current sequence is done. */
enum frame_kind { F_SEQ, F_GROUP, F_END };

struct frame {
	enum frame_kind kind;
	const char *p, *end;    /* F_SEQ: the rest; F_GROUP: the group body */
	int count, min, max;    /* F_GROUP: iterations done and wanted */
	const char *iter_start; /* F_GROUP: where the last iteration began */
	const struct frame *next;
};

/* A byte with a meaning of its own in a pattern (not a literal)? */
static inline bool is_meta(char c)
{
	switch (c) {
	case '.': case '[': case '(': case ')': case '\\': case '^': case '$':
	case '|': case '*': case '+': case '?': case '{': case '\0':
		return true;
	}
	return false;
}


/* Past the ']' closing the class opened at p, or NULL when unclosed. */
static const char *class_end(const char *p, const char *end)
{
	const char *q = p + 1;

	if (q < end && *q == '^')
		q++;
	if (q < end && *q == ']')       /* a leading ']' is literal */
		q++;
	for (; q < end; q++) {
		if (*q == '\\' && q + 1 < end)
			q++;
		else if (*q == ']')
			return q + 1;
	}
	return NULL;
}

/* Past the ')' closing the group opened at p, or NULL when unclosed. */
static const char *group_end(const char *p, const char *end)
{
	int depth = 0;

	for (const char *q = p; q < end; q++) {
		if (*q == '\\') {
			if (q + 1 < end)
				q++;
		} else if (*q == '[') {
			const char *c = class_end(q, end);
			if (c)
				q = c - 1;
		} else if (*q == '(') {
			depth++;
		} else if (*q == ')') {
			if (--depth == 0)
				return q + 1;
		}
	}
	return NULL;
}

static int parse_uint(const char **pp, const char *end)
{
	const char *p = *pp;
	int v = 0;

	if (p >= end || *p < '0' || *p > '9')
		return -1;
	while (p < end && *p >= '0' && *p <= '9' && v < 100000)
		v = v * 10 + (*p++ - '0');
	*pp = p;
	return v;
}

/* Parse a {m}, {m,}, {,n} or {m,n} at p; a brace that is not one is literal. */
static bool parse_braces(const char *p, const char *end, struct atom *a)
{
	const char *q = p + 1;
	int lo, hi;

	lo = parse_uint(&q, end);
	if (q < end && *q == ',') {
		q++;
		hi = parse_uint(&q, end);
		if (lo < 0 && hi < 0)
			return false;
		if (lo < 0)
			lo = 0;
	} else {
		if (lo < 0)
			return false;
		hi = lo;
	}
	if (q >= end || *q != '}')
		return false;
	a->min = lo;
	a->max = hi;
	a->after = q + 1;
	return true;
}

static void parse_atom(const char *p, const char *end, struct atom *a)
{
	const char *q;

	a->p = p;
	a->kind = A_CHAR;
	a->ae = p + 1;
	switch (*p) {
	case '\\':
		if (p + 1 < end) {
			a->kind = A_ESC;
			a->ae = p + 2;
		}
		break;
	case '.':
		a->kind = A_ANY;
		break;
	case '^':
		a->kind = A_BOL;
		break;
	case '$':
		a->kind = A_EOL;
		break;
	case '[':
		q = class_end(p, end);
		if (q) {
			a->kind = A_CLASS;
			a->ae = q;
		}
		break;
	case '(':
		q = group_end(p, end);
		if (q) {
			a->kind = A_GROUP;
			a->ae = q;
		}
		break;
	}

	a->min = a->max = 1;
	a->after = a->ae;
	if (a->ae >= end)
		return;
	switch (*a->ae) {
	case '*':
		a->min = 0, a->max = -1, a->after = a->ae + 1;
		break;
	case '+':
		a->min = 1, a->max = -1, a->after = a->ae + 1;
		break;
	case '?':
		a->min = 0, a->max = 1, a->after = a->ae + 1;
		break;
	case '{':
		parse_braces(a->ae, end, a);
		break;
	default:
		return;
	}
	/* a lazy '?' after a quantifier changes which match is found, never
	 * whether one is */
	if (a->after > a->ae && a->after < end && *a->after == '?')
		a->after++;
}

static bool esc_match(char e, unsigned char c)
{
	switch (e) {
	case 'd': return c >= '0' && c <= '9';
	case 'D': return !(c >= '0' && c <= '9');
	case 'w': return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			 (c >= 'A' && c <= 'Z') || c == '_';
	case 'W': return !esc_match('w', c);
	case 's': return c == ' ' || (c >= '\t' && c <= '\r');
	case 'S': return !esc_match('s', c);
	case 'n': return c == '\n';
	case 't': return c == '\t';
	default: return c == (unsigned char)e;
	}
}

static bool class_match(const struct atom *a, unsigned char c)
{
	const char *q = a->p + 1, *close = a->ae - 1;
	bool neg = false, first = true;

	if (*q == '^') {
		neg = true;
		q++;
	}
	while (q < close) {
		unsigned char lo;

		if (*q == ']' && !first)
			break;
		first = false;
		if (*q == '\\' && q + 1 < close) {
			char e = q[1];
			q += 2;
			if (strchr("dDwWsS", e)) {
				if (esc_match(e, c))
					return !neg;
				continue;
			}
			lo = (unsigned char)(e == 'n' ? '\n' : e == 't' ? '\t' : e);
		} else {
			lo = (unsigned char)*q++;
		}
		if (q + 1 < close && *q == '-') {
			unsigned char hi = (unsigned char)q[1];
			q += 2;
			if (hi == '\\' && q < close)
				hi = (unsigned char)*q++;
			if (c >= lo && c <= hi)
				return !neg;
		} else if (c == lo) {
			return !neg;
		}
	}
	return neg;
}

static bool atom_match1(const struct atom *a, unsigned char c)
{
	switch (a->kind) {
	case A_CHAR: return c == (unsigned char)*a->p;
	case A_ESC: return esc_match(a->p[1], c);
	case A_ANY: return c != '\n';
	case A_CLASS: return class_match(a, c);
	default: return false;
	}
}

static bool match_here(const char *p, const char *end, const char *s,
		       const struct frame *k, const char *bol);
static bool group_step(const struct frame *g, const char *s, const char *bol);

static bool cont(const struct frame *k, const char *s, const char *bol)
{
	if (!k)
		return true;
	switch (k->kind) {
	case F_SEQ:
		return match_here(k->p, k->end, s, k->next, bol);
	case F_GROUP:
		return group_step(k, s, bol);
	case F_END:
		return *s == '\0';
	}
	return false;
}

/* One more iteration of a group (each alternative), or leave it. */
static bool group_step(const struct frame *g, const char *s, const char *bol)
{
	if ((g->max < 0 || g->count < g->max) &&
	    (g->count < g->min || s != g->iter_start)) {
		struct frame again = *g;
		const char *alt = g->p;
		int depth = 0;

		again.count++;
		again.iter_start = s;
		for (const char *q = g->p; q <= g->end; q++) {
			if (q == g->end || (*q == '|' && depth == 0)) {
				if (match_here(alt, q, s, &again, bol))
					return true;
				alt = q + 1;
				continue;
			}
			if (*q == '\\' && q + 1 < g->end) {
				q++;
			} else if (*q == '[') {
				const char *c = class_end(q, g->end);
				if (c)
					q = c - 1;
			} else if (*q == '(') {
				depth++;
			} else if (*q == ')') {
				depth--;
			}
		}
	}
	if (g->count >= g->min)
		return cont(g->next, s, bol);
	return false;
}

static bool match_here(const char *p, const char *end, const char *s,
		       const struct frame *k, const char *bol)
{
	struct atom a;

	while (p < end) {
		parse_atom(p, end, &a);
		if (a.kind == A_BOL) {
			if (s != bol)
				return false;
			p = a.after;
			continue;
		}
		if (a.kind == A_EOL) {
			if (*s)
				return false;
			p = a.after;
			continue;
		}
		if (a.kind == A_GROUP) {
			struct frame rest = { F_SEQ, a.after, end, 0, 0, 0, NULL, k };
			struct frame g = { F_GROUP, a.p + 1, a.ae - 1, 0, a.min, a.max, NULL, &rest };
			return group_step(&g, s, bol);
		}
		if (a.min == 1 && a.max == 1) {
			if (!*s || !atom_match1(&a, (unsigned char)*s))
				return false;
			s++;
			p = a.after;
			continue;
		}
		int n = 0;
		char want = 0;
		struct atom b;

		if (a.kind == A_ANY && a.max < 0)
			n = (int)(strchrnul(s, '\n') - s);
		else
			while ((a.max < 0 || n < a.max) && s[n] &&
			       atom_match1(&a, (unsigned char)s[n]))
				n++;
		/* a literal next: only the positions holding it can go on */
		if (a.after < end) {
			parse_atom(a.after, end, &b);
			if (b.min >= 1 && b.kind == A_CHAR && !is_meta(*b.p))
				want = *b.p;
			else if (b.min >= 1 && b.kind == A_ESC && !lkp_is_alnum(b.p[1]))
				want = b.p[1];
		}
		for (int i = n; i >= a.min; i--)
			if ((!want || s[i] == want) && match_here(a.after, end, s + i, k, bol))
				return true;
		return false;
	}
	return cont(k, s, bol);
}

/*
 * Is there a '|' outside every group, splitting the whole pattern?  Only
 * the text up to the last '|' can tell, which keeps this cheap for the
 * common patterns: none, or one early "(E|R)".
 */
static bool top_level_alt(const char *re, const char *end)
{
	const char *last = memrchr(re, '|', (size_t)(end - re));
	int depth = 0;

	if (!last)
		return false;
	for (const char *q = re; q <= last; q++) {
		if (*q == '\\') {
			if (q + 1 < end)
				q++;
		} else if (*q == '[') {
			const char *c = class_end(q, end);
			if (c)
				q = c - 1;
		} else if (*q == '(') {
			depth++;
		} else if (*q == ')') {
			depth--;
		} else if (*q == '|' && depth <= 0) {
			return true;
		}
	}
	return false;
}

/* The literal byte every match must start with, or 0 when unknown. */
static char lead_char(const char *re, const char *end)
{
	struct atom a;

	if (re >= end || is_meta(*re))
		return 0;
	parse_atom(re, end, &a);
	return a.min >= 1 ? *re : 0;
}

/*
 * The literal byte at pattern p (a plain one or \-escaped punctuation)
 * into *c: the pattern after it, or NULL when p is no literal byte.
 */
static inline const char *literal_byte(const char *p, char *c)
{
	if (*p == '\\' && p[1] && (is_meta(p[1]) || p[1] == ']' ||
				    p[1] == '}' || p[1] == '-' || p[1] == '/')) {
		*c = p[1];
		return p + 2;
	}
	if (is_meta(*p))
		return NULL;
	*c = *p;
	return p + 1;
}

/*
 * Does the literal text that starts pattern p (escaped punctuation
 * included) differ from the start of s?  The quick "no" for most names.
 */
static inline bool prefix_differs(const char *p, const char *s)
{
	for (;;) {
		char c;
		const char *nx = literal_byte(p, &c);

		if (!nx)
			return false;
		if (*nx == '*' || *nx == '?' || *nx == '{')
			return false;           /* optional: cannot tell */
		if (*s != c)
			return true;
		if (*nx == '+')
			return false;
		s++;
		p = nx;
	}
}

/*
 * The quick "no" for a pattern without a top-level '|' (every table
 * pattern: see lkp_tables_selfcheck): its anchored literal start differs.
 */
static inline bool quick_reject(const char *re, const char *s, enum lkp_anchor anchor)
{
	bool caret = re[0] == '^';

	return (anchor != LKP_ANCHOR_NONE || caret) && prefix_differs(re + caret, s);
}

/*
 * Append the pattern text [p, end), when it is all literal (bytes and
 * \-escaped punctuation), to lit, which holds *len bytes and has room for
 * cap.  False when it does not fit or is not all literal.
 */
static bool add_literal(char *lit, size_t *len, size_t cap, const char *p, const char *end)
{
	while (p < end) {
		char c = *p++;

		if (c == '\\') {
			if (p >= end || lkp_is_alnum(*p))
				return false;   /* \d, \w...: a class, not a byte */
			c = *p++;
		} else if (is_meta(c)) {
			return false;
		}
		if (*len + 1 >= cap)
			return false;
		lit[(*len)++] = c;
	}
	lit[*len] = '\0';
	return true;
}

/* Room for a pattern's facts: a start or a literal that does not fit is
 * cut short or left out, which only lets more names reach the matcher. */
#define PREFIX_MAX 64
#define LITS_MAX 160

/*
 * What re_search needs of a pattern before it runs the matcher, derived
 * from the text once.  lits holds the literal checks: each a list of
 * NUL-terminated strings ended by an empty one; a name holding none of
 * one check's strings cannot match.
 */
struct lkp_re_facts {
	const char *re, *end;   /* the pattern (re NULL: slot empty) */
	enum lkp_anchor anchor;
	bool alt;               /* a top-level '|': none of the rest applies */
	bool anchored;          /* a match starts at the name's start */
	char lead;              /* lead_char, or 0 */
	const char *rest;       /* anchored: the pattern after the start's
	                         * nfixed bytes that match exactly once */
	size_t nfixed, plen, nlits;
	char prefix[PREFIX_MAX];        /* the literal start (quick_reject's) */
	char lits[LITS_MAX];
};

/*
 * prefix_differs's literal start of p, as text a name must begin with;
 * and how much of it the matcher need not walk again once it is there.
 */
static void derive_prefix(struct lkp_re_facts *f, const char *p)
{
	f->plen = f->nfixed = 0;
	f->rest = p;
	while (f->plen < PREFIX_MAX) {
		char c;
		const char *nx = literal_byte(p, &c);

		if (!nx)
			return;
		if (*nx == '*' || *nx == '?' || *nx == '{')
			return;                 /* optional: cannot tell */
		f->prefix[f->plen++] = c;
		if (*nx == '+')
			return;
		p = f->rest = nx;
		f->nfixed++;
	}
}

/* Append the string lit (len bytes, not empty) and its NUL to f->lits;
 * false when it does not fit. */
static bool add_lit(struct lkp_re_facts *f, const char *lit, size_t len)
{
	if (f->nlits + len + 2 > LITS_MAX)     /* its NUL, and a check's end */
		return false;
	memcpy(f->lits + f->nlits, lit, len);
	f->nlits += len;
	f->lits[f->nlits++] = '\0';
	return true;
}

/*
 * The check of a mandatory group g made of literal alternatives:
 * "\\.(error|warn|fail)" needs ".error", ".warn" or ".fail" somewhere in
 * a name; prefix is the literal text just before the group (plen bytes of
 * pattern, possibly 0).  None when an alternative is not literal or is
 * empty (found in every name).
 */
static void derive_alternatives(struct lkp_re_facts *f, const char *prefix, size_t plen,
				const struct atom *g)
{
	const char *alt = g->p + 1, *close = g->ae - 1;
	size_t start = f->nlits;
	char lit[64];

	for (const char *q = alt; q <= close; q++) {
		size_t len = 0;

		if (q < close && *q != '|') {
			if (*q == '\\' && q + 1 < close)
				q++;
			continue;
		}
		/* [alt, q) is one alternative */
		if (!add_literal(lit, &len, sizeof(lit), prefix, prefix + plen) ||
		    !add_literal(lit, &len, sizeof(lit), alt, q) || !len || !add_lit(f, lit, len)) {
			f->nlits = start;
			return;
		}
		alt = q + 1;
	}
	f->lits[f->nlits++] = '\0';
}

/*
 * The literals every match must contain: the longest run of mandatory
 * literal atoms at the top level ("elapsed_time" in
 * ".*.time.elapsed_time.*"), and the alternatives of each mandatory group
 * of literals ("(error|warn|fail)"), looked up with strstr, which spares
 * the backtracking matcher most names.  The pattern has no top-level '|'.
 */
static void derive_literals(struct lkp_re_facts *f, const char *re, const char *end)
{
	const char *best = NULL, *run = NULL;
	size_t nbest = 0, n = 0;
	char lit[64];

	f->nlits = 0;
	for (const char *p = re; p < end;) {
		const char *nx;
		bool one = false, some = false;     /* exactly once / at least once */

		if (*p == '\\' && p + 1 < end && !lkp_is_alnum(p[1])) {
			nx = p + 2;
			one = true;
		} else if (!is_meta(*p)) {
			nx = p + 1;
			one = true;
		} else {
			struct atom a;

			parse_atom(p, end, &a);
			nx = a.after;
			if (a.kind == A_GROUP && a.min >= 1)
				derive_alternatives(f, n ? run : p, n ? (size_t)(p - run) : 0, &a);
		}
		if (one && nx < end && (*nx == '*' || *nx == '?' || *nx == '{' || *nx == '+')) {
			some = *nx == '+';
			one = false;
			if (*nx == '{') {
				struct atom a;
				parse_atom(p, end, &a);
				some = a.min >= 1;
				nx = a.after;
			} else {
				nx++;
			}
		}
		if (one || some) {
			if (!n)
				run = p;
			n++;
		}
		if (!one) {
			if (n > nbest) {
				best = run;
				nbest = n;
			}
			n = 0;
		}
		p = nx;
	}
	if (n > nbest) {
		best = run;
		nbest = n;
	}
	if (nbest < 2)
		return;
	/* unescape the run into lit */
	n = 0;
	for (const char *p = best; n < nbest && n < sizeof(lit) - 1; n++) {
		if (*p == '\\')
			p++;
		lit[n] = *p++;
	}
	if (add_lit(f, lit, n))
		f->lits[f->nlits++] = '\0';
}

/* re's facts with the given anchoring.  from_table: re is one of our
 * tables', known to have no top-level '|'. */
static void derive_facts(struct lkp_re_facts *f, const char *re, enum lkp_anchor anchor,
			 bool from_table)
{
	bool caret = re[0] == '^';

	f->re = re;
	f->end = re + strlen(re);
	f->anchor = anchor;
	f->alt = !from_table && top_level_alt(re, f->end);
	f->anchored = anchor != LKP_ANCHOR_NONE || caret;
	f->plen = f->nlits = f->nfixed = 0;
	f->rest = re;
	f->lead = 0;
	if (f->alt)
		return;
	if (f->anchored)
		derive_prefix(f, re + caret);
	derive_literals(f, re, f->end);
	f->lead = lead_char(re + caret, f->end);
}

/* Does s lack every string of one of f's literal checks? */
static bool literal_absent(const struct lkp_re_facts *f, const char *s)
{
	for (const char *p = f->lits, *end = f->lits + f->nlits; p < end; p++) {
		bool found = false;

		for (; *p; p += strlen(p) + 1)
			if (!found && strstr(s, p))
				found = true;
		if (!found)
			return true;
	}
	return false;
}

/* Does s match the pattern of f? */
static bool search_facts(const struct lkp_re_facts *f, const char *s)
{
	const char *re = f->re, *end = f->end;
	struct frame fin = { F_END, NULL, NULL, 0, 0, 0, NULL, NULL };
	const struct frame *next = f->anchor == LKP_ANCHOR_FULL ? &fin : NULL;

	if (f->alt) {
		/* "a|b" as a whole: lkp's Pattern wraps every line in a group */
		struct frame whole = { F_GROUP, re, end, 0, 1, 1, NULL, next };

		if (f->anchor != LKP_ANCHOR_NONE)
			return group_step(&whole, s, s);
		for (const char *t = s;; t++) {
			if (group_step(&whole, t, s))
				return true;
			if (!*t)
				return false;
		}
	}
	if (f->anchored && strncmp(s, f->prefix, f->plen))
		return false;
	if (literal_absent(f, s))
		return false;
	if (f->anchored) {
		if (f->lead && *s != f->lead)
			return false;
		/* past the start just compared: a literal table line is done */
		return match_here(f->rest, end, s + f->nfixed, next, s);
	}
	for (const char *t = s;; t++) {
		if (f->lead) {
			t = strchr(t, f->lead);
			if (!t)
				return false;
		}
		if (match_here(re, end, t, next, s))
			return true;
		if (!*t)
			return false;
	}
}

/* Does s match re (Ruby syntax) with the given anchoring? */
static bool re_search(const char *re, const char *s, enum lkp_anchor anchor, bool from_table)
{
	struct lkp_re_facts f;

	derive_facts(&f, re, anchor, from_table);
	return search_facts(&f, s);
}

/* The facts of table pattern i of nr (re, anchor) in c: derived now when
 * the slot is empty or holds another pattern's. */
static const struct lkp_re_facts *facts_of(struct lkp_re_cache *c, size_t i, size_t nr,
					   const char *re, enum lkp_anchor anchor)
{
	struct lkp_re_facts *f;

	if (i >= c->nr) {
		size_t want = nr > i ? nr : i + 1;

		c->f = xrealloc(c->f, want * sizeof(*c->f));
		for (size_t k = c->nr; k < want; k++)
			c->f[k].re = NULL;
		c->nr = want;
	}
	f = &c->f[i];
	if (f->re != re || f->anchor != anchor)
		derive_facts(f, re, anchor, true);
	return f;
}

void lkp_re_cache_release(struct lkp_re_cache *c)
{
	free(c->f);
	c->f = NULL;
	c->nr = 0;
}

static inline unsigned char lead_of(const char *re)
{
	return (unsigned char)re[re[0] == '^'];
}

bool lkp_table_match(const struct lkp_pattern_table *t, const char *s)
{
	return lkp_table_match_cached(t, NULL, s);
}

bool lkp_table_match_cached(const struct lkp_pattern_table *t, struct lkp_re_cache *c,
			    const char *s)
{
	size_t i = 0;

	if (t->by_lead) {
		size_t hi = t->nr;
		unsigned char lead = (unsigned char)*s;

		while (i < hi) {        /* the first entry with lead >= lead */
			size_t mid = i + (hi - i) / 2;
			if (lead_of(t->re[mid]) < lead)
				i = mid + 1;
			else
				hi = mid;
		}
	}
	for (; i < t->nr; i++) {
		if (t->by_lead && lead_of(t->re[i]) != (unsigned char)*s)
			break;
		if (lkp_table_re_match_cached(c, i, t->nr, t->re[i], s, t->anchor))
			return true;
	}
	return false;
}


/* Is re well-formed for quick_reject: no top-level '|', groups and classes closed? */
bool lkp_table_pattern_ok(const char *re)
{
	const char *end = re + strlen(re);

	if (top_level_alt(re, end))
		return false;
	for (const char *q = re; q < end; q++) {
		if (*q == '\\') {
			q++;
		} else if (*q == '[') {
			const char *c = class_end(q, end);
			if (!c)
				return false;
			q = c - 1;
		} else if (*q == '(') {
			if (!group_end(q, end))
				return false;
		}
	}
	return true;
}

bool lkp_table_re_match(const char *re, const char *s, enum lkp_anchor anchor)
{
	return lkp_table_re_match_cached(NULL, 0, 1, re, s, anchor);
}

bool lkp_table_re_match_cached(struct lkp_re_cache *c, size_t i, size_t nr, const char *re,
			       const char *s, enum lkp_anchor anchor)
{
	/* uncached, the cheap test on the text first spares most names the
	 * derivation */
	if (!c)
		return !quick_reject(re, s, anchor) && re_search(re, s, anchor, true);
	return search_facts(facts_of(c, i, nr, re, anchor), s);
}

const char *lkp_table_check(const struct lkp_pattern_table *t)
{
	for (size_t j = 0; j < t->nr; j++) {
		const char *re = t->re[j];

		if (!lkp_table_pattern_ok(re))
			return re;
		if (!t->by_lead)
			continue;
		if ((t->anchor == LKP_ANCHOR_NONE && re[0] != '^') || is_meta(re[re[0] == '^']) ||
		    (j && lead_of(t->re[j - 1]) > lead_of(re)))
			return re;
		/* a quantified lead is optional: no lead then */
		if (strchr("*?{", re[(re[0] == '^') + 1]))
			return re;
	}
	return NULL;
}

bool lkp_regex_match(const char *re, const char *s, bool full)
{
	return re_search(re, s, full ? LKP_ANCHOR_FULL : LKP_ANCHOR_NONE, false);
}

