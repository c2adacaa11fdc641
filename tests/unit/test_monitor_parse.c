/*
 * Unit tests of the monitors' parsers (src/monitor/): each snapshot
 * parser on small inputs whose lkp output is worked out by hand from lkp's
 * stats scripts, and on real snapshots in tests/data/monitor/root; the
 * vmstat text parser against lkp's conformance fixture; the GNU time
 * report; availability reasons; the registry.
 */
#include "test_helpers.h"
#include "monitor/monitor.h"
#include "monitor/sampler.h"

#include <stdbool.h>
#include <sys/wait.h>
#include <time.h>

#define ROOT "tests/data/monitor/root"

static const struct monitor *mon(const char *name)
{
	const struct monitor *m = monitor_find(name);
	assert_non_null(m);
	return m;
}

/* Parse a whole raw text with monitor name and compare with expected. */
static void check_raw(const char *name, const char *raw, const char *expected)
{
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(monitor_parse(mon(name), raw, strlen(raw), "raw", &out), 0);
	assert_string_equal(out.buf, expected);
	strbuf_release(&out);
}

/* One snapshot through parse_snapshot. */
static void check_snapshot(const char *name, const char *snap, const char *expected)
{
	const struct monitor *m = mon(name);
	struct strbuf out = STRBUF_INIT;
	void *state = calloc(1, m->parse_state_size + 1);

	assert_int_equal(m->parse_snapshot(state, snap, strlen(snap), "snap", &out), 0);
	assert_string_equal(out.buf, expected);
	if (m->parse_state_release)
		m->parse_state_release(state);
	free(state);
	strbuf_release(&out);
}

static void read_root(struct strbuf *sb, const char *rel)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, ROOT "%s", rel);
	assert_int_equal(read_file(sb, p.buf), 0);
	strbuf_release(&p);
}

static void test_registry(void **state)
{
	const struct monitor *const *all = monitor_all();
	const char *names[] = { "proc-vmstat", "meminfo", "vmstat", "numa-vmstat",
		"numa-numastat", "numa-meminfo", "softirqs", "interrupts", "proc-stat",
		"diskstats", "iostat", "slabinfo", "cpuidle", "cpufreq", "kmsg", "time", NULL };
	const struct monitor **defaults = monitor_default_list();
	int n = 0, nd = 0;

	for (int i = 0; names[i]; i++)
		assert_string_equal(mon(names[i])->name, names[i]);
	for (; all[n]; n++) {
		const struct monitor *m = all[n];
		assert_non_null(m->parse_raw ? (void *)m->parse_raw : (void *)m->parse_snapshot);
		if (!(m->flags & MONITOR_NOT_SAMPLED)) {
			/* both hooks, or neither: a one-file monitor names its
			 * file in `files` (a stream has no sources to list) */
			assert_true(!m->available == !m->list_sources ||
				    (m->flags & MONITOR_STREAM));
			if (!m->list_sources)
				assert_true(m->files[0] == '/' && !strpbrk(m->files, "*?"));
			/* a stream has no snapshots: its parse_raw reads it */
			assert_true(m->parse_snapshot || (m->flags & MONITOR_STREAM));
		}
		for (int j = 0; j < n; j++)
			assert_string_not_equal(all[j]->name, m->name);
	}
	assert_int_equal(n, 16);
	assert_null(monitor_find("perf-stat"));
	for (; defaults[nd]; nd++)
		assert_true(defaults[nd]->flags & MONITOR_DEFAULT);
	/* lkp's benchmark defaults among ours: all but time */
	assert_int_equal(nd, 15);
	free(defaults);
}

static void test_proc_vmstat(void **state)
{
	/* lkp's monitor keeps the first of duplicate keys */
	check_snapshot("proc-vmstat", "nr_free_pages 100\npgfree 5\nnr_free_pages 7\n\n",
		       "nr_free_pages: 100\npgfree: 5\n");
	check_raw("proc-vmstat", "time: 10\npgfree 1\ntime: 11\npgfree 3\n",
		  "time: 10\npgfree: 1\ntime: 11\npgfree: 3\n");
	/* a line without a name gave ": 123", a stats line with an empty
	 * key (found by fuzzing): skipped */
	check_snapshot("proc-vmstat", ":  123 kB\n : 5\npgfree 5\n", "pgfree: 5\n");
}

/* Every "key value" line of a real file comes out as "key: value". */
static void test_proc_vmstat_real(void **state)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT, want = STRBUF_INIT;
	const struct monitor *m = mon("proc-vmstat");
	struct line_iter it;
	struct line l;
	struct field f[2];
	int lines = 0;

	read_root(&in, "/proc/vmstat");
	assert_int_equal(m->parse_snapshot(NULL, in.buf, in.len, "vmstat", &out), 0);
	line_iter_init(&it, in.buf, in.len);
	while (line_next(&it, &l)) {
		assert_int_equal(split_ws(l.s, l.len, f, 2), 2);
		strbuf_reset(&want);
		strbuf_addf(&want, "%.*s: %.*s\n", (int)f[0].len, f[0].s, (int)f[1].len, f[1].s);
		assert_non_null(strstr(out.buf, want.buf));
		lines++;
	}
	assert_true(lines > 100);
	strbuf_release(&in);
	strbuf_release(&out);
	strbuf_release(&want);
}

static void test_meminfo(void **state)
{
	/* Memused and the running max_used_kB after MemFree; clobbered lines
	 * (sockstat text) skipped */
	check_raw("meminfo",
		  "time: 1\nMemTotal:  1000 kB\nMemFree:  400 kB\nBuffers:  10 kB\n"
		  "time: 2\nMemTotal:  1000 kB\nMemFree:  700 kB\nTCP: inuse 3 orphan 0\n"
		  "HugePages_Total:  0\n",
		  "time: 1\nMemTotal: 1000\nMemFree: 400\nMemused: 600\nmax_used_kB: 600\n"
		  "Buffers: 10\n"
		  "time: 2\nMemTotal: 1000\nMemFree: 700\nMemused: 300\nmax_used_kB: 600\n"
		  "HugePages_Total: 0\n");
	/* a line without a name gave ": 123", a stats line with an empty
	 * key (found by fuzzing): skipped */
	check_snapshot("meminfo", ":  123 kB\n : 5\nBuffers:  10 kB\n", "Buffers: 10\n");
}

static void test_meminfo_real(void **state)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	long long total = 0, free_kb = 0;
	char want[128];
	const char *p;

	read_root(&in, "/proc/meminfo");
	assert_non_null(p = strstr(in.buf, "MemTotal:"));
	total = atoll(p + 9);
	assert_non_null(p = strstr(in.buf, "MemFree:"));
	free_kb = atoll(p + 8);
	check_snapshot("meminfo", "", "");
	{
		const struct monitor *m = mon("meminfo");
		void *st = calloc(1, m->parse_state_size);
		assert_int_equal(m->parse_snapshot(st, in.buf, in.len, "meminfo", &out), 0);
		m->parse_state_release(st);
		free(st);
	}
	snprintf(want, sizeof(want), "\nMemused: %lld\nmax_used_kB: %lld\n",
		 total - free_kb, total - free_kb);
	assert_non_null(strstr(out.buf, want));
	snprintf(want, sizeof(want), "MemTotal: %lld\n", total);
	assert_true(!strncmp(out.buf, want, strlen(want)));
	strbuf_release(&in);
	strbuf_release(&out);
}

static void test_numa(void **state)
{
	check_raw("numa-numastat",
		  "time: 1.5\nnode: 0\nnuma_hit 10\nlocal_node 9\nnode: 1\nnuma_hit 20\n 7\n",
		  "time: 1.5\nnode0.numa_hit: 10\nnode0.local_node: 9\nnode1.numa_hit: 20\n"
		  "node1: 7\n");
	/* vmstat: the first of duplicate keys, per node */
	check_raw("numa-vmstat", "time: 2\nnode: 0\nnr_a 1\nnr_a 2\nnode: 1\nnr_a 3\n",
		  "time: 2\nnode0.nr_a: 1\nnode1.nr_a: 3\n");
	/* meminfo: 4+ fields, tolower($1) $2 "." $3 " " $4 */
	check_raw("numa-meminfo",
		  "time: 3\nnode: 0\nNode 0 MemTotal:       8000 kB\nNode 0 HugePages_Total:     0\n"
		  "node: 1\nNode 1 MemFree:  5 kB\n",
		  "time: 3\nnode0.MemTotal: 8000\nnode0.HugePages_Total: 0\nnode1.MemFree: 5\n");
	/* 4 fields whose third is no "Key:" gave a line without a key
	 * (found by fuzzing, tests/fuzz/fuzz_parse.c); "X:" is the shortest key */
	check_raw("numa-meminfo",
		  "time: 3\nnode: 0\nTASKL80] memrate 1456.49 write64 MB/sec\nNode 0 : 1\nNode 0 X: 2\n",
		  "time: 3\nnode0.X: 2\n");
}

static void test_softirqs(void **state)
{
	check_snapshot("softirqs",
		       "                    CPU0       CPU1       \n"
		       "          HI:          1          2\n"
		       "         RCU:      10      20\n",
		       "CPU0.HI: 1\nCPU1.HI: 2\nHI: 3\nCPU0.RCU: 10\nCPU1.RCU: 20\nRCU: 30\n");
}

/*
 * Sums and differences past 2^63 are exact, as lkp's Ruby prints them:
 * before, softirqs printed -9223372036854775808 (and UBSan aborted).
 */
static void test_sums_past_2_63(void **state)
{
	(void)state;
	check_snapshot("softirqs",
		       "                    CPU0       CPU1       \n"
		       "          HI: 9223372036854775807 1\n"
		       "          TIMER: -9223372036854775808 -1\n",
		       "CPU0.HI: 9223372036854775807\nCPU1.HI: 1\nHI: 9223372036854775808\n"
		       "CPU0.TIMER: -9223372036854775808\nCPU1.TIMER: -1\n"
		       "TIMER: -9223372036854775809\n");
	check_snapshot("interrupts",
		       "           CPU0       CPU1       \n"
		       "LOC: 18446744073709551615 18446744073709551615 Local timer\n",
		       "CPU0.LOC:Local_timer: 18446744073709551615\n"
		       "CPU1.LOC:Local_timer: 18446744073709551615\n"
		       "LOC:Local_timer: 36893488147419103230\n");
	check_snapshot("cpuidle",
		       "cpu0.POLL.time: 9223372036854775807\ncpu1.POLL.time: 9223372036854775807\n",
		       "POLL.time: 18446744073709551614\n");
	check_raw("meminfo",
		  "time: 1\nMemTotal: 9223372036854775807 kB\nMemFree: -9223372036854775807 kB\n"
		  "time: 2\nMemTotal: 1 kB\nMemFree: 99999999999999999999999 kB\n",
		  "time: 1\nMemTotal: 9223372036854775807\nMemFree: -9223372036854775807\n"
		  "Memused: 18446744073709551614\nmax_used_kB: 18446744073709551614\n"
		  "time: 2\nMemTotal: 1\nMemFree: 99999999999999999999999\n"
		  "Memused: -99990776627963145224192\nmax_used_kB: 18446744073709551614\n");
}

static void test_softirqs_real(void **state)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	const struct monitor *m = mon("softirqs");
	const char *rcu;
	long long c0, c1;
	char want[64];

	read_root(&in, "/proc/softirqs");
	assert_non_null(rcu = strstr(in.buf, "RCU:"));
	assert_int_equal(sscanf(rcu, "RCU: %lld %lld", &c0, &c1), 2);
	assert_int_equal(m->parse_snapshot(NULL, in.buf, in.len, "softirqs", &out), 0);
	snprintf(want, sizeof(want), "CPU1.RCU: %lld\nRCU: %lld\n", c1, c0 + c1);
	assert_non_null(strstr(out.buf, want));
	strbuf_release(&in);
	strbuf_release(&out);
}

static void test_interrupts(void **state)
{
	check_snapshot("interrupts",
		       "           CPU0       CPU1       \n"
		       " 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
		       " 35:          1          2  PCI-MSI  eth0-TxRx-0, eth0-TxRx-1\n"
		       "LOC:      28424      27335   Local timer interrupts\n"
		       "ERR:          0\n",
		       "CPU0.24:IO-APIC.5-edge.ACPI:Ged: 1\n"
		       "CPU1.24:IO-APIC.5-edge.ACPI:Ged: 0\n"
		       "24:IO-APIC.5-edge.ACPI:Ged: 1\n"
		       "CPU0.35:PCI-MSI.eth0-TxRx-0,eth0-TxRx-1: 1\n"
		       "CPU1.35:PCI-MSI.eth0-TxRx-0,eth0-TxRx-1: 2\n"
		       "35:PCI-MSI.eth0-TxRx-0,eth0-TxRx-1: 3\n"
		       "CPU0.LOC:Local_timer_interrupts: 28424\n"
		       "CPU1.LOC:Local_timer_interrupts: 27335\n"
		       "LOC:Local_timer_interrupts: 55759\n"
		       "ERR: 0\n");
}

static void test_interrupts_real(void **state)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	const struct monitor *m = mon("interrupts");
	struct line_iter it;
	struct line l;
	int want = 0, got = 0;
	struct field_list f = FIELD_LIST_INIT;

	read_root(&in, "/proc/interrupts");
	/* every data line gives one metric per CPU and its sum; two-field
	 * lines one */
	line_iter_init(&it, in.buf, in.len);
	while (line_next(&it, &l)) {
		size_t n = split_ws_all(&f, l.s, l.len);
		if (!n || !field_has_colon(f.v[0].s, f.v[0].len))
			continue;
		want += n == 2 ? 1 : 3;
	}
	assert_int_equal(m->parse_snapshot(NULL, in.buf, in.len, "interrupts", &out), 0);
	for (size_t i = 0; i < out.len; i++)
		got += out.buf[i] == '\n';
	assert_int_equal(got, want);
	assert_non_null(strstr(out.buf, "\nCPU0.LOC:Local_timer_interrupts: "));
	assert_non_null(strstr(out.buf, "\nCPU1.36:PCI-MSIX-0000:00:02.0.1-edge.virtio1-req.0: "));
	field_list_release(&f);
	strbuf_release(&in);
	strbuf_release(&out);
}

static void test_proc_stat(void **state)
{
	check_snapshot("proc-stat",
		       "cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 0 0 0 0 0 0 0\nintr 100 1 2\n"
		       "ctxt 50\nbtime 1700000000\nprocs_running 3\nsoftirq 9 1 8\n",
		       "cpu.user: 1\ncpu.nice: 2\ncpu.system: 3\ncpu.idle: 4\ncpu.iowait: 5\n"
		       "cpu.irq: 6\ncpu.softirq: 7\ncpu.steal: 8\ncpu.guest: 9\ncpu.guest_nice: 10\n"
		       "cpu0.user: 1\ncpu0.nice: 0\ncpu0.system: 0\ncpu0.idle: 0\ncpu0.iowait: 0\n"
		       "cpu0.irq: 0\ncpu0.softirq: 0\ncpu0.steal: 0\n"
		       "intr: 100\nctxt: 50\nbtime: 1700000000\nprocs_running: 3\nsoftirq: 9\n");
}

static void test_diskstats(void **state)
{
	/* 14 fields (lkp's), 20 (Linux 5.5+), and a line of another width */
	check_snapshot("diskstats",
		       "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
		       " 259       0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
		       "   8       1 sda1 1 2 3 4\n",
		       "read_ios.sda: 1\nread_merges.sda: 2\nread_sectors.sda: 3\nread_ticks.sda: 4\n"
		       "write_ios.sda: 5\nwrite_merges.sda: 6\nwrite_sectors.sda: 7\n"
		       "write_ticks.sda: 8\nin_flight.sda: 9\nio_ticks.sda: 10\ntime_in_queue.sda: 11\n"
		       "read_ios.nvme0n1: 1\nread_merges.nvme0n1: 2\nread_sectors.nvme0n1: 3\n"
		       "read_ticks.nvme0n1: 4\nwrite_ios.nvme0n1: 5\nwrite_merges.nvme0n1: 6\n"
		       "write_sectors.nvme0n1: 7\nwrite_ticks.nvme0n1: 8\nin_flight.nvme0n1: 9\n"
		       "io_ticks.nvme0n1: 10\ntime_in_queue.nvme0n1: 11\ndiscard_ios.nvme0n1: 12\n"
		       "discard_merges.nvme0n1: 13\ndiscard_sectors.nvme0n1: 14\n"
		       "discard_ticks.nvme0n1: 15\nflush_ios.nvme0n1: 16\nflush_ticks.nvme0n1: 17\n");
}

static const char slab_head[] =
	"slabinfo - version: 2.1\n"
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
	" : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs>"
	" <num_slabs> <sharedavail>\n";

static void test_slabinfo(void **state)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	const struct monitor *m = mon("slabinfo");

	strbuf_addstr(&in, slab_head);
	strbuf_addstr(&in, "kmalloc-64   1234   1300     64   64    1 : tunables    0    0    0"
		      " : slabdata     20     21      0\nshort 1 2\n");
	assert_int_equal(m->parse_snapshot(NULL, in.buf, in.len, "slab", &out), 0);
	assert_string_equal(out.buf, "kmalloc-64.active_objs: 1234\nkmalloc-64.num_objs: 1300\n"
			    "kmalloc-64.active_slabs: 20\nkmalloc-64.num_slabs: 21\n");
	strbuf_release(&in);
	strbuf_release(&out);
}

static void test_slabinfo_errors(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const struct monitor *m = mon("slabinfo");
	const char *v20 = "slabinfo - version: 2.0\n";
	const char *nohead = "kmalloc-64 1 2 3\n";

	assert_int_equal(m->parse_snapshot(NULL, v20, strlen(v20), "slab", &out), -1);
	assert_int_equal(m->parse_snapshot(NULL, nohead, strlen(nohead), "slab", &out), -1);
	strbuf_release(&out);
}

static void test_slabinfo_real(void **state)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	const struct monitor *m = mon("slabinfo");
	int caches = -2, lines = 0;

	read_root(&in, "/proc/slabinfo");
	for (size_t i = 0; i < in.len; i++)
		caches += in.buf[i] == '\n';
	assert_int_equal(m->parse_snapshot(NULL, in.buf, in.len, "slabinfo", &out), 0);
	for (size_t i = 0; i < out.len; i++)
		lines += out.buf[i] == '\n';
	assert_true(caches > 50);
	assert_int_equal(lines, 4 * caches);
	strbuf_release(&in);
	strbuf_release(&out);
}

static void test_cpuidle(void **state)
{
	check_snapshot("cpuidle",
		       "cpu0.POLL.time: 5\ncpu0.POLL.usage: 1\ncpu0.C1-HSW.time: 100\n"
		       "cpu1.POLL.time: 7\ncpu1.POLL.usage: 2\ncpu1.C1-HSW.time: 50\n",
		       "POLL.time: 12\nPOLL.usage: 3\nC1-HSW.time: 150\n");
}

static void test_cpufreq(void **state)
{
	check_snapshot("cpufreq", "cpu0.time_in_state.3000000: 10\ncpu0.total_trans: 4\n",
		       "cpu0.time_in_state.3000000: 10\ncpu0.total_trans: 4\n");
	/* a line without a key (found by fuzzing): skipped */
	check_snapshot("cpufreq", ": 5\ncpu0.total_trans: 4\n", "cpu0.total_trans: 4\n");
}

/* lkp's conformance fixture: vmstat --timestamp output and its stats */
static void test_vmstat_conformance(void **state)
{
	struct strbuf raw = STRBUF_INIT, want = STRBUF_INIT, out = STRBUF_INIT;
	const char *tz = getenv("TZ");
	char *old = tz ? strdup(tz) : NULL;

	skip_without_conformance();
	read_conformance(&raw, "lkp/stats/vmstat/1");
	read_conformance(&want, "lkp/stats/vmstat/1.yaml");
	/* lkp parses the timestamp in the local zone, whatever the header
	 * says: its expected output was made in UTC */
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(monitor_parse(mon("vmstat"), raw.buf, raw.len, "vmstat/1", &out), 0);
	if (old)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old);
	assert_string_equal(out.buf, want.buf);
	strbuf_release(&raw);
	strbuf_release(&want);
	strbuf_release(&out);
}

static void test_vmstat_utc(void **state)
{
	check_raw("vmstat",
		  "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
		  " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n"
		  " 1  0      0 24296156   2648 288888    0    0   722   129   97  183  4  1 95  0  0 2026-11-29 23:24:15\n",
		  "time: 1795994655\nprocs.r: 1\nprocs.b: 0\nmemory.swpd: 0\nmemory.free: 24296156\n"
		  "memory.buff: 2648\nmemory.cache: 288888\nswap.si: 0\nswap.so: 0\nio.bi: 722\n"
		  "io.bo: 129\nsystem.in: 97\nsystem.cs: 183\ncpu.us: 4\ncpu.sy: 1\ncpu.id: 95\n"
		  "cpu.wa: 0\ncpu.st: 0\n");
}

/*
 * vmstat's sample() on the canned /proc files: the row's columns as
 * procps prints them, and a timestamp equal to gmtime's for dates around
 * leap days, century years and the epoch.
 */
static void test_vmstat_sample(void **state)
{
	const struct monitor *m = mon("vmstat");
	struct strbuf stat = STRBUF_INIT, vm = STRBUF_INIT, mem = STRBUF_INIT, raw = STRBUF_INIT;
	const struct strbuf *text[] = { &stat, &vm, &mem };
	const long long when[] = {
		0, 951782400, 951868799, 951868800, 1795994655, 4107542399LL,
		4107542400LL, 4102444800LL, 68256000,
	};
	void *st = calloc(1, m->sample_state_size);

	read_root(&stat, "/proc/stat");
	read_root(&vm, "/proc/vmstat");
	read_root(&mem, "/proc/meminfo");
	for (size_t i = 0; i < sizeof(when) / sizeof(when[0]); i++) {
		struct timespec now = { (time_t)when[i], 0 };
		time_t t = (time_t)when[i];
		struct tm tm;
		char expect[32];
		const char *row;

		strbuf_reset(&raw);
		assert_int_equal(m->sample(st, text, 3, &now, &raw), 0);
		gmtime_r(&t, &tm);
		strftime(expect, sizeof(expect), "%Y-%m-%d %H:%M:%S\n", &tm);
		row = strrchr(raw.buf, '\n');
		while (row > raw.buf && row[-1] != '\n')
			row--;
		/* procs_running, procs_blocked, swap, MemFree, Buffers,
		 * Cached + SReclaimable of the canned files */
		assert_true(!strncmp(row, " 4  0      0 24143276   2996 433184 ", 36));
		assert_string_equal(row + strlen(row) - strlen(expect), expect);
		/* 17 columns, then the date and time */
		int cols = 0;
		for (const char *p = row; *p && *p != '\n'; p++)
			cols += *p != ' ' && (p == row || p[-1] == ' ');
		assert_int_equal(cols, 19);
	}
	/* a missing source, or the wrong number of them */
	text[2] = NULL;
	assert_int_equal(m->sample(st, text, 3, &(struct timespec){ 0, 0 }, &raw), -1);
	assert_int_equal(m->sample(st, text, 2, &(struct timespec){ 0, 0 }, &raw), -1);
	free(st);
	strbuf_release(&stat);
	strbuf_release(&vm);
	strbuf_release(&mem);
	strbuf_release(&raw);
}

/* lkp's parser's own example (programs/iostat/parse), classic -x columns */
static void test_iostat_parse(void **state)
{
	check_raw("iostat",
		  "2013-04-02T13:58:40+0800\n"
		  "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
		  "          34.78   12.99    6.03    0.40    0.00   45.80\n"
		  "\n"
		  "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz "
		  "avgqu-sz   await r_await w_await  svctm  %util\n"
		  "sda               0.15    12.76    3.02    9.81    63.05   126.27    29.51"
		  "     0.16   12.72    3.96   15.42   1.55   1.99\n"
		  "sdd               0.09    34.01    8.43   20.57   189.15   750.68    64.80"
		  "     0.79   27.07    1.31   37.63   0.45   1.31\n"
		  "\n"
		  "not a time line 2013-04-02\n",
		  "time: 1364882320\n"
		  "cpu.user: 34.78\ncpu.nice: 12.99\ncpu.system: 6.03\ncpu.iowait: 0.40\n"
		  "cpu.steal: 0.00\ncpu.idle: 45.80\n"
		  "sda.rrqm/s: 0.15\nsda.wrqm/s: 12.76\nsda.r/s: 3.02\nsda.w/s: 9.81\n"
		  "sda.rkB/s: 63.05\nsda.wkB/s: 126.27\nsda.avgrq-sz: 29.51\nsda.avgqu-sz: 0.16\n"
		  "sda.await: 12.72\nsda.r_await: 3.96\nsda.w_await: 15.42\nsda.svctm: 1.55\n"
		  "sda.util: 1.99\n"
		  "sdd.rrqm/s: 0.09\nsdd.wrqm/s: 34.01\nsdd.r/s: 8.43\nsdd.w/s: 20.57\n"
		  "sdd.rkB/s: 189.15\nsdd.wkB/s: 750.68\nsdd.avgrq-sz: 64.80\nsdd.avgqu-sz: 0.79\n"
		  "sdd.await: 27.07\nsdd.r_await: 1.31\nsdd.w_await: 37.63\nsdd.svctm: 0.45\n"
		  "sdd.util: 1.31\n");
}

/* The value of key in stats lines, or NULL. */
static const char *stat_of(const char *lines, const char *key, char *buf, size_t n)
{
	size_t k = strlen(key);
	for (const char *p = lines; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ':') {
			const char *e = strchr(p, '\n');
			snprintf(buf, n, "%.*s", (int)(e - p - k - 2), p + k + 2);
			return buf;
		}
	return NULL;
}

/* Two samples: iostat's arithmetic on the deltas; partitions left out */
static void test_iostat_sample(void **state)
{
	const struct monitor *m = mon("iostat");
	struct strbuf disk = STRBUF_INIT, stat = STRBUF_INIT, raw = STRBUF_INIT, out = STRBUF_INIT;
	const struct strbuf *text[] = { &disk, &stat };
	void *st = calloc(1, m->sample_state_size);
	char v[64];

	strbuf_addstr(&disk, "   8       0 sda 100 10 2000 50 200 20 4000 300 0 400 500\n"
			     "   8       1 sda1 100 10 2000 50 200 20 4000 300 0 400 500\n"
			     " 259       0 nvme0n1 0 0 0 0 0 0 0 0 0 0 0\n"
			     " 259       1 nvme0n1p1 0 0 0 0 0 0 0 0 0 0 0\n");
	strbuf_addstr(&stat, "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 1 1 1 1 1 1 1\n");
	assert_int_equal(m->sample(st, text, 2, &(struct timespec){ 1000, 0 }, &raw), 0);
	assert_int_equal(raw.len, 0);   /* the first sample only records */
	strbuf_reset(&disk);
	/* +10 reads of 40 sectors taking 30 ms, +30 writes of 120 sectors
	 * taking 270 ms, io_ticks +80 */
	strbuf_addstr(&disk, "   8       0 sda 110 12 2040 80 230 26 4120 570 1 480 900\n"
			     "   8       1 sda1 110 12 2040 80 230 26 4120 570 1 480 900\n"
			     " 259       0 nvme0n1 0 0 0 0 0 0 0 0 0 0 0\n"
			     " 259       1 nvme0n1p1 4 0 8 0 0 0 0 0 0 0 0\n");
	strbuf_reset(&stat);
	/* +60 user, +20 system, +10 softirq, +10 iowait of 100 jiffies */
	strbuf_addstr(&stat, "cpu  160 0 120 700 110 0 10 0 0 0\n");
	usleep(20000);
	assert_int_equal(m->sample(st, text, 2, &(struct timespec){ 1001, 0 }, &raw), 0);
	assert_int_equal(monitor_parse(m, raw.buf, raw.len, "raw", &out), 0);
	assert_non_null(strstr(out.buf, "time: 1001\n"));
	assert_string_equal(stat_of(out.buf, "cpu.user", v, sizeof(v)), "60.00");
	assert_string_equal(stat_of(out.buf, "cpu.system", v, sizeof(v)), "30.00");
	assert_string_equal(stat_of(out.buf, "cpu.iowait", v, sizeof(v)), "10.00");
	assert_string_equal(stat_of(out.buf, "cpu.idle", v, sizeof(v)), "0.00");
	/* (40 + 120) sectors / 40 requests; 300 ms / 40; 30 / 10; 270 / 30; 80 / 40 */
	assert_string_equal(stat_of(out.buf, "sda.avgrq-sz", v, sizeof(v)), "4.00");
	assert_string_equal(stat_of(out.buf, "sda.await", v, sizeof(v)), "7.50");
	assert_string_equal(stat_of(out.buf, "sda.r_await", v, sizeof(v)), "3.00");
	assert_string_equal(stat_of(out.buf, "sda.w_await", v, sizeof(v)), "9.00");
	assert_string_equal(stat_of(out.buf, "sda.svctm", v, sizeof(v)), "2.00");
	/* rates: 20 sectors / s is 10 kB/s, whatever the interval was */
	double r = atof(stat_of(out.buf, "sda.r/s", v, sizeof(v)));
	double rkb = atof(stat_of(out.buf, "sda.rkB/s", v, sizeof(v)));
	assert_true(r > 0 && rkb > 1.9 * r && rkb < 2.1 * r);
	assert_non_null(stat_of(out.buf, "nvme0n1.util", v, sizeof(v)));
	assert_null(stat_of(out.buf, "sda1.r/s", v, sizeof(v)));
	assert_null(stat_of(out.buf, "nvme0n1p1.r/s", v, sizeof(v)));
	/* a missing source */
	text[1] = NULL;
	assert_int_equal(m->sample(st, text, 2, &(struct timespec){ 1002, 0 }, &raw), -1);
	free(st);
	strbuf_release(&disk);
	strbuf_release(&stat);
	strbuf_release(&raw);
	strbuf_release(&out);
}

static void test_vmstat_errors(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const struct monitor *m = mon("vmstat");
	const char *nohead = " 1  0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	const char *narrow = " r  b   swpd\n 1  0\n";
	const char *badtime = " r  b UTC\n 1 2 2026-13-45 99:00:00\n";

	assert_int_equal(monitor_parse(m, nohead, strlen(nohead), "v", &out), -1);
	assert_int_equal(monitor_parse(m, narrow, strlen(narrow), "v", &out), -1);
	assert_int_equal(monitor_parse(m, badtime, strlen(badtime), "v", &out), -1);
	strbuf_release(&out);
}

static void test_raw_needs_time(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const char *raw = "pgfree 1\ntime: 2\npgfree 3\n";

	assert_int_equal(monitor_parse(mon("proc-vmstat"), raw, strlen(raw), "raw", &out), -1);
	strbuf_release(&out);
}

static struct time_result sample_time(void)
{
	struct time_result r;

	memset(&r, 0, sizeof(r));
	r.command = "stress-ng --cpu 1";
	r.ru.ru_utime.tv_sec = 13;
	r.ru.ru_utime.tv_usec = 705000;
	r.ru.ru_stime.tv_sec = 1;
	r.ru.ru_stime.tv_usec = 230000;
	r.ru.ru_maxrss = 12345;
	r.ru.ru_minflt = 1234;
	r.ru.ru_majflt = 2;
	r.ru.ru_nvcsw = 12;
	r.ru.ru_nivcsw = 34;
	r.ru.ru_oublock = 8;
	r.start.tv_sec = 1000;
	r.end.tv_sec = 1000 + 3723;
	r.end.tv_nsec = 450000000;
	r.status = 2 << 8;   /* exited with 2 */
	r.page_size = 4096;
	return r;
}

static void test_time_format(void **state)
{
	struct time_result r = sample_time();
	struct strbuf out = STRBUF_INIT;

	time_format_gnu(&r, &out);
	assert_string_equal(out.buf,
		"Command exited with non-zero status 2\n"
		"\tCommand being timed: \"stress-ng --cpu 1\"\n"
		"\tUser time (seconds): 13.70\n"
		"\tSystem time (seconds): 1.23\n"
		"\tPercent of CPU this job got: 0%\n"
		"\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03\n"
		"\tAverage shared text size (kbytes): 0\n"
		"\tAverage unshared data size (kbytes): 0\n"
		"\tAverage stack size (kbytes): 0\n"
		"\tAverage total size (kbytes): 0\n"
		"\tMaximum resident set size (kbytes): 12345\n"
		"\tAverage resident set size (kbytes): 0\n"
		"\tMajor (requiring I/O) page faults: 2\n"
		"\tMinor (reclaiming a frame) page faults: 1234\n"
		"\tVoluntary context switches: 12\n"
		"\tInvoluntary context switches: 34\n"
		"\tSwaps: 0\n"
		"\tFile system inputs: 0\n"
		"\tFile system outputs: 8\n"
		"\tSocket messages sent: 0\n"
		"\tSocket messages received: 0\n"
		"\tSignals delivered: 0\n"
		"\tPage size (bytes): 4096\n"
		"\tExit status: 2\n");

	/* under an hour: m:ss.cc; percent from CPU over wall time */
	r.end.tv_sec = 1000 + 20;
	r.end.tv_nsec = 70000000;
	r.status = 9;        /* killed by SIGKILL */
	strbuf_reset(&out);
	time_format_gnu(&r, &out);
	assert_true(!strncmp(out.buf, "Command terminated by signal 9\n", 31));
	assert_non_null(strstr(out.buf, "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:20.07\n"));
	assert_non_null(strstr(out.buf, "\tPercent of CPU this job got: 74%\n"));
	assert_non_null(strstr(out.buf, "\tExit status: 0\n"));

	r.end = r.start;
	strbuf_reset(&out);
	time_format_gnu(&r, &out);
	assert_non_null(strstr(out.buf, "\tPercent of CPU this job got: ?%\n"));
	strbuf_release(&out);
}

static void test_time_parse(void **state)
{
	/* lkp's stats/time on GNU time -v text (as GNU time writes it) */
	check_raw("time",
		  "Command exited with non-zero status 2\n"
		  "\tCommand being timed: \"sh -c 'a: b'\"\n"
		  "\tUser time (seconds): 13.70\n"
		  "\tPercent of CPU this job got: 99%\n"
		  "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03\n"
		  "\tMajor (requiring I/O) page faults: 0\n"
		  "\tPage size (bytes): 4096\n",
		  "user_time: 13.70\n"
		  "percent_of_cpu_this_job_got: 99\n"
		  "elapsed_time: 3723.0\n"
		  "major_page_faults: 0\n"
		  "page_size: 4096\n");
	/* a line with no key before ": " gave a keyless stats line (found
	 * by fuzzing, tests/fuzz/fuzz_parse.c) */
	check_raw("time", "\t: {\n: x\n\tSwaps: 0\n", "swaps: 0\n");
	check_raw("time",
		  "\tPercent of CPU this job got: ?%\n"
		  "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:20.07\n",
		  "percent_of_cpu_this_job_got: 0\nelapsed_time: 20.07\n");
}

static void test_unavailable(void **state)
{
	struct strbuf why = STRBUF_INIT;

	assert_false(monitor_available(mon("cpufreq"), "/nonexistent-root", &why));
	assert_string_equal(why.buf, "cannot read '/nonexistent-root/sys/devices/system/cpu/"
			    "cpu0/cpufreq/stats/time_in_state': No such file or directory");
	strbuf_reset(&why);
	assert_false(monitor_available(mon("numa-vmstat"), "/nonexistent-root", &why));
	assert_non_null(strstr(why.buf, "node0/vmstat': No such file or directory"));
	strbuf_reset(&why);
	/* in the canned tree everything is there */
	for (const struct monitor *const *m = monitor_all(); *m; m++) {
		strbuf_reset(&why);
		/* but /dev/kmsg: a regular file there is no record stream */
		if ((*m)->flags & MONITOR_STREAM)
			continue;
		if (!monitor_available(*m, ROOT, &why))
			fail_msg("%s unavailable: %s", (*m)->name, why.buf);
	}
	/* the time monitor is never sampled, so never unavailable */
	assert_true(monitor_available(mon("time"), "/nonexistent-root", &why));
	strbuf_release(&why);
}

static void test_list_sources(void **state)
{
	struct monitor_sources src = { 0 };

	assert_int_equal(mon("cpuidle")->list_sources(ROOT, &src), 0);
	assert_int_equal(src.nr, 8);      /* 2 CPUs x 2 states x time, usage */
	assert_string_equal(src.v[0].label, "cpu0.POLL.time");
	assert_string_equal(src.v[3].label, "cpu0.haltpoll-idle.usage");
	assert_string_equal(src.v[3].path, ROOT "/sys/devices/system/cpu/cpu0/cpuidle/state1/usage");
	assert_int_equal(src.v[3].kind, SRC_VALUE);
	monitor_sources_release(&src);

	assert_int_equal(mon("cpufreq")->list_sources(ROOT, &src), 0);
	assert_int_equal(src.nr, 4);
	assert_string_equal(src.v[2].label, "cpu1.time_in_state");
	assert_int_equal(src.v[2].kind, SRC_PAIRS);
	monitor_sources_release(&src);

	assert_int_equal(mon("numa-numastat")->list_sources(ROOT, &src), 0);
	assert_int_equal(src.nr, 1);
	assert_string_equal(src.v[0].label, "node: 0");
	monitor_sources_release(&src);
}

static void test_list_numbered(void **state)
{
	char **names = list_numbered(ROOT, "/sys/devices/system/cpu", "cpu");

	assert_string_equal(names[0], "cpu0");
	assert_string_equal(names[1], "cpu1");
	assert_null(names[2]);
	free_names(names);
	names = list_numbered("/nonexistent-root", "/sys", "cpu");
	assert_null(names[0]);
	free_names(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_iostat_parse),
		cmocka_unit_test(test_iostat_sample),
		cmocka_unit_test(test_proc_vmstat),
		cmocka_unit_test(test_proc_vmstat_real),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_meminfo_real),
		cmocka_unit_test(test_numa),
		cmocka_unit_test(test_softirqs),
		cmocka_unit_test(test_softirqs_real),
		cmocka_unit_test(test_sums_past_2_63),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_interrupts_real),
		cmocka_unit_test(test_proc_stat),
		cmocka_unit_test(test_diskstats),
		cmocka_unit_test(test_slabinfo),
		cmocka_unit_test(test_slabinfo_errors),
		cmocka_unit_test(test_slabinfo_real),
		cmocka_unit_test(test_cpuidle),
		cmocka_unit_test(test_cpufreq),
		cmocka_unit_test(test_vmstat_conformance),
		cmocka_unit_test(test_vmstat_utc),
		cmocka_unit_test(test_vmstat_sample),
		cmocka_unit_test(test_vmstat_errors),
		cmocka_unit_test(test_raw_needs_time),
		cmocka_unit_test(test_time_format),
		cmocka_unit_test(test_time_parse),
		cmocka_unit_test(test_unavailable),
		cmocka_unit_test(test_list_sources),
		cmocka_unit_test(test_list_numbered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
