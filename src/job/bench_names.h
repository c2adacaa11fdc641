#ifndef PERFBOT_JOB_BENCH_NAMES_H
#define PERFBOT_JOB_BENCH_NAMES_H
/*
 * The names of the benchmarks perfbot runs, from the registry
 * (job/runners.h), without the runners themselves: the job layer asks
 * it which top-level keys are benchmarks (job_key_known) and sits below
 * runner/, which builds commands from jobs.  Each name is
 * the .name of the runner of the same line (test_runners checks).
 */
#include <stdbool.h>

/* True when name is the program key of a registered runner. */
bool bench_registered(const char *name);
/* The registered names in registry order, NULL-terminated. */
const char *const *bench_registered_names(void);

#endif
