#ifndef PERFBOT_REPORT_HISTORY_H
#define PERFBOT_REPORT_HISTORY_H
/*
 * The renderers of a metric's history along a branch (store/history.h):
 *
 *   history_text()   a table, oldest first, one row per tested commit
 *                    (mean and %stddev as compare prints them, %change
 *                    against the previous tested commit, runs, commit,
 *                    tags, subject), then the plot of every sample run
 *                    in the seeds' style, tags as marked columns;
 *   history_html()   one self-contained page: the same table and an SVG
 *                    chart with each commit's mean +- stddev band;
 *   history_json()   the series as data, for scripts (field names in
 *                    doc/manual/history-detect.md).
 *
 * x in both charts is the commit's position on the first-parent line, so
 * untested stretches show as gaps.  Output depends only on the history.
 */
#include "store/history.h"
#include "util/strbuf.h"

struct plot;

void history_text(const struct history *h, struct strbuf *out);
void history_html(const struct history *h, struct strbuf *out);
void history_json(const struct history *h, struct strbuf *out);
/* The plot both charts draw: samples '*' joined in order, tags as marks,
 * bands of mean +- stddev (plot_svg only).  plot_release() it. */
void history_plot(const struct history *h, struct plot *p);

#endif
