/*
 * test_lkp_rule.c: lkp's changed-stat rule (src/result/lkp_rule.c) and the
 * record JSON (src/result/change.c).
 *
 * First the conformance fixtures (../shared/conformance/lkp/
 * stats_changed_stats/NAME.yaml): every record lkp expects, field by field,
 * including which numbers are Integers.  Then hand-made matrices, one test
 * per variant and per skip rule, each built so that the assertion fails
 * if that rule were missing or wrong.
 *
 * The fixtures were never run by lkp's own suite; all seven agree with
 * lkp's code as read in lib/stats.rb and lib/changed_stat.rb:
 * fxmark_small_diff expects nothing because the variance variant returns
 * early below 10 runs (not because the change is small), and
 * regression_skip_kmsg_on_boot_fix because dmesg.boot_failures going to
 * 0 is a fix that sets has_boot_fix before kmsg.error is seen.
 */
#include "test_helpers.h"
#include "change_helpers.h"

#include <dirent.h>
#include <math.h>
#include <json-c/json.h>
#include <libfyaml.h>

#include "result/matrix.h"
#include "result/change.h"
#include "stats/lkp_tables.h"
#include "util/json_writer.h"
#include "util/strbuf.h"

/* ------------------------------------------------------------------ */
/* helpers                                                             */
/* ------------------------------------------------------------------ */

static void lkp_opts(struct change_options *opt)
{
	change_options_init(opt);
	opt->rule = RULE_LKP;
}

/* Run the lkp rule on NEW a and BASE b (JSON texts). */
static void run(const char *a_json, const char *b_json, const struct change_options *opt,
		struct change_list *out)
{
	run_rule(lkp_changed_stats, a_json, b_json, opt, out);
}

static json_object *record_json(const struct change_record *r, const struct change_options *opt)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	json_object *o;

	jw_init(&jw, &sb);
	jw.compact = true;
	change_record_to_json(r, opt, &jw);
	o = json_tokener_parse(sb.buf);
	assert_non_null(o);
	strbuf_release(&sb);
	return o;
}

static json_object *field(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("record has no field '%s'", key);
	return v;
}

/* ------------------------------------------------------------------ */
/* conformance                                                         */
/* ------------------------------------------------------------------ */

static const char *scalar(struct fy_node *n)
{
	const char *s = n ? fy_node_get_scalar0(n) : NULL;
	assert_non_null(s);
	return s;
}

/* A YAML mapping of name -> [numbers] as matrix JSON, numbers verbatim. */
static void yaml_matrix(struct fy_node *map, struct strbuf *json)
{
	struct fy_node_pair *pair;
	void *it = NULL;
	bool first = true;

	strbuf_addch(json, '{');
	while ((pair = fy_node_mapping_iterate(map, &it))) {
		struct fy_node *seq = fy_node_pair_value(pair), *item;
		void *it2 = NULL;
		bool first2 = true;

		if (!first)
			strbuf_addch(json, ',');
		first = false;
		json_quote(json, scalar(fy_node_pair_key(pair)));
		strbuf_addstr(json, ":[");
		while ((item = fy_node_sequence_iterate(seq, &it2))) {
			if (!first2)
				strbuf_addch(json, ',');
			first2 = false;
			strbuf_addstr(json, scalar(item));
		}
		strbuf_addch(json, ']');
	}
	strbuf_addch(json, '}');
}

static void yaml_options(struct fy_node *map, struct change_options *opt)
{
	struct fy_node_pair *pair;
	void *it = NULL;

	lkp_opts(opt);
	if (!map)
		return;
	while ((pair = fy_node_mapping_iterate(map, &it))) {
		const char *k = scalar(fy_node_pair_key(pair));
		const char *v = scalar(fy_node_pair_value(pair));

		if (!strcmp(k, "gap")) {
			opt->has_gap = true;
			opt->gap = strtod(v, NULL);
		} else if (!strcmp(k, "distance")) {
			opt->has_distance = true;
			opt->distance = strtod(v, NULL);
		} else if (!strcmp(k, "variance")) {
			opt->has_variance = true;
			opt->variance = strtod(v, NULL);
		} else if (!strcmp(k, "perf-profile")) {
			opt->has_perf_profile = true;
			opt->perf_profile = strtod(v, NULL);
			opt->perf_profile_is_int = !strpbrk(v, ".eE");
		} else if (!strcmp(k, "more")) {
			opt->more = !strcmp(v, "true");
		} else if (!strcmp(k, "regression-only")) {
			opt->regression_only = !strcmp(v, "true");
		} else if (!strcmp(k, "whole")) {
			opt->whole = !strcmp(v, "true");
		} else {
			fail_msg("fixture option '%s' unknown to the test", k);
		}
	}
}

/* Compare one expected field (YAML scalar or sequence) with our JSON. */
static void check_field(const char *file, const char *stat, const char *key,
			struct fy_node *want, json_object *got)
{
	static const char *const exact[] = { "mean_a", "mean_b", "nr_run" };

	if (fy_node_is_sequence(want)) {
		struct fy_node *item;
		void *it = NULL;
		size_t i = 0;

		assert_true(json_object_is_type(got, json_type_array));
		while ((item = fy_node_sequence_iterate(want, &it))) {
			json_object *g = json_object_array_get_idx(got, i++);
			assert_non_null(g);
			assert_true(json_object_get_double(g) == strtod(scalar(item), NULL));
		}
		assert_int_equal(i, json_object_array_length(got));
		return;
	}

	const char *w = scalar(want);
	if (!strcmp(w, "true") || !strcmp(w, "false")) {
		if (json_object_get_boolean(got) != !strcmp(w, "true"))
			fail_msg("%s: %s.%s: want %s", file, stat, key, w);
		return;
	}
	if (!strcmp(key, "stat") || !strcmp(key, "interval")) {
		if (strcmp(json_object_get_string(got), w))
			fail_msg("%s: %s.%s: want '%s', got '%s'", file, stat, key, w,
				 json_object_get_string(got));
		return;
	}

	/* a number: Integer or Float as in lkp, and the value */
	bool want_int = !strpbrk(w, ".eE");
	double wv = strtod(w, NULL), gv = json_object_get_double(got);
	bool is_exact = false;

	if (want_int != json_object_is_type(got, json_type_int))
		fail_msg("%s: %s.%s: want %s (%s), got %s", file, stat, key, w,
			 want_int ? "Integer" : "Float", json_object_to_json_string(got));
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		is_exact |= !strcmp(key, exact[i]);
	if (is_exact ? gv != wv : fabs(gv - wv) > 0.05)
		fail_msg("%s: %s.%s: want %s, got %.17g", file, stat, key, w, gv);
}

static void run_fixture(const char *path, const char *file)
{
	struct fy_document *doc = fy_document_build_from_file(NULL, path);
	struct fy_node *root, *expected, *rec;
	struct strbuf ja = STRBUF_INIT, jb = STRBUF_INIT;
	struct change_options opt;
	struct change_list out;
	struct fy_node_pair *pair;
	void *it = NULL;
	int nr_expected = 0;

	if (!doc)
		fail_msg("%s: cannot parse", path);
	root = fy_document_root(doc);
	yaml_matrix(fy_node_mapping_lookup_by_string(root, "matrix_a", FY_NT), &ja);
	yaml_matrix(fy_node_mapping_lookup_by_string(root, "matrix_b", FY_NT), &jb);
	yaml_options(fy_node_mapping_lookup_by_string(root, "options", FY_NT), &opt);
	expected = fy_node_mapping_lookup_by_string(root, "expected", FY_NT);
	assert_non_null(expected);

	run(ja.buf, jb.buf, &opt, &out);

	while ((pair = fy_node_mapping_iterate(expected, &it))) {
		const char *stat = scalar(fy_node_pair_key(pair));
		const struct change_record *r = find(&out, stat);
		struct fy_node_pair *fp;
		void *it2 = NULL;
		json_object *o;
		int nr_fields = 0;

		nr_expected++;
		if (!r)
			fail_msg("%s: expected change of '%s' not found", file, stat);
		o = record_json(r, &opt);
		rec = fy_node_pair_value(pair);
		while ((fp = fy_node_mapping_iterate(rec, &it2))) {
			const char *key = scalar(fy_node_pair_key(fp));
			nr_fields++;
			check_field(file, stat, key, fy_node_pair_value(fp), field(o, key));
		}
		/* no field lkp would not print (options, gap_distance) */
		assert_int_equal(nr_fields, json_object_object_length(o));
		json_object_put(o);
	}
	if (out.nr != nr_expected)
		fail_msg("%s: %d changes, expected %d (first: %s)", file, out.nr,
			 nr_expected, out.nr ? out.r[0].stat : "-");

	release(&out);
	strbuf_release(&ja);
	strbuf_release(&jb);
	fy_document_destroy(doc);
}

static void test_conformance(void **state)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int n = 0;

	skip_without_conformance();
	strbuf_addf(&dir, "%s/lkp/stats_changed_stats", conformance_dir());
	d = opendir(dir.buf);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 5, ".yaml"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
		run_fixture(path.buf, de->d_name);
		n++;
	}
	closedir(d);
	assert_true(n >= 7);
	strbuf_release(&dir);
	strbuf_release(&path);
}

/* ------------------------------------------------------------------ */
/* variants                                                            */
/* ------------------------------------------------------------------ */

/* default (ChangedStat#change? without distance): ranges apart across the medians */
static void test_default_variant(void **state)
{
	struct change_options opt;
	struct change_list out;
	const struct change_record *r;

	lkp_opts(&opt);
	/* b's min 20 > a's median 11 and b's median 21 > a's max 12 */
	run("{\"foo.score\": [10, 11, 12]}", "{\"foo.score\": [20, 21, 22]}", &opt, &out);
	r = find(&out, "foo.score");
	assert_non_null(r);
	assert_true(r->gap_distance);
	assert_true(r->mean_a == 11 && r->mean_b == 21);
	assert_true(r->min_a == 10 && r->max_b == 22);
	assert_true(r->y == 8);                 /* 20 - 12 */
	assert_true(r->delta == 10);
	assert_true(fabs(r->ratio - 21.0 / 11) < 1e-12);
	assert_int_equal(r->nr_run, 3);
	release(&out);

	/* overlapping: a's max 21 reaches past b's median 20 */
	run("{\"foo.score\": [10, 11, 21]}", "{\"foo.score\": [19, 20, 22]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
}

static void test_gap_variant(void **state)
{
	struct change_options opt;
	struct change_list out;

	lkp_opts(&opt);
	opt.has_gap = true;
	/* gap 20 - 12 = 8 against (21 - 11) * g = 10 g */
	opt.gap = 0.7;
	run("{\"foo.score\": [10, 11, 12]}", "{\"foo.score\": [20, 21, 22]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_false(out.r[0].gap_distance);    /* no ChangedStat was made */
	release(&out);
	opt.gap = 0.9;
	run("{\"foo.score\": [10, 11, 12]}", "{\"foo.score\": [20, 21, 22]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* a narrow gap far from the medians: the default variant calls it a
	 * change (13 > 11, 20 > 12), the gap variant does not (1 < 9 * 0.2) */
	opt.gap = 0.2;
	run("{\"foo.score\": [10, 11, 12]}", "{\"foo.score\": [13, 20, 21]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	opt.has_gap = false;
	run("{\"foo.score\": [10, 11, 12]}", "{\"foo.score\": [13, 20, 21]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
}

static void test_distance_variant(void **state)
{
	struct change_options opt;
	struct change_list out;

	lkp_opts(&opt);
	opt.has_distance = true;
	opt.distance = 1;

	/*
	 * >= 3 samples: min_b - max_a > (mean_b - mean_a) / gap_distance,
	 * where gap_distance is the Integer 2, so Integer medians divide with
	 * truncation: 13.7 - 10.2 = 3.5 > (17 - 10) / 2 = 3 ...
	 */
	run("{\"foo.score\": [9.5, 10, 10.2]}", "{\"foo.score\": [13.7, 17, 18]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_true(out.r[0].gap_distance);
	release(&out);
	/* ... and Float medians do not: 3.5 > 3.5 is false */
	run("{\"foo.score\": [9.5, 10.0, 10.2]}", "{\"foo.score\": [13.7, 17.0, 18]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);

	/* Integers differing by exactly 1 never count */
	run("{\"foo.score\": [9, 10, 10]}", "{\"foo.score\": [11, 11, 11]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);

	/*
	 * 3 samples a side is enough for the gap rule, which ignores the
	 * distance: 16 - 12 = 4 > (17 - 11) / 2 = 3, where the rule for
	 * fewer samples would want 4 > max(2, 2) * 2
	 */
	opt.distance = 2;
	run("{\"foo.score\": [10, 11, 12]}", "{\"foo.score\": [16, 17, 18]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_true(out.r[0].gap_distance);
	release(&out);
	opt.distance = 1;

	/* fewer than 3 samples on a side: gap beyond the longer range * distance */
	opt.whole = true;
	run("{\"foo.score\": [10, 12]}", "{\"foo.score\": [20, 25]}", &opt, &out);
	assert_int_equal(out.nr, 1);    /* 20 - 12 = 8 > max(2, 5) * 1 */
	release(&out);
	opt.distance = 2;
	run("{\"foo.score\": [10, 12]}", "{\"foo.score\": [20, 25]}", &opt, &out);
	assert_int_equal(out.nr, 0);    /* 8 > 10 false */
	release(&out);
}

static void test_variance_variant(void **state)
{
	struct change_options opt;
	struct change_list out;
	const char *tight = "{\"foo.score\": [100,100,100,100,100,100,100,100,100,101]}";
	const char *wide = "{\"foo.score\": [90,95,100,100,100,100,100,100,105,110]}";

	lkp_opts(&opt);
	opt.has_variance = true;
	opt.variance = 2;
	/* the spread changed 20x at the same median: a variance change */
	run(wide, tight, &opt, &out);
	assert_int_equal(out.nr, 0);    /* ...but ratio 1 is a small change */
	release(&out);

	/* median moved and spread changed */
	run("{\"foo.score\": [90,95,120,120,120,120,120,120,125,130]}", tight, &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);

	/* no spread change (factor 2 needed) at a moved median: not changed */
	run("{\"foo.score\": [120,120,120,120,120,120,120,120,120,121]}", tight, &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);

	/* fewer than 10 runs: lkp returns nothing at all, even for dmesg */
	run("{\"foo.score\": [1,1,1,1,1,1,1,1,1], \"dmesg.x\": [1,1,1,1,1,1,1,1,1]}",
	    "{\"foo.score\": [9,9,9,9,9,9,9,9,9], \"dmesg.x\": [0,0,0,0,0,0,0,0,0]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	opt.has_variance = false;
	run("{\"foo.score\": [1,1,1,1,1,1,1,1,1], \"dmesg.x\": [1,1,1,1,1,1,1,1,1]}",
	    "{\"foo.score\": [9,9,9,9,9,9,9,9,9], \"dmesg.x\": [0,0,0,0,0,0,0,0,0]}", &opt, &out);
	assert_int_equal(out.nr, 2);
	release(&out);
}

static void test_latency_variant(void **state)
{
	struct change_options opt;
	struct change_list out;
	/* 2.5x worse: the default rule sees it, the latency rule wants 3x */
	const char *a = "{\"dbench.max_latency\": [25, 25, 25]}";
	const char *b = "{\"dbench.max_latency\": [10, 10, 10]}";

	lkp_opts(&opt);
	run(a, b, &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_false(out.r[0].is_latency);      /* lkp: latency_stat? is false */
	release(&out);

	opt.lkp_latency = true;
	run(a, b, &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	run("{\"dbench.max_latency\": [31, 31, 31]}", b, &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_true(out.r[0].is_latency);
	release(&out);

	/* distance: a.max >= 2 d b.max and a.mean >= d b.max */
	opt.has_distance = true;
	opt.distance = 2;
	run("{\"dbench.max_latency\": [41, 41, 41, 41]}",
	    "{\"dbench.max_latency\": [10, 10, 10, 10]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
	run("{\"dbench.max_latency\": [39, 39, 39, 39]}",
	    "{\"dbench.max_latency\": [10, 10, 10, 10]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* 3 runs on both sides are never enough to start a bisect ... */
	run("{\"dbench.max_latency\": [45, 45, 45]}",
	    "{\"dbench.max_latency\": [10, 10, 10]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* ... and 3 on one side want every run of the other 2 d times worse */
	run("{\"dbench.max_latency\": [30, 45, 45, 45]}",
	    "{\"dbench.max_latency\": [10, 10, 10]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	run("{\"dbench.max_latency\": [41, 45, 45, 45]}",
	    "{\"dbench.max_latency\": [10, 10, 10]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
}

static void test_function_stat(void **state)
{
	struct change_options opt;
	struct change_list out;
	const struct change_record *r;

	lkp_opts(&opt);
	opt.more = true;
	/* one run each is enough, the maxima differ, margin 0 */
	run("{\"dmesg.WARNING:foo\": [1]}", "{\"dmesg.WARNING:foo\": [0]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	r = &out.r[0];
	assert_true(r->is_function_stat);
	assert_true(r->ratio == 5 && r->delta == 1 && r->y == 1);
	assert_false(r->gap_distance);
	release(&out);
	/* same maxima: not changed even with different medians */
	run("{\"dmesg.WARNING:foo\": [0, 0, 3]}", "{\"dmesg.WARNING:foo\": [3, 3, 3]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
}

static void test_function_stat_pairing(void **state)
{
	struct change_options opt;
	struct change_list out;

	lkp_opts(&opt);
	/* .fail needs <base>.pass in b */
	run("{\"ltp.foo.fail\": [1, 1, 1]}", "{\"ltp.foo.fail\": [0, 0, 0]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	run("{\"ltp.foo.fail\": [1, 1, 1]}",
	    "{\"ltp.foo.fail\": [0, 0, 0], \"ltp.foo.pass\": [1, 1, 1]}", &opt, &out);
	assert_non_null(find(&out, "ltp.foo.fail"));
	/* b's ltp.foo.pass, gone from a, compares as zeros: paired, so shown */
	assert_non_null(find(&out, "ltp.foo.pass"));
	release(&out);

	/* .pass needs a b key matching /^base\.(error|warn|fail)$/ */
	run("{\"ltp.foo.pass\": [0, 0, 0]}", "{\"ltp.foo.pass\": [1, 1, 1]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	run("{\"ltp.foo.pass\": [0, 0, 0]}",
	    "{\"ltp.foo.pass\": [1, 1, 1], \"ltp.foo.warn\": [0, 0, 0]}", &opt, &out);
	assert_non_null(find(&out, "ltp.foo.pass"));
	release(&out);
	/* the base is a regexp in lkp: its dots match any character */
	run("{\"ltp.foo.pass\": [0, 0, 0]}",
	    "{\"ltp.foo.pass\": [1, 1, 1], \"ltpXfoo.error\": [0, 0, 0]}", &opt, &out);
	assert_non_null(find(&out, "ltp.foo.pass"));
	release(&out);
	run("{\"ltp.f+o.pass\": [0, 0, 0]}",
	    "{\"ltp.f+o.pass\": [1, 1, 1], \"ltp.ffo.error\": [0, 0, 0]}", &opt, &out);
	assert_non_null(find(&out, "ltp.f+o.pass"));
	release(&out);
	run("{\"ltp.f+o.pass\": [0, 0, 0]}",
	    "{\"ltp.f+o.pass\": [1, 1, 1], \"ltp.f+o.error\": [0, 0, 0]}", &opt, &out);
	assert_null(find(&out, "ltp.f+o.pass"));        /* "f+o" does not match "f+o" */
	release(&out);
}

/* ------------------------------------------------------------------ */
/* skip rules                                                          */
/* ------------------------------------------------------------------ */

static void test_skip_regular_stat(void **state)
{
	struct change_options opt;
	struct change_list out;

	lkp_opts(&opt);
	run("{\"foo.score\": [10, 10]}", "{\"foo.score\": [20, 20]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* one side with 3 runs is enough */
	run("{\"foo.score\": [10, 10]}", "{\"foo.score\": [20, 20, 20]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
	opt.whole = true;
	run("{\"foo.score\": [10, 10]}", "{\"foo.score\": [20, 20]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
}

static void test_denylist_and_more(void **state)
{
	struct change_options opt;
	struct change_list out;
	const char *a = "{\"interrupts.CPU0.LOC\": [50000, 50000, 50000],"
			" \"meminfo.Active\": [50000, 50000, 50000]}";
	const char *b = "{\"interrupts.CPU0.LOC\": [20000, 20000, 20000],"
			" \"meminfo.Active\": [20000, 20000, 20000]}";

	lkp_opts(&opt);
	run(a, b, &opt, &out);
	/* interrupts.* is denylisted; meminfo.* too, but report-allowlisted */
	assert_null(find(&out, "interrupts.CPU0.LOC"));
	assert_non_null(find(&out, "meminfo.Active"));
	release(&out);
	opt.more = true;
	run(a, b, &opt, &out);
	assert_non_null(find(&out, "interrupts.CPU0.LOC"));
	release(&out);
}

static void test_skip_small_change(void **state)
{
	struct change_options opt;
	struct change_list out;

	lkp_opts(&opt);
	opt.more = true;
	/* 1.03x on a monitor's stat that is not a perf metric: small */
	run("{\"uptime.idle\": [103, 103, 103]}", "{\"uptime.idle\": [100, 100, 100]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* 1.06x passes */
	run("{\"uptime.idle\": [106, 106, 106]}", "{\"uptime.idle\": [100, 100, 100]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
	/* 1.03x on a perf metric (proc-vmstat.*) passes, if max > 1000 */
	run("{\"proc-vmstat.pgfault\": [10300, 10300, 10300]}",
	    "{\"proc-vmstat.pgfault\": [10000, 10000, 10000]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
	run("{\"proc-vmstat.pgfault\": [103, 103, 103]}",
	    "{\"proc-vmstat.pgfault\": [100, 100, 100]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* 1.01x is never enough, even for a perf metric */
	run("{\"proc-vmstat.pgfault\": [10100, 10100, 10100]}",
	    "{\"proc-vmstat.pgfault\": [10000, 10000, 10000]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* threshold table: interrupts.* needs max >= 100 and delta >= 50 */
	run("{\"interrupts.x\": [90, 90, 90]}", "{\"interrupts.x\": [10, 10, 10]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	run("{\"interrupts.x\": [140, 140, 140]}", "{\"interrupts.x\": [100, 100, 100]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	run("{\"interrupts.x\": [160, 160, 160]}", "{\"interrupts.x\": [100, 100, 100]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
}

static void test_regression_only(void **state)
{
	struct change_options opt;
	struct change_list out;
	const struct change_record *r;

	lkp_opts(&opt);
	opt.more = true;
	opt.regression_only = true;
	/* kmsg regression alone: reported */
	run("{\"kmsg.foo\": [1, 1, 1]}", "{\"kmsg.foo\": [0, 0, 0]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_false(out.r[0].has_boot_fix);
	release(&out);
	/* a fix (new side 0) is never reported */
	run("{\"dmesg.oops\": [0, 0, 0]}", "{\"dmesg.oops\": [1, 1, 1]}", &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* after a dmesg fix, kmsg.* is dropped; order matters (dmesg first) */
	run("{\"dmesg.oops\": [0, 0, 0], \"kmsg.foo\": [1, 1, 1], \"foo.score\": [10, 10, 10]}",
	    "{\"dmesg.oops\": [1, 1, 1], \"kmsg.foo\": [0, 0, 0], \"foo.score\": [20, 20, 20]}",
	    &opt, &out);
	assert_null(find(&out, "kmsg.foo"));
	r = find(&out, "foo.score");
	assert_non_null(r);
	assert_true(r->has_boot_fix);           /* merged from lkp's options */
	release(&out);
	run("{\"kmsg.foo\": [1, 1, 1], \"dmesg.oops\": [0, 0, 0]}",
	    "{\"kmsg.foo\": [0, 0, 0], \"dmesg.oops\": [1, 1, 1]}", &opt, &out);
	assert_non_null(find(&out, "kmsg.foo"));
	release(&out);
	/* without --regression-only the fix is a change */
	opt.regression_only = false;
	run("{\"dmesg.oops\": [0, 0, 0]}", "{\"dmesg.oops\": [1, 1, 1]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
}

static void test_keys_only_in_base(void **state)
{
	struct change_options opt;
	struct change_list out;
	const struct change_record *r;

	lkp_opts(&opt);
	opt.more = true;
	/* a function stat gone from NEW compares as zeros, after a's keys */
	run("{\"foo.score\": [10, 10, 10]}",
	    "{\"dmesg.oops\": [2, 2, 2], \"foo.score\": [20, 20, 20]}", &opt, &out);
	assert_int_equal(out.nr, 2);
	assert_string_equal(out.r[0].stat, "foo.score");
	r = &out.r[1];
	assert_string_equal(r->stat, "dmesg.oops");
	assert_true(r->a[0] == 0 && r->na == 3 && r->int_a);
	release(&out);
	/* a perf stat only NEW has: a newly added monitor, skipped (while
	 * BASE's foo.score is compared against zeros) */
	run("{\"foo.new\": [10, 10, 10]}", "{\"foo.score\": [20, 20, 20]}", &opt, &out);
	assert_null(find(&out, "foo.new"));
	assert_non_null(find(&out, "foo.score"));
	assert_int_equal(out.nr, 1);
	release(&out);
	/* ...except perf-profile.* when BASE ran perf-profile at all */
	run("{\"perf-profile.self.x\": [10, 10, 10]}",
	    "{\"perf-profile.self.y\": [20, 20, 20]}", &opt, &out);
	assert_non_null(find(&out, "perf-profile.self.x"));
	release(&out);
}

static void test_margins(void **state)
{
	struct change_options opt;
	struct change_list out;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	lkp_opts(&opt);
	opt.more = true;
	/* 32 runs: margin 1 trims one sample off each end of a perf stat */
	strbuf_addstr(&a, "{\"foo.score\": [1");
	strbuf_addstr(&b, "{\"foo.score\": [0");
	for (int i = 1; i < 31; i++) {
		strbuf_addstr(&a, ", 50");
		strbuf_addstr(&b, ", 10");
	}
	strbuf_addstr(&a, ", 99]}");
	strbuf_addstr(&b, ", 90]}");
	run(a.buf, b.buf, &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_int_equal(out.r[0].na, 30);
	assert_true(out.r[0].min_a == 50 && out.r[0].max_a == 50);
	assert_int_equal(out.r[0].nr_run, 32);
	release(&out);
	strbuf_release(&a);
	strbuf_release(&b);

	/* BASE with <= 3 runs caps NEW's margin at 1 (size 64 would give 2) */
	strbuf_addstr(&a, "{\"foo.score\": [11, 12");
	for (int i = 2; i < 62; i++)
		strbuf_addstr(&a, ", 50");
	strbuf_addstr(&a, ", 98, 99]}");
	run(a.buf, "{\"foo.score\": [10, 10, 10]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	assert_int_equal(out.r[0].na, 62);
	assert_true(out.r[0].min_a == 12 && out.r[0].max_a == 98);
	release(&out);
	strbuf_release(&a);
}

static void test_incomplete_run(void **state)
{
	struct change_options opt;
	struct change_list out;
	const struct change_record *r;
	/* run 2 of NEW is incomplete: its 99 must not count (lkp drops only
	 * the runs whose flag is exactly 1, so run 1's odd 2 stays) */
	const char *a = "{\"stats_source\": [\"0\", \"1\", \"2\", \"3\"],"
			" \"last_state.is_incomplete_run\": [0, 2, 1, 0],"
			" \"foo.score\": [20, 20, 99, 20],"
			" \"dmesg.oops\": [1, 1, 1, 1]}";
	const char *b = "{\"stats_source\": [\"0\", \"1\", \"2\"],"
			" \"foo.score\": [10, 10, 10],"
			" \"dmesg.oops\": [0, 0, 0]}";

	lkp_opts(&opt);
	opt.more = true;
	run(a, b, &opt, &out);
	/* first pass: dmesg.* and last_state.* only, all 4 runs */
	r = find(&out, "dmesg.oops");
	assert_non_null(r);
	/* second pass replaced it in place with 3 runs */
	assert_int_equal(r->nr_run, 3);
	assert_ptr_equal(r, &out.r[1]);
	/* the flag itself is deleted before the second pass: its first-pass
	 * record stays, with all 4 runs */
	assert_string_equal(out.r[0].stat, "last_state.is_incomplete_run");
	assert_int_equal(out.r[0].nr_run, 4);
	r = find(&out, "foo.score");
	assert_non_null(r);
	assert_int_equal(r->na, 3);
	assert_true(r->max_a == 20);
	assert_int_equal(out.nr, 3);
	release(&out);

	/* without stats_source lkp stops after the first pass */
	run("{\"last_state.is_incomplete_run\": [0, 0, 1, 0], \"foo.score\": [20, 20, 99, 20]}",
	    "{\"foo.score\": [10, 10, 10]}", &opt, &out);
	assert_null(find(&out, "foo.score"));
	release(&out);
}

static void test_perf_profile_threshold(void **state)
{
	struct change_options opt;
	struct change_list out;
	const char *a = "{\"perf-profile.self.x\": [5.5, 5.6, 5.7]}";
	const char *b = "{\"perf-profile.self.x\": [5.4, 5.5, 5.6]}";

	lkp_opts(&opt);
	/* a 2% move that the default variant does not call a change */
	run(a, b, &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* -p 5: any Float median above 5 is reported, small or not */
	opt.has_perf_profile = true;
	opt.perf_profile = 5;
	run(a, b, &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
	opt.perf_profile = 6;
	run(a, b, &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	/* an Integer threshold (compare's default 5) ignores Float medians */
	opt.perf_profile = 5;
	opt.perf_profile_is_int = true;
	run(a, b, &opt, &out);
	assert_int_equal(out.nr, 0);
	release(&out);
	run("{\"perf-profile.self.x\": [7, 7, 7]}", "{\"perf-profile.self.x\": [7, 7, 7]}",
	    &opt, &out);
	assert_int_equal(out.nr, 1);
	release(&out);
}

static void test_gap_distance_state(void **state)
{
	struct change_options opt;
	struct change_list out;

	lkp_opts(&opt);
	opt.more = true;
	/* the function stat comes before any ChangedStat was made */
	run("{\"dmesg.oops\": [1, 1, 1], \"foo.score\": [10, 10, 10], \"kmsg.x\": [1, 1, 1]}",
	    "{\"dmesg.oops\": [0, 0, 0], \"foo.score\": [20, 20, 20], \"kmsg.x\": [0, 0, 0]}",
	    &opt, &out);
	assert_int_equal(out.nr, 3);
	assert_false(find(&out, "dmesg.oops")->gap_distance);
	assert_true(find(&out, "foo.score")->gap_distance);
	assert_true(find(&out, "kmsg.x")->gap_distance);
	release(&out);
}

/* ------------------------------------------------------------------ */
/* record output                                                       */
/* ------------------------------------------------------------------ */

static void test_record_json(void **state)
{
	struct change_options opt;
	struct change_list out;
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;

	lkp_opts(&opt);
	opt.more = true;
	run("{\"dmesg.oops\": [2]}", "{\"dmesg.oops\": [0]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	jw_init(&jw, &sb);
	jw.compact = true;
	change_record_to_json(&out.r[0], &opt, &jw);
	assert_string_equal(sb.buf,
		"{\"stat\":\"dmesg.oops\","
		"\"interval\":\"[ 2          - 2          ] -- [ 0          - 0          ]\","
		"\"a\":[2],\"b\":[0],\"is_function_stat\":true,\"is_latency\":false,"
		"\"ratio\":5,\"delta\":2,\"mean_a\":2,\"mean_b\":0,\"x\":0,\"y\":2,\"z\":0,"
		"\"min_a\":2,\"max_a\":2,\"min_b\":0,\"max_b\":0,\"max\":2,\"nr_run\":1,"
		"\"more\":true}");
	release(&out);
	strbuf_release(&sb);

	/* Floats stay Floats, but y clamped to 0 and MAX_RATIO are lkp's
	 * Integers */
	run("{\"dmesg.x\": [0.0, 0.0, 3.0]}", "{\"dmesg.x\": [1.0, 1.0, 1.0]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	jw_init(&jw, &sb);
	jw.compact = true;
	change_record_to_json(&out.r[0], &opt, &jw);
	assert_non_null(strstr(sb.buf, "\"a\":[0.0,0.0,3.0],\"b\":[1.0,1.0,1.0],"));
	assert_non_null(strstr(sb.buf, "\"ratio\":5,\"delta\":1.0,\"mean_a\":0.0,"
				"\"mean_b\":1.0,\"x\":3.0,\"y\":0,\"z\":0.0,"));
	assert_non_null(strstr(sb.buf, "\"max\":3.0,\"nr_run\":3,"));
	release(&out);
	strbuf_release(&sb);

	/* a Float quotient; the options merged; the stat rule's p-values */
	opt.has_gap = true;
	opt.gap = 0.01;
	run("{\"foo.score\": [1.5, 2.5, 2.9]}", "{\"foo.score\": [3.0, 4.0, 5.0]}", &opt, &out);
	assert_int_equal(out.nr, 1);
	jw_init(&jw, &sb);
	jw.compact = true;
	opt.rule = RULE_STAT;
	change_record_to_json(&out.r[0], &opt, &jw);
	assert_non_null(strstr(sb.buf, "\"ratio\":1.6,"));
	assert_non_null(strstr(sb.buf, "\"nr_run\":3,\"gap\":0.01,\"more\":true,\"p_welch\""));
	assert_non_null(strstr(sb.buf, "\"p_welch\":NaN,\"p_mwu\":NaN,\"key_metric\":false,"
				"\"q_bh\":NaN,\"too_few_samples\":false}"));
	release(&out);
	strbuf_release(&sb);
}

static void test_interval(void **state)
{
	struct change_record r;
	struct strbuf sb = STRBUF_INIT;

	memset(&r, 0, sizeof(r));
	r.min_a = 7785809.108594;
	r.max_a = 1e-7;
	r.min_b = INFINITY;
	r.max_b = NAN;
	change_record_interval(&r, &sb);
	assert_string_equal(sb.buf, "[ 7.7858e+06 - 1e-07      ] -- [ Inf        - NaN        ]");
	strbuf_release(&sb);
}

/*
 * Each cut-off of the rule, on both sides of its edge: the value at the
 * edge itself and the smallest step past it (tests/mutants.txt shifts
 * every one of them).
 */
static void expect_changed(const char *a, const char *b, const struct change_options *opt,
			   int want)
{
	struct change_list out;

	run(a, b, opt, &out);
	if (out.nr != want)
		fail_msg("%s vs %s: %d records, want %d", a, b, out.nr, want);
	release(&out);
}

static void test_cutoff_edges(void **state)
{
	static const struct { const char *a, *b; int want; } cases[] = {
		/* a perf metric: ratio must exceed 1.01 (1010 / 1000 is 1.01 exactly) */
		{ "{\"foo.score\": [1010, 1010, 1010]}", "{\"foo.score\": [1000, 1000, 1000]}", 0 },
		{ "{\"foo.score\": [1011, 1011, 1011]}", "{\"foo.score\": [1000, 1000, 1000]}", 1 },
		{ "{\"foo.score\": [1000, 1000, 1000]}", "{\"foo.score\": [1011, 1011, 1011]}", 1 },
		/* any other metric: beyond 1.05 */
		{ "{\"uptime.idle\": [1050, 1050, 1050]}", "{\"uptime.idle\": [1000, 1000, 1000]}", 0 },
		{ "{\"uptime.idle\": [1051, 1051, 1051]}", "{\"uptime.idle\": [1000, 1000, 1000]}", 1 },
		/* proc-vmstat.* and *meminfo*: max above 1000 */
		{ "{\"proc-vmstat.pgfault\": [1000, 1000, 1000]}", "{\"proc-vmstat.pgfault\": [900, 900, 900]}", 0 },
		{ "{\"proc-vmstat.pgfault\": [1001, 1001, 1001]}", "{\"proc-vmstat.pgfault\": [900, 900, 900]}", 1 },
		/* slabinfo.*: delta above 100 */
		{ "{\"slabinfo.dentry.active_objs\": [1100, 1100, 1100]}",
		  "{\"slabinfo.dentry.active_objs\": [1000, 1000, 1000]}", 0 },
		{ "{\"slabinfo.dentry.active_objs\": [1101, 1101, 1101]}",
		  "{\"slabinfo.dentry.active_objs\": [1000, 1000, 1000]}", 1 },
		/* softirqs.* as interrupts.*: max above 10000 */
		{ "{\"softirqs.RCU\": [10000, 10000, 10000]}", "{\"softirqs.RCU\": [5000, 5000, 5000]}", 0 },
		{ "{\"softirqs.RCU\": [10001, 10001, 10001]}", "{\"softirqs.RCU\": [5000, 5000, 5000]}", 1 },
		/* an integer threshold of the table (interrupts.* 100) also wants
		 * a delta of floor(100 / 2) = 50 */
		{ "{\"interrupts.x\": [149, 149, 149]}", "{\"interrupts.x\": [100, 100, 100]}", 0 },
		{ "{\"interrupts.x\": [150, 150, 150]}", "{\"interrupts.x\": [100, 100, 100]}", 1 },
	};
	struct change_options opt;

	lkp_opts(&opt);
	opt.more = true;
	assert_true(lkp_perf_metric("foo.score"));
	assert_false(lkp_perf_metric("uptime.idle"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_changed(cases[i].a, cases[i].b, &opt, cases[i].want);
}

/* skip_regular_stat?: compared once either side has 3 runs */
static void test_three_runs_either_side(void **state)
{
	struct change_options opt;

	lkp_opts(&opt);
	expect_changed("{\"foo.score\": [10, 10, 10]}", "{\"foo.score\": [20, 20]}", &opt, 1);
	expect_changed("{\"foo.score\": [10, 10]}", "{\"foo.score\": [20, 20, 20]}", &opt, 1);
	expect_changed("{\"foo.score\": [10, 10]}", "{\"foo.score\": [20, 20]}", &opt, 0);
}

/* calc_stats_metrics: x is a's range, but z's when a has <= 2 runs and a
 * narrower range */
static void test_x_of_a_short_side(void **state)
{
	struct change_options opt;
	struct change_list out;
	const struct change_record *r;

	lkp_opts(&opt);
	run("{\"foo.score\": [1100, 1101]}", "{\"foo.score\": [1000, 1010, 1020]}", &opt, &out);
	r = find(&out, "foo.score");
	assert_non_null(r);
	assert_true(r->x == 20 && r->z == 20);
	release(&out);
	run("{\"foo.score\": [1100]}", "{\"foo.score\": [1000, 1010, 1020]}", &opt, &out);
	r = find(&out, "foo.score");
	assert_non_null(r);
	assert_true(r->x == 20 && r->z == 20);
	release(&out);
	/* 3 runs: a's own range */
	run("{\"foo.score\": [1100, 1101, 1102]}", "{\"foo.score\": [1000, 1010, 1020]}", &opt, &out);
	r = find(&out, "foo.score");
	assert_non_null(r);
	assert_true(r->x == 2 && r->z == 20);
	release(&out);
	/* 2 runs but the wider range: its own */
	run("{\"foo.score\": [1100, 1150]}", "{\"foo.score\": [1000, 1010, 1020]}", &opt, &out);
	r = find(&out, "foo.score");
	assert_non_null(r);
	assert_true(r->x == 50 && r->z == 20);
	release(&out);
}

/* the distance variant: Integers exactly 1 apart, either way round, are
 * no change; 2 apart are */
static void test_distance_by_one(void **state)
{
	struct change_options opt;

	lkp_opts(&opt);
	opt.has_distance = true;
	opt.distance = 1;
	expect_changed("{\"foo.score\": [11, 11, 11]}", "{\"foo.score\": [10, 10, 10]}", &opt, 0);
	expect_changed("{\"foo.score\": [10, 10, 10]}", "{\"foo.score\": [11, 11, 11]}", &opt, 0);
	expect_changed("{\"foo.score\": [12, 12, 12]}", "{\"foo.score\": [10, 10, 10]}", &opt, 1);
	expect_changed("{\"foo.score\": [10, 10, 10]}", "{\"foo.score\": [12, 12, 12]}", &opt, 1);
	/* Floats 1 apart are not exempt */
	expect_changed("{\"foo.score\": [11.0, 11.0, 11.0]}", "{\"foo.score\": [10, 10, 10]}", &opt, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conformance),
		cmocka_unit_test(test_default_variant),
		cmocka_unit_test(test_gap_variant),
		cmocka_unit_test(test_distance_variant),
		cmocka_unit_test(test_variance_variant),
		cmocka_unit_test(test_latency_variant),
		cmocka_unit_test(test_function_stat),
		cmocka_unit_test(test_function_stat_pairing),
		cmocka_unit_test(test_skip_regular_stat),
		cmocka_unit_test(test_denylist_and_more),
		cmocka_unit_test(test_skip_small_change),
		cmocka_unit_test(test_regression_only),
		cmocka_unit_test(test_keys_only_in_base),
		cmocka_unit_test(test_margins),
		cmocka_unit_test(test_incomplete_run),
		cmocka_unit_test(test_perf_profile_threshold),
		cmocka_unit_test(test_gap_distance_state),
		cmocka_unit_test(test_record_json),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_cutoff_edges),
		cmocka_unit_test(test_three_runs_either_side),
		cmocka_unit_test(test_x_of_a_short_side),
		cmocka_unit_test(test_distance_by_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
