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

/*
 * Ruby's %.Nf (see numfmt.h).  Digits and decision follow its dtoa's
 * fast path: x scaled by powers of ten into [1, 10) with ieps counting the
 * roundings, an error bound eps = (ieps * d + 7) ulps of 1, and the digits
 * taken in double arithmetic; a remainder within eps of 0.5 is a tie.  The
 * rest is correctly rounded, as C's printf rounds.
 */
static const double tens[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};
static const double bigtens[] = { 1e16, 1e32, 1e64, 1e128, 1e256 };

/* The digits of x to prec decimals into dig (NUL-terminated, maybe
 * shorter: zeros follow) with x = 0.dig * 10^*decpt; or -1: not decided
 * fast, C's rounding is Ruby's. */
static int ruby_fast_digits(double x, int prec, char *dig, int *decpt)
{
	int e, k, ilim, ieps = 2, n = 0;
	double d = x, m = frexp(x, &e), ds, eps;
	bool k_check = true, up;

	/* dtoa's estimate of floor(log10(x)), checked where tens[] can */
	ds = (2 * m - 1.5) * 0.289529654602168 + 0.1760912590558 + (e - 1) * 0.301029995663981;
	k = (int)ds;
	if (ds < 0. && ds != k)
		k--;
	if (k >= 0 && k <= 22) {
		if (x < tens[k])
			k--;
		k_check = false;
	}
	ilim = prec + k + 1;
	if (ilim < 0 || ilim > 14 || k > 255 || k < -255)
		return -1;
	if (k > 0) {
		ds = tens[k & 0xf];
		for (int j = k >> 4, i = 0; j; j >>= 1, i++)
			if (j & 1) {
				ieps++;
				ds *= bigtens[i];
			}
		d /= ds;
	} else if (k < 0) {
		d *= tens[-k & 0xf];
		for (int j = -k >> 4, i = 0; j; j >>= 1, i++)
			if (j & 1) {
				ieps++;
				d *= bigtens[i];
			}
	}
	if (k_check && d < 1. && ilim > 0) {
		if (ilim == 1)
			return -1;
		ilim--;
		k--;
		d *= 10.;
		ieps++;
	}
	eps = ldexp(ieps * d + 7., -52);
	if (ilim == 0) {
		d -= 5.;
		if (d > eps) {
			strcpy(dig, "1");
			*decpt = k + 2;
			return 0;
		}
		if (d < -eps) {
			dig[0] = '\0';
			*decpt = k + 1;
			return 0;
		}
		return -1;
	}
	eps *= tens[ilim - 1];
	for (int i = 1;; i++, d *= 10.) {
		long digit = (long)d;

		d -= (double)digit;
		dig[n++] = (char)('0' + digit);
		if (d == 0 || i == ilim) {
			/* past a half by more than eps: up; within eps: a tie, to even */
			up = d > 0.5 + eps || (d >= 0.5 - eps && (digit & 1));
			break;
		}
	}
	dig[n] = '\0';
	*decpt = k + 1;
	if (up) {
		while (n > 0 && dig[n - 1] == '9')
			dig[--n] = '\0';
		if (n == 0) {
			strcpy(dig, "1");
			++*decpt;
		} else {
			dig[n - 1]++;
		}
	}
	return 0;
}

void fmt_ruby_fixed(struct strbuf *sb, double v, int width, int prec, bool plus)
{
	char dig[32], out[128];
	double x = fabs(v);
	int decpt, nd, o = 0;

	if (!isfinite(v) || x == 0 || prec < 0 || prec > 20 || ruby_fast_digits(x, prec, dig, &decpt) < 0) {
		strbuf_addf(sb, plus ? "%+*.*f" : "%*.*f", width, prec, v);
		return;
	}
	nd = (int)strlen(dig);
	if (signbit(v))
		out[o++] = '-';
	else if (plus)
		out[o++] = '+';
	if (decpt <= 0)
		out[o++] = '0';
	for (int i = 0; i < decpt; i++)
		out[o++] = i < nd ? dig[i] : '0';
	if (prec)
		out[o++] = '.';
	for (int i = 0; i < prec; i++) {
		int at = decpt + i;
		out[o++] = at >= 0 && at < nd ? dig[at] : '0';
	}
	out[o] = '\0';
	strbuf_addf(sb, "%*s", width, out);
}
