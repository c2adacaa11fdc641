/*
 * change.c: what both change rules share: options, the record list, and a
 * record's JSON with lkp's field names, order and number types.
 *
 * lkp's records are Ruby hashes printed by its JSON/YAML writers, where an
 * Integer prints as "10" and a Float as "10.0".  The rules keep only the
 * per-side flags int_a/int_b; the type of each derived field follows from
 * them by lkp's arithmetic (see number_types below), so the rules need not
 * track a flag per field.
 */
#include "result/change.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/xalloc.h"

void change_options_init(struct change_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->rule = RULE_STAT;
	opt->alpha = 0.05;
}

void change_list_init(struct change_list *l)
{
	memset(l, 0, sizeof(*l));
}

struct change_record *change_list_add(struct change_list *out)
{
	struct change_record *r;

	ALLOC_GROW(out->r, (size_t)out->nr + 1, out->alloc);
	r = &out->r[out->nr++];
	memset(r, 0, sizeof(*r));
	r->p_welch = NAN;
	r->p_mwu = NAN;
	r->q = NAN;
	return r;
}

void change_list_release(struct change_list *l)
{
	for (int i = 0; i < l->nr; i++) {
		free(l->r[i].a);
		free(l->r[i].b);
	}
	free(l->r);
	change_list_init(l);
}

/* One "%-10.5g" field; Ruby's format spells non-finite values Inf/NaN. */
static void interval_number(struct strbuf *out, double v)
{
	if (isnan(v))
		strbuf_addf(out, "%-10s", "NaN");
	else if (isinf(v))
		strbuf_addf(out, "%-10s", v > 0 ? "Inf" : "-Inf");
	else
		strbuf_addf(out, "%-10.5g", v);
}

void change_record_interval(const struct change_record *r, struct strbuf *out)
{
	strbuf_addstr(out, "[ ");
	interval_number(out, r->min_a);
	strbuf_addstr(out, " - ");
	interval_number(out, r->max_a);
	strbuf_addstr(out, " ] -- [ ");
	interval_number(out, r->min_b);
	strbuf_addstr(out, " - ");
	interval_number(out, r->max_b);
	strbuf_addstr(out, " ]");
}

/* Printed as an integer only when flagged so and integral. */
static bool int_ok(bool flag, double v)
{
	return flag && isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0;
}

/*
 * Which derived fields lkp holds as Integers, following its arithmetic in
 * calc_stats_metrics: sums of Integers stay Integers, y clamped at 0 is
 * the Integer 0, ratio is a Float quotient unless it is MAX_RATIO (an
 * Integer) because the low side's median is not positive or the quotient
 * was capped.
 */
struct number_types {
	bool ratio, delta, x, y, z, max;
};

static void number_types(const struct change_record *r, struct number_types *t)
{
	bool a_high = r->mean_a > r->mean_b;
	double high_mean = a_high ? r->mean_a : r->mean_b;
	double low_mean = a_high ? r->mean_b : r->mean_a;
	double high_min = a_high ? r->min_a : r->min_b;
	double low_max = a_high ? r->max_b : r->max_a;
	bool x_from_z = r->na <= 2 && r->max_a - r->min_a < r->max_b - r->min_b;

	t->ratio = !(low_mean > 0) || high_mean / low_mean > 5;
	t->delta = r->int_a && r->int_b;
	t->y = high_min - low_max < 0 || (r->int_a && r->int_b);
	t->x = x_from_z ? r->int_b : r->int_a;
	t->z = r->int_b;
	t->max = r->max_a > r->max_b ? r->int_a : r->int_b;
}

/*
 * A record is written field by field through a sink, so that its JSON and
 * its YAML-like text come from one list of fields with one set of types.
 */
struct sink {
	void (*string)(void *ctx, const char *key, const char *s);
	void (*boolean)(void *ctx, const char *key, bool b);
	void (*number)(void *ctx, const char *key, double v, bool is_int);
	void (*numbers)(void *ctx, const char *key, const double *v, int n, bool is_int);
	void *ctx;
};

static void emit_record(const struct change_record *r, const struct change_options *opt,
			const struct sink *k)
{
	struct strbuf interval = STRBUF_INIT;
	struct number_types t;

	number_types(r, &t);
	change_record_interval(r, &interval);

	k->string(k->ctx, "stat", r->stat);
	k->string(k->ctx, "interval", interval.buf);
	k->numbers(k->ctx, "a", r->a, r->na, r->int_a);
	k->numbers(k->ctx, "b", r->b, r->nb, r->int_b);
	k->boolean(k->ctx, "is_function_stat", r->is_function_stat);
	k->boolean(k->ctx, "is_latency", r->is_latency);
	k->number(k->ctx, "ratio", r->ratio, t.ratio);
	k->number(k->ctx, "delta", r->delta, t.delta);
	k->number(k->ctx, "mean_a", r->mean_a, r->int_a);
	k->number(k->ctx, "mean_b", r->mean_b, r->int_b);
	k->number(k->ctx, "x", r->x, t.x);
	k->number(k->ctx, "y", r->y, t.y);
	k->number(k->ctx, "z", r->z, t.z);
	k->number(k->ctx, "min_a", r->min_a, r->int_a);
	k->number(k->ctx, "max_a", r->max_a, r->int_a);
	k->number(k->ctx, "min_b", r->min_b, r->int_b);
	k->number(k->ctx, "max_b", r->max_b, r->int_b);
	k->number(k->ctx, "max", r->max, t.max);
	k->number(k->ctx, "nr_run", r->nr_run, true);

	/* the options lkp merges into every record */
	if (opt->has_gap)
		k->number(k->ctx, "gap", opt->gap, false);
	if (opt->more)
		k->boolean(k->ctx, "more", true);
	if (opt->has_distance)
		k->number(k->ctx, "distance", opt->distance, false);
	if (opt->has_variance)
		k->number(k->ctx, "variance", opt->variance, false);
	if (opt->regression_only)
		k->boolean(k->ctx, "regression-only", true);
	if (opt->has_perf_profile)
		k->number(k->ctx, "perf-profile", opt->perf_profile, opt->perf_profile_is_int);
	if (opt->whole)
		k->boolean(k->ctx, "whole", true);
	if (r->has_boot_fix)
		k->boolean(k->ctx, "has_boot_fix", true);
	if (r->gap_distance)
		k->number(k->ctx, "gap_distance", 2, true);

	if (opt->rule == RULE_STAT) {
		k->number(k->ctx, "p_welch", r->p_welch, false);
		k->number(k->ctx, "p_mwu", r->p_mwu, false);
		if (!isnan(r->p_mwu))
			k->string(k->ctx, "mwu_method", r->mwu_exact ? "exact" : "normal");
		k->boolean(k->ctx, "key_metric", r->key);
		if (!r->key)
			k->number(k->ctx, "q_bh", r->q, false);
		k->boolean(k->ctx, "too_few_samples", r->too_few_samples);
	}
	strbuf_release(&interval);
}

static void json_string(void *ctx, const char *key, const char *s)
{
	jw_key(ctx, key);
	jw_string(ctx, s);
}

static void json_boolean(void *ctx, const char *key, bool b)
{
	jw_key(ctx, key);
	jw_bool(ctx, b);
}

static void json_number(void *ctx, const char *key, double v, bool is_int)
{
	jw_key(ctx, key);
	jw_number(ctx, v, int_ok(is_int, v));
}

static void json_numbers(void *ctx, const char *key, const double *v, int n, bool is_int)
{
	jw_key(ctx, key);
	jw_array_begin(ctx);
	for (int i = 0; i < n; i++)
		jw_number(ctx, v[i], int_ok(is_int, v[i]));
	jw_array_end(ctx);
}

void change_record_to_json(const struct change_record *r,
			   const struct change_options *opt, struct json_writer *jw)
{
	const struct sink k = { json_string, json_boolean, json_number, json_numbers, jw };

	jw_object_begin(jw);
	emit_record(r, opt, &k);
	jw_object_end(jw);
}

/* YAML plain scalars for names made of these; anything else is quoted. */
static void yaml_string(struct strbuf *out, const char *s)
{
	bool plain = *s && !strchr("-0123456789.", *s);

	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789_.-/%", *p) != NULL;
	if (plain)
		strbuf_addstr(out, s);
	else
		json_quote(out, s);
}

struct yaml_ctx {
	struct strbuf *out;
	const char *indent;
};

static void yaml_key(struct yaml_ctx *y, const char *key)
{
	strbuf_addf(y->out, "%s%s: ", y->indent, key);
}

static void yaml_str(void *ctx, const char *key, const char *s)
{
	struct yaml_ctx *y = ctx;

	yaml_key(y, key);
	yaml_string(y->out, s);
	strbuf_addch(y->out, '\n');
}

static void yaml_bool(void *ctx, const char *key, bool b)
{
	struct yaml_ctx *y = ctx;

	yaml_key(y, key);
	strbuf_addstr(y->out, b ? "true\n" : "false\n");
}

static void yaml_number(void *ctx, const char *key, double v, bool is_int)
{
	struct yaml_ctx *y = ctx;

	yaml_key(y, key);
	fmt_number(y->out, v, int_ok(is_int, v));
	strbuf_addch(y->out, '\n');
}

static void yaml_numbers(void *ctx, const char *key, const double *v, int n, bool is_int)
{
	struct yaml_ctx *y = ctx;

	yaml_key(y, key);
	strbuf_addch(y->out, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(y->out, ", ");
		fmt_number(y->out, v[i], int_ok(is_int, v[i]));
	}
	strbuf_addstr(y->out, "]\n");
}

void change_record_to_yaml(const struct change_record *r,
			   const struct change_options *opt, struct strbuf *out)
{
	struct yaml_ctx y = { out, "  " };
	const struct sink k = { yaml_str, yaml_bool, yaml_number, yaml_numbers, &y };

	yaml_string(out, r->stat);
	strbuf_addstr(out, ":\n");
	emit_record(r, opt, &k);
}
