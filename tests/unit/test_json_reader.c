/* Unit tests of src/util/json_reader: every JSON form lkp-tests and perfbot
 * write, exact numbers, string escapes, skipping, and every error message
 * with its position. */
#include "test_helpers.h"
#include "util/json_reader.h"

#include <math.h>

/*
 * The token stream of text as a compact trace: { } [ ] K(key) S(str)
 * N(value) for an integer, D(value) for a float, T F Z for true false
 * null, then "END" or "ERROR: <message>".
 */
static void trace(const char *text, size_t len, struct strbuf *out)
{
	struct json_reader jr;
	enum json_token t;

	strbuf_reset(out);
	json_reader_init(&jr, text, len, "t.json");
	do {
		t = json_next(&jr);
		switch (t) {
		case JSON_OBJECT_BEGIN: strbuf_addstr(out, "{ "); break;
		case JSON_OBJECT_END: strbuf_addstr(out, "} "); break;
		case JSON_ARRAY_BEGIN: strbuf_addstr(out, "[ "); break;
		case JSON_ARRAY_END: strbuf_addstr(out, "] "); break;
		case JSON_KEY: strbuf_addf(out, "K(%s) ", jr.str); break;
		case JSON_STRING: strbuf_addf(out, "S(%s) ", jr.str); break;
		case JSON_NUMBER: strbuf_addf(out, "%c(%.17g) ", jr.is_int ? 'N' : 'D', jr.num); break;
		case JSON_TRUE: strbuf_addstr(out, "T "); break;
		case JSON_FALSE: strbuf_addstr(out, "F "); break;
		case JSON_NULL: strbuf_addstr(out, "Z "); break;
		case JSON_END: strbuf_addstr(out, "END"); break;
		case JSON_ERROR: strbuf_addf(out, "ERROR: %s", jr.err.buf); break;
		}
	} while (t > JSON_END);
	json_reader_release(&jr);
}

static void check_trace(const char *text, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	trace(text, strlen(text), &out);
	if (strcmp(out.buf, want))
		print_error("text: %s\n", text);
	assert_string_equal(out.buf, want);
	strbuf_release(&out);
}

/* The message of the error that text ends with. */
static void check_error(const char *text, const char *want)
{
	struct strbuf out = STRBUF_INIT, w = STRBUF_INIT;

	trace(text, strlen(text), &out);
	strbuf_addf(&w, "ERROR: t.json:%s", want);
	const char *e = strstr(out.buf, "ERROR: ");
	if (!e || strcmp(e, w.buf))
		print_error("text: %s\ntrace: %s\n", text, out.buf);
	assert_non_null(e);
	assert_string_equal(e, w.buf);
	strbuf_release(&out);
	strbuf_release(&w);
}

static void test_lkp_pretty_matrix(void **state)
{
	(void)state;
	/* Ruby's JSON.pretty_generate, as lkp writes matrix.json */
	check_trace("{\n"
		    "  \"vm-scalability.throughput\": [\n"
		    "    13200000,\n"
		    "    1.0e-05\n"
		    "  ],\n"
		    "  \"meminfo.Active\": [\n"
		    "    2.5,\n"
		    "    NaN\n"
		    "  ],\n"
		    "  \"empty\": [],\n"
		    "  \"stats_source\": [\n"
		    "    \"/result/0/stats.json\"\n"
		    "  ]\n"
		    "}\n",
		    "{ K(vm-scalability.throughput) [ N(13200000) D(1.0000000000000001e-05) ] "
		    "K(meminfo.Active) [ D(2.5) D(nan) ] K(empty) [ ] "
		    "K(stats_source) [ S(/result/0/stats.json) ] } END");
}

static void test_compact_and_whitespace(void **state)
{
	(void)state;
	check_trace("{\"a\":[1,2],\"b\":{},\"c\":[[]],\"d\":-3}",
		    "{ K(a) [ N(1) N(2) ] K(b) { } K(c) [ [ ] ] K(d) N(-3) } END");
	check_trace(" \t\r\n{ \"a\" \r\n: \t[ 1 ,\n2 ] }\r\n\t ",
		    "{ K(a) [ N(1) N(2) ] } END");
	/* any value at the top */
	check_trace("42", "N(42) END");
	check_trace(" \"x\" ", "S(x) END");
	check_trace("true", "T END");
	check_trace("[true, false, null]", "[ T F Z ] END");
}

static void test_nan_infinity(void **state)
{
	struct json_reader jr;
	const char *text = "[NaN, Infinity, -Infinity]";

	(void)state;
	json_reader_init(&jr, text, strlen(text), "t.json");
	assert_int_equal(json_next(&jr), JSON_ARRAY_BEGIN);
	assert_int_equal(json_next(&jr), JSON_NUMBER);
	assert_true(isnan(jr.num));
	assert_false(jr.is_int);
	assert_int_equal(json_next(&jr), JSON_NUMBER);
	assert_true(isinf(jr.num) && jr.num > 0);
	assert_false(jr.is_int);
	assert_int_equal(json_next(&jr), JSON_NUMBER);
	assert_true(isinf(jr.num) && jr.num < 0);
	assert_int_equal(json_next(&jr), JSON_ARRAY_END);
	assert_int_equal(json_next(&jr), JSON_END);
	/* JSON_END again, not past the end */
	assert_int_equal(json_next(&jr), JSON_END);
	json_reader_release(&jr);
}

/* Read one number from text; its value and integer flag. */
static double read_number(const char *text, bool *is_int)
{
	struct json_reader jr;
	double v;

	json_reader_init(&jr, text, strlen(text), "n.json");
	assert_int_equal(json_next(&jr), JSON_NUMBER);
	v = jr.num;
	*is_int = jr.is_int;
	assert_int_equal(json_next(&jr), JSON_END);
	json_reader_release(&jr);
	return v;
}

/* The reader must give exactly strtod's double (bit for bit). */
static void check_exact(const char *text, bool want_int)
{
	bool is_int;
	double v = read_number(text, &is_int), w = strtod(text, NULL);

	if (memcmp(&v, &w, sizeof(v)))
		print_error("%s: read %.17g, strtod %.17g\n", text, v, w);
	assert_memory_equal(&v, &w, sizeof(v));
	assert_int_equal(is_int, want_int);
}

static void test_numbers(void **state)
{
	bool is_int;
	(void)state;

	check_exact("0", true);
	check_exact("7", true);
	check_exact("-12", true);
	check_exact("9007199254740993", true);          /* 2^53 + 1 rounds */
	check_exact("9223372036854775807", true);       /* 19 digits */
	check_exact("18446744073709551615", true);      /* 20 digits: strtod */
	check_exact("-99999999999999999999999", true);
	check_exact("0.1", false);
	check_exact("-0.0", false);
	check_exact("2.5", false);
	check_exact("1.0e-05", false);
	check_exact("1E+16", false);
	check_exact("1e22", false);
	check_exact("1e23", false);                     /* past the exact powers */
	check_exact("123.456e-7", false);
	check_exact("0.000001234", false);
	check_exact("3919563540.1258235", false);
	check_exact("1.0689341818607867", false);
	check_exact("9007199254740993.0", false);       /* > 2^53: strtod */
	check_exact("0.30000000000000004", false);
	check_exact("2.2250738585072014e-308", false);
	check_exact("4.9e-324", false);
	check_exact("1.7976931348623157e308", false);
	check_exact("1e400", false);
	check_exact("1e-400", false);
	check_exact("1e99999999999", false);            /* exponent capped */
	check_exact("0.0000000000000000000000000000001", false);
	check_exact("123456789012345678901234567890.5", false);

	/* -0 is the integer 0, as json-c gives it, not the float -0.0 */
	double z = read_number("-0", &is_int);
	assert_true(is_int && z == 0 && !signbit(z));

	/* many numbers as lkp and awk print them */
	unsigned seed = 12345;
	for (int i = 0; i < 20000; i++) {
		char buf[64];
		double v;

		seed = seed * 1103515245 + 12345;
		v = (double)(seed >> 4) / (double)(1 + (seed & 0xffff)) * ((seed & 1) ? 1 : -1);
		snprintf(buf, sizeof(buf), "%.17g", v);
		check_exact(buf, !strpbrk(buf, ".eE"));
		snprintf(buf, sizeof(buf), "%.2f", v);
		check_exact(buf, false);
		snprintf(buf, sizeof(buf), "%.15e", v * 1e-9);
		check_exact(buf, false);
		snprintf(buf, sizeof(buf), "%ld", (long)(v * 1000));
		check_exact(buf, true);
	}
}

static void test_strings(void **state)
{
	struct json_reader jr;
	const char *text =
		"[\"q\\\"b\\\\s\\/\", \"\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20ac\", "
		"\"\\ud83d\\ude00\", \"x\\ud800y\", \"\\udc00\", \"\\ud800\\u0041\", "
		"\"a\\u0000b\", \"caf\xc3\xa9\", \"\"]";
	static const struct {
		const char *s;
		size_t len;
	} want[] = {
		{ "q\"b\\s/", 6 },
		{ "\b\f\n\r\t", 5 },
		{ "A\xc3\xa9\xe2\x82\xac", 6 },
		{ "\xf0\x9f\x98\x80", 4 },              /* a surrogate pair */
		{ "x\xef\xbf\xbdy", 5 },                /* unpaired: U+FFFD */
		{ "\xef\xbf\xbd", 3 },
		{ "\xef\xbf\xbd" "A", 4 },
		{ "a\0b", 3 },                          /* NUL inside, counted */
		{ "caf\xc3\xa9", 5 },                   /* raw UTF-8 passes */
		{ "", 0 },
	};

	(void)state;
	json_reader_init(&jr, text, strlen(text), "s.json");
	assert_int_equal(json_next(&jr), JSON_ARRAY_BEGIN);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(json_next(&jr), JSON_STRING);
		assert_int_equal(jr.len, want[i].len);
		assert_memory_equal(jr.str, want[i].s, want[i].len);
		assert_int_equal(jr.str[jr.len], '\0');
	}
	assert_int_equal(json_next(&jr), JSON_ARRAY_END);
	assert_int_equal(json_next(&jr), JSON_END);
	json_reader_release(&jr);

	/* keys are decoded the same way */
	check_trace("{\"a\\tb\\u0021\": 1}", "{ K(a\tb!) N(1) } END");
}

static void test_skip(void **state)
{
	struct json_reader jr;
	const char *text = "{\"a\": {\"x\": [1, {\"y\": [[], {}]}], \"z\": \"]}\"}, "
			   "\"b\": [1, [2, [3]]], \"c\": 5, \"d\": 6}";

	(void)state;
	json_reader_init(&jr, text, strlen(text), "k.json");
	assert_int_equal(json_next(&jr), JSON_OBJECT_BEGIN);
	assert_int_equal(json_next(&jr), JSON_KEY);
	assert_int_equal(json_next(&jr), JSON_OBJECT_BEGIN);
	assert_int_equal(json_skip(&jr), 0);
	assert_int_equal(json_next(&jr), JSON_KEY);
	assert_string_equal(jr.str, "b");
	assert_int_equal(json_next(&jr), JSON_ARRAY_BEGIN);
	assert_int_equal(json_skip(&jr), 0);
	assert_int_equal(json_next(&jr), JSON_KEY);
	assert_string_equal(jr.str, "c");
	/* skipping a scalar is a no-op */
	assert_int_equal(json_next(&jr), JSON_NUMBER);
	assert_int_equal(json_skip(&jr), 0);
	assert_int_equal(json_next(&jr), JSON_KEY);
	assert_string_equal(jr.str, "d");
	assert_int_equal(json_next(&jr), JSON_NUMBER);
	assert_true(jr.num == 6);
	assert_int_equal(json_next(&jr), JSON_OBJECT_END);
	assert_int_equal(json_next(&jr), JSON_END);
	json_reader_release(&jr);

	/* a syntax error inside what is skipped is still an error */
	text = "[{\"a\": [1 2]}]";
	json_reader_init(&jr, text, strlen(text), "k.json");
	assert_int_equal(json_next(&jr), JSON_ARRAY_BEGIN);
	assert_int_equal(json_next(&jr), JSON_OBJECT_BEGIN);
	assert_int_equal(json_skip(&jr), -1);
	assert_string_equal(jr.err.buf, "k.json:1:11: expected ',' or ']' after an array "
			    "element, got '2'");
	assert_int_equal(json_skip(&jr), -1);
	assert_int_equal(json_next(&jr), JSON_ERROR);
	json_reader_release(&jr);
}

/* The text need not end with a NUL: nothing past len is read. */
static void test_not_nul_terminated(void **state)
{
	struct strbuf out = STRBUF_INIT;
	(void)state;

	trace("[123456]", 4, &out);
	assert_string_equal(out.buf, "[ N(123) ERROR: t.json:1:5: unexpected end of file, "
			    "expected ',' or ']' after an array element");
	trace("12345", 3, &out);
	assert_string_equal(out.buf, "N(123) END");
	trace("1.5e300", 5, &out);      /* "1.5e3" */
	assert_string_equal(out.buf, "D(1500) END");
	trace("12345678901234567890123456", 21, &out);  /* strtod path */
	assert_string_equal(out.buf, "N(1.2345678901234568e+20) END");
	trace("true", 3, &out);
	assert_string_equal(out.buf, "ERROR: t.json:1:1: invalid literal, expected true, "
			    "false, null, NaN or Infinity");
	trace("\"abc\"", 4, &out);
	assert_string_equal(out.buf, "ERROR: t.json:1:5: unexpected end of file in a string, "
			    "expected its closing '\"'");
	trace("\"\\u0041\"", 6, &out);
	assert_string_equal(out.buf, "ERROR: t.json:1:2: invalid \\u escape in a string, "
			    "expected 4 hex digits");
	strbuf_release(&out);
}

static void test_depth(void **state)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	(void)state;

	strbuf_addchars(&text, '[', JSON_READER_MAX_DEPTH);
	strbuf_addchars(&text, ']', JSON_READER_MAX_DEPTH);
	trace(text.buf, text.len, &out);
	assert_non_null(strstr(out.buf, "] END"));

	strbuf_reset(&text);
	strbuf_addchars(&text, '[', JSON_READER_MAX_DEPTH + 1);
	trace(text.buf, text.len, &out);
	assert_non_null(strstr(out.buf, "ERROR: t.json:1:257: nesting deeper than 256 levels"));
	strbuf_release(&text);
	strbuf_release(&out);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	/* structure */
	check_error("", "1:1: unexpected end of file, expected a JSON value");
	check_error("  \n ", "2:2: unexpected end of file, expected a JSON value");
	check_error("{\n \"a\": [1,\n", "3:1: unexpected end of file, expected a JSON value after ','");
	check_error("{\"a\": [1", "1:9: unexpected end of file, expected ',' or ']' after an array element");
	check_error("{\"a\": 1", "1:8: unexpected end of file, expected ',' or '}' after an object member");
	check_error("{", "1:2: unexpected end of file, expected a string key or '}'");
	check_error("[", "1:2: unexpected end of file, expected a JSON value or ']'");
	check_error("{\"a\"", "1:5: unexpected end of file, expected ':' after the object key");
	check_error("{\"a\":", "1:6: unexpected end of file, expected a JSON value");
	check_error("{\"a\":1,", "1:8: unexpected end of file, expected a string key after ','");
	check_error("[1 2]", "1:4: expected ',' or ']' after an array element, got '2'");
	check_error("[1}", "1:3: expected ',' or ']' after an array element, got '}'");
	check_error("{\"a\": 1]", "1:8: expected ',' or '}' after an object member, got ']'");
	check_error("{\"a\" 1}", "1:6: expected ':' after the object key, got '1'");
	check_error("{a: 1}", "1:2: expected a string key or '}', got 'a'");
	check_error("{\"a\": 1,}", "1:9: expected a string key after ',', got '}'");
	check_error("[1,]", "1:4: expected a JSON value after ',', got ']'");
	check_error("[,]", "1:2: expected a JSON value or ']', got ','");
	check_error("{\"a\": }", "1:7: expected a JSON value, got '}'");
	check_error("{} x", "1:4: unexpected text after the JSON value, expected the end of the file");
	check_error("[1]\n]", "2:1: unexpected text after the JSON value, expected the end of the file");
	check_error("[1\x01]", "1:3: expected ',' or ']' after an array element, got byte 0x01");
	check_error("/* c */ [1]", "1:1: expected a JSON value, got '/'");
	check_error("['x']", "1:2: expected a JSON value or ']', got '''");
	/* numbers */
	check_error("[01]", "1:3: expected '.', 'e' or the end of the number after a leading 0 "
		    "(leading zeros are not allowed)");
	check_error("[-]", "1:3: expected a digit or Infinity after '-', got ']'");
	check_error("[-", "1:3: unexpected end of file, expected a digit or Infinity after '-'");
	check_error("[-Inf]", "1:3: expected a digit or Infinity after '-', got 'I'");
	check_error("[1.]", "1:4: expected a digit after '.', got ']'");
	check_error("[1.e5]", "1:4: expected a digit after '.', got 'e'");
	check_error("[1e]", "1:4: expected a digit in the exponent, got ']'");
	check_error("[1e+", "1:5: unexpected end of file, expected a digit in the exponent");
	check_error("[.5]", "1:2: expected a JSON value or ']', got '.'");
	check_error("[+1]", "1:2: expected a JSON value or ']', got '+'");
	check_error("[1.5.3]", "1:5: expected ',' or ']' after an array element, got '.'");
	/* literals */
	check_error("[tru]", "1:2: invalid literal, expected true, false, null, NaN or Infinity");
	check_error("[nan]", "1:2: invalid literal, expected true, false, null, NaN or Infinity");
	check_error("[TRUE]", "1:2: invalid literal, expected true, false, null, NaN or Infinity");
	check_error("[truex]", "1:6: expected ',' or ']' after an array element, got 'x'");
	/* strings */
	check_error("[\"abc", "1:6: unexpected end of file in a string, expected its closing '\"'");
	check_error("[\"a\\", "1:5: unexpected end of file in a string, expected its closing '\"'");
	check_error("[\"a\nb\"]", "1:4: control character 0x0a in a string, expected it escaped "
		    "(or a missing closing '\"')");
	check_error("[\"a\tb\"]", "1:4: control character 0x09 in a string, expected it escaped "
		    "(or a missing closing '\"')");
	check_error("[\"\\x\"]", "1:3: invalid escape '\\x' in a string, expected one of "
		    "\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
	check_error("[\"\\\x01\"]", "1:3: invalid escape: byte 0x01 after '\\' in a string");
	check_error("[\"\\u12G4\"]", "1:3: invalid \\u escape in a string, expected 4 hex digits");
	check_error("[\"\\u12", "1:3: invalid \\u escape in a string, expected 4 hex digits");
	check_error("{\"a\nb\": 1}", "1:4: control character 0x0a in a string, expected it escaped "
		    "(or a missing closing '\"')");
	/* lines and columns count from 1, columns in bytes */
	check_error("{\n  \"a\": [\n    1,\n    x\n  ]\n}\n",
		    "4:5: invalid literal, expected true, false, null, NaN or Infinity");
	check_error("[\"\xc3\xa9\", x]", "1:8: invalid literal, expected true, false, null, NaN or Infinity");
}

static void test_caller_errors(void **state)
{
	struct json_reader jr;
	const char *text = "{\n  \"a\": \"x\",\n  \"b\": 1\n}";
	const char *at;
	int line, col;

	(void)state;
	json_reader_init(&jr, text, strlen(text), "c.json");
	assert_int_equal(json_next(&jr), JSON_OBJECT_BEGIN);
	assert_int_equal(json_next(&jr), JSON_KEY);
	assert_int_equal(json_next(&jr), JSON_STRING);
	at = jr.tok;
	json_reader_linecol(&jr, at, &line, &col);
	assert_int_equal(line, 2);
	assert_int_equal(col, 8);
	/* going back before the last position asked about works too */
	json_reader_linecol(&jr, text, &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 1);
	assert_int_equal(json_next(&jr), JSON_KEY);
	assert_int_equal(json_reader_fail(&jr, at, "expected a number, got a string '%s'", "x"), -1);
	assert_string_equal(jr.err.buf, "c.json:2:8: expected a number, got a string 'x'");
	/* the first message stays; the reader is stopped */
	assert_int_equal(json_reader_fail(&jr, text, "second"), -1);
	assert_string_equal(jr.err.buf, "c.json:2:8: expected a number, got a string 'x'");
	assert_int_equal(json_next(&jr), JSON_ERROR);
	assert_int_equal(json_skip(&jr), -1);
	json_reader_release(&jr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lkp_pretty_matrix),
		cmocka_unit_test(test_compact_and_whitespace),
		cmocka_unit_test(test_nan_infinity),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_not_nul_terminated),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_caller_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
