/* Monitor parsers (see parsers.h): src/parse/monitor-<name>.c, and the
 * kernel log's, dmesg.c. */
PARSER(vmstat)
PARSER(mpstat)
PARSER(perf_stat)
PARSER(perf_profile)
PARSER(dmesg)
PARSER(kmsg)
