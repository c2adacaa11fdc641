#ifndef PERFBOT_STORE_PG_MIGRATIONS_H
#define PERFBOT_STORE_PG_MIGRATIONS_H
/*
 * The PostgreSQL store's schema (store_pg.c): store_pg_migrations[v]
 * takes a store from version v to v + 1 (its .version is v + 1), the
 * same versions as the SQLite store's (sqlite_migrations.h).
 *
 * Each is a file src/store/pg/NNN-name.sql, NNN its version, which the
 * Makefile turns into this array at build time
 * ($(BUILD)/gen/store/pg_migrations.c) by the SQLite store's rules: the
 * first line, "-- <what>", names it; the other lines that are blank or
 * start with "--" (after blanks) are for the reader and left out; every
 * other line is kept as it is.  The role names are spelled as
 * pg/schema.h defines them (LAB_ROLE_*), which test_store checks.
 *
 * Append-only: once one is on main, a change is a new file, never an
 * edit, since some lab's database already ran it; and a new file raises
 * STORE_PG_NR_MIGRATIONS (the build fails while it differs from the
 * files').
 */
#include "store/backend.h"

extern const struct store_migration store_pg_migrations[];
#define STORE_PG_NR_MIGRATIONS 2

#endif
