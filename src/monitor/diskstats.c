/*
 * diskstats: /proc/diskstats, one line per block device.
 *
 * lkp's stats script prints "<field>.<device>: value" for the 11 fields of
 * a 14-column line (read_ios.sda: 234567).  Kernels since 4.18 print 18
 * columns (discard) and since 5.5 20 (flush), which lkp's script skips;
 * here they are read too, the extra fields named as in the kernel's
 * Documentation/admin-guide/iostats.rst.
 */
#include "monitor/monitor.h"

static const char *const keys[] = {
	"read_ios", "read_merges", "read_sectors", "read_ticks",
	"write_ios", "write_merges", "write_sectors", "write_ticks",
	"in_flight", "io_ticks", "time_in_queue",
	"discard_ios", "discard_merges", "discard_sectors", "discard_ticks",
	"flush_ios", "flush_ticks",
};
#define NKEYS (int)(sizeof(keys) / sizeof(keys[0]))

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct line_iter it;
	struct line l;
	struct field f[NKEYS + 3];

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		size_t n = split_ws(l.s, l.len, f, NKEYS + 3);

		/* major minor name, then 11, 15 or 17 fields */
		if (n != 14 && n != 18 && n != 20)
			continue;
		for (size_t i = 3; i < n; i++)
			strbuf_addf(out, "%s.%.*s: %.*s\n", keys[i - 3], (int)f[2].len, f[2].s,
				    (int)f[i].len, f[i].s);
	}
	return 0;
}

const struct monitor monitor_diskstats = {
	.name = "diskstats",
	.files = "/proc/diskstats",
	.flags = MONITOR_DEFAULT,
	.parse_snapshot = parse_snapshot,
};
