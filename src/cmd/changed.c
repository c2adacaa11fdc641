/*
 * changed.c: `perfbot changed [options] BASE NEW`, the per-metric change
 * records of NEW against BASE, as lkp's get_changed_stats returns them
 * (--rule lkp) or with the statistical rule's p-values (--rule stat).
 *
 * The command only parses options, loads the two matrices and prints;
 * the decisions are changed_stats() in src/stats/.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "result/matrix.h"
#include "result/change.h"
#include "util/csv.h"
#include "util/error.h"
#include "util/json_writer.h"
#include "util/numfmt.h"
#include "util/strbuf.h"

enum {
	OPT_RULE = 256,
	OPT_JSON,
	OPT_CSV,
	OPT_ALPHA,
	OPT_GAP,
	OPT_DISTANCE,
	OPT_VARIANCE,
	OPT_REGRESSION_ONLY,
};

static const struct option longopts[] = {
	{ "rule", required_argument, NULL, OPT_RULE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "more", no_argument, NULL, 'm' },
	{ "gap", required_argument, NULL, OPT_GAP },
	{ "distance", required_argument, NULL, OPT_DISTANCE },
	{ "variance", required_argument, NULL, OPT_VARIANCE },
	{ "regression-only", no_argument, NULL, OPT_REGRESSION_ONLY },
	{ NULL, 0, NULL, 0 },
};

/* The number given to option name, or -1 with a message. */
static int number_arg(const char *name, const char *arg, double *v)
{
	bool is_int;

	if (parse_number(arg, v, &is_int) < 0)
		return error("%s: '%s' is not a number", name, arg);
	return 0;
}

static int usage(void)
{
	return cmd_usage(cmd_find("changed"), 0);
}

static void print_json(const struct change_list *l, const struct change_options *opt)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;

	jw_init(&jw, &sb);
	jw_object_begin(&jw);
	for (int i = 0; i < l->nr; i++) {
		jw_key(&jw, l->r[i].stat);
		change_record_to_json(&l->r[i], opt, &jw);
	}
	jw_object_end(&jw);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

/* --csv: a line per metric, lkp's field names (p-values empty under lkp) */
static void print_csv(const struct change_list *l)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "stat,mean_a,mean_b,min_a,max_a,min_b,max_b,ratio,delta,x,y,z,"
		      "nr_run,p_welch,p_mwu\r\n");
	for (int i = 0; i < l->nr; i++) {
		const struct change_record *r = &l->r[i];
		const double v[] = { r->mean_a, r->mean_b, r->min_a, r->max_a, r->min_b,
				     r->max_b, r->ratio, r->delta, r->x, r->y, r->z,
				     r->nr_run, r->p_welch, r->p_mwu };

		csv_field(&sb, r->stat);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
			strbuf_addch(&sb, ',');
			csv_number(&sb, v[k]);
		}
		strbuf_addstr(&sb, "\r\n");
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

static void print_text(const struct change_list *l, const struct change_options *opt)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < l->nr; i++)
		change_record_to_yaml(&l->r[i], opt, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

int cmd_changed(int argc, char **argv)
{
	struct change_options opt;
	struct change_list list = CHANGE_LIST_INIT;
	struct matrix base, new;
	bool json = false, csv = false;
	int c, ret = 0;

	change_options_init(&opt);
	optind = 0;     /* restart getopt: glibc reinitialises on 0 */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":mp:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_RULE:
			if (!strcmp(optarg, "lkp")) {
				opt.rule = RULE_LKP;
			} else if (!strcmp(optarg, "stat")) {
				opt.rule = RULE_STAT;
			} else {
				error("--rule: '%s' is not a rule (stat or lkp)", optarg);
				return usage();
			}
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_CSV:
			csv = true;
			break;
		case OPT_ALPHA:
			if (number_arg("--alpha", optarg, &opt.alpha) < 0)
				return usage();
			if (!(opt.alpha > 0 && opt.alpha < 1)) {
				error("--alpha: %s is not between 0 and 1", optarg);
				return usage();
			}
			break;
		case 'm':
			opt.more = true;
			break;
		case OPT_GAP:
			if (number_arg("--gap", optarg, &opt.gap) < 0)
				return usage();
			opt.has_gap = true;
			break;
		case OPT_DISTANCE:
			if (number_arg("--distance", optarg, &opt.distance) < 0)
				return usage();
			opt.has_distance = true;
			break;
		case OPT_VARIANCE:
			if (number_arg("--variance", optarg, &opt.variance) < 0)
				return usage();
			opt.has_variance = true;
			break;
		case OPT_REGRESSION_ONLY:
			opt.regression_only = true;
			break;
		case 'p':
			/* lkp's ncompare reads -p with to_f: a Float threshold */
			if (number_arg("-p", optarg, &opt.perf_profile) < 0)
				return usage();
			opt.has_perf_profile = true;
			break;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return usage();
		default:
			error("unknown option '%s'", argv[optind - 1]);
			return usage();
		}
	}
	if (json && csv) {
		error("--json and --csv are different outputs: give one");
		return usage();
	}
	if (argc - optind != 2) {
		error("expected BASE and NEW, got %d argument%s", argc - optind,
		      argc - optind == 1 ? "" : "s");
		return usage();
	}

	matrix_init(&base);
	matrix_init(&new);
	if (matrix_load(&base, argv[optind]) < 0 || matrix_load(&new, argv[optind + 1]) < 0) {
		ret = EXIT_ERROR;
		goto out;
	}
	/* lkp's naming: a is NEW, b is BASE */
	if (changed_stats(&new, &base, &opt, &list) < 0) {
		ret = EXIT_ERROR;
		goto out;
	}
	if (json)
		print_json(&list, &opt);
	else if (csv)
		print_csv(&list);
	else
		print_text(&list, &opt);
out:
	change_list_release(&list);
	matrix_release(&base);
	matrix_release(&new);
	return ret;
}
