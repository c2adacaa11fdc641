#ifndef PERFBOT_SETUP_HELPERS_H
#define PERFBOT_SETUP_HELPERS_H
/*
 * Shared by the setup tests (test_setup.c, test_eatmem.c): a job's
 * fs/disk/cpufreq_governor/eatmem setup the way run_job takes it, from
 * the job's description (run/desc.h) to run/setup.h's plan functions, so
 * that the tests go through the code the run goes through.
 * Include after test_helpers.h.
 */
#include "run/desc.h"
#include "run/setup.h"

/*
 * job decoded with a command (so that it needs no benchmark), its setup
 * refused (run_setup_refuse: 1) when perfbot cannot do it, else checked
 * (run_setup_check_plan) or applied (run_setup_apply_plan) under
 * work_base.  0, 1 or -1 as those return; -1 also when the job does not
 * decode (the error printed).
 */
static inline int setup_job(const struct job *job, const char *work_base, const char *cpu_sysfs,
			    struct run_setup *s, struct strbuf *log)
{
	static char *const cmd[] = { "true", NULL };
	const struct run_opts opts = { .command = cmd };
	struct job_desc d = JOB_DESC_INIT;
	int r = job_desc_decode(job, &opts, &d);

	if (!r && d.setup_cannot)
		r = run_setup_refuse(d.setup_why.buf, log);
	else if (!r && s)
		r = run_setup_apply_plan(&d.setup, work_base, s, log);
	else if (!r)
		r = run_setup_check_plan(&d.setup, work_base, cpu_sysfs, log);
	job_desc_release(&d);
	return r;
}

/* Apply job's setup into s, as run_job does before each run. */
static inline int setup_apply_job(const struct job *job, const char *work_base,
				  struct run_setup *s, struct strbuf *log)
{
	return setup_job(job, work_base, NULL, s, log);
}

/* Check job's setup, changing nothing, as run_job does before the first
 * run. */
static inline int setup_check_job(const struct job *job, const char *work_base,
				  const char *cpu_sysfs, struct strbuf *log)
{
	return setup_job(job, work_base, cpu_sysfs, NULL, log);
}

#endif
