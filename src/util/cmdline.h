#ifndef PERFBOT_CMDLINE_H
#define PERFBOT_CMDLINE_H
/*
 * Where a command's options end.
 *
 * `perfbot run JOB.yaml --runs 2 -- CMD -x`: options may come anywhere
 * before "--", and what follows it is the benchmark's, untouched.  GNU
 * getopt can permute options past JOB.yaml, but a "--" it meets moves the
 * skipped arguments behind it, so the caller can no longer tell the job
 * file from the command.  cmdline_end finds that "--" first, the way
 * getopt will read the line (an option's argument may be "--" itself:
 * `--build --`), so that getopt_long(end, argv, ...) sees only the options
 * and operands, and argv[end + 1 ...] is the command.
 */
#include <getopt.h>

/* The index of the "--" that ends the options in argv[1..argc-1], or argc
 * when there is none.  shortopts and longopts are getopt_long's. */
int cmdline_end(int argc, char **argv, const char *shortopts, const struct option *longopts);

#endif
