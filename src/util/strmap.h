#ifndef PERFBOT_STRMAP_H
#define PERFBOT_STRMAP_H
/*
 * strmap: string -> int index map (open addressing, linear probing).
 *
 * It maps names to positions in a caller-owned array, which keeps insertion
 * order (what lkp's Ruby hashes give us) in the array and lookups O(1) here.
 * Keys are borrowed: the caller keeps each key alive as long as the map.
 */
#include <stddef.h>

struct strmap_slot {
	const char *key;   /* NULL: empty */
	unsigned hash;     /* the key's: most probes end without strcmp */
	int val;
};

struct strmap {
	size_t cap;      /* slots, a power of two */
	size_t nr;
	/* one array of slots, not three of keys, hashes and values: a probe
	 * touches one cache line, not three (a third of the map's time when
	 * a 30,000-metric stats.json is loaded) */
	struct strmap_slot *slots;
};

void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);
/* Make room for n keys in all without growing again (a hint). */
void strmap_reserve(struct strmap *m, size_t n);
/* Returns the value for key, or -1. */
int strmap_get(const struct strmap *m, const char *key);
/* Set key to val (key is borrowed). */
void strmap_put(struct strmap *m, const char *key, int val);

#endif
