/*
 * monitors.c: which monitors a run samples (run.h): the ones the job
 * description names (desc.h), less what cannot work on this machine.
 */
#include "run/run.h"
#include "run/run_impl.h"
#include "monitor/monitor.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_plan_monitors(const struct job_desc *d, struct monitor_plan *mp)
{
	memset(mp, 0, sizeof(*mp));
	strbuf_init(&mp->skipped, 0);
	mp->sampled = xcalloc(d->nr_monitors + 1, sizeof(*mp->sampled));
	mp->intervals = xcalloc(d->nr_monitors + 1, sizeof(*mp->intervals));
	for (size_t i = 0; i < d->nr_monitors; i++) {
		mp->sampled[i] = d->monitors[i].monitor;
		mp->intervals[i] = d->monitors[i].interval;
	}
	mp->nr = (int)d->nr_monitors;
	mp->perf_stat = d->perf_stat;
	mp->perf_profile = d->perf_profile;
}

/* Drop monitors that cannot work here, noting why (once per run_job). */
void run_plan_check(struct monitor_plan *mp, const struct perf_caps *caps, const char *root)
{
	int out = 0;

	for (int i = 0; i < mp->nr; i++) {
		struct strbuf why = STRBUF_INIT;
		if (monitor_available(mp->sampled[i], root, &why)) {
			mp->intervals[out] = mp->intervals[i];
			mp->sampled[out++] = mp->sampled[i];
		} else {
			strbuf_addf(&mp->skipped, "%s: %s\n", mp->sampled[i]->name, why.buf);
		}
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

void run_plan_release(struct monitor_plan *mp)
{
	free(mp->sampled);
	free(mp->intervals);
	strbuf_release(&mp->skipped);
}
