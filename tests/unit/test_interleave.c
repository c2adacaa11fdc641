/*
 * test_interleave: the order of the runs of sides measured against each
 * other (src/run/interleave.h): turns, the longer side's tail, sides
 * that want nothing.
 */
#include "test_helpers.h"
#include "run/interleave.h"

static void check_plan(const int *want, int nr, const char *expect)
{
	int out[64];
	char got[65];
	int n = interleave_plan(want, nr, out);

	assert_int_equal(n, interleave_total(want, nr));
	assert_true(n < 64);
	for (int i = 0; i < n; i++)
		got[i] = (char)('A' + out[i]);
	got[n] = '\0';
	assert_string_equal(got, expect);
}

static void test_two_sides_alternate(void **state)
{
	(void)state;
	check_plan((int[]){ 3, 3 }, 2, "ABABAB");
	check_plan((int[]){ 1, 1 }, 2, "AB");
	/* the side that wants more ends alone */
	check_plan((int[]){ 2, 4 }, 2, "ABABBB");
	check_plan((int[]){ 4, 1 }, 2, "ABAAA");
}

static void test_three_sides(void **state)
{
	(void)state;
	/* a bisect step and its two endpoints */
	check_plan((int[]){ 2, 1, 2 }, 3, "ABCAC");
	check_plan((int[]){ 1, 2, 3 }, 3, "ABCBCC");
}

static void test_nothing_wanted(void **state)
{
	int out[4] = { -1, -1, -1, -1 };

	(void)state;
	check_plan((int[]){ 0, 3 }, 2, "BBB");
	check_plan((int[]){ -2, 2, 0 }, 3, "BB");
	assert_int_equal(interleave_plan((int[]){ 0, 0 }, 2, out), 0);
	assert_int_equal(interleave_plan(NULL, 0, out), 0);
	assert_int_equal(out[0], -1);
	assert_int_equal(interleave_total((int[]){ -1, 5, 2 }, 3), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_sides_alternate),
		cmocka_unit_test(test_three_sides),
		cmocka_unit_test(test_nothing_wanted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
