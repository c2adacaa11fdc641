/* Monitor parsers (see parsers.h). */
PARSER(vmstat)
PARSER(mpstat)
PARSER(perf_stat)
PARSER(perf_profile)
PARSER(dmesg)
PARSER(kmsg)
