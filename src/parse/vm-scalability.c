/*
 * vm-scalability.c: the vm-scalability benchmark's output as lkp stats.
 *
 * Each "./case-*" line closes a sample: the KB/s rates of the processes
 * seen since the previous one ("N bytes / U usecs = R KB/s", dd's
 * "copied, S s", "truncated in A-B seconds", "remapped") add up to the
 * sample's throughput, their median is the sample's median.  Faulting
 * rates ("faulted in A-B seconds") make a second, _fault series.  As in
 * lkp, a "# <processes> <sum>" line is printed per sample, and
 *
 *     throughput   mean of the sample throughputs (%d: truncated)
 *     stddev%      relative stddev of throughputs, or with one sample
 *                  stddev(rates) * nr_rates / mean(rates), %g
 *     free_time    mean "usecs to free memory", in seconds, %g
 *     median       mean of the sample medians, median_stddev% likewise
 *     workload     all bytes moved, in KB, %.2f
 *
 * The migrate test prints "migrate_mbps" lines as it goes (its MB/s also
 * counts as bytes in workload, as in lkp).  A run whose last sample is
 * empty (output cut after a "./case-" line) prints only "throughput", as
 * lkp does, with a warning.  With a single sample and its rates cleared
 * by that last "./case-" line, lkp's one-sample stddev is NaN; so is ours.
 */
#include "parse/bench_util.h"
#include "util/bigint.h"
#include "util/error.h"
#include "util/xalloc.h"

enum {
	RX_USECS, RX_DD, RX_TRUNCATED, RX_FAULTED, RX_MIGRATED, RX_REMAPPED,
	RX_FREE, RX_CASE, RX_NR
};

static const char *const patterns[RX_NR] = {
	[RX_USECS] = "^\\.*([0-9]+) bytes / ([0-9]+) usecs = ([0-9]+) KB.s",
	[RX_DD] = "([0-9]+) bytes \\([0-9.]+ .B(, [0-9.]+ .iB)?\\) copied, "
		  "([0-9.]+) s, ([0-9.]+) .B.s",
	[RX_TRUNCATED] = "([0-9]+) bytes truncated in ([0-9.]+)-([0-9.]+) seconds",
	[RX_FAULTED] = "([0-9]+) bytes faulted in ([0-9.]+)-([0-9.]+) seconds",
	[RX_MIGRATED] = "[0-9]+ \\* [0-9]+ bytes migrated, [0-9]+ usecs, ([0-9]+) MB.s",
	[RX_REMAPPED] = "([0-9]+) bytes remapped, ([0-9]+) usecs, ([0-9]+) MB.s",
	[RX_FREE] = "([0-9]+) usecs to free memory",
	[RX_CASE] = "\\./case-[a-z-]+",
};

/* One series (plain or _fault): the current sample's rates and the samples. */
struct series {
	struct rvec rates;      /* KB/s of the current sample */
	struct rvec throughput; /* per sample: sum of rates */
	struct rvec median;     /* per sample: median rate */
};

static void series_release(struct series *s)
{
	rvec_release(&s->rates);
	rvec_release(&s->throughput);
	rvec_release(&s->median);
}

/* Close the current sample of s (lkp's add_one_sample); rates are left sorted. */
static void add_sample(struct series *s, struct strbuf *out)
{
	if (!s->rates.nr)
		return;
	rvec_push(&s->throughput, rnum_sum(s->rates.v, s->rates.nr));
	rvec_sort(&s->rates);
	rvec_push(&s->median, s->rates.v[s->rates.nr / 2]);
	/* printed after sorting, so summed in sorted order like lkp */
	strbuf_addf(out, "# %zu ", s->rates.nr);
	fmt_rnum(out, rnum_sum(s->rates.v, s->rates.nr));
	strbuf_addch(out, '\n');
}

static double rvec_average(const struct rvec *r)
{
	return rnum_to_f(rnum_sum(r->v, r->nr)) / (double)r->nr;
}

static double rvec_stddev(const struct rvec *r)
{
	struct dvec d = DVEC_INIT;
	double sd;

	rvec_to_dvec(r, &d);
	sd = lkp_stddev(d.v, d.nr);
	dvec_release(&d);
	return sd;
}

/* Relative stddev of the throughputs, or lkp's one-sample estimate. */
static double throughput_stddev(const struct series *s)
{
	if (s->throughput.nr > 1)
		return rvec_stddev(&s->throughput) / rvec_average(&s->throughput);
	return rvec_stddev(&s->rates) * (double)s->rates.nr / rvec_average(&s->rates);
}

static double median_stddev(const struct series *s)
{
	if (s->median.nr > 1)
		return rvec_stddev(&s->median) / rvec_average(&s->median);
	return 0;
}

static void print_throughput(const struct series *s, const char *sfx, struct strbuf *out)
{
	strbuf_addf(out, "throughput%s: ", sfx);
	fmt_trunc(out, rvec_average(&s->throughput));
	strbuf_addch(out, '\n');
}

static void print_stddev(const struct series *s, const char *sfx, struct strbuf *out)
{
	strbuf_addf(out, "stddev%s%%:   ", sfx);
	fmt_c_double(out, "%g", throughput_stddev(s) * 100);
	strbuf_addch(out, '\n');
}

static void print_medians(const struct series *s, const char *sfx, struct strbuf *out)
{
	strbuf_addf(out, "median%s: ", sfx);
	fmt_trunc(out, rvec_average(&s->median));
	strbuf_addf(out, "\nmedian%s_stddev%%: ", sfx);
	fmt_c_double(out, "%g", median_stddev(s) * 100);
	strbuf_addch(out, '\n');
}

/* "B bytes <verb> in T1-T0 seconds": B/1024 over the interval, as a rate. */
static void add_interval(struct series *s, struct bigint *bytes, const char *l,
			 const struct rx_sub *m, struct strbuf *g)
{
	long long b = rb_to_i(rx_group(g, l, m, 1));
	double t1 = rb_to_f(rx_group(g, l, m, 2));
	double t0 = rb_to_f(rx_group(g, l, m, 3));

	bigint_add_to_i(bytes, l + m[1].so, (size_t)(m[1].eo - m[1].so));
	rvec_push(&s->rates, rnum_float((double)(b >> 10) / (t1 - t0)));
}

static int parse_vm_scalability(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[5];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct strbuf g = STRBUF_INIT;
	struct series plain = { RVEC_INIT, RVEC_INIT, RVEC_INIT };
	struct series fault = { RVEC_INIT, RVEC_INIT, RVEC_INIT };
	struct dvec free_secs = DVEC_INIT;
	/* exact sums, as lkp's Ruby makes them: the text of each group is
	 * added, not rb_to_i's 64-bit value */
	struct bigint bytes = BIGINT_INIT, bytes_fault = BIGINT_INIT;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		long long b;

		if (rx_match(&re[RX_USECS], l, m, 4)) {
			bigint_add_to_i(&bytes, l + m[1].so, (size_t)(m[1].eo - m[1].so));
			rvec_push(&plain.rates, rnum_int(rb_to_i(rx_group(&g, l, m, 3))));
		} else if (rx_match(&re[RX_DD], l, m, 5)) {
			b = rb_to_i(rx_group(&g, l, m, 1));
			bigint_add_to_i(&bytes, l + m[1].so, (size_t)(m[1].eo - m[1].so));
			rvec_push(&plain.rates,
				  rnum_float((double)(b >> 10) / rb_to_f(rx_group(&g, l, m, 3))));
		} else if (rx_match(&re[RX_TRUNCATED], l, m, 4)) {
			add_interval(&plain, &bytes, l, m, &g);
		} else if (rx_match(&re[RX_FAULTED], l, m, 4)) {
			add_interval(&fault, &bytes_fault, l, m, &g);
		} else if (rx_match(&re[RX_MIGRATED], l, m, 2)) {
			bigint_add_to_i(&bytes, l + m[1].so, (size_t)(m[1].eo - m[1].so));
			rx_group(&g, l, m, 1);
			put_str(out, g.buf, "migrate_mbps");
		} else if (rx_match(&re[RX_REMAPPED], l, m, 4)) {
			long long usecs;

			b = rb_to_i(rx_group(&g, l, m, 1));
			usecs = rb_to_i(rx_group(&g, l, m, 2)) >> 10;
			if (!usecs) {
				ret = parse_error(in, "vm-scalability", ln.no, "remap time below 1024 usecs");
				goto out;
			}
			bigint_add_to_i(&bytes, l + m[1].so, (size_t)(m[1].eo - m[1].so));
			/* Integer division, as in lkp */
			rvec_push(&plain.rates, rnum_int(b / usecs));
		} else if (rx_match(&re[RX_FREE], l, m, 2)) {
			dvec_push(&free_secs, rb_to_i(rx_group(&g, l, m, 1)) / 1000000.0);
		} else if (rx_match(&re[RX_CASE], l, NULL, 0)) {
			add_sample(&plain, out);
			add_sample(&fault, out);
			plain.rates.nr = 0;
			fault.rates.nr = 0;
		}
	}
	add_sample(&plain, out);
	add_sample(&fault, out);

	if (!plain.throughput.nr) {
		if (out->len > start)   /* a migrate-only run */
			goto out;
		ret = parse_error(in, "vm-scalability", line_iter_last(&it),
				  "no vm-scalability samples found (expected "
				  "'N bytes / U usecs = R KB/s' or similar lines)");
		goto out;
	}
	print_throughput(&plain, "", out);
	if (!plain.rates.nr) {
		/* lkp stops here too, with an error in its log */
		warning("%s: incomplete vm-scalability output: the last sample is empty",
			in->name);
		goto out;
	}
	print_stddev(&plain, "", out);
	if (free_secs.nr) {
		strbuf_addstr(out, "free_time:  ");
		fmt_c_double(out, "%g", lkp_average(free_secs.v, free_secs.nr));
		strbuf_addch(out, '\n');
	}
	print_medians(&plain, "", out);
	strbuf_addf(out, "workload: %.2f\n", bigint_to_double(&bytes) / 1024);
	if (fault.throughput.nr) {
		print_throughput(&fault, "_fault", out);
		print_stddev(&fault, "_fault", out);
		print_medians(&fault, "_fault", out);
	}
out:
	strbuf_release(&line);
	strbuf_release(&g);
	series_release(&plain);
	series_release(&fault);
	dvec_release(&free_secs);
	bigint_release(&bytes);
	bigint_release(&bytes_fault);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_vm_scalability = { "vm-scalability", parse_vm_scalability, NULL };
