/*
 * keys.c: the top-level keys lkp jobs may have, the monitors perfbot
 * knows, and the check that loading runs on each document.
 */
#include "job/job.h"
#include "job/catalog.h"
#include "job/job_src.h"
#include "job/lkp_programs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libfyaml.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fileio.h"
#include "job/bench_names.h"
#include "parse/parser.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ */
/* declared tables */

/*
 * Top-level keys of lkp jobs that perfbot reads, with the shape each
 * may take.  KS_SCALAR keys name one thing; KS_DIM keys may also be a
 * list, which split-job expands; KS_PROG keys are lkp setup programs,
 * whose value may also be their options (`fs: {fs: ext4, format: n}`),
 * which perfbot run refuses rather than split-job; KS_ANY keys are
 * free-form.
 */
enum key_shape { KS_SCALAR, KS_DIM, KS_PROG, KS_ANY };

static const struct known_key {
	const char *name;
	enum key_shape shape;
} known_keys[] = {
	{ "suite", KS_SCALAR }, { "testcase", KS_SCALAR },
	{ "category", KS_SCALAR }, { "job_origin", KS_SCALAR },
	{ "job_file", KS_SCALAR }, { "jobfile", KS_SCALAR },
	{ "testbox", KS_SCALAR }, { "tbox_group", KS_SCALAR },
	{ "arch", KS_SCALAR }, { "id", KS_SCALAR }, { "submit_id", KS_SCALAR },
	{ "queue", KS_SCALAR }, { "queuer_version", KS_SCALAR },
	{ "queue_cmdline_keys", KS_ANY }, { "user", KS_SCALAR },
	{ "model", KS_SCALAR }, { "nr_node", KS_SCALAR }, { "nr_cpu", KS_SCALAR },
	{ "memory", KS_SCALAR }, { "hdd_partitions", KS_ANY },
	{ "ssd_partitions", KS_ANY }, { "swap_partitions", KS_ANY },
	{ "rootfs_partition", KS_SCALAR }, { "kernel_cmdline_hw", KS_SCALAR },
	{ "kernel_cmdline", KS_DIM }, { "kernel", KS_SCALAR }, { "brand", KS_SCALAR },
	{ "kconfig", KS_DIM }, { "commit", KS_DIM }, { "branch", KS_SCALAR },
	{ "base_commit", KS_SCALAR }, { "head_commit", KS_SCALAR },
	{ "rootfs", KS_DIM }, { "compiler", KS_DIM }, { "timeout", KS_SCALAR },
	{ "runtime", KS_DIM }, { "nr_threads", KS_DIM }, { "nr_task", KS_DIM },
	{ "nr_process", KS_DIM }, { "nr_instances", KS_DIM },
	{ "iterations", KS_DIM }, { "runs", KS_SCALAR }, { "repeat_to", KS_SCALAR },
	{ "disk", KS_PROG }, { "fs", KS_PROG }, { "fs2", KS_PROG },
	{ "cpufreq_governor", KS_DIM }, { "cluster", KS_SCALAR },
	{ "node_roles", KS_SCALAR }, { "need_kconfig", KS_ANY },
	{ "need_memory", KS_SCALAR }, { "need_cpu", KS_SCALAR },
	{ "need_x86", KS_SCALAR }, { "need_modules", KS_ANY },
	{ "boot_params", KS_ANY }, { "result_root", KS_SCALAR },
	{ "LKP_SERVER", KS_SCALAR }, { "LKP_CGI_PORT", KS_SCALAR },
	{ "including", KS_ANY }, { "kmsg", KS_ANY }, { "heartbeat", KS_ANY },
	{ "cpu_node_bind", KS_DIM }, { "mem_node_bind", KS_DIM },
	{ "nr_vm", KS_SCALAR }, { "local_run", KS_SCALAR },
	/* lkp's memory eater (src/run/eatmem.h); its options may be top-level */
	{ "eatmem", KS_ANY }, { "eatmem_size", KS_DIM }, { "eatmem_leave", KS_DIM },
	{ "eatmem_duration", KS_SCALAR }, { "eatmem_nonuma", KS_SCALAR },
	/* read by perfbot run (src/run/desc.c) */
	{ "nr_run", KS_SCALAR }, { "interval", KS_SCALAR }, { "monitor_delay", KS_SCALAR },
	{ "perfbot", KS_ANY }, { "name", KS_SCALAR }, { "cpuset", KS_SCALAR },
	{ "measure", KS_SCALAR },
	/* read by lkp's own scripts (bin/lkp-setup-rootfs, lib/job.sh) */
	{ "force_reboot", KS_ANY }, { "set_nic_irq_affinity", KS_ANY },
	{ NULL, KS_ANY }
};

/*
 * The monitors perfbot knows: lkp's default set for `category: benchmark`
 * (include/category/benchmark) and the ones perfbot can run.
 */
static const struct job_monitor monitors[] = {
	{ "kmsg", true, true },
	{ "boot-time", false, true },
	{ "uptime", false, true },
	{ "iostat", true, true },
	{ "heartbeat", false, true },
	{ "vmstat", true, true },
	{ "numa-numastat", true, true },
	{ "numa-vmstat", true, true },
	{ "numa-meminfo", true, true },
	{ "proc-vmstat", true, true },
	{ "proc-stat", true, true },
	{ "meminfo", true, true },
	{ "slabinfo", true, true },
	{ "interrupts", true, true },
	{ "lock_stat", false, true },
	{ "perf-sched", false, true },
	{ "softirqs", true, true },
	{ "bdi_dev_mapping", false, true },
	{ "diskstats", true, true },
	{ "nfsstat", false, true },
	{ "cpuidle", true, true },
	{ "cpufreq-stats", false, true },
	{ "cpufreq", true, false },
	{ "turbostat", false, true },
	{ "sched_debug", false, true },
	{ "perf-stat", true, true },
	{ "mpstat", false, true },
	{ "perf-c2c", false, true },
	{ "perf-profile", true, true },
	{ "time", true, false },
	{ NULL, false, false }
};

const struct job_monitor *job_monitor_table(void)
{
	return monitors;
}

const struct job_monitor *job_monitor_find(const char *name)
{
	for (const struct job_monitor *m = monitors; m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

static const struct known_key *known_key_find(const char *name)
{
	for (const struct known_key *k = known_keys; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

/* lkp's forms whose key is code: "script tests/x", "function f", "if ...", "call x" */
static bool is_code_key(const char *key)
{
	static const char *const prefixes[] = { "script ", "function ", "if ",
		"for ", "while ", "until ", "call ", "command ", "source ", NULL };
	for (const char *const *p = prefixes; *p; p++)
		if (!strncmp(key, *p, strlen(*p)))
			return true;
	return false;
}

const char *const *job_default_include_dirs(const char *const *dirs,
					    const char **buf)
{
	if (dirs)
		return dirs;
	buf[0] = getenv("LKP_SRC");
	buf[1] = NULL;
	return buf[0] && *buf[0] ? buf : NULL;
}

bool job_key_known(const char *key, const char *const *include_dirs)
{
	struct job_catalog cat;
	struct strbuf dir = STRBUF_INIT;
	bool ok;

	if (known_key_find(key) || job_monitor_find(key) || parser_find(key) ||
	    bench_registered(key) || is_code_key(key) || key[0] == '#')
		return true;
	job_catalog_init(&cat, include_dirs);
	ok = job_catalog_program_dir(&cat, key, &dir);
	job_catalog_release(&cat);
	strbuf_release(&dir);
	return ok;
}

/* Does an executable programs/<name>/<script> exist under a catalog? */
static bool catalog_script(struct job_catalog *cat, const char *name, const char *script)
{
	struct strbuf f = STRBUF_INIT;
	bool ok = false;

	for (const char *const *d = cat->dirs; *d && !ok; d++) {
		strbuf_reset(&f);
		strbuf_addf(&f, "%s/programs/%s/%s", *d, name, script);
		ok = job_catalog_access_x(cat, f.buf) && !S_ISDIR(job_catalog_mode(cat, f.buf));
	}
	strbuf_release(&f);
	return ok;
}

/* job_key_lacks with a catalog: what programs/<key>/ holds, else a parameter */
static const char *catalog_lacks(struct job_catalog *cat, const char *key)
{
	static const char *const monitor_scripts[] = { "monitor", "no-stdout-monitor",
		"one-shot-monitor", "plain-monitor", NULL };

	if (!*key || strchr(key, '/') || key[0] == '.')
		return NULL;
	if (catalog_script(cat, key, "run"))
		return "benchmark";
	if (catalog_script(cat, key, "daemon"))
		return "daemon";
	if (catalog_script(cat, key, "setup"))
		return "setup";
	for (const char *const *m = monitor_scripts; *m; m++)
		if (catalog_script(cat, key, *m))
			return "monitor";
	return NULL;
}

const char *job_key_lacks(const struct job_entry *e, const char *const *include_dirs)
{
	const char *key = e->key;
	const struct lkp_program *lp;
	struct job_catalog cat;

	if (e->comment || key[0] == '#' || is_code_key(key) || known_key_find(key) ||
	    job_monitor_find(key) || bench_registered(key) || !strcmp(key, "mytest"))
		return NULL;
	job_catalog_init(&cat, include_dirs);
	if (job_catalog_active(&cat)) {
		const char *lacks = catalog_lacks(&cat, key);
		job_catalog_release(&cat);
		return lacks;
	}
	job_catalog_release(&cat);
	if (parser_find(key))
		return "benchmark";
	lp = lkp_program_find(key);
	if (lp)
		return lp->kind == 'r' ? "benchmark" : lp->kind == 'd' ? "daemon" :
		       lp->kind == 's' ? "setup" : lp->kind == 'm' ? "monitor" : NULL;
	/* a mapping nobody knows (or a list of them): a program, which
	 * split-job kept */
	bool program = e->val->kind == JOB_MAP;
	for (size_t i = 0; e->val->kind == JOB_SEQ && i < e->val->nr; i++)
		program = program || e->val->item[i]->kind == JOB_MAP;
	return program ? "benchmark" : NULL;
}

/* ------------------------------------------------------------------ */
/* checks */

static int type_error(const struct job_value *v, const char *key, const char *expected)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	job_source_line(v, &sb);
	ret = error("%s: '%s' expected %s, got a %s", sb.buf,
		    src_hidden(v->src) ? HIDDEN_TEXT : key, expected,
		    v->kind == JOB_MAP ? "mapping" : v->kind == JOB_SEQ ? "list" : "scalar");
	strbuf_release(&sb);
	return ret;
}

static bool scalar_like(const struct job_value *v)
{
	return v->kind == JOB_SCALAR || v->kind == JOB_NULL;
}

/* Program options: scalars or lists of scalars (a dimension). */
static int check_options(const struct job_value *map, const char *program)
{
	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		const struct job_value *v = e->val;

		if (e->comment || scalar_like(v))
			continue;
		if (v->kind == JOB_SEQ) {
			for (size_t k = 0; k < v->nr; k++)
				if (!scalar_like(v->item[k]) && v->item[k]->kind != JOB_MAP)
					return type_error(v->item[k], e->key,
						"a scalar or mapping in its list");
			continue;
		}
		/* a map of options-of-options: lkp allows one level more */
		if (v->kind == JOB_MAP)
			continue;
		(void)program;
	}
	return 0;
}

/*
 * Sections that lkp's split-job added from its own files: their keys are
 * whatever those files define, so only the user's keys are checked.
 */
static bool is_defaults_marker(const char *text)
{
	static const char *const prefixes[] = { "! include/", "! programs/",
		"! hosts/", "! user overrides", "! default params", NULL };
	for (const char *const *p = prefixes; *p; p++)
		if (!strncmp(text, *p, strlen(*p)))
			return true;
	return false;
}

/*
 * A key perfbot does not know, without a catalog: as lkp, a parameter of
 * the job (scalar) or a program (mapping) that split-job keeps; a warning
 * names it, so that a typo is still seen.  Keys lkp's programs declare
 * (lkp_programs.c) are known and get none.
 */
static bool lkp_knows(const char *key)
{
	return lkp_program_find(key) || lkp_param_known(key);
}

static void warn_unknown(const struct job_entry *e)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(e->key);
	const char *dot = strchr(e->key, '.');
	bool known;

	/* lkp's "key-:" / "key+:" (drop from, add to key) and
	 * "program.option:" forms name a key of their own */
	if (n > 1 && (e->key[n - 1] == '-' || e->key[n - 1] == '+')) {
		char *base = xstrndup(e->key, n - 1);
		known = job_key_known(base, NULL) || lkp_knows(base);
		free(base);
	} else if (dot && dot > e->key) {
		char *prog = xstrndup(e->key, (size_t)(dot - e->key));
		known = job_key_known(prog, NULL) || lkp_program_find(prog);
		free(prog);
	} else {
		known = lkp_knows(e->key);
	}
	if (known)
		return;
	job_entry_where(e, &sb);
	if (e->val->kind == JOB_MAP)
		warning("%s: unknown key '%s' kept as a program (not a benchmark, monitor or "
			"lkp program perfbot knows)", sb.buf, job_key_shown(e));
	else
		warning("%s: unknown key '%s' kept as a parameter (not a job key, monitor or "
			"benchmark perfbot knows)", sb.buf, job_key_shown(e));
	strbuf_release(&sb);
}

/*
 * `spin: {command: ...}` in a job whose testcase is spin (or that has none):
 * the benchmark's own section, as lkp's jobs have, holding its command.
 */
static bool is_command_section(const struct job_value *doc, const struct job_entry *e)
{
	const struct job_value *tc = job_map_get(doc, "testcase");
	const char *name = job_value_text(tc);

	return e->val->kind == JOB_MAP && job_map_get(e->val, "command") &&
	       !job_monitor_find(e->key) && (!tc || (name && !strcmp(name, e->key)));
}

int job_check_doc(const struct job_value *doc, const char *const *dirs)
{
	bool in_defaults = false;

	/*
	 * With an lkp catalog, a key lkp does not know is a parameter of
	 * the job (scripts read it from the environment), whatever shape
	 * it has: lkp checks nothing.  Without one, the same, with a
	 * warning for keys neither perfbot nor lkp's programs know, and the
	 * shapes perfbot itself needs checked.
	 */
	if (dirs && *dirs)
		return 0;
	for (size_t i = 0; i < doc->nr; i++) {
		const struct job_entry *e = &doc->ent[i];
		const struct known_key *k;
		const struct job_value *v = e->val;

		if (e->comment) {
			in_defaults = is_defaults_marker(e->key);
			continue;
		}
		if (!in_defaults && !job_key_known(e->key, dirs) && !is_command_section(doc, e))
			warn_unknown(e);
		k = known_key_find(e->key);
		if (k && k->shape == KS_SCALAR && !scalar_like(v))
			return type_error(v, e->key, "a scalar");
		if (k && k->shape == KS_DIM) {
			if (v->kind == JOB_MAP)
				return type_error(v, e->key, "a scalar or a list of scalars");
			if (v->kind == JOB_SEQ)
				for (size_t j = 0; j < v->nr; j++)
					if (!scalar_like(v->item[j]))
						return type_error(v->item[j], e->key,
							"a scalar in its list");
		}
		if ((!k || k->shape == KS_PROG) && v->kind == JOB_MAP &&
		    check_options(v, e->key) < 0)
			return -1;
		if ((!k || k->shape == KS_PROG) && v->kind == JOB_SEQ) {
			for (size_t j = 0; j < v->nr; j++) {
				const struct job_value *it = v->item[j];
				if (it->kind == JOB_SEQ)
					return type_error(it, e->key,
						"a scalar or mapping in its list");
				if (it->kind == JOB_MAP && check_options(it, e->key) < 0)
					return -1;
			}
		}
	}
	return 0;
}
