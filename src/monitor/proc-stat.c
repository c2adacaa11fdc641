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
	struct line_iter it;
	struct line l;
	struct field f[12];

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		size_t n = split_ws(l.s, l.len, f, 12);

		if (n < 2)
			continue;
		if (f[0].len >= 3 && !memcmp(f[0].s, "cpu", 3) &&
		    strspn(f[0].s + 3, "0123456789") == f[0].len - 3) {
			for (size_t i = 1; i < n && i < 12 && cpu_fields[i - 1]; i++)
				strbuf_addf(out, "%.*s.%s: %.*s\n", (int)f[0].len, f[0].s,
					    cpu_fields[i - 1], (int)f[i].len, f[i].s);
			continue;
		}
		emit_kv(out, f[0].s, f[0].len, f[1].s, f[1].len);
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
