/*
 * queue-bench: the lab queue's speed, through the same calls perfbot's
 * worker makes (queue_claim, lab_upload), on a database `perfbot lab
 * init` made.  bench/queue.sh builds it, starts a server and prints the
 * figures.
 *
 *   queue-bench throughput URL WORKERS JOBS
 *       queue JOBS no-op jobs, then WORKERS processes (one connection
 *       each) claim and complete them as fast as they can; each
 *       completion uploads a one-run result (stats.json with two
 *       metrics, the run's job.yaml, matrix.json) through
 *       lab_upload_next, in the transaction that marks the job done and
 *       claims the next one, as perfbot worker does.  Prints "jobs/s N"
 *       over the span from the first claim to the last completion.
 *       What a real job adds is not measured: perfbot worker's fork of
 *       the job's child, run_job (perf probe, monitors, the result
 *       files written and fsynced), heartbeats, and the upload of more
 *       files (a real run's monitors' raw files and their .json).
 *
 *   queue-bench upload URL METRICS TRIES
 *       upload a result of one run with METRICS metrics (stats.json and
 *       matrix.json) TRIES times, each for its own claimed job; prints
 *       the median and the slowest in ms.
 */
#include "lab/queue.h"
#include "lab/upload.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REL "bench/defaults/box/rootfs/kconfig/gcc/c0ffee"

/* A result root of one run with n metrics under base; returns its path. */
static char *make_result(const char *base, int n)
{
	struct strbuf root = STRBUF_INIT, path = STRBUF_INIT, stats = STRBUF_INIT, mx = STRBUF_INIT;

	strbuf_addf(&root, "%s/%s", base, REL);
	strbuf_addf(&path, "%s/0", root.buf);
	if (mkdir_p(path.buf, 0777) < 0)
		exit(1);
	strbuf_addstr(&stats, "{\n");
	strbuf_addstr(&mx, "{\n");
	for (int i = 0; i < n; i++) {
		const char *sep = i + 1 < n ? "," : "";
		strbuf_addf(&stats, "  \"bench.metric_%05d\": %d.%d%s\n", i, i * 7, i % 10, sep);
		strbuf_addf(&mx, "  \"bench.metric_%05d\": [%d.%d]%s\n", i, i * 7, i % 10, sep);
	}
	strbuf_addstr(&stats, "}\n");
	strbuf_addstr(&mx, "}\n");
	strbuf_addstr(&path, "/stats.json");
	if (write_file_atomic(path.buf, stats.buf, stats.len) < 0)
		exit(1);
	/* the job's parameters go to the store's job_param with each upload */
	static const char job[] = "testcase: bench\nruntime: 1s\nbench:\n  nr_threads: 1\n";
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/0/job.yaml", root.buf);
	if (write_file_atomic(path.buf, job, sizeof(job) - 1) < 0)
		exit(1);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/matrix.json", root.buf);
	if (write_file_atomic(path.buf, mx.buf, mx.len) < 0)
		exit(1);
	strbuf_release(&path);
	strbuf_release(&stats);
	strbuf_release(&mx);
	return strbuf_detach(&root, NULL);
}

static void submit(const char *url, int jobs)
{
	struct pg db = PG_INIT;
	struct queue_job j = {
		.name = "noop.yaml", .job = "testcase: bench\n", .commit = "c0ffee",
		.priority = QUEUE_PRIORITY_DEFAULT, .runs = 1, .attempts = 1,
	};
	long long id;

	if (pg_open(&db, url) < 0 || pg_exec(&db, "BEGIN", 0, NULL) < 0)
		exit(1);
	for (int i = 0; i < jobs; i++)
		if (queue_submit(&db, &j, &id) < 0)
			exit(1);
	if (pg_exec(&db, "COMMIT", 0, NULL) < 0)
		exit(1);
	pg_close(&db);
}

/* One worker: claim and complete until the queue is empty. */
static int work(const char *url, const char *base, const char *root, int n)
{
	struct pg db = PG_INIT;
	struct queue_claim c;
	char name[32];
	int done = 0, r;

	snprintf(name, sizeof(name), "bench:%d", n);
	if (pg_open(&db, url) < 0)
		return 1;
	/* as perfbot worker goes: each upload claims the next job */
	const struct lab_next next = { "bench", name, 60 };
	struct queue_claim nc;
	r = queue_claim(&db, "bench", name, 60, &c);
	while (r == 1) {
		if (lab_upload_next(&db, c.id, c.attempt, base, root, &next, &nc) != 0)
			return 1;
		queue_claim_release(&c);
		c = nc;
		r = c.id != 0;
		done++;
	}
	pg_close(&db);
	return r < 0;
}

static int throughput(const char *url, int workers, int jobs)
{
	char tmp[] = "/tmp/queue-bench.XXXXXX";
	char *root;
	int failed = 0;

	if (!mkdtemp(tmp))
		return 1;
	root = make_result(tmp, 2);
	submit(url, jobs);
	double start = now_seconds();
	for (int i = 0; i < workers; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(work(url, tmp, root, i));
		if (pid < 0)
			return 1;
	}
	for (int i = 0; i < workers; i++) {
		int st;
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	}
	double end = now_seconds();

	/* the server's own account: every job done, and when */
	struct pg db = PG_INIT;
	if (pg_open(&db, url) < 0)
		return 1;
	PGresult *r = pg_query(&db, "SELECT count(*) FILTER (WHERE state = 'done'), "
			       "extract(epoch FROM max(finished_at) - min(started_at)) "
			       "FROM perfbot.queue", 0, NULL);
	if (!r)
		return 1;
	long long ndone = pg_int(r, 0, 0);
	double span = strtod(PQgetvalue(r, 0, 1), NULL);
	printf("workers %d jobs %d done %lld failed_workers %d span_s %.3f jobs/s %.0f "
	       "wall_s %.3f (no-op jobs: no child, no run_job, no heartbeat; the upload is "
	       "lab_upload's)\n", workers, jobs, ndone, failed, span, (double)ndone / span,
	       end - start);
	PQclear(r);
	pg_close(&db);
	free(root);
	return failed || ndone != jobs;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int upload(const char *url, int metrics, int tries)
{
	char tmp[] = "/tmp/queue-bench.XXXXXX";
	struct pg db = PG_INIT;
	struct queue_claim c;
	double *ms = xcalloc((size_t)tries, sizeof(*ms));
	char *root;

	if (!mkdtemp(tmp))
		return 1;
	root = make_result(tmp, metrics);
	submit(url, tries);
	if (pg_open(&db, url) < 0)
		return 1;
	for (int i = 0; i < tries; i++) {
		if (queue_claim(&db, "bench", "bench:upload", 60, &c) != 1)
			return 1;
		double t = now_seconds();
		if (lab_upload(&db, c.id, c.attempt, tmp, root) != 0)
			return 1;
		ms[i] = (now_seconds() - t) * 1000;
		queue_claim_release(&c);
	}
	qsort(ms, (size_t)tries, sizeof(*ms), cmp_double);
	printf("metrics %d tries %d median_ms %.1f max_ms %.1f\n", metrics, tries,
	       ms[tries / 2], ms[tries - 1]);
	pg_close(&db);
	free(ms);
	free(root);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "throughput"))
		return throughput(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "upload"))
		return upload(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: queue-bench throughput URL WORKERS JOBS\n"
		"       queue-bench upload URL METRICS TRIES\n");
	return 2;
}
