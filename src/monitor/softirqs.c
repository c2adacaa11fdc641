/*
 * softirqs: /proc/softirqs, a CPU header and one line per softirq.
 *
 * lkp's stats script prints, per line, "CPU<i>.<NAME>: count" for each
 * CPU and "<NAME>: sum over CPUs" (softirqs.CPU0.RCU, softirqs.RCU).
 */
#include "monitor/monitor.h"
#include "util/bigint.h"

#include <stdlib.h>
#include <string.h>

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct field_list titles = FIELD_LIST_INIT, v = FIELD_LIST_INIT;
	struct bigint sum = BIGINT_INIT;   /* exact, as lkp's Ruby adds */
	struct line_iter it;
	struct line l;

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		bigint_set_zero(&sum);
		if (!split_ws_all(&v, l.s, l.len))
			continue;
		if (!field_has_colon(v.v[0].s, v.v[0].len)) {
			split_ws_all(&titles, l.s, l.len);
			continue;
		}
		/* v.v[0].s keeps its ':' */
		for (size_t i = 0; i < titles.nr && i + 1 < v.nr; i++) {
			strbuf_addf(out, "%.*s.%.*s %.*s\n", (int)titles.v[i].len, titles.v[i].s,
				    (int)v.v[0].len, v.v[0].s, (int)v.v[i + 1].len, v.v[i + 1].s);
			bigint_add_to_i(&sum, v.v[i + 1].s, v.v[i + 1].len);
		}
		strbuf_addf(out, "%.*s ", (int)v.v[0].len, v.v[0].s);
		bigint_add_str(out, &sum);
		strbuf_addch(out, '\n');
	}
	bigint_release(&sum);
	field_list_release(&titles);
	field_list_release(&v);
	return 0;
}

const struct monitor monitor_softirqs = {
	.name = "softirqs",
	.files = "/proc/softirqs",
	/* lkp's softirqs (a link to its interrupts script): one snapshot
	 * at the start, one at the end, unless the job gives an interval */
	.flags = MONITOR_DEFAULT | MONITOR_TIME_NS | MONITOR_START_END,
	.parse_snapshot = parse_snapshot,
};
