/*
 * stress-ng.c: Debian's stress-ng, run as lkp's programs/stress-ng/run
 * runs it:
 *
 *   stress-ng --timeout <testtime> --times --verify --metrics-brief
 *             --no-rand-seed --<test> <nr_threads>
 *   stress-ng ... --sequential <nr_threads> --class <class> --exclude spawn,exec
 *
 * testtime defaults to 1 s as in lkp, nr_threads to every CPU.  stress-ng
 * writes its metrics table to stderr, where lkp's `2>&1` picks it up; here
 * --stdout sends everything to stdout, which `perfbot run` parses.
 * Memory-class runs add lkp's --minimize and exclude `stack` as well.
 */
#include "bench/runner.h"

#include <string.h>

static const char *const programs[] = { "stress-ng", NULL };
static const char *const options[] = { "test", "class", "nr_threads", "testtime", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test = runner_opt(rj, "test"), *class = runner_opt(rj, "class");
	long long nr;
	double testtime;

	if (runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, &nr, why) < 0 ||
	    runner_opt_seconds(rj, "testtime", 1, &testtime, why) < 0)
		return -1;
	if (!test == !class) {
		strbuf_addstr(why, "stress-ng: the job needs either 'test' (a stressor) or 'class'");
		return -1;
	}
	if ((test && !*test) || (class && !*class))
		return runner_bad_opt(rj, test ? "test" : "class", "a name", why);
	if (nr < 0)
		return runner_bad_opt(rj, "nr_threads", "0 (one per CPU) or more", why);

	argv_list_push(argv, "stress-ng");
	argv_list_push(argv, "--timeout");
	argv_list_pushf(argv, "%g", testtime);
	argv_list_push(argv, "--times");
	argv_list_push(argv, "--verify");
	argv_list_push(argv, "--metrics-brief");
	argv_list_push(argv, "--no-rand-seed");
	argv_list_push(argv, "--stdout");
	if (test) {
		argv_list_pushf(argv, "--%s", test);
		argv_list_pushf(argv, "%lld", nr);
	} else {
		bool memory = !strcmp(class, "memory");
		argv_list_push(argv, "--sequential");
		argv_list_pushf(argv, "%lld", nr);
		argv_list_push(argv, "--class");
		argv_list_push(argv, class);
		if (memory)
			argv_list_push(argv, "--minimize");
		argv_list_push(argv, "--exclude");
		argv_list_pushf(argv, "spawn,exec%s", memory ? ",stack" : "");
	}
	return 0;
}

const struct runner runner_stress_ng = {
	.name = "stress-ng",
	.summary = "one stressor or a class of them, with bogo-ops metrics",
	.packages = "stress-ng",
	.programs = programs,
	.options = options,
	.build = build,
};
