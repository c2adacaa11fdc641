/*
 * The registry of parsers: PARSER(ident) per line, ident being the C name
 * of `parser_<ident>` defined in src/parse/<name>.c.  Included by
 * registry.c with different definitions of PARSER.  Monitors and
 * benchmarks keep their own lists so they can grow independently.
 */
#include "parse/parsers-monitor.h"
#include "parse/parsers-bench.h"
