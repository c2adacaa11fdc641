/* Unit tests of src/util: strbuf, numfmt (Ruby number printing), JSON
 * writer layout, strmap, atomic writes. */
#include "test_helpers.h"
#include "util/error.h"
#include "util/json_writer.h"
#include "util/bigint.h"
#include "util/exedir.h"
#include "util/numfmt.h"
#include "util/rng.h"
#include "util/pathsafe.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#include <math.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void test_strbuf_basics(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, 'd');
	strbuf_addf(&sb, "%d-%s", 42, "x");
	assert_string_equal(sb.buf, "abcd42-x");
	strbuf_addchars(&sb, ' ', 3);
	strbuf_rtrim(&sb);
	assert_int_equal(sb.len, 8);
	/* growth past the first allocation keeps the content */
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	assert_int_equal(sb.len, 8 + 4000);
	assert_memory_equal(sb.buf + sb.len - 4, "0999", 4);
	size_t len;
	char *s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 4008);
	assert_string_equal(sb.buf, "");
	free(s);
	strbuf_release(&sb);
}

static void check_ruby(double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	fmt_ruby_float(&sb, v);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_ruby_float(void **state)
{
	(void)state;
	check_ruby(2.0, "2.0");
	check_ruby(0.1, "0.1");
	check_ruby(1.0689341818607867, "1.0689341818607867");
	check_ruby(3919563540.1258235, "3919563540.1258235");
	check_ruby(1e15, "1000000000000000.0");
	check_ruby(1e16, "1.0e+16");
	check_ruby(1.5e20, "1.5e+20");
	check_ruby(0.0001, "0.0001");
	check_ruby(0.00001, "1.0e-05");
	check_ruby(-2.5, "-2.5");
	check_ruby(0.0, "0.0");
	check_ruby(NAN, "NaN");
	check_ruby(INFINITY, "Infinity");
	check_ruby(-INFINITY, "-Infinity");
	check_ruby(123456789.125, "123456789.125");
	/* subnormals hold fewer than 15 significant digits */
	check_ruby(1.2937423410253e-310, "1.2937423410253e-310");
	check_ruby(5e-324, "5.0e-324");
}

static void test_fmt_number_and_parse(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	double v;
	bool is_int;
	(void)state;
	fmt_number(&sb, 42, true);
	strbuf_addch(&sb, ' ');
	fmt_number(&sb, 42, false);
	assert_string_equal(sb.buf, "42 42.0");
	strbuf_release(&sb);
	assert_int_equal(parse_number("12", &v, &is_int), 0);
	assert_true(is_int);
	assert_true(v == 12);
	assert_int_equal(parse_number(" 1.5e3 ", &v, &is_int), 0);
	assert_false(is_int);
	assert_true(v == 1500);
	assert_int_equal(parse_number("12abc", &v, &is_int), -1);
	assert_int_equal(parse_number("", &v, &is_int), -1);
}

static void test_json_writer_layout(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	(void)state;
	jw_init(&jw, &sb);
	jw_object_begin(&jw);
	jw_key(&jw, "a.b");
	jw_array_begin(&jw);
	jw_number(&jw, 1, true);
	jw_number(&jw, 2.5, false);
	jw_array_end(&jw);
	jw_key(&jw, "empty");
	jw_array_begin(&jw);
	jw_array_end(&jw);
	jw_key(&jw, "s");
	jw_string(&jw, "q\"\\\n");
	jw_object_end(&jw);
	/* Ruby's JSON.pretty_generate layout */
	assert_string_equal(sb.buf,
		"{\n"
		"  \"a.b\": [\n"
		"    1,\n"
		"    2.5\n"
		"  ],\n"
		"  \"empty\": [],\n"
		"  \"s\": \"q\\\"\\\\\\n\"\n"
		"}\n");
	/* control characters as \\u escapes, the rest copied in runs */
	strbuf_reset(&sb);
	json_quote(&sb, "a\x01" "b\tc\"d");
	assert_string_equal(sb.buf, "\"a\\u0001b\\tc\\\"d\"");
	strbuf_release(&sb);
}

static void test_strmap(void **state)
{
	struct strmap m;
	char keys[3000][16];
	(void)state;
	strmap_init(&m);
	assert_int_equal(strmap_get(&m, "x"), -1);
	for (int i = 0; i < 3000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%d", i);
		strmap_put(&m, keys[i], i);
	}
	for (int i = 0; i < 3000; i++)
		assert_int_equal(strmap_get(&m, keys[i]), i);
	assert_int_equal(strmap_get(&m, "k3000"), -1);
	strmap_put(&m, keys[5], 77);
	assert_int_equal(strmap_get(&m, "k5"), 77);
	assert_int_equal((int)m.nr, 3000);
	/* a reserve keeps what is there and never shrinks */
	strmap_reserve(&m, 10);
	assert_int_equal((int)m.cap, 4096);
	strmap_reserve(&m, 5000);
	assert_int_equal((int)m.cap, 8192);
	for (int i = 0; i < 3000; i++)
		assert_int_equal(strmap_get(&m, keys[i]), i == 5 ? 77 : i);
	strmap_release(&m);

	/* reserved for n: the smallest power of two at most 3/4 full with
	 * n + 1; puts grow it only past 3/4 (192 of 256 keys) */
	strmap_init(&m);
	strmap_reserve(&m, 100);
	assert_int_equal((int)m.cap, 256);
	for (int i = 0; i < 192; i++)
		strmap_put(&m, keys[i], i);
	assert_int_equal((int)m.cap, 256);
	strmap_put(&m, keys[192], 192);
	assert_int_equal((int)m.cap, 512);
	for (int i = 0; i < 193; i++)
		assert_int_equal(strmap_get(&m, keys[i]), i);
	strmap_release(&m);
	strmap_init(&m);
	strmap_reserve(&m, 191);        /* 4 * 192 = 3 * 256: fits */
	assert_int_equal((int)m.cap, 256);
	strmap_reserve(&m, 192);
	assert_int_equal((int)m.cap, 512);
	strmap_release(&m);

	/* names as long as metrics', hashed eight bytes at a time: keys that
	 * differ only in one byte of a word, or only in length at a word's
	 * end, stay apart */
	static const char *const near[] = {
		"abcdefg", "abcdefgh", "abcdefghi", "abcdefgh\x01", "bbcdefgh",
		"abcdefghabcdefgh", "abcdefghabcdefgi", "abcdefghabcdefg",
	};
	char longk[3000][40];
	strmap_init(&m);
	for (int i = 0; i < 3000; i++) {
		snprintf(longk[i], sizeof(longk[i]), "proc-vmstat.node%d.metric_%d", i % 7, i);
		strmap_put(&m, longk[i], i);
	}
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++)
		strmap_put(&m, near[i], 5000 + (int)i);
	for (int i = 0; i < 3000; i++)
		assert_int_equal(strmap_get(&m, longk[i]), i);
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++)
		assert_int_equal(strmap_get(&m, near[i]), 5000 + (int)i);
	assert_int_equal((int)m.nr, 3008);
	strmap_release(&m);
}

static void test_write_file_atomic(void **state)
{
	char *dir = test_tmpdir("util");
	struct strbuf path = STRBUF_INIT, back = STRBUF_INIT;
	(void)state;
	path_join(&path, dir, "f.json");
	assert_int_equal(write_file_atomic(path.buf, "one", 3), 0);
	assert_int_equal(write_file_atomic(path.buf, "two!", 4), 0);
	assert_int_equal(read_file(&back, path.buf), 0);
	assert_string_equal(back.buf, "two!");
	/* no temp file left behind */
	struct strbuf ls = STRBUF_INIT;
	strbuf_addf(&ls, "test $(ls -A %s | wc -l) -eq 1", dir);
	assert_int_equal(system(ls.buf), 0);
	/* an unwritable target fails cleanly */
	assert_int_equal(write_file_atomic("/nonexistent-dir/x", "a", 1), -1);
	assert_int_equal(read_file(&back, "/nonexistent-dir/x"), -1);
	/* mkdir_p makes nested dirs, and is idempotent */
	strbuf_reset(&ls);
	strbuf_addf(&ls, "%s/a/b/c", dir);
	assert_int_equal(mkdir_p(ls.buf, 0755), 0);
	assert_int_equal(mkdir_p(ls.buf, 0755), 0);
	assert_true(is_dir(ls.buf));
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&ls);
	strbuf_release(&path);
	strbuf_release(&back);
}

static void test_rng_streams(void **state)
{
	struct rng a, b, c;
	double sum = 0, sq = 0;
	int n = 200000, below[7] = { 0 };
	(void)state;

	rng_seed(&a, 42);
	rng_seed(&b, 42);
	rng_seed(&c, 43);
	for (int i = 0; i < 100; i++) {
		uint64_t x = rng_next(&a);

		assert_true(x == rng_next(&b));
		assert_true(x != rng_next(&c));
	}
	/* seed 0 works too (splitmix64 fills the state) */
	rng_seed(&a, 0);
	assert_true(rng_next(&a) != 0 || rng_next(&a) != 0);
	/* derived seeds: a function of all three inputs, order included */
	assert_true(rng_derive(1, 2, 3) == rng_derive(1, 2, 3));
	assert_true(rng_derive(1, 2, 3) != rng_derive(1, 3, 2));
	assert_true(rng_derive(1, 2, 3) != rng_derive(2, 2, 3));
	assert_true(rng_derive(1, 2, 3) != rng_derive(1, 2, 4));

	for (int i = 0; i < n; i++) {
		double u = rng_uniform(&a), z = rng_normal(&a);
		uint64_t k = rng_below(&a, 7);

		assert_true(u >= 0 && u < 1);
		assert_true(k < 7);
		below[k]++;
		sum += z;
		sq += z * z;
	}
	assert_true(fabs(sum / n) < 0.01);
	assert_true(fabs(sq / n - 1) < 0.02);
	for (int k = 0; k < 7; k++)
		assert_true(abs(below[k] - n / 7) < n / 70);
}

/* The boundaries of one safe path component (util/pathsafe.h). */
static void test_path_component(void **state)
{
	static const char *const ok[] = { "a", "abc123", "...", ".a", "a..b", "-x",
		"6.1.0-rc1", "x86_64-rhel-8.3", "gcc-12", "v6.1 with space" };
	static const struct { const char *name, *why; } bad[] = {
		{ "", "it is empty" },
		{ ".", "it is '.' or '..'" },
		{ "..", "it is '.' or '..'" },
		{ "a/b", "it contains '/'" },
		{ "/", "it contains '/'" },
		{ "../x", "it contains '/'" },
		{ "a/", "it contains '/'" },
		{ "a\nb", "it contains a control character" },
		{ "a\x7f", "it contains a control character" },
		{ "\x1f", "it contains a control character" },
	};
	char name[300];
	struct stderr_capture cap;
	struct strbuf msg = STRBUF_INIT;
	(void)state;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_null(path_component_problem(ok[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = path_component_problem(bad[i].name);
		assert_non_null(why);
		assert_string_equal(why, bad[i].why);
	}
	assert_non_null(path_component_problem(NULL));
	/* NAME_MAX: 255 bytes pass, 256 do not */
	memset(name, 'x', 255);
	name[255] = '\0';
	assert_null(path_component_problem(name));
	name[255] = 'x';
	name[256] = '\0';
	assert_string_equal(path_component_problem(name), "it is longer than 255 bytes");

	assert_int_equal(check_path_component("abc", "--commit"), 0);
	capture_start(&cap);
	assert_int_equal(check_path_component("a\nb/..", "x.yaml:3:9: 'commit'"), -1);
	capture_end_sb(&cap, &msg);
	assert_string_equal(msg.buf, "perfbot: x.yaml:3:9: 'commit' expected one path component "
			    "(not empty, not '.' or '..', no '/' or control character, at most "
			    "255 bytes), got 'a?b/..': it contains a control character\n");
	strbuf_release(&msg);
}

/* ---- the edges of src/util (tests/mutants.txt shifts each) ---- */

static void test_strbuf_edges(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, " \t\n ");
	strbuf_rtrim(&sb);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	strbuf_rtrim(&sb);                      /* and on an empty one */
	assert_int_equal(sb.len, 0);
	/* strbuf_addu as "%*llu" */
	strbuf_addu(&sb, 42, 5);
	strbuf_addch(&sb, '|');
	strbuf_addu(&sb, 42, 3);
	strbuf_addch(&sb, '|');
	strbuf_addu(&sb, 42, 2);
	strbuf_addch(&sb, '|');
	strbuf_addu(&sb, 12345, 5);
	strbuf_addch(&sb, '|');
	strbuf_addu(&sb, 123456, 5);
	strbuf_addch(&sb, '|');
	strbuf_addu(&sb, 0, 0);
	strbuf_addch(&sb, '|');
	strbuf_addu(&sb, 18446744073709551615ULL, 1);
	assert_string_equal(sb.buf, "   42| 42|42|12345|123456|0|18446744073709551615");
	/* an empty payload may be NULL (UBSan checks memcpy's arguments) */
	strbuf_add(&sb, NULL, 0);
	assert_int_equal(sb.len, 48);
	strbuf_release(&sb);
}

static void test_path_join(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	path_join(&sb, "a", "b");
	assert_string_equal(sb.buf, "a/b");
	strbuf_reset(&sb);
	path_join(&sb, "a/", "b");
	assert_string_equal(sb.buf, "a/b");
	strbuf_reset(&sb);
	path_join(&sb, "/", "b");
	assert_string_equal(sb.buf, "/b");
	strbuf_reset(&sb);
	path_join(&sb, "", "b");
	assert_string_equal(sb.buf, "b");
	strbuf_release(&sb);
}

static void test_json_quote_controls(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	/* every byte below 0x20 is escaped, 0x20 and above are copied */
	json_quote(&sb, "\x01\x0f\x10\x1f x\x7f");
	assert_string_equal(sb.buf, "\"\\u0001\\u000f\\u0010\\u001f x\x7f\"");
	strbuf_reset(&sb);
	json_quote(&sb, "\b\f\r");
	assert_string_equal(sb.buf, "\"\\b\\f\\r\"");
	strbuf_release(&sb);
}

static void test_number_edges(void **state)
{
	/* integers print whole up to the range of long long */
	static const struct { double v; const char *want; } ints[] = {
		{ 0, "0" }, { -7, "-7" }, { 1e16, "10000000000000000" },
		{ -9e18, "-9000000000000000000" }, { 1e19, "1.0e+19" },
	};
	/* a float in lkp's files has a dot, an exponent, NaN or Infinity */
	static const struct { const char *s; double v; bool is_int; } parsed[] = {
		{ "1e3", 1000, false }, { "2E2", 200, false }, { "-Infinity", -INFINITY, false },
		{ "-12", -12, true },
	};
	struct strbuf sb = STRBUF_INIT;
	double v;
	bool is_int;
	(void)state;

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		strbuf_reset(&sb);
		fmt_number(&sb, ints[i].v, true);
		assert_string_equal(sb.buf, ints[i].want);
	}
	strbuf_release(&sb);
	for (size_t i = 0; i < sizeof(parsed) / sizeof(parsed[0]); i++) {
		assert_int_equal(parse_number(parsed[i].s, &v, &is_int), 0);
		assert_true(v == parsed[i].v);
		assert_true(is_int == parsed[i].is_int);
	}
	assert_int_equal(parse_number("NaN", &v, &is_int), 0);
	assert_true(isnan(v) && !is_int);
	/* Ruby's notation edges: fixed from 0.0001 to below 1e16 */
	check_ruby(1.5e15, "1500000000000000.0");
	check_ruby(1234567890123456.0, "1234567890123456.0");
	check_ruby(0.00012345678901234, "0.00012345678901234");
	check_ruby(0.000012345678901234, "1.2345678901234e-05");
	check_ruby(1.2e-100, "1.2e-100");
	check_ruby(-1.5e300, "-1.5e+300");
}

/* Significant digits of a decimal number: no sign, exponent, dot, leading
 * or trailing zeros ("100.0" has 1, "0.0012" has 2). */
static int sig_digits(const char *s, char *digits)
{
	int n = 0;

	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9' && (n || *s != '0'))
			digits[n++] = *s;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	return n;
}

/* The shortest digits that read back as v, by an independent search: the
 * first precision %.*g of which strtod gives v again. */
static int shortest_by_search(double v, char *digits)
{
	char buf[64];

	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			return sig_digits(buf, digits);
	}
	fail_msg("%.17g: no precision up to 17 reads back", v);
	return 0;
}

static void check_shortest(double v)
{
	struct strbuf sb = STRBUF_INIT;
	char want[32], got[32];

	fmt_ruby_float(&sb, v);
	if (strtod(sb.buf, NULL) != v)
		fail_msg("%.17g printed as %s, which reads back as %.17g", v, sb.buf,
			 strtod(sb.buf, NULL));
	shortest_by_search(v, want);
	sig_digits(sb.buf, got);
	if (strcmp(want, got))
		fail_msg("%.17g printed as %s: digits %s, the shortest are %s", v, sb.buf, got, want);
	strbuf_release(&sb);
}

/*
 * Random doubles through fmt_ruby_float against the search above: decimals
 * of 15 significant digits (the fast path's own range: it must keep all
 * 15 and not take a 16-digit form), of 16 and 17, and random bit patterns.
 */
static void test_ruby_float_shortest_random(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char buf[64];

	for (int i = 0; i < 20000; i++) {
		/* xorshift64 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int digits = 15 + i % 3, exp10 = (int)((x >> 40) % 41) - 20;
		unsigned long long m = x % 900000000000000000ULL + 100000000000000000ULL;
		for (int d = 18; d > digits; d--)
			m /= 10;
		snprintf(buf, sizeof(buf), "%llue%d", m, exp10 - digits + 1);
		double v = strtod(buf, NULL);
		check_shortest(v);
		check_shortest(-v);
		/* any finite double, subnormals included */
		double r;
		uint64_t bits = x * 0x2545f4914f6cdd1dULL;
		memcpy(&r, &bits, sizeof(r));
		if (isfinite(r) && r != 0)
			check_shortest(r);
		/* what avg.json and stddev.json mostly hold: 16 and 17 digits */
		check_shortest(sqrt((double)(x % 100000000)) * 13.7);
	}
	/* at and next to powers of ten, where the digit count changes and a
	 * guess of the exponent from the binary one is off by one */
	for (int e = -30; e <= 40; e++) {
		double p = pow(10, e);

		check_shortest(p);
		check_shortest(nextafter(p, 0));
		check_shortest(nextafter(p, INFINITY));
		check_shortest(nextafter(nextafter(p, 0), 0));
	}
	/* and at powers of two, where the interval below is half as wide */
	for (int e = -60; e <= 120; e++) {
		check_shortest(ldexp(1, e));
		check_shortest(nextafter(ldexp(1, e), 0));
	}
}

/* read_file_limited: the byte and line bounds, also inside .gz. */
static void test_bounded_reads(void **state)
{
	char *dir = test_tmpdir("util");
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture cap;
	(void)state;

	path_join(&path, dir, "f");
	assert_int_equal(write_file_atomic(path.buf, "abc\ndefg\nhi", 12), 0);
	/* exactly at the bounds: fine */
	assert_int_equal(read_file_limited(&sb, path.buf, 12, 4), 0);
	assert_string_equal(sb.buf, "abc\ndefg\nhi");
	/* one byte over either bound: an error naming the file (and line) */
	strbuf_reset(&sb);
	capture_start(&cap);
	assert_int_equal(read_file_limited(&sb, path.buf, 11, 0), -1);
	assert_int_equal(read_file_limited(&sb, path.buf, 100, 3), -1);
	capture_end_sb(&cap, &err);
	assert_non_null(strstr(err.buf, "is larger than 11 bytes"));
	assert_non_null(strstr(err.buf, "/f:2: a line longer than 3 bytes"));
	/* a gzip bomb: 4 MiB of zeros in a few KiB, bounded as it expands */
	strbuf_reset(&path);
	strbuf_addf(&path, "head -c 4194304 /dev/zero | gzip >%s/z.gz", dir);
	assert_int_equal(system(path.buf), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/z.gz", dir);
	strbuf_reset(&sb);
	capture_start(&cap);
	assert_int_equal(read_file_limited(&sb, path.buf, 1 << 20, 0), -1);
	assert_int_equal(read_file_limited(&sb, path.buf, 8 << 20, 1024), -1);
	capture_end_sb(&cap, &err);
	assert_non_null(strstr(err.buf, "z.gz' is larger than 1 MiB"));
	assert_non_null(strstr(err.buf, "z.gz:1: a line longer than 1 KiB"));
	assert_true(sb.alloc < (9u << 20));
	strbuf_reset(&sb);
	assert_int_equal(read_file_limited(&sb, path.buf, 4 << 20, 0), 0);
	assert_int_equal(sb.len, 4 << 20);
	/* /dev/zero: one endless line, stopped at the bound */
	strbuf_reset(&sb);
	capture_start(&cap);
	assert_int_equal(read_file_limited(&sb, "/dev/zero", 1 << 30, 1 << 16), -1);
	capture_end_sb(&cap, &err);
	assert_string_equal(err.buf, "perfbot: /dev/zero:1: a line longer than 64 KiB "
			    "(perfbot reads lines of at most that length)\n");
	assert_true(sb.len <= (1 << 18));       /* reads grow by doubling */
	/* quiet reads stop at max and say nothing */
	strbuf_reset(&sb);
	assert_int_equal(read_file_quiet(&sb, "/dev/zero", 100), 0);
	assert_int_equal(sb.len, 100);
	assert_int_equal(read_file_quiet(&sb, "/nonexistent", 100), -1);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&path);
	strbuf_release(&sb);
	strbuf_release(&err);
}

/* remove_tree removes links, never what they point to. */
static void test_remove_tree(void **state)
{
	char *dir = test_tmpdir("util"), *keep = test_tmpdir("keep");
	struct strbuf cmd = STRBUF_INIT, p = STRBUF_INIT;
	(void)state;

	strbuf_addf(&cmd, "mkdir -p %s/t/a/b && touch %s/t/a/b/f %s/k && "
		    "ln -s %s %s/t/a/link && ln -s %s/k %s/t/flink && chmod 0 %s/t/a/b",
		    dir, dir, keep, keep, dir, keep, dir, dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_addf(&p, "%s/t", dir);
	if (geteuid() != 0) {
		/* a folder it cannot read: an error, what it could is gone */
		struct stderr_capture cap;
		struct strbuf err = STRBUF_INIT;
		capture_start(&cap);
		assert_int_equal(remove_tree(p.buf), -1);
		capture_end_sb(&cap, &err);
		assert_non_null(strstr(err.buf, "a/b"));
		strbuf_release(&err);
		strbuf_reset(&cmd);
		strbuf_addf(&cmd, "chmod 755 %s/t/a/b", dir);
		assert_int_equal(system(cmd.buf), 0);
	}
	assert_int_equal(remove_tree(p.buf), 0);
	assert_false(file_exists(p.buf));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/k", keep);
	assert_true(file_exists(p.buf));                /* not followed */
	assert_int_equal(remove_tree("/nonexistent/x"), 0);
	assert_int_equal(remove_tree(keep), 0);
	assert_int_equal(remove_tree(dir), 0);
	free(keep);
	free(dir);
	strbuf_release(&cmd);
	strbuf_release(&p);
}

static void check_big(const struct bigint *b, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	bigint_add_str(&sb, b);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/* Exact sums as Ruby makes them; the expected values come from Python. */
static void test_bigint(void **state)
{
	struct bigint a = BIGINT_INIT, b = BIGINT_INIT;
	static const char *const to_i[][2] = {
		{ "", "0" }, { "abc", "0" }, { "  42x", "42" }, { "-7", "-7" }, { "+8", "8" },
		{ "1_000", "1000" }, { "1__0", "1" }, { "_1", "0" }, { "1_", "1" },
		{ "\t\n 12", "12" }, { "- 3", "0" }, { "000000000000000000001", "1" },
		{ "123456789012345678901234567890", "123456789012345678901234567890" },
		{ "-1000000000", "-1000000000" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(to_i) / sizeof(to_i[0]); i++) {
		bigint_set_zero(&a);
		bigint_add_to_i(&a, to_i[i][0], strlen(to_i[i][0]));
		check_big(&a, to_i[i][1]);
	}
	/* the example: LLONG_MAX + 1 */
	bigint_set_ll(&a, 9223372036854775807LL);
	bigint_add_to_i(&a, "1", 1);
	check_big(&a, "9223372036854775808");
	/* carries and borrows across limbs, signs crossing zero */
	bigint_set_ll(&a, 999999999);
	bigint_set_ll(&b, 1);
	bigint_add(&a, &b);
	check_big(&a, "1000000000");
	bigint_sub(&a, &b);
	check_big(&a, "999999999");
	bigint_set_ll(&b, 1000000000000LL);
	bigint_sub(&a, &b);
	check_big(&a, "-999000000001");
	bigint_add(&a, &b);
	check_big(&a, "999999999");
	bigint_sub(&a, &a);
	check_big(&a, "0");
	assert_false(a.neg);
	bigint_set_ll(&a, -9223372036854775807LL - 1);
	check_big(&a, "-9223372036854775808");
	bigint_add(&a, &a);
	check_big(&a, "-18446744073709551616");
	/* 100 times 2^63 - 1 */
	bigint_set_zero(&a);
	for (int i = 0; i < 100; i++)
		bigint_add_to_i(&a, "9223372036854775807", 19);
	check_big(&a, "922337203685477580700");
	assert_true(bigint_to_double(&a) == 922337203685477580700.0);
	/* comparisons */
	bigint_set_ll(&b, -5);
	assert_true(bigint_cmp(&a, &b) > 0);
	assert_true(bigint_cmp(&b, &a) < 0);
	bigint_set_ll(&a, -6);
	assert_true(bigint_cmp(&a, &b) < 0);
	bigint_copy(&a, &b);
	assert_int_equal(bigint_cmp(&a, &b), 0);
	bigint_set_ll(&a, 1000000000);
	bigint_set_ll(&b, 999999999);
	assert_true(bigint_cmp(&a, &b) > 0);
	bigint_release(&a);
	bigint_release(&b);
}

/* ---- error paths ------------------------------------------------------- */

/* Run fn in a child with stderr captured; its exit status and message. */
static int in_child(void (*fn)(void), struct strbuf *err)
{
	int fds[2], status;
	pid_t pid;
	char buf[512];
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		fn();
		exit(0);
	}
	close(fds[1]);
	strbuf_reset(err);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		strbuf_add(err, buf, (size_t)n);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void huge_malloc(void) { free(xmalloc(SIZE_MAX)); }
static void huge_calloc(void) { free(xcalloc(SIZE_MAX / 2, 4)); }
static void huge_realloc(void) { free(xrealloc(NULL, SIZE_MAX)); }
static void huge_grow(void)
{
	size_t alloc = 16;
	free(xgrow(NULL, SIZE_MAX / 8, 17, &alloc));
}
static void dies(void) { die("cannot go on: %d", 42); }
static void full_stdout(void)
{
	int fd = open("/dev/full", O_WRONLY);
	if (fd < 0 || dup2(fd, 1) < 0)
		exit(99);
	printf("lost\n");
	exit(finish_stdout() < 0 ? 1 : 0);
}

/* Out of memory and die() end perfbot with status 1 and one line. */
static void test_dying(void **state)
{
	static void (*const oom[])(void) = { huge_malloc, huge_calloc, huge_realloc, huge_grow };
	struct strbuf err = STRBUF_INIT;
	(void)state;

	/* (AddressSanitizer reports such an allocation itself and aborts) */
#ifndef __SANITIZE_ADDRESS__
	for (size_t i = 0; i < sizeof(oom) / sizeof(oom[0]); i++) {
		assert_int_equal(in_child(oom[i], &err), 1);
		assert_string_equal(err.buf, "perfbot: out of memory\n");
	}
#else
	(void)oom;
#endif
	assert_int_equal(in_child(dies, &err), 1);
	assert_string_equal(err.buf, "perfbot: cannot go on: 42\n");
	if (access("/dev/full", W_OK) == 0) {
		assert_int_equal(in_child(full_stdout, &err), 1);
		assert_non_null(strstr(err.buf, "perfbot: write failure on standard output: "));
	}
	strbuf_release(&err);
}

/* Every failure of the file helpers is an error naming the file. */
static void test_fileio_errors(void **state)
{
	char *dir = test_tmpdir("util");
	struct strbuf p = STRBUF_INIT, sb = STRBUF_INIT, msg = STRBUF_INIT;
	struct stderr_capture cap;
	char *abs;
	(void)state;

	/* a directory is not a file */
	capture_start(&cap);
	assert_int_equal(read_file(&sb, dir), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "Is a directory"));
	/* a .gz that is not gzip, and one that is missing */
	strbuf_addf(&p, "%s/bad.gz", dir);
	/* gzip of a text, its CRC spoiled */
	static const char spoiled[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\xcb\x48\xcd"
		"\xc9\xc9\x57\x28\xcf\x2f\xca\x49\xd1\x51\xc8\x40\x70\xb8\x32\x48\x96\x00"
		"\x00\xbf\x15\xcb\x3b\x4b\x00\x00\x00";
	assert_int_equal(write_file_atomic(p.buf, spoiled, 40), 0);
	capture_start(&cap);
	assert_int_equal(read_file(&sb, p.buf), -1);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/none.gz", dir);
	assert_int_equal(read_file(&sb, p.buf), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "bad.gz"));
	assert_non_null(strstr(msg.buf, "none.gz"));
	/* read_file_maybe_gz: neither the file nor its .gz */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/none", dir);
	char *used = (char *)"x";
	capture_start(&cap);
	assert_int_equal(read_file_maybe_gz(&sb, p.buf, &used), -1);
	capture_end_sb(&cap, &msg);
	assert_null(used);
	assert_non_null(strstr(msg.buf, "none': No such file or directory"));
	/* writing under a file, onto a directory, mkdir under a file */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/f", dir);
	assert_int_equal(write_file_atomic(p.buf, "x", 1), 0);
	strbuf_addstr(&p, "/under");
	capture_start(&cap);
	assert_int_equal(write_file_atomic(p.buf, "x", 1), -1);
	assert_int_equal(mkdir_p(p.buf, 0755), -1);
	strbuf_addstr(&p, "/deeper");
	assert_int_equal(mkdir_p(p.buf, 0755), -1);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/d", dir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	assert_int_equal(write_file_atomic(p.buf, "x", 1), -1);
	capture_end_sb(&cap, &msg);
	assert_non_null(strstr(msg.buf, "cannot write"));
	assert_non_null(strstr(msg.buf, "cannot create directory"));
	/* the failed write left no temp file */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "test $(ls -A %s | wc -l) -eq 0", p.buf);
	assert_int_equal(system(sb.buf), 0);
	/* abs_path: relative to the cwd, absolute kept */
	abs = abs_path("rel/x");
	assert_true(abs[0] == '/');
	assert_non_null(strstr(abs, "/rel/x"));
	free(abs);
	abs = abs_path("/a/b");
	assert_string_equal(abs, "/a/b");
	free(abs);
	/* remove_tree: nested folders, a link to outside stays untouched */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/t/a/b", dir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addstr(&p, "/file");
	assert_int_equal(write_file_atomic(p.buf, "x", 1), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/t/a/link", dir);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/f", dir);
	assert_int_equal(symlink(sb.buf, p.buf), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/t", dir);
	assert_int_equal(remove_tree(p.buf), 0);
	assert_false(file_exists(p.buf));
	assert_true(file_exists(sb.buf));
	assert_int_equal(remove_tree(p.buf), 0);        /* missing: fine */
	assert_int_equal(remove_tree(sb.buf), 0);       /* a file */
	assert_false(file_exists(sb.buf));
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
	strbuf_release(&p);
	strbuf_release(&sb);
	strbuf_release(&msg);
}

/* Ruby's sprintf("%+.Nf"), lkp's compare table's: each expected string
 * printed by Ruby 3.1; C's printf differs on the first eight and on 0.115. */
static void test_ruby_fixed(void **state)
{
	static const struct { double v; int prec; const char *want; } t[] = {
		{ -0.14999999999999997, 1, "-0.2" },   /* 0.33 - 0.48: C says -0.1 */
		{ 0.65, 1, "+0.6" },
		{ 0.35, 1, "+0.4" },
		{ 0.25, 1, "+0.2" },
		{ 0.25000000000000006, 1, "+0.2" },
		{ 0.050000000000000044, 1, "+0.1" },
		{ -0.04999999999999999, 1, "-0.0" },
		{ -5.549999999999999, 1, "-5.6" },
		{ 0.04, 1, "+0.0" },
		{ 0.125, 2, "+0.12" },
		{ 0.115, 2, "+0.12" },
		{ 999.995, 2, "+1000.00" },
		{ 9.96, 1, "+10.0" },
		{ 99.95, 1, "+100.0" },
		{ 1234.5678, 2, "+1234.57" },
		{ 0.0, 1, "+0.0" },
		{ -0.0, 1, "-0.0" },
		{ 5.0, 0, "+5" },
		{ 2.5, 0, "+2" },
		{ 3.5, 0, "+4" },
		{ 1.0e+20, 1, "+100000000000000000000.0" },
		{ 123456789012345.6, 1, "+123456789012345.6" },
	};
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		strbuf_reset(&sb);
		fmt_ruby_fixed(&sb, t[i].v, 0, t[i].prec, true);
		if (strcmp(sb.buf, t[i].want))
			fail_msg("%.17g %%+.%df: got %s, Ruby prints %s", t[i].v, t[i].prec, sb.buf, t[i].want);
	}
	/* width pads on the left; no plus: no sign for positives */
	strbuf_reset(&sb);
	fmt_ruby_fixed(&sb, 0.65, 6, 1, false);
	assert_string_equal(sb.buf, "   0.6");
	strbuf_reset(&sb);
	fmt_ruby_fixed(&sb, -0.14999999999999997, 10, 1, true);
	assert_string_equal(sb.buf, "      -0.2");
	strbuf_release(&sb);
}

/* exe_sibling_pick: "<dir>/<sub>" when it holds the marker (or, with no
 * marker, exists), else "<dir>/build/<sub>"; exe_sibling_dir: the
 * variable first, then the running executable's directory. */
static void test_exe_sibling_dir(void **state)
{
	(void)state;
	char *dir = test_tmpdir("exedir");
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT, path = STRBUF_INIT, exe = STRBUF_INIT;

	/* nothing there: the build/ layout of the default make */
	exe_sibling_pick(&sb, dir, "bin", "bench-harness");
	strbuf_addf(&want, "%s/build/bin", dir);
	assert_string_equal(sb.buf, want.buf);
	strbuf_reset(&sb);
	exe_sibling_pick(&sb, dir, "static", NULL);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/build/static", dir);
	assert_string_equal(sb.buf, want.buf);

	/* the dir without its marker is not enough; with it, it is */
	strbuf_addf(&path, "%s/bin", dir);
	assert_int_equal(mkdir(path.buf, 0700), 0);
	strbuf_reset(&sb);
	exe_sibling_pick(&sb, dir, "bin", "bench-harness");
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/build/bin", dir);
	assert_string_equal(sb.buf, want.buf);
	strbuf_addstr(&path, "/bench-harness");
	assert_int_equal(write_file_atomic(path.buf, "", 0), 0);
	strbuf_reset(&sb);
	exe_sibling_pick(&sb, dir, "bin", "bench-harness");
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/bin", dir);
	assert_string_equal(sb.buf, want.buf);

	/* no marker: a plain file named sub is not a directory */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/static", dir);
	assert_int_equal(write_file_atomic(path.buf, "", 0), 0);
	strbuf_reset(&sb);
	exe_sibling_pick(&sb, dir, "static", NULL);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/build/static", dir);
	assert_string_equal(sb.buf, want.buf);
	assert_int_equal(unlink(path.buf), 0);
	assert_int_equal(mkdir(path.buf, 0700), 0);
	strbuf_reset(&sb);
	exe_sibling_pick(&sb, dir, "static", NULL);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/static", dir);
	assert_string_equal(sb.buf, want.buf);

	/* the variable wins when set and not empty */
	setenv("PERFBOT_TEST_EXEDIR", "/some/where", 1);
	strbuf_reset(&sb);
	exe_sibling_dir(&sb, "PERFBOT_TEST_EXEDIR", "bin", "bench-harness");
	assert_string_equal(sb.buf, "/some/where");
	setenv("PERFBOT_TEST_EXEDIR", "", 1);
	strbuf_reset(&sb);
	exe_sibling_dir(&sb, "PERFBOT_TEST_EXEDIR", "no-such-sub", NULL);
	unsetenv("PERFBOT_TEST_EXEDIR");
	/* this test's own directory (build/tests): no no-such-sub there */
	assert_int_equal(exe_dir(&exe), 0);
	assert_non_null(strstr(exe.buf, "/tests"));
	assert_null(strstr(exe.buf + exe.len - 6, "/test_"));
	strbuf_reset(&want);
	strbuf_addf(&want, "%s/build/no-such-sub", exe.buf);
	assert_string_equal(sb.buf, want.buf);

	test_rm_rf(dir);
	free(dir);
	strbuf_release(&sb);
	strbuf_release(&want);
	strbuf_release(&path);
	strbuf_release(&exe);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf_basics),
		cmocka_unit_test(test_ruby_float),
		cmocka_unit_test(test_fmt_number_and_parse),
		cmocka_unit_test(test_json_writer_layout),
		cmocka_unit_test(test_strmap),
		cmocka_unit_test(test_write_file_atomic),
		cmocka_unit_test(test_rng_streams),
		cmocka_unit_test(test_path_component),
		cmocka_unit_test(test_strbuf_edges),
		cmocka_unit_test(test_path_join),
		cmocka_unit_test(test_json_quote_controls),
		cmocka_unit_test(test_number_edges),
		cmocka_unit_test(test_ruby_float_shortest_random),
		cmocka_unit_test(test_dying),
		cmocka_unit_test(test_fileio_errors),
		cmocka_unit_test(test_bounded_reads),
		cmocka_unit_test(test_remove_tree),
		cmocka_unit_test(test_bigint),
		cmocka_unit_test(test_ruby_fixed),
		cmocka_unit_test(test_exe_sibling_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
