#ifndef PERFBOT_STORE_SQLITE_MIGRATIONS_H
#define PERFBOT_STORE_SQLITE_MIGRATIONS_H
/*
 * The SQLite store's schema (store_sqlite.c): store_sqlite_migrations[v]
 * takes a store from version v to v + 1 (its .version is v + 1).
 *
 * Each is a file src/store/sqlite/NNN-name.sql, NNN its version, which
 * the Makefile turns into this array at build time
 * ($(BUILD)/gen/store/sqlite_migrations.c), as it does the lab's
 * (pg/migrations.h): the first line, "-- <what>", names it; the other
 * lines that are blank or start with "--" (after blanks) are for the
 * reader and left out; every other line is kept as it is.
 *
 * Append-only: once one is on main, a change is a new file, never an
 * edit, since some user's store already ran it; and a new file raises
 * STORE_SQLITE_NR_MIGRATIONS, the count the backend's table needs as a
 * constant (the build fails while it differs from the files').
 */
#include "store/backend.h"

extern const struct store_migration store_sqlite_migrations[];
#define STORE_SQLITE_NR_MIGRATIONS 2

#endif
