/* test_printable.c: util/printable.h, and the messages and names it guards. */
#include "test_helpers.h"
#include "util/error.h"
#include "util/pathsafe.h"
#include "util/printable.h"
#include "util/xalloc.h"

#include <string.h>

/* make_printable on a copy of s; the result in a static buffer */
static const char *shown(const char *s, bool keep_lines)
{
	static char buf[256];
	size_t n = strlen(s);

	assert_true(n < sizeof(buf));
	memcpy(buf, s, n + 1);
	make_printable(buf, n, keep_lines);
	assert_int_equal(strlen(buf), n);
	return buf;
}

static void test_controls(void **state)
{
	(void)state;
	/* CSI, OSC (retitle), BEL, CR, DEL: each byte a '?' */
	assert_string_equal(shown("a\x1b[2Jb", false), "a?[2Jb");
	assert_string_equal(shown("\x1b]0;pwned\x07x", false), "?]0;pwned?x");
	assert_string_equal(shown("ok\rEVIL\x7f", false), "ok?EVIL?");
	/* a tab stays; a newline only with keep_lines */
	assert_string_equal(shown("a\tb\nc", false), "a\tb?c");
	assert_string_equal(shown("a\tb\nc", true), "a\tb\nc");
	/* the first and last bytes of each range */
	assert_string_equal(shown("\x01\x1f \x7e", false), "?? \x7e");
}

static void test_utf8(void **state)
{
	(void)state;
	/* valid text of 2, 3 and 4 bytes is kept */
	assert_string_equal(shown("J\xc3\xb6rg \xe2\x82\xac \xf0\x9f\x90\xa7", false),
			    "J\xc3\xb6rg \xe2\x82\xac \xf0\x9f\x90\xa7");
	/* C1 controls U+0080 and U+009B (CSI) and U+009F; U+00A0 is text */
	assert_string_equal(shown("\xc2\x80\xc2\x9b\xc2\x9f\xc2\xa0", false), "??????\xc2\xa0");
	/* a lone 0x9b (CSI on an 8-bit terminal), a cut sequence, an overlong
	 * '/' (c0 af), a surrogate (ed a0 80), past U+10FFFF (f4 90 80 80) */
	assert_string_equal(shown("a\x9b" "b", false), "a?b");
	assert_string_equal(shown("\xe2\x82", false), "??");
	assert_string_equal(shown("\xc0\xaf", false), "??");
	assert_string_equal(shown("\xed\xa0\x80", false), "???");
	assert_string_equal(shown("\xf4\x90\x80\x80", false), "????");
	/* the edges of the 3- and 4-byte rules: e0 a0 80, ed 9f bf, f0 90 80 80, f4 8f bf bf */
	assert_string_equal(shown("\xe0\xa0\x80\xed\x9f\xbf", false), "\xe0\xa0\x80\xed\x9f\xbf");
	assert_string_equal(shown("\xe0\x9f\xbf", false), "???");
	assert_string_equal(shown("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", false),
			    "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
	assert_string_equal(shown("\xf0\x8f\xbf\xbf", false), "????");
	/* a continuation byte out of range inside a 3-byte sequence */
	assert_string_equal(shown("\xe2\x82\x41", false), "??A");
	assert_string_equal(shown("\xf5\x80\x80\x80", false), "????");
}

static void test_messages_and_names(void **state)
{
	struct stderr_capture cap;
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	/* error() and warning() quote others' text: never an escape */
	capture_start(&cap);
	error("commit '%s': bad", "x\x1b]0;owned\x07y");
	warning("two\nlines\x1b[31m");
	capture_end_sb(&cap, &sb);
	assert_string_equal(sb.buf, "perfbot: commit 'x?]0;owned?y': bad\n"
				    "perfbot: warning: two\nlines?[31m\n");
	/* add_printable: the same rules, no newline kept */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "<");
	add_printable(&sb, "a\nb\xc2\x9b" "c");
	assert_string_equal(sb.buf, "<a?b??c");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_messages_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
