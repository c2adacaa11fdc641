/*
 * meminfo: /proc/meminfo, "Name:   value kB" lines.
 *
 * lkp's stats script prints "Name: value" and, after MemFree, two derived
 * lines: "Memused: MemTotal - MemFree" and "max_used_<unit>: the largest
 * Memused so far" (a running maximum over the samples of the file).  It
 * skips lines that are not meminfo's: kselftests' livepatch test and
 * fuzzers have been seen to clobber the file with other text.
 */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

struct meminfo_state {
	bool have_total;
	long long total;          /* the first MemTotal of the file */
	bool have_used;
	long long max_used;
	char unit[16];            /* MemFree's unit, from its first line */
};

static const char *const clobbered[] = {
	"test_klp_atomic_replace:", "entries", "sockets:", "TCP:", "UDP:",
	"UDPLITE:", "RAW:", "FRAG:", NULL
};

static bool is_clobbered(const char *line, size_t len)
{
	for (int i = 0; clobbered[i]; i++) {
		size_t n = strlen(clobbered[i]);
		if (len >= n && !memcmp(line, clobbered[i], n))
			return true;
	}
	return false;
}

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct meminfo_state *st = state;
	const char *line, *f[3];
	size_t pos = 0, llen, flen[3];

	while (next_line(buf, len, &pos, &line, &llen)) {
		int n;
		long long v;

		if (is_clobbered(line, llen))
			continue;
		n = split_fields(line, llen, f, flen, 3);
		if (!n)
			continue;
		if (flen[0] && f[0][flen[0] - 1] == ':')
			flen[0]--;
		emit_kv(out, f[0], flen[0], n > 1 ? f[1] : "", n > 1 ? flen[1] : 0);
		v = n > 1 ? strtoll(f[1], NULL, 10) : 0;
		if (flen[0] == 8 && !memcmp(f[0], "MemTotal", 8) && !st->have_total) {
			st->have_total = true;
			st->total = v;
		}
		if (flen[0] == 7 && !memcmp(f[0], "MemFree", 7) && st->have_total) {
			long long used = st->total - v;

			if (!st->have_used || used > st->max_used)
				st->max_used = used;
			if (!st->have_used && n > 2 && flen[2] < sizeof(st->unit)) {
				memcpy(st->unit, f[2], flen[2]);
				st->unit[flen[2]] = '\0';
			}
			st->have_used = true;
			strbuf_addf(out, "Memused: %lld\n", used);
			strbuf_addf(out, "max_used_%s: %lld\n", st->unit, st->max_used);
		}
	}
	return 0;
}

const struct monitor monitor_meminfo = {
	.name = "meminfo",
	.files = "/proc/meminfo",
	.flags = MONITOR_DEFAULT,
	.parse_snapshot = parse_snapshot,
	.parse_state_size = sizeof(struct meminfo_state),
};
