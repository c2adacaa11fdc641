#ifndef PERFBOT_RUNNER_H
#define PERFBOT_RUNNER_H
/*
 * Benchmark runners: from a job that names a benchmark to the command
 * line that runs it.
 *
 * A job names its benchmark the lkp way, by a program key with options,
 *
 *     testcase: vm-scalability
 *     runtime: 300s
 *     vm-scalability:
 *       test: lru-file-readtwice
 *
 * and lkp's test scripts read their options from the program's mapping or
 * from the top level alike (lkp exports both as shell variables), so
 * runner_opt() looks in that order.  Each runner turns the options, with
 * lkp's names and defaults, into an argv whose stdout is exactly what the
 * lkp parser of the same name reads (src/parse/): `perfbot run` saves the
 * benchmark's stdout as <run dir>/<testcase> and parses it with
 * parser_find(testcase).
 *
 * One file per runner (src/runner/<name>.c) defines
 *
 *     const struct runner runner_<ident> = { .name = "...", ... };
 *
 * and src/job/runners.h lists it once (X-macro), as the parsers do.  A
 * runner that cannot work here still registers, with unimplemented_reason.
 *
 * Where a benchmark needs more than one program (a server on loopback for
 * iperf3, tbench, redis) or its output needs adapting to what lkp's parser
 * expects (Debian ships redis 7, whose latency lines lkp's parser predates;
 * sysbench and `perf bench sched pipe` have no lkp parser), the argv runs
 * bench-harness (workloads/harness/), a small program built next to the
 * built-in benchmarks: it starts the server in the benchmark's process
 * group, waits for its port to listen, runs the client, stops the server,
 * and pipes the client's stdout through the runner's adapt function.  It
 * also puts the run's directory ($PERFBOT_RUN_DIR, which `perfbot run`
 * sets) where an argument says "{run_dir}": fio's JSON goes there, where
 * lkp's fio parser looks for it.  So every runner's result is one
 * self-contained argv, the same for every run of an atomic job; a timeout
 * that kills the process group kills the server too.
 *
 * Built-in benchmarks (workloads/vm-scalability, workloads/will-it-scale,
 * workloads/aim7) and bench-harness live in the "bench dir":
 * runner_default_bin_dir().
 * Debian's are found in $PATH; `perfbot install JOB` installs their
 * packages (runner->packages).
 *
 * The integration in `perfbot run` is one call per atomic job (the argv
 * is the same for each of its runs):
 *
 *     struct runner_ctx ctx;
 *     struct argv_list argv = ARGV_LIST_INIT;
 *     struct strbuf why = STRBUF_INIT;
 *     runner_ctx_init(&ctx);
 *     switch (runner_build_argv(job, &ctx, &argv, &why)) {
 *     case 0:  cp.argv = argv.v; break;          // run it
 *     case 1:  ...;                              // the job names no benchmark
 *     default: error("%s", why.buf);             // unknown option, missing program
 *     }
 *     ...
 *     argv_list_release(&argv);
 *     runner_ctx_release(&ctx);
 */
#include <stdbool.h>
#include <stddef.h>
#include "job/job.h"
#include "util/strbuf.h"

/* A NULL-terminated, growable argv.  v[nr] == NULL whenever v != NULL. */
struct argv_list {
	char **v;
	size_t nr, alloc;
};
#define ARGV_LIST_INIT { NULL, 0, 0 }

/* Append a copy of s (the list owns its strings). */
void argv_list_push(struct argv_list *a, const char *s);
__attribute__((format(printf, 2, 3)))
void argv_list_pushf(struct argv_list *a, const char *fmt, ...);
/* Free the strings and the array; reset to ARGV_LIST_INIT. */
void argv_list_release(struct argv_list *a);
/* Append the argv as one shell-quoted line (for logs and --dry-run). */
void argv_list_to_shell(const struct argv_list *a, struct strbuf *sb);

/* Where and for what machine a command is built. */
struct runner_ctx {
	const char *bin_dir;    /* built-in benchmarks and bench-harness */
	long nr_cpu;            /* online CPUs: default of nr_threads, nr_task */
	/* MemAvailable of /proc/meminfo, bytes (0: unknown): sizes that lkp
	 * derives from the machine's memory (vm-scalability's) */
	unsigned long long mem_avail;
	struct strbuf own;      /* storage of the default bin_dir */
};

/* Fill ctx with the defaults: runner_default_bin_dir(), nr_cpu from
 * sysconf and mem_avail from /proc/meminfo.  Release with runner_ctx_release. */
void runner_ctx_init(struct runner_ctx *ctx);
void runner_ctx_release(struct runner_ctx *ctx);
/*
 * Append the bench dir to sb: $PERFBOT_BENCH_DIR when set, else "<dir of
 * the running executable>/bin" when that holds bench-harness (perfbot
 * built with BUILD=x lives in x/, its benchmarks in x/bin), else
 * "<dir>/build/bin" (the default `make` puts ./perfbot beside build/):
 * exe_sibling_dir() of util/exedir.h.
 */
void runner_default_bin_dir(struct strbuf *sb);

struct runner;

/* What a runner's build function reads. */
struct runner_job {
	const struct job *job;
	const struct runner *r;
	const struct runner_ctx *ctx;
};

/* A metric direction that lkp_kpi_direction() (stats/lkp_tables.h) does
 * not know: +1 higher is better, -1 lower is better. */
struct runner_kpi {
	const char *stat;       /* full stat name, "<testcase>.<metric>" */
	int direction;
};

struct runner {
	const char *name;       /* the program key, testcase and parser name */
	const char *summary;
	/* Debian packages it needs ("rt-tests"), space-separated; NULL for a
	 * built-in benchmark. */
	const char *packages;
	/* Programs that must be in $PATH, NULL-terminated; NULL for none. */
	const char *const *programs;
	/* Program in the bench dir (a built-in benchmark), or NULL. */
	const char *builtin;
	/* Its argv runs bench-harness (from the bench dir). */
	bool harness;
	/* The job options it reads (lkp's names), NULL-terminated: any other
	 * option under the program's key is an error, so typos are caught. */
	const char *const *options;
	/*
	 * Append the command line to argv.  Returns 0, or -1 with why set
	 * ("'mode' expected process, thread or both, got 'x'").
	 */
	int (*build)(const struct runner_job *rj, struct argv_list *argv, struct strbuf *why);
	/*
	 * Optional: turn the program's raw stdout into what the parser of
	 * this name reads (run by bench-harness --adapt NAME).  Appends to
	 * out; returns 0, or -1 with why set.
	 */
	int (*adapt)(const char *raw, size_t len, struct strbuf *out, struct strbuf *why);
	/* Directions of its metrics unknown to lkp, NULL-terminated by stat. */
	const struct runner_kpi *kpis;
	/* Set when it cannot work on this system at all. */
	const char *unimplemented_reason;
};

/* The runner named name, or NULL. */
const struct runner *runner_find(const char *name);
/* NULL-terminated list of all runners, in registry order. */
const struct runner *const *runner_all(void);

/*
 * The runner of the job's benchmark: the one named by `testcase` when
 * there is one, else the first top-level key that names a runner.  NULL
 * when the job names none (a mytest job, say).
 */
const struct runner *runner_for_job(const struct job *job);

/*
 * Can r run here?  False with why set to the reason: its
 * unimplemented_reason, a program missing from $PATH (with the `perfbot
 * install` hint and the Debian package), or a built-in program missing
 * from ctx->bin_dir (with the make hint).  why may be NULL.
 */
bool runner_available(const struct runner *r, const struct runner_ctx *ctx, struct strbuf *why);
/* r's Debian packages, space-separated ("" for a built-in benchmark). */
const char *runner_packages(const struct runner *r);

/*
 * Append r's command line for job to out, after checking the job's
 * options under r's key against r->options.  Does not check availability.
 * Returns 0, or -1 with why set ("jobs/x.yaml:4:3: ...").
 */
int runner_command(const struct runner *r, const struct job *job,
		   const struct runner_ctx *ctx, struct argv_list *out, struct strbuf *why);

/*
 * The whole step for `perfbot run`: find the job's benchmark, check that
 * it can run here, build its argv.  Returns 0 with out filled, 1 when the
 * job names no benchmark (out untouched), or -1 with why set.
 */
int runner_build_argv(const struct job *job, const struct runner_ctx *ctx,
		      struct argv_list *out, struct strbuf *why);

/*
 * Direction of a stat: lkp_kpi_direction() when it knows, else the
 * runners' declared kpis, else 0.
 */
int runner_kpi_direction(const char *stat);

/*
 * lkp's vm-scalability sizes the files of its lru-file read cases as
 * ROTATE_BYTES (hw_vars): 4 TiB in all, at most 256 times MemAvailable
 * (its bound on page tables), so that the page cache must recycle on any
 * machine and the runtime, not the files, ends the case.  mem_avail 0
 * (unknown) gives 4 TiB.
 */
#define VM_SCALABILITY_ROTATE_BYTES (1ULL << 42)
unsigned long long vm_scalability_rotate_bytes(unsigned long long mem_avail);

/* --- for the runners' own files -------------------------------------- */

/* The option: r's program mapping first, then the job's top level.  NULL
 * when absent or not a scalar.  Borrowed from the job. */
const char *runner_opt(const struct runner_job *rj, const char *key);
/*
 * The option as an integer ("100%" is a share of ctx->nr_cpu, as lkp's
 * nr_threads); def when absent.  0, or -1 with why set.
 */
int runner_opt_int(const struct runner_job *rj, const char *key, long long def,
		   long long *out, struct strbuf *why);
/* The option as seconds ("300", "300s", "5m", "1h"); def when absent. */
int runner_opt_seconds(const struct runner_job *rj, const char *key, double def,
		       double *out, struct strbuf *why);
/* The option as bytes ("4k", "512m", "1G", plain bytes); def when absent. */
int runner_opt_bytes(const struct runner_job *rj, const char *key, long long def,
		     long long *out, struct strbuf *why);
/* The option as lkp's parse_bool reads it (1/y/yes/true/on, 0/n/no/false/off;
 * the option's own name, as in `shared: shared`, is true); def when absent. */
int runner_opt_bool(const struct runner_job *rj, const char *key, bool def,
		    bool *out, struct strbuf *why);
/* The option, which must be one of the NULL-terminated choices; def when
 * absent.  0, or -1 with why set. */
int runner_opt_choice(const struct runner_job *rj, const char *key, const char *def,
		      const char *const *choices, const char **out, struct strbuf *why);
/*
 * The client benchmarks' pair (dbench, tbench): nr_threads clients, by
 * default one per CPU, and runtime seconds, by default 600; at least 1
 * of each.  0, or -1 with why set.
 */
int runner_opt_clients(const struct runner_job *rj, long long *nr, double *runtime,
		       struct strbuf *why);
/* Append why = "<where>: '<key>' expected <what>, got '<value>'" and return -1. */
int runner_bad_opt(const struct runner_job *rj, const char *key, const char *what,
		   struct strbuf *why);

/* Parse "4k", "512m", "1G", "1GiB", "100" into bytes; -1 when malformed. */
long long runner_parse_bytes(const char *s);

/*
 * Start argv with bench-harness from the bench dir.  The runner then adds
 * harness options and, last, "--" and the client command (see
 * workloads/harness/bench-harness.c for the options).
 */
void runner_harness(const struct runner_job *rj, struct argv_list *argv);

/*
 * An adapter as data: each line of raw output matching pattern (a POSIX
 * ERE whose first group is a number) becomes "<name>: <number>", the
 * mytest convention (parse/mytest.c).  First matching entry wins; the
 * table ends with a NULL pattern.
 */
struct runner_metric {
	const char *pattern;
	const char *name;
};
/* Apply a runner_metric table; -1 with why set when nothing matched. */
int runner_adapt_metrics(const struct runner_metric *table, const char *raw, size_t len,
			 struct strbuf *out, struct strbuf *why);

#endif
