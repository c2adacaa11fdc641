/*
 * fuzz_erb: the ERB subset of lkp's include files (erb_expand in
 * src/job/split.c) on arbitrary templates, against a fixed job that has
 * strings, numbers, a list and a program with options to look up.
 * Property: no crash, leak or undefined behaviour; 0 or -1.
 */
#include "fuzz_dir.h"
#include "job/job.h"
#include "job/split.h"

static struct job *job;
static struct job_value *___;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char text[] =
		"testcase: fuzz\nfs: ext4\nnr_threads: 4\nruntime: 300s\n"
		"disk: 1HDD\ncpufreq_governor: performance\nkconfig: x86_64-rhel\n"
		"ucode:\nlist:\n- a\n- 2\n"
		"fio-setup-basic:\n  rw: randread\n  bs: 4k\n  nr_task: 50%\n";
	struct job_load_opts opts = { .no_check = true };

	fuzz_dir_init();
	if (job_load_string(text, sizeof(text) - 1, "<fuzz-job>", &opts, &job) < 0)
		exit(1);
	___ = job_scalar_new("ext4");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf tpl = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	struct job_catalog cat;
	int ret;

	fuzz_text(&tpl, data, size);
	job_catalog_init(&cat, fuzz_no_dirs);
	ret = erb_expand(tpl.buf, "fuzz.erb", job->root, ___, &cat, &out);
	job_catalog_release(&cat);
	/* 1: a key the job lacks, left for a later pass (split.h) */
	FUZZ_CHECK(ret == 0 || ret == -1 || ret == 1, "erb_expand returned %d", ret);
	strbuf_release(&out);
	return 0;
}
