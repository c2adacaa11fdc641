/*
 * monitors.c: which monitors a run samples (run.h): the job's monitor
 * keys or --monitors, lkp's default set for `category: benchmark`, less
 * what cannot work on this machine.
 */
#include "run/run.h"
#include "run/run_impl.h"
#include "monitor/monitor.h"
#include "monitor/sampler.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- which monitors ------------------------------------------------ */


/* Note lkp monitor `name`, asked for but not in perfbot, once. */
static void plan_missing(struct monitor_plan *mp, const char *name)
{
	const char *p = mp->missing.buf;
	size_t n = strlen(name);

	if (!strcmp(name, "perf-stat") || !strcmp(name, "perf-profile") || monitor_find(name))
		return;
	for (; (p = strstr(p, name)); p += n)
		if ((p == mp->missing.buf || p[-1] == ' ') && (!p[n] || p[n] == ','))
			return;
	if (mp->missing.len)
		strbuf_addstr(&mp->missing, ", ");
	strbuf_addstr(&mp->missing, name);
}

static void plan_add(struct monitor_plan *mp, const struct monitor *m, size_t *alloc)
{
	for (int i = 0; i < mp->nr; i++)
		if (mp->sampled[i] == m)
			return;
	ALLOC_GROW(mp->sampled, (size_t)mp->nr + 2, *alloc);
	mp->sampled[mp->nr++] = m;
	mp->sampled[mp->nr] = NULL;
}

/* Add monitor `name`; perf-* are flags.  -1 for an unknown name. */
static int plan_name(struct monitor_plan *mp, const char *name, size_t *alloc)
{
	const struct monitor *m;

	if (!strcmp(name, "perf-stat")) {
		mp->perf_stat = true;
		return 0;
	}
	if (!strcmp(name, "perf-profile")) {
		mp->perf_profile = true;
		return 0;
	}
	m = monitor_find(name);
	if (!m)
		return -1;
	/* time is written from wait4 for every run anyway */
	if (!(m->flags & MONITOR_NOT_SAMPLED))
		plan_add(mp, m, alloc);
	return 0;
}

int run_plan_monitors(const struct run_opts *opts, struct monitor_plan *mp)
{
	size_t alloc = 0;
	size_t pos = 0;
	const struct job_entry *e;
	bool any = false;

	memset(mp, 0, sizeof(*mp));
	strbuf_init(&mp->skipped, 0);
	strbuf_init(&mp->missing, 0);
	mp->sampled = xcalloc(1, sizeof(*mp->sampled));
	if (opts->monitors) {
		char *list = xstrdup(opts->monitors), *save = NULL;
		for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (plan_name(mp, t, &alloc) < 0) {
				error("--monitors: unknown monitor '%s'", t);
				free(list);
				return -1;
			}
		}
		free(list);
		return 0;
	}
	while ((e = job_next(opts->job, &pos))) {
		if (plan_name(mp, e->key, &alloc) == 0)
			any = true;
		else if (job_monitor_find(e->key))
			plan_missing(mp, e->key);
	}
	/* lkp's include/category/benchmark: the default monitors */
	const char *category = job_get(opts->job, "category");
	if (!any && category && !strcmp(category, "benchmark")) {
		const struct monitor **def = monitor_default_list();
		for (int i = 0; def[i]; i++)
			if (!(def[i]->flags & MONITOR_NOT_SAMPLED))
				plan_add(mp, def[i], &alloc);
		free(def);
		mp->perf_stat = mp->perf_profile = true;
	}
	/* split-job left out of lkp's benchmark set what perfbot lacks */
	if (category && !strcmp(category, "benchmark"))
		for (const struct job_monitor *jm = job_monitor_table(); jm->name; jm++)
			if (jm->in_benchmark_set)
				plan_missing(mp, jm->name);
	return 0;
}

/* Drop monitors that cannot work here, noting why (once per run_job). */
void run_plan_check(struct monitor_plan *mp, const struct perf_caps *caps, const char *root)
{
	int out = 0;

	for (int i = 0; i < mp->nr; i++) {
		struct strbuf why = STRBUF_INIT;
		if (monitor_available(mp->sampled[i], root, &why))
			mp->sampled[out++] = mp->sampled[i];
		else
			strbuf_addf(&mp->skipped, "%s: %s\n", mp->sampled[i]->name, why.buf);
		strbuf_release(&why);
	}
	mp->nr = out;
	mp->sampled[out] = NULL;
	if ((mp->perf_stat || mp->perf_profile) && !caps->usable) {
		if (mp->perf_stat)
			strbuf_addf(&mp->skipped, "perf-stat: %s\n", caps->why.buf);
		if (mp->perf_profile)
			strbuf_addf(&mp->skipped, "perf-profile: %s\n", caps->why.buf);
		mp->perf_stat = mp->perf_profile = false;
	}
	if (mp->perf_stat && caps->unsupported.len)
		strbuf_addf(&mp->skipped, "perf-stat events: not supported here: %s\n", caps->unsupported.buf);
}

/* Each sampled monitor's own interval from the job; -1 after an error. */
int run_plan_intervals(struct monitor_plan *mp, const struct job *job)
{
	mp->intervals = xcalloc((size_t)mp->nr + 1, sizeof(*mp->intervals));
	for (int i = 0; i < mp->nr; i++) {
		double v = run_program_duration(job, mp->sampled[i]->name, "interval", 0);
		if (v < 0)
			return -1;
		mp->intervals[i] = v;
	}
	return 0;
}

void run_plan_release(struct monitor_plan *mp)
{
	free(mp->sampled);
	free(mp->intervals);
	strbuf_release(&mp->skipped);
	strbuf_release(&mp->missing);
}
