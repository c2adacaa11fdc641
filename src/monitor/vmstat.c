/*
 * vmstat: the columns of `vmstat --timestamp -n 1`, computed from
 * /proc/stat, /proc/vmstat and /proc/meminfo without running vmstat.
 *
 * lkp runs vmstat itself; its raw file is vmstat's output, and its stats
 * script names the columns procs.r, procs.b, memory.swpd, memory.free,
 * memory.buff, memory.cache, swap.si, swap.so, io.bi, io.bo, system.in,
 * system.cs, cpu.us, cpu.sy, cpu.id, cpu.wa, cpu.st, plus the row's time.
 * This monitor writes the same raw text (header once, then one row per
 * sample, timestamps in UTC) and parses it back the same way.
 *
 * The arithmetic is procps-ng vmstat's:
 *   r, b            procs_running, procs_blocked of /proc/stat
 *   swpd            SwapTotal - SwapFree; free, buff: MemFree, Buffers
 *   cache           Cached + SReclaimable                    (kB)
 *   si, so          pswpin, pswpout deltas in kB per second
 *   bi, bo          pgpgin, pgpgout deltas per second
 *   in, cs          intr total, ctxt deltas per second
 *   us sy id wa st  shares of the cpu line's jiffies deltas, rounded:
 *                   us = user+nice, sy = system+irq+softirq, id, wa, st
 * The first row, with nothing to take a delta from, is since boot, as
 * vmstat's first line: rates are count * HZ / (sum of all CPUs' jiffies).
 * Later rows divide by the time measured between samples.
 */
#include "monitor/monitor.h"
#include "util/compiler.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { CPU_USER, CPU_NICE, CPU_SYSTEM, CPU_IDLE, CPU_IOWAIT, CPU_IRQ,
       CPU_SOFTIRQ, CPU_STEAL, NR_CPU };

struct vm_snap {
	unsigned long long cpu[NR_CPU];
	unsigned long long intr, ctxt, running, blocked;
	unsigned long long pgpgin, pgpgout, pswpin, pswpout;
	unsigned long long memfree, buffers, cached, sreclaimable, swaptotal, swapfree;
};

struct vmstat_state {
	long page_size, clk_tck;  /* sysconf, once */
	bool have_prev;
	bool header_done;
	struct vm_snap prev;
	struct timespec prev_mono;
};

/* vmstat's column names and the stats group each belongs to */
static const struct { const char *col, *group; } columns[] = {
	{ "r", "procs" }, { "b", "procs" },
	{ "swpd", "memory" }, { "free", "memory" }, { "buff", "memory" },
	{ "cache", "memory" }, { "inact", "memory" }, { "active", "memory" },
	{ "si", "swap" }, { "so", "swap" },
	{ "bi", "io" }, { "bo", "io" },
	{ "in", "system" }, { "cs", "system" },
	{ "us", "cpu" }, { "sy", "cpu" }, { "id", "cpu" }, { "wa", "cpu" },
	{ "st", "cpu" }, { "gu", "cpu" },
};
#define NR_COLUMNS (int)(sizeof(columns) / sizeof(columns[0]))

static const char header[] =
	"procs -----------memory---------- ---swap-- -----io---- -system-- "
	"------cpu----- -----timestamp-----\n"
	" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st"
	"                 UTC\n";

static bool available(const char *root, struct strbuf *why)
{
	return root_readable(root, "/proc/stat", why) &&
	       root_readable(root, "/proc/vmstat", why) &&
	       root_readable(root, "/proc/meminfo", why);
}

static int list_sources(const char *root, struct monitor_sources *out)
{
	static const char *const files[] = { "/proc/stat", "/proc/vmstat", "/proc/meminfo" };
	struct strbuf p = STRBUF_INIT;

	for (int i = 0; i < 3; i++) {
		strbuf_reset(&p);
		root_path(&p, root, files[i]);
		monitor_sources_add(out, SRC_TEXT, p.buf, NULL);
	}
	strbuf_release(&p);
	return 0;
}

/*
 * The parsing and formatting below run every second on a machine that has
 * been idle since the last sample, where touching a page of code costs
 * more than the work in it (see sampler.c): they use no strtoull, memcmp,
 * gmtime or printf, only the few lines here.
 */

/* The decimal number at *p after blanks; *p is left after it. */
HOT_PATH static unsigned long long number_at(const char **p, const char *end)
{
	unsigned long long v = 0;
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (s < end && *s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long long)(*s++ - '0');
	*p = s;
	return v;
}

/* A counter to take from a file: the number after key at a line start. */
struct wanted {
	const char *key;
	unsigned long long *to;
};

/*
 * One pass over buf for all of w[0..n): a line starting with a key
 * followed by a blank or ':' gives its number (the first such line of a
 * key wins); stops once all are found.  Keys not found leave *to alone.
 */
HOT_PATH static void read_values(const char *buf, size_t len, const struct wanted *w, int n)
{
	const char *end = buf + len;
	unsigned found = 0, all = (1u << n) - 1;

	for (const char *line = buf; line < end && found != all;) {
		for (int i = 0; i < n; i++) {
			const char *k = w[i].key, *p = line;

			if ((found >> i) & 1)
				continue;
			while (*k && p < end && *p == *k)
				p++, k++;
			if (!*k && p < end && (*p == ' ' || *p == ':')) {
				p++;
				*w[i].to = number_at(&p, end);
				found |= 1u << i;
				break;
			}
		}
		while (line < end && *line++ != '\n')
			;
	}
}

#define NR_WANTED(w) (int)(sizeof(w) / sizeof(w[0]))

HOT_PATH static void read_stat(const char *buf, size_t len, struct vm_snap *s)
{
	const struct wanted w[] = {
		{ "intr", &s->intr }, { "ctxt", &s->ctxt },
		{ "procs_running", &s->running }, { "procs_blocked", &s->blocked },
	};

	if (len > 4 && buf[0] == 'c' && buf[1] == 'p' && buf[2] == 'u' && buf[3] == ' ') {
		const char *p = buf + 4;
		for (int i = 0; i < NR_CPU; i++)
			s->cpu[i] = number_at(&p, buf + len);
	}
	read_values(buf, len, w, NR_WANTED(w));
}

/* text[]: /proc/stat, /proc/vmstat, /proc/meminfo as read for this sample */
HOT_PATH static int read_snap(const struct strbuf *const *text, int nr, struct vm_snap *s)
{
	const struct wanted vm[] = {
		{ "pgpgin", &s->pgpgin }, { "pgpgout", &s->pgpgout },
		{ "pswpin", &s->pswpin }, { "pswpout", &s->pswpout },
	};
	const struct wanted mem[] = {
		{ "MemFree", &s->memfree }, { "Buffers", &s->buffers },
		{ "Cached", &s->cached }, { "SReclaimable", &s->sreclaimable },
		{ "SwapTotal", &s->swaptotal }, { "SwapFree", &s->swapfree },
	};

	if (nr != 3 || !text[0] || !text[1] || !text[2]) {
		errno = nr != 3 ? EINVAL : EIO;
		return -1;
	}
	memset(s, 0, sizeof(*s));
	read_stat(text[0]->buf, text[0]->len, s);
	read_values(text[1]->buf, text[1]->len, vm, NR_WANTED(vm));
	read_values(text[2]->buf, text[2]->len, mem, NR_WANTED(mem));
	return 0;
}

/* Counters can go back (iowait does): a negative delta counts as 0. */
HOT_PATH static unsigned long long delta(unsigned long long now, unsigned long long then)
{
	return now > then ? now - then : 0;
}

/*
 * Year, month (1-12) and day (1-31) of the proleptic Gregorian calendar
 * from days since 1970-01-01: the era arithmetic of Howard Hinnant's
 * "chrono-compatible low-level date algorithms" (400-year eras of 146097
 * days, years starting in March so that leap days come last).
 */
HOT_PATH static void civil_from_days(long long z, int *year, int *month, int *day)
{
	long long era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*day = (int)(doy - (153 * mp + 2) / 5 + 1);
	*month = (int)(mp < 10 ? mp + 3 : mp - 9);
	*year = (int)(yoe + era * 400 + (*month <= 2));
}

/* n as two digits, then sep unless it is '\0' */
HOT_PATH static void add_2digits(struct strbuf *sb, int n, char sep)
{
	strbuf_addch(sb, (char)('0' + n / 10 % 10));
	strbuf_addch(sb, (char)('0' + n % 10));
	if (sep)
		strbuf_addch(sb, sep);
}

HOT_PATH static int sample(void *state, const struct strbuf *const *text, int nr,
		  const struct timespec *now, struct strbuf *raw)
{
	struct vmstat_state *st = state;
	struct vm_snap cur, d;
	struct timespec mono;
	unsigned long long use, sys, div, half;
	double per_sec;       /* multiply a count delta by this for a rate */
	double kb_page;
	int year, month, day;
	long long secs;

	if (read_snap(text, nr, &cur) < 0)
		return -1;
	if (!st->page_size) {
		st->page_size = sysconf(_SC_PAGESIZE);
		st->clk_tck = sysconf(_SC_CLK_TCK);
	}
	kb_page = (double)st->page_size / 1024;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	d = cur;
	if (st->have_prev) {
		for (int i = 0; i < NR_CPU; i++)
			d.cpu[i] = delta(cur.cpu[i], st->prev.cpu[i]);
		d.intr = delta(cur.intr, st->prev.intr);
		d.ctxt = delta(cur.ctxt, st->prev.ctxt);
		d.pgpgin = delta(cur.pgpgin, st->prev.pgpgin);
		d.pgpgout = delta(cur.pgpgout, st->prev.pgpgout);
		d.pswpin = delta(cur.pswpin, st->prev.pswpin);
		d.pswpout = delta(cur.pswpout, st->prev.pswpout);
	}
	use = d.cpu[CPU_USER] + d.cpu[CPU_NICE];
	sys = d.cpu[CPU_SYSTEM] + d.cpu[CPU_IRQ] + d.cpu[CPU_SOFTIRQ];
	div = use + sys + d.cpu[CPU_IDLE] + d.cpu[CPU_IOWAIT] + d.cpu[CPU_STEAL];
	if (st->have_prev) {
		double dt = (double)(mono.tv_sec - st->prev_mono.tv_sec) +
			    (mono.tv_nsec - st->prev_mono.tv_nsec) / 1e9;
		per_sec = dt > 0 ? 1 / dt : 0;
	} else {
		per_sec = div ? (double)st->clk_tck / (double)div : 0;
	}
	if (!div) {
		div = 1;
		d.cpu[CPU_IDLE] = 1;
	}
	half = div / 2;

	if (!st->header_done) {
		strbuf_addstr(raw, header);
		st->header_done = true;
	}
#define RATE(x) ((unsigned long long)((double)(x) * per_sec + 0.5))
	{
		/* "%2llu %2llu %6llu ... %2llu " as vmstat prints, without
		 * printf: this runs every second on a cold cache */
		const unsigned long long v[] = {
			cur.running, cur.blocked,
			delta(cur.swaptotal, cur.swapfree), cur.memfree, cur.buffers,
			cur.cached + cur.sreclaimable,
			RATE(d.pswpin * kb_page), RATE(d.pswpout * kb_page),
			RATE(d.pgpgin), RATE(d.pgpgout), RATE(d.intr), RATE(d.ctxt),
			(100 * use + half) / div, (100 * sys + half) / div,
			(100 * d.cpu[CPU_IDLE] + half) / div,
			(100 * d.cpu[CPU_IOWAIT] + half) / div,
			(100 * d.cpu[CPU_STEAL] + half) / div,
		};
		static const int width[] = { 2, 2, 6, 6, 6, 6, 4, 4, 5, 5, 4, 4, 2, 2, 2, 2, 2 };

		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			strbuf_addu(raw, v[i], width[i]);
			strbuf_addch(raw, ' ');
		}
	}
#undef RATE
	/* the timestamp, "%Y-%m-%d %H:%M:%S" in UTC */
	secs = (long long)now->tv_sec;
	civil_from_days(secs >= 0 ? secs / 86400 : (secs - 86399) / 86400, &year, &month, &day);
	secs -= (secs >= 0 ? secs / 86400 : (secs - 86399) / 86400) * 86400;
	add_2digits(raw, year / 100, '\0');
	add_2digits(raw, year % 100, '-');
	add_2digits(raw, month, '-');
	add_2digits(raw, day, ' ');
	add_2digits(raw, (int)(secs / 3600), ':');
	add_2digits(raw, (int)(secs / 60 % 60), ':');
	add_2digits(raw, (int)(secs % 60), '\n');
	st->prev = cur;
	st->prev_mono = mono;
	st->have_prev = true;
	return 0;
}

static const char *group_of(const char *col, size_t len)
{
	for (int i = 0; i < NR_COLUMNS; i++)
		if (strlen(columns[i].col) == len && !memcmp(columns[i].col, col, len))
			return columns[i].group;
	return NULL;
}

/* "YYYY-MM-DD HH:MM:SS" in UTC or the local zone; -1 if malformed. */
static long long parse_stamp(const char *date, size_t dlen, const char *tod, size_t tlen, bool utc)
{
	char s[64];
	struct tm tm;
	char *end;

	if (dlen + tlen + 2 > sizeof(s))
		return -1;
	memcpy(s, date, dlen);
	s[dlen] = ' ';
	memcpy(s + dlen + 1, tod, tlen);
	s[dlen + 1 + tlen] = '\0';
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (!end || *end)
		return -1;
	tm.tm_isdst = -1;
	return utc ? (long long)timegm(&tm) : (long long)mktime(&tm);
}

/*
 * Parse vmstat's output: the column header names the columns (its last
 * word is the time zone when there is a timestamp), then each row gives
 * "time: <epoch>" (when timestamped) and "<group>.<column>: value".
 */
static int parse_raw(const struct monitor *m, const char *buf, size_t len,
		     const char *name, stats_sink_fn sink, void *ctx)
{
	struct field_list head = FIELD_LIST_INIT, v = FIELD_LIST_INIT;
	struct strbuf out = STRBUF_INIT;
	struct line_iter it;
	struct line l;
	size_t ncols = 0;
	int ret = 0;
	bool stamped = false, utc = false;

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		if (!split_ws_all(&v, l.s, l.len))
			continue;
		if (v.v[0].len == 5 && !memcmp(v.v[0].s, "procs", 5))
			continue;
		if (v.v[0].len == 1 && v.v[0].s[0] == 'r') {
			split_ws_all(&head, l.s, l.len);
			ncols = 0;
			while (ncols < head.nr && group_of(head.v[ncols].s, head.v[ncols].len))
				ncols++;
			stamped = ncols < head.nr;
			utc = stamped && head.v[ncols].len == 3 &&
			      !memcmp(head.v[ncols].s, "UTC", 3);
			continue;
		}
		if (!ncols) {
			ret = error("%s:%zu: expected vmstat's column header before its rows",
				    name, l.no);
			break;
		}
		if (v.nr != ncols + (stamped ? 2 : 0)) {
			ret = error("%s:%zu: expected %zu columns, found %zu", name, l.no,
				    ncols + (stamped ? 2 : 0), v.nr);
			break;
		}
		strbuf_reset(&out);
		if (stamped) {
			long long t = parse_stamp(v.v[ncols].s, v.v[ncols].len,
						  v.v[ncols + 1].s, v.v[ncols + 1].len, utc);
			if (t < 0) {
				ret = error("%s:%zu: expected a 'YYYY-MM-DD HH:MM:SS' timestamp",
					    name, l.no);
				break;
			}
			strbuf_addf(&out, "time: %lld\n", t);
		}
		for (size_t i = 0; i < ncols; i++)
			strbuf_addf(&out, "%s.%.*s: %.*s\n", group_of(head.v[i].s, head.v[i].len),
				    (int)head.v[i].len, head.v[i].s, (int)v.v[i].len, v.v[i].s);
		if (sink(ctx, out.buf, out.len) < 0) {
			ret = -1;
			break;
		}
	}
	field_list_release(&head);
	field_list_release(&v);
	strbuf_release(&out);
	return ret;
}

/* A vmstat "snapshot" is one row: parsed with the header it needs. */
static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	strbuf_addstr(&text, header);
	strbuf_add(&text, buf, len);
	ret = parse_raw(NULL, text.buf, text.len, name, stats_sink_strbuf, out);
	strbuf_release(&text);
	return ret;
}

const struct monitor monitor_vmstat = {
	.name = "vmstat",
	.files = "/proc/stat, /proc/vmstat, /proc/meminfo",
	.flags = MONITOR_DEFAULT,
	.available = available,
	.list_sources = list_sources,
	.sample = sample,
	.sample_state_size = sizeof(struct vmstat_state),
	.parse_snapshot = parse_snapshot,
	.parse_raw = parse_raw,
};
