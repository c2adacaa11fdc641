/*
 * watch.c: perfbot watch, the robot's loop (see watch.h): a pass picks
 * the commits to test, runs them, finds the regressions in the store's
 * history, bisects each new one, writes and mails its report.
 */
#include "watch/watch.h"
#include "bisect/driver.h"
#include "detect/detect.h"
#include "detect/range.h"
#include "job/job.h"
#include "report/report.h"
#include "result/matrix.h"
#include "run/checkout.h"
#include "run/run.h"
#include "stats/lkp_tables.h"
#include "store/history.h"
#include "store/ingest.h"
#include "store/store.h"
#include "util/fileio.h"
#include "util/git.h"
#include "util/pathsafe.h"
#include "util/run_command.h"
#include "util/strmap.h"
#include "util/xalloc.h"
#ifndef PERFBOT_NO_LAB
#include "lab/pg.h"
#include "lab/queue.h"
#include "lab/remote.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int watch_plan(int n, int base, int stride, const bool *tagged, const bool *done, int *out)
{
	int nr = 0;

	if (stride < 1)
		stride = 1;
	for (int p = n - 1; p >= 0; p--) {
		bool pick = p == n - 1 || (base + p) % stride == 0 || (tagged && tagged[p]);
		if (pick && !(done && done[p]))
			out[nr++] = p;
	}
	return nr;
}

/* --- the state: its lock and log --------------------------------------- */

struct watch {
	struct watch_opts *o;
	struct job *job;
	struct strbuf state, reports, log_path;
	int lock_fd;
	/* the log: commits tested or failed, mails pending and sent */
	struct strmap tested, failed, mails, mailed;
	char **keys;                 /* the maps' keys, owned here */
	int nr_keys;
	size_t alloc_keys;
	char **pending;              /* "mail" lines in log order */
	int nr_pending;
	size_t alloc_pending;
	struct checkout co;
	char *result_base;
	bool tty;
	bool lab;                    /* o->db is a lab's PostgreSQL */
#ifndef PERFBOT_NO_LAB
	struct lab_remote remote;
	bool remote_open;
#endif
};

static const char *keep(struct watch *w, const char *s, size_t len)
{
	ALLOC_GROW(w->keys, (size_t)w->nr_keys + 1, w->alloc_keys);
	return w->keys[w->nr_keys++] = xstrndup(s, len);
}

/* Take one log line into the maps.  0, or -1 after naming it. */
static int log_line(struct watch *w, const char *line, size_t len, int lineno)
{
	const char *sp = memchr(line, ' ', len), *arg, *end = line + len;
	size_t kw;

	if (!sp)
		goto bad;
	kw = (size_t)(sp - line);
	arg = sp + 1;
	if (kw == 6 && !strncmp(line, "tested", 6)) {
		const char *sp2 = memchr(arg, ' ', (size_t)(end - arg));
		if (!sp2 || sp2 == arg)
			goto bad;
		strmap_put(&w->tested, keep(w, arg, (size_t)(sp2 - arg)), 1);
	} else if (kw == 6 && !strncmp(line, "failed", 6)) {
		const char *sp2 = memchr(arg, ' ', (size_t)(end - arg));
		if (!sp2 || sp2 == arg)
			goto bad;
		strmap_put(&w->failed, keep(w, arg, (size_t)(sp2 - arg)), 1);
	} else if (kw == 4 && !strncmp(line, "mail", 4) && arg < end) {
		const char *k = keep(w, arg, (size_t)(end - arg));
		if (strmap_get(&w->mails, k) < 0) {
			strmap_put(&w->mails, k, 1);
			ALLOC_GROW(w->pending, (size_t)w->nr_pending + 1, w->alloc_pending);
			w->pending[w->nr_pending++] = (char *)k;
		}
	} else if (kw == 6 && !strncmp(line, "mailed", 6) && arg < end) {
		strmap_put(&w->mailed, keep(w, arg, (size_t)(end - arg)), 1);
	} else {
		goto bad;
	}
	return 0;
bad:
	return error("%s:%d: expected 'tested SHA RUNS', 'failed SHA WHY', 'mail FILE' or "
		     "'mailed FILE', got '%.*s'", w->log_path.buf, lineno, (int)len, line);
}

/* Read the log; a last line cut short by a kill is dropped from the file. */
static int log_load(struct watch *w)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *nl;
	int lineno = 0, ret = 0;

	if (!file_exists(w->log_path.buf))
		return 0;
	if (read_file(&sb, w->log_path.buf) < 0)
		return -1;
	for (p = sb.buf; ret == 0 && (nl = memchr(p, '\n', sb.len - (size_t)(p - sb.buf))); p = nl + 1) {
		lineno++;
		if (nl > p && *p != '#')
			ret = log_line(w, p, (size_t)(nl - p), lineno);
	}
	if (ret == 0 && p < sb.buf + sb.len && truncate(w->log_path.buf, (off_t)(p - sb.buf)) < 0)
		ret = error("cannot truncate '%s': %s", w->log_path.buf, strerror(errno));
	strbuf_release(&sb);
	return ret;
}

/* Append one line to the log and fsync it, then take it in. */
static int log_append(struct watch *w, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int fd, ret = 0;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fd = open(w->log_path.buf, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, sb.buf, sb.len) != (ssize_t)sb.len || fsync(fd) < 0)
		ret = error("cannot append to '%s': %s", w->log_path.buf, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (ret == 0)
		ret = log_line(w, sb.buf, sb.len - 1, 0);
	strbuf_release(&sb);
	return ret;
}

static int lock_state(struct watch *w)
{
	struct strbuf path = STRBUF_INIT;

	path_join(&path, w->state.buf, "lock");
	w->lock_fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (w->lock_fd < 0) {
		error("cannot open '%s': %s", path.buf, strerror(errno));
	} else if (flock(w->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			error("%s: another perfbot watch is running on this state", w->state.buf);
		else
			error("cannot lock '%s': %s", path.buf, strerror(errno));
		close(w->lock_fd);
		w->lock_fd = -1;
	}
	strbuf_release(&path);
	return w->lock_fd < 0 ? -1 : 0;
}

/* $XDG_DATA_HOME/perfbot/watch/<testcase>-<id>: one state per repository,
 * branch and job (FNV-1a of the three). */
static int default_state(struct watch *w)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	const char *tc = job_get(w->job, "testcase");
	const char *parts[3] = { w->o->repo, w->o->branch, w->o->job_path };
	uint64_t h = 0xcbf29ce484222325ULL;

	if (!tc)
		return error("%s: the job has no testcase", w->o->job_path);
	if (check_path_component(tc, "the job's testcase") < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		for (const char *p = parts[i]; ; p++) {
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
			if (!*p)
				break;
		}
	if (xdg && *xdg)
		strbuf_addf(&w->state, "%s/perfbot/watch", xdg);
	else
		strbuf_addf(&w->state, "%s/.local/share/perfbot/watch", home && *home ? home : "/tmp");
	strbuf_addf(&w->state, "/%s-%012llx", tc, (unsigned long long)(h >> 16));
	return 0;
}

/* --- git ---------------------------------------------------------------- */

static int git_out(const struct watch *w, struct strbuf *out, const char *a1, const char *a2,
		   const char *a3, const char *a4)
{
	char *argv[] = { "git", "-C", w->o->repo, (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	return capture_command_err(argv, NULL, out, "/dev/null");
}

/* The first remote's name, or an empty sb when there is none. */
static void first_remote(const struct watch *w, struct strbuf *sb)
{
	if (git_out(w, sb, "remote", NULL, NULL, NULL) != 0)
		strbuf_reset(sb);
	char *nl = strchr(sb->buf, '\n');
	if (nl)
		strbuf_setlen(sb, (size_t)(nl - sb->buf));
}

/* Fetch when there is a remote; resolve the branch (its remote-tracking
 * ref first, which a fetch moves).  0, 1 no such branch, -1. */
static int resolve_branch(struct watch *w, char **tip)
{
	struct strbuf remote = STRBUF_INIT, ref = STRBUF_INIT, out = STRBUF_INIT;
	int r = 1;

	*tip = NULL;
	first_remote(w, &remote);
	if (remote.len && w->o->fetch) {
		if (git_out(w, &out, "fetch", "--quiet", remote.buf, NULL) != 0)
			warning("%s: git fetch %s failed: watching what is there", w->o->repo, remote.buf);
	}
	if (remote.len) {
		strbuf_addf(&ref, "refs/remotes/%s/%s", remote.buf, w->o->branch);
		r = git_resolve_commit(w->o->repo, ref.buf, tip);
	}
	if (r == 1)
		r = git_resolve_commit(w->o->repo, w->o->branch, tip);
	strbuf_release(&remote);
	strbuf_release(&ref);
	strbuf_release(&out);
	return r;
}

/* The number of commits on rev's first-parent line. */
static long line_length(const struct watch *w, const char *rev)
{
	struct strbuf out = STRBUF_INIT;
	long n = -1;

	if (git_out(w, &out, "rev-list", "--first-parent", "--count", rev) == 0)
		n = strtol(out.buf, NULL, 10);
	strbuf_release(&out);
	return n;
}

/* A commit's field through git log -1 --format=FMT, trimmed. */
static void commit_field(const struct watch *w, const char *sha, const char *fmt, struct strbuf *sb)
{
	struct strbuf f = STRBUF_INIT;

	strbuf_addf(&f, "--format=%s", fmt);
	if (git_out(w, sb, "log", "-1", f.buf, sha) != 0)
		strbuf_reset(sb);
	strbuf_rtrim(sb);
	strbuf_release(&f);
}

/* --- testing a commit ---------------------------------------------------- */

/* Complete runs of the job on sha in the result tree. */
static int complete_runs(const struct watch *w, const char *sha)
{
	struct strbuf rr = STRBUF_INIT, mp = STRBUF_INIT;
	struct matrix mx;
	int n = 0;

	matrix_init(&mx);
	if (job_result_root(w->job, w->result_base, sha, &rr) == 0) {
		path_join(&mp, rr.buf, "matrix.json");
		if (file_exists(mp.buf) && matrix_load(&mx, rr.buf) == 0)
			n = matrix_complete_values(&mx, NULL, NULL);
	}
	matrix_release(&mx);
	strbuf_release(&rr);
	strbuf_release(&mp);
	return n;
}

static int runs_per_commit(const struct watch *w)
{
	long long v;

	if (w->o->runs > 0)
		return w->o->runs;
	if (job_get_int(w->job, "nr_run", &v) == 0 && v > 0 && v < 1000)
		return (int)v;
	return WATCH_RUNS_DEFAULT;
}

#ifndef PERFBOT_NO_LAB
/* The runs on the lab's boxes, fetched into sha's result root here and
 * indexed into the lab's store.  Returns how many came back, or -1. */
static int test_in_lab(struct watch *w, const char *sha, int n)
{
	struct strbuf rr = STRBUF_INIT, cmd = STRBUF_INIT, journal = STRBUF_INIT;
	struct lab_remote_job j;
	int got = -1;

	if (!w->remote_open) {
		path_join(&journal, w->state.buf, "lab-jobs");
		int r = lab_remote_open(&w->remote, w->o->db, journal.buf);
		strbuf_release(&journal);
		if (r < 0)
			return -1;
		w->remote.verbose = w->o->verbose;
		w->remote_open = true;
	}
	for (int i = 0; i < w->o->nr_command; i++) {
		if (i)
			strbuf_addch(&cmd, ' ');
		shell_quote(&cmd, w->o->command[i]);
	}
	memset(&j, 0, sizeof(j));
	j.job = w->job;
	j.command = cmd.len ? cmd.buf : NULL;
	j.repo = w->o->repo;
	j.build = w->o->build;
	j.commit = sha;
	j.tbox_group = job_get(w->job, "tbox_group");
	j.priority = QUEUE_PRIORITY_DEFAULT;
	if (job_result_root(w->job, w->result_base, sha, &rr) == 0)
		got = lab_remote_run(&w->remote, &j, n, rr.buf, w->o->stop);
	if (got > 0)
		store_index_result_root(w->o->db, rr.buf);
	strbuf_release(&rr);
	strbuf_release(&cmd);
	return got;
}
#endif

/*
 * Build and run sha, only the runs missing from the result tree.  0
 * tested, 1 recorded as failed, -1 error or stopped.
 */
static int test_commit(struct watch *w, const char *sha, const char *what, int k, int nr)
{
	int want = runs_per_commit(w), have = complete_runs(w, sha), r;
	struct strbuf env = STRBUF_INIT, label = STRBUF_INIT;
	struct run_opts ro;
	struct run_result res;

	printf("[%d/%d] %s: ", k, nr, what);
	if (have >= want) {
		printf("%d runs already in the result tree\n", have);
		fflush(stdout);
		return log_append(w, "tested %s %d\n", sha, have);
	}
	printf("%d run%s%s\n", want - have, want - have == 1 ? "" : "s",
	       have ? " more" : "");
	fflush(stdout);
#ifndef PERFBOT_NO_LAB
	if (w->lab) {
		int got = test_in_lab(w, sha, want - have);
		if (got < 0)
			return -1;
		if (got == 0) {
			printf("[%d/%d] %.12s: no run came back from the lab: skipped from now on\n",
			       k, nr, sha);
			return log_append(w, "failed %s lab\n", sha);
		}
		return log_append(w, "tested %s %d\n", sha, have + got);
	}
#endif
	r = checkout_prepare(&w->co, sha);
	if (r < 0)
		return -1;
	if (r == 1) {
		printf("[%d/%d] %.12s: the build failed (%s/build-%.12s.log): skipped from now on\n",
		       k, nr, sha, w->state.buf, sha);
		fflush(stdout);
		return log_append(w, "failed %s build\n", sha);
	}
	strbuf_addf(&env, "PERFBOT_BUILD_DIR=%s", w->co.path);
	char *envv[] = { env.buf, NULL };
	strbuf_addf(&label, "watch [%d/%d] %.12s", k, nr, sha);
	memset(&ro, 0, sizeof(ro));
	ro.job = w->job;
	ro.runs = want - have;
	ro.result_base = w->result_base;
	ro.commit = sha;
	ro.command = w->o->nr_command ? w->o->command : NULL;
	ro.env = envv;
	ro.workdir = w->co.path;
	ro.verbose = w->o->verbose > 0;
	ro.status_line = w->tty && !w->o->verbose;
	ro.stop = w->o->stop;
	ro.label = label.buf;
	ro.index = true;
	ro.db = w->o->db;
	r = run_job(&ro, &res);
	run_result_release(&res);
	strbuf_release(&env);
	strbuf_release(&label);
	if ((w->o->stop && *w->o->stop) || r < 0)
		return -1;
	have = complete_runs(w, sha);
	if (have == 0) {
		printf("[%d/%d] %.12s: no complete run (see its runs' last_state): skipped from now on\n",
		       k, nr, sha);
		fflush(stdout);
		return log_append(w, "failed %s runs\n", sha);
	}
	return log_append(w, "tested %s %d\n", sha, have);
}

/* --- regressions ---------------------------------------------------------- */

/* The metrics to watch: the options', else the key metrics with a known
 * direction in the newest tested commit's matrix. */
static void watched_metrics(const struct watch *w, const struct git_commit *line, int n,
			    char ***out, int *nr)
{
	*out = NULL;
	*nr = 0;
	if (w->o->nr_metrics) {
		*out = xcalloc((size_t)w->o->nr_metrics, sizeof(char *));
		for (int i = 0; i < w->o->nr_metrics; i++)
			(*out)[(*nr)++] = xstrdup(w->o->metrics[i]);
		return;
	}
	for (int p = n - 1; p >= 0 && !*nr; p--) {
		struct strbuf rr = STRBUF_INIT, mp = STRBUF_INIT;
		struct matrix mx;

		if (strmap_get(&w->tested, line[p].sha) < 0)
			continue;
		matrix_init(&mx);
		if (job_result_root(w->job, w->result_base, line[p].sha, &rr) == 0) {
			path_join(&mp, rr.buf, "matrix.json");
			if (file_exists(mp.buf) && matrix_load(&mx, rr.buf) == 0) {
				*out = xcalloc((size_t)mx.nr + 1, sizeof(char *));
				for (int i = 0; i < mx.nr; i++)
					if (lkp_kpi_stat(mx.m[i].name) && lkp_kpi_direction(mx.m[i].name))
						(*out)[(*nr)++] = xstrdup(mx.m[i].name);
			}
		}
		matrix_release(&mx);
		strbuf_release(&rr);
		strbuf_release(&mp);
	}
}

static void free_strings(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* "mytest.throughput-1a2b3c4d5e6f": the report's file name, safe */
static void report_name(const char *metric, const char *sha, struct strbuf *sb)
{
	for (const char *p = metric; *p; p++)
		strbuf_addch(sb, (*p == '/' || *p == ' ' || (unsigned char)*p < 0x20) ? '_' : *p);
	strbuf_addf(sb, "-%.12s", sha);
}

/* "<perfbot.watch.1a2b3c4d5e6f.mytest.throughput.1767225600@host>" */
static void message_id(const char *sha, const char *metric, const char *host, struct strbuf *sb)
{
	strbuf_addf(sb, "<perfbot.watch.%.12s.", sha);
	for (const char *p = metric; *p; p++)
		strbuf_addch(sb, (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			     (*p >= '0' && *p <= '9') || strchr(".-_+=", *p) ? *p : '-');
	strbuf_addf(sb, ".%lld@%s>", (long long)time(NULL), host);
}

/* The message of a report, into "<reports>/<name>.mail"; a "mail" line in
 * the log says it is to be sent. */
static int write_mail(struct watch *w, const char *name, const char *culprit, const char *metric,
		      double change, const char *text)
{
	struct strbuf to = STRBUF_INIT, from = STRBUF_INIT, subject = STRBUF_INIT, date = STRBUF_INIT;
	struct strbuf mid = STRBUF_INIT, irt = STRBUF_INIT, body = STRBUF_INIT, msg = STRBUF_INIT;
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT, an = STRBUF_INIT;
	char host[256] = "localhost", datebuf[64];
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	if (gethostname(host, sizeof(host) - 1) < 0 || !*host)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	if (w->o->mail_to) {
		strbuf_addstr(&to, w->o->mail_to);
	} else {
		commit_field(w, culprit, "%an <%ae>", &to);
		commit_field(w, culprit, "%an", &an);
	}
	if (w->o->mail_from)
		strbuf_addstr(&from, w->o->mail_from);
	else
		strbuf_addf(&from, "perfbot <perfbot@%s>", host);
	commit_field(w, culprit, "%s", &sb);
	watch_mail_subject(culprit, sb.buf, metric, change, &subject);
	strbuf_reset(&sb);
	commit_field(w, culprit, "%B", &sb);
	watch_patch_message_id(sb.buf, &irt);
	gmtime_r(&now, &tm);
	strftime(datebuf, sizeof(datebuf), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	strbuf_addstr(&date, datebuf);
	message_id(culprit, metric, host, &mid);
	/* the seeds greet the author by first name, where the report has
	 * its "Hello," */
	if (an.len && !strncmp(text, "Hello,\n", 7)) {
		size_t k = strcspn(an.buf, " ");
		strbuf_addf(&body, "Hi %.*s,\n", (int)k, an.buf);
		text += 7;
	}
	strbuf_addstr(&body, text);
	struct watch_mail m = {
		.from = from.buf, .to = to.len ? to.buf : "undisclosed-recipients:;",
		.subject = subject.buf, .message_id = mid.buf,
		.in_reply_to = irt.len ? irt.buf : NULL, .date = date.buf,
	};
	watch_mail_compose(&m, body.buf, &msg);
	strbuf_addf(&path, "%s/%s.mail", w->reports.buf, name);
	ret = write_file_atomic(path.buf, msg.buf, msg.len);
	if (ret == 0 && strmap_get(&w->mails, path.buf) < 0)
		ret = log_append(w, "mail %s\n", path.buf);
	strbuf_release(&to);
	strbuf_release(&from);
	strbuf_release(&subject);
	strbuf_release(&date);
	strbuf_release(&mid);
	strbuf_release(&irt);
	strbuf_release(&body);
	strbuf_release(&msg);
	strbuf_release(&sb);
	strbuf_release(&path);
	strbuf_release(&an);
	return ret;
}

/* Pipe each mail not sent yet to --mail-cmd.  A failing command is an
 * error: the mail stays pending for the next pass. */
static int send_mails(struct watch *w)
{
	int ret = 0;

	for (int i = 0; i < w->nr_pending && ret == 0; i++) {
		const char *path = w->pending[i];
		int fd, status;
		pid_t pid;

		if (strmap_get(&w->mailed, path) >= 0 || !w->o->mail_cmd)
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = error("cannot read '%s': %s", path, strerror(errno));
			break;
		}
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			dup2(fd, 0);
			execl("/bin/sh", "sh", "-c", w->o->mail_cmd, (char *)NULL);
			_exit(127);
		}
		close(fd);
		if (pid < 0 || waitpid(pid, &status, 0) < 0) {
			ret = error("cannot run --mail-cmd: %s", strerror(errno));
		} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			ret = error("--mail-cmd '%s' failed (%s %d) on %s: it is sent again next time",
				    w->o->mail_cmd, WIFEXITED(status) ? "exit" : "signal",
				    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), path);
		} else {
			printf("mailed %s\n", path);
			fflush(stdout);
			ret = log_append(w, "mailed %s\n", path);
		}
	}
	return ret;
}

/* The result root of the job on sha, for the report's key metric table. */
static char *root_of(const struct watch *w, const char *sha)
{
	struct strbuf rr = STRBUF_INIT;

	if (job_result_root(w->job, w->result_base, sha, &rr) < 0) {
		strbuf_release(&rr);
		return NULL;
	}
	return strbuf_detach(&rr, NULL);
}

/* Write the report of the bisect at state as text and HTML. */
static int write_report(struct watch *w, const struct series *s, const struct detect_change *c,
			const char *state, const char *culprit, const char *metric,
			struct strbuf *txt_path)
{
	struct report_options opt;
	struct report r;
	struct strbuf where = STRBUF_INIT, text = STRBUF_INIT, html = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT, hpath = STRBUF_INIT;
	char *roots[3];
	struct report_tag tags[3];
	int nr = 0, nr_tags = 0, ret = -1, pts[3];
	double change = 100 * c->cp.change;
	int before = c->tag_before >= 0 ? c->tag_before : c->cp.index - 1;
	int after = c->tag_after >= 0 ? c->tag_after : c->cp.index;

	/* the seed's columns: the tags around the change, then the latest
	 * tag when it still shows it */
	detect_where(s, c, &where);
	pts[nr++] = before;
	pts[nr++] = after;
	if (c->still == 1 && c->latest_tag > after)
		pts[nr++] = c->latest_tag;
	for (int i = 0; i < nr; i++) {
		const struct series_point *p = &s->pt[pts[i]];
		roots[i] = root_of(w, p->commit);
		/* the columns are named by their tags, as in the seed */
		if (p->nr_tags)
			tags[nr_tags++] = (struct report_tag){ p->tags[0], p->commit };
	}
	report_options_init(&opt);
	opt.tags = tags;
	opt.nr_tags = nr_tags;
	opt.proc_dir = getenv("PERFBOT_PROC_DIR");
	opt.where = where.buf;
	opt.kpi_roots = roots;
	opt.nr_kpi_roots = nr;
	for (int i = 0; i < nr; i++)
		if (!roots[i])
			goto out;
	if (report_load_bisect(&r, state, &opt) < 0 || report_text(&r, &text) < 0) {
		report_release(&r);
		goto out;
	}
	/* the subject says the change the report's first paragraph says */
	if (isfinite(r.headline.change))
		change = r.headline.change;
	report_release(&r);
	opt.format = REPORT_HTML;
	if (report_load_bisect(&r, state, &opt) < 0) {
		report_release(&r);
		goto out;
	}
	report_html(&r, &html);
	report_release(&r);
	report_name(metric, culprit, &name);
	strbuf_addf(txt_path, "%s/%s.txt", w->reports.buf, name.buf);
	strbuf_addf(&hpath, "%s/%s.html", w->reports.buf, name.buf);
	if (mkdir_p(w->reports.buf, 0755) < 0 ||
	    write_file_atomic(txt_path->buf, text.buf, text.len) < 0 ||
	    write_file_atomic(hpath.buf, html.buf, html.len) < 0)
		goto out;
	printf("report: %s (and .html)\n", txt_path->buf);
	fflush(stdout);
	ret = 0;
	if (w->o->mail_cmd)
		ret = write_mail(w, name.buf, culprit, metric, change, text.buf);
out:
	for (int i = 0; i < nr; i++)
		free(roots[i]);
	strbuf_release(&where);
	strbuf_release(&text);
	strbuf_release(&html);
	strbuf_release(&name);
	strbuf_release(&hpath);
	return ret;
}

static int record(struct watch *w, int64_t job_id, const char *metric, const char *culprit,
		  const char *good, const char *bad, const char *report)
{
	struct store *st;
	struct store_reported rep = { job_id, metric, culprit, good, bad, report };
	int ret;

	if (store_open(&st, w->o->db, STORE_CREATE) < 0)
		return -1;
	ret = store_begin(st);
	if (ret == 0)
		ret = store_reported_add(st, &rep);
	if (ret == 0)
		ret = store_commit(st);
	else
		store_rollback(st);
	store_close(st);
	return ret;
}

/* Is good..bad (culprit NULL) or culprit reported for metric?  1, 0, -1. */
static int reported(struct watch *w, int64_t job_id, const char *metric, const char *culprit,
		    const char *good, const char *bad, struct strbuf *report)
{
	struct store *st;
	int r;

	if (store_open(&st, w->o->db, STORE_CREATE) < 0)
		return -1;
	r = store_reported_find(st, job_id, metric, culprit, good, bad, report);
	store_close(st);
	return r;
}

/* One regression: reported before, or bisected, reported and recorded. */
static int handle_regression(struct watch *w, const struct series *s, const struct detect_change *c,
			     int64_t job_id, const char *metric)
{
	const char *good = s->pt[c->cp.index - 1].commit, *bad = s->pt[c->cp.index].commit;
	struct strbuf rep = STRBUF_INIT, state = STRBUF_INIT, where = STRBUF_INIT, subj = STRBUF_INIT;
	struct range_bisect rb;
	char *culprit = NULL;
	int r, ret = 0;

	r = reported(w, job_id, metric, NULL, good, bad, &rep);
	if (r != 0) {
		if (r > 0 && w->o->verbose)
			printf("%s: %.12s..%.12s was handled before%s%s\n", metric, good, bad,
			       rep.len ? ": " : "", rep.buf);
		strbuf_release(&rep);
		return r < 0 ? -1 : 0;
	}
	detect_where(s, c, &where);
	r = range_untested(w->o->repo, good, bad);
	if (r < 0) {
		ret = -1;
		goto out;
	}
	if (r == 0) {
		/* nothing left to bisect: bad is the first bad commit, and
		 * when it was reported (a bisect before narrowed the range
		 * to it), the range is handled without measuring again */
		printf("%s %+.1f%% %s: no untested commit in %.12s..%.12s\n", metric,
		       100 * c->cp.change, where.buf, good, bad);
		strbuf_reset(&rep);
		r = reported(w, job_id, metric, bad, NULL, NULL, &rep);
		if (r != 0) {
			if (r > 0)
				printf("%s: %.12s was reported before (%s)\n", metric, bad, rep.buf);
			ret = r < 0 ? -1 : record(w, job_id, metric, bad, good, bad, rep.buf);
			goto out;
		}
	}
	printf("bisect %s %+.1f%% %s: %.12s..%.12s, %d untested commit%s\n", metric,
	       100 * c->cp.change, where.buf, good, bad, r, r == 1 ? "" : "s");
	fflush(stdout);
	memset(&rb, 0, sizeof(rb));
	rb.repo = w->o->repo;
	rb.job_path = w->o->job_path;
	rb.metric = metric;
	rb.build = w->o->build;
	rb.result_base = w->result_base;
	rb.db = w->o->db;
	rb.state_dir = w->state.buf;
	rb.command = w->o->command;
	rb.nr_command = w->o->nr_command;
	rb.verbose = w->o->verbose;
	rb.quiet = true;
	rb.stop = w->o->stop;
	r = range_bisect(&rb, good, bad, &state, &culprit);
	if (r == WATCH_EXIT_INTERRUPTED || (w->o->stop && *w->o->stop)) {
		ret = -1;
		goto out;
	}
	if (r != 0) {
		/* no commit to blame: the range is handled, with no report */
		printf("bisect: no first bad commit (exit %d, see %s): not reported\n", r, state.buf);
		ret = r == 1 ? -1 : record(w, job_id, metric, "", good, bad, "");
		goto out;
	}
	commit_field(w, culprit, "%s", &subj);
	printf("bisect: first bad commit %s (\"%s\")\n", culprit, subj.buf);
	fflush(stdout);
	strbuf_reset(&rep);
	r = reported(w, job_id, metric, culprit, NULL, NULL, &rep);
	if (r < 0) {
		ret = -1;
	} else if (r > 0) {
		printf("%s: %.12s was reported before (%s)\n", metric, culprit, rep.buf);
		ret = record(w, job_id, metric, culprit, good, bad, rep.buf);
	} else {
		strbuf_reset(&rep);
		ret = write_report(w, s, c, state.buf, culprit, metric, &rep);
		if (ret == 0)
			ret = record(w, job_id, metric, culprit, good, bad, rep.buf);
	}
out:
	free(culprit);
	strbuf_release(&rep);
	strbuf_release(&state);
	strbuf_release(&where);
	strbuf_release(&subj);
	return ret;
}

/* Detect the changes of metric along the line; handle its regressions. */
static int detect_metric(struct watch *w, const char *tip, const char *metric)
{
	struct history_query q;
	struct history h;
	struct store *st;
	struct series s;
	struct detect_result r;
	int ret = 0, nr_reg = 0;

	memset(&q, 0, sizeof(q));
	q.repo = w->o->repo;
	q.branch = tip;
	q.metric = metric;
	q.job = w->o->job_path;
	q.limit = w->o->depth;
	if (store_open(&st, w->o->db, STORE_CREATE) < 0)
		return -1;
	ret = history_load(st, &q, &h);
	store_close(st);
	if (ret < 0)
		return -1;
	int64_t job_id = h.job.id;
	series_from_history(&s, &h);
	history_release(&h);
	if (detect_series(&s, metric, &w->o->cp, &r) < 0) {
		series_release(&s);
		return -1;
	}
	for (int k = 0; k < r.nr; k++)
		nr_reg += r.ch[k].kind == DETECT_REGRESSION;
	printf("detect %s: %d tested commit%s, %d change%s, %d regression%s%s\n", metric, s.nr,
	       s.nr == 1 ? "" : "s", r.nr, r.nr == 1 ? "" : "s", nr_reg, nr_reg == 1 ? "" : "s",
	       s.nr < 2 * w->o->cp.min_size ? " (too few to tell yet)" : "");
	fflush(stdout);
	for (int k = 0; k < r.nr && ret == 0; k++)
		if (r.ch[k].kind == DETECT_REGRESSION)
			ret = handle_regression(w, &s, &r.ch[k], job_id, metric);
	detect_result_release(&r);
	series_release(&s);
	return ret;
}

/* --- a pass --------------------------------------------------------------- */

static int one_pass(struct watch *w)
{
	struct git_commit *line = NULL;
	struct git_ref *tags = NULL;
	struct strmap pos;
	char *tip = NULL, **metrics = NULL;
	bool *tagged = NULL, *done = NULL;
	int *plan = NULL, n = 0, nr_tags = 0, nr_plan, nr_metrics = 0, base = 0, ret = -1, tested = 0;

	strmap_init(&pos);
	switch (resolve_branch(w, &tip)) {
	case 0:
		break;
	case 1:
		error("%s: no branch '%s'", w->o->repo, w->o->branch);
		/* fall through */
	default:
		goto out;
	}
	if (git_first_parent(w->o->repo, tip, w->o->depth, &line, &n) < 0)
		goto out;
	if (w->o->depth > 0 && n == w->o->depth) {
		long total = line_length(w, tip);
		base = total > n ? (int)(total - n) : 0;
	}
	tagged = xcalloc((size_t)n + 1, sizeof(bool));
	done = xcalloc((size_t)n + 1, sizeof(bool));
	plan = xcalloc((size_t)n + 1, sizeof(int));
	for (int i = 0; i < n; i++) {
		strmap_put(&pos, line[i].sha, i);
		done[i] = strmap_get(&w->tested, line[i].sha) >= 0 ||
			  strmap_get(&w->failed, line[i].sha) >= 0;
		tested += strmap_get(&w->tested, line[i].sha) >= 0;
	}
	if (w->o->tags) {
		if (git_refs(w->o->repo, "refs/tags", &tags, &nr_tags) < 0)
			goto out;
		for (int i = 0; i < nr_tags; i++) {
			int p = strmap_get(&pos, tags[i].sha);
			if (p >= 0)
				tagged[p] = true;
		}
	}
	nr_plan = watch_plan(n, base, w->o->stride, w->o->tags ? tagged : NULL, done, plan);
	if (nr_plan == 0) {
		printf("nothing new on %s: its tip %.12s and every commit to test before it "
		       "are tested\n", w->o->branch, tip);
	} else {
		printf("%s at %.12s: %d commit%s on the line, %d to test (stride %d%s)\n",
		       w->o->branch, tip, n, n == 1 ? "" : "s", nr_plan, w->o->stride,
		       w->o->tags ? ", tags" : "");
	}
	fflush(stdout);
	for (int k = 0; k < nr_plan; k++) {
		const struct git_commit *cm = &line[plan[k]];
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "%.12s", cm->sha);
		for (int i = 0; i < nr_tags; i++)
			if (!strcmp(tags[i].sha, cm->sha))
				strbuf_addf(&what, " %s", tags[i].name);
		strbuf_addf(&what, " \"%s\"", cm->subject ? cm->subject : "");
		int r = test_commit(w, cm->sha, what.buf, k + 1, nr_plan);
		strbuf_release(&what);
		if (r < 0)
			goto out;
		tested += strmap_get(&w->tested, cm->sha) >= 0;
	}
	if (tested == 0) {
		printf("no tested commit yet: nothing to detect\n");
		ret = 0;
		goto out;
	}
	watched_metrics(w, line, n, &metrics, &nr_metrics);
	if (!nr_metrics)
		warning("the runs have no key metric with a known direction: name one with --metric");
	ret = 0;
	for (int i = 0; i < nr_metrics && ret == 0; i++)
		ret = detect_metric(w, tip, metrics[i]);
	if (ret == 0)
		ret = send_mails(w);
out:
	free_strings(metrics, nr_metrics);
	git_commits_release(line, n);
	git_refs_release(tags, nr_tags);
	strmap_release(&pos);
	free(tip);
	free(tagged);
	free(done);
	free(plan);
	return ret;
}

static void watch_release(struct watch *w)
{
	strmap_release(&w->tested);
	strmap_release(&w->failed);
	strmap_release(&w->mails);
	strmap_release(&w->mailed);
	free_strings(w->keys, w->nr_keys);
	free(w->pending);
	checkout_release(&w->co);
	job_free(w->job);
	free(w->result_base);
	strbuf_release(&w->state);
	strbuf_release(&w->reports);
	strbuf_release(&w->log_path);
	if (w->lock_fd >= 0)
		close(w->lock_fd);
#ifndef PERFBOT_NO_LAB
	if (w->remote_open)
		lab_remote_release(&w->remote);
#endif
}

/* Sleep until the next pass is due; false when stopped meanwhile. */
static bool wait_next(struct watch *w, double start)
{
	while (!(w->o->stop && *w->o->stop)) {
		double left = start + w->o->every - now_seconds();
		if (left <= 0)
			return true;
		struct timespec ts = { 0, 200000000L };
		if (left < 0.2)
			ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	return false;
}

int watch_run(struct watch_opts *o)
{
	struct watch w;
	struct strbuf sb = STRBUF_INIT;
	int ret = EXIT_ERROR;

	memset(&w, 0, sizeof(w));
	w.o = o;
	w.lock_fd = -1;
	strbuf_init(&w.state, 0);
	strbuf_init(&w.reports, 0);
	strbuf_init(&w.log_path, 0);
	strmap_init(&w.tested);
	strmap_init(&w.failed);
	strmap_init(&w.mails);
	strmap_init(&w.mailed);
	w.tty = isatty(2);
	if (git_check_repo(o->repo) < 0 || job_load(o->job_path, &w.job) < 0)
		goto out;
#ifdef PERFBOT_NO_LAB
	if (o->db && (!strncmp(o->db, "postgresql://", 13) || !strncmp(o->db, "postgres://", 11))) {
		error("this perfbot is built without lab mode (--db %s)", o->db);
		goto out;
	}
#else
	w.lab = o->db && pg_is_url(o->db);
#endif
	if (o->state_dir)
		strbuf_addstr(&w.state, o->state_dir);
	else if (default_state(&w) < 0)
		goto out;
	if (o->reports_dir)
		strbuf_addstr(&w.reports, o->reports_dir);
	else
		path_join(&w.reports, w.state.buf, "reports");
	path_join(&w.log_path, w.state.buf, "log");
	if (o->result_base) {
		w.result_base = xstrdup(o->result_base);
	} else {
		run_default_result_base(&sb);
		w.result_base = abs_path(sb.buf);
	}
	if (mkdir_p(w.state.buf, 0755) < 0 || lock_state(&w) < 0 || log_load(&w) < 0)
		goto out;
	strbuf_reset(&sb);
	path_join(&sb, w.state.buf, "wt");
	checkout_init(&w.co, o->repo, sb.buf, w.lab ? NULL : o->build, w.state.buf);
	w.co.verbose = o->verbose;
	w.co.stop = o->stop;
	printf("watching %s of %s with %s (state %s)\n", o->branch, o->repo, o->job_path, w.state.buf);
	fflush(stdout);
	for (;;) {
		double start = now_seconds();
		if (one_pass(&w) < 0) {
			ret = (o->stop && *o->stop) ? WATCH_EXIT_INTERRUPTED : EXIT_ERROR;
			if (ret == WATCH_EXIT_INTERRUPTED || o->once)
				goto out;
			/* a robot keeps going: the next pass may find it fixed */
			warning("the pass failed: trying again in %g s", o->every);
		}
		if (o->once || !wait_next(&w, start))
			break;
	}
	ret = 0;
out:
	if (ret == WATCH_EXIT_INTERRUPTED)
		fprintf(stderr, "perfbot: watch: interrupted; the next start continues from here\n");
	watch_release(&w);
	strbuf_release(&sb);
	return ret;
}

void watch_opts_release(struct watch_opts *o)
{
	free(o->repo);
	free(o->branch);
	free(o->job_path);
	free_strings(o->metrics, o->nr_metrics);
	free(o->build);
	free_strings(o->command, o->nr_command);
	free(o->result_base);
	free(o->db);
	free(o->state_dir);
	free(o->reports_dir);
	free(o->mail_cmd);
	free(o->mail_to);
	free(o->mail_from);
	memset(o, 0, sizeof(*o));
}
