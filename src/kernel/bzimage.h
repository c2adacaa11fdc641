#ifndef PERFBOT_KERNEL_BZIMAGE_H
#define PERFBOT_KERNEL_BZIMAGE_H
/*
 * What a bzImage says about itself, without booting it: x86's boot
 * protocol (Documentation/x86/boot.rst) puts "HdrS" at offset 0x202 and,
 * since protocol 2.00, a pointer to the version string at 0x20e (plus
 * 0x200), the string `uname -v` and `file(1)` show:
 * "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP ...".
 * Its first word is the release (`uname -r`).
 */
#include <stddef.h>
#include "util/strbuf.h"

/* Append buf's version string to out.  0, or -1 when buf is no bzImage
 * (no "HdrS", or the pointer leads outside buf or to no string). */
int bzimage_version(const unsigned char *buf, size_t len, struct strbuf *out);
/* The same for the file at path; -1 after error() naming the file. */
int bzimage_read_version(const char *path, struct strbuf *out);

#endif
