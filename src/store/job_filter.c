/* job_filter.c: --testcase, --job and --param as a test on stored jobs. */
#include "store/job_filter.h"
#include "job/job.h"
#include "job/split.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void add_name(struct store_job_filter *f, const char *name)
{
	for (int i = 0; i < f->nr_names; i++)
		if (!strcmp(f->names[i], name))
			return;
	f->names = xrealloc(f->names, sizeof(*f->names) * (size_t)(f->nr_names + 1));
	f->names[f->nr_names++] = xstrdup(name);
}

/* Each atomic job's "testcase/path_params", as perfbot run would name it. */
static int add_atom(struct job *atom, void *ctx)
{
	struct store_job_filter *f = ctx;
	struct strbuf rr = STRBUF_INIT;
	int ret = -1;

	if (job_expand_percentages(atom, 0) == 0 && job_result_root(atom, "", "x", &rr) == 0) {
		/* "testcase/path_params/tbox/rootfs/kconfig/compiler/x": keep two */
		char *second = strchr(rr.buf, '/');
		char *third = second ? strchr(second + 1, '/') : NULL;
		if (third)
			strbuf_setlen(&rr, (size_t)(third - rr.buf));
		add_name(f, rr.buf);
		ret = 0;
	}
	strbuf_release(&rr);
	job_free(atom);
	return ret;
}

int store_job_filter_init(struct store_job_filter *f, const char *testcase, const char *job,
			  const char *const *params, int nr_params)
{
	memset(f, 0, sizeof(*f));
	if (testcase)
		f->testcase = xstrdup(testcase);
	for (int i = 0; i < nr_params; i++) {
		const char *eq = strchr(params[i], '=');
		if (!eq || eq == params[i]) {
			store_job_filter_release(f);
			return error("--param expects KEY=VALUE, got '%s'", params[i]);
		}
		f->keys = xrealloc(f->keys, sizeof(*f->keys) * (size_t)(f->nr_params + 1));
		f->values = xrealloc(f->values, sizeof(*f->values) * (size_t)(f->nr_params + 1));
		f->keys[f->nr_params] = xstrndup(params[i], (size_t)(eq - params[i]));
		f->values[f->nr_params] = xstrdup(eq + 1);
		f->nr_params++;
	}
	if (!job)
		return 0;
	f->job_desc = xstrdup(job);
	if (!file_exists(job)) {
		add_name(f, job);
		return 0;
	}
	struct job *j = NULL;
	struct split_opts so;
	memset(&so, 0, sizeof(so));
	if (job_load(job, &j) < 0 || job_split(j, job, &so, add_atom, f) < 0) {
		job_free(j);
		store_job_filter_release(f);
		return -1;
	}
	job_free(j);
	return 0;
}

/* "testcase" or "testcase/path_params" names job. */
static bool name_matches(const char *name, const struct store_job_info *job)
{
	const char *tc = job->field[SJ_TESTCASE];
	size_t len = strlen(tc);

	if (strncmp(name, tc, len))
		return false;
	if (!name[len])
		return true;
	return name[len] == '/' && !strcmp(name + len + 1, job->field[SJ_PATH_PARAMS]);
}

bool store_job_filter_match(const struct store_job_filter *f, const struct store_job_info *job)
{
	if (f->testcase && strcmp(f->testcase, job->field[SJ_TESTCASE]))
		return false;
	if (f->job_desc) {
		bool any = false;
		for (int i = 0; i < f->nr_names && !any; i++)
			any = name_matches(f->names[i], job);
		if (!any)
			return false;
	}
	for (int i = 0; i < f->nr_params; i++) {
		/* by name: --param K=V names any key the user likes */
		const char *v = store_job_get(job, f->keys[i]);
		if (!v || strcmp(v, f->values[i]))
			return false;
	}
	return true;
}

void store_job_filter_release(struct store_job_filter *f)
{
	free(f->testcase);
	for (int i = 0; i < f->nr_names; i++)
		free(f->names[i]);
	free(f->names);
	for (int i = 0; i < f->nr_params; i++) {
		free(f->keys[i]);
		free(f->values[i]);
	}
	free(f->keys);
	free(f->values);
	free(f->job_desc);
	memset(f, 0, sizeof(*f));
}
