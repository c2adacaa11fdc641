#ifndef PERFBOT_PG_MIGRATIONS_H
#define PERFBOT_PG_MIGRATIONS_H

/*
 * The lab schema's migrations: lab_migrations[v] takes a database from
 * version v to v + 1.  `what` says in a few words what it brings (shown
 * when it fails); `sql` is run as one script inside lab_migrate_queue()'s
 * transaction (src/pg/schema.c).  Append only.
 */
struct lab_migration {
	const char *what;
	const char *sql;
};

extern const struct lab_migration lab_migrations[];
extern const int lab_nr_migrations;

#endif
