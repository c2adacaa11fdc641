#ifndef PERFBOT_JOB_H
#define PERFBOT_JOB_H
/*
 * Job files: what to run, in lkp-tests' job YAML.
 *
 * A job is an ordered mapping of top-level keys to values, in file order
 * (lkp's Ruby hashes keep insertion order and so do we).  A value is
 *
 *   JOB_NULL     `key:` with nothing after it (lkp's nil: "enabled,
 *                no options", e.g. a monitor `vmstat:`)
 *   JOB_SCALAR   text as written, plus its type as Ruby reads it (type:
 *                an unquoted 1 is an Integer, "1" a String) and how it
 *                was quoted (style), so a saved job reads back equal
 *   JOB_SEQ      a list: at top level or as a program option it is a
 *                dimension of the parameter matrix (see split.h)
 *   JOB_MAP      a program with options, `vm-scalability: {test: lru}`,
 *                `perf-profile: {delay: 15}`
 *
 * Every value and key remembers the file, line and column it came from
 * (1-based; 0 for values made by code), through includes too, so that
 * errors can say "jobs/x.yaml:3:10: 'runtime' expected a scalar".
 * Not supported (reported as errors): YAML merge keys (`<<: *anchor`) and
 * ERB templates in the job file itself (lkp's include files are templates:
 * split.h expands those).
 *
 * lkp's "#! file" section markers are kept as comment entries
 * (entry->comment): they tell which file each block of keys came from and
 * are written back as "\n#! file" lines by job_to_yaml.  job_next() skips
 * them; code that only wants keys never sees them.
 *
 * A file may hold several YAML documents ("hash0 --- hash1 --- hash2"):
 * job->root is the first one, job->docs[] the others.  lkp's meaning,
 * applied by job_split() in split.h: a job of hash0 alone, then one per
 * later document, being hash0 with that document's keys merged over it.
 *
 * Loading does, in this order:
 *   1. keep lkp's comment markers: a top-level line "#! text" or "# text"
 *      after a blank line, using lkp's character set, becomes a comment
 *      entry (other comments are dropped, as lkp drops them);
 *   2. expand `<< : FILE` lines by text, as lkp does: FILE's lines replace
 *      the line, indented to the column of "<<".  FILE is absolute, or
 *      "./x"/"../x" relative to the including file's directory, or else
 *      searched in: the including file's directory, then each
 *      opts->include_dirs entry (lkp's LKP_SRC), then recursively under
 *      the nearest jobs/ above the including file and under the include
 *      dirs (lkp's search_file_in_paths).  Unlike lkp, an included file's
 *      own `<<:` lines are expanded too (lkp leaves them to Psych).
 *      The flow form `<<: {file: base.yaml, ignore: [k1, k2]}` drops the
 *      top-level keys k1, k2 of the included file; other keys of the flow
 *      map override the included file's keys.  Includes nest (depth 16).
 *   3. parse every document with libfyaml and check it: each top-level
 *      key must be known (job_key_known()), mapping-only keys must be
 *      mappings, scalar-only keys scalars.  Keys in the sections that
 *      split-job adds from lkp's own files ("#! include/...",
 *      "#! programs/...", "#! hosts/...", "#! user overrides") are not
 *      checked for being known: those files define what they like.
 *
 * Ownership: a struct job owns everything reachable from it; strings
 * returned by getters are borrowed and live until the job is changed or
 * freed.
 */
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

enum job_kind {
	JOB_NULL,
	JOB_SCALAR,
	JOB_SEQ,
	JOB_MAP,
};

/* How a scalar was written; kept so that save/load is symmetric. */
enum job_style {
	JOB_PLAIN,
	JOB_SINGLE_QUOTED,
	JOB_DOUBLE_QUOTED,
	JOB_LITERAL,            /* | block */
	JOB_FOLDED,             /* > block */
};

/*
 * What a scalar means to Ruby (lkp reads jobs with Psych): an unquoted
 * 300 is an Integer, '300' a String.  Decided by job_scalar_type_of() for
 * plain scalars; quoted and block scalars are always JOB_STR.  Plain
 * null spellings (~, null, empty) are JOB_NULL values, not scalars.
 */
enum job_scalar_type {
	JOB_STR,
	JOB_INT,
	JOB_FLOAT,
	JOB_BOOL,
	JOB_OTHER,              /* a Ruby Date/Time or Symbol: kept as text */
	JOB_TNULL,              /* only as job_scalar_type_of()'s answer */
};

/* A refcounted file name shared by the nodes that came from that file. */
struct job_src;

struct job_entry;

struct job_value {
	enum job_kind kind;
	enum job_style style;      /* JOB_SCALAR only: as written */
	enum job_scalar_type type; /* JOB_SCALAR only: as Ruby reads it */
	char *text;                /* JOB_SCALAR: the text as written (decoded) */
	char *named;               /* what path_params prints when not text:
				    * "100%" after job_expand_percentages */
	struct job_entry *ent;     /* JOB_MAP: entries in order */
	struct job_value **item;   /* JOB_SEQ: items in order */
	size_t nr, alloc;          /* number of entries or items */
	struct job_src *src;       /* where it was written, or NULL */
	int line, col;             /* 1-based position, 0 when unknown */
};

struct job_entry {
	char *key;                 /* for a comment: its text after '#' */
	struct job_value *val;     /* never NULL (JOB_NULL for `key:`) */
	bool comment;              /* lkp's "#! file" marker, val is JOB_NULL */
	struct job_src *src;       /* where the key was written, or NULL */
	int line, col;
};

struct job {
	struct job_value *root;    /* JOB_MAP: the first document */
	struct job_value **docs;   /* the documents after the first */
	size_t nr_docs, alloc_docs;
	char *path;                /* the file it was loaded from, or NULL */
};

/* Options of job_load_opts(); zero-initialise for the defaults. */
struct job_load_opts {
	/*
	 * NULL-terminated list of lkp-tests-like roots (each may hold
	 * include/, programs/<name>/include, jobs/), searched for includes
	 * after the job's own directory.  NULL: $LKP_SRC when set.
	 */
	const char *const *include_dirs;
	/* Skip the key and type checks of step 3 (for files that are not
	 * jobs, such as lkp's program include files). */
	bool no_check;
	/* Refuse every `<<:` include, reading no file: for job text from
	 * the lab queue, which any submitter writes (perfbot queue submit
	 * expands includes before queueing) and a worker must not make read
	 * files of its box. */
	bool no_includes;
};

/*
 * Load the job file at path (see the top of this file).  On success
 * returns 0 and sets *out to a new job (free it with job_free).  On error
 * returns -1 after printing one "perfbot: FILE:LINE:COL: what was expected"
 * message, and *out is NULL.
 */
int job_load(const char *path, struct job **out);
int job_load_opts(const char *path, const struct job_load_opts *opts,
		  struct job **out);
/* Same from text in memory; name is used in messages and for includes
 * ("./x" resolves relative to dirname(name)). */
int job_load_string(const char *text, size_t len, const char *name,
		    const struct job_load_opts *opts, struct job **out);
/* Same for split-job: lkp's `{{ ruby }}` values, in text and in every
 * `<<:` file it merges, quoted as strings first (job_quote_templates), as
 * lkp's literal_double_braces runs after merging the included files. */
int job_load_templates(const char *text, size_t len, const char *name,
		       const struct job_load_opts *opts, struct job **out);
/*
 * lkp's literal_double_braces: a `{{ ruby }}` value after ": " or "- "
 * (over lines too) becomes the double-quoted string "{{ ruby }}", every
 * line where it was; job_split (split.h) evaluates it per atom (erb_eval), and an
 * atom whose whole-value expression is nil is dropped, as lkp drops it.
 * Appends text so quoted to out.  (Job text only: a `<< :` include's
 * templates are not seen.)
 */
void job_quote_templates(const char *text, struct strbuf *out);

/* Free a job and everything it owns; NULL is fine. */
void job_free(struct job *job);
/* A deep copy (only the root document and docs; all owned by the copy). */
struct job *job_dup(const struct job *job);
/* A new job with an empty root map and no path. */
struct job *job_new(void);

/* --- reading ------------------------------------------------------- */

/* The value of top-level key, or NULL when absent.  Borrowed. */
const struct job_value *job_lookup(const struct job *job, const char *key);
/*
 * The text of top-level key when it is a scalar; NULL when absent, null,
 * a list or a mapping.  Borrowed.
 */
const char *job_get(const struct job *job, const char *key);
/*
 * Top-level key as an integer.  Returns 0 and sets *out; 1 when the key is
 * absent or null (*out untouched, so preset a default); -1 after an error
 * "FILE:LINE:COL: 'key' expected an integer, got '...'".
 */
int job_get_int(const struct job *job, const char *key, long long *out);
/* Entry of a mapping value by key, or NULL (also when map is no JOB_MAP). */
const struct job_value *job_map_get(const struct job_value *map, const char *key);
/*
 * An option of a program key: for `perf-profile: {delay: 15}`,
 * job_program_option(job, "perf-profile", "delay") is "15".  NULL when the
 * program is absent, has no options (`perf-profile:`) or the option is
 * absent or not a scalar.  Borrowed.
 */
const char *job_program_option(const struct job *job, const char *program,
			       const char *option);
/*
 * Iterate the top-level keys of the root document in order, skipping
 * comment entries:
 *
 *     size_t pos = 0;
 *     const struct job_entry *e;
 *     while ((e = job_next(job, &pos)))
 *             use(e->key, e->val);
 */
const struct job_entry *job_next(const struct job *job, size_t *pos);

/* The scalar text of v, or NULL when v is not a scalar. */
const char *job_value_text(const struct job_value *v);
/* Ruby's to_s of a scalar as Psych read it: booleans "true"/"false",
 * integers in decimal ("0x10" -> "16"), floats as Float#to_s, strings
 * as they are.  Appends to sb; nothing for non-scalars. */
void job_scalar_to_s(const struct job_value *v, struct strbuf *sb);
/* Deep equality as Ruby would see it: kinds, scalar types and values
 * (1.0e+3 equals 1000.0; quoting style does not matter), keys and their
 * order.  Positions and comment entries are ignored. */
bool job_value_equal(const struct job_value *a, const struct job_value *b);
/*
 * The text of scalar v (NULL for other kinds), or of entry e's key, as an
 * error message may quote it.  A value from an included file whose name
 * does not end in .yaml or .yml gives a fixed "<not shown: ...>" instead:
 * `<< : FILE` reads any file, as lkp's does, and an error must not print
 * the content of /etc/shadow.  Messages use these, never v->text itself.
 */
const char *job_value_shown(const struct job_value *v);
const char *job_key_shown(const struct job_entry *e);
/* Append "FILE:LINE:COL" (or "FILE" or "<job>" when less is known). */
void job_source_line(const struct job_value *v, struct strbuf *sb);
/* Same for an entry's key position. */
void job_entry_where(const struct job_entry *e, struct strbuf *sb);

/* --- changing ------------------------------------------------------ */

/* Psych's reading of an unquoted scalar (JOB_TNULL for null spellings). */
enum job_scalar_type job_scalar_type_of(const char *text);

/* New values, owned by the caller until handed to a job or a map.
 * job_scalar_new types text as an unquoted scalar would be typed. */
struct job_value *job_value_new(enum job_kind kind);
struct job_value *job_scalar_new(const char *text);
/* A scalar that is a string whatever it looks like ('300'). */
struct job_value *job_string_new(const char *text);
struct job_value *job_value_dup(const struct job_value *v);
void job_value_free(struct job_value *v);
/* Append item (ownership passes) to a JOB_SEQ. */
void job_seq_append(struct job_value *seq, struct job_value *item);
/*
 * Set key in map to val (ownership of val passes to the map).  An existing
 * key keeps its position and has its value replaced; a new key goes last.
 */
void job_map_set(struct job_value *map, const char *key, struct job_value *val);
/* Append a comment entry ("#! file" is passed as "! file"). */
void job_map_add_comment(struct job_value *map, const char *text);
/* Remove key from map; returns true when it was there. */
bool job_map_delete(struct job_value *map, const char *key);
/* Remove the comment entry whose text is text ("! file"); true when found. */
bool job_map_delete_comment(struct job_value *map, const char *text);

/* Set top-level key to a plain scalar (e.g. `perfbot run --runs`). */
void job_set(struct job *job, const char *key, const char *text);
/* Set top-level key to val (ownership passes). */
void job_set_value(struct job *job, const char *key, struct job_value *val);
/*
 * Set top-level key to val unless job_get finds a value for it (an absent,
 * null or non-scalar key is set): a default the job's own value beats
 * (the box a lab job runs on, a result path's parts).  Ownership of val
 * passes; it is freed when not set.  True when set.
 */
bool job_set_default(struct job *job, const char *key, struct job_value *val);
bool job_delete(struct job *job, const char *key);

/* --- writing ------------------------------------------------------- */

/*
 * Append the root document to out as lkp writes a job (Ruby's YAML.dump
 * followed by lkp's comment rewriting): "---\n", then one "key: value"
 * per entry, lists as "- item" lines at the key's indentation, maps
 * indented by two, null as "key:", comment entries as "\n#text", and
 * strings quoted exactly where Ruby's Psych quotes them (values that
 * would read back as another type or are not plain-safe), non-strings in
 * Ruby's spelling (yes -> true, 0x10 -> 16), multi-line strings as "|"
 * blocks and long plain strings folded past column 80 as libyaml does.
 * job_load of the result gives a job equal to this one (job_value_equal),
 * with the comment entries kept.
 */
void job_to_yaml(const struct job *job, struct strbuf *out);
/* job_to_yaml to path through write_file_atomic; 0 or -1 with a message. */
int job_save(const struct job *job, const char *path);

/* --- lkp semantics ------------------------------------------------- */

/*
 * True when key may appear at the top of a job: lkp's known keys (a
 * declared table in keys.c), monitors of job_monitor_table(), benchmarks
 * with a parser (parse/parser.h) or a runner (job/bench_names.h, the
 * runners' names only: runner/runner.h builds on this layer), "#..."-style
 * markers, program names
 * found under include_dirs (programs/<key>/), and keys of lkp's "script
 * X", "function X", "if X", "call X" forms.
 */
bool job_key_known(const char *key, const char *const *include_dirs);

/*
 * What top-level entry e asks for that perfbot does not have: "benchmark",
 * "daemon", "setup" or "monitor" (an lkp program with no runner, setup or
 * monitor of perfbot's), NULL when perfbot reads the key itself or it is a
 * parameter.  With a catalog (include_dirs, else $LKP_SRC) as lkp decides:
 * the scripts programs/<key>/ holds; without, lkp_programs.c, and a
 * mapping of a key nobody knows is a benchmark.
 */
const char *job_key_lacks(const struct job_entry *e, const char *const *include_dirs);

/* The include dirs to use: dirs itself, else {$LKP_SRC, NULL} in buf
 * (2 slots), else NULL. */
const char *const *job_default_include_dirs(const char *const *dirs,
					    const char **buf);

struct job_monitor {
	const char *name;
	bool supported;           /* perfbot can run it */
	bool in_benchmark_set;    /* in lkp's include/category/benchmark */
};
/* The declared monitor table, NULL-terminated by name == NULL. */
const struct job_monitor *job_monitor_table(void);
const struct job_monitor *job_monitor_find(const char *name);

/*
 * Expand a percentage of CPUs as lkp does (its params/nr_threads rule):
 * "N%" or "N.M%" gives (N.M * nr_cpu / 100) truncated to an integer, so
 * "100%" with 8 CPUs is 8, "50%" with 3 is 1 and "1%" with 8 is 0.  Plain
 * digits are returned parsed.  Returns 0 and sets *out, or -1 for any
 * other text (no message; callers name the key).  lkp's "Nc" (N cores
 * per chip) form is not supported.
 */
int job_percent_of_cpus(const char *text, long nr_cpu, long long *out);
/*
 * Apply job_percent_of_cpus to every scalar at any depth whose key is one
 * of the CPU-count parameters declared in job.c (nr_threads, as lkp's
 * params/ does, and nr_task, nr_process, ..., which lkp's test scripts
 * expand the same way) and that ends in '%'.  nr_cpu <= 0 means sysconf's
 * online CPUs.  Returns 0, or -1 after "FILE:LINE:COL: expected N or N%".
 */
int job_expand_percentages(struct job *job, long nr_cpu);

/*
 * lkp's path_params: the part of a result path that names the job's
 * parameters.  Every program option and scalar-valued program (benchmark,
 * setup, daemon; not monitors) is collected, sorted by key; each value is
 * cut to 31 characters; options lkp declares as `k=v` (path_params.c's table)
 * print as "k=v" (or "k" alone when empty), others as the value alone,
 * null values are skipped; the parts are joined by '-' and characters
 * outside [-a-zA-Z0-9+=:.%] become '_'.  Nothing gives "defaults".
 * include_dirs adds programs found there (their "# - option" headers give
 * the options).  Appends to sb.
 */
void job_path_params(const struct job *job, const char *const *include_dirs,
		     struct strbuf *sb);

/*
 * The job's testcase: `testcase`, else `suite`, else its first benchmark
 * key, else the key that holds its command (job_command); *key names the
 * key it came from.  NULL when there is none.
 */
const char *job_testcase(const struct job *job, const char **key);

/*
 * The compiler a Linux banner (/proc/version) names, as lkp's result path
 * has it: "gcc-12" for "... (gcc (Debian 12.2.0-14) 12.2.0, GNU ld ...)"
 * or "(gcc version 12.2.0 ...)", "clang-16" for "(Debian clang version
 * 16.0.6 ...)".  Appends it to sb and returns 1; 0 when none is named.
 */
int job_kernel_compiler(const char *banner, struct strbuf *sb);

/*
 * The command line a job gives as its benchmark: `mytest: {command: ...}`,
 * else the same under the testcase's own name (`testcase: spin` with
 * `spin: {command: ...}`), else, without a testcase, under the first key
 * that holds one (not a monitor's: perf-stat's `command` is an option).
 * *section names the key it was under.  NULL when the job gives none.
 */
const char *job_command(const struct job *job, const char **section);

/*
 * What names a job of the user's own (testcase mytest), as lkp's
 * `run-local -s TEST_NAME` does: its `name`, else, when the job file holds
 * the command, the file's name without ".yaml".  (lkp's own `mytest:
 * TEST_NAME` is a path parameter already.)  Appends it to sb
 * and returns 1, or 0 when nothing names the job.
 */
int job_mytest_name(const struct job *job, struct strbuf *sb);

/*
 * The params part of the job's result path: job_path_params, except that
 * the job's command (job_command) is no parameter: a command line, with
 * its slashes and $VARs, names nothing a reader knows, and a command given
 * after `perfbot run --` would make another path.  A mytest job's
 * job_mytest_name comes first instead, then the other parameters.
 */
void job_result_params(const struct job *job, struct strbuf *sb);

/*
 * Append the result root of job to sb:
 *   BASE/testcase/path_params/tbox_group/rootfs/kconfig/compiler/commit
 * (path_params as job_result_params gives them)
 * (no trailing run number: the run stage appends "/N").  Defaults for a
 * local run, used when the job lacks the key:
 *   testcase    the job's suite, else its first benchmark key
 *   tbox_group  from testbox, else the hostname, with lkp's rule that
 *               strips a trailing "-N" (and "--N") instance suffix
 *   rootfs      the last path part of `rootfs`, else "<ID>-<VERSION_ID>-<arch>"
 *               from /etc/os-release (lkp's rootfs_filename), else "local"
 *   kconfig     `kconfig`, else "<arch>-local"
 *   compiler    `compiler`, else the running kernel's compiler as lkp
 *               names it (job_kernel_compiler of $PERFBOT_PROC_DIR/version,
 *               default /proc/version: "gcc-12"), else "gcc"
 *   commit      the commit argument, else `commit`, else the running
 *               kernel's release (uname -r)
 * Returns 0, or -1 with a message when the job has no testcase.
 */
int job_result_root(const struct job *job, const char *base_dir,
		    const char *commit, struct strbuf *sb);

/* lkp's tbox_group(): a name ending in "-N" loses it, and then its first
 * "-N-" becomes "-" ("lkp-skl-d01-3" -> "lkp-skl-d01",
 * "vm-snb-1-4G-2" -> "vm-snb-4G").  Appends to sb. */
void job_tbox_group(const char *testbox, struct strbuf *sb);

#endif
