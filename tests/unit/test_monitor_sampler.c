/*
 * Unit tests of the sampler (src/monitor/sampler.c): short real runs at
 * 100 ms on the live /proc and on the canned tree of tests/data/monitor,
 * checking the raw files' lkp format and the JSON series; the time
 * monitor's files; raw -> JSON on lkp-format text; error paths.
 */
#include "test_helpers.h"
#include "monitor/monitor.h"
#include "monitor/reduce.h"
#include "monitor/sampler.h"
#include "result/matrix.h"

#include <json.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <time.h>

#define ROOT "tests/data/monitor/root"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0)
		;
}

/* dir held open, as a run holds its dir (util/fileio.h) */
static void hold(struct held_dir *hd, const char *dir)
{
	assert_int_equal(held_dir_open(hd, dir), 0);
}

static void read_in(struct strbuf *sb, const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_reset(sb);
	path_join(&p, dir, name);
	assert_int_equal(read_file(sb, p.buf), 0);
	strbuf_release(&p);
}

static int count_prefix(const char *text, const char *prefix)
{
	int n = 0;
	size_t len = strlen(prefix);

	for (const char *p = text; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, prefix, len))
			n++;
	}
	return n;
}

/*
 * Check <name>.json: every series has n samples (when rectangular), the
 * "<name>.time" series included when expected.  Returns the metric count.
 */
static int check_series(const char *dir, const char *name, int n, bool has_time)
{
	struct strbuf json = STRBUF_INIT, file = STRBUF_INIT, key = STRBUF_INIT;
	json_object *root, *t;
	int metrics = 0;

	strbuf_addf(&file, "%s.json", name);
	read_in(&json, dir, file.buf);
	root = json_tokener_parse(json.buf);
	assert_non_null(root);
	strbuf_addf(&key, "%s.time", name);
	assert_int_equal(json_object_object_get_ex(root, key.buf, &t), has_time);
	json_object_object_foreach(root, k, v) {
		assert_true(json_object_is_type(v, json_type_array));
		assert_true(!strncmp(k, name, strlen(name)) && k[strlen(name)] == '.');
		if ((int)json_object_array_length(v) != n)
			fail_msg("%s: %s has %d samples, expected %d", name, k,
				 (int)json_object_array_length(v), n);
		metrics++;
	}
	json_object_put(root);
	strbuf_release(&json);
	strbuf_release(&file);
	strbuf_release(&key);
	return metrics;
}

/* Run monitors for ~250 ms at 100 ms; returns the dir. */
static char *run_opts(const struct monitor **mons, const struct sampler_opts *o)
{
	char *dir = test_tmpdir("sampler");
	struct held_dir hd;
	hold(&hd, dir);
	struct sampler *s = sampler_start_opts(mons, &hd, o);

	assert_non_null(s);
	sleep_ms(50);
	assert_int_equal(sampler_samples(s, "proc-vmstat"), 0);   /* not active yet */
	sampler_activate(s);
	sleep_ms(250);
	assert_true(sampler_samples(s, "proc-vmstat") >= 1);
	assert_int_equal(sampler_samples(s, "no-such-monitor"), -1);
	assert_true(sampler_cpu_seconds(s) >= 0);
	assert_int_equal(sampler_stop(s), 0);
	held_dir_close(&hd);
	return dir;
}

static char *run(const char *root, const struct monitor **mons)
{
	struct sampler_opts o = { .interval = 0.1, .root = root };

	return run_opts(mons, &o);
}

/* Samples in raw file <dir>/<name> of lkp's layout. */
static int samples_in(const char *dir, const char *name)
{
	struct strbuf raw = STRBUF_INIT;
	int n;

	read_in(&raw, dir, name);
	n = count_prefix(raw.buf, "time: ");
	strbuf_release(&raw);
	return n;
}

static void test_live_run(void **state)
{
	const struct monitor **mons = monitor_default_list();
	struct strbuf raw = STRBUF_INIT, why = STRBUF_INIT;
	char *dir = run("", mons);
	int n = -1;

	for (int i = 0; mons[i]; i++) {
		const struct monitor *m = mons[i];
		struct strbuf p = STRBUF_INIT;
		int samples;

		strbuf_reset(&why);
		path_join(&p, dir, m->name);
		if (!monitor_available(m, "", &why)) {
			assert_false(file_exists(p.buf));
			strbuf_release(&p);
			continue;
		}
		read_in(&raw, dir, m->name);
		if (m->flags & MONITOR_STREAM) {
			/* kmsg: the kernel's lines, if it said anything
			 * (tests/unit/test_kmsg.c checks them) */
			assert_true(!raw.len || raw.buf[raw.len - 1] == '\n');
			strbuf_release(&p);
			continue;
		}
		if (!strcmp(m->name, "vmstat")) {
			/* vmstat's own layout: two header lines, one row a sample */
			assert_true(!strncmp(raw.buf, "procs -----------memory----------", 33));
			assert_non_null(strstr(raw.buf, "\n r  b   swpd   free"));
			samples = -2;
			for (size_t j = 0; j < raw.len; j++)
				samples += raw.buf[j] == '\n';
		} else if (!strcmp(m->name, "iostat")) {
			/* iostat's own: a report per sample but the first */
			assert_true(!strncmp(raw.buf, "20", 2));
			samples = count_prefix(raw.buf, "avg-cpu:") + 1;
		} else {
			/* lkp's layout: "time: <epoch>" then the file */
			assert_true(!strncmp(raw.buf, "time: ", 6));
			samples = count_prefix(raw.buf, "time: ");
		}
		/* at 0, 100, 200 ms and at stop (250 ms), give or take a busy
		 * machine; a monitor sampled every 10 s (slabinfo) or at the
		 * start and end only (interrupts) at the first and the last */
		if (m->interval > 0 || (m->flags & MONITOR_START_END)) {
			assert_int_equal(samples, 2);
		} else {
			assert_in_range(samples, 2, 6);
			if (n < 0)
				n = samples;
			assert_int_equal(samples, n);
		}
		if (strcmp(m->name, "slabinfo") && strcmp(m->name, "meminfo"))
			assert_true(check_series(dir, m->name,
						 strcmp(m->name, "iostat") ? samples : samples - 1,
						 true) > 0);
		strbuf_release(&p);
	}
	/* the integer-second time of proc-vmstat, the ns one of softirqs */
	read_in(&raw, dir, "proc-vmstat");
	assert_true(raw.buf[16] == '\n');
	read_in(&raw, dir, "softirqs");
	assert_true(raw.buf[16] == '.' && raw.buf[26] == '\n');
	read_in(&raw, dir, "proc-vmstat.json");
	assert_non_null(strstr(raw.buf, "\"proc-vmstat.pgfree\": ["));
	read_in(&raw, dir, "vmstat.json");
	assert_non_null(strstr(raw.buf, "\"vmstat.cpu.id\": ["));
	free(mons);
	strbuf_release(&raw);
	strbuf_release(&why);
	test_rm_rf(dir);
	free(dir);
}

/* The canned tree does not change: every sample reads the same values. */
static void test_canned_run(void **state)
{
	const struct monitor *const *all = monitor_all();
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	struct matrix stats;
	char *dir = run(ROOT, (const struct monitor **)all);
	int n;

	read_in(&raw, dir, "cpufreq");
	n = count_prefix(raw.buf, "time: ");
	assert_in_range(n, 2, 6);
	assert_non_null(strstr(raw.buf, "\ncpu0.time_in_state.3000000: 1000\n"
				       "cpu0.time_in_state.2000000: 2000\n"
				       "cpu0.time_in_state.1200000: 3000\n"
				       "cpu0.total_trans: 40\n"
				       "cpu1.time_in_state.3000000: 1001\n"));
	read_in(&raw, dir, "cpuidle");
	assert_non_null(strstr(raw.buf, "\ncpu1.haltpoll-idle.usage: "));
	read_in(&raw, dir, "numa-meminfo");
	assert_non_null(strstr(raw.buf, "\nnode: 0\nNode 0 MemTotal: "));
	check_series(dir, "cpufreq", n, true);
	check_series(dir, "interrupts", 2, true);    /* start and end only */
	check_series(dir, "numa-numastat", n, true);
	check_series(dir, "diskstats", n, true);
	check_series(dir, "vmstat", n, true);
	{
		struct strbuf t = STRBUF_INIT;
		path_join(&t, dir, "time");
		assert_false(file_exists(t.buf));   /* never sampled */
		strbuf_release(&t);
	}

	/* then the run stage: event counters of an unchanging tree are 0 */
	matrix_init(&stats);
	struct held_dir hd;
	hold(&hd, dir);
	assert_int_equal(monitors_to_stats(&hd, &stats), 0);
	held_dir_close(&hd);
	assert_true(stats.m[matrix_find(&stats, "cpufreq.cpu1.total_trans")].v[0] == 41);
	assert_true(stats.m[matrix_find(&stats, "interrupts.CPU0.LOC:Local_timer_interrupts")].v[0] == 0);
	assert_true(stats.m[matrix_find(&stats, "numa-numastat.node0.numa_hit")].v[0] == 0);
	assert_true(stats.m[matrix_find(&stats, "softirqs.RCU")].v[0] == 0);
	assert_true(matrix_find(&stats, "proc-vmstat.time") < 0);
	/* later vmstat rows: no CPU time passed, so all idle */
	assert_true(matrix_find(&stats, "vmstat.cpu.id") >= 0);
	stats_to_json(&stats, &out);
	matrix_release(&stats);
	strbuf_release(&raw);
	strbuf_release(&out);
	test_rm_rf(dir);
	free(dir);
}

/* The job's intervals override the monitors' own; -a's every_tick all. */
static void test_intervals(void **state)
{
	const struct monitor *mons[] = {
		monitor_find("proc-vmstat"), monitor_find("interrupts"),
		monitor_find("slabinfo"), monitor_find("softirqs"), NULL
	};
	/* every tick for interrupts, every 3 for proc-vmstat, defaults for
	 * the others (slabinfo: 10 s, softirqs: start and end) */
	double intervals[] = { 0.3, 0.1, 0, 0 };
	struct sampler_opts o = { .interval = 0.1, .root = ROOT, .intervals = intervals };
	char *dir = run_opts((const struct monitor **)mons, &o);
	int n = samples_in(dir, "interrupts");

	assert_in_range(n, 3, 6);
	/* ticks 0 and 3 at 0 and 300 ms... the stop at ~250 ms adds the last */
	assert_in_range(samples_in(dir, "proc-vmstat"), 2, 3);
	assert_true(samples_in(dir, "proc-vmstat") < n);
	assert_int_equal(samples_in(dir, "slabinfo"), 2);
	assert_int_equal(samples_in(dir, "softirqs"), 2);
	test_rm_rf(dir);
	free(dir);

	/* reads only: the same reads, nothing written */
	o.reads_only = true;
	dir = run_opts((const struct monitor **)mons, &o);
	{
		struct strbuf cmd = STRBUF_INIT;
		strbuf_addf(&cmd, "test -z \"$(ls -A '%s')\"", dir);
		assert_int_equal(system(cmd.buf), 0);
		strbuf_release(&cmd);
	}
	test_rm_rf(dir);
	free(dir);

	/* a monitor asked for more than the run's interval sets the tick:
	 * at 0.05 s, interrupts samples about three times as often as
	 * proc-vmstat at the run's 0.15 s */
	o.reads_only = false;
	o.interval = 0.15;
	intervals[0] = 0;
	intervals[1] = 0.05;
	dir = run_opts((const struct monitor **)mons, &o);
	n = samples_in(dir, "interrupts");
	assert_true(n >= 4);
	assert_true(samples_in(dir, "proc-vmstat") < n);
	assert_in_range(samples_in(dir, "proc-vmstat"), 2, 4);
	test_rm_rf(dir);
	free(dir);

	o.interval = 0.1;
	o.intervals = NULL;
	o.every_tick = true;
	dir = run_opts((const struct monitor **)mons, &o);
	n = samples_in(dir, "proc-vmstat");
	assert_in_range(n, 3, 6);
	assert_int_equal(samples_in(dir, "interrupts"), n);
	assert_int_equal(samples_in(dir, "slabinfo"), n);
	assert_int_equal(samples_in(dir, "softirqs"), n);
	test_rm_rf(dir);
	free(dir);
}

/*
 * Many samples: the log is written out several times over (at 256 KiB and
 * at 8192 samples), and every raw file still holds each sample whole and
 * in order.  The canned tree does not change, so every sample of a
 * monitor must read the same.
 */
static void test_many_samples(void **state)
{
	const struct monitor *const *all = monitor_all();
	struct sampler_opts o = { .interval = 0.0005, .root = ROOT, .every_tick = true };
	char *dir = test_tmpdir("sampler");
	struct held_dir hd;
	hold(&hd, dir);
	struct sampler *s = sampler_start_opts(all, &hd, &o);
	struct strbuf raw = STRBUF_INIT;
	const char *names[] = { "proc-vmstat", "interrupts", "numa-meminfo", "cpuidle" };
	int n;

	assert_non_null(s);
	sampler_activate(s);
	while ((n = sampler_samples(s, "proc-vmstat")) < 1200)
		sleep_ms(20);
	assert_int_equal(sampler_stop(s), 0);
	held_dir_close(&hd);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *first = NULL, *p;
		size_t len = 0;
		int samples = 0;

		read_in(&raw, dir, names[i]);
		for (p = raw.buf; *p; samples++) {
			const char *body = strchr(p, '\n') + 1;
			const char *next = strstr(body, "\ntime: ");
			size_t blen = next ? (size_t)(next + 1 - body) : strlen(body);

			assert_true(!strncmp(p, "time: ", 6));
			if (!first) {
				first = body;
				len = blen;
			} else if (blen != len || memcmp(body, first, len)) {
				fail_msg("%s: sample %d differs from the first", names[i], samples);
			}
			p = body + blen;
		}
		assert_true(samples >= 1200);
	}
	strbuf_release(&raw);
	test_rm_rf(dir);
	free(dir);
}

/* A file several monitors name is opened, and read, once. */
static void test_shared_files(void **state)
{
	const struct monitor *mons[] = {
		monitor_find("proc-vmstat"), monitor_find("meminfo"),
		monitor_find("proc-stat"), monitor_find("vmstat"), NULL
	};
	struct sampler_opts o = { .interval = 0.1, .root = ROOT };
	char *dir = test_tmpdir("sampler");
	struct held_dir hd;
	hold(&hd, dir);
	struct sampler *s = sampler_start_opts(mons, &hd, &o);
	struct strbuf raw = STRBUF_INIT;

	assert_non_null(s);
	assert_int_equal(sampler_files(s), 3);
	assert_int_equal(sampler_stop(s), 0);
	/* activated and stopped at once: one sample of each, none twice */
	s = sampler_start_opts(mons, &hd, &o);
	sampler_activate(s);
	sampler_activate(s);
	assert_int_equal(sampler_stop(s), 0);
	held_dir_close(&hd);
	assert_int_equal(samples_in(dir, "proc-vmstat"), 1);
	assert_int_equal(samples_in(dir, "proc-stat"), 1);
	read_in(&raw, dir, "vmstat");
	assert_non_null(strstr(raw.buf, " r  b   swpd"));
	strbuf_release(&raw);
	test_rm_rf(dir);
	free(dir);
}

static void test_never_activated(void **state)
{
	const struct monitor *mons[] = { monitor_find("proc-vmstat"), monitor_find("time"), NULL };
	char *dir = test_tmpdir("sampler");
	struct held_dir hd;
	hold(&hd, dir);
	struct sampler *s = sampler_start(mons, 0.1, &hd);
	struct strbuf cmd = STRBUF_INIT;

	assert_non_null(s);
	sleep_ms(150);
	assert_int_equal(sampler_stop(s), 0);
	held_dir_close(&hd);
	/* nothing sampled: no raw file, no JSON, no temporary left */
	strbuf_addf(&cmd, "test -z \"$(ls -A '%s')\"", dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	test_rm_rf(dir);
	free(dir);
}

/* A dir held but gone (removed under it): no raw file can be made. */
static void test_bad_dir(void **state)
{
	const struct monitor *mons[] = { monitor_find("proc-vmstat"), NULL };
	char *dir = test_tmpdir("sampler");
	struct held_dir hd;
	struct stderr_capture cap;

	hold(&hd, dir);
	assert_int_equal(rmdir(dir), 0);
	capture_start(&cap);
	assert_null(sampler_start(mons, 1, &hd));
	char *msg = capture_end(&cap);
	assert_non_null(strstr(msg, "cannot write"));
	assert_non_null(strstr(msg, "proc-vmstat"));
	free(msg);
	held_dir_close(&hd);
	free(dir);
}

static void test_time_write(void **state)
{
	char *dir = test_tmpdir("sampler");
	struct time_result r;
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	struct matrix stats;
	struct held_dir hd;

	memset(&r, 0, sizeof(r));
	r.command = "true";
	r.ru.ru_utime.tv_sec = 2;
	r.ru.ru_utime.tv_usec = 500000;
	r.ru.ru_maxrss = 2048;
	r.ru.ru_nvcsw = 7;
	r.start.tv_sec = 100;
	r.end.tv_sec = 105;
	r.page_size = 4096;
	hold(&hd, dir);
	assert_int_equal(time_write(&hd, &r), 0);
	read_in(&text, dir, "time");
	assert_true(!strncmp(text.buf, "\tCommand being timed: \"true\"\n", 29));
	read_in(&text, dir, "time.json");
	/* zeros are dropped, as lkp's dump-stat does */
	assert_string_equal(text.buf,
		"{\n"
		"  \"time.user_time\": [\n    2.5\n  ],\n"
		"  \"time.percent_of_cpu_this_job_got\": [\n    50\n  ],\n"
		"  \"time.elapsed_time\": [\n    5.0\n  ],\n"
		"  \"time.maximum_resident_set_size\": [\n    2048\n  ],\n"
		"  \"time.voluntary_context_switches\": [\n    7\n  ],\n"
		"  \"time.page_size\": [\n    4096\n  ]\n"
		"}\n");
	matrix_init(&stats);
	assert_int_equal(monitors_to_stats(&hd, &stats), 0);
	stats_to_json(&stats, &out);
	assert_non_null(strstr(out.buf, "\"time.elapsed_time\": 5.0,\n  \"time.elapsed_time.max\": 5.0,"));
	matrix_release(&stats);
	test_rm_rf(dir);
	/* its dir gone */
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(time_write(&hd, &r), -1);
	free(capture_end(&cap));
	held_dir_close(&hd);
	strbuf_release(&text);
	strbuf_release(&out);
	free(dir);
}

/* The JSON stage on a raw file as lkp's own monitor writes it. */
static void test_raw_to_json(void **state)
{
	char *dir = test_tmpdir("sampler");
	struct strbuf p = STRBUF_INIT, json = STRBUF_INIT;
	struct held_dir hd;
	const char *raw =
		"time: 1421007515\nnr_free_pages 100\npgfree 10\n"
		"time: 1421007516\nnr_free_pages 90\npgfree 25\n";

	hold(&hd, dir);
	assert_int_equal(monitor_raw_to_json(monitor_find("proc-vmstat"), &hd), 0);
	path_join(&p, dir, "proc-vmstat");
	assert_int_equal(write_file_atomic(p.buf, raw, strlen(raw)), 0);
	assert_int_equal(monitor_raw_to_json(monitor_find("proc-vmstat"), &hd), 1);
	read_in(&json, dir, "proc-vmstat.json");
	assert_string_equal(json.buf,
		"{\n"
		"  \"proc-vmstat.time\": [\n    1421007515,\n    1421007516\n  ],\n"
		"  \"proc-vmstat.nr_free_pages\": [\n    100,\n    90\n  ],\n"
		"  \"proc-vmstat.pgfree\": [\n    10,\n    25\n  ]\n"
		"}\n");
	/* a raw file that is not lkp's layout */
	assert_int_equal(write_file_atomic(p.buf, "pgfree 1\n", 9), 0);
	assert_int_equal(monitor_raw_to_json(monitor_find("proc-vmstat"), &hd), -1);
	held_dir_close(&hd);
	strbuf_release(&p);
	strbuf_release(&json);
	test_rm_rf(dir);
	free(dir);
}

/*
 * The run dir renamed away by another user of a shared result root, and
 * a link planted at its name, after the sampler opened its raw files and
 * before they are put in place (test_dir_moved): the raw files, their
 * JSON and time's files all go into the dir held, none into the link's
 * target.
 */
static void test_dir_moved_away(void **state)
{
	const struct monitor *mons[] = { monitor_find("proc-vmstat"), monitor_find("vmstat"), NULL };
	struct sampler_opts o = { .interval = 0.1, .root = ROOT };
	struct time_result r = { .command = "true", .page_size = 4096 };
	struct strbuf text = STRBUF_INIT;
	struct moved_dir m;
	struct sampler *s;

	test_dir_moved(&m, "sampler");
	s = sampler_start_opts(mons, &m.hd, &o);
	assert_non_null(s);
	sampler_activate(s);
	assert_int_equal(sampler_stop(s), 0);
	r.ru.ru_utime.tv_sec = 1;
	r.end.tv_sec = 1;
	assert_int_equal(time_write(&m.hd, &r), 0);
	const char *files[] = { "proc-vmstat", "proc-vmstat.json", "vmstat", "vmstat.json",
				"time", "time.json" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		read_in(&text, m.moved.buf, files[i]);
		assert_true(text.len > 0);
	}
	assert_int_equal(test_dir_size(m.moved.buf), 6);
	assert_int_equal(test_dir_size(m.victim.buf), 0);
	test_dir_moved_release(&m);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_run),
		cmocka_unit_test(test_canned_run),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_many_samples),
		cmocka_unit_test(test_shared_files),
		cmocka_unit_test(test_never_activated),
		cmocka_unit_test(test_bad_dir),
		cmocka_unit_test(test_time_write),
		cmocka_unit_test(test_raw_to_json),
		cmocka_unit_test(test_dir_moved_away),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
