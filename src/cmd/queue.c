/*
 * queue.c: `perfbot queue submit|list|cancel|retry`, the lab's queue from
 * the command line (src/lab/queue.h does the work).
 *
 * submit splits the job first, as lkp's split-job does (src/job/split.c),
 * and queues one entry per atomic job, all in one transaction: a job
 * file is queued whole or not at all.  The atoms leave the submitter
 * without `testbox`: the box that runs one names itself in it (and its
 * tbox_group and arch, unless --tbox-group or the job fixed those), so
 * the results land under the box that produced them.
 */
#include "cmd/cmd.h"
#include "job/job.h"
#include "job/split.h"
#include "lab/queue.h"
#include "pg/schema.h"
#include "lab/upload.h"
#include "run/desc.h"
#include "run/run.h"
#include "util/error.h"
#include "util/pathsafe.h"
#include "util/printable.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse a whole decimal integer in [lo, hi]; -1 after an error. */
static int parse_int(const char *opt, const char *s, long lo, long hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < lo || v > hi)
		return error("%s expects a number from %ld to %ld, got '%s'", opt, lo, hi, s);
	*out = (int)v;
	return 0;
}

struct submit_ctx {
	struct pg *db;
	struct queue_job q;          /* fields shared by the atoms */
	const char *prefix;          /* atom names: <prefix>-<path_params>.yaml */
	bool arch_given;
	int nr;
};

static int submit_atom(struct job *atom, void *data)
{
	struct submit_ctx *s = data;
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;
	struct queue_job q = s->q;
	long long id;
	int ret = -1;

	/* the box that runs it fills these in (see the top of this file) */
	job_delete(atom, "testbox");
	if (!q.tbox_group)
		job_delete(atom, "tbox_group");
	if (!s->arch_given)
		job_delete(atom, "arch");
	job_atom_name(atom, s->prefix, NULL, &name);
	job_to_yaml(atom, &text);
	q.name = name.buf;
	q.job = text.buf;
	if (queue_submit(s->db, &q, &id) < 0)
		goto out;
	printf("queued %lld %s\n", id, name.buf);
	s->nr++;
	ret = 0;
out:
	strbuf_release(&name);
	strbuf_release(&text);
	job_free(atom);
	return ret;
}

static int queue_submit_cmd(int argc, char **argv, const struct cmd *self)
{
	struct job_desc_keys keys;
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "commit", required_argument, NULL, 'c' },
		{ "repo", required_argument, NULL, 'R' },
		{ "build", required_argument, NULL, 'b' },
		{ "tbox-group", required_argument, NULL, 'g' },
		{ "priority", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'n' },
		{ "attempts", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	struct submit_ctx s;
	struct split_opts so;
	struct pg db = PG_INIT;
	struct strbuf prefix = STRBUF_INIT;
	struct job *job = NULL;
	const char *url = NULL, *base;
	int c, ret = EXIT_ERROR;
	size_t bl;

	memset(&s, 0, sizeof(s));
	memset(&so, 0, sizeof(so));
	s.q.priority = QUEUE_PRIORITY_DEFAULT;
	s.q.attempts = QUEUE_ATTEMPTS_DEFAULT;
	s.q.runs = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:c:g:p:n:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': url = optarg; break;
		case 'c': s.q.commit = so.commit = optarg; break;
		case 'R': s.q.repo = optarg; break;
		case 'b': s.q.build = optarg; break;
		case 'g': s.q.tbox_group = so.testbox = optarg; break;
		case 'p':
			if (parse_int("--priority", optarg, 0, 9, &s.q.priority) < 0)
				return EXIT_USAGE;
			break;
		case 'n':
			if (parse_int("--runs", optarg, 1, 1000, &s.q.runs) < 0)
				return EXIT_USAGE;
			break;
		case 'a':
			if (parse_int("--attempts", optarg, 1, 100, &s.q.attempts) < 0)
				return EXIT_USAGE;
			break;
		default:
			return cmd_usage(self, 0);
		}
	}
	if (optind + 1 != argc)
		return cmd_usage(self, 0);
	/* they name directories of the boxes' result trees (with --repo, the
	 * commit's full id does, whatever names it here) */
	if ((s.q.tbox_group && check_path_component(s.q.tbox_group, "--tbox-group") < 0) ||
	    (s.q.commit && !s.q.repo && check_path_component(s.q.commit, "--commit") < 0))
		return EXIT_USAGE;
	if (s.q.build && !s.q.repo) {
		error("--build needs --repo: there is no checkout to build in");
		return EXIT_USAGE;
	}
	if (s.q.repo && !s.q.commit) {
		error("--repo needs --commit: which commit should the boxes check out?");
		return EXIT_USAGE;
	}
	if (job_load(argv[optind], &job) < 0)
		return EXIT_ERROR;
	job_desc_keys(job, &keys);
	s.arch_given = keys.arch != NULL;
	base = strrchr(argv[optind], '/');
	base = base ? base + 1 : argv[optind];
	bl = strlen(base);
	if (bl > 5 && !strcmp(base + bl - 5, ".yaml"))
		bl -= 5;
	strbuf_add(&prefix, base, bl);
	s.prefix = prefix.buf;
	s.db = &db;
	if (lab_open(&db, url) < 0)
		goto out;
	if (pg_exec(&db, "BEGIN", 0, NULL) < 0)
		goto out;
	if (job_split(job, argv[optind], &so, submit_atom, &s) < 0 ||
	    pg_exec(&db, "COMMIT", 0, NULL) < 0) {
		db.quiet = true;
		pg_exec(&db, "ROLLBACK", 0, NULL);
		if (s.nr)
			error("nothing was queued");
		goto out;
	}
	ret = 0;
out:
	pg_close(&db);
	job_free(job);
	strbuf_release(&prefix);
	return ret;
}

/* Worker names, jobs and errors are any login's text: each escape or
 * newline is shown as '?', so that no row can forge another. */
static void print_line(struct strbuf *line)
{
	make_printable(line->buf, line->len, false);
	printf("%s\n", line->buf);
}

static int queue_list_cmd(int argc, char **argv, const struct cmd *self)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "state", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct pg db = PG_INIT;
	const char *url = NULL, *state = NULL;
	struct strbuf row = STRBUF_INIT;
	PGresult *r;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:s:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': url = optarg; break;
		case 's': state = optarg; break;
		default: return cmd_usage(self, 0);
		}
	}
	if (optind != argc)
		return cmd_usage(self, 0);
	if (lab_open(&db, url) < 0)
		return EXIT_ERROR;
	r = queue_list(&db, state);
	pg_close(&db);
	if (!r)
		return EXIT_ERROR;
	printf("%6s  %-9s %3s %5s  %-12s %-24s %-7s %-12s  %s\n", "ID", "STATE", "PRI", "TRY",
	       "TBOX_GROUP", "BOX", "LEASE", "COMMIT", "JOB");
	for (int i = 0; i < PQntuples(r); i++) {
		char try[24], box[256];
		const char *w = PQgetvalue(r, i, 7), *err = PQgetvalue(r, i, 11);

		snprintf(try, sizeof(try), "%s/%s", PQgetvalue(r, i, 3), PQgetvalue(r, i, 4));
		snprintf(box, sizeof(box), *w ? "%s (%s)" : "%s", PQgetvalue(r, i, 6), w);
		strbuf_reset(&row);
		strbuf_addf(&row, "%6s  %-9s %3s %5s  %-12s %-24s %-7s %-12.12s  %s",
			    PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2), try,
			    *PQgetvalue(r, i, 5) ? PQgetvalue(r, i, 5) : "*", box,
			    PQgetvalue(r, i, 10), PQgetvalue(r, i, 8), PQgetvalue(r, i, 9));
		print_line(&row);
		if (*err) {
			strbuf_reset(&row);
			strbuf_addf(&row, "%6s  last error: %s", "", err);
			print_line(&row);
		}
	}
	strbuf_release(&row);
	PQclear(r);
	return 0;
}

/* cancel and retry: the same command line, a different call */
static int queue_change_cmd(int argc, char **argv, const struct cmd *self,
			    int (*fn)(struct pg *, long long), const char *done)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	struct pg db = PG_INIT;
	const char *url = NULL;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:", opts, NULL)) != -1) {
		if (c != 'd')
			return cmd_usage(self, 0);
		url = optarg;
	}
	if (optind == argc)
		return cmd_usage(self, 0);
	for (int i = optind; i < argc; i++) {
		char *end;
		long long id = strtoll(argv[i], &end, 10);
		if (!*argv[i] || *end || id < 1) {
			error("'%s' is no job id", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (lab_open(&db, url) < 0)
		return EXIT_ERROR;
	for (int i = optind; i < argc; i++) {
		if (fn(&db, strtoll(argv[i], NULL, 10)) < 0)
			ret = EXIT_ERROR;
		else
			printf("%s %s\n", done, argv[i]);
	}
	pg_close(&db);
	return ret;
}

static int queue_fetch_cmd(int argc, char **argv, const struct cmd *self)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "result-root", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct pg db = PG_INIT;
	struct strbuf base = STRBUF_INIT;
	const char *url = NULL;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:r:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': url = optarg; break;
		case 'r': strbuf_reset(&base); strbuf_addstr(&base, optarg); break;
		default: strbuf_release(&base); return cmd_usage(self, 0);
		}
	}
	if (optind == argc) {
		strbuf_release(&base);
		return cmd_usage(self, 0);
	}
	if (!base.len)
		run_default_result_base(&base);
	if (lab_open(&db, url) < 0) {
		strbuf_release(&base);
		return EXIT_ERROR;
	}
	for (int i = optind; i < argc; i++) {
		char *end, *root;
		long long id = strtoll(argv[i], &end, 10);
		int n, r;
		if (!*argv[i] || *end || id < 1) {
			error("'%s' is no job id", argv[i]);
			ret = EXIT_ERROR;
			continue;
		}
		r = lab_fetch(&db, id, base.buf, NULL, &root, &n);
		if (r == 0)
			printf("%s: %d run%s\n", root, n, n == 1 ? "" : "s");
		else if (r == 1)
			error("job %lld has no results (see 'perfbot queue list')", id);
		if (r)
			ret = EXIT_ERROR;
		free(root);
	}
	pg_close(&db);
	strbuf_release(&base);
	return ret;
}

int cmd_queue(int argc, char **argv)
{
	const struct cmd *self = cmd_find("queue");

	if (argc < 2)
		return cmd_usage(self, 0);
	if (!strcmp(argv[1], "submit"))
		return queue_submit_cmd(argc - 1, argv + 1, self);
	if (!strcmp(argv[1], "list"))
		return queue_list_cmd(argc - 1, argv + 1, self);
	if (!strcmp(argv[1], "cancel"))
		return queue_change_cmd(argc - 1, argv + 1, self, queue_cancel, "cancelled");
	if (!strcmp(argv[1], "retry"))
		return queue_change_cmd(argc - 1, argv + 1, self, queue_retry, "queued again");
	if (!strcmp(argv[1], "fetch"))
		return queue_fetch_cmd(argc - 1, argv + 1, self);
	error("unknown queue command '%s'", argv[1]);
	return cmd_usage(self, 0);
}
