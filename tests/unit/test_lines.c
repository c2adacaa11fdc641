/* Unit tests of src/util/lines: the line iterator and the field splitters
 * every parser and monitor reads its input with. */
#include "test_helpers.h"
#include "util/lines.h"

#include <string.h>

/* The lines of buf[0..len) as "len/nl|" per line, to compare at once. */
static void lines_of(const char *buf, size_t len, struct strbuf *out)
{
	struct line_iter it;
	struct line l;
	size_t no = 0;

	strbuf_reset(out);
	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		assert_int_equal(l.no, ++no);
		assert_true(l.s >= buf && l.s + l.len <= buf + len);
		strbuf_addf(out, "%zu/%d|", l.len, l.nl);
	}
	assert_int_equal(it.no, no);
	/* the end stays the end */
	assert_false(line_next(&it, &l));
	assert_int_equal(it.no, no);
}

static void test_line_iter(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct line_iter it;
	struct line l;

	lines_of("", 0, &sb);
	assert_string_equal(sb.buf, "");
	lines_of("\n", 1, &sb);
	assert_string_equal(sb.buf, "0/1|");
	lines_of("a", 1, &sb);                  /* no trailing newline */
	assert_string_equal(sb.buf, "1/0|");
	lines_of("a\n", 2, &sb);
	assert_string_equal(sb.buf, "1/1|");
	lines_of("a\nb", 3, &sb);
	assert_string_equal(sb.buf, "1/1|1/0|");
	lines_of("a\n\n", 3, &sb);              /* an empty last line counts */
	assert_string_equal(sb.buf, "1/1|0/1|");
	lines_of("a\r\nbc\r\n", 7, &sb);        /* CRLF: '\r' kept */
	assert_string_equal(sb.buf, "2/1|3/1|");
	lines_of("a\0b\nc", 5, &sb);            /* NUL is an ordinary byte */
	assert_string_equal(sb.buf, "3/1|1/0|");
	/* only len bytes are read: a '\n' just past the end is not seen */
	lines_of("ab\n", 2, &sb);
	assert_string_equal(sb.buf, "2/0|");

	line_iter_init(&it, "a\r\n\nbc", 6);
	assert_true(line_next(&it, &l));
	assert_int_equal(l.len, 2);
	assert_true(l.nl);
	assert_int_equal(l.no, 1);
	line_chomp(&l);
	assert_int_equal(l.len, 1);
	line_chomp(&l);                         /* one '\r' only, and only a '\r' */
	assert_int_equal(l.len, 1);
	assert_true(line_next(&it, &l));
	assert_int_equal(l.len, 0);
	line_chomp(&l);                         /* an empty line stays empty */
	assert_int_equal(l.len, 0);
	assert_true(line_next(&it, &l));
	assert_int_equal(l.no, 3);
	assert_int_equal(l.len, 2);
	assert_false(l.nl);
	assert_memory_equal(l.s, "bc", 2);
	assert_false(line_next(&it, &l));

	/* "\r\r" chomps to "\r": Ruby's chomp removes one line ending */
	line_iter_init(&it, "\r\r\n", 3);
	assert_true(line_next(&it, &l));
	line_chomp(&l);
	assert_int_equal(l.len, 1);
	strbuf_release(&sb);
}

static void test_line_long(void **state)
{
	struct strbuf big = STRBUF_INIT, copy = STRBUF_INIT;
	struct line_iter it;
	struct line l;

	/* a line far longer than any stack buffer, then a short one */
	strbuf_addchars(&big, 'x', 1 << 20);
	strbuf_addstr(&big, "\nend");
	line_iter_init(&it, big.buf, big.len);
	assert_true(line_next_str(&it, &l, &copy));
	assert_int_equal(l.len, 1 << 20);
	assert_int_equal(copy.len, 1 << 20);
	assert_int_equal(strlen(copy.buf), 1 << 20);
	assert_true(line_next_str(&it, &l, &copy));
	/* the copy is replaced, not appended to */
	assert_string_equal(copy.buf, "end");
	assert_int_equal(l.no, 2);
	assert_false(line_next_str(&it, &l, &copy));
	strbuf_release(&big);
	strbuf_release(&copy);
}

static void test_line_next_str(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct line_iter it;
	struct line l;

	line_iter_init(&it, "", 0);
	assert_false(line_next_str(&it, &l, &sb));
	assert_int_equal(line_iter_last(&it), 1);       /* blame line 1 */

	line_iter_init(&it, "one\r\n\nx\0y", 9);
	assert_true(line_next_str(&it, &l, &sb));
	assert_string_equal(sb.buf, "one\r");   /* the '\r' is kept */
	assert_int_equal(line_iter_last(&it), 1);
	assert_true(line_next_str(&it, &l, &sb));
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	assert_true(line_next_str(&it, &l, &sb));
	/* a NUL ends the C string but not the copy */
	assert_string_equal(sb.buf, "x");
	assert_int_equal(sb.len, 3);
	assert_memory_equal(sb.buf, "x\0y", 4);
	assert_false(line_next_str(&it, &l, &sb));
	/* the last line read, not one past it */
	assert_int_equal(line_iter_last(&it), 3);
	strbuf_release(&sb);
}

static void test_line_count(void **state)
{
	assert_int_equal(line_count("", 0), 1);
	assert_int_equal(line_count("\n", 1), 1);
	assert_int_equal(line_count("a", 1), 1);
	assert_int_equal(line_count("a\n", 2), 1);
	assert_int_equal(line_count("a\nb", 3), 2);
	assert_int_equal(line_count("a\nb\n", 4), 2);
	assert_int_equal(line_count("\n\n\n", 3), 3);
	assert_int_equal(line_count("a\r\nb\r\n", 6), 2);
	/* the same count as the iterator's */
	{
		const char *s = "x\n\ny\nz";
		struct line_iter it;
		struct line l;

		line_iter_init(&it, s, strlen(s));
		while (line_next(&it, &l))
			;
		assert_int_equal(line_count(s, strlen(s)), it.no);
	}
}

static void test_split_ws(void **state)
{
	struct field f[3];
	const char *s = " \tab  c\vd e\r";

	assert_int_equal(split_ws(s, strlen(s), f, 3), 4);
	assert_true(field_is(&f[0], "ab"));
	assert_true(field_is(&f[1], "c"));
	assert_true(field_is(&f[2], "d"));
	assert_int_equal(split_ws("", 0, f, 3), 0);
	assert_int_equal(split_ws("   ", 3, f, 3), 0);
	assert_int_equal(split_ws(" \t\n\v\f\r", 6, f, 3), 0);
	/* counting only */
	assert_int_equal(split_ws("a b c d e", 9, NULL, 0), 5);
	/* CRLF: the '\r' is whitespace, never part of a field */
	assert_int_equal(split_ws("a b\r", 4, f, 3), 2);
	assert_true(field_is(&f[1], "b"));
	/* no surrounding whitespace */
	assert_int_equal(split_ws("x", 1, f, 3), 1);
	assert_true(field_is(&f[0], "x"));
	/* long tokens take the 8-bytes-at-a-time path, control bytes are not blanks */
	s = "abcdefghij\001klmnopqrstuvwxyz0123\tX";
	assert_int_equal(split_ws(s, strlen(s), f, 3), 2);
	assert_int_equal(f[0].len, 31);
	assert_true(field_is(&f[1], "X"));
	/* a blank at each offset of an 8-byte word, and bytes >= 0x80 */
	for (size_t at = 1; at < 17; at++) {
		char buf[32];

		memset(buf, '\xe9', sizeof(buf));
		buf[at] = ' ';
		assert_int_equal(split_ws(buf, sizeof(buf), f, 3), 2);
		assert_int_equal(f[0].len, at);
		assert_int_equal(f[1].len, sizeof(buf) - at - 1);
	}
	/* only len bytes are read */
	assert_int_equal(split_ws("ab cd", 2, f, 3), 1);
	assert_int_equal(f[0].len, 2);

	assert_true(field_is(&f[0], "ab"));
	assert_false(field_is(&f[0], "a"));
	assert_false(field_is(&f[0], "abc"));
}

static void test_split_char(void **state)
{
	struct field f[3];

	assert_int_equal(split_char("a,,b,,", 6, ',', 0, f, 3), 3);
	assert_true(field_is(&f[0], "a"));
	assert_true(field_is(&f[1], ""));
	assert_true(field_is(&f[2], "b"));
	assert_int_equal(split_char("a,,b,,", 6, ',', SPLIT_KEEP_TRAILING_EMPTY, f, 3), 5);
	assert_int_equal(split_char("", 0, ',', 0, f, 3), 0);
	assert_int_equal(split_char("", 0, ',', SPLIT_KEEP_TRAILING_EMPTY, f, 3), 1);
	assert_int_equal(split_char(",,", 2, ',', 0, f, 3), 0);
	assert_int_equal(split_char(",a", 2, ',', 0, f, 3), 2);
	assert_true(field_is(&f[0], ""));
	assert_true(field_is(&f[1], "a"));
	/* whitespace is data here; a '\r' stays in the last field */
	assert_int_equal(split_char(" a ;b\r", 6, ';', 0, f, 3), 2);
	assert_true(field_is(&f[0], " a "));
	assert_true(field_is(&f[1], "b\r"));
	/* more fields than room: all are counted */
	assert_int_equal(split_char("1;2;3;4;5", 9, ';', 0, f, 3), 5);
	assert_true(field_is(&f[2], "3"));
}

static void test_field_list(void **state)
{
	struct field_list fl = FIELD_LIST_INIT;
	struct strbuf wide = STRBUF_INIT;

	assert_int_equal(split_ws_all(&fl, " a b ", 5), 2);
	assert_true(field_is(&fl.v[1], "b"));
	/* many fields: storage grows, and is kept */
	for (int i = 0; i < 300; i++)
		strbuf_addf(&wide, " %d", i);
	assert_int_equal(split_ws_all(&fl, wide.buf, wide.len), 300);
	assert_true(field_is(&fl.v[0], "0"));
	assert_true(field_is(&fl.v[299], "299"));
	assert_true(fl.alloc >= 300);
	assert_int_equal(split_ws_all(&fl, "", 0), 0);
	assert_int_equal(fl.nr, 0);
	assert_true(fl.alloc >= 300);

	/* NUL-terminated copies */
	assert_int_equal(split_ws_str(&fl, "  a \t bc  "), 2);
	assert_string_equal(fl.str[0], "a");
	assert_string_equal(fl.str[1], "bc");
	assert_true(field_is(&fl.v[1], "bc"));
	assert_int_equal(split_ws_str(&fl, wide.buf), 300);
	assert_string_equal(fl.str[0], "0");
	assert_string_equal(fl.str[150], "150");
	assert_string_equal(fl.str[299], "299");
	assert_int_equal(split_ws_str(&fl, ""), 0);
	assert_int_equal(split_ws_str(&fl, "x"), 1);
	assert_string_equal(fl.str[0], "x");
	/* a copy outlives the string it came from */
	{
		char tmp[] = "p q";

		split_ws_str(&fl, tmp);
		memset(tmp, 'z', 3);
		assert_string_equal(fl.str[1], "q");
	}

	assert_int_equal(split_char_str(&fl, "a,,b,,", ','), 3);
	assert_string_equal(fl.str[0], "a");
	assert_string_equal(fl.str[1], "");
	assert_string_equal(fl.str[2], "b");
	assert_int_equal(split_char_str(&fl, "", ','), 0);
	assert_int_equal(split_char_str(&fl, ",a", ','), 2);
	assert_string_equal(fl.str[0], "");
	strbuf_reset(&wide);
	for (int i = 0; i < 100; i++)
		strbuf_addf(&wide, "%s%d", i ? ";" : "", i);
	assert_int_equal(split_char_str(&fl, wide.buf, ';'), 100);
	assert_string_equal(fl.str[99], "99");

	field_list_release(&fl);
	assert_null(fl.v);
	assert_null(fl.str);
	assert_int_equal(fl.nr, 0);
	assert_int_equal(fl.alloc, 0);
	/* usable again after release */
	assert_int_equal(split_ws_str(&fl, "k v"), 2);
	assert_string_equal(fl.str[1], "v");
	field_list_release(&fl);
	field_list_release(&fl);        /* twice is harmless */
	strbuf_release(&wide);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_iter),
		cmocka_unit_test(test_line_long),
		cmocka_unit_test(test_line_next_str),
		cmocka_unit_test(test_line_count),
		cmocka_unit_test(test_split_ws),
		cmocka_unit_test(test_split_char),
		cmocka_unit_test(test_field_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
