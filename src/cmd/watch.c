/*
 * watch.c: `perfbot watch`, the robot (watch/watch.h): the command line
 * into struct watch_opts, SIGINT/SIGTERM into its stop flag.
 *
 * Exit: 0 (also "nothing new"), 1 error, 2 usage, 130 interrupted.
 */
#include "cmd/cmd.h"
#include "kernel/kconfig.h"
#include "detect/detect.h"
#include "run/run.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/stop.h"
#include "watch/watch.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number >= 1 for opt, or -1 after an error. */
static int count_arg(const char *opt, const char *arg, int *out)
{
	double v;
	bool is_int;

	if (parse_number(arg, &v, &is_int) < 0 || !is_int || v < 1 || v > INT_MAX)
		return error("%s expects a whole number >= 1, got '%s'", opt, arg);
	*out = (int)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct watch_opts *o)
{
	enum { O_REPO = 256, O_BRANCH, O_JOB, O_EVERY, O_ONCE, O_STRIDE, O_TAGS, O_METRIC,
	       O_RUNS, O_DEPTH, O_NO_FETCH, O_BUILD, O_ROOT, O_DB, O_STATE, O_REPORTS,
	       O_MAIL_CMD, O_MAIL_TO, O_MAIL_FROM, O_PVALUE, O_MIN_CHANGE, O_KTREE, O_KCONFIG,
	       O_ACCEL, O_BOOT_TIMEOUT, O_CPUS, O_MEM, O_NUMA };
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, O_REPO },
		{ "branch", required_argument, NULL, O_BRANCH },
		{ "job", required_argument, NULL, O_JOB },
		{ "every", required_argument, NULL, O_EVERY },
		{ "once", no_argument, NULL, O_ONCE },
		{ "stride", required_argument, NULL, O_STRIDE },
		{ "tags", no_argument, NULL, O_TAGS },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "runs", required_argument, NULL, O_RUNS },
		{ "depth", required_argument, NULL, O_DEPTH },
		{ "no-fetch", no_argument, NULL, O_NO_FETCH },
		{ "build", required_argument, NULL, O_BUILD },
		{ "result-root", required_argument, NULL, O_ROOT },
		{ "db", required_argument, NULL, O_DB },
		{ "state-dir", required_argument, NULL, O_STATE },
		{ "reports", required_argument, NULL, O_REPORTS },
		{ "mail-cmd", required_argument, NULL, O_MAIL_CMD },
		{ "mail-to", required_argument, NULL, O_MAIL_TO },
		{ "mail-from", required_argument, NULL, O_MAIL_FROM },
		{ "pvalue", required_argument, NULL, O_PVALUE },
		{ "min-change", required_argument, NULL, O_MIN_CHANGE },
		{ "kernel-tree", required_argument, NULL, O_KTREE },
		{ "config", required_argument, NULL, O_KCONFIG },
		/* the VM each kernel boots in, as perfbot run --kernel takes them */
		{ "accel", required_argument, NULL, O_ACCEL },
		{ "boot-timeout", required_argument, NULL, O_BOOT_TIMEOUT },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "mem", required_argument, NULL, O_MEM },
		{ "numa", required_argument, NULL, O_NUMA },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	bool every = false;
	const char *kernel_opt = NULL;  /* the first kernel option given, for errors */
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+v", opts, NULL)) != -1) {
		switch (c) {
		case O_REPO: free(o->repo); o->repo = abs_path(optarg); break;
		case O_BRANCH: free(o->branch); o->branch = xstrdup(optarg); break;
		case O_JOB: free(o->job_path); o->job_path = abs_path(optarg); break;
		case O_EVERY:
			o->every = parse_duration(optarg);
			if (!(o->every > 0))
				return error("--every expects a duration > 0 (300, 300s, 5m, 1h, 2d), got '%s'",
					     optarg);
			every = true;
			break;
		case O_ONCE: o->once = true; break;
		case O_STRIDE:
			if (count_arg("--stride", optarg, &o->stride) < 0)
				return -1;
			break;
		case O_TAGS: o->tags = true; break;
		case O_METRIC:
			o->metrics = xrealloc(o->metrics, sizeof(char *) * (size_t)(o->nr_metrics + 1));
			o->metrics[o->nr_metrics++] = xstrdup(optarg);
			break;
		case O_RUNS:
			if (count_arg("--runs", optarg, &o->runs) < 0)
				return -1;
			break;
		case O_DEPTH:
			if (count_arg("--depth", optarg, &o->depth) < 0)
				return -1;
			break;
		case O_NO_FETCH: o->fetch = false; break;
		case O_BUILD: free(o->m.build); o->m.build = xstrdup(optarg); break;
		case O_ROOT: free(o->result_base); o->result_base = abs_path(optarg); break;
		case O_DB:
			free(o->db);
			/* kept in bisect logs: a path must mean the same from anywhere */
			o->db = strstr(optarg, "://") || !strncmp(optarg, "sqlite:", 7) ?
				xstrdup(optarg) : abs_path(optarg);
			break;
		case O_STATE: free(o->state_dir); o->state_dir = abs_path(optarg); break;
		case O_REPORTS: free(o->reports_dir); o->reports_dir = abs_path(optarg); break;
		case O_MAIL_CMD: free(o->mail_cmd); o->mail_cmd = xstrdup(optarg); break;
		case O_MAIL_TO: free(o->mail_to); o->mail_to = xstrdup(optarg); break;
		case O_MAIL_FROM: free(o->mail_from); o->mail_from = xstrdup(optarg); break;
		case O_PVALUE:
		case O_MIN_CHANGE:
			if (detect_cp_option(&o->cp, c == O_PVALUE ? "--pvalue" : "--min-change",
					     optarg) < 0)
				return -1;
			break;
		case O_KTREE: free(o->m.kernel_tree); o->m.kernel_tree = abs_path(optarg); break;
		case O_KCONFIG:
			free(o->m.kconfig);
			/* a config file is read again by each bisect, from elsewhere */
			o->m.kconfig = kconfig_is_builtin_name(optarg) ? xstrdup(optarg) : abs_path(optarg);
			kernel_opt = "config";
			break;
		case O_ACCEL: case O_BOOT_TIMEOUT: case O_CPUS: case O_MEM: case O_NUMA:
			/* the parser run and bisect share (kernel/vm.h) */
			kernel_opt = c == O_ACCEL ? "accel" : c == O_BOOT_TIMEOUT ? "boot-timeout" :
				     c == O_CPUS ? "cpus" : c == O_MEM ? "mem" : "numa";
			if (kernel_vm_opt(&o->m.vm, kernel_opt, optarg) < 0)
				return -1;
			break;
		case 'v': o->verbose++; break;
		default:
			return -1;
		}
	}
	if (kernel_opt && !o->m.kernel_tree)
		return error("--%s is for a kernel under test: it needs --kernel-tree", kernel_opt);
	if (o->m.kernel_tree && o->m.build)
		return error("--kernel-tree builds each commit itself: drop --build");
	/* a kernel watch follows the kernel tree */
	if (o->m.kernel_tree && !o->repo)
		o->repo = xstrdup(o->m.kernel_tree);
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		o->m.nr_command = argc - optind;
		o->m.command = xcalloc((size_t)o->m.nr_command + 1, sizeof(char *));
		for (int i = 0; i < o->m.nr_command; i++)
			o->m.command[i] = xstrdup(argv[optind + i]);
		/* it runs in the worktree: ./bench.sh means the one here */
		if (strchr(o->m.command[0], '/') && o->m.command[0][0] != '/') {
			char *a = abs_path(o->m.command[0]);
			free(o->m.command[0]);
			o->m.command[0] = a;
		}
	} else if (optind < argc) {
		return error("unexpected argument '%s'", argv[optind]);
	}
	if (!o->repo || !o->branch || !o->job_path)
		return error("watch needs --repo DIR (or --kernel-tree DIR), --branch B and --job JOB.yaml");
	if (o->once && every)
		return error("--once and --every: one pass, or one every DURATION");
	if (!file_exists(o->job_path))
		return error("cannot find the job '%s'", o->job_path);
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	const struct cmd *self = cmd_find("watch");
	struct watch_opts o;
	int ret;

	memset(&o, 0, sizeof(o));
	o.stride = WATCH_STRIDE_DEFAULT;
	o.every = WATCH_EVERY_DEFAULT;
	o.fetch = true;
	cp_options_init(&o.cp);
	if (parse_args(argc, argv, &o) < 0) {
		watch_opts_release(&o);
		return cmd_usage(self, 0);
	}
	o.stop = catch_stop_signals();
	ret = watch_run(&o);
	watch_opts_release(&o);
	if (finish_stdout() < 0 && ret == 0)
		ret = EXIT_ERROR;
	return ret;
}
