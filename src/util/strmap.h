#ifndef PERFBOT_STRMAP_H
#define PERFBOT_STRMAP_H
/*
 * strmap: string -> int index map (open addressing, FNV-1a).
 *
 * It maps names to positions in a caller-owned array, which keeps insertion
 * order (what lkp's Ruby hashes give us) in the array and lookups O(1) here.
 * Keys are borrowed: the caller keeps each key alive as long as the map.
 */
#include <stddef.h>

struct strmap {
	size_t cap;      /* slots, a power of two */
	size_t nr;
	const char **keys;
	int *vals;
	unsigned *hashes;  /* each key's hash: most probes end without strcmp */
};

void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);
/* Returns the value for key, or -1. */
int strmap_get(const struct strmap *m, const char *key);
/* Set key to val (key is borrowed). */
void strmap_put(struct strmap *m, const char *key, int val);

#endif
