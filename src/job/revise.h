#ifndef PERFBOT_JOB_REVISE_H
#define PERFBOT_JOB_REVISE_H
/*
 * Merging jobs as lkp merges them (lib/hash.rb revise_hash), used by
 * split.c for include defaults, later documents and -s overrides.
 *
 * revise_map(dst, src, overwrite) adds src's top-level entries to dst:
 * a new key goes last; a key both have keeps its place and takes src's
 * value when overwrite, else keeps dst's -- no deep merge -- except for
 *   - accumulative keys (need_* but need_memory, need_cpu, need_modules;
 *     mail_to, mail_cc, constraints) and keys ending in '+' or '-',
 *     whose values are combined: lists concatenated, a scalar appended
 *     to a list, two scalars becoming a list, mappings updated;
 *   - "KEY+: V" afterwards merges V into KEY (duplicates dropped from a
 *     list) and "KEY-: V" deletes V's items (or KEY itself when V is
 *     null) from KEY; both leave dst;
 *   - "a.b.c: V" sets that nested key, creating mappings on the way.
 * Comment entries ("#! file" markers) are added once, by their text.
 */
#include <stdbool.h>
#include "job/job.h"

void revise_map(struct job_value *dst, const struct job_value *src, bool overwrite);

/* The parts of an "a.b.c" key that make nested mappings; the rest of a
 * longer key is its last part (revise.c, lookup_path). */
#define REVISE_PATH_MAX 16
/* True for the keys whose values lkp accumulates (see above). */
bool revise_accumulative_key(const char *key);

#endif
