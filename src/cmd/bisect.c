/*
 * bisect.c: `perfbot bisect` — find the commit that changed a metric.
 *
 *   perfbot bisect --repo DIR --good REV --bad REV --job JOB.yaml
 *                  --metric NAME [--build CMD] [--runs N] [--max-runs N]
 *                  [--max-total-runs N]
 *                  [--alpha A] [--state FILE] [--result-root DIR]
 *                  [-v] [-- COMMAND [ARG...]]
 *   perfbot bisect --resume [--state FILE]
 *   perfbot bisect --reset [--state FILE]
 *
 * The runner is src/bisect/driver.c; the decisions src/bisect/decide.c.
 * Exit codes: 0 first bad commit found; 1 error; 2 usage, or a --metric
 * the endpoints' first run does not have; 4 good and bad
 * do not differ on the metric (nothing to bisect); 5 only skipped commits
 * were left; 6 no answer to trust (the run budget spent, the verdicts not
 * converging, or the machine's noise moved: the message says what to
 * try); 130 interrupted (resume with --resume).
 *
 * SIGINT/SIGTERM set the stop flag (util/stop.h): the
 * current run is killed and marked incomplete, the log stays consistent.
 */
#include "bisect/driver.h"
#include "cmd/cmd.h"
#include "kernel/kconfig.h"
#include "run/run.h"
#include "util/cmdline.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/stop.h"
#include "git/git.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/*
 * The words getopt took for the option it just returned with its argument
 * optarg: "--name=value", or "--name" before "value".  Whether they spell
 * a prefix of "--kernel", as `perfbot run --kernel BZIMAGE` does: getopt
 * would take it as an abbreviation of --kernel-tree, a tree to build
 * rather than a kernel to boot.
 */
static bool spells_kernel(char **argv, const char *arg)
{
	const char *word = argv[optind - 1];
	size_t n;

	if (word == arg && optind >= 2)
		word = argv[optind - 2];
	n = strcspn(word, "=");
	return n > 2 && n <= strlen("--kernel") && !strncmp(word, "--kernel", n);
}

static char *absolute(const char *path)
{
	char *r = realpath(path, NULL);
	return r ? r : abs_path(path);
}

int cmd_bisect(int argc, char **argv)
{
	enum { O_REPO = 256, O_GOOD, O_BAD, O_JOB, O_METRIC, O_BUILD, O_KTREE, O_KCONFIG, O_RUNS, O_MAXRUNS, O_TOTAL,
	       O_ALPHA, O_STATE, O_ROOT, O_RESUME, O_RESET, O_DB, O_NO_INDEX,
	       O_ACCEL, O_BOOT_TIMEOUT, O_CPUS, O_MEM, O_NUMA };
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, O_REPO },
		{ "good", required_argument, NULL, O_GOOD },
		{ "bad", required_argument, NULL, O_BAD },
		{ "job", required_argument, NULL, O_JOB },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "build", required_argument, NULL, O_BUILD },
		{ "kernel-tree", required_argument, NULL, O_KTREE },
		{ "config", required_argument, NULL, O_KCONFIG },
		{ "runs", required_argument, NULL, O_RUNS },
		{ "max-runs", required_argument, NULL, O_MAXRUNS },
		{ "max-total-runs", required_argument, NULL, O_TOTAL },
		{ "alpha", required_argument, NULL, O_ALPHA },
		{ "state", required_argument, NULL, O_STATE },
		{ "result-root", required_argument, NULL, O_ROOT },
		{ "resume", no_argument, NULL, O_RESUME },
		{ "reset", no_argument, NULL, O_RESET },
		{ "db", required_argument, NULL, O_DB },
		{ "no-index", no_argument, NULL, O_NO_INDEX },
		/* the VM each kernel boots in, as perfbot run --kernel takes them */
		{ "accel", required_argument, NULL, O_ACCEL },
		{ "boot-timeout", required_argument, NULL, O_BOOT_TIMEOUT },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "mem", required_argument, NULL, O_MEM },
		{ "numa", required_argument, NULL, O_NUMA },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("bisect");
	struct bisect_opts o;
	bool resume = false, reset = false;
	const char *state = NULL;       /* default: in the repository's git dir */
	const char *vm_opt = NULL;      /* the first VM option given, for errors */
	/* options anywhere before "--"; what follows it is the command's */
	int opts_end = cmdline_end(argc, argv, "vq", opts);
	int c, ret;

	memset(&o, 0, sizeof(o));
	optind = 0;     /* glibc starts afresh (and permutes) on 0 */
	while ((c = getopt_long(opts_end, argv, "vq", opts, NULL)) != -1) {
		char *end = NULL;
		switch (c) {
		case O_REPO: o.repo = absolute(optarg); break;
		case O_GOOD: o.good = xstrdup(optarg); break;
		case O_BAD: o.bad = xstrdup(optarg); break;
		case O_JOB: o.job_path = absolute(optarg); break;
		case O_METRIC: o.metric = xstrdup(optarg); break;
		case O_BUILD: o.m.build = xstrdup(optarg); break;
		case O_KTREE:
			if (spells_kernel(argv, optarg)) {
				error("bisect has no --kernel: did you mean --kernel-tree? "
				      "(the kernel source tree to build each commit of)");
				bisect_opts_release(&o);
				return EXIT_USAGE;
			}
			o.m.kernel_tree = absolute(optarg);
			break;
		case O_KCONFIG:
			/* a config file is read where the bisect runs, later too */
			o.m.kconfig = kconfig_is_builtin_name(optarg) ? xstrdup(optarg) : absolute(optarg);
			break;
		case O_RUNS:
			o.runs = (int)strtol(optarg, &end, 10);
			break;
		case O_MAXRUNS:
			o.max_runs = (int)strtol(optarg, &end, 10);
			break;
		case O_TOTAL:
			o.max_total_runs = (int)strtol(optarg, &end, 10);
			if (!*end && o.max_total_runs < 1)
				end = "x";
			break;
		case O_ALPHA:
			o.alpha = strtod(optarg, &end);
			if (!*end && (o.alpha <= 0 || o.alpha >= 1))
				end = "x";
			break;
		case O_STATE: state = optarg; break;
		case O_ROOT: o.result_base = absolute(optarg); break;
		case O_RESUME: resume = true; break;
		case O_RESET: reset = true; break;
		case O_DB:
			/* a relative path must name the same file on --resume */
			free(o.db);
			o.db = strstr(optarg, "://") || !strncmp(optarg, "sqlite:", 7) ?
				xstrdup(optarg) : absolute(optarg);
			break;
		case O_NO_INDEX: o.no_index = true; break;
		case O_ACCEL: case O_BOOT_TIMEOUT: case O_CPUS: case O_MEM: case O_NUMA:
			/* the parser run and watch share (kernel/vm.h) */
			vm_opt = c == O_ACCEL ? "accel" : c == O_BOOT_TIMEOUT ? "boot-timeout" :
				 c == O_CPUS ? "cpus" : c == O_MEM ? "mem" : "numa";
			if (kernel_vm_opt(&o.m.vm, vm_opt, optarg) < 0) {
				bisect_opts_release(&o);
				return EXIT_USAGE;
			}
			break;
		case 'v': o.verbose++; break;
		case 'q': o.no_progress = true; break;
		default:
			bisect_opts_release(&o);
			return cmd_usage(self, 0);
		}
		if (end && *end) {
			error("option '%s' expects a number, got '%s'", argv[optind - 2 >= 0 ? optind - 2 : 0], optarg);
			bisect_opts_release(&o);
			return EXIT_USAGE;
		}
	}
	if (optind == opts_end && opts_end + 1 < argc) {
		o.m.nr_command = argc - opts_end - 1;
		o.m.command = xcalloc((size_t)o.m.nr_command + 1, sizeof(char *));
		for (int i = 0; i < o.m.nr_command; i++)
			o.m.command[i] = xstrdup(argv[opts_end + 1 + i]);
	} else if (optind < opts_end) {
		error("unexpected argument '%s' (the benchmark command goes after --)", argv[optind]);
		bisect_opts_release(&o);
		return cmd_usage(self, 0);
	}
	if (vm_opt && (resume || reset)) {
		error("--%s: --%s takes the VM of the bisect's log, not a new one", vm_opt,
		      resume ? "resume" : "reset");
		bisect_opts_release(&o);
		return EXIT_USAGE;
	}
	if (vm_opt && !o.m.kernel_tree) {
		error("--%s sets the VM a kernel boots in: it needs --kernel-tree", vm_opt);
		bisect_opts_release(&o);
		return EXIT_USAGE;
	}
	if (reset && resume) {
		error("--reset removes the bisect that --resume would continue: give one");
		bisect_opts_release(&o);
		return EXIT_USAGE;
	}
	if (state) {
		o.state_path = absolute(state);
	} else {
		/* as git bisect: in the git dir, out of the work tree and the cwd */
		const char *repo = o.repo ? o.repo : o.m.kernel_tree ? o.m.kernel_tree : ".";
		char *gd;
		struct strbuf path = STRBUF_INIT;
		if (git_dir(repo, &gd) < 0) {
			error("no --state, and '%s' is no git repository to keep the bisect in%s", repo,
			      resume ? " (resume in the repository, or give --state)" :
			      reset ? " (reset in the repository, or give --state)" : "");
			bisect_opts_release(&o);
			return EXIT_USAGE;
		}
		path_join(&path, gd, "perfbot-bisect");
		free(gd);
		if (!resume && !reset && mkdir_p(path.buf, 0755) < 0) {
			strbuf_release(&path);
			bisect_opts_release(&o);
			return EXIT_ERROR;
		}
		strbuf_addstr(&path, "/state");
		o.state_path = strbuf_detach(&path, NULL);
	}
	if (reset) {
		ret = bisect_reset(o.state_path, o.repo, o.verbose);
		bisect_opts_release(&o);
		return ret;
	}
	if (!resume) {
		/* a kernel bisect bisects the kernel tree */
		if (o.m.kernel_tree && !o.repo)
			o.repo = xstrdup(o.m.kernel_tree);
		if (o.m.kernel_tree && o.m.build) {
			error("--kernel-tree builds each commit itself: drop --build");
			bisect_opts_release(&o);
			return EXIT_USAGE;
		}
		if (!o.repo || !o.good || !o.bad || !o.job_path || !o.metric) {
			error("bisect needs --repo, --good, --bad, --job and --metric (or --resume)");
			bisect_opts_release(&o);
			return cmd_usage(self, 0);
		}
		if (!o.result_base) {
			struct strbuf base = STRBUF_INIT;
			run_default_result_base(&base);
			mkdir_p(base.buf, 0755);
			o.result_base = absolute(base.buf);
			strbuf_release(&base);
		}
	} else if (!file_exists(o.state_path)) {
		error("no bisect to resume: '%s' does not exist", o.state_path);
		bisect_opts_release(&o);
		return EXIT_ERROR;
	}
	o.stop = catch_stop_signals();

	ret = bisect_run(&o, resume);
	if (*o.stop) {
		error("interrupted: continue with 'perfbot bisect --resume --state %s'", o.state_path);
		ret = BISECT_EXIT_INTERRUPTED;
	}
	bisect_opts_release(&o);
	return ret;
}
