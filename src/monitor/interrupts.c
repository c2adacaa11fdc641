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

#include <stdlib.h>
#include <string.h>

/* A header: only "CPU<n>" fields. */
static bool cpu_header(const struct fields *v)
{
	for (int i = 0; i < v->nr; i++)
		if (v->len[i] < 4 || memcmp(v->f[i], "CPU", 3) ||
		    strspn(v->f[i] + 3, "0123456789") < v->len[i] - 3)
			return false;
	return v->nr > 0;
}

static bool numbered(const char *f, size_t len)
{
	return len > 1 && f[len - 1] == ':' && strspn(f, "0123456789") == len - 1;
}

static void build_key(const struct fields *v, int ncpu, struct strbuf *key)
{
	bool num = numbered(v->f[0], v->len[0]);

	strbuf_reset(key);
	strbuf_add(key, v->f[0], v->len[0]);
	for (int i = ncpu + 1; i < v->nr; i++) {
		if (i > ncpu + 1) {
			/* gsub(',.', ','): a '.' joined after a ',' goes */
			if (!num)
				strbuf_addch(key, '_');
			else if (key->buf[key->len - 1] != ',')
				strbuf_addch(key, '.');
		}
		strbuf_add(key, v->f[i], v->len[i]);
	}
}

static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct fields cpus = FIELDS_INIT, v = FIELDS_INIT;
	struct strbuf key = STRBUF_INIT;
	const char *line;
	size_t pos = 0, llen;

	while (next_line(buf, len, &pos, &line, &llen)) {
		long long sum = 0;

		if (!fields_split(&v, line, llen))
			continue;
		if (cpu_header(&v)) {
			fields_split(&cpus, line, llen);
			continue;
		}
		if (!field_has_colon(v.f[0], v.len[0]))
			continue;
		if (v.nr == 2) {
			strbuf_addf(out, "%.*s %.*s\n", (int)v.len[0], v.f[0],
				    (int)v.len[1], v.f[1]);
			continue;
		}
		build_key(&v, cpus.nr, &key);
		for (int i = 0; i < cpus.nr && i + 1 < v.nr; i++) {
			strbuf_add(out, cpus.f[i], cpus.len[i]);
			strbuf_addch(out, '.');
			emit_kv(out, key.buf, key.len, v.f[i + 1], v.len[i + 1]);
			sum += strtoll(v.f[i + 1], NULL, 10);
		}
		strbuf_addf(out, "%s: %lld\n", key.buf, sum);
	}
	fields_release(&cpus);
	fields_release(&v);
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
