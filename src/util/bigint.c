/* bigint.c: exact sums of parsed integers (see bigint.h). */
#include "util/bigint.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 1000000000u

void bigint_release(struct bigint *b)
{
	free(b->limb);
	memset(b, 0, sizeof(*b));
}

void bigint_set_zero(struct bigint *b)
{
	b->nr = 0;
	b->neg = false;
}

static void trim(struct bigint *b)
{
	while (b->nr && !b->limb[b->nr - 1])
		b->nr--;
	if (!b->nr)
		b->neg = false;
}

void bigint_set_ll(struct bigint *b, long long v)
{
	/* via unsigned: -LLONG_MIN does not fit a long long */
	unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	bigint_set_zero(b);
	while (m) {
		ALLOC_GROW(b->limb, b->nr + 1, b->alloc);
		b->limb[b->nr++] = (uint32_t)(m % BASE);
		m /= BASE;
	}
	b->neg = v < 0;
}

void bigint_copy(struct bigint *dst, const struct bigint *src)
{
	if (dst == src)
		return;
	ALLOC_GROW(dst->limb, src->nr, dst->alloc);
	if (src->nr)
		memcpy(dst->limb, src->limb, src->nr * sizeof(uint32_t));
	dst->nr = src->nr;
	dst->neg = src->neg;
}

static int cmp_mag(const struct bigint *a, const struct bigint *b)
{
	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	for (size_t i = a->nr; i--;)
		if (a->limb[i] != b->limb[i])
			return a->limb[i] < b->limb[i] ? -1 : 1;
	return 0;
}

/* |b| += |a| */
static void add_mag(struct bigint *b, const struct bigint *a)
{
	size_t n = a->nr > b->nr ? a->nr : b->nr;
	uint32_t carry = 0;

	ALLOC_GROW(b->limb, n + 1, b->alloc);
	for (size_t i = b->nr; i < n + 1; i++)
		b->limb[i] = 0;
	for (size_t i = 0; i < n + 1; i++) {
		uint32_t v = b->limb[i] + (i < a->nr ? a->limb[i] : 0) + carry;
		carry = v >= BASE;
		b->limb[i] = carry ? v - BASE : v;
	}
	b->nr = n + 1;
	trim(b);
}

/* |b| = |big| - |small|, where |big| >= |small|; b may be either. */
static void sub_mag(struct bigint *b, const struct bigint *big, const struct bigint *small)
{
	uint32_t borrow = 0;
	size_t n = big->nr;

	ALLOC_GROW(b->limb, n, b->alloc);
	for (size_t i = 0; i < n; i++) {
		uint32_t s = (i < small->nr ? small->limb[i] : 0) + borrow;
		uint32_t v = big->limb[i];
		borrow = v < s;
		b->limb[i] = borrow ? v + BASE - s : v - s;
	}
	b->nr = n;
}

static void add_signed(struct bigint *b, const struct bigint *a, bool a_neg)
{
	if (!a->nr)
		return;
	if (b->neg == a_neg || !b->nr) {
		b->neg = a_neg;
		add_mag(b, a);
		return;
	}
	if (cmp_mag(b, a) >= 0) {
		sub_mag(b, b, a);               /* sign of b stays */
	} else {
		struct bigint t = BIGINT_INIT;
		bigint_copy(&t, a);
		sub_mag(&t, &t, b);
		t.neg = a_neg;
		bigint_copy(b, &t);
		bigint_release(&t);
	}
	trim(b);
}

void bigint_add(struct bigint *b, const struct bigint *a)
{
	if (a == b) {
		struct bigint t = BIGINT_INIT;
		bigint_copy(&t, a);
		add_signed(b, &t, t.neg);
		bigint_release(&t);
		return;
	}
	add_signed(b, a, a->neg);
}

void bigint_sub(struct bigint *b, const struct bigint *a)
{
	if (a == b) {
		bigint_set_zero(b);
		return;
	}
	add_signed(b, a, !a->neg);
}

int bigint_cmp(const struct bigint *a, const struct bigint *b)
{
	if (a->neg != b->neg)
		return a->neg ? -1 : 1;
	int m = cmp_mag(a, b);
	return a->neg ? -m : m;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

void bigint_add_to_i(struct bigint *b, const char *s, size_t len)
{
	const char *end = s + len, *d;
	struct bigint v = BIGINT_INIT;
	bool neg = false;
	size_t ndig = 0;

	/* Ruby's to_i skips the whitespace of String#strip */
	while (s < end && (*s == ' ' || (*s >= '\t' && *s <= '\r')))
		s++;
	if (s < end && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	for (d = s; d < end && (is_digit(*d) ||
		     (*d == '_' && d > s && is_digit(d[-1]) && d + 1 < end && is_digit(d[1])));
	     d++)
		ndig += *d != '_';
	if (!ndig)
		return;
	/* limbs from the least significant digit up */
	ALLOC_GROW(v.limb, ndig / 9 + 1, v.alloc);
	uint32_t limb = 0, scale = 1;
	for (const char *p = d; p-- > s;) {
		if (*p == '_')
			continue;
		limb += (uint32_t)(*p - '0') * scale;
		scale *= 10;
		if (scale == BASE) {
			v.limb[v.nr++] = limb;
			limb = 0;
			scale = 1;
		}
	}
	if (scale > 1)
		v.limb[v.nr++] = limb;
	trim(&v);
	add_signed(b, &v, neg);
	bigint_release(&v);
}

void bigint_add_str(struct strbuf *sb, const struct bigint *b)
{
	if (!b->nr) {
		strbuf_addch(sb, '0');
		return;
	}
	if (b->neg)
		strbuf_addch(sb, '-');
	strbuf_addf(sb, "%u", b->limb[b->nr - 1]);
	for (size_t i = b->nr - 1; i--;)
		strbuf_addf(sb, "%09u", b->limb[i]);
}

double bigint_to_double(const struct bigint *b)
{
	/* through the decimal text: strtod rounds correctly, a sum of
	 * limbs times powers would round at every step */
	struct strbuf sb = STRBUF_INIT;
	double v;

	bigint_add_str(&sb, b);
	v = strtod(sb.buf, NULL);
	strbuf_release(&sb);
	return v;
}
