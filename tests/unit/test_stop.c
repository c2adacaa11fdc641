/* Unit tests of util/stop.c: SIGINT and SIGTERM counted into one flag. */
#include "test_helpers.h"
#include "util/stop.h"

#include <signal.h>

static void test_counts_to_two(void **state)
{
	volatile sig_atomic_t *stop = catch_stop_signals();

	(void)state;
	assert_int_equal(*stop, 0);
	raise(SIGINT);
	assert_int_equal(*stop, 1);
	raise(SIGTERM);
	assert_int_equal(*stop, 2);
	raise(SIGINT);               /* the worker's "abort" is the last level */
	assert_int_equal(*stop, 2);
}

static void test_catch_resets(void **state)
{
	volatile sig_atomic_t *a = catch_stop_signals(), *b;

	(void)state;
	raise(SIGTERM);
	assert_int_equal(*a, 1);
	b = catch_stop_signals();
	assert_ptr_equal(a, b);
	assert_int_equal(*b, 0);
}

/* both signals, and no SA_RESTART: a blocking wait must end at once */
static void test_no_restart(void **state)
{
	struct sigaction sa, hup;
	int sigs[] = { SIGINT, SIGTERM };

	(void)state;
	/* SIGHUP as this test found it: ignored under nohup, else default */
	assert_int_equal(sigaction(SIGHUP, NULL, &hup), 0);
	catch_stop_signals();
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sigaction(sigs[i], NULL, &sa), 0);
		assert_true(sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
		assert_int_equal(sa.sa_flags & SA_RESTART, 0);
	}
	/* other signals are left alone */
	assert_int_equal(sigaction(SIGHUP, NULL, &sa), 0);
	assert_true(sa.sa_handler == hup.sa_handler);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_to_two),
		cmocka_unit_test(test_catch_resets),
		cmocka_unit_test(test_no_restart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
