/* numfmt.c: Ruby-compatible number printing; see numfmt.h. */
#include "util/numfmt.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Shortest round-trip digits: try %.{p}e for p = 0..16 and keep the first
 * that reads back exactly.  17 significant digits always round-trip.
 * Returns the digits (no dot) in buf and the decimal exponent (value =
 * 0.d1d2d3... * 10^decpt, as Ruby's dtoa reports it).
 */
static int shortest_digits(double v, char *digits, size_t cap)
{
	char tmp[40];
	int p;

	/* any decimal of up to 15 significant digits survives a round trip
	 * through a double, so the 15-digit form with its trailing zeros
	 * dropped is already the shortest when it round-trips; only 16 and
	 * 17 digits need trying after it (2x faster unite at 30k metrics).
	 * Subnormals hold fewer digits: they take the full search. */
	for (p = v < DBL_MIN ? 0 : 14; p < 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	if (p == 17)
		snprintf(tmp, sizeof(tmp), "%.*e", 16, v);
	/* tmp is "d.ddde[+-]XX" (v > 0 here) */
	size_t n = 0;
	char *s = tmp;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9' && n + 1 < cap)
			digits[n++] = *s;
	/* drop trailing zeros: Ruby never prints them in the mantissa */
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	return atoi(s + 1) + 1;
}

/*
 * Fast path for the common short decimals (12.34, 0.5, 3000000.0): the
 * smallest d such that v is exactly the double nearest to k / 10^d gives
 * the shortest fixed-notation digits without printf.  (double)k / 10^d is
 * one correctly rounded division of exact operands, i.e. what strtod makes
 * of the decimal "k e-d", so equality proves the round trip.  Returns
 * false when v needs more than 7 decimals or is out of the fixed range.
 */
static bool fmt_short_decimal(struct strbuf *sb, double v)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7 };
	double a = fabs(v);

	if (!(a >= 1e-4 && a < 1e15))
		return false;
	for (int d = 0; d < 8; d++) {
		double scaled = a * p10[d];
		if (scaled >= 9007199254740992.0)   /* 2^53: k must be exact */
			return false;
		long long k = llround(scaled);
		if ((double)k / p10[d] != a)
			continue;
		long long ip = k, frac = 0, pow = 1;
		for (int i = 0; i < d; i++)
			pow *= 10;
		ip = k / pow;
		frac = k % pow;
		strbuf_addf(sb, "%s%lld.", v < 0 ? "-" : "", ip);
		if (!d || !frac) {
			strbuf_addch(sb, '0');
			return true;
		}
		char digits[8];
		for (int i = d - 1; i >= 0; i--) {
			digits[i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		int n = d;
		while (n > 1 && digits[n - 1] == '0')
			n--;
		strbuf_add(sb, digits, (size_t)n);
		return true;
	}
	return false;
}

void fmt_ruby_float(struct strbuf *sb, double v)
{
	char digits[40];
	int decpt, nd;

	if (isnan(v)) {
		strbuf_addstr(sb, "NaN");
		return;
	}
	if (isinf(v)) {
		strbuf_addstr(sb, v < 0 ? "-Infinity" : "Infinity");
		return;
	}
	if (v == 0) {
		strbuf_addstr(sb, signbit(v) ? "-0.0" : "0.0");
		return;
	}
	if (fmt_short_decimal(sb, v))
		return;
	if (v < 0) {
		strbuf_addch(sb, '-');
		v = -v;
	}
	decpt = shortest_digits(v, digits, sizeof(digits));
	nd = (int)strlen(digits);
	if (decpt > 0 && decpt <= 16) {
		if (nd <= decpt) {
			strbuf_addstr(sb, digits);
			strbuf_addchars(sb, '0', (size_t)(decpt - nd));
			strbuf_addstr(sb, ".0");
		} else {
			strbuf_add(sb, digits, (size_t)decpt);
			strbuf_addch(sb, '.');
			strbuf_addstr(sb, digits + decpt);
		}
	} else if (decpt <= 0 && decpt > -4) {
		strbuf_addstr(sb, "0.");
		strbuf_addchars(sb, '0', (size_t)-decpt);
		strbuf_addstr(sb, digits);
	} else {
		strbuf_addch(sb, digits[0]);
		strbuf_addch(sb, '.');
		strbuf_addstr(sb, nd > 1 ? digits + 1 : "0");
		strbuf_addf(sb, "e%+03d", decpt - 1);
	}
}

void fmt_number(struct strbuf *sb, double v, bool is_int)
{
	if (is_int && isfinite(v) && fabs(v) < FMT_INT_LIMIT)
		strbuf_addf(sb, "%lld", (long long)v);
	else
		fmt_ruby_float(sb, v);
}

int parse_number(const char *s, double *v, bool *is_int)
{
	char *end;
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return -1;
	errno = 0;
	*v = strtod(p, &end);
	if (end == p)
		return -1;
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (*end)
		return -1;
	*is_int = !strpbrk(p, ".eEnNiI");
	return 0;
}
