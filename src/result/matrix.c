/*
 * matrix.c: loading, uniting and writing lkp-compatible matrix files.
 *
 * JSON is read with json-c, which accepts what lkp-tests writes (pretty
 * printed text, NaN and Infinity) and keeps object keys in file order.
 */
#include "result/matrix.h"
#include "stats/summary.h"
#include "util/fileio.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void matrix_init(struct matrix *mx)
{
	memset(mx, 0, sizeof(*mx));
	strmap_init(&mx->index);
}

void matrix_release(struct matrix *mx)
{
	for (int i = 0; i < mx->nr; i++) {
		free(mx->m[i].name);
		free(mx->m[i].v);
		free(mx->m[i].is_int);
	}
	free(mx->m);
	for (int i = 0; i < mx->nr_sources; i++)
		free(mx->sources[i]);
	free(mx->sources);
	strmap_release(&mx->index);
	free(mx->path);
	matrix_init(mx);
}

int matrix_find(const struct matrix *mx, const char *name)
{
	return strmap_get(&mx->index, name);
}

static void metric_resize(struct metric *m, int from, int to)
{
	size_t n = (size_t)(to ? to : 1);

	m->v = xrealloc(m->v, sizeof(double) * n);
	m->is_int = xrealloc(m->is_int, sizeof(bool) * n);
	for (int c = from; c < to; c++) {
		m->v[c] = 0;
		m->is_int[c] = true;
	}
}

/* Resize every metric to ncols samples, zero-filling new ones at the end. */
static void resize_cols(struct matrix *mx, int ncols)
{
	for (int i = 0; i < mx->nr; i++)
		metric_resize(&mx->m[i], mx->ncols, ncols);
	mx->ncols = ncols;
}

struct metric *matrix_get_or_add(struct matrix *mx, const char *name)
{
	int pos = matrix_find(mx, name);
	struct metric *m;

	if (pos >= 0)
		return &mx->m[pos];
	/* the index borrows m->name, a heap string that does not move when
	 * the array of metrics is reallocated */
	ALLOC_GROW(mx->m, (size_t)mx->nr + 1, mx->alloc);
	m = &mx->m[mx->nr];
	m->name = xstrdup(name);
	m->v = NULL;
	m->is_int = NULL;
	metric_resize(m, 0, mx->ncols);
	strmap_put(&mx->index, m->name, mx->nr);
	mx->nr++;
	return m;
}

static void add_source(struct matrix *mx, const char *src)
{
	ALLOC_GROW(mx->sources, (size_t)mx->nr_sources + 1, mx->alloc_sources);
	mx->sources[mx->nr_sources++] = src ? xstrdup(src) : NULL;
}

/* Turn a json-c tokener offset into "line:col" for messages. */
static void offset_to_linecol(const char *text, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static json_object *parse_json(const char *text, size_t len, const char *name)
{
	json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	json_object *obj;
	enum json_tokener_error jerr;
	int line, col;

	if (!tok)
		die("out of memory");
	obj = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		offset_to_linecol(text, len, &line, &col);
		error("%s:%d:%d: unexpected end of file, expected the rest of a JSON value", name, line, col);
		json_tokener_free(tok);
		return NULL;
	}
	if (jerr != json_tokener_success) {
		offset_to_linecol(text, json_tokener_get_parse_end(tok), &line, &col);
		error("%s:%d:%d: invalid JSON: %s", name, line, col, json_tokener_error_desc(jerr));
		json_tokener_free(tok);
		return NULL;
	}
	/* trailing garbage after the value */
	size_t end = json_tokener_get_parse_end(tok);
	while (end < len && (text[end] == ' ' || text[end] == '\n' || text[end] == '\t' || text[end] == '\r'))
		end++;
	if (end < len) {
		offset_to_linecol(text, end, &line, &col);
		error("%s:%d:%d: unexpected text after the JSON value", name, line, col);
		json_object_put(obj);
		json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	if (!obj || !json_object_is_type(obj, json_type_object)) {
		error("%s: expected a JSON object of metrics", name);
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* A JSON number (or bool, as lkp's 0/1 flags sometimes are) as a sample. */
static int json_sample(json_object *o, double *v, bool *is_int)
{
	switch (json_object_get_type(o)) {
	case json_type_int:
		*v = (double)json_object_get_int64(o);
		*is_int = true;
		return 0;
	case json_type_double:
		*v = json_object_get_double(o);
		*is_int = false;
		return 0;
	case json_type_boolean:
		*v = json_object_get_boolean(o);
		*is_int = true;
		return 0;
	default:
		return -1;
	}
}

int matrix_parse(struct matrix *mx, const char *text, size_t len, const char *name)
{
	json_object *root = parse_json(text, len, name);
	json_object *src;
	int ncols = 0;

	if (!root)
		return -1;
	mx->path = xstrdup(name);
	if (json_object_object_get_ex(root, "stats_source", &src)) {
		if (!json_object_is_type(src, json_type_array)) {
			json_object_put(root);
			return error("%s: \"stats_source\" must be an array of paths", name);
		}
		for (size_t i = 0; i < json_object_array_length(src); i++)
			add_source(mx, json_object_get_string(json_object_array_get_idx(src, i)));
		ncols = mx->nr_sources;
	}
	/* without stats_source, the widest array decides, as lkp's matrix_cols */
	if (!mx->nr_sources) {
		json_object_object_foreach(root, k, val) {
			(void)k;
			if (json_object_is_type(val, json_type_array) &&
			    (int)json_object_array_length(val) > ncols)
				ncols = (int)json_object_array_length(val);
			else if (!json_object_is_type(val, json_type_array) && ncols < 1)
				ncols = 1;
		}
	}
	mx->ncols = ncols;

	json_object_object_foreach(root, key, val) {
		if (!strcmp(key, "stats_source"))
			continue;
		int n = json_object_is_type(val, json_type_array) ? (int)json_object_array_length(val) : 1;
		if (n > ncols) {
			error("%s: metric '%s' has %d samples but stats_source lists %d runs",
			      name, key, n, ncols);
			json_object_put(root);
			return -1;
		}
		double *vals = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
		bool *ints = xmalloc(sizeof(bool) * (size_t)(n ? n : 1));
		int bad = -1;
		for (int i = 0; i < n; i++) {
			json_object *o = json_object_is_type(val, json_type_array) ?
				json_object_array_get_idx(val, (size_t)i) : val;
			if (json_sample(o, &vals[i], &ints[i]) < 0) {
				bad = i;
				break;
			}
		}
		if (bad >= 0) {
			warning("%s: metric '%s': sample %d is not a number; metric skipped", name, key, bad);
		} else {
			struct metric *m = matrix_get_or_add(mx, key);
			memcpy(m->v, vals, sizeof(double) * (size_t)n);
			memcpy(m->is_int, ints, sizeof(bool) * (size_t)n);
		}
		free(vals);
		free(ints);
	}
	json_object_put(root);
	return 0;
}

int matrix_load(struct matrix *mx, const char *path)
{
	struct strbuf text = STRBUF_INIT, file = STRBUF_INIT;
	char *used = NULL;
	int ret;

	if (is_dir(path))
		path_join(&file, path, "matrix.json");
	else
		strbuf_addstr(&file, path);
	if (read_file_maybe_gz(&text, file.buf, &used) < 0) {
		strbuf_release(&file);
		strbuf_release(&text);
		return -1;
	}
	ret = matrix_parse(mx, text.buf, text.len, used);
	free(used);
	strbuf_release(&file);
	strbuf_release(&text);
	return ret;
}

void matrix_add_column(struct matrix *mx, const struct matrix *stats, const char *source)
{
	int col = mx->ncols;

	resize_cols(mx, col + 1);
	while (mx->nr_sources < col)
		add_source(mx, NULL);
	add_source(mx, source);
	matrix_set_column(mx, col, stats);
}

void matrix_set_column(struct matrix *mx, int col, const struct matrix *stats)
{
	for (int i = 0; i < mx->nr; i++) {
		mx->m[i].v[col] = 0;
		mx->m[i].is_int[col] = true;
	}
	for (int i = 0; i < stats->nr; i++) {
		struct metric *m = matrix_get_or_add(mx, stats->m[i].name);
		m->v[col] = stats->m[i].v[0];
		m->is_int[col] = stats->m[i].is_int[0];
	}
}

void matrix_drop_empty(struct matrix *mx)
{
	int out = 0;

	strmap_release(&mx->index);
	for (int i = 0; i < mx->nr; i++) {
		struct metric *m = &mx->m[i];
		bool empty = true;
		for (int c = 0; c < mx->ncols && empty; c++)
			if (!m->is_int[c] || m->v[c] != 0)
				empty = false;
		if (empty && mx->ncols) {
			free(m->name);
			free(m->v);
			free(m->is_int);
			continue;
		}
		mx->m[out] = *m;
		strmap_put(&mx->index, mx->m[out].name, out);
		out++;
	}
	mx->nr = out;
}

void matrix_to_json(const struct matrix *mx, struct strbuf *out)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	for (int i = 0; i < mx->nr; i++) {
		jw_key(&jw, mx->m[i].name);
		jw_array_begin(&jw);
		for (int c = 0; c < mx->ncols; c++)
			jw_number(&jw, mx->m[i].v[c], mx->m[i].is_int[c]);
		jw_array_end(&jw);
	}
	if (mx->nr_sources) {
		jw_key(&jw, "stats_source");
		jw_array_begin(&jw);
		for (int c = 0; c < mx->nr_sources; c++) {
			if (mx->sources[c])
				jw_string(&jw, mx->sources[c]);
			else
				jw_null(&jw);
		}
		jw_array_end(&jw);
	}
	jw_object_end(&jw);
}

/* avg.json and stddev.json hold Ruby floats: v.average, v.standard_deviation. */
static void reduced_to_json(const struct matrix *mx, struct strbuf *out, bool stddev)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	for (int i = 0; i < mx->nr; i++) {
		jw_key(&jw, mx->m[i].name);
		if (!mx->ncols)
			jw_number(&jw, 0, true);
		else
			jw_number(&jw, stddev ? stddev_pop(mx->m[i].v, mx->ncols)
					      : mean(mx->m[i].v, mx->ncols), false);
	}
	jw_object_end(&jw);
}

void matrix_avg_to_json(const struct matrix *mx, struct strbuf *out)
{
	reduced_to_json(mx, out, false);
}

void matrix_stddev_to_json(const struct matrix *mx, struct strbuf *out)
{
	reduced_to_json(mx, out, true);
}

int stats_load(struct matrix *stats, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	char *used = NULL;
	json_object *root;
	int ret = 0;

	if (read_file_maybe_gz(&text, path, &used) < 0) {
		strbuf_release(&text);
		return -1;
	}
	root = parse_json(text.buf, text.len, used);
	strbuf_release(&text);
	if (!root) {
		free(used);
		return -1;
	}
	stats->path = used;
	stats->ncols = 1;
	json_object_object_foreach(root, key, val) {
		double v;
		bool is_int;
		if (!strcmp(key, "stats_source"))
			continue;
		if (json_sample(val, &v, &is_int) < 0) {
			if (json_object_is_type(val, json_type_array)) {
				ret = error("%s: metric '%s' is an array, expected one number per metric in a stats file",
					    used, key);
				break;
			}
			warning("%s: metric '%s' is not a number; metric skipped", used, key);
			continue;
		}
		struct metric *m = matrix_get_or_add(stats, key);
		m->v[0] = v;
		m->is_int[0] = is_int;
	}
	json_object_put(root);
	return ret;
}

void stats_to_json(const struct matrix *stats, struct strbuf *out)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	for (int i = 0; i < stats->nr; i++) {
		jw_key(&jw, stats->m[i].name);
		jw_number(&jw, stats->m[i].v[0], stats->m[i].is_int[0]);
	}
	jw_object_end(&jw);
}
