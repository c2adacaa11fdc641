#ifndef PERFBOT_PARSE_CACHEGRIND_H
#define PERFBOT_PARSE_CACHEGRIND_H
/*
 * cachegrind.h: the instruction count in the files valgrind's cachegrind
 * writes (`valgrind --tool=cachegrind --cachegrind-out-file=F`), which a
 * job with `measure: instructions` leaves in each run (run/icount.h).
 *
 * A cachegrind.out file names its columns once and gives their totals in
 * its last line:
 *
 *     desc: I1 cache: ...
 *     cmd: ./bench --size 10
 *     events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
 *     fl=...                     (per-file, per-function, per-line counts)
 *     summary: 1234567 890 ...
 *
 * `--cache-sim=no` (what perfbot runs) leaves "events: Ir" alone; Ir,
 * instructions executed, is the one count that does not depend on the
 * machine's load, its caches or its clock.
 *
 * Usage:
 *
 *     unsigned long long ir;
 *     int files;
 *     if (cachegrind_sum_dir(dir, "Ir", &ir, &files) < 0)
 *             ... said: no file, or one without the event ...
 */
#include <stddef.h>

/*
 * The total of event (e.g. "Ir") in one file's text buf[0..len), from its
 * `summary:` line and the column its `events:` line gives the event.
 * 0 with *count; -1 after error() naming where (the file) and what is
 * missing: no events: line, no such event, no summary: line (a run killed
 * before valgrind wrote it), or a summary too short or not a number.
 */
int cachegrind_total(const char *buf, size_t len, const char *where, const char *event,
		     unsigned long long *count);

/*
 * The sum of event over the files of dir named "cachegrind.out.*" (one a
 * process: under --trace-children=yes a shell and each program it runs
 * write their own), in *total, their number in *nr_files.  A file's head
 * and tail are read, not the per-line counts between (megabytes for a big
 * program).  0; -1 after error() when dir has no such file or one of them
 * does not parse.
 */
int cachegrind_sum_dir(const char *dir, const char *event, unsigned long long *total,
		       int *nr_files);

#endif
