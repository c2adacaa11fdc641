/*
 * openssl-speed.c: Debian's openssl, as lkp's programs/openssl-speed/run
 * runs its own build:
 *
 *   openssl speed -multi <nr_threads> -seconds <runtime> <algorithm>
 *
 * algorithm is required, one of those lkp's parser reads (rsa4096, sha256);
 * nr_threads defaults to every CPU (lkp: nproc), runtime to openssl's
 * own (10 s per block size or key operation).
 */
#include "runner/runner.h"

static const char *const programs[] = { "openssl", NULL };
static const char *const algorithms[] = { "rsa4096", "sha256", NULL };
static const char *const options[] = { "algorithm", "nr_threads", "runtime", NULL };

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *algorithm;
	long long nr;
	double runtime;

	if (runner_opt_choice(rj, "algorithm", NULL, algorithms, &algorithm, why) < 0 ||
	    runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, &nr, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 0, &runtime, why) < 0)
		return -1;
	if (!algorithm) {
		strbuf_addstr(why, "openssl-speed: the job names no 'algorithm' (rsa4096 or sha256)");
		return -1;
	}
	if (nr < 1)
		return runner_bad_opt(rj, "nr_threads", "at least 1", why);
	argv_list_push(argv, "openssl");
	argv_list_push(argv, "speed");
	argv_list_push(argv, "-multi");
	argv_list_pushf(argv, "%lld", nr);
	if (runtime >= 1) {
		argv_list_push(argv, "-seconds");
		argv_list_pushf(argv, "%.0f", runtime);
	}
	argv_list_push(argv, algorithm);
	return 0;
}

const struct runner runner_openssl_speed = {
	.name = "openssl-speed",
	.summary = "openssl speed: RSA sign/verify and SHA-256 throughput",
	.packages = "openssl",
	.programs = programs,
	.options = options,
	.build = build,
};
