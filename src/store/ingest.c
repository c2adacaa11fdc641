/*
 * ingest.c: a result root from the tree into the store (see ingest.h).
 */
#include "store/ingest.h"
#include "store/store.h"
#include "job/axes.h"
#include "job/job.h"
#include "result/matrix.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What was read of a root before anything is written. */
struct root_read {
	char *dir;                      /* absolute */
	char *parts[SJ_NR + 1];         /* identity fields, then the commit */
	struct matrix mx;
	struct store_run *runs;
	char **run_paths;               /* owned copies behind runs[].path */
	int nr_runs;
	struct axis *axes;
	int nr_axes;
	struct store_param *params;     /* borrowed from axes */
	int nr_params;
	struct strbuf sig;
};

bool ingest_is_run_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* name (in dir), or name.gz: which exists, with its stat.  NULL if neither. */
static const char *exists_maybe_gz(const char *dir, const char *name, struct strbuf *path,
				   struct stat *st)
{
	strbuf_reset(path);
	path_join(path, dir, name);
	if (!stat(path->buf, st) && S_ISREG(st->st_mode))
		return path->buf;
	strbuf_addstr(path, ".gz");
	if (!stat(path->buf, st) && S_ISREG(st->st_mode))
		return path->buf;
	return NULL;
}

static void add_sig(struct strbuf *sig, const char *name, const struct stat *st)
{
	strbuf_addf(sig, "%s:%lld:%lld.%09ld;", name, (long long)st->st_size,
		    (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
}

static int cmp_run_number(const void *a, const void *b)
{
	long x = atol(*(char *const *)a), y = atol(*(char *const *)b);

	return x < y ? -1 : x > y;
}

/* The numbered run dirs of dir holding a stats.json(.gz), by number. */
static char **run_dirs(const char *dir, int *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strbuf path = STRBUF_INIT, sub = STRBUF_INIT;
	struct stat st;
	char **names = NULL;
	size_t alloc = 0;

	*nr = 0;
	while (d && (de = readdir(d))) {
		if (!ingest_is_run_name(de->d_name))
			continue;
		strbuf_reset(&sub);
		path_join(&sub, dir, de->d_name);
		if (!exists_maybe_gz(sub.buf, "stats.json", &path, &st))
			continue;
		ALLOC_GROW(names, (size_t)*nr + 1, alloc);
		names[(*nr)++] = xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	if (*nr)
		qsort(names, (size_t)*nr, sizeof(*names), cmp_run_number);
	strbuf_release(&path);
	strbuf_release(&sub);
	return names;
}

bool ingest_is_result_root(const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	bool yes = exists_maybe_gz(dir, "matrix.json", &path, &st) != NULL;
	int nr = 0;

	if (!yes) {
		char **names = run_dirs(dir, &nr);
		yes = nr > 0;
		for (int i = 0; i < nr; i++)
			free(names[i]);
		free(names);
	}
	strbuf_release(&path);
	return yes;
}

static void add_run(struct root_read *rr, int number, const char *path)
{
	rr->runs = xrealloc(rr->runs, sizeof(*rr->runs) * (size_t)(rr->nr_runs + 1));
	rr->run_paths = xrealloc(rr->run_paths, sizeof(*rr->run_paths) * (size_t)(rr->nr_runs + 1));
	rr->run_paths[rr->nr_runs] = xstrdup(path);
	rr->runs[rr->nr_runs].number = number;
	rr->runs[rr->nr_runs].incomplete = false;
	rr->runs[rr->nr_runs].path = rr->run_paths[rr->nr_runs];
	rr->nr_runs++;
}

/* Runs of a matrix: numbered by their stats_source dirs when those are
 * distinct numbers, else by column. */
static void matrix_runs(struct root_read *rr)
{
	struct strbuf path = STRBUF_INIT;
	int n = rr->mx.ncols, *num = xcalloc((size_t)(n ? n : 1), sizeof(*num));
	bool by_source = true;

	for (int c = 0; c < n && by_source; c++) {
		const char *src = c < rr->mx.nr_sources ? rr->mx.sources[c] : NULL;
		const char *end = src ? strrchr(src, '/') : NULL, *start;
		char name[32];
		if (!end || end == src) {
			by_source = false;
			break;
		}
		for (start = end; start > src && start[-1] != '/'; start--)
			;
		if ((size_t)(end - start) >= sizeof(name)) {
			by_source = false;
			break;
		}
		memcpy(name, start, (size_t)(end - start));
		name[end - start] = '\0';
		by_source = ingest_is_run_name(name) && strlen(name) < 9;
		num[c] = by_source ? atoi(name) : 0;
		for (int k = 0; k < c && by_source; k++)
			by_source = num[k] != num[c];
	}
	for (int c = 0; c < n; c++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%d", rr->dir, by_source ? num[c] : c);
		add_run(rr, by_source ? num[c] : c, path.buf);
	}
	free(num);
	strbuf_release(&path);
}

/* Samples from the run dirs' stats.json, united in memory. */
static int read_runs(struct root_read *rr)
{
	struct strbuf path = STRBUF_INIT, run = STRBUF_INIT;
	struct stat st;
	int nr, ret = 0;
	char **names = run_dirs(rr->dir, &nr);

	for (int i = 0; i < nr; i++) {
		struct matrix stats;
		strbuf_reset(&run);
		path_join(&run, rr->dir, names[i]);
		if (!exists_maybe_gz(run.buf, "stats.json", &path, &st)) {
			ret = error("cannot read '%s/stats.json': it went away", run.buf);
			break;
		}
		matrix_init(&stats);
		if (stats_load(&stats, path.buf) < 0) {
			matrix_release(&stats);
			ret = -1;
			break;
		}
		matrix_add_column(&rr->mx, &stats, NULL);
		matrix_release(&stats);
		add_run(rr, atoi(names[i]), run.buf);
	}
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	strbuf_release(&path);
	strbuf_release(&run);
	return ret;
}

int store_job_params(const struct job *job, struct axis **axes)
{
	size_t alloc = 0;
	int nr = 0, kept = 0;

	*axes = NULL;
	job_axes(job, axes, &nr, &alloc);
	for (int i = 0; i < nr; i++) {
		bool identity = !strcmp((*axes)[i].key, "commit");
		for (int f = 0; f < SJ_NR && !identity; f++)
			identity = !strcmp((*axes)[i].key, store_job_field_names[f]);
		if (identity) {
			/* the path says it, and says it for every root */
			free((*axes)[i].key);
			free((*axes)[i].value);
			continue;
		}
		(*axes)[kept++] = (*axes)[i];
	}
	return kept;
}

/* The job's parameters from the first run's job.yaml, if any. */
static void read_params(struct root_read *rr)
{
	struct strbuf path = STRBUF_INIT;
	struct job *job = NULL;

	for (int k = 0; k < rr->nr_runs && !job; k++) {
		strbuf_reset(&path);
		path_join(&path, rr->runs[k].path, "job.yaml");
		if (!file_exists(path.buf))
			continue;
		if (job_load_opts(path.buf, &(struct job_load_opts){ .no_check = true }, &job) < 0) {
			warning("'%s' is indexed without its job's parameters", rr->dir);
			break;
		}
	}
	strbuf_release(&path);
	if (!job)
		return;
	rr->nr_axes = store_job_params(job, &rr->axes);
	job_free(job);
	rr->params = xcalloc((size_t)(rr->nr_axes ? rr->nr_axes : 1), sizeof(*rr->params));
	for (int i = 0; i < rr->nr_axes; i++) {
		rr->params[i].key = rr->axes[i].key;
		rr->params[i].value = rr->axes[i].value;
	}
	rr->nr_params = rr->nr_axes;
}

/* The identity: the last seven components of the absolute path. */
static void read_identity(struct root_read *rr)
{
	const char *end = rr->dir + strlen(rr->dir);

	for (int i = SJ_NR; i >= 0; i--) {
		const char *start = end;
		while (start > rr->dir && start[-1] != '/')
			start--;
		rr->parts[i] = xstrndup(start, (size_t)(end - start));
		end = start > rr->dir ? start - 1 : rr->dir;
	}
}

static void root_read_release(struct root_read *rr)
{
	free(rr->dir);
	for (int i = 0; i <= SJ_NR; i++)
		free(rr->parts[i]);
	matrix_release(&rr->mx);
	for (int k = 0; k < rr->nr_runs; k++)
		free(rr->run_paths[k]);
	free(rr->run_paths);
	free(rr->runs);
	axes_release(rr->axes, rr->nr_axes);
	free(rr->params);
	strbuf_release(&rr->sig);
}

/*
 * The signature of the files a root is read from, from their stat alone:
 * matrix.json(.gz), else each run's stats.json(.gz) by run number.  It is
 * taken before they are read, so that a file changed meanwhile makes the
 * next index read it again.
 */
static void root_signature(const char *dir, struct strbuf *sig)
{
	struct strbuf path = STRBUF_INIT, run = STRBUF_INIT;
	struct stat st;
	int nr;
	char **names;

	if (exists_maybe_gz(dir, "matrix.json", &path, &st)) {
		add_sig(sig, strrchr(path.buf, '/') + 1, &st);
		strbuf_release(&path);
		return;
	}
	names = run_dirs(dir, &nr);
	for (int i = 0; i < nr; i++) {
		strbuf_reset(&run);
		path_join(&run, dir, names[i]);
		if (exists_maybe_gz(run.buf, "stats.json", &path, &st))
			add_sig(sig, names[i], &st);
		free(names[i]);
	}
	free(names);
	strbuf_release(&path);
	strbuf_release(&run);
}

/* Where the root is, what it is called and its signature; nothing is read
 * from its files yet.  0 or -1. */
static int locate_root(struct root_read *rr, const char *dir)
{
	memset(rr, 0, sizeof(*rr));
	matrix_init(&rr->mx);
	strbuf_init(&rr->sig, 0);
	rr->dir = realpath(dir, NULL);
	if (!rr->dir) {
		rr->dir = xstrdup(dir);
		return error("cannot index '%s': %s", dir, strerror(errno));
	}
	read_identity(rr);
	root_signature(rr->dir, &rr->sig);
	return 0;
}

/* Everything of the located root, from disk; nothing is written.  0 or -1. */
static int read_root(struct root_read *rr)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ret = -1;

	if (exists_maybe_gz(rr->dir, "matrix.json", &path, &st)) {
		if (matrix_load(&rr->mx, path.buf) < 0)
			goto out;
		matrix_runs(rr);
	} else if (read_runs(rr) < 0) {
		goto out;
	}
	int pos = matrix_find(&rr->mx, "last_state.is_incomplete_run");
	for (int k = 0; pos >= 0 && k < rr->nr_runs; k++)
		rr->runs[k].incomplete = rr->mx.m[pos].v[k] == 1;
	read_params(rr);
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

int store_ingest_root(struct store *s, const char *dir, bool force, struct ingest_result *res)
{
	struct root_read rr;
	struct store_root root;
	struct strbuf old = STRBUF_INIT;
	int ret = INGEST_ERR_READ;

	if (res)
		memset(res, 0, sizeof(*res));
	if (locate_root(&rr, dir) < 0)
		goto out;
	/* an unchanged root costs a few stats and one lookup, not a parse */
	if (!force) {
		int r = store_root_signature(s, rr.dir, &old);
		if (r < 0) {
			ret = INGEST_ERR_STORE;
			goto out;
		}
		if (r == 1 && !strcmp(old.buf, rr.sig.buf)) {
			ret = INGEST_UNCHANGED;
			goto out;
		}
	}
	if (read_root(&rr) < 0)
		goto out;
	ret = INGEST_ERR_STORE;
	memset(&root, 0, sizeof(root));
	for (int i = 0; i < SJ_NR; i++)
		root.job[i] = rr.parts[i];
	root.rev = rr.parts[SJ_NR];
	root.path = rr.dir;
	root.signature = rr.sig.buf;
	root.params = rr.params;
	root.nr_params = rr.nr_params;
	root.runs = rr.runs;
	root.nr_runs = rr.nr_runs;
	root.mx = &rr.mx;
	if (store_put_root(s, &root) < 0)
		goto out;
	if (res) {
		res->runs = rr.nr_runs;
		res->metrics = rr.mx.nr;
	}
	ret = INGEST_STORED;
out:
	root_read_release(&rr);
	strbuf_release(&old);
	return ret;
}

int store_index_result_root(const char *db, const char *dir)
{
	struct store *s;

	if (store_open(&s, db, STORE_CREATE) < 0)
		goto fail;
	if (store_begin(s) < 0 || store_ingest_root(s, dir, true, NULL) < 0 || store_commit(s) < 0) {
		store_close(s);
		goto fail;
	}
	store_close(s);
	return 0;
fail:
	warning("the runs in '%s' are kept but not indexed; 'perfbot index %s' repairs it", dir, dir);
	return -1;
}
