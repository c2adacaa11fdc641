/*
 * catalog.c: an lkp catalog's files, each asked about once (catalog.h).
 */
#include "job/catalog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/job.h"
#include "job/split.h"
#include "util/fileio.h"
#include "util/xalloc.h"

/* What is known of one path; each part is asked the first time it is needed. */
struct catalog_file {
	char *path;                     /* the strmap's key */
	bool have_mode, have_x, have_text, have_options;
	mode_t mode;                    /* 0: stat failed */
	bool x;                         /* access(X_OK) succeeded */
	struct strbuf text;
	struct job_option *options;
	size_t nr_options, alloc_options;
};

void job_catalog_init(struct job_catalog *c, const char *const *include_dirs)
{
	memset(c, 0, sizeof(*c));
	strmap_init(&c->index);
	c->dirs = job_default_include_dirs(include_dirs, c->env);
}

void job_catalog_release(struct job_catalog *c)
{
	for (size_t i = 0; i < c->nr_files; i++) {
		struct catalog_file *f = &c->files[i];
		free(f->path);
		strbuf_release(&f->text);
		for (size_t k = 0; k < f->nr_options; k++)
			free(f->options[k].name);
		free(f->options);
	}
	free(c->files);
	strmap_release(&c->index);
	memset(c, 0, sizeof(*c));
}

bool job_catalog_active(const struct job_catalog *c)
{
	return c->dirs && *c->dirs;
}

static struct catalog_file *file_of(struct job_catalog *c, const char *path)
{
	int i = strmap_get(&c->index, path);
	struct catalog_file *f;

	if (i >= 0)
		return &c->files[i];
	/* the map borrows each path, which stays where it is when files grows */
	ALLOC_GROW(c->files, c->nr_files + 1, c->alloc_files);
	f = &c->files[c->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	strbuf_init(&f->text, 0);
	strmap_put(&c->index, f->path, (int)c->nr_files);
	c->nr_files++;
	return f;
}

mode_t job_catalog_mode(struct job_catalog *c, const char *path)
{
	struct catalog_file *f = file_of(c, path);

	if (!f->have_mode) {
		struct stat st;
		f->mode = stat(path, &st) ? 0 : st.st_mode;
		f->have_mode = true;
	}
	return f->mode;
}

bool job_catalog_access_x(struct job_catalog *c, const char *path)
{
	struct catalog_file *f = file_of(c, path);

	if (!f->have_x) {
		f->x = !access(path, X_OK);
		f->have_x = true;
	}
	return f->x;
}

int job_catalog_read(struct job_catalog *c, const char *path,
		     const char **text, size_t *len)
{
	struct catalog_file *f = file_of(c, path);

	if (!f->have_text) {
		strbuf_reset(&f->text);
		if (read_file(&f->text, path) < 0)
			return -1;
		f->have_text = true;
	}
	*text = f->text.buf;
	*len = f->text.len;
	return 0;
}

static void add_option(struct catalog_file *f, const char *name, char type)
{
	ALLOC_GROW(f->options, f->nr_options + 1, f->alloc_options);
	f->options[f->nr_options].name = xstrdup(name);
	f->options[f->nr_options].type = type;
	f->nr_options++;
}

/* Line by line as fgets gives them: a line longer than the buffer comes
 * in pieces, each read as a line of its own. */
static void read_script_options(struct catalog_file *f)
{
	FILE *fp = fopen(f->path, "r");
	char buf[512];

	if (!fp)
		return;
	while (fgets(buf, sizeof(buf), fp)) {
		size_t n = strcspn(buf, "\n"), k = 4;

		if (!n)
			break;
		if (n < 5 || strncmp(buf, "# ", 2) || (buf[2] != '-' && buf[2] != '=') ||
		    buf[3] != ' ')
			continue;
		while (k < n && (isalnum((unsigned char)buf[k]) || buf[k] == '_' || buf[k] == '.'))
			k++;
		if (k == n) {
			buf[n] = 0;
			add_option(f, buf + 4, buf[2]);
		}
	}
	fclose(fp);
}

const struct job_option *job_catalog_script_options(struct job_catalog *c,
						    const char *path, size_t *nr)
{
	struct catalog_file *f = file_of(c, path);

	if (!f->have_options) {
		read_script_options(f);
		f->have_options = true;
	}
	*nr = f->nr_options;
	return f->options;
}

/* A name that is one entry of programs/: no way out of it. */
static bool program_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && name[0] != '.';
}

bool job_catalog_program_dir(struct job_catalog *c, const char *name,
			     struct strbuf *dir)
{
	strbuf_reset(dir);
	if (!c->dirs || !program_name_ok(name))
		return false;
	for (const char *const *d = c->dirs; *d; d++) {
		strbuf_reset(dir);
		strbuf_addf(dir, "%s/programs/%s", *d, name);
		if (S_ISDIR(job_catalog_mode(c, dir->buf)))
			return true;
	}
	strbuf_reset(dir);
	return false;
}

bool job_catalog_has_script(struct job_catalog *c, const char *name,
			    const char *const *scripts)
{
	struct strbuf f = STRBUF_INIT;
	bool ok = false;

	if (!c->dirs || !program_name_ok(name))
		return false;
	for (const char *const *d = c->dirs; *d && !ok; d++)
		for (const char *const *s = scripts; *s && !ok; s++) {
			mode_t m;
			strbuf_reset(&f);
			strbuf_addf(&f, "%s/programs/%s/%s", *d, name, *s);
			m = job_catalog_mode(c, f.buf);
			ok = S_ISREG(m) && (m & 0111);
		}
	strbuf_release(&f);
	return ok;
}
