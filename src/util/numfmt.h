#ifndef PERFBOT_NUMFMT_H
#define PERFBOT_NUMFMT_H
/*
 * Numbers printed the way lkp-tests (Ruby) prints them, because its files
 * and parser outputs are compared as exact strings.
 *
 * Ruby's Float#to_s gives the shortest digit string that reads back to the
 * same double, in fixed notation when the decimal exponent is in -4 < e <= 16
 * (always with a fractional part: "2.0") and in scientific notation
 * otherwise ("1.0e+16", "1.0e-05").  Integers print as integers.
 */
#include <stdbool.h>
#include "util/strbuf.h"

/* Append Ruby's Float#to_s of v ("NaN", "Infinity", "-Infinity" too). */
void fmt_ruby_float(struct strbuf *sb, double v);
/* Append v as an integer when is_int and |v| < FMT_INT_LIMIT (within
 * long long), else as fmt_ruby_float. */
#define FMT_INT_LIMIT 9.2e18
void fmt_number(struct strbuf *sb, double v, bool is_int);

/* Parse a whole string as a number.  Returns 0 on success, setting *v and
 * *is_int (true for a decimal integer without '.', 'e' or inf/nan). */
int parse_number(const char *s, double *v, bool *is_int);

#endif
