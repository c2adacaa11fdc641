/* duration.c: "300", "5m", "1.5h", "2d" as seconds (see duration.h). */
#include "util/duration.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

double parse_duration(const char *s)
{
	const char *p = s;
	size_t digits = 0;
	double v;

	if (!s)
		return -1;
	/* the grammar first: strtod alone takes blanks, signs, exponents,
	 * hex, inf and nan */
	for (; isdigit((unsigned char)*p); p++)
		digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits || (*p && p[1]))
		return -1;
	v = strtod(s, NULL);
	switch (*p) {
	case '\0': case 's': break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	default: return -1;
	}
	return isfinite(v) ? v : -1;
}

double duration_job_limit(double timeout, double runtime)
{
	if (timeout > 0)
		return timeout;
	return runtime > 0 ? runtime * 2 + 60 : 0;
}
