/*
 * softirqs: /proc/softirqs, a CPU header and one line per softirq.
 *
 * lkp's stats script prints, per line, "CPU<i>.<NAME>: count" for each
 * CPU and "<NAME>: sum over CPUs" (softirqs.CPU0.RCU, softirqs.RCU).
 */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct fields titles = FIELDS_INIT, v = FIELDS_INIT;
	const char *line;
	size_t pos = 0, llen;

	while (next_line(buf, len, &pos, &line, &llen)) {
		long long sum = 0;

		if (!fields_split(&v, line, llen))
			continue;
		if (!field_has_colon(v.f[0], v.len[0])) {
			fields_split(&titles, line, llen);
			continue;
		}
		/* v.f[0] keeps its ':' */
		for (int i = 0; i < titles.nr && i + 1 < v.nr; i++) {
			strbuf_addf(out, "%.*s.%.*s %.*s\n", (int)titles.len[i], titles.f[i],
				    (int)v.len[0], v.f[0], (int)v.len[i + 1], v.f[i + 1]);
			sum += strtoll(v.f[i + 1], NULL, 10);
		}
		strbuf_addf(out, "%.*s %lld\n", (int)v.len[0], v.f[0], sum);
	}
	fields_release(&titles);
	fields_release(&v);
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
