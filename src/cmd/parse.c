/*
 * parse.c: `perfbot parse NAME [FILE]` runs one parser of the registry
 * (src/parse/parsers.h) on raw output and prints lkp's "key: value" lines.
 */
#include "cmd/cmd.h"
#include "monitor/monitor.h"
#include "parse/parser.h"
#include "util/error.h"
#include "util/fileio.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void list_parsers(void)
{
	for (const struct parser *const *p = parser_all(); *p; p++) {
		if ((*p)->unimplemented_reason)
			printf("%-28s (%s)\n", (*p)->name, (*p)->unimplemented_reason);
		else
			printf("%s\n", (*p)->name);
	}
	/* the sampled monitors parse their own raw files */
	for (const struct monitor *const *m = monitor_all(); *m; m++)
		if (!parser_find((*m)->name))
			printf("%s\n", (*m)->name);
}

int cmd_parse(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "result-root", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct parse_input in = { NULL, 0, "<stdin>", NULL };
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	const struct parser *p;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			list_parsers();
			return 0;
		case 'r':
			in.result_root = optarg;
			break;
		default:
			return cmd_usage(cmd_find("parse"), 0);
		}
	}
	if (argc - optind < 1 || argc - optind > 2)
		return cmd_usage(cmd_find("parse"), 0);
	p = parser_find(argv[optind]);
	const struct monitor *mon = p ? NULL : monitor_find(argv[optind]);
	if (!p && !mon) {
		error("unknown parser '%s'; see 'perfbot parse --list'", argv[optind]);
		return EXIT_USAGE;
	}
	if (p && p->unimplemented_reason) {
		error("parser '%s' is not available: %s", p->name, p->unimplemented_reason);
		return EXIT_ERROR;
	}
	if (argc - optind == 2) {
		in.name = argv[optind + 1];
		if (parser_read_file(&raw, in.name) < 0)
			goto fail;
	} else if (parser_read_fd(&raw, 0, in.name) < 0) {
		goto fail;
	}
	in.buf = raw.buf;
	in.len = raw.len;
	if (p ? p->parse(&in, &out) < 0 : monitor_parse(mon, raw.buf, raw.len, in.name, &out) < 0)
		ret = EXIT_ERROR;
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&raw);
	strbuf_release(&out);
	return ret;
fail:
	/* a read past the bound leaves what it read so far in raw */
	strbuf_release(&raw);
	return EXIT_ERROR;
}
