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
	struct line_iter it;
	struct line l;
	struct field f[3];

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		size_t n;
		long long v;

		if (is_clobbered(l.s, l.len))
			continue;
		n = split_ws(l.s, l.len, f, 3);
		if (!n)
			continue;
		if (f[0].len && f[0].s[f[0].len - 1] == ':')
			f[0].len--;
		emit_kv(out, f[0].s, f[0].len, n > 1 ? f[1].s : "", n > 1 ? f[1].len : 0);
		v = n > 1 ? strtoll(f[1].s, NULL, 10) : 0;
		if (f[0].len == 8 && !memcmp(f[0].s, "MemTotal", 8) && !st->have_total) {
			st->have_total = true;
			st->total = v;
		}
		if (f[0].len == 7 && !memcmp(f[0].s, "MemFree", 7) && st->have_total) {
			long long used = st->total - v;

			if (!st->have_used || used > st->max_used)
				st->max_used = used;
			if (!st->have_used && n > 2 && f[2].len < sizeof(st->unit)) {
				memcpy(st->unit, f[2].s, f[2].len);
				st->unit[f[2].len] = '\0';
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
