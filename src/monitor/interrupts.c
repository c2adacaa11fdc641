/*
 * interrupts: /proc/interrupts, a CPU header and one line per interrupt.
 *
 * lkp's stats script names each line after its first field and its
 * description, and prints one metric per CPU and the sum:
 *   " 35:  0  30782  PCI-MSIX-0000:00:02.0  1-edge  virtio1-req.0"
 *       -> CPU0.35:PCI-MSIX-0000:00:02.0.1-edge.virtio1-req.0: 0, ...,
 *          35:PCI-MSIX-0000:00:02.0.1-edge.virtio1-req.0: 30782
 *     (numbered lines join the description with '.', dropping a '.' after
 *     a ',')
 *   "LOC:  28424  27335  Local timer interrupts"
 *       -> CPU0.LOC:Local_timer_interrupts: 28424, ..., LOC:Local_timer_interrupts: 55759
 *     (others join it with '_')
 *   "ERR:  0"  -> ERR: 0  (two fields: as is)
 */
#include "monitor/monitor.h"
#include "util/bigint.h"

#include <stdlib.h>
#include <string.h>

/* A header: only "CPU<n>" fields. */
static bool cpu_header(const struct field_list *row)
{
	for (size_t i = 0; i < row->nr; i++)
		if (row->v[i].len < 4 || memcmp(row->v[i].s, "CPU", 3) ||
		    strspn(row->v[i].s + 3, "0123456789") < row->v[i].len - 3)
			return false;
	return row->nr > 0;
}

static bool numbered(const char *f, size_t len)
{
	return len > 1 && f[len - 1] == ':' && strspn(f, "0123456789") == len - 1;
}

static void build_key(const struct field_list *row, size_t ncpu, struct strbuf *key)
{
	bool num = numbered(row->v[0].s, row->v[0].len);

	strbuf_reset(key);
	strbuf_add(key, row->v[0].s, row->v[0].len);
	for (size_t i = ncpu + 1; i < row->nr; i++) {
		if (i > ncpu + 1) {
			/* gsub(',.', ','): a '.' joined after a ',' goes */
			if (!num)
				strbuf_addch(key, '_');
			else if (key->buf[key->len - 1] != ',')
				strbuf_addch(key, '.');
		}
		strbuf_add(key, row->v[i].s, row->v[i].len);
	}
}

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct field_list cpus = FIELD_LIST_INIT, v = FIELD_LIST_INIT;
	struct strbuf key = STRBUF_INIT;
	struct line_iter it;
	struct line l;

	struct bigint sum = BIGINT_INIT;   /* exact, as lkp's Ruby adds */

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		bigint_set_zero(&sum);
		if (!split_ws_all(&v, l.s, l.len))
			continue;
		if (cpu_header(&v)) {
			split_ws_all(&cpus, l.s, l.len);
			continue;
		}
		if (!field_has_colon(v.v[0].s, v.v[0].len))
			continue;
		if (v.nr == 2) {
			strbuf_addf(out, "%.*s %.*s\n", (int)v.v[0].len, v.v[0].s,
				    (int)v.v[1].len, v.v[1].s);
			continue;
		}
		build_key(&v, cpus.nr, &key);
		for (size_t i = 0; i < cpus.nr && i + 1 < v.nr; i++) {
			strbuf_add(out, cpus.v[i].s, cpus.v[i].len);
			strbuf_addch(out, '.');
			emit_kv(out, key.buf, key.len, v.v[i + 1].s, v.v[i + 1].len);
			bigint_add_to_i(&sum, v.v[i + 1].s, v.v[i + 1].len);
		}
		strbuf_addf(out, "%s: ", key.buf);
		bigint_add_str(out, &sum);
		strbuf_addch(out, '\n');
	}
	bigint_release(&sum);
	field_list_release(&cpus);
	field_list_release(&v);
	strbuf_release(&key);
	return 0;
}

const struct monitor monitor_interrupts = {
	.name = "interrupts",
	.files = "/proc/interrupts",
	/* lkp's interrupts script: one snapshot at the start, one at the end,
	 * unless the job gives an interval */
	.flags = MONITOR_DEFAULT | MONITOR_TIME_NS | MONITOR_START_END,
	.parse_snapshot = parse_snapshot,
};
