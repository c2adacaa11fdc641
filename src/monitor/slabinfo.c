/*
 * slabinfo: /proc/slabinfo (readable by root only).
 *
 * lkp's stats script takes the column names from the "# name" header and
 * prints, per cache, <cache>.active_objs, .num_objs, .active_slabs and
 * .num_slabs.  It accepts only format version 2.1.
 */
#include "monitor/monitor.h"
#include "util/xalloc.h"

#include <string.h>

static const char *const wanted[] = {
	"<active_objs>", "<num_objs>", "<active_slabs>", "<num_slabs>", NULL
};

static bool is_wanted(const char *f, size_t len)
{
	for (int i = 0; wanted[i]; i++)
		if (strlen(wanted[i]) == len && !memcmp(wanted[i], f, len))
			return true;
	return false;
}

struct slab_columns {
	int nr;          /* values per cache line (header columns - 2) */
	int at[4];       /* value positions of the wanted columns */
	const char *name[4];
	size_t len[4];   /* names without the <> */
	int nr_wanted;
};

/* Which values of a cache line lkp prints, from the "# name" header. */
static void read_header(const struct fields *head, struct slab_columns *c)
{
	c->nr = head->nr - 2;
	c->nr_wanted = 0;
	for (int i = 2; i < head->nr && c->nr_wanted < 4; i++) {
		if (!is_wanted(head->f[i], head->len[i]))
			continue;
		c->at[c->nr_wanted] = i - 1;   /* values: [0] is the cache name */
		c->name[c->nr_wanted] = head->f[i] + 1;
		c->len[c->nr_wanted] = head->len[i] - 2;
		c->nr_wanted++;
	}
}

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct fields head = FIELDS_INIT, v = FIELDS_INIT;
	struct slab_columns c = { .nr = -1 };
	const char *line;
	size_t pos = 0, llen;
	int ret = 0;

	while (next_line(buf, len, &pos, &line, &llen)) {
		if (memmem(line, llen, "slabinfo - version:", 19)) {
			if (!memmem(line, llen, "2.1", 3)) {
				ret = error("%s: slabinfo version '%.*s', expected 2.1",
					    name, (int)llen, line);
				break;
			}
			continue;
		}
		if (llen >= 6 && !memcmp(line, "# name", 6)) {
			fields_split(&head, line, llen);
			read_header(&head, &c);
			continue;
		}
		if (!fields_split(&v, line, llen))
			continue;
		if (c.nr < 0) {
			ret = error("%s: slabinfo data before its '# name' header", name);
			break;
		}
		if (v.nr - 1 != c.nr)
			continue;
		for (int i = 0; i < c.nr_wanted; i++) {
			/* <cache>.<column without <>>: value */
			strbuf_add(out, v.f[0], v.len[0]);
			strbuf_addch(out, '.');
			emit_kv(out, c.name[i], c.len[i], v.f[c.at[i]], v.len[c.at[i]]);
		}
	}
	fields_release(&head);
	fields_release(&v);
	return ret;
}

const struct monitor monitor_slabinfo = {
	.name = "slabinfo",
	.files = "/proc/slabinfo",
	.flags = MONITOR_DEFAULT,
	/* lkp: 1 s.  A read walks every slab cache: 0.1-0.8 ms here, 10x
	 * the rest of a sample together; a gauge loses little at 10 s. */
	.interval = 10,
	.parse_snapshot = parse_snapshot,
};
