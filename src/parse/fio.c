/*
 * fio.c: fio's --output-format=json result as lkp stats.
 *
 * From the first job of the JSON document (which starts at the first '{':
 * fio may print warnings before it), for each of read and write:
 *
 *     <op>_bw_MBps          bw (KiB/s) / 1024, a Float
 *     <op>_iops             iops, as in the JSON (Integer or Float)
 *     <op>_clat_mean_ns, <op>_clat_stddev, <op>_clat_<P>%_ns for the 90th,
 *     95th and 99th percentiles (clat or clat_ns)
 *     <op>_slat_mean_us, <op>_slat_stddev (slat or slat_ns)
 *
 * then latency_<N>us% and latency_<N>ms% from latency_us / latency_ms, and
 * workload: the read + write total_ios.  Values keep their JSON type, so
 * that 0.000000 prints as "0.0" and 2064 as "2064", as Ruby's JSON does.
 *
 * With a result root (lkp's RESULT_ROOT, which takes priority over the
 * input: the captured stdout only echoes the fio command) the document is
 * <root>/fio.output; failing that, one <root>/fio.output.<N> per instance
 * of a multi-instance job.  Then the instances are combined under the
 * plain names (bw, iops and workload summed, the rest averaged as Floats)
 * and each instance follows with the suffix ".instance<N>".
 */
#include <dirent.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "parse/bench_util.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

/* One stat: a number, or a string or null copied as Ruby prints it. */
struct fio_stat {
	char *key;
	bool is_num;
	struct rnum num;
	char *str;              /* when !is_num: "" for JSON null */
};

/* Stats in insertion order; setting a key again keeps its place (a Ruby Hash). */
struct fio_stats {
	size_t nr, alloc;
	struct fio_stat *v;
};

static void stats_release(struct fio_stats *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->v[i].key);
		free(s->v[i].str);
	}
	free(s->v);
	s->v = NULL;
	s->nr = s->alloc = 0;
}

static struct fio_stat *stats_find(const struct fio_stats *s, const char *key)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i].key, key))
			return &s->v[i];
	return NULL;
}

static struct fio_stat *stats_slot(struct fio_stats *s, const char *key)
{
	struct fio_stat *st = stats_find(s, key);

	if (st) {
		free(st->str);
		st->str = NULL;
		return st;
	}
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	st = &s->v[s->nr++];
	memset(st, 0, sizeof(*st));
	st->key = xstrdup(key);
	return st;
}

static void stats_set_num(struct fio_stats *s, const char *key, struct rnum v)
{
	struct fio_stat *st = stats_slot(s, key);

	st->is_num = true;
	st->num = v;
}

/* stats[key] = a JSON value, kept as Ruby would hold it. */
static int stats_set_json(struct fio_stats *s, const char *key, struct json_object *o)
{
	struct fio_stat *st;

	switch (json_object_get_type(o)) {
	case json_type_int:
		stats_set_num(s, key, rnum_int(json_object_get_int64(o)));
		return 0;
	case json_type_double:
		stats_set_num(s, key, rnum_float(json_object_get_double(o)));
		return 0;
	case json_type_string:
	case json_type_null:
	case json_type_boolean:
		st = stats_slot(s, key);
		st->is_num = false;
		st->str = xstrdup(o ? json_object_get_string(o) : "");
		return 0;
	default:
		return -1;
	}
}

static void print_stats(const struct fio_stats *s, const char *suffix, struct strbuf *out)
{
	for (size_t i = 0; i < s->nr; i++) {
		strbuf_addf(out, "%s%s: ", s->v[i].key, suffix);
		if (s->v[i].is_num)
			fmt_rnum(out, s->v[i].num);
		else
			strbuf_addstr(out, s->v[i].str);
		strbuf_addch(out, '\n');
	}
}

/* A JSON member that must be there; sets *what for the message otherwise. */
static struct json_object *member(struct json_object *o, const char *key,
				  const char **what)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !v) {
		*what = key;
		return NULL;
	}
	return v;
}

/* The first of two alternative members (fio renamed clat to clat_ns). */
static struct json_object *member2(struct json_object *o, const char *a,
				   const char *b, const char **what)
{
	struct json_object *v = member(o, a, what);

	return v ? v : member(o, b, what);
}

/* Ruby's to_f / to_i of a JSON value that may be missing (nil: 0). */
static double json_to_f(struct json_object *o)
{
	if (!o)
		return 0.0;
	if (json_object_is_type(o, json_type_string))
		return rb_to_f(json_object_get_string(o));
	return json_object_get_double(o);
}

static long long json_to_i(struct json_object *o)
{
	if (!o)
		return 0;
	if (json_object_is_type(o, json_type_string))
		return rb_to_i(json_object_get_string(o));
	return json_object_get_int64(o);
}

/* stats[key] = o[name]; absent or null is Ruby's nil, printed empty. */
static int set_member(struct fio_stats *s, const char *key, struct json_object *o,
		      const char *name, const char **what)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, name, &v);
	if (stats_set_json(s, key, v)) {
		*what = name;
		return -1;
	}
	return 0;
}

/* The stats of one op ("read"/"write"); adds its total_ios to *workload. */
static int parse_op(struct fio_stats *s, const char *op, struct json_object *res,
		    __int128 *workload, const char **what)
{
	static const char *const percentiles[] = { "90.000000", "95.000000", "99.000000" };
	struct strbuf key = STRBUF_INIT;
	struct json_object *clat, *slat, *pct, *v = NULL;
	int ret = -1;

	if (!res) {
		*what = op;
		return -1;
	}
	json_object_object_get_ex(res, "bw", &v);
	strbuf_addf(&key, "%s_bw_MBps", op);
	stats_set_num(s, key.buf, rnum_float(json_to_f(v) / 1024));

	strbuf_reset(&key);
	strbuf_addf(&key, "%s_iops", op);
	if (set_member(s, key.buf, res, "iops", what))
		goto out;

	if (!(clat = member2(res, "clat", "clat_ns", what)))
		goto out;
	strbuf_reset(&key);
	strbuf_addf(&key, "%s_clat_mean_ns", op);
	if (set_member(s, key.buf, clat, "mean", what))
		goto out;
	strbuf_reset(&key);
	strbuf_addf(&key, "%s_clat_stddev", op);
	if (set_member(s, key.buf, clat, "stddev", what))
		goto out;
	if (json_object_object_get_ex(clat, "percentile", &pct) &&
	    json_object_is_type(pct, json_type_object)) {
		struct json_object_iter iter;

		json_object_object_foreachC(pct, iter) {
			size_t len;
			bool wanted = false;

			for (size_t i = 0; i < 3; i++)
				wanted |= !strcmp(iter.key, percentiles[i]);
			if (!wanted)
				continue;
			/* "90.000000" -> "90", as lkp's chomp('0')s and chomp('.') */
			len = strlen(iter.key);
			while (len && iter.key[len - 1] == '0')
				len--;
			if (len && iter.key[len - 1] == '.')
				len--;
			strbuf_reset(&key);
			strbuf_addf(&key, "%s_clat_%.*s%%_ns", op, (int)len, iter.key);
			if (stats_set_json(s, key.buf, iter.val)) {
				*what = iter.key;
				goto out;
			}
		}
	}

	if (!(slat = member2(res, "slat", "slat_ns", what)))
		goto out;
	strbuf_reset(&key);
	strbuf_addf(&key, "%s_slat_mean_us", op);
	if (set_member(s, key.buf, slat, "mean", what))
		goto out;
	strbuf_reset(&key);
	strbuf_addf(&key, "%s_slat_stddev", op);
	if (set_member(s, key.buf, slat, "stddev", what))
		goto out;

	v = NULL;
	json_object_object_get_ex(res, "total_ios", &v);
	*workload += json_to_i(v);
	ret = 0;
out:
	strbuf_release(&key);
	return ret;
}

/* latency_us / latency_ms buckets: "latency_<bucket><unit>%". */
static int parse_latency(struct fio_stats *s, struct json_object *job, const char *unit,
			 const char **what)
{
	struct strbuf name = STRBUF_INIT, key = STRBUF_INIT;
	struct json_object *lat;
	struct json_object_iter iter;
	int ret = 0;

	strbuf_addf(&name, "latency_%s", unit);
	if (!json_object_object_get_ex(job, name.buf, &lat) ||
	    !json_object_is_type(lat, json_type_object))
		goto out;
	json_object_object_foreachC(lat, iter) {
		strbuf_reset(&key);
		strbuf_addf(&key, "latency_%s%s%%", iter.key, unit);
		if (stats_set_json(s, key.buf, iter.val)) {
			*what = iter.key;
			ret = -1;
			break;
		}
	}
out:
	strbuf_release(&name);
	strbuf_release(&key);
	return ret;
}

/* Parse one fio JSON output (buf, named fname for messages) into s. */
static int parse_output(const struct parse_input *in, const char *fname,
			const char *buf, size_t len, struct fio_stats *s)
{
	struct parse_input src = *in;
	const char *brace = memchr(buf, '{', len), *why, *what = NULL;
	struct json_object *doc, *jobs, *job;
	__int128 workload = 0;         /* exact, as Ruby adds */
	size_t lineno = 1;
	int ret = -1;

	src.name = fname;
	if (!brace)
		return parse_error(&src, "fio", line_count(buf, len),
				   "no JSON document (expected '{')");
	for (const char *p = buf; p < brace; p++)
		lineno += *p == '\n';
	doc = json_parse_whole(brace, len - (size_t)(brace - buf), &why);
	if (!doc)
		return parse_error(&src, "fio", lineno, "bad fio JSON: %s", why);
	if (!json_object_object_get_ex(doc, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array) ||
	    !json_object_array_length(jobs)) {
		parse_error(&src, "fio", lineno, "expected a non-empty \"jobs\" array");
		goto out;
	}
	job = json_object_array_get_idx(jobs, 0);
	if (parse_op(s, "read", member(job, "read", &what), &workload, &what) ||
	    parse_op(s, "write", member(job, "write", &what), &workload, &what) ||
	    parse_latency(s, job, "us", &what) || parse_latency(s, job, "ms", &what)) {
		parse_error(&src, "fio", lineno,
			    "jobs[0]: missing or bad \"%s\"", what ? what : "?");
		goto out;
	}
	struct rnum w = { true, workload, 0.0 };
	stats_set_num(s, "workload", w);
	ret = 0;
out:
	json_object_put(doc);
	return ret;
}

static int parse_file(const struct parse_input *in, const char *path, struct fio_stats *s)
{
	struct strbuf buf = STRBUF_INIT;
	/* JSON may come on one line: only the size is bounded */
	int ret = read_file_limited(&buf, path, PARSE_MAX_BYTES, 0);

	if (!ret)
		ret = parse_output(in, path, buf.buf, buf.len, s);
	strbuf_release(&buf);
	return ret;
}

struct instance {
	long long id;
	char *path;
	struct fio_stats stats;
};

static int cmp_instance(const void *a, const void *b)
{
	long long x = ((const struct instance *)a)->id;
	long long y = ((const struct instance *)b)->id;

	return x < y ? -1 : x > y;
}

/* "fio.output.12" -> 12; a name not ending in ".<digits>" -> 0, as lkp's to_i. */
static long long instance_id(const char *name)
{
	const char *end = name + strlen(name), *p = end;

	while (p > name && is_digit(p[-1]))
		p--;
	if (p == end || p == name || p[-1] != '.')
		return 0;
	return rb_to_i(p);
}

/* The instances' stats under the plain names: sums for bw, iops and
 * workload, Float means for the rest, over the instances that have the key. */
static void combine(const struct instance *inst, size_t nr, struct fio_stats *out)
{
	struct rvec vals = RVEC_INIT;

	for (size_t k = 0; k < inst[0].stats.nr; k++) {
		const char *key = inst[0].stats.v[k].key;
		size_t len = strlen(key);
		bool additive = !strcmp(key, "workload") ||
			(len >= 5 && !strcmp(key + len - 5, "_iops")) ||
			(len >= 8 && !strcmp(key + len - 8, "_bw_MBps"));
		struct rnum sum;

		vals.nr = 0;
		for (size_t i = 0; i < nr; i++) {
			const struct fio_stat *st = stats_find(&inst[i].stats, key);
			if (st && st->is_num)
				rvec_push(&vals, st->num);
		}
		if (!vals.nr)
			continue;
		sum = rnum_sum(vals.v, vals.nr);
		if (!additive)
			sum = rnum_float(rnum_to_f(sum) / (double)vals.nr);
		stats_set_num(out, key, sum);
	}
	rvec_release(&vals);
}

static int parse_instances(const struct parse_input *in, struct strbuf *out)
{
	struct instance *inst = NULL;
	size_t nr = 0, alloc = 0;
	struct fio_stats combined = { 0, 0, NULL };
	struct strbuf path = STRBUF_INIT, suffix = STRBUF_INIT;
	struct dirent *de;
	DIR *dir = opendir(in->result_root);
	int ret = 0;

	if (!dir)
		return error("cannot open result root '%s'", in->result_root);
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "fio.output.", 11))
			continue;
		strbuf_reset(&path);
		path_join(&path, in->result_root, de->d_name);
		ALLOC_GROW(inst, nr + 1, alloc);
		inst[nr].id = instance_id(de->d_name);
		inst[nr].path = strbuf_detach(&path, NULL);
		memset(&inst[nr].stats, 0, sizeof(inst[nr].stats));
		nr++;
	}
	closedir(dir);
	if (!nr) {
		ret = error("fio: no fio.output or fio.output.<N> in '%s'", in->result_root);
		goto out;
	}
	qsort(inst, nr, sizeof(*inst), cmp_instance);
	for (size_t i = 0; i < nr; i++)
		if ((ret = parse_file(in, inst[i].path, &inst[i].stats)))
			goto out;
	combine(inst, nr, &combined);
	print_stats(&combined, "", out);
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&suffix);
		strbuf_addf(&suffix, ".instance%lld", inst[i].id);
		print_stats(&inst[i].stats, suffix.buf, out);
	}
out:
	for (size_t i = 0; i < nr; i++) {
		free(inst[i].path);
		stats_release(&inst[i].stats);
	}
	free(inst);
	stats_release(&combined);
	strbuf_release(&path);
	strbuf_release(&suffix);
	return ret;
}

static int parse_fio(const struct parse_input *in, struct strbuf *out)
{
	struct fio_stats s = { 0, 0, NULL };
	struct strbuf path = STRBUF_INIT;
	int ret;

	if (in->result_root) {
		path_join(&path, in->result_root, "fio.output");
		if (!file_exists(path.buf)) {
			strbuf_release(&path);
			return parse_instances(in, out);
		}
		ret = parse_file(in, path.buf, &s);
	} else {
		ret = parse_output(in, in->name, in->buf, in->len, &s);
	}
	if (!ret)
		print_stats(&s, "", out);
	stats_release(&s);
	strbuf_release(&path);
	return ret;
}

const struct parser parser_fio = { "fio", parse_fio, NULL };
