#ifndef PERFBOT_FUZZ_H
#define PERFBOT_FUZZ_H
/*
 * What the libFuzzer targets (tests/fuzz/fuzz_*.c, `make fuzz`) share.
 *
 * A target's input is untrusted bytes; the code under test gets them
 * NUL-terminated, as every reader in perfbot gets its text (util/fileio.h
 * adds the NUL).  A target aborts (FUZZ_CHECK) when a property the header
 * of the code under test promises does not hold: libFuzzer reports that
 * as a crash, with the input that shows it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * The message goes to stderr and, through the sanitizer's report (which
 * scripts/fuzz.sh keeps when it closes stderr with -close_fd_mask), to
 * the target's log as a "SUMMARY:" line.
 */
#define FUZZ_CHECK(cond, ...) do { \
	if (!(cond)) \
		fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
} while (0)

void __sanitizer_report_error_summary(const char *error_summary);

__attribute__((format(printf, 4, 5), noreturn))
static inline void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	static char msg[8192];
	va_list ap;
	int n = snprintf(msg, sizeof(msg), "fuzz: %s:%d: %s: ", file, line, cond);

	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", msg);
	__sanitizer_report_error_summary(msg);
	abort();
}

/* data as a NUL-terminated string in sb (emptied first). */
static inline void fuzz_text(struct strbuf *sb, const uint8_t *data, size_t size)
{
	strbuf_setlen(sb, 0);
	strbuf_add(sb, data, size);
}

#endif
