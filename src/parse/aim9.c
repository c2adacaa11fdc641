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
	struct lines ls;
	struct words f = WORDS_INIT;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	lines_init(&ls, in);
	while (lines_next(&ls)) {
		const char *l = ls.buf.buf;
		int k = rx_match(&re[RX_SKIP], l, NULL, 0) ? RX_SKIP :
			rx_match(&re[RX_ROW], l, NULL, 0) ? RX_ROW : RX_NR;

		if (k == RX_NR)
			continue;
		words_split(&f, l);
		if (k == RX_SKIP) {
			put_str(out, "1", "%s.skip", f.v[1]);
			goto out;
		}
		if (f.nr < 6) {
			ret = parse_error(in, "aim9", ls.no, "expected '<number> <test> "
					  "<elapsed> <count> <loops/sec> <ops/sec> ...'");
			goto out;
		}
		put_str(out, f.v[5], "%s.ops_per_sec", f.v[1]);
	}
	if (out->len == start)
		ret = parse_error(in, "aim9", lines_last(&ls), "no aim9 result row found");
out:
	words_release(&f);
	lines_release(&ls);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_aim9 = { "aim9", parse_aim9, NULL };
