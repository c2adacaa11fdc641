/*
 * run.c: running an atomic job N times with monitors (see run.h).
 */
#include "run/run.h"
#include "run/run_impl.h"
#include "monitor/monitor.h"
#include "monitor/reduce.h"
#include "monitor/sampler.h"
#include "parse/parser.h"
#include "result/matrix.h"
#include "result/unite.h"
#include "run/cgroup.h"
#include "run/leftovers.h"
#include "run/meanwhile.h"
#include "monitor/perf.h"
#include "run/setup.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/pathsafe.h"
#include "util/quote.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long a profile from the start waits for perf to record before the
 * benchmark starts anyway: perf opening its events on every CPU and
 * writing its header takes seconds on a loaded host, tens of them in an
 * emulated guest; only a perf that hangs reaches this. */
#define PERF_READY_MAX 60

void run_default_result_base(struct strbuf *sb)
{
	const char *env = getenv("PERFBOT_RESULT_ROOT");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		strbuf_addstr(sb, env);
	else if (xdg && *xdg)
		strbuf_addf(sb, "%s/perfbot/result", xdg);
	else
		strbuf_addf(sb, "%s/.local/share/perfbot/result", home && *home ? home : "/tmp");
}

void run_result_release(struct run_result *res)
{
	free(res->result_root);
	for (int i = 0; i < res->nr_runs; i++)
		free(res->run_dirs[i]);
	free(res->run_dirs);
	memset(res, 0, sizeof(*res));
}

/* ---- one run --------------------------------------------------------- */

__attribute__((format(printf, 2, 3)))
void run_phase(struct run_ctx *rc, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	strbuf_addf(&rc->log, "%.3f %s\n", now_seconds(), msg.buf);
	if (rc->opts->verbose)
		fprintf(stderr, "perfbot: run %d/%d: %s\n", rc->k, rc->n, msg.buf);
	strbuf_release(&msg);
}

static void status(struct run_ctx *rc, const char *what, double elapsed)
{
	double expect = rc->last_duration > 0 ? rc->last_duration : rc->desc->runtime;

	if (!rc->opts->status_line)
		return;
	fprintf(stderr, "\r\033[K%s%srun %d/%d: %s %.0fs", rc->opts->label ? rc->opts->label : "",
		rc->opts->label ? ": " : "", rc->k, rc->n, what, elapsed);
	if (expect > 0) {
		double left = expect - elapsed + (rc->n - rc->k) * expect;
		fprintf(stderr, ", ETA %.0fs", left > 0 ? left : 0);
	}
	fflush(stderr);
}

static int next_run_index(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int max = -1;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (end != de->d_name && !*end && v > max && v < 1000000)
			max = (int)v;
	}
	closedir(d);
	return max + 1;
}

/*
 * The run dir is new, never reused: held_dir_make fails on a name that
 * exists, so a link planted at ".run-K.<pid>" (in a result root another
 * user can write) never receives a run.  Such a name, or another user's
 * dir there, is skipped for the next K; the pid, which the leftovers
 * reaping reads, stays in the name.  Once made, the dir is held open and
 * written through its fd (fileio.h's held_dir): renamed away and
 * replaced by a link mid-run, it still gets the run's files, and the
 * link none.
 */
int run_dir_hold(const char *result_root, struct held_dir *hd)
{
	struct strbuf tmp = STRBUF_INIT;
	int k = next_run_index(result_root), r = 1;

	for (int tries = 0; r == 1 && tries < 100; tries++, k++) {
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%s/.run-%d.%ld", result_root, k, (long)getpid());
		r = held_dir_make(hd, tmp.buf, 0755);
	}
	if (r == 1)
		error("cannot create directory '%s': it exists and is not a directory of "
		      "ours (nor are 99 names before it); refusing to use it", tmp.buf);
	strbuf_release(&tmp);
	return r ? -1 : 0;
}

int run_dir_publish_held(const char *result_root, struct held_dir *hd, char **final_dir)
{
	struct strbuf dst = STRBUF_INIT;
	int k = next_run_index(result_root), r = 1;

	/* another perfbot may have taken number k meanwhile: take the next */
	for (int tries = 0; r == 1 && tries < 100; tries++, k++) {
		strbuf_reset(&dst);
		strbuf_addf(&dst, "%s/%d", result_root, k);
		r = held_dir_publish(hd, dst.buf);
		if (r == 1)
			k = next_run_index(result_root) - 1;
	}
	if (r == 1)
		error("cannot rename '%s' to '%s': the run numbers up to it are taken", hd->path,
		      dst.buf);
	if (r) {
		strbuf_release(&dst);
		return -1;
	}
	*final_dir = strbuf_detach(&dst, NULL);
	return 0;
}

/* The benchmark to run, as the description has it (desc.h). */
static void benchmark_command(const struct job_desc *d, struct child_process *cp)
{
	if (d->command)
		cp->argv = d->command;
	else if (d->shell_command)
		cp->shell_cmd = d->shell_command;
	else
		cp->argv = d->bench_argv.v;
}

static void to_timespec(double t, struct timespec *ts)
{
	ts->tv_sec = (time_t)t;
	ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
}

__attribute__((format(printf, 2, 3)))
static void say_once(const struct run_opts *opts, const char *fmt, ...);

/*
 * The run's cgroup (cgroup.h), into *cg: 1 made, 0 none (the reason said
 * once and kept in rc->isolation), -1 error (a cpuset the kernel refused).
 */
static int isolate(struct run_ctx *rc, struct run_cgroup *cg)
{
	struct strbuf why = STRBUF_INIT;
	struct timespec now;
	char leaf[64];
	int r;

	strbuf_reset(&rc->isolation);
	if (rc->opts->no_cgroup) {
		strbuf_addstr(&rc->isolation, "none: --no-cgroup");
		return 0;
	}
	/*
	 * pid-<monotonic ns>: each run of this perfbot its own name (a
	 * leaf a dying run could not remove is not reused) without a
	 * counter kept outside the run; the pid is what a later start
	 * reads to clean a dead perfbot's leaves (cgroup_leaf_pid).
	 */
	clock_gettime(CLOCK_MONOTONIC, &now);
	snprintf(leaf, sizeof(leaf), "%ld-%lld", (long)getpid(),
		 (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
	r = run_cgroup_create(cg, getenv("PERFBOT_CGROUP_MOUNTINFO"), leaf, rc->desc->cpuset, &why);
	if (r == 0) {
		strbuf_addf(&rc->isolation, "cgroup %s (%s)", cg->name, cg->settings.buf);
		run_phase(rc, "isolated in cgroup %s (%s)", cg->name, cg->settings.buf);
	} else if (r > 0) {
		strbuf_addf(&rc->isolation, "none: %s", why.buf);
		/* once per job (its runs), once per bisect (opts->said) */
		if (!rc->warned_isolation++)
			say_once(rc->opts, "warning: the benchmark runs without a cgroup of its own (%s): "
			 "in its process group only, as without isolation", why.buf);
	}
	strbuf_release(&why);
	return r < 0 ? -1 : r == 0;
}

/* The end of the cgroup: what is left in it killed, logged. */
static void unisolate(struct run_ctx *rc, struct run_cgroup *cg, bool *on)
{
	if (!*on)
		return;
	*on = false;
	int left = run_cgroup_destroy(cg);
	if (left > 0)
		run_phase(rc, "killed %d process%s the benchmark left in its cgroup", left,
			  left == 1 ? "" : "es");
}

/* One run into a temporary dir, renamed into place.  0 complete, 1
 * incomplete, -1 error (nothing usable). */
static int run_once(struct run_ctx *rc, char **final_dir)
{
	const struct run_opts *opts = rc->opts;
	struct strbuf tmp = STRBUF_INIT, path = STRBUF_INIT;
	struct held_dir hd = { -1, NULL };
	struct child_process cp;
	struct sampler *sampler = NULL;
	struct perf_proc pstat = { 0 }, prec = { 0 };
	struct outcome o = { 0 };
	struct run_setup setup = RUN_SETUP_INIT;
	setup.cpu_sysfs = rc->cpu_sysfs;
	bool pstat_on = false, prec_on = false, activated = false;
	const struct job_desc *d = rc->desc;
	double prof_delay = d->perf_profile_delay;
	double prof_duration = d->perf_profile_duration;
	struct run_cgroup cg;
	bool cg_on = false;
	struct meanwhile_snap snap0, snap1;
	/* the benchmark's environment, kept for the count under cachegrind */
	struct strbuf rundir_env = STRBUF_INIT;
	char **env = NULL;
	int ret = -1;

	memset(&cg, 0, sizeof(cg));
	child_process_init(&cp);
	strbuf_reset(&rc->log);
	strbuf_reset(&rc->isolation);
	rc->has_mw = false;
	rc->has_instructions = false;
	if (run_dir_hold(rc->result_root, &hd) < 0)
		goto out;
	/* the dir's name, for messages and for the benchmark's
	 * PERFBOT_RUN_DIR (the run's files go through hd's fd) */
	strbuf_addstr(&tmp, hd.path);
	rc->dir = &hd;
	run_phase(rc, "setup in %s", tmp.buf);
	job_to_yaml(rc->saved_job, &path);
	if (held_dir_write(&hd, "job.yaml", path.buf, path.len) < 0)
		goto out;
	/* fs:, disk:, cpufreq_governor: before monitors, so mkfs is not measured */
	int sr = run_setup_apply_plan(&d->setup, rc->work_base, &setup, &rc->log);
	if (sr) {
		/* the message is out; a run that never began leaves no folder */
		held_dir_remove(&hd);
		goto out;
	}
	if (setup.mnt)
		run_phase(rc, "setup: %s mounted on %s", d->setup.fs_name ? d->setup.fs_name : "fs",
			  setup.mnt);
	if (setup.eaten) {
		/* what the benchmark ran beside, for whoever reads the run */
		struct strbuf eat = STRBUF_INIT;
		strbuf_addf(&eat, "locked_bytes: %llu\nmem_available_before: %llu\npid: %ld\n"
			    "asked: %s\n", setup.eaten, setup.eat_avail, setup.eater,
			    d->setup.eatmem.desc);
		int w = held_dir_write(&hd, "eatmem", eat.buf, eat.len);
		strbuf_release(&eat);
		if (w < 0)
			goto out;
		run_phase(rc, "setup: eatmem locked %llu bytes (pid %ld)", setup.eaten, setup.eater);
	}

	struct sampler_opts so = { .interval = d->interval, .intervals = d->intervals,
				   .root = rc->monitor_root };
	sampler = sampler_start_opts(d->monitors, &hd, &so);
	if (!sampler)
		goto out;
	if (d->perf_stat) {
		if (perf_stat_start(&pstat, &rc->caps, &hd, d->interval) == 0)
			pstat_on = true;
	}
	run_phase(rc, "monitors started (%d sampled%s%s)", (int)d->nr_monitors,
	      pstat_on ? ", perf-stat" : "", d->perf_profile ? ", perf-profile" : "");
	/* a profile from the start: perf first, and the benchmark once perf
	 * records (perf_record_wait_ready says why) */
	if (d->perf_profile && prof_delay <= 0 &&
	    perf_record_start(&prec, &rc->caps, &hd, prof_duration) == 0) {
		int ready = perf_record_wait_ready(&prec, PERF_READY_MAX);
		prec_on = true;         /* finish reports what perf left */
		if (ready > 0)
			run_phase(rc, "perf record started (%s)", rc->caps.record_event);
		else if (!ready)
			run_phase(rc, "perf record started (%s), not recording after %ds: the "
				  "benchmark starts anyway", rc->caps.record_event, PERF_READY_MAX);
		else
			run_phase(rc, "perf record ended before recording");
	}

	int iso = isolate(rc, &cg);
	if (iso < 0) {
		/* said; a run that never began leaves no folder */
		held_dir_remove(&hd);
		goto out;
	}
	cg_on = iso > 0;
	benchmark_command(d, &cp);
	strbuf_addf(&rundir_env, "PERFBOT_RUN_DIR=%s", tmp.buf);
	size_t nenv = 0, nsetup = 0;
	while (opts->env && opts->env[nenv])
		nenv++;
	while (setup.env && setup.env[nsetup])
		nsetup++;
	env = xcalloc(nenv + nsetup + 2, sizeof(char *));
	for (size_t i = 0; i < nenv; i++)
		env[i] = opts->env[i];
	for (size_t i = 0; i < nsetup; i++)
		env[nenv + i] = setup.env[i];
	env[nenv + nsetup] = rundir_env.buf;
	cp.env = env;
	/* a benchmark with a test filesystem runs in it, as lkp's do */
	cp.dir = opts->workdir ? opts->workdir : setup.mnt;
	/* stdout and stderr: new files made through the held dir */
	cp.out_fd = held_dir_create(&hd, d->testcase);
	cp.err_fd = cp.out_fd < 0 ? -1 : held_dir_create(&hd, "stderr");
	if (cp.err_fd < 0) {
		if (cp.out_fd >= 0)
			close(cp.out_fd);
		held_dir_remove(&hd);
		goto out;
	}
	cp.no_stdin = true;
	cp.new_pgrp = true;
	/* a perfbot killed with -9 takes its benchmark's group along, and
	 * its cgroup where cgroup.kill can */
	cp.die_with_parent = true;
	if (cg_on) {
		cp.cgroup_fds = cg.fds;
		cp.nr_cgroup_fds = cg.nr;
		cp.cgroup_kill_fd = cg.kill_fd;
	}
	meanwhile_snap(&snap0, rc->monitor_root, cg_on ? &cg : NULL);
	int started = start_command(&cp);
	if (started < 0 && cp.cgroup_errno) {
		/* the cgroup was made but refuses the benchmark: run as before */
		const char *e = strerror(cp.cgroup_errno);
		strbuf_reset(&rc->isolation);
		strbuf_addf(&rc->isolation, "none: the benchmark could not join %s: %s", cg.name, e);
		if (!rc->warned_isolation++)
			say_once(opts, "warning: the benchmark runs without a cgroup of its own (it could "
				 "not join %s: %s)", cg.name, e);
		unisolate(rc, &cg, &cg_on);
		cp.cgroup_fds = NULL;
		cp.nr_cgroup_fds = 0;
		cp.cgroup_kill_fd = -1;
		started = start_command(&cp);
	}
	close(cp.out_fd);
	close(cp.err_fd);
	cp.out_fd = cp.err_fd = -1;
	if (started < 0)
		goto out;
	run_phase(rc, "benchmark started (pid %ld)", (long)cp.pid);

	int r;
	double t0 = cp.start, last_status = 0;
	for (;;) {
		r = poll_command(&cp);
		if (r < 0)
			goto out;
		double el = now_seconds() - t0;
		if (!activated && el >= d->monitor_delay) {
			sampler_activate(sampler);
			activated = true;
			run_phase(rc, "monitors activated");
		}
		if (d->perf_profile && !prec_on && prof_delay > 0 && el >= prof_delay && r == 1) {
			if (perf_record_start(&prec, &rc->caps, &hd, prof_duration) == 0) {
				prec_on = true;
				run_phase(rc, "perf record started (%s)", rc->caps.record_event);
			}
		}
		if (r == FINISH_EXITED)
			break;
		if (opts->stop && *opts->stop) {
			kill_command(&cp, 2);
			o.interrupted = true;
			o.why = "interrupted";
			break;
		}
		if (d->timeout > 0 && el >= d->timeout) {
			kill_command(&cp, 2);
			o.timeout = true;
			o.why = "timeout";
			break;
		}
		if (el - last_status >= 0.5) {
			status(rc, "benchmark", el);
			last_status = el;
		}
		usleep(10000);
	}
	meanwhile_snap(&snap1, rc->monitor_root, cg_on ? &cg : NULL);
	if (!snap1.cg.has_usage && cp.end > 0) {
		/* no cgroup: the benchmark's own and its waited-for children's,
		 * from wait4 (what escaped it counts as other work) */
		snap1.cg.usage_usec = (unsigned long long)(cp.ru.ru_utime.tv_sec + cp.ru.ru_stime.tv_sec) *
				      1000000ULL + (unsigned long long)(cp.ru.ru_utime.tv_usec +
									cp.ru.ru_stime.tv_usec);
		snap1.cg.has_usage = true;
	}
	meanwhile_figures(&snap0, &snap1, (double)sysconf(_SC_CLK_TCK), &rc->mw);
	if (rc->opts->in_guest)
		rc->mw.other_cpu = -1;
	rc->has_mw = true;
	/* the benchmark is gone: so is all it started, setsid or not */
	unisolate(rc, &cg, &cg_on);
	double duration = now_seconds() - t0;
	rc->last_duration = duration;
	if (!activated)
		sampler_activate(sampler);
	run_phase(rc, "benchmark ended after %.2fs", duration);
	status(rc, "stopping monitors", duration);

	/* what the monitors cost the machine, for whoever doubts them */
	double sampler_cpu = sampler_cpu_seconds(sampler);
	if (sampler_cpu >= 0 && duration > 0)
		run_phase(rc, "sampler thread used %.3fs of CPU, %.3f%% of a core",
		      sampler_cpu, 100 * sampler_cpu / duration);
	/* a benchmark shorter than perf-profile's delay gets no profile */
	int mret = sampler_stop(sampler);
	sampler = NULL;
	if (pstat_on && perf_stat_finish(&pstat, &hd) < 0)
		run_phase(rc, "perf-stat output could not be parsed");
	if (prec_on && perf_record_finish(&prec, &hd) < 0)
		run_phase(rc, "perf-profile report failed");
	if (mret < 0)
		run_phase(rc, "a monitor failed (see stderr)");

	if (WIFEXITED(cp.status))
		o.exit_status = WEXITSTATUS(cp.status);
	else if (WIFSIGNALED(cp.status))
		o.exit_status = 128 + WTERMSIG(cp.status);
	if (!o.timeout && !o.interrupted && o.exit_status) {
		o.failed_exit = true;
		o.why = "benchmark exited with non-zero status";
	}
	o.incomplete = o.timeout || o.interrupted || o.failed_exit;
	/* `measure: instructions`: once more, under cachegrind, unmonitored */
	if (d->measure_instructions && !o.incomplete &&
	    run_count_instructions(rc, env, cp.dir) != 0) {
		o.incomplete = true;
		o.why = "the count of instructions under cachegrind failed";
	}

	struct time_result tr = { 0 };
	tr.ru = cp.ru;
	tr.status = cp.status;
	tr.command = cp.argv ? cp.argv[0] : cp.shell_cmd;
	to_timespec(cp.start, &tr.start);
	to_timespec(cp.end > 0 ? cp.end : now_seconds(), &tr.end);
	if (time_write(&hd, &tr) < 0)
		goto out;
	if (o.failed_exit)
		run_report_failed_exit(rc, o.exit_status);
	/* what a failed benchmark printed may still be worth keeping, but
	 * "no metrics found" in nothing is not news after the above */
	struct stat out_st;
	if (o.interrupted)
		/* killed by us: half an output, no news (the caller says
		 * "interrupted"); the run is incomplete anyway */
		run_phase(rc, "interrupted: output not parsed");
	else if (o.failed_exit && fstatat(hd.fd, d->testcase, &out_st, AT_SYMLINK_NOFOLLOW) == 0 &&
		 out_st.st_size == 0)
		run_phase(rc, "benchmark printed nothing");
	else if (run_parse_benchmark(rc) < 0)
		o.incomplete = true;
	if (run_write_last_state(rc, &o) < 0 || run_write_stats(rc, &o) < 0 ||
	    run_write_machine(rc->monitor_root, rc) < 0)
		goto out;
	run_phase(rc, "stats written%s", o.incomplete ? " (run incomplete)" : "");
	held_dir_write(&hd, "perfbot.log", rc->log.buf, rc->log.len);

	if (run_dir_publish_held(rc->result_root, &hd, final_dir) < 0)
		goto out;
	ret = o.incomplete ? 1 : 0;
out:
	if (sampler)
		sampler_stop(sampler);
	if (cp.pid > 0)
		kill_command(&cp, 1);
	unisolate(rc, &cg, &cg_on);
	if (pstat.running)
		perf_stat_finish(&pstat, &hd);
	if (prec.running)
		perf_record_finish(&prec, &hd);
	/* last: nothing may keep the test filesystem busy any more */
	run_setup_undo(&setup, &rc->log);
	free(env);
	strbuf_release(&rundir_env);
	held_dir_close(&hd);
	rc->dir = NULL;
	strbuf_release(&tmp);
	strbuf_release(&path);
	return ret;
}

/* "perfbot: <msg>" on stderr, unless opts->said has it already. */
static void say_once(const struct run_opts *opts, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	strbuf_addch(&msg, '\n');
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	strbuf_addch(&msg, '\n');
	if (opts->said) {
		/* each line said is kept as "\nline\n" from its first '\n' */
		if (opts->said->len && strstr(opts->said->buf, msg.buf)) {
			strbuf_release(&msg);
			return;
		}
		if (!opts->said->len)
			strbuf_addch(opts->said, '\n');
		strbuf_add(opts->said, msg.buf + 1, msg.len - 1);
	}
	fprintf(stderr, "perfbot: %.*s\n", (int)msg.len - 2, msg.buf + 1);
	strbuf_release(&msg);
}

int run_job(const struct run_opts *opts, struct run_result *res)
{
	struct run_ctx rc;
	struct job_desc desc = JOB_DESC_INIT;
	struct strbuf base = STRBUF_INIT, rr = STRBUF_INIT;
	struct strbuf work_dir = STRBUF_INIT, cpu_sysfs = STRBUF_INIT;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	memset(&rc, 0, sizeof(rc));
	rc.opts = opts;
	rc.desc = &desc;
	strbuf_init(&rc.log, 0);
	strbuf_init(&rc.isolation, 0);
	strbuf_init(&rc.skipped_monitors, 0);
	/* every key the stages below need, once: they read desc, not the job */
	if (job_desc_decode(opts->job, opts, &desc) < 0)
		goto out;
	rc.n = opts->runs > 0 ? opts->runs : desc.nr_run;

	if (opts->result_base)
		strbuf_addstr(&base, opts->result_base);
	else
		run_default_result_base(&base);
	/* the benchmark runs in its own cwd (workdir): paths must not be
	 * relative to ours */
	if (mkdir_p(base.buf, 0755) < 0)
		goto out;
	char *abs_base = realpath(base.buf, NULL);
	if (abs_base) {
		strbuf_reset(&base);
		strbuf_addstr(&base, abs_base);
		free(abs_base);
	}
	strbuf_add(&rr, base.buf, base.len);
	if (rr.len && rr.buf[rr.len - 1] != '/')
		strbuf_addch(&rr, '/');
	strbuf_add(&rr, desc.result_path.buf, desc.result_path.len);
	/* disks and mounts live outside the result tree, in one private
	 * place per user (run/workdir.h), so that leftovers of a perfbot
	 * killed with -9 are found */
	run_setup_paths(&work_dir, &cpu_sysfs);
	rc.work_base = work_dir.buf;
	rc.cpu_sysfs = cpu_sysfs.buf;
	/* what the machine lacks (brd, a tool, root, RAM) fails here, once,
	 * before any folder or monitor; each run applies the setup again.
	 * A backend sets up where the benchmark runs. */
	if (!opts->backend && (desc.setup_cannot ? run_setup_refuse(desc.setup_why.buf, &rc.log) :
			       run_setup_check_plan(&desc.setup, rc.work_base, rc.cpu_sysfs, &rc.log)))
		goto out;
	if (mkdir_p(rr.buf, 0755) < 0)
		goto out;
	res->result_root = xstrdup(rr.buf);
	rc.result_root = res->result_root;
	/*
	 * lkp's job.yaml of a run names its result-path keys; a local job
	 * leaves them to defaults, so write down what the path says
	 * (.../tbox_group/rootfs/kconfig/compiler/commit), for compare's
	 * axes line and for anyone reading the run later.
	 */
	rc.saved_job = job_dup(opts->job);
	{
		static const char *const keys[] = { "commit", "compiler", "kconfig", "rootfs", "tbox_group" };
		char *p = rr.buf + rr.len;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			char *slash = p;
			while (slash > rr.buf && slash[-1] != '/')
				slash--;
			char *part = xstrndup(slash, (size_t)(p - slash));
			job_set_default(rc.saved_job, keys[i], job_scalar_new(part));
			free(part);
			p = slash > rr.buf ? slash - 1 : rr.buf;
		}
		job_set_default(rc.saved_job, "testcase", job_scalar_new(desc.testcase));
		/* the run's job.yaml is no longer the file that named it */
		if (desc.name.len)
			job_set_default(rc.saved_job, "name", job_scalar_new(desc.name.buf));
		/* the command after -- is what ran: job.yaml keeps it, the
		 * result path does not (job_result_params) */
		if (opts->command && !job_lookup(rc.saved_job, "mytest")) {
			struct job_value *m = job_value_new(JOB_MAP);
			struct strbuf cmd = STRBUF_INIT;
			int argc = 0;

			while (opts->command[argc])
				argc++;
			shell_quote_argv(&cmd, opts->command, argc);
			job_map_set(m, "command", job_string_new(cmd.buf));
			job_set_value(rc.saved_job, "mytest", m);
			strbuf_release(&cmd);
		}
	}

	/* a killed perfbot's leftovers and half-made run dirs go first */
	if (run_reap_leftovers(rc.result_root) < 0)
		goto out_plan;

	/* a backend runs the monitors where the benchmark runs */
	if (opts->backend)
		goto runs;
	if (opts->perf_caps)
		perf_caps_copy(&rc.caps, opts->perf_caps);
	else if (desc.perf_stat || desc.perf_profile)
		perf_probe(&rc.caps);
	else
		/* no perf monitor asked for: the probe (`perf stat -a true`)
		 * would be a third of a plain run's CPU, spent for nothing */
		rc.caps = (struct perf_caps){ .why = STRBUF_INIT, .stat_events = STRBUF_INIT,
					      .unsupported = STRBUF_INIT };
	/* the tests point the monitors at a made-up /proc and /sys, so that
	 * what they check does not depend on this machine's drivers */
	rc.monitor_root = getenv("PERFBOT_MONITOR_ROOT");
	if (!rc.monitor_root)
		rc.monitor_root = "";
	run_check_monitors(&desc, &rc.caps, rc.monitor_root, &rc.skipped_monitors);
	if (rc.skipped_monitors.len)
		for (const char *l = rc.skipped_monitors.buf; *l;) {
			const char *nl = strchr(l, '\n');
			say_once(opts, "monitor skipped: %.*s", (int)(nl - l), l);
			l = nl + 1;
		}
	/* one line: the names say what the results will lack */
	if (desc.missing.len)
		say_once(opts, "monitors skipped, not in perfbot yet: %s", desc.missing.buf);

runs:
	ret = 0;
	for (rc.k = 1; rc.k <= rc.n; rc.k++) {
		char *dir = NULL;
		struct run_info info = { opts, rc.saved_job, rc.result_root, rc.k, rc.n, &desc };
		double t0 = now_seconds();
		int r = opts->backend ? opts->backend->run_once(opts->backend->ctx, &info, &dir) :
					run_once(&rc, &dir);
		if (r < 0) {
			ret = -1;
			break;
		}
		/* an incomplete run said why already, naming its run K/N */
		if (opts->progress_lines && r == 0)
			fprintf(stderr, "perfbot: %s%srun %d/%d: done in %.0fs\n",
				opts->label ? opts->label : "", opts->label ? ": " : "", rc.k, rc.n,
				now_seconds() - t0);
		res->run_dirs = xrealloc(res->run_dirs, sizeof(char *) * (size_t)(res->nr_runs + 1));
		res->run_dirs[res->nr_runs++] = dir;
		if (r == 1) {
			res->nr_incomplete++;
			ret = 1;
		}
		if (opts->stop && *opts->stop) {
			res->interrupted = true;
			break;
		}
	}
	if (opts->status_line)
		fprintf(stderr, "\r\033[K");
	if (res->nr_runs && unite_run_dirs(res->run_dirs, res->nr_runs) < 0)
		ret = -1;
	else if (res->nr_runs)
		res->united = true;
out_plan:
	job_free(rc.saved_job);
	perf_caps_release(&rc.caps);
out:
	job_desc_release(&desc);
	strbuf_release(&rc.log);
	strbuf_release(&rc.isolation);
	strbuf_release(&rc.skipped_monitors);
	strbuf_release(&base);
	strbuf_release(&rr);
	strbuf_release(&work_dir);
	strbuf_release(&cpu_sysfs);
	return ret;
}
