/* unite.c: stats.json of runs -> matrix.json, avg.json, stddev.json. */
#include "result/unite.h"
#include "result/matrix.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static int write_json(const char *dir, const char *name, void (*render)(const struct matrix *, struct strbuf *),
		      const struct matrix *mx)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret;

	path_join(&path, dir, name);
	render(mx, &text);
	ret = write_file_atomic(path.buf, text.buf, text.len);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static int unite_one(const char *run_dir)
{
	char real[PATH_MAX], parent[PATH_MAX];
	struct strbuf stats_path = STRBUF_INIT, matrix_path = STRBUF_INIT, lock_path = STRBUF_INIT;
	struct matrix stats, mx;
	int ret = -1, lock_fd = -1;

	matrix_init(&stats);
	matrix_init(&mx);
	if (!realpath(run_dir, real)) {
		error("cannot unite '%s': %s", run_dir, strerror(errno));
		goto out;
	}
	if (!is_dir(real)) {
		error("cannot unite '%s': not a run directory", run_dir);
		goto out;
	}
	path_join(&stats_path, real, "stats.json");
	if (stats_load(&stats, stats_path.buf) < 0)
		goto out;

	strcpy(parent, real);
	strcpy(parent, dirname(parent));
	path_join(&lock_path, parent, ".unite.lock");
	lock_fd = open(lock_path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX) < 0) {
		error("cannot lock '%s': %s", lock_path.buf, strerror(errno));
		goto out;
	}

	/* an lkp tree may hold matrix.json.gz only: matrix_load finds either */
	path_join(&matrix_path, parent, "matrix.json");
	if (file_exists(matrix_path.buf) || (strbuf_addstr(&matrix_path, ".gz"), file_exists(matrix_path.buf))) {
		if (matrix_load(&mx, parent) < 0)
			goto out;
	}

	int col = -1;
	for (int c = 0; c < mx.nr_sources; c++)
		if (mx.sources[c] && !strcmp(mx.sources[c], stats_path.buf))
			col = c;
	if (col >= 0)
		matrix_set_column(&mx, col, &stats);
	else
		matrix_add_column(&mx, &stats, stats_path.buf);
	matrix_drop_empty(&mx);

	if (write_json(parent, "matrix.json", matrix_to_json, &mx) < 0 ||
	    write_json(parent, "avg.json", matrix_avg_to_json, &mx) < 0 ||
	    write_json(parent, "stddev.json", matrix_stddev_to_json, &mx) < 0)
		goto out;
	ret = 0;
out:
	if (lock_fd >= 0)
		close(lock_fd); /* releases the flock */
	matrix_release(&stats);
	matrix_release(&mx);
	strbuf_release(&stats_path);
	strbuf_release(&matrix_path);
	strbuf_release(&lock_path);
	return ret;
}

int unite_run_dirs(char *const *run_dirs, int n)
{
	for (int i = 0; i < n; i++)
		if (unite_one(run_dirs[i]) < 0)
			return -1;
	return 0;
}
