/*
 * revise.c: lkp's revise_hash (see revise.h).
 */
#include "job/revise.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

bool revise_accumulative_key(const char *key)
{
	static const char *const keys[] = { "mail_to", "mail_cc", "constraints", NULL };

	for (const char *const *k = keys; *k; k++)
		if (!strcmp(*k, key))
			return true;
	return !strncmp(key, "need_", 5) && strcmp(key, "need_memory") &&
	       strcmp(key, "need_cpu") && strcmp(key, "need_modules");
}

static struct job_entry *find(const struct job_value *map, const char *key)
{
	for (size_t i = 0; i < map->nr; i++)
		if (!map->ent[i].comment && !strcmp(map->ent[i].key, key))
			return &map->ent[i];
	return NULL;
}

/* Ruby's Hash#update of a by b (b's value copied). */
static void update_map(struct job_value *a, const struct job_value *b)
{
	for (size_t i = 0; i < b->nr; i++)
		if (!b->ent[i].comment)
			job_map_set(a, b->ent[i].key, job_value_dup(b->ent[i].val));
}

/* lkp's merge_accumulative(a, b): consumes a, returns the result. */
static struct job_value *accumulate(struct job_value *a, const struct job_value *b)
{
	struct job_value *r;

	if (b->kind == JOB_NULL)
		return a;
	switch (a->kind) {
	case JOB_NULL:
		job_value_free(a);
		return job_value_dup(b);
	case JOB_SEQ:
		if (b->kind == JOB_SEQ)
			for (size_t i = 0; i < b->nr; i++)
				job_seq_append(a, job_value_dup(b->item[i]));
		else
			job_seq_append(a, job_value_dup(b));
		return a;
	case JOB_MAP:
		if (b->kind == JOB_MAP)
			update_map(a, b);
		else if (b->kind == JOB_SCALAR)
			job_map_set(a, b->text, job_value_new(JOB_NULL));
		return a;
	case JOB_SCALAR:
		if (b->kind == JOB_MAP) {
			r = job_value_dup(b);
			if (!find(r, a->text))
				job_map_set(r, a->text, job_value_new(JOB_NULL));
			job_value_free(a);
			return r;
		}
		r = job_value_new(JOB_SEQ);
		job_seq_append(r, a);
		if (b->kind == JOB_SEQ)
			for (size_t i = 0; i < b->nr; i++)
				job_seq_append(r, job_value_dup(b->item[i]));
		else
			job_seq_append(r, job_value_dup(b));
		return r;
	}
	return a;
}

/* lkp's lookup_hash(map, "a.b.c", create_missing: true): the mapping
 * that holds the last key reached, and that key.  Past REVISE_PATH_MAX
 * parts the rest of the path is one key, dots and all: lkp would nest a
 * 114-part key 114 deep, deeper than a job file may be read (64), so the
 * atom written would not load again; real keys have 2-4 parts. */
static struct job_value *lookup_path(struct job_value *map, const char *path,
				     struct strbuf *key)
{
	const char *p = path;

	for (int part = 1;; part++) {
		const char *dot = part < REVISE_PATH_MAX ? strchr(p, '.') : NULL;
		struct job_entry *e;

		strbuf_reset(key);
		strbuf_add(key, p, dot ? (size_t)(dot - p) : strlen(p));
		e = find(map, key->buf);
		if (!e || e->val->kind == JOB_NULL) {
			job_map_set(map, key->buf, job_value_new(dot ? JOB_MAP : JOB_NULL));
			e = find(map, key->buf);
		}
		if (e->val->kind != JOB_MAP || !dot)
			return map;
		map = e->val;
		p = dot + 1;
	}
}

/* Remove duplicates from a list, keeping first places (Array#uniq!). */
static void uniq(struct job_value *seq)
{
	size_t n = 0;

	for (size_t i = 0; i < seq->nr; i++) {
		bool dup = false;
		for (size_t k = 0; k < n && !dup; k++)
			dup = job_value_equal(seq->item[k], seq->item[i]);
		if (dup)
			job_value_free(seq->item[i]);
		else
			seq->item[n++] = seq->item[i];
	}
	seq->nr = n;
}

/* "KEY-: V": delete V's keys or items from KEY, or KEY when V is null. */
static void minus_key(struct job_value *map, const char *k, const struct job_value *v)
{
	struct strbuf path = STRBUF_INIT, key = STRBUF_INIT;
	struct job_value *h;
	struct job_entry *e;

	strbuf_add(&path, k, strlen(k) - 1);
	/* lookup without creating: walk existing mappings only */
	h = map;
	for (const char *p = path.buf;;) {
		const char *dot = strchr(p, '.');
		strbuf_reset(&key);
		strbuf_add(&key, p, dot ? (size_t)(dot - p) : strlen(p));
		e = find(h, key.buf);
		if (!e || !dot || e->val->kind != JOB_MAP)
			break;
		h = e->val;
		p = dot + 1;
	}
	e = find(h, key.buf);
	if (e && v->kind != JOB_NULL) {
		struct job_value *t = e->val;
		size_t nd = v->kind == JOB_MAP ? v->nr : v->kind == JOB_SEQ ? v->nr : 1;
		for (size_t i = 0; i < nd; i++) {
			const char *del = v->kind == JOB_MAP ? v->ent[i].key :
				v->kind == JOB_SEQ ? job_value_text(v->item[i]) : v->text;
			if (!del)
				continue;
			if (t->kind == JOB_MAP) {
				job_map_delete(t, del);
			} else if (t->kind == JOB_SEQ) {
				size_t n = 0;
				for (size_t j = 0; j < t->nr; j++) {
					const char *s = job_value_text(t->item[j]);
					if (s && !strcmp(s, del))
						job_value_free(t->item[j]);
					else
						t->item[n++] = t->item[j];
				}
				t->nr = n;
			}
		}
		if ((t->kind == JOB_MAP || t->kind == JOB_SEQ) && !t->nr)
			job_map_set(h, key.buf, job_value_new(JOB_NULL));
	} else if (e) {
		job_map_delete(h, key.buf);
	}
	strbuf_release(&path);
	strbuf_release(&key);
}

void revise_map(struct job_value *dst, const struct job_value *src, bool overwrite)
{
	struct strbuf key = STRBUF_INIT;
	char **special = NULL;
	size_t nr_special = 0, alloc_special = 0;

	for (size_t i = 0; i < src->nr; i++) {
		const struct job_entry *s = &src->ent[i];
		struct job_entry *d;
		size_t len;

		if (s->comment) {
			bool dup = false;
			for (size_t k = 0; k < dst->nr && !dup; k++)
				dup = dst->ent[k].comment && !strcmp(dst->ent[k].key, s->key);
			if (!dup)
				job_map_add_comment(dst, s->key);
			continue;
		}
		len = strlen(s->key);
		d = find(dst, s->key);
		if (!d)
			job_map_set(dst, s->key, job_value_dup(s->val));
		else if (len && (s->key[len - 1] == '+' || s->key[len - 1] == '-' ||
				 revise_accumulative_key(s->key)))
			d->val = accumulate(d->val, s->val);
		else if (overwrite)
			job_map_set(dst, s->key, job_value_dup(s->val));
	}
	/* then the keys of both that say more than a name */
	for (size_t i = 0; i < dst->nr; i++) {
		const char *k = dst->ent[i].key;
		size_t len = strlen(k);
		if (!dst->ent[i].comment && len &&
		    (k[len - 1] == '+' || k[len - 1] == '-' || strchr(k, '.'))) {
			ALLOC_GROW(special, nr_special + 1, alloc_special);
			special[nr_special++] = xstrdup(k);
		}
	}
	for (size_t i = 0; i < nr_special; i++) {
		const char *k = special[i];
		size_t len = strlen(k);
		struct job_entry *e = find(dst, k);
		struct job_value *v, *h;

		if (!e)
			continue;
		v = job_value_dup(e->val);
		if (k[len - 1] == '-') {
			minus_key(dst, k, v);
			job_map_delete(dst, k);
		} else if (k[len - 1] == '+') {
			char *base = xstrndup(k, len - 1);
			struct job_entry *t;
			h = lookup_path(dst, base, &key);
			t = find(h, key.buf);
			t->val = accumulate(t->val, v);
			if (t->val->kind == JOB_SEQ)
				uniq(t->val);
			free(base);
			job_map_delete(dst, k);
		} else {
			h = lookup_path(dst, k, &key);
			if (h != dst) {
				job_map_set(h, key.buf, job_value_dup(v));
				job_map_delete(dst, k);
			}
		}
		job_value_free(v);
	}
	for (size_t i = 0; i < nr_special; i++)
		free(special[i]);
	free(special);
	strbuf_release(&key);
}
