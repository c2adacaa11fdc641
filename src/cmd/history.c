/*
 * history.c: `perfbot history --repo DIR [--branch B] --metric M [--job J]`,
 * a metric along a branch's first-parent line from the store
 * (store/history.h builds the series, report/report_history.h prints it).
 */
#include "cmd/cmd.h"
#include "report/report_history.h"
#include "store/history.h"
#include "store/store.h"
#include "util/error.h"
#include "util/fileio.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_history(int argc, char **argv)
{
	enum { O_REPO = 256, O_BRANCH, O_METRIC, O_JOB, O_PARAM, O_FORMAT, O_JSON, O_DB, O_LIMIT };
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, O_REPO },
		{ "branch", required_argument, NULL, O_BRANCH },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "job", required_argument, NULL, O_JOB },
		{ "param", required_argument, NULL, O_PARAM },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "json", no_argument, NULL, O_JSON },
		{ "db", required_argument, NULL, O_DB },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("history");
	struct history_query q;
	struct history h;
	struct store *s = NULL;
	struct strbuf out = STRBUF_INIT;
	const char **params = NULL, *db = NULL, *format = "text", *output = NULL;
	int nr_params = 0, c, ret = EXIT_ERROR;
	bool json = false;

	memset(&q, 0, sizeof(q));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case O_REPO: q.repo = optarg; break;
		case O_BRANCH: q.branch = optarg; break;
		case O_METRIC: q.metric = optarg; break;
		case O_JOB: q.job = optarg; break;
		case O_PARAM:
			params = xrealloc(params, sizeof(*params) * (size_t)(nr_params + 1));
			params[nr_params++] = optarg;
			break;
		case O_FORMAT: format = optarg; break;
		case O_JSON: json = true; break;
		case O_DB: db = optarg; break;
		case O_LIMIT:
			q.limit = (int)strtol(optarg, &end, 10);
			if (*end || q.limit < 1) {
				error("--limit expects a positive number, got '%s'", optarg);
				free(params);
				return EXIT_USAGE;
			}
			break;
		case 'o': output = optarg; break;
		default:
			free(params);
			return cmd_usage(self, 0);
		}
	}
	if (optind < argc || !q.repo || !q.metric) {
		error(optind < argc ? "unexpected argument '%s'" : "history needs --repo and --metric",
		      optind < argc ? argv[optind] : "");
		free(params);
		return cmd_usage(self, 0);
	}
	if (strcmp(format, "text") && strcmp(format, "html")) {
		error("--format expects text or html, got '%s'", format);
		free(params);
		return EXIT_USAGE;
	}
	q.params = params;
	q.nr_params = nr_params;
	if (store_open(&s, db, 0) < 0 || history_load(s, &q, &h) < 0)
		goto out;
	if (json)
		history_json(&h, &out);
	else if (!strcmp(format, "html"))
		history_html(&h, &out);
	else
		history_text(&h, &out);
	history_release(&h);
	if (output)
		ret = write_file_atomic(output, out.buf, out.len) < 0 ? EXIT_ERROR : 0;
	else
		ret = fwrite(out.buf, 1, out.len, stdout) == out.len ? 0 : EXIT_ERROR;
out:
	store_close(s);
	strbuf_release(&out);
	free(params);
	return ret;
}
