/*
 * init.c: `perfbot lab init` (see init.h).
 */
#include "lab/init.h"
#include "pg/schema.h"
#include "store/store.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <string.h>

int lab_migrate(struct pg *db, struct lab_versions *out)
{
	struct store *s;

	memset(out, 0, sizeof(*out));
	/* the store is opened by URL: anything else would name a file */
	if (!pg_is_url(db->url))
		return error("lab init needs a postgresql:// URL, not '%s'", db->url);
	if (lab_bootstrap(db) < 0 || (out->store_from = lab_read_version(db, "store")) < 0)
		return -1;
	out->store_to = out->store_from;
	/* the store's tables first: the lab's functions write into them */
	if (store_open(&s, db->url, STORE_CREATE) < 0)
		return -1;
	out->store_to = store_schema_version(s);
	store_close(s);
	return lab_migrate_queue(db, &out->lab_from, &out->lab_to);
}
