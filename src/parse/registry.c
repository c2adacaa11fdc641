/* registry.c: the table of parsers, expanded from parsers.h. */
#include "parse/parser.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

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

void parser_blank_nuls(struct strbuf *sb, const char *what)
{
	char *nul = memchr(sb->buf, '\0', sb->len);
	size_t line = 1;

	if (!nul)
		return;
	for (const char *p = sb->buf; p < nul; p++)
		line += *p == '\n';
	warning("%s:%zu: NUL bytes in the output read as spaces", what, line);
	for (; nul; nul = memchr(nul + 1, '\0', sb->len - (size_t)(nul + 1 - sb->buf)))
		*nul = ' ';
}

int parser_read_file(struct strbuf *sb, const char *path)
{
	if (read_file_limited(sb, path, PARSE_MAX_BYTES, PARSE_MAX_LINE) < 0)
		return -1;
	parser_blank_nuls(sb, path);
	return 0;
}

int parser_read_fd(struct strbuf *sb, int fd, const char *what)
{
	if (read_fd_limited(sb, fd, what, PARSE_MAX_BYTES, PARSE_MAX_LINE) < 0)
		return -1;
	parser_blank_nuls(sb, what);
	return 0;
}
