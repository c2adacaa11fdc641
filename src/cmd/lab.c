/*
 * lab.c: `perfbot lab init --db URL`: bring a PostgreSQL database to this
 * perfbot's lab schema (roles, tables, functions, grants; src/pg/schema.h).
 *
 * Safe to run again and from several machines at once: migrations run
 * in one transaction under an advisory lock, and a database already at
 * this version is left alone.
 */
#include "cmd/cmd.h"
#include "pg/pg.h"
#include "pg/schema.h"
#include "lab/init.h"
#include "util/error.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void print_versions(const char *what, int from, int to)
{
	if (from == to)
		printf("%s schema: version %d, up to date\n", what, to);
	else
		printf("%s schema: version %d -> %d\n", what, from, to);
}

static int lab_init(int argc, char **argv, const struct cmd *self)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	struct pg db = PG_INIT;
	const char *url = NULL;
	struct lab_versions v;
	int c, ret = EXIT_ERROR;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:", opts, NULL)) != -1) {
		if (c != 'd')
			return cmd_usage(self, 0);
		url = optarg;
	}
	if (optind != argc)
		return cmd_usage(self, 0);
	if (!(url = lab_db_url(url)))
		return EXIT_USAGE;
	if (pg_open(&db, url) < 0) {
		pg_close(&db);
		return EXIT_ERROR;
	}
	if (lab_migrate(&db, &v) == 0) {
		print_versions("store", v.store_from, v.store_to);
		print_versions("lab", v.lab_from, v.lab_to);
		ret = 0;
	}
	pg_close(&db);
	return ret;
}

int cmd_lab(int argc, char **argv)
{
	const struct cmd *self = cmd_find("lab");

	if (argc < 2)
		return cmd_usage(self, 0);
	if (!strcmp(argv[1], "init"))
		return lab_init(argc - 1, argv + 1, self);
	error("unknown lab command '%s'", argv[1]);
	return cmd_usage(self, 0);
}
