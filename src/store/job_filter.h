#ifndef PERFBOT_STORE_JOB_FILTER_H
#define PERFBOT_STORE_JOB_FILTER_H
/*
 * job_filter: which stored jobs a command means, from its --testcase,
 * --job and --param options (perfbot results, history).
 *
 *   testcase   the job's testcase, exactly
 *   job        a job file: the testcase/path_params of each of its atomic
 *              jobs, as perfbot run names their result roots here; or,
 *              when no such file exists, "testcase" or
 *              "testcase/path_params" written out
 *   params     "K=V": the job's field or parameter K is V (fields:
 *              testcase, path_params, tbox_group, rootfs, kconfig,
 *              compiler; parameters: the job's axes, e.g. fs=xfs)
 *
 * All given conditions must hold.  store_job_filter_init() reads the job
 * file and checks the K=V forms: 0, or -1 after a message naming the
 * file or the bad option.  The filter owns its copies; release it.
 */
#include <stdbool.h>
#include "store/store.h"

struct store_job_filter {
	char *testcase;
	char **names;                /* "testcase/path_params" or "testcase" */
	int nr_names;
	char **keys, **values;       /* params */
	int nr_params;
	char *job_desc;              /* how --job was given, for messages */
};

int store_job_filter_init(struct store_job_filter *f, const char *testcase, const char *job,
			  const char *const *params, int nr_params);
bool store_job_filter_match(const struct store_job_filter *f, const struct store_job_info *job);
void store_job_filter_release(struct store_job_filter *f);

#endif
