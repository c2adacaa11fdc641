/*
 * report_bisect.c: reading the bisect.json that `perfbot bisect` leaves
 * next to its state, for `perfbot report --bisect` (format in report.h).
 *
 * The file is small (one entry per measured commit), so it is read with
 * json-c into a tree and checked field by field; every message names the
 * file and the field, and the line:column for syntax errors.
 */
#include "report/report.h"
#include "kernel/vm.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <json-c/json.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BISECT_JSON "bisect.json"
#define BISECT_VERSION 1

static const struct {
	const char *name;
	enum report_verdict v;
} verdicts[] = {
	{ "good", VERDICT_GOOD },
	{ "bad", VERDICT_BAD },
	{ "skip", VERDICT_SKIP },
	{ "good-endpoint", VERDICT_GOOD_ENDPOINT },
	{ "bad-endpoint", VERDICT_BAD_ENDPOINT },
};

const char *report_verdict_name(enum report_verdict v)
{
	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (verdicts[i].v == v)
			return verdicts[i].name;
	return "?";
}

int report_bisect_find(const char *state, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	char *copy;

	if (is_dir(state)) {
		path_join(&path, state, BISECT_JSON);
	} else if (!file_exists(state)) {
		return error("cannot read bisect state '%s': no such file or directory", state);
	} else {
		copy = xstrdup(state);
		if (!strcmp(basename(copy), BISECT_JSON)) {
			strbuf_addstr(&path, state);
		} else {
			/* the state file: `perfbot bisect` keeps its files in
			 * "<state>.d/"; else bisect.json lies beside it */
			strbuf_addf(&path, "%s.d/%s", state, BISECT_JSON);
			if (!file_exists(path.buf)) {
				free(copy);
				copy = xstrdup(state);
				strbuf_reset(&path);
				path_join(&path, dirname(copy), BISECT_JSON);
			}
		}
		free(copy);
	}
	if (!file_exists(path.buf)) {
		error("no '%s' for bisect state '%s' (has the bisect finished?)", path.buf, state);
		strbuf_release(&path);
		return -1;
	}
	strbuf_add(sb, path.buf, path.len);
	strbuf_release(&path);
	return 0;
}

struct ctx {
	const char *name;               /* the file, for messages */
	char *dir;                      /* its directory, for relative paths */
};

static int field_error(const struct ctx *c, const char *field, const char *what)
{
	return error("%s: '%s' expected %s", c->name, field, what);
}

/* A string member: 0 and *out set (NULL when absent and optional). */
static int get_string(const struct ctx *c, struct json_object *obj, const char *key,
		      const char *field, bool required, char **out)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v) || json_object_is_type(v, json_type_null)) {
		if (required)
			return error("%s: '%s' is missing", c->name, field);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return field_error(c, field, "a string");
	*out = xstrdup(json_object_get_string(v));
	return 0;
}

static int get_number(const struct ctx *c, struct json_object *v, const char *field, double *out)
{
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return field_error(c, field, "a number");
	*out = json_object_get_double(v);
	return 0;
}

/* "kernel": the tree, config and VM of a kernel bisect; the VM's
 * options go through the parser perfbot run's do (kernel_vm_opt), so
 * that the report prints only what run accepts. */
static int parse_kernel(const struct ctx *c, struct report_bisect *b, struct json_object *obj)
{
	static const char *const opts[][2] = {
		{ "cpus", "cpus" }, { "mem_mb", "mem" }, { "numa", "numa" },
		{ "boot_timeout", "boot-timeout" },
	};
	struct kernel_vm_opts vo;
	struct strbuf sb = STRBUF_INIT;
	char *accel = NULL;
	int ret = -1;

	memset(&vo, 0, sizeof(vo));
	if (!json_object_is_type(obj, json_type_object))
		return field_error(c, "kernel", "an object");
	if (get_string(c, obj, "tree", "kernel.tree", true, &b->kernel_tree) < 0 ||
	    get_string(c, obj, "config", "kernel.config", true, &b->kernel_config) < 0 ||
	    get_string(c, obj, "accel", "kernel.accel", false, &accel) < 0)
		goto out;
	if (accel && kernel_vm_opt(&vo, "accel", accel) < 0) {
		field_error(c, "kernel.accel", "auto, icount, tcg or kvm");
		goto out;
	}
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		struct json_object *v;
		double x;
		if (!json_object_object_get_ex(obj, opts[i][0], &v))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "kernel.%s", opts[i][0]);
		if (get_number(c, v, sb.buf, &x) < 0)
			goto out;
		strbuf_reset(&sb);
		/* mem_mb too: a plain number is MiB to kernel_vm_mem_mb */
		strbuf_addf(&sb, "%.15g", x);
		if (kernel_vm_opt(&vo, opts[i][1], sb.buf) < 0) {
			error("%s: 'kernel.%s' is not a VM perfbot run takes", c->name, opts[i][0]);
			goto out;
		}
	}
	strbuf_reset(&sb);
	kernel_vm_opts_args(&vo, &sb);
	b->kernel_vm_args = strbuf_detach(&sb, NULL);
	ret = 0;
out:
	free(accel);
	strbuf_release(&sb);
	return ret;
}

/* A path member, resolved against the file's directory when relative. */
static int get_path(const struct ctx *c, struct json_object *obj, const char *key,
		    const char *field, char **out)
{
	char *s;

	if (get_string(c, obj, key, field, false, &s) < 0)
		return -1;
	if (s && s[0] != '/' && strcmp(c->dir, ".")) {
		struct strbuf sb = STRBUF_INIT;
		path_join(&sb, c->dir, s);
		free(s);
		s = strbuf_detach(&sb, NULL);
	}
	*out = s;
	return 0;
}

static int parse_commits(const struct ctx *c, struct report_bisect *b, struct json_object *obj)
{
	struct strbuf field = STRBUF_INIT;
	int ret = 0;

	if (!json_object_is_type(obj, json_type_object))
		return field_error(c, "commits", "an object keyed by commit");
	b->commits = xcalloc((size_t)json_object_object_length(obj) + 1, sizeof(*b->commits));
	json_object_object_foreach(obj, sha, val) {
		struct report_bisect_commit *bc = &b->commits[b->nr_commits++];
		struct json_object *tags;

		bc->sha = xstrdup(sha);
		strbuf_reset(&field);
		strbuf_addf(&field, "commits.%s", sha);
		if (!json_object_is_type(val, json_type_object)) {
			ret = field_error(c, field.buf, "an object");
			break;
		}
		strbuf_addstr(&field, ".subject");
		if (get_string(c, val, "subject", field.buf, false, &bc->subject) < 0) {
			ret = -1;
			break;
		}
		strbuf_setlen(&field, field.len - strlen(".subject"));
		strbuf_addstr(&field, ".result_root");
		if (get_path(c, val, "result_root", field.buf, &bc->result_root) < 0) {
			ret = -1;
			break;
		}
		strbuf_setlen(&field, field.len - strlen(".result_root"));
		if (!json_object_object_get_ex(val, "tags", &tags) ||
		    json_object_is_type(tags, json_type_null))
			continue;
		strbuf_addstr(&field, ".tags");
		if (!json_object_is_type(tags, json_type_array)) {
			ret = field_error(c, field.buf, "an array of strings");
			break;
		}
		size_t n = json_object_array_length(tags);
		bc->tags = xcalloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			struct json_object *t = json_object_array_get_idx(tags, i);
			if (!json_object_is_type(t, json_type_string)) {
				ret = field_error(c, field.buf, "an array of strings");
				break;
			}
			bc->tags[bc->nr_tags++] = xstrdup(json_object_get_string(t));
		}
		if (ret)
			break;
	}
	strbuf_release(&field);
	return ret;
}

static int parse_steps(const struct ctx *c, struct report_bisect *b, struct json_object *arr)
{
	struct strbuf field = STRBUF_INIT;
	int ret = 0;

	if (!json_object_is_type(arr, json_type_array))
		return field_error(c, "steps", "an array");
	size_t n = json_object_array_length(arr);
	b->steps = xcalloc(n + 1, sizeof(*b->steps));
	for (size_t i = 0; i < n && !ret; i++) {
		struct json_object *st = json_object_array_get_idx(arr, i), *v, *samples;
		struct report_step *s = &b->steps[b->nr_steps++];
		char *verdict = NULL;
		size_t k;

		strbuf_reset(&field);
		strbuf_addf(&field, "steps[%zu]", i);
		if (!json_object_is_type(st, json_type_object)) {
			ret = field_error(c, field.buf, "an object");
			break;
		}
		strbuf_addstr(&field, ".commit");
		if (get_string(c, st, "commit", field.buf, true, &s->commit) < 0) {
			ret = -1;
			break;
		}
		strbuf_setlen(&field, field.len - strlen(".commit"));
		strbuf_addstr(&field, ".verdict");
		if (get_string(c, st, "verdict", field.buf, true, &verdict) < 0) {
			ret = -1;
			break;
		}
		for (k = 0; k < sizeof(verdicts) / sizeof(verdicts[0]); k++)
			if (!strcmp(verdicts[k].name, verdict))
				break;
		if (k == sizeof(verdicts) / sizeof(verdicts[0])) {
			ret = error("%s: '%s' expected good, bad, skip, good-endpoint or "
				    "bad-endpoint, got '%s'", c->name, field.buf, verdict);
			free(verdict);
			break;
		}
		free(verdict);
		s->verdict = verdicts[k].v;
		strbuf_setlen(&field, field.len - strlen(".verdict"));
		strbuf_addstr(&field, ".reason");
		if (get_string(c, st, "reason", field.buf, false, &s->reason) < 0) {
			ret = -1;
			break;
		}
		strbuf_setlen(&field, field.len - strlen(".reason"));
		strbuf_addstr(&field, ".verdict");
		strbuf_setlen(&field, field.len - strlen(".verdict"));
		strbuf_addstr(&field, ".samples");
		if (!json_object_object_get_ex(st, "samples", &samples) ||
		    !json_object_is_type(samples, json_type_array)) {
			ret = field_error(c, field.buf, "an array of numbers");
			break;
		}
		size_t ns = json_object_array_length(samples);
		s->samples = xcalloc(ns + 1, sizeof(double));
		for (k = 0; k < ns; k++) {
			v = json_object_array_get_idx(samples, k);
			if (get_number(c, v, field.buf, &s->samples[s->nr++]) < 0) {
				ret = -1;
				break;
			}
		}
	}
	strbuf_release(&field);
	return ret;
}

static int parse_endpoints(const struct ctx *c, struct report_bisect *b, struct json_object *obj)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{ "good_mean", offsetof(struct report_bisect, good_mean) },
		{ "bad_mean", offsetof(struct report_bisect, bad_mean) },
		{ "rel_shift", offsetof(struct report_bisect, rel_shift) },
		{ "p", offsetof(struct report_bisect, p) },
		{ "noise", offsetof(struct report_bisect, noise) },
		{ "noise_end", offsetof(struct report_bisect, noise_end) },
		{ "runs_needed", offsetof(struct report_bisect, runs_needed) },
		{ "step_shift", offsetof(struct report_bisect, step_shift) },
	};
	static const struct {
		const char *key;
		size_t off;
	} flags[] = {
		{ "partial_step", offsetof(struct report_bisect, partial_step) },
		{ "noise_moved", offsetof(struct report_bisect, noise_moved) },
	};
	struct strbuf field = STRBUF_INIT;
	int ret = 0;

	if (!json_object_is_type(obj, json_type_object))
		return field_error(c, "endpoints", "an object");
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]) && !ret; i++) {
		struct json_object *v;
		double *out = (double *)((char *)b + fields[i].off);
		strbuf_reset(&field);
		strbuf_addf(&field, "endpoints.%s", fields[i].key);
		*out = NAN;
		if (json_object_object_get_ex(obj, fields[i].key, &v) &&
		    !json_object_is_type(v, json_type_null))
			ret = get_number(c, v, field.buf, out);
	}
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]) && !ret; i++) {
		struct json_object *v;
		bool *out = (bool *)((char *)b + flags[i].off);

		*out = false;
		if (!json_object_object_get_ex(obj, flags[i].key, &v))
			continue;
		if (!json_object_is_type(v, json_type_boolean)) {
			strbuf_reset(&field);
			strbuf_addf(&field, "endpoints.%s", flags[i].key);
			ret = field_error(c, field.buf, "true or false");
		} else {
			*out = json_object_get_boolean(v);
		}
	}
	b->has_endpoints = !ret;
	strbuf_release(&field);
	return ret;
}

void report_bisect_notes(const struct report_bisect *b, int width, struct strbuf *out)
{
	struct strbuf para = STRBUF_INIT;

	if (!b->has_endpoints)
		return;
	if (b->noise_moved) {
		strbuf_addf(&para, "Warning: the machine's noise moved during the bisect: the "
			    "endpoints re-measured at the end give noise %.1f%% a run, %.1f%% at "
			    "the start.  The verdicts in between were made against references "
			    "that no longer hold; the commit named is not to be trusted.  Bisect "
			    "again on a quieter machine.", 100 * b->noise_end, 100 * b->noise);
		report_wrap(out, para.buf, width, "");
		strbuf_addch(out, '\n');
		strbuf_reset(&para);
	}
	if (b->partial_step && isfinite(b->step_shift) && isfinite(b->rel_shift)) {
		strbuf_addf(&para, "This commit explains %+.1f%% of the %+.1f%% from good to "
			    "bad: another change (a second step, or a drift) makes up the rest.",
			    100 * b->step_shift, 100 * b->rel_shift);
		report_wrap(out, para.buf, width, "");
		strbuf_addch(out, '\n');
		strbuf_reset(&para);
	}
	if (isfinite(b->noise) && b->runs_needed > 0) {
		strbuf_addf(&para, "The endpoints' noise was %.1f%% a run", 100 * b->noise);
		if (isfinite(b->noise_end))
			strbuf_addf(&para, " (%.1f%% when re-measured at the end)", 100 * b->noise_end);
		strbuf_addf(&para, "; a verdict needed about %.0f run%s a commit.", b->runs_needed,
			    b->runs_needed == 1 ? "" : "s");
		report_wrap(out, para.buf, width, "");
		strbuf_addch(out, '\n');
	}
	strbuf_release(&para);
}

/* "name:line:col" of byte offset off in text. */
static void where(const char *text, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int report_bisect_parse(struct report_bisect *b, const char *text, size_t len,
			const char *name)
{
	struct json_tokener *tok;
	struct json_object *root, *v;
	struct ctx c;
	char *copy;
	int ret = -1;

	memset(b, 0, sizeof(*b));
	b->path = xstrdup(name);
	if (len > INT_MAX)
		return error("%s: file too large", name);
	tok = json_tokener_new();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root) {
		enum json_tokener_error e = json_tokener_get_error(tok);
		int line, col;
		where(text, json_tokener_get_parse_end(tok), &line, &col);
		error("%s:%d:%d: %s", name, line, col,
		      e == json_tokener_continue ? "unexpected end of file, expected the rest of the JSON object"
						 : json_tokener_error_desc(e));
		json_tokener_free(tok);
		return -1;
	}
	json_tokener_free(tok);

	copy = xstrdup(name);
	c.name = name;
	c.dir = xstrdup(dirname(copy));
	free(copy);

	if (!json_object_is_type(root, json_type_object)) {
		error("%s: expected a JSON object", name);
		goto out;
	}
	if (!json_object_object_get_ex(root, "version", &v) ||
	    !json_object_is_type(v, json_type_int)) {
		field_error(&c, "version", "an integer");
		goto out;
	}
	if (json_object_get_int(v) != BISECT_VERSION) {
		error("%s: version %d is not supported (this perfbot reads version %d)",
		      name, json_object_get_int(v), BISECT_VERSION);
		goto out;
	}
	/* a bisect that found nothing (yet) writes no first_bad */
	if (!json_object_object_get_ex(root, "first_bad", &v)) {
		error("%s: no first bad commit: the bisect has not found one", name);
		goto out;
	}
	if (get_string(&c, root, "metric", "metric", true, &b->metric) < 0 ||
	    get_string(&c, root, "first_bad", "first_bad", true, &b->first_bad) < 0 ||
	    get_string(&c, root, "parent", "parent", true, &b->parent) < 0 ||
	    get_string(&c, root, "good", "good", false, &b->good) < 0 ||
	    get_string(&c, root, "bad", "bad", false, &b->bad) < 0 ||
	    get_string(&c, root, "good_name", "good_name", false, &b->good_name) < 0 ||
	    get_string(&c, root, "bad_name", "bad_name", false, &b->bad_name) < 0 ||
	    get_string(&c, root, "first_bad_subject", "first_bad_subject", false,
		       &b->first_bad_subject) < 0 ||
	    get_string(&c, root, "command", "command", false, &b->command) < 0 ||
	    get_path(&c, root, "repo", "repo", &b->repo) < 0 ||
	    get_path(&c, root, "job", "job", &b->job) < 0 ||
	    get_path(&c, root, "result_base", "result_base", &b->result_base) < 0)
		goto out;
	if (!json_object_object_get_ex(root, "commits", &v)) {
		error("%s: 'commits' is missing", name);
		goto out;
	}
	if (parse_commits(&c, b, v) < 0)
		goto out;
	if (json_object_object_get_ex(root, "steps", &v) && parse_steps(&c, b, v) < 0)
		goto out;
	if (json_object_object_get_ex(root, "kernel", &v) &&
	    !json_object_is_type(v, json_type_null) && parse_kernel(&c, b, v) < 0)
		goto out;
	if (json_object_object_get_ex(root, "endpoints", &v) &&
	    !json_object_is_type(v, json_type_null) && parse_endpoints(&c, b, v) < 0)
		goto out;
	ret = 0;
out:
	free(c.dir);
	json_object_put(root);
	return ret;
}

int report_bisect_load(struct report_bisect *b, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (read_file(&sb, path) < 0) {
		memset(b, 0, sizeof(*b));
		return -1;
	}
	ret = report_bisect_parse(b, sb.buf, sb.len, path);
	strbuf_release(&sb);
	return ret;
}

void report_bisect_release(struct report_bisect *b)
{
	char **strings[] = { &b->path, &b->repo, &b->metric, &b->good, &b->bad,
			     &b->good_name, &b->bad_name, &b->first_bad, &b->first_bad_subject, &b->parent,
			     &b->job, &b->result_base, &b->command, &b->kernel_tree,
			     &b->kernel_config, &b->kernel_vm_args };

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		free(*strings[i]);
	for (int i = 0; i < b->nr_commits; i++) {
		struct report_bisect_commit *bc = &b->commits[i];
		free(bc->sha);
		free(bc->subject);
		free(bc->result_root);
		for (int k = 0; k < bc->nr_tags; k++)
			free(bc->tags[k]);
		free(bc->tags);
	}
	free(b->commits);
	for (int i = 0; i < b->nr_steps; i++) {
		free(b->steps[i].commit);
		free(b->steps[i].reason);
		free(b->steps[i].samples);
	}
	free(b->steps);
	memset(b, 0, sizeof(*b));
}

const struct report_bisect_commit *report_bisect_commit(const struct report_bisect *b,
							const char *sha)
{
	const struct report_bisect_commit *found = NULL;
	size_t len = strlen(sha);

	if (!len)
		return NULL;
	for (int i = 0; i < b->nr_commits; i++) {
		const struct report_bisect_commit *bc = &b->commits[i];
		if (!strcmp(bc->sha, sha))
			return bc;
		/* either may be the abbreviated one */
		size_t l2 = strlen(bc->sha);
		if (!strncmp(bc->sha, sha, len < l2 ? len : l2)) {
			if (found)
				return NULL;    /* ambiguous */
			found = bc;
		}
	}
	return found;
}
