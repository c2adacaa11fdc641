/*
 * results.c: `perfbot results [--testcase T] [--commit C] [--metric GLOB]
 * [--param K=V] [--repo DIR] [--json|--csv]`, the stored values that match, result
 * root by result root (jobs by identity, then commits, then paths).
 *
 * Two ways to read them, whichever touches fewer rows: run by run (each
 * run's samples, a key lookup per metric: good when the filters leave few
 * runs) or metric by metric (each chosen metric's key range across every
 * run: good for a few metrics over many roots, e.g. one metric's history).
 *
 * Output is written root by root, so that a large store streams instead
 * of piling up in memory.
 */
#include "cmd/cmd.h"
#include "store/job_filter.h"
#include "store/store.h"
#include "util/csv.h"
#include "util/error.h"
#include "util/json_writer.h"
#include "util/numfmt.h"
#include "git/git.h"
#include "util/printable.h"

#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum format { TEXT, JSON, CSV };

#define NAME_WIDTH 40           /* the metric column of the text table */
#define VALUE_WIDTH 14          /* a run's column: 1e+15 and 1234567.123 fit */

struct results {
	struct store *s;
	enum format format;
	const char **commits;           /* as given, or the sha --repo names */
	char **resolved;                /* the shas among them, to free */
	int nr_commits;
	/* the chosen metrics: positions in `metrics`, and their ids sorted */
	struct store_metric_list metrics;
	bool *chosen;                   /* by position in metrics */
	int nr_chosen;
	int64_t *chosen_ids;            /* sorted, for lookups by id */
	/* the chosen metrics in name order (positions in `metrics`) with their
	 * index in chosen_ids: a root's rows without a pass over every metric */
	struct chosen_row { int pos, k; } *rows;
	/* one root's values, metric position x run */
	double *v;
	bool *have;
	struct strbuf out;
	struct json_writer jw;
	int roots_out;
};

static bool commit_matches(const struct results *r, const char *rev)
{
	if (!r->nr_commits)
		return true;
	for (int i = 0; i < r->nr_commits; i++)
		if (!strncmp(rev, r->commits[i], strlen(r->commits[i])))
			return true;
	return false;
}

/* With a repository, each --commit that names a commit there (a tag, a
 * branch, HEAD~2, an abbreviated sha) stands for its full sha, as
 * history's --branch does; the others stay prefixes of stored names.
 * -1 after a message when repo is no repository. */
static int resolve_commits(struct results *r, const char *repo)
{
	r->resolved = xcalloc((size_t)r->nr_commits + 1, sizeof(*r->resolved));
	for (int i = 0; i < r->nr_commits; i++) {
		int rc = git_resolve_commit(repo, r->commits[i], &r->resolved[i]);
		if (rc < 0)
			return -1;
		if (rc == 0)
			r->commits[i] = r->resolved[i];
	}
	return 0;
}

static int chosen_index(const struct results *r, int64_t id)
{
	int lo = 0, hi = r->nr_chosen - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (r->chosen_ids[mid] == id)
			return mid;
		if (r->chosen_ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Choose the metrics matching any glob (all without globs). */
static int choose_metrics(struct results *r, const char *const *globs, int nr_globs)
{
	if (store_metrics_load(r->s, &r->metrics) < 0)
		return -1;
	r->chosen = xcalloc((size_t)(r->metrics.nr ? r->metrics.nr : 1), sizeof(*r->chosen));
	for (int i = 0; i < r->metrics.nr; i++) {
		bool yes = !nr_globs;
		for (int g = 0; g < nr_globs && !yes; g++)
			yes = !fnmatch(globs[g], r->metrics.metrics[i].name, 0);
		r->chosen[i] = yes;
		r->nr_chosen += yes;
	}
	r->chosen_ids = xcalloc((size_t)(r->nr_chosen ? r->nr_chosen : 1), sizeof(*r->chosen_ids));
	for (int i = 0, k = 0; i < r->metrics.nr; i++)
		if (r->chosen[i])
			r->chosen_ids[k++] = r->metrics.metrics[i].id;
	if (r->nr_chosen)
		qsort(r->chosen_ids, (size_t)r->nr_chosen, sizeof(*r->chosen_ids), cmp_int64);
	r->rows = xcalloc((size_t)(r->nr_chosen ? r->nr_chosen : 1), sizeof(*r->rows));
	for (int i = 0, n = 0; i < r->metrics.nr; i++)
		if (r->chosen[i]) {
			r->rows[n].pos = i;
			r->rows[n++].k = chosen_index(r, r->metrics.metrics[i].id);
		}
	return 0;
}

/* Whether v prints as an integer, as lkp's files write integral values
 * (below 2^53, where every integer is exact). */
static bool integral(double v)
{
	return isfinite(v) && v == trunc(v) && fabs(v) < 9007199254740992.0;
}

static void add_value(struct strbuf *sb, double v)
{
	fmt_number(sb, v, integral(v));
}

static int flush_out(struct results *r)
{
	/* metric names and paths in a store are anyone's text; JSON escapes
	 * its controls itself, and CSV is data for a program (and ends its
	 * lines in CRLF) */
	if (r->format == TEXT)
		make_printable(r->out.buf, r->out.len, true);
	if (r->out.len && fwrite(r->out.buf, 1, r->out.len, stdout) != r->out.len)
		return error("cannot write the results: %s", "short write");
	strbuf_reset(&r->out);
	return 0;
}

/* Print one root from r->v / r->have. */
static void print_root(struct results *r, const struct store_job_info *job,
		       const struct store_root_info *root)
{
	int n = root->nr_runs;
	struct strbuf *o = &r->out;
	bool shown = false;

	/* a root without a value of the chosen metrics is not shown */
	for (size_t at = 0; at < (size_t)r->nr_chosen * (size_t)n && !shown; at++)
		shown = r->have[at];
	if (!shown)
		return;
	if (r->format == JSON) {
		struct json_writer *jw = &r->jw;
		jw_object_begin(jw);
		for (int f = 0; f < SJ_NR; f++) {
			jw_key(jw, store_job_field_names[f]);
			jw_string(jw, job->field[f]);
		}
		jw_key(jw, "commit"); jw_string(jw, root->rev);
		jw_key(jw, "path"); jw_string(jw, root->path);
		jw_key(jw, "runs");
		jw_array_begin(jw);
		for (int k = 0; k < n; k++) {
			jw_object_begin(jw);
			jw_key(jw, "run"); jw_number(jw, root->runs[k].number, true);
			jw_key(jw, "incomplete"); jw_bool(jw, root->runs[k].incomplete);
			jw_key(jw, "path"); jw_string(jw, root->runs[k].path);
			jw_object_end(jw);
		}
		jw_array_end(jw);
		jw_key(jw, "stats");
		jw_object_begin(jw);
	} else if (r->format == TEXT) {
		strbuf_addf(o, "%s# ", r->roots_out ? "\n" : "");
		for (int f = 0; f < SJ_NR; f++)
			strbuf_addf(o, "%s%s", f ? "/" : "", job->field[f]);
		strbuf_addf(o, " %s\n# %s\n%-*s", root->rev, root->path, NAME_WIDTH, "");
		/* each column: a blank, the value in VALUE_WIDTH, the '*' mark */
		for (int k = 0; k < n; k++) {
			char head[32];
			snprintf(head, sizeof(head), "run %d", root->runs[k].number);
			strbuf_addf(o, " %*s%c", VALUE_WIDTH, head, root->runs[k].incomplete ? '*' : ' ');
		}
		strbuf_rtrim(o);
		strbuf_addch(o, '\n');
	}
	/* metrics in name order: the positions of the chosen ones */
	for (int row = 0; row < r->nr_chosen; row++) {
		int i = r->rows[row].pos, k = r->rows[row].k;
		bool any = false;
		for (int c = 0; c < n; c++)
			any |= r->have[(size_t)k * (size_t)n + (size_t)c];
		if (!any)
			continue;
		const char *name = r->metrics.metrics[i].name;
		if (r->format == JSON) {
			jw_key(&r->jw, name);
			jw_array_begin(&r->jw);
		} else if (r->format == TEXT) {
			strbuf_addf(o, "%-*s", NAME_WIDTH, name);
		}
		for (int c = 0; c < n; c++) {
			size_t at = (size_t)k * (size_t)n + (size_t)c;
			double v = r->v[at];
			if (r->format == JSON) {
				if (r->have[at])
					jw_number(&r->jw, v, integral(v));
				else
					jw_null(&r->jw);
				continue;
			}
			if (r->format == TEXT) {
				struct strbuf num = STRBUF_INIT;
				if (r->have[at])
					add_value(&num, v);
				else
					strbuf_addstr(&num, "-");
				strbuf_addf(o, " %*s ", VALUE_WIDTH, num.buf);
				strbuf_release(&num);
				continue;
			}
			if (!r->have[at])
				continue;
			for (int f = 0; f < SJ_NR; f++) {
				csv_field(o, job->field[f]);
				strbuf_addch(o, ',');
			}
			csv_field(o, root->rev);
			strbuf_addf(o, ",%d,%d,", root->runs[c].number, root->runs[c].incomplete);
			csv_field(o, name);
			strbuf_addch(o, ',');
			add_value(o, v);
			strbuf_addch(o, ',');
			csv_field(o, root->runs[c].path);
			strbuf_addstr(o, "\r\n");
		}
		if (r->format == JSON) {
			jw_array_end(&r->jw);
		} else if (r->format == TEXT) {
			strbuf_rtrim(o);
			strbuf_addch(o, '\n');
		}
	}
	if (r->format == JSON) {
		jw_object_end(&r->jw);
		jw_object_end(&r->jw);
	}
	r->roots_out++;
}

struct fill {
	struct results *r;
	const struct store_root_info *root;
	int col;
};

static int fill_run(const struct store_sample *sm, void *data)
{
	struct fill *f = data;
	int k = chosen_index(f->r, sm->metric_id);
	size_t at;

	if (k < 0)
		return 0;
	at = (size_t)k * (size_t)f->root->nr_runs + (size_t)f->col;
	f->r->v[at] = sm->value;
	f->r->have[at] = true;
	return 0;
}

/* Read a root's values run by run into r->v. */
static int read_by_run(struct results *r, const struct store_root_info *root)
{
	struct fill f = { r, root, 0 };

	for (f.col = 0; f.col < root->nr_runs; f.col++)
		if (store_run_samples(r->s, root->runs[f.col].id, fill_run, &f) < 0)
			return -1;
	return 0;
}

/*
 * Metric-major: each chosen metric's values of the whole store (its key
 * range, no join), placed by run id into the job's runs, which
 * store_job_roots has loaded anyway.
 */
struct run_slot {
	int64_t run_id;
	size_t cell;            /* the run's first cell in by_metric.v */
};

struct by_metric {
	struct run_slot *slots; /* sorted by run id */
	size_t nr_slots;
	int nr_chosen, k;       /* k: the metric being read */
	double *v;              /* run (in root order) x chosen metric */
	bool *have;
};

static int cmp_slot(const void *a, const void *b)
{
	int64_t x = ((const struct run_slot *)a)->run_id, y = ((const struct run_slot *)b)->run_id;

	return x < y ? -1 : x > y;
}

static int place_value(const struct store_sample *sm, void *data)
{
	struct by_metric *bm = data;
	struct run_slot key = { sm->run_id, 0 }, *slot;

	slot = bm->nr_slots ? bsearch(&key, bm->slots, bm->nr_slots, sizeof(key), cmp_slot) : NULL;
	if (slot) {             /* else a run of another job */
		bm->v[slot->cell + (size_t)bm->k] = sm->value;
		bm->have[slot->cell + (size_t)bm->k] = true;
	}
	return 0;
}

static bool shown_root(const struct results *r, const struct store_root_info *root)
{
	return commit_matches(r, root->rev) && root->nr_runs;
}

/* Read every chosen metric of the roots shown into bm. */
static int read_by_metric(struct results *r, const struct store_root_list *roots, struct by_metric *bm)
{
	size_t nr = 0;

	for (int i = 0; i < roots->nr; i++)
		if (shown_root(r, &roots->roots[i]))
			nr += (size_t)roots->roots[i].nr_runs;
	bm->nr_chosen = r->nr_chosen;
	bm->slots = xcalloc(nr ? nr : 1, sizeof(*bm->slots));
	bm->v = xcalloc(nr * (size_t)r->nr_chosen + 1, sizeof(*bm->v));
	bm->have = xcalloc(nr * (size_t)r->nr_chosen + 1, sizeof(*bm->have));
	for (int i = 0; i < roots->nr; i++) {
		const struct store_root_info *root = &roots->roots[i];
		if (!shown_root(r, root))
			continue;
		for (int c = 0; c < root->nr_runs; c++) {
			bm->slots[bm->nr_slots].run_id = root->runs[c].id;
			bm->slots[bm->nr_slots].cell = bm->nr_slots * (size_t)r->nr_chosen;
			bm->nr_slots++;
		}
	}
	/* cells stay in root order; the slots are sorted for the lookups */
	if (bm->nr_slots)
		qsort(bm->slots, bm->nr_slots, sizeof(*bm->slots), cmp_slot);
	for (bm->k = 0; bm->k < r->nr_chosen; bm->k++)
		if (store_metric_values(r->s, r->chosen_ids[bm->k], place_value, bm) < 0)
			return -1;
	return 0;
}

/* Print the roots of one job that pass the commit filter. */
static int print_job(struct results *r, const struct store_job_info *job, int64_t nr_all_runs)
{
	struct store_root_list roots;
	struct by_metric bm;
	int64_t runs_here = 0;
	size_t cell = 0;
	int ret = -1;

	memset(&bm, 0, sizeof(bm));
	if (store_job_roots(r->s, job->id, &roots) < 0)
		return -1;
	for (int i = 0; i < roots.nr; i++)
		if (commit_matches(r, roots.roots[i].rev))
			runs_here += roots.roots[i].nr_runs;
	/* run by run costs every metric per run; metric by metric every run
	 * of the store per chosen metric */
	bool by_metric = runs_here && (int64_t)r->nr_chosen * nr_all_runs < runs_here * r->metrics.nr;
	if (by_metric && read_by_metric(r, &roots, &bm) < 0)
		goto out;
	for (int i = 0; i < roots.nr; i++) {
		const struct store_root_info *root = &roots.roots[i];
		size_t cells = (size_t)(r->nr_chosen ? r->nr_chosen : 1) * (size_t)(root->nr_runs ? root->nr_runs : 1);
		if (!shown_root(r, root))
			continue;
		r->v = xrealloc(r->v, cells * sizeof(*r->v));
		r->have = xrealloc(r->have, cells * sizeof(*r->have));
		memset(r->have, 0, cells * sizeof(*r->have));
		if (!by_metric) {
			if (read_by_run(r, root) < 0)
				goto out;
		} else {
			/* bm holds run x metric, print_root wants metric x run */
			for (int c = 0; c < root->nr_runs; c++, cell += (size_t)r->nr_chosen)
				for (int k = 0; k < r->nr_chosen; k++) {
					size_t at = (size_t)k * (size_t)root->nr_runs + (size_t)c;
					r->v[at] = bm.v[cell + (size_t)k];
					r->have[at] = bm.have[cell + (size_t)k];
				}
		}
		print_root(r, job, root);
		if (flush_out(r) < 0)
			goto out;
	}
	ret = 0;
out:
	free(bm.slots);
	free(bm.v);
	free(bm.have);
	store_root_list_release(&roots);
	return ret;
}

int cmd_results(int argc, char **argv)
{
	enum { O_TESTCASE = 256, O_COMMIT, O_METRIC, O_PARAM, O_JOB, O_JSON, O_CSV, O_DB, O_REPO };
	static const struct option opts[] = {
		{ "testcase", required_argument, NULL, O_TESTCASE },
		{ "commit", required_argument, NULL, O_COMMIT },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "param", required_argument, NULL, O_PARAM },
		{ "job", required_argument, NULL, O_JOB },
		{ "json", no_argument, NULL, O_JSON },
		{ "csv", no_argument, NULL, O_CSV },
		{ "db", required_argument, NULL, O_DB },
		{ "repo", required_argument, NULL, O_REPO },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("results");
	struct results r;
	struct store_job_filter filter;
	struct store_job_list jobs = { NULL, 0 };
	const char **globs = NULL, **params = NULL, *testcase = NULL, *job = NULL, *db = NULL;
	const char *repo = NULL;
	int nr_globs = 0, nr_params = 0, c, ret = EXIT_ERROR;
	bool have_filter = false;
	int64_t nr_all_runs;

	memset(&r, 0, sizeof(r));
	strbuf_init(&r.out, 0);
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_TESTCASE: testcase = optarg; break;
		case O_COMMIT:
			r.commits = xrealloc(r.commits, sizeof(*r.commits) * (size_t)(r.nr_commits + 1));
			r.commits[r.nr_commits++] = optarg;
			break;
		case O_METRIC:
			globs = xrealloc(globs, sizeof(*globs) * (size_t)(nr_globs + 1));
			globs[nr_globs++] = optarg;
			break;
		case O_PARAM:
			params = xrealloc(params, sizeof(*params) * (size_t)(nr_params + 1));
			params[nr_params++] = optarg;
			break;
		case O_JOB: job = optarg; break;
		case O_JSON: r.format = JSON; break;
		case O_CSV: r.format = CSV; break;
		case O_DB: db = optarg; break;
		case O_REPO: repo = optarg; break;
		default:
			ret = cmd_usage(self, 0);
			goto out_args;
		}
	}
	if (optind < argc) {
		error("unexpected argument '%s'", argv[optind]);
		ret = cmd_usage(self, 0);
		goto out_args;
	}
	if (repo && resolve_commits(&r, repo) < 0)
		goto out_args;
	if (store_job_filter_init(&filter, testcase, job, params, nr_params) < 0)
		goto out_args;
	have_filter = true;
	if (store_open(&r.s, db, 0) < 0 || store_jobs_load(r.s, &jobs) < 0 ||
	    choose_metrics(&r, globs, nr_globs) < 0 || store_count_runs(r.s, &nr_all_runs) < 0)
		goto out;

	if (r.format == JSON) {
		jw_init(&r.jw, &r.out);
		jw_array_begin(&r.jw);
	} else if (r.format == CSV) {
		strbuf_addstr(&r.out, "testcase,path_params,tbox_group,rootfs,kconfig,compiler,"
			      "commit,run,incomplete,metric,value,path\r\n");
	}
	for (int j = 0; j < jobs.nr; j++)
		if (store_job_filter_match(&filter, &jobs.jobs[j]) &&
		    print_job(&r, &jobs.jobs[j], nr_all_runs) < 0)
			goto out;
	if (r.format == JSON)
		jw_array_end(&r.jw);
	if (flush_out(&r) < 0)
		goto out;
	if (!r.roots_out && r.format == TEXT)
		fprintf(stderr, "perfbot: no stored results match\n");
	ret = 0;
out:
	store_job_list_release(&jobs);
	store_metric_list_release(&r.metrics);
	free(r.chosen);
	free(r.chosen_ids);
	free(r.rows);
	free(r.v);
	free(r.have);
	store_close(r.s);
	if (have_filter)
		store_job_filter_release(&filter);
out_args:
	strbuf_release(&r.out);
	for (int i = 0; r.resolved && i < r.nr_commits; i++)
		free(r.resolved[i]);
	free(r.resolved);
	free(r.commits);
	free(globs);
	free(params);
	return ret;
}
