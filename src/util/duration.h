#ifndef PERFBOT_DURATION_H
#define PERFBOT_DURATION_H
/*
 * duration.h: a length of time as a job (`runtime: 5m`) or an option
 * (`--every 1h`) writes it, in one grammar for all of perfbot: the host's
 * run, the benchmarks' options, the VM's deadline, watch.
 *
 *   duration := number [unit]
 *   number   := digits ["." [digits]] | "." digits      (decimal only)
 *   unit     := "s" (the default) | "m" | "h" | "d"
 *
 * "300", "300s", "5m", "1.5h", "2d", ".5" are durations.  Not one: the
 * empty string, blanks anywhere ("5 m", " 5"), a sign ("+5", "-1"),
 * another unit or text after it ("5ms", "5mm"), strtod's other forms
 * ("1e3", "0x10", "inf", "nan"), and a value too large for a double.
 */

/* Seconds, or -1 when s is NULL or not a duration. */
double parse_duration(const char *s);

/*
 * The time limit of a job whose `timeout` and `runtime` are these, in
 * seconds, or negative when absent (parse_duration's -1): timeout when
 * above 0; else twice the runtime plus 60 s when runtime is above 0 (a
 * runaway benchmark is killed); else 0, no limit.
 */
double duration_job_limit(double timeout, double runtime);

#endif
