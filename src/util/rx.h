#ifndef PERFBOT_RX_H
#define PERFBOT_RX_H
/*
 * rx: regular expressions matched in linear time.
 *
 * glibc's regexec backtracks: on a line of 25,000 digits one parser
 * pattern took 32 s, and a benchmark's output is input perfbot does not
 * control.  rx compiles the POSIX extended syntax the parsers use into a
 * program for a Pike VM (Thompson's construction with submatch tracking,
 * as in RE2 and Plan 9's regexp), which walks the subject once, keeping
 * at most one thread per instruction: O(length of subject x length of
 * pattern), whatever both hold.
 *
 * Syntax (POSIX ERE): literals, '.', bracket expressions with ranges,
 * negation and [:alnum:] [:alpha:] [:digit:] [:space:] [:upper:]
 * [:lower:] [:punct:] [:xdigit:] classes, '^' and '$' (start and end of
 * the subject), groups, '|', '*', '+', '?', {m}, {m,}, {m,n} (m, n <=
 * 255), and '\' before any character to mean that character.
 * Of Ruby's syntax (lkp's job templates hold Ruby regexps) also \d \w \s
 * \D \W \S (ASCII classes, as Ruby's), (?:...) and the lookaheads (?=...)
 * and (?!...); POSIX gives '(?' no meaning and '\d' none of its own.
 * A lookahead runs its own program, anchored, once per position it is
 * reached at: a pattern holding one is O(subject^2 x pattern) at worst,
 * so parsers of benchmark output keep to the rest.
 *
 * Semantics: a match exists exactly when POSIX says so.  Submatches are
 * leftmost-first with greedy quantifiers (Perl's and Ruby's, lkp's
 * language), where POSIX asks for leftmost-longest; the parsers'
 * patterns give the same groups either way.
 *
 *     struct rx re;
 *     struct rx_sub m[3];
 *     if (rx_compile(&re, "([0-9]+) bytes", &why) < 0) ...
 *     if (rx_exec(&re, line, m, 3)) ... line + m[1].so, m[1].eo - m[1].so
 *     rx_release(&re);
 */
#include <stdbool.h>
#include <stddef.h>

struct rx_inst;

struct rx {
	struct rx_inst *prog;
	size_t len;             /* instructions */
	size_t nsub;            /* groups + 1 (group 0 is the whole match) */
};

/* One submatch: byte offsets, -1 when the group took no part. */
struct rx_sub {
	long so, eo;
};

/* Compile pattern.  0, or -1 with *why set to a static message. */
int rx_compile(struct rx *re, const char *pattern, const char **why);
void rx_release(struct rx *re);

/*
 * Match s (NUL-terminated) against re, anywhere in it.  On a match fill
 * m[0..nm-1] (groups past nm are not reported; m may be NULL with nm 0)
 * and return true.
 */
bool rx_exec(const struct rx *re, const char *s, struct rx_sub *m, size_t nm);

#endif
