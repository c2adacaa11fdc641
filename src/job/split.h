#ifndef PERFBOT_JOB_SPLIT_H
#define PERFBOT_JOB_SPLIT_H
/*
 * The parameter matrix: a job with lists becomes atomic jobs, as lkp's
 * `split-job` makes them (lib/job.rb each_jobs, sbin/split-job).
 *
 * For each document combination (hash0 alone, then hash0 merged with each
 * later document; a later document's keys override), every list held by
 * a dimension key is expanded, the first such key outermost, giving the
 * Cartesian product.  Dimension keys are lkp's EXPAND_DIMS (kconfig,
 * commit, rootfs, *_commit), the workload programs of the job (perfbot's
 * benchmarks, lkp's setup programs, programs/<name>/ with run/setup/daemon
 * scripts under the include dirs) and their options (any key inside a
 * workload program's mapping, the "# - name" / "# = name" header lines of
 * its scripts, and the top-level option names declared in path_params.c).
 * Lists under other keys (need_kconfig, including, ...) stay lists.
 *
 * The job, before the matrix (its dimension lists dropped), then each
 * atomic job gets lkp's defaults from include files: walking its
 * keys in order (nested keys too), a key K with an include set (include/K
 * or programs/K/include* under an include dir) loads, for a program, its
 * file named K (or one per option), else for a string value V the files
 * named by V's "-"/":" prefixes, or OTHERS when none exists, then ALL.
 * Include files are YAML templates in lkp's ERB subset (see erb_expand in
 * split.c); the loaded keys are added after a "#! <file>" marker, never
 * overriding keys the job has.  For `category: benchmark` without an
 * include/category/benchmark file, perfbot's default monitor set (the
 * supported monitors of lkp's list, job_monitor_table()) is added under
 * "#! include/category/benchmark".
 */
#include <stdbool.h>
#include "job/catalog.h"
#include "job/job.h"
#include "util/strbuf.h"

struct split_opts {
	const char *const *include_dirs;  /* lkp roots; NULL: $LKP_SRC */
	const char *testbox;      /* NULL: $HOSTNAME, else gethostname() */
	const char *arch;         /* NULL: uname -m (only when the job has none) */
	const char *kconfig;      /* -c: set kconfig */
	const char *commit;       /* -k: set commit */
	struct job_value *overrides;  /* -s 'k: v' map (borrowed), or NULL */
	bool no_defaults;         /* do not load include defaults */
	/*
	 * include_dirs indexed by the caller (job_catalog_init), to share
	 * what it learns with the caller's own look-ups (job_atom_name of
	 * each atom); NULL: job_split indexes include_dirs for its call.
	 */
	struct job_catalog *catalog;
};

/*
 * The workload programs and options of a job, for dims and path_params.
 * Built by job_programs_init, freed by job_programs_release.
 */
struct job_option {
	char *name;
	char type;                /* '-' value only, '=' as k=v in path_params */
};
struct job_programs {
	char **programs;          /* workload program names present in the job */
	size_t nr_programs, alloc_programs;
	struct job_option *options;
	size_t nr_options, alloc_options;
};
void job_programs_init(struct job_programs *p, const struct job_value *root,
		       struct job_catalog *cat);
void job_programs_release(struct job_programs *p);
bool job_programs_has_program(const struct job_programs *p, const char *name);
/* Option type of name ('-' or '='), or 0 when name is no option. */
char job_programs_option(const struct job_programs *p, const char *name);
/*
 * True for a workload program: with an lkp catalog (cat active), as lkp
 * decides, an executable programs/NAME/run, setup or daemon; without one,
 * perfbot's benchmarks and lkp's usual setup programs.
 */
bool job_is_workload_program(const char *name, struct job_catalog *cat);
/* A monitor: programs/NAME/monitor (or no-stdout-, one-shot-, plain-)
 * with a catalog; perfbot's monitor table without. */
bool job_is_monitor(const char *name, struct job_catalog *cat);

/*
 * lkp's params/ map rules (params.c): every string value at any depth
 * whose key has a rule file params/KEY in the catalog takes the
 * rules' reading ("1HDD" -> {nr_hdd: 1}).  Include defaults are chosen
 * on that reading; the atoms keep what the job says.
 */
void job_params_map(struct job_value *job, struct job_catalog *cat);

/* Called once per atomic job; the atom is the callee's to keep or free. */
typedef int (*job_atom_fn)(struct job *atom, void *ctx);

/*
 * Split job (loaded by job_load_opts) into atomic jobs, calling fn for
 * each in lkp's order.  Adds testbox, arch, tbox_group (and kconfig,
 * commit when set) as lkp's split-job does.  origin is the job file name
 * as given by the user (for job_origin and the "#! file" marker).
 * Returns 0, or -1 after an error (from a template, an include, or fn).
 */
int job_split(const struct job *job, const char *origin,
	      const struct split_opts *opts, job_atom_fn fn, void *ctx);

/*
 * The atomic job's file name as lkp's split-job names it, appended to sb:
 * "<prefix>-<path_params>[-<commit>...][-<rootfs file>].yaml", with
 * catalog's programs (NULL: $LKP_SRC's, indexed for this call).  Returns
 * 0, or -1 after an error naming the key whose value is not one safe path
 * component (util/pathsafe.h): the name must stay in prefix's folder.
 */
int job_atom_name(const struct job *atom, const char *prefix,
		  struct job_catalog *catalog, struct strbuf *sb);

/*
 * lkp's split-job --compatible: a job lkp already expanded may carry
 * sections that do not read back (queue options, host data).  When text
 * has "#! " section headers, keep only the lines before the first one and
 * those of sections whose header names a .yaml file.  Appends to out.
 */
void job_refine_compatible(const char *text, struct strbuf *out);

/*
 * Expand lkp's ERB subset in template with job as `job` and ___ as `___`
 * (may be NULL).  Supported: "% code" lines and <% code %> / <%= expr %>
 * tags; if/elsif/else/unless/end and case/when/else/end; strings with
 * #{} interpolation, integers, nil/true/false, /regex/; job['k'] and
 * nested ['k'] lookups; == != =~ !~ < > <= >= && || and or not !;
 * .upcase .downcase .to_s .to_i .nil? .empty? .include?(x) .size, and
 * lkp's Hashugar reading: a bare name is the job's key, .name a mapping's.
 * Appends to out; returns 0, -1 after "FILE:LINE: what was expected", or
 * 1 (no message) when a bare name or .name is a key the job lacks: lkp's
 * KeyError, after which lkp leaves the include file for a later pass.
 */
int erb_expand(const char *template, const char *file, const struct job_value *job,
	       const struct job_value *___, struct job_catalog *cat,
	       struct strbuf *out);

/*
 * Evaluate one Ruby expression of that subset, as lkp's `{{ expr }}` job
 * values: *out is the value (NULL for nil).  Returns 0, or -1 after
 * "WHERE: what was expected" (an unknown key is an error here).
 */
int erb_eval(const char *expr, const char *where, const struct job_value *job,
	     struct job_catalog *cat, struct job_value **out);

#endif
