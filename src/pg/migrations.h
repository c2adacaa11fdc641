#ifndef PERFBOT_PG_MIGRATIONS_H
#define PERFBOT_PG_MIGRATIONS_H

/*
 * The lab schema's migrations: lab_migrations[v] takes a database from
 * version v to v + 1.  `what` says in a few words what it brings (shown
 * when it fails); `sql` is run as one script inside lab_migrate_queue()'s
 * transaction (src/pg/schema.c).
 *
 * Each is a file src/pg/migrations/NNN-name.sql, in the order of NNN,
 * which the Makefile turns into this array at build time
 * ($(BUILD)/gen/pg/migrations.c): its first line is "-- <what>"; the
 * other lines that are blank or start with "--" (after blanks) are for
 * the reader and are left out of `sql`; every other line is kept as it
 * is (a "--" comment after SQL on its line too).
 *
 * Migrations are append-only: once one is on main, a change is a new
 * migration, never an edit, since some lab's database already ran it.
 * The queue's life and perfbot's SQLSTATEs are described atop schema.c;
 * the role names and the argument lists the C code names functions by
 * are spelled out in the SQL as schema.h defines them (LAB_ROLE_*,
 * LAB_*_ARGS, LAB_LEASE_MAX_S), which test_lab_queue checks.
 */
struct lab_migration {
	const char *what;
	const char *sql;
};

extern const struct lab_migration lab_migrations[];
extern const int lab_nr_migrations;

#endif
