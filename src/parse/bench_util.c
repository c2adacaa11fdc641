/* bench_util.c: Ruby semantics and plumbing for the benchmark parsers; see bench_util.h. */
#include "parse/bench_util.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

/* ---- Ruby numbers ---- */

long long rb_to_i(const char *s)
{
	unsigned long long v = 0;
	bool neg = false, digit = false;

	while (is_rspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	/* single underscores between digits are allowed, as in Ruby */
	for (; is_digit(*s) || (*s == '_' && digit && is_digit(s[1])); s++) {
		if (*s == '_')
			continue;
		digit = true;
		if (v > (unsigned long long)LLONG_MAX / 10)
			return neg ? LLONG_MIN : LLONG_MAX;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	if (v > (unsigned long long)LLONG_MAX)
		return neg ? LLONG_MIN : LLONG_MAX;
	return neg ? -(long long)v : (long long)v;
}

bool is_decimal(const char *s)
{
	double v;
	bool is_int;
	size_t len = strlen(s);

	/* parse_field_number wants the bare field */
	while (len && is_rspace((unsigned char)*s))
		s++, len--;
	while (len && is_rspace((unsigned char)s[len - 1]))
		len--;
	return !parse_field_number(s, len, &v, &is_int);
}

double rb_round(double x, int ndigits)
{
	int binexp;
	double s, f;

	if (x == 0.0 || !isfinite(x))
		return x;
	frexp(x, &binexp);
	/* too precise for ndigits to change anything */
	if (ndigits >= DBL_DIG + 2 - (binexp > 0 ? binexp / 4 : binexp / 3 - 1))
		return x;
	/* too small to survive */
	if (x > 0.0 && ndigits < -(binexp > 0 ? binexp / 3 + 1 : binexp / 4))
		return 0.0;
	s = pow(10, ndigits);
	f = round(x * s);
	/* x * s may have rounded down across the .5 boundary: check against x */
	if (x > 0) {
		if ((f + 0.5) / s <= x)
			f += 1;
	} else {
		if ((f - 0.5) / s >= x)
			f -= 1;
	}
	return f / s;
}

void dvec_push(struct dvec *d, double x)
{
	ALLOC_GROW(d->v, d->nr + 1, d->alloc);
	d->v[d->nr++] = x;
}

void dvec_release(struct dvec *d)
{
	free(d->v);
	d->v = NULL;
	d->nr = d->alloc = 0;
}

struct dvec *dmap_get(struct dmap *m, const char *key)
{
	for (size_t i = 0; i < m->nr; i++)
		if (!strcmp(m->v[i].key, key))
			return &m->v[i].vals;
	ALLOC_GROW(m->v, m->nr + 1, m->alloc);
	m->v[m->nr].key = xstrdup(key);
	m->v[m->nr].vals = (struct dvec)DVEC_INIT;
	return &m->v[m->nr++].vals;
}

void dmap_release(struct dmap *m)
{
	for (size_t i = 0; i < m->nr; i++) {
		free(m->v[i].key);
		dvec_release(&m->v[i].vals);
	}
	free(m->v);
	m->v = NULL;
	m->nr = m->alloc = 0;
}

/* One Kahan-Babuska step, with Ruby's NaN and infinity rules. */
static void kb_add(double *f, double *c, double x)
{
	double t;

	if (isnan(*f))
		return;
	if (isnan(x)) {
		*f = x;
		return;
	}
	if (isinf(x)) {
		if (isinf(*f) && signbit(x) != signbit(*f))
			*f = NAN;
		else
			*f = x;
		return;
	}
	if (isinf(*f))
		return;
	t = *f + x;
	if (fabs(*f) >= fabs(x))
		*c += (*f - t) + x;
	else
		*c += (x - t) + *f;
	*f = t;
}

double rb_fsum(const double *v, size_t n, double init)
{
	double f = init, c = 0.0;

	for (size_t i = 0; i < n; i++)
		kb_add(&f, &c, v[i]);
	return f + c;
}

double lkp_average(const double *v, size_t n)
{
	return rb_fsum(v, n, 0.0) / (double)n;
}

double lkp_stddev(const double *v, size_t n)
{
	double avg = lkp_average(v, n), sum = 0;

	/* Ruby's Float#** is pow(), kept for bit-identical results */
	for (size_t i = 0; i < n; i++)
		sum += pow(v[i] - avg, 2.0);
	return sqrt(1 / (double)n * sum);
}

double lkp_relative_stddev(const double *v, size_t n)
{
	return lkp_stddev(v, n) * 100 / lkp_average(v, n);
}

double lkp_harmonic_mean(const double *v, size_t n)
{
	double inv = 0;

	for (size_t i = 0; i < n; i++)
		inv += 1 / v[i];
	return (double)n / inv;
}

struct rnum rnum_sum(const struct rnum *v, size_t n)
{
	struct rnum r = { true, 0, 0.0 };
	size_t i = 0;
	double f, c = 0.0;

	/* Ruby adds leading Integers exactly, then goes Kahan-Babuska */
	for (; i < n && v[i].is_int; i++)
		r.i += v[i].i;
	if (i == n)
		return r;
	f = (double)r.i;
	for (; i < n; i++)
		kb_add(&f, &c, v[i].is_int ? (double)v[i].i : v[i].f);
	r.is_int = false;
	r.f = f + c;
	return r;
}

void rvec_push(struct rvec *r, struct rnum x)
{
	ALLOC_GROW(r->v, r->nr + 1, r->alloc);
	r->v[r->nr++] = x;
}

void rvec_release(struct rvec *r)
{
	free(r->v);
	r->v = NULL;
	r->nr = r->alloc = 0;
}

static int cmp_rnum(const void *a, const void *b)
{
	double x = rnum_to_f(*(const struct rnum *)a);
	double y = rnum_to_f(*(const struct rnum *)b);

	return x < y ? -1 : x > y;
}

void rvec_sort(struct rvec *r)
{
	if (r->nr > 1)
		qsort(r->v, r->nr, sizeof(*r->v), cmp_rnum);
}

void rvec_to_dvec(const struct rvec *r, struct dvec *out)
{
	for (size_t i = 0; i < r->nr; i++)
		dvec_push(out, rnum_to_f(r->v[i]));
}

double rnum_to_f(struct rnum r)
{
	return r.is_int ? (double)r.i : r.f;
}

void fmt_rnum(struct strbuf *sb, struct rnum r)
{
	if (r.is_int) {
		/* %lld cannot print 128 bits: digits from the right */
		char digits[48], *p = digits + sizeof(digits);
		unsigned __int128 m = r.i < 0 ? -(unsigned __int128)r.i : (unsigned __int128)r.i;
		*--p = '\0';
		do
			*--p = (char)('0' + (int)(m % 10));
		while ((m /= 10));
		if (r.i < 0)
			*--p = '-';
		strbuf_addstr(sb, p);
	} else
		fmt_ruby_float(sb, r.f);
}

void fmt_c_double(struct strbuf *sb, const char *fmt, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "NaN");
	else if (isinf(v))
		strbuf_addstr(sb, v < 0 ? "-Inf" : "Inf");
	else
		strbuf_addf(sb, fmt, v);
}

void fmt_trunc(struct strbuf *sb, double v)
{
	if (fabs(v) < 9.2e18)
		strbuf_addf(sb, "%lld", (long long)v);
	else if (isfinite(v))
		strbuf_addf(sb, "%.0f", trunc(v));
	else
		fmt_ruby_float(sb, v);
}

/* ---- output ---- */

static void add_key(struct strbuf *out, const char *keyfmt, va_list ap)
{
	strbuf_vaddf(out, keyfmt, ap);
	strbuf_addstr(out, ": ");
}

void put_str(struct strbuf *out, const char *val, const char *keyfmt, ...)
{
	va_list ap;

	va_start(ap, keyfmt);
	add_key(out, keyfmt, ap);
	va_end(ap);
	strbuf_addstr(out, val);
	strbuf_addch(out, '\n');
}

void put_float(struct strbuf *out, double val, const char *keyfmt, ...)
{
	va_list ap;

	va_start(ap, keyfmt);
	add_key(out, keyfmt, ap);
	va_end(ap);
	fmt_ruby_float(out, val);
	strbuf_addch(out, '\n');
}

void put_int(struct strbuf *out, long long val, const char *keyfmt, ...)
{
	va_list ap;

	va_start(ap, keyfmt);
	add_key(out, keyfmt, ap);
	va_end(ap);
	strbuf_addf(out, "%lld\n", val);
}

static bool normalize_sep(int c)
{
	return is_rspace(c) || strchr(",\"_[]():", c);
}

void lkp_normalize(struct strbuf *out, const char *s)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *end;
	size_t i;

	while (*s && (is_rspace((unsigned char)*s)))
		s++;
	end = s + strlen(s);
	while (end > s && is_rspace((unsigned char)end[-1]))
		end--;
	/* runs of separators become one '_' (so no "__" can remain) */
	for (const char *p = s; p < end; p++) {
		if (normalize_sep((unsigned char)*p)) {
			while (p + 1 < end && normalize_sep((unsigned char)p[1]))
				p++;
			strbuf_addch(&tmp, '_');
		} else {
			strbuf_addch(&tmp, *p);
		}
	}
	/* no leading or trailing '_', and "...." or longer becomes "." */
	i = 0;
	while (i < tmp.len && tmp.buf[i] == '_')
		i++;
	while (tmp.len > i && tmp.buf[tmp.len - 1] == '_')
		tmp.len--;
	for (; i < tmp.len; i++) {
		size_t dots = 0;
		while (i + dots < tmp.len && tmp.buf[i + dots] == '.')
			dots++;
		if (dots >= 4) {
			strbuf_addch(out, '.');
			i += dots - 1;
		} else {
			strbuf_addch(out, tmp.buf[i]);
		}
	}
	strbuf_release(&tmp);
}

/* ---- latency distributions ---- */

size_t lat_table_new(struct lat_tables *t)
{
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr] = (struct dvec)DVEC_INIT;
	return t->nr++;
}

int lat_table_set(struct lat_tables *t, size_t table, size_t bucket, double percent)
{
	struct dvec *d = &t->v[table];

	if (bucket >= d->nr) {
		size_t more = bucket + 1 - d->nr;
		if (bucket >= LAT_MAX_CELLS || t->cells + more > LAT_MAX_CELLS)
			return -1;
		t->cells += more;
	}
	while (d->nr <= bucket)
		dvec_push(d, NAN);
	d->v[bucket] = percent;
	return 0;
}

void lat_series_add(struct lat_series *s, size_t table)
{
	ALLOC_GROW(s->rows, s->nr + 1, s->alloc);
	s->rows[s->nr++] = table;
}

int lat_normalize(struct lat_tables *t, const struct lat_series *s)
{
	size_t maxcol = 0;

	for (size_t r = 0; r < s->nr; r++)
		if (t->v[s->rows[r]].nr > maxcol)
			maxcol = t->v[s->rows[r]].nr;
	/* every row padded to maxcol, and as many columns read of it */
	if (maxcol && s->nr > LAT_MAX_CELLS / maxcol)
		return -1;
	for (size_t r = 0; r < s->nr; r++) {
		struct dvec *d = &t->v[s->rows[r]];
		double prev = 0;

		for (size_t i = 0; i < maxcol; i++) {
			if (i >= d->nr)
				dvec_push(d, NAN);
			if (isnan(d->v[i]))
				d->v[i] = prev;
			prev = d->v[i];
		}
	}
	return 0;
}

size_t lat_width(const struct lat_tables *t, const struct lat_series *s)
{
	return s->nr ? t->v[s->rows[0]].nr : 0;
}

void lat_column(const struct lat_tables *t, const struct lat_series *s,
		size_t bucket, struct dvec *col)
{
	col->nr = 0;
	for (size_t r = 0; r < s->nr; r++)
		dvec_push(col, t->v[s->rows[r]].v[bucket]);
}

void lat_tables_release(struct lat_tables *t)
{
	for (size_t i = 0; i < t->nr; i++)
		dvec_release(&t->v[i]);
	free(t->v);
	t->v = NULL;
	t->nr = t->alloc = 0;
}

void lat_series_release(struct lat_series *s)
{
	free(s->rows);
	s->rows = NULL;
	s->nr = s->alloc = 0;
}

/* ---- JSON ---- */

struct json_object *json_parse_whole(const char *s, size_t len, const char **why)
{
	struct json_tokener *tok;
	struct json_object *obj;

	if (len > INT_MAX) {
		*why = "document too large";
		return NULL;
	}
	tok = json_tokener_new();
	/* strict: standard JSON only, and nothing but whitespace after it */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, s, (int)len);
	if (!obj) {
		enum json_tokener_error e = json_tokener_get_error(tok);
		/* json_tokener_continue: the document stopped half way */
		*why = e == json_tokener_continue ? "unexpected end of JSON" :
		       json_tokener_error_desc(e);
	}
	json_tokener_free(tok);
	return obj;
}

/* ---- regular expressions ---- */

void rx_compile_all(struct rx *re, const char *const *patterns, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *why;
		if (rx_compile(&re[i], patterns[i], &why) < 0)
			die("bad parser pattern '%s': %s", patterns[i], why);
	}
}

void rx_free_all(struct rx *re, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rx_release(&re[i]);
}

bool rx_match(const struct rx *re, const char *s, struct rx_sub *m, size_t nm)
{
	return rx_exec(re, s, m, m ? nm : 0);
}

const char *rx_group(struct strbuf *sb, const char *s, const struct rx_sub *m, size_t i)
{
	strbuf_reset(sb);
	if (m[i].so >= 0)
		strbuf_add(sb, s + m[i].so, (size_t)(m[i].eo - m[i].so));
	return sb->buf;
}
