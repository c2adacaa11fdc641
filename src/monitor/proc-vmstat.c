/*
 * proc-vmstat: /proc/vmstat, one "name value" line per counter.
 *
 * lkp's monitor cats the file each second (keeping the first of duplicate
 * names, `awk '!x[$1]++'`); its stats script prints "name: value".  Most
 * of these are event counters (pg*, numa_*, ...: see reduce.c).
 */
#include "monitor/monitor.h"

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct keyset seen;
	const char *line, *f[2];
	size_t pos = 0, llen, flen[2];

	keyset_init(&seen);
	while (next_line(buf, len, &pos, &line, &llen)) {
		int n = split_fields(line, llen, f, flen, 2);
		bool added;

		if (!n)
			continue;
		keyset_add(&seen, f[0], flen[0], &added);
		if (!added)
			continue;
		if (flen[0] && f[0][flen[0] - 1] == ':')   /* key.chomp(':') */
			flen[0]--;
		emit_kv(out, f[0], flen[0], n > 1 ? f[1] : "", n > 1 ? flen[1] : 0);
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
