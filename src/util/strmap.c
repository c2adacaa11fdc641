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
	free(m->keys);
	free(m->vals);
	free(m->hashes);
	strmap_init(m);
}

static size_t slot(const struct strmap *m, const char *key, unsigned h)
{
	size_t i = (size_t)h & (m->cap - 1);
	while (m->keys[i] && (m->hashes[i] != h || strcmp(m->keys[i], key)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

int strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return -1;
	size_t i = slot(m, key, hash(key));
	return m->keys[i] ? m->vals[i] : -1;
}

static void rehash(struct strmap *m, size_t cap)
{
	struct strmap n = { cap, 0, xcalloc(cap, sizeof(char *)), xcalloc(cap, sizeof(int)),
			    xcalloc(cap, sizeof(unsigned)) };
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i]) {
			size_t j = slot(&n, m->keys[i], m->hashes[i]);
			n.keys[j] = m->keys[i];
			n.vals[j] = m->vals[i];
			n.hashes[j] = m->hashes[i];
			n.nr++;
		}
	free(m->keys);
	free(m->vals);
	free(m->hashes);
	*m = n;
}

void strmap_put(struct strmap *m, const char *key, int val)
{
	unsigned h = hash(key);

	if ((m->nr + 1) * 2 > m->cap)
		rehash(m, m->cap ? m->cap * 2 : 64);
	size_t i = slot(m, key, h);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->hashes[i] = h;
		m->nr++;
	}
	m->vals[i] = val;
}
