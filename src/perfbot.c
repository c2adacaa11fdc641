/*
 * perfbot: a performance regression robot.
 *
 * This file is only the dispatcher: `perfbot <command> [options]` looks the
 * command up in the table built from cmd/commands.h and runs it.  Each
 * command lives in src/cmd/<name>.c.
 */
#include "cmd/cmd.h"
#include "util/error.h"
#include "util/fileio.h"

#include <stdio.h>
#include <string.h>

static const struct cmd commands[] = {
#define COMMAND(name, ident, summary, usage) { name, cmd_##ident, summary, usage },
#include "cmd/commands.h"
#undef COMMAND
};

const struct cmd *cmd_all(int *nr)
{
	*nr = (int)(sizeof(commands) / sizeof(commands[0]));
	return commands;
}

const struct cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int is_help_arg(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int cmd_usage(const struct cmd *c, int to_stdout)
{
	FILE *f = to_stdout ? stdout : stderr;
	fprintf(f, "usage: %s", c->usage);
	return to_stdout ? 0 : EXIT_USAGE;
}

static void main_usage(FILE *f)
{
	int nr;
	const struct cmd *all = cmd_all(&nr);

	fprintf(f, "usage: perfbot <command> [options]\n\ncommands:\n");
	for (int i = 0; i < nr; i++)
		fprintf(f, "   %-10s %s\n", all[i].name, all[i].summary);
	fprintf(f, "\n'perfbot help <command>' or 'perfbot <command> --help' for details.\n");
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	int ret;

	if (argc < 2) {
		main_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || is_help_arg(argv[1])) {
		if (argc > 2 && !is_help_arg(argv[1])) {
			c = cmd_find(argv[2]);
			if (!c) {
				error("'%s' is not a perfbot command", argv[2]);
				return EXIT_USAGE;
			}
			return cmd_usage(c, 1);
		}
		main_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perfbot version 0.1\n");
		return 0;
	}
	c = cmd_find(argv[1]);
	if (!c) {
		error("'%s' is not a perfbot command; see 'perfbot help'", argv[1]);
		return EXIT_USAGE;
	}
	if (argc > 2 && is_help_arg(argv[2]))
		return cmd_usage(c, 1);
	/* getopt names argv[0] in its messages: "perfbot compare: ...",
	 * like every other error of perfbot's */
	char name[64];
	snprintf(name, sizeof(name), "perfbot %s", c->name);
	argv[1] = name;
	ret = c->fn(argc - 1, argv + 1);
	if (finish_stdout() < 0 && ret == 0)
		ret = EXIT_ERROR;
	return ret;
}
