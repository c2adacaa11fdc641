#ifndef PERFBOT_RUN_INTERLEAVE_H
#define PERFBOT_RUN_INTERLEAVE_H
/*
 * interleave.h: the order of the runs when two or more commits (sides)
 * are measured against each other -- a bisect's endpoints and the commit
 * under test, watch's commits, the atomic jobs of `perfbot run` (a job
 * with `commit: [v1, v2]`).
 *
 * Load that comes and goes on a shared machine (another job's build, a
 * backup) would land on one side if all of A's runs went first, then all
 * of B's: the sides would differ by the machine, not the code.  Taking
 * turns, A B A B ..., spreads it over both.
 *
 * The plan: round after round, one run of each side that still wants
 * some, in the sides' order; a side that wants more than the others ends
 * the sequence alone ({2, 4} -> 0 1 0 1 1 1).
 */

/* The plan for want[0..nr) runs of each side (negative counts as 0):
 * side indices into out, which holds the sum of want.  Returns how many. */
int interleave_plan(const int *want, int nr, int *out);

/* The sum of want[0..nr), negative counted as 0: the room out needs. */
int interleave_total(const int *want, int nr);

#endif
