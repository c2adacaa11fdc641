/*
 * redis.c: redis-benchmark against a redis-server on loopback, both from
 * Debian (redis-tools, redis-server), as lkp's programs/redis/run runs
 * the client against its redis-server daemon:
 *
 *   bench-harness --port=auto --adapt=redis
 *     --server redis-server --port {port} --bind 127.0.0.1 --save "" \
 *              --appendonly no --daemonize no --
 *     -- redis-benchmark -h 127.0.0.1 -p {port} -r <key_len> -n <requests>
 *        -t <test> [-d <data_size>] [-c <n_client>] [-P <n_pipeline>]
 *
 * The server keeps nothing on disk, and is stopped when the client ends.
 * Options as lkp: test (default set,get: lkp's parser wants SET and GET
 * sections), key_len (default 100000), requests (default key_len *
 * requests_multiple), requests_multiple (1), data_size, n_client,
 * n_pipeline.
 *
 * Output: Debian 12 ships redis 7, whose latency distribution lkp's parser
 * predates.  Redis up to 5 printed "99.00% <= 3 milliseconds": the share
 * of requests faster than 4 ms, one line per whole millisecond where the
 * share grows; redis 7 prints "99.219% <= 0.655 milliseconds (cumulative
 * count 1985)" at sub-millisecond points.  adapt() keeps everything else
 * and replaces each section's points by the whole-millisecond lines they
 * imply (the share at M ms is the largest share at a point below M+1 ms),
 * so lkp's set_latency_<M>ms% stats come out as lkp computes them.  It
 * also splits redis 7's '\r' progress lines from the section headers.
 */
#include "runner/runner.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const programs[] = { "redis-benchmark", "redis-server", NULL };
static const char *const options[] = {
	"test", "key_len", "requests", "requests_multiple", "data_size", "n_client",
	"n_pipeline", NULL
};

static int build(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why)
{
	const char *test = runner_opt(rj, "test");
	long long key_len, mult, requests, data_size, clients, pipeline;

	if (runner_opt_int(rj, "key_len", 100000, &key_len, why) < 0 ||
	    runner_opt_int(rj, "requests_multiple", 1, &mult, why) < 0 ||
	    runner_opt_int(rj, "data_size", 0, &data_size, why) < 0 ||
	    runner_opt_int(rj, "n_client", 0, &clients, why) < 0 ||
	    runner_opt_int(rj, "n_pipeline", 0, &pipeline, why) < 0)
		return -1;
	if (key_len < 1)
		return runner_bad_opt(rj, "key_len", "at least 1", why);
	if (mult < 1)
		return runner_bad_opt(rj, "requests_multiple", "at least 1", why);
	if (runner_opt_int(rj, "requests", key_len * mult, &requests, why) < 0)
		return -1;
	if (requests < 1)
		return runner_bad_opt(rj, "requests", "at least 1", why);
	if (test && !*test)
		return runner_bad_opt(rj, "test", "redis-benchmark tests (set,get)", why);

	runner_harness(rj, argv);
	argv_list_push(argv, "--port=auto");
	argv_list_push(argv, "--adapt=redis");
	argv_list_push(argv, "--server");
	argv_list_push(argv, "redis-server");
	argv_list_push(argv, "--port");
	argv_list_push(argv, "{port}");
	argv_list_push(argv, "--bind");
	argv_list_push(argv, "127.0.0.1");
	argv_list_push(argv, "--save");
	argv_list_push(argv, "");
	argv_list_push(argv, "--appendonly");
	argv_list_push(argv, "no");
	argv_list_push(argv, "--daemonize");
	argv_list_push(argv, "no");
	argv_list_push(argv, "--");
	argv_list_push(argv, "--");
	argv_list_push(argv, "redis-benchmark");
	argv_list_push(argv, "-h");
	argv_list_push(argv, "127.0.0.1");
	argv_list_push(argv, "-p");
	argv_list_push(argv, "{port}");
	argv_list_push(argv, "-r");
	argv_list_pushf(argv, "%lld", key_len);
	argv_list_push(argv, "-n");
	argv_list_pushf(argv, "%lld", requests);
	argv_list_push(argv, "-t");
	argv_list_push(argv, test ? test : "set,get");
	if (data_size) {
		argv_list_push(argv, "-d");
		argv_list_pushf(argv, "%lld", data_size);
	}
	if (clients) {
		argv_list_push(argv, "-c");
		argv_list_pushf(argv, "%lld", clients);
	}
	if (pipeline) {
		argv_list_push(argv, "-P");
		argv_list_pushf(argv, "%lld", pipeline);
	}
	return 0;
}

/* One "P% <= X milliseconds (cumulative count N)" point of redis 7. */
struct point {
	double ms, pct;
};

struct points {
	struct point *v;
	size_t nr, alloc;
};

/* Parse a redis 7 latency line; false for any other line. */
static bool parse_point(const char *l, struct point *pt)
{
	char tail[32];
	int n = 0;

	if (sscanf(l, "%lf%% <= %lf milliseconds (cumulative count %*d%31[)]%n",
		   &pt->pct, &pt->ms, tail, &n) != 3)
		return false;
	return l[n] == '\0';
}

/* Print the whole-millisecond lines redis <= 5 printed for these points. */
static void flush_points(struct points *pts, struct strbuf *out)
{
	double max_ms = 0, last = -1;

	for (size_t i = 0; i < pts->nr; i++)
		if (pts->v[i].ms > max_ms)
			max_ms = pts->v[i].ms;
	for (long m = 0; pts->nr && m <= (long)floor(max_ms); m++) {
		double share = 0;
		for (size_t i = 0; i < pts->nr; i++)
			if (pts->v[i].ms < m + 1 && pts->v[i].pct > share)
				share = pts->v[i].pct;
		if (share > last) {
			strbuf_addf(out, "%.2f%% <= %ld milliseconds\n", share, m);
			last = share;
		}
	}
	pts->nr = 0;
}

static int adapt(const char *raw, size_t len, struct strbuf *out, struct strbuf *why)
{
	struct points pts = { NULL, 0, 0 };
	struct strbuf line = STRBUF_INIT;
	bool any_section = false;

	for (const char *p = raw, *end = raw + len; p < end;) {
		const char *nl = p;
		struct point pt;

		while (nl < end && *nl != '\n' && *nl != '\r')
			nl++;
		strbuf_reset(&line);
		strbuf_add(&line, p, (size_t)(nl - p));
		p = nl < end ? nl + 1 : end;
		if (parse_point(line.buf, &pt)) {
			ALLOC_GROW(pts.v, pts.nr + 1, pts.alloc);
			pts.v[pts.nr++] = pt;
			continue;
		}
		if (strstr(line.buf, "====== ")) {
			flush_points(&pts, out);
			any_section = true;
		}
		strbuf_add(out, line.buf, line.len);
		strbuf_addch(out, '\n');
	}
	flush_points(&pts, out);
	free(pts.v);
	strbuf_release(&line);
	if (!any_section) {
		strbuf_addstr(why, "redis-benchmark printed no '====== TEST ======' section");
		return -1;
	}
	return 0;
}

const struct runner runner_redis = {
	.name = "redis",
	.summary = "redis-benchmark against redis-server on loopback",
	.packages = "redis-tools redis-server",
	.programs = programs,
	.harness = true,
	.options = options,
	.build = build,
	.adapt = adapt,
};
