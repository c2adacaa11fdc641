/* perf.c: the perf-stat and perf-profile monitors (see perf.h). */
#include "monitor/perf.h"
#include "monitor/monitor.h"
#include "parse/parser.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/proc.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Events lkp's perf-stat monitor asks for, hardware first; those perf
 * counts here are kept. */
static const char *const stat_events[] = {
	"cpu-cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branch-misses",
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults",
};

void perf_probe(struct perf_caps *caps)
{
	struct strbuf list = STRBUF_INIT, out = STRBUF_INIT;
	int rc;

	memset(caps, 0, sizeof(*caps));
	strbuf_init(&caps->why, 0);
	strbuf_init(&caps->stat_events, 0);
	strbuf_init(&caps->unsupported, 0);
	caps->record_event = "cpu-clock";
	for (size_t i = 0; i < sizeof(stat_events) / sizeof(stat_events[0]); i++)
		strbuf_addf(&list, "%s%s", i ? "," : "", stat_events[i]);
	/* one perf stat of `true` tells which events count here */
	char *argv[] = { "perf", "stat", "-a", "-x", ",", "-e", list.buf, "--log-fd", "1", "--", "true", NULL };
	rc = capture_command(argv, NULL, &out);
	if (rc == 127) {
		strbuf_addstr(&caps->why, "perf not found (apt-get install linux-perf)");
		goto out;
	}
	if (rc != 0) {
		strbuf_addf(&caps->why, "perf stat -a failed (exit %d): no permission or no perf_event support", rc);
		goto out;
	}
	for (size_t i = 0; i < sizeof(stat_events) / sizeof(stat_events[0]); i++) {
		/* a line "<not supported>,,cpu-cycles,..." or "<not counted>" */
		const char *p = out.buf;
		bool supported = false, seen = false;
		size_t n = strlen(stat_events[i]);
		while ((p = strstr(p, stat_events[i]))) {
			const char *bol = p;
			while (bol > out.buf && bol[-1] != '\n')
				bol--;
			if ((p[n] == ',' || p[n] == ':' || p[n] == '\n') && p > out.buf && p[-1] == ',') {
				seen = true;
				if (!strncmp(bol, "<not", 4))
					supported = false;
				else
					supported = true;
				break;
			}
			p += n;
		}
		struct strbuf *dst = seen && supported ? &caps->stat_events : &caps->unsupported;
		strbuf_addf(dst, "%s%s", dst->len ? "," : "", stat_events[i]);
	}
	if (!caps->stat_events.len) {
		strbuf_addstr(&caps->why, "perf counts no event here");
		goto out;
	}
	caps->usable = true;
	/* cycles:pp needs a hardware PMU, which VMs usually lack; perf record
	 * would silently fall back to cpu-clock, so ask perf stat instead */
	if (!strncmp(caps->stat_events.buf, "cpu-cycles", 10))
		caps->record_event = "cycles:pp";
out:
	strbuf_release(&list);
	strbuf_release(&out);
}

void perf_caps_copy(struct perf_caps *dst, const struct perf_caps *src)
{
	dst->usable = src->usable;
	strbuf_init(&dst->why, 0);
	strbuf_init(&dst->stat_events, 0);
	strbuf_init(&dst->unsupported, 0);
	strbuf_add(&dst->why, src->why.buf, src->why.len);
	strbuf_add(&dst->stat_events, src->stat_events.buf, src->stat_events.len);
	strbuf_add(&dst->unsupported, src->unsupported.buf, src->unsupported.len);
	dst->record_event = src->record_event;
}

void perf_caps_release(struct perf_caps *caps)
{
	strbuf_release(&caps->why);
	strbuf_release(&caps->stat_events);
	strbuf_release(&caps->unsupported);
}

/* Whether a child of pid, or with depth > 0 a child's child, runs sleep. */
static bool runs_sleep_below(pid_t pid, int depth)
{
	struct strbuf kids = STRBUF_INIT, comm = STRBUF_INIT, path = STRBUF_INIT;
	bool found = false;
	char *save = NULL;

	if (proc_children(pid, PROC_CHILDREN_AUTO, &kids) < 0)
		goto out;
	for (char *tok = strtok_r(kids.buf, " \n", &save); tok && !found;
	     tok = strtok_r(NULL, " \n", &save)) {
		strbuf_reset(&path);
		strbuf_reset(&comm);
		strbuf_addf(&path, "/proc/%s/comm", tok);
		found = read_file_quiet(&comm, path.buf, 64) == 0 && !strcmp(comm.buf, "sleep\n");
		if (!found && depth > 0)
			found = runs_sleep_below((pid_t)atol(tok), depth - 1);
	}
out:
	strbuf_release(&kids);
	strbuf_release(&comm);
	strbuf_release(&path);
	return found;
}

/* perf is the child, or the guard's child when die_with_parent put a
 * guard between perfbot and perf (run_command.h): so two levels down */
bool perf_workload_started(pid_t perf)
{
	return runs_sleep_below(perf, 1);
}

/*
 * Stop a perf child the way a user would (SIGINT lets it flush), and reap.
 * perf starts its workload (our sleep) only once its events are open and
 * its file's header is written; a SIGINT before that kills it with
 * nothing written, which a short benchmark on a busy machine hits (perf
 * takes seconds to start at load 25).  So it is given up to 10 s to get
 * there first: a profile with few samples says more than none.
 */
static void perf_stop(struct perf_proc *p)
{
	if (!p->running)
		return;
	perf_record_wait_ready(p, 10);
	/* perf may have ended meanwhile (no events here): poll_command then
	 * reaped it and its pid is gone; -pid would be a signal to pid 1 */
	if (p->cp.pid <= 0) {
		p->running = false;
		return;
	}
	/* the group: perf and its sleep, as ^C would (the guard of
	 * die_with_parent ignores it) */
	kill(-p->cp.pid, SIGINT);
	/* perf record then writes out its buffers and header: seconds in an
	 * emulated guest (a SIGKILL then left a file perf report reads as
	 * empty), so a minute before it is killed */
	for (int i = 0; i < 6000; i++) {
		if (poll_command(&p->cp) != 1)
			break;
		usleep(10000);
	}
	if (p->cp.pid > 0)
		kill_command(&p->cp, 1);
	p->running = false;
}

/* Run a parser on a raw file and write <dir>/<name>.json from its lines,
 * both through the dir's fd. */
static int parse_to_json(const struct held_dir *dir, const char *parser_name, const char *monitor)
{
	struct strbuf raw = STRBUF_INIT, lines = STRBUF_INIT, json = STRBUF_INIT, path = STRBUF_INIT;
	const struct parser *p = parser_find(parser_name);
	int ret = -1, fd;

	path_join(&path, dir->path, monitor);
	if (!p) {
		error("no parser for '%s'", parser_name);
		goto out;
	}
	fd = held_dir_open_read(dir, monitor);
	if (fd < 0) {
		error("cannot read '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	int r = parser_read_fd(&raw, fd, path.buf);
	close(fd);
	if (r < 0)
		goto out;
	struct parse_input in = { raw.buf, raw.len, path.buf, dir->path };
	if (p->parse(&in, &lines) < 0)
		goto out;
	int n = monitor_stats_to_json(monitor, lines.buf, lines.len, &json);
	if (n < 0)
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s.json", monitor);
	ret = n ? held_dir_write(dir, path.buf, json.buf, json.len) : 0;
out:
	strbuf_release(&raw);
	strbuf_release(&lines);
	strbuf_release(&json);
	strbuf_release(&path);
	return ret;
}

int perf_stat_start(struct perf_proc *p, const struct perf_caps *caps,
		    const struct held_dir *dir, double interval)
{
	struct strbuf path = STRBUF_INIT, head = STRBUF_INIT, ms = STRBUF_INIT;
	int fd;

	memset(p, 0, sizeof(*p));
	path_join(&path, dir->path, "perf-stat");
	strbuf_addf(&ms, "%d", (int)(interval * 1000 + 0.5));
	char *argv[] = { "perf", "stat", "-a", "--scale", "-I", ms.buf, "-x", ",", "-e",
			 caps->stat_events.buf, "--log-fd", "1", "--", "sleep", "2147483647", NULL };
	/* lkp's raw file starts with the command line: its parser takes the
	 * event list from there */
	for (char **a = argv; *a; a++)
		strbuf_addf(&head, "%s%s", a == argv ? "" : " ", *a);
	strbuf_addch(&head, '\n');
	/* a new file of the new run dir, through its fd: never one (or a
	 * link) already there, never by the dir's name; perf writes its
	 * lines to the fd (--log-fd 1), never opening a path */
	fd = held_dir_create(dir, "perf-stat");
	if (fd < 0)
		goto fail;
	if (write(fd, head.buf, head.len) != (ssize_t)head.len) {
		error("cannot write '%s': %s", path.buf, strerror(errno));
		close(fd);
		goto fail;
	}
	child_process_init(&p->cp);
	p->cp.argv = argv;
	p->cp.out_fd = fd;
	p->cp.no_stdin = true;
	/* perf and its sleep die with perfbot, even by kill -9 */
	p->cp.new_pgrp = true;
	p->cp.die_with_parent = true;
	p->cp.err_path = "/dev/null";
	if (start_command(&p->cp) < 0) {
		close(fd);
		goto fail;
	}
	close(fd);
	p->running = true;
	p->raw_path = strbuf_detach(&path, NULL);
	strbuf_release(&head);
	strbuf_release(&ms);
	return 0;
fail:
	strbuf_release(&path);
	strbuf_release(&head);
	strbuf_release(&ms);
	return -1;
}

int perf_stat_finish(struct perf_proc *p, const struct held_dir *dir)
{
	int ret;

	perf_stop(p);
	ret = parse_to_json(dir, "perf-stat", "perf-stat");
	free(p->raw_path);
	p->raw_path = NULL;
	return ret;
}

int perf_record_start(struct perf_proc *p, const struct perf_caps *caps,
		      const struct held_dir *dir, double duration)
{
	struct strbuf data = STRBUF_INIT, dur = STRBUF_INIT;

	memset(p, 0, sizeof(*p));
	/* perf record opens -o itself (O_CREAT | O_TRUNC, following links):
	 * it inherits the held dir's fd and gets it as /proc/self/fd/<fd>,
	 * which leads to the run's dir wherever it is, not by the dir's
	 * name (fileio.h).  (-o -, perf's pipe mode, would need no path
	 * but loses what perf report --header reads.) */
	held_dir_proc_path(dir, "perf.data", &data);
	/* no exponent: busybox's sleep (a guest's) reads "2.14748e+09" as
	 * invalid and exits at once, which ended the profile after 60 ms */
	if (duration > 0 && duration < 2147483647.0)
		strbuf_addf(&dur, "%.3f", duration);
	else
		strbuf_addstr(&dur, "2147483647");
	/* -F 1000 with cpu-clock; lkp samples cycles every 1000003 events */
	bool cycles = !strcmp(caps->record_event, "cycles:pp");
	/* -B -N: no build-id pass over every sample at exit (perf report
	 * runs right after, on the same machine, so the files are those) */
	char *argv[] = { "perf", "record", "-q", "-a", "-g", "-B", "-N", "-e", (char *)caps->record_event,
			 cycles ? "-c" : "-F", cycles ? "1000003" : "1000",
			 "-o", data.buf, "--", "sleep", dur.buf, NULL };
	child_process_init(&p->cp);
	p->cp.argv = argv;
	p->cp.no_stdin = true;
	p->cp.new_pgrp = true;
	p->cp.die_with_parent = true;
	p->cp.out_path = "/dev/null";
	p->cp.err_path = "/dev/null";
	p->cp.keep_fd = dir->fd;
	if (start_command(&p->cp) < 0) {
		strbuf_release(&data);
		strbuf_release(&dur);
		return -1;
	}
	p->running = true;
	p->data_path = strbuf_detach(&data, NULL);
	strbuf_release(&dur);
	return 0;
}

int perf_record_wait_ready(struct perf_proc *p, double max_seconds)
{
	double end = now_seconds() + max_seconds;

	for (;;) {
		if (!p->running || poll_command(&p->cp) != 1)
			return -1;
		if (perf_workload_started(p->cp.pid))
			return 1;
		if (now_seconds() >= end)
			return 0;
		usleep(10000);
	}
}

/* perf report of data (a path perf opens: held_dir_proc_path's) into the
 * new file out of dir, through its fd; 0 or -1 with a message. */
static int report(const char *data, const struct held_dir *dir, const char *out,
		  char *const *extra)
{
	struct child_process cp;
	char *argv[24];
	int n = 0, r;

	argv[n++] = "perf";
	argv[n++] = "report";
	argv[n++] = "-i";
	argv[n++] = (char *)data;
	argv[n++] = "--stdio";
	for (; *extra && n < 22; extra++)
		argv[n++] = *extra;
	argv[n] = NULL;
	child_process_init(&cp);
	cp.argv = argv;
	cp.no_stdin = true;
	cp.out_fd = held_dir_create(dir, out);
	if (cp.out_fd < 0)
		return -1;
	cp.err_path = "/dev/null";
	cp.keep_fd = dir->fd;      /* for data, /proc/self/fd/<fd>/perf.data */
	r = start_command(&cp);
	close(cp.out_fd);
	if (r < 0)
		return -1;
	if (finish_command(&cp, 600, NULL) != FINISH_EXITED || !WIFEXITED(cp.status) ||
	    WEXITSTATUS(cp.status))
		return error("perf report of '%s/perf.data' failed", dir->path);
	return 0;
}

int perf_record_finish(struct perf_proc *p, const struct held_dir *dir)
{
	struct stat st;
	/* what lkp's monitor writes for its parser: header, children, folded
	 * callee chains, by shared object and symbol (not by command: the
	 * parser reads the symbol as the fifth field), and -U: no unresolved
	 * entries or frames, whose addresses change with every run (ASLR) */
	char *folded[] = { "--header", "-U", "--children", "-g", "folded,0.5,callee,function,percent",
			   "--sort=dso,symbol", NULL };
	/* what people read: the call graph of seed 000 */
	char *graph[] = { "--no-children", "-g", "graph,0.5,caller", "--percent-limit", "2", NULL };
	int ret = -1;

	if (!p->data_path)
		return 0;
	perf_stop(p);
	if (fstatat(dir->fd, "perf.data", &st, AT_SYMLINK_NOFOLLOW) < 0) {
		error("perf record wrote no '%s/perf.data'", dir->path);
		goto out;
	}
	if (report(p->data_path, dir, "perf-profile", folded) < 0 ||
	    report(p->data_path, dir, "perf-profile.txt", graph) < 0)
		goto out;
	ret = parse_to_json(dir, "perf-profile", "perf-profile");
	unlinkat(dir->fd, "perf.data", 0);
out:
	free(p->data_path);
	p->data_path = NULL;
	return ret;
}
