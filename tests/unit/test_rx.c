/*
 * Unit tests of src/util/rx: the syntax, submatches, errors, and a
 * differential test against glibc's regexec, which decides whether a
 * match exists the same way (rx must agree on every subject).
 */
#include "test_helpers.h"
#include "util/rx.h"
#include "util/xalloc.h"

#include <regex.h>

static void check(const char *pattern, const char *s, bool want, const char *g1)
{
	struct rx re;
	struct rx_sub m[2];
	const char *why = NULL;

	if (rx_compile(&re, pattern, &why) < 0)
		fail_msg("'%s' did not compile: %s", pattern, why);
	bool got = rx_exec(&re, s, m, 2);
	if (got != want)
		fail_msg("'%s' on '%s': %s", pattern, s, got ? "matched" : "no match");
	if (got && g1) {
		assert_true(m[1].so >= 0);
		if (strlen(g1) != (size_t)(m[1].eo - m[1].so) || strncmp(s + m[1].so, g1, strlen(g1)))
			fail_msg("'%s' on '%s': group 1 is '%.*s', want '%s'", pattern, s,
				 (int)(m[1].eo - m[1].so), s + m[1].so, g1);
	}
	rx_release(&re);
}

static void test_syntax(void **state)
{
	(void)state;
	check("abc", "xxabcxx", true, NULL);
	check("abc", "ab", false, NULL);
	check("^abc", "xabc", false, NULL);
	check("^abc$", "abc", true, NULL);
	check("abc$", "abcd", false, NULL);
	check("a.c", "abc", true, NULL);
	check("a.c", "ac", false, NULL);
	check("([0-9]+) bytes", "copied 4096 bytes", true, "4096");
	check("x([0-9]*)y", "xy", true, "");
	check("(a|ab)(c|bcd)", "abcd", true, "a");      /* leftmost-first */
	check("(Copy|Scale|Add|Triad):", "Triad: 1", true, "Triad");
	check("[[:alnum:]_]+\\(\\)", "# Executed 1,000 getppid() calls", true, NULL);
	check("[^[:space:]]+$", "a b", true, NULL);
	check("^[[:space:]]*([0-9.]+)d?[[:space:]]+(bytes|KB|MB|GB)/sec", "  12.5d MB/sec", true,
	      "12.5");
	check("[]a]", "]", true, NULL);
	check("[a-]", "-", true, NULL);
	check("[^0-9+]", "+", false, NULL);
	check("a{2}", "a", false, NULL);
	check("a{2}", "xaax", true, NULL);
	check("^a{2,3}$", "aaaa", false, NULL);
	check("^a{2,}$", "aaaa", true, NULL);
	check("^(ab){1,2}$", "abab", true, "ab");
	check("\\.\\*\\[", ".*[", true, NULL);
	check("a|", "b", true, NULL);                   /* the empty alternative */
	check("(a*)*b", "aaab", true, NULL);            /* an empty loop ends */
	check("(x)?y", "y", true, NULL);
	check("Total time:[[:space:]]*([0-9.]+)[[:space:]]*\\[sec\\]",
	      " Total time: 0.023 [sec]", true, "0.023");
}

static void test_groups_not_taken(void **state)
{
	struct rx re;
	struct rx_sub m[4];
	(void)state;

	assert_int_equal(rx_compile(&re, "(a)|(b)", NULL), 0);
	assert_int_equal(re.nsub, 3);
	assert_true(rx_exec(&re, "b", m, 4));
	assert_int_equal(m[0].so, 0);
	assert_int_equal(m[0].eo, 1);
	assert_int_equal(m[1].so, -1);
	assert_int_equal(m[1].eo, -1);
	assert_int_equal(m[2].so, 0);
	assert_int_equal(m[3].so, -1);          /* past the groups */
	assert_true(rx_exec(&re, "a", NULL, 0));
	rx_release(&re);
}

/* The Ruby syntax lkp's job templates use (programs/ltp/include's kind). */
static void test_ruby_syntax(void **state)
{
	(void)state;
	check("^fs(-\\w+)?$", "fs-ext_4", true, "-ext_4");
	check("^fs(-\\w+)?$", "fs-a.b", false, NULL);
	check("^fs(-\\w+)?$", "fs", true, NULL);
	check("\\d+", "ab12", true, NULL);
	check("^\\d", "a1", false, NULL);
	check("a\\sb", "a\tb", true, NULL);
	check("a\\Sb", "a b", false, NULL);
	check("^\\D\\W$", "x-", true, NULL);
	check("^\\D", "7", false, NULL);
	check("\\W", "abc_9", false, NULL);
	/* (?:...) groups without taking a number */
	check("(?:ab)+(c)", "ababc", true, "c");
	/* negative lookahead: where the subpattern does not match */
	check("^syscalls(?!-ipc)", "syscalls", true, NULL);
	check("^syscalls(?!-ipc)", "syscalls-foo", true, NULL);
	check("^syscalls(?!-ipc)", "syscalls-ipc", false, NULL);
	check("^syscalls(?!-ipc)", "syscalls-ip", true, NULL);
	/* positive lookahead consumes nothing */
	check("a(?=b)(b)", "ab", true, "b");
	check("a(?=b)", "ac", false, NULL);
	check("(?=.*x)(y)", "yx", true, "y");
	/* a lookahead sees past the end of the outer match, and its own ^ is
	 * the subject's start */
	check("a(?!.*z)", "aaz", false, NULL);
	check("b(?=^)", "b", false, NULL);
	/* nested */
	check("a(?!b(?=c))", "abc", false, NULL);
	check("a(?!b(?=c))", "abd", true, NULL);
}

static void test_errors(void **state)
{
	static const struct { const char *pattern, *why; } bad[] = {
		{ "(a", "expected ')'" },
		{ "a)", "unmatched ')'" },
		{ "*a", "nothing to repeat" },
		{ "a**", NULL },                /* fine: a repeated repeat */
		{ "[a", "expected ']'" },
		{ "[z-a]", "a range that ends before it starts" },
		{ "[[:nope:]]", "unknown character class" },
		{ "a{256}", "expected {m}, {m,} or {m,n} with m, n <= 255" },
		{ "a{3,2}", "expected {m}, {m,} or {m,n} with m, n <= 255" },
		{ "a{2", "expected '}'" },
		{ "a\\", "a trailing '\\'" },
		{ "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
		  "too many groups" },
		{ "(a{200}){200}", "pattern too large" },
		{ "((?!a{200}){200})", "pattern too large" },
		{ "(?!(?!a{100}){100}){100}", "pattern too large" },
		{ "a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{255}a{15}(?!b)",
		  "pattern too large" },
		{ "(?!a", "expected ')'" },
		{ "(?<a)", "nothing to repeat" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rx re;
		const char *why = NULL;
		int r = rx_compile(&re, bad[i].pattern, &why);
		if (!bad[i].why) {
			assert_int_equal(r, 0);
			rx_release(&re);
			continue;
		}
		if (r != -1)
			fail_msg("'%s' compiled", bad[i].pattern);
		assert_string_equal(why, bad[i].why);
	}
}

/*
 * rx and glibc agree on whether each of many subjects matches each
 * pattern of the parsers' kind; subjects are random strings over the
 * characters the patterns care about.
 */
static void test_same_as_glibc(void **state)
{
	static const char *const patterns[] = {
		"^\\.*([0-9]+) bytes / ([0-9]+) usecs = ([0-9]+) KB.s",
		"([0-9]+) bytes \\([0-9.]+ .B(, [0-9.]+ .iB)?\\) copied",
		"[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9].*$",
		"^[0-9]+[[:space:]]+[0-9]+\\.[0-9]+[[:space:]]+",
		"^[a-z_,]+$", "^[0-9.,]+$", "(a|ab)(c|bcd)(d*)", "^(ab|a)*b?$",
		"x{2,4}y?", "[^0-9 ]", "^ *[0-9]+.*[ ]+[0-9|.]+.*",
	};
	static const char alphabet[] = "0123456789 .,abcdxy/=BKs_";
	unsigned seed = 12345;
	char s[40];
	(void)state;

	for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
		struct rx re;
		regex_t g;
		assert_int_equal(rx_compile(&re, patterns[p], NULL), 0);
		assert_int_equal(regcomp(&g, patterns[p], REG_EXTENDED | REG_NOSUB), 0);
		for (int k = 0; k < 3000; k++) {
			size_t n = (size_t)(rand_r(&seed) % (sizeof(s) - 1));
			for (size_t i = 0; i < n; i++)
				s[i] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
			s[n] = '\0';
			bool want = regexec(&g, s, 0, NULL, 0) == 0;
			if (rx_exec(&re, s, NULL, 0) != want)
				fail_msg("'%s' on '%s': glibc %s", patterns[p], s,
					 want ? "matches" : "does not match");
		}
		regfree(&g);
		rx_release(&re);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_groups_not_taken),
		cmocka_unit_test(test_ruby_syntax),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_same_as_glibc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
