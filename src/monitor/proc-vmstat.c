/*
 * proc-vmstat: /proc/vmstat, one "name value" line per counter.
 *
 * lkp's monitor cats the file each second (keeping the first of duplicate
 * names, `awk '!x[$1]++'`); its stats script prints "name: value".  Most
 * of these are event counters (pg*, numa_*, ...: see reduce.c).
 */
#include "monitor/monitor.h"

static bool available(const char *root, struct strbuf *why)
{
	return root_readable(root, "/proc/vmstat", why);
}

static int list_sources(const char *root, struct monitor_sources *out)
{
	struct strbuf p = STRBUF_INIT;

	root_path(&p, root, "/proc/vmstat");
	monitor_sources_add(out, SRC_TEXT, p.buf, NULL);
	strbuf_release(&p);
	return 0;
}

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
	.available = available,
	.list_sources = list_sources,
	.parse_snapshot = parse_snapshot,
};
