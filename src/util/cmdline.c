/* cmdline.c: where the options end (see cmdline.h). */
#include "util/cmdline.h"

#include <string.h>

/* Whether the long option named by arg (after "--", up to '=' or the end)
 * takes the next argument: an exact name wins, else the first one it
 * abbreviates, as getopt_long matches them. */
static int long_takes_next(const char *arg, const struct option *longopts)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *hit = NULL;

	if (eq || !longopts)
		return 0;
	for (const struct option *o = longopts; o->name; o++) {
		if (strncmp(o->name, arg, len))
			continue;
		if (strlen(o->name) == len) {
			hit = o;
			break;
		}
		if (!hit)
			hit = o;
	}
	return hit && hit->has_arg == required_argument;
}

/* Whether the cluster of short options arg (after "-") ends by taking the
 * next argument: an option with an argument and nothing after it. */
static int short_takes_next(const char *arg, const char *shortopts)
{
	if (*shortopts == '+' || *shortopts == '-')
		shortopts++;
	if (*shortopts == ':')
		shortopts++;
	for (const char *p = arg; *p; p++) {
		const char *o = *p == ':' ? NULL : strchr(shortopts, *p);
		if (!o)
			continue;       /* getopt reports it; its argument is not ours */
		if (o[1] == ':' && o[2] != ':')
			return p[1] == '\0';
		if (o[1] == ':')        /* optional argument: only attached */
			return 0;
	}
	return 0;
}

int cmdline_end(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			return i;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		if (a[1] == '-' ? long_takes_next(a + 2, longopts) : short_takes_next(a + 1, shortopts))
			i++;
	}
	return argc;
}
