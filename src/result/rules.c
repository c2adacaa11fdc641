/*
 * rules.c: changed_stats, the one entry to the change rules (change.h).
 * Apart from change.c, which the rules themselves use for records and
 * lists, so that the dependency runs one way: rules.c -> the rules ->
 * change.c.
 */
#include "result/change.h"
#include "util/error.h"
#include "util/xalloc.h"

int changed_stats(const struct matrix *a, const struct matrix *b,
		  const struct change_options *opt, struct change_list *out)
{
	switch (opt->rule) {
	case RULE_LKP:
		return lkp_changed_stats(a, b, opt, out);
	case RULE_STAT:
		return stat_changed_stats(a, b, opt, out);
	}
	return error("unknown change rule %d", (int)opt->rule);
}
