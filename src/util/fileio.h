#ifndef PERFBOT_FILEIO_H
#define PERFBOT_FILEIO_H
/*
 * Whole-file reading and crash-safe writing.
 *
 * The promise of the project is that nothing already written is lost or
 * half-written: every file perfbot produces goes through write_file_atomic,
 * which writes "<path>.tmp.<pid>", fsyncs it, renames it over <path> and
 * fsyncs the directory.  A reader therefore sees the old file or the new
 * one, never a torn one, even after kill -9 or a power cut.
 */
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

/*
 * Read path into sb (appending).  A path ending in ".gz" is gunzipped.
 * Returns 0, or -1 after printing "perfbot: cannot read '<path>': <why>".
 */
int read_file(struct strbuf *sb, const char *path);
/* Like read_file, but tries path, then path + ".gz".  Sets *used (xstrdup'd,
 * caller frees) to the file actually read when used != NULL. */
int read_file_maybe_gz(struct strbuf *sb, const char *path, char **used);

/* Atomically replace path with data (see above).  0 or -1 with a message. */
int write_file_atomic(const char *path, const void *data, size_t len);

/* mkdir -p; 0 or -1 with a message. */
int mkdir_p(const char *path, int mode);
bool is_dir(const char *path);
bool file_exists(const char *path);
/* path made absolute against the cwd (it need not exist; not resolved
 * through symlinks).  Caller frees. */
char *abs_path(const char *path);
/* Join a and b with one '/', appending to sb. */
void path_join(struct strbuf *sb, const char *a, const char *b);

/* fflush stdout and report ENOSPC/EIO: a report that lost its end is a bug.
 * Returns 0 or -1 with a message. */
int finish_stdout(void);

#endif
