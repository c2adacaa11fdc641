/*
 * matrix_write.c: a matrix rendered as lkp's files, matrix.json, avg.json
 * and stddev.json (and a run's stats.json), in the layout of Ruby's
 * JSON.pretty_generate (util/json_writer.h).  Apart from matrix.c, which
 * reads them and keeps a matrix: these only read its public fields.
 */
#include "result/matrix.h"
#include "stats/summary.h"
#include "util/fileio.h"
#include "util/json_writer.h"

/*
 * The files are rendered metric by metric into out; with af, out is handed
 * to af whenever it holds FLUSH_AT bytes, so that it stays small (see
 * atomic_file in fileio.h).
 */
#define FLUSH_AT 65536

static void flush_some(struct strbuf *out, struct atomic_file *af)
{
	if (af && out->len >= FLUSH_AT) {
		atomic_file_write(af, out->buf, out->len);
		strbuf_reset(out);
	}
}

static void render_matrix(const struct matrix *mx, struct strbuf *out, struct atomic_file *af)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	for (int i = 0; i < mx->nr; i++) {
		jw_key(&jw, mx->m[i].name);
		jw_array_begin(&jw);
		for (int c = 0; c < mx->ncols; c++)
			jw_number(&jw, mx->m[i].v[c], mx->m[i].is_int[c]);
		jw_array_end(&jw);
		flush_some(out, af);
	}
	if (mx->nr_sources) {
		jw_key(&jw, "stats_source");
		jw_array_begin(&jw);
		for (int c = 0; c < mx->nr_sources; c++) {
			if (mx->sources[c])
				jw_string(&jw, mx->sources[c]);
			else
				jw_null(&jw);
		}
		jw_array_end(&jw);
	}
	jw_object_end(&jw);
}

/* avg.json and stddev.json hold Ruby floats: v.average, v.standard_deviation. */
static void render_reduced(const struct matrix *mx, struct strbuf *out, struct atomic_file *af,
			   bool stddev)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	for (int i = 0; i < mx->nr; i++) {
		jw_key(&jw, mx->m[i].name);
		if (!mx->ncols)
			jw_number(&jw, 0, true);
		else
			jw_number(&jw, stddev ? stddev_pop(mx->m[i].v, mx->ncols)
					      : mean(mx->m[i].v, mx->ncols), false);
		flush_some(out, af);
	}
	jw_object_end(&jw);
}

void matrix_to_json(const struct matrix *mx, struct strbuf *out)
{
	render_matrix(mx, out, NULL);
}

void matrix_avg_to_json(const struct matrix *mx, struct strbuf *out)
{
	render_reduced(mx, out, NULL, false);
}

void matrix_stddev_to_json(const struct matrix *mx, struct strbuf *out)
{
	render_reduced(mx, out, NULL, true);
}

void matrix_write_file(const struct matrix *mx, enum matrix_file which, struct atomic_file *af)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_grow(&out, FLUSH_AT + 4096);
	if (which == MATRIX_FILE_MATRIX)
		render_matrix(mx, &out, af);
	else
		render_reduced(mx, &out, af, which == MATRIX_FILE_STDDEV);
	atomic_file_write(af, out.buf, out.len);
	strbuf_release(&out);
}

void stats_to_json(const struct matrix *stats, struct strbuf *out)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	for (int i = 0; i < stats->nr; i++) {
		jw_key(&jw, stats->m[i].name);
		jw_number(&jw, stats->m[i].v[0], stats->m[i].is_int[0]);
	}
	jw_object_end(&jw);
}
