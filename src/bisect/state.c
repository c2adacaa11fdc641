/*
 * state.c: what the bisect runner keeps (internal.h): the replayable log
 * (driver.h), the order of its steps for the plot, why commits were
 * skipped, and bisect.json, which the report reads.
 */
#include "bisect/internal.h"
#include "bisect/advice.h"
#include "bisect/decide.h"
#include "bisect/kernel.h"
#include "bisect/log.h"
#include "git/checkout.h"
#include "job/job.h"
#include "lab/queue.h"
#include "lab/remote.h"
#include "report/report.h"
#include "result/matrix.h"
#include "run/leftovers.h"
#include "run/run.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_writer.h"
#include "util/quote.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct decision *bisect_find_decision(struct bisect *b, const char *sha)
{
	for (int i = b->nr_d - 1; i >= 0; i--)
		if (!strcmp(b->d[i].sha, sha))
			return &b->d[i];
	return NULL;
}

struct decision *bisect_add_decision(struct bisect *b, const char *sha)
{
	struct decision *d = bisect_find_decision(b, sha);
	if (d)
		return d;
	ALLOC_GROW(b->d, (size_t)b->nr_d + 1, b->alloc_d);
	d = &b->d[b->nr_d++];
	memset(d, 0, sizeof(*d));
	d->sha = xstrdup(sha);
	return d;
}

void bisect_decision_release(struct decision *d)
{
	free(d->sha);
	sample_set_release(&d->paired);
}

/* Remember a step for the plot and bisect.json: which samples of sha
 * (from, to) led to the verdict `what`; -1, -1 means all of them. */
void bisect_note_order(struct bisect *b, const char *sha, const char *what, int from, int to)
{
	strbuf_addf(&b->order, "%s %s %d %d\n", sha, what, from, to);
}

/* One parsed line of b->order; fields point into a copy the caller frees. */
struct step_line {
	char *sha, *what;
	int from, to;
};

static const char *next_step(const char *l, struct step_line *st, char **copy)
{
	const char *nl = strchr(l, '\n');
	char *line = xstrndup(l, (size_t)(nl - l)), *save = NULL;

	*copy = line;
	st->sha = strtok_r(line, " ", &save);
	st->what = strtok_r(NULL, " ", &save);
	char *f = strtok_r(NULL, " ", &save), *t = strtok_r(NULL, " ", &save);
	st->from = f ? atoi(f) : -1;
	st->to = t ? atoi(t) : -1;
	return nl + 1;
}

/* The samples a step counted (all when its range is unknown). */
static struct sample_set step_samples(struct bisect *b, const struct step_line *st)
{
	struct commit_samples *c = bisect_samples_of(b, st->sha, false);
	struct sample_set s = { c->s.v, c->s.nr, 0 };
	if (st->from >= 0 && st->to >= st->from && st->to <= c->s.nr) {
		s.v = c->s.v + st->from;
		s.nr = st->to - st->from;
	}
	return s;
}

/* ---- the report -------------------------------------------------------- */

/*
 * What the report says about the endpoints: their means and shift, the
 * noise at the start and the runs a verdict needed, the noise at the
 * end and whether it moved, and the first bad commit's own step against
 * its parent (which may explain only part of the shift).
 */
/* The first bad commit's relative change against its parent (NaN when
 * either has no runs). */
double bisect_result_step(struct bisect *b, const char *parent)
{
	double step = NAN;

	if (parent && b->result) {
		struct commit_samples *pa = bisect_samples_of(b, parent, false);
		struct commit_samples *fb = bisect_samples_of(b, b->result, false);
		double mp = pa->s.nr ? mean(pa->s.v, pa->s.nr) : NAN;

		if (fb->s.nr && mp != 0)
			step = (mean(fb->s.v, fb->s.nr) - mp) / fabs(mp);
	}
	return step;
}

static void endpoints_json(struct bisect *b, const char *parent, struct json_writer *jw)
{
	struct commit_samples *g = bisect_samples_of(b, b->o->good, false);
	struct commit_samples *bd = bisect_samples_of(b, b->o->bad, false);
	struct sample_set g0 = { g->s.v, b->start_good, 0 }, b0 = { bd->s.v, b->start_bad, 0 };
	double step = bisect_result_step(b, parent);

	bisect_outlook_json(&b->outlook, mean(g0.v, g0.nr), mean(b0.v, b0.nr),
			    bisect_pvalue(&g0, &b0, &b->p), b->rechecked ? &b->recheck : NULL,
			    step, jw);
}

/* One skip's reason, remembered for bisect.json (the last one wins). */
void bisect_remember_skip(struct bisect *b, const char *sha, const char *why)
{
	strbuf_addf(&b->skips, "%s ", sha);
	for (const char *p = why; *p; p++)
		strbuf_addch(&b->skips, *p == '\n' ? ' ' : *p);
	strbuf_addch(&b->skips, '\n');
}

/* Say why sha was skipped: "# skip <sha>: <why>" in the log, read back
 * on --resume, and in bisect.json's step (the report shows it). */
int bisect_note_skip(struct bisect *b, const char *sha, int used)
{
	struct strbuf line = STRBUF_INIT;
	int r;

	if (!b->why.len)
		strbuf_addf(&b->why, BISECT_SKIP_NOISE " %d runs", used);
	bisect_remember_skip(b, sha, b->why.buf);
	strbuf_addf(&line, "# skip %s: ", sha);
	for (const char *p = b->why.buf; *p; p++)
		strbuf_addch(&line, *p == '\n' ? ' ' : *p);
	strbuf_addch(&line, '\n');
	r = bisect_log_append(b->o->state_path, line.buf);
	strbuf_release(&line);
	return r;
}

/* The remembered reason sha was skipped, or NULL. */
static const char *skip_reason(const struct bisect *b, const char *sha, struct strbuf *sb)
{
	size_t n = strlen(sha);
	const char *found = NULL;

	for (const char *l = b->skips.buf; *l;) {
		const char *nl = strchr(l, '\n');
		if (!strncmp(l, sha, n) && l[n] == ' ') {
			strbuf_reset(sb);
			strbuf_add(sb, l + n + 1, (size_t)(nl - l - n - 1));
			found = sb->buf;
		}
		l = nl + 1;
	}
	return found;
}

bool bisect_skipped_by_noise(const struct bisect *b, const char *sha)
{
	struct strbuf sb = STRBUF_INIT;
	const char *why = skip_reason(b, sha, &sb);
	bool noise = why && !strncmp(why, BISECT_SKIP_NOISE " ", strlen(BISECT_SKIP_NOISE " "));

	strbuf_release(&sb);
	return noise;
}

/* An argument for a command line people copy: as it is when the shell
 * takes it so, else single-quoted. */
static void quote_arg(struct strbuf *sb, const char *s)
{
	if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-")])
		strbuf_addstr(sb, s);
	else
		shell_quote(sb, s);
}

/* The command that repeats this bisect, every option that changes what it
 * measures or where it keeps things spelled out, for the report's "how to
 * reproduce" (a bare --repo --good --bad --job --metric would run
 * without the build, into another result tree, on another state). */
static void reproduce_command(const struct bisect_opts *o, const char *job, struct strbuf *sb)
{
	static const char *const names[] = { "--repo", "--good", "--bad", "--job", "--metric" };
	const char *values[] = { o->repo, o->good, o->bad, job, o->metric };

	strbuf_addstr(sb, "perfbot bisect");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strbuf_addf(sb, " %s ", names[i]);
		quote_arg(sb, values[i]);
	}
	if (o->m.build) {
		strbuf_addstr(sb, " --build ");
		quote_arg(sb, o->m.build);
	}
	if (o->m.kernel_tree) {
		strbuf_addstr(sb, " --kernel-tree ");
		quote_arg(sb, o->m.kernel_tree);
		if (o->m.kconfig) {
			strbuf_addstr(sb, " --config ");
			quote_arg(sb, o->m.kconfig);
		}
		kernel_vm_opts_args(&o->m.vm, sb);
	}
	if (o->runs > 0)
		strbuf_addf(sb, " --runs %d", o->runs);
	if (o->max_runs > 0)
		strbuf_addf(sb, " --max-runs %d", o->max_runs);
	if (o->max_total_runs > 0)
		strbuf_addf(sb, " --max-total-runs %d", o->max_total_runs);
	if (o->alpha > 0)
		strbuf_addf(sb, " --alpha %g", o->alpha);
	strbuf_addstr(sb, " --state ");
	quote_arg(sb, o->state_path);
	strbuf_addstr(sb, " --result-root ");
	quote_arg(sb, o->result_base);
	if (o->no_index) {
		strbuf_addstr(sb, " --no-index");
	} else if (o->db) {
		strbuf_addstr(sb, " --db ");
		quote_arg(sb, o->db);
	}
	if (o->m.nr_command) {
		strbuf_addstr(sb, " --");
		for (int i = 0; i < o->m.nr_command; i++) {
			strbuf_addch(sb, ' ');
			quote_arg(sb, o->m.command[i]);
		}
	}
}

void bisect_write_json(struct bisect *b, const char *parent)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT, s = STRBUF_INIT, rr = STRBUF_INIT;
	struct json_writer jw;
	char *job_abs = realpath(b->o->job_path, NULL);

	/* every commit named below gets its entry in "commits" */
	for (const char *l = b->order.buf; *l;) {
		struct step_line st;
		char *copy;
		l = next_step(l, &st, &copy);
		bisect_samples_of(b, st.sha, false);
		free(copy);
	}
	if (b->result)
		bisect_samples_of(b, b->result, false);
	if (parent)
		bisect_samples_of(b, parent, false);
	jw_init(&jw, &out);
	jw_object_begin(&jw);
	jw_key(&jw, "version"); jw_number(&jw, 1, true);
	jw_key(&jw, "repo"); jw_string(&jw, b->o->repo);
	jw_key(&jw, "metric"); jw_string(&jw, b->o->metric);
	jw_key(&jw, "good"); jw_string(&jw, b->o->good);
	jw_key(&jw, "bad"); jw_string(&jw, b->o->bad);
	if (b->o->good_name) {
		jw_key(&jw, "good_name"); jw_string(&jw, b->o->good_name);
	}
	if (b->o->bad_name) {
		jw_key(&jw, "bad_name"); jw_string(&jw, b->o->bad_name);
	}
	if (b->result) {
		jw_key(&jw, "first_bad"); jw_string(&jw, b->result);
		bisect_subject_of(b, b->result, &s);
		jw_key(&jw, "first_bad_subject"); jw_string(&jw, s.buf);
	}
	if (parent) {
		jw_key(&jw, "parent"); jw_string(&jw, parent);
	}
	if (b->start_good)
		endpoints_json(b, parent, &jw);
	jw_key(&jw, "job"); jw_string(&jw, job_abs ? job_abs : b->o->job_path);
	jw_key(&jw, "result_base"); jw_string(&jw, b->o->result_base);
	strbuf_reset(&s);
	reproduce_command(b->o, job_abs ? job_abs : b->o->job_path, &s);
	jw_key(&jw, "command"); jw_string(&jw, s.buf);
	/* the accel the runs had: auto resolved, so that the runs land in
	 * the same tbox_group */
	if (b->o->m.kernel_tree)
		bisect_kernel_json(b->o, b->k.vm_ready ? b->k.vm.accel : b->o->m.vm.accel, &jw);
	jw_key(&jw, "commits");
	jw_object_begin(&jw);
	for (int i = 0; i < b->nr_cs; i++) {
		jw_key(&jw, b->cs[i].sha);
		jw_object_begin(&jw);
		strbuf_reset(&s);
		bisect_subject_of(b, b->cs[i].sha, &s);
		jw_key(&jw, "subject"); jw_string(&jw, s.buf);
		strbuf_reset(&rr);
		job_result_root(b->job, b->o->result_base, b->cs[i].sha, &rr);
		jw_key(&jw, "result_root"); jw_string(&jw, rr.buf);
		jw_object_end(&jw);
	}
	jw_object_end(&jw);
	jw_key(&jw, "steps");
	jw_array_begin(&jw);
	for (const char *l = b->order.buf; *l;) {
		struct step_line st;
		char *copy;
		l = next_step(l, &st, &copy);
		struct sample_set used = step_samples(b, &st);
		jw_object_begin(&jw);
		jw_key(&jw, "commit"); jw_string(&jw, st.sha);
		jw_key(&jw, "verdict"); jw_string(&jw, st.what);
		if (!strcmp(st.what, "skip") && skip_reason(b, st.sha, &s)) {
			jw_key(&jw, "reason");
			jw_string(&jw, s.buf);
		}
		jw_key(&jw, "samples");
		jw_array_begin(&jw);
		for (int k = 0; k < used.nr; k++)
			jw_number(&jw, used.v[k], false);
		jw_array_end(&jw);
		jw_object_end(&jw);
		free(copy);
	}
	jw_array_end(&jw);
	jw_object_end(&jw);
	strbuf_addf(&path, "%s/bisect.json", b->dir.buf);
	write_file_atomic(path.buf, out.buf, out.len);
	free(job_abs);
	strbuf_release(&out);
	strbuf_release(&path);
	strbuf_release(&s);
	strbuf_release(&rr);
}

/* The first bad commit line, then the report of bisect.json (report.h):
 * the same text `perfbot report --bisect STATE` prints. */
void bisect_print_report(struct bisect *b)
{
	struct strbuf subject = STRBUF_INIT, out = STRBUF_INIT;
	struct report r;
	struct report_options ro;

	bisect_subject_of(b, b->result, &subject);
	printf("first bad commit: %s (\"%s\")\n\n", b->result, subject.buf);
	report_options_init(&ro);
	if (report_load_bisect(&r, b->o->state_path, &ro) == 0 && report_text(&r, &out) == 0)
		fwrite(out.buf, 1, out.len, stdout);
	report_release(&r);
	strbuf_release(&subject);
	strbuf_release(&out);
}

/* ---- the log ------------------------------------------------------------- */

int bisect_load_log(struct bisect *b, const char *path, struct bisect_opts *o)
{
	struct strbuf text = STRBUF_INIT;
	int lineno = 0, ret = 0;
	bool started = false;

	if (read_file(&text, path) < 0)
		return -1;
	for (char *l = text.buf; *l && !ret;) {
		char *nl = strchr(l, '\n');
		if (!nl)
			break;   /* a torn last line (crash mid-write) is ignored */
		*nl = '\0';
		lineno++;
		if (!strncmp(l, "# skip ", 7) && started) {
			/* why a commit was skipped (note_skip) */
			char *colon = strstr(l + 7, ": ");
			if (colon) {
				*colon = '\0';
				bisect_remember_skip(b, l + 7, colon + 2);
			}
		} else if (!*l || *l == '#') {
			/* comments and blank lines */
		} else if (!started) {
			ret = bisect_parse_start(l, path, lineno, o);
			started = true;
		} else {
			char sha[128], what[16];
			int n, end = 0, g, bd;
			char kind[16];
			double mid;
			if (sscanf(l, "%15s %127s %15s %d", kind, sha, what, &n) == 4 &&
			    (!strcmp(kind, "verdict") || !strcmp(kind, "confirm"))) {
				struct decision *d = bisect_add_decision(b, sha);
				enum bisect_verdict v = !strcmp(what, "good") ? BISECT_GOOD :
							!strcmp(what, "bad") ? BISECT_BAD : BISECT_UNKNOWN;
				if (!strcmp(kind, "confirm")) {
					d->from = d->used;
					/* a reversal stays to be confirmed */
					d->confirmed = v == d->v;
				}
				d->v = v;
				d->used = n;
				bisect_note_order(b, sha, what, d->from, n);
			} else if (sscanf(l, "%15s %127s %d %lf%n", kind, sha, &n, &mid, &end) == 4 &&
				   !strcmp(kind, "turn") && !l[end] && n >= 0) {
				bisect_add_turn(b, sha, n, mid);
			} else if (sscanf(l, "%15s %d %d%n", kind, &g, &bd, &end) == 3 &&
				   !strcmp(kind, "endpoints") && !l[end] && g > 0 && bd > 0) {
				b->logged_good = g;
				b->logged_bad = bd;
			} else if (sscanf(l, "%15s %127s", kind, sha) == 2 && !strcmp(kind, "result")) {
				free(b->result);
				b->result = xstrdup(sha);
			} else {
				ret = error("%s:%d: expected 'verdict', 'confirm', 'turn', 'endpoints' or 'result', got '%s'", path, lineno, l);
			}
		}
		l = nl + 1;
	}
	if (!ret && !started)
		ret = error("%s: no 'start' line: not a bisect state", path);
	strbuf_release(&text);
	return ret;
}

int bisect_record(struct bisect *b, const char *kind, const struct decision *d)
{
	struct strbuf line = STRBUF_INIT;
	int r;

	strbuf_addf(&line, "%s %s %s %d\n", kind, d->sha, bisect_verdict_name(d->v), d->used);
	r = bisect_log_append(b->o->state_path, line.buf);
	strbuf_release(&line);
	return r;
}

void bisect_add_turn(struct bisect *b, const char *sha, int run, double mid)
{
	ALLOC_GROW(b->turns, (size_t)b->nr_turns + 1, b->alloc_turns);
	b->turns[b->nr_turns].sha = xstrdup(sha);
	b->turns[b->nr_turns].run = run;
	b->turns[b->nr_turns++].mid = mid;
}

int bisect_record_turn(struct bisect *b, const char *sha, int run, double mid)
{
	struct strbuf line = STRBUF_INIT;
	int r;

	bisect_add_turn(b, sha, run, mid);
	/* %.17g: read back as the same double */
	strbuf_addf(&line, "turn %s %d %.17g\n", sha, run, mid);
	r = bisect_log_append(b->o->state_path, line.buf);
	strbuf_release(&line);
	return r;
}

void bisect_turn_mids(const struct bisect *b, const char *sha, int from, int n,
		      struct sample_set *mids)
{
	mids->nr = 0;
	for (int i = 0; i < n; i++)
		sample_set_add(mids, NAN);
	/* one pass, in log order: a run is measured once, but a hand-edited
	 * log may repeat it, and then the latest counts */
	for (int i = 0; i < b->nr_turns; i++) {
		const struct bisect_turn *t = &b->turns[i];
		if (t->run >= from && t->run - from < n && !strcmp(t->sha, sha))
			mids->v[t->run - from] = t->mid;
	}
}

void bisect_turns_release(struct bisect *b)
{
	for (int i = 0; i < b->nr_turns; i++)
		free(b->turns[i].sha);
	free(b->turns);
	b->turns = NULL;
	b->nr_turns = 0;
	b->alloc_turns = 0;
}

int bisect_record_endpoints(struct bisect *b)
{
	struct strbuf line = STRBUF_INIT;
	int r;

	strbuf_addf(&line, "endpoints %d %d\n", b->start_good, b->start_bad);
	r = bisect_log_append(b->o->state_path, line.buf);
	strbuf_release(&line);
	return r;
}
