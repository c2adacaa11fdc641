/*
 * netperf.c: netperf's classic (non-omni) output as lkp stats.
 *
 * lkp runs one netperf per CPU/instance, all into one file.  The header
 * lines tell the unit (Mbps for "... 10^6bits/s" STREAM tests, tps for
 * "... per sec" RR tests) and which columns hold the message size, the
 * elapsed time and the throughput; every result row adds its throughput,
 * and a receive-side row (UDP_STREAM) its own.  Output, as lkp:
 *
 *     Throughput_<unit>            mean per row
 *     ThroughputRecv_<unit>        mean per receive row (0 without any)
 *     ThroughputBoth_<unit>        the sum of the two
 *     Throughput_total_<unit>      total, divided by the "Iterations" seen
 *     ThroughputRecv_total_<unit>  likewise
 *     ThroughputBoth_total_<unit>
 *     workload                     total * elapsed time (the last row's);
 *                                  for Mbps, in messages: * 10^6 / 8 / size
 *
 * The receive figures are the Integer 0 until a receive row is seen, and
 * print so ("0"), as in lkp.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "parse/bench_util.h"

enum {
	RX_ITERATIONS, RX_MBPS, RX_TPS, RX_SOCKET, RX_SEND_RECV, RX_SIZE,
	RX_ROW, RX_RECV_ROW, RX_NR
};

static const char *const patterns[RX_NR] = {
	[RX_ITERATIONS] = "^Iterations",
	[RX_MBPS] = "^bytes.*secs.*10\\^6bits",
	[RX_TPS] = "^bytes.*secs.[[:space:]]+per sec",
	[RX_SOCKET] = "^Socket.*Elapsed.*",
	[RX_SEND_RECV] = "^Send[[:space:]]+Recv[[:space:]]+",
	[RX_SIZE] = "^Size[[:space:]]+Size[[:space:]]+",
	[RX_ROW] = "[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+[0-9].*$",
	[RX_RECV_ROW] = "^[0-9]+[[:space:]]+[0-9]+\\.[0-9]+[[:space:]]+[0-9]+[[:space:]]+",
};

/* Index of the last field equal to word, or keep *idx. */
static void find_column(const struct field_list *f, const char *word, size_t *idx)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->str[i], word))
			*idx = i;
}

static void put_recv(struct strbuf *out, bool seen, double v, const char *key,
		     const char *unit)
{
	if (seen)
		put_float(out, v, "%s_%s", key, unit);
	else
		put_int(out, 0, "%s_%s", key, unit);
}

static int parse_netperf(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	const char *unit = NULL;
	size_t thp = 0, recv_thp = 0, time_col = 0, pkt_col = 0;
	double throughput = 0, recv_throughput = 0, time = 0, pkt_size = 0;
	double avg, avg_recv, workload;
	long num = 0, recv_num = 0, iterations = 0;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (rx_match(&re[RX_ITERATIONS], l, NULL, 0)) {
			iterations++;
		} else if (rx_match(&re[RX_MBPS], l, NULL, 0)) {
			unit = "Mbps";
		} else if (rx_match(&re[RX_TPS], l, NULL, 0)) {
			unit = "tps";
		} else if (rx_match(&re[RX_SOCKET], l, NULL, 0)) {
			split_ws_str(&f, l);
			find_column(&f, "Message", &pkt_col);
			find_column(&f, "Elapsed", &time_col);
		} else if (rx_match(&re[RX_SEND_RECV], l, NULL, 0) ||
			   rx_match(&re[RX_SIZE], l, NULL, 0)) {
			size_t col = SIZE_MAX;

			split_ws_str(&f, l);
			find_column(&f, rx_match(&re[RX_SIZE], l, NULL, 0) ?
				    "Throughput" : "Rate", &col);
			if (col != SIZE_MAX) {
				thp = col;
				/* the receive row lacks the two send-side sizes */
				recv_thp = col >= 2 ? col - 2 : SIZE_MAX;
			}
		} else if (rx_match(&re[RX_ROW], l, NULL, 0)) {
			split_ws_str(&f, l);
			if (thp >= f.nr || time_col >= f.nr || pkt_col >= f.nr) {
				ret = parse_error(in, "netperf", ln.no,
						  "expected a value in columns %zu, %zu and %zu "
						  "(throughput, time, message size)",
						  thp + 1, time_col + 1, pkt_col + 1);
				goto out;
			}
			throughput += rb_to_f(f.str[thp]);
			time = rb_to_f(f.str[time_col]);
			if (unit && !strcmp(unit, "Mbps"))
				pkt_size = rb_to_f(f.str[pkt_col]);
			num++;
		} else if (rx_match(&re[RX_RECV_ROW], l, NULL, 0)) {
			split_ws_str(&f, l);
			if (recv_thp >= f.nr) {
				ret = parse_error(in, "netperf", ln.no,
						  "expected a receive throughput column");
				goto out;
			}
			recv_throughput += rb_to_f(f.str[recv_thp]);
			recv_num++;
		}
	}
	if (!num) {
		ret = parse_error(in, "netperf", line_iter_last(&it), "no netperf result rows found");
		goto out;
	}
	if (!unit) {
		ret = parse_error(in, "netperf", line_iter_last(&it), "no units header found "
				  "(expected 'bytes ... secs ... 10^6bits/s' or '... per sec')");
		goto out;
	}
	avg = throughput / (double)num;
	avg_recv = recv_num ? recv_throughput / (double)recv_num : 0;
	if (iterations > 0) {
		throughput /= (double)iterations;
		recv_throughput /= (double)iterations;
	}
	workload = (throughput + recv_throughput) * time;
	if (!strcmp(unit, "Mbps"))
		workload = workload * 1000000 / 8.0 / pkt_size;
	put_float(out, avg, "Throughput_%s", unit);
	put_recv(out, recv_num, avg_recv, "ThroughputRecv", unit);
	put_float(out, avg + avg_recv, "ThroughputBoth_%s", unit);
	put_float(out, throughput, "Throughput_total_%s", unit);
	put_recv(out, recv_num, recv_throughput, "ThroughputRecv_total", unit);
	put_float(out, throughput + recv_throughput, "ThroughputBoth_total_%s", unit);
	put_float(out, workload, "workload");
out:
	field_list_release(&f);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_netperf = { "netperf", parse_netperf, NULL };
