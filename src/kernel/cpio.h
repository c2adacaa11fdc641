#ifndef PERFBOT_KERNEL_CPIO_H
#define PERFBOT_KERNEL_CPIO_H
/*
 * cpio "newc" archives (the SVR4 format with no CRC, magic "070701"): what
 * the kernel unpacks as an initramfs, and what busybox's `cpio -o -H newc`
 * writes, so perfbot uses it both ways: the initramfs it boots and the
 * run dir the guest sends back.
 *
 * An entry is a 110-byte header of ASCII hex fields (inode, mode, uid,
 * gid, nlink, mtime, size, device numbers, name size), the NUL-terminated
 * name padded to 4 bytes, then the data padded to 4 bytes; the archive
 * ends with an entry named "TRAILER!!!".  The writer sets uid, gid and
 * mtime to 0, so that the same files make the same bytes (the initramfs
 * is cached by its content).
 */
#include <stddef.h>
#include "util/fileio.h"
#include "util/strbuf.h"

struct cpio {
	struct strbuf *out;
	unsigned ino;
};

/* Start an archive appended to out. */
void cpio_init(struct cpio *c, struct strbuf *out);
/* One entry: mode carries the type (S_IFREG, S_IFDIR, S_IFLNK: data is
 * the link target) and the permissions.  name has no leading '/'. */
void cpio_add(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len);
/* A device node (S_IFCHR or S_IFBLK in mode): no root needed to make it,
 * the kernel does while unpacking. */
void cpio_add_dev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor);
/* The trailer. */
void cpio_finish(struct cpio *c);

struct cpio_entry {
	const char *name;          /* NUL-terminated, inside the buffer */
	unsigned mode;
	const char *data;          /* size bytes inside the buffer */
	size_t size;
};

/*
 * Call fn for each entry of buf[0..len) up to the trailer.  Returns 0,
 * fn's first non-zero result, or -1 with why set when the archive is
 * damaged ("bad magic at byte N", "truncated at byte N", "no trailer").
 */
int cpio_parse(const char *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *ctx),
	       void *ctx, struct strbuf *why);

/*
 * Write the regular files and directories of an archive under dir, a dir
 * held open (util/fileio.h: a run's dir, whose name another user may
 * point elsewhere mid-run), through its fd, refusing any name that is
 * absolute or has a ".." or empty component, and an archive of more than
 * CPIO_MAX_FILES entries (before writing any).  Other entry types are
 * skipped.  0, or -1 after error().
 */
int cpio_extract(const char *buf, size_t len, const struct held_dir *dir, const char *what);

/*
 * What a guest may send back (its results archive, gzipped): at most this
 * many bytes once inflated, and this many entries.  A hostile guest's
 * 1 GiB of zeros would otherwise be held in memory whole.
 */
#define CPIO_MAX_BYTES (256u << 20)
#define CPIO_MAX_FILES 10000
/*
 * cpio_extract of the archive in the file path (gunzipped when named
 * .gz), refused past max_bytes inflated ("'<path>' is larger than ...")
 * or past CPIO_MAX_FILES entries.  0, or -1 after error().
 */
int cpio_extract_file(const char *path, size_t max_bytes, const struct held_dir *dir,
		      const char *what);

#endif
