/* strmap.c: a small open-addressing hash from names to array indexes. */
#include "util/strmap.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static unsigned hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (unsigned)(h ^ (h >> 32));
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

	/* at most half full, as strmap_put keeps it */
	while (cap < 2 * n + 2)
		cap *= 2;
	if (cap > m->cap)
		rehash(m, cap);
}

void strmap_put(struct strmap *m, const char *key, int val)
{
	unsigned h = hash(key);

	if ((m->nr + 1) * 2 > m->cap)
		rehash(m, m->cap ? m->cap * 2 : 64);
	size_t i = slot(m, key, h);
	if (!m->slots[i].key) {
		m->slots[i].key = key;
		m->slots[i].hash = h;
		m->nr++;
	}
	m->slots[i].val = val;
}
