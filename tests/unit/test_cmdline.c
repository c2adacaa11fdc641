/* Unit tests of src/util/cmdline.c: the "--" that ends a command's
 * options, read the way getopt_long reads the line. */
#include "test_helpers.h"
#include "util/cmdline.h"

static const struct option longopts[] = {
	{ "runs", required_argument, NULL, 'n' },
	{ "result-root", required_argument, NULL, 'r' },
	{ "build", required_argument, NULL, 'b' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "resume", no_argument, NULL, 'R' },
	{ NULL, 0, NULL, 0 }
};

/* cmdline_end of a NULL-terminated list of words (argv[0] included). */
static int end_of(const char *shortopts, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	va_start(ap, shortopts);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	return cmdline_end(argc, argv, shortopts, longopts);
}

static void test_cmdline_end(void **state)
{
	(void)state;
	/* no "--": everything is options and operands */
	assert_int_equal(end_of("n:v", "run", "j.yaml", "-n", "2", NULL), 4);
	/* options after the job file, before "--" */
	assert_int_equal(end_of("n:v", "run", "j.yaml", "--runs", "2", "--", "cmd", "-n", "3", NULL), 4);
	assert_int_equal(end_of("n:v", "run", "--", "j.yaml", NULL), 1);
	/* an option's argument may be "--": the next one ends the options */
	assert_int_equal(end_of("n:v", "run", "--build", "--", "j.yaml", "--", "x", NULL), 4);
	assert_int_equal(end_of("n:v", "run", "-n", "--", "j.yaml", "--", "x", NULL), 4);
	/* attached arguments take nothing after them */
	assert_int_equal(end_of("n:v", "run", "--build=make", "--", "x", NULL), 2);
	assert_int_equal(end_of("n:v", "run", "-n2", "--", "x", NULL), 2);
	/* a cluster ending with an option that takes an argument */
	assert_int_equal(end_of("n:v", "run", "-vn", "--", "--", "x", NULL), 3);
	assert_int_equal(end_of("n:v", "run", "-nv", "--", "x", NULL), 2);
	/* a flag takes nothing */
	assert_int_equal(end_of("n:v", "run", "--verbose", "--", "x", NULL), 2);
	assert_int_equal(end_of("n:v", "run", "-v", "--", "x", NULL), 2);
	/* abbreviations, as getopt_long takes them: --resul is --result-root,
	 * --resum is --resume, --ru is --runs */
	assert_int_equal(end_of("n:v", "run", "--resul", "--", "--", "x", NULL), 3);
	assert_int_equal(end_of("n:v", "run", "--resum", "--", "x", NULL), 2);
	assert_int_equal(end_of("n:v", "run", "--ru", "--", "--", "x", NULL), 3);
	/* unknown options, "-" (standard input) and "+" or ":" prefixes */
	assert_int_equal(end_of("n:v", "run", "--nosuch", "--", "x", NULL), 2);
	assert_int_equal(end_of("n:v", "run", "-", "--", "x", NULL), 2);
	assert_int_equal(end_of("+:n:", "run", "-n", "--", "--", NULL), 3);
	/* an optional argument is only ever attached */
	assert_int_equal(end_of("n::", "run", "-n", "--", "x", NULL), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
