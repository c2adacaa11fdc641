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
/*
 * Bounded reads, for files perfbot does not control (a benchmark's output,
 * a parser's input, records in the work dir): /dev/zero or a runaway
 * benchmark must give an error, not exhaust memory.  Like read_file, but
 * past max_bytes bytes, or on a line longer than max_line bytes (0: no
 * line bound; also checked inside .gz files), fail with
 * "perfbot: '<path>' is larger than <max> (...)" or
 * "perfbot: '<path>':<line>: a line longer than <max> (...)".
 */
int read_file_limited(struct strbuf *sb, const char *path, size_t max_bytes,
		      size_t max_line);
/* The same on an open fd; what names it in messages.  (fd stays open.) */
int read_fd_limited(struct strbuf *sb, int fd, const char *what, size_t max_bytes,
		    size_t max_line);
/* read_fd_limited without a line bound. */
int read_fd_max(struct strbuf *sb, int fd, const char *what, size_t max_bytes);

/*
 * Quiet read of at most max bytes of a small kernel file (/proc, sysfs)
 * that may vanish: 0, or -1 with errno set and no message.  Trailing
 * whitespace is kept.
 */
int read_file_quiet(struct strbuf *sb, const char *path, size_t max);

/*
 * rm -rf path without following symbolic links anywhere below it (a
 * benchmark may leave links to / in its run dir).  A missing path is
 * fine.  0, or -1 with a message (what could not be removed).
 */
int remove_tree(const char *path);

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
