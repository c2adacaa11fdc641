/*
 * test_split_job.c: the parameter matrix and lkp's split-job
 * (src/job/split.c): Cartesian expansion, documents, overrides, include
 * defaults through the ERB subset, default monitors, and lkp's own
 * split-job fixtures in ../shared/conformance/lkp/split-job.
 */
#include "test_helpers.h"

#include <sys/stat.h>

#include "job/job.h"
#include "job/split.h"
#include "job/revise.h"
#include "util/xalloc.h"

#define DATA "tests/data/jobs"

TEST_TMPDIR("split")
static char topdir[4096];

static int setup_tmp(void **state)
{
	assert_non_null(getcwd(topdir, sizeof(topdir)));
	return tmpdir_setup(state);
}

/* back to the top first: a test may have left the cwd in tmpdir */
static int teardown_tmp(void **state)
{
	assert_int_equal(chdir(topdir), 0);
	return tmpdir_teardown(state);
}

/* The atoms of a split: names and texts, in order. */
struct atoms {
	char *names[64];
	char *texts[64];
	int nr;
	const char *prefix;
	const char *const *dirs;
};

static int collect(struct job *atom, void *ctx)
{
	struct atoms *a = ctx;
	struct strbuf n = STRBUF_INIT, t = STRBUF_INIT;

	assert_true(a->nr < 64);
	struct job_catalog cat;

	job_catalog_init(&cat, a->dirs);
	assert_int_equal(job_atom_name(atom, a->prefix, &cat, &n), 0);
	job_catalog_release(&cat);
	job_to_yaml(atom, &t);
	a->names[a->nr] = strbuf_detach(&n, NULL);
	a->texts[a->nr] = strbuf_detach(&t, NULL);
	a->nr++;
	job_free(atom);
	return 0;
}

static void atoms_release(struct atoms *a)
{
	for (int i = 0; i < a->nr; i++) {
		free(a->names[i]);
		free(a->texts[i]);
	}
	a->nr = 0;
}

static void split_text(const char *text, const struct split_opts *o, struct atoms *a)
{
	struct job *j;
	struct job_load_opts lo = { .include_dirs = o->include_dirs };

	assert_int_equal(job_load_string(text, strlen(text), "j.yaml", &lo, &j), 0);
	a->prefix = "j";
	a->dirs = o->include_dirs;
	assert_int_equal(job_split(j, "j.yaml", o, collect, a), 0);
	job_free(j);
}

static const char *const no_dirs[] = { NULL };

/* erb_expand with no lkp catalog */
static int erb_plain(const char *tmpl, const struct job_value *job,
		     const struct job_value *___, struct strbuf *out)
{
	struct job_catalog cat;
	int ret;

	job_catalog_init(&cat, no_dirs);
	ret = erb_expand(tmpl, "tmpl", job, ___, &cat, out);
	job_catalog_release(&cat);
	return ret;
}

/* A key of many dotted parts nests REVISE_PATH_MAX deep, the rest one
 * key: lkp would nest it as deep as it has parts, and an atom deeper than
 * a job may be read did not load again (found by fuzz_split). */
static void test_deep_dotted_key(void **state)
{
	struct split_opts o = { no_dirs, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct strbuf text = STRBUF_INIT;
	struct job_load_opts lo = { .include_dirs = no_dirs };
	struct job *again;
	const char *p;
	int depth = 0;

	(void)state;
	strbuf_addstr(&text, "testcase: mytest\nmytest:\nk");
	for (int i = 0; i < 100; i++)
		strbuf_addstr(&text, ".k");
	strbuf_addstr(&text, ": 1\n");
	split_text(text.buf, &o, &a);
	assert_int_equal(a.nr, 1);
	assert_int_equal(job_load_string(a.texts[0], strlen(a.texts[0]), "atom", &lo, &again), 0);
	job_free(again);
	/* 16 mappings: "k:" lines, the last with the other 85 parts */
	for (p = a.texts[0]; (p = strstr(p, "k:\n")); p++)
		depth++;
	assert_int_equal(depth, REVISE_PATH_MAX - 1);
	assert_non_null(strstr(a.texts[0], "k.k.k"));
	atoms_release(&a);
	strbuf_release(&text);
}


/* ---- the matrix ----------------------------------------------------- */

static void test_cartesian(void **state)
{
	struct split_opts o = { no_dirs, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	static const char *const want[] = {
		"j-pipe-process-1.yaml", "j-socket-process-1.yaml",
		"j-pipe-threads-1.yaml", "j-socket-threads-1.yaml",
		"j-pipe-process-2.yaml", "j-socket-process-2.yaml",
		"j-pipe-threads-2.yaml", "j-socket-threads-2.yaml",
	};

	(void)state;
	/* the first list is the outermost loop; need_kconfig is no dimension */
	split_text("suite: hackbench\nnr_threads: [1, 2]\nneed_kconfig: [A, B]\n"
		   "hackbench:\n  mode: [process, threads]\n  ipc: [pipe, socket]\n", &o, &a);
	assert_int_equal(a.nr, 8);
	for (int i = 0; i < 8; i++)
		assert_string_equal(a.names[i], want[i]);
	assert_string_equal(a.texts[5],
		"---\n\n#! j.yaml\nsuite: hackbench\nnr_threads: 2\nneed_kconfig:\n- A\n- B\n"
		"hackbench:\n  mode: process\n  ipc: socket\njob_origin: j.yaml\n"
		"testbox: box-1\narch: x86_64\ntbox_group: box\n");
	atoms_release(&a);

	/* a list of option maps is a dimension too */
	split_text("suite: hackbench\nhackbench:\n- mode: process\n- mode: threads\n  ipc: pipe\n",
		   &o, &a);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.names[0], "j-process.yaml");
	assert_string_equal(a.names[1], "j-pipe-threads.yaml");
	atoms_release(&a);

	/* no parameter at all */
	split_text("suite: hackbench\nhackbench:\n", &o, &a);
	assert_int_equal(a.nr, 1);
	assert_string_equal(a.names[0], "j-defaults.yaml");
	atoms_release(&a);
}

static void test_commit_rootfs_names(void **state)
{
	struct split_opts o = { no_dirs, "box", "x86_64", "x86_64-rhel", "abc", NULL, false, NULL };
	struct atoms a = { .nr = 0 };

	(void)state;
	split_text("suite: hackbench\nrootfs: [/os/debian-12.cgz, /os/centos.cgz]\n"
		   "hackbench:\n  mode: process\n", &o, &a);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.names[0], "j-process-abc-debian-12.cgz.yaml");
	assert_string_equal(a.names[1], "j-process-abc-centos.cgz.yaml");
	assert_non_null(strstr(a.texts[0], "\nkconfig: x86_64-rhel\ncommit: abc\n"));
	atoms_release(&a);
}

static void test_multi_doc_and_overrides(void **state)
{
	struct job *ov;
	struct job_load_opts lo = { .no_check = true };
	struct split_opts o = { no_dirs, "box", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };

	(void)state;
	/* hash0 alone, then hash0 + each later document */
	split_text("suite: hackbench\nruntime: 300s\nhackbench:\n  mode: process\n"
		   "---\nhackbench:\n  mode: threads\n---\nruntime: 600s\n", &o, &a);
	assert_int_equal(a.nr, 3);
	assert_string_equal(a.names[0], "j-process-300s.yaml");
	assert_string_equal(a.names[1], "j-threads-300s.yaml");
	assert_string_equal(a.names[2], "j-process-600s.yaml");
	atoms_release(&a);

	assert_int_equal(job_load_string("runtime: [1s, 2s]\n", 18, "-s", &lo, &ov), 0);
	o.overrides = ov->root;
	split_text("suite: hackbench\nruntime: 300s\nhackbench:\n  mode: process\n", &o, &a);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.names[1], "j-process-2s.yaml");
	assert_non_null(strstr(a.texts[1], "runtime: 2s\n"));
	assert_non_null(strstr(a.texts[1], "\n#! user overrides\n"));
	atoms_release(&a);
	job_free(ov);
}

/* ---- defaults from include files ------------------------------------ */

static void test_include_defaults(void **state)
{
	const char *dirs[] = { DATA "/lkp", NULL };
	struct split_opts o = { dirs, "box", "x86_64", NULL, NULL, NULL, false, NULL };
	struct job *j;
	struct atoms a = { .nr = 0 };

	(void)state;
	assert_int_equal(job_load_opts(DATA "/demo.yaml", &(struct job_load_opts){ .include_dirs = dirs }, &j), 0);
	a.prefix = "demo";
	a.dirs = dirs;
	assert_int_equal(job_split(j, DATA "/demo.yaml", &o, collect, &a), 0);
	job_free(j);
	assert_int_equal(a.nr, 4);
	assert_string_equal(a.names[0], "demo-ext4-size=1G-fast.yaml");
	assert_string_equal(a.names[3], "demo-xfs-size=1G-slow.yaml");
	/* fs: ext4 has no include/fs/ext4: OTHERS, with ___ = "ext4" */
	assert_non_null(strstr(a.texts[0], "\n#! include/fs/OTHERS\nneed_kconfig: EXT4_FS\n"));
	assert_non_null(strstr(a.texts[3], "\n#! include/fs/xfs\nneed_kconfig: XFS_FS\nmkfs_opts: \"-f\"\n"));
	/* the program's include sees the atom's own option */
	assert_non_null(strstr(a.texts[0], "\n#! programs/demo-bench/include\ndemo_mode: quick\n"));
	assert_non_null(strstr(a.texts[1], "\n#! programs/demo-bench/include\ndemo_mode: thorough\n"));
	/* category: benchmark brings perfbot's supported default monitors */
	assert_non_null(strstr(a.texts[0], "\n#! include/category/benchmark\nkmsg:\niostat:\nvmstat:\n"));
	assert_non_null(strstr(a.texts[0], "\nperf-stat:\n"));
	assert_null(strstr(a.texts[0], "\nheartbeat:"));           /* not supported */
	assert_non_null(strstr(a.texts[0], "perf-profile:\n  delay: 15\n"));  /* kept */
	atoms_release(&a);

	/* --no-defaults */
	o.no_defaults = true;
	split_text("suite: demo-bench\ncategory: benchmark\nfs: xfs\n", &o, &a);
	assert_null(strstr(a.texts[0], "#! include"));
	atoms_release(&a);
}

/* ---- the ERB subset ------------------------------------------------- */

static void erb(const char *tmpl, const char *jobtext, const char *___, const char *want)
{
	struct job *j;
	struct job_load_opts lo = { .no_check = true };
	struct strbuf out = STRBUF_INIT;
	struct job_value *u = ___ ? job_scalar_new(___) : NULL;

	assert_int_equal(job_load_string(jobtext, strlen(jobtext), "e.yaml", &lo, &j), 0);
	assert_int_equal(erb_plain(tmpl, j->root, u, &out), 0);
	if (strcmp(out.buf, want))
		fail_msg("template:\n%s\ngot:\n%s\nwant:\n%s", tmpl, out.buf, want);
	strbuf_release(&out);
	job_value_free(u);
	job_free(j);
}

static void erb_fails(const char *tmpl, const char *want)
{
	struct job *j = job_new();
	struct strbuf out = STRBUF_INIT;
	char *msg;
	int ret;

	struct stderr_capture cap;
	capture_start(&cap);
	ret = erb_plain(tmpl, j->root, NULL, &out);
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	if (!strstr(msg, want))
		fail_msg("expected '%s' in '%s'", want, msg);
	free(msg);
	strbuf_release(&out);
	job_free(j);
}

static void test_erb(void **state)
{
	(void)state;
	erb("a\n% if job['x'] == 1\none\n% elsif job['x'] == 2\ntwo\n% else\nother\n% end\nb\n",
	    "x: 2\n", NULL, "a\ntwo\nb\n");
	erb("% unless job['nr_vm'] and job['nr_vm'] > 1\nperf-profile:\n% end\n",
	    "nr_vm: 1\n", NULL, "perf-profile:\n");
	erb("% if !job['arch'] or job['arch'] =~ /x86|i*86/\nturbostat:\n% end\n",
	    "arch: aarch64\n", NULL, "");
	erb("v: <%= case ___\n\twhen /tmpfs|cifs/\n\t\t\"#{___.upcase}\"\n\telse\n"
	    "\t\t\"#{___.upcase}_FS\"\n\tend\n%>\n", "a: 1\n", "xfs", "v: XFS_FS\n");
	erb("<%= ___.downcase %>-<%= job['n'].to_s %>-<%= job['m'].nil? %>-<%= job['s'].size %>\n",
	    "n: 5\ns: abc\n", "ABC", "abc-5-true-3\n");
	erb("<% if job['l'].include?('b') %>yes<% end %> <%= 'it\\'s' %> <%# note %>\n",
	    "l: [a, b]\n", NULL, "yes it's \n");
	erb("<%= job['p'] && job['p']['q'] %>|<%= job['z'] && job['z']['q'] %>|<%= job['p']['q'] != 'x' %>\n",
	    "p: {q: r}\n", NULL, "r||true\n");
	erb("%% literal\n<%% not a tag\n", "a: 1\n", NULL, "% literal\n<% not a tag\n");
	erb("% case job['k']\n% when 'a', 'b'\nab\n% when /c/\nc\n% else\nelse\n% end\n",
	    "k: c\n", NULL, "c\n");
	erb("<%= (1 < 2) && !false %> <%= k %>\n", "k: hashugar\n", NULL, "true hashugar\n");
	/* comparisons at equality, numbers and strings */
	erb("<%= 2 <= 2 %> <%= 3 <= 2 %> <%= 2 >= 2 %> <%= 1 >= 2 %> <%= 2 < 2 %> <%= 2 > 2 %>\n",
	    "a: 1\n", NULL, "true false true false false false\n");
	erb("<%= 'b' <= 'b' %> <%= 'c' <= 'b' %> <%= 'b' >= 'b' %> <%= 'a' >= 'b' %>\n",
	    "a: 1\n", NULL, "true false true false\n");
	/* || returns the deciding operand, and never evaluates the other */
	erb("<%= job['z'] || 'd' %>-<%= job['n'] || job['z']['q'] %>-<%= job['z'] or 'e' %>\n",
	    "n: 5\n", NULL, "d-5-e\n");

	/* lkp's include/md/raid_level: a when with no body is nil */
	erb("<%= case ___\n\twhen 'JBOD'\n\twhen /^braid/\n\twhen /^raid[456]$/\n"
	    "\t\t\"need_kconfig: MD_RAID456\"\n\telse\n\t\t\"need_kconfig: MD_#{___.upcase}\"\n\tend\n%>|",
	    "a: 1\n", "braid1", "|");
	erb("<%= case ___ when 'JBOD' when /^raid[456]$/ then 'R456' else ___.upcase end %>|"
	    "<%= case 'x' when 'y' then 1 else end %>|", "a: 1\n", "raid1", "RAID1||");
	erb("<%= case ___ when 'JBOD' when /^raid[456]$/ then 'R456' end %>", "a: 1\n", "raid5", "R456");
	/* Hashugar: a mapping's key as a method; a name the job lacks is
	 * lkp's KeyError (1, no message): the file waits for a later pass */
	erb("<%= m.k %> <%= m.k.upcase %>\n", "m: {k: v}\n", NULL, "v V\n");
	/* .class is Object#class, never a key: a class equals no string
	 * (programs/stress-ng/include's `___.class == "security"`) */
	erb("% if m.class == 'security'\nsec\n% elsif m.test == 'acct'\nacct\n% end\n"
	    "<%= m.class %> <%= 'x'.class %> <%= m.class == m.class %> <%= m.class == 'x'.class %> <%= m.class == 'Hashugar' %>\n",
	    "m: {class: security, test: acct}\n", NULL, "acct\nHashugar String true false false\n");
	{
		struct job *j = job_new();
		struct strbuf out = STRBUF_INIT;
		struct stderr_capture cap;
		char *msg;
		capture_start(&cap);
		assert_int_equal(erb_plain("<%= nokey %>", j->root, NULL, &out), 1);
		assert_int_equal(erb_plain("% if nokey.upcase == 'x'\n% end\n", j->root, NULL, &out), 1);
		assert_int_equal(erb_plain("<%= job['nokey'].nil? %>", j->root, NULL, &out), 0);
		msg = capture_end(&cap);
		assert_string_equal(msg, "");
		assert_string_equal(out.buf, "true");
		free(msg);
		strbuf_release(&out);
		job_free(j);
	}
	erb_fails("% if job['a']\nx\n", "tmpl:3: expected 'end'");
	erb_fails("% end\n", "tmpl:1: 'end' without");
	erb_fails("% else\n", "expected 'if' or 'case' before 'else'");
	erb_fails("<%= job['a'].frobnicate %>", "unsupported method");
	erb_fails("<%= job['a']['b'] %>", "undefined method '[]' for nil");
	erb_fails("x\n<%= 1 +", "tmpl:2: expected '%>'");
	erb_fails("<%= \"abc %>", "expected the end of a string");
	erb_fails("<%= 1 2 %>", "unexpected text");
	erb_fails("<%= 'x' =~ /(/ %>", "expected a POSIX extended regular expression");
	/* util/rx, not glibc's regcomp, which took 36 s and all memory on
	 * stacked '+' (found by fuzzing, tests/fuzz/fuzz_erb.c): an error
	 * now, and patterns keep =~'s offset and anchors */
	erb_fails("<%= 'xpp' =~ /p++++++++++++++++++++++++++++++++++++++++++s|ext/ %>",
		  "expected a POSIX extended regular expression near 'p+++");
	erb("<%= 'xfs' =~ /ext4|xfs/ %> <%= 'abc' =~ /c$/ %> <%= 'abc' =~ /^b/ %>|"
	    "<%= 'a1b22' =~ /[[:digit:]]{2}/ %>\n", "a: 1\n", NULL, "0 2 |3\n");
}

static void test_template_error_in_split(void **state)
{
	char *root;
	const char *dirs[2];
	struct split_opts o = { NULL, "box", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct job *j;
	struct strbuf p = STRBUF_INIT;
	char *msg;
	int ret;

	(void)state;
	strbuf_addf(&p, "%s/lkp/programs/broken/include", tmpdir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addstr(&p, "/OTHERS");
	assert_int_equal(write_file_atomic(p.buf, "% if job['x'\nk: v\n% end\n", 24), 0);
	root = xstrdup(p.buf);
	*strstr(root, "/programs") = 0;
	dirs[0] = root;
	dirs[1] = NULL;
	o.include_dirs = dirs;
	assert_int_equal(job_load_string("suite: x\nbroken: v\n", 19, "j.yaml",
					 &(struct job_load_opts){ .include_dirs = dirs }, &j), 0);
	a.prefix = "j";
	a.dirs = dirs;
	struct stderr_capture cap;
	capture_start(&cap);
	ret = job_split(j, "j.yaml", &o, collect, &a);
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "broken/include/OTHERS:1: expected ']'"));
	free(msg);
	atoms_release(&a);
	job_free(j);
	free(root);
	strbuf_release(&p);
}

/* Write text to tmpdir/lkp/rel, executable when exec. */
static void put_file(const char *rel, const char *text, bool exec)
{
	struct strbuf p = STRBUF_INIT;
	char *slash;

	strbuf_addf(&p, "%s/lkp/%s", tmpdir, rel);
	slash = strrchr(p.buf, '/');
	*slash = 0;
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	if (exec)
		assert_int_equal(chmod(p.buf, 0755), 0);
	strbuf_release(&p);
}

/*
 * lkp's job pass reads a program's include files in key order, before
 * tbox_group's (which the split adds last); a template naming a key the
 * job pass lacks (Hashugar's KeyError: the option list was dropped) waits
 * for the atoms' pass and sees the atom's value there.
 */
static void test_program_include_pass(void **state)
{
	struct split_opts o = { NULL, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct strbuf root = STRBUF_INIT;
	const char *dirs[2];

	(void)state;
	put_file("programs/plain/run", "#!/bin/sh\n", true);
	put_file("programs/plain/include", "need_kconfig:\n- PLAIN\n", false);
	put_file("programs/opt/run", "#!/bin/sh\n# - mode\n", true);
	put_file("programs/opt/include", "% if ___.mode == 'b'\nopt_b: 1\n% end\nopt_seen: <%= ___.mode %>\n", false);
	put_file("include/tbox_group/box", "need_kconfig:\n- BOX\n", false);
	strbuf_addf(&root, "%s/lkp", tmpdir);
	dirs[0] = root.buf;
	dirs[1] = NULL;
	o.include_dirs = dirs;
	split_text("suite: plain\nplain:\nopt:\n  mode: [a, b]\n", &o, &a);
	assert_int_equal(a.nr, 2);
	for (int i = 0; i < 2; i++) {
		const char *p = strstr(a.texts[i], "#! programs/plain/include\n");
		const char *t = strstr(a.texts[i], "#! include/tbox_group/box\n");
		const char *x = strstr(a.texts[i], "#! programs/opt/include\n");
		assert_non_null(p);
		assert_non_null(t);
		assert_non_null(x);
		assert_true(p < t);     /* the job's pass, in key order */
		assert_true(t < x);     /* KeyError: the atom's pass */
		assert_non_null(strstr(a.texts[i], "need_kconfig:\n- PLAIN\n- BOX\n"));
	}
	assert_non_null(strstr(a.texts[0], "opt_seen: a\n"));
	assert_null(strstr(a.texts[0], "opt_b:"));
	assert_non_null(strstr(a.texts[1], "opt_b: 1\nopt_seen: b\n"));
	atoms_release(&a);
	strbuf_release(&root);
}

/*
 * A later document's mapping is the one the job holds (Ruby's merge! keeps
 * the object), so when the matrix sets doc2's `mode: [c, c-x]` to c, the
 * atom's pass sees `mode: c` in doc2 too and reads the include that
 * waited for it; the template's Ruby regexp has a lookahead and \w.
 */
static void test_later_doc_atom_pass(void **state)
{
	struct split_opts o = { NULL, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct strbuf root = STRBUF_INIT;
	const char *dirs[2];

	(void)state;
	put_file("programs/opt/run", "#!/bin/sh\n# - mode\n", true);
	put_file("programs/opt/include",
		 "% if ___.mode =~ /^c(?!-x)\\w*$/\nopt_c: 1\n% end\nopt_seen: <%= ___.mode %>\n", false);
	strbuf_addf(&root, "%s/lkp", tmpdir);
	dirs[0] = root.buf;
	dirs[1] = NULL;
	o.include_dirs = dirs;
	split_text("suite: opt\nopt:\n  mode: [a, b]\n---\nflag: 1\nopt:\n  mode: [c, c-x, cy]\n",
		   &o, &a);
	assert_int_equal(a.nr, 5);
	assert_string_equal(a.names[2], "j-c.yaml");
	for (int i = 0; i < 5; i++)
		assert_non_null(strstr(a.texts[i], "#! programs/opt/include\n"));
	assert_non_null(strstr(a.texts[1], "opt_seen: b\n"));
	assert_null(strstr(a.texts[1], "opt_c:"));
	assert_non_null(strstr(a.texts[2], "opt_c: 1\nopt_seen: c\n"));
	assert_non_null(strstr(a.texts[3], "opt_seen: c-x\n"));
	assert_null(strstr(a.texts[3], "opt_c:"));
	assert_non_null(strstr(a.texts[4], "opt_c: 1\nopt_seen: cy\n"));
	atoms_release(&a);
	strbuf_release(&root);
}

/*
 * lkp's {{ ruby }} job values: quoted as strings on reading, then each is
 * a dimension evaluated in the atom's context (in key order with the
 * lists); a nil whole value drops the atom, a typed result keeps its type,
 * head{{ }}tail is a string.
 */
static void test_double_brace_templates(void **state)
{
	struct split_opts o = { no_dirs, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct strbuf q = STRBUF_INIT;

	(void)state;
	job_quote_templates("a: {{ x ? \"1\" : 2 }}\nb:\n  - {{\n    y }}\nc: '{{ no }}'\n", &q);
	assert_string_equal(q.buf, "a: \"{{ x ? \\\"1\\\" : 2 }}\"\nb:\n  - \"{{\n    y }}\"\n"
			    "c: '{{ no }}'\n");
	strbuf_reset(&q);
	job_quote_templates("suite: hackbench\nnr_threads: [1, 2]\nhackbench:\n"
			    "  mode:\n  - {{ nr_threads == 2 ? nil : 'process' }}\n  - threads\n"
			    "  ipc: {{\n    if hackbench.mode == 'threads'\n      'pipe'\n"
			    "    elsif nr_threads == 1 then 'socket' else 'x' end\n    }}\n"
			    "  loops: {{ case nr_threads when 1 then 10 else 20 end }}\n"
			    "  tag: t-{{ nr_threads }}-x\n", &q);
	split_text(q.buf, &o, &a);
	assert_int_equal(a.nr, 3);
	assert_string_equal(a.names[0], "j-socket-10-process-1-t-1-x.yaml");
	assert_string_equal(a.names[1], "j-pipe-10-threads-1-t-1-x.yaml");
	assert_string_equal(a.names[2], "j-pipe-20-threads-2-t-2-x.yaml");
	assert_non_null(strstr(a.texts[0], "\n  loops: 10\n  tag: t-1-x\n"));
	atoms_release(&a);
	{
		/* a bad expression: one line naming the file and the key */
		struct job *j;
		struct stderr_capture cap;
		char *msg;
		int ret;
		strbuf_reset(&q);
		job_quote_templates("suite: hackbench\nhackbench:\n  loops: {{ 1 2 }}\n", &q);
		assert_int_equal(job_load_string(q.buf, q.len, "j.yaml",
						 &(struct job_load_opts){ .include_dirs = no_dirs }, &j), 0);
		capture_start(&cap);
		ret = job_split(j, "j.yaml", &o, collect, &a);
		msg = capture_end(&cap);
		assert_int_equal(ret, -1);
		assert_non_null(strstr(msg, "j.yaml: key 'loops': unexpected text"));
		free(msg);
		job_free(j);
	}
	strbuf_release(&q);
}

/*
 * lkp reads one script's "# - option" lines per program, the last of
 * setup, run, daemon it has (its program table merges them in that
 * order): setup's options are no path parameters when run is there.
 */
static void test_one_script_options(void **state)
{
	struct split_opts o = { NULL, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct strbuf root = STRBUF_INIT;
	const char *dirs[2];

	(void)state;
	put_file("programs/two/setup", "#!/bin/sh\n# - size\n", true);
	put_file("programs/two/run", "#!/bin/sh\n# - mode\n", true);
	put_file("programs/three/run", "#!/bin/sh\n# - colour\n", true);
	put_file("programs/three/daemon", "#!/bin/sh\n# - port\n", true);
	put_file("programs/four/setup", "#!/bin/sh\n# - depth\n", true);
	put_file("programs/four/run", "#!/bin/sh\n# - shape\n", false);
	strbuf_addf(&root, "%s/lkp", tmpdir);
	dirs[0] = root.buf;
	dirs[1] = NULL;
	o.include_dirs = dirs;
	split_text("suite: two\ntwo:\n  size: 5\n  mode: m\nthree:\n  colour: red\n  port: 80\n"
		   "four:\n  depth: 3\n  shape: round\n", &o, &a);
	assert_int_equal(a.nr, 1);
	/* run's mode, not setup's size; daemon's port, not run's colour; a
	 * run script that is not executable does not count (four's setup) */
	assert_string_equal(a.names[0], "j-3-m-80.yaml");
	atoms_release(&a);
	strbuf_release(&root);
}

/* A job's `key-:` removes what the defaults add (lkp applies it when it
 * first revises the job, merging the defaults). */
static void test_minus_key_over_defaults(void **state)
{
	struct split_opts o = { NULL, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct strbuf root = STRBUF_INIT;
	const char *dirs[2];

	(void)state;
	put_file("include/category/benchmark", "mon1:\nmon2:\nmon3:\n  opt: 1\n", false);
	strbuf_addf(&root, "%s/lkp", tmpdir);
	dirs[0] = root.buf;
	dirs[1] = NULL;
	o.include_dirs = dirs;
	split_text("suite: x\ncategory: benchmark\nmon1-:\nmon3-:\n", &o, &a);
	assert_int_equal(a.nr, 1);
	assert_non_null(strstr(a.texts[0], "\nmon2:"));
	assert_null(strstr(a.texts[0], "mon1"));
	assert_null(strstr(a.texts[0], "mon3"));
	atoms_release(&a);
	o.no_defaults = true;
	split_text("suite: x\ncategory: benchmark\nmon1-:\n", &o, &a);
	assert_int_equal(a.nr, 1);
	assert_null(strstr(a.texts[0], "mon1"));
	atoms_release(&a);
	strbuf_release(&root);
}

/* lkp quotes {{ }} after merging the `<<:` files: a template in an
 * included job file is a dimension too (fsmark-1brd.yaml's case). */
static void test_templates_in_included_file(void **state)
{
	struct split_opts o = { no_dirs, "box-1", "x86_64", NULL, NULL, NULL, false, NULL };
	struct atoms a = { .nr = 0 };
	struct job_load_opts lo = { .include_dirs = no_dirs };
	struct strbuf path = STRBUF_INIT;
	const char *text = "<<: base.yaml\n";
	struct job *j;

	(void)state;
	put_file("jobs/base.yaml", "suite: hackbench\nhackbench:\n  loops: [1, 2]\n"
		 "  size: {{\n    hackbench.loops == 1 ? 'small' : 'big'\n    }}\n", false);
	strbuf_addf(&path, "%s/lkp/jobs/main.yaml", tmpdir);
	assert_int_equal(job_load_templates(text, strlen(text), path.buf, &lo, &j), 0);
	a.prefix = "j";
	a.dirs = no_dirs;
	assert_int_equal(job_split(j, path.buf, &o, collect, &a), 0);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.names[0], "j-1-small.yaml");
	assert_string_equal(a.names[1], "j-2-big.yaml");
	atoms_release(&a);
	job_free(j);
	strbuf_release(&path);
}

static void test_refine_compatible(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	job_refine_compatible("---\n\n#! jobs/a.yaml\nk: 1\n\n#! queue options\nq: 2\n"
			      "\n#! hosts/x\nh: 3\n\n#! jobs/b.yaml\nb: 4\n", &out);
	assert_string_equal(out.buf, "---\n\n#! jobs/a.yaml\nk: 1\n\n#! jobs/b.yaml\nb: 4\n");
	strbuf_reset(&out);
	job_refine_compatible("k: 1\n", &out);
	assert_string_equal(out.buf, "k: 1\n");
	strbuf_release(&out);
}

/* ---- lkp's params/ map rules ----------------------------------------- */

static void put_rules(const char *name, const char *text)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/params-lkp/params", tmpdir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	strbuf_addf(&p, "/%s", name);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
}

static void test_params_map(void **state)
{
	struct strbuf root = STRBUF_INIT;
	const char *dirs[2];
	struct job *j;
	struct job_load_opts lo = { .no_check = true };
	const char *t = "nr_cpu: 8\nmemory: 4G\ndisk: 1BRD_32G\nfs: xfs\nnr_threads: 50%\n"
			"runtime: 5m\ncpuset.cpus: all\nx:\n  disk: 2SSD\nsize: 1G\n";
	const struct job_value *v;

	(void)state;
	put_rules("disk", "/(\\d+)HDD/\t{ nr_hdd: $1.to_i\t}\n/(\\d+)SSD/\t{ nr_ssd: $1.to_i }\n"
		  "/(\\d+)BRD/\t{ nr_brd: $1.to_i\t}\n/(\\d+G)/\t{ ramdisk_size: to_byte($1) }\n"
		  "/(\\d+)/\t{ digits_left: $1.to_i }\n");
	put_rules("fs", "/(.*)/\t{ fs: $1\t}\n");
	put_rules("nr_threads", "/(\\d+(?:\\.\\d+)?)%$/      ($1.to_f * nr_cpu / 100).to_i\n");
	put_rules("runtime", "/(.*)/\tto_seconds($1)\n");
	put_rules("cpuset.cpus", "/^all$/    \"0-#{nr_cpu-1}\"\n");
	put_rules("size", "/(.*)/\tto_byte(nosuchkey)\n");
	strbuf_addf(&root, "%s/params-lkp", tmpdir);
	dirs[0] = root.buf;
	dirs[1] = NULL;
	assert_int_equal(job_load_string(t, strlen(t), "p.yaml", &lo, &j), 0);
	{
		struct job_catalog cat;
		job_catalog_init(&cat, dirs);
		job_params_map(j->root, &cat);
		job_catalog_release(&cat);
	}
	/* a match is cut out before the next rule: 1BRD, then _32G */
	v = job_lookup(j, "disk");
	assert_int_equal(v->kind, JOB_MAP);
	assert_string_equal(job_value_text(job_map_get(v, "nr_brd")), "1");
	assert_string_equal(job_value_text(job_map_get(v, "ramdisk_size")), "34359738368");
	/* and once both are cut out, no digit is left for the last rule */
	assert_null(job_map_get(v, "digits_left"));
	assert_string_equal(job_value_text(job_map_get(job_lookup(j, "fs"), "fs")), "xfs");
	assert_string_equal(job_get(j, "nr_threads"), "4");
	assert_string_equal(job_get(j, "runtime"), "300");
	assert_string_equal(job_get(j, "cpuset.cpus"), "0-7");
	/* nested keys too */
	assert_string_equal(job_value_text(job_map_get(job_map_get(job_lookup(j, "x"), "disk"),
						       "nr_ssd")), "2");
	/* a key the job lacks (lkp's KeyError) leaves the value as it was */
	assert_string_equal(job_get(j, "size"), "1G");
	job_free(j);
	strbuf_release(&root);
}

/* ---- lkp's own fixtures --------------------------------------------- */

/*
 * lkp's spec runs `lkp split-job -t lkp-tbox -o OUT spec/fixtures/...`
 * from an LKP_SRC holding the split-job program and, copied by the spec,
 * include/split-job; programs/fs/include/nfsv3 is lkp-tests' own file
 * that the fixtures' programs/ lacks (tests/data/jobs/lkp-extra).  We lay
 * out the same tree in a scratch dir and compare byte for byte.
 */
static void run(const char *cmd)
{
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

static void compare_atoms(const struct atoms *a, const char *fixtures)
{
	for (int i = 0; i < a->nr; i++) {
		struct strbuf want = STRBUF_INIT, p = STRBUF_INIT;
		const char *base = strrchr(a->names[i], '/');
		base = base ? base + 1 : a->names[i];
		strbuf_addf(&p, "%s/%s", fixtures, base);
		if (!file_exists(p.buf))
			fail_msg("lkp makes no %s", base);
		assert_int_equal(read_file(&want, p.buf), 0);
		if (strcmp(want.buf, a->texts[i]))
			fail_msg("%s differs from lkp's:\n%s\nlkp's:\n%s", base, a->texts[i], want.buf);
		strbuf_release(&want);
		strbuf_release(&p);
	}
}

static void test_conformance(void **state)
{
	static const struct { const char *job; int atoms; } jobs[] = {
		{ "1", 3 }, { "2", 4 }, { "3", 3 },
	};
	struct strbuf fixtures = STRBUF_INIT, cmd = STRBUF_INIT, lkp = STRBUF_INIT;
	const char *dirs[2];
	struct split_opts o = { NULL, "lkp-tbox", "x86_64", NULL, NULL, NULL, false, NULL };

	(void)state;
	skip_without_conformance();
	strbuf_addf(&fixtures, "%s/%s/lkp/split-job", topdir, conformance_dir());
	if (conformance_dir()[0] == '/') {
		strbuf_reset(&fixtures);
		strbuf_addf(&fixtures, "%s/lkp/split-job", conformance_dir());
	}
	strbuf_addf(&lkp, "%s/conf/lkp", tmpdir);
	strbuf_addf(&cmd, "mkdir -p %s/conf/spec/fixtures/split-job %s/include && "
		    "cp %s/*.yaml %s/conf/spec/fixtures/split-job/ && "
		    "cp -r %s/programs %s/ && chmod -R u+w %s && "
		    "cp %s/programs/split-job/include %s/include/split-job && "
		    "cp -r %s/" DATA "/lkp-extra/programs %s/",
		    tmpdir, lkp.buf, fixtures.buf, tmpdir, fixtures.buf, lkp.buf, lkp.buf,
		    fixtures.buf, lkp.buf, topdir, lkp.buf);
	run(cmd.buf);
	dirs[0] = lkp.buf;
	dirs[1] = NULL;
	o.include_dirs = dirs;
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "%s/conf", tmpdir);
	assert_int_equal(chdir(cmd.buf), 0);

	for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		struct atoms a = { .nr = 0 };
		struct job *j;
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "spec/fixtures/split-job/%s.yaml", jobs[i].job);
		assert_int_equal(job_load_opts(path.buf, &(struct job_load_opts){ .include_dirs = dirs }, &j), 0);
		a.prefix = jobs[i].job;
		a.dirs = dirs;
		assert_int_equal(job_split(j, path.buf, &o, collect, &a), 0);
		assert_int_equal(a.nr, jobs[i].atoms);
		if (!strcmp(jobs[i].job, "1")) {
			/*
			 * lkp at the snapshot's commit (bbbc29c, run on these
			 * fixtures) no longer makes 1-test_1 and 1-test_2 as its
			 * spec fixtures say, nor 2-* and 3-*: its job pass reads
			 * the include, whose job['split-job']['test'] is nil there
			 * (the list was dropped), so every atom gets the else
			 * branch.  Only 1-test_3 still matches.
			 */
			for (int k = 0; k < a.nr; k++)
				assert_non_null(strstr(a.texts[k], "- CONFIG_TEST_ELSE\n"));
			free(a.names[0]);
			free(a.texts[0]);
			free(a.names[1]);
			free(a.texts[1]);
			a.names[0] = a.names[2];
			a.texts[0] = a.texts[2];
			a.nr = 1;
			compare_atoms(&a, fixtures.buf);
		} else {
			for (int k = 0; k < a.nr; k++) {
				struct strbuf p = STRBUF_INIT;
				strbuf_addf(&p, "%s/%s", fixtures.buf, a.names[k]);
				if (!file_exists(p.buf))
					fail_msg("lkp makes no %s", a.names[k]);
				strbuf_release(&p);
			}
		}
		atoms_release(&a);
		job_free(j);
		strbuf_release(&path);
	}

	/*
	 * --compatible, as lkp's spec checks it: without -t, then with the
	 * lines of machine-specific keys deleted (testbox, tbox_group, ...).
	 */
	{
		struct atoms a = { .nr = 0 };
		struct strbuf text = STRBUF_INIT, refined = STRBUF_INIT, kept = STRBUF_INIT;
		static const char *const drop[] = { "testbox:", "tbox_group:", "local_run:",
			"memory:", "nr_cpu:", "ssd_partitions:", "hdd_partitions:", NULL };
		struct job *j;

		assert_int_equal(read_file(&text, "spec/fixtures/split-job/compatible.yaml"), 0);
		job_refine_compatible(text.buf, &refined);
		assert_int_equal(job_load_string(refined.buf, refined.len, "compatible.yaml",
						 &(struct job_load_opts){ .include_dirs = dirs }, &j), 0);
		a.prefix = "compatible";
		a.dirs = dirs;
		o.testbox = "some-host";
		assert_int_equal(job_split(j, "compatible.yaml", &o, collect, &a), 0);
		assert_int_equal(a.nr, 1);
		for (const char *p = a.texts[0]; *p;) {
			const char *nl = strchrnul(p, '\n');
			bool skip = false;
			for (const char *const *d = drop; *d; d++)
				skip = skip || memmem(p, (size_t)(nl - p), *d, strlen(*d));
			if (!skip) {
				strbuf_add(&kept, p, (size_t)(nl - p));
				strbuf_addch(&kept, '\n');
			}
			p = *nl ? nl + 1 : nl;
		}
		free(a.texts[0]);
		a.texts[0] = strbuf_detach(&kept, NULL);
		compare_atoms(&a, fixtures.buf);
		atoms_release(&a);
		job_free(j);
		strbuf_release(&text);
		strbuf_release(&refined);
	}
	/*
	 * 4.yaml's expected files name programs/fs2/include/{OTHERS,nfsv3} and
	 * end in "model: Haswell" from a host file; the fixtures carry neither,
	 * so lkp's own spec does not check 4.yaml and neither do we.
	 */
	print_message("note: 4.yaml not compared (its fs2 includes and host file are not in the fixtures)\n");
	assert_int_equal(chdir(topdir), 0);
	strbuf_release(&fixtures);
	strbuf_release(&cmd);
	strbuf_release(&lkp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cartesian),
		cmocka_unit_test(test_deep_dotted_key),
		cmocka_unit_test(test_commit_rootfs_names),
		cmocka_unit_test(test_multi_doc_and_overrides),
		cmocka_unit_test(test_include_defaults),
		cmocka_unit_test(test_erb),
		cmocka_unit_test(test_template_error_in_split),
		cmocka_unit_test(test_program_include_pass),
		cmocka_unit_test(test_later_doc_atom_pass),
		cmocka_unit_test(test_double_brace_templates),
		cmocka_unit_test(test_templates_in_included_file),
		cmocka_unit_test(test_one_script_options),
		cmocka_unit_test(test_minus_key_over_defaults),
		cmocka_unit_test(test_refine_compatible),
		cmocka_unit_test(test_params_map),
		cmocka_unit_test(test_conformance),
	};
	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
