#ifndef PERFBOT_FILEIO_H
#define PERFBOT_FILEIO_H
/*
 * Whole-file reading and crash-safe writing.
 *
 * The promise of the project is that nothing already written is lost or
 * half-written: every file perfbot produces goes through write_file_atomic
 * (or held_dir_write, the same inside a dir held open, below), which
 * writes "<path>.tmp.<pid>", fsyncs it, renames it over <path> and fsyncs
 * the directory.  A reader therefore sees the old file or the new
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

/*
 * A file's text to parse, read-only: a plain file is mapped (MAP_POPULATE)
 * rather than copied into a fresh buffer, which saves the copy and, on
 * this project's VM, the first-touch page faults of a buffer as large as
 * the file (a fifth of `compare`'s time at 30,000 metrics); a .gz file,
 * an empty one or one mmap refuses is read into sb.  text is not
 * NUL-terminated when mapped: parse it by (text, len).  A mapped file cut
 * short by another process would fault (SIGBUS) where read() would give
 * a short text; the files mapped (stats.json, matrix.json) are replaced
 * by rename, by perfbot and lkp alike, which leaves the mapped inode
 * whole.
 *
 *   struct file_text ft;
 *   if (file_text_open(&ft, "matrix.json", &used) == 0)
 *           parse(ft.text, ft.len);
 *   file_text_release(&ft);
 *
 * file_text_open tries path, then path + ".gz", as read_file_maybe_gz
 * (same *used and messages); 0 or -1.  file_text_release is safe after
 * a failed open.
 *
 * The files are results someone else may have written (a shared result
 * tree, an lkp tree): only a regular file is read ("cannot read 'P': not
 * a regular file ..."; a stats.json linked to /dev/zero grew unite to
 * 15 GB in a minute), of at most FILE_TEXT_MAX bytes, also once
 * gunzipped ("'P' is larger than 1 GiB ...").
 */
/* 1 GiB: about 300 times the largest file seen, matrix.json of 10 runs of
 * 30,000 metrics (3.3 MB; such a stats.json is a tenth of that), so no
 * real tree comes near it, while a runaway file stops at 1 GiB of RAM. */
#define FILE_TEXT_MAX ((size_t)1 << 30)
struct file_text {
	const char *text;
	size_t len;
	void *map;              /* the mapping, or NULL: text is sb's */
	struct strbuf sb;
};
int file_text_open(struct file_text *ft, const char *path, char **used);
/* The same, for a thread that must not print (compare's loaders): where
 * file_text_open would print its message, it is put in err instead. */
int file_text_open_quiet(struct file_text *ft, const char *path, char **used, struct strbuf *err);
void file_text_release(struct file_text *ft);

/* Atomically replace path with data (see above).  0 or -1 with a message. */
int write_file_atomic(const char *path, const void *data, size_t len);

/*
 * The same for a file written in pieces, so that a large text need not be
 * held whole in memory (unite's matrix.json: 3.3 MB at 30,000 metrics,
 * whose fresh pages were a quarter of unite's page faults).
 *
 *   struct atomic_file af;
 *   if (atomic_file_open(&af, path) < 0)
 *           return -1;                      // the message is printed
 *   atomic_file_write(&af, buf, len);       // as often as needed
 *   return atomic_file_commit(&af);         // fsync, rename, fsync the dir
 *
 * atomic_file_write prints nothing: its first error is kept, and commit
 * reports it ("cannot write '<path>': <why>"), removes the temp file and
 * returns -1.  atomic_file_abort removes the temp file instead of
 * committing.  Either ends af; a write may come from another thread than
 * the open and the commit, one thread at a time.
 *
 * atomic_file_sync fsyncs now (quietly, as a write), so that a thread can
 * wait for its files' disk while another works; commit then does not sync
 * again.  atomic_file_commit_all commits n files in order, stopping at
 * the first that fails (the later ones are aborted: -1), and fsyncs each
 * directory once after its renames rather than once a file.
 */
struct atomic_file {
	struct strbuf path;     /* the file, as messages name it */
	struct strbuf tmp;      /* the temp file, relative to dfd */
	int fd;
	int dfd;                /* AT_FDCWD, or a held dir's fd (atomic_file_open_in) */
	size_t name_at;         /* path.buf + name_at: the name relative to dfd */
	int err;                /* the first write's errno, or 0 */
	bool synced;
};
int atomic_file_open(struct atomic_file *af, const char *path);
void atomic_file_write(struct atomic_file *af, const void *data, size_t len);
void atomic_file_sync(struct atomic_file *af);
int atomic_file_commit(struct atomic_file *af);
int atomic_file_commit_all(struct atomic_file *af, size_t n);
void atomic_file_abort(struct atomic_file *af);

/*
 * Files and dirs perfbot creates in a tree another user may write (a
 * shared result root, run as root): never through that user's symbolic
 * links, never into a file or dir that was there before.
 *
 * temp_file_create creates a new temp file for path, "<path>.tmp.<pid>",
 * or when that name is taken "<path>.tmp.<pid>.<8 hex digits>", with
 * O_CREAT | O_EXCL | O_NOFOLLOW (what is at the name, a link included, is
 * never opened): the name is put in tmp (reset first) and the fd
 * (O_WRONLY, 0644) returned, or -1 with errno and no message.
 */
int temp_file_create(struct strbuf *tmp, const char *path);

/*
 * Open path, a file that is kept and reused (a lock, a log appended to),
 * with flags (O_CREAT makes it 0644) plus O_NOFOLLOW: the fd, or -1 after
 * "perfbot: cannot <verb> '<path>': it is a symbolic link (refusing to
 * follow it)", or "... not a regular file", or the open's error.
 */
int open_nofollow(const char *path, int flags, const char *verb);

/*
 * Make the new dir path (a run's or a fetch's, named after this process's
 * pid) that no one else can have made: mkdir fails when the name exists
 * (never reusing a dir, never following a link).  A real dir of ours
 * there is one a dead process of our pid left (or ours, given up): it is
 * removed first.  Anything else there (a link, another user's dir) is
 * left alone: 1, nothing printed (take another name, or say so).  The
 * new dir is then checked, opened O_NOFOLLOW | O_DIRECTORY, to be a dir
 * of ours.  0, 1, or -1 with a message naming path.
 */
int mkdir_fresh(const char *path, int mode);

/*
 * A dir perfbot made, held open (O_DIRECTORY | O_NOFOLLOW) so that its
 * files are written by name relative to the fd, never through its path.
 * In a tree another user can write (a shared result root, run as root),
 * that user can rename a fresh run dir away mid-run and plant a symbolic
 * link with its name: a write by path would then go through the link,
 * with root's rights.  Through the fd, every file goes into the dir that
 * was made, wherever it is now, and publishing refuses a dir whose name
 * no longer leads to it.
 *
 *   struct held_dir hd;
 *   if (held_dir_make(&hd, ".run-0.123", 0755) != 0)
 *           return ...;                         // 1: the name is taken
 *   held_dir_write(&hd, "stats.json", text, len);
 *   r = held_dir_publish(&hd, "0");             // hd.path becomes "0"
 *   held_dir_close(&hd);
 *
 * held_dir_make: as mkdir_fresh (0, 1, or -1 with a message), and on 0 hd
 * holds the new dir (path xstrdup'd for messages and for readers by path).
 * held_dir_write: write_file_atomic of name inside the held dir: a temp
 * made by openat with O_CREAT | O_EXCL | O_NOFOLLOW, renameat over name,
 * fsync of the dir's fd; 0 or -1 with a message naming "<path>/<name>".
 * atomic_file_open_in: the same for a file written in pieces (then
 * atomic_file_write, _commit or _abort as above).
 * held_dir_create: a new file name in the dir, O_WRONLY | O_CREAT |
 * O_EXCL | O_NOFOLLOW, 0644 (a benchmark's output): the fd, or -1 with a
 * message.  held_dir_open_read: name in the dir, O_RDONLY | O_NOFOLLOW:
 * the fd, or -1 with errno and no message.
 * held_dir_publish: rename the dir to `to` (a path), which must not exist
 * as a non-empty dir: 0 (hd->path is then `to`), 1 when `to` is taken
 * (EEXIST, ENOTEMPTY: nothing said, try another name), or -1 after
 * "directory '<path>' was replaced ..." when its name no longer leads to
 * the held dir, before or after the rename, or the rename's error.
 * held_dir_close: close the fd and free the path (safe twice, and after
 * a failed make).
 *
 * held_dir_open holds a dir that exists (a result root, to lock it and
 * write its files in the dir locked): path's last component is not
 * followed; 0, or -1 after "cannot open directory '<path>': <why>".
 * held_dir_open_file is open_nofollow (below) of name in the dir.
 *
 * held_dir_make_in: a new dir name inside hd (mkdirat: never one that
 * was there), held in sub as held_dir_make holds one; 0, or -1 with a
 * message.  held_dir_read: the regular file name in the dir, read
 * O_NOFOLLOW into sb (appended), gunzipped when name ends in ".gz", at
 * most max bytes (also once gunzipped); 0, or -1 with a message naming
 * "<path>/<name>" as read_file_limited's (ENOENT included: ask first).
 *
 * held_dir_proc_path: for a program perfbot starts that must be given a
 * path to open (perf record -o, valgrind's --cachegrind-out-file, QEMU's
 * serial files): "/proc/self/fd/<fd>/<name>" in sb (reset first; no
 * name: the dir itself), for this process and for a program started with
 * run_command's keep_fd = hd->fd, which inherits the fd under its number.
 * The kernel resolves /proc/self/fd/<fd> to the dir held, not by its
 * name: renamed away and replaced by a link, the dir still gets the
 * program's file and the link nothing.  Each process reads its own
 * /proc/self, which needs no rights over another (a worker's job child
 * that dropped root is not dumpable: its /proc/<pid>/fd is closed to the
 * programs it starts).
 */
struct held_dir {
	int fd;                 /* -1 when closed */
	char *path;
};
int held_dir_make(struct held_dir *hd, const char *path, int mode);
int held_dir_write(const struct held_dir *hd, const char *name, const void *data, size_t len);
int atomic_file_open_in(struct atomic_file *af, const struct held_dir *hd, const char *name);
int held_dir_create(const struct held_dir *hd, const char *name);
int held_dir_open_read(const struct held_dir *hd, const char *name);
int held_dir_publish(struct held_dir *hd, const char *to);
void held_dir_close(struct held_dir *hd);
int held_dir_open(struct held_dir *hd, const char *path);
int held_dir_open_file(const struct held_dir *hd, const char *name, int flags, const char *verb);
int held_dir_make_in(struct held_dir *sub, const struct held_dir *hd, const char *name, int mode);
int held_dir_read(const struct held_dir *hd, const char *name, struct strbuf *sb, size_t max);
void held_dir_proc_path(const struct held_dir *hd, const char *name, struct strbuf *sb);
/*
 * Remove what is in the held dir (through its fd, following no link),
 * then the dir by its name if that still leads to it: a run given up.
 * (A name pointed elsewhere mid-run is left alone, and so is what it
 * leads to.)  The fd stays open: held_dir_close it.  0, or -1 with a
 * message.
 */
int held_dir_remove(const struct held_dir *hd);

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
