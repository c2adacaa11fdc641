/*
 * monitors.c: which monitors a run samples (run.h): the ones the job
 * description names (desc.h), less what cannot work on this machine.
 */
#include "run/run.h"
#include "run/run_impl.h"
#include "monitor/monitor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Drop monitors that cannot work here, noting why (once per run_job). */
void run_check_monitors(struct job_desc *d, const struct perf_caps *caps, const char *root,
			struct strbuf *skipped)
{
	size_t out = 0;

	for (size_t i = 0; i < d->nr_monitors; i++) {
		struct strbuf why = STRBUF_INIT;
		if (monitor_available(d->monitors[i], root, &why)) {
			d->intervals[out] = d->intervals[i];
			d->monitors[out++] = d->monitors[i];
		} else {
			strbuf_addf(skipped, "%s: %s\n", d->monitors[i]->name, why.buf);
		}
		strbuf_release(&why);
	}
	d->nr_monitors = out;
	d->monitors[out] = NULL;
	if ((d->perf_stat || d->perf_profile) && !caps->usable) {
		if (d->perf_stat)
			strbuf_addf(skipped, "perf-stat: %s\n", caps->why.buf);
		if (d->perf_profile)
			strbuf_addf(skipped, "perf-profile: %s\n", caps->why.buf);
		d->perf_stat = d->perf_profile = false;
	}
	if (d->perf_stat && caps->unsupported.len)
		strbuf_addf(skipped, "perf-stat events: not supported here: %s\n", caps->unsupported.buf);
}
