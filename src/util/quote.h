#ifndef PERFBOT_QUOTE_H
#define PERFBOT_QUOTE_H
/*
 * quote.h: words quoted for /bin/sh, as git's quote.h does: the whole
 * word in single quotes, a quote inside as '\'' .  What a log, a report
 * or a "replay with" line shows, so that a user can paste it and get the
 * same words back whatever they hold (blanks, $, quotes, newlines).
 */
#include "util/strbuf.h"

/* Shell-quote s (single quotes) onto sb. */
void shell_quote(struct strbuf *sb, const char *s);
/* argv[0..argc) as one shell command line, each word quoted, onto sb. */
void shell_quote_argv(struct strbuf *sb, char *const *argv, int argc);

#endif
