/*
 * hackbench.c: hackbench (and perf bench sched messaging in hackbench
 * mode) output as lkp stats.
 *
 * The data moved per run is tasks * messages * bytes, from the "Running
 * in ... mode with G groups using F file descriptors each (== T tasks)"
 * and "Each sender will pass M messages of B bytes" lines, in KB (>> 10);
 * each "Time: S" line is one run.  lkp prints KB/s for the best, mean and
 * worst run:
 *
 *     throughput        KB / best time (kept as the historical metric)
 *     throughput_best   the same
 *     throughput_avg    KB / mean time, rounded to 2 decimals
 *     throughput_worst  KB / worst time
 *
 * With several "Instance: N" sections (cgroup jobs with one hackbench per
 * cgroup) the same three figures follow per instance, suffixed
 * ".instance<N>", in instance order.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "parse/bench_util.h"
#include "util/xalloc.h"

enum { RX_INSTANCE, RX_RUNNING, RX_PASS, RX_PASSED, RX_TIME, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_INSTANCE] = "^Instance: ([0-9]+)",
	[RX_RUNNING] = "^Running in .* mode with ([0-9]+) groups using ([0-9]+) "
		       "file descriptors each \\(== ([0-9]+) tasks\\)",
	[RX_PASS] = "^Each sender will pass ([0-9]+) messages of ([0-9]+) bytes",
	[RX_PASSED] = "^Each sender passed ([0-9]+) messages of ([0-9]+) bytes in average",
	[RX_TIME] = "^Time:",
};

struct instance {
	long long id;
	long long tasks, messages, bytes;  /* -1 until seen */
	struct dvec time;
};

struct instances {
	size_t nr, alloc;
	struct instance *v;
};

static struct instance *instance_get(struct instances *all, long long id)
{
	for (size_t i = 0; i < all->nr; i++)
		if (all->v[i].id == id)
			return &all->v[i];
	ALLOC_GROW(all->v, all->nr + 1, all->alloc);
	all->v[all->nr] = (struct instance){ id, -1, -1, -1, DVEC_INIT };
	return &all->v[all->nr++];
}

static int cmp_instance(const void *a, const void *b)
{
	long long x = ((const struct instance *)a)->id;
	long long y = ((const struct instance *)b)->id;

	return x < y ? -1 : x > y;
}

static double vmin_d(const struct dvec *d)
{
	double v = d->v[0];

	for (size_t i = 1; i < d->nr; i++)
		if (d->v[i] < v)
			v = d->v[i];
	return v;
}

static double vmax_d(const struct dvec *d)
{
	double v = d->v[0];

	for (size_t i = 1; i < d->nr; i++)
		if (d->v[i] > v)
			v = d->v[i];
	return v;
}

/* tasks * messages * bytes >> 10; -1 when it does not fit. */
static int kb_moved(long long tasks, long long messages, long long bytes, long long *kb)
{
	long long n;

	if (__builtin_mul_overflow(tasks, messages, &n) ||
	    __builtin_mul_overflow(n, bytes, &n))
		return -1;
	*kb = n >> 10;
	return 0;
}

static double mean_time(const struct dvec *d)
{
	return rb_fsum(d->v, d->nr, 0.0) / (double)d->nr;
}

static int parse_hackbench(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[4];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf g = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	struct instances all = { 0, 0, NULL };
	struct dvec time = DVEC_INIT;
	long long id = 1, tasks = -1, messages = -1, bytes = -1, kb;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		struct instance *cur;

		if (rx_match(&re[RX_INSTANCE], l, m, 2)) {
			id = rb_to_i(rx_group(&g, l, m, 1));
		} else if (rx_match(&re[RX_RUNNING], l, m, 4)) {
			tasks = rb_to_i(rx_group(&g, l, m, 3));
			instance_get(&all, id)->tasks = tasks;
		} else if (rx_match(&re[RX_PASS], l, m, 3) ||
			   rx_match(&re[RX_PASSED], l, m, 3)) {
			messages = rb_to_i(rx_group(&g, l, m, 1));
			bytes = rb_to_i(rx_group(&g, l, m, 2));
			cur = instance_get(&all, id);
			cur->messages = messages;
			cur->bytes = bytes;
		} else if (rx_match(&re[RX_TIME], l, NULL, 0)) {
			split_ws_str(&f, l);
			if (f.nr < 2 || !is_decimal(f.str[1])) {
				ret = parse_error(in, "hackbench", ln.no, "expected 'Time: <seconds>'");
				goto out;
			}
			dvec_push(&time, rb_to_f(f.str[1]));
			dvec_push(&instance_get(&all, id)->time, rb_to_f(f.str[1]));
		}
	}
	if (!time.nr) {
		ret = parse_error(in, "hackbench", line_iter_last(&it),
				  "no hackbench runs found (expected 'Time: <seconds>' lines)");
		goto out;
	}
	if (tasks < 0 || messages < 0) {
		ret = parse_error(in, "hackbench", line_iter_last(&it),
				  "expected 'Running in ... (== N tasks)' and "
				  "'Each sender will pass N messages of B bytes' lines");
		goto out;
	}
	if (kb_moved(tasks, messages, bytes, &kb)) {
		ret = parse_error(in, "hackbench", line_iter_last(&it), "task, message or size too large");
		goto out;
	}
	put_float(out, (double)kb / vmin_d(&time), "throughput");
	put_float(out, (double)kb / vmin_d(&time), "throughput_best");
	put_float(out, rb_round((double)kb / mean_time(&time), 2), "throughput_avg");
	put_float(out, (double)kb / vmax_d(&time), "throughput_worst");

	if (all.nr < 2)
		goto out;
	qsort(all.v, all.nr, sizeof(*all.v), cmp_instance);
	for (size_t i = 0; i < all.nr; i++) {
		struct instance *s = &all.v[i];
		long long ikb;

		if (!s->time.nr)
			continue;
		if (s->tasks < 0 || s->messages < 0) {
			ret = parse_error(in, "hackbench", line_iter_last(&it),
					  "instance %lld: expected its 'Running in' and "
					  "'Each sender' lines", s->id);
			goto out;
		}
		if (kb_moved(s->tasks, s->messages, s->bytes, &ikb)) {
			ret = parse_error(in, "hackbench", line_iter_last(&it),
					  "task, message or size too large");
			goto out;
		}
		put_float(out, (double)ikb / vmin_d(&s->time), "throughput.instance%lld", s->id);
		put_float(out, rb_round((double)ikb / mean_time(&s->time), 2),
			  "throughput_avg.instance%lld", s->id);
		put_float(out, (double)ikb / vmax_d(&s->time), "throughput_worst.instance%lld", s->id);
	}
out:
	for (size_t i = 0; i < all.nr; i++)
		dvec_release(&all.v[i].time);
	free(all.v);
	dvec_release(&time);
	field_list_release(&f);
	strbuf_release(&g);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_hackbench = { "hackbench", parse_hackbench, NULL };
