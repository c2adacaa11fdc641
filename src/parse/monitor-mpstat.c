/*
 * monitor-mpstat.c: the mpstat monitor's JSON (`mpstat -o JSON`) into lkp stats.
 *
 *   {"sysstat": {"hosts": [{"date": "2019-03-08", "statistics": [
 *     {"timestamp": "17:23:30",
 *      "cpu-load": [{"cpu": "all", "usr": 6.33, ..., "idle": 86.08}, ...]},
 *     ...]}]}}
 *
 * gives, per statistics entry, "time: <epoch>" and one key per figure:
 * "cpu.<cpu>.<name>%" for cpu-load, "node.<node>.<name>%" for node-load,
 * "<array>.<first value>.<name>" for other arrays, "<object>.<name>" for
 * objects.  lkp keeps all keys in one Ruby Hash and prints the whole hash
 * after each entry, so a key seen once is printed again (with its last
 * value) after every later entry, in first-seen order; we do the same.
 * Values print as Ruby's to_s of the JSON value: 0.00 is "0.0".
 *
 * At the end come "max_utilization_pct" and "max_utilization.seconds":
 * over every figure pair (idle, iowait) of every entry, the largest
 * 100 - idle - iowait (the first one on ties), times the number of pairs,
 * and its 1-based position times the number of pairs (lkp multiplies so
 * that averaging over the samples later gives the value back).
 *
 * A monitor killed mid-write leaves truncated JSON.  As lkp does, when the
 * text does not parse: a file ending in ",\n" loses that comma, one ending
 * in "\t}" is kept, and the closing brackets are added; if that still does
 * not parse, the text is cut after its last "\n\t\t\t\t}" (the end of a
 * statistics entry) and closed there.  Input that cannot be read even so,
 * or that is not mpstat's layout, is an error (lkp logs and prints nothing).
 * Time stamps are read as UTC, as lkp does (see utc_epoch).
 */
#include "parse/parser.h"
#include "parse/parse_util.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

/* What lkp appends to close a statistics array cut short. */
static const char close_brackets[] = "\n\t\t\t]\n\t\t}\n\t]\n}}\n";

struct mpstat {
	const struct parse_input *in;
	struct kvmap results;           /* key -> index into vals */
	struct strbuf *vals;            /* each key's value, printed */
	size_t vals_alloc;
	double *idle, *iowait;          /* every idle/iowait figure, in order */
	bool *idle_int, *iowait_int;
	size_t nr_idle, alloc_idle, nr_iowait, alloc_iowait;
	const char *date;               /* hosts[0].date */
	struct strbuf key, val;         /* scratch */
};

/* Parse text[0..len) as one JSON value; NULL on failure, *err_at set to
 * the offset where the tokener stopped. */
static struct json_object *parse_json(const char *text, size_t len, size_t *err_at,
				      enum json_tokener_error *jerr)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	*jerr = json_tokener_get_error(tok);
	*err_at = json_tokener_get_parse_end(tok);
	if (obj && *jerr != json_tokener_success) {
		json_object_put(obj);
		obj = NULL;
	}
	if (!obj && *jerr == json_tokener_success)
		*jerr = json_tokener_continue;
	json_tokener_free(tok);
	return obj;
}

static size_t line_of(const char *s, size_t off)
{
	size_t no = 1;

	for (size_t i = 0; i < off; i++)
		no += s[i] == '\n';
	return no;
}

/* lkp's repairs of a truncated file; see the top of the file. */
static struct json_object *parse_mpstat_json(const struct parse_input *in)
{
	struct strbuf fixed = STRBUF_INIT;
	struct json_object *obj;
	enum json_tokener_error jerr, first_err;
	size_t err_at, first_at;
	const char *cut;

	if (in->len > INT32_MAX)
		return parse_error(in, "mpstat", 0, "input too large"), NULL;
	obj = parse_json(in->buf, in->len, &first_at, &first_err);
	if (obj)
		return obj;
	if (in->len >= 2) {
		const char *tail = in->buf + in->len - 2;

		if (!memcmp(tail, ",\n", 2)) {
			strbuf_add(&fixed, in->buf, in->len - 2);
			strbuf_addstr(&fixed, close_brackets);
		} else if (!memcmp(tail, "\t}", 2)) {
			strbuf_add(&fixed, in->buf, in->len);
			strbuf_addstr(&fixed, close_brackets);
		}
	}
	if (!fixed.len)
		strbuf_add(&fixed, in->buf, in->len);
	obj = parse_json(fixed.buf, fixed.len, &err_at, &jerr);
	if (!obj) {
		cut = mem_find_last(fixed.buf, fixed.len, "\n\t\t\t\t}", 6);
		if (cut) {
			strbuf_setlen(&fixed, (size_t)(cut - fixed.buf) + 6);
			strbuf_addstr(&fixed, close_brackets);
			obj = parse_json(fixed.buf, fixed.len, &err_at, &jerr);
		}
	}
	strbuf_release(&fixed);
	if (obj)
		return obj;
	if (in->len >= 6 && !memcmp(in->buf, "Linux ", 6))
		parse_error(in, "mpstat", 1, "expected JSON (mpstat -o JSON), found mpstat's text output");
	else
		parse_error(in, "mpstat", line_of(in->buf, first_at),
			    "expected sysstat JSON: %s", json_tokener_error_desc(first_err));
	return NULL;
}

/* Append Ruby's to_s of a JSON scalar; -1 for arrays and objects. */
static int add_ruby_to_s(struct strbuf *sb, struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return 0;       /* nil.to_s is "" */
	case json_type_boolean:
		strbuf_addstr(sb, json_object_get_boolean(v) ? "true" : "false");
		return 0;
	case json_type_int:
		strbuf_addf(sb, "%lld", (long long)json_object_get_int64(v));
		return 0;
	case json_type_double:
		fmt_ruby_float(sb, json_object_get_double(v));
		return 0;
	case json_type_string:
		strbuf_add(sb, json_object_get_string(v), (size_t)json_object_get_string_len(v));
		return 0;
	default:
		return -1;
	}
}

/* results[key] = value; mp->key holds the key. */
static void set_result(struct mpstat *mp, const struct strbuf *value)
{
	struct kv_entry *e = kvmap_get(&mp->results, mp->key.buf, mp->key.len);
	size_t i = (size_t)(e - mp->results.e);

	if (i >= mp->vals_alloc) {
		size_t old = mp->vals_alloc;
		ALLOC_GROW(mp->vals, i + 1, mp->vals_alloc);
		for (size_t j = old; j < mp->vals_alloc; j++)
			strbuf_init(&mp->vals[j], 0);
	}
	strbuf_reset(&mp->vals[i]);
	strbuf_add(&mp->vals[i], value->buf, value->len);
}

static int set_json_result(struct mpstat *mp, struct json_object *v)
{
	strbuf_reset(&mp->val);
	if (add_ruby_to_s(&mp->val, v) < 0)
		return parse_error(mp->in, "mpstat", 0,
				   "expected a number or string for '%s', found %s",
				   mp->key.buf, json_type_to_name(json_object_get_type(v)));
	/* a newline (json-c lets raw ones into strings, found by fuzzing)
	 * would split a stats line: no control characters in keys or values */
	for (const struct strbuf *sb = &mp->key; sb; sb = sb == &mp->key ? &mp->val : NULL)
		for (size_t i = 0; i < sb->len; i++)
			if ((unsigned char)sb->buf[i] < 0x20)
				return parse_error(mp->in, "mpstat", 0,
						   "expected sysstat JSON: a control character in %s after '%.*s'",
						   sb == &mp->key ? "a key" : "a value", (int)(i < 60 ? i : 60),
						   sb->buf);
	set_result(mp, &mp->val);
	return 0;
}

/* Record an idle or iowait figure for max_utilization. */
static int push_pct(struct mpstat *mp, struct json_object *v, bool idle)
{
	enum json_type t = json_object_get_type(v);
	double d;

	if (t != json_type_int && t != json_type_double)
		return parse_error(mp->in, "mpstat", 0,
				   "expected a number for '%s', found %s",
				   mp->key.buf, json_type_to_name(t));
	d = json_object_get_double(v);
	if (idle) {
		ALLOC_GROW(mp->idle, mp->nr_idle + 1, mp->alloc_idle);
		mp->idle_int = xrealloc(mp->idle_int, mp->alloc_idle * sizeof(bool));
		mp->idle_int[mp->nr_idle] = t == json_type_int;
		mp->idle[mp->nr_idle++] = d;
	} else {
		ALLOC_GROW(mp->iowait, mp->nr_iowait + 1, mp->alloc_iowait);
		mp->iowait_int = xrealloc(mp->iowait_int, mp->alloc_iowait * sizeof(bool));
		mp->iowait_int[mp->nr_iowait] = t == json_type_int;
		mp->iowait[mp->nr_iowait++] = d;
	}
	return 0;
}

/*
 * An array of records such as "cpu-load": [{"cpu": "0", "usr": 5.05, ...}]:
 * the first member names the record, the others are its figures.
 */
static int array_results(struct mpstat *mp, const char *prefix, struct json_object *arr)
{
	const char *fmt = strstr(prefix, "node-load") ? "node" :
			  strstr(prefix, "cpu-load") ? "cpu" : NULL;
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		struct json_object *rec = json_object_array_get_idx(arr, i);
		struct strbuf name = STRBUF_INIT;
		bool first = true;

		if (!json_object_is_type(rec, json_type_object))
			continue;
		json_object_object_foreach(rec, k, v) {
			if (first) {
				first = false;
				if (add_ruby_to_s(&name, v) < 0) {
					strbuf_release(&name);
					return parse_error(mp->in, "mpstat", 0,
							   "expected a name as first member of a '%s' record", prefix);
				}
				continue;
			}
			strbuf_reset(&mp->key);
			strbuf_addf(&mp->key, "%s.%s.%s%s", fmt ? fmt : prefix, name.buf, k,
				    fmt ? "%" : "");
			if ((!strcmp(k, "idle") && push_pct(mp, v, true) < 0) ||
			    (!strcmp(k, "iowait") && push_pct(mp, v, false) < 0) ||
			    set_json_result(mp, v) < 0) {
				strbuf_release(&name);
				return -1;
			}
		}
		strbuf_release(&name);
	}
	return 0;
}

static int timestamp_result(struct mpstat *mp, struct json_object *v)
{
	const char *s = json_object_get_string(v);
	long long t;

	if (!json_object_is_type(v, json_type_string) || !mp->date ||
	    utc_epoch(mp->date, strlen(mp->date), s, strlen(s), &t) < 0)
		return parse_error(mp->in, "mpstat", 0,
				   "expected a date 'YYYY-MM-DD' and a timestamp 'HH:MM:SS', found '%s' and '%s'",
				   mp->date ? mp->date : "(none)", s ? s : "(none)");
	strbuf_reset(&mp->key);
	strbuf_addstr(&mp->key, "time");
	strbuf_reset(&mp->val);
	strbuf_addf(&mp->val, "%lld", t);
	set_result(mp, &mp->val);
	return 0;
}

static int entry_results(struct mpstat *mp, struct json_object *entry)
{
	json_object_object_foreach(entry, k, v) {
		int ret = 0;

		if (json_object_is_type(v, json_type_array)) {
			ret = array_results(mp, k, v);
		} else if (json_object_is_type(v, json_type_object)) {
			json_object_object_foreach(v, k2, v2) {
				if (json_object_is_type(v2, json_type_array)) {
					ret = array_results(mp, k2, v2);
				} else if (json_object_is_type(v2, json_type_object)) {
					json_object_object_foreach(v2, k3, v3) {
						strbuf_reset(&mp->key);
						strbuf_addf(&mp->key, "%s.%s", k2, k3);
						if ((ret = set_json_result(mp, v3)) < 0)
							break;
					}
				} else {
					strbuf_reset(&mp->key);
					strbuf_addf(&mp->key, "%s.%s", k, k2);
					ret = set_json_result(mp, v2);
				}
				if (ret < 0)
					break;
			}
		} else if (!strcmp(k, "timestamp")) {
			ret = timestamp_result(mp, v);
		}
		if (ret < 0)
			return -1;
	}
	return 0;
}

static void display_results(struct mpstat *mp, struct strbuf *out)
{
	for (size_t i = 0; i < mp->results.nr; i++) {
		const struct kv_entry *e = &mp->results.e[i];

		if (!e->len)
			continue;
		emit_str(out, e->key, mp->vals[i].buf, mp->vals[i].len);
	}
}

static int display_max_util(struct mpstat *mp, struct strbuf *out)
{
	size_t n = mp->nr_idle, best = 0;
	double max = 0;
	bool max_int = true;

	if (!n)
		return 0;
	if (mp->nr_iowait < n)
		return parse_error(mp->in, "mpstat", 0,
				   "expected an iowait figure with each idle figure (%zu idle, %zu iowait)",
				   n, mp->nr_iowait);
	for (size_t i = 0; i < n; i++) {
		double u = 100 - mp->idle[i] - mp->iowait[i];

		if (!i || u > max) {
			max = u;
			best = i;
			max_int = mp->idle_int[i] && mp->iowait_int[i];
		}
	}
	emit_num(out, "max_utilization_pct", max * (double)n, max_int);
	strbuf_addf(out, "max_utilization.seconds: %zu\n", (best + 1) * n);
	return 0;
}

static void mpstat_release(struct mpstat *mp)
{
	for (size_t i = 0; i < mp->vals_alloc; i++)
		strbuf_release(&mp->vals[i]);
	free(mp->vals);
	kvmap_release(&mp->results);
	free(mp->idle);
	free(mp->iowait);
	free(mp->idle_int);
	free(mp->iowait_int);
	strbuf_release(&mp->key);
	strbuf_release(&mp->val);
}

static int parse_mpstat(const struct parse_input *in, struct strbuf *out)
{
	struct mpstat mp = { .in = in };
	struct json_object *root, *host = NULL, *stats = NULL, *date = NULL, *x;
	int ret = 0;

	kvmap_init(&mp.results);
	strbuf_init(&mp.key, 0);
	strbuf_init(&mp.val, 0);
	root = parse_mpstat_json(in);
	if (!root)
		return -1;
	if (json_object_object_get_ex(root, "sysstat", &x) &&
	    json_object_object_get_ex(x, "hosts", &x) &&
	    json_object_is_type(x, json_type_array))
		host = json_object_array_get_idx(x, 0);
	if (host && json_object_is_type(host, json_type_object)) {
		json_object_object_get_ex(host, "statistics", &stats);
		json_object_object_get_ex(host, "date", &date);
	}
	if (!stats || !json_object_is_type(stats, json_type_array)) {
		json_object_put(root);
		return parse_error(in, "mpstat", 0, "expected sysstat.hosts[0].statistics");
	}
	if (date && json_object_is_type(date, json_type_string))
		mp.date = json_object_get_string(date);

	for (size_t i = 0; i < json_object_array_length(stats); i++) {
		struct json_object *entry = json_object_array_get_idx(stats, i);

		if (!json_object_is_type(entry, json_type_object)) {
			ret = parse_error(in, "mpstat", 0,
					  "expected an object as statistics entry %zu", i + 1);
			break;
		}
		if ((ret = entry_results(&mp, entry)) < 0)
			break;
		display_results(&mp, out);
	}
	if (!ret)
		ret = display_max_util(&mp, out);
	json_object_put(root);
	mpstat_release(&mp);
	return ret;
}

const struct parser parser_mpstat = { "mpstat", parse_mpstat, NULL };
