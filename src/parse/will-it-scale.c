/*
 * will-it-scale.c: will-it-scale's CSV output as lkp stats.
 *
 * runtest.py prints a header ("tasks,processes,processes_idle,threads,
 * threads_idle,linear") and one row per task count.  Every row except
 * the idle 0-task one (and the bad all-zero rows left by a crashed test)
 * prints "<tasks>.<column>: <value>" verbatim, then
 *
 *     scalability      processes/linear of the last row with linear != 0
 *                      and tasks != 1 (%f)
 *     per_process_ops  mean of processes/tasks (%d: truncated)
 *     per_thread_ops   mean of threads/tasks (%d)
 *     workload         processes + threads over all rows (%d)
 *
 * An "Assertion `...' failed" line from a test becomes "<assertion>: 1"
 * with everything but [a-zA-Z0-9<>!=] turned into single '_'.
 */
#include <stdbool.h>
#include <string.h>

#include "parse/bench_util.h"

enum { RX_HEADER, RX_ROW, RX_ASSERT, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_HEADER] = "^[a-z_,]+$",
	[RX_ROW] = "^[0-9.,]+$",
	[RX_ASSERT] = "(Assertion .* failed)",
};

static bool assertion_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("<>!=", c));
}

/* lkp's sub(/.*: /, '').tr('^a-zA-Z0-9<>!=', '_').gsub(/__+/, '_') */
static void put_assertion(struct strbuf *out, const char *s, size_t len)
{
	const char *end = s + len;
	bool last_was_sep = false;

	/* drop everything up to the last ": " */
	for (const char *p = end - 1; p > s; p--)
		if (p[-1] == ':' && p[0] == ' ') {
			s = p + 1;
			break;
		}
	for (const char *p = s; p < end; p++) {
		if (assertion_char(*p)) {
			strbuf_addch(out, *p);
			last_was_sep = false;
		} else if (!last_was_sep) {
			strbuf_addch(out, '_');
			last_was_sep = true;
		}
	}
	strbuf_addstr(out, ": 1\n");
}

static int parse_will_it_scale(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[2];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list names = FIELD_LIST_INIT, values = FIELD_LIST_INIT;
	struct dvec per_process = DVEC_INIT, per_thread = DVEC_INIT;
	bool have_names = false, have_scalability = false;
	double scalability = 0, workload = 0;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (rx_match(&re[RX_HEADER], l, NULL, 0)) {
			split_char_str(&names, l, ',');
			have_names = true;
		} else if (rx_match(&re[RX_ROW], l, NULL, 0)) {
			const char *nr_task;
			long long processes, threads, linear, tasks;

			split_char_str(&values, l, ',');
			if (!values.nr)
				continue;
			nr_task = values.str[0];
			if (!strcmp(nr_task, "0"))
				continue;
			if (!have_names || values.nr < 4 || names.nr != values.nr) {
				ret = parse_error(in, "will-it-scale", ln.no,
						  "expected %zu comma-separated values "
						  "after a 'tasks,processes,...' header",
						  names.nr);
				goto out;
			}
			processes = rb_to_i(values.str[1]);
			threads = rb_to_i(values.str[3]);
			/* a crashed test leaves an all-zero row */
			if (!processes && !threads)
				continue;
			linear = rb_to_i(values.str[values.nr - 1]);
			tasks = rb_to_i(nr_task);
			if (!tasks) {
				ret = parse_error(in, "will-it-scale", ln.no, "bad task count '%s'", nr_task);
				goto out;
			}
			if (linear && strcmp(nr_task, "1")) {
				scalability = rb_to_f(values.str[1]) / (double)linear;
				have_scalability = true;
			}
			dvec_push(&per_process, (double)processes / (double)tasks);
			workload += (double)processes;
			dvec_push(&per_thread, (double)threads / (double)tasks);
			workload += (double)threads;
			for (size_t i = 1; i < names.nr; i++)
				put_str(out, values.str[i], "%s.%s", nr_task, names.str[i]);
		} else if (rx_match(&re[RX_ASSERT], l, m, 2)) {
			put_assertion(out, l + m[1].so, (size_t)(m[1].eo - m[1].so));
		}
	}
	if (out->len == start && !per_process.nr) {
		ret = parse_error(in, "will-it-scale", line_iter_last(&it),
				  "no will-it-scale results found (expected a "
				  "'tasks,processes,...' header and rows)");
		goto out;
	}
	if (have_scalability) {
		strbuf_addstr(out, "scalability: ");
		fmt_c_double(out, "%f", scalability);
		strbuf_addch(out, '\n');
	}
	if (per_process.nr) {
		strbuf_addstr(out, "per_process_ops: ");
		fmt_trunc(out, lkp_average(per_process.v, per_process.nr));
		strbuf_addstr(out, "\nper_thread_ops: ");
		fmt_trunc(out, lkp_average(per_thread.v, per_thread.nr));
		strbuf_addch(out, '\n');
	}
	if (workload != 0) {
		strbuf_addstr(out, "workload: ");
		fmt_trunc(out, workload);
		strbuf_addch(out, '\n');
	}
out:
	strbuf_release(&line);
	field_list_release(&names);
	field_list_release(&values);
	dvec_release(&per_process);
	dvec_release(&per_thread);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_will_it_scale = { "will-it-scale", parse_will_it_scale, NULL };
