/*
 * Unit tests of util/duration.c, the one grammar of durations, and of
 * what a job's `runtime` and `timeout` mean: the same limit on the host
 * (job_desc_decode, run/desc.c) and in the VM's deadline
 * (kernel_vm_job_limit, kernel/vm.c).
 */
#include "test_helpers.h"
#include "job/job.h"
#include "kernel/vm.h"
#include "run/desc.h"
#include "util/duration.h"
#include "util/xalloc.h"

#include <math.h>

/* Every form, each unit's factor, each edge of the grammar, and what is
 * not a duration: -1 exactly, as duration.h promises. */
static void test_parse_duration(void **state)
{
	static const struct { const char *s; double v; } tab[] = {
		/* the forms lkp writes */
		{ "300", 300 }, { "300s", 300 }, { "5m", 300 }, { "1h", 3600 },
		{ "2d", 172800 }, { "0", 0 }, { "0s", 0 }, { "0d", 0 },
		/* decimals, each side of the point */
		{ "0.5", 0.5 }, { "1.5h", 5400 }, { "0.02m", 1.2 }, { ".5", 0.5 },
		{ "5.", 5 }, { "5.m", 300 }, { ".5m", 30 }, { "007", 7 },
		/* no number */
		{ "", -1 }, { "s", -1 }, { "m", -1 }, { ".", -1 }, { ".s", -1 },
		{ "abc", -1 },
		/* signs: a duration is never negative, nor written with + */
		{ "-5", -1 }, { "-1", -1 }, { "-0.5m", -1 }, { "-2d", -1 },
		{ "+5", -1 }, { "-0", -1 },
		/* units: one of s m h d, one letter, last */
		{ "5ms", -1 }, { "5x", -1 }, { "1w", -1 }, { "10ss", -1 },
		{ "5mm", -1 }, { "5M", -1 }, { "5H", -1 }, { "5S", -1 },
		/* blanks anywhere */
		{ "5 m", -1 }, { " 5", -1 }, { "5 ", -1 }, { "5\n", -1 },
		{ "\t5", -1 }, { "5s ", -1 },
		/* strtod's other forms */
		{ "1e3", -1 }, { "1E3", -1 }, { "0x10", -1 }, { "inf", -1 },
		{ "infinity", -1 }, { "nan", -1 }, { "1.2.3", -1 }, { "1,5", -1 },
		/* finite text, infinite value */
		{ "1" "00000000000000000000000000000000000000000000000000000000000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000000000", -1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		double v = parse_duration(tab[i].s);
		if (v != tab[i].v)
			fail_msg("parse_duration(\"%s\") = %g, expected %g", tab[i].s, v, tab[i].v);
	}
	assert_true(parse_duration(NULL) == -1);
}

/* A value finite before its unit and infinite after it is no duration. */
static void test_overflow_by_unit(void **state)
{
	struct strbuf s = STRBUF_INIT;

	(void)state;
	strbuf_addch(&s, '1');
	for (int i = 0; i < 305; i++)
		strbuf_addch(&s, '0');
	assert_true(parse_duration(s.buf) == 1e305);
	strbuf_addch(&s, 'd');
	assert_true(parse_duration(s.buf) == -1);
	strbuf_release(&s);
}

static void test_job_limit(void **state)
{
	static const struct { double timeout, runtime, limit; } tab[] = {
		{ -1, -1, 0 }, { 0, -1, 0 }, { -1, 0, 0 }, { 0, 0, 0 },
		{ -1, 300, 660 }, { 0, 300, 660 }, { 10, 300, 10 },
		{ 3600, -1, 3600 }, { 0.5, -1, 0.5 }, { -1, 0.5, 61 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		double v = duration_job_limit(tab[i].timeout, tab[i].runtime);
		if (v != tab[i].limit)
			fail_msg("duration_job_limit(%g, %g) = %g, expected %g",
				 tab[i].timeout, tab[i].runtime, v, tab[i].limit);
	}
}

/*
 * The same job text read by the host's run (the guest's perfbot decodes
 * it so) and by the VM's deadline: the same limit, whatever unit the job
 * uses.  Before one parser, "timeout: 1d" was one second to the VM and a
 * day to the run, and a job without either key had an hour in the VM.
 */
static void test_host_and_vm_agree(void **state)
{
	static const struct { const char *yaml; double limit; } tab[] = {
		{ "runtime: 300\n", 660 },
		{ "runtime: 300s\n", 660 },
		{ "runtime: 5m\n", 660 },
		{ "runtime: 1h\n", 7260 },
		{ "runtime: 0.5d\n", 86460 },
		{ "runtime: 30\ntimeout: 0\n", 120 },
		{ "runtime: 30\ntimeout: 10m\n", 600 },
		{ "timeout: 1d\n", 86400 },
		{ "timeout: 2h\n", 7200 },
		{ "timeout: 90\n", 90 },
		{ "runtime: 2.5m\ntimeout: 1.5h\n", 5400 },
	};
	static const struct job_load_opts lo = { .no_check = true };

	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct strbuf yaml = STRBUF_INIT;
		struct job_desc d = JOB_DESC_INIT;
		struct job *job = NULL;

		strbuf_addf(&yaml, "%smytest:\n  command: sleep 0\n", tab[i].yaml);
		assert_int_equal(job_load_string(yaml.buf, yaml.len, "j.yaml", &lo, &job), 0);
		assert_int_equal(job_desc_decode(job, NULL, &d), 0);
		if (d.timeout != tab[i].limit || kernel_vm_job_limit(&d) != tab[i].limit)
			fail_msg("%s: host %g, VM %g, expected %g", tab[i].yaml, d.timeout,
				 kernel_vm_job_limit(&d), tab[i].limit);
		job_desc_release(&d);
		job_free(job);
		strbuf_release(&yaml);
	}
}

/* No limit in the job: the host runs it to its end, the VM still ends a
 * guest that hangs, after an hour. */
static void test_vm_watchdog(void **state)
{
	static const char yaml[] = "mytest:\n  command: sleep 0\n";
	static const struct job_load_opts lo = { .no_check = true };
	struct job_desc d = JOB_DESC_INIT;
	struct job *job = NULL;

	(void)state;
	assert_int_equal(job_load_string(yaml, strlen(yaml), "j.yaml", &lo, &job), 0);
	assert_int_equal(job_desc_decode(job, NULL, &d), 0);
	assert_true(d.timeout == 0);
	assert_true(kernel_vm_job_limit(&d) == 3600);
	job_desc_release(&d);
	job_free(job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_overflow_by_unit),
		cmocka_unit_test(test_job_limit),
		cmocka_unit_test(test_host_and_vm_agree),
		cmocka_unit_test(test_vm_watchdog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
