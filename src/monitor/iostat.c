/*
 * iostat: the report of `S_TIME_FORMAT=ISO iostat -tkx 1`, lkp's iostat
 * monitor, computed from /proc/diskstats and /proc/stat without running
 * iostat.
 *
 * The raw file is iostat's text: per sample an ISO time line, the avg-cpu
 * block and the "Device:" block with the classic -x columns lkp's parser
 * and its thresholds name (rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz
 * avgqu-sz await r_await w_await svctm %util).  Its parser is lkp's: the
 * time line gives "time: <epoch>", avg-cpu's columns "cpu.<name>", each
 * device row "<dev>.<column>", a column's first '%' dropped -- metric
 * names iostat.sda.util, iostat.sda.r/s, iostat.cpu.iowait.
 *
 * The arithmetic is sysstat's over the interval between two samples (the
 * first sample only records where the counters stand):
 *   r/s w/s rrqm/s wrqm/s    ios and merges per second
 *   rkB/s wkB/s              sectors / 2 per second
 *   avgrq-sz                 sectors per request; avgqu-sz: time_in_queue
 *                            ms per ms
 *   await r_await w_await    ms per request; svctm: io_ticks per request
 *   %util                    io_ticks ms per ms, in percent
 *   %user ... %idle          shares of the cpu line's jiffies; %system
 *                            holds irq and softirq
 * Devices are the whole disks iostat lists, not their partitions, at most
 * MAX_DEVS.
 */
#include "monitor/monitor.h"
#include "util/compiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_DEVS 64
#define NAME_MAX_LEN 32

enum { D_RIOS, D_RMERGE, D_RSECT, D_RTICKS, D_WIOS, D_WMERGE, D_WSECT, D_WTICKS,
       D_INFLIGHT, D_IOTICKS, D_RQTICKS, NR_D };

struct dev {
	char name[NAME_MAX_LEN];
	bool whole;                 /* a disk iostat lists, not a partition */
	unsigned long long v[NR_D];
};

struct iostat_state {
	bool have_prev;
	int nr;
	struct dev dev[MAX_DEVS];
	unsigned long long cpu[8];  /* user nice system idle iowait irq softirq steal */
	struct timespec prev_mono;
};

static bool available(const char *root, struct strbuf *why)
{
	return root_readable(root, "/proc/diskstats", why) &&
	       root_readable(root, "/proc/stat", why);
}

static int list_sources(const char *root, struct monitor_sources *out)
{
	struct strbuf p = STRBUF_INIT;

	root_path(&p, root, "/proc/diskstats");
	monitor_sources_add(out, SRC_TEXT, p.buf, NULL);
	strbuf_reset(&p);
	root_path(&p, root, "/proc/stat");
	monitor_sources_add(out, SRC_TEXT, p.buf, NULL);
	strbuf_release(&p);
	return 0;
}

static unsigned long long delta(unsigned long long now, unsigned long long then)
{
	return now >= then ? now - then : 0;
}

/*
 * A partition is a name that another device's name begins, the rest
 * being digits or "p" and digits (sda1 of sda, nvme0n1p2 of nvme0n1):
 * what /proc/diskstats alone tells, the same under a made-up root.
 */
static bool is_partition(const char *name, size_t len, const struct field *names, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		size_t k = names[i].len;
		const char *r = name + k;
		if (k >= len || memcmp(names[i].s, name, k))
			continue;
		if (*r == 'p' && r + 1 < name + len)
			r++;
		if (strspn(r, "0123456789") >= (size_t)(name + len - r))
			return true;
	}
	return false;
}

static struct dev *find_dev(struct iostat_state *st, const char *name, size_t len,
			    const struct field *names, size_t nr_names, bool *is_new)
{
	*is_new = false;
	if (len >= NAME_MAX_LEN)
		return NULL;
	for (int i = 0; i < st->nr; i++)
		if (strlen(st->dev[i].name) == len && !memcmp(st->dev[i].name, name, len))
			return &st->dev[i];
	if (st->nr == MAX_DEVS)
		return NULL;
	struct dev *d = &st->dev[st->nr++];
	memset(d, 0, sizeof(*d));
	memcpy(d->name, name, len);
	d->name[len] = '\0';
	d->whole = !is_partition(name, len, names, nr_names);
	*is_new = true;
	return d;
}

static void add_col(struct strbuf *raw, double v)
{
	strbuf_addf(raw, " %8.2f", v);
}

static int sample(void *state, const struct strbuf *const *text, int nr,
		  const struct timespec *now, struct strbuf *raw)
{
	struct iostat_state *st = state;
	unsigned long long cpu[8] = { 0 }, dc[8], tot = 0;
	struct timespec mono;
	struct line_iter it;
	struct line l;
	struct field f[24];
	double dt = 0;
	bool report;

	if (nr < 2 || !text[0] || !text[1])
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	report = st->have_prev;
	if (report)
		dt = (double)(mono.tv_sec - st->prev_mono.tv_sec) +
		     (mono.tv_nsec - st->prev_mono.tv_nsec) / 1e9;
	if (dt <= 0)
		report = false;

	line_iter_init(&it, text[1]->buf, text[1]->len);
	while (line_next(&it, &l)) {
		size_t n = split_ws(l.s, l.len, f, 12);
		if (n >= 9 && f[0].len == 3 && !memcmp(f[0].s, "cpu", 3)) {
			for (int i = 0; i < 8; i++)
				cpu[i] = strtoull(f[i + 1].s, NULL, 10);
			break;
		}
	}
	if (report) {
		char stamp[40];
		struct tm tm;
		time_t t = now->tv_sec;

		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S+0000", &tm);
		strbuf_addf(raw, "%s\n", stamp);
		for (int i = 0; i < 8; i++)
			tot += dc[i] = delta(cpu[i], st->cpu[i]);
		if (!tot)
			tot = 1;
		strbuf_addstr(raw, "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n      ");
		add_col(raw, 100.0 * (double)dc[0] / (double)tot);
		add_col(raw, 100.0 * (double)dc[1] / (double)tot);
		add_col(raw, 100.0 * (double)(dc[2] + dc[5] + dc[6]) / (double)tot);
		add_col(raw, 100.0 * (double)dc[4] / (double)tot);
		add_col(raw, 100.0 * (double)dc[7] / (double)tot);
		add_col(raw, 100.0 * (double)dc[3] / (double)tot);
		strbuf_addstr(raw, "\n\nDevice:           rrqm/s   wrqm/s      r/s      w/s    rkB/s"
			      "    wkB/s avgrq-sz avgqu-sz    await  r_await  w_await    svctm    %util\n");
	}
	memcpy(st->cpu, cpu, sizeof(cpu));

	/* the names first: a partition is known by its disk's name */
	struct field names[MAX_DEVS];
	size_t nr_names = 0;
	line_iter_init(&it, text[0]->buf, text[0]->len);
	while (nr_names < MAX_DEVS && line_next(&it, &l))
		if (split_ws(l.s, l.len, f, 24) >= 3 + NR_D)
			names[nr_names++] = f[2];
	line_iter_init(&it, text[0]->buf, text[0]->len);
	while (line_next(&it, &l)) {
		size_t n = split_ws(l.s, l.len, f, 24);
		unsigned long long v[NR_D], d[NR_D];
		bool is_new;
		struct dev *dev;

		if (n < 3 + NR_D)
			continue;
		dev = find_dev(st, f[2].s, f[2].len, names, nr_names, &is_new);
		if (!dev)
			continue;
		for (int i = 0; i < NR_D; i++)
			v[i] = strtoull(f[3 + i].s, NULL, 10);
		if (report && !is_new && dev->whole) {
			unsigned long long ios, rd, wr;
			for (int i = 0; i < NR_D; i++)
				d[i] = delta(v[i], dev->v[i]);
			rd = d[D_RIOS];
			wr = d[D_WIOS];
			ios = rd + wr;
			strbuf_addf(raw, "%-13s", dev->name);
			add_col(raw, (double)d[D_RMERGE] / dt);
			add_col(raw, (double)d[D_WMERGE] / dt);
			add_col(raw, (double)rd / dt);
			add_col(raw, (double)wr / dt);
			add_col(raw, (double)d[D_RSECT] / 2 / dt);
			add_col(raw, (double)d[D_WSECT] / 2 / dt);
			add_col(raw, ios ? (double)(d[D_RSECT] + d[D_WSECT]) / (double)ios : 0);
			add_col(raw, (double)d[D_RQTICKS] / dt / 1000);
			add_col(raw, ios ? (double)(d[D_RTICKS] + d[D_WTICKS]) / (double)ios : 0);
			add_col(raw, rd ? (double)d[D_RTICKS] / (double)rd : 0);
			add_col(raw, wr ? (double)d[D_WTICKS] / (double)wr : 0);
			add_col(raw, ios ? (double)d[D_IOTICKS] / (double)ios : 0);
			add_col(raw, (double)d[D_IOTICKS] / dt / 10);
			strbuf_addch(raw, '\n');
		}
		memcpy(dev->v, v, sizeof(v));
	}
	if (report)
		strbuf_addch(raw, '\n');
	st->prev_mono = mono;
	st->have_prev = true;
	return 0;
}

/* lkp's normalize_key: the first '%' goes. */
static void add_key(struct strbuf *out, const char *prefix, size_t plen,
		    const char *col, size_t clen)
{
	const char *pct = memchr(col, '%', clen);

	strbuf_add(out, prefix, plen);
	strbuf_addch(out, '.');
	if (pct) {
		strbuf_add(out, col, (size_t)(pct - col));
		strbuf_add(out, pct + 1, clen - (size_t)(pct - col) - 1);
	} else {
		strbuf_add(out, col, clen);
	}
	strbuf_addstr(out, ": ");
}

/* "2013-04-02T13:58:40+0800": 24 of [0-9T:+-], as lkp's regex */
static bool is_iso_time(const struct line *l, long long *t)
{
	char s[32];
	struct tm tm;
	char *end;

	if (l->len != 24 || strspn(l->s, "0123456789T:+-") < 24)
		return false;
	memcpy(s, l->s, 24);
	s[24] = '\0';
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S%z", &tm);
	if (!end || *end)
		return false;
	long off = tm.tm_gmtoff;    /* before timegm normalizes tm */
	*t = (long long)timegm(&tm) - off;
	return true;
}

/*
 * lkp's parser: a time line, "avg-cpu:" with its next line, "Device:"
 * with the rows after it until one with another number of fields.
 */
static int parse_raw(const struct monitor *m, const char *buf, size_t len,
		     const char *name, stats_sink_fn sink, void *ctx)
{
	struct field_list head = FIELD_LIST_INIT, v = FIELD_LIST_INIT;
	struct strbuf out = STRBUF_INIT;
	struct line_iter it;
	struct line l;
	int ret = 0;
	enum { NONE, CPU, DEV } want = NONE;

	line_iter_init(&it, buf, len);
	while (ret == 0 && line_next(&it, &l)) {
		long long t;

		if (want == CPU) {
			split_ws_all(&v, l.s, l.len);
			for (size_t i = 0; i < v.nr && i + 1 < head.nr; i++) {
				add_key(&out, "cpu", 3, head.v[i + 1].s, head.v[i + 1].len);
				strbuf_add(&out, v.v[i].s, v.v[i].len);
				strbuf_addch(&out, '\n');
			}
			want = NONE;
			continue;
		}
		if (want == DEV) {
			split_ws_all(&v, l.s, l.len);
			if (v.nr == head.nr) {
				for (size_t i = 1; i < v.nr; i++) {
					add_key(&out, v.v[0].s, v.v[0].len, head.v[i].s, head.v[i].len);
					strbuf_add(&out, v.v[i].s, v.v[i].len);
					strbuf_addch(&out, '\n');
				}
				continue;
			}
			want = NONE;
		}
		if (is_iso_time(&l, &t)) {
			if (out.len && sink(ctx, out.buf, out.len) < 0)
				ret = -1;
			strbuf_reset(&out);
			strbuf_addf(&out, "time: %lld\n", t);
		} else if (l.len >= 8 && !memcmp(l.s, "avg-cpu:", 8)) {
			split_ws_all(&head, l.s, l.len);
			want = CPU;
		} else if (l.len >= 7 && !memcmp(l.s, "Device:", 7)) {
			split_ws_all(&head, l.s, l.len);
			want = DEV;
		}
	}
	if (ret == 0 && out.len && sink(ctx, out.buf, out.len) < 0)
		ret = -1;
	field_list_release(&head);
	field_list_release(&v);
	strbuf_release(&out);
	return ret;
}

/* A snapshot is one report, its time line included. */
static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	return parse_raw(NULL, buf, len, name, stats_sink_strbuf, out);
}

const struct monitor monitor_iostat = {
	.name = "iostat",
	.files = "/proc/diskstats, /proc/stat",
	.flags = MONITOR_DEFAULT,
	.available = available,
	.list_sources = list_sources,
	.sample = sample,
	.sample_state_size = sizeof(struct iostat_state),
	.parse_snapshot = parse_snapshot,
	.parse_raw = parse_raw,
};
