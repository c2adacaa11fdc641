/*
 * matrix.c: loading and uniting lkp-compatible matrix files (writing them:
 * matrix_write.c).
 *
 * JSON is read with util/json_reader.h rather than json-c: the matrices
 * of a compare are the bulk of its work, and a tree of one object per
 * sample made loading them several times slower (see json_reader.h).
 */
#include "result/matrix.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_reader.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*
 * A matrix's names and samples live in its pool and go with it at once:
 * three mallocs and three frees a metric were a tenth of compare's time
 * at 30,000 metrics (freeing alone 7%, most of it glibc consolidating its
 * bins).  What a matrix drops (a metric, samples that grew) stays in the
 * pool until the matrix is released.  Our own few lines rather than
 * glibc's obstack: its macros offset a null pointer to align (undefined
 * behaviour that clang's sanitizer stops the fuzzers on).
 */
#define POOL_CHUNK 65536

struct matrix_pool {
	struct matrix_pool *next;
	size_t used, cap;
	unsigned char data[];   /* 8-aligned: see the assertion */
};
_Static_assert(offsetof(struct matrix_pool, data) % sizeof(double) == 0,
	       "a pool's pieces hold doubles");

/* n bytes of mx's pool, 8-aligned. */
static void *pool_alloc(struct matrix *mx, size_t n)
{
	struct matrix_pool *b = mx->pool;
	void *p;

	n = (n + 7) & ~(size_t)7;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > POOL_CHUNK ? n : POOL_CHUNK;

		b = xmalloc(offsetof(struct matrix_pool, data) + cap);
		b->next = mx->pool;
		b->used = 0;
		b->cap = cap;
		mx->pool = b;
	}
	p = b->data + b->used;
	b->used += n;
	return p;
}

static void pool_release(struct matrix *mx)
{
	while (mx->pool) {
		struct matrix_pool *next = mx->pool->next;

		free(mx->pool);
		mx->pool = next;
	}
}

static char *pool_strdup(struct matrix *mx, const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(pool_alloc(mx, n), s, n);
}

/* Room for room samples of m, its first keep samples kept: v and is_int
 * in one piece of the pool. */
static void samples_alloc(struct matrix *mx, struct metric *m, int keep, int room)
{
	double *v = pool_alloc(mx, (sizeof(double) + sizeof(bool)) * (size_t)room);
	bool *is_int = (bool *)(v + room);

	if (keep > 0) {
		memcpy(v, m->v, sizeof(double) * (size_t)keep);
		memcpy(is_int, m->is_int, sizeof(bool) * (size_t)keep);
	}
	m->v = v;
	m->is_int = is_int;
}

void matrix_init(struct matrix *mx)
{
	memset(mx, 0, sizeof(*mx));
	strmap_init(&mx->index);
}

void matrix_release(struct matrix *mx)
{
	pool_release(mx);
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

int matrix_find_hint(const struct matrix *mx, const char *name, int hint)
{
	if (hint >= 0 && hint < mx->nr && !strcmp(mx->m[hint].name, name))
		return hint;
	return strmap_get(&mx->index, name);
}

static int cols_room(const struct matrix *mx)
{
	int room = mx->ncols > mx->cols_room ? mx->ncols : mx->cols_room;

	return room ? room : 1;
}


static void zero_cols(struct metric *m, int from, int to)
{
	for (int c = from; c < to; c++) {
		m->v[c] = 0;
		m->is_int[c] = true;
	}
}

void matrix_reserve_cols(struct matrix *mx, int ncols)
{
	if (ncols <= cols_room(mx))
		return;
	for (int i = 0; i < mx->nr; i++)
		samples_alloc(mx, &mx->m[i], mx->ncols, ncols);
	mx->cols_room = ncols;
}

/* Resize every metric to ncols samples, zero-filling new ones at the end;
 * past the room, the room doubles. */
static void resize_cols(struct matrix *mx, int ncols)
{
	int room = cols_room(mx);

	if (ncols > room)
		matrix_reserve_cols(mx, ncols > 2 * room ? ncols : 2 * room);
	for (int i = 0; i < mx->nr; i++)
		zero_cols(&mx->m[i], mx->ncols, ncols);
	mx->ncols = ncols;
}

/* Append a metric (zero-filled across the columns) named name, a string
 * of mx's pool; name is not in mx.  index: put it in the index (not when
 * the index is already the caller's). */
static struct metric *append_metric(struct matrix *mx, char *name, bool index)
{
	struct metric *m;

	/* the index borrows m->name, a string of the pool that does not move
	 * when the array of metrics is reallocated */
	ALLOC_GROW(mx->m, (size_t)mx->nr + 1, mx->alloc);
	m = &mx->m[mx->nr];
	m->name = name;
	samples_alloc(mx, m, 0, cols_room(mx));
	zero_cols(m, 0, mx->ncols);
	if (index)
		strmap_put(&mx->index, m->name, mx->nr);
	mx->nr++;
	return m;
}

static struct metric *add_metric(struct matrix *mx, const char *name)
{
	return append_metric(mx, pool_strdup(mx, name), true);
}

int matrix_complete_values(const struct matrix *mx, const char *metric, double *out)
{
	int m = metric ? matrix_find(mx, metric) : -1;
	int inc = matrix_find(mx, "last_state.is_incomplete_run"), n = 0;

	if (metric && m < 0)
		return 0;
	for (int r = 0; r < mx->ncols; r++)
		if (inc < 0 || mx->m[inc].v[r] != 1) {
			if (metric)
				out[n] = mx->m[m].v[r];
			n++;
		}
	return n;
}

struct metric *matrix_get_or_add(struct matrix *mx, const char *name)
{
	int pos = matrix_find(mx, name);

	return pos >= 0 ? &mx->m[pos] : add_metric(mx, name);
}

static void add_source(struct matrix *mx, const char *src)
{
	ALLOC_GROW(mx->sources, (size_t)mx->nr_sources + 1, mx->alloc_sources);
	mx->sources[mx->nr_sources++] = src ? xstrdup(src) : NULL;
}

/*
 * Reading matrix.json and stats.json.
 *
 * The text is read in one pass (util/json_reader.h) straight into the
 * matrix: a metric is added when its key is read and its samples go into
 * its arrays as they are read.  What a parsed tree would give at once is
 * kept per metric in struct pending until the end of the text, because
 * the number of columns is known only then (stats_source comes last in
 * lkp's files), and because a syntax error anywhere must win over any
 * message about the content: warnings and content errors are issued in
 * key order after the whole text was found well-formed.
 *
 * A key given twice keeps its first position and its last value, as
 * Ruby's and json-c's hashes do.
 */
struct pending {
	int n;                  /* samples read (the array's length) */
	int cap;                /* room in v and is_int */
	int bad;                /* first sample that is not a number, or -1 */
	bool is_array;
	const char *at;         /* the key, for messages */
};

struct loader {
	struct matrix *mx;
	struct json_reader jr;
	bool flat;              /* stats.json: one number per metric */
	struct pending *pend;   /* parallel to mx->m */
	size_t alloc_pend;
	int hint;               /* the last array's length: room for the next */
	const char *sources_bad;        /* a stats_source that was no array of paths */
	const char *sources_bad_what;
	struct strbuf *log;     /* messages: see matrix_parse_quiet */
	bool duplicates;        /* some key came twice */
};

/* Log a message of level 'W' (warning) or 'E' (error); returns -1. */
__attribute__((format(printf, 3, 4)))
static int log_msg(struct strbuf *log, char level, const char *fmt, ...)
{
	va_list ap;

	strbuf_addch(log, level);
	va_start(ap, fmt);
	strbuf_vaddf(log, fmt, ap);
	va_end(ap);
	strbuf_addch(log, '\0');
	return -1;
}

void matrix_print_log(const struct strbuf *log)
{
	for (size_t i = 0; i < log->len; i += strlen(log->buf + i) + 1) {
		if (log->buf[i] == 'W')
			warning("%s", log->buf + i + 1);
		else
			error("%s", log->buf + i + 1);
	}
}

static void free_sources(struct matrix *mx)
{
	for (int i = 0; i < mx->nr_sources; i++)
		free(mx->sources[i]);
	mx->nr_sources = 0;
}

/* Read the value of "stats_source" (the key was just read). */
static int read_sources(struct loader *ld)
{
	struct json_reader *jr = &ld->jr;
	enum json_token t = json_next(jr);

	/* the last "stats_source" wins, as the last value of any key does */
	free_sources(ld->mx);
	ld->sources_bad = NULL;
	if (t != JSON_ARRAY_BEGIN) {
		ld->sources_bad = jr->tok;
		ld->sources_bad_what = "\"stats_source\" must be an array of paths";
		return json_skip(jr);
	}
	while ((t = json_next(jr)) != JSON_ARRAY_END) {
		if (t == JSON_STRING) {
			add_source(ld->mx, jr->str);
		} else if (t == JSON_NULL) {
			add_source(ld->mx, NULL);
		} else if (t == JSON_ERROR || json_skip(jr) < 0) {
			return -1;
		} else if (!ld->sources_bad) {
			ld->sources_bad = jr->tok;
			ld->sources_bad_what = "expected a path (a string) or null in \"stats_source\"";
		}
	}
	return 0;
}

/*
 * A new metric for the key just read.  A key seen before gets one too:
 * strmap_put not adding a key says so, which spares a lookup per key, and
 * merge_duplicates() sorts such keys out once the text is read.
 */
static int start_metric(struct loader *ld)
{
	struct matrix *mx = ld->mx;
	size_t known = mx->index.nr;
	int pos = mx->nr++;
	struct metric *m;
	struct pending *pd;

	ALLOC_GROW(mx->m, (size_t)mx->nr, mx->alloc);
	ALLOC_GROW(ld->pend, (size_t)mx->nr, ld->alloc_pend);
	m = &mx->m[pos];
	m->name = pool_strdup(mx, ld->jr.str);
	m->v = NULL;
	m->is_int = NULL;
	strmap_put(&mx->index, m->name, pos);
	if (mx->index.nr == known)
		ld->duplicates = true;
	pd = &ld->pend[pos];
	pd->n = pd->cap = 0;
	pd->bad = -1;
	pd->is_array = false;
	pd->at = ld->jr.tok;
	return pos;
}

/* Store the sample just read (a number or a boolean) as sample n of pos. */
static void push_sample(struct loader *ld, int pos, enum json_token t)
{
	struct metric *m = &ld->mx->m[pos];
	struct pending *pd = &ld->pend[pos];

	if (pd->n >= pd->cap) {
		int cap = pd->cap ? 2 * pd->cap : (ld->hint > pd->n ? ld->hint : pd->n + 1);
		samples_alloc(ld->mx, m, pd->n, cap);
		pd->cap = cap;
	}
	/* booleans are lkp's 0/1 flags: integers; an integer past what
	 * fmt_number writes whole is a float, so that it reads back as
	 * what was written (found by fuzzing) */
	m->v[pd->n] = t == JSON_NUMBER ? ld->jr.num : t == JSON_TRUE;
	m->is_int[pd->n] = t == JSON_NUMBER ? ld->jr.is_int && fabs(ld->jr.num) < FMT_INT_LIMIT : true;
	pd->n++;
}

static bool is_sample(enum json_token t)
{
	return t == JSON_NUMBER || t == JSON_TRUE || t == JSON_FALSE;
}

/* Read the value of the metric at pos (its key was just read). */
static int read_metric(struct loader *ld, int pos)
{
	struct json_reader *jr = &ld->jr;
	struct pending *pd = &ld->pend[pos];
	enum json_token t = json_next(jr);

	if (t != JSON_ARRAY_BEGIN) {
		if (is_sample(t))
			push_sample(ld, pos, t);
		else if (t == JSON_ERROR || json_skip(jr) < 0)
			return -1;
		else
			pd->bad = pd->n++;
		return 0;
	}
	pd->is_array = true;
	if (ld->flat)   /* an error, reported in key order at the end */
		return json_skip(jr);
	while ((t = json_next(jr)) != JSON_ARRAY_END) {
		if (is_sample(t) && pd->bad < 0) {
			push_sample(ld, pos, t);
			continue;
		}
		if (t == JSON_ERROR || json_skip(jr) < 0)
			return -1;
		if (pd->bad < 0)
			pd->bad = pd->n;
		pd->n++;
	}
	ld->hint = pd->n;
	return 0;
}

/* The whole text: one object of metrics, each member (its key just
 * read) read by member(ctx).  0, or -1 with jr->err set. */
static int read_members(struct json_reader *jr, int (*member)(void *ctx), void *ctx)
{
	enum json_token t = json_next(jr);

	if (t != JSON_OBJECT_BEGIN) {
		const char *at = jr->tok;

		/* a syntax error further on is the better message */
		if (t == JSON_ERROR || json_skip(jr) < 0 || json_next(jr) != JSON_END)
			return -1;
		return json_reader_fail(jr, at, "expected a JSON object of metrics");
	}
	while ((t = json_next(jr)) == JSON_KEY)
		if (member(ctx) < 0)
			return -1;
	if (t != JSON_OBJECT_END || json_next(jr) != JSON_END)
		return -1;
	return 0;
}

/* Is the key just read "stats_source"?  (By its length first: every key
 * of a file is asked.) */
static bool is_stats_source(const struct json_reader *jr)
{
	return jr->len == 12 && !memcmp(jr->str, "stats_source", 12);
}

/* A stats file's stats_source (an old lkp habit) is not a metric. */
static int skip_value(struct json_reader *jr)
{
	return json_next(jr) == JSON_ERROR || json_skip(jr) < 0 ? -1 : 0;
}

static int read_member(void *ctx)
{
	struct loader *ld = ctx;

	if (is_stats_source(&ld->jr))
		return ld->flat ? skip_value(&ld->jr) : read_sources(ld);
	return read_metric(ld, start_metric(ld));
}

/* Drop the metrics whose keep[i] is false, keeping the order. */
static void drop_metrics(struct matrix *mx, const bool *keep)
{
	int out = 0;

	strmap_release(&mx->index);
	for (int i = 0; i < mx->nr; i++) {
		if (!keep[i])
			continue;
		mx->m[out] = mx->m[i];
		strmap_put(&mx->index, mx->m[out].name, out);
		out++;
	}
	mx->nr = out;
}

/*
 * A key given twice keeps its first place and takes its last value, as in
 * Ruby's and json-c's hashes: each later metric of a name hands its
 * samples to the first and goes.  The index is rebuilt on the way.
 */
static void merge_duplicates(struct loader *ld)
{
	struct matrix *mx = ld->mx;
	int out = 0;

	strmap_release(&mx->index);
	for (int i = 0; i < mx->nr; i++) {
		struct metric *m = &mx->m[i];
		int first = strmap_get(&mx->index, m->name);

		if (first >= 0) {
			struct metric *f = &mx->m[first];

			f->v = m->v;
			f->is_int = m->is_int;
			ld->pend[first] = ld->pend[i];
			continue;
		}
		mx->m[out] = *m;
		ld->pend[out] = ld->pend[i];
		strmap_put(&mx->index, mx->m[out].name, out);
		out++;
	}
	mx->nr = out;
}

/* Zero-pad a metric read with pd->n samples to ncols: lkp's
 * matrix_fill_missing_zeros. */
static void pad_metric(struct matrix *mx, struct metric *m, struct pending *pd, int ncols)
{
	int want = ncols ? ncols : 1;

	if (pd->cap < want) {
		samples_alloc(mx, m, pd->n, want);
		pd->cap = want;
	}
	zero_cols(m, pd->n, ncols);
}

/*
 * After a well-formed text: the number of columns, the content errors and
 * warnings in key order, the skipped metrics dropped, every metric padded
 * to ncols samples.  Messages name the key's line and column.
 */
static int finish(struct loader *ld)
{
	struct matrix *mx = ld->mx;
	struct json_reader *jr = &ld->jr;
	bool *keep = xmalloc(sizeof(bool) * (size_t)(mx->nr ? mx->nr : 1));
	int ncols = 0, dropped = 0, line, col;

	if (ld->duplicates)
		merge_duplicates(ld);
	if (ld->sources_bad) {
		json_reader_linecol(jr, ld->sources_bad, &line, &col);
		free(keep);
		return log_msg(ld->log, 'E', "%s:%d:%d: %s", jr->name, line, col, ld->sources_bad_what);
	}
	if (ld->flat) {
		ncols = 1;
	} else if (mx->nr_sources) {
		ncols = mx->nr_sources;
	} else {
		/* without stats_source, the widest array decides, as lkp's
		 * matrix_cols; a value that is no array counts as one */
		for (int i = 0; i < mx->nr; i++) {
			int n = ld->pend[i].is_array ? ld->pend[i].n : 1;
			if (n > ncols)
				ncols = n;
		}
	}
	mx->ncols = ncols;

	for (int i = 0; i < mx->nr; i++) {
		struct pending *pd = &ld->pend[i];
		const char *name = mx->m[i].name;
		bool too_many = ld->flat ? pd->is_array : pd->n > ncols;

		keep[i] = !too_many && pd->bad < 0;
		if (keep[i]) {
			pad_metric(mx, &mx->m[i], pd, ncols);
			continue;
		}
		json_reader_linecol(jr, pd->at, &line, &col);
		if (too_many && ld->flat) {
			free(keep);
			return log_msg(ld->log, 'E', "%s:%d:%d: metric '%s' is an array, expected one "
				       "number per metric in a stats file", jr->name, line, col, name);
		}
		if (too_many) {
			free(keep);
			return log_msg(ld->log, 'E', "%s:%d:%d: metric '%s' has %d samples but "
				       "stats_source lists %d runs", jr->name, line, col, name, pd->n, ncols);
		}
		if (ld->flat)
			log_msg(ld->log, 'W', "%s:%d:%d: metric '%s' is not a number; metric skipped",
				jr->name, line, col, name);
		else
			log_msg(ld->log, 'W', "%s:%d:%d: metric '%s': sample %d is not a number; "
				"metric skipped", jr->name, line, col, name, pd->bad);
		dropped++;
	}
	if (dropped)
		drop_metrics(mx, keep);
	free(keep);
	return 0;
}

/*
 * How many metrics text may hold, to size a matrix's arrays and index
 * once: growing them by doubling touched twice their final memory, and on
 * this project's VM a fresh page costs microseconds (a fifth of unite's
 * page faults at 30,000 metrics).  A stats.json member ends at a ',' and
 * every metric of a matrix.json opens a '['; strings holding those only
 * make the bound looser, so it is capped at a member every 16 bytes (real
 * files take 45 or more a metric): a text of commas in a string sizes
 * nothing past its own length.
 */
static size_t count_members(const char *text, size_t len, bool flat)
{
	const char *p = text, *end = text + len;
	char c = flat ? ',' : '[';
	size_t n = 1;

	while ((p = memchr(p, c, (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n < len / 16 + 1 ? n : len / 16 + 1;
}

/* Read text into the empty matrix mx (flat: a stats.json), logging the
 * messages to log. */
static int load_text(struct matrix *mx, const char *text, size_t len, const char *name,
		     bool flat, struct strbuf *log)
{
	struct loader ld;
	size_t est = count_members(text, len, flat);
	int ret;

	memset(&ld, 0, sizeof(ld));
	ld.mx = mx;
	ld.flat = flat;
	ld.log = log;
	json_reader_init(&ld.jr, text, len, name);
	strmap_reserve(&mx->index, est);
	ALLOC_GROW(mx->m, est, mx->alloc);
	ALLOC_GROW(ld.pend, est, ld.alloc_pend);
	ret = read_members(&ld.jr, read_member, &ld);
	if (ret < 0)
		log_msg(log, 'E', "%s", ld.jr.err.buf);
	else
		ret = finish(&ld);
	json_reader_release(&ld.jr);
	free(ld.pend);
	if (ret < 0) {
		matrix_release(mx);
		return -1;
	}
	mx->path = xstrdup(name);
	return 0;
}

static int load_text_loud(struct matrix *mx, const char *text, size_t len, const char *name, bool flat)
{
	struct strbuf log = STRBUF_INIT;
	int ret = load_text(mx, text, len, name, flat, &log);

	matrix_print_log(&log);
	strbuf_release(&log);
	return ret;
}

int matrix_parse_quiet(struct matrix *mx, const char *text, size_t len, const char *name,
		       struct strbuf *log)
{
	return load_text(mx, text, len, name, false, log);
}

int stats_parse_quiet(struct matrix *stats, const char *text, size_t len, const char *name,
		      struct strbuf *log)
{
	return load_text(stats, text, len, name, true, log);
}

int matrix_parse(struct matrix *mx, const char *text, size_t len, const char *name)
{
	return load_text_loud(mx, text, len, name, false);
}

int matrix_load_quiet(struct matrix *mx, const char *path, struct strbuf *log)
{
	struct strbuf file = STRBUF_INIT, err = STRBUF_INIT;
	struct file_text text;
	char *used = NULL;
	int ret;

	if (is_dir(path))
		path_join(&file, path, "matrix.json");
	else
		strbuf_addstr(&file, path);
	ret = file_text_open_quiet(&text, file.buf, &used, &err);
	if (ret < 0)
		log_msg(log, 'E', "%s", err.buf);
	else
		ret = matrix_parse_quiet(mx, text.text, text.len, used, log);
	free(used);
	strbuf_release(&file);
	strbuf_release(&err);
	file_text_release(&text);
	return ret;
}

int matrix_load(struct matrix *mx, const char *path)
{
	struct strbuf log = STRBUF_INIT;
	int ret = matrix_load_quiet(mx, path, &log);

	matrix_print_log(&log);
	strbuf_release(&log);
	return ret;
}

/* A zero column at the end, with its stats_source (null sources for the
 * columns before it that had none). */
static void new_column(struct matrix *mx, const char *source)
{
	int col = mx->ncols;

	resize_cols(mx, col + 1);
	while (mx->nr_sources < col)
		add_source(mx, NULL);
	add_source(mx, source);
}

void matrix_add_column(struct matrix *mx, const struct matrix *stats, const char *source)
{
	int col = mx->ncols;

	new_column(mx, source);
	matrix_set_column(mx, col, stats);
}

void matrix_set_column(struct matrix *mx, int col, const struct matrix *stats)
{
	for (int i = 0; i < mx->nr; i++) {
		mx->m[i].v[col] = 0;
		mx->m[i].is_int[col] = true;
	}
	/* runs mostly list their metrics in the matrix's order: look where
	 * the last one was found first */
	for (int i = 0, hint = 0; i < stats->nr; i++) {
		int pos = matrix_find_hint(mx, stats->m[i].name, hint);
		struct metric *m = pos >= 0 ? &mx->m[pos] : add_metric(mx, stats->m[i].name);

		m->v[col] = stats->m[i].v[0];
		m->is_int[col] = stats->m[i].is_int[0];
		hint = (int)(m - mx->m) + 1;
	}
}

/*
 * matrix_parse_column: a stats.json read straight into its column.
 *
 * stats_parse_quiet + matrix_set_column built each run a matrix of its
 * own, with an index of every name (a third of unite's time loading the
 * runs of a 30,000-metric root: a fresh hash table a run, one cache miss a
 * name) only to look each name up again in the root's.  Here each key is
 * looked up in the root's matrix once, where the last one was found first
 * (runs list their metrics in the matrix's order); only names the matrix
 * lacks get an index, to find their duplicates.  The result, messages
 * included, is stats_parse_quiet's followed by matrix_set_column's (or
 * matrix_add_column's): test_matrix checks the two against each other.
 */
struct col_entry {
	int pos;                /* the metric's position in mx, or -1: new */
	char *name;             /* a new metric's name (in mx's pool) */
	double v;
	bool is_int;
	bool is_array;          /* an error, reported in key order */
	bool bad;               /* not a number: skipped with a warning */
	const char *at;         /* the key, for messages */
};

struct col_loader {
	struct matrix *mx;      /* read, and its pool holds the new names */
	struct json_reader jr;
	struct col_entry *e;
	int nr;
	size_t alloc;
	int *entry_of;          /* per position in mx: its entry + 1, or 0 */
	struct strmap fresh;    /* names mx lacks -> their entry */
	int hint;
};

/* The entry for the key just read: a key given twice keeps the first's
 * place and takes the last value, as stats_parse's merge_duplicates. */
static struct col_entry *col_entry(struct col_loader *cl)
{
	const char *key = cl->jr.str;
	int pos = matrix_find_hint(cl->mx, key, cl->hint), i;
	struct col_entry *e;

	if (pos >= 0) {
		cl->hint = pos + 1;
		i = cl->entry_of[pos] - 1;
	} else {
		i = strmap_get(&cl->fresh, key);
	}
	if (i < 0) {
		i = cl->nr++;
		ALLOC_GROW(cl->e, (size_t)cl->nr, cl->alloc);
		e = &cl->e[i];
		e->pos = pos;
		e->name = NULL;
		if (pos >= 0) {
			cl->entry_of[pos] = i + 1;
		} else {
			e->name = pool_strdup(cl->mx, key);
			strmap_put(&cl->fresh, e->name, i);
		}
	}
	e = &cl->e[i];
	e->v = 0;
	e->is_int = true;
	e->is_array = e->bad = false;
	e->at = cl->jr.tok;
	return e;
}

static int read_col_member(void *ctx)
{
	struct col_loader *cl = ctx;
	struct json_reader *jr = &cl->jr;
	struct col_entry *e;
	enum json_token t;

	if (is_stats_source(jr))
		return skip_value(jr);
	e = col_entry(cl);
	t = json_next(jr);
	if (is_sample(t)) {
		/* as push_sample */
		e->v = t == JSON_NUMBER ? jr->num : t == JSON_TRUE;
		e->is_int = t == JSON_NUMBER ? jr->is_int && fabs(jr->num) < FMT_INT_LIMIT : true;
		return 0;
	}
	if (t == JSON_ERROR || json_skip(jr) < 0)
		return -1;
	if (t == JSON_ARRAY_BEGIN)
		e->is_array = true;
	else
		e->bad = true;
	return 0;
}

/* finish()'s messages for a stats file, in key order: 0, or -1 at the
 * first array. */
static int col_check(struct col_loader *cl, struct strbuf *log)
{
	struct json_reader *jr = &cl->jr;
	int line, col;

	for (int i = 0; i < cl->nr; i++) {
		const struct col_entry *e = &cl->e[i];
		const char *name = e->pos >= 0 ? cl->mx->m[e->pos].name : e->name;

		if (!e->is_array && !e->bad)
			continue;
		json_reader_linecol(jr, e->at, &line, &col);
		if (e->is_array)
			return log_msg(log, 'E', "%s:%d:%d: metric '%s' is an array, expected one "
				       "number per metric in a stats file", jr->name, line, col, name);
		log_msg(log, 'W', "%s:%d:%d: metric '%s' is not a number; metric skipped",
			jr->name, line, col, name);
	}
	return 0;
}

/* The entries become column col, new metrics appended in key order (with
 * the entries' names).  A root's first run, when no value of it is
 * skipped, gives its metrics the positions of its entries: then the index
 * of new names is the matrix's index as it is, not built a second time. */
static void col_apply(struct col_loader *cl, struct matrix *mx, int col)
{
	bool adopt = !mx->nr;
	size_t fresh = 0;

	for (int i = 0; i < cl->nr; i++) {
		fresh += cl->e[i].pos < 0 && !cl->e[i].bad;
		adopt = adopt && !cl->e[i].bad;
	}
	if (adopt) {
		strmap_release(&mx->index);
		mx->index = cl->fresh;
		strmap_init(&cl->fresh);
	} else {
		strmap_reserve(&mx->index, (size_t)mx->nr + fresh);
	}
	ALLOC_GROW(mx->m, (size_t)mx->nr + fresh, mx->alloc);
	for (int i = 0; i < mx->nr; i++) {
		mx->m[i].v[col] = 0;
		mx->m[i].is_int[col] = true;
	}
	for (int i = 0; i < cl->nr; i++) {
		struct col_entry *e = &cl->e[i];
		struct metric *m;

		if (e->bad)
			continue;
		m = e->pos >= 0 ? &mx->m[e->pos] : append_metric(mx, e->name, !adopt);
		m->v[col] = e->v;
		m->is_int[col] = e->is_int;
	}
}

int matrix_parse_column(struct matrix *mx, int col, const char *text, size_t len,
			const char *name, const char *source, struct strbuf *log)
{
	struct col_loader cl;
	int ret;

	memset(&cl, 0, sizeof(cl));
	cl.mx = mx;
	cl.entry_of = xcalloc((size_t)(mx->nr ? mx->nr : 1), sizeof(*cl.entry_of));
	strmap_init(&cl.fresh);
	/* a root's first run: every name is new (see count_members) */
	if (!mx->nr) {
		size_t est = count_members(text, len, true);

		strmap_reserve(&cl.fresh, est);
		ALLOC_GROW(cl.e, est, cl.alloc);
	} else {
		ALLOC_GROW(cl.e, (size_t)mx->nr, cl.alloc);
	}
	json_reader_init(&cl.jr, text, len, name);
	ret = read_members(&cl.jr, read_col_member, &cl);
	if (ret < 0)
		log_msg(log, 'E', "%s", cl.jr.err.buf);
	else
		ret = col_check(&cl, log);
	if (!ret) {
		if (col < 0) {
			col = mx->ncols;
			new_column(mx, source);
		}
		col_apply(&cl, mx, col);
	}
	json_reader_release(&cl.jr);
	free(cl.e);
	free(cl.entry_of);
	strmap_release(&cl.fresh);
	return ret;
}

void matrix_drop_empty(struct matrix *mx)
{
	bool *keep = NULL;

	if (!mx->ncols)
		return;
	/* unite calls this after every column: rebuild nothing when nothing
	 * is dropped, the usual case */
	for (int i = 0; i < mx->nr; i++) {
		const struct metric *m = &mx->m[i];
		bool empty = true;

		for (int c = 0; c < mx->ncols && empty; c++)
			if (!m->is_int[c] || m->v[c] != 0)
				empty = false;
		if (!empty)
			continue;
		if (!keep) {
			keep = xmalloc(sizeof(bool) * (size_t)mx->nr);
			for (int k = 0; k < mx->nr; k++)
				keep[k] = true;
		}
		keep[i] = false;
	}
	if (keep)
		drop_metrics(mx, keep);
	free(keep);
}

int stats_load(struct matrix *stats, const char *path)
{
	struct file_text text;
	char *used = NULL;
	int ret = -1;

	if (file_text_open(&text, path, &used) == 0)
		ret = load_text_loud(stats, text.text, text.len, used, true);
	free(used);
	file_text_release(&text);
	return ret;
}
