/*
 * index.c: `perfbot index [--db D] [ROOT...]`, the store built or
 * refreshed from result trees (src/store/ingest.h reads each root).
 *
 * One transaction for the whole command: kill -9 at any moment leaves
 * the database as it was before or with everything indexed, never a
 * part, and readers keep seeing the old state until the commit (WAL).
 * Roots whose files did not change since they were stored are skipped,
 * so running it again is cheap and changes nothing.
 *
 * A ROOT is a result root or a tree holding some: it is walked (hidden
 * dirs and symlinks inside it are not followed), and stored roots under
 * it that are no longer on disk are forgotten.  A root that cannot be
 * read (a broken matrix.json) is reported in one line naming the file and
 * line, skipped, and keeps what the store had of it; the command then
 * exits 1 after committing the rest.
 */
#include "cmd/cmd.h"
#include "run/run.h"
#include "store/ingest.h"
#include "store/store.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/strmap.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper than lkp's layout (7 levels below a result base) with room for
 * a few levels above it; a bound on a walk that would otherwise follow
 * whatever the user pointed it at. */
#define MAX_WALK_DEPTH 16

struct walk {
	char **roots;
	int nr;
	size_t alloc;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the result roots at or under dir, in name order. */
static void walk(struct walk *w, const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	struct strbuf sub = STRBUF_INIT;

	if (ingest_is_result_root(dir)) {
		ALLOC_GROW(w->roots, (size_t)w->nr + 1, w->alloc);
		w->roots[w->nr++] = xstrdup(dir);
		return;
	}
	if (depth >= MAX_WALK_DEPTH || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		struct stat st;
		if (de->d_name[0] == '.')
			continue;       /* ., .., and runs still being made (.run-K.pid) */
		strbuf_reset(&sub);
		path_join(&sub, dir, de->d_name);
		if (lstat(sub.buf, &st) || !S_ISDIR(st.st_mode))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&sub);
		path_join(&sub, dir, names[i]);
		walk(w, sub.buf, depth + 1);
		free(names[i]);
	}
	free(names);
	strbuf_release(&sub);
}

struct prune {
	struct store *s;
	struct strmap *seen;
	int forgotten;
	bool failed;
};

static int prune_one(const char *path, void *data)
{
	struct prune *p = data;
	int r;

	if (strmap_get(p->seen, path) >= 0)
		return 0;
	r = store_delete_root(p->s, path);
	if (r < 0) {
		p->failed = true;
		return -1;
	}
	p->forgotten += r;
	return 0;
}

struct index_opts {
	const char *db;
	bool force, quiet, tty;
};

struct counts {
	int stored, unchanged, skipped, forgotten;
};

static void progress(const struct index_opts *o, int k, int n, const char *what, const char *path,
		     const struct ingest_result *res)
{
	if (o->quiet)
		return;
	if (o->tty) {
		fprintf(stderr, "\r\033[Kindex [%d/%d]: %s %s", k, n, what, path);
		return;
	}
	if (res && res->runs)
		fprintf(stderr, "perfbot: index [%d/%d]: %s %s (%d run%s, %d metrics)\n", k, n, what,
			path, res->runs, res->runs == 1 ? "" : "s", res->metrics);
	else
		fprintf(stderr, "perfbot: index [%d/%d]: %s %s\n", k, n, what, path);
}

/* Index the walked roots, then forget the vanished ones under each dir. */
static int index_all(struct store *s, const struct index_opts *o, struct walk *w,
		     char **dirs, int nr_dirs, struct counts *c)
{
	struct strmap seen;
	int ret = 0;

	strmap_init(&seen);
	for (int i = 0; i < w->nr; i++) {
		struct ingest_result res;
		char *real = realpath(w->roots[i], NULL);
		int r;

		/* a root that cannot be read is still seen: it is not pruned */
		if (real) {
			free(w->roots[i]);
			w->roots[i] = real;
		}
		strmap_put(&seen, w->roots[i], i);
		if (o->tty && !o->quiet)
			progress(o, i + 1, w->nr, "reading", w->roots[i], NULL);
		r = store_ingest_root(s, w->roots[i], o->force, &res);
		if (r < 0 && o->tty && !o->quiet)
			fprintf(stderr, "\r\033[K");
		if (r == INGEST_ERR_STORE) {
			ret = -1;       /* the caller rolls everything back */
			break;
		}
		if (r == INGEST_ERR_READ) {
			c->skipped++;
			fprintf(stderr, "perfbot: index [%d/%d]: skipped %s\n", i + 1, w->nr, w->roots[i]);
			continue;
		}
		if (r == INGEST_UNCHANGED)
			c->unchanged++;
		else
			c->stored++;
		if (!o->tty)
			progress(o, i + 1, w->nr, r == INGEST_UNCHANGED ? "unchanged" : "stored",
				 w->roots[i], &res);
	}
	for (int d = 0; d < nr_dirs && !ret; d++) {
		struct prune p = { s, &seen, 0, false };
		if (store_each_root_path(s, dirs[d], prune_one, &p) < 0 || p.failed)
			ret = -1;
		c->forgotten += p.forgotten;
	}
	if (o->tty && !o->quiet)
		fprintf(stderr, "\r\033[K");
	strmap_release(&seen);
	return ret;
}

int cmd_index(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("index");
	struct index_opts o = { NULL, false, false, false };
	struct walk w = { NULL, 0, 0 };
	struct counts c = { 0, 0, 0, 0 };
	struct store *s = NULL;
	char **dirs = NULL;
	int nr_dirs = 0, ret = EXIT_ERROR, opt;
	struct strbuf def = STRBUF_INIT;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:fq", opts, NULL)) != -1) {
		switch (opt) {
		case 'd': o.db = optarg; break;
		case 'f': o.force = true; break;
		case 'q': o.quiet = true; break;
		default: return cmd_usage(self, 0);
		}
	}
	o.tty = isatty(2);
	char **args = argv + optind;
	int nr_args = argc - optind;
	char *def_arg[1];
	if (!nr_args) {
		run_default_result_base(&def);
		def_arg[0] = def.buf;
		args = def_arg;
		nr_args = 1;
	}
	dirs = xcalloc((size_t)nr_args, sizeof(*dirs));
	for (int i = 0; i < nr_args; i++) {
		char *real = realpath(args[i], NULL);
		if (!real || !is_dir(real)) {
			error("cannot index '%s': %s", args[i], real ? "not a directory" : strerror(errno));
			free(real);
			goto out;
		}
		walk(&w, real, 0);
		dirs[nr_dirs++] = real;
	}
	if (store_open(&s, o.db, STORE_CREATE) < 0 || store_begin(s) < 0)
		goto out;
	if (index_all(s, &o, &w, dirs, nr_dirs, &c) < 0) {
		store_rollback(s);
		error("nothing was indexed: the store is as it was");
		goto out;
	}
	if (store_commit(s) < 0)
		goto out;
	printf("%d result root%s: %d stored, %d unchanged, %d forgotten, %d skipped (%s)\n",
	       w.nr, w.nr == 1 ? "" : "s", c.stored, c.unchanged, c.forgotten, c.skipped,
	       store_target(s));
	ret = c.skipped ? EXIT_ERROR : 0;
out:
	store_close(s);
	for (int i = 0; i < w.nr; i++)
		free(w.roots[i]);
	free(w.roots);
	for (int i = 0; i < nr_dirs; i++)
		free(dirs[i]);
	free(dirs);
	strbuf_release(&def);
	return ret;
}
