/*
 * report_words.c: the wording both renderers share — the first
 * paragraph (the headline), word wrapping, the perf-profile excerpt and
 * the "to reproduce" commands.
 */
#include "report/report.h"
#include "runner/runner.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRAP_WIDTH 72           /* the seeds' paragraphs wrap about here */


void report_wrap(struct strbuf *out, const char *text, int width, const char *indent)
{
	const char *p = text;
	size_t col = 0, ilen = strlen(indent);

	while (*p) {
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		size_t wlen = strcspn(p, " \n");
		if (col && col + 1 + wlen > (size_t)width) {
			strbuf_addch(out, '\n');
			col = 0;
		}
		if (!col) {
			strbuf_addstr(out, indent);
			col = ilen;
		} else {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, wlen);
		col += wlen;
		p += wlen;
	}
	if (col)
		strbuf_addch(out, '\n');
}

static void add_change(struct strbuf *sb, double change, bool abs_change)
{
	if (abs_change)
		strbuf_addf(sb, "%+.2f", change);
	else
		strbuf_addf(sb, "%+.1f%%", change);
}

static const char *kind_word(enum report_kind k)
{
	switch (k) {
	case CHANGE_REGRESSION: return "regression";
	case CHANGE_IMPROVEMENT: return "improvement";
	default: return "change";
	}
}

void report_headline_text(const struct report_headline *h, struct strbuf *out)
{
	struct strbuf para = STRBUF_INIT;

	if (h->kind == CHANGE_NONE) {
		strbuf_addf(&para, "We compared %s and %s", h->base, h->new);
		if (h->testcase) {
			strbuf_addstr(&para, " in test case");
			report_wrap(out, para.buf, WRAP_WIDTH, "");
			strbuf_addf(out, "\n        %s\n\n", h->testcase);
			strbuf_reset(&para);
			strbuf_addstr(&para, "and");
		} else {
			strbuf_addstr(&para, " and");
		}
		if (h->metric && (h->other_regressions || h->other_improvements)) {
			/* the primary metric held; others moved */
			strbuf_addf(&para, " noticed no significant change of %s (", h->metric);
			add_change(&para, h->change, h->abs_change);
			strbuf_addstr(&para, "), but of the other key metrics,");
			if (h->other_regressions)
				strbuf_addf(&para, " %d regressed", h->other_regressions);
			if (h->other_regressions && h->other_improvements)
				strbuf_addstr(&para, " and");
			if (h->other_improvements)
				strbuf_addf(&para, " %d improved", h->other_improvements);
		} else {
			strbuf_addstr(&para, " noticed no significant change of the key metrics");
			if (h->metric) {
				strbuf_addf(&para, " (%s: ", h->metric);
				add_change(&para, h->change, h->abs_change);
				strbuf_addch(&para, ')');
			}
		}
		strbuf_addstr(&para, ".");
		if (h->changed)
			strbuf_addf(&para, " %d other metric%s changed.", h->changed,
				    h->changed == 1 ? "" : "s");
		report_wrap(out, para.buf, WRAP_WIDTH, "");
		strbuf_addch(out, '\n');
		strbuf_release(&para);
		return;
	}

	strbuf_addstr(&para, "We noticed a ");
	add_change(&para, h->change, h->abs_change);
	strbuf_addf(&para, " %s of %s", kind_word(h->kind), h->metric);
	if (h->testcase) {
		strbuf_addstr(&para, " in test case");
		report_wrap(out, para.buf, WRAP_WIDTH, "");
		strbuf_addf(out, "\n        %s\n\n", h->testcase);
		strbuf_reset(&para);
	} else {
		strbuf_addch(&para, ' ');
	}
	if (h->where)
		strbuf_addstr(&para, h->where);
	else
		strbuf_addf(&para, "between %s and %s", h->base, h->new);
	for (int i = 0; !h->where && i < h->nr_more; i++) {
		strbuf_addstr(&para, i ? ", and " : ", and it is ");
		add_change(&para, h->more_changes[i], h->abs_change);
		strbuf_addf(&para, " as of %s", h->more_labels[i]);
	}
	strbuf_addstr(&para, ".");
	if (h->first_bad) {
		strbuf_addf(&para, " The bisect leads us to commit %s", h->first_bad);
		if (h->first_bad_subject)
			strbuf_addf(&para, " (\"%s\")", h->first_bad_subject);
		strbuf_addstr(&para, ".");
	}
	if (h->other_regressions || h->other_improvements) {
		strbuf_addstr(&para, " Of the other key metrics,");
		if (h->other_regressions)
			strbuf_addf(&para, " %d regressed", h->other_regressions);
		if (h->other_regressions && h->other_improvements)
			strbuf_addstr(&para, " and");
		if (h->other_improvements)
			strbuf_addf(&para, " %d improved", h->other_improvements);
		strbuf_addstr(&para, ".");
	}
	if (h->changed > 1)
		strbuf_addf(&para, " %d metrics changed in all.", h->changed);
	report_wrap(out, para.buf, WRAP_WIDTH, "");
	strbuf_addch(out, '\n');
	strbuf_release(&para);
}

/* --- perf-profile.txt ----------------------------------------------- */

int report_profile_excerpt(const char *text, int max_lines, struct strbuf *out)
{
	const char *p = text, *start = NULL;
	int taken = 0, left = 0;

	/* from "# Overhead ..." when there is one, else the first line of data */
	for (const char *q = text; *q; ) {
		const char *eol = strchrnul(q, '\n');
		if (!strncmp(q, "# Overhead", 10)) {
			start = q;
			break;
		}
		if (!start && *q != '#' && eol > q)
			start = q;
		q = *eol ? eol + 1 : eol;
	}
	if (!start)
		return 0;
	p = start;
	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t)(eol - p);
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (taken < max_lines) {
			strbuf_add(out, p, len);
			strbuf_addch(out, '\n');
			taken++;
		} else if (len && !(len == 1 && *p == '#')) {
			left++;
		}
		p = *eol ? eol + 1 : eol;
	}
	/* no trailing empty or bare '#' lines */
	while (out->len > 1 && out->buf[out->len - 1] == '\n' &&
	       (out->buf[out->len - 2] == '\n' ||
		(out->buf[out->len - 2] == '#' && (out->len == 2 || out->buf[out->len - 3] == '\n')))) {
		strbuf_setlen(out, out->len - (out->buf[out->len - 2] == '#' ? 2 : 1));
	}
	return left;
}


/* Words for a shell, each quoted where it must be, appended to sb. */
static void shell_words(struct strbuf *sb, const char *const *words, size_t n)
{
	struct argv_list a = ARGV_LIST_INIT;

	for (size_t i = 0; i < n; i++)
		argv_list_push(&a, words[i]);
	argv_list_to_shell(&a, sb);
	argv_list_release(&a);
}

/*
 * A kernel bisect's commit: built in the kernel cache as the bisect built
 * it (perfbot kernel build prints the bzImage's path, which it also
 * finds there when built already), then booted with the bisect's VM; run
 * takes the commit and config from the image, so the runs land in the
 * bisect's result tree under the same path.
 */
static void kernel_reproduce(const struct report_bisect *b, const char *job, const char *sha,
			     struct strbuf *cmds)
{
	const char *build[] = { "perfbot", "kernel", "build", "--tree", b->kernel_tree,
				"--commit", sha, "--config", b->kernel_config };

	strbuf_addstr(cmds, "K=$(");
	shell_words(cmds, build, sizeof(build) / sizeof(build[0]));
	strbuf_addf(cmds, ") && perfbot run --kernel \"$K\"%s ", b->kernel_vm_args);
	shell_words(cmds, &job, 1);
	if (b->result_base) {
		strbuf_addstr(cmds, " --result-root ");
		shell_words(cmds, (const char *const *)&b->result_base, 1);
	}
	strbuf_addch(cmds, '\n');
}

void report_reproduce(const struct report *r, struct strbuf *intro, struct strbuf *cmds,
		      struct strbuf *bisect)
{
	const struct compare *cmp = &r->main;
	const char *job = r->job_path ? r->job_path : "job.yaml";
	const struct report_bisect *b = r->bisect;
	bool kernel = b && b->kernel_tree;

	if (kernel)
		strbuf_addstr(intro, "To reproduce, with each commit's kernel built and booted "
			      "in turn");
	else
		strbuf_addstr(intro, "To reproduce, with each commit built and running in turn");
	if (r->job_path)
		strbuf_addf(intro, " (the job is %s):", r->job_path);
	else
		strbuf_addstr(intro, " (the results hold no job file: write the job as job.yaml):");
	for (int i = 0; i < cmp->ncols; i++) {
		if (kernel) {
			/* the full sha: a column may be named by a tag */
			const struct report_bisect_commit *bc =
				report_bisect_commit(b, r->main_commits[i].id);
			kernel_reproduce(b, job, bc ? bc->sha : r->main_commits[i].id, cmds);
			continue;
		}
		strbuf_addf(cmds, "perfbot run %s --commit %s", job, r->main_commits[i].id);
		/* the bisect's result tree, where its runs of the commit are */
		if (b && b->result_base)
			strbuf_addf(cmds, " --result-root %s", b->result_base);
		strbuf_addch(cmds, '\n');
	}
	strbuf_addstr(cmds, "perfbot compare");
	for (int i = 0; i < cmp->ncols; i++)
		strbuf_addf(cmds, " %s", cmp->col[i].path);
	strbuf_addch(cmds, '\n');
	if (!b)
		return;
	if (b->command)
		strbuf_addf(bisect, "%s\n", b->command);
	else
		strbuf_addf(bisect, "perfbot bisect --repo %s --good %s --bad %s --job %s --metric %s\n",
			    b->repo ? b->repo : ".", b->good ? b->good : "GOOD",
			    b->bad ? b->bad : "BAD", job, b->metric);
}

void report_wrap_lines(struct strbuf *out, const char *lines, const char *indent)
{
	for (const char *p = lines; *p; ) {
		const char *eol = strchrnul(p, '\n');
		strbuf_addstr(out, indent);
		strbuf_add(out, p, (size_t)(eol - p));
		strbuf_addch(out, '\n');
		p = *eol ? eol + 1 : eol;
	}
}
