/*
 * monitor-sampler: a developer's entry point to the sampler until
 * `perfbot run` exists.  Runs the monitors for SECONDS into DIR (raw files
 * and <name>.json), activated at once, then prints the CPU time it used:
 * "sampling_cpu_seconds: X" up to sampler_stop (sampling only), and
 * "cpu_seconds: Y" in all (with the raw -> JSON stage at stop).
 *
 *   monitor-sampler [-i INTERVAL] [-r ROOT] [-m NAME,NAME...] DIR SECONDS
 *
 * Without -m it samples lkp's default monitors (all perfbot has; none is a
 * perf-* one).  Unavailable monitors are listed on stderr with the reason.
 * Exit 0, or 1 when the sampler failed, 2 on a bad command line.
 */
#include "monitor/monitor.h"
#include "monitor/sampler.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: monitor-sampler [-i INTERVAL] [-r ROOT] [-m NAME,...] DIR SECONDS\n");
	exit(EXIT_USAGE);
}

/* user + system time of this process so far */
static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static const struct monitor **named(char *list)
{
	const struct monitor **mons = xcalloc(strlen(list) + 2, sizeof(*mons));
	size_t n = 0;

	for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
		if (!(mons[n++] = monitor_find(name))) {
			fprintf(stderr, "monitor-sampler: no monitor '%s'\n", name);
			exit(EXIT_USAGE);
		}
	}
	return mons;
}

int main(int argc, char **argv)
{
	double interval = 1, seconds;
	const char *root = "";
	const struct monitor **mons = NULL;
	struct strbuf why = STRBUF_INIT;
	struct sampler *s;
	struct timespec ts;
	double before;
	int opt, ret;

	while ((opt = getopt(argc, argv, "i:r:m:")) != -1) {
		switch (opt) {
		case 'i':
			interval = atof(optarg);
			break;
		case 'r':
			root = optarg;
			break;
		case 'm':
			mons = named(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || (seconds = atof(argv[optind + 1])) <= 0)
		usage();
	if (!mons)
		mons = monitor_default_list();
	for (int i = 0; mons[i]; i++) {
		strbuf_reset(&why);
		if (!monitor_available(mons[i], root, &why))
			fprintf(stderr, "monitor-sampler: %s unavailable: %s\n", mons[i]->name, why.buf);
	}
	s = sampler_start_root(mons, interval, argv[optind], root);
	if (!s)
		return EXIT_ERROR;
	sampler_activate(s);
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0)
		;
	before = cpu_seconds();
	ret = sampler_stop(s);
	printf("sampling_cpu_seconds: %.6f\n", before);
	printf("cpu_seconds: %.6f\n", cpu_seconds());
	free(mons);
	strbuf_release(&why);
	return ret < 0 ? EXIT_ERROR : 0;
}
