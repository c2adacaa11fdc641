/*
 * load.c: reading a job file (job.h's "Loading does").
 *
 * Loading is text first, YAML second, as in lkp: the file's section
 * markers are noted and `<< : FILE` lines are replaced by FILE's lines,
 * keeping a map from every expanded line back to its file, line and
 * indentation so that libfyaml's positions can be reported in the user's
 * terms.  The YAML events are then built into job_value trees (yaml.c),
 * and the top-level keys checked (keys.c).
 */
#include "job/job.h"
#include "job/job_src.h"
#include "job/yaml.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#define MAX_INCLUDE_DEPTH 16

/* ------------------------------------------------------------------ */
/* text expansion: markers and includes */

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

static int check_quote_runs(const char *text, size_t len, const char *name);
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

	if (x->no_includes) {
		/* before the name is even parsed: nothing of the box is read */
		error("%s:%d:%d: '<<:' includes a file, which a queued job may not do "
		      "(perfbot queue submit expands includes before queueing)",
		      src->name, lineno, col);
		goto out;
	}
	while (clen && (content[clen - 1] == ' ' || content[clen - 1] == '\r'))
		clen--;
	if (clen && content[0] == '{') {
		/* the flow form is YAML of its own, on this one line */
		struct expansion sub;
		memset(&sub, 0, sizeof(sub));
		exp_add_line(&sub, "", content, clen, src, lineno);
		sub.map[0].shift = -coff;
		opts = job_new();
		if (job_parse_yaml(sub.text.buf, sub.text.len, src->name, &sub, opts, false) < 0) {
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
	/*
	 * A file not named .yaml is included when it is job YAML, as lkp's
	 * include (a text merge of any file search_file_in_paths finds) does:
	 * lkp's own hosts/ and include/ files are YAML without the suffix.
	 * Refusing the name would not make it safer: a YAML-shaped secret is
	 * as often .yml or .yaml (a token file), and whoever can make perfbot
	 * run a job can as well give it `command: cat FILE`, with the same
	 * rights.  What the include rules keep: no file at all from a queued
	 * job (no_includes: the box never reads one), no text that is not job
	 * YAML (a shadow, passwd), and never the text of such a file in a
	 * message (hidden), as it may go where the job's output does not.
	 */
	hidden = !ends_with(path.buf, ".yaml") && !ends_with(path.buf, ".yml");
	/* before libfyaml reads it (job_check_included_yaml) */
	if (check_quote_runs(text.buf, text.len, path.buf) < 0)
		goto out;
	is_job = job_check_included_yaml(text.buf, text.len, &why);
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
 * The offset in line of four single quotes in a row (two '' escapes in a
 * single-quoted value), or -1.  libfyaml 0.7 reads such a value wrong
 * ('x''''y' as x''' instead of x''y) or, from four escapes in a row,
 * fails after losing its scanner's buffer (a leak found by fuzzing).
 * Without a YAML scanner of our own, four quotes anywhere are refused,
 * in a comment too (lkp's include rule reads a flow include after '#'):
 * rare in a job, and the message says how to write them.  job_to_yaml
 * never writes them (write.c double-quotes a value with '' in it).
 */
static long quote_run_at(const char *p, size_t l)
{
	for (size_t i = 0, run = 0; i < l; i++) {
		run = p[i] == '\'' ? run + 1 : 0;
		if (run == 4)
			return (long)i - 3;
	}
	return -1;
}

#define QUOTE_RUN_WHAT "four single quotes in a row, which the YAML library " \
	"(libfyaml 0.7) misreads in a single-quoted value (write each as \\x27 in double quotes)"

/* Each line of text checked by quote_run_at: 0, or -1 after the error
 * naming name, the line and the column. */
static int check_quote_runs(const char *text, size_t len, const char *name)
{
	const char *p = text, *end = text + len;

	for (int lineno = 1; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		long at = quote_run_at(p, l);

		if (at >= 0)
			return error("%s:%d:%ld: " QUOTE_RUN_WHAT, name, lineno, at + 1);
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
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
		/* before libfyaml reads it */
		bad = quote_run_at(p, l);
		if (bad >= 0)
			return error("%s:%d:%ld: " QUOTE_RUN_WHAT, src ? src->name : "<job>",
				     lineno, bad + 1);
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

void job_quote_templates(const char *text, struct strbuf *out)
{
	const char *p = text;

	for (const char *o; (o = strstr(p, "{{"));) {
		const char *b = o, *end = strstr(o + 2, "}}");
		while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b == o || b == text || (b[-1] != ':' && b[-1] != '-') || !end) {
			strbuf_add(out, p, (size_t)(o + 2 - p));
			p = o + 2;
			continue;
		}
		strbuf_add(out, p, (size_t)(o - p));
		strbuf_addch(out, '"');
		for (const char *c = o; c < end + 2; c++) {
			if (*c == '"' || *c == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *c);
		}
		strbuf_addch(out, '"');
		p = end + 2;
	}
	strbuf_addstr(out, p);
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
	x.no_includes = opts->no_includes;
	src = src_new(name);
	ret = expand_text(&x, text, len, src, "", 0, true);
	src_put(src);
	if (!ret && !opts->no_check)
		ret = reject_erb(&x);
	job = job_new();
	job->path = xstrdup(name);
	if (!ret)
		ret = job_parse_yaml(x.text.buf, x.text.len, name, &x, job, !opts->no_check);
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


