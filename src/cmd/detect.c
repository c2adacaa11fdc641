/*
 * detect.c: `perfbot detect` — where a metric moved along a branch.
 *
 *   perfbot detect --repo DIR [--branch B] --metric M [--job J] [--db D] [options]
 *   perfbot detect --input FILE [--metric M] [options]
 *
 * Takes the metric's history from the store (store/history.h, as `perfbot
 * history` shows it) or from a file of its JSON (detect/series.h), finds
 * its change points (stats/changepoint.h) and prints each change: the last
 * tested commit before it and the first after, its magnitude and p-value,
 * whether it is a regression for this metric, and whether the latest tag
 * still shows it.  With --bisect, each regression whose range holds
 * untested commits is handed to perfbot bisect (watch/range.h).
 *
 * Exit: 0, 1 error, 2 usage, 3 with --fail-on-regression when a change
 * is a regression.
 */
#include "cmd/cmd.h"
#include "detect/detect.h"
#include "util/error.h"
#include "watch/range.h"
#include "run/run.h"
#include "store/history.h"
#include "store/store.h"
#include "util/cmdline.h"
#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/stop.h"

#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct detect_args {
	const char *input, *db, *state_dir, *result_root;
	struct history_query q;
	const char **params;
	bool json, fail, bisect;
	/* --build and the command after --, borrowed from argv */
	struct bisect_measure m;
	struct cp_options cp;
	volatile sig_atomic_t *stop;    /* set by SIGINT/SIGTERM (util/stop.h) */
};

/* The history, from the file or the store. */
static int load(const struct detect_args *a, struct series *s)
{
	struct store *st;
	struct history h;
	int ret;

	if (a->input) {
		if (series_load_json(s, a->input) < 0)
			return -1;
		if (a->q.metric) {
			free(s->metric);
			s->metric = xstrdup(a->q.metric);
		}
		if (s->nr == 0)
			return error("%s: no tested commits in the history", a->input);
		return 0;
	}
	if (store_open(&st, a->db, 0) < 0)
		return -1;
	ret = history_load(st, &a->q, &h);
	store_close(st);
	if (ret < 0)
		return -1;
	series_from_history(s, &h);
	history_release(&h);
	return 0;
}

/* $XDG_DATA_HOME/perfbot/bisect, else ~/.local/share/perfbot/bisect */
static char *default_state_dir(void)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	if (xdg && *xdg)
		strbuf_addf(&sb, "%s/perfbot/bisect", xdg);
	else
		strbuf_addf(&sb, "%s/.local/share/perfbot/bisect", home && *home ? home : "/tmp");
	return strbuf_detach(&sb, NULL);
}

/* Each regression with untested commits in its range, to perfbot bisect. */
static int bisect_regressions(const struct detect_args *a, const struct series *s,
			      const struct detect_result *r)
{
	struct strbuf base = STRBUF_INIT;
	char *state_dir = a->state_dir ? abs_path(a->state_dir) : default_state_dir();
	char *job = realpath(a->q.job, NULL), *repo = realpath(a->q.repo, NULL), *db = NULL;
	struct range_bisect rb;
	int ret = 0;

	if (!job || !repo) {
		free(state_dir);
		free(job);
		free(repo);
		return error("cannot find '%s'", job ? a->q.repo : a->q.job);
	}
	/* the bisect's log keeps these: they must mean the same from anywhere */
	if (a->db && !strstr(a->db, "://") && strncmp(a->db, "sqlite:", 7))
		db = abs_path(a->db);
	if (a->result_root)
		strbuf_addstr(&base, a->result_root);
	else
		run_default_result_base(&base);
	memset(&rb, 0, sizeof(rb));
	rb.repo = repo;
	rb.job_path = job;
	rb.metric = s->metric;
	rb.m = &a->m;
	rb.db = db ? db : a->db;
	rb.stop = a->stop;
	rb.state_dir = state_dir;
	char *result_base = abs_path(base.buf);
	rb.result_base = result_base;
	for (int k = 0; k < r->nr && ret == 0; k++) {
		const struct detect_change *c = &r->ch[k];
		const char *good = s->pt[c->cp.index - 1].commit, *bad = s->pt[c->cp.index].commit;
		struct strbuf state = STRBUF_INIT;
		char *first_bad;
		int n, rc;

		if (c->kind != DETECT_REGRESSION)
			continue;
		n = range_untested(repo, good, bad);
		if (n < 0) {
			ret = EXIT_ERROR;
			break;
		}
		if (n == 0) {
			printf("\nno untested commit between %.12s and %.12s: the first bad commit is %.12s\n",
			       good, bad, bad);
			continue;
		}
		printf("\nbisecting %s between %.12s and %.12s (%d untested commit%s)\n",
		       s->metric, good, bad, n, n == 1 ? "" : "s");
		fflush(stdout);
		rc = range_bisect(&rb, good, bad, &state, &first_bad);
		free(first_bad);
		strbuf_release(&state);
		/* 4 and 5 are answers about this range, not failures */
		if (rc != 0 && rc != 4 && rc != 5)
			ret = rc;
	}
	free(result_base);
	free(state_dir);
	free(job);
	free(repo);
	free(db);
	strbuf_release(&base);
	return ret;
}

static int parse_args(int argc, char **argv, struct detect_args *a)
{
	enum { O_INPUT = 256, O_METRIC, O_PVALUE, O_MIN_CHANGE, O_SEED, O_JSON, O_FAIL,
	       O_REPO, O_BRANCH, O_JOB, O_PARAM, O_LIMIT, O_DB, O_BISECT, O_BUILD, O_ROOT,
	       O_STATE_DIR };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, O_INPUT },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "pvalue", required_argument, NULL, O_PVALUE },
		{ "min-change", required_argument, NULL, O_MIN_CHANGE },
		{ "seed", required_argument, NULL, O_SEED },
		{ "json", no_argument, NULL, O_JSON },
		{ "fail-on-regression", no_argument, NULL, O_FAIL },
		{ "repo", required_argument, NULL, O_REPO },
		{ "branch", required_argument, NULL, O_BRANCH },
		{ "job", required_argument, NULL, O_JOB },
		{ "param", required_argument, NULL, O_PARAM },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ "db", required_argument, NULL, O_DB },
		{ "bisect", no_argument, NULL, O_BISECT },
		{ "build", required_argument, NULL, O_BUILD },
		{ "result-root", required_argument, NULL, O_ROOT },
		{ "state-dir", required_argument, NULL, O_STATE_DIR },
		{ NULL, 0, NULL, 0 }
	};
	double v;
	bool is_int;
	int c;

	/* options anywhere before "--"; what follows it is the command's */
	int opts_end = cmdline_end(argc, argv, "", opts);

	optind = 0;     /* glibc starts afresh (and permutes) on 0 */
	while ((c = getopt_long(opts_end, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_INPUT: a->input = optarg; break;
		case O_METRIC: a->q.metric = optarg; break;
		case O_PVALUE:
		case O_MIN_CHANGE:
			if (detect_cp_option(&a->cp, c == O_PVALUE ? "--pvalue" : "--min-change",
					     optarg) < 0)
				return -1;
			break;
		case O_SEED:
			if (parse_number(optarg, &v, &is_int) < 0 || v < 0 ||
			    v != (double)(uint64_t)v)
				return error("--seed expects a whole number >= 0, got '%s'", optarg);
			a->cp.seed = (uint64_t)v;
			break;
		case O_LIMIT:
			if (parse_number(optarg, &v, &is_int) < 0 || v < 1 || v > INT_MAX ||
			    v != (int)v)
				return error("--limit expects a whole number >= 1, got '%s'", optarg);
			a->q.limit = (int)v;
			break;
		case O_JSON: a->json = true; break;
		case O_FAIL: a->fail = true; break;
		case O_REPO: a->q.repo = optarg; break;
		case O_BRANCH: a->q.branch = optarg; break;
		case O_JOB: a->q.job = optarg; break;
		case O_PARAM:
			a->params = xrealloc(a->params, sizeof(*a->params) * (size_t)(a->q.nr_params + 1));
			a->params[a->q.nr_params++] = optarg;
			a->q.params = a->params;
			break;
		case O_DB: a->db = optarg; break;
		case O_BISECT: a->bisect = true; break;
		case O_BUILD: a->m.build = optarg; break;
		case O_ROOT: a->result_root = optarg; break;
		case O_STATE_DIR: a->state_dir = optarg; break;
		default:
			return -1;
		}
	}
	if (optind < opts_end)
		return error("unexpected argument '%s'", argv[optind]);
	if (opts_end + 1 < argc) {
		a->m.command = argv + opts_end + 1;
		a->m.nr_command = argc - opts_end - 1;
	}
	if (!a->input && !a->q.repo)
		return error("detect needs --repo DIR and --metric M (the store's history), "
			     "or --input FILE");
	if (a->input && a->q.repo && !a->bisect)
		return error("--input and --repo: the history comes from one of them");
	if (!a->input && !a->q.metric)
		return error("detect needs --metric with --repo");
	if (a->bisect && (!a->q.repo || !a->q.job || !file_exists(a->q.job)))
		return error("--bisect needs --repo and --job naming a job file");
	return 0;
}

int cmd_detect(int argc, char **argv)
{
	const struct cmd *self = cmd_find("detect");
	struct detect_args a;
	struct series s;
	struct detect_result r;
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	memset(&a, 0, sizeof(a));
	cp_options_init(&a.cp);
	if (parse_args(argc, argv, &a) < 0) {
		free(a.params);
		return cmd_usage(self, 0);
	}
	series_init(&s);
	if (load(&a, &s) < 0 || detect_series(&s, NULL, &a.cp, &r) < 0) {
		series_release(&s);
		free(a.params);
		return EXIT_ERROR;
	}
	if (a.json)
		detect_print_json(&s, &r, &a.cp, &out);
	else
		detect_print_text(&s, &r, &a.cp, &out);
	if (!a.json && s.nr < 2 * a.cp.min_size)
		strbuf_addf(&out, "(too few to tell: a change needs %d tested commits on each side)\n",
			    a.cp.min_size);
	fwrite(out.buf, 1, out.len, stdout);
	if (a.bisect && !s.metric) {
		ret = error("--bisect needs the metric's name (--metric)");
	} else if (a.bisect) {
		a.stop = catch_stop_signals();
		ret = bisect_regressions(&a, &s, &r);
	}
	for (int k = 0; ret == 0 && a.fail && k < r.nr; k++)
		if (r.ch[k].kind == DETECT_REGRESSION)
			ret = EXIT_REGRESSION;
	strbuf_release(&out);
	detect_result_release(&r);
	series_release(&s);
	free(a.params);
	return ret;
}
