/*
 * monitor-perf-profile.c: `perf report --header --children` output (the
 * perf-profile monitor) into lkp stats, as lkp's programs/perf-profile/parse.
 *
 *   # Samples: 8K of event 'cycles:pp'
 *       82.61%     0.42%  [kernel.kallsyms]    [k] cpu_startup_entry
 *   81.41% cpu_startup_entry;start_secondary
 *
 * A symbol line adds its two percentages to "children.<event>.<symbol>"
 * and "self.<event>.<symbol>"; a call chain line adds its percentage to
 * "calltrace.<event>.<f1>.<f2>...", with at most the first five functions.
 * The event is the one of the first "# Samples:" (or "# Events:") line,
 * with ':' made '-' and quotes dropped ("cycles-pp"); later such lines do
 * not change it (lkp skips every "# " line before looking for them).
 * Symbols lose gcc's clone suffixes (.isra.N, .constprop.N, .part.N), so
 * that keys can repeat: repeated keys are summed.  Keys print sorted, with
 * "%.2f" values, and sums below 0.05 are left out.
 *
 * As in lkp, a report whose first line is neither "# ========" nor holds
 * " --header" is not one perf-profile wrote: there is nothing to report
 * (we warn), and lines of no known shape are skipped.
 *
 * Reports reach hundreds of megabytes, so this is one pass over the
 * buffer: no allocation per line, keys built in a reused strbuf and summed
 * in kvmaps whose hash reads 8 bytes at a time.
 */
#include "parse/parser.h"
#include "parse/parse_util.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lkp keeps the first five functions of a call chain. */
#define CALLTRACE_DEPTH 5
/* The fields of a line read: a symbol line has 5 or 7, more when its
 * shared object's name has blanks ("/tmp/a.out (deleted)") */
#define SYMBOL_FIELDS 10

/*
 * Keys are stored without their common "<kind>.<event>." prefix: fewer
 * bytes to hash and compare, and one symbol lookup serves both the
 * children and the self sum.  The prefixes sort as calltrace < children <
 * self, so printing the groups in that order, each sorted, is the sorted
 * order of the full keys.
 */
struct profile {
	struct kvmap calltraces;        /* "f1.f2..." -> sum */
	struct kvmap symbols;           /* symbol -> children sum */
	double *self;                   /* self sums, parallel to symbols.e */
	size_t alloc_self;
	struct strbuf key;              /* scratch */
};

/* "D+.D+%" exactly: the percentage into *v. */
static bool read_percent(const struct field *f, double *v)
{
	return f->len >= 4 && f->s[f->len - 1] == '%' &&
	       memchr(f->s, '.', f->len) && parse_udecimal(f->s, f->len - 1, v);
}

/* lkp's /^# Events: \d+[KMG ]\s+/ and /^# Samples: \d+[KMG ] of event /:
 * returns the event that follows, or false. */
static bool event_line(const struct line *l, struct strbuf *event)
{
	const char *s = l->s, *end = l->s + l->len, *p;
	bool samples;

	if (l->len > 11 && !memcmp(s, "# Samples: ", 11))
		samples = true;
	else if (l->len > 10 && !memcmp(s, "# Events: ", 10))
		samples = false;
	else
		return false;
	p = s + (samples ? 11 : 10);
	if (p == end || !is_digit(*p))
		return false;
	while (p < end && is_digit(*p))
		p++;
	if (p == end || (*p != 'K' && *p != 'M' && *p != 'G' && *p != ' '))
		return false;
	p++;
	if (samples) {
		if ((size_t)(end - p) < 10 || memcmp(p, " of event ", 10))
			return false;
		p += 10;
	} else {
		/* \s+ may take the "\n" that Ruby's line still has */
		if ((p == end && !l->nl) || (p < end && !is_rspace((unsigned char)*p)))
			return false;
		while (p < end && is_rspace((unsigned char)*p))
			p++;
	}
	/* tr(':', '-'), then tr("'", '') drops the quotes */
	strbuf_reset(event);
	for (; p < end; p++)
		if (*p == ':')
			strbuf_addch(event, '-');
		else if (*p != '\'')
			strbuf_addch(event, *p);
	if (event->len && event->buf[event->len - 1] == '\r')     /* chomp */
		strbuf_setlen(event, event->len - 1);
	return true;
}

/*
 * Whether a symbol is one perf did not resolve: a raw address or
 * "[unknown]".  lkp's monitor never shows them (perf report -U, which
 * hides unresolved entries and call chain frames); a report made without
 * -U has them, and with ASLR an address names another metric each run.
 */
static bool unresolved(const char *s, size_t len)
{
	if (len == 9 && !memcmp(s, "[unknown]", 9))
		return true;
	if (len < 3 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < len; i++)
		if (!is_digit(s[i]) && !((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f'))
			return false;
	return true;
}

/* perf's symbol type column: "[k]", "[.]", "[g]", ... */
static bool type_field(const struct field *f)
{
	return f->len == 3 && f->s[0] == '[' && f->s[2] == ']';
}

/* "    82.61%     0.42%  [kernel.kallsyms]    [k] cpu_startup_entry"
 * (and two more columns in newer perfs): 5 or 7 fields.  A shared object
 * named with blanks ("/tmp/a.out (deleted)") shifts the symbol right: it
 * follows the type column, whatever the fields before it. */
static bool symbol_line(struct profile *pr, const struct field *f, size_t n)
{
	/* split_ws keeps the first SYMBOL_FIELDS fields of n */
	size_t have = n < SYMBOL_FIELDS ? n : SYMBOL_FIELDS;
	double children, self;
	struct kv_entry *e;
	size_t i, t = 3;

	if (n < 5 || !read_percent(&f[0], &children) || !read_percent(&f[1], &self))
		return false;
	if (!((n == 5 || n == 7) && type_field(&f[3]))) {
		for (t = 4; t < have && !type_field(&f[t]); t++)
			;
		if (t + 1 >= have || (n - t - 1 != 1 && n - t - 1 != 3))
			return false;
	}
	if (unresolved(f[t + 1].s, f[t + 1].len))
		return true;
	strbuf_reset(&pr->key);
	key_add_symbol(&pr->key, f[t + 1].s, f[t + 1].len);
	e = kvmap_get(&pr->symbols, pr->key.buf, pr->key.len);
	i = (size_t)(e - pr->symbols.e);
	if (i >= pr->alloc_self) {
		size_t old = pr->alloc_self;

		ALLOC_GROW(pr->self, i + 1, pr->alloc_self);
		memset(pr->self + old, 0, (pr->alloc_self - old) * sizeof(*pr->self));
	}
	e->val += children;
	pr->self[i] += self;
	return true;
}

/* "81.41% cpu_startup_entry;start_secondary": no leading or trailing
 * blank, two fields. */
static bool calltrace_line(struct profile *pr, const struct line *l,
			   const struct field *f, size_t n)
{
	struct field fn[CALLTRACE_DEPTH];
	const struct field *chain = &f[1];
	size_t nfn;
	double v;

	if (n != 2 || !is_digit(l->s[0]) || is_rspace((unsigned char)l->s[l->len - 1]) ||
	    !read_percent(&f[0], &v))
		return false;
	/* Ruby's split(';') drops every trailing empty function (";;;" has
	 * none); then the first five, skipping unresolved frames as perf
	 * report -U drops them */
	const char *p = chain->s, *end = chain->s + chain->len;
	bool dropped = false;

	while (end > p && end[-1] == ';')
		end--;
	for (nfn = 0; p < end && nfn < CALLTRACE_DEPTH; ) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t len = (size_t)((semi ? semi : end) - p);

		if (unresolved(p, len)) {
			dropped = true;
		} else {
			fn[nfn].s = p;
			fn[nfn++].len = len;
		}
		p = semi ? semi + 1 : end;
	}
	if (dropped && !nfn)
		return true;
	strbuf_reset(&pr->key);
	for (size_t i = 0; i < nfn; i++) {
		if (i)
			strbuf_addch(&pr->key, '.');
		key_add_symbol(&pr->key, fn[i].s, fn[i].len);
	}
	kvmap_add(&pr->calltraces, pr->key.buf, pr->key.len, v, false);
	return true;
}

/* Print "<kind>.<event>.<key>: %.2f" for the sums of at least 0.05, in
 * key order; self, when not NULL, holds the values instead of the map. */
static void print_group(struct strbuf *out, const char *kind, const struct strbuf *event,
			const struct kvmap *m, const double *self)
{
	const struct kv_entry **sorted = kvmap_sorted(m);

	for (size_t i = 0; i < m->nr; i++) {
		const struct kv_entry *e = sorted[i];
		double v = self ? self[e - m->e] : e->val;

		if (v >= 0.05)
			strbuf_addf(out, "%s.%s.%s: %.2f\n", kind, event->buf, e->key, v);
	}
	free(sorted);
}

static int parse_perf_profile(const struct parse_input *in, struct strbuf *out)
{
	struct profile pr;
	struct strbuf event = STRBUF_INIT;
	struct line_iter it;
	struct line l;
	bool found = false;

	line_iter_init(&it, in->buf, in->len);
	if (!line_next(&it, &l))
		return 0;
	if (!(l.len == 10 && !memcmp(l.s, "# ========", 10)) &&
	    !mem_find(l.s, l.len, " --header", 9)) {
		warning("perf-profile: %s:1: expected '# ========' (perf report --header), "
			"nothing to report", in->name);
		return 0;
	}
	while (!found && line_next(&it, &l))
		found = event_line(&l, &event);

	memset(&pr, 0, sizeof(pr));
	kvmap_init(&pr.calltraces);
	kvmap_init(&pr.symbols);
	strbuf_init(&pr.key, 0);

	while (found && line_next(&it, &l)) {
		struct field f[SYMBOL_FIELDS];
		size_t n;

		line_chomp(&l);
		if (!l.len || (l.s[0] == '#' && l.len > 1 && l.s[1] == ' '))
			continue;
		if (!is_digit(l.s[0]) && !is_rspace((unsigned char)l.s[0]))
			continue;
		n = split_ws(l.s, l.len, f, SYMBOL_FIELDS);
		if (!symbol_line(&pr, f, n))
			calltrace_line(&pr, &l, f, n);
	}

	print_group(out, "calltrace", &event, &pr.calltraces, NULL);
	print_group(out, "children", &event, &pr.symbols, NULL);
	print_group(out, "self", &event, &pr.symbols, pr.self);
	kvmap_release(&pr.calltraces);
	kvmap_release(&pr.symbols);
	free(pr.self);
	strbuf_release(&pr.key);
	strbuf_release(&event);
	return 0;
}

const struct parser parser_perf_profile = { "perf-profile", parse_perf_profile, NULL };
