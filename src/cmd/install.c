/*
 * install.c: `perfbot install [--dry-run] JOB.yaml...` and `perfbot
 * install --list`: make the benchmarks that jobs name runnable here.
 *
 * Each job's benchmark (every atom's, for jobs with lists or several
 * documents) is looked up in the runner registry (src/runner/runner.h);
 * its Debian packages that dpkg does not list as installed are installed
 * with `apt-get install -y` (after `apt-get update` when the first try
 * fails, as on a machine whose package lists were never fetched).  Only
 * root can do that: anyone else gets the exact command and exit 1.
 * Built-in benchmarks need no package, only `make`.
 *
 * `--command` prints instead the command line of each atomic job's
 * benchmark, shell-quoted, one per line: what `perfbot run` runs, for a
 * look before a long run (and for `perfbot run JOB -- CMD`).
 *
 * Exit: 0 nothing (more) to install, 1 an error or not root, 2 usage.
 */
#include "runner/runner.h"
#include "cmd/cmd.h"
#include "job/job.h"
#include "job/split.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct wanted {
	const struct runner *runners[64];
	int nr;
	const char *job_path;
	bool found;             /* the current job named a benchmark */
	bool print_command;
	struct runner_ctx ctx;
};

/* Print the atom's benchmark command line; 0 or -1 with a message. */
static int print_command(const struct runner *r, struct job *atom, struct wanted *w)
{
	struct argv_list argv = ARGV_LIST_INIT;
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	if (job_expand_percentages(atom, w->ctx.nr_cpu) < 0)
		ret = -1;
	else if (runner_command(r, atom, &w->ctx, &argv, &why) < 0)
		ret = error("%s", why.buf);
	if (!ret) {
		argv_list_to_shell(&argv, &line);
		printf("%s\n", line.buf);
	}
	argv_list_release(&argv);
	strbuf_release(&line);
	strbuf_release(&why);
	return ret;
}

static int collect_atom(struct job *atom, void *data)
{
	struct wanted *w = data;
	const struct runner *r = runner_for_job(atom);

	if (r && w->print_command && print_command(r, atom, w) < 0) {
		job_free(atom);
		return -1;
	}
	job_free(atom);
	if (!r)
		return 0;
	w->found = true;
	for (int i = 0; i < w->nr; i++)
		if (w->runners[i] == r)
			return 0;
	if (w->nr == (int)(sizeof(w->runners) / sizeof(w->runners[0])))
		return error("%s: too many benchmarks", w->job_path);
	w->runners[w->nr++] = r;
	return 0;
}

/* Is the Debian package installed?  dpkg-query's status, quietly. */
static bool pkg_installed(const char *pkg)
{
	const char *argv[] = { "dpkg-query", "-W", "-f=${db:Status-Status}", pkg, NULL };
	struct child_process cp;
	struct strbuf out = STRBUF_INIT;
	int fds[2];
	bool ok;

	if (pipe(fds) < 0)
		return false;
	child_process_init(&cp);
	cp.argv = (char *const *)argv;
	cp.out_fd = fds[1];
	cp.err_path = "/dev/null";
	cp.no_stdin = true;
	if (start_command(&cp) < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	close(fds[1]);
	for (;;) {
		char buf[256];
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(&out, buf, (size_t)n);
	}
	close(fds[0]);
	ok = finish_command(&cp, 0, NULL) == FINISH_EXITED && WIFEXITED(cp.status) &&
	     !WEXITSTATUS(cp.status) && !strcmp(out.buf, "installed");
	strbuf_release(&out);
	return ok;
}

/* Add pkg to the space-separated list unless it is there. */
static void add_word(struct strbuf *list, const char *pkg, size_t len)
{
	for (const char *p = list->buf; *p;) {
		const char *end = strchrnul(p, ' ');
		if ((size_t)(end - p) == len && !strncmp(p, pkg, len))
			return;
		p = *end ? end + 1 : end;
	}
	if (list->len)
		strbuf_addch(list, ' ');
	strbuf_add(list, pkg, len);
}

/* Run apt-get with args; its exit code, or -1. */
static int apt_get(const char *const *args, size_t nr_args)
{
	const char **argv = xcalloc(nr_args + 2, sizeof(char *));
	char *env[] = { "DEBIAN_FRONTEND=noninteractive", NULL };
	struct child_process cp;
	int r = -1;

	argv[0] = "apt-get";
	for (size_t i = 0; i < nr_args; i++)
		argv[i + 1] = args[i];
	child_process_init(&cp);
	cp.argv = (char *const *)argv;
	cp.env = env;
	cp.no_stdin = true;
	if (start_command(&cp) == 0 && finish_command(&cp, 0, NULL) == FINISH_EXITED)
		r = WIFEXITED(cp.status) ? WEXITSTATUS(cp.status) : 128 + WTERMSIG(cp.status);
	free(argv);
	return r;
}

/* apt-get install -y <missing>, with one `apt-get update` and retry. */
static int install_packages(const struct strbuf *missing)
{
	const char *update[] = { "update" };
	const char **args = NULL;
	size_t nr = 0, alloc = 0;
	struct strbuf copy = STRBUF_INIT;
	int r;

	strbuf_addstr(&copy, missing->buf);
	ALLOC_GROW(args, 2, alloc);
	args[nr++] = "install";
	args[nr++] = "-y";
	for (char *p = copy.buf; *p;) {
		char *end = strchrnul(p, ' ');
		bool last = !*end;
		*end = '\0';
		ALLOC_GROW(args, nr + 1, alloc);
		args[nr++] = p;
		p = last ? end : end + 1;
	}
	r = apt_get(args, nr);
	if (r != 0) {
		warning("apt-get install failed (exit %d): updating the package lists and retrying", r);
		if (apt_get(update, 1) == 0)
			r = apt_get(args, nr);
	}
	free(args);
	strbuf_release(&copy);
	return r == 0 ? 0 : error("apt-get install -y %s failed (exit %d)", missing->buf, r);
}

static int list_runners(void)
{
	struct runner_ctx ctx;
	struct strbuf why = STRBUF_INIT;

	runner_ctx_init(&ctx);
	for (const struct runner *const *r = runner_all(); *r; r++) {
		strbuf_reset(&why);
		bool ok = runner_available(*r, &ctx, &why);
		printf("%-28s %-26s %s\n", (*r)->name,
		       (*r)->packages ? (*r)->packages : "(built in)",
		       ok ? "available" : why.buf);
	}
	runner_ctx_release(&ctx);
	strbuf_release(&why);
	return finish_stdout() ? EXIT_ERROR : 0;
}

int cmd_install(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "list", no_argument, NULL, 'l' },
		{ "command", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("install");
	struct wanted w;
	struct split_opts sopts;
	struct strbuf missing = STRBUF_INIT;
	bool dry_run = false, list = false;
	int c, ret = 0;

	memset(&w, 0, sizeof(w));
	memset(&sopts, 0, sizeof(sopts));
	optind = 1;
	while ((c = getopt_long(argc, argv, "nlc", opts, NULL)) != -1) {
		switch (c) {
		case 'n': dry_run = true; break;
		case 'l': list = true; break;
		case 'c': w.print_command = true; break;
		default: return cmd_usage(self, 0);
		}
	}
	if (list)
		return optind == argc ? list_runners() : cmd_usage(self, 0);
	if (optind >= argc) {
		error("install needs a job file");
		return cmd_usage(self, 0);
	}
	runner_ctx_init(&w.ctx);
	for (int i = optind; i < argc && !ret; i++) {
		struct job *job;

		if (job_load(argv[i], &job) < 0) {
			ret = EXIT_ERROR;
			break;
		}
		w.job_path = argv[i];
		w.found = false;
		int r = job_split(job, argv[i], &sopts, collect_atom, &w);
		job_free(job);
		if (r < 0) {
			ret = EXIT_ERROR;
		} else if (!w.found) {
			error("%s: the job names no benchmark perfbot can install "
			      "(see `perfbot install --list`)", argv[i]);
			ret = EXIT_ERROR;
		}
	}
	runner_ctx_release(&w.ctx);
	if (ret || w.print_command)
		return ret ? ret : (finish_stdout() ? EXIT_ERROR : 0);

	for (int i = 0; i < w.nr; i++) {
		const struct runner *r = w.runners[i];
		const char *pkgs = runner_packages(r);
		struct strbuf state = STRBUF_INIT;

		if (!*pkgs) {
			printf("%s: built in (workloads/%s): build it with `make`\n", r->name,
			       r->builtin ? r->builtin : r->name);
			continue;
		}
		for (const char *p = pkgs; *p;) {
			const char *end = strchrnul(p, ' ');
			struct strbuf pkg = STRBUF_INIT;
			strbuf_add(&pkg, p, (size_t)(end - p));
			bool have = pkg_installed(pkg.buf);
			strbuf_addf(&state, "%s%s (%s)", state.len ? ", " : "", pkg.buf,
				    have ? "installed" : "missing");
			if (!have)
				add_word(&missing, pkg.buf, pkg.len);
			strbuf_release(&pkg);
			p = *end ? end + 1 : end;
		}
		printf("%s: %s\n", r->name, state.buf);
		strbuf_release(&state);
	}

	if (!missing.len) {
		printf("nothing to install\n");
	} else if (dry_run) {
		printf("would run: apt-get install -y %s\n", missing.buf);
	} else if (geteuid() != 0) {
		printf("run as root: apt-get install -y %s\n", missing.buf);
		error("installing packages needs root");
		ret = EXIT_ERROR;
	} else {
		printf("running: apt-get install -y %s\n", missing.buf);
		fflush(stdout);
		if (install_packages(&missing) < 0)
			ret = EXIT_ERROR;
	}
	strbuf_release(&missing);
	if (finish_stdout())
		ret = EXIT_ERROR;
	return ret;
}
