/*
 * kernel.c: `perfbot kernel build|probe` — kernels under test.
 *
 *   perfbot kernel build --tree DIR [--commit C] [--config tiny|small|defconfig|FILE]
 *                        [--out DIR] [-j N] [-v]
 *   perfbot kernel probe --kernel BZIMAGE [--force]
 *
 * build prints the bzImage's path on stdout (progress on stderr), so a
 * script can boot it: `perfbot run --kernel "$(perfbot kernel build ...)"`.
 * Exit status: 0 built (or found in the cache), 1 error, 6 the commit
 * does not build (the first error and the log's tail on stderr).
 *
 * SIGINT/SIGTERM set the stop flag (util/stop.h): make's
 * process group is killed and nothing half-built is kept.
 */
#include "cmd/cmd.h"
#include "kernel/build.h"
#include "kernel/initramfs.h"
#include "kernel/qemu.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/stop.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int kernel_build_cmd(int argc, char **argv, const struct cmd *self)
{
	static const struct option opts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "commit", required_argument, NULL, 'c' },
		{ "config", required_argument, NULL, 'C' },
		{ "out", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct kernel_build_opts o;
	struct kernel_image img;
	struct strbuf why = STRBUF_INIT;
	int c, r;

	memset(&o, 0, sizeof(o));
	if (argc > 1 && is_help_arg(argv[1]))
		return cmd_usage(self, 1);
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:c:C:o:j:v", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 't': o.tree = optarg; break;
		case 'c': o.commit = optarg; break;
		case 'C': o.config = optarg; break;
		case 'o': o.cache = optarg; break;
		case 'j':
			o.jobs = (int)strtol(optarg, &end, 10);
			if (*end || o.jobs < 1) {
				error("--jobs expects a positive number, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'v': o.verbose++; break;
		default:
			return cmd_usage(self, 0);
		}
	}
	if (!o.tree || optind < argc) {
		error(optind < argc ? "unexpected argument '%s'" : "kernel build needs --tree DIR%s",
		      optind < argc ? argv[optind] : "");
		return cmd_usage(self, 0);
	}
	o.status_line = isatty(2) && !o.verbose;
	o.stop = catch_stop_signals();
	r = kernel_build(&o, &img, &why);
	if (r == 0) {
		if (img.cached)
			fprintf(stderr, "perfbot: %.12s (%s) is built already\n", img.commit, img.kconfig);
		printf("%s\n", img.bzimage);
	} else if (r == KERNEL_BUILD_FAILED) {
		error("kernel build of '%s' failed: %s", o.commit ? o.commit : "HEAD", why.buf);
	}
	kernel_image_release(&img);
	strbuf_release(&why);
	if (*o.stop)
		return 130;
	if (r)
		return r == KERNEL_BUILD_FAILED ? EXIT_NO_BUILD : EXIT_ERROR;
	return finish_stdout() < 0 ? EXIT_ERROR : 0;
}

/*
 * Which accel runs here: /dev/kvm, then a boot of --kernel under KVM with
 * an initramfs that stops at /init (qemu.h); --force probes again instead
 * of reading the answer the kernel cache keeps.
 */
static int kernel_probe_cmd(int argc, char **argv, const struct cmd *self)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'K' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	const char *kernel = NULL;
	bool force = false;
	struct strbuf cache = STRBUF_INIT, dir = STRBUF_INIT, initrd = STRBUF_INIT, how = STRBUF_INIT;
	struct kernel_image img;
	volatile sig_atomic_t *stop;
	int c, ret = EXIT_ERROR;

	optind = 1;
	while ((c = getopt_long(argc, argv, "K:f", opts, NULL)) != -1) {
		switch (c) {
		case 'K': kernel = optarg; break;
		case 'f': force = true; break;
		default: return cmd_usage(self, 0);
		}
	}
	if (!kernel || optind < argc) {
		error("kernel probe needs --kernel BZIMAGE (the guest to boot under KVM)");
		return cmd_usage(self, 0);
	}
	stop = catch_stop_signals();
	memset(&img, 0, sizeof(img));
	if (kernel_image_load(kernel, &img) < 0)
		goto out;
	kernel_cache_dir(NULL, &cache);
	path_join(&dir, cache.buf, "initrd");
	struct initramfs_spec spec = { .job_yaml = "testcase: probe\n" };
	if (initramfs_build(&spec, dir.buf, &initrd) < 0)
		goto out;
	qemu_choose_accel(QEMU_ACCEL_AUTO, cache.buf, img.bzimage, initrd.buf, force, stop, &how);
	printf("%s\n", how.buf);
	ret = finish_stdout() < 0 ? EXIT_ERROR : 0;
out:
	kernel_image_release(&img);
	strbuf_release(&cache);
	strbuf_release(&dir);
	strbuf_release(&initrd);
	strbuf_release(&how);
	return *stop ? 130 : ret;
}

int cmd_kernel(int argc, char **argv)
{
	const struct cmd *self = cmd_find("kernel");

	if (argc < 2 || is_help_arg(argv[1]))
		return cmd_usage(self, argc >= 2);
	if (!strcmp(argv[1], "build"))
		return kernel_build_cmd(argc - 1, argv + 1, self);
	if (!strcmp(argv[1], "probe"))
		return kernel_probe_cmd(argc - 1, argv + 1, self);
	error("unknown kernel subcommand '%s'", argv[1]);
	return cmd_usage(self, 0);
}
