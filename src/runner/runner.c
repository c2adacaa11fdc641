/*
 * runner.c: the registry of benchmark runners (job/runners.h) and what they
 * share: argv lists, reading a job's options with lkp's names and units,
 * the bench dir, availability checks and the table-driven output adapter.
 * See runner.h for the model.
 */
#include "runner/runner.h"
#include "stats/lkp_tables.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/exedir.h"
#include "util/fileio.h"
#include "util/quote.h"
#include "util/rx.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define RUNNER(ident, name) extern const struct runner runner_##ident;
#include "job/runners.h"
#undef RUNNER

static const struct runner *const runners[] = {
#define RUNNER(ident, name) &runner_##ident,
#include "job/runners.h"
#undef RUNNER
	NULL
};

const struct runner *const *runner_all(void)
{
	return runners;
}

const struct runner *runner_find(const char *name)
{
	for (const struct runner *const *r = runners; *r; r++)
		if (!strcmp((*r)->name, name))
			return *r;
	return NULL;
}

/* ---- argv lists ----------------------------------------------------- */

void argv_list_push(struct argv_list *a, const char *s)
{
	ALLOC_GROW(a->v, a->nr + 2, a->alloc);
	a->v[a->nr++] = xstrdup(s);
	a->v[a->nr] = NULL;
}

void argv_list_pushf(struct argv_list *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	argv_list_push(a, sb.buf);
	strbuf_release(&sb);
}

void argv_list_release(struct argv_list *a)
{
	for (size_t i = 0; i < a->nr; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->nr = a->alloc = 0;
}

/* Characters that need no quoting in a POSIX shell word. */
static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_./:=,+%@{}", *s))
			return false;
	return true;
}

void argv_list_to_shell(const struct argv_list *a, struct strbuf *sb)
{
	for (size_t i = 0; i < a->nr; i++) {
		const char *s = a->v[i];

		if (i)
			strbuf_addch(sb, ' ');
		if (shell_safe(s))
			strbuf_addstr(sb, s);
		else
			shell_quote(sb, s);
	}
}

/* ---- context ---------------------------------------------------------- */

void runner_default_bin_dir(struct strbuf *sb)
{
	exe_sibling_dir(sb, "PERFBOT_BENCH_DIR", "bin", "bench-harness");
}

/* MemAvailable in bytes, 0 when /proc/meminfo does not say. */
static unsigned long long meminfo_avail(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

void runner_ctx_init(struct runner_ctx *ctx)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	strbuf_init(&ctx->own, 0);
	runner_default_bin_dir(&ctx->own);
	ctx->bin_dir = ctx->own.buf;
	ctx->nr_cpu = n > 0 ? n : 1;
	ctx->mem_avail = meminfo_avail();
}

void runner_ctx_release(struct runner_ctx *ctx)
{
	strbuf_release(&ctx->own);
	ctx->bin_dir = NULL;
}

/* ---- which runner ------------------------------------------------------ */

const struct runner *runner_for_job(const struct job *job)
{
	/* a key, not run/desc.h: the decoder asks this (runner sits below run) */
	const char *testcase = job_get(job, "testcase");
	const struct job_entry *e;
	size_t pos = 0;

	if (testcase && runner_find(testcase))
		return runner_find(testcase);
	while ((e = job_next(job, &pos))) {
		const struct runner *r = runner_find(e->key);
		if (r)
			return r;
	}
	return NULL;
}

/* Is prog an executable in $PATH (or a path that is)? */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	struct strbuf p = STRBUF_INIT;
	bool found = false;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path && !found) {
		const char *colon = strchrnul(path, ':');
		strbuf_reset(&p);
		if (colon == path)
			strbuf_addch(&p, '.');
		else
			strbuf_add(&p, path, (size_t)(colon - path));
		strbuf_addf(&p, "/%s", prog);
		found = access(p.buf, X_OK) == 0;
		path = *colon ? colon + 1 : colon;
	}
	strbuf_release(&p);
	return found;
}

bool runner_available(const struct runner *r, const struct runner_ctx *ctx, struct strbuf *why)
{
	struct strbuf tmp = STRBUF_INIT;
	bool ok = true;

	if (!why)
		why = &tmp;
	if (r->unimplemented_reason) {
		strbuf_addf(why, "%s: not available here: %s", r->name, r->unimplemented_reason);
		ok = false;
	}
	for (const char *const *p = r->programs; ok && p && *p; p++) {
		if (in_path(*p))
			continue;
		strbuf_addf(why, "%s: '%s' not found in $PATH (Debian package %s): "
			    "run `perfbot install JOB`", r->name, *p, r->packages);
		ok = false;
	}
	const char *need[] = { r->builtin, r->harness ? "bench-harness" : NULL };
	for (size_t i = 0; ok && i < 2; i++) {
		if (need[i]) {
			struct strbuf p = STRBUF_INIT;
			path_join(&p, ctx->bin_dir, need[i]);
			if (access(p.buf, X_OK)) {
				strbuf_addf(why, "%s: '%s' not found: build it with `make` "
					    "(or set PERFBOT_BENCH_DIR)", r->name, p.buf);
				ok = false;
			}
			strbuf_release(&p);
		}
	}
	strbuf_release(&tmp);
	return ok;
}

const char *runner_packages(const struct runner *r)
{
	return r->packages ? r->packages : "";
}

/* ---- options ----------------------------------------------------------- */

/* The option's value node: under the program's mapping, else top level. */
static const struct job_value *opt_value(const struct runner_job *rj, const char *key)
{
	const struct job_value *prog = job_lookup(rj->job, rj->r->name);
	const struct job_value *v = job_map_get(prog, key);

	return v ? v : job_lookup(rj->job, key);
}

const char *runner_opt(const struct runner_job *rj, const char *key)
{
	return job_value_text(opt_value(rj, key));
}

int runner_bad_opt(const struct runner_job *rj, const char *key, const char *what,
		   struct strbuf *why)
{
	const struct job_value *v = opt_value(rj, key);
	const char *text = job_value_shown(v);

	job_source_line(v, why);
	strbuf_addf(why, ": %s: '%s' expected %s, got '%s'", rj->r->name, key, what,
		    text ? text : "(not a scalar)");
	return -1;
}

int runner_opt_clients(const struct runner_job *rj, long long *nr, double *runtime,
		       struct strbuf *why)
{
	if (runner_opt_int(rj, "nr_threads", rj->ctx->nr_cpu, nr, why) < 0 ||
	    runner_opt_seconds(rj, "runtime", 600, runtime, why) < 0)
		return -1;
	if (*nr < 1)
		return runner_bad_opt(rj, "nr_threads", "at least 1 client", why);
	if (*runtime < 1)
		return runner_bad_opt(rj, "runtime", "at least 1 s", why);
	return 0;
}

int runner_opt_int(const struct runner_job *rj, const char *key, long long def,
		   long long *out, struct strbuf *why)
{
	const char *s = runner_opt(rj, key);

	*out = def;
	if (!s)
		return 0;
	if (job_percent_of_cpus(s, rj->ctx->nr_cpu, out) < 0)
		return runner_bad_opt(rj, key, "an integer or N%", why);
	return 0;
}

int runner_opt_seconds(const struct runner_job *rj, const char *key, double def,
		       double *out, struct strbuf *why)
{
	const char *s = runner_opt(rj, key);

	*out = def;
	if (!s)
		return 0;
	*out = parse_duration(s);
	if (*out < 0)
		return runner_bad_opt(rj, key, "a duration (300, 300s, 5m)", why);
	return 0;
}

long long runner_parse_bytes(const char *s)
{
	static const char units[] = "kmgt";
	char *end;
	long long v, mult = 1;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno || v < 0)
		return -1;
	if (*end) {
		const char *u = strchr(units, tolower((unsigned char)*end));
		if (!u)
			return -1;
		for (const char *p = units; p <= u; p++)
			mult *= 1024;
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "b") || !strcmp(end, "B"))
			end += strlen(end);
		if (*end)
			return -1;
	}
	if (v > LLONG_MAX / mult)
		return -1;
	return v * mult;
}

int runner_opt_bytes(const struct runner_job *rj, const char *key, long long def,
		     long long *out, struct strbuf *why)
{
	const char *s = runner_opt(rj, key);

	*out = def;
	if (!s)
		return 0;
	*out = runner_parse_bytes(s);
	if (*out < 0)
		return runner_bad_opt(rj, key, "a size (4k, 512m, 1G)", why);
	return 0;
}

int runner_opt_bool(const struct runner_job *rj, const char *key, bool def,
		    bool *out, struct strbuf *why)
{
	static const char *const yes[] = { "1", "y", "yes", "true", "on", NULL };
	static const char *const no[] = { "0", "n", "no", "false", "off", NULL };
	const char *s = runner_opt(rj, key);

	*out = def;
	if (!s)
		return 0;
	/* lkp jobs write flags as `shared: shared` */
	if (!strcmp(s, key)) {
		*out = true;
		return 0;
	}
	for (int i = 0; yes[i]; i++)
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
	for (int i = 0; no[i]; i++)
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	return runner_bad_opt(rj, key, "a boolean (yes, no)", why);
}

int runner_opt_choice(const struct runner_job *rj, const char *key, const char *def,
		      const char *const *choices, const char **out, struct strbuf *why)
{
	const char *s = runner_opt(rj, key);
	struct strbuf what = STRBUF_INIT;
	int ret;

	*out = def;
	if (!s)
		return 0;
	for (const char *const *c = choices; *c; c++)
		if (!strcmp(s, *c)) {
			*out = *c;
			return 0;
		}
	strbuf_addstr(&what, "one of ");
	for (const char *const *c = choices; *c; c++)
		strbuf_addf(&what, "%s%s", c == choices ? "" : ", ", *c);
	ret = runner_bad_opt(rj, key, what.buf, why);
	strbuf_release(&what);
	return ret;
}

/* Every option under the program's key must be one r reads. */
static int check_options(const struct runner_job *rj, struct strbuf *why)
{
	const struct job_value *prog = job_lookup(rj->job, rj->r->name);

	if (!prog || prog->kind != JOB_MAP)
		return 0;
	for (size_t i = 0; i < prog->nr; i++) {
		const struct job_entry *e = &prog->ent[i];
		bool known = false;

		if (e->comment)
			continue;
		for (const char *const *o = rj->r->options; o && *o && !known; o++)
			known = !strcmp(*o, e->key);
		if (!known) {
			job_entry_where(e, why);
			strbuf_addf(why, ": %s has no option '%s' (expected one of:", rj->r->name,
				    job_key_shown(e));
			for (const char *const *o = rj->r->options; o && *o; o++)
				strbuf_addf(why, " %s", *o);
			strbuf_addch(why, ')');
			return -1;
		}
		if (e->val->kind == JOB_SEQ || e->val->kind == JOB_MAP) {
			job_entry_where(e, why);
			strbuf_addf(why, ": %s: '%s' expected a scalar (split the job first: "
				    "perfbot run does)", rj->r->name, job_key_shown(e));
			return -1;
		}
	}
	return 0;
}

int runner_command(const struct runner *r, const struct job *job,
		   const struct runner_ctx *ctx, struct argv_list *out, struct strbuf *why)
{
	struct runner_job rj = { job, r, ctx };

	if (check_options(&rj, why) < 0)
		return -1;
	return r->build(&rj, out, why);
}

int runner_build_argv(const struct job *job, const struct runner_ctx *ctx,
		      struct argv_list *out, struct strbuf *why)
{
	const struct runner *r = runner_for_job(job);
	struct argv_list tmp = ARGV_LIST_INIT;

	if (!r)
		return 1;
	if (!runner_available(r, ctx, why))
		return -1;
	if (runner_command(r, job, ctx, &tmp, why) < 0) {
		argv_list_release(&tmp);
		return -1;
	}
	for (size_t i = 0; i < tmp.nr; i++)
		argv_list_push(out, tmp.v[i]);
	argv_list_release(&tmp);
	return 0;
}

int runner_kpi_direction(const char *stat)
{
	int d = lkp_kpi_direction(stat);

	if (d)
		return d;
	for (const struct runner *const *r = runners; *r; r++)
		for (const struct runner_kpi *k = (*r)->kpis; k && k->stat; k++)
			if (!strcmp(k->stat, stat))
				return k->direction;
	return 0;
}

void runner_harness(const struct runner_job *rj, struct argv_list *argv)
{
	struct strbuf p = STRBUF_INIT;

	path_join(&p, rj->ctx->bin_dir, "bench-harness");
	argv_list_push(argv, p.buf);
	strbuf_release(&p);
}

/* ---- adapters ---------------------------------------------------------- */

int runner_adapt_metrics(const struct runner_metric *table, const char *raw, size_t len,
			 struct strbuf *out, struct strbuf *why)
{
	size_t n = 0, start = out->len;
	struct rx *re;
	struct strbuf line = STRBUF_INIT;

	while (table[n].pattern)
		n++;
	re = xcalloc(n ? n : 1, sizeof(*re));
	for (size_t i = 0; i < n; i++) {
		const char *bad;
		if (rx_compile(&re[i], table[i].pattern, &bad) < 0)
			die("bad adapter pattern '%s': %s", table[i].pattern, bad);
	}
	for (const char *p = raw, *end = raw + len; p < end;) {
		const char *nl = p;
		struct rx_sub m[2];

		/* progress lines end in '\r': split there too */
		while (nl < end && *nl != '\n' && *nl != '\r')
			nl++;
		strbuf_reset(&line);
		strbuf_add(&line, p, (size_t)(nl - p));
		p = nl < end ? nl + 1 : end;
		for (size_t i = 0; i < n; i++) {
			if (!rx_exec(&re[i], line.buf, m, 2) || m[1].so < 0)
				continue;
			strbuf_addf(out, "%s: %.*s\n", table[i].name,
				    (int)(m[1].eo - m[1].so), line.buf + m[1].so);
			break;
		}
	}
	for (size_t i = 0; i < n; i++)
		rx_release(&re[i]);
	free(re);
	strbuf_release(&line);
	if (out->len == start) {
		strbuf_addstr(why, "no known result line in the output (expected e.g. '");
		strbuf_addstr(why, n ? table[0].pattern : "");
		strbuf_addstr(why, "')");
		return -1;
	}
	return 0;
}
