/*
 * meanwhile.c: what else the machine did during a run (see meanwhile.h).
 */
#include "run/meanwhile.h"
#include "monitor/monitor.h"
#include "util/fileio.h"
#include "util/run_command.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int meanwhile_parse_proc_stat(const char *text, struct proc_cpu_times *t)
{
	const char *p = text;
	unsigned long long v[8];

	while (strncmp(p, "cpu ", 4)) {
		p = strchr(p, '\n');
		if (!p)
			return -1;
		p++;
	}
	p += 4;
	/* user nice system idle iowait irq softirq steal (older kernels
	 * stop before steal: 0) */
	int n = 0;
	for (; n < 8; n++) {
		char *end;
		while (*p == ' ')
			p++;
		if (*p == '\n' || !*p)
			break;
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno || (*end != ' ' && *end != '\n' && *end))
			return -1;
		p = end;
	}
	if (n < 4)
		return -1;
	for (int i = n; i < 8; i++)
		v[i] = 0;
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6];
	t->steal = v[7];
	return 0;
}

int meanwhile_parse_loadavg(const char *text, double *load1)
{
	char *end;

	if (!isdigit((unsigned char)*text))
		return -1;
	*load1 = strtod(text, &end);
	return end == text || (*end != ' ' && *end != '\n' && *end) ? -1 : 0;
}

void meanwhile_snap(struct meanwhile_snap *s, const char *root, const struct run_cgroup *cg)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;

	memset(s, 0, sizeof(*s));
	s->t = now_seconds();
	root_path(&path, root, "/proc/stat");
	s->has_cpu = read_file_quiet(&text, path.buf, 1 << 20) == 0 &&
		     meanwhile_parse_proc_stat(text.buf, &s->cpu) == 0;
	strbuf_reset(&path);
	strbuf_reset(&text);
	root_path(&path, root, "/proc/loadavg");
	s->has_load = read_file_quiet(&text, path.buf, 4096) == 0 &&
		      meanwhile_parse_loadavg(text.buf, &s->load1) == 0;
	if (cg)
		run_cgroup_cpu_stat(cg, &s->cg);
	strbuf_release(&path);
	strbuf_release(&text);
}

void meanwhile_figures(const struct meanwhile_snap *a, const struct meanwhile_snap *b,
		       double ticks_per_s, struct meanwhile *m)
{
	double wall = b->t - a->t;

	m->other_cpu = m->run_cpu = m->steal = -1;
	m->load_start = a->has_load ? a->load1 : -1;
	m->load_end = b->has_load ? b->load1 : -1;
	m->has_throttled = b->cg.has_throttled;
	m->nr_throttled = b->cg.nr_throttled - (a->cg.has_throttled ? a->cg.nr_throttled : 0);
	m->throttled_usec = b->cg.throttled_usec - (a->cg.has_throttled ? a->cg.throttled_usec : 0);
	if (wall <= 0 || ticks_per_s <= 0)
		return;
	double run = -1;
	if (b->cg.has_usage && b->cg.usage_usec >= a->cg.usage_usec) {
		run = (double)(b->cg.usage_usec - a->cg.usage_usec) / 1e6;
		m->run_cpu = 100 * run / wall;
	}
	if (a->has_cpu && b->has_cpu && b->cpu.busy >= a->cpu.busy && b->cpu.steal >= a->cpu.steal) {
		double busy = (double)(b->cpu.busy - a->cpu.busy) / ticks_per_s;
		m->steal = 100 * (double)(b->cpu.steal - a->cpu.steal) / ticks_per_s / wall;
		/* ticks are coarse: a run's own time may exceed the machine's */
		if (run >= 0)
			m->other_cpu = busy > run ? 100 * (busy - run) / wall : 0;
	}
}

void meanwhile_lines(const struct meanwhile *m, struct strbuf *out)
{
	if (m->other_cpu >= 0)
		strbuf_addf(out, "other_cpu_percent: %.1f\n", m->other_cpu);
	if (m->run_cpu >= 0)
		strbuf_addf(out, "run_cpu_percent: %.1f\n", m->run_cpu);
	if (m->steal >= 0)
		strbuf_addf(out, "steal_percent: %.1f\n", m->steal);
	if (m->load_start >= 0)
		strbuf_addf(out, "loadavg_start: %.2f\n", m->load_start);
	if (m->load_end >= 0)
		strbuf_addf(out, "loadavg_end: %.2f\n", m->load_end);
	if (m->has_throttled)
		strbuf_addf(out, "nr_throttled: %llu\nthrottled_usec: %llu\n", m->nr_throttled,
			    m->throttled_usec);
}
