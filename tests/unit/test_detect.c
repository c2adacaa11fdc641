/*
 * test_detect.c: the history reader (src/detect/series.c) and the
 * annotations of detected changes (src/detect/detect.c): direction, the
 * tags around a change, "still low as of" and its half-way boundary.
 */
#include "test_helpers.h"
#include "detect/detect.h"
#include "util/xalloc.h"

#include <math.h>

static void parse(struct series *s, const char *json)
{
	if (series_parse_json(s, json, strlen(json), "t.json") < 0)
		fail_msg("cannot parse %s", json);
}

static void test_parse_forms(void **state)
{
	struct series s;
	(void)state;

	/* a bare array; "n" for runs; samples win over mean; unknown keys and
	 * nulls are skipped */
	parse(&s, "[{\"commit\": \"a\", \"mean\": 5, \"stddev\": 2, \"n\": 4, \"x\": {\"y\": [1]}},"
		  " {\"commit\": \"b\", \"mean\": 99, \"samples\": [1, 2, 3], \"subject\": null},"
		  " {\"commit\": \"c\", \"mean\": 7, \"stddev\": 0, \"tags\": [\"v1\", \"v1-final\"]}]");
	assert_null(s.metric);
	assert_int_equal(s.nr, 3);
	assert_string_equal(s.pt[0].commit, "a");
	assert_true(s.pt[0].cp.mean == 5 && s.pt[0].cp.stddev == 2 && s.pt[0].cp.n == 4);
	assert_null(s.pt[0].samples);
	assert_true(s.pt[1].cp.mean == 2 && s.pt[1].cp.stddev == 1 && s.pt[1].cp.n == 3);
	assert_int_equal(s.pt[1].nr_samples, 3);
	assert_null(s.pt[1].subject);
	/* a zero stddev is "unknown", runs default to 1 */
	assert_true(isnan(s.pt[2].cp.stddev) && s.pt[2].cp.n == 1);
	assert_int_equal(s.pt[2].nr_tags, 2);
	assert_string_equal(detect_tag(&s, 2), "v1");
	assert_null(detect_tag(&s, 0));
	assert_null(detect_tag(&s, 3));
	series_release(&s);

	parse(&s, "{\"metric\": \"m.x\", \"branch\": \"b\", \"future\": 1, \"points\": []}");
	assert_string_equal(s.metric, "m.x");
	assert_string_equal(s.branch, "b");
	assert_int_equal(s.nr, 0);
	series_release(&s);
}

static void test_parse_errors(void **state)
{
	static const struct {
		const char *json, *msg;
	} bad[] = {
		{ "3",
		  "perfbot: t.json:1:1: expected a history: an object with \"points\", or an array of points\n" },
		{ "{\"points\": {}}", "perfbot: t.json:1:12: points: expected an array of points\n" },
		{ "[1]", "perfbot: t.json:1:2: expected a point (an object) or ']'\n" },
		{ "[{\"commit\": 1}]", "perfbot: t.json:1:13: commit: expected a string\n" },
		{ "[{\"commit\": \"a\"}]",
		  "perfbot: t.json:1:2: point a: expected \"samples\" or a finite \"mean\"\n" },
		{ "[{\"commit\": \"a\", \"samples\": [1, \"x\"]}]",
		  "perfbot: t.json:1:33: samples: expected a number\n" },
		{ "[{\"commit\": \"a\", \"samples\": [NaN]}]",
		  "perfbot: t.json:1:30: samples: expected a finite number\n" },
		{ "[{\"commit\": \"a\", \"tags\": [\"v\", 2], \"mean\": 1}]",
		  "perfbot: t.json:1:32: tags: expected a string\n" },
		{ "[{\"commit\": \"a\", \"mean\": 1, \"runs\": 0}]",
		  "perfbot: t.json:1:2: point a: \"runs\" must be a whole number >= 1\n" },
		{ "[] x",
		  "perfbot: t.json:1:4: unexpected text after the JSON value, expected the end of the file\n" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct series s;
		struct stderr_capture cap;
		char *msg;

		capture_start(&cap);
		assert_int_equal(series_parse_json(&s, bad[i].json, strlen(bad[i].json), "t.json"), -1);
		msg = capture_end(&cap);
		if (strcmp(msg, bad[i].msg))
			fail_msg("%s: got %s want %s", bad[i].json, msg, bad[i].msg);
		free(msg);
		assert_int_equal(s.nr, 0);
		assert_null(s.pt);
	}
}

/* A series of levels with tags at given points, 3 runs of sd 1 each. */
static void levels(struct series *s, const double *v, int n, const char *const *tags)
{
	series_init(s);
	s->metric = xstrdup("mytest.throughput");
	for (int i = 0; i < n; i++) {
		char sha[41];
		struct series_point *p;

		snprintf(sha, sizeof(sha), "%040d", i);
		p = series_add(s, sha);
		p->cp = (struct cp_point){ v[i] + (i % 3 - 1) * 0.5, 1, 3 };
		if (tags[i])
			series_point_add_tag(p, tags[i]);
	}
}

static void where(const struct series *s, const struct detect_result *r, int k, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	detect_where(s, &r->ch[k], &sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_where_and_still(void **state)
{
	static const double drop[12] = { 100, 100, 100, 100, 100, 80, 80, 80, 80, 80, 80, 80 };
	static const char *const tags[12] = { "v1", NULL, NULL, "v2", NULL, NULL, NULL, "v3",
					      NULL, NULL, NULL, "v4" };
	static const char *const none[12] = { NULL };
	struct cp_options opt;
	struct detect_result r;
	struct series s;
	(void)state;

	cp_options_init(&opt);
	levels(&s, drop, 12, tags);
	assert_int_equal(detect_series(&s, NULL, &opt, &r), 0);
	assert_int_equal(r.direction, 1);
	assert_int_equal(r.nr, 1);
	assert_int_equal(r.ch[0].cp.index, 5);
	assert_int_equal(r.ch[0].kind, DETECT_REGRESSION);
	assert_int_equal(r.ch[0].tag_before, 3);
	assert_int_equal(r.ch[0].tag_after, 7);
	assert_int_equal(r.ch[0].latest_tag, 11);
	assert_int_equal(r.ch[0].still, 1);
	where(&s, &r, 0, "between v2 and v3, and it's still low as of v4");
	detect_result_release(&r);
	/* a latency that drops is an improvement; no tags: the commits */
	series_release(&s);
	levels(&s, drop, 12, none);
	assert_int_equal(detect_series(&s, "mytest.latency", &opt, &r), 0);
	assert_int_equal(r.direction, -1);
	assert_int_equal(r.ch[0].kind, DETECT_IMPROVEMENT);
	assert_int_equal(r.ch[0].still, -1);
	where(&s, &r, 0, "between 000000000000 and 000000000000");
	detect_result_release(&r);
	assert_int_equal(detect_series(&s, "mytest.score", &opt, &r), 0);
	assert_int_equal(r.ch[0].kind, DETECT_CHANGE);
	detect_result_release(&r);
	series_release(&s);
}

static void test_still_boundary(void **state)
{
	/* 100 -> 80, then back up to exactly half-way (90): still, by the
	 * rule's >= 0.5; a hair above half-way back (90 + 0.01): no longer */
	double v[18] = { 100, 100, 100, 100, 100, 100, 80, 80, 80, 80, 80, 80,
			 90, 90, 90, 90, 90, 90 };
	static const char *const tags[18] = { [2] = "v1", [8] = "v2", [17] = "v3" };
	struct cp_options opt;
	struct detect_result r;
	struct series s;
	(void)state;

	cp_options_init(&opt);
	series_init(&s);
	for (int i = 0; i < 18; i++) {
		char sha[41];
		struct series_point *p;

		snprintf(sha, sizeof(sha), "%040d", i);
		p = series_add(&s, sha);
		p->cp = (struct cp_point){ v[i], 0, 3 };
		if (tags[i])
			series_point_add_tag(p, tags[i]);
	}
	assert_int_equal(detect_series(&s, "mytest.throughput", &opt, &r), 0);
	assert_int_equal(r.nr, 2);
	assert_true(r.ch[0].cp.before == 100 && r.ch[0].cp.after == 80);
	assert_true(r.ch[0].latest_level == 90);
	assert_int_equal(r.ch[0].still, 1);
	detect_result_release(&r);
	for (int i = 12; i < 18; i++)
		s.pt[i].cp.mean = 90.01;
	assert_int_equal(detect_series(&s, "mytest.throughput", &opt, &r), 0);
	assert_int_equal(r.nr, 2);
	assert_int_equal(r.ch[0].still, 0);
	where(&s, &r, 0, "between v1 and v2, and it's no longer low as of v3");
	detect_result_release(&r);
	series_release(&s);
}

/* The text form's lines around a change: ±stddev% from 2 runs on (the
 * run count beside it), blank for 1 run; "run" for one; the subject.  A
 * tag on the first point after the change is the tag after it. */
static void test_print_text(void **state)
{
	static const double drop[12] = { 100, 100, 100, 100, 100, 80, 80, 80, 80, 80, 80, 80 };
	static const char *const tags[12] = { [3] = "v2", [5] = "v3", [11] = "v4" };
	struct strbuf out = STRBUF_INIT;
	struct cp_options opt;
	struct detect_result r;
	struct series s;
	(void)state;

	cp_options_init(&opt);
	levels(&s, drop, 12, tags);
	s.pt[4].cp = (struct cp_point){ 100, 5, 2 };
	s.pt[5].cp = (struct cp_point){ 80, NAN, 1 };
	s.pt[5].subject = xstrdup("mm: take the lock");
	assert_int_equal(detect_series(&s, NULL, &opt, &r), 0);
	assert_int_equal(r.nr, 1);
	assert_int_equal(r.ch[0].cp.index, 5);
	detect_print_text(&s, &r, &opt, &out);
	assert_string_equal(out.buf,
		"mytest.throughput: 12 tested commits, 1 change (higher is better; pvalue 0.01, min-change 1%)\n"
		"\n"
		"regression: -19.9% (segment means 99.8929 -> 80, p = 8e-14) between v2 and v3, and it's still low as of v4\n"
		"    last before 000000000000                    100 ±  5%   2 runs\n"
		"    first after 000000000000  v3                 80         1 run   mm: take the lock\n");
	detect_result_release(&r);
	series_release(&s);
	strbuf_release(&out);
}

/*
 * A slow drift and a jump of the latest point: neither is a change, both
 * are said apart, after the changes, in the text and the JSON forms.
 */
static void test_drift_and_latest(void **state)
{
	double v[80];
	const char *tags[80] = { [0] = "v1", [60] = "v2" };
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	struct cp_options opt;
	struct detect_result r;
	struct series s;
	const struct cp_drift *d;
	(void)state;

	for (int i = 0; i < 80; i++)
		v[i] = 1000 - 3 * i + 8 * sin(1.3 * i);
	v[79] = 700;
	cp_options_init(&opt);
	levels(&s, v, 80, tags);
	assert_int_equal(detect_series(&s, NULL, &opt, &r), 0);
	assert_int_equal(r.nr, 0);
	assert_int_equal(r.nr_drift, 1);
	d = &r.drift[0];
	assert_int_equal(d->lo, 0);
	assert_int_equal(d->hi, 79);
	assert_true(d->change < -0.2);
	assert_int_equal(r.latest.index, 79);
	/* the jump from where the drift's line got to */
	assert_true(r.latest.before == d->to);
	detect_print_text(&s, &r, &opt, &out);
	strbuf_addf(&want, "mytest.throughput: 80 tested commits, 0 changes (higher is better; "
		    "pvalue 0.01, min-change 1%%)\n"
		    "\n"
		    "drift: %+.1f%% over 79 commits (%.6g -> %.6g, p = %.2g) from v1 to "
		    "000000000000, a slow regression, not a step\n"
		    "\n"
		    "latest: %+.1f%% at the last commit (%.6g -> %.6g, p = %.2g), too few to be "
		    "a change yet\n"
		    "    jumped      000000000000                    700 ±  0%%   3 runs\n",
		    100 * d->change, d->from, d->to, d->p, 100 * r.latest.change, r.latest.before,
		    r.latest.after, r.latest.p);
	assert_string_equal(out.buf, want.buf);
	strbuf_reset(&out);
	detect_print_json(&s, &r, &opt, &out);
	{
		const char *dr = strstr(out.buf, "\"drifts\": [\n    {\n      \"kind\": \"regression\",");
		const char *la = strstr(out.buf, "\"latest\": {");

		assert_non_null(dr);
		assert_non_null(la);
		assert_true(dr < la);
		assert_non_null(strstr(dr, "\"commits\": 79,"));
		assert_non_null(strstr(la, "\"points\": 1,"));
		assert_non_null(strstr(la, "\"index\": 79,"));
	}
	detect_result_release(&r);

	/* neither: an empty list and null */
	for (int i = 0; i < 80; i++)
		s.pt[i].cp.mean = 1000 + (i % 3 - 1) * 0.5;
	assert_int_equal(detect_series(&s, NULL, &opt, &r), 0);
	strbuf_reset(&out);
	detect_print_json(&s, &r, &opt, &out);
	assert_non_null(strstr(out.buf, "\"drifts\": [],\n  \"latest\": null\n}"));
	detect_result_release(&r);
	series_release(&s);
	strbuf_release(&out);
	strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_where_and_still),
		cmocka_unit_test(test_still_boundary),
		cmocka_unit_test(test_print_text),
		cmocka_unit_test(test_drift_and_latest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
