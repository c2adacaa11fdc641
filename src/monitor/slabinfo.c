/*
 * slabinfo: /proc/slabinfo (readable by root only).
 *
 * lkp's stats script takes the column names from the "# name" header and
 * prints, per cache, <cache>.active_objs, .num_objs, .active_slabs and
 * .num_slabs.  It accepts only format version 2.1.
 */
#include "monitor/monitor.h"
#include "util/error.h"
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
static void read_header(const struct field_list *head, struct slab_columns *c)
{
	c->nr = (int)head->nr - 2;
	c->nr_wanted = 0;
	for (size_t i = 2; i < head->nr && c->nr_wanted < 4; i++) {
		if (!is_wanted(head->v[i].s, head->v[i].len))
			continue;
		c->at[c->nr_wanted] = (int)i - 1;   /* values: [0] is the cache name */
		c->name[c->nr_wanted] = head->v[i].s + 1;
		c->len[c->nr_wanted] = head->v[i].len - 2;
		c->nr_wanted++;
	}
}

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct field_list head = FIELD_LIST_INIT, v = FIELD_LIST_INIT;
	struct slab_columns c = { .nr = -1 };
	struct line_iter it;
	struct line l;
	int ret = 0;

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		if (memmem(l.s, l.len, "slabinfo - version:", 19)) {
			if (!memmem(l.s, l.len, "2.1", 3)) {
				ret = error("%s: slabinfo version '%.*s', expected 2.1",
					    name, (int)l.len, l.s);
				break;
			}
			continue;
		}
		if (l.len >= 6 && !memcmp(l.s, "# name", 6)) {
			split_ws_all(&head, l.s, l.len);
			read_header(&head, &c);
			continue;
		}
		if (!split_ws_all(&v, l.s, l.len))
			continue;
		if (c.nr < 0) {
			ret = error("%s: slabinfo data before its '# name' header", name);
			break;
		}
		if ((int)v.nr - 1 != c.nr)
			continue;
		for (int i = 0; i < c.nr_wanted; i++) {
			/* <cache>.<column without <>>: value */
			strbuf_add(out, v.v[0].s, v.v[0].len);
			strbuf_addch(out, '.');
			emit_kv(out, c.name[i], c.len[i], v.v[c.at[i]].s, v.v[c.at[i]].len);
		}
	}
	field_list_release(&head);
	field_list_release(&v);
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
