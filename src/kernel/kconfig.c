/*
 * kconfig.c: what --config names, its result-path name and cache key
 * (see kconfig.h).
 */
#include "kernel/kconfig.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t kconfig_hash(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int config_line(const char *l, size_t len, char **copy, char **sym, const char **val);

/*
 * Options whose value names files the kernel build reads into the image:
 * from anywhere on the host they would put the build user's files (a
 * signing key, /etc/shadow as an initramfs) into a kernel cached where
 * others read it.  Refused rather than cleared with a warning: a cleared
 * option builds another kernel than the config asks for, under its name.
 * A path inside the kernel tree stays allowed: lkp's configs have
 * CONFIG_MODULE_SIG_KEY="certs/signing_key.pem", which the build makes.
 */
static const char *const host_file_options[] = {
	"CONFIG_INITRAMFS_SOURCE", "CONFIG_MODULE_SIG_KEY", "CONFIG_SYSTEM_TRUSTED_KEYS",
	"CONFIG_SYSTEM_REVOCATION_KEYS", "CONFIG_SYSTEM_BLACKLIST_HASH_LIST",
	"CONFIG_EXTRA_FIRMWARE", "CONFIG_EXTRA_FIRMWARE_DIR", "CONFIG_UNUSED_KSYMS_WHITELIST",
	"CONFIG_BUILTIN_DTB_SOURCE", "CONFIG_BUILTIN_DTB_NAME", "CONFIG_EFI_SBAT_FILE", NULL
};

/* Why one word of such a value is no path inside the tree, or NULL. */
static const char *outside_tree(const char *w, size_t len)
{
	if (w[0] == '/')
		return "an absolute path";
	if (w[0] == '~' || memchr(w, '$', len) || memchr(w, ':', len))
		return "a path the shell or the build expands (~, $, URI)";
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && w[i + n] != '/')
			n++;
		if (n == 2 && !memcmp(w + i, "..", 2))
			return "a path with '..'";
		i += n + 1;
	}
	return NULL;
}

/* -1 after error() when text sets a host_file_options outside the tree. */
static int check_host_files(const char *path, const char *text)
{
	int lineno = 0, ret = 0;

	for (const char *l = text; *l && !ret;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *copy, *sym;
		const char *val, *why = NULL;

		lineno++;
		if (config_line(l, len, &copy, &sym, &val) && l[0] != '#') {
			for (int i = 0; host_file_options[i] && !why; i++) {
				if (strcmp(sym, host_file_options[i]))
					continue;
				/* its words, unquoted; EXTRA_FIRMWARE's are read from
				 * EXTRA_FIRMWARE_DIR, /lib/firmware by default */
				for (const char *w = val; *w && !why;) {
					size_t n = strcspn(w, " \t\"");
					if (n)
						why = !strcmp(sym, "CONFIG_EXTRA_FIRMWARE") ?
						      "firmware from the host's /lib/firmware" :
						      outside_tree(w, n);
					w += n + (w[n] != '\0');
				}
			}
			if (why)
				ret = error("%s:%d: %s names a file outside the kernel tree (%s): the build "
					    "would put it in a kernel others can read; clear it in the config",
					    path, lineno, sym, why);
		}
		free(copy);
		l = nl ? nl + 1 : l + len;
	}
	return ret;
}

int kconfig_init(struct kconfig *kc, const char *arg)
{
	/* the tags go into the keys: never change one (tiny's kernels would rebuild) */
	static const char *const kind_tag[] = { "tiny", "small", "defconfig", "file" };
	struct strbuf name = STRBUF_INIT;
	uint64_t h;

	memset(kc, 0, sizeof(*kc));
	strbuf_init(&kc->text, 0);
	if (!arg || !strcmp(arg, "tiny")) {
		kc->kind = KCONFIG_TINY;
		strbuf_addstr(&kc->text, kernel_tiny_config);
		strbuf_addstr(&name, "x86_64-tiny");
	} else if (!strcmp(arg, "small")) {
		kc->kind = KCONFIG_SMALL;
		strbuf_addstr(&kc->text, kernel_small_config);
		strbuf_addstr(&name, "x86_64-small");
	} else if (!strcmp(arg, "defconfig")) {
		kc->kind = KCONFIG_DEFCONFIG;
		strbuf_addstr(&name, "x86_64-defconfig");
	} else {
		kc->kind = KCONFIG_FILE;
		kc->path = abs_path(arg);
		if (read_file(&kc->text, kc->path) < 0 || check_host_files(arg, kc->text.buf) < 0) {
			strbuf_release(&name);
			return -1;
		}
		const char *base = strrchr(kc->path, '/');
		base = base ? base + 1 : kc->path;
		size_t len = strlen(base);
		if (len > 7 && !strcmp(base + len - 7, ".config"))
			len -= 7;
		if (strncmp(base, "x86_64-", 7))
			strbuf_addstr(&name, "x86_64-");
		strbuf_add(&name, base, len);
	}
	/* it becomes lkp's <kconfig> directory of the result path */
	const char *problem = path_component_problem(name.buf);
	if (problem) {
		error("--config '%s': the kconfig name is not one path component (%s): rename the file",
		      arg, problem);
		strbuf_release(&name);
		return -1;
	}
	kc->name = strbuf_detach(&name, NULL);
	h = kconfig_hash(KCONFIG_HASH_INIT, kind_tag[kc->kind], strlen(kind_tag[kc->kind]) + 1);
	h = kconfig_hash(h, kc->text.buf, kc->text.len);
	snprintf(kc->key, sizeof(kc->key), "%016llx", (unsigned long long)h);
	return 0;
}

void kconfig_release(struct kconfig *kc)
{
	free(kc->path);
	free(kc->name);
	strbuf_release(&kc->text);
	memset(kc, 0, sizeof(*kc));
}

void kconfig_id(const struct kconfig *kc, struct strbuf *sb)
{
	strbuf_addf(sb, "%s-%.8s", kc->name, kc->key);
}

/*
 * One line of a config: "CONFIG_X=v" sets *sym and *val, "# CONFIG_X is
 * not set" sets *sym and *val = "not set"; anything else returns 0.
 * sym and val point into a copy the caller frees (*copy).
 */
static int config_line(const char *l, size_t len, char **copy, char **sym, const char **val)
{
	char *s = xstrndup(l, len), *eq;

	*copy = s;
	if (!strncmp(s, "CONFIG_", 7) && (eq = strchr(s, '='))) {
		*eq = '\0';
		*sym = s;
		*val = eq + 1;
		return 1;
	}
	if (!strncmp(s, "# CONFIG_", 9) && len > 13 && !strcmp(s + len - 11, " is not set")) {
		s[len - 11] = '\0';
		*sym = s + 2;
		*val = "not set";
		return 1;
	}
	return 0;
}

/* The value dotconfig gives sym (into val), 0 when it lacks it. */
static int config_value(const char *dotconfig, const char *sym, struct strbuf *val)
{
	for (const char *l = dotconfig; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *copy, *s;
		const char *v;
		int found = config_line(l, len, &copy, &s, &v) && !strcmp(s, sym);
		if (found)
			strbuf_addstr(val, v);
		free(copy);
		if (found)
			return 1;
		l = nl ? nl + 1 : l + len;
	}
	return 0;
}

bool kconfig_is_fragment(const struct kconfig *kc)
{
	return kc->kind == KCONFIG_TINY || kc->kind == KCONFIG_SMALL;
}

bool kconfig_is_builtin_name(const char *arg)
{
	return !strcmp(arg, "tiny") || !strcmp(arg, "small") || !strcmp(arg, "defconfig");
}

int kconfig_missing(const char *fragment, const char *dotconfig, struct strbuf *out)
{
	int n = 0;

	for (const char *l = fragment; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *copy, *sym;
		const char *want;
		if (config_line(l, len, &copy, &sym, &want)) {
			struct strbuf got = STRBUF_INIT;
			int have = config_value(dotconfig, sym, &got);
			/* "not set" and absent mean the same to Kconfig */
			if (have ? strcmp(got.buf, want) : strcmp(want, "not set")) {
				if (!strcmp(want, "not set"))
					strbuf_addf(out, "# %s is not set (got: %s)\n", sym, got.buf);
				else
					strbuf_addf(out, "%s=%s (got: %s)\n", sym, want, have ? got.buf : "absent");
				n++;
			}
			strbuf_release(&got);
		}
		free(copy);
		l = nl ? nl + 1 : l + len;
	}
	return n;
}

/* The number at p ("12.2.0" gives 12), 0 when p starts no number. */
static long leading_number(const char *p)
{
	long n = 0;

	while (*p >= '0' && *p <= '9' && n < 100000000)
		n = n * 10 + (*p++ - '0');
	return n;
}

/* The compiler CONFIG_CC_VERSION_TEXT names: "gcc-12", "clang-16"; 0 when
 * the text names neither. */
static int version_text_compiler(const char *text, struct strbuf *sb)
{
	const char *p = strstr(text, "clang version ");
	const char *sp = strchr(text, ' ');
	long major = 0;

	if (p) {
		if ((major = leading_number(p + strlen("clang version "))) > 0)
			strbuf_addf(sb, "clang-%ld", major);
		return major > 0;
	}
	/* `gcc --version`'s first line: the program ("gcc", "gcc-12",
	 * "x86_64-linux-gnu-gcc-12"), its package in parentheses, then the
	 * version as the last word */
	if (!sp || !memmem(text, (size_t)(sp - text), "gcc", 3))
		return 0;
	p = strrchr(text, ' ');
	if ((major = leading_number(p + 1)) > 0)
		strbuf_addf(sb, "gcc-%ld", major);
	return major > 0;
}

int kconfig_compiler(const char *dotconfig, struct strbuf *sb)
{
	struct strbuf v = STRBUF_INIT;
	long n;
	int ret = 0;

	if (config_value(dotconfig, "CONFIG_CC_VERSION_TEXT", &v)) {
		/* the value is quoted: "gcc (Debian 12.2.0-14) 12.2.0" */
		const char *text = v.buf;
		if (v.len >= 2 && v.buf[0] == '"' && v.buf[v.len - 1] == '"') {
			strbuf_setlen(&v, v.len - 1);
			text++;
		}
		ret = version_text_compiler(text, sb);
	}
	/* older kernels (before 5.8) have only the numbers: 120200 is 12.2.0 */
	strbuf_reset(&v);
	if (!ret && config_value(dotconfig, "CONFIG_CLANG_VERSION", &v) &&
	    (n = leading_number(v.buf) / 10000) > 0) {
		strbuf_addf(sb, "clang-%ld", n);
		ret = 1;
	}
	strbuf_reset(&v);
	if (!ret && config_value(dotconfig, "CONFIG_GCC_VERSION", &v) &&
	    (n = leading_number(v.buf) / 10000) > 0) {
		strbuf_addf(sb, "gcc-%ld", n);
		ret = 1;
	}
	strbuf_release(&v);
	return ret;
}
