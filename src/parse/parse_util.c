/* parse_util.c: searching, Ruby-exact numbers and the ordered sum map
 * shared by the parsers; see parse_util.h. */
#include "parse/parse_util.h"
#include "util/error.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- searching ----------------------------------------------------- */

const char *mem_find(const char *s, size_t len, const char *needle, size_t nlen)
{
	return memmem(s, len, needle, nlen);
}

const char *mem_find_last(const char *s, size_t len, const char *needle, size_t nlen)
{
	if (nlen > len)
		return NULL;
	for (size_t i = len - nlen + 1; i-- > 0;)
		if (s[i] == needle[0] && !memcmp(s + i, needle, nlen))
			return s + i;
	return NULL;
}

/* ---- numbers -------------------------------------------------------- */

/* strtod on s[0..len) copied to a NUL-terminated buffer. */
static double strtod_n(const char *s, size_t len)
{
	char small[128];
	char *buf = len < sizeof(small) ? small : xmalloc(len + 1);
	double v;

	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtod(buf, NULL);
	if (buf != small)
		free(buf);
	return v;
}

/* Copy digits from *pp to buf + *n, skipping single underscores between
 * digits as Ruby's number reader does; returns how many digits. */
static size_t take_digits(const char **pp, const char *end, char *buf, size_t *n)
{
	const char *p = *pp;
	size_t nd = 0;

	while (p < end) {
		if (is_digit(*p)) {
			buf[(*n)++] = *p++;
			nd++;
		} else if (*p == '_' && nd && p + 1 < end && is_digit(p[1])) {
			p++;
		} else {
			break;
		}
	}
	*pp = p;
	return nd;
}

double ruby_to_f(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	char small[96];
	/* the cleaned number is never longer than the input */
	char *buf = len < sizeof(small) ? small : xmalloc(len + 1);
	size_t n = 0, nd;
	double v = 0.0;

	while (p < end && is_rspace((unsigned char)*p))
		p++;
	if (p < end && (*p == '+' || *p == '-'))
		buf[n++] = *p++;
	nd = take_digits(&p, end, buf, &n);
	/* a '.' counts only when a digit follows: "1.e5" reads as 1.0 */
	if (p + 1 < end && *p == '.' && is_digit(p[1])) {
		buf[n++] = *p++;
		nd += take_digits(&p, end, buf, &n);
	}
	if (nd) {
		if (p < end && (*p == 'e' || *p == 'E')) {
			const char *q = p + 1;
			size_t mark = n;

			buf[n++] = 'e';
			if (q < end && (*q == '+' || *q == '-'))
				buf[n++] = *q++;
			if (!take_digits(&q, end, buf, &n))
				n = mark;
		}
		buf[n] = '\0';
		v = strtod(buf, NULL);
	}
	if (buf != small)
		free(buf);
	return v;
}

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

bool parse_udecimal(const char *s, size_t len, double *v)
{
	uint64_t m = 0;
	size_t i = 0, nd, nf = 0;

	while (i < len && is_digit(s[i])) {
		if (i < 19)
			m = m * 10 + (uint64_t)(s[i] - '0');
		i++;
	}
	nd = i;
	if (!nd)
		return false;
	if (i < len) {
		if (s[i] != '.')
			return false;
		i++;
		while (i < len && is_digit(s[i])) {
			if (nd + nf < 19)
				m = m * 10 + (uint64_t)(s[i] - '0');
			i++;
			nf++;
		}
		if (!nf || i != len)
			return false;
	}
	/*
	 * Clinger's fast path: with at most 15 digits m is exact, so is
	 * 10^nf, and one IEEE division rounds correctly.
	 */
	if (nd + nf <= 15) {
		*v = (double)m / pow10_exact[nf];
		return true;
	}
	*v = strtod_n(s, len);
	return true;
}

int parse_field_number(const char *s, size_t len, double *v, bool *is_int)
{
	size_t i = 0, nd = 0;
	bool integral = true;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < len && is_digit(s[i]))
		i++, nd++;
	if (i < len && s[i] == '.') {
		integral = false;
		i++;
		while (i < len && is_digit(s[i]))
			i++, nd++;
	}
	if (!nd)
		return -1;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t ne = 0;

		integral = false;
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		while (i < len && is_digit(s[i]))
			i++, ne++;
		if (!ne)
			return -1;
	}
	if (i != len)
		return -1;
	*v = strtod_n(s, len);
	*is_int = integral;
	return 0;
}

/* ---- time ---------------------------------------------------------- */

/* Read exactly n digits at s into *v. */
static bool take_fixed(const char *s, size_t n, int *v)
{
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil). */
static long long days_from_civil(long long y, int m, int d)
{
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int month_days(int y, int m)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : mdays[m - 1];
}

int utc_epoch(const char *date, size_t dlen, const char *time, size_t tlen,
	      long long *epoch)
{
	int y, mo, d, h, mi, s;
	size_t i;

	if (dlen != 10 || date[4] != '-' || date[7] != '-' ||
	    !take_fixed(date, 4, &y) || !take_fixed(date + 5, 2, &mo) ||
	    !take_fixed(date + 8, 2, &d) || mo < 1 || mo > 12 ||
	    d < 1 || d > month_days(y, mo))
		return -1;
	if (tlen < 8 || time[2] != ':' || time[5] != ':' ||
	    !take_fixed(time, 2, &h) || !take_fixed(time + 3, 2, &mi) ||
	    !take_fixed(time + 6, 2, &s) || h > 23 || mi > 59 || s > 60)
		return -1;
	for (i = 8; i < tlen && is_rspace((unsigned char)time[i]); i++)
		;
	if (i < tlen) {
		/* a 12-hour clock: "12:05:00 AM" is 00:05 */
		bool pm;

		if (i == 8 || tlen - i != 2 || (time[i + 1] != 'M' && time[i + 1] != 'm'))
			return -1;
		if (time[i] == 'A' || time[i] == 'a')
			pm = false;
		else if (time[i] == 'P' || time[i] == 'p')
			pm = true;
		else
			return -1;
		if (h < 1 || h > 12)
			return -1;
		h = h % 12 + (pm ? 12 : 0);
	}
	*epoch = days_from_civil(y, mo, d) * 86400LL + h * 3600LL + mi * 60LL + s;
	return 0;
}

/* ---- keys ----------------------------------------------------------- */

/* Length of a gcc clone suffix ".isra.N", ".constprop.N" or ".part.N"
 * at s (s[0] == '.'), or 0. */
static size_t clone_suffix_len(const char *s, size_t len)
{
	static const char *const words[] = { "isra.", "constprop.", "part." };

	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		size_t wl = strlen(words[w]), i;

		if (len < 1 + wl + 1 || memcmp(s + 1, words[w], wl))
			continue;
		for (i = 1 + wl; i < len && is_digit(s[i]); i++)
			;
		if (i > 1 + wl)
			return i;
	}
	return 0;
}

void key_add_symbol(struct strbuf *sb, const char *s, size_t len)
{
	size_t start = 0, i = 0;
	const char *dot;

	while (i < len && (dot = memchr(s + i, '.', len - i))) {
		size_t d = (size_t)(dot - s);
		size_t m = clone_suffix_len(dot, len - d);

		if (m) {
			strbuf_add(sb, s + start, d - start);
			start = i = d + m;
		} else {
			i = d + 1;
		}
	}
	strbuf_add(sb, s + start, len - start);
}

void key_add_tr(struct strbuf *sb, const char *s, size_t len,
		const char *from, const char *to)
{
	int map[256];
	size_t tl = strlen(to);

	for (int c = 0; c < 256; c++)
		map[c] = c;
	for (size_t i = 0; from[i]; i++)
		map[(unsigned char)from[i]] = !tl ? -1 :
			(unsigned char)to[i < tl ? i : tl - 1];
	strbuf_grow(sb, len);
	for (size_t i = 0; i < len; i++) {
		int c = map[(unsigned char)s[i]];
		if (c >= 0)
			strbuf_addch(sb, c);
	}
}

void key_add_squeeze_ws(struct strbuf *sb, const char *s, size_t len, char c)
{
	bool in_ws = false;

	strbuf_grow(sb, len);
	for (size_t i = 0; i < len; i++) {
		if (is_rspace((unsigned char)s[i])) {
			if (!in_ws)
				strbuf_addch(sb, c);
			in_ws = true;
		} else {
			strbuf_addch(sb, s[i]);
			in_ws = false;
		}
	}
}

/* ---- kvmap ---------------------------------------------------------- */

/* Key bytes are carved from blocks of at least this size. */
#define KV_BLOCK_MIN 65536

struct kv_block {
	struct kv_block *next;
	size_t used, size;
	char data[];
};

/*
 * 8 bytes per step: perf-profile hashes about as many key bytes as it
 * reads input bytes, so a byte-at-a-time hash (FNV, as strmap's) would
 * cost more than the rest of the parse.  Mixing as in splitmix64.
 */
static uint64_t hash_bytes(const char *s, size_t len)
{
	const uint64_t k = 0xbf58476d1ce4e5b9ULL;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, g = 0x94d049bb133111ebULL, w, v;

	/* two independent lanes halve the multiply latency chain */
	for (; len >= 16; s += 16, len -= 16) {
		memcpy(&w, s, 8);
		memcpy(&v, s + 8, 8);
		h = (h ^ w) * k;
		g = (g ^ v) * k;
		h ^= h >> 31;
		g ^= g >> 29;
	}
	if (len >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 31;
		s += 8;
		len -= 8;
	}
	if (len) {
		w = 0;
		memcpy(&w, s, len);
		g = (g ^ w) * k;
	}
	h ^= g * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 30;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

void kvmap_init(struct kvmap *m)
{
	memset(m, 0, sizeof(*m));
}

void kvmap_release(struct kvmap *m)
{
	struct kv_block *b = m->blocks;

	while (b) {
		struct kv_block *next = b->next;
		free(b);
		b = next;
	}
	free(m->e);
	free(m->slot);
	kvmap_init(m);
}

void kvmap_clear(struct kvmap *m)
{
	/* keep the newest block (where the next keys go) and the arrays */
	if (m->blocks) {
		struct kv_block *b = m->blocks->next;
		while (b) {
			struct kv_block *next = b->next;
			free(b);
			b = next;
		}
		m->blocks->next = NULL;
		m->blocks->used = 0;
	}
	if (m->slot)
		memset(m->slot, 0, m->cap * sizeof(*m->slot));
	m->nr = 0;
}

static const char *kv_store_key(struct kvmap *m, const char *key, size_t len)
{
	struct kv_block *b = m->blocks;
	char *p;

	if (!b || b->size - b->used < len + 1) {
		size_t size = len + 1 > KV_BLOCK_MIN ? len + 1 : KV_BLOCK_MIN;
		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = m->blocks;
		m->blocks = b;
	}
	p = b->data + b->used;
	memcpy(p, key, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

static size_t kv_probe(const struct kvmap *m, const char *key, size_t len,
		       uint64_t h)
{
	size_t mask = m->cap - 1, i = (size_t)h & mask;

	for (; m->slot[i]; i = (i + 1) & mask) {
		const struct kv_entry *e = &m->e[m->slot[i] - 1];
		if (e->hash == h && e->len == len && !memcmp(e->key, key, len))
			break;
	}
	return i;
}

static void kv_reindex(struct kvmap *m, size_t cap)
{
	free(m->slot);
	m->cap = cap;
	m->slot = xcalloc(cap, sizeof(*m->slot));
	for (size_t n = 0; n < m->nr; n++) {
		size_t i = (size_t)m->e[n].hash & (cap - 1);
		while (m->slot[i])
			i = (i + 1) & (cap - 1);
		m->slot[i] = (uint32_t)(n + 1);
	}
}

struct kv_entry *kvmap_find(const struct kvmap *m, const char *key, size_t len)
{
	size_t i;

	if (!m->nr)
		return NULL;
	i = kv_probe(m, key, len, hash_bytes(key, len));
	return m->slot[i] ? &m->e[m->slot[i] - 1] : NULL;
}

struct kv_entry *kvmap_get(struct kvmap *m, const char *key, size_t len)
{
	uint64_t h = hash_bytes(key, len);
	struct kv_entry *e;
	size_t i;

	if ((m->nr + 1) * 2 > m->cap) {
		if (m->nr >= UINT32_MAX - 1)
			die("kvmap: too many keys");
		kv_reindex(m, m->cap ? m->cap * 2 : 64);
	}
	i = kv_probe(m, key, len, h);
	if (m->slot[i])
		return &m->e[m->slot[i] - 1];
	ALLOC_GROW(m->e, m->nr + 1, m->alloc);
	e = &m->e[m->nr++];
	e->key = kv_store_key(m, key, len);
	e->len = len;
	e->val = 0;
	e->nr = 0;
	e->is_int = true;
	e->hash = h;
	m->slot[i] = (uint32_t)m->nr;
	return e;
}

void kvmap_add(struct kvmap *m, const char *key, size_t len, double v, bool is_int)
{
	struct kv_entry *e = kvmap_get(m, key, len);

	e->val += v;
	e->is_int = e->is_int && is_int;
	e->nr++;
}

void kvmap_set(struct kvmap *m, const char *key, size_t len, double v, bool is_int)
{
	struct kv_entry *e = kvmap_get(m, key, len);

	e->val = v;
	e->is_int = is_int;
}

double kvmap_value(const struct kvmap *m, const char *key, size_t len, bool *is_int)
{
	const struct kv_entry *e = kvmap_find(m, key, len);

	if (is_int)
		*is_int = e ? e->is_int : true;
	return e ? e->val : 0;
}

static int cmp_entry_key(const void *a, const void *b)
{
	const struct kv_entry *x = *(const struct kv_entry *const *)a;
	const struct kv_entry *y = *(const struct kv_entry *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

const struct kv_entry **kvmap_sorted(const struct kvmap *m)
{
	const struct kv_entry **v = xcalloc(m->nr, sizeof(*v));

	for (size_t i = 0; i < m->nr; i++)
		v[i] = &m->e[i];
	qsort(v, m->nr, sizeof(*v), cmp_entry_key);
	return v;
}

/* ---- output and errors ---------------------------------------------- */

void emit_str(struct strbuf *out, const char *key, const char *val, size_t vlen)
{
	strbuf_addstr(out, key);
	strbuf_add(out, ": ", 2);
	strbuf_add(out, val, vlen);
	strbuf_addch(out, '\n');
}

void emit_num_n(struct strbuf *out, const char *key, size_t klen, double v, bool is_int)
{
	strbuf_add(out, key, klen);
	strbuf_add(out, ": ", 2);
	fmt_number(out, v, is_int);
	strbuf_addch(out, '\n');
}

void emit_num(struct strbuf *out, const char *key, double v, bool is_int)
{
	emit_num_n(out, key, strlen(key), v, is_int);
}

int parse_error(const struct parse_input *in, const char *parser, size_t lineno,
		const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (lineno)
		error("%s: %s:%zu: %s", parser, in->name, lineno, msg.buf);
	else
		error("%s: %s: %s", parser, in->name, msg.buf);
	strbuf_release(&msg);
	return -1;
}
