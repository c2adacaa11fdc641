#ifndef PERFBOT_EXEDIR_H
#define PERFBOT_EXEDIR_H
/*
 * exedir.h: the directories of files built with perfbot (its benchmarks,
 * its static programs), found next to the running executable.
 *
 * `make` puts ./perfbot beside build/ and the companions in build/<sub>;
 * `make BUILD=x` puts x/perfbot in x/ and the companions in x/<sub>.  So a
 * companion dir is "<dir of /proc/self/exe>/<sub>" when that one is the
 * right one, else "<dir of /proc/self/exe>/build/<sub>".  An environment
 * variable overrides both (tests, installs elsewhere):
 *
 *     exe_sibling_dir(&sb, "PERFBOT_BENCH_DIR", "bin", "bench-harness");
 */
#include "util/strbuf.h"

/*
 * Append the companion dir to sb: $env when set and not empty; else
 * exe_sibling_pick() in the directory of the running executable; else
 * (no /proc/self/exe) "build/<sub>", relative to the cwd.
 */
void exe_sibling_dir(struct strbuf *sb, const char *env, const char *sub, const char *marker);

/*
 * Append "<dir>/<sub>" to sb when it holds marker (a file, or anything
 * with marker NULL: the directory itself exists), else
 * "<dir>/build/<sub>".  No check of the second: a missing companion is
 * reported by whoever uses it, with the make target that builds it.
 */
void exe_sibling_pick(struct strbuf *sb, const char *dir, const char *sub, const char *marker);

/* Append the directory of the running executable to sb; 0, or -1 (sb
 * untouched) when /proc/self/exe cannot be read. */
int exe_dir(struct strbuf *sb);

#endif
