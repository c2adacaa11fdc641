/*
 * range.c: a regression's range handed to the bisect driver (see range.h).
 */
#include "util/error.h"
#include "watch/range.h"
#include "bisect/driver.h"
#include "git/git.h"
#include "report/report.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

int range_untested(const char *repo, const char *good, const char *bad)
{
	struct strbuf spec = STRBUF_INIT, out = STRBUF_INIT;
	struct git_cmd g = { .dir = repo, .out = &out };
	long n = -1;

	strbuf_addf(&spec, "%s..%s", good, bad);
	if (git_runl(&g, "rev-list", "--count", spec.buf, NULL) == 0)
		n = strtol(out.buf, NULL, 10);
	if (n < 0)
		error("%s: cannot count the commits of %.12s..%.12s", repo, good, bad);
	strbuf_release(&spec);
	strbuf_release(&out);
	return n < 0 ? -1 : n > 0 ? (int)n - 1 : 0;
}

int range_bisect(const struct range_bisect *rb, const char *good, const char *bad,
		 struct strbuf *state, char **first_bad)
{
	struct bisect_opts o;
	struct strbuf json = STRBUF_INIT;
	struct report_bisect b;
	bool resume;
	int ret;

	*first_bad = NULL;
	strbuf_addf(state, "%s/bisect-%.12s-%.12s.state", rb->state_dir, good, bad);
	if (mkdir_p(rb->state_dir, 0755) < 0)
		return EXIT_ERROR;
	resume = file_exists(state->buf);
	memset(&o, 0, sizeof(o));
	o.repo = xstrdup(rb->repo);
	o.good = xstrdup(good);
	o.bad = xstrdup(bad);
	o.job_path = xstrdup(rb->job_path);
	o.metric = xstrdup(rb->metric);
	bisect_measure_copy(&o.m, rb->m);
	o.result_base = xstrdup(rb->result_base);
	o.db = rb->db ? xstrdup(rb->db) : NULL;
	o.state_path = xstrdup(state->buf);
	o.verbose = rb->verbose;
	o.quiet = rb->quiet;
	o.stop = rb->stop;
	ret = bisect_run(&o, resume);
	bisect_opts_release(&o);
	memset(&b, 0, sizeof(b));
	if (ret == 0 && report_bisect_find(state->buf, &json) == 0 &&
	    report_bisect_load(&b, json.buf) == 0 && b.first_bad)
		*first_bad = xstrdup(b.first_bad);
	report_bisect_release(&b);
	if (ret == 0 && !*first_bad)
		ret = error("%s: the bisect ended without naming the first bad commit", state->buf);
	strbuf_release(&json);
	return ret;
}
