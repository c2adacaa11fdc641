/*
 * proc-vmstat: /proc/vmstat, one "name value" line per counter.
 *
 * lkp's monitor cats the file each second (keeping the first of duplicate
 * names, `awk '!x[$1]++'`); its stats script prints "name: value".  A
 * line without a name (":  123") is skipped.  Most of these are event
 * counters (pg*, numa_*, ...: see reduce.c).
 */
#include "monitor/monitor.h"

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct keyset seen;
	struct line_iter it;
	struct line l;
	struct field f[2];

	keyset_init(&seen);
	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		size_t n = split_ws(l.s, l.len, f, 2);
		bool added;

		if (!n)
			continue;
		keyset_add(&seen, f[0].s, f[0].len, &added);
		if (!added)
			continue;
		if (f[0].len && f[0].s[f[0].len - 1] == ':')   /* key.chomp(':') */
			f[0].len--;
		/* ":  123" is no vmstat line: it gave a stats line with an
		 * empty key (found by fuzzing, as in meminfo) */
		if (!f[0].len)
			continue;
		emit_kv(out, f[0].s, f[0].len, n > 1 ? f[1].s : "", n > 1 ? f[1].len : 0);
	}
	keyset_release(&seen);
	return 0;
}

const struct monitor monitor_proc_vmstat = {
	.name = "proc-vmstat",
	.files = "/proc/vmstat",
	.flags = MONITOR_DEFAULT,
	.parse_snapshot = parse_snapshot,
};
