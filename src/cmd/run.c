/*
 * run.c: `perfbot run JOB.yaml [options] [-- COMMAND [ARG...]]`.
 *
 * Loads the job, splits it into atomic jobs (one per combination of a
 * job's lists), and runs them with run_job() (src/run/run.h): several
 * atoms on this machine take turns, one run each, round after round
 * (run/interleave.h); a kernel's one after the other.
 *
 * SIGINT and SIGTERM set the stop flag (util/stop.h).  run_job polls it,
 * kills the benchmark's process group, marks the run incomplete and still
 * writes and unites it; perfbot then exits 130.
 */
#include "cmd/cmd.h"
#include "job/job.h"
#include "job/split.h"
#include "kernel/vm.h"
#include "run/desc.h"
#include "run/interleave.h"
#include "run/run.h"
#include "store/ingest.h"
#include "util/cmdline.h"
#include "util/error.h"
#include "util/stop.h"
#include "util/xalloc.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct run_cmd {
	struct run_opts opts;
	bool index;              /* index each result root into the store */
	const char *db;          /* that store (store_open's spec; NULL: default) */
	struct kernel_vm_opts vm;        /* --kernel: runs in QEMU (kernel/vm.h) */
	int status;              /* worst of the atoms: 0, 1 incomplete, -1 */
	int atoms;
	struct strbuf said;      /* run_job's warnings said: once per invocation */
	struct atom_runs *atoms_v;       /* the atomic jobs, in lkp's order */
	int nr_atoms;
	size_t alloc_atoms;
};

/* What the runs of one atomic job came to, over its run_job calls. */
struct atom_runs {
	struct job *atom;
	int want;                /* its runs: -n, else its nr_run */
	char *result_root;
	int nr_runs, nr_incomplete;
	bool united;
};

/* The atomic jobs, kept in lkp's order to be run in turns. */
static int collect_atom(struct job *atom, void *ctx)
{
	struct run_cmd *rc = ctx;
	long long nr = 1;

	if (*rc->opts.stop) {
		job_free(atom);
		return 0;
	}
	if (job_expand_percentages(atom, 0) < 0) {
		job_free(atom);
		return -1;
	}
	if (job_get_int(atom, "nr_run", &nr) < 0)
		nr = 1;
	ALLOC_GROW(rc->atoms_v, (size_t)rc->nr_atoms + 1, rc->alloc_atoms);
	struct atom_runs *a = &rc->atoms_v[rc->nr_atoms++];
	memset(a, 0, sizeof(*a));
	a->atom = atom;
	a->want = rc->opts.runs > 0 ? rc->opts.runs : nr > 0 && nr < 100000 ? (int)nr : 1;
	return 0;
}

/* runs more runs of a->atom.  0, or -1 when nothing could be run. */
static int run_atom(struct run_cmd *rc, struct atom_runs *a, int runs)
{
	struct job *atom = a->atom;
	struct run_result res;
	int r;

	rc->opts.job = atom;
	rc->opts.runs = runs;
	rc->atoms++;
	/* a kernel under test: --kernel, or lkp's `kernel:` key in the job */
	struct kernel_vm vm;
	struct job_desc_keys keys;
	job_desc_keys(atom, &keys);
	const char *kernel = rc->vm.kernel ? rc->vm.kernel : keys.kernel;
	if (kernel) {
		struct kernel_vm_opts ko = rc->vm;
		char ibuf[32];
		char *args[5] = { NULL };
		int na = 0;
		ko.kernel = kernel;
		ko.commit = rc->opts.commit;
		ko.verbose = rc->opts.verbose;
		ko.status_line = rc->opts.status_line;
		ko.stop = rc->opts.stop;
		if (rc->opts.monitors) {
			args[na++] = "-M";
			args[na++] = (char *)rc->opts.monitors;
		}
		if (rc->opts.interval > 0) {
			snprintf(ibuf, sizeof(ibuf), "%g", rc->opts.interval);
			args[na++] = "-i";
			args[na++] = ibuf;
		}
		if (kernel_vm_prepare(&vm, &ko, atom, args, rc->opts.command) < 0) {
			/* the atom is rc's (collect_atom), freed with the others */
			kernel_vm_release(&vm);
			return -1;
		}
		rc->opts.backend = &vm.backend;
	}
	r = run_job(&rc->opts, &res);
	if (kernel) {
		kernel_vm_release(&vm);
		rc->opts.backend = NULL;
	}
	if (res.result_root && !a->result_root)
		a->result_root = xstrdup(res.result_root);
	a->nr_runs += res.nr_runs;
	a->nr_incomplete += res.nr_incomplete;
	a->united |= res.united;
	if (r < 0 || (r == 1 && rc->status == 0))
		rc->status = r;
	run_result_release(&res);
	return r < 0 ? -1 : 0;
}

/* An atom's runs done: indexed into the store, and said. */
static void atom_done(struct run_cmd *rc, struct atom_runs *a)
{
	if (a->united && rc->index)
		store_index_result_root(rc->db, a->result_root);
	if (a->result_root && a->nr_runs)
		printf("%s: %d run%s%s\n", a->result_root, a->nr_runs, a->nr_runs == 1 ? "" : "s",
		       a->nr_incomplete ? " (some incomplete)" : "");
}

/*
 * Run the atoms: in turns (run/interleave.h) when there are several on
 * this machine, so that load that comes and goes lands on all of them,
 * not on the one that happened to run then; a kernel's atoms one after
 * the other (each call boots its VM).  0, or -1 at the first atom that
 * could not be run.
 */
static int run_atoms(struct run_cmd *rc)
{
	bool turns = rc->nr_atoms > 1 && !rc->vm.kernel;
	int *want = NULL, *plan = NULL, n = 0, r = 0;

	for (int i = 0; i < rc->nr_atoms && turns; i++)
		turns = !job_get(rc->atoms_v[i].atom, "kernel");
	if (!turns) {
		for (int i = 0; i < rc->nr_atoms && r == 0 && !*rc->opts.stop; i++) {
			r = run_atom(rc, &rc->atoms_v[i], rc->atoms_v[i].want);
			atom_done(rc, &rc->atoms_v[i]);
		}
		return r;
	}
	want = xcalloc((size_t)rc->nr_atoms, sizeof(*want));
	for (int i = 0; i < rc->nr_atoms; i++)
		want[i] = rc->atoms_v[i].want;
	plan = xcalloc((size_t)interleave_total(want, rc->nr_atoms) + 1, sizeof(*plan));
	n = interleave_plan(want, rc->nr_atoms, plan);
	for (int k = 0; k < n && r == 0 && !*rc->opts.stop; k++)
		r = run_atom(rc, &rc->atoms_v[plan[k]], 1);
	for (int i = 0; i < rc->nr_atoms; i++)
		atom_done(rc, &rc->atoms_v[i]);
	free(want);
	free(plan);
	return r;
}



int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'n' },
		{ "result-root", required_argument, NULL, 'r' },
		{ "commit", required_argument, NULL, 'c' },
		{ "monitors", required_argument, NULL, 'M' },
		{ "interval", required_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "db", required_argument, NULL, 'd' },
		{ "no-index", no_argument, NULL, 'N' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "accel", required_argument, NULL, 'A' },
		{ "boot-timeout", required_argument, NULL, 'B' },
		{ "cpus", required_argument, NULL, 'P' },
		{ "mem", required_argument, NULL, 'm' },
		{ "numa", required_argument, NULL, 'u' },
		{ "no-cgroup", no_argument, NULL, 'G' },
		{ "cpuset", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("run");
	struct run_cmd rc;
	struct split_opts sopts;
	struct job *job = NULL;
	static const char shortopts[] = "n:r:c:M:i:vK:";
	/* options anywhere before "--"; what follows it is the command's */
	int opts_end = cmdline_end(argc, argv, shortopts, opts);
	int c;

	memset(&rc, 0, sizeof(rc));
	strbuf_init(&rc.said, 0);
	memset(&sopts, 0, sizeof(sopts));
	rc.index = true;
	optind = 0;     /* glibc starts afresh (and permutes) on 0 */
	while ((c = getopt_long(opts_end, argv, shortopts, opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'n':
			rc.opts.runs = (int)strtol(optarg, &end, 10);
			if (*end || rc.opts.runs < 1) {
				error("--runs expects a positive number, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r': rc.opts.result_base = optarg; break;
		case 'c': rc.opts.commit = optarg; break;
		case 'M': rc.opts.monitors = optarg; break;
		case 'i':
			rc.opts.interval = strtod(optarg, &end);
			if (*end || rc.opts.interval <= 0) {
				error("--interval expects seconds, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'v': rc.opts.verbose++; break;
		case 'd': rc.db = optarg; break;
		case 'N': rc.index = false; break;
		case 'K': rc.vm.kernel = optarg; break;
		case 'G': rc.opts.no_cgroup = true; break;
		case 'C': rc.opts.cpuset = optarg; break;
		case 'A': case 'B': case 'P': case 'm': case 'u':
			/* the VM options run, bisect and watch share (kernel/vm.h) */
			if (kernel_vm_opt(&rc.vm, c == 'A' ? "accel" : c == 'B' ? "boot-timeout" :
					  c == 'P' ? "cpus" : c == 'm' ? "mem" : "numa", optarg) < 0)
				return EXIT_USAGE;
			break;
		default:
			return cmd_usage(self, 0);
		}
	}
	if (optind >= opts_end) {
		error("run needs a job file");
		return cmd_usage(self, 0);
	}
	const char *job_path = argv[optind++];
	if (optind < opts_end) {
		error("unexpected argument '%s' (the benchmark command goes after --)", argv[optind]);
		return cmd_usage(self, 0);
	}
	if (opts_end + 1 < argc)
		rc.opts.command = argv + opts_end + 1;

	if (job_load(job_path, &job) < 0)
		return EXIT_ERROR;
	/* the benchmark finds the build as under bisect: here, the checkout
	 * perfbot runs in (a report's reproduce lines run it so) */
	struct strbuf build_env = STRBUF_INIT;
	char *cwd = getenv("PERFBOT_BUILD_DIR") ? NULL : getcwd(NULL, 0);
	char *envv[] = { NULL, NULL };
	if (cwd) {
		strbuf_addf(&build_env, "PERFBOT_BUILD_DIR=%s", cwd);
		envv[0] = build_env.buf;
		rc.opts.env = envv;
		free(cwd);
	}
	rc.opts.status_line = isatty(2) && !rc.opts.verbose;
	rc.opts.in_guest = getenv("PERFBOT_GUEST") != NULL;
	/* a log or a pipe gets what the status line shows, a line a run */
	rc.opts.progress_lines = !isatty(2) && !rc.opts.verbose && !rc.opts.in_guest;
	rc.opts.stop = catch_stop_signals();
	rc.opts.said = &rc.said;

	int r = job_split(job, job_path, &sopts, collect_atom, &rc);
	if (r == 0)
		r = run_atoms(&rc);
	for (int i = 0; i < rc.nr_atoms; i++) {
		job_free(rc.atoms_v[i].atom);
		free(rc.atoms_v[i].result_root);
	}
	free(rc.atoms_v);
	job_free(job);
	strbuf_release(&build_env);
	strbuf_release(&rc.said);
	if (*rc.opts.stop) {
		error("interrupted: the current run is kept, marked incomplete");
		return 130;
	}
	if (r < 0 || rc.status < 0)
		return EXIT_ERROR;
	return rc.status ? EXIT_ERROR : 0;
}
