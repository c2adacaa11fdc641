/*
 * bench_names.c: the registered benchmark names (bench_names.h).
 */
#include "job/bench_names.h"

#include <string.h>

static const char *const names[] = {
#define RUNNER(ident, name) name,
#include "job/runners.h"
#undef RUNNER
	NULL
};

bool bench_registered(const char *name)
{
	for (const char *const *n = names; *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

const char *const *bench_registered_names(void)
{
	return names;
}
