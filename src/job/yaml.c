/*
 * yaml.c: the YAML half of loading a job (yaml.h): libfyaml's events
 * over the expanded text built into job_value trees, scalars typed the
 * way Ruby's Psych types them (lkp reads jobs with Psych, so "300" is an
 * Integer and '300' a String), anchors and aliases bounded, positions
 * mapped back to the user's files; and the check that an included file
 * is job YAML at all.
 */
#include "job/yaml.h"
#include "job/job.h"
#include "job/job_src.h"

#include <ctype.h>
#include <libfyaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/xalloc.h"

static void collect_diag(struct fy_diag *diag, void *user, const char *buf, size_t len)
{
	(void)diag; (void)user; (void)buf; (void)len;
}

/*
 * The longest top-level key of an included file: lkp's are names of
 * programs and parameters ("perf-profile.delay", "if role client").
 */
#define MAX_INCLUDE_KEY 128

/* lkp's key shape: a name of letters, digits, "_.+-" and inner spaces. */
static bool is_job_key(const char *k, size_t len)
{
	if (len == 2 && !memcmp(k, "<<", 2))
		return true;            /* a nested include */
	if (!len || len > MAX_INCLUDE_KEY || !(isalnum((unsigned char)k[0]) || k[0] == '_') ||
	    k[len - 1] == ' ')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)k[i]) && !strchr("_.+- ", k[i]))
			return false;
	return true;
}

/*
 * A libfyaml parser over text whose diagnostics are collected (into
 * *diag), not printed: the job loader says them itself, with the file and
 * line of the text's origin.  Both are destroyed by the caller.
 */
static struct fy_parser *quiet_parser(const char *text, size_t len, struct fy_diag **diag)
{
	struct fy_parse_cfg cfg;
	struct fy_diag_cfg dcfg;
	struct fy_parser *fyp;

	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = collect_diag;
	dcfg.colorize = false;
	*diag = fy_diag_create(&dcfg);
	if (!*diag)
		die("cannot create a YAML diagnostic object");
	fy_diag_set_collect_errors(*diag, true);
	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_1 | FYPCF_JSON_NONE;
	cfg.diag = *diag;
	fyp = fy_parser_create(&cfg);
	if (!fyp || fy_parser_set_string(fyp, text, len))
		die("cannot create a YAML parser");
	return fyp;
}

/* See yaml.h. */
int job_check_included_yaml(const char *text, size_t len, struct strbuf *err)
{
	struct fy_diag *diag;
	struct fy_parser *fyp;
	struct fy_event *ev;
	int ret = 0;
	int depth = 0;          /* open containers of the document */
	bool key_next = false;  /* at depth 1, the next node is a key */

	fyp = quiet_parser(text, len, &diag);
	while (!ret && (ev = fy_parser_parse(fyp))) {
		bool at_key = depth == 1 && key_next, ok = true;
		size_t l;
		const char *t;

		switch (ev->type) {
		case FYET_SCALAR:
			t = fy_token_get_text(ev->scalar.value, &l);
			if (!depth)     /* the document: empty or a null */
				ok = fy_token_scalar_style(ev->scalar.value) == FYSS_PLAIN &&
				     !ev->scalar.tag && job_scalar_type_of(t ? t : "") == JOB_TNULL;
			else if (at_key)
				ok = fy_token_scalar_style(ev->scalar.value) == FYSS_PLAIN &&
				     t && is_job_key(t, l);
			break;
		case FYET_ALIAS:
			ok = depth > 0 && !at_key;
			break;
		case FYET_MAPPING_START:
		case FYET_SEQUENCE_START:
			ok = !at_key && (depth || ev->type == FYET_MAPPING_START);
			depth++;
			break;
		case FYET_MAPPING_END:
		case FYET_SEQUENCE_END:
			depth--;
			break;
		default:
			break;
		}
		/* the root mapping's nodes alternate: key, value, key ... */
		if (depth == 1 && ev->type != FYET_SEQUENCE_START)
			key_next = ev->type == FYET_MAPPING_START ? true : !key_next;
		if (!ok)
			ret = -2;
		fy_parser_event_free(fyp, ev);
	}
	if (!ret && fy_parser_get_stream_error(fyp)) {
		void *it = NULL;
		struct fy_diag_error *de = fy_diag_errors_iterate(diag, &it);

		/* libfyaml's error positions count from 1 */
		strbuf_addf(err, "%d:%d: invalid YAML: %s", de && de->line > 0 ? de->line : 1,
			    de && de->column > 0 ? de->column : 1,
			    de && de->msg ? de->msg : "syntax error");
		ret = -1;
	}
	fy_parser_destroy(fyp);
	fy_diag_destroy(diag);
	return ret;
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
		long anchor;          /* its index in anchors, or -1 */
	} stack[64];
	int depth;
	struct job_value *doc;        /* the finished document */
	/*
	 * An anchor owns a copy of its node, taken when the node is complete
	 * (a scalar at once, a container at its end; NULL until then): the
	 * node itself may be freed before an alias names it, a key's scalar
	 * as soon as it became the key (`&a k: *a`, a use-after-free found
	 * by fuzzing), a value when a later key of the same name replaces it.
	 */
	struct anchor { char *name; struct job_value *copy; } *anchors;
	size_t nr_anchors, alloc_anchors;
	size_t alias_nodes;           /* nodes copied by aliases so far */
};

/*
 * At most this many nodes made by aliases in one text: `&a [x, x, ...]`,
 * `&b [*a, *a, ...]`, ... grows by a factor per line (a billion laughs).
 */
#define MAX_ALIAS_NODES 100000

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

/* Note anchor (or none) of v, complete or not (copy NULL): its index or -1. */
static long remember_anchor(struct builder *b, struct fy_token *anchor,
			    const struct job_value *copy)
{
	size_t len;
	const char *t;

	if (!anchor)
		return -1;
	t = fy_token_get_text(anchor, &len);
	ALLOC_GROW(b->anchors, b->nr_anchors + 1, b->alloc_anchors);
	b->anchors[b->nr_anchors].name = xstrndup(t, len);
	b->anchors[b->nr_anchors].copy = job_value_dup(copy);
	return (long)b->nr_anchors++;
}

static size_t count_nodes(const struct job_value *v)
{
	size_t n = 1;

	for (size_t i = 0; v->kind == JOB_MAP && i < v->nr; i++)
		n += count_nodes(v->ent[i].val);
	for (size_t i = 0; v->kind == JOB_SEQ && i < v->nr; i++)
		n += count_nodes(v->item[i]);
	return n;
}

/* The value of alias token tok, a copy, or NULL after an error. */
static struct job_value *resolve_alias(struct builder *b, struct fy_token *tok,
				       const struct fy_mark *m)
{
	size_t l;
	const char *t = fy_token_get_text(tok, &l);

	for (size_t i = b->nr_anchors; i-- > 0;) {
		const struct anchor *a = &b->anchors[i];

		if (strlen(a->name) != l || memcmp(a->name, t, l))
			continue;
		if (!a->copy) {
			builder_error(b, m, "expected an alias of a complete node, not of one that contains it");
			return NULL;
		}
		b->alias_nodes += count_nodes(a->copy);
		if (b->alias_nodes > MAX_ALIAS_NODES) {
			struct strbuf msg = STRBUF_INIT;
			strbuf_addf(&msg, "expected at most %d nodes made by aliases",
				    MAX_ALIAS_NODES);
			builder_error(b, m, msg.buf);
			strbuf_release(&msg);
			return NULL;
		}
		return job_value_dup(a->copy);
	}
	builder_error(b, m, "expected a defined anchor for this alias");
	return NULL;
}

/*
 * May v not be a value?  A plain key may end in ':' (`&a :x:: v`), a
 * plain value may not (':' then the line's end starts a mapping), so an
 * alias of such a key as a value (`k: *a`) would be written back as
 * `k: :x:`, which does not load; quoted, it would read back a String,
 * not the Symbol it was (found by fuzzing).  No job means such a value.
 */
static bool unwritable_value(const struct job_value *v)
{
	size_t len = v->kind == JOB_SCALAR && v->text ? strlen(v->text) : 0;

	return len && v->type != JOB_STR && v->text[len - 1] == ':';
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
	if ((f->v->kind == JOB_SEQ || f->key) && unwritable_value(v)) {
		job_value_free(v);
		return builder_error(b, m, "expected a value that can be written back, not an alias "
				     "of a key that ends in ':' (a Ruby Symbol no value can spell)");
	}
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
	/*
	 * lkp's Psych: the later value wins, in the first place.  Without a
	 * catalog too when the first came from an included file: that is
	 * how lkp's jobs override their base (`<<: fsmark.yaml` then
	 * `disk: 1BRD_48G`); twice in one file stays an error.
	 */
	struct job_entry *e = job_map_find_entry(f->v, f->key);
	if (e && ((b->x->include_dirs && *b->x->include_dirs) || e->src != f->ksrc)) {
		job_value_free(e->val);
		e->val = v;
		free(f->key);
		f->key = NULL;
		src_put(f->ksrc);
		f->ksrc = NULL;
		return 0;
	}
	if (e) {
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
	e = job_map_append_entry(f->v, f->key, v);
	e->src = f->ksrc;
	e->line = f->kline;
	e->col = f->kcol;
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
	for (size_t i = 0; i < b->nr_anchors; i++) {
		free(b->anchors[i].name);
		job_value_free(b->anchors[i].copy);
	}
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


/*
 * Parse the expanded text.  With job == NULL the text is only checked for
 * syntax; else each document is added to job.
 */
int job_parse_yaml(const char *text, size_t len, const char *name,
		   struct expansion *x, struct job *job, bool check)
{
	struct fy_diag *diag;
	struct fy_parser *fyp;
	struct fy_event *ev;
	struct builder b;
	size_t doc_first = 0;
	int ret = 0, ndocs = 0;

	memset(&b, 0, sizeof(b));
	b.x = x;
	b.name = name;
	b.job = job;
	fyp = quiet_parser(text, len, &diag);

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
			if (check && job_check_doc(b.doc, x->include_dirs) < 0) {
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
		case FYET_ALIAS:
			v = resolve_alias(&b, ev->alias.anchor, m);
			ret = v ? attach(&b, v, m) : -1;
			break;
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
			memset(&b.stack[b.depth], 0, sizeof(b.stack[0]));
			b.stack[b.depth].anchor = remember_anchor(&b,
				ev->type == FYET_MAPPING_START ? ev->mapping_start.anchor :
				ev->sequence_start.anchor, NULL);
			b.stack[b.depth++].v = v;
			break;
		case FYET_MAPPING_END:
		case FYET_SEQUENCE_END: {
			struct frame f = b.stack[--b.depth];
			if (f.anchor >= 0)
				b.anchors[f.anchor].copy = job_value_dup(f.v);
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
		/* libfyaml's error positions count from 1, its marks from 0 */
		struct fy_mark mk = { 0, de && de->line > 0 ? de->line - 1 : 0,
				      de && de->column > 0 ? de->column - 1 : 0 };
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
