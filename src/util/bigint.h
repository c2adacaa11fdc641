#ifndef PERFBOT_BIGINT_H
#define PERFBOT_BIGINT_H
/*
 * bigint: exact signed integers of any size, for the sums lkp computes
 * in Ruby, whose Integers never overflow.  A monitor or parser that adds
 * up parsed fields ("HI: 9223372036854775807 1") must print what lkp
 * prints (9223372036854775808), not a wrapped negative number or a
 * sanitizer abort.
 *
 * Magnitude in base 10^9 limbs, least significant first, and a sign;
 * zero has no limbs.  Only what the sums need: add, subtract, compare,
 * print, and a double for further arithmetic.
 *
 *     struct bigint sum = BIGINT_INIT;
 *     bigint_add_to_i(&sum, field, len);      // Ruby's field.to_i
 *     bigint_add_str(out, &sum);
 *     bigint_release(&sum);
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/strbuf.h"

struct bigint {
	uint32_t *limb;
	size_t nr, alloc;
	bool neg;
};

#define BIGINT_INIT { NULL, 0, 0, false }

void bigint_release(struct bigint *b);
void bigint_set_zero(struct bigint *b);
void bigint_set_ll(struct bigint *b, long long v);
/* dst = src (dst keeps its storage). */
void bigint_copy(struct bigint *dst, const struct bigint *src);

/* b += Ruby's String#to_i of s[0..len): leading whitespace, a sign,
 * digits with single '_' between them; anything else ends it (0 when no
 * digit). */
void bigint_add_to_i(struct bigint *b, const char *s, size_t len);
/* b += a; b -= a. */
void bigint_add(struct bigint *b, const struct bigint *a);
void bigint_sub(struct bigint *b, const struct bigint *a);
/* <0, 0, >0 as a is below, equal to, above b. */
int bigint_cmp(const struct bigint *a, const struct bigint *b);

/* Append the decimal digits (and '-'). */
void bigint_add_str(struct strbuf *sb, const struct bigint *b);
/* The nearest double (Ruby's Integer#to_f). */
double bigint_to_double(const struct bigint *b);

#endif
