#ifndef PERFBOT_BISECT_LOG_H
#define PERFBOT_BISECT_LOG_H
/*
 * The bisect log's text (log.c), for driver.c and state.c: the format is
 * documented in driver.h.
 */
#include "bisect/driver.h"

/* Split a shell-quoted line (single quotes, \' outside them) into words,
 * a NULL-terminated array the caller frees with bisect_free_words.
 * 0, or -1 on an unterminated quote. */
int bisect_split_words(const char *line, char ***words, int *nr);
void bisect_free_words(char **words, int nr);
/* Append the "start" line of o (with its newline) to sb. */
void bisect_start_line(const struct bisect_opts *o, struct strbuf *sb);
/* Append line to the log at path and fsync it before going on.  0 or -1
 * with a message. */
int bisect_log_append(const char *path, const char *line);

#endif
