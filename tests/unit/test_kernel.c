/* Unit tests of src/kernel/: config names and cache keys, the bzImage
 * header, cpio archives, static-ELF checks, QEMU's command line, the
 * serial-log verdicts, the guest's /init, build-log reasons. */
#include "test_helpers.h"
#include "bisect/kernel.h"
#include "bisect/log.h"
#include "job/job.h"
#include "kernel/build.h"
#include "kernel/bzimage.h"
#include "kernel/cpio.h"
#include "kernel/guestfiles.h"
#include "kernel/initramfs.h"
#include "kernel/kconfig.h"
#include "kernel/qemu.h"
#include "kernel/serial.h"
#include "kernel/vm.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- kconfig ----------------------------------------------------------- */

static void test_kconfig_names_and_keys(void **state)
{
	struct kconfig tiny, def, file, file2;
	struct strbuf id = STRBUF_INIT, path = STRBUF_INIT;
	char *d = test_tmpdir("kernel");
	(void)state;
	assert_int_equal(kconfig_init(&tiny, "tiny"), 0);
	assert_string_equal(tiny.name, "x86_64-tiny");
	assert_int_equal(tiny.kind, KCONFIG_TINY);
	assert_string_equal(tiny.text.buf, kernel_tiny_config);
	assert_int_equal(strlen(tiny.key), 16);
	assert_int_equal(kconfig_init(&def, "defconfig"), 0);
	assert_string_equal(def.name, "x86_64-defconfig");
	assert_string_not_equal(def.key, tiny.key);
	kconfig_id(&tiny, &id);
	assert_int_equal(strncmp(id.buf, "x86_64-tiny-", 12), 0);
	assert_int_equal(strncmp(id.buf + 12, tiny.key, 8), 0);
	assert_int_equal(id.len, 20);
	/* a file: lkp's name from its basename, the key from its text */
	strbuf_addf(&path, "%s/rhel-8.3.config", d);
	assert_int_equal(write_file_atomic(path.buf, "CONFIG_A=y\n", 11), 0);
	assert_int_equal(kconfig_init(&file, path.buf), 0);
	assert_string_equal(file.name, "x86_64-rhel-8.3");
	assert_int_equal(write_file_atomic(path.buf, "CONFIG_A=n\n", 11), 0);
	assert_int_equal(kconfig_init(&file2, path.buf), 0);
	assert_string_not_equal(file.key, file2.key);
	kconfig_release(&file2);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/x86_64-rhel-9.0", d);
	assert_int_equal(write_file_atomic(path.buf, "CONFIG_A=n\n", 11), 0);
	assert_int_equal(kconfig_init(&file2, path.buf), 0);
	assert_string_equal(file2.name, "x86_64-rhel-9.0");
	/* the same text as another file name: same key, the name differs */
	assert_string_not_equal(file2.key, file.key);
	kconfig_release(&file2);
	/* a missing file, a name that is no path component */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/missing.config", d);
	struct stderr_capture cap0;
	capture_start(&cap0);
	assert_int_equal(kconfig_init(&file2, path.buf), -1);
	free(capture_end(&cap0));
	kconfig_release(&file2);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/a\tb.config", d);
	assert_int_equal(write_file_atomic(path.buf, "x", 1), 0);
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(kconfig_init(&file2, path.buf), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "not one path component (it contains a control character)"));
	free(msg);
	kconfig_release(&file2);
	kconfig_release(&tiny);
	kconfig_release(&def);
	kconfig_release(&file);
	strbuf_release(&id);
	strbuf_release(&path);
	test_rm_rf(d);
	free(d);
}

/*
 * small: its own name and key; a fragment over tinyconfig holding all of
 * tiny's options and the ones lkp's seed jobs need, none as a module.
 * Adding it kept tiny's key (its kind tag is still "tiny"): no rebuild
 * of the tiny kernels in anyone's cache.
 */
static void test_kconfig_small(void **state)
{
	static const char need[] =
		"CONFIG_NUMA=y\nCONFIG_ACPI=y\nCONFIG_X86_64_ACPI_NUMA=y\nCONFIG_ACPI_NUMA=y\n"
		"CONFIG_NUMA_EMU=y\nCONFIG_EXT4_FS=y\nCONFIG_XFS_FS=y\nCONFIG_BTRFS_FS=y\n"
		"CONFIG_TMPFS=y\nCONFIG_DEVTMPFS=y\nCONFIG_BLK_DEV_RAM=y\nCONFIG_BLK_DEV_LOOP=y\n"
		"CONFIG_PERF_EVENTS=y\nCONFIG_KALLSYMS=y\nCONFIG_KALLSYMS_ALL=y\n"
		"CONFIG_SERIAL_8250_CONSOLE=y\nCONFIG_SMP=y\nCONFIG_MULTIUSER=y\nCONFIG_PRINTK=y\n"
		"CONFIG_PROC_SYSCTL=y\nCONFIG_FUTEX=y\nCONFIG_EPOLL=y\nCONFIG_VM_EVENT_COUNTERS=y\n";
	struct kconfig tiny, small, def;
	struct strbuf id = STRBUF_INIT, out = STRBUF_INIT;
	char key[17];
	(void)state;
	assert_int_equal(kconfig_init(&small, "small"), 0);
	assert_int_equal(small.kind, KCONFIG_SMALL);
	assert_string_equal(small.name, "x86_64-small");
	assert_string_equal(small.text.buf, kernel_small_config);
	assert_null(small.path);
	assert_int_equal(kconfig_init(&tiny, "tiny"), 0);
	assert_int_equal(kconfig_init(&def, "defconfig"), 0);
	assert_string_not_equal(small.key, tiny.key);
	assert_string_not_equal(small.key, def.key);
	kconfig_id(&small, &id);
	assert_int_equal(strncmp(id.buf, "x86_64-small-", 13), 0);
	assert_int_equal(strncmp(id.buf + 13, small.key, 8), 0);
	/* tiny's key as before small existed */
	uint64_t h = kconfig_hash(KCONFIG_HASH_INIT, "tiny", 5);
	h = kconfig_hash(h, kernel_tiny_config, strlen(kernel_tiny_config));
	snprintf(key, sizeof(key), "%016llx", (unsigned long long)h);
	assert_string_equal(tiny.key, key);
	/* fragments over tinyconfig, and the names that are no file */
	assert_true(kconfig_is_fragment(&tiny));
	assert_true(kconfig_is_fragment(&small));
	assert_false(kconfig_is_fragment(&def));
	assert_true(kconfig_is_builtin_name("tiny"));
	assert_true(kconfig_is_builtin_name("small"));
	assert_true(kconfig_is_builtin_name("defconfig"));
	assert_false(kconfig_is_builtin_name("small.config"));
	assert_false(kconfig_is_builtin_name("x86_64-small"));
	assert_false(kconfig_is_builtin_name(""));
	/* small is tiny and more: every tiny line, and what the jobs need */
	assert_int_equal(kconfig_missing(kernel_tiny_config, kernel_small_config, &out), 0);
	assert_int_equal(kconfig_missing(need, kernel_small_config, &out), 0);
	assert_string_equal(out.buf, "");
	/* built in: no module in the guest */
	assert_null(strstr(kernel_small_config, "=m\n"));
	assert_null(strstr(kernel_small_config, "CONFIG_MODULES=y"));
	kconfig_release(&small);
	kconfig_release(&tiny);
	kconfig_release(&def);
	strbuf_release(&id);
	strbuf_release(&out);
}

static void test_kconfig_hash(void **state)
{
	(void)state;
	/* FNV-1a 64's published values */
	assert_true(kconfig_hash(KCONFIG_HASH_INIT, "", 0) == 0xcbf29ce484222325ULL);
	assert_true(kconfig_hash(KCONFIG_HASH_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(kconfig_hash(KCONFIG_HASH_INIT, "foobar", 6) == 0x85944171f73967e8ULL);
}

static void test_kconfig_missing(void **state)
{
	const char *frag = "# comment\nCONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n"
			   "# CONFIG_D is not set\nCONFIG_E=\"x\"\nCONFIG_F=y";
	const char *dot = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\nCONFIG_E=\"x\"\n";
	struct strbuf out = STRBUF_INIT;
	(void)state;
	assert_int_equal(kconfig_missing(frag, dot, &out), 3);
	assert_string_equal(out.buf, "CONFIG_B=y (got: not set)\n"
				     "# CONFIG_C is not set (got: y)\n"
				     "CONFIG_F=y (got: absent)\n");
	strbuf_reset(&out);
	assert_int_equal(kconfig_missing(frag, "CONFIG_A=y\nCONFIG_B=y\nCONFIG_E=\"x\"\nCONFIG_F=y\n", &out), 0);
	assert_string_equal(out.buf, "");
	strbuf_release(&out);
}

/*
 * Options that make the build read files into the image: refused, naming
 * the file, line and option, when the value leaves the kernel tree; lkp's
 * defaults (a key the build makes in certs/, empty lists) pass.
 */
/* one config's compiler, "" when it names none */
static void check_compiler(const char *dotconfig, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(kconfig_compiler(dotconfig, &sb), *want != 0);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_kconfig_compiler(void **state)
{
	(void)state;
	/* what the kernel cache's small builds and Debian's kernel say */
	check_compiler("CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14+deb12u1) 12.2.0\"\n"
		       "CONFIG_CC_IS_GCC=y\nCONFIG_GCC_VERSION=120200\n", "gcc-12");
	check_compiler("CONFIG_X=y\nCONFIG_CC_VERSION_TEXT=\"gcc-12 (Debian 12.2.0-14) 12.2.0\"\n", "gcc-12");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-4ubuntu3) 13.2.0\"\n",
		       "gcc-13");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"gcc (GCC) 9.4.0\"", "gcc-9");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"Debian clang version 16.0.6 (15)\"\n"
		       "CONFIG_CC_IS_CLANG=y\nCONFIG_CLANG_VERSION=160006\n", "clang-16");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"clang version 18.1.8 (Fedora 18.1.8-1.fc40)\"\n", "clang-18");
	/* the text first: the numbers are only a kernel's before 5.8 */
	check_compiler("CONFIG_GCC_VERSION=110000\nCONFIG_CC_VERSION_TEXT=\"gcc (GCC) 12.1.0\"\n", "gcc-12");
	check_compiler("CONFIG_GCC_VERSION=80300\n", "gcc-8");
	check_compiler("CONFIG_GCC_VERSION=0\nCONFIG_CLANG_VERSION=110001\n", "clang-11");
	/* odd or missing texts */
	check_compiler("CONFIG_CC_VERSION_TEXT=\"icx 2024.0\"\nCONFIG_GCC_VERSION=0\n", "");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"gcc (GCC) unknown\"\n", "");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"clang version x\"\nCONFIG_GCC_VERSION=120200\n", "gcc-12");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"\"\n", "");
	check_compiler("CONFIG_CC_VERSION_TEXT=\"\n", "");
	check_compiler("CONFIG_CC_VERSION_TEXT=gcc\n", "");
	check_compiler("# CONFIG_CC_VERSION_TEXT is not set\n", "");
	check_compiler("CONFIG_64BIT=y\n", "");
	check_compiler("", "");
}

static void test_kconfig_host_files(void **state)
{
	static const struct { const char *line, *why; } cases[] = {
		{ "CONFIG_INITRAMFS_SOURCE=\"/etc/shadow\"", "an absolute path" },
		{ "CONFIG_INITRAMFS_SOURCE=\"usr/list /root\"", "an absolute path" },
		{ "CONFIG_MODULE_SIG_KEY=\"../../home/u/.ssh/key.pem\"", "a path with '..'" },
		{ "CONFIG_MODULE_SIG_KEY=\"pkcs11:token=x\"", "a path the shell or the build expands" },
		{ "CONFIG_SYSTEM_TRUSTED_KEYS=\"~/keys.pem\"", "a path the shell or the build expands" },
		{ "CONFIG_SYSTEM_REVOCATION_KEYS=\"/k.pem\"", "an absolute path" },
		{ "CONFIG_EXTRA_FIRMWARE=\"a.bin\"", "firmware from the host's /lib/firmware" },
		{ "CONFIG_EXTRA_FIRMWARE_DIR=\"/lib/firmware\"", "an absolute path" },
		{ "CONFIG_UNUSED_KSYMS_WHITELIST=\"/w\"", "an absolute path" },
		{ "CONFIG_BUILTIN_DTB_SOURCE=\"/d.dts\"", "an absolute path" },
		{ "CONFIG_INITRAMFS_SOURCE=\"$(HOME)/x\"", "a path the shell or the build expands" },
	};
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT, want = STRBUF_INIT;
	struct stderr_capture cap;
	struct kconfig kc;
	char *d = test_tmpdir("kernel"), *msg;
	(void)state;

	strbuf_addf(&p, "%s/x86_64-c.config", d);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		strbuf_reset(&text);
		strbuf_addf(&text, "CONFIG_X=y\n%s\n", cases[i].line);
		assert_int_equal(write_file_atomic(p.buf, text.buf, text.len), 0);
		capture_start(&cap);
		assert_int_equal(kconfig_init(&kc, p.buf), -1);
		msg = capture_end(&cap);
		kconfig_release(&kc);
		strbuf_reset(&want);
		strbuf_addf(&want, "perfbot: %s:2: %.*s names a file outside the kernel tree (%s", p.buf,
			    (int)strcspn(cases[i].line, "="), cases[i].line, cases[i].why);
		if (strncmp(msg, want.buf, want.len) || strchr(msg, '\n') != msg + strlen(msg) - 1)
			fail_msg("case %zu: '%s'", i, msg);
		free(msg);
	}
	strbuf_reset(&text);
	strbuf_addstr(&text, "CONFIG_MODULE_SIG_KEY=\"certs/signing_key.pem\"\nCONFIG_SYSTEM_TRUSTED_KEYS=\"\"\n"
		      "CONFIG_EXTRA_FIRMWARE=\"\"\n# CONFIG_EXTRA_FIRMWARE is not set\n"
		      "CONFIG_INITRAMFS_SOURCE=\"\"\nCONFIG_CMDLINE=\"root=/dev/sda\"\n");
	assert_int_equal(write_file_atomic(p.buf, text.buf, text.len), 0);
	assert_int_equal(kconfig_init(&kc, p.buf), 0);
	kconfig_release(&kc);
	strbuf_release(&p);
	strbuf_release(&text);
	strbuf_release(&want);
	test_rm_rf(d);
	free(d);
}

/* ---- bzImage and ELF ------------------------------------------------------- */

static void make_bzimage(unsigned char *buf, size_t len, const char *version)
{
	memset(buf, 0, len);
	memcpy(buf + 0x202, "HdrS", 4);
	buf[0x20e] = 0x00;
	buf[0x20f] = 0x02;     /* the string at 0x200 + 0x200 */
	strcpy((char *)buf + 0x400, version);
}

static void test_bzimage_version(void **state)
{
	unsigned char buf[2048];
	struct strbuf v = STRBUF_INIT;
	(void)state;
	make_bzimage(buf, sizeof(buf), "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	assert_int_equal(bzimage_version(buf, sizeof(buf), &v), 0);
	assert_string_equal(v.buf, "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	strbuf_reset(&v);
	/* too short, no magic, a pointer past the end, no string there */
	assert_int_equal(bzimage_version(buf, 0x20f, &v), -1);
	assert_int_equal(bzimage_version(buf, 0x405, &v), -1);
	buf[0x202] = 'X';
	assert_int_equal(bzimage_version(buf, sizeof(buf), &v), -1);
	make_bzimage(buf, sizeof(buf), "6.1");
	buf[0x20f] = 0x10;
	assert_int_equal(bzimage_version(buf, sizeof(buf), &v), -1);
	make_bzimage(buf, sizeof(buf), "");
	assert_int_equal(bzimage_version(buf, sizeof(buf), &v), -1);
	make_bzimage(buf, sizeof(buf), "6.1\x01");
	assert_int_equal(bzimage_version(buf, sizeof(buf), &v), -1);
	assert_int_equal(v.len, 0);
	strbuf_release(&v);
}

/* Write dir/rel (its parent must exist); p is left naming it. */
static void put_file(struct strbuf *p, const char *dir, const char *rel,
		     const void *data, size_t len)
{
	strbuf_reset(p);
	strbuf_addf(p, "%s/%s", dir, rel);
	assert_int_equal(write_file_atomic(p->buf, data, len), 0);
}

static void test_kernel_image_load(void **state)
{
	unsigned char buf[2048];
	char *d = test_tmpdir("kernel");
	struct strbuf p = STRBUF_INIT;
	struct kernel_image img;
	(void)state;
	make_bzimage(buf, sizeof(buf), "6.1.192 (perfbot@perfbot) #1 SMP");
	strbuf_addf(&p, "%s/bzImage", d);
	assert_int_equal(write_file_atomic(p.buf, buf, sizeof(buf)), 0);
	/* a foreign bzImage: its release is its commit */
	assert_int_equal(kernel_image_load(p.buf, &img), 0);
	assert_string_equal(img.release, "6.1.192");
	assert_string_equal(img.commit, "6.1.192");
	assert_null(img.kconfig);
	assert_null(img.compiler);
	kernel_image_release(&img);
	/* a distribution's /boot: config-R beside vmlinuz-R names its compiler */
	const char *clang = "CONFIG_CC_VERSION_TEXT=\"Debian clang version 16.0.6 (15)\"\n";
	const char *gcc = "CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n";
	put_file(&p, d, "config-6.1.192", clang, strlen(clang));
	put_file(&p, d, "vmlinuz-6.1.192", buf, sizeof(buf));
	assert_int_equal(kernel_image_load(p.buf, &img), 0);
	assert_string_equal(img.compiler, "clang-16");
	kernel_image_release(&img);
	/* a build tree: its .config */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/obj/arch/x86/boot", d);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	put_file(&p, d, "obj/.config", gcc, strlen(gcc));
	put_file(&p, d, "obj/arch/x86/boot/bzImage", buf, sizeof(buf));
	assert_int_equal(kernel_image_load(p.buf, &img), 0);
	assert_string_equal(img.compiler, "gcc-12");
	kernel_image_release(&img);
	/* a plain bzImage is not the cache's: config-R beside it is no
	 * bzImage's config but a vmlinuz-R's */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/bzImage", d);
	assert_int_equal(kernel_image_load(p.buf, &img), 0);
	assert_null(img.compiler);
	kernel_image_release(&img);
	/* one of the cache: its info file names commit and config */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/info", d);
	const char *info = "commit: abc123\nkconfig: x86_64-tiny\nbuild_seconds: 12.5\n";
	assert_int_equal(write_file_atomic(p.buf, info, strlen(info)), 0);
	assert_int_equal(kernel_image_load(d, &img), 0);
	assert_string_equal(img.commit, "abc123");
	assert_string_equal(img.kconfig, "x86_64-tiny");
	assert_true(img.build_seconds == 12.5);
	assert_non_null(strstr(img.bzimage, "/bzImage"));
	assert_null(img.compiler);      /* no config in the dir yet */
	kernel_image_release(&img);
	/* the cache's image dir keeps the build's final .config as "config" */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/config", d);
	assert_int_equal(write_file_atomic(p.buf, gcc, strlen(gcc)), 0);
	assert_int_equal(kernel_image_load(d, &img), 0);
	assert_string_equal(img.compiler, "gcc-12");
	kernel_image_release(&img);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/info", d);
	/* not a kernel, no file */
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(kernel_image_load(p.buf, &img), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "is not a bzImage"));
	free(msg);
	kernel_image_release(&img);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/missing", d);
	capture_start(&cap);
	assert_int_equal(kernel_image_load(p.buf, &img), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "No such file"));
	free(msg);
	kernel_image_release(&img);
	strbuf_release(&p);
	test_rm_rf(d);
	free(d);
}

static void test_elf_is_static(void **state)
{
	unsigned char buf[512];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(*eh));
	(void)state;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = ELFCLASS64;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[1].p_type = PT_NOTE;
	assert_int_equal(elf_is_static(buf, sizeof(buf)), 1);
	ph[1].p_type = PT_INTERP;
	assert_int_equal(elf_is_static(buf, sizeof(buf)), 0);
	/* headers past the end, not ELF, a 32-bit one */
	assert_int_equal(elf_is_static(buf, sizeof(*eh) + sizeof(Elf64_Phdr)), -1);
	buf[EI_CLASS] = ELFCLASS32;
	assert_int_equal(elf_is_static(buf, sizeof(buf)), -1);
	assert_int_equal(elf_is_static((const unsigned char *)"#!/bin/sh\n", 10), -1);
}

/* ---- cpio ------------------------------------------------------------------- */

struct seen {
	struct strbuf names;
};

static int collect(const struct cpio_entry *e, void *ctx)
{
	struct seen *s = ctx;
	strbuf_addf(&s->names, "%s %o %zu:%.*s\n", e->name, e->mode, e->size, (int)e->size, e->data);
	return 0;
}

static void test_cpio_round_trip(void **state)
{
	struct strbuf ar = STRBUF_INIT, why = STRBUF_INIT;
	struct seen s = { STRBUF_INIT };
	struct cpio c;
	(void)state;
	cpio_init(&c, &ar);
	cpio_add(&c, "bin", S_IFDIR | 0755, NULL, 0);
	cpio_add(&c, "bin/x", S_IFREG | 0755, "abcde", 5);
	cpio_add_dev(&c, "dev/console", S_IFCHR | 0600, 5, 1);
	cpio_add(&c, "empty", S_IFREG | 0644, "", 0);
	cpio_finish(&c);
	assert_int_equal(ar.len % 4, 0);
	assert_int_equal(memcmp(ar.buf, "070701", 6), 0);
	assert_non_null(memmem(ar.buf, ar.len, "TRAILER!!!", 10));
	assert_int_equal(cpio_parse(ar.buf, ar.len, collect, &s, &why), 0);
	assert_string_equal(s.names.buf, "bin 40755 0:\nbin/x 100755 5:abcde\ndev/console 20600 0:\nempty 100644 0:\n");
	/* the same files make the same bytes (the initramfs cache) */
	struct strbuf ar2 = STRBUF_INIT;
	cpio_init(&c, &ar2);
	cpio_add(&c, "bin", S_IFDIR | 0755, NULL, 0);
	cpio_add(&c, "bin/x", S_IFREG | 0755, "abcde", 5);
	cpio_add_dev(&c, "dev/console", S_IFCHR | 0600, 5, 1);
	cpio_add(&c, "empty", S_IFREG | 0644, "", 0);
	cpio_finish(&c);
	assert_int_equal(ar.len, ar2.len);
	assert_int_equal(memcmp(ar.buf, ar2.buf, ar.len), 0);
	/* damage: cut anywhere, a bad magic, no trailer */
	for (size_t cut = 1; cut < ar.len - 1; cut += 7) {
		strbuf_reset(&why);
		strbuf_reset(&s.names);
		assert_int_equal(cpio_parse(ar.buf, cut, collect, &s, &why), -1);
		assert_true(why.len > 0);
	}
	strbuf_reset(&why);
	ar.buf[0] = 'X';
	assert_int_equal(cpio_parse(ar.buf, ar.len, collect, &s, &why), -1);
	assert_string_equal(why.buf, "bad magic at byte 0");
	strbuf_reset(&why);
	assert_int_equal(cpio_parse(ar2.buf, ar2.len - 124, collect, &s, &why), -1);
	strbuf_release(&ar);
	strbuf_release(&ar2);
	strbuf_release(&why);
	strbuf_release(&s.names);
}

static void test_cpio_extract(void **state)
{
	struct strbuf ar = STRBUF_INIT, p = STRBUF_INIT, got = STRBUF_INIT;
	struct cpio c;
	char *d = test_tmpdir("kernel");
	struct held_dir hd;
	(void)state;
	assert_int_equal(held_dir_open(&hd, d), 0);
	cpio_init(&c, &ar);
	cpio_add(&c, ".", S_IFDIR | 0755, NULL, 0);
	cpio_add(&c, "./stats.json", S_IFREG | 0644, "{}\n", 3);
	cpio_add(&c, "./sub", S_IFDIR | 0755, NULL, 0);
	cpio_add(&c, "./sub/f", S_IFREG | 0644, "x", 1);
	cpio_add(&c, "./link", S_IFLNK | 0777, "/etc/passwd", 11);
	cpio_finish(&c);
	assert_int_equal(cpio_extract(ar.buf, ar.len, &hd, "test"), 0);
	strbuf_addf(&p, "%s/stats.json", d);
	assert_int_equal(read_file(&got, p.buf), 0);
	assert_string_equal(got.buf, "{}\n");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/sub/f", d);
	assert_true(file_exists(p.buf));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/link", d);
	assert_false(file_exists(p.buf));
	/* names that would leave the dir */
	static const char *const bad[] = { "../x", "/etc/x", "a/../../x", "a//b", "sub/", "a/\n", NULL };
	for (int i = 0; bad[i]; i++) {
		struct stderr_capture cap;
		strbuf_reset(&ar);
		cpio_init(&c, &ar);
		cpio_add(&c, bad[i], S_IFREG | 0644, "x", 1);
		cpio_finish(&c);
		capture_start(&cap);
		assert_int_equal(cpio_extract(ar.buf, ar.len, &hd, "test"), -1);
		char *msg = capture_end(&cap);
		assert_non_null(strstr(msg, "refusing the archive member"));
		free(msg);
	}
	/* a dir entry where a file is */
	{
		struct stderr_capture cap;
		strbuf_reset(&ar);
		cpio_init(&c, &ar);
		cpio_add(&c, "stats.json/x", S_IFDIR | 0755, NULL, 0);
		cpio_finish(&c);
		capture_start(&cap);
		assert_int_equal(cpio_extract(ar.buf, ar.len, &hd, "test"), -1);
		char *msg = capture_end(&cap);
		assert_non_null(strstr(msg, "stats.json': it exists and is not a directory"));
		free(msg);
	}
	held_dir_close(&hd);
	strbuf_release(&ar);
	strbuf_release(&p);
	strbuf_release(&got);
	test_rm_rf(d);
	free(d);
}

/*
 * A guest's results archive is bounded: at most CPIO_MAX_FILES entries
 * (refused before anything is written) and CPIO_MAX_BYTES once inflated
 * (1 GiB of zeros would be held in memory whole).
 */
static void test_cpio_limits(void **state)
{
	struct strbuf ar = STRBUF_INIT, p = STRBUF_INIT, name = STRBUF_INIT;
	struct stderr_capture cap;
	char *d = test_tmpdir("kernel"), *msg;
	char zeros[65536] = { 0 };
	struct cpio c;
	struct held_dir hd;
	gzFile gz;
	(void)state;

	assert_int_equal(held_dir_open(&hd, d), 0);

	for (int n = CPIO_MAX_FILES; n <= CPIO_MAX_FILES + 1; n++) {
		strbuf_reset(&ar);
		cpio_init(&c, &ar);
		for (int i = 0; i < n; i++) {
			strbuf_reset(&name);
			strbuf_addf(&name, "f%d", i);
			cpio_add(&c, name.buf, S_IFLNK | 0777, "x", 1);   /* not written */
		}
		cpio_finish(&c);
		capture_start(&cap);
		assert_int_equal(cpio_extract(ar.buf, ar.len, &hd, "results"), n > CPIO_MAX_FILES ? -1 : 0);
		msg = capture_end(&cap);
		assert_string_equal(msg, n > CPIO_MAX_FILES ?
				    "perfbot: results: more than 10000 files in the archive (the limit)\n" : "");
		free(msg);
	}
	/* CPIO_MAX_BYTES + 1 inflated bytes from a 256 KiB file */
	strbuf_addf(&p, "%s/r.cpio.gz", d);
	assert_non_null(gz = gzopen(p.buf, "wb1"));
	for (size_t left = CPIO_MAX_BYTES + 1; left;) {
		size_t n = left < sizeof(zeros) ? left : sizeof(zeros);
		assert_int_equal(gzwrite(gz, zeros, (unsigned)n), (int)n);
		left -= n;
	}
	assert_int_equal(gzclose(gz), Z_OK);
	capture_start(&cap);
	assert_int_equal(cpio_extract_file(p.buf, CPIO_MAX_BYTES, &hd, "results"), -1);
	msg = capture_end(&cap);
	if (!strstr(msg, "r.cpio.gz' is larger than 256 MiB"))
		fail_msg("'%s'", msg);
	free(msg);
	held_dir_close(&hd);
	strbuf_release(&ar);
	strbuf_release(&p);
	strbuf_release(&name);
	test_rm_rf(d);
	free(d);
}

/*
 * The guest's results are unpacked through the run dir's fd: a run dir
 * renamed away by another user of the result root and replaced by a link
 * (here to a dir standing for one of root's) still gets every file, and
 * the link's target none.
 */
static void test_cpio_extract_moved(void **state)
{
	struct strbuf ar = STRBUF_INIT, p = STRBUF_INIT, got = STRBUF_INIT;
	struct moved_dir m;
	struct cpio c;
	(void)state;

	test_dir_moved(&m, "kernel");
	cpio_init(&c, &ar);
	cpio_add(&c, "./stats.json", S_IFREG | 0644, "{}\n", 3);
	cpio_add(&c, "./sub", S_IFDIR | 0755, NULL, 0);
	cpio_add(&c, "./sub/f", S_IFREG | 0644, "x", 1);
	cpio_finish(&c);
	assert_int_equal(cpio_extract(ar.buf, ar.len, &m.hd, "results"), 0);
	path_join(&p, m.moved.buf, "stats.json");
	assert_int_equal(read_file(&got, p.buf), 0);
	assert_string_equal(got.buf, "{}\n");
	strbuf_reset(&p);
	path_join(&p, m.moved.buf, "sub/f");
	assert_true(file_exists(p.buf));
	assert_int_equal(test_dir_size(m.victim.buf), 0);
	test_dir_moved_release(&m);
	strbuf_release(&ar);
	strbuf_release(&p);
	strbuf_release(&got);
}

/* ---- QEMU's command line -------------------------------------------------------- */

static void test_qemu_argv(void **state)
{
	struct qemu_vm vm = {
		.qemu = "qemu-system-x86_64", .kernel = "/k/bzImage", .initrd = "/c/init,rd.cpio",
		.append = "rdinit=/x", .accel = QEMU_ACCEL_TCG, .cpus = 2, .mem_mb = 1024,
		.tsc_khz = 2445426, .epoch = 1767225600, .console_path = "/r/dmesg",
		.results_path = "/r/a,b",
	};
	struct argv_list a = ARGV_LIST_INIT;
	struct strbuf sh = STRBUF_INIT;
	(void)state;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_string_equal(sh.buf,
		"qemu-system-x86_64 -nodefaults -no-user-config -display none -monitor none -nic none "
		"-no-reboot -accel tcg -cpu max -smp 2 -m 1024 -kernel /k/bzImage -initrd /c/init,rd.cpio "
		"-append 'console=ttyS0,115200 panic=-1 oops=panic tsc_early_khz=2445426 tsc=reliable "
		"perfbot.epoch=1767225600 rdinit=/x' "
		"-chardev file,id=console,path=/r/dmesg -serial chardev:console "
		"-chardev file,id=results,path=/r/a,,b -serial chardev:results");
	argv_list_release(&a);
	strbuf_reset(&sh);
	/* KVM: the host's CPU; no TSC rate, epoch or extra line; a probe */
	vm.accel = QEMU_ACCEL_KVM;
	vm.tsc_khz = 0;
	vm.epoch = 0;
	vm.append = NULL;
	vm.probe = true;
	vm.cpus = 0;
	vm.mem_mb = 0;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_non_null(strstr(sh.buf, " -accel kvm -cpu host -smp 1 -m 1024 "));
	assert_non_null(strstr(sh.buf, " -append 'console=ttyS0,115200 panic=-1 oops=panic perfbot.probe=1' "));
	argv_list_release(&a);
	/* icount: TCG counting instructions, its TSC at 1 GHz of virtual time */
	strbuf_reset(&sh);
	vm.accel = QEMU_ACCEL_ICOUNT;
	vm.tsc_khz = 2445426;
	vm.probe = false;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_non_null(strstr(sh.buf, " -accel tcg -icount shift=5,sleep=on -cpu max "));
	assert_non_null(strstr(sh.buf, "'console=ttyS0,115200 panic=-1 oops=panic tsc_early_khz=1000000 tsc=reliable'"));
	argv_list_release(&a);
	/* a job's RAM disks: sized at boot for a built-in brd, before the
	 * job's own line */
	strbuf_reset(&sh);
	vm.brd_nr = 2;
	vm.brd_kib = 524288;
	vm.append = "quiet";
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_non_null(strstr(sh.buf, " tsc=reliable brd.rd_nr=2 brd.rd_size=524288 quiet'"));
	argv_list_release(&a);
	strbuf_release(&sh);
}

static void test_qemu_numa(void **state)
{
	struct qemu_vm vm = {
		.qemu = "q", .kernel = "k", .initrd = "i", .accel = QEMU_ACCEL_TCG, .cpus = 2,
		.mem_mb = 1025, .numa = 2, .console_path = "c", .results_path = "r",
	};
	struct argv_list a = ARGV_LIST_INIT;
	struct strbuf sh = STRBUF_INIT;
	(void)state;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	/* node 0 takes the MiB that does not divide; one CPU each */
	assert_non_null(strstr(sh.buf, " -m 1025 -object memory-backend-ram,id=node0,size=513M "
				       "-numa node,nodeid=0,memdev=node0,cpus=0 "
				       "-object memory-backend-ram,id=node1,size=512M "
				       "-numa node,nodeid=1,memdev=node1,cpus=1 -kernel k "));
	argv_list_release(&a);
	strbuf_reset(&sh);
	/* 4 nodes, 2 CPUs: nodes 1 and 3 get none, node 0 one; 4 CPUs, 2
	 * nodes: ranges; 1 CPU, 2 nodes: node 0's */
	vm.numa = 4;
	vm.mem_mb = 1024;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_non_null(strstr(sh.buf, "size=256M -numa node,nodeid=0,memdev=node0,cpus=0 -object"));
	assert_non_null(strstr(sh.buf, "-numa node,nodeid=1,memdev=node1 -object"));
	assert_non_null(strstr(sh.buf, "-numa node,nodeid=2,memdev=node2,cpus=1 -object"));
	assert_non_null(strstr(sh.buf, "-numa node,nodeid=3,memdev=node3 -kernel"));
	argv_list_release(&a);
	strbuf_reset(&sh);
	vm.numa = 2;
	vm.cpus = 1;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_non_null(strstr(sh.buf, "-numa node,nodeid=0,memdev=node0,cpus=0 -object"));
	assert_non_null(strstr(sh.buf, "-numa node,nodeid=1,memdev=node1 -kernel"));
	argv_list_release(&a);
	strbuf_reset(&sh);
	vm.numa = 2;
	vm.cpus = 4;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_non_null(strstr(sh.buf, "nodeid=0,memdev=node0,cpus=0-1 "));
	assert_non_null(strstr(sh.buf, "nodeid=1,memdev=node1,cpus=2-3 "));
	argv_list_release(&a);
	strbuf_reset(&sh);
	/* one node is no NUMA at all */
	vm.numa = 1;
	qemu_argv(&vm, &a);
	argv_list_to_shell(&a, &sh);
	assert_null(strstr(sh.buf, "-numa"));
	assert_null(strstr(sh.buf, "memory-backend"));
	argv_list_release(&a);
	strbuf_release(&sh);
}

static void test_vm_opt(void **state)
{
	struct kernel_vm_opts o;
	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(kernel_vm_opt(&o, "numa", "4"), 0);
	assert_int_equal(o.numa, 4);
	assert_int_equal(kernel_vm_opt(&o, "numa", "16"), 0);
	assert_int_equal(kernel_vm_opt(&o, "numa", "17"), -1);
	assert_int_equal(kernel_vm_opt(&o, "numa", "0"), -1);
	assert_int_equal(kernel_vm_opt(&o, "numa", "2x"), -1);
	assert_int_equal(kernel_vm_opt(&o, "numa", ""), -1);
	assert_int_equal(kernel_vm_opt(&o, "cpus", "64"), 0);
	assert_int_equal(o.cpus, 64);
	assert_int_equal(kernel_vm_opt(&o, "cpus", "65"), -1);
	assert_int_equal(kernel_vm_opt(&o, "mem", "2G"), 0);
	assert_int_equal(o.mem_mb, 2048);
	assert_int_equal(kernel_vm_opt(&o, "mem", "64M"), 0);
	assert_int_equal(o.mem_mb, 64);
	assert_int_equal(kernel_vm_opt(&o, "mem", "63M"), -1);
	assert_int_equal(kernel_vm_opt(&o, "mem", "1024G"), 0);
	assert_int_equal(kernel_vm_opt(&o, "mem", "1025G"), -1);
	assert_int_equal(kernel_vm_opt(&o, "mem", "2T"), -1);
	assert_int_equal(kernel_vm_opt(&o, "boot-timeout", "30"), 0);
	assert_true(o.boot_timeout == 30);
	assert_int_equal(kernel_vm_opt(&o, "boot-timeout", "0"), -1);
	assert_int_equal(kernel_vm_opt(&o, "boot-timeout", "86401"), -1);
	/* a duration, as a job's timeout: a unit, none of strtod's forms */
	assert_int_equal(kernel_vm_opt(&o, "boot-timeout", "5m"), 0);
	assert_true(o.boot_timeout == 300);
	assert_int_equal(kernel_vm_opt(&o, "boot-timeout", "1e2"), -1);
	assert_int_equal(kernel_vm_opt(&o, "boot-timeout", "30 s"), -1);
	assert_int_equal(kernel_vm_opt(&o, "accel", "icount"), 0);
	assert_int_equal(o.accel, QEMU_ACCEL_ICOUNT);
	assert_int_equal(kernel_vm_opt(&o, "accel", "fast"), -1);
	assert_int_equal(kernel_vm_opt(&o, "swap", "1"), -1);
}

/* kernel_vm_opts_args writes what kernel_vm_opt reads back, and only
 * the options set: a bisect's log and a report's commands depend on it */
static void test_vm_opts_args(void **state)
{
	struct kernel_vm_opts o, back;
	struct strbuf sb = STRBUF_INIT;
	char **w;
	int n;
	(void)state;
	memset(&o, 0, sizeof(o));
	kernel_vm_opts_args(&o, &sb);
	assert_string_equal(sb.buf, "");
	o.accel = QEMU_ACCEL_ICOUNT;
	o.boot_timeout = 0.25;
	o.cpus = 3;
	o.mem_mb = 1536;
	o.numa = 2;
	kernel_vm_opts_args(&o, &sb);
	assert_string_equal(sb.buf, " --accel icount --boot-timeout 0.25 --cpus 3 --mem 1536M --numa 2");
	strbuf_reset(&sb);
	o.mem_mb = 2048;
	o.numa = 1;
	o.accel = QEMU_ACCEL_TCG;
	kernel_vm_opts_args(&o, &sb);
	assert_string_equal(sb.buf, " --accel tcg --boot-timeout 0.25 --cpus 3 --mem 2G --numa 1");
	/* read back word by word */
	memset(&back, 0, sizeof(back));
	assert_int_equal(bisect_split_words(sb.buf, &w, &n), 0);
	assert_int_equal(n, 10);
	for (int i = 0; i + 1 < n; i += 2)
		assert_int_equal(kernel_vm_opt(&back, w[i] + 2, w[i + 1]), 0);
	bisect_free_words(w, n);
	assert_int_equal(back.accel, QEMU_ACCEL_TCG);
	assert_true(back.boot_timeout == 0.25);
	assert_int_equal(back.cpus, 3);
	assert_int_equal(back.mem_mb, 2048);
	assert_int_equal(back.numa, 1);
	strbuf_release(&sb);
}

/* A kernel bisect's log keeps its VM, so that --resume boots the same */
/* a run dir whose job.yaml has the line kernel (none when NULL) */
static void write_run(const char *dir, const char *kernel)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	assert_int_equal(mkdir_p(dir, 0755), 0);
	strbuf_addf(&p, "%s/job.yaml", dir);
	strbuf_addstr(&text, "---\ntestcase: mytest\n");
	if (kernel)
		strbuf_addf(&text, "kernel: %s\n", kernel);
	strbuf_addstr(&text, "compiler: gcc-12\n");
	assert_int_equal(write_file_atomic(p.buf, text.buf, text.len), 0);
	strbuf_release(&p);
	strbuf_release(&text);
}

static void test_bisect_kernel_run_is_ours(void **state)
{
	char *d = test_tmpdir("kernel");
	struct bisect_kernel k;
	struct strbuf run = STRBUF_INIT, other = STRBUF_INIT;
	const char *sha = "0d34e68345d88671f80238c0cf665995dc9324eb";
	(void)state;
	memset(&k, 0, sizeof(k));
	strbuf_addf(&run, "%s/0", d);
	write_run(run.buf, "\"/var/cache/perfbot/kernel/images/0d34e68345d88671f80238c0cf665995dc9324eb-x86_64-small-a9451ce0/bzImage\"");
	/* before bisect_kernel_init: no build to compare with */
	assert_false(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	k.config_id = strdup("x86_64-small-a9451ce0");
	assert_non_null(k.config_id);
	strbuf_reset(&other);
	assert_true(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	assert_string_equal(other.buf, "");
	/* another cache dir, the same build; unquoted */
	write_run(run.buf, "/root/.cache/perfbot/kernel/images/0d34e68345d88671f80238c0cf665995dc9324eb-x86_64-small-a9451ce0/bzImage");
	assert_true(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	/* the config's name, another fragment; another commit's image */
	write_run(run.buf, "/c/images/0d34e68345d88671f80238c0cf665995dc9324eb-x86_64-small-0badf00d/bzImage");
	assert_false(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	assert_string_equal(other.buf, "0d34e68345d88671f80238c0cf665995dc9324eb-x86_64-small-0badf00d");
	write_run(run.buf, "/c/images/6d8c7642d32705bb23ad5561504ca9e2db98c9e5-x86_64-small-a9451ce0/bzImage");
	assert_false(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	/* a foreign bzImage, a run with no kernel, no job.yaml at all */
	write_run(run.buf, "/boot/vmlinuz-6.1.0-57-amd64");
	assert_false(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	write_run(run.buf, NULL);
	strbuf_reset(&other);
	assert_false(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	assert_string_equal(other.buf, "no kernel");
	strbuf_reset(&run);
	strbuf_addf(&run, "%s/missing", d);
	assert_false(bisect_kernel_run_is_ours(&k, run.buf, sha, &other));
	bisect_kernel_release(&k);
	assert_null(k.config_id);
	strbuf_release(&run);
	strbuf_release(&other);
	test_rm_rf(d);
	free(d);
}

static void test_bisect_log_vm(void **state)
{
	struct bisect_opts o, back;
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	memset(&o, 0, sizeof(o));
	o.repo = "/k";
	o.good = "g";
	o.bad = "b";
	o.job_path = "/j.yaml";
	o.metric = "m";
	o.result_base = "/r";
	o.m.kernel_tree = "/k";
	o.m.vm.accel = QEMU_ACCEL_ICOUNT;
	o.m.vm.numa = 2;
	o.m.vm.mem_mb = 4096;
	bisect_start_line(&o, &sb);
	assert_non_null(strstr(sb.buf, " --config 'tiny' --accel icount --mem 4G --numa 2 --runs"));
	memset(&back, 0, sizeof(back));
	assert_int_equal(bisect_parse_start(sb.buf, "state", 2, &back), 0);
	assert_int_equal(back.m.vm.accel, QEMU_ACCEL_ICOUNT);
	assert_int_equal(back.m.vm.numa, 2);
	assert_int_equal(back.m.vm.mem_mb, 4096);
	assert_int_equal(back.m.vm.cpus, 0);
	assert_true(back.m.vm.boot_timeout == 0);
	bisect_opts_release(&back);
	/* a value the command line would refuse is refused in a log too */
	assert_int_equal(bisect_parse_start("start --repo /k --good g --bad b --job /j --metric m "
					    "--result-root /r --numa 99", "state", 2, &back), -1);
	bisect_opts_release(&back);
	/* a user-space bisect has no VM to keep */
	strbuf_reset(&sb);
	o.m.kernel_tree = NULL;
	bisect_start_line(&o, &sb);
	assert_null(strstr(sb.buf, "--numa"));
	strbuf_release(&sb);
}

static void test_qemu_small_parts(void **state)
{
	enum qemu_accel a;
	(void)state;
	assert_int_equal(qemu_tsc_khz("processor : 0\ncpu MHz\t\t: 2445.426\n"), 2445426);
	assert_int_equal(qemu_tsc_khz("cpu MHz : 3000\n"), 3000000);
	assert_int_equal(qemu_tsc_khz("processor : 0\n"), 0);
	assert_int_equal(qemu_tsc_khz("cpu MHz : x\n"), 0);
	assert_int_equal(qemu_accel_parse("tcg", &a), 0);
	assert_int_equal(a, QEMU_ACCEL_TCG);
	assert_int_equal(qemu_accel_parse("kvm", &a), 0);
	assert_int_equal(a, QEMU_ACCEL_KVM);
	assert_int_equal(qemu_accel_parse("auto", &a), 0);
	assert_int_equal(a, QEMU_ACCEL_AUTO);
	assert_int_equal(qemu_accel_parse("icount", &a), 0);
	assert_int_equal(a, QEMU_ACCEL_ICOUNT);
	assert_string_equal(qemu_accel_name(QEMU_ACCEL_ICOUNT), "icount");
	assert_int_equal(qemu_accel_parse("hvf", &a), -1);
	assert_string_equal(qemu_accel_name(QEMU_ACCEL_TCG), "tcg");
	assert_string_equal(qemu_accel_name(QEMU_ACCEL_KVM), "kvm");
}

/* ---- the serial log --------------------------------------------------------------- */

/* A file of n bytes: "0123456789" repeated. */
static void put_digits(const char *path, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		strbuf_addch(&sb, (char)('0' + i % 10));
	assert_int_equal(write_file_atomic(path, sb.buf, sb.len), 0);
	strbuf_release(&sb);
}

/*
 * What is kept of a serial stream: its first and last bytes, with a line
 * saying how many were left out, from a file (the middle not read) and
 * from a pipe; the console file rewritten so, with a warning.
 */
static void test_serial_read_kept(void **state)
{
	static const char want[] =
		"0123456789012345678901234567890123456789"
		"\n[perfbot: 230 bytes of s left out here: more than the first 40 "
		"and the last 30 bytes are not kept]\n"
		"012345678901234567890123456789";
	struct strbuf p = STRBUF_INIT, out = STRBUF_INIT, again = STRBUF_INIT;
	struct stderr_capture cap;
	char *d = test_tmpdir("kernel"), *msg;
	int fd, pfd[2];
	(void)state;

	strbuf_addf(&p, "%s/s", d);
	for (size_t n = 69; n <= 71; n++) {      /* head + tail - 1 .. + 1 */
		put_digits(p.buf, n);
		assert_true((fd = open(p.buf, O_RDONLY)) >= 0);
		strbuf_reset(&out);
		assert_int_equal(serial_read_kept(fd, "s", 40, 30, &out), n > 70 ? 1 : 0);
		assert_int_equal(out.len, n > 70 ? 70 + 98 : n);   /* 98: the note */
		close(fd);
	}
	put_digits(p.buf, 300);
	assert_true((fd = open(p.buf, O_RDONLY)) >= 0);
	strbuf_reset(&out);
	assert_int_equal(serial_read_kept(fd, "s", 40, 30, &out), 230);
	assert_string_equal(out.buf, want);
	close(fd);
	/* a pipe: read through, the tail in a ring */
	assert_int_equal(pipe(pfd), 0);
	strbuf_reset(&again);
	assert_int_equal(read_file(&again, p.buf), 0);
	assert_int_equal(write(pfd[1], again.buf, again.len), 300);
	close(pfd[1]);
	strbuf_reset(&out);
	assert_int_equal(serial_read_kept(pfd[0], "s", 40, 30, &out), 230);
	assert_string_equal(out.buf, want);
	close(pfd[0]);
	/* the console: SERIAL_KEEP_HEAD + SERIAL_KEEP_TAIL kept, not one more */
	put_digits(p.buf, SERIAL_KEEP_HEAD + SERIAL_KEEP_TAIL);
	strbuf_reset(&out);
	capture_start(&cap);
	assert_int_equal(serial_read_console(p.buf, &out), 0);
	msg = capture_end(&cap);
	assert_string_equal(msg, "");
	free(msg);
	assert_int_equal(out.len, SERIAL_KEEP_HEAD + SERIAL_KEEP_TAIL);
	put_digits(p.buf, SERIAL_KEEP_HEAD + SERIAL_KEEP_TAIL + 1000);
	strbuf_reset(&out);
	capture_start(&cap);
	assert_int_equal(serial_read_console(p.buf, &out), 0);
	msg = capture_end(&cap);
	strbuf_reset(&again);
	strbuf_addf(&again, "perfbot: warning: %s: the guest's console wrote 1000 bytes more than "
		    "the first 4194304 and the last 4194304 kept\n", p.buf);
	assert_string_equal(msg, again.buf);
	free(msg);
	assert_non_null(strstr(out.buf, "\n[perfbot: 1000 bytes of "));
	strbuf_reset(&again);
	assert_int_equal(read_file(&again, p.buf), 0);
	assert_int_equal(again.len, out.len);
	assert_int_equal(memcmp(again.buf, out.buf, out.len), 0);
	assert_true(out.len < SERIAL_KEEP_HEAD + SERIAL_KEEP_TAIL + 1000);
	strbuf_release(&p);
	strbuf_release(&out);
	strbuf_release(&again);
	test_rm_rf(d);
	free(d);
}

static const char boot_head[] =
	"SeaBIOS (version 1.16.2-debian-1.16.2-1)\n"
	"[    0.000000] Linux version 6.1.0 (perfbot@perfbot) #1 SMP\n"
	"[    0.010000] x86: Booting SMP configuration:\n"
	"[    0.030000] smp: Brought up 1 node, 2 CPUs\n"
	"[    1.250000] Freeing unused kernel image (initmem) memory: 1024K\n"
	"[    1.260000] Run /init as init process\n";

static enum boot_state classify(const char *log, enum boot_end end, struct boot_report *r)
{
	boot_classify(log, strlen(log), end, r);
	return r->state;
}

/* The size check of a guest's serial files: over max, not at it. */
static void test_serial_file_over(void **state)
{
	char *d = test_tmpdir("kernel");
	struct strbuf path = STRBUF_INIT;
	(void)state;

	strbuf_addf(&path, "%s/console", d);
	assert_false(serial_file_over(path.buf, 10));          /* none yet */
	assert_int_equal(write_file_atomic(path.buf, "0123456789", 10), 0);
	assert_false(serial_file_over(path.buf, 10));
	assert_true(serial_file_over(path.buf, 9));
	/* the real limit, on a sparse file one byte past it */
	assert_int_equal(truncate(path.buf, (off_t)SERIAL_FILE_MAX), 0);
	assert_false(serial_file_over(path.buf, SERIAL_FILE_MAX));
	assert_int_equal(truncate(path.buf, (off_t)SERIAL_FILE_MAX + 1), 0);
	assert_true(serial_file_over(path.buf, SERIAL_FILE_MAX));
	assert_int_equal(SERIAL_FILE_MAX, 512u << 20);
	unlink(path.buf);
	rmdir(d);
	free(d);
	strbuf_release(&path);
}

static void test_boot_classify(void **state)
{
	struct boot_report r;
	struct strbuf log = STRBUF_INIT;
	(void)state;
	/* ok: /init ran the job and sent its results */
	strbuf_addf(&log, "%sperfbot-guest: init 1.31\r\nperfbot-guest: exit 0\nperfbot-guest: sent 8475\n"
		    "[    9.000000] reboot: Restarting system\n", boot_head);
	assert_int_equal(classify(log.buf, BOOT_END_EXITED, &r), BOOT_OK);
	assert_true(r.init_uptime == 1.31);
	assert_int_equal(r.exit_status, 0);
	assert_int_equal(r.sent_bytes, 8475);
	assert_true(r.kernel_boot == 1.25);
	assert_true(r.smp_boot > 0.0199 && r.smp_boot < 0.0201);
	assert_true(r.last_stamp == 9.0);
	struct strbuf bt = STRBUF_INIT;
	boot_time_stats(&r, &bt);
	assert_string_equal(bt.buf, "boot: 1.31\nkernel_boot: 1.250000\nsmp_boot: 0.020000\n");
	strbuf_release(&bt);
	boot_report_release(&r);
	/* perfbot in the guest failed: the kernel is not to blame */
	strbuf_reset(&log);
	strbuf_addf(&log, "%sperfbot-guest: init 1.31\nperfbot-guest: exit 1\nperfbot-guest: sent 0\n", boot_head);
	assert_int_equal(classify(log.buf, BOOT_END_EXITED, &r), BOOT_NO_RESULTS);
	assert_string_equal(r.reason.buf, "no results: perfbot run in the guest exited 1 without a run "
					  "(see the dmesg file)");
	assert_null(boot_failure_line(r.state));
	boot_report_release(&r);
	/* its last error says why; progress, skipped monitors and what was
	 * said before /init or after the exit do not */
	strbuf_reset(&log);
	strbuf_addf(&log, "%sperfbot: before init\nperfbot-guest: init 1.31\n"
		    "perfbot: monitor skipped: cpuidle: none\nperfbot: mkfs.xfs failed on '/dev/loop0' (exit 1)\n"
		    "perfbot: run 1/1: setup in /result\nperfbot: monitors skipped, not in perfbot yet: a\n"
		    "perfbot-guest: exit 1\nperfbot: after exit\nperfbot-guest: sent 0\n", boot_head);
	assert_int_equal(classify(log.buf, BOOT_END_EXITED, &r), BOOT_NO_RESULTS);
	assert_string_equal(r.reason.buf, "no results: perfbot run in the guest exited 1 without a run: "
					  "mkfs.xfs failed on '/dev/loop0' (exit 1) (see the dmesg file)");
	boot_report_release(&r);
	/* a panic: QEMU exits (panic=-1), the reason is the panic's */
	strbuf_reset(&log);
	strbuf_addf(&log, "%sperfbot-guest: init 1.31\n[    2.000000] Kernel panic - not syncing: Fatal exception\n",
		    boot_head);
	assert_int_equal(classify(log.buf, BOOT_END_EXITED, &r), BOOT_PANIC);
	assert_string_equal(r.reason.buf, "kernel panic: Fatal exception");
	assert_null(boot_failure_line(r.state));
	boot_report_release(&r);
	/* no init, however the kernel words it */
	static const char *const noinit[] = {
		"No working init found.  Try passing init= option to kernel.",
		"Requested init /sbin/init failed (error -2).",
		"No init found.  Try passing init= option to kernel.",
		NULL
	};
	for (int i = 0; noinit[i]; i++) {
		strbuf_reset(&log);
		strbuf_addf(&log, "%s[    1.3] Kernel panic - not syncing: %s\n", boot_head, noinit[i]);
		assert_int_equal(classify(log.buf, BOOT_END_EXITED, &r), BOOT_NO_INIT);
		assert_int_equal(strncmp(r.reason.buf, "no init: ", 9), 0);
		boot_report_release(&r);
	}
	/* killed at a deadline: before any output, before /init, after it */
	assert_int_equal(classify("", BOOT_END_KILLED, &r), BOOT_EARLY_HANG);
	assert_string_equal(boot_failure_line(r.state), "BUG: kernel early-boot hang");
	boot_report_release(&r);
	assert_int_equal(classify(boot_head, BOOT_END_KILLED, &r), BOOT_HANG);
	assert_string_equal(boot_failure_line(r.state), "BUG: kernel boot hang");
	assert_true(r.init_uptime < 0);
	boot_report_release(&r);
	strbuf_reset(&log);
	strbuf_addf(&log, "%sperfbot-guest: init 1.31\n", boot_head);
	assert_int_equal(classify(log.buf, BOOT_END_KILLED, &r), BOOT_JOB_TIMEOUT);
	assert_null(boot_failure_line(r.state));
	boot_report_release(&r);
	/* stopped for flooding a serial port: a crash that says so, even
	 * when the guest claimed to have sent its results */
	strbuf_addstr(&log, "perfbot-guest: exit 0\nperfbot-guest: sent 8475\n");
	assert_int_equal(classify(log.buf, BOOT_END_FLOOD, &r), BOOT_CRASH);
	assert_string_equal(r.reason.buf, "flood: the guest wrote more than 512 MiB on a serial port");
	boot_report_release(&r);
	strbuf_reset(&log);
	strbuf_addf(&log, "%sperfbot-guest: init 1.31\n", boot_head);
	/* QEMU ended on its own with nothing said: a crash */
	assert_int_equal(classify(log.buf, BOOT_END_EXITED, &r), BOOT_CRASH);
	assert_string_equal(boot_failure_line(r.state), "BUG: kernel test crashed");
	boot_report_release(&r);
	assert_int_equal(classify(boot_head, BOOT_END_EXITED, &r), BOOT_CRASH);
	assert_non_null(strstr(r.reason.buf, "before /init"));
	boot_report_release(&r);
	/* a panic line wins over the deadline */
	strbuf_reset(&log);
	strbuf_addf(&log, "%s[    3.0] Kernel panic - not syncing: softlockup: hung tasks\n", boot_head);
	assert_int_equal(classify(log.buf, BOOT_END_KILLED, &r), BOOT_PANIC);
	boot_report_release(&r);
	assert_string_equal(boot_state_name(BOOT_OK), "ok");
	assert_string_equal(boot_state_name(BOOT_EARLY_HANG), "early-boot-hang");
	assert_string_equal(boot_state_name(BOOT_NO_RESULTS), "no-results");
	strbuf_release(&log);
}

/* ---- the guest's /init ---------------------------------------------------------------- */

static void test_init_script(void **state)
{
	char *args[] = { "-M", "vmstat,meminfo", NULL };
	char *cmd[] = { "sh", "-c", "echo 'ops: 1'", NULL };
	struct initramfs_spec spec = { .job_yaml = "testcase: x\n", .run_args = args, .command = cmd,
				       .hostname = "vm-tcg-2cpu-1G" };
	struct strbuf s = STRBUF_INIT;
	(void)state;
	initramfs_init_script(&spec, &s);
	assert_int_equal(strncmp(s.buf, "#!/bin/busybox sh\n", 18), 0);
	assert_non_null(strstr(s.buf, "\nperfbot run -v --no-index --no-cgroup -n 1 -r /result -M vmstat,meminfo /job.yaml -- sh -c "
				     "'echo '\\''ops: 1'\\'''\n"));
	assert_non_null(strstr(s.buf, "echo \"" GUEST_MARK_INIT "$up\""));
	assert_non_null(strstr(s.buf, "echo \"" GUEST_MARK_EXIT "$?\""));
	assert_non_null(strstr(s.buf, "echo \"" GUEST_MARK_SENT "$n\""));
	assert_non_null(strstr(s.buf, "stty raw -echo <&3"));
	assert_non_null(strstr(s.buf, "perfbot.probe=1) reboot -f"));
	assert_non_null(strstr(s.buf, "\nhostname vm-tcg-2cpu-1G\nexport HOSTNAME=$(hostname)\n"));
	strbuf_reset(&s);
	spec.run_args = NULL;
	spec.command = NULL;
	spec.hostname = NULL;
	initramfs_init_script(&spec, &s);
	assert_null(strstr(s.buf, "hostname"));
	assert_non_null(strstr(s.buf, "\nperfbot run -v --no-index --no-cgroup -n 1 -r /result /job.yaml\n"));
	/* the host programs first; /tmp past the memory, for sparse disks */
	assert_non_null(strstr(s.buf, "\nexport PATH=/usr/bin:/bin "));
	assert_non_null(strstr(s.buf, "\nexport PERFBOT_GUEST=1\n"));
	assert_non_null(strstr(s.buf, "\n/bin/busybox mount -t tmpfs -o size=1t tmpfs /tmp\n"));
	assert_null(strstr(s.buf, "modprobe"));
	/* a packaged kernel's modules: kmod answers the kernel, some loaded */
	const char *mods[] = { "ext4", "brd", NULL }, *load[] = { "ext4", NULL };
	spec.modules_dir = "/lib/modules/6.1.0-57-amd64";
	spec.modules = mods;
	spec.modules_load = load;
	strbuf_reset(&s);
	initramfs_init_script(&spec, &s);
	assert_non_null(strstr(s.buf, "\n[ -x /usr/bin/modprobe ] && echo /usr/bin/modprobe >/proc/sys/kernel/modprobe\n"
				     "modprobe -a ext4\n"));
	assert_true(strstr(s.buf, "modprobe -a") < strstr(s.buf, "\nperfbot run"));
	load[0] = NULL;
	strbuf_reset(&s);
	initramfs_init_script(&spec, &s);
	assert_null(strstr(s.buf, "modprobe -a"));
	assert_non_null(strstr(s.buf, "/proc/sys/kernel/modprobe"));
	strbuf_release(&s);
}

static struct job *job_of(const char *text)
{
	struct job *j = NULL;
	assert_int_equal(job_load_string(text, strlen(text), "job.yaml", NULL, &j), 0);
	return j;
}

/* "a b c" of a NULL-terminated list */
static const char *joined(const char *const *v, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (int i = 0; v[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", v[i]);
	return sb->buf;
}

static void test_guest_needs(void **state)
{
	char *d = test_tmpdir("kernel");
	struct strbuf p = STRBUF_INIT, sb = STRBUF_INIT;
	struct guest_need n;
	char *mon[] = { "-i", "1", "-M", "proc-vmstat,numa-vmstat", NULL };
	char *mon_perf[] = { "-M", "proc-vmstat,perf-profile", NULL };
	(void)state;
	strbuf_addf(&p, "%s/6.1.0-9-amd64", d);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addstr(&p, "/modules.dep");
	assert_int_equal(write_file_atomic(p.buf, "", 0), 0);

	/* a benchmark on ext4 over a loop disk, perfbot's own kernel */
	struct job *j = job_of("testcase: vm-scalability\ncategory: benchmark\nfs: ext4\ndisk: loop_4G\n");
	guest_files_needs(&n, j, NULL, NULL, d);
	assert_string_equal(joined(n.programs, &sb), "perf mkfs.ext4 losetup");
	assert_null(n.modules[0]);
	assert_int_equal(n.modules_dir.len, 0);
	guest_need_release(&n);
	/* -M decides perf, as it decides the guest's monitors */
	guest_files_needs(&n, j, mon, NULL, d);
	assert_string_equal(joined(n.programs, &sb), "mkfs.ext4 losetup");
	guest_need_release(&n);
	guest_files_needs(&n, j, mon_perf, NULL, d);
	assert_string_equal(joined(n.programs, &sb), "perf mkfs.ext4 losetup");
	guest_need_release(&n);
	/* a packaged kernel with its modules here: kmod and the modules */
	guest_files_needs(&n, j, NULL, "6.1.0-9-amd64", d);
	assert_string_equal(joined(n.programs, &sb), "perf mkfs.ext4 losetup modprobe");
	assert_string_equal(joined(n.modules, &sb), "ext4 crc32c_generic crc32c-intel loop");
	assert_string_equal(joined(n.load, &sb), "ext4 crc32c_generic crc32c-intel loop");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/6.1.0-9-amd64", d);
	assert_string_equal(n.modules_dir.buf, p.buf);
	guest_need_release(&n);
	/* its modules not on this host, or a release that is no one component */
	guest_files_needs(&n, j, NULL, "6.1.0-10-amd64", d);
	assert_string_equal(joined(n.programs, &sb), "perf mkfs.ext4 losetup");
	assert_int_equal(n.modules_dir.len, 0);
	guest_need_release(&n);
	guest_files_needs(&n, j, NULL, "../6.1.0-9-amd64", d);
	assert_int_equal(n.modules_dir.len, 0);
	guest_need_release(&n);
	job_free(j);

	/* ext3 is Debian's ext4 module; brd is copied, loaded by setup */
	j = job_of("testcase: aim7\nfs: ext3\ndisk: 1BRD_2G\n");
	guest_files_needs(&n, j, NULL, "6.1.0-9-amd64", d);
	assert_string_equal(joined(n.programs, &sb), "mkfs.ext3 modprobe");
	assert_string_equal(joined(n.modules, &sb), "ext3 ext4 crc32c_generic crc32c-intel brd");
	assert_string_equal(joined(n.load, &sb), "ext3 ext4 crc32c_generic crc32c-intel");
	guest_need_release(&n);
	job_free(j);

	/* no fs and no disk: nothing from the host, perf aside */
	j = job_of("testcase: will-it-scale\nperf-stat:\n");
	guest_files_needs(&n, j, NULL, "6.1.0-9-amd64", d);
	assert_string_equal(joined(n.programs, &sb), "perf");
	assert_null(n.modules[0]);
	assert_int_equal(n.modules_dir.len, 0);
	guest_need_release(&n);
	job_free(j);
	j = job_of("testcase: mytest\n");
	guest_files_needs(&n, j, NULL, NULL, d);
	assert_null(n.programs[0]);
	guest_need_release(&n);
	job_free(j);
	strbuf_release(&p);
	strbuf_release(&sb);
	test_rm_rf(d);
	free(d);
}

static void test_guest_ldd(void **state)
{
	struct argv_list libs = ARGV_LIST_INIT;
	struct strbuf why = STRBUF_INIT;
	(void)state;
	assert_int_equal(guest_files_parse_ldd(
		"\tlinux-vdso.so.1 (0x00007ffd)\n"
		"\tlibext2fs.so.2 => /lib/x86_64-linux-gnu/libext2fs.so.2 (0x00007fb5)\n"
		"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007fb5)\n"
		"\t/lib64/ld-linux-x86-64.so.2 (0x00007fb5)", &libs, &why), 3);
	assert_int_equal(libs.nr, 3);
	assert_string_equal(libs.v[0], "/lib/x86_64-linux-gnu/libext2fs.so.2");
	assert_string_equal(libs.v[1], "/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(libs.v[2], "/lib64/ld-linux-x86-64.so.2");
	argv_list_release(&libs);
	assert_int_equal(guest_files_parse_ldd("", &libs, &why), 0);
	assert_int_equal(guest_files_parse_ldd("\tlibfoo.so.1 => not found\n\tlibc.so.6 => /l/libc.so.6 (0x1)\n",
					       &libs, &why), -1);
	assert_string_equal(why.buf, "libfoo.so.1 not found");
	argv_list_release(&libs);
	strbuf_release(&why);
}

struct seen_names { struct strbuf names; };

static int collect_names(const struct cpio_entry *e, void *ctx)
{
	struct seen_names *s = ctx;
	strbuf_addf(&s->names, "%s %o\n", e->name, e->mode);
	return 0;
}

static void test_guest_modules(void **state)
{
	char *d = test_tmpdir("kernel");
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT, archive = STRBUF_INIT, why = STRBUF_INIT;
	struct seen_names s = { STRBUF_INIT };
	struct cpio c;
	struct guest_files g;
	(void)state;
	strbuf_addf(&dir, "%s/6.1.0-9-amd64", d);
	static const char *const files[] = {
		"kernel/fs/ext4/ext4.ko", "kernel/lib/crc16.ko", "kernel/fs/jbd2/jbd2.ko",
		"kernel/arch/x86/crypto/crc32c-intel.ko", "kernel/fs/xfs/xfs.ko", "modules.alias.bin", NULL
	};
	for (int i = 0; files[i]; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir.buf, files[i]);
		*strrchr(p.buf, '/') = '\0';
		assert_int_equal(mkdir_p(p.buf, 0755), 0);
		p.buf[strlen(p.buf)] = '/';
		assert_int_equal(write_file_atomic(p.buf, files[i], strlen(files[i])), 0);
	}
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/modules.dep", dir.buf);
	const char *dep = "kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko kernel/fs/jbd2/jbd2.ko\n"
			  "kernel/lib/crc16.ko:\n"
			  "kernel/fs/jbd2/jbd2.ko:\n"
			  "kernel/arch/x86/crypto/crc32c-intel.ko:\n"
			  "kernel/fs/xfs/xfs.ko:\n";
	assert_int_equal(write_file_atomic(p.buf, dep, strlen(dep)), 0);
	cpio_init(&c, &archive);
	guest_files_init(&g, &c);
	/* '_' names '-' too; "btrfs" is not in this kernel: no error, not counted */
	const char *mods[] = { "ext4", "crc32c_intel", "btrfs", "ext4", NULL };
	assert_int_equal(guest_files_modules(&g, dir.buf, mods), 3);
	guest_files_release(&g);
	cpio_finish(&c);
	assert_int_equal(cpio_parse(archive.buf, archive.len, collect_names, &s, &why), 0);
	const char *m = s.names.buf;
	assert_non_null(strstr(m, "lib 40755\nlib/modules 40755\nlib/modules/6.1.0-9-amd64 40755\n"));
	assert_non_null(strstr(m, "lib/modules/6.1.0-9-amd64/modules.dep 100644\n"));
	assert_non_null(strstr(m, "lib/modules/6.1.0-9-amd64/modules.alias.bin 100644\n"));
	assert_non_null(strstr(m, "lib/modules/6.1.0-9-amd64/kernel/fs/ext4/ext4.ko 100644\n"));
	assert_non_null(strstr(m, "lib/modules/6.1.0-9-amd64/kernel/lib/crc16.ko 100644\n"));
	assert_non_null(strstr(m, "lib/modules/6.1.0-9-amd64/kernel/fs/jbd2/jbd2.ko 100644\n"));
	assert_non_null(strstr(m, "/crypto/crc32c-intel.ko 100644\n"));
	/* once each, and not what was not asked for */
	assert_null(strstr(strstr(m, "ext4.ko") + 1, "ext4.ko"));
	assert_null(strstr(m, "xfs.ko"));
	assert_null(strstr(m, "modules.softdep"));
	strbuf_reset(&s.names);
	strbuf_reset(&archive);
	/* no modules.dep: an error naming it */
	strbuf_addstr(&dir, "-none");
	cpio_init(&c, &archive);
	guest_files_init(&g, &c);
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(guest_files_modules(&g, dir.buf, mods), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "modules.dep"));
	free(msg);
	/* a program: copied under its own name, with libraries for a dynamic one */
	assert_int_equal(guest_files_program(&g, "no-such-program-perfbot"), 1);
	assert_int_equal(guest_files_program(&g, "sh"), 0);
	guest_files_release(&g);
	cpio_finish(&c);
	assert_int_equal(cpio_parse(archive.buf, archive.len, collect_names, &s, &why), 0);
	assert_non_null(strstr(s.names.buf, "usr 40755\nusr/bin 40755\nusr/bin/sh 100755\n"));
	assert_non_null(strstr(s.names.buf, "/libc.so.6 100755\n"));
	assert_non_null(strstr(s.names.buf, "lib64/ld-linux-x86-64.so.2 100755\n"));
	strbuf_release(&s.names);
	strbuf_release(&dir);
	strbuf_release(&p);
	strbuf_release(&archive);
	strbuf_release(&why);
	test_rm_rf(d);
	free(d);
}

static void test_initramfs_build(void **state)
{
	char *d = test_tmpdir("kernel");
	struct strbuf sdir = STRBUF_INIT, p = STRBUF_INIT, p2 = STRBUF_INIT, data = STRBUF_INIT;
	struct seen s = { STRBUF_INIT };
	unsigned char elf[512];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	(void)state;
	memset(elf, 0, sizeof(elf));
	memcpy(elf, ELFMAG, SELFMAG);
	elf[EI_CLASS] = ELFCLASS64;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	strbuf_addf(&sdir, "%s/static", d);
	assert_int_equal(mkdir_p(sdir.buf, 0755), 0);
	strbuf_addf(&p, "%s/perfbot", sdir.buf);
	assert_int_equal(write_file_atomic(p.buf, elf, sizeof(elf)), 0);
	struct strbuf bb = STRBUF_INIT;
	strbuf_addf(&bb, "%s/busybox", d);
	assert_int_equal(write_file_atomic(bb.buf, elf, sizeof(elf)), 0);
	struct initramfs_spec spec = { .job_yaml = "testcase: x\n", .static_dir = sdir.buf, .busybox = bb.buf };
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/initrd", d);
	strbuf_addf(&p2, "%s/initrd", d);
	struct strbuf out = STRBUF_INIT, out2 = STRBUF_INIT;
	assert_int_equal(initramfs_build(&spec, p.buf, &out), 0);
	assert_int_equal(initramfs_build(&spec, p2.buf, &out2), 0);
	assert_string_equal(out.buf, out2.buf);
	assert_int_equal(read_file(&data, out.buf), 0);
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(cpio_parse(data.buf, data.len, collect, &s, &why), 0);
	assert_non_null(strstr(s.names.buf, "\nbin/busybox 100755 "));
	assert_non_null(strstr(s.names.buf, "\nbin/perfbot 100755 "));
	assert_non_null(strstr(s.names.buf, "\ndev/console 20600 0:"));
	assert_non_null(strstr(s.names.buf, "\njob.yaml 100644 12:testcase: x\n"));
	assert_non_null(strstr(s.names.buf, "\ninit 100755 "));
	/* another job, another file */
	spec.job_yaml = "testcase: y\n";
	strbuf_reset(&out2);
	assert_int_equal(initramfs_build(&spec, p.buf, &out2), 0);
	assert_string_not_equal(out.buf, out2.buf);
	/* a dynamic perfbot is refused, saying why */
	((Elf64_Phdr *)(elf + sizeof(*eh)))->p_type = PT_INTERP;
	eh->e_phnum = 1;
	strbuf_reset(&p2);
	strbuf_addf(&p2, "%s/perfbot", sdir.buf);
	assert_int_equal(write_file_atomic(p2.buf, elf, sizeof(elf)), 0);
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(initramfs_build(&spec, p.buf, &out2), -1);
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "is not a statically linked program"));
	assert_non_null(strstr(msg, "make static"));
	free(msg);
	/* no busybox */
	spec.busybox = "/nonexistent/busybox";
	capture_start(&cap);
	assert_int_equal(initramfs_build(&spec, p.buf, &out2), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "busybox-static"));
	free(msg);
	strbuf_release(&sdir);
	strbuf_release(&bb);
	strbuf_release(&p);
	strbuf_release(&p2);
	strbuf_release(&data);
	strbuf_release(&out);
	strbuf_release(&out2);
	strbuf_release(&why);
	strbuf_release(&s.names);
	test_rm_rf(d);
	free(d);
}

/* ---- builds ------------------------------------------------------------------------------ */

static void test_build_log_reason(void **state)
{
	struct strbuf why = STRBUF_INIT;
	(void)state;
	kernel_build_log_reason("  CC kernel/sys.o\nkernel/sys.c:12:3: error: 'x' undeclared\n"
				"kernel/sys.c:13:1: error: expected ';'\nmake: *** [x] Error 2\n", &why);
	assert_string_equal(why.buf, "kernel/sys.c:12:3: error: 'x' undeclared");
	strbuf_reset(&why);
	kernel_build_log_reason("  LD vmlinux\nld: undefined reference to `foo'\n\n", &why);
	assert_string_equal(why.buf, "ld: undefined reference to `foo'");
	strbuf_reset(&why);
	kernel_build_log_reason("", &why);
	assert_string_equal(why.buf, "the build printed nothing");
	strbuf_release(&why);
}

static void test_cache_dir(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	setenv("PERFBOT_KERNEL_CACHE", "/env/cache", 1);
	kernel_cache_dir("/opt/dir", &sb);
	assert_string_equal(sb.buf, "/opt/dir");
	strbuf_reset(&sb);
	kernel_cache_dir(NULL, &sb);
	assert_string_equal(sb.buf, "/env/cache");
	unsetenv("PERFBOT_KERNEL_CACHE");
	strbuf_reset(&sb);
	kernel_cache_dir(NULL, &sb);
	if (geteuid() == 0)
		assert_string_equal(sb.buf, "/var/cache/perfbot/kernel");
	else
		assert_non_null(strstr(sb.buf, "/perfbot/kernel"));
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kconfig_names_and_keys),
		cmocka_unit_test(test_kconfig_small),
		cmocka_unit_test(test_kconfig_hash),
		cmocka_unit_test(test_kconfig_missing),
		cmocka_unit_test(test_kconfig_compiler),
		cmocka_unit_test(test_kconfig_host_files),
		cmocka_unit_test(test_bzimage_version),
		cmocka_unit_test(test_kernel_image_load),
		cmocka_unit_test(test_elf_is_static),
		cmocka_unit_test(test_cpio_round_trip),
		cmocka_unit_test(test_cpio_extract),
		cmocka_unit_test(test_cpio_extract_moved),
		cmocka_unit_test(test_cpio_limits),
		cmocka_unit_test(test_serial_read_kept),
		cmocka_unit_test(test_qemu_argv),
		cmocka_unit_test(test_qemu_small_parts),
		cmocka_unit_test(test_boot_classify),
		cmocka_unit_test(test_serial_file_over),
		cmocka_unit_test(test_init_script),
		cmocka_unit_test(test_qemu_numa),
		cmocka_unit_test(test_guest_ldd),
		cmocka_unit_test(test_guest_needs),
		cmocka_unit_test(test_guest_modules),
		cmocka_unit_test(test_vm_opt),
		cmocka_unit_test(test_vm_opts_args),
		cmocka_unit_test(test_bisect_log_vm),
		cmocka_unit_test(test_bisect_kernel_run_is_ours),
		cmocka_unit_test(test_initramfs_build),
		cmocka_unit_test(test_build_log_reason),
		cmocka_unit_test(test_cache_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
