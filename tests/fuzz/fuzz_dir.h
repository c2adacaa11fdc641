#ifndef PERFBOT_FUZZ_DIR_H
#define PERFBOT_FUZZ_DIR_H
/*
 * A scratch directory for the job targets: the job "file" lives there
 * (job.yaml, never written) and so do two include files, so that `<< :`
 * lines have something to find.  Includes are confined to it: an input
 * whose include line names a path ('/', or a '\' escape that could spell
 * one) is rejected, since `<< : FILE` reads any file, as lkp's does.
 */
#include "fuzz.h"
#include "util/fileio.h"

#include <string.h>
#include <unistd.h>

static char fuzz_dir[64];
static char fuzz_job_name[96];
static const char *fuzz_no_dirs[] = { fuzz_dir, NULL };

static inline void fuzz_dir_remove(void)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/base.yaml", fuzz_dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/nested.yaml", fuzz_dir);
	unlink(p);
	rmdir(fuzz_dir);
}

static inline void fuzz_dir_put(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", fuzz_dir, name);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(p);
		exit(1);
	}
}

static inline void fuzz_dir_init(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/perfbot-fuzz-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (!mkdtemp(fuzz_dir)) {
		perror(fuzz_dir);
		exit(1);
	}
	snprintf(fuzz_job_name, sizeof(fuzz_job_name), "%s/job.yaml", fuzz_dir);
	fuzz_dir_put("base.yaml", "runtime: 300\nnr_threads: 50%\n<< : nested.yaml\n");
	fuzz_dir_put("nested.yaml", "vmstat:\nperf-profile:\n  delay: 5\n");
	atexit(fuzz_dir_remove);
}

/* Does the text hold an include line that could leave fuzz_dir? */
static inline bool fuzz_include_escapes(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *inc = memmem(p, (size_t)(le - p), "<<", 2);

		if (inc && (memchr(inc, '/', (size_t)(le - inc)) ||
			    memchr(inc, '\\', (size_t)(le - inc))))
			return true;
		p = le + 1;
	}
	return false;
}

#endif
