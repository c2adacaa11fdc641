/*
 * tbench.c: tbench's output as lkp stats.  tbench ends with dbench's
 * "Throughput ... max_latency=..." summary, and lkp parses it with
 * dbench's parser; so do we (see dbench.c for the stats).
 */
#include "parse/bench_util.h"

static int parse_tbench(const struct parse_input *in, struct strbuf *out)
{
	return parse_dbench_format(in, out, "tbench");
}

const struct parser parser_tbench = { "tbench", parse_tbench, NULL };
