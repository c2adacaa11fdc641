#ifndef PERFBOT_JOB_CATALOG_H
#define PERFBOT_JOB_CATALOG_H
/*
 * An lkp catalog (the include dirs: programs/, include/, params/, bin/,
 * hosts/) as the split reads it, each file asked about once.
 *
 * Splitting a job asks, for every key of every atom, whether
 * programs/KEY/{run,setup,daemon,monitor,...}, include/KEY and
 * params/KEY exist: lkp's fxmark.yaml makes 480 atoms and asked the
 * file system 240,000 times.  A catalog remembers each answer (the
 * stat(2) of a path, its access(2) for execution, a file's text, a
 * script's option header), so that only the first question about a path
 * reaches the file system and the others are a hash probe.  The answers
 * are those of the calls themselves, asked lazily: a look-up behaves as
 * the bare call did, only the catalog must not outlive a change to the
 * files (one split, one command).
 *
 * One catalog is made by whoever starts the work (split-job makes one
 * for all its job files and their atoms' names; job_split makes one for
 * its call when given none) and passed down; nothing is global.
 *
 *	struct job_catalog cat;
 *	job_catalog_init(&cat, dirs);         (NULL: $LKP_SRC, if set)
 *	... job_catalog_has_script(&cat, "fxmark", scripts) ...
 *	job_catalog_release(&cat);
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/strbuf.h"
#include "util/strmap.h"

struct catalog_file;
struct job_option;

struct job_catalog {
	/* the include dirs (NULL-terminated, borrowed), or NULL: none */
	const char *const *dirs;
	/* private to catalog.c */
	const char *env[2];             /* {$LKP_SRC, NULL} when dirs is it */
	struct strmap index;            /* path -> its place in files */
	struct catalog_file *files;
	size_t nr_files, alloc_files;
};

/*
 * Index include_dirs (borrowed: they must outlive the catalog); NULL
 * means {$LKP_SRC} when that is set and not empty, else no catalog.
 * Nothing is read until asked.
 */
void job_catalog_init(struct job_catalog *c, const char *const *include_dirs);
void job_catalog_release(struct job_catalog *c);

/* Whether there is a catalog at all (some include dir). */
bool job_catalog_active(const struct job_catalog *c);

/*
 * stat(2)'s st_mode of path (symbolic links followed), 0 when stat fails.
 * Any path may be asked; only the catalog's own are worth remembering.
 */
mode_t job_catalog_mode(struct job_catalog *c, const char *path);

/* access(path, X_OK) == 0, remembered. */
bool job_catalog_access_x(struct job_catalog *c, const char *path);

/*
 * The text of the file at path, read once (util/fileio.h read_file):
 * 0 with *text (the catalog's, NUL-terminated, *len bytes), or -1 after
 * read_file's error, which a later call repeats.
 */
int job_catalog_read(struct job_catalog *c, const char *path,
		     const char **text, size_t *len);

/*
 * The "# - name" and "# = name" header lines of the lkp program script
 * at path, as lkp's bin/program-options reads them (any such line, name
 * of [A-Za-z0-9_.], before the first empty line), in their order; none
 * when path cannot be opened.  The array is the catalog's.
 */
const struct job_option *job_catalog_script_options(struct job_catalog *c,
						    const char *path, size_t *nr);

/*
 * Set dir to the first "<include dir>/programs/<name>" that is a
 * directory and return true; false (dir empty) when none is, or name is
 * empty, has a '/' or starts with '.'.
 */
bool job_catalog_program_dir(struct job_catalog *c, const char *name,
			     struct strbuf *dir);

/*
 * Whether an include dir holds programs/<name>/<one of scripts>
 * (NULL-terminated), an executable regular file (lkp skips the others).
 */
bool job_catalog_has_script(struct job_catalog *c, const char *name,
			    const char *const *scripts);

#endif
