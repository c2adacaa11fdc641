/*
 * desc.c: decoding an atomic job into a struct job_desc (desc.h).
 */
#include "run/desc.h"
#include "monitor/monitor.h"
#include "monitor/sampler.h"
#include "util/duration.h"
#include "util/run_command.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The duration v holds, v being named what in messages: def when v is
 * absent (NULL, or not a scalar); -2 after an error naming v's line. */
static double duration_value(const struct job_value *v, const char *what, double def)
{
	const char *s = job_value_text(v);
	double d;

	if (!s)
		return def;
	d = parse_duration(s);
	if (d < 0) {
		struct strbuf where = STRBUF_INIT;
		job_source_line(v, &where);
		error("%s: '%s' expected a duration (300, 300s, 5m), got '%s'", where.buf, what,
		      job_value_shown(v));
		strbuf_release(&where);
		return -2;
	}
	return d;
}

/* A top-level job key holding a duration (`runtime: 300s`). */
static int job_duration(const struct job *job, const char *key, double def, double *out)
{
	*out = duration_value(job_lookup(job, key), key, def);
	return *out < -1 ? -1 : 0;
}

/* An option of a program key holding a duration (`perf-profile: {delay: 5}`). */
static int program_duration(const struct job *job, const char *program,
			    const char *opt, double *out)
{
	struct strbuf what = STRBUF_INIT;

	strbuf_addf(&what, "%s.%s", program, opt);
	*out = duration_value(job_map_get(job_lookup(job, program), opt), what.buf, 0);
	strbuf_release(&what);
	return *out < 0 ? -1 : 0;
}

void job_desc_keys(const struct job *job, struct job_desc_keys *k)
{
	const char *s = job_get(job, "nr_run");
	char *end;

	k->testcase = job_get(job, "testcase");
	k->suite = job_get(job, "suite");
	k->tbox_group = job_get(job, "tbox_group");
	k->rootfs = job_get(job, "rootfs");
	k->kconfig = job_get(job, "kconfig");
	k->compiler = job_get(job, "compiler");
	k->arch = job_get(job, "arch");
	k->category = job_get(job, "category");
	k->kernel = job_get(job, "kernel");
	k->kernel_cmdline = job_get(job, "kernel_cmdline");
	k->memory = job_get(job, "memory");
	errno = 0;
	k->nr_run = s ? strtoll(s, &end, 10) : 0;
	if (!s || errno || end == s || *end)
		k->nr_run = 0;
}

static int decode_testcase(struct job_desc *d, const struct run_opts *opts)
{
	const char *section;

	d->testcase = d->keys.testcase;
	if (!d->testcase && job_command(d->job, &section))
		d->testcase = section;
	if (!d->testcase)
		d->testcase = d->runner ? d->runner->name :
			      opts->command || job_lookup(d->job, "mytest") ? "mytest" : NULL;
	if (!d->testcase)
		return error("%s: the job has no 'testcase'", d->where);
	return 0;
}

static int decode_times(struct job_desc *d, const struct run_opts *opts)
{
	const struct job *job = d->job;
	long long nr_run = 1;

	if (job_get_int(job, "nr_run", &nr_run) < 0)
		return -1;
	d->nr_run = nr_run > 0 ? (int)nr_run : 1;
	if (job_duration(job, "runtime", -1, &d->runtime) < 0 ||
	    job_duration(job, "timeout", 0, &d->timeout) < 0 ||
	    job_duration(job, "monitor_delay", 0, &d->monitor_delay) < 0)
		return -1;
	if (opts->interval > 0) {
		d->interval = opts->interval;
	} else {
		if (job_duration(job, "interval", 1, &d->interval) < 0)
			return -1;
		if (d->interval <= 0) {
			struct strbuf where = STRBUF_INIT;
			job_source_line(job_lookup(job, "interval"), &where);
			error("%s: 'interval' expected a duration above 0, got '%s'", where.buf,
			      job_value_shown(job_lookup(job, "interval")));
			strbuf_release(&where);
			return -1;
		}
	}
	/* a runaway benchmark must not hang a bisect forever */
	d->timeout = duration_job_limit(d->timeout, d->runtime);
	return 0;
}

/* ---- monitors -------------------------------------------------------- */

/* Note lkp monitor `name`, asked for but not in perfbot, once. */
static void add_missing(struct job_desc *d, const char *name)
{
	const char *p = d->missing.buf;
	size_t n = strlen(name);

	if (!strcmp(name, "perf-stat") || !strcmp(name, "perf-profile") || monitor_find(name))
		return;
	for (; (p = strstr(p, name)); p += n)
		if ((p == d->missing.buf || p[-1] == ' ') && (!p[n] || p[n] == ','))
			return;
	if (d->missing.len)
		strbuf_addstr(&d->missing, ", ");
	strbuf_addstr(&d->missing, name);
}

static void add_monitor(struct job_desc *d, const struct monitor *m)
{
	for (size_t i = 0; i < d->nr_monitors; i++)
		if (d->monitors[i] == m)
			return;
	ALLOC_GROW(d->monitors, d->nr_monitors + 2, d->alloc_monitors);
	d->monitors[d->nr_monitors++] = m;
	d->monitors[d->nr_monitors] = NULL;
}

/* Add monitor `name`; perf-* are flags.  -1 for an unknown name. */
static int add_monitor_named(struct job_desc *d, const char *name)
{
	const struct monitor *m;

	if (!strcmp(name, "perf-stat")) {
		d->perf_stat = true;
		return 0;
	}
	if (!strcmp(name, "perf-profile")) {
		d->perf_profile = true;
		return 0;
	}
	m = monitor_find(name);
	if (!m)
		return -1;
	/* time is written from wait4 for every run anyway */
	if (!(m->flags & MONITOR_NOT_SAMPLED))
		add_monitor(d, m);
	return 0;
}

static int monitors_of_opts(struct job_desc *d, const char *names)
{
	char *list = xstrdup(names), *save = NULL;
	int ret = 0;

	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (add_monitor_named(d, t) < 0) {
			ret = error("--monitors: unknown monitor '%s'", t);
			break;
		}
	free(list);
	return ret;
}

static void monitors_of_job(struct job_desc *d)
{
	const char *category = d->keys.category;
	bool benchmark = category && !strcmp(category, "benchmark");
	const struct job_entry *e;
	size_t pos = 0;
	bool any = false;

	while ((e = job_next(d->job, &pos))) {
		const char *lacks;
		if (add_monitor_named(d, e->key) == 0)
			any = true;
		else if (job_monitor_find(e->key) ||
			 ((lacks = job_key_lacks(e, NULL)) && !strcmp(lacks, "monitor")))
			add_missing(d, e->key);
	}
	/* lkp's include/category/benchmark: the default monitors */
	if (!any && benchmark) {
		const struct monitor **def = monitor_default_list();
		for (int i = 0; def[i]; i++)
			if (!(def[i]->flags & MONITOR_NOT_SAMPLED))
				add_monitor(d, def[i]);
		free(def);
		d->perf_stat = d->perf_profile = true;
	}
	/* split-job left out of lkp's benchmark set what perfbot lacks */
	if (benchmark)
		for (const struct job_monitor *jm = job_monitor_table(); jm->name; jm++)
			if (jm->in_benchmark_set)
				add_missing(d, jm->name);
}

static int decode_monitors(struct job_desc *d, const struct run_opts *opts)
{
	if (opts->monitors) {
		if (monitors_of_opts(d, opts->monitors) < 0)
			return -1;
	} else {
		monitors_of_job(d);
	}
	if (!d->monitors)
		d->monitors = xcalloc(1, sizeof(*d->monitors));
	d->intervals = xcalloc(d->nr_monitors + 1, sizeof(*d->intervals));
	for (size_t i = 0; i < d->nr_monitors; i++)
		if (program_duration(d->job, d->monitors[i]->name, "interval",
				     &d->intervals[i]) < 0)
			return -1;
	if (program_duration(d->job, "perf-profile", "delay", &d->perf_profile_delay) < 0 ||
	    program_duration(d->job, "perf-profile", "duration", &d->perf_profile_duration) < 0)
		return -1;
	return 0;
}

/* ---- setup, result path, benchmark ------------------------------------ */

/*
 * What the job asks for that perfbot has no program for, in entry e or in
 * the mappings of its code keys (`if role client: {apachebench: }`): the
 * first benchmark, else daemon, else setup, in *first[0..2].  Monitors
 * perfbot lacks are skipped instead (monitors_of_job).
 */
static void find_lacking(const struct job_entry *e, const struct job_entry **first)
{
	static const char *const kinds[] = { "benchmark", "daemon", "setup" };
	const char *lacks = job_key_lacks(e, NULL);

	for (int k = 0; lacks && k < 3; k++)
		if (!strcmp(lacks, kinds[k]) && !first[k])
			first[k] = e;
	/* a key with a blank is one of lkp's code forms (keys.c) */
	if (!lacks && e->val->kind == JOB_MAP && strchr(e->key, ' '))
		for (size_t i = 0; i < e->val->nr; i++)
			if (!e->val->ent[i].comment)
				find_lacking(&e->val->ent[i], first);
}

/*
 * Refuse, before any setup, a job perfbot cannot run as it says, naming
 * what it lacks: a benchmark or daemon (unless a command given after --
 * is the benchmark), else a setup.  A backend decides where the job runs.
 */
static int decode_programs(struct job_desc *d, const struct run_opts *opts)
{
	const struct job_entry *e, *first[3] = { NULL, NULL, NULL };
	struct strbuf where = STRBUF_INIT;
	const char *section;
	size_t pos = 0;
	int k;

	if (opts->backend)
		return 0;
	/* the section that holds the job's command is its benchmark */
	if (!job_command(d->job, &section))
		section = NULL;
	while ((e = job_next(d->job, &pos)))
		if (!section || strcmp(e->key, section))
			find_lacking(e, first);
	for (k = opts->command ? 2 : 0; k < 3 && !first[k]; k++)
		;
	if (k == 3)
		return 0;
	e = first[k];
	/* a job split in memory keeps its values' places, not its keys' */
	if (e->src)
		job_entry_where(e, &where);
	else if (e->val->src)
		job_source_line(e->val, &where);
	else
		strbuf_addstr(&where, d->where);
	if (k == 2)
		error("%s: no setup '%s' in perfbot (lkp's programs/%s/setup): the job cannot "
		      "run as it says", where.buf, job_key_shown(e), job_key_shown(e));
	else
		error("%s: no runner for %s '%s' (`perfbot install --list` lists those perfbot "
		      "has); give its command after -- or as `mytest: {command: ...}`",
		      where.buf, k ? "daemon" : "benchmark", job_key_shown(e));
	strbuf_release(&where);
	return -1;
}

static int decode_setup(struct job_desc *d)
{
	int r = run_setup_plan(d->job, &d->setup, &d->setup_why);

	if (r < 0)
		return -1;
	d->setup_cannot = r > 0;
	return 0;
}

static int decode_result_path(struct job_desc *d, const struct run_opts *opts)
{
	if (job_result_root(d->job, "", opts->commit, &d->result_path) < 0)
		return -1;
	job_mytest_name(d->job, &d->name);
	return 0;
}

static int decode_cpuset(struct job_desc *d, const struct run_opts *opts)
{
	const struct job_value *v = job_lookup(d->job, "cpuset");
	const char *s = opts->cpuset ? opts->cpuset : job_value_text(v);

	if (!opts->cpuset && v && !s) {
		struct strbuf where = STRBUF_INIT;
		job_source_line(v, &where);
		error("%s: 'cpuset' expected CPUs like 0-1 or 0,2, got '%s'", where.buf,
		      job_value_shown(v));
		strbuf_release(&where);
		return -1;
	}
	if (!s)
		return 0;
	if (!*s || strspn(s, "0123456789,-") != strlen(s)) {
		if (opts->cpuset)
			return error("--cpuset expects CPUs like 0-1 or 0,2, got '%s'", s);
		struct strbuf where = STRBUF_INIT;
		job_source_line(v, &where);
		error("%s: 'cpuset' expected CPUs like 0-1 or 0,2, got '%s'", where.buf, s);
		strbuf_release(&where);
		return -1;
	}
	d->cpuset = s;
	return 0;
}

static int decode_measure(struct job_desc *d, const struct run_opts *opts)
{
	const struct job_value *v = job_lookup(d->job, "measure");
	const char *s = job_value_text(v);
	struct strbuf where = STRBUF_INIT;
	int ret = 0;

	if (!v)
		return 0;
	job_source_line(v, &where);
	if (!s || (strcmp(s, "time") && strcmp(s, "instructions")))
		ret = error("%s: 'measure' expected time or instructions, got '%s'", where.buf,
			    job_value_shown(v));
	else if ((d->measure_instructions = !strcmp(s, "instructions")) && opts->backend)
		ret = error("%s: 'measure: instructions' counts a benchmark on this machine; a "
			    "kernel under test counts instructions with --accel icount", where.buf);
	else if (d->measure_instructions && !program_in_path("valgrind"))
		ret = error("%s: 'measure: instructions' needs valgrind (Debian package valgrind), "
			    "not found in $PATH", where.buf);
	strbuf_release(&where);
	return ret;
}

static int decode_benchmark(struct job_desc *d, const struct run_opts *opts)
{
	struct runner_ctx ctx;
	struct strbuf why = STRBUF_INIT;
	const char *section;
	int r;

	if (opts->command) {
		d->command = opts->command;
		return 0;
	}
	d->shell_command = job_command(d->job, &section);
	/* a backend runs the job where the benchmark is: not built here */
	if (d->shell_command || opts->backend)
		return 0;
	runner_ctx_init(&ctx);
	r = runner_build_argv(d->job, &ctx, &d->bench_argv, &why);
	runner_ctx_release(&ctx);
	if (r < 0)
		error("%s", why.buf);
	else if (r > 0) {
		/* an lkp job names its benchmark (aim7: ...): say which one
		 * perfbot lacks, not that there is none */
		const char *key, *tc = job_testcase(d->job, &key);
		if (tc && job_lookup(d->job, tc))
			r = error("%s: no runner for benchmark '%s' (`perfbot install --list` "
				  "lists those perfbot has); give its command after -- or as "
				  "`mytest: {command: ...}`", d->where, tc);
		else
			r = error("%s: the job names no benchmark: add one (see `perfbot install --list`), "
				  "`mytest: {command: ...}`, or give a command after --", d->where);
	}
	strbuf_release(&why);
	return r;
}

int job_desc_decode(const struct job *job, const struct run_opts *opts,
		    struct job_desc *d)
{
	static const struct run_opts none;

	if (!opts)
		opts = &none;
	d->job = job;
	d->where = job->path ? job->path : "<job>";
	job_desc_keys(job, &d->keys);
	d->runner = runner_for_job(job);
	if (decode_testcase(d, opts) < 0 || decode_programs(d, opts) < 0 ||
	    decode_times(d, opts) < 0 ||
	    decode_result_path(d, opts) < 0 || decode_setup(d) < 0 ||
	    decode_monitors(d, opts) < 0 || decode_cpuset(d, opts) < 0 ||
	    decode_measure(d, opts) < 0 ||
	    decode_benchmark(d, opts) < 0)
		return -1;
	return 0;
}

void job_desc_release(struct job_desc *d)
{
	argv_list_release(&d->bench_argv);
	free(d->monitors);
	free(d->intervals);
	strbuf_release(&d->missing);
	strbuf_release(&d->setup_why);
	strbuf_release(&d->result_path);
	strbuf_release(&d->name);
	memset(d, 0, sizeof(*d));
	strbuf_init(&d->missing, 0);
	strbuf_init(&d->setup_why, 0);
	strbuf_init(&d->result_path, 0);
	strbuf_init(&d->name, 0);
}
