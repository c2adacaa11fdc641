/*
 * load.c: reading a job file (job.h's "Loading does").
 *
 * Loading is text first, YAML second, as in lkp: the file's section
 * markers are noted and `<< : FILE` lines are replaced by FILE's lines,
 * keeping a map from every expanded line back to its file, line and
 * indentation so that libfyaml's positions can be reported in the user's
 * terms.  The YAML events are then built into job_value trees, scalars
 * typed the way Ruby's Psych types them (lkp reads jobs with Psych, so
 * "300" is an Integer and '300' a String), and the top-level keys checked
 * (keys.c).
 */
#include "job/job.h"
#include "job/job_src.h"
#include "job/split.h"

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

#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#define MAX_INCLUDE_DEPTH 16

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
	bool quote_templates;
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

/*
 * Whether an included text is job YAML: YAML on its own, each document a
 * mapping (or empty) whose keys are plain scalars of lkp's key shape.
 * Any other file named after `<< :` (`/etc/shadow`: a plain scalar, or
 * one mapping key full of colons when a line ends in ':') must not become
 * job data: its lines would reach job.yaml, atoms, their names and the
 * lab queue, and messages quoting them.  Returns 0, or -1 with *err set
 * to "LINE:COL: invalid YAML: ..." for a syntax error, or -2.
 */
static int check_job_yaml(const char *text, size_t len, struct strbuf *err)
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

static int do_include(struct expansion *x, const char *content, size_t clen,
		      struct job_src *src, int lineno, int col, int coff,
		      const char *indent, int depth)
{
	struct strbuf file = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct job *opts = NULL;
	char *rel = dir_of(src->name);
	struct job_src *isrc;
	bool hidden;
	int ret = -1, is_job;

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
	if (x->quote_templates) {
		struct strbuf q = STRBUF_INIT;
		job_quote_templates(text.buf, &q);
		strbuf_release(&text);
		text = q;
	}
	hidden = !ends_with(path.buf, ".yaml") && !ends_with(path.buf, ".yml");
	is_job = check_job_yaml(text.buf, text.len, &why);
	if (is_job == -1 && !hidden) {
		/* a job file of the user's with a typo: where, in its terms */
		error("%s:%s", path.buf, why.buf);
		goto out;
	}
	if (is_job < 0) {
		error("%s:%d:%d: expected job YAML (a mapping of keys such as 'testcase:') "
		      "in included file '%s', got other text (%s)", src->name, lineno, col,
		      file.buf, "<not shown>");
		goto out;
	}
	isrc = src_new(path.buf);
	isrc->hidden = hidden;
	ret = expand_text(x, text.buf, text.len, isrc, indent, depth + 1, false);
	src_put(isrc);
out:
	job_free(opts);
	free(rel);
	strbuf_release(&file);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&why);
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
static int parse_text(const char *text, size_t len, const char *name,
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

static int load_string(const char *text, size_t len, const char *name,
		       const struct job_load_opts *opts, bool quote, struct job **out)
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
	x.quote_templates = quote;
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

int job_load_string(const char *text, size_t len, const char *name,
		    const struct job_load_opts *opts, struct job **out)
{
	return load_string(text, len, name, opts, false, out);
}

int job_load_templates(const char *text, size_t len, const char *name,
		       const struct job_load_opts *opts, struct job **out)
{
	struct strbuf q = STRBUF_INIT;
	int ret;

	job_quote_templates(text, &q);
	ret = load_string(q.buf, q.len, name, opts, true, out);
	strbuf_release(&q);
	return ret;
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

