/*
 * store_reported.c: the regressions perfbot watch handled (see store.h),
 * so that each is reported once however often it is detected again.
 */
#include "store/backend.h"
#include "util/xalloc.h"

#include <time.h>

int store_reported_find(struct store *s, int64_t job_id, const char *metric,
			const char *culprit, const char *good, const char *bad,
			struct strbuf *report)
{
	struct store_stmt *st = store_stmt_get(s, culprit ? Q_REPORTED_BY_CULPRIT :
					       Q_REPORTED_BY_RANGE);
	int r;

	if (!st)
		return -1;
	s->be->bind_int(st, 1, job_id);
	s->be->bind_text(st, 2, metric);
	if (culprit) {
		s->be->bind_text(st, 3, culprit);
	} else {
		s->be->bind_text(st, 3, good);
		s->be->bind_text(st, 4, bad);
	}
	r = s->be->step(st);
	if (r == STORE_ROW && report)
		strbuf_addstr(report, s->be->column_text(st, 0));
	s->be->reset(st);
	return r < 0 ? -1 : r == STORE_ROW;
}

int store_reported_add(struct store *s, const struct store_reported *r)
{
	struct store_stmt *st = store_stmt_get(s, Q_REPORTED_ADD);

	if (!st)
		return -1;
	s->be->bind_int(st, 1, r->job_id);
	s->be->bind_text(st, 2, r->metric);
	s->be->bind_text(st, 3, r->culprit ? r->culprit : "");
	s->be->bind_text(st, 4, r->good);
	s->be->bind_text(st, 5, r->bad);
	s->be->bind_text(st, 6, r->report ? r->report : "");
	s->be->bind_int(st, 7, (int64_t)time(NULL));
	return store_step_done(s, st);
}
