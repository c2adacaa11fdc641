/*
 * proc-stat: /proc/stat.
 *
 * lkp lists proc-stat among a benchmark's default monitors and samples the
 * file with its proc-vmstat loop (every 10 s there), but no stats script
 * for it is public, so the names here follow the file itself:
 *   "cpu  7206 0 1639 ..."  -> cpu.user: 7206, cpu.nice: 0, cpu.system: ...
 *   "cpu0 3747 0 704 ..."   -> cpu0.user: 3747, ...  (fields as proc(5))
 *   "ctxt 301031"           -> ctxt: 301031
 *   "intr 160254 0 0 ..."   -> intr: 160254   (the total; per-IRQ counts
 *   "softirq 125090 0 ..."  -> softirq: 125090  are in interrupts/softirqs)
 * Counters among them are listed as perfbot's event counters in reduce.c.
 */
#include "monitor/monitor.h"

#include <string.h>

/* proc(5)'s names of the cpu line's columns, in order */
static const char *const cpu_fields[] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq",
	"steal", "guest", "guest_nice", NULL
};

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	const char *line, *f[12];
	size_t pos = 0, llen, flen[12];

	while (next_line(buf, len, &pos, &line, &llen)) {
		int n = split_fields(line, llen, f, flen, 12);

		if (n < 2)
			continue;
		if (flen[0] >= 3 && !memcmp(f[0], "cpu", 3) &&
		    strspn(f[0] + 3, "0123456789") == flen[0] - 3) {
			for (int i = 1; i < n && cpu_fields[i - 1]; i++)
				strbuf_addf(out, "%.*s.%s: %.*s\n", (int)flen[0], f[0],
					    cpu_fields[i - 1], (int)flen[i], f[i]);
			continue;
		}
		emit_kv(out, f[0], flen[0], f[1], flen[1]);
	}
	return 0;
}

const struct monitor monitor_proc_stat = {
	.name = "proc-stat",
	.files = "/proc/stat",
	.flags = MONITOR_DEFAULT,
	.interval = 10,   /* lkp's proc-vmstat loop: 10 s for /proc/stat */
	.parse_snapshot = parse_snapshot,
};
