/*
 * aim9.c: AIM Independent Resource Benchmark (Suite IX) as lkp stats.
 *
 * lkp's parser is awk: a result row ("     1 tcp_test   300.00  58982
 * 196.60667  17694.60 TCP/IP Messages/second") gives
 * "<test>.ops_per_sec: <operation rate>" (fields 2 and 6, as printed); a
 * "... Skipping" row gives "<test>.skip: 1" and ends the parse.
 */
#include "parse/bench_util.h"

enum { RX_SKIP, RX_ROW, RX_NR };

static const char *const patterns[RX_NR] = {
	[RX_SKIP] = "^[ ]+[0-9]+.*[ ]+Skipping",
	[RX_ROW] = "^[ ]+[0-9]+.*[ ]+[0-9|.]+.*",
};

static int parse_aim9(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		int k = rx_match(&re[RX_SKIP], l, NULL, 0) ? RX_SKIP :
			rx_match(&re[RX_ROW], l, NULL, 0) ? RX_ROW : RX_NR;

		if (k == RX_NR)
			continue;
		split_ws_str(&f, l);
		if (k == RX_SKIP) {
			put_str(out, "1", "%s.skip", f.str[1]);
			goto out;
		}
		if (f.nr < 6) {
			ret = parse_error(in, "aim9", ln.no, "expected '<number> <test> "
					  "<elapsed> <count> <loops/sec> <ops/sec> ...'");
			goto out;
		}
		put_str(out, f.str[5], "%s.ops_per_sec", f.str[1]);
	}
	if (out->len == start)
		ret = parse_error(in, "aim9", line_iter_last(&it), "no aim9 result row found");
out:
	field_list_release(&f);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_aim9 = { "aim9", parse_aim9, NULL };
