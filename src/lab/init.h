#ifndef PERFBOT_LAB_INIT_H
#define PERFBOT_LAB_INIT_H
/*
 * `perfbot lab init`: the lab's schema and the store's tables, made or
 * brought to this perfbot's versions in one call.  The lab's part is in
 * src/pg/schema.h; the store's tables are the store's own
 * (src/store/store_pg.c), hence this layer above both.
 */
#include "pg/pg.h"

/* Schema versions before and after lab_migrate. */
struct lab_versions {
	int store_from, store_to;     /* the store's tables (store_pg.c) */
	int lab_from, lab_to;         /* the queue and uploads (pg/schema.c) */
};

/*
 * Create the roles (when missing), the schema and its version table;
 * then the store's migrations (store_open on this URL); then the lab's,
 * whose functions write into the store's tables.  Each step is one
 * transaction under an advisory lock, so two inits at once serialize
 * (the second finds nothing to do) and a failure leaves each component
 * at a version it fully has.  0, or -1 after an error.  The first init
 * needs a superuser (it creates roles and a schema); later ones any
 * member of perfbot_admin.
 */
int lab_migrate(struct pg *db, struct lab_versions *out);

#endif
