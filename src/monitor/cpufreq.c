/*
 * cpufreq: frequency residency of each CPU, from
 * /sys/devices/system/cpu/cpu<N>/cpufreq/stats/{time_in_state,total_trans}.
 *
 * lkp's monitor writes "cpu<N>.time_in_state.<kHz>: time" and
 * "cpu<N>.total_trans: count" lines, and its stats script passes them
 * through (cpufreq.cpu0.time_in_state.2000000).  lkp's benchmark defaults
 * list the same monitor as cpufreq-stats.  Needs a cpufreq driver
 * with CONFIG_CPU_FREQ_STAT: absent on most virtual machines.
 */
#include "monitor/monitor.h"

#include <string.h>

#define CPU_DIR "/sys/devices/system/cpu"

static bool available(const char *root, struct strbuf *why)
{
	return root_readable(root, CPU_DIR "/cpu0/cpufreq/stats/time_in_state", why);
}

static int list_sources(const char *root, struct monitor_sources *out)
{
	char **cpus = list_numbered(root, CPU_DIR, "cpu");
	struct strbuf p = STRBUF_INIT, label = STRBUF_INIT, why = STRBUF_INIT;

	for (int i = 0; cpus[i]; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, CPU_DIR "/%s/cpufreq/stats/time_in_state", cpus[i]);
		if (!root_readable(root, p.buf, &why))
			continue;   /* an offline CPU, or one without a driver */
		strbuf_reset(&p);
		root_path(&p, root, CPU_DIR "/");
		strbuf_addf(&p, "%s/cpufreq/stats/", cpus[i]);
		size_t base = p.len;

		strbuf_addstr(&p, "time_in_state");
		strbuf_reset(&label);
		strbuf_addf(&label, "%s.time_in_state", cpus[i]);
		monitor_sources_add(out, SRC_PAIRS, p.buf, label.buf);
		strbuf_setlen(&p, base);
		strbuf_addstr(&p, "total_trans");
		strbuf_reset(&label);
		strbuf_addf(&label, "%s.total_trans", cpus[i]);
		monitor_sources_add(out, SRC_VALUE, p.buf, label.buf);
	}
	free_names(cpus);
	strbuf_release(&p);
	strbuf_release(&label);
	strbuf_release(&why);
	return 0;
}

/* lkp's stats script is `cat`: the lines are already "key: value"; one
 * without a key (": 5", found by fuzzing) is skipped */
static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct line_iter it;
	struct line l;

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		const char *sep = memmem(l.s, l.len, ": ", 2);

		if (!sep || sep == l.s)
			continue;
		strbuf_add(out, l.s, l.len);
		strbuf_addch(out, '\n');
	}
	return 0;
}

const struct monitor monitor_cpufreq = {
	.name = "cpufreq",
	.files = CPU_DIR "/cpu*/cpufreq/stats/{time_in_state,total_trans}",
	.flags = MONITOR_DEFAULT | MONITOR_TIME_NS,
	.available = available,
	.list_sources = list_sources,
	.parse_snapshot = parse_snapshot,
};
