/*
 * fuzz_matrix: the matrix.json and stats.json reader (src/result/matrix.c)
 * on arbitrary text, each input read both ways.
 *
 * Properties beyond "no crash, leak or undefined behaviour", from
 * matrix.h: a matrix read is rectangular (every metric has ncols samples,
 * no more sources than columns) and what matrix_to_json (stats_to_json)
 * writes reads back to the same metrics, samples and integer flags; a
 * failed read leaves the matrix empty with an 'E' line in the log.
 */
#include "fuzz.h"
#include "result/matrix.h"

#include <math.h>
#include <string.h>

static void check_same(const struct matrix *a, const struct matrix *b, const char *json)
{
	/* without metrics or sources nothing is written to count columns by */
	FUZZ_CHECK(a->nr == b->nr && (a->ncols == b->ncols || (!a->nr && !a->nr_sources)),
		   "%d x %d read back as %d x %d:\n%s", a->nr, a->ncols, b->nr, b->ncols, json);
	for (int i = 0; i < a->nr; i++) {
		FUZZ_CHECK(!strcmp(a->m[i].name, b->m[i].name), "metric %d renamed:\n%s", i, json);
		for (int c = 0; c < a->ncols; c++) {
			double x = a->m[i].v[c], y = b->m[i].v[c];
			FUZZ_CHECK(x == y || (isnan(x) && isnan(y)),
				   "'%s'[%d]: %.17g read back as %.17g:\n%s", a->m[i].name, c, x, y, json);
			FUZZ_CHECK(a->m[i].is_int[c] == b->m[i].is_int[c],
				   "'%s'[%d]: integer flag changed:\n%s", a->m[i].name, c, json);
		}
	}
	FUZZ_CHECK(a->nr_sources == b->nr_sources, "stats_source changed:\n%s", json);
}

static void check_shape(const struct matrix *mx)
{
	FUZZ_CHECK(mx->ncols >= 0 && mx->nr >= 0, "negative shape");
	FUZZ_CHECK(mx->nr_sources <= mx->ncols || !mx->nr_sources, "%d sources for %d columns",
		   mx->nr_sources, mx->ncols);
	for (int i = 0; i < mx->nr; i++)
		FUZZ_CHECK(matrix_find(mx, mx->m[i].name) == i, "index of '%s' is wrong", mx->m[i].name);
}

static void one(const char *text, size_t len, bool flat)
{
	struct strbuf log = STRBUF_INIT, json = STRBUF_INIT, log2 = STRBUF_INIT;
	struct matrix mx, again;
	int ret;

	matrix_init(&mx);
	matrix_init(&again);
	ret = flat ? stats_parse_quiet(&mx, text, len, "<fuzz>", &log)
		   : matrix_parse_quiet(&mx, text, len, "<fuzz>", &log);
	if (ret < 0) {
		FUZZ_CHECK(mx.nr == 0 && mx.ncols == 0, "a failed read left a matrix");
		FUZZ_CHECK(memchr(log.buf, 'E', log.len) != NULL, "a failed read logged no error");
		goto out;
	}
	FUZZ_CHECK(ret == 0, "returned %d", ret);
	check_shape(&mx);
	if (flat) {
		FUZZ_CHECK(mx.ncols == 1, "a stats file of %d columns", mx.ncols);
		stats_to_json(&mx, &json);
		ret = stats_parse_quiet(&again, json.buf, json.len, "<again>", &log2);
	} else {
		matrix_to_json(&mx, &json);
		ret = matrix_parse_quiet(&again, json.buf, json.len, "<again>", &log2);
	}
	FUZZ_CHECK(ret == 0, "what was written does not read back (%s):\n%s", log2.buf + 1, json.buf);
	check_same(&mx, &again, json.buf);
	strbuf_reset(&json);
	matrix_avg_to_json(&mx, &json);
	matrix_stddev_to_json(&mx, &json);
	matrix_drop_empty(&mx);
	check_shape(&mx);
out:
	matrix_release(&mx);
	matrix_release(&again);
	strbuf_release(&log);
	strbuf_release(&log2);
	strbuf_release(&json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf text = STRBUF_INIT;

	fuzz_text(&text, data, size);
	one(text.buf, text.len, false);
	one(text.buf, text.len, true);
	return 0;
}
