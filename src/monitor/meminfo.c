/*
 * meminfo: /proc/meminfo, "Name:   value kB" lines.
 *
 * lkp's stats script prints "Name: value" and, after MemFree, two derived
 * lines: "Memused: MemTotal - MemFree" and "max_used_<unit>: the largest
 * Memused so far" (a running maximum over the samples of the file).  It
 * skips lines that are not meminfo's: kselftests' livepatch test and
 * fuzzers have been seen to clobber the file with other text; perfbot
 * also skips a line without a name (":  123 kB").
 */
#include "monitor/monitor.h"
#include "util/bigint.h"

#include <stdlib.h>
#include <string.h>

/* Exact integers: lkp's Ruby subtracts and compares without overflow. */
struct meminfo_state {
	bool have_total;
	struct bigint total;      /* the first MemTotal of the file */
	bool have_used;
	struct bigint max_used;
	struct bigint used;       /* scratch for each MemFree line */
	char unit[16];            /* MemFree's unit, from its first line */
};

static void release(void *state)
{
	struct meminfo_state *st = state;

	bigint_release(&st->total);
	bigint_release(&st->max_used);
	bigint_release(&st->used);
}

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

		if (is_clobbered(l.s, l.len))
			continue;
		n = split_ws(l.s, l.len, f, 3);
		if (!n)
			continue;
		if (f[0].len && f[0].s[f[0].len - 1] == ':')
			f[0].len--;
		/* ":  123 kB" or " : 5" is no meminfo line: it gave a stats
		 * line with an empty key (found by fuzzing) */
		if (!f[0].len)
			continue;
		emit_kv(out, f[0].s, f[0].len, n > 1 ? f[1].s : "", n > 1 ? f[1].len : 0);
		if (f[0].len == 8 && !memcmp(f[0].s, "MemTotal", 8) && !st->have_total) {
			st->have_total = true;
			if (n > 1)
				bigint_add_to_i(&st->total, f[1].s, f[1].len);
		}
		if (f[0].len == 7 && !memcmp(f[0].s, "MemFree", 7) && st->have_total) {
			struct bigint *used = &st->used;

			bigint_copy(used, &st->total);
			if (n > 1) {
				struct bigint v = BIGINT_INIT;
				bigint_add_to_i(&v, f[1].s, f[1].len);
				bigint_sub(used, &v);
				bigint_release(&v);
			}
			if (!st->have_used || bigint_cmp(used, &st->max_used) > 0)
				bigint_copy(&st->max_used, used);
			if (!st->have_used && n > 2 && f[2].len < sizeof(st->unit)) {
				memcpy(st->unit, f[2].s, f[2].len);
				st->unit[f[2].len] = '\0';
			}
			st->have_used = true;
			strbuf_addstr(out, "Memused: ");
			bigint_add_str(out, used);
			strbuf_addf(out, "\nmax_used_%s: ", st->unit);
			bigint_add_str(out, &st->max_used);
			strbuf_addch(out, '\n');
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
	.parse_state_release = release,
};
