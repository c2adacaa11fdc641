/*
 * compare_table.c: printing a struct compare as lkp's ncompare table, the
 * older "~ N%" table of the 2014 reports (--legacy), or JSON.
 *
 * Column arithmetic of the modern table (as ncompare):
 *   first column   %10<fmt> avg, then " ±%3d%%" when stddev > 2% else 6 blanks
 *   further ones   "%+10.1f%% " change (or "%+10.1f  " for absolute ones,
 *                  ".2g" above 100000), then the avg and stddev as above
 *   name           "  <metric>"
 * where <fmt> is .2f below 1000, .4g above 1e8 and d otherwise.  Like Ruby's
 * sprintf, "%d" of a float truncates toward zero, and .1f and .2f round a
 * near-tie to even (fmt_ruby_fixed), not as C does.
 */
#include "report/compare.h"
#include "util/csv.h"
#include "util/json_writer.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ABS_WIDTH 10
#define REL_WIDTH 10
#define ERR_WIDTH 6

static const char RULE[] =
	"=========================================================================================";

void compare_print_avg(struct strbuf *out, double avg)
{
	double a = fabs(avg);
	if (a < 1000)
		fmt_ruby_fixed(out, avg, ABS_WIDTH, 2, false);
	else if (a > 100000000)
		strbuf_addf(out, "%*.4g", ABS_WIDTH, avg);
	else
		strbuf_addf(out, "%*lld", ABS_WIDTH, (long long)avg);
}

static double stddev_percent(double avg, double stddev)
{
	return avg != 0 ? 100 * stddev / avg : stddev;
}

static void print_change(struct strbuf *out, double p, bool abs_change)
{
	if (fabs(p) < 100000)
		fmt_ruby_fixed(out, p, REL_WIDTH, 1, true);     /* lkp's -0.2 for -0.15 */
	else
		strbuf_addf(out, "%+*.2g", REL_WIDTH, p);
	strbuf_addstr(out, abs_change ? "  " : "% ");
}

static void print_axes(const struct compare *cmp, struct strbuf *out)
{
	if (!cmp->nr_common)
		return;
	for (int i = 0; i < cmp->nr_common; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", cmp->common[i].key);
	strbuf_addstr(out, ":\n  ");
	for (int i = 0; i < cmp->nr_common; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", cmp->common[i].value);
	strbuf_addstr(out, "\n\n");
}

static void print_header(const struct compare *cmp, struct strbuf *out)
{
	int first = ABS_WIDTH + ERR_WIDTH, width = first + REL_WIDTH + 1;

	strbuf_addf(out, "%s\n", RULE);
	print_axes(cmp, out);
	strbuf_addf(out, "%s: \n", cmp->axis ? cmp->axis : "commit");
	for (int i = 0; i < cmp->ncols; i++)
		strbuf_addf(out, "  %s\n", cmp->col[i].label);
	strbuf_addch(out, '\n');
	strbuf_addf(out, "%*.*s ", first, first, cmp->col[0].label);
	for (int i = 1; i < cmp->ncols; i++)
		strbuf_addf(out, "%*.*s ", width, width, cmp->col[i].label);
	strbuf_addch(out, '\n');
	strbuf_addchars(out, '-', (size_t)first);
	strbuf_addch(out, ' ');
	for (int i = 1; i < cmp->ncols; i++) {
		strbuf_addchars(out, '-', (size_t)width);
		strbuf_addch(out, ' ');
	}
	strbuf_addch(out, '\n');
}

static void print_failure_row(const struct compare *cmp, const struct compare_row *r, struct strbuf *out)
{
	for (int i = 0; i < cmp->ncols; i++) {
		if (i)
			strbuf_addf(out, "%*.0f%% ", REL_WIDTH, r->change[i - 1]);
		if (r->fails[i] == 0)
			strbuf_addf(out, "%*s", ABS_WIDTH + 1, " ");
		else
			strbuf_addf(out, "%*lld", ABS_WIDTH + 1, (long long)r->fails[i]);
		strbuf_addf(out, ":%-*d", ERR_WIDTH - 2, cmp->col[i].runs);
	}
}

static void print_perf_row(const struct compare *cmp, const struct compare_row *r, struct strbuf *out)
{
	for (int i = 0; i < cmp->ncols; i++) {
		if (i)
			print_change(out, r->change[i - 1], r->abs_change);
		compare_print_avg(out, r->avg[i]);
		double sd = stddev_percent(r->avg[i], r->stddev[i]);
		if (sd > 2)
			strbuf_addf(out, " \xc2\xb1%*lld%%", ERR_WIDTH - 3, (long long)sd);
		else
			strbuf_addchars(out, ' ', ERR_WIDTH);
	}
}

static void print_pvalues(const struct compare *cmp, const struct compare_row *r, struct strbuf *out)
{
	for (int i = 1; i < cmp->ncols; i++) {
		if (isnan(r->p[i - 1]))
			strbuf_addstr(out, "  p=    -  ");
		else
			strbuf_addf(out, "  p=%-7.2g", r->p[i - 1]);
	}
}

static void print_footnote(const struct compare *cmp, struct strbuf *out)
{
	if (cmp->opt.rule != RULE_STAT || !cmp->too_few_samples)
		return;
	strbuf_addf(out,
		    "note: some metrics have fewer than 2 complete runs on a side, so no test\n"
		    "      can call them changed at alpha=%g; run at least %d per side\n"
		    "      (Mann-Whitney needs %d per side to reach alpha=%g).\n",
		    cmp->opt.alpha, cmp->min_samples_needed ? cmp->min_samples_needed : 4,
		    cmp->min_samples_needed ? cmp->min_samples_needed : 4, cmp->opt.alpha);
}

void compare_print_table(const struct compare *cmp, struct strbuf *out, bool pvalue)
{
	int nnew = cmp->ncols - 1, nfail = 0, nperf = 0;

	for (int i = 0; i < cmp->nrows; i++) {
		if (cmp->row[i].failure)
			nfail++;
		else
			nperf++;
	}
	print_header(cmp, out);
	if (nfail) {
		strbuf_addstr(out, "       fail:runs");
		for (int i = 0; i < nnew; i++)
			strbuf_addstr(out, "  %reproduction    fail:runs");
		strbuf_addstr(out, "\n           |    ");
		for (int i = 0; i < nnew; i++)
			strbuf_addstr(out, "         |             |    ");
		strbuf_addch(out, '\n');
		for (int i = 0; i < cmp->nrows; i++) {
			if (!cmp->row[i].failure)
				continue;
			print_failure_row(cmp, &cmp->row[i], out);
			strbuf_addf(out, "  %s\n", cmp->row[i].stat);
		}
	}
	if (nperf) {
		strbuf_addstr(out, "         %stddev");
		for (int i = 0; i < nnew; i++)
			strbuf_addstr(out, "     %change         %stddev");
		strbuf_addstr(out, "\n             \\  ");
		for (int i = 0; i < nnew; i++)
			strbuf_addstr(out, "        |                \\  ");
		strbuf_addch(out, '\n');
		for (int i = 0; i < cmp->nrows; i++) {
			if (cmp->row[i].failure)
				continue;
			print_perf_row(cmp, &cmp->row[i], out);
			if (pvalue)
				print_pvalues(cmp, &cmp->row[i], out);
			strbuf_addf(out, "  %s\n", cmp->row[i].stat);
		}
	}
	strbuf_addch(out, '\n');
	print_footnote(cmp, out);
}

/*
 * The 2014 layout of seeds 000 and 001:
 *        v3.11                      v3.12
 *   ---------------  -------------------------
 *     14934707 ~ 0%     -48.8%    7647311 ~ 0%  vm-scalability.throughput
 * 15-wide first column, 25-wide further ones two blanks apart: " %+9.1f%%"
 * (the change ends 11 columns in), " " and the 10-wide avg, the stddev
 * always shown as " ~%2d%%".
 */
void compare_print_legacy_header(struct strbuf *out, const char *const *labels, int n, const char *eol)
{
	strbuf_addf(out, "%15.15s", labels[0]);
	for (int i = 1; i < n; i++)
		strbuf_addf(out, "  %25.25s", labels[i]);
	strbuf_addf(out, "%s\n---------------", eol);
	for (int i = 1; i < n; i++)
		strbuf_addstr(out, "  -------------------------");
	strbuf_addf(out, "%s\n", eol);
}

void compare_print_legacy_cell(struct strbuf *out, const double *change, bool abs_change,
			       double avg, double sd_percent)
{
	/* " %+9.1f%% " then the avg: the change ends at column 26 as in
	 * seed 001 (its "^^^^^^" legend) */
	if (change && isnan(*change))
		strbuf_addchars(out, ' ', 12);
	else if (change && abs_change)
		strbuf_addf(out, " %+9.2f  ", *change);
	else if (change)
		strbuf_addf(out, " %+9.1f%% ", *change);
	compare_print_avg(out, avg);
	if (sd_percent < 0)
		strbuf_addchars(out, ' ', 5);
	else
		strbuf_addf(out, " ~%2lld%%", (long long)sd_percent);
}

void compare_print_legacy(const struct compare *cmp, struct strbuf *out)
{
	const char **labels = xcalloc((size_t)cmp->ncols, sizeof(*labels));

	for (int i = 0; i < cmp->ncols; i++)
		labels[i] = cmp->col[i].label;
	compare_print_legacy_header(out, labels, cmp->ncols, "");
	free(labels);
	for (int r = 0; r < cmp->nrows; r++) {
		const struct compare_row *row = &cmp->row[r];
		for (int i = 0; i < cmp->ncols; i++) {
			double sd = row->failure || row->stddev[i] < 0 ? 0 : stddev_percent(row->avg[i], row->stddev[i]);
			compare_print_legacy_cell(out, i ? &row->change[i - 1] : NULL, row->abs_change,
						  row->failure ? row->fails[i] : row->avg[i], sd);
		}
		strbuf_addf(out, "  %s\n", row->stat);
	}
	strbuf_addch(out, '\n');
	print_footnote(cmp, out);
}

/* The note's rows: the first NOTE_MAX_ROWS, then how many more. */
#define NOTE_MAX_ROWS 10

void compare_print_hidden(const struct compare *cmp, struct strbuf *out)
{
	int nb = cmp->col[0].complete_runs, same = 1;
	bool lkp = cmp->opt.rule == RULE_LKP;

	if (!cmp->nhidden)
		return;
	for (int i = 1; i < cmp->ncols; i++)
		same &= cmp->col[i].complete_runs == nb;
	strbuf_addf(out, "note: %d change%s big enough for the table %s not shown",
		    cmp->nhidden, cmp->nhidden > 1 ? "s" : "", cmp->nhidden > 1 ? "are" : "is");
	if (same)
		strbuf_addf(out, ", at %d run%s a side", nb, nb > 1 ? "s" : "");
	if (lkp && nb < 3 && same)
		strbuf_addstr(out, ":\n      lkp's rule compares only with 3 runs on a side");
	else if (lkp)
		strbuf_addstr(out, ":\n      lkp's rule does not call them changed");
	else
		strbuf_addstr(out, ":\n      the test cannot tell them from noise");
	strbuf_addstr(out, " (q: a BH-adjusted p; runs: a side,\n"
		      "      for the p to get there if the means and spreads hold):\n");
	for (int i = 0; i < cmp->nhidden && i < NOTE_MAX_ROWS; i++) {
		const struct compare_hidden *h = &cmp->hidden[i];
		char p[48], runs[16];

		snprintf(p, sizeof(p), "%s=%.2g, needs < %g", h->key ? "p" : "q", h->p, h->level);
		if (h->runs_needed)
			snprintf(runs, sizeof(runs), "%d runs", h->runs_needed);
		else
			snprintf(runs, sizeof(runs), "> 50 runs");
		strbuf_addstr(out, "      ");
		print_change(out, h->change, h->abs_change);
		strbuf_addf(out, " %-24s %-9s %s%s%s\n", p, runs, h->stat,
			    cmp->ncols > 2 ? " vs " : "", cmp->ncols > 2 ? cmp->col[h->col].label : "");
	}
	if (cmp->nhidden > NOTE_MAX_ROWS)
		strbuf_addf(out, "      ... and %d more\n", cmp->nhidden - NOTE_MAX_ROWS);
	strbuf_addstr(out, "      --all shows every metric, --pvalue their p.\n");
}

static void number_array(struct json_writer *jw, const double *v, int n)
{
	jw_array_begin(jw);
	for (int i = 0; i < n; i++) {
		if (isnan(v[i]))
			jw_null(jw);
		else
			jw_number(jw, v[i], false);
	}
	jw_array_end(jw);
}

void compare_print_json(const struct compare *cmp, struct strbuf *out)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_key(&jw, "rule");
	jw_string(&jw, cmp->opt.rule == RULE_LKP ? "lkp" : "stat");
	if (cmp->opt.rule == RULE_STAT) {
		jw_key(&jw, "alpha");
		jw_number(&jw, cmp->opt.alpha, false);
	}
	jw_key(&jw, "columns");
	jw_array_begin(&jw);
	for (int i = 0; i < cmp->ncols; i++) {
		jw_object_begin(&jw);
		jw_key(&jw, "commit");
		jw_string(&jw, cmp->col[i].label);
		jw_key(&jw, "path");
		jw_string(&jw, cmp->col[i].path);
		jw_key(&jw, "runs");
		jw_number(&jw, cmp->col[i].runs, true);
		jw_key(&jw, "complete_runs");
		jw_number(&jw, cmp->col[i].complete_runs, true);
		jw_object_end(&jw);
	}
	jw_array_end(&jw);
	jw_key(&jw, "too_few_samples");
	jw_bool(&jw, cmp->too_few_samples);
	jw_key(&jw, "stats");
	jw_array_begin(&jw);
	for (int r = 0; r < cmp->nrows; r++) {
		const struct compare_row *row = &cmp->row[r];
		jw_object_begin(&jw);
		jw_key(&jw, "stat");
		jw_string(&jw, row->stat);
		jw_key(&jw, "failure");
		jw_bool(&jw, row->failure);
		if (row->failure) {
			jw_key(&jw, "fails");
			number_array(&jw, row->fails, cmp->ncols);
		} else {
			jw_key(&jw, "avg");
			number_array(&jw, row->avg, cmp->ncols);
			jw_key(&jw, "stddev");
			number_array(&jw, row->stddev, cmp->ncols);
		}
		jw_key(&jw, row->abs_change ? "abs_change" : "change_percent");
		number_array(&jw, row->change, cmp->ncols - 1);
		if (!row->failure) {
			jw_key(&jw, "p_welch");
			number_array(&jw, row->p, cmp->ncols - 1);
		}
		jw_key(&jw, "direction");
		jw_string(&jw, row->direction > 0 ? "higher_is_better" :
			       row->direction < 0 ? "lower_is_better" : "unknown");
		jw_key(&jw, "changed");
		jw_bool(&jw, row->changed);
		jw_key(&jw, "regression");
		jw_bool(&jw, row->regression);
		jw_object_end(&jw);
	}
	jw_array_end(&jw);
	jw_object_end(&jw);
}

/* One line per metric and column, RFC 4180; the header names the fields. */
void compare_print_csv(const struct compare *cmp, struct strbuf *out)
{
	strbuf_addstr(out, "stat,commit,path,runs,complete_runs,mean,stddev,fails,change,"
		      "change_unit,p_welch,direction,changed,regression\r\n");
	for (int r = 0; r < cmp->nrows; r++) {
		const struct compare_row *row = &cmp->row[r];

		for (int i = 0; i < cmp->ncols; i++) {
			const struct compare_col *c = &cmp->col[i];

			csv_field(out, row->stat);
			strbuf_addch(out, ',');
			csv_field(out, c->label);
			strbuf_addch(out, ',');
			csv_field(out, c->path);
			strbuf_addf(out, ",%d,%d,", c->runs, c->complete_runs);
			if (!row->failure) {
				csv_number(out, row->avg[i]);
				strbuf_addch(out, ',');
				if (row->stddev[i] >= 0)        /* -1: one run, no stddev */
					csv_number(out, row->stddev[i]);
				strbuf_addstr(out, ",,");
			} else {
				strbuf_addstr(out, ",,");
				csv_number(out, row->fails[i]);
				strbuf_addch(out, ',');
			}
			if (i) {
				csv_number(out, row->change[i - 1]);
				strbuf_addstr(out, row->abs_change ? ",absolute," : ",percent,");
				if (!row->failure)
					csv_number(out, row->p[i - 1]);
			} else {
				strbuf_addstr(out, ",,");
			}
			strbuf_addf(out, ",%s,%d,%d\r\n",
				    row->direction > 0 ? "higher_is_better" :
				    row->direction < 0 ? "lower_is_better" : "unknown",
				    row->changed, row->regression);
		}
	}
}
