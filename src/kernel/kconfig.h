#ifndef PERFBOT_KERNEL_KCONFIG_H
#define PERFBOT_KERNEL_KCONFIG_H
/*
 * Kernel configs as `perfbot kernel build --config` names them:
 *
 *   tiny        `make tinyconfig` plus perfbot's fragment
 *               (src/kernel/tiny.config, embedded at build time as
 *               kernel_tiny_config): the smallest kernel that QEMU boots
 *               in seconds and perfbot's initramfs runs in
 *   small       `make tinyconfig` plus src/kernel/small.config (embedded as
 *               kernel_small_config): tiny's options plus what lkp's seed
 *               jobs look for in the guest: NUMA nodes from QEMU's -numa
 *               (ACPI SRAT, numa=fake=N too) with per-node vmstat and
 *               numastat, ext4, xfs and btrfs on brd or loop devices, perf
 *               with every kernel symbol (KALLSYMS_ALL), SysV IPC, AIO and
 *               io_uring; all built in (=y), no modules, no networking
 *   defconfig   `make defconfig` (x86_64_defconfig)
 *   FILE        a full .config (lkp's kconfigs are), completed with
 *               `make olddefconfig` for the commit being built
 *
 * Each has a name, which goes into the result path as lkp's <kconfig>
 * does ("x86_64-tiny", "x86_64-small", "x86_64-defconfig", "x86_64-rhel-8.3" for a file
 * x86_64-rhel-8.3 or rhel-8.3.config), and a key: a hash of what the
 * config is made from, so that a changed fragment or file never reuses a
 * kernel built from the old one.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/strbuf.h"

enum kconfig_kind { KCONFIG_TINY, KCONFIG_SMALL, KCONFIG_DEFCONFIG, KCONFIG_FILE };

struct kconfig {
	enum kconfig_kind kind;
	char *path;             /* KCONFIG_FILE: the file, absolute */
	struct strbuf text;     /* the fragment (tiny, small) or the file's text */
	char *name;             /* "x86_64-tiny": one safe path component */
	char key[17];           /* 16 hex digits of kind and text */
};

/* perfbot's fragment over tinyconfig (generated from src/kernel/tiny.config) */
extern const char kernel_tiny_config[];
/* and over tinyconfig too, for small (from src/kernel/small.config) */
extern const char kernel_small_config[];

/*
 * Fill kc from a --config argument ("tiny", "small", "defconfig" or a
 * file path).
 * 0, or -1 after error() (unreadable file, a name that is no safe path
 * component).  Release with kconfig_release, also after an error.
 */
int kconfig_init(struct kconfig *kc, const char *arg);
void kconfig_release(struct kconfig *kc);

/* Whether kc is a fragment over tinyconfig (tiny, small): text holds it. */
bool kconfig_is_fragment(const struct kconfig *kc);

/* Whether arg names a config perfbot knows (tiny, small, defconfig), not a file. */
bool kconfig_is_builtin_name(const char *arg);

/* "<name>-<8 hex digits of the key>": how caches name this config. */
void kconfig_id(const struct kconfig *kc, struct strbuf *sb);

/*
 * The lines of fragment (CONFIG_X=v or "# CONFIG_X is not set") that the
 * final dotconfig does not have as asked, appended to out as
 * "CONFIG_X=v (got: w)" lines, w being "not set" or "absent" where the
 * final config lacks the symbol.  Returns how many.  A symbol that an
 * older commit does not know yet shows here too.
 */
int kconfig_missing(const char *fragment, const char *dotconfig, struct strbuf *out);

/*
 * The compiler that built a kernel, named as lkp's result path names it,
 * from the kernel's final .config: CONFIG_CC_VERSION_TEXT, the first
 * line of `$(CC) --version` ("gcc (Debian 12.2.0-14) 12.2.0" and
 * "gcc-12 (Debian ...) 12.2.0" give "gcc-12", "Debian clang version
 * 16.0.6" gives "clang-16"), else, for a kernel older than that symbol,
 * CONFIG_CLANG_VERSION or CONFIG_GCC_VERSION (120200: "gcc-12").
 * Appends it to sb and returns 1; 0 when the config names no compiler.
 */
int kconfig_compiler(const char *dotconfig, struct strbuf *sb);

/* FNV-1a, 64 bits, continuing from h (start with KCONFIG_HASH_INIT). */
#define KCONFIG_HASH_INIT 0xcbf29ce484222325ULL
uint64_t kconfig_hash(uint64_t h, const void *data, size_t len);

#endif
