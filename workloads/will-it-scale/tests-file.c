/*
 * tests-file.c: will-it-scale's file tests (the original's names; the
 * operations are this program's own, see the table's docs).  "Own file":
 * a file of the task's; "shared file": one file for all tasks, each
 * opening it; "shared fd": one open file for all tasks, so one offset.
 */
#include "wis.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The file a test works on: fd[0], or the shared fd when the test opened none. */
static int fd_of(struct task *t)
{
	return t->fd[0] >= 0 ? t->fd[0] : t->g->fd;
}

static int own_file_setup(struct task *t)
{
	return wis_task_file(t, WIS_FILESIZE, true, false);
}

static int own_dir_file_setup(struct task *t)
{
	return wis_task_file(t, WIS_FILESIZE, true, true);
}

static int empty_file_setup(struct task *t)
{
	return wis_task_file(t, 0, false, false);
}

static int shared_file_setup(struct task *t)
{
	return wis_open_shared(t);
}

static int devnull_setup(struct task *t)
{
	t->fd[0] = open("/dev/null", O_RDWR);
	return t->fd[0] < 0 ? -1 : 0;
}

static int devzero_setup(struct task *t)
{
	t->fd[0] = open("/dev/zero", O_RDONLY);
	return t->fd[0] < 0 ? -1 : 0;
}

static void dup_op(struct task *t)
{
	int fd = dup(t->fd[0]);

	if (fd < 0)
		return;
	close(fd);
	(*t->count)++;
}

static void lock_at(struct task *t, off_t where)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = where, .l_len = 1 };

	if (fcntl(fd_of(t), F_SETLK, &fl))
		return;
	fl.l_type = F_UNLCK;
	if (fcntl(fd_of(t), F_SETLK, &fl))
		return;
	(*t->count)++;
}

static void lock1_op(struct task *t)
{
	lock_at(t, 0);
}

/* lock2: a byte of its own in the shared file */
static void lock2_op(struct task *t)
{
	lock_at(t, t->id);
}

static void lseek_op(struct task *t)
{
	if (lseek(fd_of(t), 0, SEEK_SET) == 0)
		(*t->count)++;
}

static void fallocate1_op(struct task *t)
{
	if (!fallocate(t->fd[0], 0, 0, (off_t)WIS_FILESIZE) && !ftruncate(t->fd[0], 0))
		(*t->count)++;
}

/* fallocate2 punches a hole; the file system has to support it (tmpfs, ext4, xfs do). */
static int fallocate2_setup(struct task *t)
{
	if (own_file_setup(t) < 0)
		return -1;
	return fallocate(t->fd[0], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)WIS_FILESIZE);
}

static void fallocate2_op(struct task *t)
{
	if (!fallocate(t->fd[0], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)WIS_FILESIZE) &&
	    !fallocate(t->fd[0], 0, 0, (off_t)WIS_FILESIZE))
		(*t->count)++;
}

/* open1, open2: the task's file; open3: the shared file */
static void open_own_op(struct task *t)
{
	int fd = open(t->path, O_RDWR);

	if (fd < 0)
		return;
	close(fd);
	(*t->count)++;
}

static void open3_op(struct task *t)
{
	int fd = open(t->g->file, O_RDWR);

	if (fd < 0)
		return;
	close(fd);
	(*t->count)++;
}

/* unlink1 in the task's own directory, unlink2 in the shared one */
static int unlink_setup(struct task *t, bool own_dir)
{
	if (wis_task_file(t, 0, false, own_dir) < 0)
		return -1;
	close(t->fd[0]);
	t->fd[0] = -1;
	return unlink(t->path);
}

static int unlink1_setup(struct task *t)
{
	return unlink_setup(t, true);
}

static int unlink2_setup(struct task *t)
{
	return unlink_setup(t, false);
}

static void unlink_op(struct task *t)
{
	int fd = open(t->path, O_RDWR | O_CREAT | O_EXCL, 0600);

	if (fd < 0)
		return;
	close(fd);
	if (!unlink(t->path))
		(*t->count)++;
}

static off_t own_offset(struct task *t)
{
	return (off_t)(((unsigned long)t->id * WIS_BUFSIZE) % WIS_FILESIZE);
}

static void pread_op(struct task *t, off_t off)
{
	if (pread(fd_of(t), t->buf, WIS_BUFSIZE, off) == WIS_BUFSIZE)
		(*t->count)++;
}

static void pread_zero_op(struct task *t)
{
	pread_op(t, 0);
}

static void pread3_op(struct task *t)
{
	pread_op(t, own_offset(t));
}

static void pwrite_op(struct task *t, off_t off)
{
	if (pwrite(fd_of(t), t->buf, WIS_BUFSIZE, off) == WIS_BUFSIZE)
		(*t->count)++;
}

static void pwrite_zero_op(struct task *t)
{
	pwrite_op(t, 0);
}

static void pwrite3_op(struct task *t)
{
	pwrite_op(t, own_offset(t));
}

/* read: on to the end of the file, then from its start again */
static void read_op(struct task *t)
{
	ssize_t n = read(fd_of(t), t->buf, WIS_BUFSIZE);

	if (n > 0)
		(*t->count)++;
	else if (n == 0)
		lseek(fd_of(t), 0, SEEK_SET);
}

static void readseek_op(struct task *t)
{
	if (read(fd_of(t), t->buf, WIS_BUFSIZE) > 0 && lseek(fd_of(t), 0, SEEK_SET) == 0)
		(*t->count)++;
}

/* write: on to the file's size, then from its start again */
static void write_op(struct task *t)
{
	if (write(fd_of(t), t->buf, WIS_BUFSIZE) != WIS_BUFSIZE)
		return;
	(*t->count)++;
	if (++t->n % (WIS_FILESIZE / WIS_BUFSIZE) == 0)
		lseek(fd_of(t), 0, SEEK_SET);
}

static void writeseek_op(struct task *t)
{
	if (write(fd_of(t), t->buf, WIS_BUFSIZE) == WIS_BUFSIZE && lseek(fd_of(t), 0, SEEK_SET) == 0)
		(*t->count)++;
}

const struct wtest wis_file_tests[] = {
	{ "dup1", "dup and close a descriptor of /dev/null", devnull_setup, dup_op, NULL },
	{ "fallocate1", "fallocate 1 MB of an own file and truncate it", empty_file_setup,
	  fallocate1_op, NULL },
	{ "fallocate2", "punch a 1 MB hole into an own file and fallocate it again",
	  fallocate2_setup, fallocate2_op, NULL },
	{ "lock1", "take and drop a POSIX write lock on an own file", own_file_setup, lock1_op, NULL },
	{ "lock2", "take and drop a POSIX write lock on an own byte of the shared fd",
	  NULL, lock2_op, NULL },
	{ "lseek1", "lseek an own file to 0", own_file_setup, lseek_op, NULL },
	{ "lseek2", "lseek the shared fd to 0", NULL, lseek_op, NULL },
	{ "open1", "open and close an own file in the shared directory", own_file_setup,
	  open_own_op, NULL },
	{ "open2", "open and close an own file in an own directory", own_dir_file_setup,
	  open_own_op, NULL },
	{ "open3", "open and close the shared file", NULL, open3_op, NULL },
	{ "pread1", "pread 4 KB at 0 of an own file", own_file_setup, pread_zero_op, NULL },
	{ "pread2", "pread 4 KB at 0 of the shared file", shared_file_setup, pread_zero_op, NULL },
	{ "pread3", "pread 4 KB at an own offset of the shared file", shared_file_setup,
	  pread3_op, NULL },
	{ "pwrite1", "pwrite 4 KB at 0 of an own file", own_file_setup, pwrite_zero_op, NULL },
	{ "pwrite2", "pwrite 4 KB at 0 of the shared file", shared_file_setup, pwrite_zero_op, NULL },
	{ "pwrite3", "pwrite 4 KB at an own offset of the shared file", shared_file_setup,
	  pwrite3_op, NULL },
	{ "read1", "read 4 KB of an own file, from its start again at the end",
	  own_file_setup, read_op, NULL },
	{ "read2", "read 4 KB of the shared file, from its start again at the end",
	  shared_file_setup, read_op, NULL },
	{ "read3", "read 4 KB of /dev/zero", devzero_setup, read_op, NULL },
	{ "read4", "read 4 KB of the shared fd, from its start again at the end",
	  NULL, read_op, NULL },
	{ "readseek1", "read 4 KB of an own file and lseek to 0", own_file_setup, readseek_op, NULL },
	{ "readseek2", "read 4 KB of the shared file and lseek to 0", shared_file_setup,
	  readseek_op, NULL },
	{ "readseek3", "read 4 KB of the shared fd and lseek to 0", NULL, readseek_op, NULL },
	{ "unlink1", "create and unlink an own file in an own directory", unlink1_setup,
	  unlink_op, NULL },
	{ "unlink2", "create and unlink an own file in the shared directory", unlink2_setup,
	  unlink_op, NULL },
	{ "write1", "write 4 KB to an own file, from its start again after 1 MB",
	  own_file_setup, write_op, NULL },
	{ "writeseek1", "write 4 KB to an own file and lseek to 0", own_file_setup,
	  writeseek_op, NULL },
	{ "writeseek2", "write 4 KB to the shared file and lseek to 0", shared_file_setup,
	  writeseek_op, NULL },
	{ "writeseek3", "write 4 KB to the shared fd and lseek to 0", NULL, writeseek_op, NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};
