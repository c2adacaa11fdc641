/*
 * report_html.c: the report as ONE self-contained HTML file — inline CSS,
 * inline SVG charts (plot_svg), a small inline script, nothing fetched.
 *
 * The same sections as the text report, plus what a page does better:
 * the changed-metric table sorts on a header click and filters by metric
 * name; each changed metric has a chart of its samples per commit with
 * mean and stddev band (the first CHART_MAX of them, in table order); the
 * bisect has a chart of every step's samples.  Rows are coloured by the
 * compare's own flags: regression red, improvement green, direction
 * unknown neutral; of a row's %change cells only those its column's rule
 * called a change.
 *
 * Every text from the data (metric names, subjects, paths, the perf call
 * graph) goes through plot_xml_escape.  The script reads the page only
 * through the DOM: no data is written into it, so nothing there needs
 * escaping.  Opened as page.html#selftest, the script sorts and filters
 * once and records the outcome in <body data-selftest> (the e2e browser
 * check reads it); it writes to the console only when that fails.
 */
#include "report/busy.h"
#include "report/report.h"
#include "stats/lkp_tables.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHART_MAX 100
#define CHART_TITLE 64          /* characters of a name that fit a chart's title */

static void esc(struct strbuf *out, const char *s)
{
	plot_xml_escape(out, s);
}

static const char CSS[] =
	":root{--reg:#b3261e;--reg-bg:#fdecea;--imp:#1e6b34;--imp-bg:#e6f4ea;"
	"--line:#d0d7de;--muted:#57606a;--head:#f6f8fa}\n"
	"*{box-sizing:border-box}\n"
	"body{font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328;"
	"margin:0;background:#fff}\n"
	"main{max-width:1240px;margin:0 auto;padding:24px 32px 48px}\n"
	"h1{font-size:22px;margin:0 0 8px}\n"
	"h2{font-size:17px;margin:32px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}\n"
	"h3{font-size:15px;margin:18px 0 6px}\n"
	".badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;"
	"font-weight:600;vertical-align:middle;margin-left:6px}\n"
	".badge.reg{background:var(--reg-bg);color:var(--reg)}\n"
	".badge.imp{background:var(--imp-bg);color:var(--imp)}\n"
	".badge.neu{background:#eaeef2;color:var(--muted)}\n"
	".lead{font-size:15px;max-width:900px}\n"
	"code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}\n"
	"pre{background:var(--head);border:1px solid var(--line);border-radius:6px;padding:10px 12px;"
	"overflow:auto;line-height:1.35}\n"
	"table{border-collapse:collapse}\n"
	".scroll{overflow-x:auto;margin:6px 0 10px;max-width:100%}\n"
	"th,td{padding:3px 10px;border-bottom:1px solid var(--line);white-space:nowrap}\n"
	"thead th{background:var(--head);font-weight:600;text-align:right;position:sticky;top:0}\n"
	"thead tr.commits th{text-align:center;font-weight:500;color:var(--muted);font-size:12px;"
	"white-space:normal;border-left:1px solid var(--line)}\n"
	".sd{display:inline-block;min-width:3.6em;color:var(--muted);font-size:11.5px}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;font-family:ui-monospace,"
	"SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}\n"
	"th.name,td.name{text-align:left}\n"
	"td.name{white-space:normal;overflow-wrap:anywhere;min-width:200px;max-width:480px}\n"	"td.name.pp{white-space:nowrap;overflow-wrap:normal;max-width:none}\n"
	"td.name a{color:inherit;text-decoration:none}\n"
	"td.name a:hover{text-decoration:underline}\n"
	"tr.reg td.name,td.chg.reg{background:var(--reg-bg)}\n"
	"td.chg.reg{color:var(--reg);font-weight:600}\n"
	"tr.imp td.name,td.chg.imp{background:var(--imp-bg)}\n"
	"td.chg.imp{color:var(--imp);font-weight:600}\n"
	"table.sortable thead tr.cols th{cursor:pointer;user-select:none}\n"
	"table.sortable thead tr.cols th:hover{background:#eaeef2}\n"
	"th[aria-sort=ascending]::after{content:' \\25B2';font-size:10px}\n"
	"th[aria-sort=descending]::after{content:' \\25BC';font-size:10px}\n"
	".tools{display:flex;gap:12px;align-items:center;margin:6px 0}\n"
	".tools input{font:inherit;padding:4px 8px;width:340px;border:1px solid var(--line);"
	"border-radius:6px}\n"
	".muted{color:var(--muted)}\n"
	".legend span{display:inline-block;margin-right:14px}\n"
	".sw{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-1px;"
	"margin-right:4px;border:1px solid var(--line)}\n"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:16px}\n"
	"figure{margin:0;border:1px solid var(--line);border-left:4px solid #8c959f;"
	"border-radius:6px;padding:8px 8px 4px}\n"
	"figure.reg{border-left-color:var(--reg)}\n"
	"figure.imp{border-left-color:var(--imp)}\n"
	"figure svg{display:block;width:100%;height:auto}\n"
	"figcaption{font-size:12.5px;color:var(--muted);padding:2px 4px}\n"
	"figure.wide{max-width:680px}\n"
	"dl.axes{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin:6px 0}\n"
	"dl.axes dt{color:var(--muted)}\n"
	"dl.axes dd{margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
	"font-size:12.5px}\n"
	"ul.commits{padding-left:20px;margin:6px 0}\n"
	"footer{margin-top:40px;color:var(--muted);font-size:12px}\n";

/*
 * Sorting: a click on a header of a table.sortable sorts its first tbody
 * by that column (numbers by data-v, text otherwise), again to reverse.
 * Filtering: #filter hides the rows of #metrics whose metric name does
 * not contain the text.  #selftest: see the top of this file.
 */
static const char SCRIPT[] =
	"(function(){\n"
	"'use strict';\n"
	"function key(tr,i,num){var td=tr.cells[i];if(!td)return num?-Infinity:'';\n"
	"  if(num){var v=parseFloat(td.getAttribute('data-v'));return isNaN(v)?-Infinity:v;}\n"
	"  return td.textContent.toLowerCase();}\n"
	"function sortBy(th){var table=th.closest('table'),body=table.tBodies[0];\n"
	"  var i=+th.getAttribute('data-col'),num=th.getAttribute('data-type')==='num';\n"
	"  var asc=th.getAttribute('aria-sort')!=='ascending';\n"
	"  table.querySelectorAll('th[aria-sort]').forEach(function(h){h.removeAttribute('aria-sort');});\n"
	"  th.setAttribute('aria-sort',asc?'ascending':'descending');\n"
	"  var rows=Array.prototype.slice.call(body.rows);\n"
	"  rows.sort(function(a,b){var x=key(a,i,num),y=key(b,i,num);\n"
	"    var c=x<y?-1:x>y?1:0;return asc?c:-c;});\n"
	"  rows.forEach(function(r){body.appendChild(r);});}\n"
	"document.querySelectorAll('table.sortable thead tr.cols th').forEach(function(th){\n"
	"  th.addEventListener('click',function(){sortBy(th);});});\n"
	"var filter=document.getElementById('filter'),count=document.getElementById('count');\n"
	"var metrics=document.getElementById('metrics');\n"
	"function applyFilter(){if(!metrics)return;var q=filter.value.trim().toLowerCase(),n=0,all=0;\n"
	"  Array.prototype.forEach.call(metrics.tBodies[0].rows,function(tr){all++;\n"
	"    var show=tr.cells[0].textContent.toLowerCase().indexOf(q)>=0;\n"
	"    tr.hidden=!show;if(show)n++;});\n"
	"  count.textContent=q?n+' of '+all+' metrics':all+' metrics';}\n"
	"if(filter){filter.addEventListener('input',applyFilter);applyFilter();}\n"
	"function selftest(){var why='';\n"
	"  if(metrics){var body=metrics.tBodies[0],th=metrics.querySelector('tr.cols th[data-type=num]');\n"
	"    var i=+th.getAttribute('data-col');\n"
	"    function vals(){return Array.prototype.map.call(body.rows,function(r){return key(r,i,true);});}\n"
	"    th.click();var v=vals();for(var k=1;k<v.length;k++)if(v[k-1]>v[k])why='ascending sort';\n"
	"    th.click();v=vals();for(k=1;k<v.length;k++)if(v[k-1]<v[k])why='descending sort';\n"
	"    var name=body.rows[0].cells[0].textContent;filter.value=name;applyFilter();\n"
	"    var shown=Array.prototype.filter.call(body.rows,function(r){return !r.hidden;});\n"
	"    if(!shown.length||shown.some(function(r){return r.cells[0].textContent.indexOf(name)<0;}))why='filter';\n"
	"    filter.value='\\u0000no such metric';applyFilter();\n"
	"    if(Array.prototype.some.call(body.rows,function(r){return !r.hidden;}))why='empty filter';\n"
	"    filter.value='';applyFilter();}\n"
	"  if(!document.querySelector('svg'))why=why||'no chart';\n"
	"  document.body.setAttribute('data-selftest',why?'failed: '+why:'ok');\n"
	"  if(why)console.error('perfbot report selftest failed: '+why);}\n"
	"if(location.hash==='#selftest')selftest();\n"
	"})();\n";

/* Is the row's kind coloured: changed, with a known direction; of the
 * pass/fail rows, the kernel messages' counts (compare.h) only. */
static bool coloured(const struct compare_row *row)
{
	return row->changed && row->direction &&
	       (!row->failure || !strncmp(row->stat, "dmesg.", 6) || !strncmp(row->stat, "kmsg.", 5));
}

/* "reg", "imp" or "neu" for a row, from its own flags. */
static const char *row_class(const struct compare_row *row)
{
	if (!coloured(row))
		return "neu";
	return row->regression ? "reg" : "imp";
}

/* The class of NEW column col's %change cell: "chg", with "reg" or "imp"
 * only where the rule called that column's change a change, so that a
 * +0.3% beside a significant -15% is not painted. */
static const char *change_class(const struct compare_row *row, const struct compare *cmp, int col)
{
	if (!coloured(row) || !row->sig || !row->sig[col - 1])
		return "chg";
	return row->direction * (row->avg[col] - row->avg[0]) < 0 ? "chg reg" : "chg imp";
}

static const char *kind_class(enum report_kind k)
{
	return k == CHANGE_REGRESSION ? "reg" : k == CHANGE_IMPROVEMENT ? "imp" : "neu";
}

/* A mean as the text table prints it. */
static void fmt_avg(struct strbuf *sb, double avg)
{
	double a = fabs(avg);

	if (a < 1000)
		fmt_ruby_fixed(sb, avg, 0, 2, false);
	else if (a > 100000000)
		strbuf_addf(sb, "%.4g", avg);
	else
		strbuf_addf(sb, "%lld", (long long)avg);
}

static void num_cell(struct strbuf *out, const char *cls, double v, const char *text)
{
	strbuf_addf(out, "<td class=\"num%s%s\" data-v=\"", cls ? " " : "", cls ? cls : "");
	if (isfinite(v))
		plot_add_number(out, 'g', 17, v);
	strbuf_addstr(out, "\">");
	esc(out, text);
	strbuf_addstr(out, "</td>");
}

static void headline_title(const struct report *r, struct strbuf *sb)
{
	const struct report_headline *h = &r->headline;

	if (h->kind == CHANGE_NONE || !h->metric) {
		strbuf_addstr(sb, "no significant change");
		if (h->metric)
			strbuf_addf(sb, " of %s", h->metric);
		return;
	}
	if (h->abs_change)
		strbuf_addf(sb, "%+.2f", h->change);
	else
		strbuf_addf(sb, "%+.1f%%", h->change);
	strbuf_addf(sb, " %s of %s",
		    h->kind == CHANGE_REGRESSION ? "regression" :
		    h->kind == CHANGE_IMPROVEMENT ? "improvement" : "change", h->metric);
}

/*
 * A metric table: one header row of commit labels, one of column names
 * (sortable when asked), then a row per metric.  link: the chart anchor
 * of row i, or -1 for none.
 */
static void metric_table(const struct compare *cmp, const struct report_commit *commits,
			 const int *rows, int n, const int *chart_of, const char *id,
			 bool sortable, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	int col = 1;

	strbuf_addstr(out, "<div class=\"scroll\"><table");
	if (id)
		strbuf_addf(out, " id=\"%s\"", id);
	if (sortable)
		strbuf_addstr(out, " class=\"sortable\"");
	strbuf_addstr(out, ">\n<thead><tr class=\"commits\"><th></th>");
	for (int i = 0; i < cmp->ncols; i++) {
		strbuf_addf(out, "<th colspan=\"%d\" title=\"", i ? 3 : 1);
		esc(out, commits[i].id);
		strbuf_addstr(out, "\">");
		strbuf_reset(&t);
		strbuf_addf(&t, "%.16s", commits[i].id);
		report_commit_notes(&commits[i], &t);
		esc(out, t.buf);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr>\n<tr class=\"cols\"><th class=\"name\" data-col=\"0\">metric</th>");
	for (int i = 0; i < cmp->ncols; i++) {
		if (i) {
			strbuf_addf(out, "<th data-col=\"%d\" data-type=\"num\">%%change</th>", col++);
			strbuf_addf(out, "<th data-col=\"%d\" data-type=\"num\">p</th>", col++);
		}
		strbuf_addf(out, "<th data-col=\"%d\" data-type=\"num\" title=\"mean of the runs, \xc2\xb1 their stddev in %% of it\">mean \xc2\xb1%%</th>", col++);
	}
	strbuf_addstr(out, "</tr></thead>\n<tbody>\n");
	for (int k = 0; k < n; k++) {
		const struct compare_row *row = &cmp->row[rows[k]];
		/* a call chain is read whole: not wrapped (.pp) */
		strbuf_addf(out, "<tr class=\"%s\"><td class=\"name mono%s\">", row_class(row),
			    strncmp(row->stat, "perf-profile.", 13) ? "" : " pp");
		if (chart_of && chart_of[k] >= 0)
			strbuf_addf(out, "<a href=\"#chart-%d\">", chart_of[k]);
		esc(out, row->stat);
		if (chart_of && chart_of[k] >= 0)
			strbuf_addstr(out, "</a>");
		strbuf_addstr(out, "</td>");
		for (int i = 0; i < cmp->ncols; i++) {
			if (i) {
				double c = row->change[i - 1], p = row->p[i - 1];
				strbuf_reset(&t);
				if (row->failure)
					strbuf_addf(&t, "%+.0f%%", c);
				else if (fabs(c) < 100000) {
					/* as the text table: Ruby's %+.1f */
					fmt_ruby_fixed(&t, c, 0, 1, true);
					if (!row->abs_change)
						strbuf_addch(&t, '%');
				} else {
					strbuf_addf(&t, row->abs_change ? "%+.2g" : "%+.2g%%", c);
				}
				num_cell(out, change_class(row, cmp, i), c, t.buf);
				strbuf_reset(&t);
				if (isfinite(p))
					strbuf_addf(&t, "%.2g", p);
				num_cell(out, NULL, isfinite(p) ? p : NAN, t.buf);
			}
			/* the mean, its %stddev beside it (as the text table) */
			strbuf_reset(&t);
			if (row->failure)
				strbuf_addf(&t, "%.0f:%d", row->fails[i], cmp->col[i].runs);
			else
				fmt_avg(&t, row->avg[i]);
			num_cell(out, NULL, row->failure ? row->fails[i] : row->avg[i], t.buf);
			strbuf_setlen(out, out->len - 5);       /* reopen the cell */
			strbuf_addstr(out, "<span class=\"sd\">");
			if (!row->failure && row->stddev[i] >= 0) {
				double sd = row->avg[i] != 0 ? 100 * row->stddev[i] / fabs(row->avg[i])
							     : row->stddev[i];
				/* the text table's rule (lkp's): over 2%, cut to
				 * a whole percent, not rounded: 41.7 is 41 */
				if (sd > 2)
					strbuf_addf(out, "\xc2\xb1%lld%%", (long long)sd);
			}
			strbuf_addstr(out, "</span></td>");
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
	strbuf_release(&t);
}

static void legend(struct strbuf *out)
{
	strbuf_addstr(out, "<p class=\"legend muted\"><span><i class=\"sw\" style=\"background:"
		      "var(--reg-bg);border-color:var(--reg)\"></i>regression</span><span><i class=\"sw\" "
		      "style=\"background:var(--imp-bg);border-color:var(--imp)\"></i>improvement</span><span><i class=\"sw\">"
		      "</i>direction unknown</span></p>\n");
}

static void section(struct strbuf *out, const char *id, const char *title)
{
	strbuf_addf(out, "</section>\n<section id=\"%s\">\n<h2>", id);
	esc(out, title);
	strbuf_addstr(out, "</h2>\n");
}

static void para(struct strbuf *out, const char *cls, const char *text)
{
	strbuf_addstr(out, "<p");
	if (cls)
		strbuf_addf(out, " class=\"%s\"", cls);
	strbuf_addch(out, '>');
	esc(out, text);
	strbuf_addstr(out, "</p>\n");
}

static void test_section(const struct report *r, struct strbuf *out)
{
	section(out, "test", "Test and commits");
	if (r->testcase) {
		strbuf_addstr(out, "<p>Test case <code>");
		esc(out, r->testcase);
		strbuf_addstr(out, "</code></p>\n");
	}
	if (r->nr_axes) {
		strbuf_addstr(out, "<dl class=\"axes\">\n");
		for (int i = 0; i < r->nr_axes; i++) {
			strbuf_addstr(out, "<dt>");
			esc(out, r->axes[i].key);
			strbuf_addstr(out, "</dt><dd>");
			esc(out, r->axes[i].value);
			strbuf_addstr(out, "</dd>\n");
		}
		strbuf_addstr(out, "</dl>\n");
	}
	const struct compare *cmp = r->kpi.ncols > r->main.ncols ? &r->kpi : &r->main;
	const struct report_commit *commits = cmp == &r->kpi ? r->kpi_commits : r->main_commits;
	strbuf_addstr(out, "<ul class=\"commits\">\n");
	for (int i = 0; i < cmp->ncols; i++) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addstr(out, "<li><code>");
		esc(out, commits[i].id);
		strbuf_addstr(out, "</code>");
		report_commit_notes(&commits[i], &t);
		if (commits[i].subject)
			strbuf_addf(&t, " \xe2\x80\x94 \"%s\"", commits[i].subject);
		esc(out, t.buf);
		strbuf_addstr(out, "</li>\n");
		strbuf_release(&t);
	}
	strbuf_addstr(out, "</ul>\n");
}

static void bisect_section(const struct report *r, struct strbuf *out)
{
	const struct report_bisect *b = r->bisect;
	struct plot p;
	struct strbuf t = STRBUF_INIT;

	if (!b || !b->nr_steps)
		return;
	section(out, "bisect", "Bisect steps");
	para(out, NULL, report_bisect_stable(r)
	     ? "The bisect looks stable: good and bad samples do not overlap. Each point is a sample run, "
	       "the steps in the order measured."
	     : "The bisect is not clear-cut: good and bad samples overlap. Each point is a sample run, "
	       "the steps in the order measured.");
	report_bisect_plot(r, false, &p);
	strbuf_addstr(out, "<figure class=\"wide\">\n");
	plot_svg(&p, out);
	strbuf_addstr(out, "</figure>\n");
	plot_release(&p);
	strbuf_addstr(out, "<table class=\"sortable\">\n<thead><tr class=\"cols\">"
		      "<th data-col=\"0\" data-type=\"num\">step</th><th class=\"name\" data-col=\"1\">commit</th>"
		      "<th class=\"name\" data-col=\"2\">verdict</th><th data-col=\"3\" data-type=\"num\">runs</th>"
		      "<th data-col=\"4\" data-type=\"num\">mean</th></tr></thead>\n<tbody>\n");
	for (int i = 0; i < b->nr_steps; i++) {
		const struct report_step *s = &b->steps[i];
		const char *cls = s->verdict == VERDICT_GOOD || s->verdict == VERDICT_GOOD_ENDPOINT
				  ? "imp" : s->verdict == VERDICT_SKIP ? "neu" : "reg";
		double m = 0;
		for (int k = 0; k < s->nr; k++)
			m += s->samples[k] / s->nr;
		strbuf_addf(out, "<tr><td class=\"num\" data-v=\"%d\">%d</td><td class=\"name mono\">",
			    i + 1, i + 1);
		esc(out, s->commit);
		strbuf_addf(out, "</td><td class=\"name\"><span class=\"badge %s\">", cls);
		esc(out, report_verdict_name(s->verdict));
		strbuf_addstr(out, "</span></td>");
		strbuf_reset(&t);
		strbuf_addf(&t, "%d", s->nr);
		num_cell(out, NULL, s->nr, t.buf);
		strbuf_reset(&t);
		if (s->nr)
			fmt_avg(&t, m);
		num_cell(out, NULL, s->nr ? m : NAN, t.buf);
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table>\n");
	strbuf_release(&t);
}

static void changes_section(const struct report *r, const int *chart_of, struct strbuf *out)
{
	const struct compare *cmp = &r->main;
	struct strbuf t = STRBUF_INIT;
	int *rows = xcalloc((size_t)cmp->nrows + 1, sizeof(int)), n = 0;

	for (int i = 0; i < cmp->nrows; i++)
		if (cmp->row[i].changed)
			rows[n++] = i;
	section(out, "changes", "Changed metrics");
	if (r->bisect)
		strbuf_addf(&t, "Every metric that changed from the parent commit %s to the first bad "
			    "commit %s. It is not necessarily the root cause.",
			    r->main_commits[0].id, r->main_commits[1].id);
	else
		strbuf_addf(&t, "Every metric that changed, each commit compared to %s.",
			    r->main_commits[0].id);
	para(out, NULL, t.buf);
	if (!n) {
		para(out, "muted", "No metric changed significantly.");
	} else {
		strbuf_addstr(out, "<div class=\"tools\"><input id=\"filter\" type=\"search\" "
			      "placeholder=\"filter by metric name\" aria-label=\"filter by metric name\">"
			      "<span id=\"count\" class=\"muted\"></span></div>\n");
		legend(out);
		/* chart_of is per row of cmp: map it to the rows shown */
		int *links = xcalloc((size_t)n + 1, sizeof(int));
		for (int k = 0; k < n; k++)
			links[k] = chart_of[rows[k]];
		metric_table(cmp, r->main_commits, rows, n, links, "metrics", true, out);
		free(links);
	}
	if (cmp->too_few_samples)
		para(out, "muted", "Some metrics have fewer than 2 complete runs on a side, so no "
		     "test can call them changed: run more.");
	/* a side measured beside other work (busy.h) */
	struct strbuf busy = STRBUF_INIT;
	if (busy_note(cmp, &busy)) {
		strbuf_rtrim(&busy);
		for (char *l = busy.buf; l && *l;) {
			char *nl = strchr(l, '\n');
			if (nl)
				*nl = '\0';
			para(out, NULL, l);
			l = nl ? nl + 1 : NULL;
		}
	}
	strbuf_release(&busy);
	free(rows);
	strbuf_release(&t);
}

static void perf_section(const struct report *r, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;

	if (!r->nr_perf_rows && !r->profile.len)
		return;
	section(out, "perf", "perf-profile");
	if (r->nr_perf_rows) {
		para(out, NULL, "The perf-profile changes, the biggest first (differences in "
		     "percentage points):");
		metric_table(&r->main, r->main_commits, r->perf_rows, r->nr_perf_rows, NULL, NULL,
			     true, out);
	}
	if (r->profile.len) {
		strbuf_addf(&t, "perf report for %s, call chains above 2%%:", r->profile_commit);
		para(out, NULL, t.buf);
		strbuf_addstr(out, "<pre>");
		esc(out, r->profile.buf);
		if (r->profile_left_out) {
			strbuf_reset(&t);
			strbuf_addf(&t, "[... %d more lines in %s]\n", r->profile_left_out,
				    r->profile_path);
			esc(out, t.buf);
		}
		strbuf_addstr(out, "</pre>\n");
	}
	strbuf_release(&t);
}

static void charts_section(const struct report *r, const int *chart_of, struct strbuf *out)
{
	const struct compare *cmp = &r->main;
	struct strbuf t = STRBUF_INIT;
	int shown = 0, changed = 0;

	for (int i = 0; i < cmp->nrows; i++)
		changed += cmp->row[i].changed;
	if (!changed)
		return;
	section(out, "charts", "Charts");
	strbuf_reset(&t);
	strbuf_addstr(&t, "Each point is a sample run; the band is the mean \xc2\xb1 stddev of a commit's runs.");
	if (changed > CHART_MAX)
		strbuf_addf(&t, " The first %d of %d changed metrics, in table order.", CHART_MAX, changed);
	para(out, "muted", t.buf);
	strbuf_addstr(out, "<div class=\"grid\">\n");
	for (int i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->row[i];
		struct plot p;
		if (chart_of[i] < 0)
			continue;
		strbuf_addf(out, "<figure id=\"chart-%d\" class=\"%s\">\n", chart_of[i], row_class(row));
		report_metric_plot(cmp, i, &p);
		/* a long name would run out of the chart: keep its end there,
		 * the whole name is in the caption */
		if (strlen(row->stat) > CHART_TITLE) {
			free(p.title);
			p.title = xmalloc(CHART_TITLE + 4);
			snprintf(p.title, CHART_TITLE + 4, "\xe2\x80\xa6%s",
				 row->stat + strlen(row->stat) - (CHART_TITLE - 1));
		}
		plot_svg(&p, out);
		plot_release(&p);
		strbuf_reset(&t);
		for (int c = 1; c < cmp->ncols; c++) {
			if (c > 1)
				strbuf_addstr(&t, ", ");
			if (row->failure)
				strbuf_addf(&t, "%+.0f%%", row->change[c - 1]);
			else if (row->abs_change)
				strbuf_addf(&t, "%+.2f", row->change[c - 1]);
			else
				strbuf_addf(&t, "%+.1f%%", row->change[c - 1]);
			if (isfinite(row->p[c - 1]))
				strbuf_addf(&t, " (p=%.2g)", row->p[c - 1]);
		}
		strbuf_addf(&t, "%s", !row->direction ? ", direction unknown" :
			    row->regression ? ", a regression" : ", an improvement");
		strbuf_addstr(out, "<figcaption><code>");
		esc(out, row->stat);
		strbuf_addstr(out, "</code><br>");
		esc(out, t.buf);
		strbuf_addstr(out, "</figcaption>\n</figure>\n");
		shown++;
	}
	strbuf_addstr(out, "</div>\n");
	strbuf_release(&t);
}

void report_html(const struct report *r, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT, cmds = STRBUF_INIT, bis = STRBUF_INIT;
	int *chart_of = xcalloc((size_t)r->main.nrows + 1, sizeof(int)), charts = 0;

	for (int i = 0; i < r->main.nrows; i++)
		chart_of[i] = r->main.row[i].changed && charts < CHART_MAX ? charts++ : -1;

	headline_title(r, &t);
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>perfbot report: ");
	esc(out, t.buf);
	strbuf_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<section id=\"summary\">\n"
		    "<h1>", CSS);
	esc(out, r->headline.metric ? r->headline.metric : "perfbot report");
	strbuf_addf(out, "<span class=\"badge %s\">", kind_class(r->headline.kind));
	strbuf_reset(&t);
	headline_title(r, &t);
	/* the badge says the change and its kind; the metric is the title */
	const char *of = strstr(t.buf, " of ");
	if (of && r->headline.metric)
		strbuf_setlen(&t, (size_t)(of - t.buf));
	esc(out, t.buf);
	strbuf_addstr(out, "</span></h1>\n");
	strbuf_reset(&t);
	report_headline_text(&r->headline, &t);
	para(out, "lead", t.buf);

	if (r->nr_kpi_rows) {
		strbuf_addstr(out, "<h3>Key metrics</h3>\n");
		metric_table(&r->kpi, r->kpi_commits, r->kpi_rows, r->nr_kpi_rows, NULL, "kpi", true, out);
	}
	test_section(r, out);
	bisect_section(r, out);
	changes_section(r, chart_of, out);
	perf_section(r, out);
	charts_section(r, chart_of, out);

	strbuf_reset(&t);
	if (report_machine_sentence(r, &t)) {
		section(out, "machine", "Test machine");
		para(out, NULL, t.buf);
	}
	section(out, "reproduce", "How to reproduce");
	strbuf_reset(&t);
	report_reproduce(r, &t, &cmds, &bis);
	para(out, NULL, t.buf);
	strbuf_addstr(out, "<pre>");
	esc(out, cmds.buf);
	strbuf_addstr(out, "</pre>\n");
	if (bis.len) {
		para(out, NULL, "and the whole bisect:");
		strbuf_addstr(out, "<pre>");
		esc(out, bis.buf);
		strbuf_addstr(out, "</pre>\n");
	}
	strbuf_addstr(out, "</section>\n<footer>Made by perfbot report.</footer>\n</main>\n<script>\n");
	strbuf_addstr(out, SCRIPT);
	strbuf_addstr(out, "</script>\n</body>\n</html>\n");
	free(chart_of);
	strbuf_release(&t);
	strbuf_release(&cmds);
	strbuf_release(&bis);
}
