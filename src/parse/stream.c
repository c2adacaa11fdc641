/*
 * stream.c: the STREAM memory bandwidth benchmark's output as lkp stats.
 *
 * lkp runs STREAM several times; the stats are, in first-seen order:
 *
 *     element_size_byte, array_size        as printed by the last run
 *     <kernel>_bandwidth_<unit>            mean Best Rate of Copy, Scale,
 *     <kernel>_bandwidth_<unit>_harmonicMean    Add, Triad, and its harmonic
 *                                          mean, both rounded to 2 decimals
 *
 * with unit the "Best Rate <unit>" header's, '/' spelled 'p' ("MBps").
 */
#include <stdlib.h>
#include <string.h>

#include "parse/bench_util.h"
#include "util/xalloc.h"

enum { RX_ELEMENT, RX_ARRAY, RX_HEADER, RX_KERNEL, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_ELEMENT] = "This system uses ([0-9]+) bytes per array element",
	[RX_ARRAY] = "Array size = ([0-9]+) \\(elements\\)",
	[RX_HEADER] = "Function.*Best Rate (.*) Avg time",
	[RX_KERNEL] = "(Copy|Scale|Add|Triad)",
};

/* A stat: a value copied as printed, or the rates to average. */
struct stream_stat {
	char *key;
	char *val;              /* NULL for a rate series */
	struct dvec rates;
};

struct stream_stats {
	size_t nr, alloc;
	struct stream_stat *v;
};

static struct stream_stat *stat_get(struct stream_stats *s, const char *key)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i].key, key))
			return &s->v[i];
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr] = (struct stream_stat){ xstrdup(key), NULL, DVEC_INIT };
	return &s->v[s->nr++];
}

static void stat_set(struct stream_stats *s, const char *key, const char *val)
{
	struct stream_stat *st = stat_get(s, key);

	free(st->val);
	st->val = xstrdup(val);
}

static int parse_stream(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[2];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct stream_stats stats = { 0, 0, NULL };
	struct strbuf g = STRBUF_INIT, unit = STRBUF_INIT, key = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (rx_match(&re[RX_ELEMENT], l, m, 2)) {
			stat_set(&stats, "element_size_byte", rx_group(&g, l, m, 1));
		} else if (rx_match(&re[RX_ARRAY], l, m, 2)) {
			stat_set(&stats, "array_size", rx_group(&g, l, m, 1));
		} else if (rx_match(&re[RX_HEADER], l, m, 2)) {
			const char *u = rx_group(&g, l, m, 1);

			/* lkp strips the unit and spells '/' as 'p' */
			while (is_rspace((unsigned char)*u))
				u++;
			strbuf_reset(&unit);
			strbuf_addstr(&unit, u);
			strbuf_rtrim(&unit);
			for (size_t i = 0; i < unit.len; i++)
				if (unit.buf[i] == '/')
					unit.buf[i] = 'p';
		} else if (rx_match(&re[RX_KERNEL], l, m, 2)) {
			if (!unit.len) {
				ret = parse_error(in, "stream", ln.no, "rate before the "
						  "'Function  Best Rate <unit>  Avg time' header");
				goto out;
			}
			split_ws_str(&f, l);
			if (f.nr < 2 || !is_decimal(f.str[1])) {
				ret = parse_error(in, "stream", ln.no,
						  "expected '<Kernel>: <best rate> ...'");
				goto out;
			}
			strbuf_reset(&key);
			rx_group(&g, l, m, 1);
			for (size_t i = 0; i < g.len; i++)
				strbuf_addch(&key, g.buf[i] >= 'A' && g.buf[i] <= 'Z' ?
					     g.buf[i] - 'A' + 'a' : g.buf[i]);
			strbuf_addf(&key, "_bandwidth_%s", unit.buf);
			dvec_push(&stat_get(&stats, key.buf)->rates, rb_to_f(f.str[1]));
		}
	}
	if (!stats.nr) {
		ret = parse_error(in, "stream", line_iter_last(&it), "no STREAM results found");
		goto out;
	}
	for (size_t i = 0; i < stats.nr; i++) {
		const struct stream_stat *st = &stats.v[i];

		if (st->val) {
			put_str(out, st->val, "%s", st->key);
			continue;
		}
		put_float(out, rb_round(lkp_average(st->rates.v, st->rates.nr), 2), "%s", st->key);
		put_float(out, rb_round(lkp_harmonic_mean(st->rates.v, st->rates.nr), 2),
			  "%s_harmonicMean", st->key);
	}
out:
	for (size_t i = 0; i < stats.nr; i++) {
		free(stats.v[i].key);
		free(stats.v[i].val);
		dvec_release(&stats.v[i].rates);
	}
	free(stats.v);
	strbuf_release(&g);
	strbuf_release(&unit);
	strbuf_release(&key);
	field_list_release(&f);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_stream = { "stream", parse_stream, NULL };
