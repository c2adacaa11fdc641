/*
 * series.c: a metric along a branch, and its JSON form (see series.h).
 */
#include "detect/series.h"
#include "stats/summary.h"
#include "store/history.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_reader.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void series_init(struct series *s)
{
	memset(s, 0, sizeof(*s));
}

static void point_release(struct series_point *p)
{
	free(p->commit);
	free(p->subject);
	for (int i = 0; i < p->nr_tags; i++)
		free(p->tags[i]);
	free(p->tags);
	free(p->samples);
}

void series_release(struct series *s)
{
	for (int i = 0; i < s->nr; i++)
		point_release(&s->pt[i]);
	free(s->pt);
	free(s->metric);
	free(s->branch);
	series_init(s);
}

struct series_point *series_add(struct series *s, const char *commit)
{
	struct series_point *p;

	ALLOC_GROW(s->pt, (size_t)s->nr + 1, s->alloc);
	p = &s->pt[s->nr++];
	memset(p, 0, sizeof(*p));
	p->commit = xstrdup(commit);
	p->cp.stddev = NAN;
	p->cp.n = 1;
	return p;
}

void series_point_add_tag(struct series_point *p, const char *tag)
{
	p->tags = xrealloc(p->tags, sizeof(*p->tags) * ((size_t)p->nr_tags + 1));
	p->tags[p->nr_tags++] = xstrdup(tag);
}

void series_point_set_samples(struct series_point *p, const double *v, int n)
{
	free(p->samples);
	p->samples = xmalloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
	memcpy(p->samples, v, sizeof(double) * (size_t)n);
	p->nr_samples = n;
	p->cp.mean = n > 0 ? mean(v, n) : NAN;
	p->cp.stddev = n > 1 ? stddev_sample(v, n) : NAN;
	p->cp.n = n;
}

/* ---- reading ------------------------------------------------------------ */

/* Token t is not what was expected: fail the reader with what (unless t
 * is the reader's own error).  Returns -1. */
static int unexpected(struct json_reader *jr, enum json_token t, const char *what)
{
	return t == JSON_ERROR ? -1 : json_reader_fail(jr, jr->tok, "%s", what);
}

/* The value of a member whose key was just read: a string (or null, *out
 * stays NULL).  -1 with the reader failed. */
static int read_string(struct json_reader *jr, const char *what, char **out)
{
	enum json_token t = json_next(jr);

	if (t == JSON_NULL)
		return 0;
	if (t != JSON_STRING)
		return t == JSON_ERROR ? -1 : json_reader_fail(jr, jr->tok, "%s: expected a string", what);
	free(*out);
	*out = xstrdup(jr->str);
	return 0;
}

static int read_number(struct json_reader *jr, const char *what, double *out)
{
	enum json_token t = json_next(jr);

	if (t == JSON_NULL)
		return 0;
	if (t != JSON_NUMBER)
		return t == JSON_ERROR ? -1 : json_reader_fail(jr, jr->tok, "%s: expected a number", what);
	*out = jr->num;
	return 0;
}

static int read_tags(struct json_reader *jr, struct series_point *p)
{
	enum json_token t = json_next(jr);

	if (t == JSON_NULL)
		return 0;
	if (t != JSON_ARRAY_BEGIN)
		return unexpected(jr, t, "tags: expected an array of strings");
	while ((t = json_next(jr)) == JSON_STRING)
		series_point_add_tag(p, jr->str);
	if (t != JSON_ARRAY_END)
		return unexpected(jr, t, "tags: expected a string");
	return 0;
}

static int read_samples(struct json_reader *jr, double **v, int *n)
{
	enum json_token t = json_next(jr);
	size_t alloc = 0;

	if (t == JSON_NULL)
		return 0;
	if (t != JSON_ARRAY_BEGIN)
		return unexpected(jr, t, "samples: expected an array of numbers");
	while ((t = json_next(jr)) == JSON_NUMBER) {
		if (!isfinite(jr->num))
			return json_reader_fail(jr, jr->tok, "samples: expected a finite number");
		ALLOC_GROW(*v, (size_t)*n + 1, alloc);
		(*v)[(*n)++] = jr->num;
	}
	if (t != JSON_ARRAY_END)
		return unexpected(jr, t, "samples: expected a number");
	return 0;
}

/* One point, its '{' just read. */
static int read_point(struct json_reader *jr, struct series *s)
{
	const char *start = jr->tok;
	char *commit = NULL, *subject = NULL;
	struct series_point tmp, *p;
	double mean_v = NAN, sd = NAN, runs = 1, *samples = NULL;
	int nr_samples = 0, ret = -1;
	bool has_samples = false;
	enum json_token t;

	memset(&tmp, 0, sizeof(tmp));
	while ((t = json_next(jr)) == JSON_KEY) {
		const char *k = jr->str;
		int r;

		if (!strcmp(k, "commit"))
			r = read_string(jr, "commit", &commit);
		else if (!strcmp(k, "subject"))
			r = read_string(jr, "subject", &subject);
		else if (!strcmp(k, "tags"))
			r = read_tags(jr, &tmp);
		else if (!strcmp(k, "mean"))
			r = read_number(jr, "mean", &mean_v);
		else if (!strcmp(k, "stddev"))
			r = read_number(jr, "stddev", &sd);
		else if (!strcmp(k, "runs") || !strcmp(k, "n"))
			r = read_number(jr, "runs", &runs);
		else if (!strcmp(k, "samples")) {
			has_samples = true;
			r = read_samples(jr, &samples, &nr_samples);
		} else {
			r = json_next(jr) == JSON_ERROR ? -1 : json_skip(jr);
		}
		if (r < 0)
			goto out;
	}
	if (t != JSON_OBJECT_END) {
		if (t != JSON_ERROR)
			json_reader_fail(jr, jr->tok, "expected a member of a point or '}'");
		goto out;
	}
	if (!commit) {
		json_reader_fail(jr, start, "a point without \"commit\"");
		goto out;
	}
	if (has_samples && nr_samples == 0) {
		json_reader_fail(jr, start, "point %.12s: \"samples\" is empty", commit);
		goto out;
	}
	if (!has_samples && !isfinite(mean_v)) {
		json_reader_fail(jr, start, "point %.12s: expected \"samples\" or a finite \"mean\"", commit);
		goto out;
	}
	if (!has_samples && (runs < 1 || runs != floor(runs) || runs > 1e9)) {
		json_reader_fail(jr, start, "point %.12s: \"runs\" must be a whole number >= 1", commit);
		goto out;
	}
	p = series_add(s, commit);
	p->subject = subject;
	subject = NULL;
	p->tags = tmp.tags;
	p->nr_tags = tmp.nr_tags;
	tmp.tags = NULL;
	tmp.nr_tags = 0;
	if (has_samples) {
		series_point_set_samples(p, samples, nr_samples);
	} else {
		p->cp.mean = mean_v;
		p->cp.n = (int)runs;
		p->cp.stddev = isfinite(sd) && sd > 0 ? sd : NAN;
	}
	ret = 0;
out:
	point_release(&tmp);
	free(commit);
	free(subject);
	free(samples);
	return ret;
}

static int read_points(struct json_reader *jr, struct series *s)
{
	enum json_token t;

	while ((t = json_next(jr)) == JSON_OBJECT_BEGIN)
		if (read_point(jr, s) < 0)
			return -1;
	if (t != JSON_ARRAY_END)
		return unexpected(jr, t, "expected a point (an object) or ']'");
	return 0;
}

static int read_document(struct json_reader *jr, struct series *s)
{
	enum json_token t = json_next(jr);
	bool points = false;

	if (t == JSON_ARRAY_BEGIN)
		return read_points(jr, s);
	if (t != JSON_OBJECT_BEGIN)
		return unexpected(jr, t, "expected a history: an object with \"points\", "
				  "or an array of points");
	while ((t = json_next(jr)) == JSON_KEY) {
		int r;

		if (!strcmp(jr->str, "metric"))
			r = read_string(jr, "metric", &s->metric);
		else if (!strcmp(jr->str, "branch"))
			r = read_string(jr, "branch", &s->branch);
		else if (!strcmp(jr->str, "points")) {
			points = true;
			t = json_next(jr);
			if (t != JSON_ARRAY_BEGIN)
				return unexpected(jr, t, "points: expected an array of points");
			r = read_points(jr, s);
		} else {
			r = json_next(jr) == JSON_ERROR ? -1 : json_skip(jr);
		}
		if (r < 0)
			return -1;
	}
	if (t != JSON_OBJECT_END)
		return unexpected(jr, t, "expected a member or '}'");
	if (!points)
		return json_reader_fail(jr, jr->tok, "no \"points\" in the history");
	return 0;
}

int series_parse_json(struct series *s, const char *text, size_t len, const char *name)
{
	struct json_reader jr;
	int ret;

	series_init(s);
	json_reader_init(&jr, text, len, name);
	ret = read_document(&jr, s);
	if (ret == 0 && json_next(&jr) != JSON_END)
		ret = -1;
	if (ret < 0) {
		error("%s", jr.err.buf);
		series_release(s);
	}
	json_reader_release(&jr);
	return ret;
}

int series_load_json(struct series *s, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	int ret;

	series_init(s);
	if (read_file(&sb, strcmp(path, "-") ? path : "/dev/stdin") < 0) {
		strbuf_release(&sb);
		return -1;
	}
	ret = series_parse_json(s, sb.buf, sb.len, name);
	strbuf_release(&sb);
	return ret;
}

void series_from_history(struct series *s, const struct history *h)
{
	series_init(s);
	s->metric = h->metric ? xstrdup(h->metric) : NULL;
	s->branch = h->branch ? xstrdup(h->branch) : NULL;
	for (int i = 0; i < h->nr; i++) {
		const struct history_point *hp = &h->points[i];
		struct series_point *p = series_add(s, hp->sha);

		p->subject = hp->subject ? xstrdup(hp->subject) : NULL;
		for (int k = 0; k < hp->nr_tags; k++)
			series_point_add_tag(p, hp->tags[k]);
		if (hp->n > 0 && hp->samples) {
			series_point_set_samples(p, hp->samples, hp->n);
		} else {
			p->cp.mean = hp->mean;
			p->cp.n = hp->n > 0 ? hp->n : 1;
			p->cp.stddev = hp->n > 1 ? hp->stddev : NAN;
		}
	}
}
