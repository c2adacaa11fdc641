/*
 * run_files.c: the files a run leaves besides the monitors': the
 * benchmark's parsed output, last_state, stats.json and machine.
 */
#include "run/run.h"
#include "run/run_impl.h"
#include "monitor/monitor.h"
#include "monitor/reduce.h"
#include "parse/parser.h"
#include "result/matrix.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/xalloc.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Parse the benchmark's stdout into <dir>/<testcase>.json. */
int run_parse_benchmark(struct run_ctx *rc)
{
	struct strbuf raw = STRBUF_INIT, lines = STRBUF_INIT, json = STRBUF_INIT, path = STRBUF_INIT;
	const struct parser *p = parser_find(rc->desc->testcase);
	const char *dir = rc->dir->path;
	int ret = -1, fd;

	if (!p || p->unimplemented_reason)
		p = parser_find("mytest");
	path_join(&path, dir, rc->desc->testcase);
	fd = held_dir_open_file(rc->dir, rc->desc->testcase, O_RDONLY, "read");
	if (fd < 0)
		goto out;
	int r = parser_read_fd(&raw, fd, path.buf);
	close(fd);
	if (r < 0)
		goto out;
	struct parse_input in = { raw.buf, raw.len, path.buf, dir };
	if (p->parse(&in, &lines) < 0)
		goto out;
	int n = monitor_stats_to_json(rc->desc->testcase, lines.buf, lines.len, &json);
	if (n < 0)
		goto out;
	if (n) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s.json", rc->desc->testcase);
		if (held_dir_write(rc->dir, path.buf, json.buf, json.len) < 0)
			goto out;
	} else {
		run_phase(rc, "benchmark printed no metric");
	}
	ret = 0;
out:
	strbuf_release(&raw);
	strbuf_release(&lines);
	strbuf_release(&json);
	strbuf_release(&path);
	return ret;
}


/*
 * Up to max_lines last lines of the file name in dir (its last 4 KiB at
 * most: a benchmark's stderr may be huge), control characters shown as
 * '?', each cut at 200 bytes, appended to lines one per line.
 */
static void file_tail(const struct held_dir *dir, const char *name, int max_lines,
		      struct strbuf *lines)
{
	char buf[4096];
	int fd = held_dir_open_read(dir, name);
	off_t size;
	ssize_t n;

	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size < 0 || lseek(fd, size > (off_t)sizeof(buf) ? size - (off_t)sizeof(buf) : 0,
			      SEEK_SET) < 0) {
		close(fd);
		return;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return;
	/* from the end: skip trailing newlines, then take max_lines lines */
	ssize_t end = n, start;
	while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r'))
		end--;
	start = end;
	for (int k = 0; k < max_lines && start > 0; k++) {
		start--;
		while (start > 0 && buf[start - 1] != '\n')
			start--;
	}
	for (ssize_t i = start; i < end;) {
		ssize_t j = i;
		while (j < end && buf[j] != '\n')
			j++;
		char *line = xstrndup(buf + i, (size_t)(j - i > 200 ? 200 : j - i));
		if (*line) {
			add_printable(lines, line);
			strbuf_addch(lines, '\n');
		}
		free(line);
		i = j + 1;
	}
}

/*
 * A benchmark that failed says so, with its exit status and the end of
 * its stderr (a shell's "bench: not found" is the whole story); one line
 * when its stderr ends in one.
 */
void run_report_failed_exit(const struct run_ctx *rc, int status)
{
	struct strbuf tail = STRBUF_INIT;

	file_tail(rc->dir, "stderr", 5, &tail);
	strbuf_rtrim(&tail);
	if (!tail.len)
		error("%s: the benchmark exited with status %d (run %d/%d), its stderr is empty",
		      rc->desc->testcase, status, rc->k, rc->n);
	else if (!strchr(tail.buf, '\n'))
		error("%s: the benchmark exited with status %d (run %d/%d): %s", rc->desc->testcase,
		      status, rc->k, rc->n, tail.buf);
	else {
		error("%s: the benchmark exited with status %d (run %d/%d), its stderr ends:",
		      rc->desc->testcase, status, rc->k, rc->n);
		for (const char *l = tail.buf; *l;) {
			const char *nl = strchrnul(l, '\n');
			fprintf(stderr, "    %.*s\n", (int)(nl - l), l);
			l = *nl ? nl + 1 : nl;
		}
	}
	strbuf_release(&tail);
}

/*
 * The machine the run happened on, as lkp's hosts/ files describe one
 * (model, nr_node, nr_cpu, memory), so that a report written elsewhere
 * later still says what ran the test.
 */
int run_write_machine(const char *root, const struct run_ctx *rc)
{
	struct strbuf cpuinfo = STRBUF_INIT, meminfo = STRBUF_INIT, s = STRBUF_INIT, path = STRBUF_INIT;
	const char *model = NULL;
	unsigned long long mem_kb = 0;
	int nodes = 0, ret;

	root_path(&path, root, "/proc/cpuinfo");
	if (read_file(&cpuinfo, path.buf) == 0) {
		char *p = strstr(cpuinfo.buf, "model name");
		if (p && (p = strchr(p, ':'))) {
			char *nl = strchr(p, '\n');
			if (nl)
				*nl = '\0';
			model = p + 1 + strspn(p + 1, " \t");
		}
	}
	strbuf_reset(&path);
	root_path(&path, root, "/proc/meminfo");
	if (read_file(&meminfo, path.buf) == 0) {
		const char *p = strstr(meminfo.buf, "MemTotal:");
		if (p)
			mem_kb = strtoull(p + 9, NULL, 10);
	}
	while (1) {
		strbuf_reset(&path);
		root_path(&path, root, "/sys/devices/system/node/");
		strbuf_addf(&path, "node%d", nodes);
		if (!is_dir(path.buf))
			break;
		nodes++;
	}
	strbuf_reset(&path);
	strbuf_addstr(&s, "# written by perfbot run, as lkp-tests hosts/ files say it\n");
	if (model)
		strbuf_addf(&s, "model: %s\n", model);
	strbuf_addf(&s, "nr_node: %d\n", nodes ? nodes : 1);
	strbuf_addf(&s, "nr_cpu: %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	if (mem_kb) {
		unsigned long long gb = (mem_kb + 524288) / 1048576;  /* nearest GiB */
		strbuf_addf(&s, "memory: %lluG\n", gb ? gb : 1);
	}
	if (rc->isolation.len || rc->has_mw) {
		strbuf_addstr(&s, "# during the run (run/meanwhile.h): CPU in percent of one CPU\n");
		if (rc->isolation.len)
			strbuf_addf(&s, "isolation: %s\n", rc->isolation.buf);
		if (rc->has_mw)
			meanwhile_lines(&rc->mw, &s);
	}
	ret = held_dir_write(rc->dir, "machine", s.buf, s.len);
	strbuf_release(&cpuinfo);
	strbuf_release(&meminfo);
	strbuf_release(&s);
	strbuf_release(&path);
	return ret;
}

int run_write_last_state(struct run_ctx *rc, const struct outcome *o)
{
	struct strbuf s = STRBUF_INIT;
	int ret;

	strbuf_addf(&s, "is_incomplete_run: %d\n", o->incomplete);
	strbuf_addf(&s, "exit_status: %d\n", o->exit_status);
	strbuf_addf(&s, "timeout: %s\n", o->timeout ? "true" : "false");
	strbuf_addf(&s, "interrupted: %s\n", o->interrupted ? "true" : "false");
	if (o->why)
		strbuf_addf(&s, "reason: %s\n", o->why);
	if (rc->isolation.len)
		strbuf_addf(&s, "isolation: %s\n", rc->isolation.buf);
	if (rc->skipped_monitors.len || rc->desc->missing.len) {
		strbuf_addstr(&s, "skipped_monitors:\n");
		for (const char *l = rc->skipped_monitors.buf; *l;) {
			const char *nl = strchr(l, '\n');
			strbuf_addstr(&s, "  ");
			strbuf_add(&s, l, (size_t)(nl - l + 1));
			l = nl + 1;
		}
		if (rc->desc->missing.len)
			strbuf_addf(&s, "  not in perfbot yet: %s\n", rc->desc->missing.buf);
	}
	ret = held_dir_write(rc->dir, "last_state", s.buf, s.len);
	strbuf_release(&s);
	return ret;
}

static void put_stat(struct matrix *stats, const char *name, double v)
{
	struct metric *m = matrix_get_or_add(stats, name);
	m->v[0] = v;
	m->is_int[0] = true;
}

/* A figure rounded to 0.01 (a float in stats.json), when known (>= 0). */
static void put_figure(struct matrix *stats, const char *name, double v)
{
	if (v < 0)
		return;
	struct metric *m = matrix_get_or_add(stats, name);
	m->v[0] = round(v * 100) / 100;
	m->is_int[0] = false;
}

/* machine.* (meanwhile.h) */
static void put_meanwhile(struct matrix *stats, const struct meanwhile *mw)
{
	put_figure(stats, "machine.other_cpu_percent", mw->other_cpu);
	put_figure(stats, "machine.run_cpu_percent", mw->run_cpu);
	put_figure(stats, "machine.steal_percent", mw->steal);
	put_figure(stats, "machine.loadavg_start", mw->load_start);
	put_figure(stats, "machine.loadavg_end", mw->load_end);
	if (mw->has_throttled) {
		put_stat(stats, "machine.nr_throttled", (double)mw->nr_throttled);
		put_stat(stats, "machine.throttled_usec", (double)mw->throttled_usec);
	}
}

int run_write_stats(struct run_ctx *rc, const struct outcome *o)
{
	struct matrix stats;
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	matrix_init(&stats);
	stats.ncols = 1;
	if (monitors_to_stats(rc->dir, &stats) < 0)
		goto out;
	if (rc->has_instructions) {
		/* beside the benchmark's own metrics, under its name; not in
		 * <testcase>.json, whose repeated keys are samples */
		strbuf_addf(&text, "%s.instructions", rc->desc->testcase);
		put_stat(&stats, text.buf, (double)rc->instructions);
		strbuf_reset(&text);
	}
	put_stat(&stats, "last_state.is_incomplete_run", o->incomplete);
	if (o->failed_exit)
		put_stat(&stats, "last_state.exit_fail", 1);
	if (rc->has_mw)
		put_meanwhile(&stats, &rc->mw);
	stats_to_json(&stats, &text);
	ret = held_dir_write(rc->dir, "stats.json", text.buf, text.len);
out:
	matrix_release(&stats);
	strbuf_release(&text);
	return ret;
}
