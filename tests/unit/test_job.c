/*
 * test_job.c: job files in memory (src/job/job.c, load.c, yaml.c, keys.c,
 * write.c, path_params.c):
 * loading, Psych typing, writing back, includes, markers, checks and their
 * messages, percentages, path_params, tbox_group and the result root.
 */
#include "test_helpers.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "job/job.h"
#include "parse/parser.h"
#include "util/xalloc.h"

/* ---- helpers ------------------------------------------------------- */

TEST_TMPDIR("job")

/* Write text to tmpdir/rel (creating directories). */
static void put(const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	char *slash;

	strbuf_addf(&p, "%s/%s", tmpdir, rel);
	slash = strrchr(p.buf, '/');
	*slash = 0;
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text)), 0);
	strbuf_release(&p);
}

static char *path_of(const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s", tmpdir, rel);
	return strbuf_detach(&p, NULL);
}

static struct job *load_str(const char *text)
{
	struct job *j;
	assert_int_equal(job_load_string(text, strlen(text), "t.yaml", NULL, &j), 0);
	return j;
}

/* Load without the key checks (free-form YAML). */
static struct job *load_any(const char *text)
{
	struct job *j;
	struct job_load_opts o = { .no_check = true };
	assert_int_equal(job_load_string(text, strlen(text), "t.yaml", &o, &j), 0);
	return j;
}

/* Loading must fail with a message containing want. */
static void expect_load_error(const char *text, const struct job_load_opts *o,
			      const char *want)
{
	struct job *j = (struct job *)1;
	char *msg;
	int ret;

	struct stderr_capture cap;
	capture_start(&cap);
	ret = job_load_string(text, strlen(text), "t.yaml", o, &j);
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_null(j);
	if (!strstr(msg, want))
		fail_msg("expected '%s' in '%s'", want, msg);
	free(msg);
}

static char *yaml_of(const struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	job_to_yaml(j, &sb);
	return strbuf_detach(&sb, NULL);
}

/* Loading must succeed, printing exactly `want` on stderr ("" for nothing). */
static void expect_load_stderr(const char *text, const char *want)
{
	struct stderr_capture cap;
	struct job *j;
	char *msg;
	int ret;

	capture_start(&cap);
	ret = job_load_string(text, strlen(text), "t.yaml", NULL, &j);
	msg = capture_end(&cap);
	assert_int_equal(ret, 0);
	if (strcmp(msg, want))
		fail_msg("%s: expected stderr '%s', got '%s'", text, want, msg);
	free(msg);
	job_free(j);
}

/* ---- reading -------------------------------------------------------- */

static void test_load_and_get(void **state)
{
	struct job *j = load_str("suite: vm-scalability\nruntime: 300\n"
				 "vm-scalability:\n  test: lru-file-readtwice\n"
				 "perf-profile:\n  delay: 15\nvmstat:\n");
	const struct job_entry *e;
	size_t pos = 0;
	long long n = -1;
	const char *keys[] = { "suite", "runtime", "vm-scalability", "perf-profile", "vmstat" };
	int i = 0;

	(void)state;
	assert_string_equal(job_get(j, "suite"), "vm-scalability");
	assert_int_equal(job_get_int(j, "runtime", &n), 0);
	assert_int_equal(n, 300);
	assert_string_equal(job_program_option(j, "vm-scalability", "test"), "lru-file-readtwice");
	assert_string_equal(job_program_option(j, "perf-profile", "delay"), "15");
	assert_null(job_program_option(j, "vmstat", "interval"));
	assert_null(job_get(j, "vm-scalability"));    /* a mapping, not a scalar */
	assert_int_equal(job_lookup(j, "vmstat")->kind, JOB_NULL);
	assert_null(job_lookup(j, "absent"));
	n = 7;
	assert_int_equal(job_get_int(j, "absent", &n), 1);
	assert_int_equal(job_get_int(j, "vmstat", &n), 1);
	assert_int_equal(n, 7);
	while ((e = job_next(j, &pos)))
		assert_string_equal(e->key, keys[i++]);
	assert_int_equal(i, 5);
	/* positions are 1-based line:col of the value */
	assert_int_equal(job_lookup(j, "runtime")->line, 2);
	assert_int_equal(job_lookup(j, "runtime")->col, 10);
	job_free(j);
}

static void test_get_int_error(void **state)
{
	struct job *j = load_str("suite: x\nruntime: 300s\nnr_threads: [1, 2]\n");
	long long n = 0;
	char *msg;

	(void)state;
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(job_get_int(j, "runtime", &n), -1);
	assert_int_equal(job_get_int(j, "nr_threads", &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "t.yaml:2:10: 'runtime' expected an integer, got '300s'"));
	assert_non_null(strstr(msg, "t.yaml:3:13: 'nr_threads' expected an integer, got a list"));
	free(msg);
	job_free(j);
}

static void test_scalar_types(void **state)
{
	static const struct { const char *s; enum job_scalar_type t; } cases[] = {
		{ "300", JOB_INT }, { "-5", JOB_INT }, { "0x1f", JOB_INT },
		{ "1_000", JOB_INT }, { "1,000", JOB_INT }, { "010", JOB_INT },
		{ "1.5", JOB_FLOAT }, { ".5", JOB_FLOAT }, { "1.0e+3", JOB_FLOAT },
		{ ".inf", JOB_FLOAT }, { "-.Inf", JOB_FLOAT }, { ".NaN", JOB_FLOAT },
		{ "yes", JOB_BOOL }, { "False", JOB_BOOL }, { "on", JOB_BOOL },
		{ "y", JOB_STR }, { "n", JOB_STR }, { "300s", JOB_STR },
		{ "100%", JOB_STR }, { "1e3", JOB_STR }, { "lru-file", JOB_STR },
		{ "truely", JOB_STR }, { "/dev/sda", JOB_STR }, { "1:30", JOB_INT },
		{ "2020-01-02", JOB_OTHER }, { ":sym", JOB_OTHER }, { "~", JOB_TNULL },
		{ "null", JOB_TNULL }, { "", JOB_TNULL }, { ".", JOB_STR },
		{ "09", JOB_STR }, { "1.2.3", JOB_STR },
		/* sexagesimal minutes and seconds go to 59 */
		{ "1:59", JOB_INT }, { "1:60", JOB_STR }, { "1:05:30", JOB_INT },
		{ "1:30.5", JOB_FLOAT }, { "1:2:3:4", JOB_STR },
		/* a float's exponent needs its sign */
		{ "1.0e3", JOB_STR }, { "1.0e30", JOB_STR }, { "1.0E-3", JOB_FLOAT }, { "1.e+3", JOB_FLOAT },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (job_scalar_type_of(cases[i].s) != cases[i].t)
			fail_msg("'%s': got %d, want %d", cases[i].s,
				 job_scalar_type_of(cases[i].s), cases[i].t);
}

/* ---- writing -------------------------------------------------------- */

static void test_to_yaml_layout(void **state)
{
	struct job *j = load_any(
		"suite: y\n"
		"n1: '300'\n"
		"n2: 0x10\n"
		"b: yes\n"
		"f: 1.50\n"
		"p: /dev/sda\n"
		"q: \"a: b\"\n"
		"h: \"#x\"\n"
		"e: ''\n"
		"t: \"tab\\there\"\n"
		"list:\n  - a\n  - - b\n    - c\n  - k: v\n    k2: v2\n"
		"empty_l: []\n"
		"empty_m: {}\n"
		"nested:\n  deep:\n    x: 1\n"
		"multi: |\n  line1\n  line2\n"
		"nul: ~\n");
	char *y = yaml_of(j);

	(void)state;
	assert_string_equal(y,
		"---\n"
		"suite: \"y\"\n"
		"n1: '300'\n"
		"n2: 16\n"
		"b: true\n"
		"f: 1.5\n"
		"p: \"/dev/sda\"\n"
		"q: 'a: b'\n"
		"h: \"#x\"\n"
		"e: ''\n"
		"t: \"tab\\there\"\n"
		"list:\n- a\n- - b\n  - c\n- k: v\n  k2: v2\n"
		"empty_l: []\n"
		"empty_m: {}\n"
		"nested:\n  deep:\n    x: 1\n"
		"multi: |\n  line1\n  line2\n"
		"nul:\n");
	free(y);
	job_free(j);
}

static void test_round_trip(void **state)
{
	const char *texts[] = {
		"suite: x\nkey: \"it's\"\nnum: '007'\nlong: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp\n",
		"a:\n- - - deep\n- {x: [1, 2], y: {z: null}}\n- ''\n- \" lead\"\n- \"trail \"\n- \"multi\\nline\\n\"\n- \"no final\\nnewline\"\n",
		"s: \"!bang\"\nt: \"%pct\"\nu: \"@at\"\nv: \"- dash\"\nw: \"?q\"\nx: \"key: v\"\ny: \"a #b\"\nz: \"<<\"\n",
		"k1: true\nk2: 'true'\nk3: 1.0e+3\nk4: 2020-01-02\nk5: ':sym'\nk6: '1_000'\n",
		/* Symbols: a key's, quoted (a String), an alias of one */
		"&a :x:: v\nk: ':x:'\nm: &b :y\nn: *b\n&c :z: w\no: *c\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct job *a, *b;
		struct job_load_opts o = { .no_check = true };
		char *y1, *y2;

		assert_int_equal(job_load_string(texts[i], strlen(texts[i]), "a.yaml", &o, &a), 0);
		y1 = yaml_of(a);
		assert_int_equal(job_load_string(y1, strlen(y1), "b.yaml", &o, &b), 0);
		if (!job_value_equal(a->root, b->root))
			fail_msg("round trip %zu changed the job:\n%s", i, y1);
		y2 = yaml_of(b);
		assert_string_equal(y1, y2);
		free(y1);
		free(y2);
		job_free(a);
		job_free(b);
	}
}

static void test_long_plain_wraps(void **state)
{
	struct job *j = job_new();
	struct job *back;
	struct job_load_opts o = { .no_check = true };
	char *y;

	(void)state;
	job_set(j, "cmd", "word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15");
	y = yaml_of(j);
	/* libyaml folds plain scalars past 80 columns */
	assert_non_null(strstr(y, "cmd: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13\n  word14 word15\n"));
	assert_int_equal(job_load_string(y, strlen(y), "w.yaml", &o, &back), 0);
	assert_string_equal(job_get(back, "cmd"), job_get(j, "cmd"));
	free(y);
	job_free(j);
	job_free(back);
}

static void test_set_delete_save(void **state)
{
	struct job *j = load_str("suite: x\nruntime: 300s\nvmstat:\n");
	struct job *back;
	char *p = path_of("saved.yaml");
	char *y;

	(void)state;
	job_set(j, "runtime", "600s");          /* keeps its place */
	job_set(j, "runs", "3");                /* goes last */
	assert_true(job_delete(j, "vmstat"));
	assert_false(job_delete(j, "vmstat"));
	y = yaml_of(j);
	assert_string_equal(y, "---\nsuite: x\nruntime: 600s\nruns: 3\n");
	assert_int_equal(job_save(j, p), 0);
	assert_int_equal(job_load(p, &back), 0);
	assert_true(job_value_equal(j->root, back->root));
	/* a copy is independent */
	{
		struct job *d = job_dup(back);
		job_set(d, "suite", "other");
		assert_string_equal(job_get(back, "suite"), "x");
		job_free(d);
	}
	free(y);
	free(p);
	job_free(j);
	job_free(back);
}

/* A default: set where job_get finds nothing (absent, null, a mapping),
 * never over a value; the value not set is freed (asan). */
static void test_set_default(void **state)
{
	struct job *j = load_str("suite: x\nnone:\nmap:\n  a: 1\n");
	char *y;

	(void)state;
	assert_false(job_set_default(j, "suite", job_scalar_new("y")));
	assert_true(job_set_default(j, "none", job_scalar_new("v")));
	assert_true(job_set_default(j, "map", job_string_new("300")));
	assert_true(job_set_default(j, "new", job_scalar_new("z")));
	assert_false(job_set_default(j, "new", job_scalar_new("w")));
	y = yaml_of(j);
	assert_string_equal(y, "---\nsuite: x\nnone: v\nmap: '300'\nnew: z\n");
	free(y);
	job_free(j);
}

/* ---- markers and documents ------------------------------------------ */

static void test_markers(void **state)
{
	struct job *j = load_str("suite: x\n\n#! jobs/a.yaml\nruntime: 1\n"
				 "\n# has job['x'] only\nvmstat:\n#! not after a blank\n"
				 "\n# plain comment\nmeminfo:\n");
	char *y = yaml_of(j);
	size_t pos = 0, n = 0;

	(void)state;
	assert_string_equal(y, "---\nsuite: x\n\n#! jobs/a.yaml\nruntime: 1\nvmstat:\n"
			       "\n# plain comment\nmeminfo:\n");
	while (job_next(j, &pos))
		n++;
	assert_int_equal(n, 4);                 /* markers are skipped */
	free(y);
	job_free(j);
}

static void test_multi_doc(void **state)
{
	struct job *j = load_str("suite: x\nruntime: 1\n---\nruntime: 2\n---\nruntime: 3\nvmstat:\n");

	(void)state;
	assert_string_equal(job_get(j, "runtime"), "1");
	assert_int_equal(j->nr_docs, 2);
	assert_string_equal(job_value_text(job_map_get(j->docs[1], "runtime")), "3");
	job_free(j);
}

/* ---- includes ------------------------------------------------------- */

static void test_includes(void **state)
{
	char *dirs_buf[2];
	const char *dirs[2];
	struct job_load_opts o = { 0 };
	struct job *j;
	char *p;

	(void)state;
	put("lkp/include/common.yaml", "runtime: 300s\nvmstat:\n");
	put("lkp/include/opts.yaml", "test: lru\nsize: 1G\n");
	put("jobs/sub/base.yaml", "<<: ../nested.yaml\nmeminfo:\n");
	put("jobs/nested.yaml", "nr_threads: 2\n");
	put("jobs/flow.yaml", "suite: x\n<<: {file: common.yaml, ignore: [vmstat], runtime: 10s}\n");
	put("jobs/main.yaml",
	    "suite: x\n"
	    "<<: common.yaml\n"
	    "<<: ./sub/base.yaml\n"
	    "vm-scalability:\n"
	    "  <<: opts.yaml\n"
	    "---\n"
	    "runtime: 600s\n");
	dirs_buf[0] = path_of("lkp");
	dirs[0] = dirs_buf[0];
	dirs[1] = NULL;
	o.include_dirs = dirs;
	p = path_of("jobs/main.yaml");
	assert_int_equal(job_load_opts(p, &o, &j), 0);
	assert_string_equal(job_get(j, "runtime"), "300s");
	assert_non_null(job_lookup(j, "vmstat"));
	assert_string_equal(job_get(j, "nr_threads"), "2");    /* nested include */
	assert_non_null(job_lookup(j, "meminfo"));
	assert_string_equal(job_program_option(j, "vm-scalability", "size"), "1G");
	assert_int_equal(j->nr_docs, 1);
	/* positions point into the included file */
	{
		struct strbuf w = STRBUF_INIT;
		job_source_line(job_program_option(j, "vm-scalability", "size") ?
				job_map_get(job_lookup(j, "vm-scalability"), "size") : NULL, &w);
		assert_non_null(strstr(w.buf, "lkp/include/opts.yaml:2:7"));
		strbuf_release(&w);
	}
	job_free(j);
	free(p);

	p = path_of("jobs/flow.yaml");
	assert_int_equal(job_load_opts(p, &o, &j), 0);
	assert_string_equal(job_get(j, "runtime"), "10s");
	assert_null(job_lookup(j, "vmstat"));
	job_free(j);
	free(p);
	free(dirs_buf[0]);
}

static void test_include_errors(void **state)
{
	struct job_load_opts o = { 0 };
	char *p;
	struct job *j;
	char *msg;
	int ret;

	(void)state;
	put("loop.yaml", "suite: x\n<<: loop.yaml\n");
	put("bad-inc.yaml", "suite: x\n<<: broken.yaml\n");
	put("broken.yaml", "runtime: 1\nvmstat: [a\n");
	p = path_of("loop.yaml");
	struct stderr_capture cap;
	capture_start(&cap);
	ret = job_load_opts(p, &o, &j);
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "loop.yaml:2:1: includes nested deeper than 16"));
	free(msg);
	free(p);

	/* an error inside an included file names that file and line */
	p = path_of("bad-inc.yaml");
	capture_start(&cap);
	ret = job_load_opts(p, &o, &j);
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(msg, "broken.yaml:"));
	assert_non_null(strstr(msg, "invalid YAML"));
	free(msg);
	free(p);

	expect_load_error("suite: x\n<<: no-such.yaml\n", &o,
			  "t.yaml:2:1: included file 'no-such.yaml' not found");
	expect_load_error("suite: x\n<<: {ignore: [a]}\n", &o,
			  "expected {file: NAME, ...} after '<<:'");
}

/*
 * An included file that is not job YAML is refused, naming the including
 * file, line and the included path, never its content: /etc/shadow-like
 * lines are a plain scalar, or one mapping key full of colons when a line
 * ends in ':'; a list, a quoted or odd key, a scalar document.  lkp's
 * shapes load: keys with '.', '+', '-', inner spaces, nested includes.
 */
static void test_include_not_job_yaml(void **state)
{
	static const char *const secrets[] = {
		"root:$y$j9T$SECRETHASH:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
		"root:$y$j9T$SECRETHASH:19000:0:99999:7::\n",
		"root:$y$j9T$SECRETHASH:19000:0:99999:7:\n",
		"- SECRET\n",
		"\"SECRET\": 1\n",
		"SECRET|KEY: 1\nx: y\n",
		"{SECRET$: 1}\n",
		"SECRETTEXT\n",
		"x: 1\n---\nSECRET\n",
		"a: b: SECRET\n",
		/* one key longer than MAX_INCLUDE_KEY (129 characters) */
		"SECRET" "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx: 1\n",
	};
	struct job_load_opts o = { .no_check = true };
	struct stderr_capture cap;
	struct job *j;
	(void)state;

	for (size_t i = 0; i < sizeof(secrets) / sizeof(*secrets); i++) {
		char *p = path_of("nj/job.yaml"), *msg;
		int ret;

		put("nj/shadow", secrets[i]);
		put("nj/job.yaml", "testcase: x\nfs:\n  << : shadow\n");
		for (int check = 0; check < 2; check++) {
			o.no_check = check;
			capture_start(&cap);
			ret = job_load_opts(p, &o, &j);
			msg = capture_end(&cap);
			if (ret != -1 || !strstr(msg, "nj/job.yaml:3:3: expected job YAML (a mapping of "
						 "keys such as 'testcase:') in included file 'shadow', "
						 "got other text (<not shown>)\n") || strstr(msg, "SECRET"))
				fail_msg("input %zu: %d '%s'", i, ret, msg);
			free(msg);
		}
		free(p);
	}
	/* a .yaml file of the user's with a syntax error: where, in its terms */
	put("nj/typo.yaml", "runtime: 1\nvmstat: [a\n");
	put("nj/job2.yaml", "testcase: x\n<<: typo.yaml\n");
	{
		char *p = path_of("nj/job2.yaml"), *msg;
		capture_start(&cap);
		assert_int_equal(job_load_opts(p, &o, &j), -1);
		msg = capture_end(&cap);
		if (!strstr(msg, "nj/typo.yaml:3:1: invalid YAML: "))
			fail_msg("'%s'", msg);
		free(msg);
		free(p);
	}
	/* lkp's shapes */
	put("nj/ok.yaml", "# comment\nperf-profile.delay: 1\nkmsg+:\nif role client:\n"
	    "  apachebench:\nfs2: [a, {b: c}]\n<<: empty.yaml\n"
	    /* a key of MAX_INCLUDE_KEY characters */
	    "K234567890123456789012345678901234567890123456789012345678901234"
	    "5678901234567890123456789012345678901234567890123456789012345678: 1\n"
	    "---\nx: &a 1\ny: *a\n");
	put("nj/empty.yaml", "# nothing\n");
	put("nj/job3.yaml", "testcase: x\n<<: ok.yaml\n");
	{
		char *p = path_of("nj/job3.yaml");
		assert_int_equal(job_load_opts(p, &o, &j), 0);
		assert_non_null(job_lookup(j, "if role client"));
		assert_int_equal(j->nr_docs, 1);
		job_free(j);
		free(p);
	}
}

/*
 * A job-YAML file not named .yaml is included, as lkp does (an lkp
 * hosts/ file has no suffix; load.c says why this is safe), its text
 * hidden in messages; from the lab queue it is refused as any include.
 */
static void test_include_not_named_yaml(void **state)
{
	struct job_load_opts q = { .no_includes = true };
	struct stderr_capture cap;
	struct job *j;
	char *p = path_of("ny/job.yaml"), *msg;
	(void)state;

	put("ny/hosts/box", "nr_cpu: 8\nmemory: 16G\n");
	put("ny/job.yaml", "testcase: mytest\n<<: hosts/box\nruntime: 1\n");
	assert_int_equal(job_load(p, &j), 0);
	assert_string_equal(job_get(j, "nr_cpu"), "8");
	assert_string_equal(job_get(j, "memory"), "16G");
	assert_non_null(strstr(job_value_shown(job_lookup(j, "memory")), "<not shown"));
	job_free(j);
	capture_start(&cap);
	assert_int_equal(job_load_opts(p, &q, &j), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "ny/job.yaml:2:1: '<<:' includes a file, which a queued job"));
	free(msg);
	free(p);
}

/*
 * A job from the lab queue (no_includes): any submitter wrote its text,
 * so no '<<:' of it may make the box read a file, even a job YAML one
 * that exists (here ok.yaml beside the job); the same text loads
 * without the option.
 */
static void test_no_includes(void **state)
{
	static const char *const texts[] = {
		"testcase: x\n<<: ok.yaml\n",
		"testcase: x\nfs:\n  << : ok.yaml\n",
		"testcase: x\n<<: {file: ok.yaml, runtime: 1}\n",
		"testcase: x\n<< :  \"ok.yaml\"\n",
	};
	struct job_load_opts o = { .no_includes = true };
	struct stderr_capture cap;
	struct job *j;
	char *name;
	(void)state;

	put("qi/ok.yaml", "runtime: 1\n");
	name = path_of("qi/job.yaml");
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		const char *t = texts[i];
		char *msg;
		int ret;

		assert_int_equal(job_load_string(t, strlen(t), name, NULL, &j), 0);
		msg = yaml_of(j);
		assert_non_null(strstr(msg, "runtime: 1"));
		free(msg);
		job_free(j);
		capture_start(&cap);
		ret = job_load_string(t, strlen(t), name, &o, &j);
		msg = capture_end(&cap);
		if (ret != -1 || j || !strstr(msg, "qi/job.yaml:") ||
		    !strstr(msg, ": '<<:' includes a file, which a queued job may not do "
			    "(perfbot queue submit expands includes before queueing)\n") ||
		    strchr(msg, '\n') != msg + strlen(msg) - 1)
			fail_msg("input %zu: %d '%s'", i, ret, msg);
		free(msg);
	}
	/* an alias merge is no file: it stays refused as before */
	expect_load_error("base: &b {x: 1}\n<<: *b\n", &o, "YAML merge keys are not supported");
	free(name);
}

/*
 * Two '' escapes in a row in a single-quoted value: libfyaml 0.7 reads
 * 'x''''y' as x''' and, from four in a row, fails and leaks (fuzzing);
 * refused before it reads them, in the job or an include, naming the
 * line and column, in a comment too (lkp's include rule reads a flow
 * include after '#').  One escape, and two quotes in a row, still load.
 */
static void test_quote_runs(void **state)
{
	static const char what[] = "four single quotes in a row, which the YAML library "
		"(libfyaml 0.7) misreads in a single-quoted value (write each as \\x27 in "
		"double quotes)\n";
	struct stderr_capture cap;
	struct strbuf want = STRBUF_INIT;
	struct job *j;
	char *p, *msg;
	(void)state;

	strbuf_addf(&want, "t.yaml:2:8: %s", what);
	expect_load_error("suite: x\nvar: 'x''''y'\n", NULL, want.buf);
	strbuf_reset(&want);
	strbuf_addf(&want, "t.yaml:1:4: %s", what);
	expect_load_error("a: ''''''''''''\n", &(struct job_load_opts){ .no_check = true },
			  want.buf);
	/* a comment too: lkp's include rule reads a flow include after '#' */
	strbuf_reset(&want);
	strbuf_addf(&want, "t.yaml:1:19: %s", what);
	expect_load_error("#<<: {file: a, b: ''''}\nsuite: x\n", NULL, want.buf);
	/* in an include, before its check reads it */
	put("qr/inc.yaml", "# one: ''\nvar: 'x''''''''y'\n");
	put("qr/job.yaml", "suite: x\n<<: inc.yaml\n");
	p = path_of("qr/job.yaml");
	capture_start(&cap);
	assert_int_equal(job_load(p, &j), -1);
	msg = capture_end(&cap);
	if (!strstr(msg, "qr/inc.yaml:2:8: ") || !strstr(msg, what))
		fail_msg("'%s'", msg);
	free(msg);
	free(p);
	j = load_any("# ''\na: 'it''s'\nb: \"''\"\n");
	assert_string_equal(job_get(j, "a"), "it's");
	assert_string_equal(job_get(j, "b"), "''");
	job_free(j);
	strbuf_release(&want);
}

/* ---- checks --------------------------------------------------------- */

static void test_check_errors(void **state)
{
	(void)state;
	expect_load_error("suite: x\nruntime: [a\n", NULL, "t.yaml:");
	expect_load_error("suite: x\nruntime: [a\n", NULL, "invalid YAML");
	expect_load_error("suite: x\nruntime:\n  a: 1\n", NULL,
			  "t.yaml:3:3: 'runtime' expected a scalar or a list of scalars, got a mapping");
	expect_load_error("testcase: [a, b]\n", NULL,
			  "t.yaml:1:11: 'testcase' expected a scalar, got a list");
	expect_load_error("suite: x\nnr_threads: [1, [2]]\n", NULL,
			  "t.yaml:2:17: 'nr_threads' expected a scalar in its list, got a list");
	expect_load_error("suite: x\nsuite: y\n", NULL, "t.yaml:2:1: duplicate key 'suite'");
	expect_load_error("suite: x\n% if true\nruntime: 1\n% end\n", NULL,
			  "t.yaml:2:1: expected plain YAML (ERB templates are supported in include files only)");
	expect_load_error("suite: x\nruntime: <%= 1 %>\n", NULL, "t.yaml:2:10: expected plain YAML");
	/* keys that split-job added from lkp's files are theirs to define ... */
	expect_load_stderr("suite: x\n\n#! include/fs/xfs\nmkfs_opts: -f\n\n#! hosts/box\nbrand_new: 1\n",
			   "");
	/* ... but the user's own sections are checked */
	expect_load_stderr("suite: x\n\n#! jobs/mine.yaml\nmkfs_opts: -f\n",
			   "perfbot: warning: t.yaml:4:1: unknown key 'mkfs_opts' kept as a parameter "
			   "(not a job key, monitor or benchmark perfbot knows)\n");
	expect_load_error("- a\n- b\n", NULL,
			  "t.yaml:1:1: expected a mapping of keys at the top of the job, got a list");
	expect_load_error("suite: x\n? [a]\n: b\n", NULL, "expected a plain key");
	expect_load_error("suite: x\nb: *nope\n", &(struct job_load_opts){ .no_check = true },
			  "expected a defined anchor for this alias");
	expect_load_error("base: &b {x: 1}\n<<: *b\n", &(struct job_load_opts){ .no_check = true },
			  "YAML merge keys are not supported");
}

/*
 * Aliases read copies their anchors own: a key's anchor (`&a k: *a`, a
 * use-after-free found by fuzzing: the key's node was freed once it became
 * the key), a value a later key replaced, an alias inside its own anchor,
 * and a billion laughs, refused at MAX_ALIAS_NODES.
 */
static void test_aliases(void **state)
{
	struct job_load_opts any = { .no_check = true };
	struct strbuf laughs = STRBUF_INIT;
	struct job *j;
	(void)state;

	j = load_any("testcase: mytest\n&a k: *a\n");
	assert_string_equal(job_get(j, "k"), "k");
	job_free(j);
	j = load_any("x: &k key\n*k : v\n");
	assert_string_equal(job_get(j, "key"), "v");
	job_free(j);
	/* lkp's override: the anchored first value is freed, its alias is not */
	put("alias/base.yaml", "a: &x [1, 2]\n");
	put("alias/job.yaml", "<<: base.yaml\na: 3\nb: *x\n");
	{
		char *p = path_of("alias/job.yaml");
		assert_int_equal(job_load_opts(p, &any, &j), 0);
		assert_int_equal(job_lookup(j, "b")->nr, 2);
		assert_string_equal(job_lookup(j, "b")->item[1]->text, "2");
		job_free(j);
		free(p);
	}
	/* a Symbol key ending in ':' as a value: no spelling reads it back */
	expect_load_error("testcase: mytest\n&a :x:: v\nk: *a\n", &any,
			  "t.yaml:3:5: expected a value that can be written back");
	expect_load_error("&a :x:: v\nk: [*a]\n", &any, "t.yaml:2:6: expected a value that");
	/* as a key it is a key (test_round_trip has the texts that load) */
	j = load_any("&a :x:: v\nb:\n  *a : w\n");
	assert_string_equal(job_lookup(j, "b")->ent[0].key, ":x:");
	job_free(j);
	expect_load_error("a: &r [1, *r]\n", &any,
			  "t.yaml:1:12: expected an alias of a complete node");
	/* 10 * 10 * ...: 10^6 nodes from 300 bytes, refused at the 5th line */
	strbuf_addstr(&laughs, "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (int i = 1; i < 6; i++)
		strbuf_addf(&laughs, "l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n",
			    i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	expect_load_error(laughs.buf, &any, "t.yaml:5:");
	expect_load_error(laughs.buf, &any, "expected at most 100000 nodes made by aliases");
	strbuf_release(&laughs);
	/* 10^4 + ...: below the limit */
	j = load_any("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
		     "l1: &l1 [*l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0]\n"
		     "l2: &l2 [*l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1]\n"
		     "l3: [*l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2]\n");
	assert_int_equal(job_lookup(j, "l3")->item[9]->item[9]->nr, 10);
	job_free(j);
}

/*
 * Without a catalog, as lkp: a key nobody knows is a parameter (a mapping:
 * a program) of the job, kept, with a warning naming it; keys of lkp's
 * programs and filters (lkp_programs.c) get none.  Shapes lkp allows load;
 * those perfbot reads stay checked (test_check_errors).
 */
static void test_unknown_keys(void **state)
{
	static const char *const param = " kept as a parameter (not a job key, monitor or "
					 "benchmark perfbot knows)\n";
	struct strbuf want = STRBUF_INIT;
	struct job *j;
	(void)state;

	strbuf_addf(&want, "perfbot: warning: t.yaml:2:1: unknown key 'bogus'%s", param);
	expect_load_stderr("suite: x\nbogus: 1\n", want.buf);
	j = load_str("suite: x\nbogus: [1, 2]\n");
	assert_int_equal(job_lookup(j, "bogus")->nr, 2);
	assert_string_equal(job_lookup(j, "bogus")->item[1]->text, "2");
	job_free(j);
	expect_load_stderr("suite: x\nno-such-bench:\n  test: a\n",
			   "perfbot: warning: t.yaml:2:1: unknown key 'no-such-bench' kept as a "
			   "program (not a benchmark, monitor or lkp program perfbot knows)\n");
	/* lkp's parameters: vm-scalability's size, apachebench's concurrency,
	 * lkp's own force_reboot, a filter, a meta.yaml-only one (avocado's) */
	expect_load_stderr("suite: x\nsize: 8T\nconcurrency: [1, 2]\nforce_reboot: 1\n"
			   "need_cpuid: avx\ntest_group: a\n", "");
	/* whole names only: nr_thread is not lkp's nr_threads */
	strbuf_reset(&want);
	strbuf_addf(&want, "perfbot: warning: t.yaml:2:1: unknown key 'nr_thread'%s", param);
	expect_load_stderr("suite: x\nnr_thread: 2\n", want.buf);
	/* lkp's programs, whatever they hold, and their "prog.opt" form */
	expect_load_stderr("suite: x\napachebench:\nhttpd:\n  a: 1\nsetup-rocksdb-typo:\n",
			   "perfbot: warning: t.yaml:5:1: unknown key 'setup-rocksdb-typo' kept as a "
			   "parameter (not a job key, monitor or benchmark perfbot knows)\n");
	expect_load_stderr("suite: x\nfsmark.test_size: 1G\nperf-profile-:\nkmsg+: 1\n", "");
	strbuf_reset(&want);
	strbuf_addf(&want, "perfbot: warning: t.yaml:2:1: unknown key 'nosuch.x'%s"
		    "perfbot: warning: t.yaml:3:1: unknown key 'nosuch-'%s", param, param);
	expect_load_stderr("suite: x\nnosuch.x: 1\nnosuch-: 1\n", want.buf);
	/* fs and disk with options: lkp's setup programs (fio-basic-local-disk) */
	expect_load_stderr("suite: x\nfs:\n  fs: ext4\n  format: n\ndisk:\n  nr_pmem: 4\n", "");
	expect_load_error("suite: x\nfs: [[ext4]]\n", NULL,
			  "t.yaml:2:6: 'fs' expected a scalar or mapping in its list, got a list");
	/* an included base overridden by the job (lkp's `<<: fsmark.yaml`
	 * then `disk: 1BRD_48G`): the later value wins, in the first place */
	put("inc/base.yaml", "suite: base\ndisk: 1HDD\nfs: xfs\n");
	{
		char *p = path_of("inc/job.yaml");
		put("inc/job.yaml", "<<: base.yaml\ndisk: 1BRD_48G\n");
		assert_int_equal(job_load(p, &j), 0);
		assert_string_equal(job_get(j, "disk"), "1BRD_48G");
		assert_string_equal(j->root->ent[1].key, "disk");
		job_free(j);
		free(p);
	}
	/* a key of an included file not named .yaml is never shown, also
	 * once copied by code into a map that knows only its value's file */
	put("inc/secret", "SECRETKEY: 1\n");
	{
		char *p = path_of("inc/s.yaml");
		struct job_value *m = job_value_new(JOB_MAP);
		put("inc/s.yaml", "<< : secret\n");
		assert_int_equal(job_load(p, &j), 0);
		assert_non_null(strstr(job_key_shown(&j->root->ent[0]), "<not shown"));
		job_map_set(m, j->root->ent[0].key, job_value_dup(j->root->ent[0].val));
		assert_null(m->ent[0].src);
		assert_non_null(strstr(job_key_shown(&m->ent[0]), "<not shown"));
		job_value_free(m);
		job_free(j);
		free(p);
	}
	strbuf_release(&want);
}

/* ---- what fuzzing found (tests/fuzz/fuzz_job.c) ------------------ */

static void expect_bytes_error(const char *text, size_t len, const char *want)
{
	struct job *j = (struct job *)1;
	struct stderr_capture cap;
	char *msg;
	int ret;

	capture_start(&cap);
	ret = job_load_string(text, len, "t.yaml", NULL, &j);
	msg = capture_end(&cap);
	assert_int_equal(ret, -1);
	assert_null(j);
	if (!strstr(msg, want))
		fail_msg("expected '%s' in '%s'", want, msg);
	free(msg);
}

static void test_fuzz_found(void **state)
{
	static const char nul[] = "suite: a\0b\nruntime: 1\n";
	struct job_load_opts o = { 0 };
	struct job *j, *again;
	char *p, *y;

	(void)state;
	/* libfyaml stopped at the NUL without an error: runtime was lost */
	expect_bytes_error(nul, sizeof(nul) - 1, "t.yaml:1:9: expected UTF-8 text, found a NUL byte");
	/* a value that began with bytes no UTF-8 read as null */
	expect_load_error("suite: \xff\xff\n", NULL,
			  "t.yaml:1:8: expected UTF-8 text, found a byte that is no UTF-8");
	expect_load_error("suite: x\nruntime: \xc0\xaf\n", NULL, "t.yaml:2:10: expected UTF-8");
	expect_load_error("suite: \xc1\xbf\n", NULL, "t.yaml:1:8: expected UTF-8");     /* overlong */
	expect_load_error("suite: \xe0\x9f\xbf\n", NULL, "t.yaml:1:8: expected UTF-8"); /* overlong */
	expect_load_error("suite: \xed\xa0\x80\n", NULL, "t.yaml:1:8: expected UTF-8"); /* surrogate */
	expect_load_error("suite: \xf0\x8f\xbf\xbf\n", NULL, "t.yaml:1:8: expected UTF-8");
	expect_load_error("suite: \xf4\x90\x80\x80\n", NULL, "t.yaml:1:8: expected UTF-8");
	expect_load_error("suite: \xf5\x80\x80\x80\n", NULL, "t.yaml:1:8: expected UTF-8");
	expect_load_error("suite: a\xe2\x82\n", NULL, "t.yaml:1:9: expected UTF-8");    /* cut */
	expect_load_error("suite: \xe2\x82x\n", NULL, "t.yaml:1:8: expected UTF-8");
	/* the largest and smallest of each length are text */
	j = load_str("suite: \xc2\x80 \xdf\xbf \xe0\xa0\x80 \xed\x9f\xbf \xef\xbf\xbf "
		     "\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf \x7f\n");
	assert_string_equal(job_get(j, "suite"), "\xc2\x80 \xdf\xbf \xe0\xa0\x80 \xed\x9f\xbf "
			    "\xef\xbf\xbf \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf \x7f");
	job_free(j);
	/* in an included file too, named with its own line */
	put("bin.txt", "suite: x\nruntime: \xff\n");
	put("inc-bin.yaml", "testcase: t\n<<: bin.txt\n");
	p = path_of("inc-bin.yaml");
	{
		struct stderr_capture cap;
		char *msg;
		capture_start(&cap);
		assert_int_equal(job_load_opts(p, &o, &j), -1);
		msg = capture_end(&cap);
		assert_non_null(strstr(msg, "bin.txt:2:10: expected UTF-8 text"));
		free(msg);
	}
	free(p);

	/* a null list item: job_to_yaml wrote "-", which libfyaml refuses
	 * at its key's indentation, so the job did not read back */
	j = load_any("fs2:\n  -\n  - ext4\nx: 1\n");
	y = yaml_of(j);
	assert_string_equal(y, "---\nfs2:\n- ~\n- ext4\nx: 1\n");
	again = load_any(y);
	assert_true(job_value_equal(j->root, again->root));
	assert_int_equal(job_lookup(again, "fs2")->item[0]->kind, JOB_NULL);
	job_free(again);
	job_free(j);
	free(y);

	/* two spaces past the line width in a double-quoted value: folding
	 * at the second left the first at the end of the line, stripped on
	 * reading (found by fuzzing) */
	j = load_any("fs:\n  - a\x15" "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		     "&  ext4\n");
	y = yaml_of(j);
	assert_non_null(strstr(y, "bbbb&  ext4\"\n"));
	again = load_any(y);
	assert_true(job_value_equal(j->root, again->root));
	job_free(again);
	job_free(j);
	free(y);

	/* a key or value with "<<": the line written read back as an include */
	j = load_any("test-profi<<:\n  delay  - 100%\nk: \"a<\\x3C : b\"\n");
	y = yaml_of(j);
	assert_string_equal(y, "---\n\"test-profi\\x3C<\": delay  - 100%\nk: \"a\\x3C< : b\"\n");
	again = load_any(y);
	assert_true(job_value_equal(j->root, again->root));
	job_free(again);
	job_free(j);
	free(y);

	/* libfyaml reads 'a''''b' as "a'''": such strings go double-quoted */
	j = load_any("k: \"a: b''c\"\nl: \"a: b'c\"\n");
	y = yaml_of(j);
	assert_string_equal(y, "---\nk: \"a: b''c\"\nl: 'a: b''c'\n");
	again = load_any(y);
	assert_true(job_value_equal(j->root, again->root));
	assert_string_equal(job_get(again, "k"), "a: b''c");
	job_free(again);
	job_free(j);
	free(y);

	/* a key past the line width that needs double quotes: job_to_yaml
	 * folded it at a space, and a key on two lines did not read back;
	 * with one blank, where a value would be folded, as with two */
	static const char *const long_keys[][2] = {
		{ ":\x16  mode: process\n", "aaaa:\\x16  mode\": process\n" },
		{ ":\x16 mode: process\n", "aaaa:\\x16 mode\": process\n" },
	};
	for (size_t k = 0; k < sizeof(long_keys) / sizeof(long_keys[0]); k++) {
		struct strbuf text = STRBUF_INIT;
		strbuf_addchars(&text, 'a', 90);
		strbuf_addstr(&text, long_keys[k][0]);
		j = load_any(text.buf);
		y = yaml_of(j);
		assert_non_null(strstr(y, long_keys[k][1]));
		again = load_any(y);
		assert_true(job_value_equal(j->root, again->root));
		job_free(again);
		job_free(j);
		free(y);
		strbuf_release(&text);
	}
}

static void test_known_keys(void **state)
{
	(void)state;
	assert_true(job_key_known("testcase", NULL));
	assert_true(job_key_known("perf-profile", NULL));       /* monitor */
	assert_true(job_key_known("proc-vmstat", NULL));
	assert_true(job_key_known("script tests/foo", NULL));
	/* a benchmark with a runner but no parser of its name (its output
	 * is adapted): known through the registry, job/bench_names.h */
	assert_null(parser_find("sysbench"));
	assert_true(job_key_known("sysbench", NULL));
	/* keys the run itself reads (lkp's dbench.yaml has monitor_delay) */
	assert_true(job_key_known("monitor_delay", NULL));
	assert_true(job_key_known("nr_run", NULL));
	assert_true(job_key_known("interval", NULL));
	assert_false(job_key_known("bogus", NULL));
	put("lkp/programs/mybench/run", "#!/bin/sh\n# - test\n");
	{
		char *d = path_of("lkp");
		const char *dirs[] = { d, NULL };
		assert_true(job_key_known("mybench", dirs));
		assert_false(job_key_known("../lkp", dirs));
		free(d);
	}
	assert_non_null(job_monitor_find("perf-stat"));
	assert_true(job_monitor_find("perf-stat")->supported);
	assert_true(job_monitor_find("kmsg")->supported);
	assert_false(job_monitor_find("heartbeat")->supported);
	assert_null(job_monitor_find("vm-scalability"));
}

/* ---- percentages ---------------------------------------------------- */

static void test_percentages(void **state)
{
	long long n;
	struct job *j;
	char *msg;

	(void)state;
	assert_int_equal(job_percent_of_cpus("100%", 8, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(job_percent_of_cpus("50%", 3, &n), 0);
	assert_int_equal(n, 1);                 /* 1.5 rounds down */
	assert_int_equal(job_percent_of_cpus("1%", 8, &n), 0);
	assert_int_equal(n, 0);                 /* lkp's to_i truncates */
	assert_int_equal(job_percent_of_cpus("12.5%", 16, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(job_percent_of_cpus("1.%", 16, &n), -1);
	assert_int_equal(job_percent_of_cpus("2c", 16, &n), -1);
	assert_int_equal(job_percent_of_cpus("200%", 4, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(job_percent_of_cpus("16", 4, &n), 0);
	assert_int_equal(n, 16);
	assert_int_equal(job_percent_of_cpus("x%", 4, &n), -1);
	assert_int_equal(job_percent_of_cpus("5%%", 4, &n), -1);
	assert_int_equal(job_percent_of_cpus("-5%", 4, &n), -1);
	/* more than a long long: refused (an undefined conversion, found by fuzzing) */
	assert_int_equal(job_percent_of_cpus("80177800000000000000000000000000000000000000000000000%",
					     8, &n), -1);
	assert_int_equal(job_percent_of_cpus("1000000000000000000000%", 8, &n), -1);

	j = load_str("suite: x\nnr_threads: 25%\nruntime: 50%\n"
		     "hackbench:\n  nr_threads: [50%, 100%]\n");
	assert_int_equal(job_expand_percentages(j, 8), 0);
	assert_string_equal(job_get(j, "nr_threads"), "2");
	assert_string_equal(job_get(j, "runtime"), "50%");     /* not a CPU count */
	assert_string_equal(job_value_text(job_map_get(job_lookup(j, "hackbench"), "nr_threads")->item[1]), "8");
	job_free(j);

	j = load_str("suite: x\nnr_threads: ab%\n");
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(job_expand_percentages(j, 8), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "t.yaml:2:13: 'nr_threads' expected N or N% (a share of the CPUs), got 'ab%'"));
	free(msg);
	job_free(j);

	/* nr_cpu <= 0 asks the system */
	j = load_str("suite: x\nnr_task: 100%\n");
	assert_int_equal(job_expand_percentages(j, 0), 0);
	assert_int_equal(atol(job_get(j, "nr_task")), sysconf(_SC_NPROCESSORS_ONLN));
	job_free(j);
}

/* ---- path_params, tbox_group, result root --------------------------- */

static void pp(const char *text, const char *const *dirs, const char *want)
{
	struct job *j;
	struct job_load_opts o = { .include_dirs = dirs, .no_check = true };
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(job_load_string(text, strlen(text), "pp.yaml", &o, &j), 0);
	job_path_params(j, dirs, &sb);
	if (strcmp(sb.buf, want))
		fail_msg("path_params of:\n%s\ngot '%s', want '%s'", text, sb.buf, want);
	strbuf_release(&sb);
	job_free(j);
}

static void test_path_params(void **state)
{
	char *d;
	const char *dirs[2];

	(void)state;
	pp("suite: x\n", NULL, "defaults");
	pp("suite: x\nvmstat:\n  interval: 5\n", NULL, "defaults");
	pp("suite: x\nvm-scalability:\n  test: lru-file-readtwice\n  size: 1G\n", NULL, "1G-lru-file-readtwice");
	/* sorted by key; top-level options and setup programs count */
	pp("suite: x\ncpufreq_governor: performance\nnr_threads: 100%\nruntime: 300s\n"
	   "will-it-scale:\n  test: mmap1\n  mode: thread\n", NULL,
	   "performance-thread-100%-300s-mmap1");
	/* without a catalog, lkp's programs name atoms by the options they
	 * declare (apachebench's concurrency at the top), setups too
	 * (fio-setup-basic); an option no program of the job has does not */
	pp("suite: x\nconcurrency: 1000\nsize: 1G\napachebench:\n", NULL, "1000");
	pp("suite: x\nfio-setup-basic:\n  rw: read\n  bs: 4k\n", NULL, "4k-read");
	/* values cut to 31 characters */
	pp("suite: x\nhackbench:\n  mode: abcdefghijklmnopqrstuvwxyz0123456789\n", NULL,
	   "abcdefghijklmnopqrstuvwxyz01234");
	/* characters outside [-a-zA-Z0-9+=:.%] become '_' */
	pp("suite: x\nhackbench:\n  mode: a/b c*d=e:f.g%h+i\n", NULL, "a_b_c_d=e:f.g%h+i");
	/* null and false values are skipped, true and numbers printed */
	pp("suite: x\nhackbench:\n  a: \n  b: false\n  c: true\n  d: 0x10\n", NULL, "true-16");
	/* a monitor's options are not parameters even when named like one */
	pp("suite: x\nperf-profile:\n  runtime: 5\n", NULL, "defaults");

	/* a share of the CPUs runs as a number but names the result as written */
	{
		struct job *j;
		struct job_load_opts o = { .no_check = true };
		struct strbuf sb = STRBUF_INIT;
		const char *t = "suite: x\nnr_threads: 100%\nhackbench:\n  mode: process\n";
		assert_int_equal(job_load_string(t, strlen(t), "pp.yaml", &o, &j), 0);
		assert_int_equal(job_expand_percentages(j, 8), 0);
		assert_string_equal(job_get(j, "nr_threads"), "8");
		struct job *k = job_dup(j);
		job_path_params(k, NULL, &sb);
		assert_string_equal(sb.buf, "process-100%");
		job_free(k);
		job_free(j);
		strbuf_release(&sb);
	}

	/* options declared "# = name" print as k=v, or k alone when empty */
	put("lkp/programs/mybench/run", "#!/bin/sh\n# - test\n# = size\n# = flag\n\necho\n");
	d = path_of("lkp");
	dirs[0] = d;
	dirs[1] = NULL;
	/* with a catalog, a program is an executable run/setup/daemon, as lkp's */
	pp("suite: x\nmybench:\n  test: t1\n  size: 1G\n  flag:\n", dirs, "defaults");
	{
		char *run = path_of("lkp/programs/mybench/run");
		assert_int_equal(chmod(run, 0755), 0);
		free(run);
	}
	pp("suite: x\nmybench:\n  test: t1\n  size: 1G\n  flag:\n", dirs, "flag-size=1G-t1");
	/* the header ends at the first empty line; '.' is a name character */
	put("lkp/programs/hdr/setup", "#!/bin/sh\n# - a.b\nx=1\n# - c\n\n# - d\n");
	{
		char *f = path_of("lkp/programs/hdr/setup");
		assert_int_equal(chmod(f, 0755), 0);
		free(f);
	}
	pp("suite: x\nhdr:\n  a.b: 1\n  c: 2\n  d: 3\n", dirs, "1-2");
	/* with a catalog, nr_threads is an option only where a program says so */
	pp("suite: x\nnr_threads: 100%\nmybench:\n  test: t1\n", dirs, "t1");
	pp("suite: x\nnr_threads: 100%\nhackbench:\n  mode: t1\n", NULL, "t1-100%");
	/* the wrappers' options (bin/run-test) are, and a monitor's are not */
	pp("suite: x\nnr_instances: 2\nmybench:\n  test: t1\n", dirs, "2-t1");
	pp("suite: x\nmybench:\n  size: abcdefghijklmnopqrstuvwxyz0123456789\n", dirs,
	   "size=abcdefghijklmnopqrstuvwxyz01234");
	/* a program given as a scalar is its own parameter */
	pp("suite: x\nmybench: quick\n", dirs, "quick");
	free(d);
}

static void test_tbox_group(void **state)
{
	static const char *const cases[][2] = {
		{ "lkp-skl-d01-3", "lkp-skl-d01" },
		{ "lkp-skl-d01", "lkp-skl-d01" },
		{ "vm-snb-1-4G-2", "vm-snb-4G" },
		{ "lkp-tbox", "lkp-tbox" },
		{ "host-12", "host" },
		{ "12", "12" },
		{ "a-1-2-3", "a-2" },
		{ "", "" },
		/* /-\\d+-/ wants a digit between the dashes: "--" stays */
		{ "a--b-1", "a--b" },
		{ "lkp--2-x-3", "lkp--x" },
		/* /.+-\\d+$/: something before the -N */
		{ "-1", "-1" },
		{ "a-1", "a" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		job_tbox_group(cases[i][0], &sb);
		if (strcmp(sb.buf, cases[i][1]))
			fail_msg("tbox_group(%s) = '%s', want '%s'", cases[i][0], sb.buf, cases[i][1]);
		strbuf_release(&sb);
	}
}

/* The result root of job text, below "/r", commit c1. */
static void check_root(const char *text, const char *want)
{
	struct job *j = load_str(text);
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(job_result_root(j, "/r", "c1", &sb), 0);
	/* testcase/params: what the command must not leak into */
	char *third = strchr(strchr(sb.buf + 3, '/') + 1, '/');
	*third = 0;
	if (strcmp(sb.buf, want))
		fail_msg("result root of\n%s\nis %s, want %s", text, sb.buf, want);
	strbuf_release(&sb);
	job_free(j);
}

/*
 * A benchmark given as a command names the same result path whichever way
 * it was given (mytest: section, the testcase's own section, or after
 * `run --` with none): the testcase and its parameters, never the command.
 */
static void test_result_root_command(void **state)
{
	struct job *j;
	const char *section;

	(void)state;
	check_root("testcase: spin\nruntime: 3s\nmytest:\n  command: $PERFBOT_BUILD_DIR/prog 3\n",
		   "/r/spin/3s");
	check_root("testcase: spin\nruntime: 3s\nspin:\n  command: $PERFBOT_BUILD_DIR/prog 3\n",
		   "/r/spin/3s");
	check_root("testcase: spin\nruntime: 3s\n", "/r/spin/3s");
	/* no testcase: the section that holds the command names it */
	check_root("runtime: 3s\nspin:\n  command: ./prog 3\n", "/r/spin/3s");
	/* the section's other options are parameters still */
	check_root("testcase: spin\nruntime: 3s\nspin:\n  command: ./prog\n  threads: 4\n",
		   "/r/spin/3s-4");
	/* a monitor's command is no benchmark's */
	j = load_str("testcase: spin\nperf-stat:\n  command: ./x\n");
	assert_null(job_command(j, &section));
	job_free(j);
	j = load_str("testcase: spin\nmytest:\n  command: ./a\nspin:\n  command: ./b\n");
	assert_string_equal(job_command(j, &section), "./a");
	assert_string_equal(section, "mytest");
	job_free(j);
	j = load_str("testcase: spin\nspin:\n  command: ./b\n");
	assert_string_equal(job_command(j, &section), "./b");
	assert_string_equal(section, "spin");
	job_free(j);
	/* lkp's own `mytest: NAME` is a parameter, as lkp's path has it */
	check_root("testcase: spin\nruntime: 3s\nmytest: t1\n", "/r/spin/t1-3s");
	/* and an lkp job's paths are lkp's */
	check_root("testcase: hackbench\nhackbench:\n  mode: process\n  ipc: pipe\n",
		   "/r/hackbench/pipe-process");
}

/* lkp's compiler level: the one that built the kernel, "gcc-12". */
static void test_kernel_compiler(void **state)
{
	static const char *const cases[][2] = {
		{ "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian "
		  "12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP", "gcc-12" },
		{ "Linux version 6.18.44 (builder@x) (gcc (GCC) 15.3.0, GNU ld (GNU Binutils) "
		  "2.46) #1 SMP", "gcc-15" },
		{ "Linux version 4.19.0 (u@h) (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP", "gcc-8" },
		{ "Linux version 6.8.0 (u@h) (Debian clang version 16.0.6 (15), Debian LLD "
		  "16.0.6) #1 SMP", "clang-16" },
		{ "Linux version 6.8.0 (u@h) #1 SMP", "" },
	};
	struct job *j;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		assert_int_equal(job_kernel_compiler(cases[i][0], &sb), *cases[i][1] != 0);
		assert_string_equal(sb.buf, cases[i][1]);
	}
	/* a local run's default: the running kernel's, from $PERFBOT_PROC_DIR */
	char *proc = path_of("proc");
	put("proc/version", cases[0][0]);
	setenv("PERFBOT_PROC_DIR", proc, 1);
	free(proc);
	j = load_str("testcase: x\ntbox_group: t\nrootfs: r\nkconfig: k\n");
	strbuf_reset(&sb);
	assert_int_equal(job_result_root(j, "/r", "c1", &sb), 0);
	assert_string_equal(sb.buf, "/r/x/defaults/t/r/k/gcc-12/c1");
	job_free(j);
	/* the job's own compiler wins */
	j = load_str("testcase: x\ntbox_group: t\nrootfs: r\nkconfig: k\ncompiler: clang-17\n");
	strbuf_reset(&sb);
	assert_int_equal(job_result_root(j, "/r", "c1", &sb), 0);
	assert_string_equal(sb.buf, "/r/x/defaults/t/r/k/clang-17/c1");
	job_free(j);
	unsetenv("PERFBOT_PROC_DIR");
	strbuf_release(&sb);
}

static void test_result_root(void **state)
{
	struct job *j = load_str("testcase: hackbench\ntbox_group: lkp-tbox\n"
				 "rootfs: /osimage/debian/debian-12-x86_64.cgz\n"
				 "kconfig: x86_64-rhel\ncompiler: gcc-12\ncommit: abc123\n"
				 "hackbench:\n  mode: process\n  ipc: pipe\n");
	struct strbuf sb = STRBUF_INIT;
	char *msg;

	(void)state;
	assert_int_equal(job_result_root(j, "/result", NULL, &sb), 0);
	assert_string_equal(sb.buf, "/result/hackbench/pipe-process/lkp-tbox/"
				    "debian-12-x86_64.cgz/x86_64-rhel/gcc-12/abc123");
	strbuf_reset(&sb);
	assert_int_equal(job_result_root(j, "r/", "def456", &sb), 0);
	assert_string_equal(sb.buf, "r/hackbench/pipe-process/lkp-tbox/"
				    "debian-12-x86_64.cgz/x86_64-rhel/gcc-12/def456");
	job_free(j);

	/* local defaults: testbox -> tbox_group, arch-local kconfig, gcc
	 * when no /proc/version names a compiler */
	j = load_str("suite: hackbench\ntestbox: box-3\narch: aarch64\nhackbench:\n");
	strbuf_reset(&sb);
	setenv("PERFBOT_PROC_DIR", "/nonexistent-perfbot-proc", 1);
	assert_int_equal(job_result_root(j, "/r", "c1", &sb), 0);
	unsetenv("PERFBOT_PROC_DIR");
	assert_non_null(strstr(sb.buf, "/r/hackbench/defaults/box/"));
	assert_non_null(strstr(sb.buf, "/aarch64-local/gcc/c1"));
	job_free(j);

	j = load_str("runtime: 1\n");
	strbuf_reset(&sb);
	struct stderr_capture cap;
	capture_start(&cap);
	assert_int_equal(job_result_root(j, "/r", NULL, &sb), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "t.yaml: expected a 'testcase'"));
	free(msg);
	strbuf_release(&sb);
	job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_and_get),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_include_not_job_yaml),
		cmocka_unit_test(test_no_includes),
		cmocka_unit_test(test_include_not_named_yaml),
		cmocka_unit_test(test_quote_runs),
		cmocka_unit_test(test_get_int_error),
		cmocka_unit_test(test_scalar_types),
		cmocka_unit_test(test_to_yaml_layout),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_long_plain_wraps),
		cmocka_unit_test(test_set_delete_save),
		cmocka_unit_test(test_set_default),
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_multi_doc),
		cmocka_unit_test(test_includes),
		cmocka_unit_test(test_include_errors),
		cmocka_unit_test(test_check_errors),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_fuzz_found),
		cmocka_unit_test(test_known_keys),
		cmocka_unit_test(test_percentages),
		cmocka_unit_test(test_path_params),
		cmocka_unit_test(test_tbox_group),
		cmocka_unit_test(test_result_root),
		cmocka_unit_test(test_result_root_command),
		cmocka_unit_test(test_kernel_compiler),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
