/*
 * time: the benchmark's resource usage, as GNU time -v reports it.
 *
 * lkp runs the benchmark under `/usr/bin/time -v` and its stats script
 * turns each "\tName (unit): value" line into name_without_units: value
 * (user_time, elapsed_time, maximum_resident_set_size, ...).  perfbot
 * already has the wait4() rusage and the wall clock, so it writes the same
 * text itself (time_format_gnu) and parses it back with lkp's rules; lkp's
 * reduction then adds time.elapsed_time.max.  Not sampled: one record per
 * run.
 */
#include "monitor/monitor.h"
#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern const struct monitor monitor_time;

static long long ms_of(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000 + tv->tv_usec / 1000;
}

void time_format_gnu(const struct time_result *r, struct strbuf *out)
{
	const struct rusage *ru = &r->ru;
	long long cpu_ms = ms_of(&ru->ru_utime) + ms_of(&ru->ru_stime);
	/* GNU time's averages divide by the CPU time in 100 Hz ticks */
	long long ticks = cpu_ms / 10;
	long long el_ns = (long long)(r->end.tv_sec - r->start.tv_sec) * 1000000000LL +
			  (r->end.tv_nsec - r->start.tv_nsec);
	long long el_s, el_ms;
	long page = r->page_size ? r->page_size : sysconf(_SC_PAGESIZE);

	if (el_ns < 0)
		el_ns = 0;
	el_s = el_ns / 1000000000LL;
	el_ms = el_ns / 1000000LL;

	if (WIFSTOPPED(r->status))
		strbuf_addf(out, "Command stopped by signal %d\n", WSTOPSIG(r->status));
	else if (WIFSIGNALED(r->status))
		strbuf_addf(out, "Command terminated by signal %d\n", WTERMSIG(r->status));
	else if (WIFEXITED(r->status) && WEXITSTATUS(r->status))
		strbuf_addf(out, "Command exited with non-zero status %d\n",
			    WEXITSTATUS(r->status));
	strbuf_addf(out, "\tCommand being timed: \"%s\"\n", r->command ? r->command : "");
	strbuf_addf(out, "\tUser time (seconds): %ld.%02ld\n",
		    (long)ru->ru_utime.tv_sec, (long)ru->ru_utime.tv_usec / 10000);
	strbuf_addf(out, "\tSystem time (seconds): %ld.%02ld\n",
		    (long)ru->ru_stime.tv_sec, (long)ru->ru_stime.tv_usec / 10000);
	if (el_ms > 0)
		strbuf_addf(out, "\tPercent of CPU this job got: %lld%%\n", cpu_ms * 100 / el_ms);
	else
		strbuf_addstr(out, "\tPercent of CPU this job got: ?%\n");
	if (el_s >= 3600)
		strbuf_addf(out, "\tElapsed (wall clock) time (h:mm:ss or m:ss): %lld:%02lld:%02lld\n",
			    el_s / 3600, el_s % 3600 / 60, el_s % 60);
	else
		strbuf_addf(out, "\tElapsed (wall clock) time (h:mm:ss or m:ss): %lld:%02lld.%02lld\n",
			    el_s / 60, el_s % 60, el_ns % 1000000000LL / 10000000LL);
	strbuf_addf(out, "\tAverage shared text size (kbytes): %lld\n",
		    ticks ? (long long)ru->ru_ixrss / ticks : 0);
	strbuf_addf(out, "\tAverage unshared data size (kbytes): %lld\n",
		    ticks ? ((long long)ru->ru_idrss + ru->ru_isrss) / ticks : 0);
	strbuf_addf(out, "\tAverage stack size (kbytes): %lld\n",
		    ticks ? (long long)ru->ru_isrss / ticks : 0);
	strbuf_addf(out, "\tAverage total size (kbytes): %lld\n",
		    ticks ? ((long long)ru->ru_idrss + ru->ru_isrss + ru->ru_ixrss) / ticks : 0);
	strbuf_addf(out, "\tMaximum resident set size (kbytes): %ld\n", ru->ru_maxrss);
	strbuf_addf(out, "\tAverage resident set size (kbytes): %lld\n",
		    ticks ? (long long)ru->ru_idrss / ticks : 0);
	strbuf_addf(out, "\tMajor (requiring I/O) page faults: %ld\n", ru->ru_majflt);
	strbuf_addf(out, "\tMinor (reclaiming a frame) page faults: %ld\n", ru->ru_minflt);
	strbuf_addf(out, "\tVoluntary context switches: %ld\n", ru->ru_nvcsw);
	strbuf_addf(out, "\tInvoluntary context switches: %ld\n", ru->ru_nivcsw);
	strbuf_addf(out, "\tSwaps: %ld\n", ru->ru_nswap);
	strbuf_addf(out, "\tFile system inputs: %ld\n", ru->ru_inblock);
	strbuf_addf(out, "\tFile system outputs: %ld\n", ru->ru_oublock);
	strbuf_addf(out, "\tSocket messages sent: %ld\n", ru->ru_msgsnd);
	strbuf_addf(out, "\tSocket messages received: %ld\n", ru->ru_msgrcv);
	strbuf_addf(out, "\tSignals delivered: %ld\n", ru->ru_nsignals);
	strbuf_addf(out, "\tPage size (bytes): %ld\n", page);
	strbuf_addf(out, "\tExit status: %d\n", WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 0);
}

/*
 * lkp's key: leading blanks dropped, every " (...)" dropped, blank runs
 * as '_', lowercase ("Major (requiring I/O) page faults" -> major_page_faults).
 */
static void time_key(const char *k, size_t len, struct strbuf *out)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)k[i]))
		i++;
	while (i < len) {
		if (k[i] == ' ' && i + 1 < len && k[i + 1] == '(') {
			const char *close = memchr(k + i + 2, ')', len - i - 2);
			if (close && close > k + i + 2) {
				i = (size_t)(close - k) + 1;
				continue;
			}
		}
		if (isspace((unsigned char)k[i])) {
			while (i < len && isspace((unsigned char)k[i]))
				i++;
			strbuf_addch(out, '_');
			continue;
		}
		strbuf_addch(out, tolower((unsigned char)k[i++]));
	}
}

/* "h:mm:ss" or "m:ss.cc" as seconds, Ruby's inject(0) { tt * 60 + t.to_f } */
static double elapsed_seconds(const char *v, size_t len)
{
	double t = 0;
	size_t i = 0;

	while (i <= len) {
		const char *colon = memchr(v + i, ':', len - i);
		size_t end = colon ? (size_t)(colon - v) : len;
		char part[64];
		size_t n = end - i < sizeof(part) - 1 ? end - i : sizeof(part) - 1;

		memcpy(part, v + i, n);
		part[n] = '\0';
		t = t * 60 + strtod(part, NULL);
		if (!colon)
			break;
		i = end + 1;
	}
	return t;
}

static int parse_raw(const struct monitor *m, const char *buf, size_t len,
		     const char *name, stats_sink_fn sink, void *ctx)
{
	struct strbuf out = STRBUF_INIT, key = STRBUF_INIT;
	struct line_iter it;
	struct line l;
	int ret;

	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		const char *sep, *val, *vend;

		if (memmem(l.s, l.len, "Command being timed: ", 21))
			continue;
		sep = memmem(l.s, l.len, ": ", 2);
		if (!sep)
			continue;
		val = sep + 2;
		vend = memmem(val, (size_t)(l.s + l.len - val), ": ", 2);
		if (!vend)
			vend = l.s + l.len;
		if (val == vend)
			continue;
		strbuf_reset(&key);
		time_key(l.s, (size_t)(sep - l.s), &key);
		/* "\t: x" has no key: a stats line without one (found by fuzzing) */
		if (!key.len)
			continue;
		strbuf_addf(&out, "%s: ", key.buf);
		if (!strcmp(key.buf, "elapsed_time")) {
			fmt_ruby_float(&out, elapsed_seconds(val, (size_t)(vend - val)));
		} else if (!strcmp(key.buf, "percent_of_cpu_this_job_got") &&
			   vend == l.s + l.len && vend > val && vend[-1] == '%') {
			/* chomp("%\n"), and "?" (no elapsed time) as 0 */
			if (vend - val == 2 && val[0] == '?')
				strbuf_addch(&out, '0');
			else
				strbuf_add(&out, val, (size_t)(vend - val - 1));
		} else {
			strbuf_add(&out, val, (size_t)(vend - val));
		}
		strbuf_addch(&out, '\n');
	}
	ret = sink(ctx, out.buf, out.len);
	strbuf_release(&out);
	strbuf_release(&key);
	return ret;
}

int time_write(const struct held_dir *dir, const struct time_result *r)
{
	struct strbuf text = STRBUF_INIT, lines = STRBUF_INIT, json = STRBUF_INIT,
		path = STRBUF_INIT;
	int ret;

	time_format_gnu(r, &text);
	path_join(&path, dir->path, "time");
	ret = held_dir_write(dir, "time", text.buf, text.len);
	if (!ret)
		ret = monitor_parse(&monitor_time, text.buf, text.len, path.buf, &lines);
	if (!ret)
		ret = monitor_stats_to_json("time", lines.buf, lines.len, &json);
	if (ret > 0)
		ret = held_dir_write(dir, "time.json", json.buf, json.len);
	strbuf_release(&text);
	strbuf_release(&lines);
	strbuf_release(&json);
	strbuf_release(&path);
	return ret < 0 ? -1 : 0;
}

const struct monitor monitor_time = {
	.name = "time",
	.files = "wait4() rusage of the benchmark and the wall clock",
	.flags = MONITOR_NOT_SAMPLED,
	.parse_raw = parse_raw,
};
