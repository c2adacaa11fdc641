/*
 * report_history.c: a metric's history along a branch as text, HTML and
 * JSON (see report_history.h).
 */
#include "report/report_history.h"
#include "report/compare.h"
#include "report/plot.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

#include <math.h>
#include <string.h>

#define SHA_SHOWN 12            /* commit names in tables, as in the seeds */

static void job_name(const struct history *h, struct strbuf *out)
{
	for (int i = 0; i < SJ_NR; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", h->job.field[i]);
}

static void tag_list(const struct history_point *pt, struct strbuf *out)
{
	for (int t = 0; t < pt->nr_tags; t++)
		strbuf_addf(out, "%s%s", t ? "," : "", pt->tags[t]);
}

/* Change of b against a in percent; NaN when a is 0 or either unknown. */
static double change(double a, double b)
{
	return a != 0 && isfinite(a) && isfinite(b) ? 100 * (b - a) / fabs(a) : NAN;
}

static void summary_line(const struct history *h, struct strbuf *out)
{
	strbuf_addf(out, "%s along %s of %s: %d commit%s, %d tested, oldest first\n", h->metric,
		    h->branch, h->repo, h->nr_commits, h->nr_commits == 1 ? "" : "s", h->nr);
	strbuf_addstr(out, "job: ");
	job_name(h, out);
	strbuf_addch(out, '\n');
	if (h->incomplete_runs || h->off_line_roots)
		strbuf_addf(out, "(left out: %d incomplete run%s, %d result root%s of commits not on"
			    " these %d)\n", h->incomplete_runs, h->incomplete_runs == 1 ? "" : "s",
			    h->off_line_roots, h->off_line_roots == 1 ? "" : "s", h->nr_commits);
}

void history_plot(const struct history *h, struct plot *p)
{
	struct plot_series *s;

	plot_init(p, h->metric);
	s = plot_add_series(p, "samples", PLOT_GOOD, true);
	for (int i = 0; i < h->nr; i++) {
		const struct history_point *pt = &h->points[i];
		for (int k = 0; k < pt->n; k++)
			plot_series_add(s, pt->pos, pt->samples[k]);
		plot_add_band(p, pt->pos, pt->pos, pt->mean, pt->stddev, PLOT_GOOD);
	}
	for (int t = 0; t < h->nr_tags; t++)
		plot_add_mark(p, h->tags[t].pos, h->tags[t].name);
}

void history_text(const struct history *h, struct strbuf *out)
{
	struct strbuf tags = STRBUF_INIT;
	struct plot p;
	int tw = 4;

	summary_line(h, out);
	for (int i = 0; i < h->nr; i++) {
		strbuf_reset(&tags);
		tag_list(&h->points[i], &tags);
		if ((int)tags.len > tw)
			tw = (int)tags.len;
	}
	strbuf_addf(out, "\n      mean  %%stddev   %%change  runs  %-*s  %-*s  subject\n",
		    SHA_SHOWN, "commit", tw, "tags");
	for (int i = 0; i < h->nr; i++) {
		const struct history_point *pt = &h->points[i];
		compare_print_avg(out, pt->mean);
		if (pt->n > 1 && pt->mean != 0)
			strbuf_addf(out, " \xc2\xb1%3.0f%%  ", 100 * pt->stddev / fabs(pt->mean));
		else
			strbuf_addstr(out, "         ");
		double c = i ? change(h->points[i - 1].mean, pt->mean) : NAN;
		if (isnan(c))
			strbuf_addstr(out, "          ");
		else
			strbuf_addf(out, fabs(c) < 100000 ? "%+9.1f%%" : "%+9.2g%%", c);
		strbuf_reset(&tags);
		tag_list(pt, &tags);
		strbuf_addf(out, "  %4d  %.*s  %-*s  %s\n", pt->n, SHA_SHOWN, pt->sha, tw, tags.buf,
			    pt->subject);
	}
	strbuf_release(&tags);
	if (!h->nr)
		return;
	strbuf_addstr(out, "\nEach point below represents a sample run, at its commit's place on the"
		      " line;\ntags are marked with ':' columns.\n\n");
	history_plot(h, &p);
	plot_ascii(&p, out);
	plot_release(&p);
}

static void esc(struct strbuf *out, const char *s)
{
	plot_xml_escape(out, s);
}

static const char CSS[] =
	"body{font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328;"
	"margin:0}\n"
	"main{max-width:1240px;margin:0 auto;padding:24px 32px 48px}\n"
	"h1{font-size:22px;margin:0 0 8px}\n"
	".muted{color:#57606a}\n"
	"table{border-collapse:collapse;margin-top:16px}\n"
	"th,td{padding:3px 10px;border-bottom:1px solid #d0d7de;white-space:nowrap}\n"
	"th{background:#f6f8fa;text-align:right}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;font-family:ui-monospace,"
	"SFMono-Regular,Menlo,Consolas,monospace}\n"
	"td.text,th.text{text-align:left}\n"
	"td.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\n"
	".tag{display:inline-block;padding:0 6px;border-radius:8px;background:#eaeef2;"
	"font-size:12px;margin-right:4px}\n"
	"figure{margin:16px 0}\n";

void history_html(const struct history *h, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	struct plot p;

	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	strbuf_addf(&t, "%s along %s", h->metric, h->branch);
	esc(out, t.buf);
	strbuf_reset(&t);
	strbuf_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>", CSS);
	esc(out, h->metric);
	strbuf_addstr(out, "</h1>\n<p class=\"muted\">");
	strbuf_addf(&t, "along %s of %s: %d commits, %d tested, oldest first. Job: ", h->branch,
		    h->repo, h->nr_commits, h->nr);
	job_name(h, &t);
	esc(out, t.buf);
	strbuf_addstr(out, "</p>\n");
	if (h->nr) {
		history_plot(h, &p);
		p.svg_width = 960;
		strbuf_addstr(out, "<figure>\n");
		plot_svg(&p, out);
		strbuf_addstr(out, "</figure>\n");
		plot_release(&p);
	}
	strbuf_addstr(out, "<table>\n<thead><tr><th>mean</th><th>%stddev</th><th>%change</th>"
		      "<th>runs</th><th class=\"text\">commit</th><th class=\"text\">subject</th>"
		      "</tr></thead>\n<tbody>\n");
	for (int i = 0; i < h->nr; i++) {
		const struct history_point *pt = &h->points[i];
		double c = i ? change(h->points[i - 1].mean, pt->mean) : NAN;
		strbuf_addstr(out, "<tr><td class=\"num\">");
		plot_add_number(out, 'g', 8, pt->mean);
		strbuf_addstr(out, "</td><td class=\"num\">");
		if (pt->n > 1 && pt->mean != 0)
			strbuf_addf(out, "%.1f%%", 100 * pt->stddev / fabs(pt->mean));
		strbuf_addstr(out, "</td><td class=\"num\">");
		if (!isnan(c))
			strbuf_addf(out, "%+.1f%%", c);
		strbuf_addf(out, "</td><td class=\"num\">%d</td><td class=\"text mono\">", pt->n);
		esc(out, pt->sha);
		strbuf_addstr(out, "</td><td class=\"text\">");
		for (int k = 0; k < pt->nr_tags; k++) {
			strbuf_addstr(out, "<span class=\"tag\">");
			esc(out, pt->tags[k]);
			strbuf_addstr(out, "</span>");
		}
		esc(out, pt->subject);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody>\n</table>\n</main>\n</body>\n</html>\n");
	strbuf_release(&t);
}

void history_json(const struct history *h, struct strbuf *out)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_key(&jw, "repo"); jw_string(&jw, h->repo);
	jw_key(&jw, "branch"); jw_string(&jw, h->branch);
	jw_key(&jw, "head"); jw_string(&jw, h->head);
	jw_key(&jw, "metric"); jw_string(&jw, h->metric);
	jw_key(&jw, "job");
	jw_object_begin(&jw);
	for (int i = 0; i < SJ_NR; i++) {
		jw_key(&jw, store_job_field_names[i]);
		jw_string(&jw, h->job.field[i]);
	}
	jw_key(&jw, "params");
	jw_object_begin(&jw);
	for (int i = 0; i < h->job.nr_params; i++) {
		jw_key(&jw, h->job.params[i].key);
		jw_string(&jw, h->job.params[i].value);
	}
	jw_object_end(&jw);
	jw_object_end(&jw);
	jw_key(&jw, "commits"); jw_number(&jw, h->nr_commits, true);
	jw_key(&jw, "incomplete_runs"); jw_number(&jw, h->incomplete_runs, true);
	jw_key(&jw, "off_line_roots"); jw_number(&jw, h->off_line_roots, true);
	jw_key(&jw, "points");
	jw_array_begin(&jw);
	for (int i = 0; i < h->nr; i++) {
		const struct history_point *pt = &h->points[i];
		jw_object_begin(&jw);
		jw_key(&jw, "commit"); jw_string(&jw, pt->sha);
		jw_key(&jw, "pos"); jw_number(&jw, pt->pos, true);
		jw_key(&jw, "subject"); jw_string(&jw, pt->subject);
		jw_key(&jw, "tags");
		jw_array_begin(&jw);
		for (int k = 0; k < pt->nr_tags; k++)
			jw_string(&jw, pt->tags[k]);
		jw_array_end(&jw);
		jw_key(&jw, "mean"); jw_number(&jw, pt->mean, false);
		jw_key(&jw, "stddev"); jw_number(&jw, pt->stddev, false);
		jw_key(&jw, "runs"); jw_number(&jw, pt->n, true);
		jw_key(&jw, "samples");
		jw_array_begin(&jw);
		for (int k = 0; k < pt->n; k++)
			jw_number(&jw, pt->samples[k], false);
		jw_array_end(&jw);
		jw_object_end(&jw);
	}
	jw_array_end(&jw);
	jw_key(&jw, "tags");
	jw_array_begin(&jw);
	for (int t = 0; t < h->nr_tags; t++) {
		jw_object_begin(&jw);
		jw_key(&jw, "name"); jw_string(&jw, h->tags[t].name);
		jw_key(&jw, "commit"); jw_string(&jw, h->tags[t].sha);
		jw_key(&jw, "pos"); jw_number(&jw, h->tags[t].pos, true);
		jw_object_end(&jw);
	}
	jw_array_end(&jw);
	jw_object_end(&jw);
}
