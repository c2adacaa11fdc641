/* quote.c: words quoted for /bin/sh (see quote.h). */
#include "util/quote.h"

void shell_quote(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
}

void shell_quote_argv(struct strbuf *sb, char *const *argv, int argc)
{
	for (int i = 0; i < argc; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		shell_quote(sb, argv[i]);
	}
}
