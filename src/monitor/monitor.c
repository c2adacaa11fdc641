/*
 * monitor.c: the monitor registry (monitors.h) and the helpers the
 * monitors and their parsers share (monitor.h).
 */
#include "monitor/sampler.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- registry ---- */

#define MONITOR(id) extern const struct monitor monitor_##id;
#include "monitor/monitors.h"
#undef MONITOR

static const struct monitor *const registry[] = {
#define MONITOR(id) &monitor_##id,
#include "monitor/monitors.h"
#undef MONITOR
	NULL
};

const struct monitor *const *monitor_all(void)
{
	return registry;
}

const struct monitor *monitor_find(const char *name)
{
	for (int i = 0; registry[i]; i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

const struct monitor **monitor_default_list(void)
{
	size_t n = 0;
	const struct monitor **list = xcalloc(sizeof(registry) / sizeof(registry[0]), sizeof(*list));

	for (int i = 0; registry[i]; i++)
		if (registry[i]->flags & MONITOR_DEFAULT)
			list[n++] = registry[i];
	return list;
}

bool monitor_available(const struct monitor *m, const char *root, struct strbuf *why)
{
	if (m->flags & MONITOR_NOT_SAMPLED)
		return true;
	if (!m->available)
		return root_readable(root, m->files, why);
	return m->available(root, why);
}

/* ---- sources ---- */

void monitor_sources_add(struct monitor_sources *s, enum source_kind kind,
			 const char *path, const char *label)
{
	struct monitor_source *src;

	ALLOC_GROW(s->v, (size_t)s->nr + 1, s->alloc);
	src = &s->v[s->nr++];
	src->path = xstrdup(path);
	src->label = label ? xstrdup(label) : NULL;
	src->kind = kind;
}

void monitor_sources_release(struct monitor_sources *s)
{
	for (int i = 0; i < s->nr; i++) {
		free(s->v[i].path);
		free(s->v[i].label);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- helpers for parsers ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool field_has_colon(const char *f, size_t len)
{
	return len > 1 && memchr(f + 1, ':', len - 1) != NULL;
}

void emit_kv(struct strbuf *out, const char *key, size_t klen, const char *val, size_t vlen)
{
	strbuf_add(out, key, klen);
	strbuf_add(out, ": ", 2);
	strbuf_add(out, val, vlen);
	strbuf_addch(out, '\n');
}

void root_path(struct strbuf *sb, const char *root, const char *path)
{
	if (root)
		strbuf_addstr(sb, root);
	strbuf_addstr(sb, path);
}

bool root_readable(const char *root, const char *path, struct strbuf *why)
{
	struct strbuf p = STRBUF_INIT;
	int fd;

	root_path(&p, root, path);
	fd = open(p.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(why, "cannot read '%s': %s", p.buf, strerror(errno));
		strbuf_release(&p);
		return false;
	}
	close(fd);
	strbuf_release(&p);
	return true;
}

void keyset_init(struct keyset *ks)
{
	memset(ks, 0, sizeof(*ks));
	strmap_init(&ks->map);
}

void keyset_clear(struct keyset *ks)
{
	for (int i = 0; i < ks->nr; i++)
		free(ks->keys[i]);
	ks->nr = 0;
	strmap_release(&ks->map);
	strmap_init(&ks->map);
}

void keyset_release(struct keyset *ks)
{
	keyset_clear(ks);
	strmap_release(&ks->map);
	free(ks->keys);
	memset(ks, 0, sizeof(*ks));
}

int keyset_add(struct keyset *ks, const char *key, size_t len, bool *added)
{
	char *k = xstrndup(key, len);
	int pos = strmap_get(&ks->map, k);

	if (added)
		*added = pos < 0;
	if (pos >= 0) {
		free(k);
		return pos;
	}
	ALLOC_GROW(ks->keys, (size_t)ks->nr + 1, ks->alloc);
	ks->keys[ks->nr] = k;
	strmap_put(&ks->map, k, ks->nr);
	return ks->nr++;
}

static int numbered(const struct dirent *d, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = d->d_name + n;

	if (strncmp(d->d_name, prefix, n) || !*p)
		return 0;
	return strspn(p, "0123456789") == strlen(p);
}

char **list_numbered(const char *root, const char *dir, const char *prefix)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *d;
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	DIR *dh;

	root_path(&path, root, dir);
	dh = opendir(path.buf);
	while (dh && (d = readdir(dh))) {
		if (!numbered(d, prefix))
			continue;
		ALLOC_GROW(names, nr + 2, alloc);
		names[nr++] = xstrdup(d->d_name);
	}
	if (dh)
		closedir(dh);
	ALLOC_GROW(names, nr + 1, alloc);
	names[nr] = NULL;
	qsort(names, nr, sizeof(*names), cmp_str);
	strbuf_release(&path);
	return names;
}

void free_names(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

