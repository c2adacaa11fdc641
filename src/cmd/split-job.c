/*
 * split-job.c: `perfbot split-job`, lkp's split-job: a job file with lists
 * becomes one atomic job file per point of its parameter matrix, named
 * "<job>-<path_params>.yaml" and printed as "JOB => ./atomic.yaml".
 * The work is in src/job/split.c; this file is the command line.
 */
#include "cmd/cmd.h"
#include "job/job.h"
#include "job/split.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/xalloc.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out_ctx {
	const char *jobfile;
	const char *prefix;
	struct job_catalog *catalog;
};

static int save_atom(struct job *atom, void *data)
{
	struct out_ctx *c = data;
	struct strbuf name = STRBUF_INIT;
	int ret = -1;

	if (job_atom_name(atom, c->prefix, c->catalog, &name) == 0)
		ret = job_save(atom, name.buf);
	if (!ret)
		printf("%s => %s\n", c->jobfile, name.buf);
	strbuf_release(&name);
	job_free(atom);
	return ret;
}

/* Add "KEY: VALUE" (YAML) to the overrides map. */
static int add_override(struct job_value *overrides, const char *kv)
{
	struct job *j;
	struct job_load_opts o = { .no_check = true };

	if (job_load_string(kv, strlen(kv), "<-s>", &o, &j) < 0)
		return -1;
	for (size_t i = 0; i < j->root->nr; i++)
		if (!j->root->ent[i].comment)
			job_map_set(overrides, j->root->ent[i].key,
				    job_value_dup(j->root->ent[i].val));
	job_free(j);
	return 0;
}

/* lkp's shorthand: a KEY=VALUE argument is -s 'KEY: VALUE' (unless it
 * names an existing file: atomic jobs have '=' in their names). */
static bool is_override(const char *arg)
{
	return strchr(arg, '=') && !file_exists(arg);
}

int cmd_split_job(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "test-box", required_argument, NULL, 't' },
		{ "kconfig", required_argument, NULL, 'c' },
		{ "config", required_argument, NULL, 'c' },	/* lkp's name */
		{ "commit", required_argument, NULL, 'k' },
		{ "kernel", required_argument, NULL, 'k' },	/* lkp's name */
		{ "set", required_argument, NULL, 's' },
		{ "lkp-src", required_argument, NULL, 'L' },
		{ "compatible", no_argument, NULL, 'C' },
		{ "no-defaults", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *self = cmd_find("split-job");
	struct split_opts opts;
	struct job_catalog catalog;
	struct job_value *overrides = job_value_new(JOB_MAP);
	const char **dirs = xcalloc((size_t)argc + 1, sizeof(*dirs));
	const char *outdir = ".";
	char *outbuf = NULL;
	bool compatible = false;
	int nr_dirs = 0, c, ret = 0, nr_jobs = 0;

	memset(&opts, 0, sizeof(opts));
	job_catalog_init(&catalog, NULL);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:t:c:k:s:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': outdir = optarg; break;
		case 't': opts.testbox = optarg; break;
		case 'c': opts.kconfig = optarg; break;
		case 'k': opts.commit = optarg; break;
		case 's':
			if (add_override(overrides, optarg) < 0) {
				ret = EXIT_USAGE;
				goto out;
			}
			break;
		case 'L': dirs[nr_dirs++] = optarg; break;
		case 'C': compatible = true; break;
		case 'N': opts.no_defaults = true; break;
		default:
			ret = cmd_usage(self, 0);
			goto out;
		}
	}
	/* -o DIR is created as needed; "out/" prints as "out/x.yaml" */
	outbuf = xstrdup(outdir);
	for (size_t n = strlen(outbuf); n > 1 && outbuf[n - 1] == '/'; n--)
		outbuf[n - 1] = 0;
	outdir = outbuf;
	if (!is_dir(outdir) && mkdir_p(outdir, 0777) < 0) {
		ret = EXIT_ERROR;
		goto out;
	}
	/* both end up as folders of a result path, -k also in file names */
	if ((opts.commit && check_path_component(opts.commit, "--kernel") < 0) ||
	    (opts.kconfig && check_path_component(opts.kconfig, "--config") < 0)) {
		ret = EXIT_USAGE;
		goto out;
	}
	/* a mistyped root would silently drop every include and default */
	for (int i = 0; i < nr_dirs; i++)
		if (!is_dir(dirs[i])) {
			error("--lkp-src: '%s' is not a directory", dirs[i]);
			ret = EXIT_USAGE;
			goto out;
		}
	opts.include_dirs = nr_dirs ? dirs : NULL;
	/* one index of the catalog for every job and every atom's name */
	job_catalog_release(&catalog);
	job_catalog_init(&catalog, opts.include_dirs);
	opts.catalog = &catalog;
	opts.overrides = overrides;
	for (int i = optind; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		if (is_override(argv[i])) {
			struct strbuf kv = STRBUF_INIT;
			strbuf_add(&kv, argv[i], (size_t)(eq - argv[i]));
			strbuf_addf(&kv, ": %s", eq + 1);
			c = add_override(overrides, kv.buf);
			strbuf_release(&kv);
			if (c < 0) {
				ret = EXIT_USAGE;
				goto out;
			}
		} else {
			nr_jobs++;
		}
	}
	if (!nr_jobs) {
		ret = cmd_usage(self, 0);
		goto out;
	}
	for (int i = optind; i < argc && !ret; i++) {
		struct job_load_opts lo = { .include_dirs = opts.include_dirs };
		struct strbuf text = STRBUF_INIT, prefix = STRBUF_INIT;
		const char *base = strrchr(argv[i], '/');
		struct out_ctx oc;
		struct job *job = NULL;
		size_t bl;

		if (is_override(argv[i]))
			continue;
		base = base ? base + 1 : argv[i];
		bl = strlen(base);
		if (bl > 5 && !strcmp(base + bl - 5, ".yaml"))
			bl -= 5;
		strbuf_addf(&prefix, "%s%s%.*s", outdir, strcmp(outdir, "/") ? "/" : "",
			    (int)bl, base);
		if (read_file(&text, argv[i]) < 0) {
			ret = EXIT_ERROR;
		} else {
			struct strbuf raw = STRBUF_INIT;
			if (compatible)
				job_refine_compatible(text.buf, &raw);
			else
				strbuf_add(&raw, text.buf, text.len);
			if (job_load_templates(raw.buf, raw.len, argv[i], &lo, &job) < 0)
				ret = EXIT_ERROR;
			strbuf_release(&raw);
		}
		if (!ret) {
			oc.jobfile = argv[i];
			oc.prefix = prefix.buf;
			oc.catalog = &catalog;
			if (job_split(job, argv[i], &opts, save_atom, &oc) < 0)
				ret = EXIT_ERROR;
		}
		job_free(job);
		strbuf_release(&text);
		strbuf_release(&prefix);
	}
out:
	job_catalog_release(&catalog);
	job_value_free(overrides);
	free(outbuf);
	free(dirs);
	return ret;
}
