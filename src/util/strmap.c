/* strmap.c: a small open-addressing hash from names to array indexes. */
#include "util/strmap.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Eight bytes at a time: metric names are 20-80 bytes, and FNV-1a's byte
 * loop was a chain of one multiply per byte.  Each step mixes the high
 * bits down, because the slot is taken from the low bits.
 */
static unsigned hash(const char *s)
{
	const uint64_t k = 0xff51afd7ed558ccdULL;
	size_t n = strlen(s);
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 31;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * k;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	return (unsigned)h;
}

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_release(struct strmap *m)
{
	free(m->slots);
	strmap_init(m);
}

static size_t slot(const struct strmap *m, const char *key, unsigned h)
{
	size_t i = (size_t)h & (m->cap - 1);
	while (m->slots[i].key && (m->slots[i].hash != h || strcmp(m->slots[i].key, key)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

int strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return -1;
	size_t i = slot(m, key, hash(key));
	return m->slots[i].key ? m->slots[i].val : -1;
}

static void rehash(struct strmap *m, size_t cap)
{
	struct strmap n = { cap, 0, xcalloc(cap, sizeof(struct strmap_slot)) };
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key) {
			n.slots[slot(&n, m->slots[i].key, m->slots[i].hash)] = m->slots[i];
			n.nr++;
		}
	free(m->slots);
	*m = n;
}

void strmap_reserve(struct strmap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 64;

	/* at most 3/4 full, as strmap_put keeps it */
	while (cap * 3 < 4 * (n + 1))
		cap *= 2;
	if (cap > m->cap)
		rehash(m, cap);
}

void strmap_put(struct strmap *m, const char *key, int val)
{
	unsigned h = hash(key);

	/* 3/4 full at most: with a mixed hash, linear probing stays short
	 * there (2.5 probes a miss), and a smaller table misses cache less */
	if ((m->nr + 1) * 4 > m->cap * 3)
		rehash(m, m->cap ? m->cap * 2 : 64);
	size_t i = slot(m, key, h);
	if (!m->slots[i].key) {
		m->slots[i].key = key;
		m->slots[i].hash = h;
		m->nr++;
	}
	m->slots[i].val = val;
}
