/* registry.c: the table of parsers, expanded from parsers.h. */
#include "parse/parser.h"
#include "util/fileio.h"

#include <string.h>

#define PARSER(ident) extern const struct parser parser_##ident;
#include "parse/parsers.h"
#undef PARSER

static const struct parser *const parsers[] = {
#define PARSER(ident) &parser_##ident,
#include "parse/parsers.h"
#undef PARSER
	NULL
};

const struct parser *const *parser_all(void)
{
	return parsers;
}

const struct parser *parser_find(const char *name)
{
	for (const struct parser *const *p = parsers; *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

int parser_read_file(struct strbuf *sb, const char *path)
{
	return read_file_limited(sb, path, PARSE_MAX_BYTES, PARSE_MAX_LINE);
}

int parser_read_fd(struct strbuf *sb, int fd, const char *what)
{
	return read_fd_limited(sb, fd, what, PARSE_MAX_BYTES, PARSE_MAX_LINE);
}
