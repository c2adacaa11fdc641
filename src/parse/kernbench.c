/*
 * kernbench.c: kernbench's summary as lkp stats.
 *
 * kernbench ends with "Average Optimal load -j N Run (std deviation):"
 * and lines "Elapsed Time 28.094 (0.182565)"; each gives "<name>: <mean>"
 * and "<name>_stddev: <stddev>", copied as printed (parentheses dropped).
 */
#include <string.h>

#include "parse/bench_util.h"

static const struct row {
	const char *label;      /* matched anywhere in the line, as lkp does */
	const char *key;
	size_t column;          /* of the mean; the stddev follows */
} rows[] = {
	{ "Elapsed Time", "elapsed_time", 2 },
	{ "User Time", "user_time", 2 },
	{ "System Time", "system_time", 2 },
	{ "Percent CPU", "percent_cpu", 2 },
	{ "Context Switches", "context_switches", 2 },
	{ "Sleeps", "sleeps", 1 },
};

static int parse_kernbench(const struct parse_input *in, struct strbuf *out)
{
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	struct strbuf sd = STRBUF_INIT;
	size_t start = out->len;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const struct row *r = NULL;

		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && !r; i++)
			if (strstr(line.buf, rows[i].label))
				r = &rows[i];
		if (!r)
			continue;
		split_ws_str(&f, line.buf);
		if (f.nr <= r->column) {
			ret = parse_error(in, "kernbench", ln.no,
					  "expected '%s <mean> (<stddev>)'", r->label);
			goto out;
		}
		put_str(out, f.str[r->column], "%s", r->key);
		if (f.nr > r->column + 1) {
			strbuf_reset(&sd);
			for (const char *p = f.str[r->column + 1]; *p; p++)
				if (*p != '(' && *p != ')')
					strbuf_addch(&sd, *p);
			put_str(out, sd.buf, "%s_stddev", r->key);
		}
	}
	if (out->len == start)
		ret = parse_error(in, "kernbench", line_iter_last(&it),
				  "no kernbench summary found (expected 'Elapsed Time <mean> (<stddev>)')");
out:
	strbuf_release(&sd);
	field_list_release(&f);
	strbuf_release(&line);
	return ret;
}

const struct parser parser_kernbench = { "kernbench", parse_kernbench, NULL };
