#ifndef PERFBOT_PARSER_H
#define PERFBOT_PARSER_H
/*
 * Parsers turn a benchmark's or monitor's raw output into lkp's stats
 * lines, "key: value\n", in lkp's order and number formatting, so that
 * `perfbot parse NAME < raw` equals lkp-tests' parser output byte for byte.
 *
 * One file per parser, src/parse/<name>.c for a benchmark's output and
 * src/parse/monitor-<name>.c for a monitor's (the monitor itself being
 * src/monitor/<name>.c or perf.c), defines
 *
 *     const struct parser parser_<ident> = { "name", parse_fn, NULL };
 *
 * and src/parse/parsers.h lists it once (X-macro), which makes the enum
 * of names, the registry table and the extern declarations.  A parser that
 * cannot work here still registers, with unimplemented_reason set.
 */
#include <stddef.h>
#include "util/strbuf.h"

struct parse_input {
	const char *buf;        /* raw output, NUL-terminated */
	size_t len;
	const char *name;       /* file name for messages ("<stdin>") */
	const char *result_root;/* for parsers that read a whole result dir
				   (fio), else NULL */
};

/* Append "key: value\n" lines to out.  Return 0, or -1 after an error()
 * naming input->name, the line and what was expected. */
typedef int (*parse_fn)(const struct parse_input *in, struct strbuf *out);

struct parser {
	const char *name;
	parse_fn parse;
	const char *unimplemented_reason;
};

/*
 * What a parser reads at most: a benchmark's output is not perfbot's to
 * trust (`perfbot parse hackbench /dev/zero`, a runaway loop printing one
 * endless line), so past 1 GiB, or on a line past 1 MiB, reading stops
 * with an error naming the file (util/fileio.h's bounded reads).
 */
#define PARSE_MAX_BYTES ((size_t)1 << 30)
#define PARSE_MAX_LINE ((size_t)1 << 20)

/*
 * Turn the NUL bytes of a read output into spaces, with one warning
 * naming what and the first one's line: the parsers handle C strings,
 * and a NUL inside a field cut it when printed, leaving a stats line
 * without its ": value" (found by fuzzing).  The reads below do this.
 */
void parser_blank_nuls(struct strbuf *sb, const char *what);
/* Read a parser's input file within the bounds above.  0 or -1 (printed). */
int parser_read_file(struct strbuf *sb, const char *path);
/* The same for an open fd (standard input), named what in messages. */
int parser_read_fd(struct strbuf *sb, int fd, const char *what);

const struct parser *parser_find(const char *name);
/* NULL-terminated list of all parsers, in registry order. */
const struct parser *const *parser_all(void);

#endif
