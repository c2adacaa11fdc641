#ifndef PERFBOT_REPORT_BUSY_H
#define PERFBOT_REPORT_BUSY_H
/*
 * busy.h: whether a side of a comparison ran on a busy machine, from the
 * machine.* stats each run records (run/meanwhile.h).
 *
 * The rule: a side is busy when, averaged over its complete runs,
 *
 *   machine.other_cpu_percent > BUSY_OTHER_CPU_PERCENT (50: others used
 *   more than half of one CPU all along), or
 *   machine.steal_percent > BUSY_STEAL_PERCENT (10: the VM's host took
 *   more than a tenth of one CPU).
 *
 * The figures equal to the threshold are not busy.  A side without the
 * stats (lkp's results, older runs) is never called busy.  compare and
 * report print one line per busy side under the table, naming the side
 * and the figure.
 */
#include <stdbool.h>
#include "report/compare.h"
#include "util/strbuf.h"

#define BUSY_OTHER_CPU_PERCENT 50.0
#define BUSY_STEAL_PERCENT 10.0

/* The rule on the two means (NaN: not recorded). */
bool busy_machine(double other_cpu, double steal);
/* The mean of stat over column c's complete runs that have it; NaN when
 * the column lacks it. */
double busy_col_mean(const struct compare_col *c, const char *stat);
/* "note: <side> ran on a busy machine: ..." lines, one per busy side
 * (BASE is col 0), appended to out; how many. */
int busy_note(const struct compare *cmp, struct strbuf *out);

#endif
