#ifndef PERFBOT_CMD_H
#define PERFBOT_CMD_H
/*
 * Subcommands, git-style: one file per command in src/cmd/, one line per
 * command in commands.h (name, function, one-line summary, usage).
 *
 * A command gets argv with argv[0] == its name, and returns the process
 * exit status: 0 ok, EXIT_ERROR (1) after printing "perfbot: <what>: <why>",
 * EXIT_USAGE (2) for a bad command line (after printing its usage),
 * EXIT_REGRESSION (3) where a command documents it.
 */
#include "util/xalloc.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;      /* full help text, options one per line */
};

#define COMMAND(name, ident, summary, usage) int cmd_##ident(int argc, char **argv);
#include "cmd/commands.h"
#undef COMMAND

const struct cmd *cmd_find(const char *name);
const struct cmd *cmd_all(int *nr);
/* Print "usage: ..." of cmd to stderr (or stdout when to_stdout) and return
 * EXIT_USAGE (or 0 when to_stdout, for --help). */
int cmd_usage(const struct cmd *c, int to_stdout);
/* True for "-h" or "--help". */
int is_help_arg(const char *arg);

#endif
