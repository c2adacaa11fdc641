/* Unit tests of src/result: matrix loading (lkp's formats and bad input),
 * uniting runs, and the JSON files written. */
#include "test_helpers.h"
#include "result/matrix.h"
#include "result/unite.h"
#include "util/xalloc.h"

#include <math.h>
#include <zlib.h>

TEST_TMPDIR("matrix")

static void write_text(const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s", tmpdir, rel);
	char *slash = strrchr(p.buf, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
}

static void test_parse_lkp_matrix(void **state)
{
	struct matrix mx;
	const char *text =
		"{\n  \"a.x\": [\n    1,\n    2\n  ],\n  \"b.y\": [\n    0.5\n  ],\n"
		"  \"c.nan\": [NaN, Infinity],\n"
		"  \"stats_source\": [\"/r/0/stats.json\", \"/r/1/stats.json\"]\n}\n";
	(void)state;
	matrix_init(&mx);
	assert_int_equal(matrix_parse(&mx, text, strlen(text), "m.json"), 0);
	assert_int_equal(mx.ncols, 2);
	assert_int_equal(mx.nr, 3);
	assert_string_equal(mx.m[0].name, "a.x");
	assert_true(mx.m[0].is_int[1] && mx.m[0].v[1] == 2);
	/* a short array is padded with zeros at the end, like lkp's readers */
	int b = matrix_find(&mx, "b.y");
	assert_true(mx.m[b].v[0] == 0.5 && !mx.m[b].is_int[0]);
	assert_true(mx.m[b].v[1] == 0 && mx.m[b].is_int[1]);
	int c = matrix_find(&mx, "c.nan");
	assert_true(isnan(mx.m[c].v[0]) && isinf(mx.m[c].v[1]));
	assert_string_equal(mx.sources[1], "/r/1/stats.json");
	matrix_release(&mx);
}

static void test_parse_errors(void **state)
{
	struct matrix mx;
	(void)state;

	matrix_init(&mx);
	/* syntax error: reported with file:line:col */
	const char *bad = "{\n  \"a\": [1,\n  2,,]\n}\n";
	assert_int_equal(matrix_parse(&mx, bad, strlen(bad), "bad.json"), -1);
	matrix_release(&mx);

	/* truncated file */
	const char *trunc = "{\n  \"a\": [1,\n";
	assert_int_equal(matrix_parse(&mx, trunc, strlen(trunc), "t.json"), -1);
	matrix_release(&mx);

	/* more samples than stats_source lists */
	const char *longer = "{\"a\": [1, 2, 3], \"stats_source\": [\"x\", \"y\"]}";
	assert_int_equal(matrix_parse(&mx, longer, strlen(longer), "l.json"), -1);
	matrix_release(&mx);

	/* not an object */
	assert_int_equal(matrix_parse(&mx, "[1, 2]", 6, "arr.json"), -1);
	matrix_release(&mx);

	/* trailing garbage */
	assert_int_equal(matrix_parse(&mx, "{} x", 4, "g.json"), -1);
	matrix_release(&mx);

	/* a non-numeric metric is skipped, the rest kept */
	const char *str = "{\"a\": [1, \"x\"], \"b\": [3, 4]}";
	assert_int_equal(matrix_parse(&mx, str, strlen(str), "s.json"), 0);
	assert_int_equal(mx.nr, 1);
	assert_string_equal(mx.m[0].name, "b");
	matrix_release(&mx);

	/* missing file */
	assert_int_equal(matrix_load(&mx, "/nonexistent/matrix.json"), -1);
	matrix_release(&mx);
}

static void test_load_gz_and_dir(void **state)
{
	struct strbuf p = STRBUF_INIT;
	struct matrix mx;
	(void)state;
	strbuf_addf(&p, "%s/gz", tmpdir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addstr(&p, "/matrix.json.gz");
	gzFile gz = gzopen(p.buf, "wb");
	assert_non_null(gz);
	gzputs(gz, "{\"x.y\": [3, 4]}");
	gzclose(gz);
	/* a _result_root holding only matrix.json.gz */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/gz", tmpdir);
	matrix_init(&mx);
	assert_int_equal(matrix_load(&mx, p.buf), 0);
	assert_int_equal(mx.nr, 1);
	assert_true(mx.m[0].v[1] == 4);
	matrix_release(&mx);
	strbuf_release(&p);
}

static void read_rel(struct strbuf *sb, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_reset(sb);
	strbuf_addf(&p, "%s/%s", tmpdir, rel);
	assert_int_equal(read_file(sb, p.buf), 0);
	strbuf_release(&p);
}

static void test_unite(void **state)
{
	struct strbuf d0 = STRBUF_INIT, d1 = STRBUF_INIT, text = STRBUF_INIT, first = STRBUF_INIT;
	(void)state;
	write_text("rr/c1/0/stats.json", "{\"t.ops\": 10, \"z.zero\": 0, \"f.x\": 1.5}");
	write_text("rr/c1/1/stats.json", "{\"t.ops\": 12, \"z.zero\": 0, \"n.new\": 7, \"f.x\": 0.0}");
	strbuf_addf(&d0, "%s/rr/c1/0", tmpdir);
	strbuf_addf(&d1, "%s/rr/c1/1", tmpdir);
	char *dirs[] = { d0.buf, d1.buf };
	assert_int_equal(unite_run_dirs(dirs, 2), 0);
	read_rel(&text, "rr/c1/matrix.json");
	/* z.zero (all integer zeros) dropped; n.new padded in front; floats stay floats */
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want,
		"{\n  \"t.ops\": [\n    10,\n    12\n  ],\n"
		"  \"f.x\": [\n    1.5,\n    0.0\n  ],\n"
		"  \"n.new\": [\n    0,\n    7\n  ],\n"
		"  \"stats_source\": [\n    \"%s/rr/c1/0/stats.json\",\n    \"%s/rr/c1/1/stats.json\"\n  ]\n}\n",
		tmpdir, tmpdir);
	assert_string_equal(text.buf, want.buf);
	read_rel(&text, "rr/c1/avg.json");
	assert_string_equal(text.buf, "{\n  \"t.ops\": 11.0,\n  \"f.x\": 0.75,\n  \"n.new\": 3.5\n}\n");
	read_rel(&text, "rr/c1/stddev.json");
	assert_string_equal(text.buf, "{\n  \"t.ops\": 1.0,\n  \"f.x\": 0.75,\n  \"n.new\": 3.5\n}\n");

	/* re-uniting a run replaces its column: byte-identical files */
	read_rel(&first, "rr/c1/matrix.json");
	assert_int_equal(unite_run_dirs(dirs, 1), 0);
	read_rel(&text, "rr/c1/matrix.json");
	assert_string_equal(text.buf, first.buf);
	/* a changed run replaces its own column only */
	write_text("rr/c1/0/stats.json", "{\"t.ops\": 20}");
	assert_int_equal(unite_run_dirs(dirs, 1), 0);
	struct matrix mx;
	matrix_init(&mx);
	strbuf_reset(&text);
	strbuf_addf(&text, "%s/rr/c1", tmpdir);
	assert_int_equal(matrix_load(&mx, text.buf), 0);
	assert_int_equal(mx.ncols, 2);
	int t = matrix_find(&mx, "t.ops");
	assert_true(mx.m[t].v[0] == 20 && mx.m[t].v[1] == 12);
	int f = matrix_find(&mx, "f.x");
	assert_true(mx.m[f].v[0] == 0 && mx.m[f].v[1] == 0);
	matrix_release(&mx);

	/* errors: a run without stats.json, a broken stats.json */
	write_text("rr/c2/0/other", "x");
	strbuf_reset(&d0);
	strbuf_addf(&d0, "%s/rr/c2/0", tmpdir);
	char *bad[] = { d0.buf };
	assert_int_equal(unite_run_dirs(bad, 1), -1);
	write_text("rr/c2/0/stats.json", "{\"a\": ");
	assert_int_equal(unite_run_dirs(bad, 1), -1);
	write_text("rr/c2/0/stats.json", "{\"a\": [1, 2]}");
	assert_int_equal(unite_run_dirs(bad, 1), -1);
	/* the root, locked for the run only, was not written */
	strbuf_reset(&d0);
	strbuf_addf(&d0, "%s/rr/c2/matrix.json", tmpdir);
	assert_false(file_exists(d0.buf));
	strbuf_reset(&d0);
	strbuf_addf(&d0, "%s/rr/c2/0", tmpdir);
	char *missing[] = { "/nonexistent/run/0" };
	assert_int_equal(unite_run_dirs(missing, 1), -1);

	strbuf_release(&d0);
	strbuf_release(&d1);
	strbuf_release(&text);
	strbuf_release(&first);
	strbuf_release(&want);
}

/* Parse quietly; the log's messages joined by '|' (level byte kept). */
static int parse_log(struct matrix *mx, const char *text, struct strbuf *msgs)
{
	struct strbuf log = STRBUF_INIT;
	int ret;

	matrix_init(mx);
	ret = matrix_parse_quiet(mx, text, strlen(text), "m.json", &log);
	strbuf_reset(msgs);
	for (size_t i = 0; i < log.len; i += strlen(log.buf + i) + 1)
		strbuf_addf(msgs, "%s%s", msgs->len ? "|" : "", log.buf + i);
	strbuf_release(&log);
	return ret;
}

/* Every form lkp writes reads the same: pretty or compact, any spacing. */
static void test_parse_forms(void **state)
{
	const char *pretty =
		"{\n  \"a.x\": [\n    1,\n    -2.5e-05\n  ],\n  \"b\": [\n    NaN,\n    -Infinity\n  ],\n"
		"  \"stats_source\": [\n    \"/r/0/stats.json\",\n    null\n  ]\n}\n";
	const char *compact =
		"{\"a.x\":[1,-2.5e-05],\"b\":[NaN,-Infinity],\"stats_source\":[\"/r/0/stats.json\",null]}";
	struct matrix p, c;
	struct strbuf out = STRBUF_INIT, msgs = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse_log(&p, pretty, &msgs), 0);
	assert_int_equal(parse_log(&c, compact, &msgs), 0);
	assert_string_equal(msgs.buf, "");
	assert_int_equal(p.nr, 2);
	assert_int_equal(c.ncols, 2);
	assert_null(c.sources[1]);
	assert_true(isinf(c.m[1].v[1]) && c.m[1].v[1] < 0);
	/* written back, both give lkp's text byte for byte */
	matrix_to_json(&c, &out);
	assert_string_equal(out.buf, pretty);
	strbuf_reset(&out);
	matrix_to_json(&p, &out);
	assert_string_equal(out.buf, pretty);
	matrix_release(&p);
	matrix_release(&c);
	strbuf_release(&out);
	strbuf_release(&msgs);
}

static void test_parse_semantics(void **state)
{
	struct matrix mx;
	struct strbuf msgs = STRBUF_INIT;

	(void)state;
	/* without stats_source the widest array decides; a scalar is one run;
	 * booleans are lkp's integer flags */
	assert_int_equal(parse_log(&mx, "{\"a\": [1], \"b\": 2.5, \"c\": [true, false, 3], \"d\": []}",
				   &msgs), 0);
	assert_int_equal(mx.ncols, 3);
	assert_int_equal(mx.nr, 4);
	assert_true(mx.m[1].v[0] == 2.5 && !mx.m[1].is_int[0] && mx.m[1].v[2] == 0);
	assert_true(mx.m[2].v[0] == 1 && mx.m[2].is_int[0] && mx.m[2].v[1] == 0 && mx.m[2].is_int[1]);
	assert_true(mx.m[3].v[2] == 0 && mx.m[3].is_int[2]);
	matrix_release(&mx);

	/* a key given twice keeps its first place and its last value */
	assert_int_equal(parse_log(&mx, "{\"a\": [1, 2], \"b\": [3], \"a\": [4.5]}", &msgs), 0);
	assert_int_equal(mx.nr, 2);
	assert_string_equal(mx.m[0].name, "a");
	assert_true(mx.m[0].v[0] == 4.5 && !mx.m[0].is_int[0]);
	assert_int_equal(mx.ncols, 1);         /* "a"'s first, longer value is gone */
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"a\": [1, 2], \"b\": [3, 4], \"a\": [1, \"x\"]}", &msgs), 0);
	assert_int_equal(mx.nr, 1);
	assert_string_equal(mx.m[0].name, "b");
	assert_string_equal(msgs.buf, "Wm.json:1:28: metric 'a': sample 1 is not a number; metric skipped");
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"a\": \"x\", \"b\": [3], \"a\": [7]}", &msgs), 0);
	assert_string_equal(mx.m[0].name, "a");
	assert_true(mx.m[0].v[0] == 7);
	assert_string_equal(msgs.buf, "");
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"a\": [1], \"a\": [2], \"b\": [5], \"c\": [6], \"a\": [3], "
				   "\"c\": [7]}", &msgs), 0);
	assert_int_equal(mx.nr, 3);
	assert_true(mx.m[0].v[0] == 3 && mx.m[1].v[0] == 5 && mx.m[2].v[0] == 7);
	assert_int_equal(matrix_find(&mx, "a"), 0);
	assert_int_equal(matrix_find(&mx, "c"), 2);
	matrix_release(&mx);
	/* the last stats_source wins too */
	assert_int_equal(parse_log(&mx, "{\"stats_source\": \"x\", \"a\": [1], \"stats_source\": [\"s\"]}",
				   &msgs), 0);
	assert_int_equal(mx.ncols, 1);
	assert_string_equal(mx.sources[0], "s");
	matrix_release(&mx);

	/* values that are no number: the metric is skipped, with its line */
	assert_int_equal(parse_log(&mx, "{\n\"a\": [1, {\"n\": [2]}],\n\"b\": [[1]],\n\"c\": null,\n"
				   "\"d\": {\"x\": 1},\n\"e\": [1, 2]\n}", &msgs), 0);
	assert_string_equal(msgs.buf,
		"Wm.json:2:1: metric 'a': sample 1 is not a number; metric skipped|"
		"Wm.json:3:1: metric 'b': sample 0 is not a number; metric skipped|"
		"Wm.json:4:1: metric 'c': sample 0 is not a number; metric skipped|"
		"Wm.json:5:1: metric 'd': sample 0 is not a number; metric skipped");
	assert_int_equal(mx.nr, 1);
	assert_int_equal(matrix_find(&mx, "e"), 0);
	assert_int_equal(mx.ncols, 2);
	matrix_release(&mx);
	strbuf_release(&msgs);
}

static void test_parse_error_messages(void **state)
{
	struct matrix mx;
	struct strbuf msgs = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse_log(&mx, "{\"a\": [1, 2, 3],\n \"stats_source\": [\"x\", \"y\"]}", &msgs), -1);
	assert_string_equal(msgs.buf, "Em.json:1:2: metric 'a' has 3 samples but stats_source lists 2 runs");
	/* on error the matrix is left empty */
	assert_int_equal(mx.nr, 0);
	assert_null(mx.path);
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"a\": [1],\n \"stats_source\": {\"x\": 1}}", &msgs), -1);
	assert_string_equal(msgs.buf, "Em.json:2:18: \"stats_source\" must be an array of paths");
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"a\": [1], \"stats_source\": [\"x\", 3]}", &msgs), -1);
	assert_string_equal(msgs.buf, "Em.json:1:34: expected a path (a string) or null in \"stats_source\"");
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "\n [1, 2]", &msgs), -1);
	assert_string_equal(msgs.buf, "Em.json:2:2: expected a JSON object of metrics");
	matrix_release(&mx);
	/* a syntax error anywhere wins over what is wrong with the content,
	 * and no warning comes before it */
	assert_int_equal(parse_log(&mx, "[1, 2", &msgs), -1);
	assert_string_equal(msgs.buf, "Em.json:1:6: unexpected end of file, expected ',' or ']' "
			    "after an array element");
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"s\": [\"x\"], \"stats_source\": 1, \"a\": [1 2]}", &msgs), -1);
	assert_string_equal(msgs.buf, "Em.json:1:41: expected ',' or ']' after an array element, got '2'");
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"a\": [1], \"b\": [1, 2, 3], \"stats_source\": [\"x\"], }", &msgs), -1);
	assert_string_equal(msgs.buf, "Em.json:1:51: expected a string key after ',', got '}'");
	matrix_release(&mx);
	strbuf_release(&msgs);
}

/* stats.json: one number per metric. */
static void test_stats_load(void **state)
{
	struct strbuf p = STRBUF_INIT;
	struct matrix st;

	(void)state;
	write_text("st/ok/stats.json", "{\"a\": 1, \"b\": 2.0, \"c\": true, \"stats_source\": [1],\n"
		   "\"s\": \"x\", \"a\": 3}");
	strbuf_addf(&p, "%s/st/ok/stats.json", tmpdir);
	matrix_init(&st);
	assert_int_equal(stats_load(&st, p.buf), 0);
	assert_int_equal(st.ncols, 1);
	assert_int_equal(st.nr, 3);
	assert_true(st.m[0].v[0] == 3 && st.m[0].is_int[0]);
	assert_true(st.m[1].v[0] == 2 && !st.m[1].is_int[0]);
	assert_true(st.m[2].v[0] == 1 && st.m[2].is_int[0]);
	matrix_release(&st);

	write_text("st/arr/stats.json", "{\"a\": 1, \"b\": [1, 2]}");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/st/arr/stats.json", tmpdir);
	assert_int_equal(stats_load(&st, p.buf), -1);
	assert_int_equal(st.nr, 0);
	matrix_release(&st);
	strbuf_release(&p);
}

/* Found by fuzzing (tests/fuzz/fuzz_matrix.c): an integer past long long
 * was kept as an integer but written as a float (fmt_number), so it read
 * back as another kind of sample.  Now it is a float from the start. */
static void test_big_integers(void **state)
{
	static const char text[] = "{\"a\": [9100000000000000000, 9200000000000000000, "
		"-9200000000000000000, 1296543266666666666666666666666661]}";
	struct strbuf json = STRBUF_INIT, log = STRBUF_INIT;
	struct matrix mx, again;

	(void)state;
	matrix_init(&mx);
	matrix_init(&again);
	assert_int_equal(matrix_parse_quiet(&mx, text, strlen(text), "b.json", &log), 0);
	assert_true(mx.m[0].is_int[0]);
	assert_false(mx.m[0].is_int[1]);
	assert_false(mx.m[0].is_int[2]);
	assert_false(mx.m[0].is_int[3]);
	matrix_to_json(&mx, &json);
	assert_int_equal(matrix_parse_quiet(&again, json.buf, json.len, "again.json", &log), 0);
	for (int c = 0; c < 4; c++) {
		assert_true(again.m[0].v[c] == mx.m[0].v[c]);
		assert_int_equal(again.m[0].is_int[c], mx.m[0].is_int[c]);
	}
	/* stats.json alike */
	matrix_release(&again);
	matrix_init(&again);
	assert_int_equal(stats_parse_quiet(&again, "{\"b\": 9.3e18, \"c\": 9300000000000000000}", 39,
					   "s.json", &log), 0);
	assert_false(again.m[0].is_int[0]);
	assert_false(again.m[1].is_int[0]);
	assert_true(again.m[1].v[0] == 9.3e18);
	matrix_release(&mx);
	matrix_release(&again);
	strbuf_release(&json);
	strbuf_release(&log);
}

static void test_find_hint_and_drop(void **state)
{
	struct matrix mx;
	struct strbuf msgs = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse_log(&mx, "{\"a\": [0, 0], \"b\": [0, 1], \"c\": [0.0, 0], \"d\": [0, 0]}",
				   &msgs), 0);
	assert_int_equal(matrix_find_hint(&mx, "b", 1), 1);
	assert_int_equal(matrix_find_hint(&mx, "b", 0), 1);
	assert_int_equal(matrix_find_hint(&mx, "b", 99), 1);
	assert_int_equal(matrix_find_hint(&mx, "b", -1), 1);
	assert_int_equal(matrix_find_hint(&mx, "z", 0), -1);
	/* all-integer-zero metrics go; a float zero keeps its metric */
	matrix_drop_empty(&mx);
	assert_int_equal(mx.nr, 2);
	assert_int_equal(matrix_find(&mx, "b"), 0);
	assert_int_equal(matrix_find(&mx, "c"), 1);
	assert_int_equal(matrix_find(&mx, "a"), -1);
	matrix_drop_empty(&mx);         /* nothing to drop: unchanged */
	assert_int_equal(mx.nr, 2);
	matrix_to_json(&mx, &out);
	assert_string_equal(out.buf, "{\n  \"b\": [\n    0,\n    1\n  ],\n  \"c\": [\n    0.0,\n    0\n  ]\n}\n");
	matrix_release(&mx);
	strbuf_release(&msgs);
	strbuf_release(&out);
}

/*
 * Columns added one at a time past the room reserved (and with none
 * reserved): every metric keeps its samples, a metric first seen in a
 * later column is zero before it, and one absent from a column is zero
 * there.  (Under ASan, a room one short is an overflow.)
 */
static void test_columns_past_room(void **state)
{
	struct matrix mx, st;
	struct strbuf msgs = STRBUF_INIT, out = STRBUF_INIT;
	char text[64];

	(void)state;
	for (int reserve = 0; reserve <= 3; reserve += 3) {
		matrix_init(&mx);
		matrix_reserve_cols(&mx, reserve);
		for (int c = 0; c < 7; c++) {
			/* "a" in every column, "b" from column 2, "c" in column 5 only */
			snprintf(text, sizeof(text), "{\"a\": %d%s%s}", c + 1,
				 c >= 2 ? ", \"b\": 9" : "", c == 5 ? ", \"c\": 4" : "");
			matrix_init(&st);
			assert_int_equal(stats_parse_quiet(&st, text, strlen(text), "s.json", &msgs), 0);
			matrix_add_column(&mx, &st, NULL);
			matrix_release(&st);
		}
		strbuf_reset(&out);
		matrix_to_json(&mx, &out);
		assert_int_equal(mx.ncols, 7);
		for (int c = 0; c < 7; c++) {
			assert_true(mx.m[matrix_find(&mx, "a")].v[c] == c + 1);
			assert_true(mx.m[matrix_find(&mx, "b")].v[c] == (c >= 2 ? 9 : 0));
			assert_true(mx.m[matrix_find(&mx, "c")].v[c] == (c == 5 ? 4 : 0));
		}
		matrix_release(&mx);
	}
	strbuf_release(&msgs);
	strbuf_release(&out);
}

/* The files of a tree after uniting runs in some order, as text. */
static void unite_tree(const char *tree, const char *const *runs, int n, bool one_by_one,
		       struct strbuf *files)
{
	struct strbuf p = STRBUF_INIT;
	char **dirs = xcalloc((size_t)n, sizeof(char *));

	for (int i = 0; i < n; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s/%s", tmpdir, tree, runs[i]);
		dirs[i] = xstrdup(p.buf);
	}
	if (one_by_one) {
		for (int i = 0; i < n; i++)
			if (unite_run_dirs(dirs + i, 1) < 0)
				break;
	} else {
		unite_run_dirs(dirs, n);
	}
	strbuf_reset(files);
	for (const char *c = "abc"; *c; c++)
		for (int k = 0; k < 3; k++) {
			static const char *const names[] = { "matrix.json", "avg.json", "stddev.json" };
			struct strbuf text = STRBUF_INIT;

			strbuf_reset(&p);
			strbuf_addf(&p, "%s/%s/%c/%s", tmpdir, tree, *c, names[k]);
			if (file_exists(p.buf))
				assert_int_equal(read_file(&text, p.buf), 0);
			/* the trees differ in name only */
			for (char *t = strstr(text.buf, tree); t; t = strstr(t + 1, tree))
				memset(t, '_', strlen(tree));
			strbuf_addf(files, "== %c/%s\n%s", *c, names[k], text.buf);
			strbuf_release(&text);
		}
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	strbuf_release(&p);
}

/* Runs of several roots in one call give the files of uniting them one
 * by one, in the same order, failures included. */
static void test_unite_grouped(void **state)
{
	static const char *const runs[] = {
		"a/0", "b/0", "a/1", "c/0", "b/1", "a/2", "a/0", "c/1", "b/2",
	};
	const int n = sizeof(runs) / sizeof(runs[0]);
	struct strbuf one = STRBUF_INIT, all = STRBUF_INIT;
	const char *trees[] = { "g1", "g2" };

	(void)state;
	for (int t = 0; t < 2; t++)
		for (const char *c = "abc"; *c; c++)
			for (int r = 0; r < 3; r++) {
				struct strbuf rel = STRBUF_INIT, json = STRBUF_INIT;
				strbuf_addf(&rel, "%s/%c/%d/stats.json", trees[t], *c, r);
				/* z goes all-zero and comes back: dropped, then re-added at the end */
				strbuf_addf(&json, "{\"z\": %d, \"%c.x\": %d, \"f\": %d.5, \"only%d\": %d}",
					    r == 1, *c, r * 10 + 1, r, r, r + 1);
				write_text(rel.buf, json.buf);
				strbuf_release(&rel);
				strbuf_release(&json);
			}
	unite_tree("g1", runs, n, true, &one);
	unite_tree("g2", runs, n, false, &all);
	assert_string_equal(all.buf, one.buf);

	/* a bad run in the middle: the runs before it are in, none after */
	write_text("g1/b/1/stats.json", "{\"x\": [1,");
	write_text("g2/b/1/stats.json", "{\"x\": [1,");
	for (int t = 0; t < 2; t++)
		for (const char *c = "abc"; *c; c++) {
			struct strbuf d = STRBUF_INIT;
			strbuf_addf(&d, "rm -f %s/%s/%c/*.json", tmpdir, trees[t], *c);
			assert_int_equal(system(d.buf), 0);
			strbuf_release(&d);
		}
	unite_tree("g1", runs, n, true, &one);
	unite_tree("g2", runs, n, false, &all);
	assert_string_equal(all.buf, one.buf);
	assert_non_null(strstr(all.buf, "== a/matrix.json\n{"));
	assert_non_null(strstr(all.buf, "== b/matrix.json\n{"));
	assert_null(strstr(all.buf, "\"b.x\": [\n    1,\n    11"));   /* b/1 not in */
	strbuf_release(&one);
	strbuf_release(&all);
}

/* More roots than are kept open at once: the same files still. */
static void test_unite_many_roots(void **state)
{
	struct strbuf rel = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	char *dirs[3 * 40];
	int n = 0;

	(void)state;
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 40; c++) {
			strbuf_reset(&rel);
			strbuf_addf(&rel, "many/%d/%d/stats.json", c, r);
			strbuf_reset(&a);
			strbuf_addf(&a, "{\"t.x\": %d, \"r%d\": 1}", c * 10 + r + 1, r);
			write_text(rel.buf, a.buf);
			strbuf_reset(&rel);
			strbuf_addf(&rel, "%s/many/%d/%d", tmpdir, c, r);
			dirs[n++] = xstrdup(rel.buf);
		}
	assert_int_equal(unite_run_dirs(dirs, n), 0);
	for (int c = 0; c < 40; c++) {
		strbuf_reset(&rel);
		strbuf_addf(&rel, "many/%d/matrix.json", c);
		read_rel(&a, rel.buf);
		strbuf_reset(&b);
		strbuf_addf(&b, "{\n  \"t.x\": [\n    %d,\n    %d,\n    %d\n  ],\n"
			    "  \"r0\": [\n    1,\n    0,\n    0\n  ],\n"
			    "  \"r1\": [\n    0,\n    1,\n    0\n  ],\n"
			    "  \"r2\": [\n    0,\n    0,\n    1\n  ],\n"
			    "  \"stats_source\": [\n    \"%s/many/%d/0/stats.json\",\n"
			    "    \"%s/many/%d/1/stats.json\",\n    \"%s/many/%d/2/stats.json\"\n  ]\n}\n",
			    c * 10 + 1, c * 10 + 2, c * 10 + 3, tmpdir, c, tmpdir, c, tmpdir, c);
		assert_string_equal(a.buf, b.buf);
	}
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	strbuf_release(&rel);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* Without stats_source a value that is no array is one sample, and a
 * run united into an lkp matrix that lists no sources gets null sources
 * for the columns before it: one entry per column. */
static void test_columns_without_sources(void **state)
{
	struct matrix mx;
	struct strbuf msgs = STRBUF_INIT, text = STRBUF_INIT, d = STRBUF_INIT, want = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse_log(&mx, "{\"a\": 5}", &msgs), 0);
	assert_string_equal(msgs.buf, "");
	assert_int_equal(mx.ncols, 1);
	assert_true(mx.m[0].v[0] == 5);
	matrix_release(&mx);
	assert_int_equal(parse_log(&mx, "{\"a\": 5, \"b\": [1, 2, 3]}", &msgs), 0);
	assert_int_equal(mx.ncols, 3);
	assert_true(mx.m[0].v[0] == 5 && mx.m[0].v[1] == 0 && mx.m[0].v[2] == 0);
	matrix_release(&mx);

	write_text("rs/c/matrix.json", "{\"t.ops\": [1, 2]}");
	write_text("rs/c/7/stats.json", "{\"t.ops\": 3}");
	strbuf_addf(&d, "%s/rs/c/7", tmpdir);
	char *dirs[] = { d.buf };
	assert_int_equal(unite_run_dirs(dirs, 1), 0);
	read_rel(&text, "rs/c/matrix.json");
	strbuf_addf(&want, "{\n  \"t.ops\": [\n    1,\n    2,\n    3\n  ],\n"
		    "  \"stats_source\": [\n    null,\n    null,\n    \"%s/rs/c/7/stats.json\"\n  ]\n}\n",
		    tmpdir);
	assert_string_equal(text.buf, want.buf);
	matrix_init(&mx);
	strbuf_reset(&d);
	strbuf_addf(&d, "%s/rs/c", tmpdir);
	assert_int_equal(matrix_load(&mx, d.buf), 0);
	assert_int_equal(mx.ncols, 3);
	matrix_release(&mx);
	strbuf_release(&msgs);
	strbuf_release(&text);
	strbuf_release(&d);
	strbuf_release(&want);
}

/* Incomplete runs are left out of a metric's values, and of the count. */
static void test_complete_values(void **state)
{
	static const char text[] = "{\"m.x\": [1, 2, 3, 4], "
		"\"last_state.is_incomplete_run\": [0, 1, 0, 2], \"m.y\": [5, 6, 7, 8]}";
	struct matrix mx;
	double v[4];
	(void)state;

	matrix_init(&mx);
	assert_int_equal(matrix_parse(&mx, text, strlen(text), "m.json"), 0);
	assert_int_equal(matrix_complete_values(&mx, "m.x", v), 3);
	assert_true(v[0] == 1 && v[1] == 3 && v[2] == 4);
	assert_int_equal(matrix_complete_values(&mx, NULL, NULL), 3);
	assert_int_equal(matrix_complete_values(&mx, "m.z", v), 0);
	matrix_release(&mx);
	/* no last_state at all: every run counts */
	matrix_init(&mx);
	assert_int_equal(matrix_parse(&mx, "{\"m.x\": [1, 2]}", 15, "n.json"), 0);
	assert_int_equal(matrix_complete_values(&mx, "m.x", v), 2);
	matrix_release(&mx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lkp_matrix),
		cmocka_unit_test(test_complete_values),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_load_gz_and_dir),
		cmocka_unit_test(test_unite),
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_semantics),
		cmocka_unit_test(test_parse_error_messages),
		cmocka_unit_test(test_stats_load),
		cmocka_unit_test(test_big_integers),
		cmocka_unit_test(test_find_hint_and_drop),
		cmocka_unit_test(test_columns_past_room),
		cmocka_unit_test(test_unite_grouped),
		cmocka_unit_test(test_unite_many_roots),
		cmocka_unit_test(test_columns_without_sources),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
