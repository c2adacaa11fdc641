/* Benchmark parsers (see parsers.h). */
