/*
 * kernel.c: the steps of a kernel bisect, built and booted (see kernel.h).
 */
#include "bisect/kernel.h"
#include "bisect/driver.h"
#include "kernel/kconfig.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bisect_kernel_setup(struct bisect_kernel *k, const struct bisect_measure *m, int verbose,
			 volatile sig_atomic_t *stop)
{
	k->tree = m->kernel_tree;
	k->config = m->kconfig;
	k->vm_opts = m->vm;
	k->verbose = verbose;
	k->stop = stop;
	k->command = m->nr_command ? m->command : NULL;
}

int bisect_kernel_prepare(struct bisect_kernel *k, const char *sha, struct strbuf *why)
{
	struct kernel_build_opts bo = {
		.tree = k->tree, .commit = sha, .config = k->config, .verbose = k->verbose,
		.status_line = isatty(2) && !k->verbose, .stop = k->stop,
	};
	int r;

	if (k->vm_ready && k->img.commit && !strcmp(k->img.commit, sha))
		return 0;
	if (k->vm_ready)
		kernel_vm_release(&k->vm);
	k->vm_ready = false;
	kernel_image_release(&k->img);
	r = kernel_build(&bo, &k->img, why);
	if (r)
		return r == KERNEL_BUILD_FAILED ? 1 : -1;
	struct kernel_vm_opts vo = k->vm_opts;
	vo.kernel = k->img.dir;
	vo.commit = sha;
	vo.verbose = k->verbose > 1;
	vo.status_line = isatty(2) && !k->verbose;
	vo.stop = k->stop;
	/* the same keys each time: kconfig, the VM; the commit is sha's */
	r = kernel_vm_prepare(&k->vm, &vo, k->job, NULL, k->command);
	if (r < 0) {
		kernel_vm_release(&k->vm);
		return -1;
	}
	k->vm_ready = true;
	return 0;
}

int bisect_kernel_init(struct bisect_kernel *k, struct job *job, const char *bad, struct strbuf *why)
{
	struct kconfig kc;
	struct strbuf id = STRBUF_INIT;

	k->job = job;
	if (kconfig_init(&kc, k->config) < 0) {
		kconfig_release(&kc);
		return -1;
	}
	kconfig_id(&kc, &id);
	kconfig_release(&kc);
	free(k->config_id);
	k->config_id = strbuf_detach(&id, NULL);
	int r = bisect_kernel_prepare(k, bad, why);
	if (r > 0)
		return error("the bad endpoint does not build (%s): nothing can be bisected", why->buf);
	return r;
}

void bisect_kernel_release(struct bisect_kernel *k)
{
	if (k->vm_ready)
		kernel_vm_release(&k->vm);
	k->vm_ready = false;
	kernel_image_release(&k->img);
	free(k->config_id);
	k->config_id = NULL;
}

bool bisect_kernel_run_is_ours(const struct bisect_kernel *k, const char *run_dir, const char *sha,
			       struct strbuf *other)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, want = STRBUF_INIT;
	const char *v = NULL;
	size_t len = 0;
	bool ours = false;

	path_join(&path, run_dir, "job.yaml");
	if (file_exists(path.buf) && read_file(&text, path.buf) == 0) {
		/* kernel: "/var/cache/perfbot/kernel/images/<sha>-<cfg>/bzImage" */
		const char *p = strstr(text.buf, "\nkernel: ");
		if (p) {
			v = p + strlen("\nkernel: ");
			len = strcspn(v, "\n");
			if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
				v++;
				len -= 2;
			}
		}
	}
	if (v && k->config_id) {
		/* the image dir: the part before the last slash, after the one before */
		const char *end = v + len, *slash = end;
		while (slash > v && slash[-1] != '/')
			slash--;
		end = slash > v ? slash - 1 : v;
		const char *dir = end;
		while (dir > v && dir[-1] != '/')
			dir--;
		strbuf_addf(&want, "%s-%s", sha, k->config_id);
		ours = (size_t)(end - dir) == want.len && !memcmp(dir, want.buf, want.len);
		if (!ours)
			strbuf_add(other, dir, (size_t)(end - dir));
	} else if (!v) {
		strbuf_addstr(other, "no kernel");
	}
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&want);
	return ours;
}

void bisect_kernel_json(const struct bisect_opts *o, enum qemu_accel accel, struct json_writer *jw)
{
	const struct kernel_vm_opts *vo = &o->m.vm;

	jw_key(jw, "kernel");
	jw_object_begin(jw);
	jw_key(jw, "tree"); jw_string(jw, o->m.kernel_tree);
	jw_key(jw, "config"); jw_string(jw, o->m.kconfig ? o->m.kconfig : "tiny");
	jw_key(jw, "accel"); jw_string(jw, qemu_accel_name(accel));
	if (vo->cpus > 0) {
		jw_key(jw, "cpus"); jw_number(jw, vo->cpus, true);
	}
	if (vo->mem_mb > 0) {
		jw_key(jw, "mem_mb"); jw_number(jw, (double)vo->mem_mb, true);
	}
	if (vo->numa > 0) {
		jw_key(jw, "numa"); jw_number(jw, vo->numa, true);
	}
	if (vo->boot_timeout > 0) {
		jw_key(jw, "boot_timeout"); jw_number(jw, vo->boot_timeout, false);
	}
	jw_object_end(jw);
}

int bisect_kernel_run_reason(const char *result_root, struct strbuf *why)
{
	DIR *d = opendir(result_root);
	struct dirent *de;
	long last = -1;
	int ret = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (end != de->d_name && !*end && v > last)
			last = v;
	}
	closedir(d);
	if (last < 0)
		return -1;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	strbuf_addf(&path, "%s/%ld/last_state", result_root, last);
	if (file_exists(path.buf) && read_file(&text, path.buf) == 0) {
		const char *p = strstr(text.buf, "\nreason: ");
		p = p ? p + 1 : !strncmp(text.buf, "reason: ", 8) ? text.buf : NULL;
		if (p) {
			p += 8;
			strbuf_add(why, p, strcspn(p, "\n"));
			ret = 0;
		}
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}
