/*
 * split.c: from one job file to lkp's atomic jobs.
 *
 * lkp's split-job expands the parameter matrix, then fills each atomic
 * job with defaults from include files written as ERB templates.  The
 * templates use a small part of Ruby; erb_expand() below interprets that
 * part (documented in split.h) and reports anything else as an error
 * rather than guessing.
 */
#include "job/split.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "job/job_src.h"
#include "job/revise.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ */
/* include defaults */

/*
 * One pass of lkp's load_defaults: the include files that the job's keys
 * select, read as templates in the job's context.  `loaded` lists the
 * files already read (by this pass or, for an atom, by its job's pass).
 */
struct defaults_ctx {
	struct job_catalog *cat;
	struct job_value *ctx;          /* the job as the templates see it */
	const struct job_value *overrides;
	struct job_value *defaults;     /* collected, with "#! file" markers */
	struct job_programs progs;
	char ***loaded;
	size_t *nr_loaded, *alloc_loaded;
};

/* A file that is no directory, as the include look-ups want it. */
static bool is_file(struct job_catalog *cat, const char *path)
{
	mode_t m = job_catalog_mode(cat, path);
	return m && !S_ISDIR(m);
}

/* The include file for (key, name): include/KEY/NAME, include/KEY (name ==
 * key), programs/KEY/include/NAME, programs/KEY/include (name == key). */
static bool include_file(struct job_catalog *cat, const char *key,
			 const char *name, struct strbuf *path, struct strbuf *label)
{
	const char *const *dirs = cat->dirs;

	static const char *const forms[] = {
		"%s/include/%s/%s", "%s/programs/%s/include/%s", NULL
	};
	if (strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, ".") ||
	    strchr(key, '/') || key[0] == '.')
		return false;
	for (const char *const *d = dirs; d && *d; d++) {
		for (const char *const *f = forms; *f; f++) {
			strbuf_reset(path);
			strbuf_addf(path, *f, *d, key, name);
			if (is_file(cat, path->buf))
				goto found;
		}
		if (!strcmp(key, name)) {
			strbuf_reset(path);
			strbuf_addf(path, "%s/include/%s", *d, key);
			if (is_file(cat, path->buf))
				goto found;
			strbuf_reset(path);
			strbuf_addf(path, "%s/programs/%s/include", *d, key);
			if (is_file(cat, path->buf))
				goto found;
		}
		continue;
found:
		{
			const char *rel = path->buf + strlen(*d);
			while (*rel == '/')
				rel++;
			strbuf_reset(label);
			strbuf_addf(label, "! %s", rel);
		}
		return true;
	}
	return false;
}

static bool has_include_set(struct job_catalog *cat, const char *key)
{
	struct strbuf p = STRBUF_INIT;
	bool ok = false;

	if (strchr(key, '/') || key[0] == '.' || !*key)
		return false;
	for (const char *const *d = cat->dirs; d && *d && !ok; d++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/include/%s", *d, key);
		ok = job_catalog_mode(cat, p.buf) != 0;
		if (!ok) {
			strbuf_reset(&p);
			strbuf_addf(&p, "%s/programs/%s/include", *d, key);
			ok = job_catalog_mode(cat, p.buf) != 0;
		}
	}
	strbuf_release(&p);
	return ok;
}

/* Load one include file; returns 1 loaded, 0 absent/already, -1 error. */
static int load_one(struct defaults_ctx *c, const char *key, const char *name,
		    const struct job_value *___)
{
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT;
	struct strbuf yaml = STRBUF_INIT;
	struct job_value *ctxmap = NULL;
	struct job *inc = NULL;
	struct job_load_opts o = { .include_dirs = c->cat->dirs, .no_check = true };
	const char *text;
	size_t len;
	int ret = 0;

	if (!include_file(c->cat, key, name, &path, &label))
		goto out;
	for (size_t i = 0; i < *c->nr_loaded; i++)
		if (!strcmp((*c->loaded)[i], path.buf))
			goto out;
	if (job_catalog_read(c->cat, path.buf, &text, &len) < 0) {
		ret = -1;
		goto out;
	}
	/* the template sees the defaults so far under the job's own keys */
	ctxmap = job_value_dup(c->defaults);
	revise_map(ctxmap, c->ctx, true);
	if (c->overrides)
		revise_map(ctxmap, c->overrides, true);
	ret = erb_expand(text, path.buf, ctxmap, ___, c->cat, &yaml);
	if (ret) {
		/* lkp's KeyError (1): not loaded now, a later pass may */
		ret = ret < 0 ? -1 : 0;
		goto out;
	}
	if (job_load_string(yaml.buf, yaml.len, path.buf, &o, &inc) < 0) {
		ret = -1;
		goto out;
	}
	ALLOC_GROW(*c->loaded, *c->nr_loaded + 1, *c->alloc_loaded);
	(*c->loaded)[(*c->nr_loaded)++] = xstrdup(path.buf);
	if (inc->root->nr) {
		job_map_add_comment(c->defaults, label.buf);
		revise_map(c->defaults, inc->root, true);
	}
	ret = 1;
out:
	job_free(inc);
	job_value_free(ctxmap);
	strbuf_release(&path);
	strbuf_release(&label);
	strbuf_release(&yaml);
	return ret;
}

/* lkp's job['___'] = v: the templates' view of the value at hand. */
static void set_underscores(struct defaults_ctx *c, const struct job_value *v)
{
	job_map_set(c->ctx, "___", job_value_dup(v));
}

static int walk_defaults(struct defaults_ctx *c, const struct job_value *map)
{
	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		const struct job_value *v = e->val;
		int r;

		if (e->comment)
			continue;
		if (has_include_set(c->cat, e->key)) {
			bool done = false;
			set_underscores(c, v);
			/*
			 * Both passes read a program's include files, in key
			 * order; one whose template names a key the job lacks
			 * yet (an option list the job's pass dropped) waits
			 * for the atoms' pass, as lkp's KeyError makes it.
			 */
			if (job_programs_has_program(&c->progs, e->key)) {
				r = load_one(c, e->key, e->key, v);
				if (r < 0)
					return -1;
				done = r > 0;
				if (!done && v->kind == JOB_MAP)
					for (size_t k = 0; k < v->nr; k++) {
						if (v->ent[k].comment ||
						    !job_programs_option(&c->progs, v->ent[k].key))
							continue;
						set_underscores(c, v->ent[k].val);
						if (load_one(c, e->key, v->ent[k].key, v->ent[k].val) < 0)
							return -1;
					}
			}
			/* Ruby's String only: not integers, lists or mappings */
			if (!done && v->kind == JOB_SCALAR && v->type == JOB_STR) {
				/* "vm-lkp-wsx01-4G": vm, vm-lkp, vm-lkp-wsx01, ... */
				const char *s = v->text, *p = s;
				int hit = 0;
				for (;;) {
					char *prefix;
					p += strcspn(p, ":-");
					prefix = xstrndup(s, (size_t)(p - s));
					r = load_one(c, e->key, prefix, v);
					free(prefix);
					if (r < 0)
						return -1;
					hit = r;
					if (!*p)
						break;
					p++;
				}
				if (!hit && load_one(c, e->key, "OTHERS", v) < 0)
					return -1;
				if (load_one(c, e->key, "ALL", v) < 0)
					return -1;
			}
		}
		if (v->kind == JOB_MAP && walk_defaults(c, v) < 0)
			return -1;
	}
	return 0;
}

/* lkp's EXPAND_DIMS */
static const char *const expand_dims[] = {
	"kconfig", "commit", "rootfs", "ltp_commit", "nvml_commit", "blktests_commit",
	"qemu_commit", "perf_test_commit", "linux_commit", NULL
};

static bool is_dim(const struct job_programs *p, const char *key)
{
	for (const char *const *d = expand_dims; *d; d++)
		if (!strcmp(*d, key))
			return true;
	return job_programs_has_program(p, key) || job_programs_option(p, key);
}

/* Before choosing files, lkp drops the lists that split-job expands. */
static void drop_dim_lists(struct job_value *map, const struct job_programs *p)
{
	for (size_t i = 0; i < map->nr;) {
		struct job_entry *e = &map->ent[i];
		if (!e->comment && e->val->kind == JOB_SEQ && is_dim(p, e->key)) {
			job_map_delete(map, e->key);
			continue;
		}
		if (!e->comment && e->val->kind == JOB_MAP)
			drop_dim_lists(e->val, p);
		i++;
	}
}

/*
 * lkp's load_defaults: the defaults that job (with doc2, the later
 * document, and the -s overrides over it) selects, as a map with markers.
 * Returns NULL after an error.
 */
static struct job_value *collect_defaults(const struct job_value *job,
					  const struct job_value *doc2,
					  const struct job_value *overrides,
					  struct job_catalog *cat, char ***loaded,
					  size_t *nr_loaded, size_t *alloc_loaded)
{
	struct defaults_ctx c;
	struct job_value *ret;

	memset(&c, 0, sizeof(c));
	c.cat = cat;
	c.overrides = overrides;
	c.loaded = loaded;
	c.nr_loaded = nr_loaded;
	c.alloc_loaded = alloc_loaded;
	c.ctx = job_value_dup(job);
	{
		/* lkp revises with doc2 ({} for the first document) even when
		 * empty: that is where the job's own `key-:` and `a.b:` apply */
		struct job_value *none = job_value_new(JOB_MAP);
		revise_map(c.ctx, doc2 ? doc2 : none, true);
		job_value_free(none);
	}
	if (overrides)
		revise_map(c.ctx, overrides, true);
	job_map_set(c.ctx, "___", job_value_new(JOB_NULL));
	job_programs_init(&c.progs, c.ctx, cat);
	drop_dim_lists(c.ctx, &c.progs);
	job_params_map(c.ctx, cat);
	c.defaults = job_value_new(JOB_MAP);
	{
		/* walk a copy: the walk rewrites ctx's "___" as it goes */
		struct job_value *walk = job_value_dup(c.ctx);
		int r = walk_defaults(&c, walk);
		job_value_free(walk);
		if (r < 0) {
			job_value_free(c.defaults);
			c.defaults = NULL;
		}
	}
	ret = c.defaults;
	job_programs_release(&c.progs);
	job_value_free(c.ctx);
	return ret;
}

/* perfbot's own default monitors when lkp's catalog is not at hand. */
static void builtin_defaults(const struct job_value *job, struct job_value *defaults,
			     struct job_catalog *catalog)
{
	const struct job_value *cat = job_map_get(job, "category");
	struct strbuf p = STRBUF_INIT, l = STRBUF_INIT;

	if (cat && cat->kind == JOB_SCALAR && !strcmp(cat->text, "benchmark") &&
	    !include_file(catalog, "category", "benchmark", &p, &l)) {
		job_map_add_comment(defaults, "! include/category/benchmark");
		for (const struct job_monitor *m = job_monitor_table(); m->name; m++)
			if (m->supported && m->in_benchmark_set)
				job_map_set(defaults, m->name, job_value_new(JOB_NULL));
	}
	strbuf_release(&p);
	strbuf_release(&l);
}

static void free_loaded(char **loaded, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(loaded[i]);
	free(loaded);
}

/*
 * lkp's --compatible: a job lkp already expanded may carry sections that
 * do not read back (queue options, host data); keep only the lines of
 * sections whose "#! " header names a .yaml file (and those before any).
 */
void job_refine_compatible(const char *text, struct strbuf *out)
{
	bool keep = true, any = false;

	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');
		if (!strncmp(p, "#! ", 3) || !strncmp(p, ":#! ", 4))
			any = true;
		p = *nl ? nl + 1 : nl;
	}
	if (!any) {
		strbuf_addstr(out, text);
		return;
	}
	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');
		size_t len = (size_t)(nl - p);
		if (!strncmp(p, "#! ", 3) || !strncmp(p, ":#! ", 4)) {
			size_t l = len;
			if (l && p[l - 1] == ':')
				l--;
			keep = l >= 5 && !strncmp(p + l - 5, ".yaml", 5);
		}
		if (keep) {
			strbuf_add(out, p, len);
			strbuf_addch(out, '\n');
		}
		p = *nl ? nl + 1 : nl;
	}
}

/* ------------------------------------------------------------------ */
/* the matrix */

/* A "{{ expr }}" string value: lkp evaluates it as a dimension. */
static bool is_template(const struct job_value *v)
{
	const char *o;
	return v->kind == JOB_SCALAR && v->type == JOB_STR &&
	       (o = strstr(v->text, "{{")) && strstr(o + 2, "}}");
}

/* The first list under a dimension key, depth first, in key order. */
static struct job_entry *first_dim(struct job_value *map, const struct job_programs *p)
{
	for (size_t i = 0; i < map->nr; i++) {
		struct job_entry *e = &map->ent[i];
		struct job_entry *in;

		if (e->comment)
			continue;
		if ((e->val->kind == JOB_SEQ && is_dim(p, e->key)) || is_template(e->val))
			return e;
		if (e->val->kind == JOB_MAP && (in = first_dim(e->val, p)))
			return in;
	}
	return NULL;
}

struct split_ctx {
	const struct split_opts *opts;
	struct job_catalog *cat;
	const struct job_value *doc2;   /* the later document, or NULL */
	char **loaded;                  /* include files the job's pass read */
	size_t nr_loaded;
	job_atom_fn fn;
	void *ctx;
};

/*
 * The later document as an atom's pass sees it.  lkp's merge puts doc2's
 * own top-level values into the job (Hash#merge! keeps the object), so
 * each_job's h[k] = vv inside such a mapping writes into doc2 too: the
 * atom's pass reads `ltp: {test: ima}`, not doc2's `test: [ima]` (which
 * it would drop as a list, leaving programs/ltp/include unread).  A
 * top-level value the matrix replaces, or an accumulated one, is a new
 * object in the job and doc2 keeps its own.
 */
static struct job_value *doc2_for_atom(const struct job_value *doc2,
				       const struct job_value *atom)
{
	struct job_value *d = job_value_dup(doc2);

	for (size_t i = 0; i < d->nr; i++) {
		struct job_entry *e = &d->ent[i];
		const struct job_value *now;
		size_t n;

		if (e->comment || e->val->kind != JOB_MAP)
			continue;
		n = strlen(e->key);
		if (!n || e->key[n - 1] == '+' || e->key[n - 1] == '-' ||
		    revise_accumulative_key(e->key))
			continue;
		now = job_map_get(atom, e->key);
		if (!now || now->kind != JOB_MAP)
			continue;
		job_value_free(e->val);
		e->val = job_value_dup(now);
	}
	return d;
}

/* An atom: lkp's second load_defaults, for files the job's pass did not
 * read, never overriding what the atom has. */
static int emit_atom(struct split_ctx *s, const struct job *job)
{
	struct job *atom = job_dup(job);

	if (!s->opts->no_defaults) {
		char **loaded = xcalloc(s->nr_loaded + 1, sizeof(*loaded));
		size_t nr = s->nr_loaded, alloc = s->nr_loaded + 1;
		struct job_value *d, *doc2 = s->doc2 ? doc2_for_atom(s->doc2, atom->root) : NULL;

		for (size_t i = 0; i < nr; i++)
			loaded[i] = xstrdup(s->loaded[i]);
		d = collect_defaults(atom->root, doc2, s->opts->overrides, s->cat,
				     &loaded, &nr, &alloc);
		job_value_free(doc2);
		free_loaded(loaded, nr);
		if (!d) {
			job_free(atom);
			return -1;
		}
		revise_map(atom->root, d, false);
		job_value_free(d);
	}
	return s->fn(atom, s->ctx);
}

static int expand(struct split_ctx *s, struct job *job, const struct job_programs *p)
{
	struct job_entry *e = first_dim(job->root, p);
	struct job_value *list;
	int ret = 0;

	if (!e)
		return emit_atom(s, job);
	/* the job is not reallocated below (atoms are copies), so e stays */
	list = e->val;
	if (is_template(list)) {
		/* lkp's each_job: head{{expr}}tail; a nil whole value drops
		 * the atom; the result keeps its type when it is the value */
		const char *o = strstr(list->text, "{{"), *c = strrchr(list->text, '}') - 1;
		char *expr = xstrndup(o + 2, (size_t)(c - o - 2));
		struct job_value *v;
		const char *h = list->text, *t = c + 2;
		while (h < o && isspace((unsigned char)*h))
			h++;
		while (*t && isspace((unsigned char)*t))
			t++;
		struct strbuf where = STRBUF_INIT;
		strbuf_addf(&where, "%s: key '%s'", job->path, e->key);
		ret = erb_eval(expr, where.buf, job->root, s->cat, &v);
		strbuf_release(&where);
		free(expr);
		if (ret < 0)
			return -1;
		if (!v)
			return 0;
		if (h < o || *t) {
			struct strbuf sb = STRBUF_INIT;
			size_t tl = strlen(c + 2);
			while (tl && isspace((unsigned char)c[2 + tl - 1]))
				tl--;
			strbuf_add(&sb, h, (size_t)(o - h));
			job_scalar_to_s(v, &sb);
			strbuf_add(&sb, c + 2, tl);
			job_value_free(v);
			v = job_string_new(sb.buf);
			strbuf_release(&sb);
		}
		e->val = v;
		ret = expand(s, job, p);
		e->val = list;
		job_value_free(v);
		return ret;
	}
	for (size_t i = 0; i < list->nr && !ret; i++) {
		e->val = list->item[i];
		ret = expand(s, job, p);
	}
	e->val = list;
	return ret;
}

/* The "#! file" label lkp gives a job file: its path without LKP_SRC/. */
static void origin_label(const char *origin, const char *const *dirs, struct strbuf *sb)
{
	const char *rel = origin;

	for (const char *const *d = dirs; d && *d; d++) {
		size_t n = strlen(*d);
		if (!strncmp(origin, *d, n) && origin[n] == '/') {
			rel = origin + n + 1;
			break;
		}
	}
	strbuf_addf(sb, "! %s", rel);
}

/* lkp's load_hosts_config: the host's keys after a marker; the job's win. */
static void load_hosts(struct job *base, struct job_catalog *cat)
{
	const char *group = job_get(base, "tbox_group");
	struct strbuf path = STRBUF_INIT;

	for (const char *const *d = cat->dirs; group && !strchr(group, '/') && d && *d; d++) {
		struct job_load_opts o = { .include_dirs = cat->dirs, .no_check = true };
		struct job *hw;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/hosts/%s", *d, group);
		if (!is_file(cat, path.buf))
			continue;
		if (job_load_opts(path.buf, &o, &hw) < 0) {
			warning("ignoring host file '%s'", path.buf);
			break;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "! hosts/%s", group);
		job_map_add_comment(base->root, path.buf);
		for (size_t i = 0; i < hw->root->nr; i++) {
			const struct job_entry *e = &hw->root->ent[i];
			if (!e->comment && !job_map_get(base->root, e->key))
				job_map_set(base->root, e->key, job_value_dup(e->val));
		}
		job_free(hw);
		break;
	}
	strbuf_release(&path);
}

/*
 * One document combination, as lkp's each_jobs: the job's defaults pass,
 * then the later document and the overrides over it, then the matrix.
 */
static int split_doc(struct split_ctx *s, const struct job *base)
{
	struct job *combo = job_dup(base);
	const struct job_value *over = s->opts->overrides;
	struct job_programs p;
	size_t alloc = 0;
	int ret = 0;

	s->loaded = NULL;
	s->nr_loaded = 0;
	if (!s->opts->no_defaults) {
		struct job_value *d = collect_defaults(combo->root, s->doc2, over, s->cat,
						       &s->loaded, &s->nr_loaded, &alloc);
		if (!d) {
			ret = -1;
			goto out;
		}
		builtin_defaults(combo->root, d, s->cat);
		revise_map(combo->root, d, false);
		job_value_free(d);
	} else {
		/* lkp's merge_defaults all the same: the job's `key-:` go */
		struct job_value *none = job_value_new(JOB_MAP);
		revise_map(combo->root, none, false);
		job_value_free(none);
	}
	if (s->doc2)
		revise_map(combo->root, s->doc2, true);
	if (over && over->nr) {
		job_map_delete_comment(combo->root, "! user overrides");
		job_map_add_comment(combo->root, "! user overrides");
		revise_map(combo->root, over, true);
	}
	job_programs_init(&p, combo->root, s->cat);
	ret = expand(s, combo, &p);
	job_programs_release(&p);
out:
	free_loaded(s->loaded, s->nr_loaded);
	s->loaded = NULL;
	s->nr_loaded = 0;
	job_free(combo);
	return ret;
}

int job_split(const struct job *job, const char *origin,
	      const struct split_opts *opts, job_atom_fn fn, void *ctx)
{
	struct split_ctx s = { opts, opts->catalog, NULL, NULL, 0, fn, ctx };
	struct job_catalog own;
	struct job *base = job_new();
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	int ret = 0;

	if (!s.cat)
		job_catalog_init(s.cat = &own, opts->include_dirs);
	/* the atoms' messages name the file they came from */
	base->path = xstrdup(job->path ? job->path : origin);
	if (!job_lookup(job, "job_origin")) {
		origin_label(origin, s.cat->dirs, &sb);
		job_map_add_comment(base->root, sb.buf);
	}
	/*
	 * The job's keys as written: lkp applies `kmsg-:` (and `a.b:`) when
	 * it first revises the job, merging the defaults, so a default
	 * monitor the job turns off goes (pmbench-dcpmm.yaml's
	 * `perf-profile-:`, `heartbeat-:`, `kmsg-:`).
	 */
	for (size_t i = 0; i < job->root->nr; i++) {
		const struct job_entry *e = &job->root->ent[i];
		if (e->comment) {
			job_map_add_comment(base->root, e->key);
		} else {
			struct job_entry *to;
			job_map_set(base->root, e->key, job_value_dup(e->val));
			/* the key's own place, for messages about it */
			to = job_map_find_entry(base->root, e->key);
			if (to && !to->src && e->src) {
				to->src = src_get(e->src);
				to->line = e->line;
				to->col = e->col;
			}
		}
	}
	if (!job_lookup(base, "job_origin"))
		job_set_value(base, "job_origin", job_string_new(origin));
	if (opts->kconfig)
		job_set_value(base, "kconfig", job_string_new(opts->kconfig));
	if (opts->commit)
		job_set_value(base, "commit", job_string_new(opts->commit));
	strbuf_reset(&sb);
	if (opts->testbox) {
		strbuf_addstr(&sb, opts->testbox);
	} else {
		char name[256] = "localhost";
		const char *env = getenv("HOSTNAME");
		if (env && *env)
			snprintf(name, sizeof(name), "%s", env);
		else if (gethostname(name, sizeof(name) - 1) < 0)
			strcpy(name, "localhost");
		name[sizeof(name) - 1] = 0;
		strbuf_addstr(&sb, name);
	}
	job_set_value(base, "testbox", job_string_new(sb.buf));
	if (!job_lookup(base, "arch") || job_lookup(base, "arch")->kind == JOB_NULL)
		job_set_value(base, "arch", job_string_new(opts->arch ? opts->arch :
				uname(&u) == 0 ? u.machine : "x86_64"));
	{
		struct strbuf g = STRBUF_INIT;
		job_tbox_group(sb.buf, &g);
		job_set_value(base, "tbox_group", job_string_new(g.buf));
		strbuf_release(&g);
	}
	if (job_lookup(base, "cluster"))
		job_set_value(base, "node_roles", job_string_new("server client"));
	{
		/* an atom's file is named by its parameters, not the job's
		 * name: a mytest job keeps the name its own file gave it */
		const char *key, *tc = job_testcase(job, &key);
		struct strbuf n = STRBUF_INIT;
		if (tc && !strcmp(tc, "mytest") && !job_lookup(base, "name") &&
		    job_mytest_name(job, &n))
			job_set_value(base, "name", job_string_new(n.buf));
		strbuf_release(&n);
	}
	if (!opts->no_defaults)
		load_hosts(base, s.cat);

	for (size_t d = 0; d <= job->nr_docs && !ret; d++) {
		s.doc2 = d ? job->docs[d - 1] : NULL;
		ret = split_doc(&s, base);
	}
	if (s.cat == &own)
		job_catalog_release(&own);
	strbuf_release(&sb);
	job_free(base);
	return ret;
}
