/*
 * test_plot.c: the plot renderers (src/report/plot*.c).
 *
 * Tick choice and escaping are checked against values worked out by hand;
 * whole renderings against golden files in tests/data/plot/ (run from the
 * project root; PERFBOT_UPDATE_GOLDEN=1 rewrites them, to be reviewed
 * before committing).  The seed-001 plot is also compared with the plot in
 * the lkp email it imitates, when ../shared/seeds is there.
 */
#include "test_helpers.h"

#include <locale.h>
#include <math.h>

#include "report/plot.h"
#include "util/xalloc.h"

#define GOLDEN_DIR "tests/data/plot"
#define SEED_EMAIL "../shared/seeds/001_71bb222cf052bba6.txt"

/* Compare got with GOLDEN_DIR/name, or rewrite it when asked to. */
static void check_golden(const char *name, const struct strbuf *got)
{
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT;
	const char *update = getenv("PERFBOT_UPDATE_GOLDEN");

	strbuf_addf(&path, "%s/%s", GOLDEN_DIR, name);
	if (update && *update && strcmp(update, "0")) {
		assert_int_equal(mkdir_p(GOLDEN_DIR, 0777), 0);
		assert_int_equal(write_file_atomic(path.buf, got->buf, got->len), 0);
		print_message("updated %s\n", path.buf);
	} else {
		assert_int_equal(read_file(&want, path.buf), 0);
		if (want.len != got->len || memcmp(want.buf, got->buf, got->len)) {
			print_message("%s differs; got:\n%s", path.buf, got->buf);
			fail_msg("%s: rendering differs from the golden file", name);
		}
	}
	strbuf_release(&path);
	strbuf_release(&want);
}

/*
 * The samples behind lkp's bisect email in seed 001 (vm-scalability
 * throughput, v3.12 regression), read back from its plot: 20 good runs
 * (v3.11 near 1.49e7, then the parent commit near 1.32e7) and 10 bad ones
 * near 8.38e6.  Values within the character cells the email shows.
 */
static const double seed_good[] = {
	14934707, 14901000, 14952000, 14880000, 14921000,
	13222395, 13180000, 13205000, 13150000, 13240000, 13190000,
	13400000, 13210000, 13170000, 13200000, 13120000,
	14050000, 12600000, 13500000, 13050000,
};
static const double seed_bad[] = {
	8380368, 8410000, 8350000, 8400000, 8200000,
	8390000, 8370000, 8420000, 8360000, 8380000,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void seed_plot(struct plot *p)
{
	struct plot_series *bad, *good;
	size_t i;

	plot_init(p, "vm-scalability.throughput");
	/* lkp plots the bad samples first, as points only */
	bad = plot_add_series(p, "9b17c62382dd2e75", PLOT_BAD, false);
	good = plot_add_series(p, "1d3d4437eae1bb2", PLOT_GOOD, true);
	for (i = 0; i < ARRAY_SIZE(seed_bad); i++)
		plot_series_add(bad, (double)(i + 1), seed_bad[i]);
	for (i = 0; i < ARRAY_SIZE(seed_good); i++)
		plot_series_add(good, (double)(i + 1), seed_good[i]);
}

/* All tick labels of ax, space separated. */
static void tick_labels(const struct plot_axis *ax, struct strbuf *sb)
{
	long long k;

	for (k = ax->kmin; k <= ax->kmax; k++) {
		if (k > ax->kmin)
			strbuf_addch(sb, ' ');
		plot_axis_label(ax, sb, plot_axis_tick(ax, k));
	}
}

static void assert_ticks(double lo, double hi, const char *want)
{
	struct plot_axis ax;
	struct strbuf sb = STRBUF_INIT;

	plot_axis_ticks(&ax, lo, hi);
	tick_labels(&ax, &sb);
	if (strcmp(sb.buf, want))
		fail_msg("ticks of [%g, %g]: got \"%s\", want \"%s\"",
			 lo, hi, sb.buf, want);
	/* ends within rounding of a tick count as on it */
	assert_true(ax.min <= fmin(lo, hi) + ax.step * 1e-9);
	assert_true(ax.max >= fmax(lo, hi) - ax.step * 1e-9);
	strbuf_release(&sb);
}

static void test_ticks_seed_range(void **state)
{
	struct plot_axis ax;

	assert_ticks(8e6, 1.5e7, "8e+06 9e+06 1e+07 1.1e+07 1.2e+07 1.3e+07"
		     " 1.4e+07 1.5e+07");
	/* the seed's data range extends to the same ticks */
	assert_ticks(8200000, 14952000, "8e+06 9e+06 1e+07 1.1e+07 1.2e+07"
		     " 1.3e+07 1.4e+07 1.5e+07");
	plot_axis_ticks(&ax, 8200000, 14952000);
	assert_true(ax.step == 1e6);
	assert_true(ax.min == 8e6 && ax.max == 1.5e7);
	assert_int_equal(ax.prec, 6);
}

static void test_ticks_unit_range(void **state)
{
	assert_ticks(0, 1, "0 0.2 0.4 0.6 0.8 1");
	assert_ticks(0, 0.5, "0 0.1 0.2 0.3 0.4 0.5");
	assert_ticks(0, 3, "0 0.5 1 1.5 2 2.5 3");
	/* exact powers of ten, where log10 may round either way */
	assert_ticks(0, 1000, "0 200 400 600 800 1000");
	assert_ticks(0, 0.001, "0 0.0002 0.0004 0.0006 0.0008 0.001");
	/* a data end close to a tick but for rounding does not add a tick */
	assert_ticks(0.1, 0.3, "0.1 0.15 0.2 0.25 0.3");
	assert_ticks(0.7, 6.1, "0 1 2 3 4 5 6 7");
}

static void test_ticks_negative(void **state)
{
	assert_ticks(-15, -3, "-16 -14 -12 -10 -8 -6 -4 -2");
	assert_ticks(-0.3, 0.7, "-0.4 -0.2 0 0.2 0.4 0.6 0.8");
	assert_ticks(-1.5e7, -8e6, "-1.5e+07 -1.4e+07 -1.3e+07 -1.2e+07"
		     " -1.1e+07 -1e+07 -9e+06 -8e+06");
	/* reversed arguments are the same range */
	assert_ticks(-3, -15, "-16 -14 -12 -10 -8 -6 -4 -2");
}

static void test_ticks_single_value(void **state)
{
	struct plot_axis ax;
	long long k;
	bool found = false;

	/* zero widens to [-1, 1] */
	assert_ticks(0, 0, "-1 -0.5 0 0.5 1");
	/* others by 1% each way: 5 is inside, a tick, and mid-range */
	plot_axis_ticks(&ax, 5, 5);
	assert_true(ax.min < 5 && ax.max > 5);
	assert_true(ax.max - ax.min < 0.2);
	assert_true(fabs((ax.min + ax.max) / 2 - 5) < 1e-9);
	for (k = ax.kmin; k <= ax.kmax; k++)
		found |= fabs(plot_axis_tick(&ax, k) - 5) < 1e-12;
	assert_true(found);
	plot_axis_ticks(&ax, -2e9, -2e9);
	assert_true(ax.min < -2e9 && ax.max > -2e9 && ax.max - ax.min <= 4.1e7);
	/* a difference too small to show counts as none */
	plot_axis_ticks(&ax, 1e15, 1e15 + 0.125);
	assert_true(ax.max - ax.min > 1e12);
}

/* Every range gets a 1, 2 or 5 x 10^k step and 4 to 12 intervals. */
static void test_ticks_steps_property(void **state)
{
	static const double lows[] = { 0, -7.3, 3e-5, 123456, -9e11, 0.999 };
	static const double spans[] = { 1e-6, 0.013, 0.7, 1, 2.5, 9.99, 47, 1e3, 3.3e8 };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(lows); i++) {
		for (j = 0; j < ARRAY_SIZE(spans); j++) {
			struct plot_axis ax;
			double lo = lows[i], hi = lows[i] + spans[j];
			double mant;
			long long n;

			plot_axis_ticks(&ax, lo, hi);
			mant = ax.step / pow(10, floor(log10(ax.step) + 1e-9));
			assert_true(fabs(mant - 1) < 1e-9 || fabs(mant - 2) < 1e-9 ||
				    fabs(mant - 5) < 1e-9);
			n = ax.kmax - ax.kmin;
			if (n < 4 || n > 12)
				fail_msg("[%g, %g]: %lld intervals", lo, hi, n);
			assert_true(ax.min <= lo + ax.step * 1e-9);
			assert_true(ax.max >= hi - ax.step * 1e-9);
			/* less than a step of slack, unless an empty range was widened */
			if (hi - lo > fmax(fabs(lo), fabs(hi)) * 1e-10)
				assert_true(ax.min > lo - ax.step &&
					    ax.max < hi + ax.step);
		}
	}
}

/* %g's 6 digits cannot tell these ticks apart: precision grows. */
static void test_ticks_precision(void **state)
{
	struct plot_axis ax;
	struct strbuf sb = STRBUF_INIT;

	plot_axis_ticks(&ax, 1e9, 1e9 + 1000);
	assert_true(ax.prec > 6);
	tick_labels(&ax, &sb);
	assert_int_equal(ax.prec, 8);
	assert_string_equal(sb.buf, "1e+09 1.0000002e+09 1.0000004e+09"
			    " 1.0000006e+09 1.0000008e+09 1.000001e+09");
	strbuf_release(&sb);
}

static void test_tick_stride(void **state)
{
	assert_int_equal(plot_tick_stride(2, 1), 1);
	assert_int_equal(plot_tick_stride(1, 1), 1);
	assert_int_equal(plot_tick_stride(0.5, 1), 2);
	assert_int_equal(plot_tick_stride(0.4, 1), 3);
	assert_int_equal(plot_tick_stride(3, 12), 4);
	assert_int_equal(plot_tick_stride(0, 12), 1);
	assert_true(plot_tick_shown(0, 3));
	assert_true(plot_tick_shown(-4, 2));
	assert_false(plot_tick_shown(-3, 2));
	assert_false(plot_tick_shown(5, 3));
	assert_true(plot_tick_shown(7, 1));
}

static void test_add_number(void **state)
{
	static const char *const comma_locales[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", NULL,
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	plot_add_number(&sb, 'g', 6, 1.5e7);
	strbuf_addch(&sb, ' ');
	plot_add_number(&sb, 'f', 1, -12.25);
	strbuf_addch(&sb, ' ');
	plot_add_number(&sb, 'g', 6, INFINITY);
	assert_string_equal(sb.buf, "1.5e+07 -12.2 inf");

	/* a comma locale must not leak into the output */
	for (i = 0; comma_locales[i]; i++)
		if (setlocale(LC_NUMERIC, comma_locales[i]))
			break;
	if (comma_locales[i]) {
		strbuf_reset(&sb);
		plot_add_number(&sb, 'g', 6, 0.25);
		setlocale(LC_NUMERIC, "C");
		assert_string_equal(sb.buf, "0.25");
	} else {
		print_message("no comma-radix locale installed: C locale only\n");
	}
	strbuf_release(&sb);
}

static void test_xml_escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	plot_xml_escape(&sb, "a<b & \"c\" 'd'> e");
	assert_string_equal(sb.buf, "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt; e");
	strbuf_reset(&sb);
	/* tab and newline stay; other controls are not XML characters */
	plot_xml_escape(&sb, "x\ty\nz\x01\x1f.");
	assert_string_equal(sb.buf, "x\ty\nz??.");
	strbuf_reset(&sb);
	/* valid UTF-8 passes; bad bytes, overlongs, surrogates do not */
	plot_xml_escape(&sb, "\xc2\xb5s \xe2\x80\x94 \xf0\x9f\x98\x80");
	assert_string_equal(sb.buf, "\xc2\xb5s \xe2\x80\x94 \xf0\x9f\x98\x80");
	strbuf_reset(&sb);
	plot_xml_escape(&sb, "\xff|\xc0\x80|\xed\xa0\x80|\xef\xbf\xbe|\xe2\x80");
	assert_string_equal(sb.buf, "?|??|???|???|??");
	strbuf_release(&sb);
}

static void test_model_ownership(void **state)
{
	struct plot p;
	struct plot_series *first, *s;
	char name[16];
	double xlo, xhi, ylo, yhi;
	int i;

	plot_init(&p, "t");
	strcpy(name, "alpha");
	first = plot_add_series(&p, name, PLOT_GOOD, true);
	strcpy(name, "beta");
	/* many series: the first pointer must survive the array growing */
	for (i = 0; i < 40; i++)
		plot_add_series(&p, name, PLOT_NEUTRAL, false);
	assert_string_equal(first->name, "alpha");
	assert_ptr_equal(p.series[0], first);
	plot_series_add(first, 1, 2);
	plot_series_add(first, NAN, 100);
	plot_series_add(first, 3, INFINITY);
	plot_series_add(first, 2, 1e301);
	plot_add_mark(&p, 7, name);
	plot_add_band(&p, 4, 4, 10, 3, PLOT_GOOD);
	plot_set_ylabel(&p, "ops/s");
	plot_set_ylabel(&p, NULL);
	assert_null(p.ylabel);

	/* not-drawable values ignored; marks extend x; bands only on request */
	assert_true(plot_data_range(&p, false, &xlo, &xhi, &ylo, &yhi));
	assert_true(xlo == 1 && xhi == 7 && ylo == 2 && yhi == 2);
	assert_true(plot_data_range(&p, true, &xlo, &xhi, &ylo, &yhi));
	assert_true(xlo == 1 && xhi == 7 && ylo == 2 && yhi == 13);
	s = p.series[1];
	assert_int_equal(s->nr, 0);

	plot_release(&p);
	assert_null(p.title);
	assert_int_equal(p.nr_series, 0);
	assert_int_equal(p.text_width, PLOT_TEXT_WIDTH);
	xlo = 42;
	assert_false(plot_data_range(&p, true, &xlo, &xhi, &ylo, &yhi));
	assert_true(xlo == 42);
}

static void test_ascii_seed(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;

	seed_plot(&p);
	plot_ascii(&p, &sb);
	check_golden("seed001.txt", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

/*
 * The plot in the email itself: the lines from the blank one after "each
 * point below represents a sample run:" to the one before "Attached".
 */
static void test_ascii_matches_email(void **state)
{
	struct plot p;
	struct strbuf email = STRBUF_INIT, got = STRBUF_INIT;
	const char *start, *end;

	if (!file_exists(SEED_EMAIL)) {
		print_message("skipped: %s not found\n", SEED_EMAIL);
		skip();
	}
	assert_int_equal(read_file(&email, SEED_EMAIL), 0);
	start = strstr(email.buf, "represents a sample run:\n");
	end = strstr(email.buf, "\nAttached");
	assert_non_null(start);
	assert_non_null(end);
	start = strchr(start, '\n') + 1;
	end += 1;
	seed_plot(&p);
	plot_ascii(&p, &got);
	if (got.len != (size_t)(end - start) || memcmp(got.buf, start, got.len))
		fail_msg("plot differs from the email's:\n%.*s\ngot:\n%s",
			 (int)(end - start), start, got.buf);
	plot_release(&p);
	strbuf_release(&email);
	strbuf_release(&got);
}

/* Every line fits the width; exactly height lines; no trailing blanks. */
static void assert_text_shape(const struct strbuf *sb, int width, int height)
{
	const char *s = sb->buf;
	int lines = 0;

	while (*s) {
		const char *nl = strchr(s, '\n');

		assert_non_null(nl);
		assert_true(nl - s <= width);
		assert_true(nl == s || nl[-1] != ' ');
		lines++;
		s = nl + 1;
	}
	assert_int_equal(lines, height);
}

static void test_ascii_equal_values(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;
	struct plot_series *s;
	int i;

	plot_init(&p, "all samples equal");
	s = plot_add_series(&p, NULL, PLOT_GOOD, true);
	for (i = 1; i <= 6; i++)
		plot_series_add(s, i, 4096);
	plot_ascii(&p, &sb);
	assert_text_shape(&sb, 80, 20);
	check_golden("equal.txt", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

/* No data at all still gives a frame, on [-1, 1]. */
static void test_ascii_empty(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;

	plot_init(&p, NULL);
	plot_add_series(&p, "none", PLOT_BAD, true);
	plot_ascii(&p, &sb);
	assert_text_shape(&sb, 80, 20);
	check_golden("empty.txt", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

/*
 * Marks with labels, a y label, a neutral series whose NaN breaks its
 * line, steep, flat and diagonal segments, non-ASCII text, 60x16.
 */
static void test_ascii_features(void **state)
{
	static const double ys[] = { 0.1, 0.9, 0.85, NAN, 0.2, 0.5, 0.8, 0.35 };
	struct plot p;
	struct strbuf sb = STRBUF_INIT;
	struct plot_series *a, *b;
	size_t i;

	plot_init(&p, "latency \xc2\xb5s\t(p99)");
	p.text_width = 60;
	p.text_height = 16;
	plot_set_ylabel(&p, "ms");
	a = plot_add_series(&p, "a", PLOT_NEUTRAL, true);
	for (i = 0; i < ARRAY_SIZE(ys); i++)
		plot_series_add(a, (double)i, ys[i]);
	b = plot_add_series(&p, "b", PLOT_BAD, true);
	plot_series_add(b, 0, 0.6);
	plot_series_add(b, 2, 0.4);
	plot_series_add(b, 7, 0.4);
	plot_add_mark(&p, 2.5, "v6.1-rc1");
	plot_add_mark(&p, 3.5, "abcdef0123456789");
	plot_add_mark(&p, 5.5, NULL);
	plot_add_band(&p, 0, 7, 100, 1, PLOT_GOOD);    /* not drawn in text */
	plot_ascii(&p, &sb);
	assert_text_shape(&sb, 60, 16);
	check_golden("features.txt", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

/* Sizes too small for a box are raised to the minimum. */
static void test_ascii_tiny(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;
	struct plot_series *s;

	plot_init(&p, "a title much wider than the canvas allows");
	p.text_width = 3;
	p.text_height = 1;
	s = plot_add_series(&p, NULL, PLOT_GOOD, true);
	plot_series_add(s, 0, 0);
	plot_series_add(s, 1, 1);
	plot_ascii(&p, &sb);
	/* labels "0", "0.2".. are up to 3 wide: box from column 7, canvas
	 * 17 x 8; 5 tick intervals over 2 rows: only 0 and 0.6 are drawn */
	assert_text_shape(&sb, 17, 8);
	check_golden("tiny.txt", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

/*
 * Enough of XML to check what plot_svg writes: elements nest and close,
 * attribute values are quoted, text and values hold no raw '<' or bare
 * '&'.  xmllint was used on the goldens as well (see the report).
 */
static void assert_well_formed(const char *s)
{
	const char *stack[64];
	size_t stack_len[64];
	int depth = 0, roots = 0;

	while (*s) {
		if (*s == '&') {
			const char *semi = strchr(s, ';');

			assert_non_null(semi);
			assert_true(semi - s <= 8);
			s = semi + 1;
		} else if (*s != '<') {
			s++;
		} else if (s[1] == '/') {
			size_t n = strcspn(s + 2, ">");

			assert_true(depth > 0);
			depth--;
			assert_int_equal(n, stack_len[depth]);
			assert_memory_equal(s + 2, stack[depth], n);
			s += 2 + n + 1;
		} else {
			const char *name = s + 1;
			size_t n = strcspn(name, " />");
			const char *p = name + n;

			while (*p != '>' && *p != '/') {
				assert_true(*p == ' ' || *p == '\n');
				p++;
				if (*p == '>' || *p == '/')
					break;
				p += strcspn(p, "=");
				assert_int_equal(p[1], '"');
				p = strchr(p + 2, '"');
				assert_non_null(p);
				assert_null(memchr(name, '<', (size_t)(p - name)));
				p++;
			}
			if (depth == 0)
				roots++;
			if (*p == '/') {
				assert_int_equal(p[1], '>');
				s = p + 2;
			} else {
				assert_true(depth < 64);
				stack[depth] = name;
				stack_len[depth++] = n;
				s = p + 1;
			}
		}
	}
	assert_int_equal(depth, 0);
	assert_int_equal(roots, 1);
}

static void test_svg_seed(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;

	seed_plot(&p);
	plot_svg(&p, &sb);
	assert_well_formed(sb.buf);
	/* tooltips carry the exact values */
	assert_non_null(strstr(sb.buf, "<title>1d3d4437eae1bb2: 13222395</title>"));
	assert_non_null(strstr(sb.buf, "<title>9b17c62382dd2e75: 8380368</title>"));
	assert_non_null(strstr(sb.buf, ">1.5e+07</text>"));
	check_golden("seed001.svg", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

/* Bands, marks, a y label and text that needs escaping. */
static void test_svg_bands(void **state)
{
	static const double base[] = { 100.5, 101.2, 99.8, 100.1 };
	static const double head[] = { 91.0, 90.2, NAN, 92.4, 91.7 };
	struct plot p;
	struct strbuf sb = STRBUF_INIT;
	struct plot_series *a, *b;
	size_t i;

	plot_init(&p, "hackbench <pipe> & \"threads\"");
	plot_set_ylabel(&p, "ops/s");
	a = plot_add_series(&p, "base <v6.1>", PLOT_GOOD, false);
	for (i = 0; i < ARRAY_SIZE(base); i++)
		plot_series_add(a, (double)(i + 1), base[i]);
	b = plot_add_series(&p, "head & co", PLOT_BAD, true);
	for (i = 0; i < ARRAY_SIZE(head); i++)
		plot_series_add(b, (double)(i + 5), head[i]);
	plot_add_series(&p, NULL, PLOT_NEUTRAL, false);
	plot_add_band(&p, 1, 4, 100.4, 0.6, PLOT_GOOD);
	plot_add_band(&p, 5, 9, 91.325, 0.9, PLOT_BAD);
	plot_add_band(&p, 10, 10, 95, NAN, PLOT_NEUTRAL);
	plot_add_mark(&p, 0.5, "v6.1");
	plot_add_mark(&p, 4.5, "abc'def");
	plot_svg(&p, &sb);
	assert_well_formed(sb.buf);
	assert_non_null(strstr(sb.buf, "<title>hackbench &lt;pipe&gt; &amp; &quot;threads&quot;</title>"));
	assert_non_null(strstr(sb.buf, ">abc&#39;def</text>"));
	assert_null(strstr(sb.buf, "<pipe>"));
	/* the NaN splits the bad series' line in two */
	assert_non_null(strstr(strstr(sb.buf, "<polyline") + 1, "<polyline"));
	check_golden("bands.svg", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

/* Mark labels closer than their width are thinned: none overlaps. */
static void test_svg_mark_labels(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;
	struct plot_series *a;

	plot_init(&p, NULL);
	a = plot_add_series(&p, NULL, PLOT_GOOD, false);
	for (int i = 1; i <= 200; i++)
		plot_series_add(a, i, i % 7);
	/* one sample apart: 4.5px, a 7-character label is about 42px */
	plot_add_mark(&p, 0.5, "aaaaaaa");
	plot_add_mark(&p, 1.5, "bbbbbbb");
	plot_add_mark(&p, 2.5, "ccccccc");
	plot_add_mark(&p, 100.5, "ddddddd");
	plot_add_mark(&p, 199.5, "eeeeeee");
	plot_svg(&p, &sb);
	assert_well_formed(sb.buf);
	assert_non_null(strstr(sb.buf, ">aaaaaaa</text>"));
	assert_null(strstr(sb.buf, ">bbbbbbb</text>"));
	assert_null(strstr(sb.buf, ">ccccccc</text>"));
	assert_non_null(strstr(sb.buf, ">ddddddd</text>"));
	assert_non_null(strstr(sb.buf, ">eeeeeee</text>"));
	plot_release(&p);
	strbuf_release(&sb);
}

static void test_svg_empty(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;

	plot_init(&p, NULL);
	p.svg_width = 10;
	p.svg_height = 10;
	plot_svg(&p, &sb);
	assert_well_formed(sb.buf);
	/* raised to a usable size; the [-1, 1] axis */
	assert_null(strstr(sb.buf, "viewBox=\"0 0 10 10\""));
	assert_non_null(strstr(sb.buf, ">-0.5</text>"));
	check_golden("empty.svg", &sb);
	plot_release(&p);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks_seed_range),
		cmocka_unit_test(test_ticks_unit_range),
		cmocka_unit_test(test_ticks_negative),
		cmocka_unit_test(test_ticks_single_value),
		cmocka_unit_test(test_ticks_steps_property),
		cmocka_unit_test(test_ticks_precision),
		cmocka_unit_test(test_tick_stride),
		cmocka_unit_test(test_add_number),
		cmocka_unit_test(test_xml_escape),
		cmocka_unit_test(test_model_ownership),
		cmocka_unit_test(test_ascii_seed),
		cmocka_unit_test(test_ascii_matches_email),
		cmocka_unit_test(test_ascii_equal_values),
		cmocka_unit_test(test_ascii_empty),
		cmocka_unit_test(test_ascii_features),
		cmocka_unit_test(test_ascii_tiny),
		cmocka_unit_test(test_svg_seed),
		cmocka_unit_test(test_svg_bands),
		cmocka_unit_test(test_svg_mark_labels),
		cmocka_unit_test(test_svg_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
