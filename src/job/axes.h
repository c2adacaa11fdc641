#ifndef PERFBOT_JOB_AXES_H
#define PERFBOT_JOB_AXES_H
/*
 * A job's axes, as lkp's Job#axes gives them: the result-path keys the
 * job sets (tbox_group, testcase, rootfs, kconfig, compiler; rootfs as
 * its file name) and every program and option of the job at any depth,
 * monitors' options excepted, as "key=value" pairs.  They are what the
 * "compiler/.../testcase:" line of lkp's tables shows and what the store
 * keeps as a job's parameters (perfbot results --param K=V).
 */
#include <stddef.h>

struct job;

struct axis {
	char *key, *value;
};

/*
 * Add job's axes to the list (*axes, *nr; *alloc its capacity, 0 for a
 * new list): a key already there takes the job's value.  The list comes
 * out sorted by key.  Strings are copied; free them with axes_release.
 */
void job_axes(const struct job *job, struct axis **axes, int *nr, size_t *alloc);
/* Free the list's strings and the array. */
void axes_release(struct axis *axes, int nr);

#endif
