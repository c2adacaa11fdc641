/*
 * path_params.c: the names lkp gives to jobs and their results.
 *
 * path_params is the part of a result path (and of an atomic job's file
 * name) that spells out the job's parameters; the result root places it
 * among testcase, host, rootfs, kconfig, compiler and commit.  Both the
 * split stage (file names) and the run stage (where results go) call
 * these, so they must agree with each other and with lkp.
 */
#include "job/job.h"
#include "job/split.h"
#include "job/catalog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "job/lkp_programs.h"
#include "parse/parser.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/xalloc.h"

/*
 * lkp's setup programs that take their parameter as a scalar
 * (`fs: xfs`, `cpufreq_governor: performance`): workload programs whose
 * value goes into path_params and whose lists are dimensions.
 */
static const char *const setup_programs[] = {
	"fs", "fs2", "cpufreq_governor", "disk", "md", "iosched", "swap",
	"cgroup", "transparent_hugepage", "sched_setting", "cpuset",
	"numactl", "nfs", "smb", "pmem", "hugetlbfs",
	/* a mapping of options, which path_params spells as lkp does */
	"eatmem",
	NULL
};

/*
 * Option names that lkp's programs declare and jobs usually set at the top
 * level (`nr_threads: 100%`), with their type.  The wrapper options come
 * from lkp's bin/run-test header.
 */
static const struct { const char *name; char type; } top_options[] = {
	{ "nr_threads", '-' }, { "nr_task", '-' }, { "nr_process", '-' },
	{ "runtime", '-' }, { "iterations", '-' }, { "nr_instances", '-' },
	{ "cpu_node_bind", '-' }, { "mem_node_bind", '-' }, { "cluster", '-' },
	{ NULL, 0 }
};

/* lkp's EXPAND_DIMS with "commit" in the name: they suffix file names. */
static const char *const commit_dims[] = {
	"commit", "ltp_commit", "nvml_commit", "blktests_commit", "qemu_commit",
	"perf_test_commit", "linux_commit", NULL
};

static const char *const script_names[] = { "run", "setup", "daemon", NULL };

bool job_is_monitor(const char *name, struct job_catalog *cat)
{
	static const char *const monitor_scripts[] = { "monitor",
		"no-stdout-monitor", "one-shot-monitor", "plain-monitor", NULL };

	if (!job_catalog_active(cat))
		return job_monitor_find(name) != NULL;
	return job_catalog_has_script(cat, name, monitor_scripts);
}

bool job_is_workload_program(const char *name, struct job_catalog *cat)
{
	/* with an lkp catalog, as lkp: programs/<name>/{run,setup,daemon} */
	if (job_catalog_active(cat))
		return job_catalog_has_script(cat, name, script_names);
	for (const char *const *p = setup_programs; *p; p++)
		if (!strcmp(*p, name))
			return true;
	if (!job_monitor_find(name) && parser_find(name))
		return true;
	/* lkp's own programs with a run, daemon or setup script */
	{
		const struct lkp_program *lp = lkp_program_find(name);
		if (lp && strchr("rds", lp->kind))
			return true;
	}
	return false;
}

bool job_programs_has_program(const struct job_programs *p, const char *name)
{
	for (size_t i = 0; i < p->nr_programs; i++)
		if (!strcmp(p->programs[i], name))
			return true;
	return false;
}

char job_programs_option(const struct job_programs *p, const char *name)
{
	for (size_t i = 0; i < p->nr_options; i++)
		if (!strcmp(p->options[i].name, name))
			return p->options[i].type;
	return 0;
}

static void add_option(struct job_programs *p, const char *name, char type)
{
	for (size_t i = 0; i < p->nr_options; i++)
		if (!strcmp(p->options[i].name, name)) {
			if (type == '=')
				p->options[i].type = '=';
			return;
		}
	ALLOC_GROW(p->options, p->nr_options + 1, p->alloc_options);
	p->options[p->nr_options].name = xstrdup(name);
	p->options[p->nr_options].type = type;
	p->nr_options++;
}

/* The options an lkp program script declares (catalog.h). */
static void read_script_options(struct job_programs *p, struct job_catalog *cat,
				const char *path)
{
	size_t nr;
	const struct job_option *o = job_catalog_script_options(cat, path, &nr);

	for (size_t i = 0; i < nr; i++)
		add_option(p, o[i].name, o[i].type);
}

static void add_program(struct job_programs *p, const char *name,
			const struct job_value *val, struct job_catalog *cat)
{
	struct strbuf dir = STRBUF_INIT, f = STRBUF_INIT;

	if (job_programs_has_program(p, name))
		return;
	ALLOC_GROW(p->programs, p->nr_programs + 1, p->alloc_programs);
	p->programs[p->nr_programs++] = xstrdup(name);
	if (job_catalog_program_dir(cat, name, &dir)) {
		/*
		 * lkp reads one script's options: its program table merges
		 * setup, then run, then daemon scripts, so the last one wins
		 * (programs/oltp/setup's "# - nr_threads" is no option when
		 * programs/oltp/run is there too).  Without a catalog, every
		 * script perfbot's own programs have.
		 */
		static const char *const lkp_order[] = { "daemon", "run", "setup", NULL };
		bool one = false;
		for (const char *const *s = lkp_order; *s && !one; s++) {
			mode_t m;
			strbuf_reset(&f);
			strbuf_addf(&f, "%s/%s", dir.buf, *s);
			m = job_catalog_mode(cat, f.buf);
			if ((one = S_ISREG(m) && (m & 0111)))
				read_script_options(p, cat, f.buf);
		}
		for (const char *const *s = script_names; *s && !one; s++) {
			strbuf_reset(&f);
			strbuf_addf(&f, "%s/%s", dir.buf, *s);
			read_script_options(p, cat, f.buf);
		}
	}
	/* without a catalog, the options lkp's program declares ... */
	const struct lkp_program *lp = dir.len ? NULL : lkp_program_find(name);
	if (lp) {
		const char *o = lp->options;
		while (*o) {
			size_t len = strcspn(o, " ");
			char *opt = xstrndup(o + (*o == '='), len - (*o == '='));
			add_option(p, opt, *o == '=' ? '=' : '-');
			free(opt);
			o += len + (o[len] == ' ');
		}
	}
	/* ... and perfbot's benchmarks declare none: every key of theirs is one */
	if (!dir.len) {
		const struct job_value *maps[64];
		size_t n = 0;
		if (val && val->kind == JOB_MAP)
			maps[n++] = val;
		else if (val && val->kind == JOB_SEQ)
			for (size_t i = 0; i < val->nr && n < 64; i++)
				if (val->item[i]->kind == JOB_MAP)
					maps[n++] = val->item[i];
		for (size_t m = 0; m < n; m++)
			for (size_t i = 0; i < maps[m]->nr; i++)
				if (!maps[m]->ent[i].comment)
					add_option(p, maps[m]->ent[i].key, '-');
	}
	strbuf_release(&dir);
	strbuf_release(&f);
}

static void find_programs(struct job_programs *p, const struct job_value *map,
			  struct job_catalog *cat)
{
	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		if (e->comment)
			continue;
		if (job_is_workload_program(e->key, cat))
			add_program(p, e->key, e->val, cat);
		if (e->val->kind == JOB_MAP)
			find_programs(p, e->val, cat);
	}
}

void job_programs_init(struct job_programs *p, const struct job_value *root,
		       struct job_catalog *cat)
{
	memset(p, 0, sizeof(*p));
	if (!job_catalog_active(cat)) {
		for (size_t i = 0; top_options[i].name; i++)
			add_option(p, top_options[i].name, top_options[i].type);
	} else {
		/* lkp: cluster, and the options of its run-test and
		 * run-daemon wrappers (bin/, else their known header) */
		static const char *const wrappers[] = { "bin/run-test", "bin/run-daemon", NULL };
		struct strbuf f = STRBUF_INIT;
		bool found = false;

		add_option(p, "cluster", '-');
		for (const char *const *d = cat->dirs; *d; d++)
			for (const char *const *w = wrappers; *w; w++) {
				strbuf_reset(&f);
				strbuf_addf(&f, "%s/%s", *d, *w);
				if (job_catalog_mode(cat, f.buf)) {
					read_script_options(p, cat, f.buf);
					found = true;
				}
			}
		strbuf_release(&f);
		if (!found) {
			add_option(p, "nr_instances", '-');
			add_option(p, "cpu_node_bind", '-');
			add_option(p, "mem_node_bind", '-');
		}
	}
	find_programs(p, root, cat);
	/* a section that holds a command is a benchmark as mytest is
	 * (job_command): its other keys are options too */
	for (size_t i = 0; i < root->nr; i++) {
		const struct job_entry *e = &root->ent[i];
		if (!e->comment && e->val->kind == JOB_MAP && job_map_get(e->val, "command") &&
		    !job_monitor_find(e->key))
			add_program(p, e->key, e->val, cat);
	}
}

void job_programs_release(struct job_programs *p)
{
	for (size_t i = 0; i < p->nr_programs; i++)
		free(p->programs[i]);
	for (size_t i = 0; i < p->nr_options; i++)
		free(p->options[i].name);
	free(p->programs);
	free(p->options);
	memset(p, 0, sizeof(*p));
}

struct param {
	const char *key;
	const struct job_value *val;
	char type;
};

/* lkp's each_param: keys at any depth that are programs or options,
 * except those inside a monitor's options and mapping values. */
static void collect_params(const struct job_programs *p, const struct job_value *map,
			   const char *parent, struct job_catalog *cat, const char *no_command,
			   struct param **out, size_t *nr, size_t *alloc)
{
	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		char type;

		if (e->comment)
			continue;
		if (no_command && parent && !strcmp(parent, no_command) &&
		    !strcmp(e->key, "command"))
			continue;
		type = job_programs_option(p, e->key);
		if ((type || job_programs_has_program(p, e->key)) &&
		    e->val->kind != JOB_MAP && !(parent && job_is_monitor(parent, cat))) {
			ALLOC_GROW(*out, *nr + 1, *alloc);
			(*out)[*nr].key = e->key;
			(*out)[*nr].val = e->val;
			(*out)[*nr].type = type;
			(*nr)++;
		}
		if (e->val->kind == JOB_MAP)
			collect_params(p, e->val, e->key, cat, no_command, out, nr, alloc);
	}
}

static int cmp_param(const void *a, const void *b)
{
	const struct param *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	/* stable for equal keys: keep job order */
	if (c)
		return c;
	return x < y ? -1 : x > y;
}

/* Ruby's to_s of a value, for path_params. */
static void value_to_s(const struct job_value *v, struct strbuf *sb)
{
	if (v->kind == JOB_SCALAR && v->named) {
		strbuf_addstr(sb, v->named);
	} else if (v->kind == JOB_SCALAR) {
		job_scalar_to_s(v, sb);
	} else if (v->kind == JOB_SEQ) {
		/* Array#to_s: ["a", "b"] */
		strbuf_addch(sb, '[');
		for (size_t i = 0; i < v->nr; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			if (v->item[i]->kind == JOB_SCALAR && v->item[i]->type == JOB_STR)
				strbuf_addf(sb, "\"%s\"", v->item[i]->text);
			else if (v->item[i]->kind == JOB_NULL)
				strbuf_addstr(sb, "nil");
			else
				value_to_s(v->item[i], sb);
		}
		strbuf_addch(sb, ']');
	}
}

/* Add at most 31 characters of s (Ruby's s[0..30]; characters, not bytes). */
static void add_cut(struct strbuf *sb, const char *s)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xc0) != 0x80 && n++ == 31)
			break;
		strbuf_addch(sb, (char)*p);
	}
}

/*
 * path_params, or with name (a mytest job's result path) the name first,
 * and with no_command the command of that section left out.
 */
static void path_params(const struct job *job, struct job_catalog *cat,
			const char *name, const char *no_command, struct strbuf *sb)
{
	struct job_programs p;
	struct param *params = NULL;
	size_t nr = 0, alloc = 0;
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT;

	if (name) {
		strbuf_addstr(&path, name);
		strbuf_addch(&path, '-');
	}
	job_programs_init(&p, job->root, cat);
	collect_params(&p, job->root, NULL, cat, no_command, &params, &nr, &alloc);
	if (nr)
		qsort(params, nr, sizeof(*params), cmp_param);
	for (size_t i = 0; i < nr; i++) {
		const struct job_value *v = params[i].val;

		strbuf_reset(&val);
		value_to_s(v, &val);
		if (params[i].type == '=') {
			if (v->kind != JOB_NULL && val.len) {
				strbuf_addf(&path, "%s=", params[i].key);
				add_cut(&path, val.buf);
			} else {
				strbuf_addstr(&path, params[i].key);
			}
			strbuf_addch(&path, '-');
			continue;
		}
		/* nil and false are skipped, as Ruby's `next unless v` */
		if (v->kind == JOB_NULL ||
		    (v->kind == JOB_SCALAR && v->type == JOB_BOOL &&
		     !strcmp(val.buf, "false")))
			continue;
		add_cut(&path, val.buf);
		strbuf_addch(&path, '-');
	}
	if (!path.len) {
		strbuf_addstr(sb, "defaults");
	} else {
		strbuf_setlen(&path, path.len - 1);
		for (size_t i = 0; i < path.len; i++) {
			unsigned char c = (unsigned char)path.buf[i];
			if (!(c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == '+' || c == '=' || c == ':' ||
			      c == '.' || c == '%'))
				path.buf[i] = '_';
		}
		strbuf_add(sb, path.buf, path.len);
	}
	free(params);
	strbuf_release(&path);
	strbuf_release(&val);
	job_programs_release(&p);
}

void job_path_params(const struct job *job, const char *const *include_dirs,
		     struct strbuf *sb)
{
	struct job_catalog cat;

	job_catalog_init(&cat, include_dirs);
	path_params(job, &cat, NULL, NULL, sb);
	job_catalog_release(&cat);
}

const char *job_testcase(const struct job *job, const char **key)
{
	const char *testcase = job_get(job, *key = "testcase");
	size_t pos = 0;
	const struct job_entry *e;

	if (!testcase)
		testcase = job_get(job, *key = "suite");
	while (!testcase && (e = job_next(job, &pos)))
		if (!job_monitor_find(e->key) && parser_find(e->key))
			testcase = *key = e->key;
	if (!testcase && job_command(job, key))
		testcase = *key;
	return testcase;
}

/* A section holding a benchmark's command line: a mapping with `command:`. */
static const char *section_command(const struct job *job, const char *key)
{
	if (!key || job_monitor_find(key))
		return NULL;
	return job_program_option(job, key, "command");
}

const char *job_command(const struct job *job, const char **section)
{
	const char *tc = job_get(job, "testcase"), *cmd;
	size_t pos = 0;
	const struct job_entry *e;

	if ((cmd = section_command(job, *section = "mytest")))
		return cmd;
	if (tc)
		return (cmd = section_command(job, *section = tc)) ? cmd : NULL;
	/* no testcase: a section of the benchmark's own name, as lkp's are */
	while ((e = job_next(job, &pos)))
		if (e->val->kind == JOB_MAP && !parser_find(e->key) &&
		    (cmd = section_command(job, *section = e->key)))
			return cmd;
	return NULL;
}

int job_mytest_name(const struct job *job, struct strbuf *sb)
{
	const struct job_value *v = job_lookup(job, "name");
	const char *base;
	size_t len;

	if (v && v->kind == JOB_SCALAR && v->type == JOB_STR && *v->text) {
		strbuf_addstr(sb, v->text);
		return 1;
	}
	/* only a command of the job's own: a result's job.yaml ("job") or
	 * one whose command came from the command line names nothing */
	if (!job->path || !job_program_option(job, "mytest", "command"))
		return 0;
	base = strrchr(job->path, '/');
	base = base ? base + 1 : job->path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".yaml"))
		len -= 5;
	else if (len > 4 && !strcmp(base + len - 4, ".yml"))
		len -= 4;
	strbuf_add(sb, base, len);
	return 1;
}

void job_result_params(const struct job *job, struct strbuf *sb)
{
	const char *key, *testcase = job_testcase(job, &key), *section;
	struct strbuf name = STRBUF_INIT;
	struct job_catalog cat;

	if (!job_command(job, &section))
		section = NULL;
	job_catalog_init(&cat, NULL);
	if (!testcase || strcmp(testcase, "mytest")) {
		path_params(job, &cat, NULL, section, sb);
	} else {
		job_mytest_name(job, &name);
		path_params(job, &cat, name.len ? name.buf : NULL, section, sb);
	}
	job_catalog_release(&cat);
	strbuf_release(&name);
}

void job_tbox_group(const char *testbox, struct strbuf *sb)
{
	size_t len = strlen(testbox), i = len;
	struct strbuf t = STRBUF_INIT;
	const char *p;

	/* /.+-\d+$/: strip the trailing -N, then the first -N- becomes - */
	while (i > 0 && testbox[i - 1] >= '0' && testbox[i - 1] <= '9')
		i--;
	if (i == len || i < 2 || testbox[i - 1] != '-') {
		strbuf_addstr(sb, testbox);
		return;
	}
	strbuf_add(&t, testbox, i - 1);
	for (p = t.buf; (p = strchr(p, '-')); p++) {
		const char *q = p + 1;
		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p + 1 && *q == '-') {
			strbuf_add(sb, t.buf, (size_t)(p - t.buf));
			strbuf_addstr(sb, q);
			strbuf_release(&t);
			return;
		}
	}
	strbuf_add(sb, t.buf, t.len);
	strbuf_release(&t);
}

/* lkp's rootfs_filename: the last run of [a-zA-Z0-9._-]. */
static void rootfs_filename(const char *rootfs, struct strbuf *sb)
{
	const char *start = rootfs;
	for (const char *p = rootfs; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			start = p + 1;
	}
	strbuf_addstr(sb, start);
}

static void os_release_field(const char *field, struct strbuf *sb)
{
	struct strbuf f = STRBUF_INIT;
	size_t fl = strlen(field);

	if (!file_exists("/etc/os-release") || read_file(&f, "/etc/os-release") < 0) {
		strbuf_release(&f);
		return;
	}
	for (const char *p = f.buf; *p;) {
		const char *nl = strchrnul(p, '\n');
		if (!strncmp(p, field, fl) && p[fl] == '=') {
			const char *v = p + fl + 1;
			for (; v < nl; v++)
				if (*v != '"' && *v != '\'')
					strbuf_addch(sb, *v);
			break;
		}
		p = *nl ? nl + 1 : nl;
	}
	strbuf_release(&f);
}

/*
 * Append part as the next folder of sb, after checking that it is one
 * safe component (util/pathsafe.h); what names its origin in the message
 * ("job.yaml:3:9: 'commit'", "--commit", "the host name").  0 or -1.
 */
static int add_dir(struct strbuf *sb, const char *part, const char *what)
{
	if (check_path_component(part, what) < 0)
		return -1;
	if (sb->len && sb->buf[sb->len - 1] != '/')
		strbuf_addch(sb, '/');
	strbuf_addstr(sb, part);
	return 0;
}

/* "FILE:LINE:COL: 'key'" for messages about key's value. */
static void key_where(const struct job *job, const char *key, struct strbuf *sb)
{
	strbuf_reset(sb);
	job_source_line(job_lookup(job, key), sb);
	strbuf_addf(sb, ": '%s'", key);
}

/* The major version after p: "12.2.0" gives 12; 0 when none. */
static int major_version(const char *p)
{
	int n = 0;

	while (*p >= '0' && *p <= '9' && n < 1000)
		n = n * 10 + (*p++ - '0');
	return n;
}

int job_kernel_compiler(const char *banner, struct strbuf *sb)
{
	const char *p, *end;
	int major = 0;

	if ((p = strstr(banner, "clang version "))) {
		major = major_version(p + strlen("clang version "));
		if (major)
			strbuf_addf(sb, "clang-%d", major);
		return major > 0;
	}
	if ((p = strstr(banner, "gcc version "))) {
		major = major_version(p + strlen("gcc version "));
	} else if ((p = strstr(banner, "(gcc"))) {
		/* "(gcc (Debian 12.2.0-14) 12.2.0, GNU ld ...)": the version is
		 * the last word before the linker's part */
		end = strstr(p, ", ");
		if (!end)
			end = p + strlen(p);
		for (const char *q = p; q < end; q++)
			if (*q == ' ' && q[1] >= '0' && q[1] <= '9')
				major = major_version(q + 1);
	}
	if (major)
		strbuf_addf(sb, "gcc-%d", major);
	return major > 0;
}

int job_result_root(const struct job *job, const char *base_dir,
		    const char *commit, struct strbuf *sb)
{
	const char *tc_key, *testcase = job_testcase(job, &tc_key);
	const char *v;
	struct strbuf part = STRBUF_INIT, host = STRBUF_INIT, what = STRBUF_INIT;
	struct utsname u;
	bool have_uname = uname(&u) == 0;
	const char *arch = job_get(job, "arch");
	int ret = -1;

	if (!arch)
		arch = have_uname ? u.machine : "x86_64";
	if (!testcase) {
		return error("%s: expected a 'testcase' (or a benchmark key) to name the result root",
			     job->path ? job->path : "<job>");
	}
	strbuf_addstr(sb, base_dir);
	key_where(job, tc_key, &what);
	if (add_dir(sb, testcase, what.buf) < 0)
		goto out;
	job_result_params(job, &part);
	strbuf_reset(&what);
	strbuf_addf(&what, "%s: the parameters' part of the result path",
		    job->path ? job->path : "<job>");
	if (add_dir(sb, part.buf, what.buf) < 0)
		goto out;

	strbuf_reset(&part);
	if ((v = job_get(job, "tbox_group"))) {
		strbuf_addstr(&part, v);
		key_where(job, "tbox_group", &what);
	} else {
		if ((v = job_get(job, "testbox"))) {
			strbuf_addstr(&host, v);
			key_where(job, "testbox", &what);
		} else {
			char name[256] = "localhost";
			const char *env = getenv("HOSTNAME");
			if (env && *env)
				snprintf(name, sizeof(name), "%s", env);
			else if (gethostname(name, sizeof(name) - 1) < 0)
				strcpy(name, "localhost");
			name[sizeof(name) - 1] = 0;
			strbuf_addstr(&host, name);
			strbuf_reset(&what);
			strbuf_addstr(&what, "the host name");
		}
		job_tbox_group(host.buf, &part);
	}
	if (add_dir(sb, part.buf, what.buf) < 0)
		goto out;

	strbuf_reset(&part);
	if ((v = job_get(job, "rootfs"))) {
		rootfs_filename(v, &part);
		key_where(job, "rootfs", &what);
	} else {
		struct strbuf id = STRBUF_INIT, ver = STRBUF_INIT;
		os_release_field("ID", &id);
		os_release_field("VERSION_ID", &ver);
		if (id.len)
			strbuf_addf(&part, "%s%s%s-%s", id.buf, ver.len ? "-" : "",
				    ver.buf, arch);
		else
			strbuf_addstr(&part, "local");
		strbuf_release(&id);
		strbuf_release(&ver);
		strbuf_reset(&what);
		strbuf_addstr(&what, "/etc/os-release");
	}
	if (add_dir(sb, part.buf, what.buf) < 0)
		goto out;

	strbuf_reset(&part);
	if ((v = job_get(job, "kconfig"))) {
		strbuf_addstr(&part, v);
		key_where(job, "kconfig", &what);
	} else {
		strbuf_addf(&part, "%s-local", arch);
		key_where(job, "arch", &what);
	}
	if (add_dir(sb, part.buf, what.buf) < 0)
		goto out;

	strbuf_reset(&part);
	if ((v = job_get(job, "compiler"))) {
		strbuf_addstr(&part, v);
		key_where(job, "compiler", &what);
	} else {
		/* lkp's compiler is the one that built the kernel under test:
		 * a local run's is the running kernel's */
		const char *proc = getenv("PERFBOT_PROC_DIR");
		struct strbuf banner = STRBUF_INIT;
		strbuf_reset(&what);
		strbuf_addf(&what, "%s/version", proc && *proc ? proc : "/proc");
		if (read_file_quiet(&banner, what.buf, 4096) < 0 ||
		    !job_kernel_compiler(banner.buf, &part))
			strbuf_addstr(&part, "gcc");
		strbuf_addstr(&what, "'s compiler");
		strbuf_release(&banner);
	}
	if (add_dir(sb, part.buf, what.buf) < 0)
		goto out;

	if (commit) {
		strbuf_reset(&what);
		strbuf_addstr(&what, "--commit");
	} else if ((commit = job_get(job, "commit"))) {
		key_where(job, "commit", &what);
	} else {
		commit = have_uname ? u.release : "unknown";
		strbuf_reset(&what);
		strbuf_addstr(&what, "the kernel release (uname -r)");
	}
	if (add_dir(sb, commit, what.buf) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&part);
	strbuf_release(&host);
	strbuf_release(&what);
	return ret;
}

int job_atom_name(const struct job *atom, const char *prefix,
		  struct job_catalog *catalog, struct strbuf *sb)
{
	struct strbuf what = STRBUF_INIT, part = STRBUF_INIT;
	struct job_catalog own;
	const char *v;
	int ret = -1;

	if (!catalog)
		job_catalog_init(catalog = &own, NULL);
	strbuf_addf(sb, "%s-", prefix);
	path_params(atom, catalog, NULL, NULL, sb);
	/* each value is checked alone: "-" joins them, so "a-.." is one
	 * harmless name, but a '/' in any of them leaves the output folder */
	for (const char *const *d = commit_dims; *d; d++)
		if ((v = job_get(atom, *d))) {
			key_where(atom, *d, &what);
			if (check_path_component(v, what.buf) < 0)
				goto out;
			strbuf_addf(sb, "-%s", v);
		}
	if ((v = job_get(atom, "rootfs"))) {
		rootfs_filename(v, &part);
		key_where(atom, "rootfs", &what);
		if (check_path_component(part.buf, what.buf) < 0)
			goto out;
		strbuf_addf(sb, "-%s", part.buf);
	}
	strbuf_addstr(sb, ".yaml");
	ret = 0;
out:
	if (catalog == &own)
		job_catalog_release(&own);
	strbuf_release(&what);
	strbuf_release(&part);
	return ret;
}
