/*
 * monitor-sampler: the sampler alone, for bench/monitors.sh.  Runs the
 * monitors for SECONDS into DIR (raw files and <name>.json), activated at
 * once, then prints the CPU time used, in seconds:
 *
 *   thread_cpu_seconds     the sampling thread (what a run pays for its
 *                          monitors)
 *   sampling_cpu_seconds   the whole process up to sampler_stop (start-up
 *                          included)
 *   cpu_seconds            the whole process (with raw -> JSON at stop)
 *   floor_cpu_seconds      with -w: a second thread that only wakes on its
 *                          own timerfd at the same interval, half an
 *                          interval apart; what any sampler waking that
 *                          often pays on this machine before reading a
 *                          single file
 *   files, ticks           distinct files read, samples of the first
 *                          monitor
 *
 *   monitor-sampler [-a] [-b] [-w] [-i INTERVAL] [-r ROOT] [-m NAME,...] DIR SECONDS
 *
 * Without -m it samples lkp's default monitors (all perfbot has; none is a
 * perf-* one), each at its own default pace; -a samples all of them at
 * every tick.  -b only reads the files, at the same pace, and writes
 * nothing: the least any sampler of these files can cost here.
 * Unavailable monitors are listed on stderr with the reason.
 * Exit 0, or 1 when the sampler failed, 2 on a bad command line.
 */
#include "monitor/monitor.h"
#include "monitor/sampler.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: monitor-sampler [-a] [-b] [-w] [-i INTERVAL] [-r ROOT]\n"
			"                       [-m NAME,...] DIR SECONDS\n");
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

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The floor: wake every interval and do nothing else. */
struct floor {
	double interval;
	int timer_fd;
	atomic_int stop;
	double cpu;
	pthread_t thread;
};

static void *floor_main(void *arg)
{
	struct floor *f = arg;
	uint64_t n;

	while (!atomic_load(&f->stop))
		if (read(f->timer_fd, &n, sizeof(n)) < 0)
			break;
	f->cpu = thread_cpu();
	return NULL;
}

static void floor_start(struct floor *f, double interval)
{
	double sec = (double)(time_t)interval;
	struct itimerspec its = {
		.it_interval = { (time_t)sec, (long)((interval - sec) * 1e9) },
	};
	double half = interval / 2;

	its.it_value.tv_sec = (time_t)half;
	its.it_value.tv_nsec = (long)((half - (double)(time_t)half) * 1e9) + 1;
	f->interval = interval;
	f->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	atomic_init(&f->stop, 0);
	if (f->timer_fd < 0 || timerfd_settime(f->timer_fd, 0, &its, NULL) < 0 ||
	    pthread_create(&f->thread, NULL, floor_main, f)) {
		perror("monitor-sampler: floor thread");
		exit(EXIT_ERROR);
	}
}

static double floor_stop(struct floor *f)
{
	struct itimerspec now = { .it_value = { 0, 1 } };

	atomic_store(&f->stop, 1);
	timerfd_settime(f->timer_fd, 0, &now, NULL);
	pthread_join(f->thread, NULL);
	close(f->timer_fd);
	return f->cpu;
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
	double interval = 1, seconds, thread, floor_cpu = -1;
	struct sampler_opts o = { 0 };
	struct floor fl;
	bool with_floor = false;
	int files, ticks;
	const struct monitor **mons = NULL;
	struct strbuf why = STRBUF_INIT;
	struct sampler *s;
	struct held_dir hd;
	struct timespec ts;
	double before;
	int opt, ret;

	while ((opt = getopt(argc, argv, "abwi:r:m:")) != -1) {
		switch (opt) {
		case 'a':
			o.every_tick = true;
			break;
		case 'w':
			with_floor = true;
			break;
		case 'b':
			o.reads_only = true;
			break;
		case 'i':
			interval = atof(optarg);
			break;
		case 'r':
			o.root = optarg;
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
		if (!monitor_available(mons[i], o.root ? o.root : "", &why))
			fprintf(stderr, "monitor-sampler: %s unavailable: %s\n", mons[i]->name, why.buf);
	}
	o.interval = interval;
	if (held_dir_open(&hd, argv[optind]) < 0)
		return EXIT_ERROR;
	s = sampler_start_opts(mons, &hd, &o);
	if (!s)
		return EXIT_ERROR;
	if (with_floor)
		floor_start(&fl, interval);
	sampler_activate(s);
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0)
		;
	if (with_floor)
		floor_cpu = floor_stop(&fl);
	thread = sampler_cpu_seconds(s);
	files = sampler_files(s);
	ticks = mons[0] ? sampler_samples(s, mons[0]->name) : 0;
	before = cpu_seconds();
	ret = sampler_stop(s);
	held_dir_close(&hd);
	printf("thread_cpu_seconds: %.6f\n", thread);
	printf("sampling_cpu_seconds: %.6f\n", before);
	printf("cpu_seconds: %.6f\n", cpu_seconds());
	if (with_floor)
		printf("floor_cpu_seconds: %.6f\n", floor_cpu);
	printf("files: %d\nticks: %d\n", files, ticks);
	free(mons);
	strbuf_release(&why);
	return ret < 0 ? EXIT_ERROR : 0;
}
