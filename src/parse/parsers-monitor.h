/* Monitor parsers (see parsers.h). */
