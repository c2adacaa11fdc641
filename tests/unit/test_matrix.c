/* Unit tests of src/result: matrix loading (lkp's formats and bad input),
 * uniting runs, and the JSON files written. */
#include "test_helpers.h"
#include "result/matrix.h"
#include "result/unite.h"

#include <math.h>
#include <zlib.h>

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfbot-matrix-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

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
	char *missing[] = { "/nonexistent/run/0" };
	assert_int_equal(unite_run_dirs(missing, 1), -1);

	strbuf_release(&d0);
	strbuf_release(&d1);
	strbuf_release(&text);
	strbuf_release(&first);
	strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lkp_matrix),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_load_gz_and_dir),
		cmocka_unit_test(test_unite),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
