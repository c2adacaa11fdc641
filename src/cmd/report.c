/*
 * report.c: `perfbot report [--bisect STATE | BASE NEW ...] [options]`,
 * a report people act on (report/report.h), as email text or as one
 * self-contained HTML file.
 *
 * Its options are listed in cmd/commands.h (report --help).
 *
 * The machine is described from a `machine` file in a run dir, else from
 * /proc of this machine ($PERFBOT_PROC_DIR overrides /proc, for tests).
 */
#include "cmd/cmd.h"
#include "report/report.h"
#include "util/error.h"
#include "util/fileio.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_report(int argc, char **argv)
{
	enum { OPT_BISECT = 256, OPT_FORMAT, OPT_LEGACY, OPT_PLOTTER, OPT_TAG, OPT_RULE, OPT_AXIS };
	static const struct option opts[] = {
		{ "bisect", required_argument, NULL, OPT_BISECT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, 'o' },
		{ "legacy", no_argument, NULL, OPT_LEGACY },
		{ "plotter", required_argument, NULL, OPT_PLOTTER },
		{ "tag", required_argument, NULL, OPT_TAG },
		{ "more", no_argument, NULL, 'm' },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "axis", required_argument, NULL, OPT_AXIS },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("report");
	struct report_options opt;
	struct report_tag *tags = NULL;
	size_t alloc_tags = 0;
	const char *bisect = NULL, *output = NULL;
	struct report r;
	struct strbuf out = STRBUF_INIT;
	int c, ret = EXIT_ERROR;

	report_options_init(&opt);
	opt.proc_dir = getenv("PERFBOT_PROC_DIR");
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:m", opts, NULL)) != -1) {
		switch (c) {
		case OPT_BISECT: bisect = optarg; break;
		case 'o': output = optarg; break;
		case OPT_LEGACY: opt.legacy = true; break;
		case 'm': opt.more = true; break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text")) {
				opt.format = REPORT_TEXT;
			} else if (!strcmp(optarg, "html")) {
				opt.format = REPORT_HTML;
			} else {
				error("--format expects 'text' or 'html', got '%s'", optarg);
				goto usage;
			}
			break;
		case OPT_PLOTTER:
			if (!strcmp(optarg, "gnuplot")) {
				opt.plotter = PLOTTER_GNUPLOT;
			} else if (!strcmp(optarg, "builtin")) {
				opt.plotter = PLOTTER_BUILTIN;
			} else {
				error("--plotter expects 'builtin' or 'gnuplot', got '%s'", optarg);
				goto usage;
			}
			break;
		case OPT_TAG: {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1]) {
				error("--tag expects NAME=COMMIT, got '%s'", optarg);
				goto usage;
			}
			*eq = '\0';
			ALLOC_GROW(tags, (size_t)opt.nr_tags + 1, alloc_tags);
			tags[opt.nr_tags].name = optarg;
			tags[opt.nr_tags].commit = eq + 1;
			opt.nr_tags++;
			break;
		}
		case OPT_AXIS: opt.axis = optarg; break;
		case OPT_RULE:
			if (!strcmp(optarg, "stat")) {
				opt.rule = RULE_STAT;
			} else if (!strcmp(optarg, "lkp")) {
				opt.rule = RULE_LKP;
			} else {
				error("--rule expects 'stat' or 'lkp', got '%s'", optarg);
				goto usage;
			}
			break;
		default:
			goto usage;
		}
	}
	opt.tags = tags;
	if (bisect && optind < argc) {
		error("--bisect takes no BASE NEW result roots");
		goto usage;
	}
	if (!bisect && argc - optind < 2) {
		error("report needs --bisect STATE, or a BASE and at least one NEW result root");
		goto usage;
	}
	if (opt.plotter == PLOTTER_GNUPLOT && opt.format == REPORT_HTML) {
		error("--plotter gnuplot draws text plots; the HTML report has its own SVG charts");
		goto usage;
	}

	if ((bisect ? report_load_bisect(&r, bisect, &opt)
		    : report_load_compare(&r, argv + optind, argc - optind, &opt)) < 0)
		goto out;
	if (opt.format == REPORT_HTML)
		report_html(&r, &out);
	else if (report_text(&r, &out) < 0)
		goto out;
	if (output) {
		if (write_file_atomic(output, out.buf, out.len) < 0)
			goto out;
	} else {
		fwrite(out.buf, 1, out.len, stdout);
	}
	ret = 0;
out:
	report_release(&r);
	strbuf_release(&out);
	free(tags);
	return ret;
usage:
	free(tags);
	return cmd_usage(self, 0);
}
