/*
 * detect.c: `perfbot detect` — where a metric moved along a branch.
 *
 *   perfbot detect --input FILE [--metric M] [options]
 *
 * Reads the metric's history (the JSON of `perfbot history`, see
 * detect/series.h), finds its change points (stats/changepoint.h) and
 * prints each change: the last tested commit before it and the first
 * after, its magnitude and p-value, whether it is a regression for this
 * metric, and whether the latest tag still shows it.
 *
 * Exit: 0, 1 error, 2 usage, 3 with --fail-on-regression when a change
 * is a regression.
 */
#include "cmd/cmd.h"
#include "detect/detect.h"
#include "util/fileio.h"
#include "util/numfmt.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number option; "5%" means 0.05 where percent is allowed. */
static int number_arg(const char *opt, const char *arg, bool percent, double *v)
{
	size_t len = strlen(arg);
	struct strbuf sb = STRBUF_INIT;
	bool is_int, pct = percent && len > 1 && arg[len - 1] == '%';
	int r;

	strbuf_add(&sb, arg, pct ? len - 1 : len);
	r = parse_number(sb.buf, v, &is_int);
	strbuf_release(&sb);
	if (r < 0)
		return error("option '%s' expects a number%s, got '%s'", opt,
			     percent ? " or a percentage" : "", arg);
	if (pct)
		*v /= 100;
	return 0;
}

int cmd_detect(int argc, char **argv)
{
	enum { O_INPUT = 256, O_METRIC, O_PVALUE, O_MIN_CHANGE, O_SEED, O_JSON, O_FAIL };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, O_INPUT },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "pvalue", required_argument, NULL, O_PVALUE },
		{ "min-change", required_argument, NULL, O_MIN_CHANGE },
		{ "seed", required_argument, NULL, O_SEED },
		{ "json", no_argument, NULL, O_JSON },
		{ "fail-on-regression", no_argument, NULL, O_FAIL },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("detect");
	const char *input = NULL, *metric = NULL;
	bool json = false, fail = false;
	struct cp_options opt;
	struct series s;
	struct detect_result r;
	struct strbuf out = STRBUF_INIT;
	double v;
	int c, ret = 0;

	cp_options_init(&opt);
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_INPUT: input = optarg; break;
		case O_METRIC: metric = optarg; break;
		case O_PVALUE:
			if (number_arg("--pvalue", optarg, false, &opt.pvalue) < 0)
				return EXIT_USAGE;
			if (!(opt.pvalue > 0 && opt.pvalue < 1)) {
				error("--pvalue expects a number between 0 and 1, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_MIN_CHANGE:
			if (number_arg("--min-change", optarg, true, &opt.min_change) < 0)
				return EXIT_USAGE;
			if (!(opt.min_change >= 0)) {
				error("--min-change expects a number >= 0, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_SEED:
			if (number_arg("--seed", optarg, false, &v) < 0 || v < 0 || v != (double)(uint64_t)v) {
				error("--seed expects a whole number >= 0, got '%s'", optarg);
				return EXIT_USAGE;
			}
			opt.seed = (uint64_t)v;
			break;
		case O_JSON: json = true; break;
		case O_FAIL: fail = true; break;
		default:
			return cmd_usage(self, 0);
		}
	}
	if (optind < argc) {
		error("unexpected argument '%s'", argv[optind]);
		return cmd_usage(self, 0);
	}
	if (!input) {
		error("detect needs --input FILE (a history, as `perfbot history --json` writes it)");
		return cmd_usage(self, 0);
	}
	if (series_load_json(&s, input) < 0)
		return EXIT_ERROR;
	if (metric) {
		free(s.metric);
		s.metric = xstrdup(metric);
	}
	if (s.nr == 0) {
		error("%s: no tested commits in the history", input);
		series_release(&s);
		return EXIT_ERROR;
	}
	if (detect_series(&s, NULL, &opt, &r) < 0) {
		series_release(&s);
		return EXIT_ERROR;
	}
	if (json)
		detect_print_json(&s, &r, &opt, &out);
	else
		detect_print_text(&s, &r, &opt, &out);
	if (!json && s.nr < 2 * opt.min_size)
		strbuf_addf(&out, "(too few to tell: a change needs %d tested commits on each side)\n",
			    opt.min_size);
	fwrite(out.buf, 1, out.len, stdout);
	for (int k = 0; fail && k < r.nr; k++)
		if (r.ch[k].kind == DETECT_REGRESSION)
			ret = EXIT_REGRESSION;
	strbuf_release(&out);
	detect_result_release(&r);
	series_release(&s);
	return ret;
}
