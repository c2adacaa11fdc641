/*
 * fuzz_job: the job loader (src/job/load.c) on arbitrary YAML text, with
 * includes confined to a scratch directory (fuzz_dir.h).
 *
 * Properties beyond "no crash, leak or undefined behaviour", both promised
 * by job.h: a loaded job written back by job_to_yaml loads again (with
 * the same checks) and is job_value_equal to the first; and the CPU
 * percentage expansion either succeeds or fails cleanly.
 */
#include "fuzz_dir.h"
#include "job/job.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_dir_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf text = STRBUF_INIT;
	struct job_load_opts opts = { .include_dirs = fuzz_no_dirs };
	struct strbuf yaml = STRBUF_INIT;
	struct job *job, *again;

	fuzz_text(&text, data, size);
	if (fuzz_include_escapes(text.buf, text.len))
		return -1;
	/* the first byte's low bit: the key checks on or off (lkp's
	 * include files are loaded without them) */
	opts.no_check = size && (data[0] & 1);
	if (job_load_string(text.buf, text.len, fuzz_job_name, &opts, &job) < 0) {
		FUZZ_CHECK(!job, "job_load_string failed but set *out");
		return 0;
	}
	job_to_yaml(job, &yaml);
	FUZZ_CHECK(job_load_string(yaml.buf, yaml.len, "<again>", &opts, &again) == 0,
		   "job_to_yaml wrote text that does not load:\n%s", yaml.buf);
	FUZZ_CHECK(job_value_equal(job->root, again->root),
		   "job_to_yaml wrote a different job:\n%s", yaml.buf);
	job_free(again);
	(void)job_expand_percentages(job, 8);
	job_free(job);
	strbuf_release(&yaml);
	return 0;
}
