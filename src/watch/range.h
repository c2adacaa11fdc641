#ifndef PERFBOT_WATCH_RANGE_H
#define PERFBOT_WATCH_RANGE_H
/*
 * A regression's range, handed to perfbot bisect: the last tested commit
 * before the change is good, the first after is bad.  Used by
 * `perfbot detect --bisect` and `perfbot watch`; it lives with watch, the
 * layer above both detect and bisect, since it drives bisect.
 *
 * One bisect per range, its state "<state_dir>/bisect-<good12>-<bad12>.state"
 * (with perfbot bisect's "<state>.d/" beside it): a range bisected before,
 * or cut short by a crash, is resumed, which reuses every run already in
 * the result tree and, once the bisect is over, only rereads its result.
 */
#include <signal.h>
#include <stdbool.h>
#include "bisect/driver.h"
#include "util/strbuf.h"

struct range_bisect {
	const char *repo, *job_path, *metric;
	const struct bisect_measure *m; /* --build, --kernel-tree ..., copied */
	const char *result_base;        /* absolute */
	const char *db;                 /* store, or NULL: the default */
	const char *state_dir;          /* absolute */
	int verbose;
	bool quiet;                     /* no bisect report on stdout */
	volatile sig_atomic_t *stop;
};

/*
 * Commits in good..bad other than bad itself: those a bisect of the range
 * would test (merged-in ones too).  -1 after a message when git fails.
 */
int range_untested(const char *repo, const char *good, const char *bad);

/*
 * Bisect good..bad.  The state file's path is appended to state.  Returns
 * perfbot bisect's exit code (0 found, 1 error, 4 nothing to bisect, 5
 * only skipped commits left, 130 interrupted); when 0, *first_bad is the
 * first bad commit's sha (yours to free).
 */
int range_bisect(const struct range_bisect *rb, const char *good, const char *bad,
		 struct strbuf *state, char **first_bad);

#endif
