/* axes.c: lkp's Job#axes (see axes.h). */
#include "job/axes.h"
#include "job/job.h"
#include "job/split.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct axes {
	struct axis **a;
	int *nr;
	size_t *alloc;
};

/* rootfs names a file (an initrd, a .cgz): its last component is the axis */
static const char *rootfs_filename(const char *s)
{
	const char *last = s;

	for (const char *p = s; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '.' || *p == '_' || *p == '-'))
			last = p + 1;
	return last;
}

static void add_axis(struct axes *ax, const char *key, const char *value)
{
	for (int i = 0; i < *ax->nr; i++)
		if (!strcmp((*ax->a)[i].key, key)) {
			free((*ax->a)[i].value);
			(*ax->a)[i].value = xstrdup(value);
			return;
		}
	*ax->a = xgrow(*ax->a, sizeof(**ax->a), (size_t)*ax->nr + 1, ax->alloc);
	(*ax->a)[*ax->nr].key = xstrdup(key);
	(*ax->a)[*ax->nr].value = xstrdup(value);
	(*ax->nr)++;
}

/* lkp's each_param: programs and options at any depth, not in monitors. */
static void collect_axes(struct axes *ax, const struct job_programs *p,
			 const struct job_value *map, const char *parent, const char *cmd_section)
{
	struct strbuf v = STRBUF_INIT;

	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		char type;

		if (e->comment)
			continue;
		/* a command line is no axis, as it is no path parameter */
		if (parent && cmd_section && !strcmp(parent, cmd_section) &&
		    !strcmp(e->key, "command"))
			continue;
		type = job_programs_option(p, e->key);
		if ((type || job_programs_has_program(p, e->key)) && e->val->kind != JOB_MAP &&
		    e->val->kind != JOB_SEQ && !(parent && job_monitor_find(parent))) {
			strbuf_reset(&v);
			job_scalar_to_s(e->val, &v);
			/* Ruby's `v.to_s if option_type == '=' || v`: nil and
			 * false only count for k=v options */
			bool falsy = e->val->kind == JOB_NULL ||
				     (e->val->type == JOB_BOOL && !strcmp(v.buf, "false"));
			if (type == '=' || !falsy)
				add_axis(ax, e->key, v.buf);
		}
		if (e->val->kind == JOB_MAP)
			collect_axes(ax, p, e->val, e->key, cmd_section);
	}
	strbuf_release(&v);
}

static int cmp_axis(const void *a, const void *b)
{
	return strcmp(((const struct axis *)a)->key, ((const struct axis *)b)->key);
}

void job_axes(const struct job *job, struct axis **axes, int *nr, size_t *alloc)
{
	static const char *const path_keys[] = {
		"tbox_group", "testcase", "rootfs", "kconfig", "compiler", NULL
	};
	struct axes ax = { axes, nr, alloc };
	struct job_programs p;
	struct job_catalog cat;
	const char *section;

	for (const char *const *k = path_keys; *k; k++) {
		const char *v = job_get(job, *k);
		if (v)
			add_axis(&ax, *k, strcmp(*k, "rootfs") ? v : rootfs_filename(v));
	}
	job_catalog_init(&cat, NULL);
	job_programs_init(&p, job->root, &cat);
	if (!job_command(job, &section))
		section = NULL;
	collect_axes(&ax, &p, job->root, NULL, section);
	job_programs_release(&p);
	job_catalog_release(&cat);
	if (*nr)
		qsort(*axes, (size_t)*nr, sizeof(**axes), cmp_axis);
}

void axes_release(struct axis *axes, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(axes[i].key);
		free(axes[i].value);
	}
	free(axes);
}
