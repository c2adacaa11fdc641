/* error.c: the message printers of error.h. */
#include "util/error.h"
#include "util/printable.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* as git's vreportf: a message quotes what others wrote (a commit
	 * subject, a lab's error, a file's line), never a terminal escape */
	make_printable(msg, strlen(msg), true);
	fprintf(stderr, "perfbot: %s%s\n", prefix, msg);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(EXIT_ERROR);
}
