/*
 * numa-vmstat, numa-numastat, numa-meminfo: the per-node files of
 * /sys/devices/system/node/node<N>/ (vmstat, numastat, meminfo).
 *
 * lkp's monitor writes, for each sample, "time: T" then for each node
 * "node: N" and the node's file.  Its stats scripts name the metrics
 * node<N>.<key>:
 *   numastat, vmstat   "numa_hit 12"                 -> node0.numa_hit: 12
 *   meminfo            "Node 0 MemTotal:  8000 kB"   -> node0.MemTotal: 8000
 * lkp samples these only on machines with a node1; here node0 of a
 * one-node machine is sampled too.
 */
#include "monitor/monitor.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NODE_DIR "/sys/devices/system/node"

static bool node_available(const char *root, const char *file, struct strbuf *why)
{
	struct strbuf p = STRBUF_INIT;
	bool ok;

	strbuf_addf(&p, NODE_DIR "/node0/%s", file);
	ok = root_readable(root, p.buf, why);
	strbuf_release(&p);
	return ok;
}

static int node_sources(const char *root, const char *file, struct monitor_sources *out)
{
	char **nodes = list_numbered(root, NODE_DIR, "node");
	struct strbuf p = STRBUF_INIT, label = STRBUF_INIT;

	for (int i = 0; nodes[i]; i++) {
		strbuf_reset(&p);
		strbuf_reset(&label);
		root_path(&p, root, NODE_DIR "/");
		strbuf_addf(&p, "%s/%s", nodes[i], file);
		strbuf_addf(&label, "node: %s", nodes[i] + 4);
		monitor_sources_add(out, SRC_TEXT, p.buf, label.buf);
	}
	free_names(nodes);
	strbuf_release(&p);
	strbuf_release(&label);
	return 0;
}

/*
 * lkp's numa-numastat script (numa-vmstat links to it): "node: N" sets the
 * node, a line of one number is "node<N>: value", others "node<N>.key: value".
 * dedup: vmstat's monitor keeps the first of duplicate keys of each node.
 */
static int parse_node_kv(const char *buf, size_t len, bool dedup, struct strbuf *out)
{
	struct keyset seen;
	struct line_iter it;
	struct line l;
	struct field f[2];
	struct strbuf node = STRBUF_INIT;

	keyset_init(&seen);
	strbuf_addstr(&node, "0");
	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		size_t n = split_ws(l.s, l.len, f, 2);

		if (!n)
			continue;
		if (f[0].len == 5 && !memcmp(f[0].s, "node:", 5)) {
			strbuf_reset(&node);
			if (n > 1)
				strbuf_add(&node, f[1].s, f[1].len);
			keyset_clear(&seen);
			continue;
		}
		if (n == 1 && l.s[0] == ' ' && strspn(f[0].s, "0123456789") >= f[0].len) {
			strbuf_addf(out, "node%s: %.*s\n", node.buf, (int)f[0].len, f[0].s);
			continue;
		}
		if (dedup) {
			bool added;
			keyset_add(&seen, f[0].s, f[0].len, &added);
			if (!added)
				continue;
		}
		strbuf_addf(out, "node%s.%.*s: %.*s\n", node.buf, (int)f[0].len, f[0].s,
			    n > 1 ? (int)f[1].len : 0, n > 1 ? f[1].s : "");
	}
	keyset_release(&seen);
	strbuf_release(&node);
	return 0;
}

/* numa-vmstat */

static bool vmstat_available(const char *root, struct strbuf *why)
{
	return node_available(root, "vmstat", why);
}

static int vmstat_sources(const char *root, struct monitor_sources *out)
{
	return node_sources(root, "vmstat", out);
}

static int vmstat_parse(void *state, const char *buf, size_t len,
			const char *name, struct strbuf *out)
{
	return parse_node_kv(buf, len, true, out);
}

const struct monitor monitor_numa_vmstat = {
	.name = "numa-vmstat",
	.files = NODE_DIR "/node*/vmstat",
	.flags = MONITOR_DEFAULT | MONITOR_TIME_NS,
	.available = vmstat_available,
	.list_sources = vmstat_sources,
	.parse_snapshot = vmstat_parse,
};

/* numa-numastat */

static bool numastat_available(const char *root, struct strbuf *why)
{
	return node_available(root, "numastat", why);
}

static int numastat_sources(const char *root, struct monitor_sources *out)
{
	return node_sources(root, "numastat", out);
}

static int numastat_parse(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	return parse_node_kv(buf, len, false, out);
}

const struct monitor monitor_numa_numastat = {
	.name = "numa-numastat",
	.files = NODE_DIR "/node*/numastat",
	.flags = MONITOR_DEFAULT | MONITOR_TIME_NS,
	.available = numastat_available,
	.list_sources = numastat_sources,
	.parse_snapshot = numastat_parse,
};

/* numa-meminfo */

static bool meminfo_available(const char *root, struct strbuf *why)
{
	return node_available(root, "meminfo", why);
}

static int meminfo_sources(const char *root, struct monitor_sources *out)
{
	return node_sources(root, "meminfo", out);
}

/* lkp's awk: lines of 4 or more fields, tolower($1) $2 "." $3 " " $4;
 * only where $3 is a "Key:", as in every line the kernel writes: any other
 * line gave a stats line without a key (found by fuzzing) */
static int meminfo_parse(void *state, const char *buf, size_t len,
			 const char *name, struct strbuf *out)
{
	struct line_iter it;
	struct line l;
	struct field f[4];

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		if (split_ws(l.s, l.len, f, 4) < 4 || f[2].len < 2 || f[2].s[f[2].len - 1] != ':')
			continue;
		for (size_t i = 0; i < f[0].len; i++)
			strbuf_addch(out, tolower((unsigned char)f[0].s[i]));
		strbuf_addf(out, "%.*s.%.*s %.*s\n", (int)f[1].len, f[1].s,
			    (int)f[2].len, f[2].s, (int)f[3].len, f[3].s);
	}
	return 0;
}

const struct monitor monitor_numa_meminfo = {
	.name = "numa-meminfo",
	.files = NODE_DIR "/node*/meminfo",
	.flags = MONITOR_DEFAULT | MONITOR_TIME_NS,
	.available = meminfo_available,
	.list_sources = meminfo_sources,
	.parse_snapshot = meminfo_parse,
};
