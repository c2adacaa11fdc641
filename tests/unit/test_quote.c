/* Unit tests of util/quote.c: words quoted for /bin/sh come back from the
 * shell as they were, whatever they hold. */
#include "test_helpers.h"
#include "util/quote.h"
#include "util/run_command.h"

static void test_shell_quote(void **state)
{
	static const struct { const char *in, *out; } tab[] = {
		{ "", "''" },
		{ "a", "'a'" },
		{ "a b", "'a b'" },
		{ "it's", "'it'\\''s'" },
		{ "'", "''\\'''" },
		{ "$HOME `x` \\ \"", "'$HOME `x` \\ \"'" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, "kept ");
		shell_quote(&sb, tab[i].in);
		assert_string_equal(sb.buf + 5, tab[i].out);
		assert_true(!strncmp(sb.buf, "kept ", 5));
		strbuf_release(&sb);
	}
}

/* The shell splits the line into the same words: printf shows each
 * between < and >, newlines and quotes included. */
static void test_round_trip(void **state)
{
	char *words[] = { "printf", "<%s>", "a b", "it's", "", "$x", "two\nlines", "'\\''" };
	struct strbuf line = STRBUF_INIT, out = STRBUF_INIT;
	char *argv[] = { "/bin/sh", "-c", NULL, NULL };

	(void)state;
	shell_quote_argv(&line, words, 8);
	argv[2] = line.buf;
	assert_int_equal(capture_command(argv, NULL, &out), 0);
	assert_string_equal(out.buf, "<a b><it's><><$x><two\nlines><'\\''>");
	strbuf_reset(&line);
	shell_quote_argv(&line, words, 0);
	assert_string_equal(line.buf, "");
	strbuf_release(&line);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
