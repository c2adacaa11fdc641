#ifndef PERFBOT_JOB_SRC_H
#define PERFBOT_JOB_SRC_H
/*
 * Private to src/job/: the file names that values remember (job.h's
 * struct job_src) and the key check that loading runs.  job.c owns
 * values, load.c and yaml.c read text into them, keys.c knows which
 * top-level keys a job may have, write.c writes them back.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "job/job.h"
#include "util/xalloc.h"

struct job_src {
	int refs;
	bool hidden;            /* an include not named .yaml: never quoted */
	char name[];
};

#define HIDDEN_TEXT "<not shown: from an included file not named .yaml>"

static inline struct job_src *src_new(const char *name)
{
	size_t n = strlen(name);
	struct job_src *s = xmalloc(sizeof(*s) + n + 1);
	s->refs = 1;
	s->hidden = false;
	memcpy(s->name, name, n + 1);
	return s;
}

static inline bool src_hidden(const struct job_src *s)
{
	return s && s->hidden;
}

static inline struct job_src *src_get(struct job_src *s)
{
	if (s)
		s->refs++;
	return s;
}

static inline void src_put(struct job_src *s)
{
	if (s && !--s->refs)
		free(s);
}

/* The entry of key in map (NULL when absent or map is no JOB_MAP), and
 * a new last entry key: val (job.c). */
struct job_entry *job_map_find_entry(const struct job_value *map, const char *key);
struct job_entry *job_map_append_entry(struct job_value *map, const char *key,
					struct job_value *val);

/* Step 3 of loading (job.h): the top-level keys of doc known, of the
 * shape they must have.  0, or -1 after "FILE:LINE:COL: ..." (keys.c). */
int job_check_doc(const struct job_value *doc, const char *const *dirs);

#endif
