/* Unit tests of matrix_parse_column (src/result/matrix.c), unite's way of
 * reading a run's stats.json: checked against what it replaces,
 * stats_parse_quiet followed by matrix_set_column / matrix_add_column. */
#include "test_helpers.h"
#include "result/matrix.h"
#include "util/fileio.h"

#define BASE "{\"a\": [1, 2], \"b\": [3.5, 4], \"c\": [0, 7], \"z\": [0, 0.0], " \
	"\"stats_source\": [\"/r/0/stats.json\", \"/r/1/stats.json\"]}"

/* The stats texts: in the matrix's order or not, new metrics, keys given
 * twice (good then bad and back), values that are no number, an array
 * (an error after a warning), syntax errors, lkp's stats_source. */
static const char *const stats_texts[] = {
	"{\"a\": 5, \"b\": 6.5, \"c\": 7}",
	"{\"c\": 1, \"new1\": 2, \"a\": 3, \"new2\": true, \"b\": false}",
	"{\"a\": 1, \"b\": 2, \"a\": 9, \"new\": 1, \"new\": 2.5, \"b\": 0}",
	"{\"a\": \"x\", \"b\": 1, \"a\": 4}",
	"{\"new\": 1, \"new\": \"x\", \"a\": 2, \"b\": [1], \"b\": 3}",
	"{\"a\": null, \"b\": {\"x\": [1]}, \"new\": \"s\", \"c\": 0.0}",
	"{\"a\": \"x\", \"b\": [1, 2], \"c\": 3, \"d\": [4]}",
	"{\"new\": [1], \"a\": 1}",
	"{\"a\": 1, \"b\": }",
	"{\"a\": [1, }",
	"[1, 2]",
	"{\"stats_source\": [\"x\"], \"a\": 1, \"stats_source\": 2}",
	"{\"a\": 12345678901234567890, \"b\": -0, \"c\": 1e3, \"n\": -1.5e-300}",
	"{}",
	"{\"z\": 0, \"y\": 0, \"x\": 1, \"w\": 2, \"v\": 3, \"u\": 4, \"a\": 5}",
};

static void load_base(struct matrix *mx, bool empty)
{
	matrix_init(mx);
	if (!empty)
		assert_int_equal(matrix_parse(mx, BASE, strlen(BASE), "base.json"), 0);
}

/* The old way: 0 or -1, the matrix and the log. */
static int old_way(struct matrix *mx, int col, const char *text, struct strbuf *log)
{
	struct matrix st;

	matrix_init(&st);
	if (stats_parse_quiet(&st, text, strlen(text), "s.json", log) < 0)
		return -1;
	if (col < 0)
		matrix_add_column(mx, &st, "/r/new/stats.json");
	else
		matrix_set_column(mx, col, &st);
	matrix_release(&st);
	return 0;
}

static void check_one(const char *text, int col, bool empty)
{
	struct matrix a, b;
	struct strbuf log_a = STRBUF_INIT, log_b = STRBUF_INIT;
	struct strbuf out_a = STRBUF_INIT, out_b = STRBUF_INIT;
	int ret_a, ret_b;

	load_base(&a, empty);
	load_base(&b, empty);
	ret_a = old_way(&a, col, text, &log_a);
	ret_b = matrix_parse_column(&b, col, text, strlen(text), "s.json", "/r/new/stats.json", &log_b);
	if (ret_a != ret_b || log_a.len != log_b.len || memcmp(log_a.buf, log_b.buf, log_a.len))
		fail_msg("%s (col %d%s): old %d, new %d; logs differ", text, col,
			 empty ? ", empty matrix" : "", ret_a, ret_b);
	matrix_to_json(&a, &out_a);
	matrix_to_json(&b, &out_b);
	if (strcmp(out_a.buf, out_b.buf))
		fail_msg("%s (col %d%s):\nold %s\nnew %s", text, col, empty ? ", empty matrix" : "",
			 out_a.buf, out_b.buf);
	assert_int_equal(a.ncols, b.ncols);
	/* the index finds every metric where it is */
	for (int i = 0; i < b.nr; i++)
		assert_int_equal(matrix_find(&b, b.m[i].name), i);
	assert_int_equal(b.index.nr, (size_t)b.nr);
	matrix_release(&a);
	matrix_release(&b);
	strbuf_release(&log_a);
	strbuf_release(&log_b);
	strbuf_release(&out_a);
	strbuf_release(&out_b);
}

static void test_same_as_stats_parse_and_set_column(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(stats_texts) / sizeof(*stats_texts); i++) {
		check_one(stats_texts[i], -1, false);
		check_one(stats_texts[i], 0, false);
		check_one(stats_texts[i], 1, false);
		check_one(stats_texts[i], -1, true);
	}
}

/* What the comparison alone would not show: the values and messages. */
static void test_values_and_messages(void **state)
{
	struct matrix mx;
	struct strbuf log = STRBUF_INIT, out = STRBUF_INIT;
	const char *text = "{\"b\": 2.5,\n \"a\": \"x\", \"new\": 7, \"a\": 4, \"c\": null}";

	(void)state;
	load_base(&mx, false);
	assert_int_equal(matrix_parse_column(&mx, -1, text, strlen(text), "s.json", NULL, &log), 0);
	assert_int_equal(mx.ncols, 3);
	assert_int_equal(mx.nr_sources, 3);
	assert_null(mx.sources[2]);
	assert_int_equal(mx.nr, 5);
	assert_string_equal(mx.m[4].name, "new");
	assert_true(mx.m[0].v[2] == 4 && mx.m[0].is_int[2]);          /* a: the last value */
	assert_true(mx.m[1].v[2] == 2.5 && !mx.m[1].is_int[2]);
	assert_true(mx.m[2].v[2] == 0 && mx.m[2].is_int[2]);           /* c: skipped: 0 */
	assert_true(mx.m[3].v[2] == 0 && mx.m[3].is_int[2]);           /* z: absent: 0 */
	assert_true(mx.m[4].v[0] == 0 && mx.m[4].v[1] == 0 && mx.m[4].v[2] == 7);
	assert_string_equal(log.buf, "Ws.json:2:30: metric 'c' is not a number; metric skipped");
	assert_int_equal(log.len, strlen(log.buf) + 1);

	strbuf_reset(&log);
	text = "{\"new2\": 1, \"b\": [1]}";
	matrix_to_json(&mx, &out);
	assert_int_equal(matrix_parse_column(&mx, 0, text, strlen(text), "s.json", NULL, &log), -1);
	assert_string_equal(log.buf, "Es.json:1:13: metric 'b' is an array, expected one number per "
			    "metric in a stats file");
	{
		struct strbuf again = STRBUF_INIT;

		matrix_to_json(&mx, &again);
		assert_string_equal(again.buf, out.buf);        /* unchanged */
		strbuf_release(&again);
	}
	matrix_release(&mx);
	strbuf_release(&log);
	strbuf_release(&out);
}

/* A file written by matrix_write_file, read back. */
static void written(const struct matrix *mx, enum matrix_file which, const char *path,
		    struct strbuf *out)
{
	struct atomic_file af;

	assert_int_equal(atomic_file_open(&af, path), 0);
	matrix_write_file(mx, which, &af);
	assert_int_equal(atomic_file_commit(&af), 0);
	strbuf_reset(out);
	assert_int_equal(read_file(out, path), 0);
}

/*
 * A matrix of 5,000 metrics: sized once, and no larger than it needs
 * (count_members); its files written in pieces are the texts rendered
 * whole (the matrix is past twice the writer's 64 KiB piece).
 */
static void test_large_matrix_sizes_and_files(void **state)
{
	struct strbuf text = STRBUF_INIT, whole = STRBUF_INIT, file = STRBUF_INIT, log = STRBUF_INIT;
	char *dir = test_tmpdir("matrix-column");
	struct strbuf path = STRBUF_INIT;
	struct matrix mx, back;
	const int n = 5000;
	(void)state;

	strbuf_addch(&text, '{');
	for (int i = 0; i < n; i++)
		strbuf_addf(&text, "%s\"m.%04d\": %d.%d", i ? ", " : "", i, i, i % 7);
	strbuf_addch(&text, '}');
	matrix_init(&mx);
	assert_int_equal(matrix_parse_column(&mx, -1, text.buf, text.len, "s.json", "/r/0", &log), 0);
	assert_int_equal(matrix_parse_column(&mx, -1, text.buf, text.len, "s.json", "/r/1", &log), 0);
	assert_int_equal(log.len, 0);
	assert_int_equal(mx.nr, n);
	assert_int_equal(mx.alloc, 8192);               /* 8 doubled to hold 5,000 */
	assert_int_equal(mx.index.cap, 8192);           /* 3/4 full at most */

	path_join(&path, dir, "matrix.json");
	written(&mx, MATRIX_FILE_MATRIX, path.buf, &file);
	matrix_to_json(&mx, &whole);
	assert_true(whole.len > 2 * 65536);
	assert_string_equal(file.buf, whole.buf);
	/* loading it sizes the arrays by its '[' (5,001 with stats_source) */
	matrix_init(&back);
	assert_int_equal(matrix_parse(&back, whole.buf, whole.len, "m.json"), 0);
	assert_int_equal(back.nr, n);
	assert_int_equal(back.alloc, 8192);
	assert_int_equal(back.index.cap, 8192);
	matrix_release(&back);

	strbuf_reset(&whole);
	matrix_avg_to_json(&mx, &whole);
	written(&mx, MATRIX_FILE_AVG, path.buf, &file);
	assert_string_equal(file.buf, whole.buf);
	strbuf_reset(&whole);
	matrix_stddev_to_json(&mx, &whole);
	written(&mx, MATRIX_FILE_STDDEV, path.buf, &file);
	assert_string_equal(file.buf, whole.buf);

	matrix_release(&mx);
	strbuf_release(&path);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&text);
	strbuf_release(&whole);
	strbuf_release(&file);
	strbuf_release(&log);
}

/* Pieces past a pool block's 64 KiB: a name of 100,000 bytes, and the
 * samples of a metric with 10,000 columns, each whole. */
static void test_pool_large_pieces(void **state)
{
	struct strbuf text = STRBUF_INIT, log = STRBUF_INIT, name = STRBUF_INIT;
	struct matrix mx;
	(void)state;

	strbuf_addchars(&name, 'n', 100000);
	strbuf_addf(&text, "{\"a\": 1, \"%s\": 2, \"b\": 3}", name.buf);
	matrix_init(&mx);
	assert_int_equal(matrix_parse_column(&mx, -1, text.buf, text.len, "s.json", NULL, &log), 0);
	assert_int_equal(mx.nr, 3);
	assert_string_equal(mx.m[1].name, name.buf);
	assert_string_equal(mx.m[2].name, "b");
	matrix_release(&mx);

	strbuf_reset(&text);
	strbuf_addstr(&text, "{\"wide\": [");
	for (int c = 0; c < 10000; c++)
		strbuf_addf(&text, "%s%d", c ? ", " : "", c);
	strbuf_addstr(&text, "], \"next\": [7]}");
	matrix_init(&mx);
	assert_int_equal(matrix_parse_quiet(&mx, text.buf, text.len, "m.json", &log), 0);
	assert_int_equal(mx.ncols, 10000);
	for (int c = 0; c < 10000; c++)
		assert_true(mx.m[0].v[c] == c && mx.m[0].is_int[c]);
	assert_true(mx.m[1].v[0] == 7 && mx.m[1].v[9999] == 0);
	matrix_release(&mx);

	/* 100,000 commas in a name: the index is not sized for them */
	strbuf_reset(&text);
	strbuf_addstr(&text, "{\"a\": 1, \"");
	strbuf_addchars(&text, ',', 100000);
	strbuf_addstr(&text, "\": 2}");
	matrix_init(&mx);
	assert_int_equal(matrix_parse_column(&mx, -1, text.buf, text.len, "s.json", NULL, &log), 0);
	assert_int_equal(mx.nr, 2);
	assert_int_equal(mx.index.cap, 16384);  /* for len/16 + 1 = 6,251 names */
	matrix_release(&mx);
	strbuf_release(&text);
	strbuf_release(&log);
	strbuf_release(&name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_stats_parse_and_set_column),
		cmocka_unit_test(test_values_and_messages),
		cmocka_unit_test(test_large_matrix_sizes_and_files),
		cmocka_unit_test(test_pool_large_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
