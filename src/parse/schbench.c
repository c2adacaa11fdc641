/*
 * schbench.c: schbench's latency reports as lkp stats.
 *
 * schbench prints "Wakeup Latencies percentiles" and "Request Latencies
 * percentiles" sections (50.0th, 90.0th, * 99.0th, 99.9th, min=, max=)
 * every few seconds; lkp runs it for several "Iteration"s.  Over every
 * report of a kind (wakeup_, request_), as lkp:
 *
 *     <kind>_latency_<P>_us             mean, rounded to 2 decimals, for
 *                                       P = 50%, 90%, 99%, 99.9%, min, max
 *     <kind>_latency_<P>_us_stddev%     relative stddev, 2 decimals
 *     <kind>_end_latency_<P>_us_max     max over iterations of each
 *                                       iteration's last report (percentiles)
 *     <kind>_end_latency_<P>_us_stddev% and its relative stddev
 *
 * With several "Instance: N" sections the means follow per instance as
 * "<kind>_latency_<P>_us.instance<N>".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/bench_util.h"
#include "util/xalloc.h"

enum { RX_INSTANCE, RX_ITERATION, RX_WAKEUP, RX_REQUEST, RX_RPS,
       RX_P50, RX_P90, RX_P99, RX_P999, RX_MIN, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_INSTANCE] = "^Instance: ([0-9]+)",
	[RX_ITERATION] = "^Iteration",
	[RX_WAKEUP] = "^Wakeup Latencies percentiles",
	[RX_REQUEST] = "^Request Latencies percentiles",
	[RX_RPS] = "^RPS percentiles",
	/* the '.' is any character, as in lkp */
	[RX_P50] = "50.0th",
	[RX_P90] = "90.0th",
	[RX_P99] = "99.0th",
	[RX_P999] = "99.9th",
	[RX_MIN] = "min",
};

/* Percentile rows: the stat name and the column of the value ("* 99.0th:"
 * has the marker in front). */
static const struct pct {
	const char *key;
	size_t column;
} pcts[RX_NR] = {
	[RX_P50] = { "latency_50%_us", 1 },
	[RX_P90] = { "latency_90%_us", 1 },
	[RX_P99] = { "latency_99%_us", 2 },
	[RX_P999] = { "latency_99.9%_us", 1 },
};

enum kind { WAKEUP, REQUEST, NR_KINDS, NONE = NR_KINDS };
static const char *const kind_names[NR_KINDS] = { "wakeup", "request" };

struct instance {
	long long id;
	struct dmap stats[NR_KINDS];
};

struct schbench {
	struct dmap stats[NR_KINDS];    /* every report */
	struct dmap end[NR_KINDS];      /* per iteration, NAN where none */
	size_t nr, alloc;
	struct instance *inst;
};

static struct instance *instance_get(struct schbench *s, long long id)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->inst[i].id == id)
			return &s->inst[i];
	ALLOC_GROW(s->inst, s->nr + 1, s->alloc);
	s->inst[s->nr].id = id;
	for (int k = 0; k < NR_KINDS; k++)
		s->inst[s->nr].stats[k] = (struct dmap)DMAP_INIT;
	return &s->inst[s->nr++];
}

static int cmp_instance(const void *a, const void *b)
{
	long long x = ((const struct instance *)a)->id;
	long long y = ((const struct instance *)b)->id;

	return x < y ? -1 : x > y;
}

static void add_value(struct schbench *s, enum kind k, long long id, const char *key,
		      double v)
{
	dvec_push(dmap_get(&s->stats[k], key), v);
	dvec_push(dmap_get(&instance_get(s, id)->stats[k], key), v);
}

/* lkp's v.max and v.relative_stddev.round(2) need every iteration filled. */
static bool complete(const struct dvec *d)
{
	for (size_t i = 0; i < d->nr; i++)
		if (isnan(d->v[i]))
			return false;
	return d->nr > 0;
}

static void print_summary(const struct schbench *s, struct strbuf *out)
{
	for (int k = 0; k < NR_KINDS; k++) {
		for (size_t i = 0; i < s->stats[k].nr; i++) {
			const struct dmap_entry *e = &s->stats[k].v[i];

			put_float(out, rb_round(lkp_average(e->vals.v, e->vals.nr), 2),
				  "%s_%s", kind_names[k], e->key);
			put_float(out, rb_round(lkp_relative_stddev(e->vals.v, e->vals.nr), 2),
				  "%s_%s_stddev%%", kind_names[k], e->key);
		}
		for (size_t i = 0; i < s->end[k].nr; i++) {
			const struct dmap_entry *e = &s->end[k].v[i];
			double max = e->vals.v[0];

			for (size_t j = 1; j < e->vals.nr; j++)
				if (e->vals.v[j] > max)
					max = e->vals.v[j];
			put_int(out, (long long)max, "%s_end_%s_max", kind_names[k], e->key);
			put_float(out, rb_round(lkp_relative_stddev(e->vals.v, e->vals.nr), 2),
				  "%s_end_%s_stddev%%", kind_names[k], e->key);
		}
	}
	if (s->nr < 2)
		return;
	for (size_t n = 0; n < s->nr; n++)
		for (int k = 0; k < NR_KINDS; k++)
			for (size_t i = 0; i < s->inst[n].stats[k].nr; i++) {
				const struct dmap_entry *e = &s->inst[n].stats[k].v[i];

				put_float(out, rb_round(lkp_average(e->vals.v, e->vals.nr), 2),
					  "%s_%s.instance%lld", kind_names[k], e->key,
					  s->inst[n].id);
			}
}

static int parse_schbench(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[2];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	struct strbuf g = STRBUF_INIT, key = STRBUF_INIT;
	struct schbench s;
	enum kind kind = NONE;
	long long id = 1, counter = -1;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		int r;

		for (r = 0; r < RX_NR; r++)
			if (rx_match(&re[r], l, m, 2))
				break;
		if (r == RX_INSTANCE) {
			id = rb_to_i(rx_group(&g, l, m, 1));
		} else if (r == RX_ITERATION) {
			counter++;
		} else if (r == RX_WAKEUP || r == RX_REQUEST || r == RX_RPS) {
			kind = r == RX_WAKEUP ? WAKEUP : r == RX_REQUEST ? REQUEST : NONE;
		} else if (r >= RX_P50 && r <= RX_P999 && kind != NONE) {
			struct dvec *end;

			split_ws_str(&f, l);
			if (f.nr <= pcts[r].column || !is_decimal(f.str[pcts[r].column])) {
				ret = parse_error(in, "schbench", ln.no,
						  "expected '<percentile>th: <usec>'");
				goto out;
			}
			if (counter < 0) {
				ret = parse_error(in, "schbench", ln.no,
						  "latencies before an 'Iteration' line");
				goto out;
			}
			add_value(&s, kind, id, pcts[r].key,
				  (double)rb_to_i(f.str[pcts[r].column]));
			/* the iteration's last report wins */
			end = dmap_get(&s.end[kind], pcts[r].key);
			while (end->nr <= (size_t)counter)
				dvec_push(end, NAN);
			end->v[counter] = (double)rb_to_i(f.str[pcts[r].column]);
		} else if (r == RX_MIN && kind != NONE) {
			/* "min=1, max=119" */
			for (char *p = line.buf; *p; p++)
				if (*p == ',' || *p == '=')
					*p = ' ';
			split_ws_str(&f, line.buf);
			if (f.nr < 4) {
				ret = parse_error(in, "schbench", ln.no,
						  "expected 'min=<usec>, max=<usec>'");
				goto out;
			}
			for (size_t i = 0; i < 4; i += 2) {
				strbuf_reset(&key);
				strbuf_addf(&key, "latency_%s_us", f.str[i]);
				add_value(&s, kind, id, key.buf, (double)rb_to_i(f.str[i + 1]));
			}
		}
	}
	if (!s.stats[WAKEUP].nr && !s.stats[REQUEST].nr) {
		ret = parse_error(in, "schbench", line_iter_last(&it), "no 'Wakeup Latencies' "
				  "or 'Request Latencies' percentiles found");
		goto out;
	}
	for (int k = 0; k < NR_KINDS; k++)
		for (size_t i = 0; i < s.end[k].nr; i++)
			if (!complete(&s.end[k].v[i].vals)) {
				ret = parse_error(in, "schbench", line_iter_last(&it),
						  "an iteration lacks its %s %s",
						  kind_names[k], s.end[k].v[i].key);
				goto out;
			}
	qsort(s.inst, s.nr, sizeof(*s.inst), cmp_instance);
	print_summary(&s, out);
out:
	for (int k = 0; k < NR_KINDS; k++) {
		dmap_release(&s.stats[k]);
		dmap_release(&s.end[k]);
	}
	for (size_t i = 0; i < s.nr; i++)
		for (int k = 0; k < NR_KINDS; k++)
			dmap_release(&s.inst[i].stats[k]);
	free(s.inst);
	field_list_release(&f);
	strbuf_release(&g);
	strbuf_release(&key);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_schbench = { "schbench", parse_schbench, NULL };
