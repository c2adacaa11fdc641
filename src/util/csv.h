#ifndef PERFBOT_CSV_H
#define PERFBOT_CSV_H
/* RFC 4180 fields: what --csv of results, compare and changed print. */
#include "util/strbuf.h"

/* Append s, in double quotes (doubled inside) when it holds a comma, a
 * quote or a line break. */
void csv_field(struct strbuf *sb, const char *s);
/* Append v as perfbot prints numbers (fmt_number: integers as integers,
 * else Ruby's shortest form); nothing for NaN, which CSV leaves empty. */
void csv_number(struct strbuf *sb, double v);

#endif
