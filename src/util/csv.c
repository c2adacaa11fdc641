/* csv.c: RFC 4180 fields (see csv.h). */
#include "util/csv.h"
#include "util/numfmt.h"

#include <math.h>
#include <string.h>

void csv_field(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

void csv_number(struct strbuf *sb, double v)
{
	if (isnan(v))
		return;
	fmt_number(sb, v, isfinite(v) && v == floor(v) && fabs(v) < 1e15);
}
