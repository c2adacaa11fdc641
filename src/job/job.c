/*
 * job.c: lkp-tests job files in memory.
 *
 * Loading is text first, YAML second, as in lkp: the file's section
 * markers are noted and `<< : FILE` lines are replaced by FILE's lines,
 * keeping a map from every expanded line back to its file, line and
 * indentation so that libfyaml's positions can be reported in the user's
 * terms.  The YAML events are then built into job_value trees, scalars
 * typed the way Ruby's Psych types them (lkp reads jobs with Psych, so
 * "300" is an Integer and '300' a String), and the top-level keys checked
 * against the declared tables below.
 *
 * Writing follows Psych's YAML.dump plus lkp's comment rewriting, so that
 * a saved job is byte-compatible with the atomic jobs lkp writes.
 */
#include "job/job.h"
#include "bench/runner.h"

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

#include "parse/parser.h"
#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#define MAX_INCLUDE_DEPTH 16

struct job_src {
	int refs;
	bool hidden;            /* an include not named .yaml: never quoted */
	char name[];
};

static struct job_src *src_new(const char *name)
{
	size_t n = strlen(name);
	struct job_src *s = xmalloc(sizeof(*s) + n + 1);
	s->refs = 1;
	s->hidden = false;
	memcpy(s->name, name, n + 1);
	return s;
}

#define HIDDEN_TEXT "<not shown: from an included file not named .yaml>"

static bool src_hidden(const struct job_src *s)
{
	return s && s->hidden;
}

const char *job_value_shown(const struct job_value *v)
{
	if (!v || v->kind != JOB_SCALAR)
		return NULL;
	return src_hidden(v->src) ? HIDDEN_TEXT : v->text;
}

const char *job_key_shown(const struct job_entry *e)
{
	return src_hidden(e->src) ? HIDDEN_TEXT : e->key;
}

static struct job_src *src_get(struct job_src *s)
{
	if (s)
		s->refs++;
	return s;
}

static void src_put(struct job_src *s)
{
	if (s && !--s->refs)
		free(s);
}

/* ------------------------------------------------------------------ */
/* values */

struct job_value *job_value_new(enum job_kind kind)
{
	struct job_value *v = xcalloc(1, sizeof(*v));
	v->kind = kind;
	return v;
}

struct job_value *job_scalar_new(const char *text)
{
	struct job_value *v = job_value_new(JOB_SCALAR);
	v->text = xstrdup(text);
	v->type = job_scalar_type_of(text);
	if (v->type == JOB_TNULL)
		v->type = JOB_STR;
	return v;
}

struct job_value *job_string_new(const char *text)
{
	struct job_value *v = job_value_new(JOB_SCALAR);
	v->text = xstrdup(text);
	v->type = JOB_STR;
	return v;
}

void job_value_free(struct job_value *v)
{
	if (!v)
		return;
	free(v->text);
	free(v->named);
	for (size_t i = 0; i < v->nr; i++) {
		if (v->kind == JOB_MAP) {
			free(v->ent[i].key);
			src_put(v->ent[i].src);
			job_value_free(v->ent[i].val);
		} else if (v->kind == JOB_SEQ) {
			job_value_free(v->item[i]);
		}
	}
	free(v->ent);
	free(v->item);
	src_put(v->src);
	free(v);
}

struct job_value *job_value_dup(const struct job_value *v)
{
	struct job_value *d;

	if (!v)
		return NULL;
	d = job_value_new(v->kind);
	d->style = v->style;
	d->type = v->type;
	d->text = v->text ? xstrdup(v->text) : NULL;
	d->named = v->named ? xstrdup(v->named) : NULL;
	d->src = src_get(v->src);
	d->line = v->line;
	d->col = v->col;
	if (v->kind == JOB_MAP) {
		d->ent = xcalloc(v->nr ? v->nr : 1, sizeof(*d->ent));
		d->alloc = v->nr ? v->nr : 1;
		for (size_t i = 0; i < v->nr; i++) {
			d->ent[i] = v->ent[i];
			d->ent[i].key = xstrdup(v->ent[i].key);
			d->ent[i].src = src_get(v->ent[i].src);
			d->ent[i].val = job_value_dup(v->ent[i].val);
		}
		d->nr = v->nr;
	} else if (v->kind == JOB_SEQ) {
		d->item = xcalloc(v->nr ? v->nr : 1, sizeof(*d->item));
		d->alloc = v->nr ? v->nr : 1;
		for (size_t i = 0; i < v->nr; i++)
			d->item[i] = job_value_dup(v->item[i]);
		d->nr = v->nr;
	}
	return d;
}

void job_seq_append(struct job_value *seq, struct job_value *item)
{
	ALLOC_GROW(seq->item, seq->nr + 1, seq->alloc);
	seq->item[seq->nr++] = item;
}

static struct job_entry *map_find(const struct job_value *map, const char *key)
{
	if (!map || map->kind != JOB_MAP)
		return NULL;
	for (size_t i = 0; i < map->nr; i++)
		if (!map->ent[i].comment && !strcmp(map->ent[i].key, key))
			return &map->ent[i];
	return NULL;
}

static struct job_entry *map_append(struct job_value *map, const char *key,
				    struct job_value *val)
{
	struct job_entry *e;

	ALLOC_GROW(map->ent, map->nr + 1, map->alloc);
	e = &map->ent[map->nr++];
	memset(e, 0, sizeof(*e));
	e->key = xstrdup(key);
	e->val = val;
	return e;
}

void job_map_set(struct job_value *map, const char *key, struct job_value *val)
{
	struct job_entry *e = map_find(map, key);

	if (e) {
		job_value_free(e->val);
		e->val = val;
		return;
	}
	map_append(map, key, val);
}

void job_map_add_comment(struct job_value *map, const char *text)
{
	struct job_entry *e = map_append(map, text, job_value_new(JOB_NULL));
	e->comment = true;
}

bool job_map_delete(struct job_value *map, const char *key)
{
	struct job_entry *e = map_find(map, key);
	size_t i;

	if (!e)
		return false;
	i = (size_t)(e - map->ent);
	free(e->key);
	src_put(e->src);
	job_value_free(e->val);
	memmove(&map->ent[i], &map->ent[i + 1], (map->nr - i - 1) * sizeof(*e));
	map->nr--;
	return true;
}

bool job_map_delete_comment(struct job_value *map, const char *text)
{
	for (size_t i = 0; map && map->kind == JOB_MAP && i < map->nr; i++) {
		struct job_entry *e = &map->ent[i];
		if (!e->comment || strcmp(e->key, text))
			continue;
		free(e->key);
		src_put(e->src);
		job_value_free(e->val);
		memmove(&map->ent[i], &map->ent[i + 1], (map->nr - i - 1) * sizeof(*e));
		map->nr--;
		return true;
	}
	return false;
}

const struct job_value *job_map_get(const struct job_value *map, const char *key)
{
	struct job_entry *e = map_find(map, key);
	return e ? e->val : NULL;
}

const char *job_value_text(const struct job_value *v)
{
	return v && v->kind == JOB_SCALAR ? v->text : NULL;
}

bool job_value_equal(const struct job_value *a, const struct job_value *b)
{
	size_t i, j;

	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case JOB_NULL:
		return true;
	case JOB_SCALAR:
		if (a->type != b->type)
			return false;
		if (a->type == JOB_STR)
			return !strcmp(a->text, b->text);
		{
			/* 1.0e+3 and 1000.0 are the same Float to Ruby */
			struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
			bool eq;
			job_scalar_to_s(a, &x);
			job_scalar_to_s(b, &y);
			eq = !strcmp(x.buf, y.buf);
			strbuf_release(&x);
			strbuf_release(&y);
			return eq;
		}
	case JOB_SEQ:
		if (a->nr != b->nr)
			return false;
		for (i = 0; i < a->nr; i++)
			if (!job_value_equal(a->item[i], b->item[i]))
				return false;
		return true;
	case JOB_MAP:
		/* comment entries do not count */
		for (i = 0, j = 0;; i++, j++) {
			while (i < a->nr && a->ent[i].comment)
				i++;
			while (j < b->nr && b->ent[j].comment)
				j++;
			if (i == a->nr || j == b->nr)
				return i == a->nr && j == b->nr;
			if (strcmp(a->ent[i].key, b->ent[j].key) ||
			    !job_value_equal(a->ent[i].val, b->ent[j].val))
				return false;
		}
	}
	return false;
}

static void where(const struct job_src *src, int line, int col, struct strbuf *sb)
{
	if (!src) {
		strbuf_addstr(sb, "<job>");
		return;
	}
	strbuf_addstr(sb, src->name);
	if (line > 0) {
		strbuf_addf(sb, ":%d", line);
		if (col > 0)
			strbuf_addf(sb, ":%d", col);
	}
}

void job_source_line(const struct job_value *v, struct strbuf *sb)
{
	if (!v)
		strbuf_addstr(sb, "<job>");
	else
		where(v->src, v->line, v->col, sb);
}

void job_entry_where(const struct job_entry *e, struct strbuf *sb)
{
	where(e->src, e->line, e->col, sb);
}

/* ------------------------------------------------------------------ */
/* Ruby (Psych) scalar typing */

static bool ci_eq_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(s, *words))
			return true;
	return false;
}

/* Psych's legacy integer: [-+]?(0b[01_,]+|0[0-7_,]+|0|[1-9]([0-9]|,[0-9]|_[0-9])*|0x[0-9a-fA-F_,]+) */
static bool ruby_int(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	if (s[0] == '0' && (s[1] == 'b' || s[1] == 'x')) {
		const char *ok = s[1] == 'b' ? "01_," : "0123456789abcdefABCDEF_,";
		if (!s[2])
			return false;
		for (s += 2; *s; s++)
			if (!strchr(ok, *s))
				return false;
		return true;
	}
	if (s[0] == '0')
		return !s[1] || (strspn(s + 1, "01234567_,") == strlen(s + 1));
	if (!isdigit((unsigned char)*s))
		return false;
	for (s++; *s; s++) {
		if (isdigit((unsigned char)*s))
			continue;
		if ((*s == ',' || *s == '_') && isdigit((unsigned char)s[1]))
			continue;
		return false;
	}
	return true;
}

/* Psych's float: [-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)? or inf/nan */
static bool ruby_float(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (isdigit((unsigned char)*s)) {
		while (isdigit((unsigned char)*s) || *s == '_' || *s == ',')
			s++;
	}
	if (*s != '.')
		return false;
	s++;
	while (isdigit((unsigned char)*s))
		s++;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s != '-' && *s != '+')
			return false;
		s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

/* ^\d{4}-\d\d?-\d\d? optionally followed by a time: Psych's Date/Time */
static bool ruby_date(const char *s)
{
	int n;

	if (*s == '-')
		s++;
	for (n = 0; n < 4; n++)
		if (!isdigit((unsigned char)s[n]))
			return false;
	s += 4;
	if (*s++ != '-' || !isdigit((unsigned char)*s))
		return false;
	s += isdigit((unsigned char)s[1]) ? 2 : 1;
	if (*s++ != '-' || !isdigit((unsigned char)*s))
		return false;
	s += isdigit((unsigned char)s[1]) ? 2 : 1;
	if (!*s)
		return true;
	if (*s != 'T' && *s != 't' && *s != ' ' && *s != '\t')
		return false;
	/* a time part: digits and ':' '.' '+' '-' 'Z' and spaces */
	s++;
	return isdigit((unsigned char)*s) && strspn(s, "0123456789:.+-Z \t") == strlen(s) &&
	       strchr(s, ':');
}

/* [-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}(\.[0-9_]*)? */
static bool ruby_sexagesimal(const char *s)
{
	int parts = 0;

	if (*s == '-' || *s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s) || *s == '_')
		s++;
	while (*s == ':') {
		s++;
		if (!isdigit((unsigned char)*s))
			return false;
		if (isdigit((unsigned char)s[1])) {
			if (*s > '5')
				return false;
			s++;
		}
		s++;
		parts++;
	}
	if (parts < 1 || parts > 2)
		return false;
	if (*s == '.') {
		s++;
		while (isdigit((unsigned char)*s) || *s == '_')
			s++;
	}
	return !*s;
}

/*
 * Psych's ScalarScanner#tokenize, the decision of what an unquoted scalar
 * means in Ruby.  Strings that "look like words" (a first-char test that
 * Psych makes with one regexp) are strings unless short and one of the
 * null/boolean spellings.
 */
enum job_scalar_type job_scalar_type_of(const char *s)
{
	static const char *const nulls[] = { "~", "null", "Null", "NULL", NULL };
	static const char *const trues[] = { "yes", "Yes", "YES", "true", "True",
		"TRUE", "on", "On", "ON", NULL };
	static const char *const falses[] = { "no", "No", "NO", "false", "False",
		"FALSE", "off", "Off", "OFF", NULL };
	static const char wordish[] = "_ \t\r\n\f\v!@#$%^&*(){}<>|/\\~;=";
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);

	if (!len)
		return JOB_TNULL;
	/* ^[^\d.:-]?[[:alpha:]_\s!@#$%^&*(){}<>|/\\~;=]+ or a newline */
	{
		const unsigned char *q = p;
		if (*q && !isdigit(*q) && *q != '.' && *q != ':' && *q != '-' &&
		    !(isalpha(*q) || strchr(wordish, *q)))
			q++;
		if ((*q && (isalpha(*q) || *q >= 0x80 || strchr(wordish, *q))) ||
		    strchr(s, '\n')) {
			if (len > 5)
				return JOB_STR;
			if (ci_eq_any(s, nulls))
				return JOB_TNULL;
			if (ci_eq_any(s, trues) || ci_eq_any(s, falses))
				return JOB_BOOL;
			return JOB_STR;
		}
	}
	if (ruby_date(s))
		return JOB_OTHER;
	if (!strcasecmp(s, ".inf") || !strcasecmp(s, "+.inf") ||
	    !strcasecmp(s, "-.inf") || !strcasecmp(s, ".nan"))
		return JOB_FLOAT;
	if (s[0] == ':' && s[1])
		return JOB_OTHER;       /* a Ruby Symbol */
	if (ruby_sexagesimal(s))
		return strchr(s, '.') ? JOB_FLOAT : JOB_INT;
	if (ruby_float(s))
		return (!strcmp(s, ".") || !strcmp(s, "-.") || !strcmp(s, "+.")) ?
			JOB_STR : JOB_FLOAT;
	if (ruby_int(s))
		return JOB_INT;
	return JOB_STR;
}

/* ------------------------------------------------------------------ */
/* the job */

struct job *job_new(void)
{
	struct job *job = xcalloc(1, sizeof(*job));
	job->root = job_value_new(JOB_MAP);
	return job;
}

void job_free(struct job *job)
{
	if (!job)
		return;
	job_value_free(job->root);
	for (size_t i = 0; i < job->nr_docs; i++)
		job_value_free(job->docs[i]);
	free(job->docs);
	free(job->path);
	free(job);
}

struct job *job_dup(const struct job *job)
{
	struct job *d = xcalloc(1, sizeof(*d));

	d->root = job_value_dup(job->root);
	for (size_t i = 0; i < job->nr_docs; i++) {
		ALLOC_GROW(d->docs, d->nr_docs + 1, d->alloc_docs);
		d->docs[d->nr_docs++] = job_value_dup(job->docs[i]);
	}
	d->path = job->path ? xstrdup(job->path) : NULL;
	return d;
}

const struct job_value *job_lookup(const struct job *job, const char *key)
{
	return job_map_get(job->root, key);
}

const char *job_get(const struct job *job, const char *key)
{
	return job_value_text(job_lookup(job, key));
}

int job_get_int(const struct job *job, const char *key, long long *out)
{
	const struct job_value *v = job_lookup(job, key);
	struct strbuf sb = STRBUF_INIT;
	char *end;
	long long n;

	if (!v || v->kind == JOB_NULL)
		return 1;
	if (v->kind == JOB_SCALAR) {
		errno = 0;
		n = strtoll(v->text, &end, 10);
		if (!errno && end != v->text && !*end) {
			*out = n;
			return 0;
		}
	}
	job_source_line(v, &sb);
	error("%s: '%s' expected an integer, got %s%s%s", sb.buf, key,
	      v->kind == JOB_SCALAR ? "'" : "",
	      v->kind == JOB_SCALAR ? job_value_shown(v) :
	      v->kind == JOB_SEQ ? "a list" : "a mapping",
	      v->kind == JOB_SCALAR ? "'" : "");
	strbuf_release(&sb);
	return -1;
}

const char *job_program_option(const struct job *job, const char *program,
			       const char *option)
{
	return job_value_text(job_map_get(job_lookup(job, program), option));
}

const struct job_entry *job_next(const struct job *job, size_t *pos)
{
	while (*pos < job->root->nr) {
		const struct job_entry *e = &job->root->ent[(*pos)++];
		if (!e->comment)
			return e;
	}
	return NULL;
}

void job_set_value(struct job *job, const char *key, struct job_value *val)
{
	job_map_set(job->root, key, val);
}

void job_set(struct job *job, const char *key, const char *text)
{
	job_set_value(job, key, job_scalar_new(text));
}

bool job_delete(struct job *job, const char *key)
{
	return job_map_delete(job->root, key);
}

/* ------------------------------------------------------------------ */
/* declared tables */

/*
 * Top-level keys of lkp jobs that are not programs, with the shape each
 * may take.  KS_SCALAR keys name one thing; KS_DIM keys may also be a
 * list, which split-job expands; KS_ANY keys are free-form.
 */
enum key_shape { KS_SCALAR, KS_DIM, KS_ANY };

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
	{ "disk", KS_DIM }, { "fs", KS_DIM }, { "fs2", KS_DIM },
	{ "cpufreq_governor", KS_DIM }, { "cluster", KS_SCALAR },
	{ "node_roles", KS_SCALAR }, { "need_kconfig", KS_ANY },
	{ "need_memory", KS_SCALAR }, { "need_cpu", KS_SCALAR },
	{ "need_x86", KS_SCALAR }, { "need_modules", KS_ANY },
	{ "boot_params", KS_ANY }, { "result_root", KS_SCALAR },
	{ "LKP_SERVER", KS_SCALAR }, { "LKP_CGI_PORT", KS_SCALAR },
	{ "including", KS_ANY }, { "kmsg", KS_ANY }, { "heartbeat", KS_ANY },
	{ "cpu_node_bind", KS_DIM }, { "mem_node_bind", KS_DIM },
	{ "nr_vm", KS_SCALAR }, { "local_run", KS_SCALAR },
	{ "perfbot", KS_ANY }, { "name", KS_SCALAR },
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

bool job_program_dir(const char *name, const char *const *include_dirs,
		     struct strbuf *dir)
{
	const char *buf[2];

	include_dirs = job_default_include_dirs(include_dirs, buf);
	if (!include_dirs || !*name || strchr(name, '/') || name[0] == '.')
		return false;
	for (; *include_dirs; include_dirs++) {
		strbuf_reset(dir);
		strbuf_addf(dir, "%s/programs/%s", *include_dirs, name);
		if (is_dir(dir->buf))
			return true;
	}
	strbuf_reset(dir);
	return false;
}

bool job_key_known(const char *key, const char *const *include_dirs)
{
	struct strbuf dir = STRBUF_INIT;
	bool ok;

	if (known_key_find(key) || job_monitor_find(key) || parser_find(key) ||
	    runner_find(key) || is_code_key(key) || key[0] == '#')
		return true;
	ok = job_program_dir(key, include_dirs, &dir);
	strbuf_release(&dir);
	return ok;
}

/* ------------------------------------------------------------------ */
/* text expansion: markers and includes */

struct line_origin {
	struct job_src *src;
	int line;               /* 1-based line in src */
	int shift;              /* columns added by include indentation */
};

struct expansion {
	struct strbuf text;
	struct line_origin *map;
	size_t nr, alloc;
	/* lkp's comment markers: expanded line -> text */
	struct marker { size_t line; char *text; } *marks;
	size_t nr_marks, alloc_marks;
	const char *const *include_dirs;
};

static void exp_release(struct expansion *x)
{
	for (size_t i = 0; i < x->nr; i++)
		src_put(x->map[i].src);
	for (size_t i = 0; i < x->nr_marks; i++)
		free(x->marks[i].text);
	free(x->map);
	free(x->marks);
	strbuf_release(&x->text);
}

static void exp_add_line(struct expansion *x, const char *indent, const char *line,
			 size_t len, struct job_src *src, int lineno)
{
	strbuf_addstr(&x->text, indent);
	strbuf_add(&x->text, line, len);
	strbuf_addch(&x->text, '\n');
	ALLOC_GROW(x->map, x->nr + 1, x->alloc);
	x->map[x->nr].src = src_get(src);
	x->map[x->nr].line = lineno;
	x->map[x->nr].shift = (int)strlen(indent);
	x->nr++;
}

/* The characters lkp keeps in a "#! ..." marker line. */
static bool is_marker_line(const char *line, size_t len)
{
	static const char ok[] = "- !|/?@<>.,_+=%~";

	if (len < 2 || line[0] != '#' || (line[1] != '!' && line[1] != ' '))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!isalnum((unsigned char)line[i]) && !strchr(ok, line[i]))
			return false;
	return true;
}

/*
 * Find lkp's include pattern "(.*)<< *: +([^*\[].*)" in line: returns the
 * offset of "<<" (the last one that matches, as Ruby's greedy (.*) does)
 * and sets *content, or -1.
 */
static long find_include(const char *line, size_t len, const char **content)
{
	for (long i = (long)len - 2; i >= 0; i--) {
		size_t j;

		if (line[i] != '<' || line[i + 1] != '<')
			continue;
		j = (size_t)i + 2;
		while (j < len && line[j] == ' ')
			j++;
		if (j >= len || line[j] != ':')
			continue;
		j++;
		if (j >= len || line[j] != ' ')
			continue;
		while (j < len && line[j] == ' ')
			j++;
		/* ' +' is greedy but may give back one space to [^*\[] */
		if (j >= len)
			continue;
		if (line[j] == '*' || line[j] == '[')
			continue;
		*content = line + j;
		return i;
	}
	return -1;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xstrndup(path, (size_t)(slash - path) ? (size_t)(slash - path) : 1)
		     : xstrdup(".");
}

/* Depth-first search for name under dir (lkp's recursive glob). */
static bool find_recursive(const char *dir, const char *name, int depth,
			   struct strbuf *out)
{
	DIR *d;
	struct dirent *de;
	bool found = false;
	struct strbuf p = STRBUF_INIT;

	if (depth > 8)
		return false;
	strbuf_addf(&p, "%s/%s", dir, name);
	if (file_exists(p.buf) && !is_dir(p.buf)) {
		strbuf_add(out, p.buf, p.len);
		strbuf_release(&p);
		return true;
	}
	d = opendir(dir);
	if (!d) {
		strbuf_release(&p);
		return false;
	}
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, de->d_name);
		if (is_dir(p.buf))
			found = find_recursive(p.buf, name, depth + 1, out);
	}
	closedir(d);
	strbuf_release(&p);
	return found;
}

/*
 * lkp's search_file_in_paths: absolute; "./" "../" relative to the
 * including file; else relative_to, then each include dir; then a
 * recursive search under the nearest jobs/ ancestor and the include dirs.
 */
static bool search_include(const char *file, const char *relative_to,
			   const char *const *dirs, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;
	const char *jobs;

	strbuf_reset(out);
	if (file[0] == '/') {
		strbuf_addstr(out, file);
		return file_exists(file);
	}
	if (!strncmp(file, "./", 2) || !strncmp(file, "../", 3)) {
		path_join(out, relative_to, file);
		return file_exists(out->buf);
	}
	path_join(out, relative_to, file);
	if (file_exists(out->buf) && !is_dir(out->buf))
		return true;
	for (const char *const *d = dirs; d && *d; d++) {
		strbuf_reset(out);
		path_join(out, *d, file);
		if (file_exists(out->buf) && !is_dir(out->buf))
			return true;
	}
	strbuf_reset(out);
	jobs = strstr(relative_to, "/jobs");
	if (!strncmp(file, "jobs/", 5))
		jobs = NULL;
	if (jobs) {
		const char *j, *last = jobs;
		while ((j = strstr(last + 1, "/jobs")))
			last = j;
		strbuf_add(&p, relative_to, (size_t)(last - relative_to) + 5);
		if (find_recursive(p.buf, file, 0, out)) {
			strbuf_release(&p);
			return true;
		}
	}
	strbuf_release(&p);
	for (const char *const *d = dirs; d && *d; d++)
		if (find_recursive(*d, file, 0, out))
			return true;
	return false;
}

static int expand_text(struct expansion *x, const char *text, size_t len,
		       struct job_src *src, const char *indent, int depth,
		       bool markers);

/* Apply {file: F, ignore: [..], key: value} options to the included text. */
static void apply_include_options(struct strbuf *text, const struct job_value *opts)
{
	struct strbuf out = STRBUF_INIT;
	const struct job_value *ign = job_map_get(opts, "ignore");

	if (ign) {
		const char *p = text->buf;
		while (*p) {
			const char *nl = strchrnul(p, '\n');
			bool drop = false;
			for (size_t i = 0; i < (ign->kind == JOB_SEQ ? ign->nr : 1); i++) {
				const char *k = ign->kind == JOB_SEQ ?
					job_value_text(ign->item[i]) : job_value_text(ign);
				size_t kl = k ? strlen(k) : 0;
				const char *q = p + kl;
				if (!k || strncmp(p, k, kl))
					continue;
				while (*q == ' ' || *q == '\t')
					q++;
				if (*q == ':')
					drop = true;
			}
			if (!drop) {
				strbuf_add(&out, p, (size_t)(nl - p));
				strbuf_addch(&out, '\n');
			}
			p = *nl ? nl + 1 : nl;
		}
		strbuf_reset(text);
		strbuf_add(text, out.buf, out.len);
	}
	/* overrides: replace "key: ..." lines per document, else append */
	for (size_t i = 0; i < opts->nr; i++) {
		const struct job_entry *e = &opts->ent[i];
		const char *p;
		bool replaced = false;
		const char *val = job_value_text(e->val);

		if (e->comment || !strcmp(e->key, "file") || !strcmp(e->key, "ignore"))
			continue;
		strbuf_reset(&out);
		p = text->buf;
		while (1) {
			const char *nl = strchrnul(p, '\n');
			size_t kl = strlen(e->key);
			bool doc_end = !*nl || !strncmp(nl + 1, "---", 3);
			const char *q = p + kl;

			if (!strncmp(p, e->key, kl)) {
				while (*q == ' ' || *q == '\t')
					q++;
			}
			if (!strncmp(p, e->key, kl) && *q == ':') {
				strbuf_addf(&out, "%s: %s", e->key, val ? val : "");
				replaced = true;
			} else {
				strbuf_add(&out, p, (size_t)(nl - p));
			}
			if (*nl || nl > p)
				strbuf_addch(&out, '\n');
			if (doc_end && !replaced)
				strbuf_addf(&out, "%s: %s\n", e->key, val ? val : "");
			if (doc_end)
				replaced = false;
			if (!*nl || !nl[1])
				break;
			p = nl + 1;
		}
		strbuf_reset(text);
		strbuf_add(text, out.buf, out.len);
	}
	strbuf_release(&out);
}

static int parse_text(const char *text, size_t len, const char *name,
		      struct expansion *x, struct job *job, bool check);

static int do_include(struct expansion *x, const char *content, size_t clen,
		      struct job_src *src, int lineno, int col, int coff,
		      const char *indent, int depth)
{
	struct strbuf file = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct job *opts = NULL;
	char *rel = dir_of(src->name);
	struct job_src *isrc;
	int ret = -1;

	while (clen && (content[clen - 1] == ' ' || content[clen - 1] == '\r'))
		clen--;
	if (clen && content[0] == '{') {
		/* the flow form is YAML of its own, on this one line */
		struct expansion sub;
		memset(&sub, 0, sizeof(sub));
		exp_add_line(&sub, "", content, clen, src, lineno);
		sub.map[0].shift = -coff;
		opts = job_new();
		if (parse_text(sub.text.buf, sub.text.len, src->name, &sub, opts, false) < 0) {
			exp_release(&sub);
			goto out;
		}
		exp_release(&sub);
		if (!job_get(opts, "file")) {
			error("%s:%d:%d: expected {file: NAME, ...} after '<<:'",
			      src->name, lineno, col);
			goto out;
		}
		strbuf_addstr(&file, job_get(opts, "file"));
	} else {
		if (clen >= 2 && (content[0] == '\'' || content[0] == '"') &&
		    content[clen - 1] == content[0]) {
			content++;
			clen -= 2;
		}
		strbuf_add(&file, content, clen);
	}
	if (depth >= MAX_INCLUDE_DEPTH) {
		error("%s:%d:%d: includes nested deeper than %d (a loop?)",
		      src->name, lineno, col, MAX_INCLUDE_DEPTH);
		goto out;
	}
	if (!search_include(file.buf, rel, x->include_dirs, &path)) {
		struct strbuf dirs = STRBUF_INIT;
		strbuf_addstr(&dirs, rel);
		for (const char *const *d = x->include_dirs; d && *d; d++)
			strbuf_addf(&dirs, ", %s", *d);
		error("%s:%d:%d: included file '%s' not found (searched %s)",
		      src->name, lineno, col, file.buf, dirs.buf);
		strbuf_release(&dirs);
		goto out;
	}
	if (read_file(&text, path.buf) < 0)
		goto out;
	if (opts)
		apply_include_options(&text, opts->root);
	isrc = src_new(path.buf);
	isrc->hidden = !ends_with(path.buf, ".yaml") && !ends_with(path.buf, ".yml");
	ret = expand_text(x, text.buf, text.len, isrc, indent, depth + 1, false);
	src_put(isrc);
out:
	job_free(opts);
	free(rel);
	strbuf_release(&file);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/*
 * The offset of the first byte of line that is a NUL or not UTF-8, with
 * *why saying which, or -1.  libfyaml (0.8) ends its input at a NUL and
 * reads a plain scalar that starts with a byte that is no UTF-8 as null,
 * both without an error: the rest of the job, or a value, would be lost
 * silently (found by fuzzing; Psych refuses such files too).
 */
static long not_text_at(const char *p, size_t l, const char **why)
{
	const unsigned char *s = (const unsigned char *)p;

	for (size_t i = 0; i < l;) {
		unsigned char c = s[i];
		size_t n = c < 0x80 ? 1 : c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
		/* the second byte's range: no overlong forms, no surrogates,
		 * nothing past U+10FFFF */
		unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
		unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;

		if (!c) {
			*why = "a NUL byte";
			return (long)i;
		}
		if (!n || i + n > l || (n > 1 && (s[i + 1] < lo || s[i + 1] > hi)))
			goto bad;
		for (size_t k = 2; k < n; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				goto bad;
		i += n;
		continue;
bad:
		*why = "a byte that is no UTF-8";
		return (long)i;
	}
	return -1;
}

static int expand_text(struct expansion *x, const char *text, size_t len,
		       struct job_src *src, const char *indent, int depth,
		       bool markers)
{
	const char *p = text, *end = text + len;
	int lineno = 0;
	bool prev_blank = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *content, *why;
		long at, bad;

		lineno++;
		bad = not_text_at(p, l, &why);
		if (bad >= 0)
			return error("%s:%d:%ld: expected UTF-8 text, found %s",
				     src ? src->name : "<job>", lineno, bad + 1, why);
		if (markers && prev_blank && is_marker_line(p, l)) {
			ALLOC_GROW(x->marks, x->nr_marks + 1, x->alloc_marks);
			x->marks[x->nr_marks].line = x->nr;
			x->marks[x->nr_marks].text = xstrndup(p + 1, l - 1);
			x->nr_marks++;
		}
		prev_blank = l == 0;
		at = find_include(p, l, &content);
		if (at >= 0) {
			/* the prefix line, then the file indented to "<<" */
			struct strbuf ind = STRBUF_INIT;
			strbuf_addstr(&ind, indent);
			for (long i = 0; i < at; i++)
				strbuf_addch(&ind, ' ');
			exp_add_line(x, indent, p, (size_t)at, src, lineno);
			if (do_include(x, content, l - (size_t)(content - p), src,
				       lineno, (int)at + 1, (int)(content - p),
				       ind.buf, depth) < 0) {
				strbuf_release(&ind);
				return -1;
			}
			strbuf_release(&ind);
		} else {
			exp_add_line(x, indent, p, l, src, lineno);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* YAML events -> tree */

struct builder {
	struct expansion *x;
	const char *name;
	struct job *job;
	/* open containers and, for maps, the key waiting for its value */
	struct frame {
		struct job_value *v;
		char *key;
		struct job_src *ksrc;
		int kline, kcol;
	} stack[64];
	int depth;
	struct job_value *doc;        /* the finished document */
	struct anchor { char *name; struct job_value *v; } *anchors;
	size_t nr_anchors, alloc_anchors;
};

static void map_pos(const struct builder *b, const struct fy_mark *m,
		    struct job_src **src, int *line, int *col)
{
	if (m && m->line >= 0 && (size_t)m->line < b->x->nr) {
		const struct line_origin *o = &b->x->map[m->line];
		*src = o->src;
		*line = o->line;
		*col = m->column - o->shift + 1;
		if (*col < 1)
			*col = 1;
	} else if (b->x->nr) {
		const struct line_origin *o = &b->x->map[b->x->nr - 1];
		*src = o->src;
		*line = o->line + 1;
		*col = 1;
	} else {
		*src = NULL;
		*line = *col = 0;
	}
}

static int builder_error(const struct builder *b, const struct fy_mark *m,
			 const char *msg)
{
	struct job_src *src;
	int line, col;

	map_pos(b, m, &src, &line, &col);
	/* libfyaml's messages and ours may quote the text: not a file's
	 * that is not YAML (`<< : /etc/shadow`) */
	if (src_hidden(src))
		msg = "invalid job YAML (" HIDDEN_TEXT ")";
	return error("%s:%d:%d: %s", src ? src->name : b->name, line, col, msg);
}

static struct job_value *value_from_event(struct builder *b, struct fy_event *ev,
					  const struct fy_mark *m)
{
	struct job_value *v;

	if (ev->type == FYET_SCALAR) {
		size_t len;
		const char *t = fy_token_get_text(ev->scalar.value, &len);
		enum fy_scalar_style st = fy_token_scalar_style(ev->scalar.value);
		char *text = xstrndup(t ? t : "", t ? len : 0);

		if (st == FYSS_PLAIN && !ev->scalar.tag &&
		    job_scalar_type_of(text) == JOB_TNULL) {
			v = job_value_new(JOB_NULL);
			free(text);
		} else {
			v = job_value_new(JOB_SCALAR);
			v->text = text;
			v->style = st == FYSS_SINGLE_QUOTED ? JOB_SINGLE_QUOTED :
				   st == FYSS_DOUBLE_QUOTED ? JOB_DOUBLE_QUOTED :
				   st == FYSS_LITERAL ? JOB_LITERAL :
				   st == FYSS_FOLDED ? JOB_FOLDED : JOB_PLAIN;
			v->type = st == FYSS_PLAIN && !ev->scalar.tag ?
				job_scalar_type_of(text) : JOB_STR;
			if (v->type == JOB_TNULL)
				v->type = JOB_STR;
		}
	} else {
		v = job_value_new(ev->type == FYET_MAPPING_START ? JOB_MAP : JOB_SEQ);
	}
	map_pos(b, m, &v->src, &v->line, &v->col);
	src_get(v->src);
	return v;
}

static void remember_anchor(struct builder *b, struct fy_token *anchor,
			    struct job_value *v)
{
	size_t len;
	const char *t;

	if (!anchor)
		return;
	t = fy_token_get_text(anchor, &len);
	ALLOC_GROW(b->anchors, b->nr_anchors + 1, b->alloc_anchors);
	b->anchors[b->nr_anchors].name = xstrndup(t, len);
	b->anchors[b->nr_anchors].v = v;
	b->nr_anchors++;
}

/* Attach a finished value to the container on top of the stack. */
static int attach(struct builder *b, struct job_value *v, const struct fy_mark *m)
{
	struct frame *f;

	if (!b->depth) {
		b->doc = v;
		return 0;
	}
	f = &b->stack[b->depth - 1];
	if (f->v->kind == JOB_SEQ) {
		job_seq_append(f->v, v);
		return 0;
	}
	if (!f->key) {
		if (v->kind != JOB_SCALAR && v->kind != JOB_NULL) {
			job_value_free(v);
			return builder_error(b, m, "expected a plain key, got a list or mapping as key");
		}
		f->key = xstrdup(v->text ? v->text : "");
		f->ksrc = src_get(v->src);
		f->kline = v->line;
		f->kcol = v->col;
		job_value_free(v);
		if (!strcmp(f->key, "<<"))
			return builder_error(b, m, "expected '<<: FILE' (YAML merge keys are not supported)");
		return 0;
	}
	if (map_find(f->v, f->key) && b->x->include_dirs && *b->x->include_dirs) {
		/* lkp's Psych: the later value wins, in the first place */
		struct job_entry *e = map_find(f->v, f->key);
		job_value_free(e->val);
		e->val = v;
		free(f->key);
		f->key = NULL;
		src_put(f->ksrc);
		f->ksrc = NULL;
		return 0;
	}
	if (map_find(f->v, f->key)) {
		struct strbuf msg = STRBUF_INIT;
		int ret;
		struct job_src *s = f->ksrc;
		strbuf_addf(&msg, "%s:%d:%d: duplicate key '%s'",
			    s ? s->name : b->name, f->kline, f->kcol,
			    src_hidden(s) ? HIDDEN_TEXT : f->key);
		ret = error("%s", msg.buf);
		strbuf_release(&msg);
		job_value_free(v);
		return ret;
	}
	{
		struct job_entry *e = map_append(f->v, f->key, v);
		e->src = f->ksrc;
		e->line = f->kline;
		e->col = f->kcol;
	}
	free(f->key);
	f->key = NULL;
	f->ksrc = NULL;
	return 0;
}

static void builder_release(struct builder *b)
{
	for (int i = 0; i < b->depth; i++) {
		free(b->stack[i].key);
		src_put(b->stack[i].ksrc);
		/* open containers are attached to their parent only when closed */
		job_value_free(b->stack[i].v);
	}
	b->depth = 0;
	for (size_t i = 0; i < b->nr_anchors; i++)
		free(b->anchors[i].name);
	free(b->anchors);
	b->anchors = NULL;
	b->nr_anchors = b->alloc_anchors = 0;
}

/* Insert the comment markers that fall inside [first, last) lines into doc. */
static void insert_markers(struct expansion *x, struct job_value *doc,
			   size_t first, size_t last)
{
	for (size_t i = 0; i < x->nr_marks; i++) {
		struct marker *mk = &x->marks[i];
		size_t at = doc->nr;

		if (mk->line < first || mk->line >= last || doc->kind != JOB_MAP)
			continue;
		/* before the first key written after it */
		for (size_t k = 0; k < doc->nr; k++) {
			const struct job_entry *e = &doc->ent[k];
			if (!e->comment && e->src == x->map[mk->line].src &&
			    e->line > x->map[mk->line].line) {
				at = k;
				break;
			}
		}
		ALLOC_GROW(doc->ent, doc->nr + 1, doc->alloc);
		memmove(&doc->ent[at + 1], &doc->ent[at], (doc->nr - at) * sizeof(*doc->ent));
		memset(&doc->ent[at], 0, sizeof(*doc->ent));
		doc->ent[at].key = xstrdup(mk->text);
		doc->ent[at].val = job_value_new(JOB_NULL);
		doc->ent[at].comment = true;
		doc->ent[at].src = src_get(x->map[mk->line].src);
		doc->ent[at].line = x->map[mk->line].line;
		doc->ent[at].col = 1;
		doc->nr++;
	}
}

static void collect_diag(struct fy_diag *diag, void *user, const char *buf, size_t len)
{
	(void)diag; (void)user; (void)buf; (void)len;
}

static int check_doc(const struct job_value *doc, const char *const *dirs);

/*
 * Parse the expanded text.  With job == NULL the text is only checked for
 * syntax; else each document is added to job.
 */
static int parse_text(const char *text, size_t len, const char *name,
		      struct expansion *x, struct job *job, bool check)
{
	struct fy_diag_cfg dcfg;
	struct fy_diag *diag;
	struct fy_parse_cfg cfg;
	struct fy_parser *fyp;
	struct fy_event *ev;
	struct builder b;
	size_t doc_first = 0;
	int ret = 0, ndocs = 0;

	memset(&b, 0, sizeof(b));
	b.x = x;
	b.name = name;
	b.job = job;
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = collect_diag;
	dcfg.colorize = false;
	diag = fy_diag_create(&dcfg);
	if (!diag)
		die("cannot create a YAML diagnostic object");
	fy_diag_set_collect_errors(diag, true);
	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_1 | FYPCF_JSON_NONE;
	cfg.diag = diag;
	fyp = fy_parser_create(&cfg);
	if (!fyp)
		die("cannot create a YAML parser");
	if (fy_parser_set_string(fyp, text, len))
		die("cannot set the YAML parser's input");

	while (!ret && (ev = fy_parser_parse(fyp))) {
		const struct fy_mark *m = fy_event_start_mark(ev);
		struct job_value *v;

		switch (ev->type) {
		case FYET_DOCUMENT_START:
			doc_first = m ? (size_t)m->line : 0;
			b.doc = NULL;
			break;
		case FYET_DOCUMENT_END:
			if (!b.doc || b.doc->kind == JOB_NULL) {
				job_value_free(b.doc);
				b.doc = job_value_new(JOB_MAP);
			}
			if (b.doc->kind != JOB_MAP) {
				struct strbuf sb = STRBUF_INIT;
				job_source_line(b.doc, &sb);
				ret = error("%s: expected a mapping of keys at the top of the job, got a %s",
					    sb.buf, b.doc->kind == JOB_SEQ ? "list" : "scalar");
				strbuf_release(&sb);
				job_value_free(b.doc);
				b.doc = NULL;
				break;
			}
			{
				const struct fy_mark *em = fy_event_end_mark(ev);
				size_t last = em ? (size_t)em->line + 1 : x->nr;
				if (last > x->nr || !em)
					last = x->nr;
				insert_markers(x, b.doc, doc_first, last);
			}
			if (check && check_doc(b.doc, x->include_dirs) < 0) {
				job_value_free(b.doc);
				b.doc = NULL;
				ret = -1;
				break;
			}
			if (!job) {
				job_value_free(b.doc);
			} else if (!ndocs) {
				job_value_free(job->root);
				job->root = b.doc;
			} else {
				ALLOC_GROW(job->docs, job->nr_docs + 1, job->alloc_docs);
				job->docs[job->nr_docs++] = b.doc;
			}
			ndocs++;
			b.doc = NULL;
			break;
		case FYET_SCALAR: {
			size_t l;
			const char *t = fy_token_get_text(ev->scalar.value, &l);
			/* "\0" in quotes: C strings would cut the value there,
			 * so a path could lose its checked suffix */
			if (t && memchr(t, '\0', l)) {
				ret = builder_error(&b, m, "expected a value without NUL characters");
				break;
			}
			v = value_from_event(&b, ev, m);
			remember_anchor(&b, ev->scalar.anchor, v);
			ret = attach(&b, v, m);
			break;
		}
		case FYET_ALIAS: {
			size_t l;
			const char *t = fy_token_get_text(ev->alias.anchor, &l);
			v = NULL;
			for (size_t i = b.nr_anchors; i-- > 0;)
				if (strlen(b.anchors[i].name) == l &&
				    !memcmp(b.anchors[i].name, t, l)) {
					v = job_value_dup(b.anchors[i].v);
					break;
				}
			ret = v ? attach(&b, v, m) :
				builder_error(&b, m, "expected a defined anchor for this alias");
			break;
		}
		case FYET_MAPPING_START:
		case FYET_SEQUENCE_START:
			if (b.depth == (int)(sizeof(b.stack) / sizeof(b.stack[0]))) {
				ret = builder_error(&b, m, "nested too deeply");
				break;
			}
			if (b.depth && b.stack[b.depth - 1].v->kind == JOB_MAP &&
			    !b.stack[b.depth - 1].key) {
				ret = builder_error(&b, m, "expected a plain key, got a list or mapping as key");
				break;
			}
			v = value_from_event(&b, ev, m);
			remember_anchor(&b, ev->type == FYET_MAPPING_START ?
					ev->mapping_start.anchor : ev->sequence_start.anchor, v);
			memset(&b.stack[b.depth], 0, sizeof(b.stack[0]));
			b.stack[b.depth++].v = v;
			break;
		case FYET_MAPPING_END:
		case FYET_SEQUENCE_END: {
			struct frame f = b.stack[--b.depth];
			free(f.key);
			src_put(f.ksrc);
			ret = attach(&b, f.v, m);
			break;
		}
		default:
			break;
		}
		fy_parser_event_free(fyp, ev);
	}
	if (!ret && fy_parser_get_stream_error(fyp)) {
		void *it = NULL;
		struct fy_diag_error *de = fy_diag_errors_iterate(diag, &it);
		struct fy_mark mk = { 0, de ? de->line : 0, de ? de->column : 0 };
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "invalid YAML: %s", de && de->msg ? de->msg : "syntax error");
		ret = builder_error(&b, &mk, msg.buf);
		strbuf_release(&msg);
	}
	job_value_free(b.doc);
	builder_release(&b);
	fy_parser_destroy(fyp);
	fy_diag_destroy(diag);
	return ret;
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

static int check_doc(const struct job_value *doc, const char *const *dirs)
{
	bool in_defaults = false;

	/*
	 * With an lkp catalog, a key lkp does not know is a parameter of
	 * the job (scripts read it from the environment), whatever shape
	 * it has: lkp checks nothing.  Without one, perfbot's own tables
	 * catch typos before a run.
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
		if (!in_defaults && !job_key_known(e->key, dirs)) {
			struct strbuf sb = STRBUF_INIT;
			job_entry_where(e, &sb);
			if (v->kind == JOB_MAP)
				error("%s: unknown benchmark '%s' (expected a benchmark with a parser, a monitor, or programs/%s under an include dir)",
				      sb.buf, job_key_shown(e), job_key_shown(e));
			else
				error("%s: unknown key '%s' (expected a job key, a monitor or a benchmark)",
				      sb.buf, job_key_shown(e));
			strbuf_release(&sb);
			return -1;
		}
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
		if (!k && v->kind == JOB_MAP && check_options(v, e->key) < 0)
			return -1;
		if (!k && v->kind == JOB_SEQ) {
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

/* ------------------------------------------------------------------ */
/* loading */

/*
 * lkp runs job files through ERB; perfbot keeps templates to include
 * files (split.c) and says so rather than misreading "% if" as YAML.
 */
static int reject_erb(const struct expansion *x)
{
	const char *p = x->text.buf;

	for (size_t line = 0; line < x->nr && *p; line++) {
		const char *nl = strchrnul(p, '\n');
		const char *tag = memmem(p, (size_t)(nl - p), "<%", 2);
		int shift = x->map[line].shift;

		if ((p[shift] == '%' && p[shift + 1] != '%') || tag) {
			const struct line_origin *o = &x->map[line];
			return error("%s:%d:%d: expected plain YAML (ERB templates are supported in include files only)",
				     o->src ? o->src->name : "<job>", o->line,
				     tag ? (int)(tag - p) - shift + 1 : 1);
		}
		p = *nl ? nl + 1 : nl;
	}
	return 0;
}

/* No key in any document: an empty file, or comments only. */
static bool job_is_empty(const struct job *job)
{
	size_t pos = 0;

	if (job_next(job, &pos))
		return false;
	for (size_t i = 0; i < job->nr_docs; i++)
		for (size_t k = 0; k < job->docs[i]->nr; k++)
			if (!job->docs[i]->ent[k].comment)
				return false;
	return true;
}

int job_load_string(const char *text, size_t len, const char *name,
		    const struct job_load_opts *opts, struct job **out)
{
	static const struct job_load_opts none;
	struct expansion x;
	struct job_src *src;
	struct job *job;
	const char *buf[2];
	int ret;

	*out = NULL;
	if (!opts)
		opts = &none;
	memset(&x, 0, sizeof(x));
	strbuf_init(&x.text, len + 64);
	x.include_dirs = job_default_include_dirs(opts->include_dirs, buf);
	src = src_new(name);
	ret = expand_text(&x, text, len, src, "", 0, true);
	src_put(src);
	if (!ret && !opts->no_check)
		ret = reject_erb(&x);
	job = job_new();
	job->path = xstrdup(name);
	if (!ret)
		ret = parse_text(x.text.buf, x.text.len, name, &x, job, !opts->no_check);
	if (!ret && !opts->no_check && job_is_empty(job))
		ret = error("%s: the job is empty (expected keys such as 'testcase:' "
			    "and a benchmark)", name);
	exp_release(&x);
	if (ret < 0) {
		job_free(job);
		return -1;
	}
	*out = job;
	return 0;
}

int job_load_opts(const char *path, const struct job_load_opts *opts,
		  struct job **out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	*out = NULL;
	if (read_file(&sb, path) < 0)
		return -1;
	ret = job_load_string(sb.buf, sb.len, path, opts, out);
	strbuf_release(&sb);
	return ret;
}

int job_load(const char *path, struct job **out)
{
	return job_load_opts(path, NULL, out);
}

/* ------------------------------------------------------------------ */
/* writing, as Psych's YAML.dump writes it */

#define LINE_WIDTH 80

/* libyaml's analysis: may this string be written plain in block context? */
static bool plain_allowed(const char *s, bool simple_key)
{
	size_t len = strlen(s);
	bool prev_space = true, prev_break = false;

	if (!len)
		return false;
	if (!strncmp(s, "---", 3) || !strncmp(s, "...", 3))
		return false;
	if (s[0] == ' ' || s[len - 1] == ' ')
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool next_ws = i + 1 == len || s[i + 1] == ' ' || s[i + 1] == '\t' ||
			       s[i + 1] == '\n';
		if (i == 0) {
			if (strchr("#,[]{}&*!|>'\"%@`", c))
				return false;
			if ((c == '?' || c == ':' || c == '-') && next_ws)
				return false;
		} else {
			if (c == ':' && next_ws)
				return false;
			if (c == '#' && prev_space)
				return false;
		}
		if (c == '\n')
			return false;
		if (c < 0x20 || c == 0x7f)   /* libyaml: not printable, tab too */
			return false;
		if (c == 0x7f)
			return false;
		if (simple_key && c == '\n')
			return false;
		prev_space = c == ' ' || c == '\t';
		(void)prev_break;
	}
	return true;
}

static bool printable_ascii(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c < 0x20 && c != '\n') || c == 0x7f)
			return false;
	}
	return true;
}

static bool word_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

enum out_style { OUT_PLAIN, OUT_SINGLE, OUT_DOUBLE, OUT_LITERAL };

/* Psych's choice of style for a Ruby String, then libyaml's veto. */
static enum out_style string_style(const char *s, bool key)
{
	size_t len = strlen(s);
	const char *nl = strchr(s, '\n');
	enum out_style st = OUT_PLAIN;

	if (nl && nl[1] != '\0' && !key)
		st = OUT_LITERAL;
	else if (!strcmp(s, "<<"))
		st = OUT_SINGLE;
	else if (strstr(s, "<<"))
		/* a line with "<< :" is an include (lkp's text rule), also
		 * inside quotes: write_double spells the '<' as \x3C so that
		 * the job reads back (found by fuzzing) */
		return OUT_DOUBLE;
	else if (!strcmp(s, "y") || !strcmp(s, "Y") || !strcmp(s, "n") || !strcmp(s, "N"))
		st = OUT_DOUBLE;
	else if (len && !word_char((unsigned char)s[0]) && !strchr(s, '"'))
		st = OUT_DOUBLE;
	else if (job_scalar_type_of(s) != JOB_STR ||
		 (s[0] == '0' && strspn(s + 1, "01234567") < strlen(s + 1) &&
		  isdigit((unsigned char)s[1 + strspn(s + 1, "01234567")])))
		st = OUT_SINGLE;
	if (st == OUT_LITERAL) {
		if (!printable_ascii(s) || strstr(s, " \n") || s[0] == ' ')
			st = OUT_DOUBLE;
		return st;
	}
	if (st == OUT_PLAIN && !plain_allowed(s, key))
		st = OUT_SINGLE;
	/* libfyaml (0.8) reads 'a''''b' as "a'''": two quotes in a row go
	 * double-quoted (found by fuzzing) */
	if (st == OUT_SINGLE && (!printable_ascii(s) || strchr(s, '\n') || strstr(s, "''")))
		st = OUT_DOUBLE;
	return st;
}

/* Write words separated by single spaces, breaking lines past the width
 * as libyaml does for plain and quoted scalars. */
static void write_wrapped(struct strbuf *out, const char *s, size_t len,
			  int indent, size_t *col, bool allow_breaks)
{
	for (size_t i = 0; i < len; i++) {
		if (allow_breaks && s[i] == ' ' && i + 1 < len && s[i + 1] != ' ' &&
		    i > 0 && s[i - 1] != ' ' && *col > LINE_WIDTH) {
			strbuf_addch(out, '\n');
			strbuf_addchars(out, ' ', (size_t)indent);
			*col = (size_t)indent;
			continue;
		}
		strbuf_addch(out, s[i]);
		(*col)++;
	}
}

/*
 * wrap: fold at a single space past LINE_WIDTH as libyaml does; never in
 * a key, which must stay on one line, nor in a run of spaces, whose first
 * ones would end the line and be stripped on reading (both did not read
 * back: found by fuzzing).
 */
static void write_double(struct strbuf *out, const char *s, int indent, size_t *col,
			 bool wrap)
{
	const char *start = s;

	strbuf_addch(out, '"');
	(*col)++;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = NULL;
		char tmp[8];

		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\t': esc = "\\t"; break;
		case '\r': esc = "\\r"; break;
		case 0: esc = "\\0"; break;
		case 0x1b: esc = "\\e"; break;
		case '<':
			if (s[1] == '<')
				esc = "\\x3C";
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				snprintf(tmp, sizeof(tmp), "\\x%02X", c);
				esc = tmp;
			}
		}
		if (esc) {
			strbuf_addstr(out, esc);
			*col += strlen(esc);
		} else if (wrap && c == ' ' && s > start && s[-1] != ' ' && s[1] && s[1] != ' ' &&
			   *col > LINE_WIDTH) {
			/* libyaml breaks with a trailing backslash-free newline */
			strbuf_addch(out, '\n');
			strbuf_addchars(out, ' ', (size_t)indent);
			*col = (size_t)indent;
		} else {
			strbuf_addch(out, (char)c);
			(*col)++;
		}
	}
	strbuf_addch(out, '"');
	(*col)++;
}

void job_scalar_to_s(const struct job_value *v, struct strbuf *sb)
{
	const char *s = v->text;

	if (v->kind != JOB_SCALAR)
		return;
	switch (v->type) {
	case JOB_BOOL:
		strbuf_addstr(sb, strchr("yYtToO", s[0]) && strcasecmp(s, "off") ?
			      "true" : "false");
		return;
	case JOB_INT:
		if (!strchr(s, ':')) {
			/* 0x.., 0b.., 010, 1_000, 1,000, +5: Ruby prints the number */
			char *clean = xmalloc(strlen(s) + 1), *d = clean;
			const char *p = s;
			int base = 10;
			bool neg = false;
			long long n;

			if (*p == '-' || *p == '+')
				neg = *p++ == '-';
			if (p[0] == '0' && (p[1] == 'x' || p[1] == 'b')) {
				base = p[1] == 'x' ? 16 : 2;
				p += 2;
			} else if (p[0] == '0' && p[1]) {
				base = 8;
			}
			for (; *p; p++)
				if (*p != '_' && *p != ',')
					*d++ = *p;
			*d = 0;
			n = strtoll(clean, NULL, base);
			strbuf_addf(sb, "%s%lld", neg && n ? "-" : "", n);
			free(clean);
			return;
		}
		break;
	case JOB_FLOAT:
		if (!strcasecmp(s, ".nan")) {
			strbuf_addstr(sb, ".nan");
			return;
		}
		if (strcasestr(s, ".inf")) {
			strbuf_addstr(sb, s[0] == '-' ? "-.inf" : ".inf");
			return;
		}
		if (!strchr(s, ':')) {
			char *clean = xstrdup(s), *d = clean;
			for (const char *p = s; *p; p++)
				if (*p != '_' && *p != ',')
					*d++ = *p;
			*d = 0;
			fmt_ruby_float(sb, strtod(clean, NULL));
			free(clean);
			return;
		}
		break;
	default:
		break;
	}
	strbuf_addstr(sb, s);
}

/* Append a scalar's text as YAML, starting at column *col. */
static void write_scalar(struct strbuf *out, const struct job_value *v,
			 int indent, size_t *col, bool key)
{
	const char *s = v->text;

	if (v->kind == JOB_NULL)
		return;
	if (v->type != JOB_STR) {
		/* Ruby's own values print in their canonical form */
		size_t before = out->len;
		job_scalar_to_s(v, out);
		*col += out->len - before;
		return;
	}
	switch (string_style(s, key)) {
	case OUT_PLAIN:
		write_wrapped(out, s, strlen(s), indent, col, !key);
		break;
	case OUT_SINGLE:
		strbuf_addch(out, '\'');
		(*col)++;
		for (const char *p = s; *p; p++) {
			if (*p == '\'') {
				strbuf_addstr(out, "''");
				*col += 2;
			} else {
				write_wrapped(out, p, 1, indent, col, false);
			}
		}
		strbuf_addch(out, '\'');
		(*col)++;
		break;
	case OUT_DOUBLE:
		write_double(out, s, indent, col, !key);
		break;
	case OUT_LITERAL: {
		size_t len = strlen(s);
		const char *p = s;
		/* chomping: "|" keeps one final newline, "|-" none, "|+" more */
		if (len && s[len - 1] == '\n')
			strbuf_addstr(out, len > 1 && s[len - 2] == '\n' ? "|+" : "|");
		else
			strbuf_addstr(out, "|-");
		while (*p) {
			const char *nl = strchrnul(p, '\n');
			strbuf_addch(out, '\n');
			if (nl > p)
				strbuf_addchars(out, ' ', (size_t)indent);
			strbuf_add(out, p, (size_t)(nl - p));
			if (!*nl)
				break;
			p = nl + 1;
		}
		*col = 0;
		/* the caller adds the final newline */
		break;
	}
	}
}

static void write_value(struct strbuf *out, const struct job_value *v, int indent, size_t col);
static void write_item(struct strbuf *out, const struct job_value *v, int indent);

static bool is_empty_container(const struct job_value *v)
{
	if (v->kind == JOB_SEQ)
		return v->nr == 0;
	if (v->kind == JOB_MAP) {
		for (size_t i = 0; i < v->nr; i++)
			if (!v->ent[i].comment)
				return false;
		return true;
	}
	return false;
}

/* Write map entries at indent; the first one continues the current line
 * when first_inline (a map inside a list item). */
static void write_map(struct strbuf *out, const struct job_value *map, int indent,
		      bool first_inline, bool top)
{
	bool first = true;

	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		struct job_value key = { .kind = JOB_SCALAR, .text = e->key };
		size_t col = (size_t)indent;

		if (e->comment) {
			if (top) {
				strbuf_addf(out, "\n#%s\n", e->key);
				continue;
			}
			key.text = NULL;
			continue;
		}
		key.type = job_scalar_type_of(e->key) == JOB_STR ? JOB_STR : JOB_STR;
		if (!(first && first_inline))
			strbuf_addchars(out, ' ', (size_t)indent);
		first = false;
		write_scalar(out, &key, indent, &col, true);
		strbuf_addch(out, ':');
		write_value(out, e->val, indent, col + 1);
	}
}

/* Write v after "key:" (col is the column after the colon), including
 * the final newline. */
static void write_value(struct strbuf *out, const struct job_value *v, int indent,
			size_t col)
{
	switch (v->kind) {
	case JOB_NULL:
		strbuf_addch(out, '\n');
		return;
	case JOB_SCALAR:
		strbuf_addch(out, ' ');
		col++;
		write_scalar(out, v, indent + 2, &col, false);
		strbuf_addch(out, '\n');
		return;
	case JOB_SEQ:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " []\n");
			return;
		}
		strbuf_addch(out, '\n');
		/* libyaml writes a map's sequence without extra indentation */
		for (size_t i = 0; i < v->nr; i++) {
			strbuf_addchars(out, ' ', (size_t)indent);
			strbuf_addch(out, '-');
			write_item(out, v->item[i], indent);
		}
		return;
	case JOB_MAP:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " {}\n");
			return;
		}
		strbuf_addch(out, '\n');
		write_map(out, v, indent + 2, false, false);
		return;
	}
}

/* Write a list item after its "-". */
static void write_item(struct strbuf *out, const struct job_value *v, int indent)
{
	size_t col;

	switch (v->kind) {
	case JOB_NULL:
		/* not Psych's bare "-": libfyaml (0.8) refuses that in a list
		 * at its key's indentation ("k:\n-\n"), so the job would not
		 * read back (found by fuzzing) */
		strbuf_addstr(out, " ~\n");
		return;
	case JOB_SCALAR:
		strbuf_addch(out, ' ');
		col = (size_t)indent + 2;
		write_scalar(out, v, indent + 2, &col, false);
		strbuf_addch(out, '\n');
		return;
	case JOB_SEQ:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " []\n");
			return;
		}
		for (size_t i = 0; i < v->nr; i++) {
			if (i)
				strbuf_addchars(out, ' ', (size_t)indent + 2);
			else
				strbuf_addch(out, ' ');
			strbuf_addch(out, '-');
			write_item(out, v->item[i], indent + 2);
		}
		return;
	case JOB_MAP:
		if (is_empty_container(v)) {
			strbuf_addstr(out, " {}\n");
			return;
		}
		strbuf_addch(out, ' ');
		write_map(out, v, indent + 2, true, false);
		return;
	}
}

void job_to_yaml(const struct job *job, struct strbuf *out)
{
	strbuf_addstr(out, "---\n");
	write_map(out, job->root, 0, false, true);
}

int job_save(const struct job *job, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	job_to_yaml(job, &sb);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

/* ------------------------------------------------------------------ */
/* percentages of CPUs */

/* lkp's parameters that count CPUs, where "N%" means N% of nr_cpu. */
static const char *const cpu_count_keys[] = {
	"nr_threads", "nr_task", "nr_process", "nr_processes", "nr_cpu_used",
	"nr_instances", "nr_workers", "nr_jobs", "threads", "nr_pmem",
	NULL
};

int job_percent_of_cpus(const char *text, long nr_cpu, long long *out)
{
	const char *p = text;
	char *end;
	double pct;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (!*p) {
		errno = 0;
		*out = strtoll(text, &end, 10);
		return errno ? -1 : 0;
	}
	/* lkp's params/nr_threads: /(\d+(?:\.\d+)?)%$/ -> (N.to_f * nr_cpu / 100).to_i */
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (strcmp(p, "%"))
		return -1;
	pct = strtod(text, NULL);
	*out = (long long)(pct * (double)nr_cpu / 100);
	return 0;
}

static bool is_cpu_count_key(const char *key)
{
	for (const char *const *k = cpu_count_keys; *k; k++)
		if (!strcmp(*k, key))
			return true;
	return false;
}

static int expand_pct(struct job_value *v, const char *key, long nr_cpu)
{
	long long n;

	if (v->kind == JOB_SCALAR && key && is_cpu_count_key(key) &&
	    v->text[0] && v->text[strlen(v->text) - 1] == '%') {
		if (job_percent_of_cpus(v->text, nr_cpu, &n) < 0) {
			struct strbuf sb = STRBUF_INIT;
			job_source_line(v, &sb);
			error("%s: '%s' expected N or N%% (a share of the CPUs), got '%s'",
			      sb.buf, key, job_value_shown(v));
			strbuf_release(&sb);
			return -1;
		}
		/* lkp names results by what the job says: "100%" */
		free(v->named);
		v->named = v->text;
		v->text = xmalloc(32);
		snprintf(v->text, 32, "%lld", n);
		v->type = JOB_INT;
		v->style = JOB_PLAIN;
		return 0;
	}
	if (v->kind == JOB_SEQ) {
		for (size_t i = 0; i < v->nr; i++)
			if (expand_pct(v->item[i], key, nr_cpu) < 0)
				return -1;
	} else if (v->kind == JOB_MAP) {
		for (size_t i = 0; i < v->nr; i++)
			if (!v->ent[i].comment &&
			    expand_pct(v->ent[i].val, v->ent[i].key, nr_cpu) < 0)
				return -1;
	}
	return 0;
}

int job_expand_percentages(struct job *job, long nr_cpu)
{
	if (nr_cpu <= 0)
		nr_cpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpu <= 0)
		nr_cpu = 1;
	return expand_pct(job->root, NULL, nr_cpu);
}
