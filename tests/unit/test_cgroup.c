/*
 * test_cgroup: the run's cgroup and what the machine did meanwhile --
 * the parsers of mountinfo, cpu.stat, cpuacct.usage, /proc/stat and
 * /proc/loadavg (src/run/cgroup.h, src/run/meanwhile.h), the figures,
 * the busy rule at its boundaries (src/report/busy.h), a cgroup that
 * cannot be made, and a child that cannot join one (run_command).
 */
#include "test_helpers.h"
#include "report/busy.h"
#include "run/cgroup.h"
#include "run/meanwhile.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* this VM's: v1 hierarchies, a v2 with no controllers of ours */
static const char mountinfo[] =
	"25 30 0:22 / /sys rw,nosuid - sysfs sysfs rw\n"
	"31 25 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:27 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n"
	"33 31 0:28 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"34 31 0:29 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
	"35 31 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"36 31 0:31 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer\n"
	"37 31 0:32 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
	"38 31 0:33 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
	"39 31 0:34 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd\n"
	"40 31 0:35 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	/* a bind mount of one already taken: left out */
	"41 25 0:27 / /mnt/cpu\\040again rw - cgroup cgroup rw,cpu\n";

static void test_mountinfo_line(void **state)
{
	struct cgroup_mount m;

	(void)state;
	assert_int_equal(cgroup_parse_mountinfo_line(
		"32 31 0:27 / /sys/fs/cgroup/cpu,cpuacct rw shared:9 master:2 - cgroup cgroup "
		"rw,cpu,cpuacct\n", &m), 1);
	assert_string_equal(m.path, "/sys/fs/cgroup/cpu,cpuacct");
	assert_int_equal(m.version, 1);
	assert_int_equal(m.controllers, CG_CPU | CG_CPUACCT);
	free(m.path);
	assert_int_equal(cgroup_parse_mountinfo_line(
		"40 31 0:35 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate", &m), 1);
	assert_int_equal(m.version, 2);
	assert_int_equal(m.controllers, 0);
	free(m.path);
	/* escapes undone */
	assert_int_equal(cgroup_parse_mountinfo_line(
		"41 25 0:27 / /mnt/a\\040b rw - cgroup cgroup rw,freezer", &m), 1);
	assert_string_equal(m.path, "/mnt/a b");
	assert_int_equal(m.controllers, CG_FREEZER);
	free(m.path);
	/* memory, pids, named: none of ours */
	assert_int_equal(cgroup_parse_mountinfo_line(
		"35 31 0:30 / /x rw - cgroup cgroup rw,memory,pids,name=systemd", &m), 1);
	assert_int_equal(m.controllers, 0);
	free(m.path);
	/* not a cgroup mount */
	assert_int_equal(cgroup_parse_mountinfo_line("25 30 0:22 / /sys rw - sysfs sysfs rw", &m), 0);
	assert_null(m.path);
	/* not mountinfo: too few fields, no "-", nothing after it */
	assert_int_equal(cgroup_parse_mountinfo_line("25 30 0:22 /", &m), -1);
	assert_int_equal(cgroup_parse_mountinfo_line("25 30 0:22 / /sys rw cgroup cgroup rw", &m), -1);
	assert_int_equal(cgroup_parse_mountinfo_line("25 30 0:22 / /sys rw - cgroup", &m), -1);
	assert_int_equal(cgroup_parse_mountinfo_line("", &m), -1);
}

static void test_pick_mounts(void **state)
{
	struct cgroup_mount *m;
	int n;

	(void)state;
	n = cgroup_pick_mounts(mountinfo, &m);
	assert_int_equal(n, 6);
	assert_int_equal(m[0].version, 2);
	assert_string_equal(m[0].path, "/sys/fs/cgroup/unified");
	assert_string_equal(m[1].path, "/sys/fs/cgroup/cpu");
	assert_int_equal(m[1].controllers, CG_CPU);
	assert_string_equal(m[2].path, "/sys/fs/cgroup/cpuacct");
	assert_string_equal(m[3].path, "/sys/fs/cgroup/cpuset");
	assert_string_equal(m[4].path, "/sys/fs/cgroup/freezer");
	assert_string_equal(m[5].path, "/sys/fs/cgroup/blkio");
	assert_int_equal(m[5].controllers, CG_BLKIO);
	cgroup_mounts_free(m, n);
	/* a second cgroup2 mount is the same hierarchy: once */
	n = cgroup_pick_mounts("1 0 0:1 / /a rw - cgroup2 c rw\n2 0 0:1 / /b rw - cgroup2 c rw\n"
			       "garbage\n", &m);
	assert_int_equal(n, 1);
	assert_string_equal(m[0].path, "/a");
	cgroup_mounts_free(m, n);
	n = cgroup_pick_mounts("", &m);
	assert_int_equal(n, 0);
	cgroup_mounts_free(m, n);
}

static void test_cpu_stat(void **state)
{
	struct cgroup_cpu_stat st;

	(void)state;
	/* v2 with the cpu controller */
	memset(&st, 0, sizeof(st));
	assert_int_equal(cgroup_parse_cpu_stat("usage_usec 1500000\nuser_usec 1000000\n"
					       "system_usec 500000\nnr_periods 10\nnr_throttled 3\n"
					       "throttled_usec 25000\n", &st), 0);
	assert_true(st.has_usage);
	assert_int_equal(st.usage_usec, 1500000);
	assert_true(st.has_throttled);
	assert_int_equal(st.nr_throttled, 3);
	assert_int_equal(st.throttled_usec, 25000);
	/* v2 without it: usage only */
	memset(&st, 0, sizeof(st));
	assert_int_equal(cgroup_parse_cpu_stat("usage_usec 7\nuser_usec 5\nsystem_usec 2\n", &st), 0);
	assert_true(st.has_usage);
	assert_false(st.has_throttled);
	/* v1 cpu: throttled_time in ns */
	memset(&st, 0, sizeof(st));
	assert_int_equal(cgroup_parse_cpu_stat("nr_periods 0\nnr_throttled 2\n"
					       "throttled_time 4000999\nnr_bursts 0\n", &st), 0);
	assert_false(st.has_usage);
	assert_int_equal(st.nr_throttled, 2);
	assert_int_equal(st.throttled_usec, 4000);
	/* malformed: no value, a word, a trailing word */
	memset(&st, 0, sizeof(st));
	assert_int_equal(cgroup_parse_cpu_stat("usage_usec\n", &st), -1);
	assert_int_equal(cgroup_parse_cpu_stat("usage_usec x\n", &st), -1);
	assert_int_equal(cgroup_parse_cpu_stat("usage_usec 5 6\n", &st), -1);
	assert_int_equal(cgroup_parse_cpu_stat("", &st), 0);
	/* cpuacct.usage: ns */
	memset(&st, 0, sizeof(st));
	assert_int_equal(cgroup_parse_cpuacct_usage("2500000999\n", &st), 0);
	assert_int_equal(st.usage_usec, 2500000);
	assert_true(st.has_usage);
	assert_int_equal(cgroup_parse_cpuacct_usage("", &st), -1);
	assert_int_equal(cgroup_parse_cpuacct_usage("12 3\n", &st), -1);
	assert_int_equal(cgroup_parse_cpuacct_usage("-1\n", &st), -1);
}

static void test_leaf_pid(void **state)
{
	(void)state;
	assert_int_equal(cgroup_leaf_pid("123-4"), 123);
	assert_int_equal(cgroup_leaf_pid("1-10"), 1);
	assert_int_equal(cgroup_leaf_pid("123"), -1);
	assert_int_equal(cgroup_leaf_pid("123-"), -1);
	assert_int_equal(cgroup_leaf_pid("123-4x"), -1);
	assert_int_equal(cgroup_leaf_pid("0-1"), -1);
	assert_int_equal(cgroup_leaf_pid("-1-1"), -1);
	assert_int_equal(cgroup_leaf_pid("cgroup.procs"), -1);
	assert_int_equal(cgroup_leaf_pid("99999999999999999999-1"), -1);
}

static void test_proc_stat(void **state)
{
	struct proc_cpu_times t;
	double l;

	(void)state;
	assert_int_equal(meanwhile_parse_proc_stat(
		"cpu  100 20 30 1000 5 6 7 8 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n", &t), 0);
	assert_int_equal(t.busy, 100 + 20 + 30 + 6 + 7);
	assert_int_equal(t.steal, 8);
	/* an old kernel's four fields: no steal */
	assert_int_equal(meanwhile_parse_proc_stat("intr 5\ncpu  1 2 3 4\n", &t), 0);
	assert_int_equal(t.busy, 6);
	assert_int_equal(t.steal, 0);
	assert_int_equal(meanwhile_parse_proc_stat("cpu0 1 2 3 4\n", &t), -1);
	assert_int_equal(meanwhile_parse_proc_stat("cpu  1 2 3\n", &t), -1);
	assert_int_equal(meanwhile_parse_proc_stat("cpu  1 x 3 4\n", &t), -1);
	assert_int_equal(meanwhile_parse_proc_stat("", &t), -1);
	assert_int_equal(meanwhile_parse_loadavg("1.50 0.80 0.30 2/300 1234\n", &l), 0);
	assert_true(l == 1.5);
	assert_int_equal(meanwhile_parse_loadavg("x 1", &l), -1);
	assert_int_equal(meanwhile_parse_loadavg("1.5x 1", &l), -1);
	assert_int_equal(meanwhile_parse_loadavg("", &l), -1);
}

static void test_figures(void **state)
{
	struct meanwhile_snap a = { 0 }, b = { 0 };
	struct meanwhile m;

	(void)state;
	/* 10 s: the machine busy 15 s of CPU (1500 ticks), the run 9 s, steal 1 s */
	a.t = 100;
	b.t = 110;
	a.has_cpu = b.has_cpu = true;
	a.cpu.busy = 1000;
	b.cpu.busy = 2500;
	a.cpu.steal = 50;
	b.cpu.steal = 150;
	a.has_load = b.has_load = true;
	a.load1 = 0.5;
	b.load1 = 1.25;
	b.cg.has_usage = true;
	b.cg.usage_usec = 9000000;
	b.cg.has_throttled = true;
	b.cg.nr_throttled = 4;
	b.cg.throttled_usec = 1234;
	meanwhile_figures(&a, &b, 100, &m);
	assert_true(fabs(m.other_cpu - 60) < 1e-9);
	assert_true(fabs(m.run_cpu - 90) < 1e-9);
	assert_true(fabs(m.steal - 10) < 1e-9);
	assert_true(m.load_start == 0.5 && m.load_end == 1.25);
	assert_true(m.has_throttled);
	assert_int_equal(m.nr_throttled, 4);
	assert_int_equal(m.throttled_usec, 1234);
	struct strbuf sb = STRBUF_INIT;
	meanwhile_lines(&m, &sb);
	assert_string_equal(sb.buf, "other_cpu_percent: 60.0\nrun_cpu_percent: 90.0\n"
			    "steal_percent: 10.0\nloadavg_start: 0.50\nloadavg_end: 1.25\n"
			    "nr_throttled: 4\nthrottled_usec: 1234\n");
	/* the run's coarse usage above the machine's ticks: 0, not negative */
	b.cg.usage_usec = 20000000;
	meanwhile_figures(&a, &b, 100, &m);
	assert_true(m.other_cpu == 0);
	/* no usage known: no other CPU, the rest still */
	b.cg.has_usage = false;
	meanwhile_figures(&a, &b, 100, &m);
	assert_true(m.other_cpu < 0 && m.run_cpu < 0);
	assert_true(fabs(m.steal - 10) < 1e-9);
	/* /proc/stat unread, or going backwards: unknown */
	b.cg.has_usage = true;
	b.has_cpu = false;
	meanwhile_figures(&a, &b, 100, &m);
	assert_true(m.other_cpu < 0 && m.steal < 0);
	b.has_cpu = true;
	b.cpu.busy = 10;
	meanwhile_figures(&a, &b, 100, &m);
	assert_true(m.other_cpu < 0);
	/* no time passed: nothing but the load */
	b.t = a.t;
	a.has_load = false;
	meanwhile_figures(&a, &b, 100, &m);
	assert_true(m.other_cpu < 0 && m.run_cpu < 0 && m.steal < 0 && m.load_start < 0);
	strbuf_reset(&sb);
	m.has_throttled = false;
	meanwhile_lines(&m, &sb);
	assert_string_equal(sb.buf, "loadavg_end: 1.25\n");
	strbuf_release(&sb);
}

static void test_busy_rule(void **state)
{
	(void)state;
	assert_false(busy_machine(NAN, NAN));
	assert_false(busy_machine(50, NAN));
	assert_true(busy_machine(50.01, NAN));
	assert_false(busy_machine(49.99, 10));
	assert_true(busy_machine(NAN, 10.01));
	assert_true(busy_machine(0, 10.5));
	assert_false(busy_machine(0, 0));
}

/* A column of n runs with other_cpu_percent vals (and run 2 incomplete
 * when inc). */
static void make_col(struct compare_col *c, const char *label, const double *vals, int n, bool inc)
{
	memset(c, 0, sizeof(*c));
	matrix_init(&c->mx);
	c->mx.ncols = n;
	c->label = xstrdup(label);
	c->runs = n;
	c->complete_runs = n;
	c->incomplete = xcalloc((size_t)n, sizeof(bool));
	struct metric *m = matrix_get_or_add(&c->mx, "machine.other_cpu_percent");
	for (int r = 0; r < n; r++)
		m->v[r] = vals[r];
	if (inc) {
		c->incomplete[1] = true;
		c->complete_runs--;
	}
}

static void free_col(struct compare_col *c)
{
	matrix_release(&c->mx);
	free(c->label);
	free(c->incomplete);
}

static void test_busy_note(void **state)
{
	struct compare cmp;
	struct compare_col col[2];
	struct strbuf sb = STRBUF_INIT;
	/* BASE: 40, 60 -> 50, not busy; NEW: 50, 400 (incomplete), 52 -> 51 */
	const double base[] = { 40, 60 }, new_[] = { 50, 400, 52 };

	(void)state;
	make_col(&col[0], "v1", base, 2, false);
	make_col(&col[1], "v2", new_, 3, true);
	memset(&cmp, 0, sizeof(cmp));
	cmp.col = col;
	cmp.ncols = 2;
	assert_true(busy_col_mean(&col[0], "machine.other_cpu_percent") == 50);
	assert_true(busy_col_mean(&col[1], "machine.other_cpu_percent") == 51);
	assert_true(isnan(busy_col_mean(&col[1], "machine.steal_percent")));
	assert_int_equal(busy_note(&cmp, &sb), 1);
	assert_string_equal(sb.buf, "note: NEW v2 ran on a busy machine: other work used 51.0% of a "
			    "CPU on average (machine.other_cpu_percent, busy above 50)\n");
	/* and the steal, on BASE */
	struct metric *m = matrix_get_or_add(&col[0].mx, "machine.steal_percent");
	m->v[0] = 12;
	m->v[1] = 10;   /* 11: busy; at 10, 10 it would not be */
	strbuf_reset(&sb);
	assert_int_equal(busy_note(&cmp, &sb), 2);
	assert_non_null(strstr(sb.buf, "note: BASE v1 ran on a busy machine: the hypervisor stole "
				       "11.0% of a CPU (machine.steal_percent, busy above 10)\n"));
	free_col(&col[0]);
	free_col(&col[1]);
	strbuf_release(&sb);
}

/* A cgroup that cannot be made leaves nothing and says why. */
static void test_create_unusable(void **state)
{
	struct run_cgroup cg;
	struct strbuf why = STRBUF_INIT, mi = STRBUF_INIT, p = STRBUF_INIT;
	char *dir = test_tmpdir("cgroup");

	(void)state;
	assert_int_equal(run_cgroup_create(&cg, "/nonexistent/mountinfo", "1-1", NULL, &why), 1);
	assert_non_null(strstr(why.buf, "cannot read /nonexistent/mountinfo"));
	strbuf_reset(&why);
	path_join(&mi, dir, "mountinfo");
	assert_int_equal(write_file_atomic(mi.buf, "1 0 0:1 / /sys rw - sysfs s rw\n", 31), 0);
	assert_int_equal(run_cgroup_create(&cg, mi.buf, "1-1", NULL, &why), 1);
	assert_string_equal(why.buf, "no cgroup hierarchy is mounted");
	assert_null(cg.name);
	/* a plain dir that says it is cgroup2: no cgroup.procs to join */
	if (geteuid() == 0) {
		strbuf_reset(&why);
		strbuf_reset(&p);
		strbuf_addf(&p, "1 0 0:1 / %s rw - cgroup2 cgroup2 rw\n", dir);
		assert_int_equal(write_file_atomic(mi.buf, p.buf, p.len), 0);
		assert_int_equal(run_cgroup_create(&cg, mi.buf, "1-1", NULL, &why), 1);
		assert_non_null(strstr(why.buf, "cannot open"));
		assert_non_null(strstr(why.buf, "/perfbot/1-1/cgroup.procs"));
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/perfbot/1-1", dir);
		assert_false(is_dir(p.buf));
	} else {
		printf("# not root: the plain-dir case is skipped\n");
	}
	strbuf_release(&why);
	strbuf_release(&mi);
	strbuf_release(&p);
	remove_tree(dir);
	free(dir);
}

static bool never_alive(long pid)
{
	(void)pid;
	return false;
}

static bool always_alive(long pid)
{
	(void)pid;
	return true;
}

/* The reaper on a plain dir laid out as a cgroup2 mount: a dead
 * perfbot's "<pid>-<n>" goes, a live one's and other names stay. */
static void test_reap_layout(void **state)
{
	char *dir = test_tmpdir("cgreap");
	struct strbuf mi = STRBUF_INIT, p = STRBUF_INIT;
	int killed = -1;

	(void)state;
	path_join(&mi, dir, "mountinfo");
	strbuf_addf(&p, "1 0 0:1 / %s rw - cgroup2 cgroup2 rw\n", dir);
	assert_int_equal(write_file_atomic(mi.buf, p.buf, p.len), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/perfbot", dir);
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_addstr(&p, "/123-1");
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/perfbot/other", dir);
	assert_int_equal(mkdir(p.buf, 0755), 0);
	assert_int_equal(cgroup_reap(mi.buf, always_alive, &killed), 0);
	assert_int_equal(killed, 0);
	assert_int_equal(cgroup_reap(mi.buf, never_alive, &killed), 1);
	assert_int_equal(killed, 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/perfbot/123-1", dir);
	assert_false(is_dir(p.buf));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/perfbot/other", dir);
	assert_true(is_dir(p.buf));
	assert_int_equal(cgroup_reap("/nonexistent/mountinfo", never_alive, &killed), 0);
	strbuf_release(&mi);
	strbuf_release(&p);
	remove_tree(dir);
	free(dir);
}

/* A child that cannot join its cgroup runs nothing and says why. */
static void test_join_fails(void **state)
{
	struct child_process cp;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	child_process_init(&cp);
	char *const argv[] = { "true", NULL };
	cp.argv = argv;
	cp.cgroup_fds = &fd;
	cp.nr_cgroup_fds = 1;
	assert_int_equal(start_command(&cp), -1);
	assert_int_equal(cp.cgroup_errno, EBADF);
	assert_int_equal(cp.pid, -1);
	close(fd);
	/* a writable one (/dev/null takes the "0"): runs */
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	child_process_init(&cp);
	cp.argv = argv;
	cp.cgroup_fds = &fd;
	cp.nr_cgroup_fds = 1;
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(cp.cgroup_errno, 0);
	assert_int_equal(finish_command(&cp, 0, NULL), FINISH_EXITED);
	assert_true(WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 0);
	close(fd);
}

static void test_parent_name(void **state)
{
	char long_name[66];
	(void)state;
	unsetenv("PERFBOT_CGROUP_PARENT");
	assert_string_equal(cgroup_parent_name(), "perfbot");
	setenv("PERFBOT_CGROUP_PARENT", "perfbot-t0520-42", 1);
	assert_string_equal(cgroup_parent_name(), "perfbot-t0520-42");
	/* not one safe component: the default */
	static const char *const bad[] = { "", "a/b", "..", ".", "/x", NULL };
	for (int i = 0; bad[i]; i++) {
		setenv("PERFBOT_CGROUP_PARENT", bad[i], 1);
		assert_string_equal(cgroup_parent_name(), "perfbot");
	}
	memset(long_name, 'x', 64);
	long_name[64] = '\0';
	setenv("PERFBOT_CGROUP_PARENT", long_name, 1);
	assert_string_equal(cgroup_parent_name(), long_name);
	long_name[64] = 'x';
	long_name[65] = '\0';
	setenv("PERFBOT_CGROUP_PARENT", long_name, 1);
	assert_string_equal(cgroup_parent_name(), "perfbot");
	unsetenv("PERFBOT_CGROUP_PARENT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo_line),
		cmocka_unit_test(test_pick_mounts),
		cmocka_unit_test(test_cpu_stat),
		cmocka_unit_test(test_leaf_pid),
		cmocka_unit_test(test_proc_stat),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_busy_rule),
		cmocka_unit_test(test_busy_note),
		cmocka_unit_test(test_create_unusable),
		cmocka_unit_test(test_reap_layout),
		cmocka_unit_test(test_join_fails),
		cmocka_unit_test(test_parent_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
