/*
 * fuzz_split: lkp's split-job (src/job/split.c) on arbitrary job text:
 * job_load_string as `perfbot split-job` loads, then job_split with the
 * include defaults of an lkp tree ($PERFBOT_FUZZ_LKP, which `make fuzz`
 * points at ../shared/conformance/lkp/tree when it is there; else only
 * the scratch directory of fuzz_dir.h), naming and writing each atom.
 *
 * Properties beyond "no crash, leak or undefined behaviour": an atom's
 * file name that job_atom_name accepts is one path component after the
 * prefix (split.h, util/pathsafe.h), and every atom reads back from its
 * job_to_yaml text, equal.
 */
#include "fuzz_dir.h"
#include "job/job.h"
#include "job/split.h"

#include <string.h>

static const char *dirs[3];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *lkp = getenv("PERFBOT_FUZZ_LKP");
	int n = 0;

	fuzz_dir_init();
	if (lkp && *lkp)
		dirs[n++] = lkp;
	dirs[n++] = fuzz_dir;
	dirs[n] = NULL;
	return 0;
}

struct atoms {
	struct job_catalog *catalog;    /* the split's, for the names */
	int nr;
};

static int check_atom(struct job *atom, void *ctx)
{
	struct job_load_opts opts = { .include_dirs = dirs, .no_check = true };
	struct strbuf name = STRBUF_INIT, yaml = STRBUF_INIT;
	struct job *again;
	struct atoms *a = ctx;

	if (job_atom_name(atom, "fuzz", a->catalog, &name) == 0)
		FUZZ_CHECK(!strchr(name.buf, '/') && strcmp(name.buf, "..") &&
			   !strncmp(name.buf, "fuzz", 4),
			   "atom name '%s' is no file name in the prefix's folder", name.buf);
	job_to_yaml(atom, &yaml);
	FUZZ_CHECK(job_load_string(yaml.buf, yaml.len, "<atom>", &opts, &again) == 0,
		   "an atom's job_to_yaml does not load:\n%s", yaml.buf);
	FUZZ_CHECK(job_value_equal(atom->root, again->root),
		   "an atom's job_to_yaml reads back different:\n%s", yaml.buf);
	job_free(again);
	job_free(atom);
	strbuf_release(&name);
	strbuf_release(&yaml);
	a->nr++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf text = STRBUF_INIT;
	struct job_load_opts lo = { .include_dirs = dirs };
	struct job_catalog catalog;
	struct split_opts so = { .include_dirs = dirs, .testbox = "fuzz-box",
				 .arch = "x86_64", .catalog = &catalog };
	struct atoms a = { &catalog, 0 };
	struct job *job;

	fuzz_text(&text, data, size);
	if (fuzz_include_escapes(text.buf, text.len))
		return -1;
	if (job_load_string(text.buf, text.len, fuzz_job_name, &lo, &job) < 0)
		return 0;
	/* per input: the include files are the input's */
	job_catalog_init(&catalog, dirs);
	(void)job_split(job, "fuzz.yaml", &so, check_atom, &a);
	job_catalog_release(&catalog);
	job_free(job);
	return 0;
}
