#ifndef PERFBOT_ERROR_H
#define PERFBOT_ERROR_H
/*
 * error.h: perfbot's messages and exit codes, by git's rules (usage.c).
 *
 * Messages are lowercase, without a full stop, the subject quoted:
 *     return error("cannot open '%s': %s", path, strerror(errno));
 * prints "perfbot: cannot open 'x': No such file or directory" on stderr.
 * A message often quotes what others wrote (a commit subject, a lab's
 * error, a file's line): what a terminal would act on (escapes, control
 * bytes but tab and newline) is printed as '?' (util/printable.h).  One
 * message is at most 4 KiB; the rest is cut.
 *
 * A function that fails prints one message where it knows the most and
 * returns -1 (`return error(...)`); its callers pass the -1 up without
 * printing again.  die() is for what cannot go on at all.
 */

/*
 * perfbot's exit codes: one meaning each, whatever the command (the
 * README's "Exit status" and perfbot(1) show this table).
 */
#define EXIT_ERROR 1            /* something failed; message on stderr */
#define EXIT_USAGE 2            /* bad command line */
#define EXIT_REGRESSION 3       /* --fail-on-regression found one */
#define EXIT_NOTHING 4          /* bisect: the endpoints do not differ */
#define EXIT_RANGE 5            /* bisect: only skipped commits left: a range */
#define EXIT_UNTRUSTED 6        /* no answer to trust: a bisect's budget,
                                 * convergence or noise; watch: the machine
                                 * moved under one pass */
#define EXIT_NO_BUILD 7         /* kernel build: the commit does not build */
#define EXIT_INTERRUPTED 130    /* SIGINT or SIGTERM; a cut run is kept */

/* Print "perfbot: <msg>" and return -1, so callers can `return error(...)`. */
__attribute__((format(printf, 1, 2))) int error(const char *fmt, ...);
/* Print "perfbot: warning: <msg>": something is off, the work goes on. */
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
/* Print "perfbot: <msg>" and exit(EXIT_ERROR). */
__attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...);

#endif
