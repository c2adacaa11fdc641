/*
 * busy.c: the busy-machine rule (see busy.h).
 */
#include "report/busy.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>

bool busy_machine(double other_cpu, double steal)
{
	return (!isnan(other_cpu) && other_cpu > BUSY_OTHER_CPU_PERCENT) ||
	       (!isnan(steal) && steal > BUSY_STEAL_PERCENT);
}

double busy_col_mean(const struct compare_col *c, const char *stat)
{
	int pos = matrix_find(&c->mx, stat), n = 0;
	double sum = 0;

	if (pos < 0)
		return NAN;
	for (int r = 0; r < c->runs; r++) {
		if (c->incomplete && c->incomplete[r] && c->complete_runs)
			continue;
		sum += c->mx.m[pos].v[r];
		n++;
	}
	return n ? sum / n : NAN;
}

int busy_note(const struct compare *cmp, struct strbuf *out)
{
	int n = 0;

	for (int i = 0; i < cmp->ncols; i++) {
		const struct compare_col *c = &cmp->col[i];
		double other = busy_col_mean(c, "machine.other_cpu_percent");
		double steal = busy_col_mean(c, "machine.steal_percent");

		if (!busy_machine(other, steal))
			continue;
		strbuf_addf(out, "note: %s %s ran on a busy machine:", i ? "NEW" : "BASE", c->label);
		if (!isnan(other) && other > BUSY_OTHER_CPU_PERCENT)
			strbuf_addf(out, " other work used %.1f%% of a CPU on average "
				    "(machine.other_cpu_percent, busy above %.0f)", other,
				    BUSY_OTHER_CPU_PERCENT);
		if (!isnan(steal) && steal > BUSY_STEAL_PERCENT)
			strbuf_addf(out, "%s the hypervisor stole %.1f%% of a CPU "
				    "(machine.steal_percent, busy above %.0f)",
				    !isnan(other) && other > BUSY_OTHER_CPU_PERCENT ? ";" : "", steal,
				    BUSY_STEAL_PERCENT);
		strbuf_addch(out, '\n');
		n++;
	}
	return n;
}
