/*
 * setup_plan.c: what a job's fs:, disk: and cpufreq_governor: ask for,
 * checked against the declared tables but not applied (setup.h).
 */
#include "run/setup.h"
#include "run/setup_impl.h"
#include "run/workdir.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>


#define MAX_DISKS 64

/* ------------------------------------------------------------------ */
/* declared tables */

static const struct run_fs_type fs_types[] = {
	{ "ext2", "ext2", "mkfs.ext2", { "-q", "-F" }, "e2fsprogs", NULL, false, NULL },
	{ "ext3", "ext3", "mkfs.ext3", { "-q", "-F" }, "e2fsprogs", NULL, false, NULL },
	{ "ext4", "ext4", "mkfs.ext4", { "-q", "-F" }, "e2fsprogs", NULL, false, NULL },
	/* lkp mounts xfs with inode64 (the default of newer kernels) */
	{ "xfs", "xfs", "mkfs.xfs", { "-f", "-q" }, "xfsprogs", "inode64", false, NULL },
	{ "btrfs", "btrfs", "mkfs.btrfs", { "-f", "-q" }, "btrfs-progs", NULL, false, NULL },
	{ "f2fs", "f2fs", "mkfs.f2fs", { "-f", "-q" }, "f2fs-tools", NULL, false, NULL },
	{ "tmpfs", "tmpfs", NULL, { NULL }, NULL, NULL, true, NULL },
	{ "nfsv3", .unsupported = "an NFS export of a local fs (lkp's nfsd setup)" },
	{ "nfsv4", .unsupported = "an NFS export of a local fs (lkp's nfsd setup)" },
	{ "cifs", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv2", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv2p1", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv3", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv3p02", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "smbv3p11", .unsupported = "a CIFS/SMB share (lkp's smbd setup)" },
	{ "udf", .unsupported = "udf, which perfbot does not set up" },
	{ "ocfs2", .unsupported = "a cluster fs (lkp's o2cb setup)" },
};

/* lkp's disk forms that name a host's real devices (hosts/<tbox_group>). */
static const char *const host_disk_kinds[] = { "HDD", "SSD", "PMEM", "SRD", NULL };

/* ------------------------------------------------------------------ */
/* sizes and the plan */

int run_setup_parse_size(const char *text, unsigned long long *bytes)
{
	static const char units[] = "KMGTP";
	unsigned long long n = 0;
	const char *p = text;
	int shift = 0;

	if (!text || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > (ULLONG_MAX - 9) / 10)
			return -1;
		n = n * 10 + (unsigned long long)(*p - '0');
	}
	if (*p) {
		const char *u = strchr(units, toupper((unsigned char)*p));
		if (u) {
			shift = 10 * (int)(u - units + 1);
			p++;
		}
		if (*p == 'B' || *p == 'b')
			p++;
	}
	if (*p || n == 0)
		return -1;
	if (shift && n > (1ULL << 63) >> shift)
		return -1;
	n <<= shift;
	if (n > 1ULL << 63)
		return -1;
	*bytes = n;
	return 0;
}

const char *run_setup_fs_package(const struct run_fs_type *fs)
{
	return fs ? fs->package : NULL;
}

const char *run_setup_fs_mkfs(const struct run_fs_type *fs)
{
	return fs ? fs->mkfs : NULL;
}

const char *run_setup_fs_type(const struct run_fs_type *fs)
{
	return fs ? fs->fstype : NULL;
}

int setup_bad_value(const struct job_value *v, const char *key, const char *expected)
{
	struct strbuf where = STRBUF_INIT;
	const char *text = v ? job_value_shown(v) : NULL;

	job_source_line(v, &where);
	if (text)
		error("%s: '%s' expected %s, got '%s'", where.buf, key, expected, text);
	else
		error("%s: '%s' expected %s", where.buf, key, expected);
	strbuf_release(&where);
	return -1;
}

/* A scalar value of a top-level key, NULL when absent or null; -1 (via
 * *err) for lists and mappings.  With why, a mapping (lkp's setup program
 * with options, `fs: {fs: ext4, format: n}`) is a setup perfbot does not
 * do: 1 via *err, and why says so (the first reason only). */
static const struct job_value *scalar_key(const struct job *job, const char *key, int *err,
					  struct strbuf *why)
{
	const struct job_value *v = job_lookup(job, key);

	if (!v || v->kind == JOB_NULL)
		return NULL;
	if (v->kind == JOB_SEQ) {
		*err = setup_bad_value(v, key, "one value (split the job into atomic jobs first)");
		return NULL;
	}
	if (v->kind == JOB_MAP && why) {
		struct strbuf where = STRBUF_INIT;
		job_source_line(v, &where);
		if (!why->len)
			strbuf_addf(why, "%s: '%s' with options (lkp's programs/%s/setup) is not "
				    "set up by perfbot", where.buf, key, key);
		strbuf_release(&where);
		*err = 1;
		return NULL;
	}
	if (v->kind == JOB_MAP) {
		*err = setup_bad_value(v, key, "a scalar");
		return NULL;
	}
	return v;
}

static int plan_fs(const struct job *job, struct run_setup_plan *plan, struct strbuf *why)
{
	int err = 0;
	const struct job_value *v = scalar_key(job, "fs", &err, why);
	struct strbuf names = STRBUF_INIT;
	const char *name;

	if (!v)
		return err;
	name = v->text;
	for (size_t i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++) {
		const struct run_fs_type *t = &fs_types[i];
		if (strcmp(t->name, name))
			continue;
		if (t->unsupported) {
			strbuf_addf(why, "fs '%s' is %s: perfbot does not set that up", name,
				    t->unsupported);
			return 1;
		}
		plan->fs = t;
		plan->fs_name = t->name;
		return 0;
	}
	strbuf_addstr(&names, "one of");
	for (size_t i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++)
		if (!fs_types[i].unsupported)
			strbuf_addf(&names, " %s", fs_types[i].name);
	setup_bad_value(v, "fs", names.buf);
	strbuf_release(&names);
	return -1;
}

/* "<digits>" at the start of s: its value in *n and the rest, or NULL. */
static const char *leading_count(const char *s, int *n)
{
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > MAX_DISKS)
			return NULL;
	}
	*n = (int)v;
	return s;
}

#define DISK_EXPECTED "loop_<size> or <N>BRD_<size> (sizes as 512M, 1G)"

static int plan_disk(const struct job *job, struct run_setup_plan *plan, struct strbuf *why)
{
	int err = 0, n = 0;
	const struct job_value *v = scalar_key(job, "disk", &err, why);
	const char *text, *rest;

	if (!v)
		return err;
	text = v->text;
	plan->disk_val = v;
	snprintf(plan->disk_desc, sizeof(plan->disk_desc), "%s", text);
	if (!strncmp(text, "loop_", 5)) {
		if (run_setup_parse_size(text + 5, &plan->disk_bytes) < 0)
			return setup_bad_value(v, "disk", DISK_EXPECTED);
		plan->disk = RUN_DISK_LOOP;
		plan->nr_disks = 1;
		return 0;
	}
	rest = leading_count(text, &n);
	if (rest && n > 0 && !strncmp(rest, "BRD", 3)) {
		const char *size = rest[3] == '_' ? rest + 4 : rest[3] ? NULL : "1G";
		if (!size || run_setup_parse_size(size, &plan->disk_bytes) < 0)
			return setup_bad_value(v, "disk", DISK_EXPECTED);
		plan->disk = RUN_DISK_BRD;
		plan->nr_disks = n;
		return 0;
	}
	for (size_t i = 0; rest && host_disk_kinds[i]; i++) {
		size_t k = strlen(host_disk_kinds[i]);
		if (!strncmp(rest, host_disk_kinds[i], k) && (!rest[k] || rest[k] == '_')) {
			strbuf_addf(why, "disk '%s' names the host's own %s disks, which "
				    "perfbot does not manage (use disk: loop_<size>)", text,
				    host_disk_kinds[i]);
			return 1;
		}
	}
	return setup_bad_value(v, "disk", DISK_EXPECTED);
}

static int plan_governor(const struct job *job, struct run_setup_plan *plan)
{
	int err = 0;
	const struct job_value *v = scalar_key(job, "cpufreq_governor", &err, NULL);

	if (!v)
		return err;
	for (const char *p = v->text; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return setup_bad_value(v, "cpufreq_governor", "a governor name as performance");
	if (!*v->text)
		return setup_bad_value(v, "cpufreq_governor", "a governor name as performance");
	plan->governor = v->text;
	return 0;
}

int run_setup_plan(const struct job *job, struct run_setup_plan *plan, struct strbuf *why)
{
	int r;

	memset(plan, 0, sizeof(*plan));
	/* errors first, so a bad key is reported even when another key
	 * could not work here */
	int rf = plan_fs(job, plan, why);
	int rd = plan_disk(job, plan, why);
	int rg = plan_governor(job, plan);
	int re = run_eatmem_plan(job, &plan->eatmem, why);
	if (rf < 0 || rd < 0 || rg < 0 || re < 0)
		return -1;
	r = rf ? rf : rd ? rd : re;
	if (r)
		return r;
	/* lkp's second layer (NFS or CIFS over the fs): not done, so refuse
	 * rather than measure something else than the job says */
	/* a key: this is desc's decoder of the setup (job_desc_decode) */
	const char *fs2 = job_get(job, "fs2");
	if (fs2 && *fs2) {
		strbuf_addf(why, "fs2 '%s' (lkp's export of the fs over NFS/CIFS) is not "
			    "set up by perfbot", fs2);
		return 1;
	}
	if (plan->fs && plan->fs->no_disk) {
		plan->disk = RUN_DISK_NONE;
		plan->nr_disks = 0;
	} else if (plan->fs && plan->disk == RUN_DISK_NONE) {
		run_setup_parse_size(RUN_SETUP_DEFAULT_DISK + 5, &plan->disk_bytes);
		plan->disk = RUN_DISK_LOOP;
		plan->nr_disks = 1;
		plan->default_disk = true;
		snprintf(plan->disk_desc, sizeof(plan->disk_desc), "%s", RUN_SETUP_DEFAULT_DISK);
	}
	return 0;
}
