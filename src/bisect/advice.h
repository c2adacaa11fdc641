#ifndef PERFBOT_BISECT_ADVICE_H
#define PERFBOT_BISECT_ADVICE_H
/*
 * What a bisection tells its user about noise and runs, apart from the
 * runner so that the words follow from the numbers alone (and tests can
 * hold them): at the start, how noisy the endpoints are and how many
 * runs a verdict will take; when it gives up, why and what to try; at the
 * end, whether the machine's noise moved meanwhile.
 */
#include "bisect/decide.h"
#include "util/strbuf.h"

struct bisect_outlook {
	double noise;           /* the endpoints' relative noise (bisect_noise) */
	double shift;           /* good to bad, relative */
	int runs_needed;        /* bisect_runs_needed at the search's alpha, or -1 */
	int budget;             /* max_total_runs (0: none) */
	int min_runs, max_runs; /* a step's, as the bisect is set */
	int max_unknown;        /* max_unknown_in_row */
	int nr_commits;
	bool paired;            /* p.paired: the budget advised grows as the
				 * default does (BISECT_PAIRED_COST) */
};

/* The outlook of a bisection of nr_commits under p with these endpoints. */
void bisect_outlook_init(struct bisect_outlook *o, const struct sample_set *good,
			 const struct sample_set *bad, const struct bisect_params *p,
			 int nr_commits);

/*
 * One line for the start: "<metric>: 990 -> 840 (-15.2%), noise 2.1% a
 * run: a verdict needs about 2 runs a commit; at most 260 runs in all".
 * Says so when a verdict would need more than a step may have (--max-runs).
 */
void bisect_say_outlook(const struct bisect_outlook *o, const char *metric,
			struct strbuf *out);

/*
 * Why the search stopped without an answer, and what to try: the runs a
 * commit would need at this noise for this shift, --runs and
 * --max-total-runs to give, a longer runtime, a quieter machine.
 */
void bisect_say_give_up(const struct bisect_outlook *o, enum bisect_stop why,
			int runs_spent, struct strbuf *out);

/*
 * The machine's state while the endpoints ran, one line: "the machine:
 * busy, other work used 155% of a CPU, steal 0% (mean of the endpoints'
 * runs)".  other_cpu and steal are the mean machine.* figures of their
 * runs (NaN: not recorded); report/busy.h's rule says whether that was
 * busy.
 */
void bisect_say_machine(double other_cpu, double steal, struct strbuf *out);

/*
 * The --metric the runs do not have: "--metric 'NAME' is not in the
 * stats of <where> (did you mean 'a', 'b' or 'c'?)" with the up to 3
 * names of names[0..n) closest to it (bisect_closest_names), one line.
 */
void bisect_say_unknown_metric(const char *metric, const char *where,
			       const char *const *names, int n, struct strbuf *out);
/*
 * Up to max of names[0..n) close to name, closest first, into out:
 * within an edit distance of a third of the longer (at least 2), or
 * name is the part after one's first '.' (the testcase left out), or
 * they share a prefix of 4 or more, up to a '.' or the end of name.
 * Ties keep the order of names.  Returns how many.
 */
int bisect_closest_names(const char *name, const char *const *names, int n,
			 const char **out, int max);

/* The endpoints re-measured at the end disagree with the start: say how. */
void bisect_say_noise_moved(const struct bisect_noise_check *c, struct strbuf *out);

/*
 * The "endpoints" object of bisect.json (report/report_bisect.c reads
 * it): good_mean, bad_mean, rel_shift, p, noise, runs_needed; with a
 * recheck (may be NULL) noise_end, good_move, bad_move, noise_moved; and
 * step_shift, the first bad commit's change against its parent, with
 * partial_step (bisect_partial_step of it against rel_shift).
 * Non-finite numbers are written as null.
 */
struct json_writer;
void bisect_outlook_json(const struct bisect_outlook *o, double good_mean, double bad_mean,
			 double p, const struct bisect_noise_check *recheck, double step_shift,
			 struct json_writer *jw);

/*
 * Why "nothing to bisect" is no answer: good and bad did not differ
 * (shift, p), but at their noise only a change of mdc or more could show,
 * over `looked_for`.  other_cpu and steal are the mean machine.* figures
 * of the endpoints' runs (NaN: not recorded; report/busy.h's rule says
 * whether the machine was busy).  Lines appended to out: what was
 * measured, the machine's state, what to do.
 */
void bisect_say_hidden(const char *metric, double shift, double p, double noise, int runs,
		       double mdc, double looked_for, double other_cpu, double steal,
		       struct strbuf *out);

#endif
