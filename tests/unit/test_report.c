/*
 * test_report.c: `perfbot report` (src/report/report*.c).
 *
 * The pieces one by one — the first paragraph's wording, commit
 * annotations, machine parsing, bisect.json checking, the perf call graph
 * excerpt, plots, HTML escaping — and whole text reports against golden
 * files in tests/data/report/ (run from the project root;
 * PERFBOT_UPDATE_GOLDEN=1 rewrites them, to be reviewed before
 * committing).  The fake /proc in tests/data/report/proc keeps the
 * machine section independent of the machine running the tests.
 */
#include "test_helpers.h"

#include <limits.h>
#include <math.h>

#include "bisect/driver.h"
#include "bisect/kernel.h"
#include "report/report.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

#define DATA "tests/data/report"
#define BISECT DATA "/bisect"
#define RESULT BISECT "/result"
#define PARENT "7c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b"
#define FIRST_BAD "9b17c62382dd2e7507984b989a1b2c3d4e5f6a7b"
#define GOOD "3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a098"
#define BAD "d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1"

static void check_golden(const char *name, const struct strbuf *got)
{
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT;
	const char *update = getenv("PERFBOT_UPDATE_GOLDEN");

	strbuf_addf(&path, "%s/%s", DATA, name);
	if (update && *update && strcmp(update, "0")) {
		assert_int_equal(write_file_atomic(path.buf, got->buf, got->len), 0);
		print_message("updated %s\n", path.buf);
	} else {
		assert_int_equal(read_file(&want, path.buf), 0);
		if (want.len != got->len || memcmp(want.buf, got->buf, got->len)) {
			print_message("%s differs; got:\n%s", path.buf, got->buf);
			fail_msg("%s: the report differs from the golden file", name);
		}
	}
	strbuf_release(&path);
	strbuf_release(&want);
}

static void options(struct report_options *opt)
{
	report_options_init(opt);
	opt->proc_dir = DATA "/proc";
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("expected to find \"%s\" in:\n%s", needle, hay);
}

static void assert_lacks(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		fail_msg("did not expect \"%s\" in:\n%s", needle, hay);
}

/* Run the statement with stderr going to a file; its text ends in sb. */
#define CAPTURE_STDERR(sb, stmt) do { \
	struct stderr_capture cap_; \
	capture_start(&cap_); \
	stmt; \
	capture_end_sb(&cap_, (sb)); \
} while (0)

/* --- the first paragraph ------------------------------------------ */

static void test_headline_regression(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *labels[] = { "v3.13-rc6" };
	const double changes[] = { -47.6 };
	struct report_headline h = {
		.metric = "vm-scalability.throughput", .kind = CHANGE_REGRESSION,
		.change = -48.8, .testcase = "vm-scalability/300s-lru-file-readtwice",
		.base = "v3.11", .new = "v3.12", .more_labels = labels,
		.more_changes = changes, .nr_more = 1, .changed = 43,
		.other_regressions = 2, .other_improvements = 1,
	};

	report_headline_text(&h, &sb);
	assert_string_equal(sb.buf,
		"We noticed a -48.8% regression of vm-scalability.throughput in test case\n"
		"\n"
		"        vm-scalability/300s-lru-file-readtwice\n"
		"\n"
		"between v3.11 and v3.12, and it is -47.6% as of v3.13-rc6. Of the other\n"
		"key metrics, 2 regressed and 1 improved. 43 metrics changed in all.\n"
		"\n");
	strbuf_release(&sb);
}

/* perfbot watch says where the history puts the change, as seed 001 */
static void test_headline_where(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *labels[] = { "v1.3" };
	const double changes[] = { -29.5 };
	struct report_headline h = {
		.metric = "mytest.throughput", .kind = CHANGE_REGRESSION,
		.change = -29.8, .testcase = "mytest/3s", .base = "v1.1", .new = "v1.2",
		.more_labels = labels, .more_changes = changes, .nr_more = 1,
		.where = "between v1.1 and v1.2, and it's still low as of v1.3",
		.first_bad = "1a2b3c4d5e6f", .first_bad_subject = "workload: one shared total",
	};
	(void)state;

	report_headline_text(&h, &sb);
	assert_string_equal(sb.buf,
		"We noticed a -29.8% regression of mytest.throughput in test case\n"
		"\n"
		"        mytest/3s\n"
		"\n"
		"between v1.1 and v1.2, and it's still low as of v1.3. The bisect leads\n"
		"us to commit 1a2b3c4d5e6f (\"workload: one shared total\").\n"
		"\n");
	strbuf_reset(&sb);
	h.testcase = NULL;
	report_headline_text(&h, &sb);
	assert_string_equal(sb.buf,
		"We noticed a -29.8% regression of mytest.throughput between v1.1 and\n"
		"v1.2, and it's still low as of v1.3. The bisect leads us to commit\n"
		"1a2b3c4d5e6f (\"workload: one shared total\").\n"
		"\n");
	strbuf_release(&sb);
}

static void test_headline_improvement_bisect(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct report_headline h = {
		.metric = "hackbench.throughput", .kind = CHANGE_IMPROVEMENT,
		.change = 12.345, .base = "abc", .new = "def",
		.first_bad = "9b17c62382", .first_bad_subject = "sched: wake up faster",
		.changed = 1,
	};

	report_headline_text(&h, &sb);
	assert_string_equal(sb.buf,
		"We noticed a +12.3% improvement of hackbench.throughput between abc and\n"
		"def. The bisect leads us to commit 9b17c62382 (\"sched: wake up faster\").\n"
		"\n");
	strbuf_release(&sb);
}

static void test_headline_unknown_and_none(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct report_headline h = {
		.metric = "mytest.score", .kind = CHANGE_UNKNOWN, .change = 3.25,
		.abs_change = true, .base = "a", .new = "b",
	};

	report_headline_text(&h, &sb);
	assert_string_equal(sb.buf, "We noticed a +3.25 change of mytest.score between a and b.\n\n");
	strbuf_reset(&sb);

	h.kind = CHANGE_NONE;
	h.abs_change = false;
	h.change = 0.3;
	h.testcase = "mytest/8-30s";
	h.changed = 2;
	report_headline_text(&h, &sb);
	assert_string_equal(sb.buf,
		"We compared a and b in test case\n"
		"\n"
		"        mytest/8-30s\n"
		"\n"
		"and noticed no significant change of the key metrics (mytest.score:\n"
		"+0.3%). 2 other metrics changed.\n"
		"\n");
	strbuf_release(&sb);
}

static void test_wrap(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	report_wrap(&sb, "aaa bbb  ccc\ndddd", 8, "> ");
	assert_string_equal(sb.buf, "> aaa\n> bbb\n> ccc\n> dddd\n");
	strbuf_reset(&sb);
	/* a word longer than the width gets its own line, unbroken */
	report_wrap(&sb, "x averyveryverylongword y", 10, "");
	assert_string_equal(sb.buf, "x\naveryveryverylongword\ny\n");
	strbuf_reset(&sb);
	report_wrap(&sb, "   ", 10, "");
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

/* --- commits --------------------------------------------------------- */

static void test_commit_notes(void **state)
{
	struct report_commit c = { .id = "9b17c62382dd2e75" };
	struct strbuf sb = STRBUF_INIT;

	report_commit_notes(&c, &sb);
	assert_string_equal(sb.buf, "");
	report_commit_note(&c, "first bad commit");
	report_commit_note(&c, "v1.0");
	report_commit_note(&c, "first bad commit");     /* once only */
	report_commit_notes(&c, &sb);
	assert_string_equal(sb.buf, " (first bad commit, v1.0)");
	assert_true(report_commit_matches(&c, "9b17c62382dd2e75"));
	assert_true(report_commit_matches(&c, "9b17"));
	assert_false(report_commit_matches(&c, "9b1"));        /* too short */
	assert_false(report_commit_matches(&c, "9b18"));
	for (int i = 0; i < c.nr_notes; i++)
		free(c.notes[i]);
	free(c.notes);
	strbuf_release(&sb);
}

static void test_bisect_annotations(void **state)
{
	struct report_options opt;
	struct report r;
	struct report_tag tags[] = { { "your fix", FIRST_BAD } };
	struct strbuf sb = STRBUF_INIT;

	options(&opt);
	opt.tags = tags;
	opt.nr_tags = 1;
	assert_int_equal(report_load_bisect(&r, BISECT, &opt), 0);
	assert_int_equal(r.main.ncols, 2);
	assert_string_equal(r.main_commits[0].id, PARENT);
	report_commit_notes(&r.main_commits[0], &sb);
	assert_string_equal(sb.buf, " (parent of first bad commit)");
	strbuf_reset(&sb);
	report_commit_notes(&r.main_commits[1], &sb);
	assert_string_equal(sb.buf, " (first bad commit, your fix)");
	/* the key metric table runs good, parent, first bad, bad */
	assert_int_equal(r.kpi.ncols, 4);
	strbuf_reset(&sb);
	report_commit_notes(&r.kpi_commits[0], &sb);
	assert_string_equal(sb.buf, " (good, v6.9)");
	strbuf_reset(&sb);
	report_commit_notes(&r.kpi_commits[3], &sb);
	assert_string_equal(sb.buf, " (bad, v6.10)");
	assert_string_equal(r.kpi_commits[2].subject,
			    "fs: convert inode and dentry shrinking to be node aware");
	/* prose names commits by their tags */
	assert_string_equal(r.headline.base, "v6.9");
	assert_string_equal(r.headline.new, "v6.10");
	assert_int_equal(r.headline.kind, CHANGE_REGRESSION);
	assert_string_equal(r.headline.first_bad, "9b17c62382");
	assert_string_equal(r.kpi.row[r.kpi_rows[0]].stat, "mytest.throughput");
	report_release(&r);
	strbuf_release(&sb);
}

static void test_compare_tags_and_axes(void **state)
{
	struct report_options opt;
	struct report r;
	struct report_tag tags[] = { { "v6.9", "7c3b2a1f" } };
	char *paths[] = { RESULT "/" PARENT, RESULT "/" FIRST_BAD };
	struct strbuf sb = STRBUF_INIT;

	options(&opt);
	opt.tags = tags;
	opt.nr_tags = 1;
	assert_int_equal(report_load_compare(&r, paths, 2, &opt), 0);
	report_commit_notes(&r.main_commits[0], &sb);
	assert_string_equal(sb.buf, " (v6.9)");
	assert_string_equal(r.headline.base, "v6.9");
	assert_string_equal(r.headline.new, FIRST_BAD);
	/* the job's parameters, sorted, without commit */
	strbuf_reset(&sb);
	for (int i = 0; i < r.nr_axes; i++)
		strbuf_addf(&sb, "%s=%s ", r.axes[i].key, r.axes[i].value);
	assert_string_equal(sb.buf, "compiler=gcc-12 kconfig=x86_64-rhel nr_threads=8 "
			    "rootfs=debian-12-x86_64 runtime=30s tbox_group=lkp-ci "
			    "test=lru-file-readtwice testcase=mytest ");
	assert_string_equal(r.testcase, "mytest/8-30s-lru-file-readtwice");
	/* the run dir was found next to matrix.json (stats_source is gone) */
	assert_non_null(r.job_path);
	assert_contains(r.job_path, PARENT "/0/job.yaml");
	assert_contains(r.machine.source, FIRST_BAD "/0/machine");
	assert_contains(r.profile_path, FIRST_BAD "/0/perf-profile.txt");
	report_release(&r);
	strbuf_release(&sb);
}

/* --- the machine ------------------------------------------------------ */

static void test_machine_file(void **state)
{
	struct report_machine m = { 0 };
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(report_machine_parse(&m, "# host\nmodel: Xeon Gold\nnr_cpu: 96\n\n"
					      "memory: 384G\nnr_node: 2\n", "machine"), 0);
	assert_string_equal(m.model, "Xeon Gold");
	assert_int_equal(m.nr_cpu, 96);
	assert_true(m.memory_kb == 384ULL << 20);
	report_memory_size(m.memory_kb, &sb);
	assert_string_equal(sb.buf, "384G");
	report_machine_release(&m);

	assert_int_equal(report_machine_parse(&m, "memory: 1536M\n", "m"), 0);
	strbuf_reset(&sb);
	report_memory_size(m.memory_kb, &sb);
	assert_string_equal(sb.buf, "1.5G");
	report_machine_release(&m);

	int rc;
	CAPTURE_STDERR(&sb, rc = report_machine_parse(&m, "model: x\nthis is no pair\n", "m"));
	assert_int_equal(rc, -1);
	assert_string_equal(sb.buf, "perfbot: m:2: expected 'key: value', got 'this is no pair'\n");
	report_machine_release(&m);
	CAPTURE_STDERR(&sb, rc = report_machine_parse(&m, "\n\n# x\nnr_cpu: many\n", "m"));
	assert_int_equal(rc, -1);
	assert_string_equal(sb.buf, "perfbot: m:4: 'nr_cpu' expected a positive integer, got 'many'\n");
	report_machine_release(&m);
	/* a QEMU guest of perfbot run --kernel: TCG's times are emulated */
	struct report r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(report_machine_parse(&r.machine, "nr_cpu: 2\nmemory: 1G\nqemu_accel: tcg\n", "m"), 0);
	r.machine.source = xstrdup("m");
	strbuf_reset(&sb);
	assert_true(report_machine_sentence(&r, &sb));
	assert_string_equal(sb.buf, "The test machine is a QEMU guest (TCG) that has 2 CPUs and 1G memory "
			    "(from m). Its timings are emulated under TCG: compare them with each other, "
			    "not with a real machine.");
	report_machine_release(&r.machine);
	assert_int_equal(report_machine_parse(&r.machine, "nr_cpu: 2\nqemu_accel: kvm\n", "m"), 0);
	r.machine.source = xstrdup("m");
	strbuf_reset(&sb);
	assert_true(report_machine_sentence(&r, &sb));
	assert_string_equal(sb.buf, "The test machine is a QEMU guest (KVM) that has 2 CPUs (from m).");
	report_machine_release(&r.machine);
	assert_int_equal(report_machine_parse(&r.machine, "nr_cpu: 1\nqemu_accel: icount\n", "m"), 0);
	r.machine.source = xstrdup("m");
	strbuf_reset(&sb);
	assert_true(report_machine_sentence(&r, &sb));
	assert_string_equal(sb.buf, "The test machine is a QEMU guest (TCG with instruction counting) that "
			    "has 1 CPU (from m). Its timings are emulated under TCG on a clock that counts "
			    "instructions: they measure how many each operation takes, not what they cost "
			    "on real hardware.");
	report_machine_release(&r.machine);
	CAPTURE_STDERR(&sb, rc = report_machine_parse(&m, "memory: 12Q\n", "m"));
	assert_int_equal(rc, -1);
	assert_string_equal(sb.buf, "perfbot: m:1: 'memory' expected a size like 16G, got '12Q'\n");
	report_machine_release(&m);
	strbuf_release(&sb);
}

static void test_machine_proc(void **state)
{
	struct report_machine m = { 0 };
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(read_file(&sb, DATA "/proc/cpuinfo"), 0);
	report_machine_cpuinfo(&m, sb.buf);
	assert_string_equal(m.model, "Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz");
	assert_int_equal(m.nr_cpu, 4);
	strbuf_reset(&sb);
	assert_int_equal(read_file(&sb, DATA "/proc/meminfo"), 0);
	report_machine_meminfo(&m, sb.buf);
	assert_true(m.memory_kb == 16384000);
	strbuf_reset(&sb);
	report_memory_size(m.memory_kb, &sb);
	assert_string_equal(sb.buf, "15.6G");
	/* only a line that starts with MemTotal counts */
	report_machine_release(&m);
	report_machine_meminfo(&m, "XMemTotal: 5 kB\n");
	assert_true(m.memory_kb == 0);
	strbuf_release(&sb);
}

/* --- bisect.json ------------------------------------------------------- */

static void test_bisect_find(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(report_bisect_find(BISECT, &sb), 0);
	assert_string_equal(sb.buf, BISECT "/bisect.json");
	strbuf_reset(&sb);
	assert_int_equal(report_bisect_find(BISECT "/perfbot-bisect.state", &sb), 0);
	assert_string_equal(sb.buf, BISECT "/bisect.json");
	strbuf_reset(&sb);
	assert_int_equal(report_bisect_find(BISECT "/bisect.json", &sb), 0);
	assert_string_equal(sb.buf, BISECT "/bisect.json");
	strbuf_reset(&sb);
	assert_int_equal(report_bisect_find(DATA "/no-such-state", &sb), -1);
	assert_int_equal(report_bisect_find(DATA "/proc", &sb), -1);    /* no bisect.json */
	strbuf_release(&sb);
}

static void test_bisect_load(void **state)
{
	struct report_bisect b;

	assert_int_equal(report_bisect_load(&b, BISECT "/bisect.json"), 0);
	assert_string_equal(b.metric, "mytest.throughput");
	assert_int_equal(b.nr_steps, 7);
	assert_int_equal(b.steps[0].verdict, VERDICT_GOOD_ENDPOINT);
	assert_int_equal(b.steps[4].verdict, VERDICT_SKIP);
	assert_int_equal(b.steps[4].nr, 0);
	assert_true(b.has_endpoints);
	assert_true(b.rel_shift < -0.3);
	/* relative paths are the file's directory's */
	assert_string_equal(b.job, BISECT "/job.yaml");
	assert_non_null(report_bisect_commit(&b, "9b17c623"));
	assert_null(report_bisect_commit(&b, "ffff"));
	assert_string_equal(report_bisect_commit(&b, GOOD)->tags[0], "v6.9");
	report_bisect_release(&b);
}

static void expect_bisect_error(const char *text, const char *message)
{
	struct report_bisect b;
	struct strbuf err = STRBUF_INIT;
	int rc;

	CAPTURE_STDERR(&err, rc = report_bisect_parse(&b, text, strlen(text), "t/bisect.json"));
	if (rc != -1)
		fail_msg("accepted: %s", text);
	if (strcmp(err.buf, message))
		fail_msg("for %s\n got: %s want: %s", text, err.buf, message);
	report_bisect_release(&b);
	strbuf_release(&err);
}

#define HEAD "{\"version\": 1, \"metric\": \"m\", \"first_bad\": \"a\", \"parent\": \"b\", "

static void test_bisect_errors(void **state)
{
	expect_bisect_error("{\"version\": 1,\n \"metric\": ",
			    "perfbot: t/bisect.json:2:12: unexpected end of file, expected the rest "
			    "of the JSON object\n");
	expect_bisect_error("[1]", "perfbot: t/bisect.json: expected a JSON object\n");
	expect_bisect_error("{\"metric\": \"m\"}",
			    "perfbot: t/bisect.json: 'version' expected an integer\n");
	expect_bisect_error("{\"version\": 2, \"metric\": \"m\"}",
			    "perfbot: t/bisect.json: version 2 is not supported (this perfbot reads "
			    "version 1)\n");
	expect_bisect_error("{\"version\": 1, \"metric\": \"m\", \"commits\": {}}",
			    "perfbot: t/bisect.json: no first bad commit: the bisect has not found one\n");
	expect_bisect_error("{\"version\": 1, \"first_bad\": \"a\", \"parent\": \"b\", \"commits\": {}}",
			    "perfbot: t/bisect.json: 'metric' is missing\n");
	expect_bisect_error("{\"version\": 1, \"metric\": 5, \"first_bad\": \"a\", \"parent\": \"b\", "
			    "\"commits\": {}}",
			    "perfbot: t/bisect.json: 'metric' expected a string\n");
	expect_bisect_error("{\"version\": 1, \"metric\": \"m\", \"first_bad\": \"a\", \"parent\": \"b\"}",
			    "perfbot: t/bisect.json: 'commits' is missing\n");
	expect_bisect_error(HEAD "\"commits\": {\"a\": {\"tags\": [1]}}}",
			    "perfbot: t/bisect.json: 'commits.a.tags' expected an array of strings\n");
	expect_bisect_error(HEAD "\"commits\": {\"a\": {\"result_root\": 7}}}",
			    "perfbot: t/bisect.json: 'commits.a.result_root' expected a string\n");
	expect_bisect_error(HEAD "\"commits\": {}, \"steps\": [{\"commit\": \"a\", "
			    "\"verdict\": \"maybe\", \"samples\": []}]}",
			    "perfbot: t/bisect.json: 'steps[0].verdict' expected good, bad, skip, "
			    "good-endpoint or bad-endpoint, got 'maybe'\n");
	expect_bisect_error(HEAD "\"commits\": {}, \"steps\": [{\"commit\": \"a\", "
			    "\"verdict\": \"good\", \"samples\": [\"x\"]}]}",
			    "perfbot: t/bisect.json: 'steps[0].samples' expected a number\n");
	expect_bisect_error(HEAD "\"commits\": {}, \"steps\": [{\"verdict\": \"good\"}]}",
			    "perfbot: t/bisect.json: 'steps[0].commit' is missing\n");
	expect_bisect_error(HEAD "\"commits\": {}, \"endpoints\": {\"p\": \"low\"}}",
			    "perfbot: t/bisect.json: 'endpoints.p' expected a number\n");

	/* and a minimal valid one, unknown keys ignored */
	struct report_bisect b;
	const char *ok = "{\"version\": 1, \"metric\": \"m\", \"first_bad\": \"a\", \"parent\": \"b\", "
			 "\"commits\": {\"a\": {}}, \"future\": true}";
	assert_int_equal(report_bisect_parse(&b, ok, strlen(ok), "bisect.json"), 0);
	assert_int_equal(b.nr_commits, 1);
	assert_false(b.has_endpoints);
	report_bisect_release(&b);

	/* a skip's reason, optional, a string */
	const char *skips = "{\"version\": 1, \"metric\": \"m\", \"first_bad\": \"b\", \"parent\": \"a\", "
			    "\"commits\": {}, \"steps\": ["
			    "{\"commit\": \"a\", \"verdict\": \"skip\", \"samples\": [], "
			    "\"reason\": \"does not build: x.c:1: error: y\"}, "
			    "{\"commit\": \"b\", \"verdict\": \"good\", \"samples\": [1]}]}";
	assert_int_equal(report_bisect_parse(&b, skips, strlen(skips), "bisect.json"), 0);
	assert_int_equal(b.nr_steps, 2);
	assert_string_equal(b.steps[0].reason, "does not build: x.c:1: error: y");
	assert_null(b.steps[1].reason);
	report_bisect_release(&b);
	expect_bisect_error(HEAD "\"commits\": {}, \"steps\": [{\"commit\": \"a\", "
			    "\"verdict\": \"skip\", \"reason\": 1, \"samples\": []}]}",
			    "perfbot: t/bisect.json: 'steps[0].reason' expected a string\n");
}

/* A kernel bisect's reproduce lines build each commit in the kernel
 * cache and boot the image kernel build prints, with the bisect's VM:
 * lines to paste, quoted where a shell needs it */
static void test_kernel_reproduce(void **state)
{
	const char *json = HEAD "\"commits\": {\"a\": {}}, \"result_base\": \"/r\", "
		"\"kernel\": {\"tree\": \"/src/my linux\", \"config\": \"tiny\", "
		"\"accel\": \"icount\", \"mem_mb\": 2048, \"numa\": 2, \"boot_timeout\": 90}}";
	struct report_bisect b;
	struct report r;
	struct compare_col col[2];
	struct report_commit commits[2];
	struct strbuf intro = STRBUF_INIT, cmds = STRBUF_INIT, whole = STRBUF_INIT;
	(void)state;

	assert_int_equal(report_bisect_parse(&b, json, strlen(json), "bisect.json"), 0);
	assert_string_equal(b.kernel_tree, "/src/my linux");
	assert_string_equal(b.kernel_vm_args, " --accel icount --boot-timeout 90 --mem 2G --numa 2");
	memset(&r, 0, sizeof(r));
	memset(col, 0, sizeof(col));
	memset(commits, 0, sizeof(commits));
	col[0].path = "/r/b";
	col[1].path = "/r/a";
	commits[0].id = "b";
	commits[1].id = "a";
	r.main.col = col;
	r.main.ncols = 2;
	r.main_commits = commits;
	r.job_path = "/jobs/j.yaml";
	r.bisect = &b;
	report_reproduce(&r, &intro, &cmds, &whole);
	assert_string_equal(intro.buf, "To reproduce, with each commit's kernel built and booted in "
			    "turn (the job is /jobs/j.yaml):");
	assert_string_equal(cmds.buf,
		"K=$(perfbot kernel build --tree '/src/my linux' --commit b --config tiny) && "
		"perfbot run --kernel \"$K\" --accel icount --boot-timeout 90 --mem 2G --numa 2 "
		"/jobs/j.yaml --result-root /r\n"
		"K=$(perfbot kernel build --tree '/src/my linux' --commit a --config tiny) && "
		"perfbot run --kernel \"$K\" --accel icount --boot-timeout 90 --mem 2G --numa 2 "
		"/jobs/j.yaml --result-root /r\n"
		"perfbot compare /r/b /r/a\n");
	report_bisect_release(&b);
	/* a user-space bisect's: perfbot run --commit, as before */
	const char *user = HEAD "\"commits\": {\"a\": {}}, \"result_base\": \"/r\"}";
	assert_int_equal(report_bisect_parse(&b, user, strlen(user), "bisect.json"), 0);
	assert_null(b.kernel_tree);
	strbuf_reset(&cmds);
	report_reproduce(&r, &intro, &cmds, &whole);
	assert_non_null(strstr(cmds.buf, "perfbot run /jobs/j.yaml --commit b --result-root /r\n"));
	assert_null(strstr(cmds.buf, "kernel"));
	report_bisect_release(&b);
	/* a VM perfbot run would refuse is an error naming the field */
	expect_bisect_error(HEAD "\"commits\": {}, \"kernel\": {\"tree\": \"/k\", "
			    "\"config\": \"tiny\", \"numa\": 99}}",
			    "perfbot: --numa expects a number from 1 to 16, got '99'\n"
			    "perfbot: t/bisect.json: 'kernel.numa' is not a VM perfbot run takes\n");
	expect_bisect_error(HEAD "\"commits\": {}, \"kernel\": {\"config\": \"tiny\"}}",
			    "perfbot: t/bisect.json: 'kernel.tree' is missing\n");
	strbuf_release(&intro);
	strbuf_release(&cmds);
	strbuf_release(&whole);
}

/* What a kernel bisect writes of its VM is what the report reads back */
static void test_kernel_json_round_trip(void **state)
{
	struct bisect_opts o;
	struct report_bisect b;
	struct strbuf json = STRBUF_INIT;
	struct json_writer jw;
	(void)state;

	memset(&o, 0, sizeof(o));
	o.m.kernel_tree = "/k";
	o.m.vm.cpus = 4;
	o.m.vm.mem_mb = 1536;
	o.m.vm.numa = 3;
	o.m.vm.boot_timeout = 45.5;
	strbuf_addstr(&json, HEAD "\"commits\": {}, ");
	jw_init(&jw, &json);
	/* the accel the runs had, not the option's auto */
	bisect_kernel_json(&o, QEMU_ACCEL_ICOUNT, &jw);
	strbuf_addch(&json, '}');
	assert_int_equal(report_bisect_parse(&b, json.buf, json.len, "bisect.json"), 0);
	assert_string_equal(b.kernel_tree, "/k");
	assert_string_equal(b.kernel_config, "tiny");
	assert_string_equal(b.kernel_vm_args,
			    " --accel icount --boot-timeout 45.5 --cpus 4 --mem 1536M --numa 3");
	report_bisect_release(&b);
	/* none given: the accel only; a config file by its path */
	memset(&o.m.vm, 0, sizeof(o.m.vm));
	o.m.kconfig = "/cfg/my.config";
	strbuf_reset(&json);
	strbuf_addstr(&json, HEAD "\"commits\": {}, ");
	jw_init(&jw, &json);
	bisect_kernel_json(&o, QEMU_ACCEL_TCG, &jw);
	strbuf_addch(&json, '}');
	assert_int_equal(report_bisect_parse(&b, json.buf, json.len, "bisect.json"), 0);
	assert_string_equal(b.kernel_config, "/cfg/my.config");
	assert_string_equal(b.kernel_vm_args, " --accel tcg");
	report_bisect_release(&b);
	strbuf_release(&json);
}

static void test_bisect_missing_roots(void **state)
{
	struct report_options opt;
	struct report r;
	char *dir = test_tmpdir("report");
	struct strbuf path = STRBUF_INIT, json = STRBUF_INIT;
	char cwd[PATH_MAX];

	options(&opt);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	/* no result root for the parent: an error naming it */
	strbuf_addf(&json, "{\"version\": 1, \"metric\": \"mytest.throughput\", \"first_bad\": \"%s\", "
		    "\"parent\": \"%s\", \"commits\": {\"%s\": {\"result_root\": \"%s/" RESULT "/%s\"}}}",
		    FIRST_BAD, PARENT, FIRST_BAD, cwd, FIRST_BAD);
	path_join(&path, dir, "bisect.json");
	assert_int_equal(write_file_atomic(path.buf, json.buf, json.len), 0);
	assert_int_equal(report_load_bisect(&r, dir, &opt), -1);
	report_release(&r);

	/* no good and bad roots: the headline comes from the endpoints */
	strbuf_reset(&json);
	strbuf_addf(&json, "{\"version\": 1, \"metric\": \"mytest.throughput\", \"first_bad\": \"%s\", "
		    "\"parent\": \"%s\", \"good\": \"%s\", \"bad\": \"%s\", \"commits\": {"
		    "\"%s\": {\"result_root\": \"%s/" RESULT "/%s\"}, "
		    "\"%s\": {\"result_root\": \"%s/" RESULT "/%s\"}, "
		    "\"%s\": {\"tags\": [\"v1\"]}}, "
		    "\"endpoints\": {\"good_mean\": 10, \"bad_mean\": 8, \"rel_shift\": -0.2, \"p\": 0.001}}",
		    FIRST_BAD, PARENT, GOOD, BAD, FIRST_BAD, cwd, FIRST_BAD, PARENT, cwd, PARENT, GOOD);
	assert_int_equal(write_file_atomic(path.buf, json.buf, json.len), 0);
	assert_int_equal(report_load_bisect(&r, path.buf, &opt), 0);
	assert_int_equal(r.kpi.ncols, 2);
	assert_true(fabs(r.headline.change - -20) < 1e-9);
	assert_string_equal(r.headline.base, "v1");
	assert_string_equal(r.headline.new, "d2e3f4a5b6");
	report_release(&r);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&path);
	strbuf_release(&json);
}

/* --- perf-profile.txt --------------------------------------------------- */

static void test_profile_excerpt(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *text =
		"# To display the perf.data header info, please use --header\n"
		"#\n"
		"# Samples: 4K of event 'cycles'\n"
		"#\n"
		"# Overhead  Command  Symbol   \n"
		"# ........  .......  ......\n"
		"#\n"
		"    77.74%  dd  [k] _raw_spin_lock   \n"
		"            |\n"
		"            ---_raw_spin_lock\n"
		"\n"
		"    10.00%  dd  [k] memset\n"
		"\n"
		"#\n"
		"\n";

	assert_int_equal(report_profile_excerpt(text, 60, &sb), 0);
	assert_string_equal(sb.buf,
		"# Overhead  Command  Symbol\n"
		"# ........  .......  ......\n"
		"#\n"
		"    77.74%  dd  [k] _raw_spin_lock\n"
		"            |\n"
		"            ---_raw_spin_lock\n"
		"\n"
		"    10.00%  dd  [k] memset\n");
	strbuf_reset(&sb);
	assert_int_equal(report_profile_excerpt(text, 4, &sb), 3);
	assert_string_equal(sb.buf,
		"# Overhead  Command  Symbol\n"
		"# ........  .......  ......\n"
		"#\n"
		"    77.74%  dd  [k] _raw_spin_lock\n");
	strbuf_reset(&sb);
	/* no header: from the first line of data */
	assert_int_equal(report_profile_excerpt("# x\n  5%  a\n", 60, &sb), 0);
	assert_string_equal(sb.buf, "  5%  a\n");
	strbuf_reset(&sb);
	assert_int_equal(report_profile_excerpt("# only comments\n#\n", 60, &sb), 0);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

/* --- plots ------------------------------------------------------------------ */

static void test_plots(void **state)
{
	struct report_options opt;
	struct report r;
	struct plot p;
	size_t good = 0, bad = 0;

	options(&opt);
	assert_int_equal(report_load_bisect(&r, BISECT, &opt), 0);
	for (int i = 0; i < r.bisect->nr_steps; i++) {
		enum report_verdict v = r.bisect->steps[i].verdict;
		if (v == VERDICT_GOOD || v == VERDICT_GOOD_ENDPOINT)
			good += (size_t)r.bisect->steps[i].nr;
		if (v == VERDICT_BAD || v == VERDICT_BAD_ENDPOINT)
			bad += (size_t)r.bisect->steps[i].nr;
	}
	assert_true(report_bisect_stable(&r));
	report_bisect_plot(&r, true, &p);
	assert_int_equal(p.nr_series, 2);
	assert_int_equal(p.series[0]->marker, PLOT_BAD);
	assert_int_equal(p.series[0]->nr, bad);
	assert_int_equal(p.series[1]->marker, PLOT_GOOD);
	assert_int_equal(p.series[1]->nr, good);
	assert_true(p.series[1]->points[0].x == 1);
	plot_release(&p);

	/* in measurement order, a mark per step that has samples */
	report_bisect_plot(&r, false, &p);
	assert_int_equal(p.nr_marks, 6);
	assert_true(p.series[1]->points[0].x == 6);    /* after the 5 good endpoint runs */
	plot_release(&p);

	/* a metric: regression, so the parent green and the first bad red */
	assert_true(r.headline_row >= 0);
	report_metric_plot(&r.main, r.headline_row, &p);
	assert_int_equal(p.nr_series, 2);
	assert_int_equal(p.series[0]->marker, PLOT_GOOD);
	assert_int_equal(p.series[1]->marker, PLOT_BAD);
	assert_int_equal(p.nr_bands, 2);
	assert_true(p.series[1]->points[0].x == 6);
	plot_release(&p);
	report_release(&r);
}

/* --- whole reports ------------------------------------------------------------ */

/* BASE NEW from result roots without run dirs: no job, no machine record */
static void test_golden_compare(void **state)
{
	struct report_options opt;
	struct report r;
	struct strbuf sb = STRBUF_INIT;
	struct report_tag tags[] = { { "v6.9", "3f1c2a9e" } };
	char *paths[] = { RESULT "/" GOOD, RESULT "/" BAD };

	options(&opt);
	opt.tags = tags;
	opt.nr_tags = 1;
	assert_int_equal(report_load_compare(&r, paths, 2, &opt), 0);
	assert_int_equal(report_text(&r, &sb), 0);
	check_golden("compare.txt", &sb);
	assert_contains(sb.buf, "  " GOOD " (v6.9)\n");
	/* no record of the machine: this one is described, and it says so */
	assert_contains(sb.buf, "The test machine has 4 CPUs (Intel(R) Xeon(R) Platinum 8358 CPU @\n");
	assert_contains(sb.buf, "hold no record of theirs");
	assert_contains(sb.buf, "hold no job file: write the job as job.yaml):");
	report_release(&r);
	strbuf_release(&sb);
}

static void test_golden_bisect(void **state)
{
	struct report_options opt;
	struct report r;
	struct strbuf sb = STRBUF_INIT;

	options(&opt);
	assert_int_equal(report_load_bisect(&r, BISECT "/perfbot-bisect.state", &opt), 0);
	assert_int_equal(report_text(&r, &sb), 0);
	check_golden("bisect.txt", &sb);
	assert_contains(sb.buf, "The bisect looks stable, each point below represents a sample run:");
	assert_contains(sb.buf, "  " PARENT " (parent of first bad commit)\n");
	assert_contains(sb.buf, "        stddev%    change%\n");
	report_release(&r);

	strbuf_reset(&sb);
	opt.legacy = true;
	assert_int_equal(report_load_bisect(&r, BISECT, &opt), 0);
	assert_int_equal(report_text(&r, &sb), 0);
	check_golden("bisect-legacy.txt", &sb);
	assert_contains(sb.buf, "~ ");
	assert_lacks(sb.buf, "\xc2\xb1");
	report_release(&r);
	strbuf_release(&sb);
}

/* A bisect's text has, under its first paragraph, the first bad commit
 * in full, the test and its parameters, and the trailers when asked. */
static void test_bisect_mail_block(void **state)
{
	struct report_options opt;
	struct report r;
	struct strbuf sb = STRBUF_INIT;

	options(&opt);
	assert_int_equal(report_load_bisect(&r, BISECT, &opt), 0);
	assert_int_equal(report_text(&r, &sb), 0);
	assert_contains(sb.buf, "\n\ncommit: " FIRST_BAD
			" (\"fs: convert inode and dentry shrinking to be node aware\")\n\n"
			"testcase: mytest\nconfig: x86_64-rhel\ncompiler: gcc-12\n"
			"test machine: lkp-ci\nparameters:\n\n"
			"\tnr_threads: 8\n\truntime: 30s\n\ttest: lru-file-readtwice\n\n");
	assert_lacks(sb.buf, "Reported-by:");
	assert_lacks(sb.buf, "Closes:");
	report_release(&r);

	strbuf_reset(&sb);
	opt.reported_by = "perfbot <perfbot@example.org>";
	assert_int_equal(report_load_bisect(&r, BISECT, &opt), 0);
	assert_int_equal(report_text(&r, &sb), 0);
	assert_contains(sb.buf, "\ttest: lru-file-readtwice\n\n"
			"If you fix the issue in a separate patch (not a new version of this one),\n"
			"please add these tags:\n| Reported-by: perfbot <perfbot@example.org>\n\n");
	assert_lacks(sb.buf, "Closes:");
	report_release(&r);

	strbuf_reset(&sb);
	opt.closes = "https://lore.kernel.org/all/x@example.org/";
	assert_int_equal(report_load_bisect(&r, BISECT, &opt), 0);
	assert_int_equal(report_text(&r, &sb), 0);
	assert_contains(sb.buf, "| Reported-by: perfbot <perfbot@example.org>\n"
			"| Closes: https://lore.kernel.org/all/x@example.org/\n\n");
	report_release(&r);
	strbuf_release(&sb);
}

/* HTML colours a %change only where the rule called it a change, and a
 * kernel warning that appears is a regression, not "direction unknown". */
static void test_html_colours(void **state)
{
	char *dir = test_tmpdir("report");
	static const char *const json[] = {
		"{\"mytest.throughput\": [1000, 1001, 999, 1000, 1000, 1002, 998, 1000],"
		" \"dmesg.WARNING:at_mm/slub.c:123_foo\": [0, 0, 0, 0, 0, 0, 0, 0]}",
		"{\"mytest.throughput\": [1003, 1004, 1002, 1003, 1003, 1005, 1001, 1003],"
		" \"dmesg.WARNING:at_mm/slub.c:123_foo\": [0, 0, 0, 0, 0, 0, 0, 0]}",
		"{\"mytest.throughput\": [850, 851, 849, 850, 850, 852, 848, 850],"
		" \"dmesg.WARNING:at_mm/slub.c:123_foo\": [1, 1, 1, 1, 1, 1, 1, 1]}",
	};
	struct strbuf path = STRBUF_INIT, html = STRBUF_INIT;
	char *paths[3];
	struct report_options opt;
	struct report r;

	for (int i = 0; i < 3; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/c%d", dir, i);
		assert_int_equal(mkdir_p(path.buf, 0755), 0);
		paths[i] = xstrdup(path.buf);
		strbuf_addstr(&path, "/matrix.json");
		assert_int_equal(write_file_atomic(path.buf, json[i], strlen(json[i])), 0);
	}
	options(&opt);
	opt.format = REPORT_HTML;
	assert_int_equal(report_load_compare(&r, paths, 3, &opt), 0);
	report_html(&r, &html);
	/* +0.3% beside the significant -15.0%: not painted */
	assert_contains(html.buf, "<td class=\"num chg\" data-v=\"0.2999");
	assert_contains(html.buf, "<td class=\"num chg reg\" data-v=\"-15\"");
	assert_lacks(html.buf, "<td class=\"num chg reg\" data-v=\"0.2999");
	assert_contains(html.buf, "<tr class=\"reg\"><td class=\"name mono\">"
			"<a href=\"#chart-0\">dmesg.WARNING");
	assert_contains(html.buf, "<td class=\"num chg reg\" data-v=\"100\"");
	assert_lacks(html.buf, "direction unknown</figcaption>");
	assert_contains(html.buf, ", a regression</figcaption>");
	report_release(&r);
	for (int i = 0; i < 3; i++)
		free(paths[i]);
	test_rm_rf(dir);
	free(dir);
	strbuf_release(&path);
	strbuf_release(&html);
}

/* The HTML report escapes every text that comes from the data. */
/*
 * A chart's title holds 64 characters of a metric's name: a name of 64
 * is shown whole, a longer one as "..." and its last 63.
 */
static void test_html_chart_title(void **state)
{
	char *dir;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, json = STRBUF_INIT, html = STRBUF_INIT;
	struct strbuf cut = STRBUF_INIT;
	struct report_options opt;
	struct report r;
	/* 7 + 57 = 64 characters, and 7 + 58 = 65 */
	const char *n64 = "mytest.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	const char *n65 = "mytest.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	(void)state;

	assert_int_equal(strlen(n64), 64);
	assert_int_equal(strlen(n65), 65);
	dir = test_tmpdir("report");
	path_join(&a, dir, "aaaa1111");
	path_join(&b, dir, "bbbb2222");
	assert_int_equal(mkdir_p(a.buf, 0755), 0);
	assert_int_equal(mkdir_p(b.buf, 0755), 0);
	strbuf_addf(&json, "{\"mytest.throughput\": [100, 101, 99, 100, 100], \"%s\": [1, 1, 1, 1, 1.5], "
		    "\"%s\": [1, 1, 1, 1, 1.5]}", n64, n65);
	strbuf_addstr(&a, "/matrix.json");
	assert_int_equal(write_file_atomic(a.buf, json.buf, json.len), 0);
	strbuf_reset(&json);
	strbuf_addf(&json, "{\"mytest.throughput\": [50, 51, 49, 50, 50], \"%s\": [9, 9, 9, 9, 9.5], "
		    "\"%s\": [9, 9, 9, 9, 9.5]}", n64, n65);
	strbuf_addstr(&b, "/matrix.json");
	assert_int_equal(write_file_atomic(b.buf, json.buf, json.len), 0);
	strbuf_reset(&json);
	strbuf_addstr(&json, "{\"version\": 1, \"metric\": \"mytest.throughput\", \"first_bad\": \"bbbb2222\", "
		      "\"parent\": \"aaaa1111\", \"commits\": {"
		      "\"aaaa1111\": {\"result_root\": \"aaaa1111\"}, \"bbbb2222\": {\"result_root\": \"bbbb2222\"}}, "
		      "\"steps\": [{\"commit\": \"aaaa1111\", \"verdict\": \"good\", \"samples\": [100]}, "
		      "{\"commit\": \"bbbb2222\", \"verdict\": \"bad\", \"samples\": [50]}]}");
	strbuf_reset(&a);
	path_join(&a, dir, "bisect.json");
	assert_int_equal(write_file_atomic(a.buf, json.buf, json.len), 0);

	options(&opt);
	opt.format = REPORT_HTML;
	assert_int_equal(report_load_bisect(&r, dir, &opt), 0);
	report_html(&r, &html);
	strbuf_addf(&cut, "\xe2\x80\xa6%s", n65 + 2);
	assert_contains(html.buf, cut.buf);
	strbuf_reset(&cut);
	strbuf_addf(&cut, "\xe2\x80\xa6%s", n64 + 1);
	assert_lacks(html.buf, cut.buf);
	report_release(&r);

	test_rm_rf(dir);
	free(dir);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&json);
	strbuf_release(&html);
	strbuf_release(&cut);
}

static void test_html_escaping(void **state)
{
	char *dir = test_tmpdir("report");
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, json = STRBUF_INIT, html = STRBUF_INIT;
	struct report_options opt;
	struct report r;
	const char *evil = "mytest.<script>alert(\\\"x\\\")</script>&amp;'\\u00e9";
	const char *subject = "\\\"/><img src=x onerror=alert(1)> & <b>bold</b>";

	path_join(&a, dir, "aaaa1111");
	path_join(&b, dir, "bbbb2222");
	assert_int_equal(mkdir_p(a.buf, 0755), 0);
	assert_int_equal(mkdir_p(b.buf, 0755), 0);
	strbuf_addf(&json, "{\"mytest.throughput\": [100, 101, 99, 100, 100], \"%s\": [1, 1, 1, 1, 1]}", evil);
	strbuf_addstr(&a, "/matrix.json");
	assert_int_equal(write_file_atomic(a.buf, json.buf, json.len), 0);
	strbuf_reset(&json);
	strbuf_addf(&json, "{\"mytest.throughput\": [50, 51, 49, 50, 50], \"%s\": [9, 9, 9, 9, 9.5]}", evil);
	strbuf_addstr(&b, "/matrix.json");
	assert_int_equal(write_file_atomic(b.buf, json.buf, json.len), 0);
	strbuf_reset(&json);
	strbuf_addf(&json, "{\"version\": 1, \"metric\": \"mytest.throughput\", \"first_bad\": \"bbbb2222\", "
		    "\"parent\": \"aaaa1111\", \"first_bad_subject\": \"%s\", \"commits\": {"
		    "\"aaaa1111\": {\"result_root\": \"aaaa1111\", \"tags\": [\"<v1>\"]}, "
		    "\"bbbb2222\": {\"result_root\": \"bbbb2222\", \"subject\": \"%s\"}}, "
		    "\"steps\": [{\"commit\": \"<aaaa>\", \"verdict\": \"good\", \"samples\": [100]}, "
		    "{\"commit\": \"bbbb2222\", \"verdict\": \"bad\", \"samples\": [50]}]}",
		    subject, subject);
	strbuf_reset(&a);
	path_join(&a, dir, "bisect.json");
	assert_int_equal(write_file_atomic(a.buf, json.buf, json.len), 0);

	options(&opt);
	opt.format = REPORT_HTML;
	assert_int_equal(report_load_bisect(&r, dir, &opt), 0);
	report_html(&r, &html);
	/* one script element: the page's own */
	const char *s1 = strstr(html.buf, "<script");
	assert_non_null(s1);
	assert_null(strstr(s1 + 1, "<script"));
	assert_lacks(html.buf, "<img");
	assert_lacks(html.buf, "<b>bold");
	assert_lacks(html.buf, "<v1>");
	assert_lacks(html.buf, "<aaaa>");
	assert_contains(html.buf, "mytest.&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;&#39;\xc3\xa9");
	assert_contains(html.buf, "&quot;/&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;");
	assert_contains(html.buf, "(parent of first bad commit, &lt;v1&gt;)");
	/* self-contained: nothing is fetched */
	assert_lacks(html.buf, "src=\"http");
	assert_lacks(html.buf, "href=\"http");
	assert_lacks(html.buf, "url(");
	report_release(&r);

	test_rm_rf(dir);
	free(dir);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&json);
	strbuf_release(&html);
}

static void test_html_sections(void **state)
{
	struct report_options opt;
	struct report r;
	struct strbuf html = STRBUF_INIT;

	options(&opt);
	opt.format = REPORT_HTML;
	assert_int_equal(report_load_bisect(&r, BISECT, &opt), 0);
	report_html(&r, &html);
	assert_contains(html.buf, "<!DOCTYPE html>");
	assert_contains(html.buf, "<table id=\"metrics\" class=\"sortable\">");
	assert_contains(html.buf, "<input id=\"filter\" type=\"search\"");
	assert_contains(html.buf, "<section id=\"bisect\">");
	assert_contains(html.buf, "<section id=\"perf\">");
	assert_contains(html.buf, "<figure id=\"chart-0\" class=\"reg\">");
	/* regressions red, improvements green (time.user_time went down) */
	assert_contains(html.buf, "<tr class=\"reg\"><td class=\"name mono\"><a href=\"#chart-1\">"
			"mytest.throughput</a>");
	assert_contains(html.buf, "<tr class=\"imp\"><td class=\"name mono\"><a href=\"#chart-6\">"
			"time.user_time</a>");
	/* direction unknown: neutral */
	assert_contains(html.buf, "<tr class=\"neu\"><td class=\"name mono\"><a href=\"#chart-2\">"
			"softirqs.RCU</a>");
	assert_contains(html.buf, "256G memory");
	report_release(&r);
	strbuf_release(&html);
}

static void test_gnuplot_missing(void **state)
{
	struct plot p;
	struct strbuf sb = STRBUF_INIT;

	plot_init(&p, "t");
	plot_series_add(plot_add_series(&p, NULL, PLOT_GOOD, true), 1, 1);
	assert_int_equal(report_gnuplot(&p, "/nonexistent/gnuplot", &sb), -1);
	assert_int_equal(report_gnuplot(&p, "no-such-gnuplot-program-here", &sb), -1);
	assert_int_equal(sb.len, 0);
	plot_release(&p);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headline_regression),
		cmocka_unit_test(test_headline_where),
		cmocka_unit_test(test_headline_improvement_bisect),
		cmocka_unit_test(test_headline_unknown_and_none),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_commit_notes),
		cmocka_unit_test(test_bisect_annotations),
		cmocka_unit_test(test_compare_tags_and_axes),
		cmocka_unit_test(test_machine_file),
		cmocka_unit_test(test_machine_proc),
		cmocka_unit_test(test_bisect_find),
		cmocka_unit_test(test_bisect_load),
		cmocka_unit_test(test_bisect_errors),
		cmocka_unit_test(test_kernel_reproduce),
		cmocka_unit_test(test_kernel_json_round_trip),
		cmocka_unit_test(test_bisect_missing_roots),
		cmocka_unit_test(test_profile_excerpt),
		cmocka_unit_test(test_plots),
		cmocka_unit_test(test_golden_compare),
		cmocka_unit_test(test_golden_bisect),
		cmocka_unit_test(test_bisect_mail_block),
		cmocka_unit_test(test_html_colours),
		cmocka_unit_test(test_html_escaping),
		cmocka_unit_test(test_html_chart_title),
		cmocka_unit_test(test_html_sections),
		cmocka_unit_test(test_gnuplot_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
