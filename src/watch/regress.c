/*
 * regress.c: what perfbot watch does with a metric's history (watch.h,
 * step 4 and 5): its change points, and for each regression not reported
 * before the bisect of its range, the report (text and HTML), the mail,
 * and the record in the store that it was reported.
 */
#include "util/error.h"
#include "watch/internal.h"
#include "detect/detect.h"
#include "watch/range.h"
#include "git/git.h"
#include "job/job.h"
#include "report/report.h"
#include "result/matrix.h"
#include "stats/lkp_tables.h"
#include "store/history.h"
#include "store/store.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* --- regressions ---------------------------------------------------------- */

/* The metrics to watch: the options', else the key metrics with a known
 * direction in the newest tested commit's matrix. */
void watched_metrics(const struct watch *w, const struct git_commit *line, int n,
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

/* The mailbox the mails come from: --mail-from, else perfbot@<hostname>. */
static void mail_from(const struct watch *w, struct strbuf *from)
{
	char host[256] = "localhost";

	if (w->o->mail_from) {
		strbuf_addstr(from, w->o->mail_from);
		return;
	}
	if (gethostname(host, sizeof(host) - 1) < 0 || !*host)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	strbuf_addf(from, "perfbot <perfbot@%s>", host);
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
		commit_field(w, culprit, "%an", &an);
		commit_field(w, culprit, "%ae", &sb);
		if (watch_mail_mailbox(an.buf, sb.buf, &to) < 0)
			warning("the author's address of %.12s is not one plain address; "
				"its mail goes to undisclosed-recipients (use --mail-to)", culprit);
		strbuf_reset(&sb);
	}
	mail_from(w, &from);
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
int send_mails(struct watch *w)
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
	struct strbuf name = STRBUF_INIT, hpath = STRBUF_INIT, from = STRBUF_INIT;
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
	/* a mailed report asks a fix to credit its sender; no Closes: as
	 * perfbot knows no archive URL of its own mails */
	if (w->o->mail_cmd) {
		mail_from(w, &from);
		opt.reported_by = from.buf;
	}
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
	strbuf_release(&from);
	return ret;
}

static int record(struct watch *w, int64_t job_id, const char *metric, const char *culprit,
		  const char *good, const char *bad, const char *report)
{
	struct store *st;
	struct store_reported rep = { job_id, metric, culprit, good, bad, report };
	int ret;

	if (store_open(&st, w->store, STORE_CREATE) < 0)
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

	if (store_open(&st, w->store, STORE_CREATE) < 0)
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
		printf("%s %+.1f%% (segment means, detect) %s: no untested commit in %.12s..%.12s\n", metric,
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
	printf("bisect %s %+.1f%% (segment means, detect) %s: %.12s..%.12s, %d untested commit%s\n",
	       metric,
	       100 * c->cp.change, where.buf, good, bad, r, r == 1 ? "" : "s");
	fflush(stdout);
	memset(&rb, 0, sizeof(rb));
	rb.repo = w->o->repo;
	rb.job_path = w->o->job_path;
	rb.metric = metric;
	rb.m = &w->o->m;
	rb.result_base = w->result_base;
	rb.db = w->o->db;
	rb.state_dir = w->state.buf;
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
		/* no answer to trust (the machine, the noise): --once says so
		 * in its exit status too, as for a moved machine */
		if (r == EXIT_UNTRUSTED)
			w->untrusted++;
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
bool watch_level_moved(const struct cp_point *a, const struct cp_point *b, double *rel)
{
	*rel = a->mean != 0 ? (b->mean - a->mean) / fabs(a->mean) : NAN;
	if (a->n < 2 || b->n < 2 || !(a->stddev >= 0) || !(b->stddev >= 0) || isnan(*rel))
		return false;
	double se = sqrt(a->stddev * a->stddev / a->n + b->stddev * b->stddev / b->n);
	double diff = fabs(b->mean - a->mean);
	return diff > WATCH_MOVED_SE * se && fabs(*rel) > WATCH_MOVED_MIN_REL;
}

/*
 * Neighbouring tested commits with the same tree run the same code: when
 * their levels differ beyond their noise the machine moved, and a "no
 * change" from this series would be a silent miss.  One line per pair,
 * naming both commits, the change and the noise; how many.
 */
static int say_machine_moved(struct watch *w, const struct series *s, const char *metric)
{
	struct strbuf ta = STRBUF_INIT, tb = STRBUF_INIT;
	int n = 0;

	for (int i = 1; i < s->nr; i++) {
		const struct series_point *a = &s->pt[i - 1], *b = &s->pt[i];
		double rel;

		if (!watch_level_moved(&a->cp, &b->cp, &rel))
			continue;
		strbuf_reset(&ta);
		strbuf_reset(&tb);
		commit_field(w, a->commit, "%T", &ta);
		commit_field(w, b->commit, "%T", &tb);
		if (!ta.len || strcmp(ta.buf, tb.buf))
			continue;
		printf("the machine moved: %.12s and %.12s have the same tree (the same code), yet %s "
		       "differs by %+.1f%% between them (%g -> %g; noise %.1f%% and %.1f%% a run, "
		       "%d and %d runs): a change on this machine now may be the machine's, and none "
		       "found may be one missed\n", a->commit, b->commit, metric, 100 * rel,
		       a->cp.mean, b->cp.mean, a->cp.mean ? 100 * a->cp.stddev / fabs(a->cp.mean) : NAN,
		       b->cp.mean ? 100 * b->cp.stddev / fabs(b->cp.mean) : NAN, a->cp.n, b->cp.n);
		n++;
	}
	strbuf_release(&ta);
	strbuf_release(&tb);
	return n;
}

int detect_metric(struct watch *w, const char *tip, const char *metric)
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
	if (store_open(&st, w->store, STORE_CREATE) < 0)
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
	w->moved += say_machine_moved(w, &s, metric);
	fflush(stdout);
	for (int k = 0; k < r.nr && ret == 0; k++)
		if (r.ch[k].kind == DETECT_REGRESSION)
			ret = handle_regression(w, &s, &r.ch[k], job_id, metric);
	detect_result_release(&r);
	series_release(&s);
	return ret;
}

