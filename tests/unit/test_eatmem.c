/*
 * Unit tests of src/run/eatmem: the eatmem keys (lkp's eatmem_size, and
 * perfbot's N% and eatmem_leave), their FILE:LINE:COL errors, the bounds
 * against MemAvailable and RLIMIT_MEMLOCK on made-up machines, the
 * journal line, and, where mlock of 16 MiB is allowed, a real eater:
 * locked while set up, gone after undo, after its owner's crash and
 * after the next start's cleanup.  No test depends on this machine's
 * memory beyond 16 MiB and the margin.
 */
#include "test_helpers.h"
#include "run/eatmem.h"
#include "run/setup.h"
#include "setup_helpers.h"
#include "run/workdir.h"
#include "job/job.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

static struct job *load(const char *text)
{
	struct job *job = NULL;
	assert_int_equal(job_load_string(text, strlen(text), "jobs/t.yaml", NULL, &job), 0);
	return job;
}

static int plan_of(const char *yaml, struct run_eatmem_plan *e, struct strbuf *err)
{
	struct job *job = load(yaml);
	struct strbuf why = STRBUF_INIT;
	struct stderr_capture c;

	capture_start(&c);
	int r = run_eatmem_plan(job, e, &why);
	capture_end_sb(&c, err);
	if (r > 0)
		strbuf_addstr(err, why.buf);
	strbuf_release(&why);
	job_free(job);
	return r;
}

/* ------------------------------------------------------------------ */
/* the keys */

static void test_plan_forms(void **state)
{
	static const struct {
		const char *yaml;
		enum run_eatmem_kind kind;
		unsigned long long bytes;
		unsigned percent;
		double duration;
	} cases[] = {
		{ "testcase: t\n", RUN_EATMEM_NONE, 0, 0, 0 },
		/* an option alone asks for nothing: the eatmem key does */
		{ "testcase: t\neatmem_size: 1G\n", RUN_EATMEM_NONE, 0, 0, 0 },
		/* lkp's jobs/exit-free.yaml */
		{ "testcase: t\neatmem:\n  eatmem_size: 80G\n  eatmem_nonuma: true\n",
		  RUN_EATMEM_BYTES, 80 * GiB, 0, 0 },
		{ "testcase: t\neatmem:\n  eatmem_size: 4M\n", RUN_EATMEM_BYTES, 4 * MiB, 0, 0 },
		{ "testcase: t\neatmem:\n  eatmem_size: 4096\n", RUN_EATMEM_BYTES, 4096, 0, 0 },
		/* top-level options, as lkp's setup script also reads them */
		{ "testcase: t\neatmem:\neatmem_size: 2G\neatmem_duration: 10m\n",
		  RUN_EATMEM_BYTES, 2 * GiB, 0, 600 },
		{ "testcase: t\neatmem_size: 1G\neatmem:\n  eatmem_size: 3G\n",
		  RUN_EATMEM_BYTES, 3 * GiB, 0, 0 },
		{ "testcase: t\neatmem:\n  eatmem_size: 75%\n", RUN_EATMEM_PERCENT, 0, 75, 0 },
		{ "testcase: t\neatmem:\n  eatmem_size: 1%\n", RUN_EATMEM_PERCENT, 0, 1, 0 },
		{ "testcase: t\neatmem:\n  eatmem_size: 100%\n", RUN_EATMEM_PERCENT, 0, 100, 0 },
		{ "testcase: t\neatmem:\n  eatmem_leave: 4G\n  eatmem_duration: 600\n",
		  RUN_EATMEM_LEAVE, 4 * GiB, 0, 600 },
	};
	struct run_eatmem_plan e;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = plan_of(cases[i].yaml, &e, &err);
		if (r != 0 || e.kind != cases[i].kind || e.bytes != cases[i].bytes ||
		    e.percent != cases[i].percent || e.duration != cases[i].duration)
			fail_msg("case %zu: r=%d kind=%d bytes=%llu pct=%u dur=%g (%s)", i, r,
				 e.kind, e.bytes, e.percent, e.duration, err.buf);
	}
	/* the value named in messages is the size's (the job must outlive e) */
	struct job *job = load("testcase: t\neatmem:\n  eatmem_leave: 4G\n");
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(run_eatmem_plan(job, &e, &why), 0);
	assert_string_equal(e.desc, "eatmem_leave '4G'");
	assert_int_equal(e.val->line, 3);
	assert_int_equal(e.val->col, 17);
	job_free(job);
	strbuf_release(&why);
	strbuf_release(&err);
}

static void test_plan_errors(void **state)
{
	static const struct { const char *yaml, *msg; } cases[] = {
		{ "testcase: t\neatmem:\n",
		  "jobs/t.yaml:2:1: 'eatmem' expected eatmem_size (16G, or 75% of MemAvailable) "
		  "or eatmem_leave (4G: lock all of MemAvailable but that)" },
		{ "testcase: t\neatmem: 4G\n",
		  "jobs/t.yaml:2:9: 'eatmem' expected a mapping with eatmem_size or eatmem_leave, got '4G'" },
		{ "testcase: t\neatmem:\n  eatmem_size: 0\n",
		  "jobs/t.yaml:3:16: 'eatmem_size' expected a size as 16G or 512M, or N% of "
		  "MemAvailable (1-100), got '0'" },
		{ "testcase: t\neatmem:\n  eatmem_size: 1X\n", "jobs/t.yaml:3:16: 'eatmem_size' expected" },
		{ "testcase: t\neatmem:\n  eatmem_size: 0%\n", "jobs/t.yaml:3:16: 'eatmem_size' expected" },
		{ "testcase: t\neatmem:\n  eatmem_size: 101%\n", "jobs/t.yaml:3:16: 'eatmem_size' expected" },
		{ "testcase: t\neatmem:\n  eatmem_size: 1000%\n", "jobs/t.yaml:3:16: 'eatmem_size' expected" },
		{ "testcase: t\neatmem:\n  eatmem_size: 7.5%\n", "jobs/t.yaml:3:16: 'eatmem_size' expected" },
		{ "testcase: t\neatmem:\n  eatmem_size: 50%%\n", "jobs/t.yaml:3:16: 'eatmem_size' expected" },
		{ "testcase: t\neatmem:\n  eatmem_size: '%'\n", "jobs/t.yaml:3:17: 'eatmem_size' expected" },
		{ "testcase: t\neatmem:\n  eatmem_leave: 50%\n",
		  "jobs/t.yaml:3:17: 'eatmem_leave' expected a size as 4G or 512M, got '50%'" },
		{ "testcase: t\neatmem:\n  eatmem_size: 1G\n  eatmem_leave: 4G\n",
		  "jobs/t.yaml:4:17: 'eatmem_leave' and 'eatmem_size' both given: give one" },
		{ "testcase: t\neatmem:\n  eatmem_size: 1G\n  eatmem_duration: 0\n",
		  "jobs/t.yaml:4:20: 'eatmem_duration' expected a duration above 0 as 600 or 10m, got '0'" },
		{ "testcase: t\neatmem:\n  eatmem_size: 1G\n  eatmem_duration: soon\n",
		  "jobs/t.yaml:4:20: 'eatmem_duration' expected a duration" },
		{ "testcase: t\neatmem:\n  eatmem_size:\n    - 1G\n    - 2G\n",
		  "jobs/t.yaml:4:5: 'eatmem_size' expected one value (split the job into atomic jobs first)" },
		{ "testcase: t\neatmem:\n  eatmem_sise: 1G\n",
		  "jobs/t.yaml:3:3: unknown eatmem option 'eatmem_sise' (expected eatmem_size, "
		  "eatmem_leave, eatmem_duration or eatmem_nonuma)" },
		{ "testcase: t\neatmem:\n  - eatmem_size: 1G\n",
		  "jobs/t.yaml:3:3: 'eatmem' expected one mapping (split the job into atomic jobs first)" },
	};
	struct run_eatmem_plan e;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = plan_of(cases[i].yaml, &e, &err);
		if (r != -1 || !strstr(err.buf, cases[i].msg) || strchr(err.buf, '\n') != strrchr(err.buf, '\n'))
			fail_msg("case %zu: r=%d, stderr '%s', expected '%s'", i, r, err.buf,
				 cases[i].msg);
	}
	/* lkp's NUMA binding: known, not done */
	assert_int_equal(plan_of("testcase: t\neatmem:\n  eatmem_size: 1G\n  cpu_node_bind: even\n",
				 &e, &err), 1);
	assert_non_null(strstr(err.buf, "cpu_node_bind (lkp's NUMA binding of the eater) is not done"));
	/* run_setup_plan reads it too: a bad eatmem is a bad job */
	struct job *job = load("testcase: t\nfs: ext4\neatmem:\n  eatmem_size: 1Q\n");
	struct run_setup_plan p;
	struct strbuf why = STRBUF_INIT;
	struct stderr_capture c;
	capture_start(&c);
	assert_int_equal(run_setup_plan(job, &p, &why), -1);
	capture_end_sb(&c, &err);
	assert_non_null(strstr(err.buf, "jobs/t.yaml:4:16: 'eatmem_size' expected"));
	job_free(job);
	job = load("testcase: t\neatmem:\n  eatmem_leave: 2G\n");
	assert_int_equal(run_setup_plan(job, &p, &why), 0);
	assert_int_equal(p.eatmem.kind, RUN_EATMEM_LEAVE);
	job_free(job);
	strbuf_release(&why);
	strbuf_release(&err);
}

/* ------------------------------------------------------------------ */
/* the bounds, on made-up machines */

static int resolve(const char *yaml, unsigned long long total, unsigned long long avail,
		   unsigned long long *bytes, struct strbuf *why)
{
	struct run_eatmem_plan e;
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(plan_of(yaml, &e, &err), 0);
	strbuf_release(&err);
	strbuf_reset(why);
	*bytes = 12345;
	return run_eatmem_resolve(&e, total, avail, bytes, why);
}

static void test_margin(void **state)
{
	(void)state;
	/* the larger of 512 MiB and MemTotal/32 */
	assert_true(run_eatmem_margin(24 * GiB) == 768 * MiB);
	assert_true(run_eatmem_margin(16 * GiB) == 512 * MiB);
	assert_true(run_eatmem_margin(16 * GiB + 64) == 512 * MiB + 2);
	assert_true(run_eatmem_margin(8 * GiB) == 512 * MiB);
	assert_true(run_eatmem_margin(0) == 512 * MiB);
}

static void test_resolve_bytes(void **state)
{
	struct strbuf why = STRBUF_INIT;
	unsigned long long b;
	(void)state;

	/* 24 GiB machine, 10 GiB available: margin 768 MiB */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 9472M\n",
				 24 * GiB, 10 * GiB, &b, &why), 0);
	assert_true(b == 9472 * MiB);
	/* one byte more than leaves the margin */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 9699329K\n",
				 24 * GiB, 10 * GiB, &b, &why), 1);
	assert_true(b == 12345);
	assert_string_equal(why.buf, "eatmem_size '9699329K' would leave 767.9 MiB of the 10 GiB "
			    "available (MemAvailable), less than the safe margin of 768 MiB (the "
			    "larger of 512 MiB and MemTotal/32)");
	/* more than is available */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 80G\n",
				 24 * GiB, 10 * GiB, &b, &why), 1);
	assert_non_null(strstr(why.buf, "would leave 0 bytes of the 10 GiB available"));
	/* a small machine: the 512 MiB floor */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 512M\n",
				 2 * GiB, 1 * GiB, &b, &why), 0);
	assert_true(b == 512 * MiB);
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 513M\n",
				 2 * GiB, 1 * GiB, &b, &why), 1);
	strbuf_release(&why);
}

static void test_resolve_percent(void **state)
{
	struct strbuf why = STRBUF_INIT;
	unsigned long long b;
	(void)state;

	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 50%\n",
				 24 * GiB, 10 * GiB, &b, &why), 0);
	assert_true(b == 5 * GiB);
	/* rounded down, the remainder counted: 50% of 1 GiB + 199 bytes */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 50%\n",
				 2 * GiB, GiB + 199, &b, &why), 0);
	assert_true(b == GiB / 2 + 99);
	/* 100% leaves nothing: refused on any machine */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 100%\n",
				 24 * GiB, 20 * GiB, &b, &why), 1);
	assert_non_null(strstr(why.buf, "eatmem_size '100%' would leave 0 bytes of the 20 GiB"));
	/* 92% of 10 GiB leaves 819.2 MiB > 768 MiB; 93% leaves 716.8 MiB */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 92%\n",
				 24 * GiB, 10 * GiB, &b, &why), 0);
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_size: 93%\n",
				 24 * GiB, 10 * GiB, &b, &why), 1);
	strbuf_release(&why);
}

static void test_resolve_leave(void **state)
{
	struct strbuf why = STRBUF_INIT;
	unsigned long long b;
	(void)state;

	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_leave: 4G\n",
				 24 * GiB, 21 * GiB, &b, &why), 0);
	assert_true(b == 17 * GiB);
	/* less is available already: nothing to lock, no error */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_leave: 4G\n",
				 24 * GiB, 4 * GiB, &b, &why), 0);
	assert_true(b == 0);
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_leave: 4G\n",
				 24 * GiB, 300 * MiB, &b, &why), 0);
	assert_true(b == 0);
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_leave: 4G\n",
				 24 * GiB, 4 * GiB + 1, &b, &why), 0);
	assert_true(b == 1);
	/* the margin itself may be left, not less */
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_leave: 768M\n",
				 24 * GiB, 21 * GiB, &b, &why), 0);
	assert_true(b == 21 * GiB - 768 * MiB);
	assert_int_equal(resolve("testcase: t\neatmem:\n  eatmem_leave: 786431K\n",
				 24 * GiB, 21 * GiB, &b, &why), 1);
	assert_string_equal(why.buf, "eatmem_leave '786431K' leaves less than the safe margin "
			    "of 768 MiB (the larger of 512 MiB and MemTotal/32)");
	strbuf_release(&why);
}

static void test_memlock(void **state)
{
	struct strbuf why = STRBUF_INIT;
	(void)state;

	assert_int_equal(run_eatmem_memlock(64 * MiB, 8 * MiB, true, &why), 0);
	assert_int_equal(run_eatmem_memlock(64 * MiB, (unsigned long long)RLIM_INFINITY, false, &why), 0);
	assert_int_equal(run_eatmem_memlock(64 * MiB, 64 * MiB, false, &why), 0);
	assert_int_equal(why.len, 0);
	assert_int_equal(run_eatmem_memlock(64 * MiB + 1, 64 * MiB, false, &why), 1);
	assert_string_equal(why.buf, "locking 64.0 MiB needs RLIMIT_MEMLOCK of at least that, "
			    "but its hard limit (ulimit -Hl) is 64 MiB: run perfbot as root, or "
			    "raise memlock (limits.conf)");
	strbuf_release(&why);
}

static void test_meminfo(void **state)
{
	static const char text[] = "MemTotal:       24683584 kB\nMemFree:        1000 kB\n"
				   "MemAvailable:   24291796 kB\nSwapCached: 0 kB\n";
	(void)state;

	assert_true(run_eatmem_meminfo(text, "MemTotal") == 24683584LL * 1024);
	assert_true(run_eatmem_meminfo(text, "MemAvailable") == 24291796LL * 1024);
	assert_true(run_eatmem_meminfo(text, "MemFree") == 1000 * 1024);
	assert_true(run_eatmem_meminfo(text, "Mem") == -1);
	assert_true(run_eatmem_meminfo(text, "Cached") == -1);
	assert_true(run_eatmem_meminfo("MemAvailable: x kB\n", "MemAvailable") == -1);
	assert_true(run_eatmem_meminfo("", "MemAvailable") == -1);
}

/* The refusal names the job's line, through the setup check. */
static void test_check_refuses(void **state)
{
	static const char *const jobs[] = {
		"testcase: t\neatmem:\n  eatmem_size: 8192P\n",
		"testcase: t\neatmem:\n  eatmem_size: 100%\n",
	};
	struct strbuf log = STRBUF_INIT, err = STRBUF_INIT;
	struct stderr_capture c;
	char *base = test_tmpdir("eatmem");
	(void)state;

	for (size_t i = 0; i < 2; i++) {
		struct job *job = load(jobs[i]);
		strbuf_reset(&log);
		capture_start(&c);
		int r = setup_check_job(job, base, NULL, &log);
		capture_end_sb(&c, &err);
		if (r != 1 || !strstr(err.buf, "jobs/t.yaml:3:16: eatmem: eatmem_size '") ||
		    !strstr(err.buf, "available (MemAvailable), less than the safe margin of") ||
		    strchr(err.buf, '\n') != err.buf + err.len - 1)
			fail_msg("job %zu: r=%d stderr '%s'", i, r, err.buf);
		assert_non_null(strstr(log.buf, "setup: cannot work here: jobs/t.yaml:3:16: eatmem:"));
		/* and apply changes nothing */
		struct run_setup s = RUN_SETUP_INIT;
		capture_start(&c);
		assert_int_equal(setup_apply_job(job, base, &s, &log), 1);
		capture_end_sb(&c, &err);
		assert_int_equal(s.eater, 0);
		job_free(job);
	}
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&err);
}

/* ------------------------------------------------------------------ */
/* the journal line */

static void test_journal_line(void **state)
{
	static const struct { const char *line; bool ok; } cases[] = {
		{ "eatmem 123 456", true },
		{ "eatmem 123", false },
		{ "eatmem 123 ", false },
		{ "eatmem x 456", false },
		{ "eatmem 123 456 7", false },
		{ "eatmem -1 456", false },
		{ "eatmem  123 456", false },
	};
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&text);
		strbuf_reset(&why);
		strbuf_addf(&text, "perfbot-setup 1\nowner 1 2\n%s\n", cases[i].line);
		int r = run_journal_check(text.buf, "/w/setup-1-0.state", NULL, &why);
		if ((r == 0) != cases[i].ok)
			fail_msg("'%s': r=%d (%s)", cases[i].line, r, why.buf);
	}
	strbuf_release(&text);
	strbuf_release(&why);
}

/* ------------------------------------------------------------------ */
/* a real eater, 16 MiB */

/* VmLck of pid in KiB, -1 when it is gone (or a zombie: no memory). */
static long vm_locked_kb(long pid)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	long kb = -1;

	strbuf_addf(&path, "/proc/%ld/status", pid);
	if (read_file(&sb, path.buf) == 0) {
		const char *p = strstr(sb.buf, "\nVmLck:");
		if (p)
			kb = strtol(p + 7, NULL, 10);
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return kb;
}

static unsigned long long meminfo(const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	long long b = -1;

	if (read_file(&sb, "/proc/meminfo") == 0)
		b = run_eatmem_meminfo(sb.buf, key);
	strbuf_release(&sb);
	return b < 0 ? 0 : (unsigned long long)b;
}
static unsigned long long mem_available(void) { return meminfo("MemAvailable"); }
static unsigned long long mem_total(void) { return meminfo("MemTotal"); }

static bool can_mlock(unsigned long long bytes)
{
	struct rlimit rl;

	if (geteuid() == 0)
		return true;
	return getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
	       (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= bytes);
}

#define skip_unless_eatable() do { \
	if (!can_mlock(16 * MiB)) { \
		print_message("skipped: mlock of 16 MiB not permitted (not root, ulimit -Hl)\n"); \
		skip(); \
	} \
	if (mem_available() < 2 * run_eatmem_margin(mem_total())) { \
		print_message("skipped: less than twice the eater's margin available\n"); \
		skip(); \
	} \
} while (0)

static void test_real_eater(void **state)
{
	struct job *job = load("testcase: t\neatmem:\n  eatmem_size: 16M\n");
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf log = STRBUF_INIT, path = STRBUF_INIT, sb = STRBUF_INIT;
	struct stderr_capture c;
	char *base;
	(void)state;

	skip_unless_eatable();
	base = test_tmpdir("eatmem");
	path_join(&path, base, "work");
	capture_start(&c);
	int r = setup_apply_job(job, path.buf, &s, &log);
	capture_end_sb(&c, &sb);
	if (r)
		fail_msg("apply: %d: %s", r, sb.buf);
	assert_non_null(strstr(sb.buf, "perfbot: eatmem: locking 16 MiB ("));
	assert_non_null(strstr(sb.buf, "perfbot: eatmem: locked 16 MiB in "));
	assert_true(s.eater > 0);
	assert_true(s.eaten == 16 * MiB);
	assert_true(vm_locked_kb(s.eater) >= 16384);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "PERFBOT_EATMEM_PID=%ld", s.eater);
	assert_non_null(s.env);
	assert_string_equal(s.env[0], sb.buf);
	/* its name, its own group, and the journal names it */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "/proc/%ld/comm", s.eater);
	struct strbuf comm = STRBUF_INIT;
	assert_int_equal(read_file(&comm, sb.buf), 0);
	assert_string_equal(comm.buf, "perfbot-eatmem\n");
	assert_int_equal(getpgid((pid_t)s.eater), s.eater);
	long pid = s.eater;
	assert_int_equal(run_setup_undo(&s, &log), 0);
	assert_int_equal(vm_locked_kb(pid), -1);
	assert_int_equal(kill((pid_t)pid, 0), -1);
	assert_non_null(strstr(log.buf, "undo: eatmem: released"));
	assert_int_equal(s.eater, 0);
	/* twice is harmless */
	assert_int_equal(run_setup_undo(&s, &log), 0);
	strbuf_release(&comm);
	job_free(job);
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&path);
	strbuf_release(&sb);
}

/* The owner dies without undo: the eater dies with it (PR_SET_PDEATHSIG)
 * and the next start's cleanup removes the journal. */
static void test_owner_crash(void **state)
{
	struct strbuf log = STRBUF_INIT, path = STRBUF_INIT;
	int p[2];
	long eater = 0;
	char *base;
	(void)state;

	skip_unless_eatable();
	base = test_tmpdir("eatmem");
	path_join(&path, base, "work");
	assert_int_equal(pipe(p), 0);
	pid_t owner = fork();
	assert_true(owner >= 0);
	if (owner == 0) {
		/* should the test fail, the owner (and so its eater) goes with it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		struct job *job = load("testcase: t\neatmem:\n  eatmem_size: 16M\n");
		struct run_setup s = RUN_SETUP_INIT;
		struct strbuf l = STRBUF_INIT;
		if (setup_apply_job(job, path.buf, &s, &l) != 0)
			_exit(1);
		if (write(p[1], &s.eater, sizeof(s.eater)) != sizeof(s.eater))
			_exit(1);
		pause();        /* killed with -9 below */
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &eater, sizeof(eater)), (ssize_t)sizeof(eater));
	close(p[0]);
	assert_true(vm_locked_kb(eater) >= 16384);
	kill(owner, SIGKILL);
	waitpid(owner, NULL, 0);
	/* it is init's now, which reaps it: wait for that */
	for (int i = 0; i < 100 && vm_locked_kb(eater) >= 0; i++)
		usleep(20000);
	assert_int_equal(vm_locked_kb(eater), -1);
	assert_int_equal(run_setup_cleanup_stale(path.buf, NULL, &log), 1);
	assert_non_null(strstr(log.buf, "setup: cleaned "));
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&path);
}

/* A process that is not our child, named name: fork twice.  It ends
 * by itself after 10 s should the test not kill it. */
static pid_t orphan(const char *name)
{
	int p[2];
	pid_t pid = 0, mid;

	assert_int_equal(pipe(p), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		pid_t g = fork();
		if (g == 0) {
			pid_t me = getpid();
			/* nothing of the test's output stays open in it */
			int null = open("/dev/null", O_RDWR);
			for (int fd = 0; fd < 3 && null >= 0; fd++)
				dup2(null, fd);
			close(p[0]);
			prctl(PR_SET_NAME, name);
			alarm(10);
			if (write(p[1], &me, sizeof(me)) != sizeof(me))
				_exit(1);
			close(p[1]);
			for (;;)
				pause();
		}
		_exit(g > 0 ? 0 : 1);
	}
	close(p[1]);
	waitpid(mid, NULL, 0);
	assert_int_equal(read(p[0], &pid, sizeof(pid)), (ssize_t)sizeof(pid));
	close(p[0]);
	assert_true(pid > 0);
	return pid;
}

static long long start_of(pid_t pid)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	long long start = -1;

	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	if (read_file(&sb, path.buf) == 0) {
		const char *p = strrchr(sb.buf, ')');
		for (int field = 2; p && field < 22; field++)
			p = strchr(p + 1, ' ');
		if (p)
			start = strtoll(p + 1, NULL, 10);
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return start;
}

/* pid runs (kill(pid, 0) also succeeds on a zombie init has not reaped) */
static bool alive(pid_t pid)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	bool yes = false;

	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	if (read_file(&sb, path.buf) == 0) {
		const char *p = strrchr(sb.buf, ')');
		yes = p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return yes;
}

/* A dead perfbot's journal names an eater that survived (say, PDEATHSIG
 * lost): cleanup kills it -- and only a perfbot-eatmem of that start. */
static void test_stale_survivor(void **state)
{
	struct strbuf log = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	char *base = test_tmpdir("eatmem");
	(void)state;

	path_join(&path, base, "work");
	assert_int_equal(mkdir(path.buf, 0700), 0);
	pid_t eater = orphan("perfbot-eatmem"), other = orphan("perfbot-eatmeX");
	pid_t later = orphan("perfbot-eatmem");
	long long es = start_of(eater), os = start_of(other), ls = start_of(later);
	assert_true(es > 0 && os > 0 && ls > 0);
	/* owner: pid 1 with a start time it never had, so "gone"; `later`
	 * stands for a reused pid: the journal's start is not its own */
	strbuf_addf(&text, "perfbot-setup 1\nowner 1 99999999999\neatmem %ld %lld\n"
		    "eatmem %ld %lld\neatmem %ld %lld\n", (long)other, os, (long)later, ls + 1,
		    (long)eater, es);
	strbuf_reset(&path);
	path_join(&path, base, "work/setup-999999-0.state");
	assert_int_equal(write_file_atomic(path.buf, text.buf, text.len), 0);
	strbuf_reset(&path);
	path_join(&path, base, "work");
	assert_int_equal(run_setup_cleanup_stale(path.buf, NULL, &log), 1);
	assert_non_null(strstr(log.buf, "undo: eatmem: killed a dead perfbot's eater"));
	assert_false(alive(eater));
	/* another name, or the right name with another start: left alone */
	assert_true(alive(other));
	assert_true(alive(later));
	kill(other, SIGKILL);
	kill(later, SIGKILL);
	test_rm_rf(base);
	free(base);
	strbuf_release(&log);
	strbuf_release(&path);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_forms),
		cmocka_unit_test(test_plan_errors),
		cmocka_unit_test(test_margin),
		cmocka_unit_test(test_resolve_bytes),
		cmocka_unit_test(test_resolve_percent),
		cmocka_unit_test(test_resolve_leave),
		cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_check_refuses),
		cmocka_unit_test(test_journal_line),
		cmocka_unit_test(test_real_eater),
		cmocka_unit_test(test_owner_crash),
		cmocka_unit_test(test_stale_survivor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
