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
/*
 * The p-digit form of v (> 0, normal; p = 15..17) without printf:
 * m in [10^(p-1), 10^p), v ~ m * 10^-e, correctly rounded, and whether it
 * reads back as v.  Everything is computed in long double (64-bit
 * mantissa): v * 10^e is one rounding (10^e is exact there for |e| <= 27),
 * so at these magnitudes (< 10^17) it is within 0.006 of the truth; so
 * are the ends of v's rounding interval, the midpoints to its neighbours,
 * which are exact in long double before scaling.  Each is off by at most
 * half a long-double ulp of the scaled value; whatever is closer than two
 * such ulps (slack) to a decision line (a half when rounding, an interval
 * end when reading back: the ties) is left to printf and strtod: 1 reads
 * back, 0 does not, -1 cannot tell.
 */

static bool scale10(long double x, int e, long double *out)
{
	static const long double p10[] = {
		1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L,
		1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
		1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
	};

	if (e > 27 || e < -27)
		return false;
	*out = e >= 0 ? x * p10[e] : x / p10[-e];
	return true;
}

/* The end of v's rounding interval towards to (the midpoint to its
 * neighbour there), exactly: v and its neighbour differ in one bit */
static long double half_way(double v, double to)
{
	return ((long double)v + nextafter(v, to)) / 2;
}

/*
 * The p-digit form of v, as said above, given the ends lo_v, hi_v of its
 * rounding interval and *e, a guess of the power of ten that scales it,
 * at most one off.  slack: two long-double ulps of the scaled value,
 * which is below 10^15 < 2^50, 10^16 < 2^54, 10^17 < 2^57.
 */
static int digits_p(double v, long double lo_v, long double hi_v, int p, long long *m, int *e)
{
	static const long double slack_of[] = { 0x1p-13L, 0x1p-9L, 0x1p-6L };
	long double top = p == 15 ? 1e15L : p == 16 ? 1e16L : 1e17L;
	long double slack = slack_of[p - 15];
	long double s, r, lo, hi;
	int k = *e;

	for (int tries = 0;; tries++) {
		if (tries == 3 || !scale10(v, k, &s))
			return -1;
		/* s + 0.5 is exact (s < 2^60, a 64-bit mantissa) and the
		 * conversion truncates: s rounded, halves up.  nearbyintl would
		 * round halves to even, but a half is a tie, which the slack
		 * below leaves to printf either way; and it was a tenth of
		 * unite's time at 30,000 metrics. */
		r = (long double)(long long)(s + 0.5L);
		if (r >= top)
			k--;
		else if (r < top / 10)
			k++;
		else
			break;
	}
	*e = k;
	if (fabsl(s - r) > 0.5L - slack)
		return -1;
	if (!scale10(lo_v, k, &lo) || !scale10(hi_v, k, &hi))
		return -1;
	*m = (long long)r;
	if (r > lo + slack && r < hi - slack)
		return 1;
	if (r < lo - slack || r > hi + slack)
		return 0;
	return -1;
}

/* digits_p for p = 15, 16, 17 in turn: the shortest form (see
 * shortest_digits), or false when printf has to decide. */
static bool shortest_fast(double v, char *digits, size_t cap, int *decpt)
{
	long double lo_v, hi_v;
	long long m;
	int be, e0, e, n;

	if (v < DBL_MIN || cap < 18)
		return false;
	lo_v = half_way(v, 0);
	hi_v = half_way(v, INFINITY);
	/* v in [2^(be-1), 2^be): floor(log10 v) from be, at most one off */
	(void)frexp(v, &be);
	e0 = 14 - (int)floor((be - 1) * 0.30102999566398120);
	for (int p = 15; p <= 17; p++) {
		/* not the last p's e: rounding to fewer digits may carry into
		 * the next power of ten (9.99...e-11 is 1.0e-10 at 15 digits) */
		int res;

		e = e0 + p - 15;
		res = digits_p(v, lo_v, hi_v, p, &m, &e);

		if (res < 0)
			return false;
		if (!res)
			continue;
		for (int i = p - 1; i >= 0; i--) {
			digits[i] = (char)('0' + m % 10);
			m /= 10;
		}
		n = p;
		while (n > 1 && digits[n - 1] == '0')
			n--;
		digits[n] = '\0';
		*decpt = p - e;
		return true;
	}
	return false;
}

static int shortest_digits(double v, char *digits, size_t cap)
{
	char tmp[40];
	int p;
	int decpt;

	if (shortest_fast(v, digits, cap, &decpt))
		return decpt;

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

/* A whole number in decimal, as %lld prints it, without printf's setup;
 * two digits per division (a matrix.json is mostly such numbers). */
static void add_lld(struct strbuf *sb, long long v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char buf[24];
	int i = sizeof(buf);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;

		u /= 100;
		buf[--i] = pairs[d + 1];
		buf[--i] = pairs[d];
	}
	if (u >= 10) {
		buf[--i] = pairs[u * 2 + 1];
		buf[--i] = pairs[u * 2];
	} else {
		buf[--i] = (char)('0' + u);
	}
	if (v < 0)
		buf[--i] = '-';
	strbuf_add(sb, buf + i, sizeof(buf) - (size_t)i);
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
		if (v < 0)
			strbuf_addch(sb, '-');
		add_lld(sb, ip);
		strbuf_addch(sb, '.');
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
		add_lld(sb, (long long)v);
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
