/*
 * job.c: lkp-tests job files in memory: values, reading and changing
 * them, Ruby's typing of scalars, percentages of CPUs.
 *
 * The rest of the job layer: load.c reads a file (text first, YAML
 * second with yaml.c, as lkp does), keys.c holds the declared tables and checks the
 * top-level keys, write.c writes a job back as Psych's YAML.dump does.
 */
#include "job/job.h"
#include "job/job_src.h"

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
#include "util/error.h"
#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/xalloc.h"


const char *job_value_shown(const struct job_value *v)
{
	if (!v || v->kind != JOB_SCALAR)
		return NULL;
	return src_hidden(v->src) ? HIDDEN_TEXT : v->text;
}

const char *job_key_shown(const struct job_entry *e)
{
	/* an entry made by code (a split atom) may know only its value's file */
	const struct job_src *src = e->src ? e->src : e->val ? e->val->src : NULL;

	return src_hidden(src) ? HIDDEN_TEXT : e->key;
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

struct job_entry *job_map_find_entry(const struct job_value *map, const char *key)
{
	if (!map || map->kind != JOB_MAP)
		return NULL;
	for (size_t i = 0; i < map->nr; i++)
		if (!map->ent[i].comment && !strcmp(map->ent[i].key, key))
			return &map->ent[i];
	return NULL;
}

struct job_entry *job_map_append_entry(struct job_value *map, const char *key,
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
	struct job_entry *e = job_map_find_entry(map, key);

	if (e) {
		job_value_free(e->val);
		e->val = val;
		return;
	}
	job_map_append_entry(map, key, val);
}

void job_map_add_comment(struct job_value *map, const char *text)
{
	struct job_entry *e = job_map_append_entry(map, text, job_value_new(JOB_NULL));
	e->comment = true;
}

bool job_map_delete(struct job_value *map, const char *key)
{
	struct job_entry *e = job_map_find_entry(map, key);
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
	struct job_entry *e = job_map_find_entry(map, key);
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

bool job_set_default(struct job *job, const char *key, struct job_value *val)
{
	if (job_get(job, key)) {
		job_value_free(val);
		return false;
	}
	job_set_value(job, key, val);
	return true;
}

bool job_delete(struct job *job, const char *key)
{
	return job_map_delete(job->root, key);
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
	pct = strtod(text, NULL) * (double)nr_cpu / 100;
	/* "1e52 %" of digits: no long long (an undefined conversion, found
	 * by fuzzing) */
	if (!(pct < 9223372036854775807.0))
		return -1;
	*out = (long long)pct;
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

