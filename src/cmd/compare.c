/*
 * compare.c: `perfbot compare [options] BASE NEW [NEW2 ...]`.
 *
 * Loads the matrices, decides which metrics changed (result/change.h) and
 * prints ncompare's table.  With --fail-on-regression the exit status
 * tells CI whether a key performance metric got worse: 3 when one did,
 * significantly (it is among the changed rows) and in its bad direction.
 * --metric M prints seed 000's other table instead: one metric, a row per
 * job (report/compare_metric.c).
 */
#include "cmd/cmd.h"
#include "report/busy.h"
#include "report/compare.h"
#include "stats/lkp_tables.h"
#include "util/error.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* opt NULL: no message, the caller gives one */
static int parse_double(const char *opt, const char *arg, double *v)
{
	char *end;
	*v = strtod(arg, &end);
	if (end == arg || *end)
		return opt ? error("option '%s' expects a number, got '%s'", opt, arg) : -1;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	enum { OPT_RULE = 256, OPT_ALPHA, OPT_PVALUE, OPT_LEGACY, OPT_JSON, OPT_FAIL, OPT_CSV, OPT_AXIS, OPT_METRIC };
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "more", no_argument, NULL, 'm' },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "pvalue", no_argument, NULL, OPT_PVALUE },
		{ "perf-profile-threshold", required_argument, NULL, 'p' },
		{ "legacy", no_argument, NULL, OPT_LEGACY },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "axis", required_argument, NULL, OPT_AXIS },
		{ "fail-on-regression", no_argument, NULL, OPT_FAIL },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("compare");
	struct change_options opt;
	bool all = false, pvalue = false, legacy = false, json = false, csv = false, fail_on_regression = false;
	struct compare cmp;
	struct strbuf out = STRBUF_INIT;
	const char *axis = NULL, *metric = NULL;
	int c, ret = 0;

	change_options_init(&opt);
	optind = 1;
	while ((c = getopt_long(argc, argv, "amp:", opts, NULL)) != -1) {
		switch (c) {
		case 'a': all = true; break;
		case 'm': opt.more = true; break;
		case OPT_RULE:
			if (!strcmp(optarg, "stat"))
				opt.rule = RULE_STAT;
			else if (!strcmp(optarg, "lkp"))
				opt.rule = RULE_LKP;
			else {
				error("--rule expects 'stat' or 'lkp', got '%s'", optarg);
				return cmd_usage(self, 0);
			}
			break;
		case OPT_ALPHA:
			/* one message for both ways to get it wrong */
			if (parse_double(NULL, optarg, &opt.alpha) < 0 || opt.alpha <= 0 || opt.alpha >= 1) {
				error("--alpha expects a number between 0 and 1, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'p':
			if (parse_double("-p", optarg, &opt.perf_profile) < 0)
				return EXIT_USAGE;
			opt.has_perf_profile = true;
			break;
		case OPT_PVALUE: pvalue = true; break;
		case OPT_LEGACY: legacy = true; break;
		case OPT_JSON: json = true; break;
		case OPT_CSV: csv = true; break;
		case OPT_AXIS: axis = optarg; break;
		case OPT_FAIL: fail_on_regression = true; break;
		case OPT_METRIC: metric = optarg; break;
		default:
			return cmd_usage(self, 0);
		}
	}
	if (json + csv + legacy > 1) {
		error("--json, --csv and --legacy are different outputs: give one");
		return cmd_usage(self, 0);
	}
	if (metric && (json || csv || axis || fail_on_regression || all || pvalue)) {
		error("--metric prints its own table: it takes none of --json, --csv, "
		      "--axis, --all, --pvalue, --fail-on-regression");
		return cmd_usage(self, 0);
	}
	if (argc - optind < 2) {
		error("compare needs a BASE and at least one NEW result root");
		return cmd_usage(self, 0);
	}
	/* ncompare's default perf-profile threshold is 5 */
	if (opt.rule == RULE_LKP && !opt.has_perf_profile) {
		opt.has_perf_profile = true;
		opt.perf_profile = 5;
		opt.perf_profile_is_int = true; /* Ruby's 5, not 5.0: see change.h */
	}
	xalloc_batch_mode();
	if (compare_load(&cmp, argv + optind, argc - optind) < 0 ||
	    (axis && compare_label_by_axis(&cmp, axis) < 0)) {
		compare_release(&cmp);
		return EXIT_ERROR;
	}
	if (metric) {
		ret = compare_print_metric(&cmp, metric, &out) < 0 ? EXIT_ERROR : 0;
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_release(&out);
		compare_release(&cmp);
		return ret;
	}
	cmp.opt = opt;
	cmp.all = all;
	cmp.explain = !json && !csv;
	if (compare_build(&cmp) < 0) {
		compare_release(&cmp);
		return EXIT_ERROR;
	}
	if (json)
		compare_print_json(&cmp, &out);
	else if (csv)
		compare_print_csv(&cmp, &out);
	else if (legacy)
		compare_print_legacy(&cmp, &out);
	else
		compare_print_table(&cmp, &out, pvalue);
	fwrite(out.buf, 1, out.len, stdout);
	/* after the table; lkp's table is lkp's bytes, the note goes apart */
	strbuf_reset(&out);
	compare_print_hidden(&cmp, &out);
	/* a side measured beside other work (report/busy.h) */
	if (!json && !csv)
		busy_note(&cmp, &out);
	fwrite(out.buf, 1, out.len, opt.rule == RULE_LKP ? stderr : stdout);
	if (fail_on_regression)
		for (int i = 0; i < cmp.nrows; i++)
			if (cmp.row[i].regression && lkp_kpi_stat(cmp.row[i].stat)) {
				fprintf(stderr, "perfbot: regression: %s\n", cmp.row[i].stat);
				ret = EXIT_REGRESSION;
			}
	strbuf_release(&out);
	compare_release(&cmp);
	return ret;
}
