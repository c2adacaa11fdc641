/*
 * test_parse_monitor.c: the monitor parsers (vmstat, mpstat, perf-stat,
 * perf-profile) and the parse_util toolkit they share.
 *
 * Every lkp fixture must come out byte for byte (lkp's own check ignores
 * one trailing newline, and so do we: mpstat/4.yaml has none).  Small
 * hand-made inputs pin the rules the fixtures do not reach and the error
 * paths, whose messages must name the input and the line.
 */
#include "test_helpers.h"
#include "parse/parser.h"
#include "parse/parse_util.h"

#include <math.h>

extern const struct parser parser_vmstat, parser_mpstat, parser_perf_stat,
	parser_perf_profile;

/* ---- helpers -------------------------------------------------------- */

static int run(const struct parser *p, const char *input, struct strbuf *out)
{
	struct parse_input in = { input, strlen(input), "<test>", NULL };

	strbuf_reset(out);
	return p->parse(&in, out);
}

/* Run p on input with stderr captured into err. */
static int run_capture(const struct parser *p, const char *input, struct strbuf *out,
		       struct strbuf *err)
{
	struct stderr_capture cap;
	int ret;

	capture_start(&cap);
	ret = run(p, input, out);
	capture_end_sb(&cap, err);
	return ret;
}

static void expect_output(const struct parser *p, const char *input, const char *expected)
{
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(run(p, input, &out), 0);
	assert_string_equal(out.buf, expected);
	strbuf_release(&out);
}

/* The parser must fail, and say so naming "<test>:<line>" and why. */
static void expect_error(const struct parser *p, const char *input,
			 const char *where, const char *why)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	assert_int_equal(run_capture(p, input, &out, &err), -1);
	if (!strstr(err.buf, where) || !strstr(err.buf, why))
		fail_msg("expected '%s' and '%s' in: %s", where, why, err.buf);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void check_fixture(const struct parser *p, const char *rel)
{
	struct strbuf raw = STRBUF_INIT, exp = STRBUF_INIT, out = STRBUF_INIT, path = STRBUF_INIT;
	struct parse_input in = { NULL, 0, rel, NULL };

	read_conformance(&raw, rel);
	strbuf_addf(&path, "%s.yaml", rel);
	read_conformance(&exp, path.buf);
	in.buf = raw.buf;
	in.len = raw.len;
	assert_int_equal(p->parse(&in, &out), 0);
	/* lkp's check ignores one trailing newline */
	if (out.len && out.buf[out.len - 1] == '\n')
		strbuf_setlen(&out, out.len - 1);
	if (exp.len && exp.buf[exp.len - 1] == '\n')
		strbuf_setlen(&exp, exp.len - 1);
	if (strcmp(out.buf, exp.buf))
		fail_msg("%s: output differs from %s.yaml:\n%s", rel, rel, out.buf);
	strbuf_release(&raw);
	strbuf_release(&exp);
	strbuf_release(&out);
	strbuf_release(&path);
}

/* ---- fixtures ------------------------------------------------------- */

static void test_fixtures_vmstat(void **state)
{
	skip_without_conformance();
	check_fixture(&parser_vmstat, "lkp/stats/vmstat/1");
}

static void test_fixtures_mpstat(void **state)
{
	skip_without_conformance();
	for (int i = 1; i <= 4; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "lkp/stats/mpstat/%d", i);
		check_fixture(&parser_mpstat, rel);
	}
}

static void test_fixtures_perf_stat(void **state)
{
	skip_without_conformance();
	for (int i = 1; i <= 4; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "lkp/stats/perf-stat/%d", i);
		check_fixture(&parser_perf_stat, rel);
	}
}

static void test_fixtures_perf_profile(void **state)
{
	skip_without_conformance();
	check_fixture(&parser_perf_profile, "lkp/stats/perf-profile/1");
}

static void test_registry(void **state)
{
	assert_ptr_equal(parser_find("vmstat"), &parser_vmstat);
	assert_ptr_equal(parser_find("mpstat"), &parser_mpstat);
	assert_ptr_equal(parser_find("perf-stat"), &parser_perf_stat);
	assert_ptr_equal(parser_find("perf-profile"), &parser_perf_profile);
}

/* ---- parse_util ----------------------------------------------------- */

/* Lines and fields are tests/unit/test_lines.c's. */

static void test_mem_find(void **state)
{
	assert_null(mem_find_last("abc", 3, "abcd", 4));
	assert_ptr_equal(mem_find_last("x-misses-misses", 15, "-misses", 7), "x-misses-misses" + 0 + 8);
}

static void test_ruby_to_f(void **state)
{
	static const struct { const char *s; double v; } cases[] = {
		{ "12abc", 12 }, { "  1_000.5", 1000.5 }, { "1.e5", 1 }, { "1e5", 1e5 },
		{ "abc", 0 }, { ".5", 0.5 }, { "-2.5e-1", -0.25 }, { "0x1A", 0 },
		{ "1__2", 1 }, { "1e", 1 }, { "", 0 }, { "Infinity", 0 }, { "+3", 3 },
		{ "     1.000659830", 1.000659830 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (ruby_to_f(cases[i].s, strlen(cases[i].s)) != cases[i].v)
			fail_msg("ruby_to_f(\"%s\") = %.17g, expected %.17g", cases[i].s,
				 ruby_to_f(cases[i].s, strlen(cases[i].s)), cases[i].v);
}

static void test_numbers(void **state)
{
	double v;
	bool is_int;

	assert_true(parse_udecimal("82.61", 5, &v));
	assert_true(v == strtod("82.61", NULL));
	assert_true(parse_udecimal("1234567890.1234567891", 21, &v));    /* slow path */
	assert_true(v == strtod("1234567890.1234567891", NULL));
	/* 18 digits: m / 10^k would round twice; this one must take strtod */
	assert_true(parse_udecimal("96843464.3443818037", 19, &v));
	assert_true(v == strtod("96843464.3443818037", NULL));
	assert_true(parse_udecimal("7", 1, &v) && v == 7);
	assert_false(parse_udecimal("1.", 2, &v));
	assert_false(parse_udecimal(".5", 2, &v));
	assert_false(parse_udecimal("1a", 2, &v));
	assert_false(parse_udecimal("", 0, &v));

	assert_int_equal(parse_field_number("-1", 2, &v, &is_int), 0);
	assert_true(v == -1 && is_int);
	assert_int_equal(parse_field_number("2.50", 4, &v, &is_int), 0);
	assert_true(v == 2.5 && !is_int);
	assert_int_equal(parse_field_number("1e6", 3, &v, &is_int), 0);
	assert_true(v == 1e6 && !is_int);
	assert_int_equal(parse_field_number("1,0", 3, &v, &is_int), -1);
	assert_int_equal(parse_field_number("nan", 3, &v, &is_int), -1);
	assert_int_equal(parse_field_number("1e", 2, &v, &is_int), -1);
	assert_int_equal(parse_field_number("-", 1, &v, &is_int), -1);
}

static void check_key(void (*add)(struct strbuf *, const char *, size_t),
		      const char *in, const char *expected)
{
	struct strbuf sb = STRBUF_INIT;

	add(&sb, in, strlen(in));
	assert_string_equal(sb.buf, expected);
	strbuf_release(&sb);
}

static void test_keys(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	check_key(key_add_symbol, "foo.isra.3.constprop.7", "foo");
	check_key(key_add_symbol, "a.part.12x", "ax");
	check_key(key_add_symbol, "x.isra.", "x.isra.");
	check_key(key_add_symbol, "x.isra.1.isra", "x.isra");
	check_key(key_add_symbol, "isra.3", "isra.3");
	check_key(key_add_symbol, "cpu_startup_entry", "cpu_startup_entry");

	key_add_tr(&sb, "'cycles:pp'", 11, ":'", "-");
	assert_string_equal(sb.buf, "-cycles-pp-");
	strbuf_reset(&sb);
	key_add_tr(&sb, "{a,b}", 5, "{}", "");
	assert_string_equal(sb.buf, "a,b");
	strbuf_reset(&sb);
	key_add_squeeze_ws(&sb, "Copy \t rate x", 13, '_');
	assert_string_equal(sb.buf, "Copy_rate_x");
	strbuf_release(&sb);
}

static void test_kvmap(void **state)
{
	struct kvmap m;
	const struct kv_entry **sorted;
	char key[32];
	bool is_int;

	kvmap_init(&m);
	assert_null(kvmap_find(&m, "a", 1));
	kvmap_add(&m, "b", 1, 1, true);
	kvmap_add(&m, "a", 1, 0.1, false);
	kvmap_add(&m, "b", 1, 2, true);
	kvmap_add(&m, "a", 1, 0.2, false);
	assert_int_equal(m.nr, 2);
	assert_string_equal(m.e[0].key, "b");           /* first-insertion order */
	assert_true(m.e[0].val == 3 && m.e[0].is_int && m.e[0].nr == 2);
	assert_true(m.e[1].val == 0.1 + 0.2 && !m.e[1].is_int);
	assert_true(kvmap_value(&m, "zz", 2, &is_int) == 0 && is_int);
	assert_null(kvmap_find(&m, "zz", 2));             /* reading adds nothing */
	kvmap_set(&m, "b", 1, 7.5, false);
	assert_true(kvmap_value(&m, "b", 1, &is_int) == 7.5 && !is_int);
	assert_string_equal(m.e[0].key, "b");

	/* keys with NUL bytes and prefixes of each other are distinct */
	kvmap_add(&m, "a\0x", 3, 1, true);
	assert_int_equal(m.nr, 3);
	assert_true(kvmap_find(&m, "a", 1)->val == 0.1 + 0.2);

	/* growth keeps every key findable; sorting is by bytes, then length */
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(key, sizeof(key), "k%d", i);
		kvmap_add(&m, key, (size_t)n, i, true);
	}
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(key, sizeof(key), "k%d", i);
		struct kv_entry *e = kvmap_find(&m, key, (size_t)n);
		assert_non_null(e);
		assert_true(e->val == i);
	}
	sorted = kvmap_sorted(&m);
	assert_string_equal(sorted[0]->key, "a");
	assert_int_equal(sorted[1]->len, 3);                /* "a\0x" */
	assert_string_equal(sorted[2]->key, "b");
	assert_string_equal(sorted[3]->key, "k0");
	assert_string_equal(sorted[4]->key, "k1");
	assert_string_equal(sorted[5]->key, "k10");
	free(sorted);

	kvmap_clear(&m);
	assert_int_equal(m.nr, 0);
	assert_null(kvmap_find(&m, "b", 1));
	kvmap_add(&m, "b", 1, 1, true);
	assert_int_equal(m.nr, 1);
	kvmap_release(&m);
}

static void test_utc_epoch(void **state)
{
	long long t;

	assert_int_equal(utc_epoch("2015-01-11", 10, "20:18:35", 8, &t), 0);
	assert_int_equal(t, 1421007515);
	assert_int_equal(utc_epoch("2020-02-29", 10, "11:59:59 PM", 11, &t), 0);
	assert_int_equal(t, 1583020799);
	assert_int_equal(utc_epoch("2020-02-29", 10, "12:00:01 AM", 11, &t), 0);
	assert_int_equal(t, 1582934401);
	assert_int_equal(utc_epoch("1969-12-31", 10, "23:59:59", 8, &t), 0);
	assert_int_equal(t, -1);
	assert_int_equal(utc_epoch("2019-02-29", 10, "00:00:00", 8, &t), -1);
	assert_int_equal(utc_epoch("2019-13-01", 10, "00:00:00", 8, &t), -1);
	assert_int_equal(utc_epoch("2019-01-01", 10, "24:00:00", 8, &t), -1);
	assert_int_equal(utc_epoch("2019-01-01", 10, "00:00", 5, &t), -1);
	assert_int_equal(utc_epoch("2019-01-01", 10, "13:00:00 PM", 11, &t), -1);
	assert_int_equal(utc_epoch("2019-01-01", 10, "10:00:00 XM", 11, &t), -1);
	assert_int_equal(utc_epoch("19-01-01", 8, "00:00:00", 8, &t), -1);
}

/* ---- vmstat --------------------------------------------------------- */

static void test_vmstat_edges(void **state)
{
	expect_output(&parser_vmstat, "", "");
	expect_output(&parser_vmstat,
		      "procs -----------memory----------\n r  b   swpd\n", "");
	/* an old vmstat: no time stamp; a last line without "\n" */
	expect_output(&parser_vmstat,
		      " 1  0      0 224636  33636 6760228    0    0    54   141  129   23  1  1 98  0  0\n"
		      " 3  4      5",
		      "procs.r: 1\nprocs.b: 0\nmemory.swpd: 0\nmemory.free: 224636\n"
		      "memory.buff: 33636\nmemory.cache: 6760228\nswap.si: 0\nswap.so: 0\n"
		      "io.bi: 54\nio.bo: 141\nsystem.in: 129\nsystem.cs: 23\ncpu.us: 1\n"
		      "cpu.sy: 1\ncpu.id: 98\ncpu.wa: 0\ncpu.st: 0\n"
		      "procs.r: 3\nprocs.b: 4\nmemory.swpd: 5\n");
	/* a new vmstat: 18 columns (cpu.gu) and a stamp */
	expect_output(&parser_vmstat,
		      " 1 0 0 2 3 4 0 0 5 6 7 8 9 1 90 0 0 0 2015-01-11 20:18:35\n",
		      "time: 1421007515\nprocs.r: 1\nprocs.b: 0\nmemory.swpd: 0\n"
		      "memory.free: 2\nmemory.buff: 3\nmemory.cache: 4\nswap.si: 0\n"
		      "swap.so: 0\nio.bi: 5\nio.bo: 6\nsystem.in: 7\nsystem.cs: 8\n"
		      "cpu.us: 9\ncpu.sy: 1\ncpu.id: 90\ncpu.wa: 0\ncpu.st: 0\ncpu.gu: 0\n");
}

static void test_vmstat_errors(void **state)
{
	expect_error(&parser_vmstat, "r b\n1 0\nvmstat: 3 errors\n",
		     "vmstat: <test>:3:", "expected an integer in column 1");
	expect_error(&parser_vmstat, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n",
		     "<test>:1:", "expected at most 18 columns");
	expect_error(&parser_vmstat, "1 2 2015-13-11 20:18:35\n",
		     "<test>:1:", "time stamp");
	expect_error(&parser_vmstat, "20:18:35\n", "<test>:1:", "time stamp");
	expect_error(&parser_vmstat, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22\n",
		     "<test>:1:", "found 22 fields");
}

/* ---- mpstat --------------------------------------------------------- */

#define MP_HEAD "{\"sysstat\": {\n\t\"hosts\": [\n\t\t{\n\t\t\t\"date\": \"2020-02-29\",\n" \
		"\t\t\t\"statistics\": [\n"
#define MP_TAIL "\n\t\t\t]\n\t\t}\n\t]\n}}\n"

static void test_mpstat_layout(void **state)
{
	/* node/cpu/other arrays, nested objects, Ruby's to_s of each value,
	 * keys of earlier entries printed again, AM/PM stamps */
	expect_output(&parser_mpstat,
		MP_HEAD
		"\t\t\t\t{\n"
		"\t\t\t\t\t\"timestamp\": \"11:59:59 PM\",\n"
		"\t\t\t\t\t\"cpu-load\": [\n"
		"\t\t\t\t\t\t{\"cpu\": \"all\", \"usr\": 1, \"idle\": 90, \"iowait\": 5},\n"
		"\t\t\t\t\t\t{\"cpu\": \"0\", \"usr\": 2.50, \"idle\": 80.25, \"iowait\": 0.75}\n"
		"\t\t\t\t\t],\n"
		"\t\t\t\t\t\"node-load\": [{\"node\": 0, \"sys\": 1.5}],\n"
		"\t\t\t\t\t\"softirq\": [{\"cpu\": \"all\", \"net\": 3.0}, 5],\n"
		"\t\t\t\t\t\"ctx\": {\"rate\": 12, \"sub\": {\"x\": true, \"y\": null}},\n"
		"\t\t\t\t\t\"scalar\": 7\n"
		"\t\t\t\t},\n"
		"\t\t\t\t{\n"
		"\t\t\t\t\t\"timestamp\": \"12:00:01 AM\",\n"
		"\t\t\t\t\t\"cpu-load\": [\n"
		"\t\t\t\t\t\t{\"cpu\": \"all\", \"usr\": 3.0, \"idle\": 85, \"iowait\": 10}\n"
		"\t\t\t\t\t]\n"
		"\t\t\t\t}"
		MP_TAIL,
		"time: 1583020799\n"
		"cpu.all.usr%: 1\ncpu.all.idle%: 90\ncpu.all.iowait%: 5\n"
		"cpu.0.usr%: 2.5\ncpu.0.idle%: 80.25\ncpu.0.iowait%: 0.75\n"
		"node.0.sys%: 1.5\nsoftirq.all.net: 3.0\nctx.rate: 12\nsub.x: true\nsub.y: \n"
		"time: 1582934401\n"
		"cpu.all.usr%: 3.0\ncpu.all.idle%: 85\ncpu.all.iowait%: 10\n"
		"cpu.0.usr%: 2.5\ncpu.0.idle%: 80.25\ncpu.0.iowait%: 0.75\n"
		"node.0.sys%: 1.5\nsoftirq.all.net: 3.0\nctx.rate: 12\nsub.x: true\nsub.y: \n"
		/* utilizations 5, 19.0, 5: the float one wins, times 3 pairs */
		"max_utilization_pct: 57.0\nmax_utilization.seconds: 6\n");
}

static void test_mpstat_max_util(void **state)
{
	/* integers stay integers; on a tie the first one wins */
	expect_output(&parser_mpstat,
		MP_HEAD
		"\t\t\t\t{\"timestamp\": \"00:00:00\", \"cpu-load\": [{\"cpu\": \"all\", \"idle\": 90, \"iowait\": 5}]},\n"
		"\t\t\t\t{\"timestamp\": \"00:00:01\", \"cpu-load\": [{\"cpu\": \"all\", \"idle\": 85, \"iowait\": 0}]},\n"
		"\t\t\t\t{\"timestamp\": \"00:00:02\", \"cpu-load\": [{\"cpu\": \"all\", \"idle\": 80, \"iowait\": 5}]}"
		MP_TAIL,
		"time: 1582934400\ncpu.all.idle%: 90\ncpu.all.iowait%: 5\n"
		"time: 1582934401\ncpu.all.idle%: 85\ncpu.all.iowait%: 0\n"
		"time: 1582934402\ncpu.all.idle%: 80\ncpu.all.iowait%: 5\n"
		"max_utilization_pct: 45\nmax_utilization.seconds: 6\n");
	/* no figures at all: no max_utilization */
	expect_output(&parser_mpstat, MP_HEAD "\t\t\t\t{\"timestamp\": \"00:00:00\"}" MP_TAIL,
		      "time: 1582934400\n");
}

static void test_mpstat_truncated(void **state)
{
	/* cut inside a string of the second entry: lkp's third repair keeps
	 * the entries up to the last complete "\n\t\t\t\t}" */
	expect_output(&parser_mpstat,
		MP_HEAD
		"\t\t\t\t{\n\t\t\t\t\t\"timestamp\": \"00:00:00\",\n"
		"\t\t\t\t\t\"cpu-load\": [{\"cpu\": \"all\", \"idle\": 90.5, \"iowait\": 0.5}]\n"
		"\t\t\t\t},\n"
		"\t\t\t\t{\n\t\t\t\t\t\"timestamp\": \"00:00:01\",\n"
		"\t\t\t\t\t\"cpu-load\": [{\"cpu\": \"al",
		"time: 1582934400\ncpu.all.idle%: 90.5\ncpu.all.iowait%: 0.5\n"
		"max_utilization_pct: 9.0\nmax_utilization.seconds: 1\n");
}

static void test_mpstat_errors(void **state)
{
	expect_error(&parser_mpstat, "", "mpstat: <test>", "expected sysstat JSON");
	expect_error(&parser_mpstat,
		     "Linux 5.0.0-rc4 (ivb44) \t2019-02-23 \t_x86_64_\t(48 CPU)\n\n",
		     "<test>:1:", "found mpstat's text output");
	expect_error(&parser_mpstat, "{\"sysstat\": {\n\"hosts\": [}\n",
		     "<test>:2:", "expected sysstat JSON");
	expect_error(&parser_mpstat, "{\"sysstat\": {}}\n", "<test>",
		     "expected sysstat.hosts[0].statistics");
	expect_error(&parser_mpstat, MP_HEAD "\t\t\t\t[1]" MP_TAIL, "<test>",
		     "expected an object as statistics entry 1");
	expect_error(&parser_mpstat, MP_HEAD "\t\t\t\t{\"timestamp\": \"1:2:3\"}" MP_TAIL,
		     "<test>", "found '2020-02-29' and '1:2:3'");
	expect_error(&parser_mpstat,
		     MP_HEAD "\t\t\t\t{\"cpu-load\": [{\"cpu\": \"0\", \"idle\": \"x\"}]}" MP_TAIL,
		     "<test>", "expected a number for 'cpu.0.idle%'");
	expect_error(&parser_mpstat,
		     MP_HEAD "\t\t\t\t{\"cpu-load\": [{\"cpu\": \"0\", \"intr\": [1]}]}" MP_TAIL,
		     "<test>", "expected a number or string for 'cpu.0.intr%'");
	expect_error(&parser_mpstat,
		     MP_HEAD "\t\t\t\t{\"cpu-load\": [{\"cpu\": \"0\", \"idle\": 5}]}" MP_TAIL,
		     "<test>", "expected an iowait figure with each idle figure");
	/* a newline inside a key or a value (json-c takes raw ones, the
	 * fuzzer found) would split a stats line; an escaped one, too */
	expect_error(&parser_mpstat,
		     MP_HEAD "\t\t\t\t{\"cpu-load\": [{\"cpu\": \"0\", \"id\nle\": 5}]}" MP_TAIL,
		     "<test>", "a control character in a key after 'cpu.0.id'");
	expect_error(&parser_mpstat,
		     MP_HEAD "\t\t\t\t{\"cpu-load\": [{\"cpu\": \"0\", \"usr\": \"1\\n2\"}]}" MP_TAIL,
		     "<test>", "a control character in a value after '1'");
}

/* ---- perf-stat ------------------------------------------------------ */

static void test_perf_stat_intervals(void **state)
{
	/* two intervals printed, the third (perf stopped inside it) not; the
	 * run time is the stamp of the line before the last */
	expect_output(&parser_perf_stat,
		"/usr/bin/perf stat -a -I 1000 -x , -e {cpu-cycles,instructions},cache-references,cache-misses -- sleep 3\n"
		"     1.000000000,1000,,cpu-cycles,100,100.00,1.0,GHz\n"
		"     1.000000000,2000,,instructions,100,100.00,2.00,insn per cycle\n"
		"     1.000000000,400,,cache-references,100,100.00,,\n"
		"     1.000000000,100,,cache-misses,100,100.00,25.00,of all cache refs\n"
		"     2.000000000,3000,,cpu-cycles,100,100.00,3.0,GHz\n"
		"     2.000000000,3000,,instructions,100,100.00,1.00,insn per cycle\n"
		"     2.000000000,600,,cache-references,100,100.00,,\n"
		"     2.000000000,0,,cache-misses,100,100.00,0.00,of all cache refs\n"
		"     3.000000000,5,,cpu-cycles,100,100.00,0.1,GHz\n",
		"time: 1.0\n"
		"i.cpu-cycles: 1000.0\ni.instructions: 2000.0\ni.cache-references: 400.0\n"
		"i.cache-misses: 100.0\n"
		"i.ipc: 2.0\ni.cpi: 0.5\ni.cache-miss-rate%: 25.0\n"
		"i.cycles-between-cache-misses: 10.0\ni.MPKI: 50.0\n"
		"i.metric.GHz: 1.0\n"
		"time: 2.0\n"
		"i.cpu-cycles: 3000.0\ni.instructions: 3000.0\ni.cache-references: 600.0\n"
		"i.cache-misses: 0.0\n"
		"i.ipc: 1.0\ni.cpi: 1.0\ni.cache-miss-rate%: 0.0\n"
		"i.metric.GHz: 3.0\n"
		"ps.cpu-cycles: 2000.0\nps.instructions: 2500.0\nps.cache-references: 500.0\n"
		"ps.cache-misses: 50.0\n"
		"total.instructions: 5000.0\n"
		"overall.ipc: 1.25\noverall.cpi: 0.8\noverall.cache-miss-rate%: 10.0\n"
		"overall.cycles-between-cache-misses: 40.0\noverall.MPKI: 20.0\n");
}

static void test_perf_stat_sockets_uncore(void **state)
{
	/* per-socket lines, a Bytes unit, _IMC cut, uncore latency (repeated
	 * when the inserts are 0) and throughput, and a last line without
	 * "\n" whose empty last fields Ruby drops */
	expect_output(&parser_perf_stat,
		"perf stat -a -I 1000 -x , -e cpu-cycles,instructions,llc_misses.mem_read,"
		"UNC_M_RPQ_INSERTS_IMC0,UNC_M_RPQ_INSERTS_IMC1,UNC_M_RPQ_OCCUPANCY_IMC0,"
		"UNC_M_CLOCKTICKS_IMC0,UNC_M_CLOCKTICKS_IMC1 -- x\n"
		"1.0,S0,1,1000,,cpu-cycles,100,100.00,,\n"
		"1.0,S1,1,3000,,cpu-cycles,100,100.00,,\n"
		"1.0,S0,1,2000,,instructions,100,100.00,,\n"
		"1.0,S1,1,2000,,instructions,100,100.00,,\n"
		"1.0,64,Bytes,llc_misses.mem_read,100,100.00,,\n"
		"1.0,10,,UNC_M_RPQ_INSERTS_IMC0,100,100.00,,\n"
		"1.0,30,,UNC_M_RPQ_INSERTS_IMC1,100,100.00,,\n"
		"1.0,800,,UNC_M_RPQ_OCCUPANCY_IMC0,100,100.00,,\n"
		"1.0,1000000,,UNC_M_CLOCKTICKS_IMC0,100,100.00,,\n"
		"1.0,1000000,,UNC_M_CLOCKTICKS_IMC1,100,100.00,,\n"
		"2.0,S0,1,1000,,cpu-cycles,100,100.00,,\n"
		"2.0,S1,1,1000,,cpu-cycles,100,100.00,,\n"
		"2.0,S0,1,1000,,instructions,100,100.00,,\n"
		"2.0,0,,UNC_M_RPQ_INSERTS_IMC0,100,100.00,,\n"
		"2.0,100,,UNC_M_RPQ_OCCUPANCY_IMC0,100,100.00,,\n"
		"2.0,1000000,,UNC_M_CLOCKTICKS_IMC0,100,100.00,,\n"
		"3.0,1,,cpu-cycles,100,100.00,,\n"
		"3.5,1,,cpu-cycles,100,100.00,,",
		"time: 1.0\n"
		"i.cpu-cycles: 4000.0\ni.S0.cpu-cycles: 1000.0\ni.S1.cpu-cycles: 3000.0\n"
		"i.instructions: 4000.0\ni.S0.instructions: 2000.0\ni.S1.instructions: 2000.0\n"
		"i.llc_misses.mem_read_Bytes: 64.0\ni.UNC_M_RPQ_INSERTS: 40.0\n"
		"i.UNC_M_RPQ_OCCUPANCY: 800.0\ni.UNC_M_CLOCKTICKS: 2000000.0\n"
		"i.ipc: 1.0\ni.cpi: 1.0\ni.S0.ipc: 2.0\ni.S0.cpi: 0.5\n"
		"i.S1.ipc: 0.6666666666666666\ni.S1.cpi: 1.5\n"
		"i.UNC_M_RPQ_latency_ns: 20000.0\ni.UNC_M_RPQ_throughput_MBps: 0.00244140625\n"
		"time: 2.0\n"
		"i.cpu-cycles: 2000.0\ni.S0.cpu-cycles: 1000.0\ni.S1.cpu-cycles: 1000.0\n"
		"i.instructions: 1000.0\ni.S0.instructions: 1000.0\ni.UNC_M_RPQ_INSERTS: 0.0\n"
		"i.UNC_M_RPQ_OCCUPANCY: 100.0\ni.UNC_M_CLOCKTICKS: 1000000.0\n"
		"i.ipc: 0.5\ni.cpi: 2.0\ni.S0.ipc: 1.0\ni.S0.cpi: 1.0\n"
		"i.UNC_M_RPQ_latency_ns: 20000.0\ni.UNC_M_RPQ_throughput_MBps: 0.0\n"
		/* 3.0 starts the last interval: the 3.5 line has only 5 fields */
		"ps.cpu-cycles: 3000.0\nps.S0.cpu-cycles: 1000.0\nps.S1.cpu-cycles: 2000.0\n"
		"ps.instructions: 2500.0\nps.S0.instructions: 1500.0\nps.S1.instructions: 1000.0\n"
		"ps.llc_misses.mem_read_Bytes: 32.0\nps.UNC_M_RPQ_INSERTS: 20.0\n"
		"ps.UNC_M_RPQ_OCCUPANCY: 450.0\nps.UNC_M_CLOCKTICKS: 1500000.0\n"
		"total.instructions: 5000.0\n"
		"overall.ipc: 0.8333333333333334\noverall.cpi: 1.2\n"
		"overall.S0.ipc: 1.5\noverall.S0.cpi: 0.6666666666666666\n"
		"overall.S1.ipc: 0.5\noverall.S1.cpi: 2.0\n"
		"overall.UNC_M_RPQ_latency_ns: 22500.0\n"
		"overall.UNC_M_RPQ_throughput_MBps: 0.001220703125\n");
}

static void test_perf_stat_space_layout(void **state)
{
	/* the old layout: "msec" names the clock events (lkp's quirk);
	 * no command line, so no event check */
	expect_output(&parser_perf_stat,
		"1.0 100  cpu-cycles 5 100.00 0.5 GHz\n"
		"1.0 10.5 msec cpu-clock 5 100.00 1.0 CPUs utilized\n"
		"1.0 1.5 msec task-clock 5 100.00 1.0 CPUs utilized\n"
		"1.0 7  iTLB-loads 5 100.00\n"
		"1.0 3  iTLB-load-misses 5 100.00\n"
		"1.0 60  instructions 5 100.00\n"
		"2.0 1  cpu-cycles 5 100.00\n",
		"time: 1.0\n"
		"i.cpu-cycles: 100.0\ni.msec: 12.0\ni.iTLB-loads: 7.0\n"
		"i.iTLB-load-misses: 3.0\ni.instructions: 60.0\n"
		"i.ipc: 0.6\ni.cpi: 1.6666666666666667\n"
		"i.iTLB-load-miss-rate%: 30.0\ni.instructions-per-iTLB-miss: 20.0\n"
		"i.metric.GHz: 0.5\n"
		"ps.cpu-cycles: 100.0\nps.msec: 12.0\nps.iTLB-loads: 7.0\n"
		"ps.iTLB-load-misses: 3.0\nps.instructions: 60.0\n"
		"total.instructions: 60.0\n"
		"overall.ipc: 0.6\noverall.cpi: 1.6666666666666667\n"
		"overall.iTLB-load-miss-rate%: 30.0\noverall.instructions-per-iTLB-miss: 20.0\n");
}

static void test_perf_stat_part_window(void **state)
{
	/* $stats_part_begin leaves the first interval out of the ps. sums */
	setenv("stats_part_begin", "1.5", 1);
	expect_output(&parser_perf_stat,
		"1.0,10,,cpu-cycles,1,100.00,,\n"
		"2.0,20,,cpu-cycles,1,100.00,,\n"
		"3.0,40,,cpu-cycles,1,100.00,,\n",
		"time: 1.0\ni.cpu-cycles: 10.0\n"
		"time: 2.0\ni.cpu-cycles: 20.0\n"
		"ps.cpu-cycles: 20.0\n");
	unsetenv("stats_part_begin");
	setenv("stats_part_end", "1.5", 1);
	expect_output(&parser_perf_stat,
		"1.0,10,,cpu-cycles,1,100.00,,\n"
		"2.0,20,,cpu-cycles,1,100.00,,\n"
		"3.0,40,,cpu-cycles,1,100.00,,\n",
		"time: 1.0\ni.cpu-cycles: 10.0\n"
		"time: 2.0\ni.cpu-cycles: 20.0\n"
		"ps.cpu-cycles: 10.0\n");
	unsetenv("stats_part_end");
}

static void test_perf_stat_edges(void **state)
{
	expect_output(&parser_perf_stat, "", "");
	expect_output(&parser_perf_stat,
		      "perf version 5.13\n/usr/bin/perf stat -a -x , -e cycles -- x\n", "");
	/* one interval only: it is the last one, so nothing but (empty) sums */
	expect_output(&parser_perf_stat, "1.0,10,,cycles,1,100.00,,\n", "");
	/* short comma lines are skipped, as lkp does */
	expect_output(&parser_perf_stat,
		      "1.0,10,,cycles\n2.0,10,,cycles,1,100.00,,\n3.0,1,,cycles,1,100.00,,\n",
		      "time: 2.0\ni.cycles: 5.0\nps.cycles: 5.0\n");
	/* hybrid PMUs: "cpu_core/cpu-cycles/" is cpu-cycles */
	expect_output(&parser_perf_stat,
		      "perf stat -x , -e cpu-cycles -- x\n"
		      "1.0,5,,cpu_core/cpu-cycles/,1,100.00,,\n"
		      "2.0,1,,cpu-cycles,1,100.00,,\n"
		      "3.0,1,,cpu-cycles,1,100.00,,\n",
		      "time: 1.0\ni.cpu-cycles: 5.0\ntime: 2.0\ni.cpu-cycles: 1.0\n"
		      "ps.cpu-cycles: 3.0\n");
}

static void test_perf_stat_errors(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *in =
		"perf stat -a -x , -e cycles,instructions -- x\n"
		"1.0,10,,cycles,1,100.00,,\n"
		"2.0,10,,cycles,1,100.00,,\n"
		"2.0,10,,branches,1,100.00,,\n";

	/* lkp exits 1 there, keeping what it printed */
	assert_int_equal(run_capture(&parser_perf_stat, in, &out, &err), -1);
	assert_string_equal(out.buf, "time: 1.0\ni.cycles: 10.0\n");
	assert_non_null(strstr(err.buf, "perf-stat: <test>:4: expected an event"));
	strbuf_release(&out);
	strbuf_release(&err);

	expect_error(&parser_perf_stat, "1.0 5\n", "<test>:1:", "expected a count and an event");
	expect_error(&parser_perf_stat, "1.0 S0 8 9\n", "<test>:1:", "expected an event name");
	expect_error(&parser_perf_stat, "1.0,10,,a/b,1,100.00,,\n",
		     "<test>:1:", "expected an event name");
}

/* ---- perf-profile --------------------------------------------------- */

static void test_perf_profile_rules(void **state)
{
	expect_output(&parser_perf_profile,
		"# ========\n"
		"# captured on: Sun Aug 14 13:17:36 2016\n"
		"# ========\n"
		"#\n"
		"# Samples: 1K of event 'cpu-clock:u'\n"
		"# Event count (approx.): 100\n"
		"#\n"
		"# Children      Self  Shared Object      Symbol\n"
		"#\n"
		"    50.00%    10.00%  [kernel.kallsyms]  [k] foo.isra.1\n"
		"40.00% foo.isra.1;bar.constprop.2;baz;qux;quux;corge\n"
		"    25.50%    20.25%  [kernel.kallsyms]  [k] foo.part.3\n"
		"10.00% a;;b;\n"
		"    0.04%     0.04%  [kernel.kallsyms]  [k] tiny\n"
		"    1.00%     0.50%  [kernel.kallsyms]  [k] seven  -  -\n"
		"    2.00%     1.00%  [kernel.kallsyms]  [k] six  -\n"
		"0.02% small;chain\n"
		"0.03% small;chain\n"
		"0.01% ;;;\n"
		"0.05% ;;;\n"
		"# Samples: 5K of event 'cycles'\n"
		"    3.00%     3.00%  [kernel.kallsyms]  [k] later\n"
		" 1.00% leading;blank\n"
		"1.00% trailing;blank \n"
		"1% no;fraction\n"
		"garbage 1.00%\n",
		"calltrace.cpu-clock-u.: 0.06\n"
		"calltrace.cpu-clock-u.a..b: 10.00\n"
		"calltrace.cpu-clock-u.foo.bar.baz.qux.quux: 40.00\n"
		"calltrace.cpu-clock-u.small.chain: 0.05\n"
		"children.cpu-clock-u.foo: 75.50\n"
		"children.cpu-clock-u.later: 3.00\n"
		"children.cpu-clock-u.seven: 1.00\n"
		"self.cpu-clock-u.foo: 30.25\n"
		"self.cpu-clock-u.later: 3.00\n"
		"self.cpu-clock-u.seven: 0.50\n");
}

/* Unresolved frames (a report made without perf report -U): no metric
 * may name an address, which ASLR changes every run, nor "(deleted)". */
static void test_perf_profile_unresolved(void **state)
{
	expect_output(&parser_perf_profile,
		"# ========\n"
		"# Samples: 1K of event 'cpu-clock'\n"
		"    98.45%     0.00%  loop     libc.so.6             [.] __libc_start_call_main\n"
		"98.45% __libc_start_call_main\n"
		"    48.33%     0.00%  loop     loop                  [.] 0x00005566de84f15b\n"
		"48.33% 0x5566de84f15b;__libc_start_call_main\n"
		"10.00% 0x5566de84f15b;0X1;0x;[unknown];a;b;c;d;e;f\n"
		"5.00% 0xabc;0xffffffff81000000\n"
		"1.00% [unknown]\n"
		"    7.00%     7.00%  loop     /tmp/loop (deleted)   [.] main\n"
		"    3.00%     2.00%  /tmp/loop (deleted)   [.] main  -  -\n"
		"    4.00%     4.00%  [unknown]   [.] [unknown]  -  -\n"
		"    2.00%     1.00%  a b c  [.]\n"
		"    2.00%     1.00%  a b c  [.] x y\n"
		/* more fields than the parser keeps: not read past them */
		"    2.00%     1.00%  a b c d e f g h i j  [.] x\n"
		"    2.00%     1.00%  /a b c d e (deleted)  [.] y  -  -\n",
		"calltrace.cpu-clock.0X1.0x.a.b.c: 10.00\n"
		"calltrace.cpu-clock.__libc_start_call_main: 146.78\n"
		"children.cpu-clock.__libc_start_call_main: 98.45\n"
		"children.cpu-clock.main: 10.00\n"
		"children.cpu-clock.y: 2.00\n"
		"self.cpu-clock.main: 9.00\n"
		"self.cpu-clock.y: 1.00\n");
}

static void test_perf_profile_edges(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	expect_output(&parser_perf_profile, "", "");
	/* no Samples/Events line: no event, nothing to sum */
	expect_output(&parser_perf_profile, "# ========\n    1.00%  1.00%  a  [k] b\n", "");
	/* the old "# Events:" header; CRLF lines (a " --header" first line,
	 * since "# ========\r" is not lkp's header) */
	expect_output(&parser_perf_profile,
		      "# perf report --header\r\n# Events: 342  context-switches\r\n"
		      "    1.00%     2.00%  [kernel.kallsyms]  [k] schedule\r\n"
		      "0.50% schedule;do_exit\r\n",
		      "calltrace.context-switches.schedule.do_exit: 0.50\n"
		      "children.context-switches.schedule: 1.00\n"
		      "self.context-switches.schedule: 2.00\n");
	/* not a perf-profile report: lkp prints nothing; we warn */
	assert_int_equal(run_capture(&parser_perf_profile, "# ========\r\n# Samples: 1K of event 'x'\r\n"
				     "    1.00%  1.00%  a  [k] b\r\n", &out, &err), 0);
	assert_string_equal(out.buf, "");
	assert_non_null(strstr(err.buf, "perf-profile: <test>:1: expected '# ========'"));
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_fixtures_vmstat),
		cmocka_unit_test(test_fixtures_mpstat),
		cmocka_unit_test(test_fixtures_perf_stat),
		cmocka_unit_test(test_fixtures_perf_profile),
		cmocka_unit_test(test_mem_find),
		cmocka_unit_test(test_ruby_to_f),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_kvmap),
		cmocka_unit_test(test_utc_epoch),
		cmocka_unit_test(test_vmstat_edges),
		cmocka_unit_test(test_vmstat_errors),
		cmocka_unit_test(test_mpstat_layout),
		cmocka_unit_test(test_mpstat_max_util),
		cmocka_unit_test(test_mpstat_truncated),
		cmocka_unit_test(test_mpstat_errors),
		cmocka_unit_test(test_perf_stat_intervals),
		cmocka_unit_test(test_perf_stat_sockets_uncore),
		cmocka_unit_test(test_perf_stat_space_layout),
		cmocka_unit_test(test_perf_stat_part_window),
		cmocka_unit_test(test_perf_stat_edges),
		cmocka_unit_test(test_perf_stat_errors),
		cmocka_unit_test(test_perf_profile_rules),
		cmocka_unit_test(test_perf_profile_edges),
		cmocka_unit_test(test_perf_profile_unresolved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
