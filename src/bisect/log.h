#ifndef PERFBOT_BISECT_LOG_H
#define PERFBOT_BISECT_LOG_H
/*
 * The bisect log's text (log.c), for the bisect runner's files and its
 * tests: the format is documented in driver.h.
 */
#include "bisect/driver.h"

/* Split a shell-quoted line (single quotes, \' outside them) into words,
 * a NULL-terminated array the caller frees with bisect_free_words.
 * 0, or -1 on an unterminated quote. */
int bisect_split_words(const char *line, char ***words, int *nr);
void bisect_free_words(char **words, int nr);
/* Append the "start" line of o (with its newline) to sb. */
void bisect_start_line(const struct bisect_opts *o, struct strbuf *sb);
/* Parse the options of a log's "start" line (shell-quoted words) into opts.
 * 0, or -1 after an error naming the state file and line. */
int bisect_parse_start(const char *line, const char *state_path, int lineno,
		       struct bisect_opts *opts);
/* Append line to the log at path and fsync it before going on.  0 or -1
 * with a message. */
int bisect_log_append(const char *path, const char *line);

#endif
