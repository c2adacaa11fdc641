/*
 * axes.c: the job parameters that describe a compare column, for the
 * "compiler/cpufreq_governor/.../testcase:" line of lkp's tables.
 *
 * lkp takes a result's axes from its job (Job#axes, job/axes.h: the
 * result-path keys and every program and option of the job).  The job is
 * the job.yaml of the column's first run (found through stats_source,
 * else the first numeric run dir), so lkp trees and perfbot's read alike.
 */
#include "report/compare.h"
#include "job/job.h"
#include "job/axes.h"
#include "job/split.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

/* The job.yaml of the column's first run, or an empty sb. */
static void find_job(const struct compare_col *c, struct strbuf *sb)
{
	char *copy;

	for (int i = 0; i < c->mx.nr_sources; i++) {
		if (!c->mx.sources[i])
			continue;
		copy = xstrdup(c->mx.sources[i]);
		path_join(sb, dirname(copy), "job.yaml");
		free(copy);
		if (file_exists(sb->buf))
			return;
		strbuf_reset(sb);
	}
	/* the tree was moved since: look in the matrix's own dir */
	copy = xstrdup(c->mx.path ? c->mx.path : "");
	char *dir = dirname(copy);
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		strbuf_reset(sb);
		strbuf_addf(sb, "%s/%s/job.yaml", dir, de->d_name);
		if (file_exists(sb->buf))
			break;
		strbuf_reset(sb);
	}
	if (d)
		closedir(d);
	free(copy);
}

void compare_col_axes(struct compare_col *c)
{
	struct strbuf path = STRBUF_INIT;
	struct job_load_opts lo;
	struct job *job = NULL;
	size_t alloc = 0;

	memset(&lo, 0, sizeof(lo));
	lo.no_check = true;
	find_job(c, &path);
	if (path.len && job_load_opts(path.buf, &lo, &job) == 0) {
		job_axes(job, &c->axes, &c->nr_axes, &alloc);
		job_free(job);
	}
	strbuf_release(&path);
}

void compare_common_axes(struct compare *cmp)
{
	if (!cmp->ncols)
		return;
	const struct compare_col *c0 = &cmp->col[0];
	for (int i = 0; i < c0->nr_axes; i++) {
		bool same = true;
		for (int k = 1; k < cmp->ncols && same; k++) {
			const struct compare_col *c = &cmp->col[k];
			bool found = false;
			for (int j = 0; j < c->nr_axes; j++)
				if (!strcmp(c->axes[j].key, c0->axes[i].key))
					found = !strcmp(c->axes[j].value, c0->axes[i].value);
			same = found;
		}
		if (!same || !strcmp(c0->axes[i].key, "commit"))
			continue;
		cmp->common = xrealloc(cmp->common, sizeof(*cmp->common) * (size_t)(cmp->nr_common + 1));
		cmp->common[cmp->nr_common].key = xstrdup(c0->axes[i].key);
		cmp->common[cmp->nr_common].value = xstrdup(c0->axes[i].value);
		cmp->nr_common++;
	}
}

/* Column c's value of key, or NULL. */
static const char *axis_value(const struct compare_col *c, const char *key)
{
	for (int j = 0; j < c->nr_axes; j++)
		if (!strcmp(c->axes[j].key, key))
			return c->axes[j].value;
	return NULL;
}

const char *compare_differing_axis(const struct compare *cmp)
{
	const struct compare_col *c0 = &cmp->col[0];

	for (int i = 0; i < c0->nr_axes; i++) {
		const char *key = c0->axes[i].key;
		bool all = !!strcmp(key, "commit");
		for (int k = 1; k < cmp->ncols && all; k++)
			all = axis_value(&cmp->col[k], key) != NULL;
		for (int k = 1; k < cmp->ncols && all; k++)
			if (strcmp(axis_value(&cmp->col[k], key), c0->axes[i].value))
				return key;
	}
	return NULL;
}

int compare_label_by_axis(struct compare *cmp, const char *key)
{
	for (int i = 0; i < cmp->ncols; i++)
		if (!axis_value(&cmp->col[i], key))
			return error("%s: its job has no '%s' to compare along", cmp->col[i].path, key);
	for (int i = 0; i < cmp->ncols; i++) {
		free(cmp->col[i].label);
		cmp->col[i].label = xstrdup(axis_value(&cmp->col[i], key));
	}
	free(cmp->axis);
	cmp->axis = xstrdup(key);
	/* the header's common axes: the compared one is not common */
	for (int i = 0; i < cmp->nr_common; i++)
		if (!strcmp(cmp->common[i].key, key)) {
			free(cmp->common[i].key);
			free(cmp->common[i].value);
			memmove(cmp->common + i, cmp->common + i + 1,
				sizeof(*cmp->common) * (size_t)(cmp->nr_common - i - 1));
			cmp->nr_common--;
			break;
		}
	return 0;
}
