/*
 * dumpstat.c: a monitor's raw file -> stats lines, and lkp's dump-stat
 * (stats lines -> <monitor>.json time series).  See monitor.h.
 */
#include "monitor/monitor.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_writer.h"
#include "util/numfmt.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- raw file -> stats lines ---- */

static bool is_time_line(const char *line, size_t len)
{
	return len >= 5 && !memcmp(line, "time:", 5);
}

int monitor_parse_records(const struct monitor *m, const char *buf, size_t len,
			  const char *name, stats_sink_fn sink, void *ctx)
{
	struct strbuf out = STRBUF_INIT;
	void *state = xcalloc(1, m->parse_state_size ? m->parse_state_size : 1);
	struct line_iter it;
	struct line l;
	const char *time_line = NULL;
	size_t start = 0, time_len = 0;
	int ret = 0;

	/* Walk the lines; a "time:" line closes the previous snapshot. */
	line_iter_init(&it, buf, len);
	for (;;) {
		bool more = line_next(&it, &l);
		size_t at = more ? (size_t)(l.s - buf) : len;

		if (more) {
			if (!is_time_line(l.s, l.len)) {
				if (!time_line && l.len &&
				    strspn(l.s, " \t\r") < l.len) {
					ret = error("%s:%zu: expected a 'time:' line before the samples",
						    name, l.no);
					break;
				}
				continue;
			}
		}
		if (time_line) {
			strbuf_reset(&out);
			strbuf_add(&out, time_line, time_len);
			strbuf_addch(&out, '\n');
			if (m->parse_snapshot(state, buf + start, (more ? at : len) - start,
					      name, &out) < 0 ||
			    sink(ctx, out.buf, out.len) < 0) {
				ret = -1;
				break;
			}
		}
		if (!more)
			break;
		time_line = l.s;
		time_len = l.len;
		start = (size_t)(l.s - buf) + l.len + l.nl;
	}
	if (m->parse_state_release)
		m->parse_state_release(state);
	free(state);
	strbuf_release(&out);
	return ret;
}

int stats_sink_strbuf(void *ctx, const char *lines, size_t len)
{
	strbuf_add(ctx, lines, len);
	return 0;
}

int monitor_parse(const struct monitor *m, const char *buf, size_t len,
		  const char *name, struct strbuf *out)
{
	if (m->parse_raw)
		return m->parse_raw(m, buf, len, name, stats_sink_strbuf, out);
	return monitor_parse_records(m, buf, len, name, stats_sink_strbuf, out);
}

/* ---- dump-stat: stats lines -> time series ---- */

struct series_key {
	char *name;
	size_t name_len;
	double *v;
	bool *is_int;
	int n;
	size_t alloc;
};

struct series {
	const char *monitor;
	size_t monitor_len;
	struct series_key *k;
	int nr;
	size_t alloc;
	struct strmap index;
	int record;              /* lkp's record_index: the sample being read */
	int cursor;              /* the key expected next */
	int *invalid;            /* samples holding a non-number, to drop */
	int nr_invalid;
	size_t alloc_invalid;
	struct strbuf key;       /* scratch */
	int err;
};

static void series_init(struct series *s, const char *monitor)
{
	memset(s, 0, sizeof(*s));
	s->monitor = monitor;
	s->monitor_len = strlen(monitor);
	strmap_init(&s->index);
	strbuf_init(&s->key, 64);
}

static void series_release(struct series *s)
{
	for (int i = 0; i < s->nr; i++) {
		free(s->k[i].name);
		free(s->k[i].v);
		free(s->k[i].is_int);
	}
	free(s->k);
	free(s->invalid);
	strmap_release(&s->index);
	strbuf_release(&s->key);
}

static void key_push(struct series_key *k, double v, bool is_int)
{
	if ((size_t)k->n + 1 > k->alloc) {
		size_t alloc = k->alloc;
		k->v = xgrow(k->v, sizeof(*k->v), (size_t)k->n + 1, &alloc);
		k->is_int = xrealloc(k->is_int, alloc * sizeof(*k->is_int));
		k->alloc = alloc;
	}
	k->v[k->n] = v;
	k->is_int[k->n] = is_int;
	k->n++;
}

/*
 * Ruby's `v.index('.') ? v.to_f : v.to_i` on a value that passed the
 * numeric check: "1e5" has no '.', so it is the integer 1, as in lkp.
 */
static void ruby_number(const char *s, double *v, bool *is_int)
{
	char digits[64];
	size_t n = 0;

	*is_int = !strchr(s, '.');
	if (!*is_int) {
		*v = strtod(s, NULL);
		return;
	}
	if (*s == '+' || *s == '-')
		digits[n++] = *s++;
	while (isdigit((unsigned char)*s) && n < sizeof(digits) - 1)
		digits[n++] = *s++;
	digits[n] = '\0';
	*v = strtod(digits, NULL);
}

/* A plain decimal integer of up to 15 digits: exact in a double. */
static bool small_int(const char *v, size_t len, double *out)
{
	size_t i = v[0] == '-';
	long long n = 0;

	if (len <= i || len - i > 15)
		return false;
	for (; i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		n = n * 10 + (v[i] - '0');
	}
	*out = v[0] == '-' ? -(double)n : (double)n;
	return true;
}

/* The key of line (before ": "), if it is key `at` of the series. */
static bool is_key(const struct series *s, int at, const char *key, size_t klen)
{
	const struct series_key *k;

	if (at < 0 || at >= s->nr)
		return false;
	k = &s->k[at];
	return k->name_len == s->monitor_len + 1 + klen &&
	       !memcmp(k->name + s->monitor_len + 1, key, klen);
}

static int series_line(struct series *s, const char *line, size_t len)
{
	const char *sep, *val, *end;
	struct series_key *k;
	char vbuf[128];
	double v;
	bool is_int;
	int pos;

	if (!len || line[0] == '#')
		return 0;
	sep = memmem(line, len, ": ", 2);
	if (!sep)
		return 0;
	val = sep + 2;
	end = line + len;
	while (val < end && isspace((unsigned char)*val))
		val++;
	while (end > val && isspace((unsigned char)end[-1]))
		end--;
	if (val == end)
		return 0;

	/* samples list their keys in the same order: try the next one first */
	if (is_key(s, s->cursor, line, (size_t)(sep - line))) {
		pos = s->cursor;
	} else {
		strbuf_reset(&s->key);
		strbuf_addstr(&s->key, s->monitor);
		strbuf_addch(&s->key, '.');
		strbuf_add(&s->key, line, (size_t)(sep - line));
		pos = strmap_get(&s->index, s->key.buf);
	}
	if (pos < 0) {
		if (strpbrk(s->key.buf, " \t"))
			return error("%s: whitespace in stats name '%s'", s->monitor, s->key.buf);
		ALLOC_GROW(s->k, (size_t)s->nr + 1, s->alloc);
		k = &s->k[s->nr];
		memset(k, 0, sizeof(*k));
		k->name = xstrdup(s->key.buf);
		k->name_len = s->key.len;
		strmap_put(&s->index, k->name, s->nr);
		pos = s->nr++;
	}
	s->cursor = pos + 1;
	k = &s->k[pos];
	if (s->record < k->n)
		s->record = k->n;
	while (k->n < s->record)
		key_push(k, 0, true);

	if (small_int(val, (size_t)(end - val), &v)) {
		key_push(k, v, true);
		return 0;
	}
	/* lkp's String#numeric?: a whole decimal number, nothing else */
	if ((size_t)(end - val) >= sizeof(vbuf) ||
	    (memcpy(vbuf, val, (size_t)(end - val)), vbuf[end - val] = '\0',
	     parse_number(vbuf, &v, &is_int) < 0) || !isfinite(v)) {
		ALLOC_GROW(s->invalid, (size_t)s->nr_invalid + 1, s->alloc_invalid);
		s->invalid[s->nr_invalid++] = s->record;
		warning("%s: invalid stats value | stat: %.*s:%.*s", s->monitor,
			(int)(sep - line), line, (int)(end - val), val);
		return 0;
	}
	ruby_number(vbuf, &v, &is_int);
	key_push(k, v, is_int);
	return 0;
}

static int series_feed(void *ctx, const char *lines, size_t len)
{
	struct series *s = ctx;
	struct line_iter it;
	struct line l;

	line_iter_init(&it, lines, len);
	while (line_next(&it, &l))
		if (series_line(s, l.s, l.len) < 0)
			return -1;
	return 0;
}

/* lkp's dump-stat does not check that these are rectangular */
static const char *const unstructured_monitors[] = {
	"ftrace", "perf-stat", "sched_debug", "slabinfo", "meminfo", NULL
};

static bool unstructured(const char *monitor)
{
	for (int i = 0; unstructured_monitors[i]; i++)
		if (!strcmp(unstructured_monitors[i], monitor))
			return true;
	return false;
}

static void key_delete_at(struct series_key *k, int at)
{
	if (at >= k->n)
		return;
	memmove(k->v + at, k->v + at + 1, sizeof(*k->v) * (size_t)(k->n - at - 1));
	memmove(k->is_int + at, k->is_int + at + 1, sizeof(*k->is_int) * (size_t)(k->n - at - 1));
	k->n--;
}

static int cmp_int_desc(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

/* Apply dump-stat's end rules and render; returns the number of metrics. */
static int series_finish(struct series *s, struct strbuf *json)
{
	struct json_writer jw;
	int min_cols = -1, max_cols = 0, kept = 0;

	/* all-zero metrics carry nothing */
	for (int i = 0; i < s->nr; i++) {
		struct series_key *k = &s->k[i];
		double sum = 0;

		if (!k->n || k->v[0] != 0 || k->v[k->n - 1] != 0)
			continue;
		for (int j = 0; j < k->n; j++)
			sum += k->v[j];
		if (sum == 0)
			k->n = -1;       /* deleted */
	}
	/* drop the samples that held a non-number, last first */
	if (s->nr_invalid)
		qsort(s->invalid, (size_t)s->nr_invalid, sizeof(int), cmp_int_desc);
	for (int j = 0; j < s->nr_invalid; j++) {
		if (j && s->invalid[j] == s->invalid[j - 1])
			continue;
		for (int i = 0; i < s->nr; i++)
			if (s->k[i].n > 0)
				key_delete_at(&s->k[i], s->invalid[j]);
	}
	for (int i = 0; i < s->nr; i++) {
		if (s->k[i].n < 0)
			continue;
		if (s->k[i].n > max_cols)
			max_cols = s->k[i].n;
		if (min_cols < 0 || s->k[i].n < min_cols)
			min_cols = s->k[i].n;
	}
	if (min_cols >= 0 && min_cols < max_cols && !unstructured(s->monitor)) {
		if (min_cols == max_cols - 1) {
			/* the last sample was cut short (killed mid-write) */
			for (int i = 0; i < s->nr; i++)
				if (s->k[i].n == max_cols)
					s->k[i].n--;
		} else {
			warning("%s: not a matrix: metrics have %d to %d samples",
				s->monitor, min_cols, max_cols);
		}
	}

	jw_init(&jw, json);
	jw_object_begin(&jw);
	for (int i = 0; i < s->nr; i++) {
		if (s->k[i].n < 0)
			continue;
		jw_key(&jw, s->k[i].name);
		jw_array_begin(&jw);
		for (int j = 0; j < s->k[i].n; j++)
			jw_number(&jw, s->k[i].v[j], s->k[i].is_int[j]);
		jw_array_end(&jw);
		kept++;
	}
	jw_object_end(&jw);

	/* dump-stat writes nothing when no metric, or the first or last one,
	 * has samples left */
	{
		int first = -1, last = -1;
		for (int i = 0; i < s->nr; i++) {
			if (s->k[i].n < 0)
				continue;
			if (first < 0)
				first = i;
			last = i;
		}
		if (first < 0 || !s->k[first].n || !s->k[last].n) {
			strbuf_reset(json);
			return 0;
		}
	}
	return kept;
}

int monitor_stats_to_json(const char *monitor, const char *lines, size_t len,
			  struct strbuf *json)
{
	struct series s;
	int ret;

	series_init(&s, monitor);
	ret = series_feed(&s, lines, len);
	if (ret == 0)
		ret = series_finish(&s, json);
	series_release(&s);
	return ret;
}

int monitor_raw_to_json(const struct monitor *m, const struct held_dir *dir)
{
	struct strbuf path = STRBUF_INIT, raw = STRBUF_INIT, json = STRBUF_INIT;
	struct series s;
	struct stat st;
	int ret = 0;

	/* the sampler's raw file, plain (lkp's .gz ones are read by compare
	 * and unite, never turned into JSON again) */
	if (fstatat(dir->fd, m->name, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
		goto out;
	path_join(&path, dir->path, m->name);
	if (held_dir_read(dir, m->name, &raw, FILE_TEXT_MAX) < 0) {
		ret = -1;
		goto out;
	}
	series_init(&s, m->name);
	if (m->parse_raw)
		ret = m->parse_raw(m, raw.buf, raw.len, path.buf, series_feed, &s);
	else
		ret = monitor_parse_records(m, raw.buf, raw.len, path.buf, series_feed, &s);
	if (ret == 0)
		ret = series_finish(&s, &json);
	series_release(&s);
	if (ret > 0) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s.json", m->name);
		ret = held_dir_write(dir, path.buf, json.buf, json.len) < 0 ? -1 : 1;
	}
out:
	strbuf_release(&path);
	strbuf_release(&raw);
	strbuf_release(&json);
	return ret;
}

