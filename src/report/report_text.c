/*
 * report_text.c: the report as email text, in the voice and layout of
 * lkp's 0-day reports (../shared/seeds): the first paragraph, the key
 * metric table with its stddev%/change% legend, the test's parameters
 * and commits, every changed metric, the perf-profile changes and call
 * graph, the sample plot, the machine and how to reproduce.  80 columns
 * where the content allows (metric names make table rows longer).
 *
 * Plots come from plot_ascii(), or from gnuplot's dumb terminal with
 * --plotter gnuplot (report_gnuplot below).
 */
#include "report/busy.h"
#include "report/report.h"
#include "stats/lkp_tables.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WRAP 72
#define RULE "========================================================================================="

/* compare_print_table's own commit list is replaced by the annotated
 * one: keep its output from the column header line on. */
static const char *table_body(const char *s)
{
	const char *c = strstr(s, "commit: \n"), *end;

	if (!c || !(end = strstr(c, "\n\n")))
		return s;
	return end + 2;
}

static void print_rows(const struct report *r, const struct compare *cmp,
		       const int *rows, int n, bool footnote, struct strbuf *out)
{
	struct compare view;
	struct strbuf sb = STRBUF_INIT;

	report_compare_view(cmp, rows, n, &view);
	view.too_few_samples = footnote && cmp->too_few_samples;
	if (r->opt.legacy) {
		compare_print_legacy(&view, &sb);
		strbuf_addstr(out, sb.buf);
	} else {
		compare_print_table(&view, &sb, false);
		strbuf_addstr(out, table_body(sb.buf));
	}
	free(view.row);
	strbuf_release(&sb);
}

/*
 * The key metrics in seed 001's layout, with its legend under the first
 * row: the legacy table's stddev digits end at column 15 and its change
 * at column 26.
 */
static void kpi_section(const struct report *r, struct strbuf *out)
{
	struct compare view;
	struct strbuf sb = STRBUF_INIT;

	if (!r->nr_kpi_rows)
		return;
	report_compare_view(&r->kpi, r->kpi_rows, r->nr_kpi_rows, &view);
	compare_print_legacy(&view, &sb);
	free(view.row);
	strbuf_rtrim(&sb);
	strbuf_addstr(out, sb.buf);
	strbuf_addch(out, '\n');
	if (r->kpi.ncols > 1)
		strbuf_addstr(out, "             ^^     ^^^^^^\n"
				   "        stddev%    change%\n");
	else
		strbuf_addstr(out, "             ^^\n"
				   "        stddev%\n");
	strbuf_addch(out, '\n');
	strbuf_release(&sb);
}

static void commit_line(const struct report_commit *c, struct strbuf *out)
{
	strbuf_addf(out, "  %s", c->id);
	report_commit_notes(c, out);
	strbuf_addch(out, '\n');
}

/* The job's value of key, or NULL. */
static const char *axis_value(const struct report *r, const char *key)
{
	for (int i = 0; i < r->nr_axes; i++)
		if (!strcmp(r->axes[i].key, key))
			return r->axes[i].value;
	return NULL;
}

/*
 * Under a bisect's first paragraph, as a current 0-day mail has them:
 * the first bad commit in full with its subject, the test (testcase,
 * config, compiler, test machine) with its other parameters indented
 * under "parameters:", then the trailers a fix is to carry.
 */
static void test_section(const struct report *r, struct strbuf *out)
{
	static const char *const head[][2] = {
		{ "testcase", "testcase" }, { "kconfig", "config" },
		{ "compiler", "compiler" }, { "tbox_group", "test machine" },
	};
	const struct report_bisect *b = r->bisect;
	int params = 0;

	if (!b)
		return;
	strbuf_addf(out, "commit: %s", b->first_bad);
	if (b->first_bad_subject)
		strbuf_addf(out, " (\"%s\")", b->first_bad_subject);
	strbuf_addstr(out, "\n\n");
	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++) {
		const char *v = axis_value(r, head[k][0]);
		if (v)
			strbuf_addf(out, "%s: %s\n", head[k][1], v);
	}
	for (int i = 0; i < r->nr_axes; i++) {
		const char *key = r->axes[i].key;
		bool in_head = !strcmp(key, "rootfs") || !strcmp(key, "commit");
		for (size_t k = 0; k < sizeof(head) / sizeof(head[0]) && !in_head; k++)
			in_head = !strcmp(key, head[k][0]);
		if (in_head)
			continue;
		if (!params++)
			strbuf_addstr(out, "parameters:\n\n");
		strbuf_addf(out, "\t%s: %s\n", key, r->axes[i].value);
	}
	if (r->nr_axes)
		strbuf_addch(out, '\n');
	if (r->opt.reported_by || r->opt.closes) {
		strbuf_addstr(out, "If you fix the issue in a separate patch (not a new version "
			      "of this one),\nplease add these tags:\n");
		if (r->opt.reported_by)
			strbuf_addf(out, "| Reported-by: %s\n", r->opt.reported_by);
		if (r->opt.closes)
			strbuf_addf(out, "| Closes: %s\n", r->opt.closes);
		strbuf_addch(out, '\n');
	}
}

/* The rule, the job's parameter keys line and values, the commits. */
static void description(const struct report *r, struct strbuf *out)
{
	strbuf_addf(out, "%s\n", RULE);
	if (r->nr_axes) {
		for (int i = 0; i < r->nr_axes; i++)
			strbuf_addf(out, "%s%s", i ? "/" : "", r->axes[i].key);
		strbuf_addstr(out, ":\n  ");
		for (int i = 0; i < r->nr_axes; i++)
			strbuf_addf(out, "%s%s", i ? "/" : "", r->axes[i].value);
		strbuf_addstr(out, "\n\n");
	}
	strbuf_addstr(out, "commit: \n");
	for (int i = 0; i < r->main.ncols; i++)
		commit_line(&r->main_commits[i], out);
	strbuf_addch(out, '\n');
}

static int nr_changed(const struct compare *cmp)
{
	int n = 0;

	for (int i = 0; i < cmp->nrows; i++)
		n += cmp->row[i].changed;
	return n;
}

static void changes_section(const struct report *r, struct strbuf *out)
{
	struct strbuf para = STRBUF_INIT;
	const struct compare *cmp = &r->main;
	int n = nr_changed(cmp);

	if (r->bisect) {
		strbuf_addf(&para, "It's not necessarily the root cause, however it's good to "
			    "share with you all the changes comparing %s to its parent commit %s",
			    r->headline_bad_short, r->main_commits[0].id);
	} else if (cmp->ncols == 2) {
		strbuf_addf(&para, "All the changes comparing %s to %s", cmp->col[1].label,
			    cmp->col[0].label);
	} else {
		strbuf_addf(&para, "All the changes comparing each commit to %s",
			    cmp->col[0].label);
	}
	strbuf_addstr(&para, n ? ":" : ": none that is significant.");
	report_wrap(out, para.buf, WRAP, "");
	strbuf_addch(out, '\n');
	description(r, out);
	if (n) {
		int *rows = xcalloc((size_t)cmp->nrows + 1, sizeof(int));
		for (int i = 0; i < cmp->nrows; i++)
			rows[i] = i;
		print_rows(r, cmp, rows, cmp->nrows, true, out);
		free(rows);
		busy_note(cmp, out);
	} else if (cmp->too_few_samples && cmp->opt.rule == RULE_STAT) {
		/* why nothing could change: the table's footnote alone */
		struct compare none = *cmp;
		struct strbuf sb = STRBUF_INIT;
		none.nrows = 0;
		compare_print_legacy(&none, &sb);
		const char *note = strstr(sb.buf, "note:");
		if (note)
			strbuf_addf(out, "%s\n", note);
		strbuf_release(&sb);
	}
	if (!n)
		busy_note(cmp, out);
	strbuf_release(&para);
}

static void perf_section(const struct report *r, struct strbuf *out)
{
	if (r->nr_perf_rows) {
		strbuf_addstr(out, "The perf-profile changes, the biggest first:\n\n");
		print_rows(r, &r->main, r->perf_rows, r->nr_perf_rows, false, out);
	}
	if (r->profile.len) {
		strbuf_addf(out, "perf report for %s:\n\n", r->profile_commit);
		strbuf_addstr(out, r->profile.buf);
		if (r->profile_left_out)
			strbuf_addf(out, "[... %d more lines in %s]\n", r->profile_left_out,
				    r->profile_path);
		strbuf_addch(out, '\n');
	}
}

/* The plot, without the empty rows at its foot (its legend follows). */
static int render_plot(const struct report *r, const struct plot *p, struct strbuf *out)
{
	if (r->opt.plotter == PLOTTER_GNUPLOT) {
		if (report_gnuplot(p, r->opt.gnuplot, out) < 0)
			return -1;
	} else {
		plot_ascii(p, out);
	}
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	return 0;
}

static const char marker_chars[] = { [PLOT_NEUTRAL] = 'x', [PLOT_GOOD] = '*', [PLOT_BAD] = 'O' };

static int plot_section(const struct report *r, struct strbuf *out)
{
	struct plot p;
	int ret = 0;

	if (r->bisect) {
		int skipped = 0;
		for (int i = 0; i < r->bisect->nr_steps; i++)
			if (r->bisect->steps[i].verdict == VERDICT_SKIP)
				skipped += r->bisect->steps[i].nr;
		if (!r->bisect->nr_steps)
			return 0;
		if (report_bisect_stable(r))
			strbuf_addstr(out, "The bisect looks stable, each point below represents "
				      "a sample run:\n");
		else
			report_wrap(out, "The bisect is not clear-cut: good and bad samples "
				    "overlap. Each point below represents a sample run:", WRAP, "");
		report_bisect_plot(r, true, &p);
		ret = render_plot(r, &p, out);
		plot_release(&p);
		strbuf_addstr(out, "\n        * good samples   O bad samples");
		if (skipped)
			strbuf_addf(out, "   (%d samples of skipped commits not shown)", skipped);
		strbuf_addstr(out, "\n\n");
		return ret;
	}
	if (r->headline.kind == CHANGE_NONE || r->headline_row < 0)
		return 0;
	strbuf_addf(out, "Each point below represents a sample run of %s:\n",
		    r->main.row[r->headline_row].stat);
	report_metric_plot(&r->main, r->headline_row, &p);
	ret = render_plot(r, &p, out);
	strbuf_addstr(out, "\n       ");
	for (size_t i = 0; i < p.nr_series; i++)
		strbuf_addf(out, " %c %s ", marker_chars[p.series[i]->marker], p.series[i]->name);
	strbuf_rtrim(out);
	strbuf_addstr(out, "\n\n");
	plot_release(&p);
	return ret;
}

/* The commits the bisect skipped and why, as git bisect skip's list. */
static void skipped_section(const struct report *r, struct strbuf *out)
{
	const struct report_bisect *b = r->bisect;
	int n = 0;

	for (int i = 0; b && i < b->nr_steps; i++) {
		const struct report_step *st = &b->steps[i];
		if (st->verdict != VERDICT_SKIP)
			continue;
		if (!n++)
			strbuf_addstr(out, "The bisect skipped these commits:\n");
		const struct report_bisect_commit *c = report_bisect_commit(b, st->commit);
		strbuf_addf(out, "  %.12s", st->commit);
		if (c && c->subject)
			strbuf_addf(out, " (\"%s\")", c->subject);
		strbuf_addf(out, ": %s\n", st->reason ? st->reason : "no reason recorded");
	}
	if (n)
		strbuf_addch(out, '\n');
}

static void machine_section(const struct report *r, struct strbuf *out)
{
	struct strbuf para = STRBUF_INIT;

	if (report_machine_sentence(r, &para)) {
		report_wrap(out, para.buf, WRAP, "");
		strbuf_addch(out, '\n');
	}
	strbuf_release(&para);
}

static void reproduce_section(const struct report *r, struct strbuf *out)
{
	struct strbuf intro = STRBUF_INIT, cmds = STRBUF_INIT, bisect = STRBUF_INIT;

	report_reproduce(r, &intro, &cmds, &bisect);
	report_wrap(out, intro.buf, WRAP, "");
	strbuf_addch(out, '\n');
	report_wrap_lines(out, cmds.buf, "        ");
	if (bisect.len) {
		strbuf_addstr(out, "\nand the whole bisect:\n\n");
		report_wrap_lines(out, bisect.buf, "        ");
	}
	strbuf_addch(out, '\n');
	strbuf_release(&intro);
	strbuf_release(&cmds);
	strbuf_release(&bisect);
}

int report_text(const struct report *r, struct strbuf *out)
{
	strbuf_addstr(out, "Hello,\n\n");
	report_headline_text(&r->headline, out);
	if (r->bisect)
		report_bisect_notes(r->bisect, WRAP, out);
	test_section(r, out);
	kpi_section(r, out);
	changes_section(r, out);
	perf_section(r, out);
	if (plot_section(r, out) < 0)
		return -1;
	skipped_section(r, out);
	machine_section(r, out);
	reproduce_section(r, out);
	strbuf_addstr(out, "Thanks,\nperfbot\n");
	return 0;
}

/* --- gnuplot ----------------------------------------------------------- */

/* Is program runnable: a path, or found in $PATH? */
static bool have_program(const char *program)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	bool ok = false;

	if (strchr(program, '/'))
		return access(program, X_OK) == 0;
	if (!path)
		path = "/usr/bin:/bin";
	while (*path && !ok) {
		size_t len = strcspn(path, ":");
		strbuf_reset(&sb);
		strbuf_add(&sb, path, len);
		if (!len)
			strbuf_addch(&sb, '.');
		strbuf_addf(&sb, "/%s", program);
		ok = access(sb.buf, X_OK) == 0;
		path += len;
		if (*path == ':')
			path++;
	}
	strbuf_release(&sb);
	return ok;
}

/* A gnuplot single-quoted string: '' stands for a quote. */
static void gp_quote(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addch(sb, '\'');
		strbuf_addch(sb, *s == '\n' ? ' ' : *s);
	}
	strbuf_addch(sb, '\'');
}

int report_gnuplot(const struct plot *p, const char *program, struct strbuf *out)
{
	struct strbuf data = STRBUF_INIT, script = STRBUF_INIT, got = STRBUF_INIT;
	const char *tmpdir = getenv("TMPDIR");
	char path[4096];
	int fd, rc, ret = -1, block = 0;

	if (!program)
		program = "gnuplot";
	if (!have_program(program))
		return error("--plotter gnuplot: '%s' is not installed (not found in PATH)", program);
	snprintf(path, sizeof(path), "%s/perfbot-plot.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return error("cannot create '%s': %s", path, strerror(errno));
	close(fd);

	strbuf_addf(&script, "set terminal dumb nofeed size %d,%d; set key off; unset xtics; "
		    "set ytics nomirror; ",
		    p->text_width > 0 ? p->text_width : PLOT_TEXT_WIDTH,
		    p->text_height > 0 ? p->text_height : PLOT_TEXT_HEIGHT);
	if (p->title) {
		strbuf_addstr(&script, "set title ");
		gp_quote(&script, p->title);
		strbuf_addstr(&script, "; ");
	}
	strbuf_addstr(&script, "plot ");
	for (size_t i = 0; i < p->nr_series; i++) {
		const struct plot_series *s = p->series[i];
		bool any = false;
		for (size_t k = 0; k < s->nr; k++) {
			if (!plot_value_ok(s->points[k].x) || !plot_value_ok(s->points[k].y))
				continue;
			plot_add_number(&data, 'g', 17, s->points[k].x);
			strbuf_addch(&data, ' ');
			plot_add_number(&data, 'g', 17, s->points[k].y);
			strbuf_addch(&data, '\n');
			any = true;
		}
		if (!any)
			continue;
		strbuf_addstr(&data, "\n\n");
		if (block)
			strbuf_addstr(&script, ", ");
		gp_quote(&script, path);
		strbuf_addf(&script, " index %d with %s pt '%c'", block++,
			    s->lines ? "linespoints lt 0" : "points",
			    marker_chars[s->marker]);
	}
	if (!block) {
		ret = 0;
		goto out;
	}
	if (write_file_atomic(path, data.buf, data.len) < 0)
		goto out;
	char *argv[] = { (char *)program, "-e", script.buf, NULL };
	rc = capture_command(argv, NULL, &got);
	if (rc != 0) {
		if (rc > 0)
			error("gnuplot failed (exit %d)", rc);
		goto out;
	}
	/* the dumb terminal pads lines with blanks: trim them */
	for (const char *s = got.buf; *s; ) {
		const char *eol = strchrnul(s, '\n');
		size_t len = (size_t)(eol - s);
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\f' || s[len - 1] == '\r'))
			len--;
		strbuf_add(out, s, len);
		strbuf_addch(out, '\n');
		s = *eol ? eol + 1 : eol;
	}
	ret = 0;
out:
	unlink(path);
	strbuf_release(&data);
	strbuf_release(&script);
	strbuf_release(&got);
	return ret;
}
