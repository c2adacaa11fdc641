#ifndef PERFBOT_JOB_YAML_H
#define PERFBOT_JOB_YAML_H
/*
 * Private to src/job/: the two halves of loading a job (job.h's
 * "Loading does").  load.c expands the text (markers, `<< :` includes)
 * into a struct expansion that maps every expanded line back to its file;
 * yaml.c parses that text into job_value trees, saying its errors in the
 * terms of the lines' origins.
 */
#include <stdbool.h>
#include <stddef.h>
#include "job/job.h"
#include "util/strbuf.h"

struct job_src;

/* The expanded text and where each of its lines came from. */
struct line_origin {
	struct job_src *src;
	int line;               /* 1-based line in src */
	int shift;              /* columns added by include indentation */
};

struct expansion {
	struct strbuf text;
	struct line_origin *map;
	size_t nr, alloc;
	/* lkp's comment markers: expanded line -> text */
	struct marker { size_t line; char *text; } *marks;
	size_t nr_marks, alloc_marks;
	const char *const *include_dirs;
	bool quote_templates;
	bool no_includes;          /* job_load_opts' */
};

/*
 * Parse the expanded text (x's) of the job named name into job's
 * documents (job NULL: only check it), each one's top-level keys checked (keys.c) when check is
 * set; lkp's comment markers of x become comment entries.  0, or -1
 * after an error "FILE:LINE:COL: ..." in the terms of x's map.
 */
int job_parse_yaml(const char *text, size_t len, const char *name,
		   struct expansion *x, struct job *job, bool check);

/*
 * Whether an included text is job YAML: YAML on its own, each document a
 * mapping (or empty) whose keys are plain scalars of lkp's key shape.
 * Any other file named after `<< :` (`/etc/shadow`: a plain scalar, or
 * one mapping key full of colons when a line ends in ':') must not become
 * job data: its lines would reach job.yaml, atoms, their names and the
 * lab queue, and messages quoting them.  Returns 0, or -1 with *err set
 * to "LINE:COL: invalid YAML: ..." for a syntax error, or -2.
 */
int job_check_included_yaml(const char *text, size_t len, struct strbuf *err);

#endif
