#ifndef PERFBOT_PG_URL_H
#define PERFBOT_PG_URL_H
/*
 * Whether a --db value names a PostgreSQL database: the one test of it,
 * for every command that takes --db.  Apart from pg.h, and inline, so
 * that a perfbot built without lab mode (the static guest build, which
 * has no src/pg/) still tells such a URL from a file and refuses it.
 */
#include <stdbool.h>
#include <string.h>

/* True when s is a PostgreSQL URL (postgresql:// or postgres://). */
static inline bool pg_is_url(const char *s)
{
	return s && (!strncmp(s, "postgresql://", 13) || !strncmp(s, "postgres://", 11));
}

#endif
