#ifndef PERFBOT_RUN_MEANWHILE_H
#define PERFBOT_RUN_MEANWHILE_H
/*
 * meanwhile.h: what else the machine did while a run's benchmark ran,
 * kept with the run (stats.json, the `machine` file) so that a result
 * from a busy machine says so (report/busy.h judges it).
 *
 * The figures, all over the benchmark's wall time, in percent of one CPU
 * (100 = a core's worth, as time.percent_of_cpu_this_job_got):
 *
 *   machine.other_cpu_percent  CPU time the machine spent outside the
 *                              run's cgroup: /proc/stat's user, nice,
 *                              system, irq and softirq, minus the
 *                              cgroup's usage (perfbot's own sampler is
 *                              "other" too, ~1%); without a cgroup,
 *                              the benchmark's wait4 rusage stands for
 *                              the cgroup's usage
 *   machine.run_cpu_percent    the run's cgroup's CPU time
 *   machine.steal_percent      /proc/stat's steal (a VM's host was busy)
 *   machine.loadavg_start, machine.loadavg_end
 *                              /proc/loadavg's 1-minute figure
 *   machine.nr_throttled, machine.throttled_usec
 *                              the cgroup's cpu.stat, where it has them
 */
#include <stdbool.h>
#include "run/cgroup.h"
#include "util/strbuf.h"

/* /proc/stat's "cpu" line, in USER_HZ ticks. */
struct proc_cpu_times {
	unsigned long long busy;   /* user + nice + system + irq + softirq */
	unsigned long long steal;
};
/* 0, or -1 when text has no well-formed "cpu " line. */
int meanwhile_parse_proc_stat(const char *text, struct proc_cpu_times *t);
/* /proc/loadavg's first figure: 0, or -1. */
int meanwhile_parse_loadavg(const char *text, double *load1);

struct meanwhile_snap {
	double t;                   /* CLOCK_REALTIME seconds */
	struct proc_cpu_times cpu;
	bool has_cpu;
	double load1;
	bool has_load;
	struct cgroup_cpu_stat cg;  /* zero without a cgroup */
};
/* Read /proc/stat and /proc/loadavg under root ("" or a test's), and the
 * cgroup's cpu.stat when cg is not NULL. */
void meanwhile_snap(struct meanwhile_snap *s, const char *root, const struct run_cgroup *cg);

struct meanwhile {
	double other_cpu, run_cpu, steal;   /* percent of one CPU; < 0: unknown */
	double load_start, load_end;        /* < 0: unknown */
	bool has_throttled;
	unsigned long long nr_throttled, throttled_usec;
};
/* The figures between a and b, with ticks_per_s (USER_HZ). */
void meanwhile_figures(const struct meanwhile_snap *a, const struct meanwhile_snap *b,
		       double ticks_per_s, struct meanwhile *m);
/* "name: value" lines of the known figures (the machine file's). */
void meanwhile_lines(const struct meanwhile *m, struct strbuf *out);

#endif
