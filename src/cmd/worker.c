/*
 * worker.c: `perfbot worker`, a test box of the lab: claims queued jobs,
 * runs them as `perfbot run` would, uploads the results (src/lab/worker.h).
 *
 * SIGTERM and SIGINT count into the stop flag (util/stop.h): one lets
 * the job at hand finish, two abort it.
 */
#include "cmd/cmd.h"
#include "pg/pg.h"
#include "pg/schema.h"
#include "lab/worker.h"
#include "kernel/kconfig.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/stop.h"
#include "util/xalloc.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* A duration as a job's timeout is written (util/duration.h: 30, 30s, 5m) */
static int parse_seconds(const char *opt, const char *s, double max, double *out)
{
	double v = parse_duration(s);

	if (!(v >= 0.1 && v <= max))
		return error("%s expects a duration from 0.1 s to %g s (30, 30s, 5m), got '%s'",
			     opt, max, s);
	*out = v;
	return 0;
}

int cmd_worker(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tbox-group", required_argument, NULL, 'g' },
		{ "once", no_argument, NULL, '1' },
		{ "lease", required_argument, NULL, 'L' },
		{ "poll", required_argument, NULL, 'P' },
		{ "dir", required_argument, NULL, 'D' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "user", required_argument, NULL, 'U' },
		{ "allow", required_argument, NULL, 'A' },
		{ "allow-command", required_argument, NULL, 'C' },
		{ "allow-build", no_argument, NULL, 'B' },
		{ "kernel-tree", required_argument, NULL, 'K' },
		{ "config", required_argument, NULL, 'c' },
		/* the VM options run, bisect and watch share (kernel/vm.h) */
		{ "accel", required_argument, NULL, 'a' },
		{ "boot-timeout", required_argument, NULL, 'b' },
		{ "cpus", required_argument, NULL, 'n' },
		{ "mem", required_argument, NULL, 'm' },
		{ "numa", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("worker");
	struct worker_opts o;
	const char *url = NULL;
	const char **cmds = NULL;
	size_t cmds_alloc = 0;
	char *tree = NULL, *kconfig = NULL;
	const char *vm_opt = NULL;
	int c, ret = EXIT_USAGE;

	memset(&o, 0, sizeof(o));
	o.lease_s = WORKER_LEASE_DEFAULT;
	o.poll_s = WORKER_POLL_DEFAULT;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:g:v", opts, NULL)) != -1) {
		switch (c) {
		case 'd': url = optarg; break;
		case 'g': o.group = optarg; break;
		case '1': o.once = true; break;
		case 'L':
			if (parse_seconds("--lease", optarg, LAB_LEASE_MAX_S, &o.lease_s) < 0)
				goto out;
			break;
		case 'P':
			if (parse_seconds("--poll", optarg, 86400, &o.poll_s) < 0)
				goto out;
			break;
		case 'D': o.dir = optarg; break;
		case 'v': o.verbose++; break;
		case 'U': o.user = optarg; break;
		case 'A': o.allow = optarg; break;
		case 'C':
			ALLOC_GROW(cmds, (size_t)o.nr_allow_cmds + 1, cmds_alloc);
			cmds[o.nr_allow_cmds++] = optarg;
			o.allow_cmds = cmds;
			break;
		case 'B': o.allow_build = true; break;
		case 'K':
			/* the job's child works in other directories */
			free(tree);
			o.kernel_tree = tree = abs_path(optarg);
			break;
		case 'c':
			free(kconfig);
			kconfig = kconfig_is_builtin_name(optarg) ? xstrdup(optarg) : abs_path(optarg);
			o.kconfig = kconfig;
			break;
		case 'a': case 'b': case 'n': case 'm': case 'N':
			vm_opt = c == 'a' ? "accel" : c == 'b' ? "boot-timeout" :
				 c == 'n' ? "cpus" : c == 'm' ? "mem" : "numa";
			if (kernel_vm_opt(&o.vm, vm_opt, optarg) < 0)
				goto out;
			break;
		default:
			ret = cmd_usage(self, 0);
			goto out;
		}
	}
	if (optind != argc) {
		ret = cmd_usage(self, 0);
		goto out;
	}
	if ((vm_opt || kconfig) && !tree) {
		error("--%s sets the kernel a job boots: it needs --kernel-tree",
		      vm_opt ? vm_opt : "config");
		goto out;
	}
	if (!(o.url = lab_db_url(url)) ||
	    (o.group && check_path_component(o.group, "--tbox-group") < 0))
		goto out;
	o.stop = catch_stop_signals();
	signal(SIGPIPE, SIG_IGN);
	ret = worker_run(&o);
out:
	free(cmds);
	free(tree);
	free(kconfig);
	return ret;
}
