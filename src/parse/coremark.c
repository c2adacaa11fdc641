/*
 * coremark.c: CoreMark's report as lkp stats.
 *
 * "Iterations/Sec   : 12173.471976" gives "iterations_per_sec:" followed
 * by everything after the first ':' as printed, leading blank included,
 * exactly as lkp prints it ("iterations_per_sec:  12173.471976").
 */
#include <string.h>

#include "parse/bench_util.h"

static int parse_coremark(const struct parse_input *in, struct strbuf *out)
{
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	size_t start = out->len;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *colon;

		if (strncmp(line.buf, "Iterations/Sec", 14))
			continue;
		colon = strchr(line.buf, ':');
		if (!colon || !is_decimal(colon + 1)) {
			ret = parse_error(in, "coremark", ln.no,
					  "expected 'Iterations/Sec : <number>'");
			goto out;
		}
		put_str(out, colon + 1, "iterations_per_sec");
	}
	if (out->len == start)
		ret = parse_error(in, "coremark", line_iter_last(&it),
				  "no 'Iterations/Sec : <number>' line found");
out:
	strbuf_release(&line);
	return ret;
}

const struct parser parser_coremark = { "coremark", parse_coremark, NULL };
