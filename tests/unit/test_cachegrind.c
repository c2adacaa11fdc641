/*
 * test_cachegrind: the instruction count in valgrind cachegrind's output
 * (src/parse/cachegrind.h), on real files in tests/data/cachegrind/ and on
 * cut or damaged copies of them.
 */
#include "test_helpers.h"
#include "parse/cachegrind.h"
#include "util/fileio.h"

#include <stdio.h>

#define DATA "tests/data/cachegrind/"

TEST_TMPDIR("cachegrind")

static void read_data(struct strbuf *sb, const char *name)
{
	assert_int_equal(read_file(sb, name), 0);
}

static void write_to(const char *dir, const char *name, const char *buf, size_t len)
{
	struct strbuf p = STRBUF_INIT;

	path_join(&p, dir, name);
	assert_int_equal(write_file_atomic(p.buf, buf, len), 0);
	strbuf_release(&p);
}

static void test_real_files(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long n = 0;

	(void)state;
	/* --cache-sim=no, what perfbot runs: "events: Ir" alone */
	read_data(&sb, DATA "cachegrind.out.loop");
	assert_int_equal(cachegrind_total(sb.buf, sb.len, "loop", "Ir", &n), 0);
	assert_true(n == 136335ULL);
	strbuf_reset(&sb);
	/* with the cache simulation: Ir is the first of nine columns */
	read_data(&sb, DATA "cachegrind.out.loop-cache-sim");
	assert_int_equal(cachegrind_total(sb.buf, sb.len, "sim", "Ir", &n), 0);
	assert_true(n == 136335ULL);
	assert_int_equal(cachegrind_total(sb.buf, sb.len, "sim", "Dr", &n), 0);
	assert_true(n == 30546ULL);
	assert_int_equal(cachegrind_total(sb.buf, sb.len, "sim", "DLmw", &n), 0);
	assert_true(n == 348ULL);
	strbuf_release(&sb);
}

static void expect_error(const char *text, const char *event, const char *msg)
{
	struct stderr_capture cap;
	unsigned long long n = 7;

	capture_start(&cap);
	int r = cachegrind_total(text, strlen(text), "f", event, &n);
	char *got = capture_end(&cap);
	assert_int_equal(r, -1);
	assert_non_null(strstr(got, msg));
	assert_true(n == 7ULL);
	free(got);
}

static void test_bad_files(void **state)
{
	(void)state;
	expect_error("cmd: x\nsummary: 5\n", "Ir", "no 'events:' line");
	expect_error("events: Ir\nfn=main\n1 5\n", "Ir", "no 'summary:' line");
	expect_error("events: Ir Dr\nsummary: 5 6\n", "Dw", "counted no 'Dw'");
	/* Ir, not a prefix of another name */
	expect_error("events: Irx\nsummary: 5\n", "Ir", "counted no 'Ir'");
	expect_error("events: Ir Dr\nsummary: 5\n", "Dr", "no count for 'Dr' in column 2");
	expect_error("events: Ir\nsummary: 5x\n", "Ir", "no count for 'Ir'");
	expect_error("events: Ir\nsummary: \n", "Ir", "no count for 'Ir'");
	/* more than 64 bits */
	expect_error("events: Ir\nsummary: 18446744073709551616\n", "Ir", "no count");
	unsigned long long n;
	const char *max = "events: Ir\nsummary: 18446744073709551615\n";
	assert_int_equal(cachegrind_total(max, strlen(max), "f", "Ir", &n), 0);
	assert_true(n == 18446744073709551615ULL);
	/* the last summary: counts; a file without a final newline too */
	const char *two = "events: Ir\nsummary: 1\nsummary: 42";
	assert_int_equal(cachegrind_total(two, strlen(two), "f", "Ir", &n), 0);
	assert_true(n == 42ULL);
}

/* Several processes' files are summed; a big file is read by its head and
 * tail, and its per-line counts between do not matter. */
static void test_sum_dir(void **state)
{
	struct strbuf sb = STRBUF_INIT, big = STRBUF_INIT, d = STRBUF_INIT;
	unsigned long long total = 0;
	int files = 0;

	(void)state;
	path_join(&d, tmpdir, "sum");
	assert_int_equal(mkdir_p(d.buf, 0755), 0);
	read_data(&sb, DATA "cachegrind.out.loop");
	write_to(d.buf, "cachegrind.out.100", sb.buf, sb.len);
	/* the file split after its events: line, 300 KiB of counts inserted */
	const char *body = strstr(sb.buf, "\nfl=");
	assert_non_null(body);
	strbuf_add(&big, sb.buf, (size_t)(body - sb.buf) + 1);
	while (big.len < 300 * 1024)
		strbuf_addstr(&big, "fn=f\n12 3\nsummary: 1\n");
	strbuf_addstr(&big, body + 1);
	write_to(d.buf, "cachegrind.out.101", big.buf, big.len);
	/* not cachegrind's: ignored */
	write_to(d.buf, "stdout", "summary: 9\n", 11);
	assert_int_equal(cachegrind_sum_dir(d.buf, "Ir", &total, &files), 0);
	assert_int_equal(files, 2);
	assert_true(total == 2 * 136335ULL);

	/* one file cut short: the sum fails */
	write_to(d.buf, "cachegrind.out.102", "events: Ir\n1 2\n", 15);
	struct stderr_capture cap;
	capture_start(&cap);
	int r = cachegrind_sum_dir(d.buf, "Ir", &total, &files);
	char *msg = capture_end(&cap);
	assert_int_equal(r, -1);
	assert_non_null(strstr(msg, "cachegrind.out.102: no 'summary:' line"));
	free(msg);

	/* no file at all */
	strbuf_reset(&d);
	path_join(&d, tmpdir, "empty");
	assert_int_equal(mkdir_p(d.buf, 0755), 0);
	capture_start(&cap);
	r = cachegrind_sum_dir(d.buf, "Ir", &total, &files);
	msg = capture_end(&cap);
	assert_int_equal(r, -1);
	assert_int_equal(files, 0);
	assert_non_null(strstr(msg, "no cachegrind.out.* file"));
	free(msg);
	strbuf_release(&sb);
	strbuf_release(&big);
	strbuf_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_files),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_sum_dir),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
