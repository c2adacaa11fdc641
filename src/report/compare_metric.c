/*
 * compare_metric.c: one metric across several jobs, the second table of
 * seed 000 (`perfbot compare --metric M ROOT...`):
 *
 *   1d3d4437eae1bb2  9b17c62382dd2e7507984b989
 *   ---------------  -------------------------
 *        12.15 ~10%    +209.8%      37.63 ~ 2%  brickland2/.../300s-btrfs-lru-file-readtwice
 *        12.88 ~16%    +189.4%      37.27 ~ 0%  brickland2/.../300s-ext4-lru-file-readtwice
 *        40.27         +179.1%     112.40       TOTAL perf-profile.cpu-cycles...
 *
 * The result roots are grouped by job: an lkp _result_root is
 * .../<job's path>/<commit>, so roots with the same directory above the
 * commit are one job at several commits.  Commits become the columns in
 * the order they first appear (the first is the base), jobs the rows in
 * the same order.  A row is labelled by its directory below the result
 * tree's "result/" (lkp's /lkp/result/...), else by the directory as
 * given.  Unlike the commit table, the change is always in percent of the
 * base, also for perf-profile and "%" metrics: the seed's rows are
 * perf-profile shares and show "+209.8%", because a sum of shares over
 * jobs has no absolute meaning of its own.
 *
 * The TOTAL row sums each column's means over the jobs that have a result
 * at every commit; a job missing one prints blanks there and is left out
 * of the sum (a line under the table says so), so that the TOTAL change
 * compares like with like.
 */
#include "report/compare.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct metric_job {
	char *dir;              /* realpath of the directory above the commit */
	const char *label;      /* points into dir, or into the given path */
	int *col;               /* per commit: index into cmp->col, or -1 */
};

/* The directory of a column's result root (a matrix.json file's too). */
static char *job_dir_of(const struct compare_col *c)
{
	char real[PATH_MAX];
	const char *p = c->mx.path ? c->mx.path : c->path;

	if (!realpath(p, real))
		snprintf(real, sizeof(real), "%s", p);
	/* mx.path is <root>/matrix.json: drop it, then the commit */
	for (int i = 0; i < 2; i++) {
		char *slash = strrchr(real, '/');
		if (slash && slash != real)
			*slash = '\0';
	}
	return xstrdup(real);
}

static const char *label_of(const char *dir)
{
	const char *hit = NULL;

	for (const char *p = strstr(dir, "/result/"); p; p = strstr(p + 1, "/result/"))
		hit = p;
	return hit && hit[8] ? hit + 8 : dir;
}

static int find_commit(char **commits, int n, const char *commit)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(commits[i], commit))
			return i;
	return -1;
}

/* Mean and population stddev of metric over the column's complete runs. */
static void cell(const struct compare_col *c, const char *metric, double *avg, double *sd)
{
	double *s = xmalloc(sizeof(double) * (size_t)(c->runs ? c->runs : 1));
	int n = compare_col_samples(c, metric, false, s);

	*avg = n ? mean(s, n) : 0;
	*sd = n > 1 ? stddev_pop(s, n) : 0;
	free(s);
}

static double change_percent(double avg, double base)
{
	return 100.0 * (avg - base) / (base == 0 ? 1e-100 : base);
}

int compare_print_metric(const struct compare *cmp, const char *metric, struct strbuf *out)
{
	char **commits = xcalloc((size_t)cmp->ncols, sizeof(char *));
	struct metric_job *job = xcalloc((size_t)cmp->ncols, sizeof(*job));
	int ncommits = 0, njobs = 0, ret = 0, found = 0, partial = 0;

	for (int i = 0; i < cmp->ncols; i++) {
		const struct compare_col *c = &cmp->col[i];
		if (find_commit(commits, ncommits, c->commit) < 0)
			commits[ncommits++] = c->commit;
		if (matrix_find(&c->mx, metric) >= 0)
			found++;
	}
	if (!found) {
		ret = error("compare --metric: %s is in none of the result roots", metric);
		goto out;
	}
	if (ncommits < 2) {
		ret = error("compare --metric: all result roots are of commit %s; "
			    "give the same jobs at two commits or more", commits[0]);
		goto out;
	}
	for (int i = 0; i < cmp->ncols; i++) {
		const struct compare_col *c = &cmp->col[i];
		char *dir = job_dir_of(c);
		int j, k = find_commit(commits, ncommits, c->commit);

		for (j = 0; j < njobs && strcmp(job[j].dir, dir); j++)
			;
		if (j == njobs) {
			job[j].dir = dir;
			job[j].label = label_of(dir);
			job[j].col = xmalloc(sizeof(int) * (size_t)ncommits);
			for (int m = 0; m < ncommits; m++)
				job[j].col[m] = -1;
			njobs++;
		} else {
			free(dir);
		}
		if (job[j].col[k] >= 0) {
			ret = error("compare --metric: %s and %s are the same job at the same commit",
				    cmp->col[job[j].col[k]].path, c->path);
			goto out;
		}
		job[j].col[k] = i;
	}

	double *total = xcalloc((size_t)ncommits, sizeof(double));
	compare_print_legacy_header(out, (const char *const *)commits, ncommits, "  ");
	for (int j = 0; j < njobs; j++) {
		double base = NAN, avg, sd, change;
		bool complete = true;

		for (int k = 0; k < ncommits; k++)
			complete &= job[j].col[k] >= 0;
		partial += !complete;
		for (int k = 0; k < ncommits; k++) {
			if (job[j].col[k] < 0) {
				strbuf_addchars(out, ' ', k ? 27 : 15);
				continue;
			}
			cell(&cmp->col[job[j].col[k]], metric, &avg, &sd);
			if (k == 0)
				base = avg;
			/* NaN without a base: blanks in place of the change */
			change = change_percent(avg, base);
			compare_print_legacy_cell(out, k ? &change : NULL, false, avg,
						  avg != 0 ? 100 * sd / avg : sd);
			if (complete)
				total[k] += avg;
		}
		strbuf_addf(out, "  %s\n", job[j].label);
	}
	if (partial < njobs) {
		for (int k = 0; k < ncommits; k++) {
			double change = change_percent(total[k], total[0]);
			compare_print_legacy_cell(out, k ? &change : NULL, false, total[k], -1);
		}
		strbuf_addf(out, "  TOTAL %s\n", metric);
	}
	if (partial)
		strbuf_addf(out, "(%d of %d jobs lack a result at some commit: blank there, "
			    "and not in TOTAL)\n", partial, njobs);
	free(total);
out:
	for (int j = 0; j < njobs; j++) {
		free(job[j].dir);
		free(job[j].col);
	}
	free(job);
	free(commits);
	return ret;
}
