/*
 * mytest.c: the plain convention for user benchmarks ("mytest").
 *
 * A benchmark that knows nothing of lkp prints its results on stdout as
 * "name: number" lines; each becomes the stat "name: number" (`perfbot
 * run` prefixes the testcase name), the number normalised as Ruby would
 * print it: "007" -> 7, "1.50" -> 1.5, "2e3" -> 2000.0.  The name is one
 * word without ':'.  Every other line is ignored.
 */
#include <string.h>

#include "parse/bench_util.h"
#include "util/numfmt.h"

/* A non-empty name without blanks. */
static bool is_word(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (is_rspace((unsigned char)s[i]))
			return false;
	return len > 0;
}

static int parse_mytest(const struct parse_input *in, struct strbuf *out)
{
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	size_t start = out->len;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf, *colon = strchr(l, ':');
		double v;
		bool is_int;

		/* parse_number too: is_decimal takes a trailing \v or \f,
		 * which parse_number refuses, leaving is_int unset (found by
		 * fuzzing) */
		if (!colon || !is_word(l, (size_t)(colon - l)) || colon[1] != ' ' ||
		    !is_decimal(colon + 1) || parse_number(colon + 1, &v, &is_int) < 0)
			continue;
		strbuf_add(out, l, (size_t)(colon - l));
		strbuf_addstr(out, ": ");
		fmt_number(out, v, is_int);
		strbuf_addch(out, '\n');
	}
	if (out->len == start)
		ret = parse_error(in, "mytest", line_iter_last(&it),
				  "no 'name: number' lines found");
	strbuf_release(&line);
	return ret;
}

const struct parser parser_mytest = { "mytest", parse_mytest, NULL };
