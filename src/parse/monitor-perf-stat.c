/*
 * monitor-perf-stat.c: the perf-stat monitor's output (`perf stat -a -I 1000 -x ,`,
 * or the older space-separated layout) into lkp stats, as lkp's
 * programs/perf-stat/parse does.
 *
 *   /usr/bin/perf stat -a --scale -I 1000 -x , -e {cpu-cycles,...},... -- ...
 *        1.000659830,4100064372,,cpu-cycles,16139216640,16.66,0.042,GHz
 *        1.000659830,96844.71,msec,cpu-clock,96844614045,100.00,96.845,CPUs utilized
 *
 * Each interval (a jump of the time stamp by more than 10 ms starts the
 * next) prints "time: <end>", "i.<event>: <count per second>", the derived
 * "i.<...>-miss-rate%", "i.ipc", "i.cpi", "i.MPKI", ... and the sums of
 * perf's own metric columns ("i.metric.GHz").  The last interval is not
 * printed, since perf was stopped inside it.  At the end come
 * "ps.<event>" (sum over the intervals / run time), "total.instructions"
 * and the derived keys again as "overall.<...>".  Rules worth knowing:
 *
 *  - every value is a float (Ruby's Hash.new(0) += Float), printed with
 *    Ruby's Float#to_s; sums are made in input order;
 *  - the run time is the time stamp of the line before the last one;
 *  - in the space-separated layout "16167.76 msec cpu-clock" names the
 *    event "msec" (lkp's quirk, kept: the fixtures have i.msec);
 *  - per-socket lines ("S0,12,...") count both as <event> and S0.<event>;
 *    a "Bytes" unit makes <event>_Bytes; "_IMC..." is cut from names;
 *  - $stats_part_begin / $stats_part_end (seconds, as in lkp) leave the
 *    intervals outside that window out of the ps./overall. sums.
 *
 * A data line none of whose fields is an event of the perf command line is
 * an error (lkp exits 1 there, after the intervals printed so far), and so
 * is a line too short to name its event (lkp crashes on it).
 */
#include "parse/parser.h"
#include "parse/parse_util.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct perf_stat {
	const struct parse_input *in;
	struct strbuf *out;
	struct kvmap isum;              /* this interval: val = sum, nr = lines */
	struct kvmap metrics;           /* this interval: metric.<unit> sums */
	struct kvmap sum;               /* counted intervals: val = sum, nr = lines */
	struct kvmap latency_prev;      /* last latency printed, per output key */
	unsigned long interval_nr;      /* intervals counted in sum */
	double part_begin, part_end;    /* $stats_part_begin, $stats_part_end */
	struct strbuf k;                /* scratch key */
	struct strbuf evbuf;            /* the event list of the command line */
	struct field *events;
	size_t nr_events, alloc_events;
	bool have_events;               /* a non-empty event list was seen */
};

/* Append "<key>: <Float#to_s of v>\n", the key given printf-style. */
__attribute__((format(printf, 3, 4)))
static void put(struct strbuf *out, double v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(out, fmt, ap);
	va_end(ap);
	strbuf_add(out, ": ", 2);
	fmt_ruby_float(out, v);
	strbuf_addch(out, '\n');
}

/* Hash.new(0)[stem + suffix] of map m, and the number of its lines. */
static double lookup(struct perf_stat *ps, const struct kvmap *m,
		     const char *stem, size_t slen, const char *suffix,
		     unsigned long *nr, bool *found)
{
	const struct kv_entry *e;

	strbuf_reset(&ps->k);
	strbuf_add(&ps->k, stem, slen);
	strbuf_addstr(&ps->k, suffix);
	e = kvmap_find(m, ps->k.buf, ps->k.len);
	if (nr)
		*nr = e ? e->nr : 0;
	if (found)
		*found = e != NULL;
	return e ? e->val : 0;
}

/* <stem>-misses: the miss rate against <stem>s, <stem>-references or
 * <stem>-instructions, whichever is first non-zero. */
static void miss_rate(struct perf_stat *ps, const struct kvmap *m, const char *prefix,
		      const char *stem, size_t slen, double misses)
{
	static const char *const totals[] = { "s", "-references", "-instructions" };

	for (size_t i = 0; i < 3; i++) {
		double total = lookup(ps, m, stem, slen, totals[i], NULL, NULL);

		if (total == 0)
			continue;
		if (i == 0)
			total += misses;
		put(ps->out, misses * 100.0 / total, "%s%.*s-miss-rate%%",
		    prefix, (int)slen, stem);
		return;
	}
}

static void per_miss(struct perf_stat *ps, const struct kvmap *m, const char *prefix,
		     const struct kv_entry *e)
{
	const char *hit;
	size_t slen;
	double x;

	if ((hit = mem_find_last(e->key, e->len, "iTLB-load-misses", 16))) {
		slen = (size_t)(hit - e->key);
		x = lookup(ps, m, e->key, slen, "instructions", NULL, NULL);
		if (x != 0)
			put(ps->out, x / e->val, "%s%.*sinstructions-per-iTLB-miss",
			    prefix, (int)slen, e->key);
	} else if ((hit = mem_find_last(e->key, e->len, "cache-misses", 12))) {
		slen = (size_t)(hit - e->key);
		x = lookup(ps, m, e->key, slen, "cpu-cycles", NULL, NULL);
		if (x != 0)
			put(ps->out, x / e->val, "%s%.*scycles-between-cache-misses",
			    prefix, (int)slen, e->key);
		x = lookup(ps, m, e->key, slen, "instructions", NULL, NULL);
		if (x != 0)
			put(ps->out, e->val / x * 1000, "%s%.*sMPKI", prefix, (int)slen, e->key);
	}
}

/*
 * Uncore memory controller events <s1>UNC_M_<s2>_INSERTS: the latency from
 * the matching _OCCUPANCY and UNC_M_CLOCKTICKS, and the throughput.  (The
 * stems are what lkp's greedy /(.*)UNC_M_(.*)_INSERTS/ captures.)
 */
static bool uncore_inserts(struct perf_stat *ps, const struct kvmap *m, const char *prefix,
			   const struct kv_entry *e, double interval, double interval_nr)
{
	const char *ins = mem_find_last(e->key, e->len, "_INSERTS", 8), *unc;
	size_t slen, s1len;
	double occupancy, ticks, lat;
	unsigned long ticks_nr;
	bool has_occupancy, lat_int = false;

	if (!ins)
		return false;
	slen = (size_t)(ins - e->key);
	unc = mem_find_last(e->key, slen, "UNC_M_", 6);
	if (!unc)
		return false;
	s1len = (size_t)(unc - e->key);

	occupancy = lookup(ps, m, e->key, slen, "_OCCUPANCY", NULL, &has_occupancy);
	ticks = lookup(ps, m, e->key, s1len, "UNC_M_CLOCKTICKS", &ticks_nr, NULL);
	if (has_occupancy && ticks != 0) {
		strbuf_reset(&ps->k);
		strbuf_addf(&ps->k, "%s%.*s_latency_ns", prefix, (int)slen, e->key);
		if (e->val == 0) {
			/* lkp repeats the last latency (0, an Integer, at first) */
			lat = kvmap_value(&ps->latency_prev, ps->k.buf, ps->k.len, &lat_int);
		} else {
			lat = occupancy / e->val / (ticks / ((double)ticks_nr / interval_nr)) *
			      1e+9 * interval;
		}
		kvmap_set(&ps->latency_prev, ps->k.buf, ps->k.len, lat, lat_int);
		emit_num_n(ps->out, ps->k.buf, ps->k.len, lat, lat_int);
	}
	put(ps->out, e->val * 64 / 1024 / 1024 / interval, "%s%.*s_throughput_MBps",
	    prefix, (int)slen, e->key);
	return true;
}

/* lkp's calc_addon_keys: derived keys, in the order of the keys of m. */
static void addon_keys(struct perf_stat *ps, const struct kvmap *m, double interval,
		       double interval_nr, const char *prefix)
{
	for (size_t i = 0; i < m->nr; i++) {
		const struct kv_entry *e = &m->e[i];
		const char *hit;

		if ((hit = mem_find_last(e->key, e->len, "-misses", 7))) {
			miss_rate(ps, m, prefix, e->key, (size_t)(hit - e->key), e->val);
			if (e->val != 0)
				per_miss(ps, m, prefix, e);
		} else if (uncore_inserts(ps, m, prefix, e, interval, interval_nr)) {
			;
		} else if ((hit = mem_find_last(e->key, e->len, "cpu-cycles", 10))) {
			size_t slen = (size_t)(hit - e->key);
			double insn = lookup(ps, m, e->key, slen, "instructions", NULL, NULL);

			if (insn != 0) {
				put(ps->out, insn / e->val, "%s%.*sipc", prefix, (int)slen, e->key);
				put(ps->out, e->val / insn, "%s%.*scpi", prefix, (int)slen, e->key);
			}
		}
	}
}

/* Whether the interval [start, end] falls outside the stats_part window
 * (lkp's ignore_result?, which also narrows the window as it goes). */
static bool ignore_interval(struct perf_stat *ps, double start, double end)
{
	if (end <= ps->part_begin)
		return true;
	if (start <= ps->part_begin)
		ps->part_begin = start;
	if (ps->part_end != 0 && end > ps->part_end) {
		if (start <= ps->part_end)
			ps->part_end = start;
		return true;
	}
	return false;
}

static void output_interval(struct perf_stat *ps, double start, double end)
{
	double interval = end - start;

	if (!ps->isum.nr)
		return;
	put(ps->out, end, "time");
	for (size_t i = 0; i < ps->isum.nr; i++)
		put(ps->out, ps->isum.e[i].val / interval, "i.%s", ps->isum.e[i].key);
	addon_keys(ps, &ps->isum, interval, 1, "i.");
	for (size_t i = 0; i < ps->metrics.nr; i++)
		put(ps->out, ps->metrics.e[i].val, "i.%s", ps->metrics.e[i].key);

	if (!ignore_interval(ps, start, end)) {
		for (size_t i = 0; i < ps->isum.nr; i++) {
			const struct kv_entry *ie = &ps->isum.e[i];
			struct kv_entry *e = kvmap_get(&ps->sum, ie->key, ie->len);

			e->val += ie->val;
			e->nr += ie->nr;
		}
		ps->interval_nr++;
	}
	kvmap_clear(&ps->isum);
	kvmap_clear(&ps->metrics);
}

/*
 * The event list of a "... perf stat ... -e LIST ..." line: lkp's
 * /perf stat .+ -e ([^ ]+) / with braces removed, split at commas.
 */
static void read_events(struct perf_stat *ps, const struct line *l)
{
	const char *ps_at = mem_find(l->s, l->len, "perf stat ", 10);
	size_t from, i;

	if (!ps_at)
		return;
	from = (size_t)(ps_at - l->s) + 10 + 1;        /* ".+" takes one at least */
	for (i = l->len; i-- > from;) {
		size_t j;

		if (i + 4 > l->len || memcmp(l->s + i, " -e ", 4))
			continue;
		for (j = i + 4; j < l->len && l->s[j] != ' '; j++)
			;
		if (j == i + 4 || j == l->len)
			continue;               /* [^ ]+ must be followed by a space */
		strbuf_reset(&ps->evbuf);
		key_add_tr(&ps->evbuf, l->s + i + 4, j - i - 4, "{}", "");
		ps->nr_events = split_char(ps->evbuf.buf, ps->evbuf.len, ',', 0, NULL, 0);
		ALLOC_GROW(ps->events, ps->nr_events, ps->alloc_events);
		split_char(ps->evbuf.buf, ps->evbuf.len, ',', 0, ps->events, ps->nr_events);
		ps->have_events = ps->nr_events > 0;
		return;
	}
}

/* lkp's /^\s*\d+\.\d+\W+/: a line starting with a time stamp.  The "\n"
 * that Ruby's line still has counts as the \W. */
static bool starts_with_time(const struct line *l)
{
	size_t i = 0, n;

	while (i < l->len && is_rspace((unsigned char)l->s[i]))
		i++;
	for (n = i; i < l->len && is_digit(l->s[i]); i++)
		;
	if (i == n || i == l->len || l->s[i] != '.')
		return false;
	for (n = ++i; i < l->len && is_digit(l->s[i]); i++)
		;
	if (i == n)
		return false;
	if (i == l->len)
		return l->nl;
	return !(is_digit(l->s[i]) || (l->s[i] >= 'a' && l->s[i] <= 'z') ||
		 (l->s[i] >= 'A' && l->s[i] <= 'Z') || l->s[i] == '_');
}

/* Stands for a field that lkp's Ruby has set to nil. */
static const char nil_field[1];

static bool is_event(const struct perf_stat *ps, const struct field *f)
{
	if (f->s == nil_field)
		return false;
	for (size_t i = 0; i < ps->nr_events; i++)
		if (ps->events[i].len == f->len && !memcmp(ps->events[i].s, f->s, f->len))
			return true;
	return false;
}

/*
 * lkp's metric column test /^[A-Z][^ ]+$/ on fields[5], whose Ruby string
 * still ends in "\n" when it is the last field of the line (nl).
 */
static bool is_metric_unit(const struct field *f, bool nl)
{
	if (!f->len || f->s[0] < 'A' || f->s[0] > 'Z')
		return false;
	if (f->len == 1 && !nl)
		return false;
	return !memchr(f->s + 1, ' ', f->len - 1);
}

static void delete_field(struct field *f, size_t *nf, size_t at, size_t *nl_at)
{
	if (at >= *nf)
		return;
	memmove(f + at, f + at + 1, (*nf - at - 1) * sizeof(*f));
	(*nf)--;
	if (*nl_at != SIZE_MAX && *nl_at > at)
		(*nl_at)--;
}

static int parse_perf_stat(const struct parse_input *in, struct strbuf *out)
{
	struct perf_stat ps = { .in = in, .out = out };
	struct strbuf key = STRBUF_INIT, skey = STRBUF_INIT, mkey = STRBUF_INIT;
	struct field *f = NULL;
	size_t alloc_f = 0;
	double prev_prev = 0, prev = 0, now = 0;
	const char *env;
	struct line_iter it;
	struct line l;
	int ret = 0;

	kvmap_init(&ps.isum);
	kvmap_init(&ps.metrics);
	kvmap_init(&ps.sum);
	kvmap_init(&ps.latency_prev);
	strbuf_init(&ps.k, 0);
	strbuf_init(&ps.evbuf, 0);
	env = getenv("stats_part_begin");
	ps.part_begin = env ? ruby_to_f(env, strlen(env)) : 0;
	env = getenv("stats_part_end");
	ps.part_end = env ? ruby_to_f(env, strlen(env)) : 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next(&it, &l)) {
		bool comma = memchr(l.s, ',', l.len) != NULL;
		size_t nf, nl_at = SIZE_MAX;
		struct field stime, socket = { NULL, 0 };
		bool bytes;

		read_events(&ps, &l);
		if (!starts_with_time(&l))
			continue;

		/* stime, *fields = line.split(',') or line.split */
		for (;;) {
			nf = comma ? split_char(l.s, l.len, ',', l.nl ? SPLIT_KEEP_TRAILING_EMPTY : 0, f, alloc_f)
				   : split_ws(l.s, l.len, f, alloc_f);
			if (nf <= alloc_f)
				break;
			ALLOC_GROW(f, nf, alloc_f);
		}
		stime = f[0];
		memmove(f, f + 1, --nf * sizeof(*f));
		if (comma) {
			if (nf < 7)
				continue;
			if (l.nl)
				nl_at = nf - 1;         /* its Ruby string ends in "\n" */
		} else if (nf < 3) {
			ret = parse_error(in, "perf-stat", l.no,
					  "expected a count and an event after the time stamp");
			break;
		}

		/*
		 * hybrid PMUs: "cpu_atom/cpu-cycles/" names cpu-cycles; lkp's
		 * field becomes nil when it has a single '/'
		 */
		if (memchr(f[2].s, '/', f[2].len)) {
			const char *last = mem_find_last(f[2].s, f[2].len, "/", 1);
			const char *first = mem_find_last(f[2].s, (size_t)(last - f[2].s), "/", 1);

			if (first) {
				f[2].s = first + 1;
				f[2].len = (size_t)(last - first - 1);
			} else {
				f[2].s = nil_field;
				f[2].len = 0;
			}
		}
		if (ps.have_events) {
			size_t i;
			for (i = 0; i < nf; i++)
				if (i != nl_at && is_event(&ps, &f[i]))
					break;
			if (i == nf) {
				ret = parse_error(in, "perf-stat", l.no,
						  "expected an event of the perf command line in this line");
				break;
			}
		}

		prev = now;
		now = ruby_to_f(stime.s, stime.len);
		/* a time stamp more than 10ms later starts the next interval */
		if (now - prev > 0.01) {
			output_interval(&ps, prev_prev, prev);
			prev_prev = prev;
		}

		if (f[0].len && f[0].s[0] == 'S') {     /* per socket: S0,12,... */
			socket = f[0];
			delete_field(f, &nf, 1, &nl_at);
			delete_field(f, &nf, 0, &nl_at);
		}
		bytes = nf > 1 && field_is(&f[1], "Bytes") && nl_at != 1;
		if (comma)
			delete_field(f, &nf, 1, &nl_at);
		if (nf < 2 || f[1].s == nil_field) {
			ret = parse_error(in, "perf-stat", l.no, "expected an event name after the count");
			break;
		}

		strbuf_reset(&mkey);
		if (nf > 5 && is_metric_unit(&f[5], nl_at == 5)) {
			size_t ulen = f[5].len;

			if (ulen && f[5].s[ulen - 1] == '\r')   /* chomp */
				ulen--;
			if (socket.s)
				strbuf_addf(&mkey, "%.*s.", (int)socket.len, socket.s);
			strbuf_addf(&mkey, "metric.%.*s", (int)ulen, f[5].s);
		}

		/* the event name: "_IMC..." cut, "_Bytes" for a Bytes unit */
		{
			const char *imc = mem_find(f[1].s, f[1].len, "_IMC", 4);
			size_t klen = imc ? (size_t)(imc - f[1].s) : f[1].len;
			double v = ruby_to_f(f[0].s, f[0].len);

			strbuf_reset(&key);
			strbuf_add(&key, f[1].s, klen);
			if (bytes)
				strbuf_addstr(&key, "_Bytes");
			kvmap_add(&ps.isum, key.buf, key.len, v, false);
			if (socket.s) {
				strbuf_reset(&skey);
				strbuf_addf(&skey, "%.*s.%s", (int)socket.len, socket.s, key.buf);
				kvmap_add(&ps.isum, skey.buf, skey.len, v, false);
			}
			if (mkey.len)
				kvmap_add(&ps.metrics, mkey.buf, mkey.len,
					  ruby_to_f(f[4].s, f[4].len), false);
		}
	}

	if (!ret) {
		/* the last interval is left out: perf was stopped inside it */
		double end = ps.part_end == 0 ? prev : ps.part_end;
		double run_time = end - ps.part_begin;
		double insn;

		for (size_t i = 0; i < ps.sum.nr; i++)
			put(out, ps.sum.e[i].val / run_time, "ps.%s", ps.sum.e[i].key);
		insn = kvmap_value(&ps.sum, "instructions", 12, NULL);
		if (insn != 0)
			put(out, insn, "total.instructions");
		addon_keys(&ps, &ps.sum, run_time, (double)ps.interval_nr, "overall.");
	}

	free(f);
	free(ps.events);
	kvmap_release(&ps.isum);
	kvmap_release(&ps.metrics);
	kvmap_release(&ps.sum);
	kvmap_release(&ps.latency_prev);
	strbuf_release(&ps.k);
	strbuf_release(&ps.evbuf);
	strbuf_release(&key);
	strbuf_release(&skey);
	strbuf_release(&mkey);
	return ret;
}

const struct parser parser_perf_stat = { "perf-stat", parse_perf_stat, NULL };
