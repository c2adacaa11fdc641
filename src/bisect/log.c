/*
 * log.c: the bisect log (see driver.h): the shell-quoted "start" line
 * that holds every option, read back by --resume, and appending a line
 * durably.  Apart from state.c so that the format is in one place.
 */
#include "bisect/driver.h"
#include "bisect/log.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/quote.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Split a shell-quoted line (single quotes, \' outside them) into words. */
int bisect_split_words(const char *line, char ***words, int *nr)
{
	struct strbuf w = STRBUF_INIT;
	size_t alloc = 0;
	const char *p = line;

	*words = NULL;
	*nr = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		strbuf_reset(&w);
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '\'') {
				const char *end = strchr(p + 1, '\'');
				if (!end) {
					strbuf_release(&w);
					return -1;
				}
				strbuf_add(&w, p + 1, (size_t)(end - p - 1));
				p = end + 1;
			} else if (*p == '\\' && p[1]) {
				strbuf_addch(&w, p[1]);
				p += 2;
			} else {
				strbuf_addch(&w, *p++);
			}
		}
		ALLOC_GROW(*words, (size_t)*nr + 2, alloc);
		(*words)[(*nr)++] = xstrdup(w.buf);
		(*words)[*nr] = NULL;
	}
	strbuf_release(&w);
	return 0;
}

void bisect_free_words(char **words, int nr)
{
	for (int i = 0; i < nr; i++)
		free(words[i]);
	free(words);
}

void bisect_start_line(const struct bisect_opts *o, struct strbuf *sb)
{
	strbuf_addstr(sb, "start --repo ");
	shell_quote(sb, o->repo);
	strbuf_addf(sb, " --good %s --bad %s", o->good, o->bad);
	/* the names the user gave, for the report (older logs have none) */
	if (o->good_name) {
		strbuf_addstr(sb, " --good-name ");
		shell_quote(sb, o->good_name);
	}
	if (o->bad_name) {
		strbuf_addstr(sb, " --bad-name ");
		shell_quote(sb, o->bad_name);
	}
	strbuf_addstr(sb, " --job ");
	shell_quote(sb, o->job_path);
	strbuf_addstr(sb, " --metric ");
	shell_quote(sb, o->metric);
	if (o->m.build) {
		strbuf_addstr(sb, " --build ");
		shell_quote(sb, o->m.build);
	}
	if (o->m.kernel_tree) {
		strbuf_addstr(sb, " --kernel-tree ");
		shell_quote(sb, o->m.kernel_tree);
		strbuf_addstr(sb, " --config ");
		shell_quote(sb, o->m.kconfig ? o->m.kconfig : "tiny");
		/* the VM: --resume boots the same one (plain words, no quoting) */
		kernel_vm_opts_args(&o->m.vm, sb);
	}
	strbuf_addf(sb, " --runs %d --max-runs %d", o->runs, o->max_runs);
	if (o->max_total_runs > 0)
		strbuf_addf(sb, " --max-total-runs %d", o->max_total_runs);
	if (o->alpha > 0)
		strbuf_addf(sb, " --alpha %.17g", o->alpha);
	strbuf_addstr(sb, " --result-root ");
	shell_quote(sb, o->result_base);
	if (o->db) {
		strbuf_addstr(sb, " --db ");
		shell_quote(sb, o->db);
	}
	if (o->no_index)
		strbuf_addstr(sb, " --no-index");
	if (o->verbose)
		strbuf_addf(sb, " --verbose %d", o->verbose);
	if (o->m.nr_command) {
		strbuf_addstr(sb, " -- ");
		shell_quote_argv(sb, o->m.command, o->m.nr_command);
	}
	strbuf_addch(sb, '\n');
}

int bisect_parse_start(const char *line, const char *state_path, int lineno,
		       struct bisect_opts *o)
{
	char **w;
	int n, i, ret = 0;

	if (bisect_split_words(line, &w, &n) < 0 || n < 1 || strcmp(w[0], "start"))
		return error("%s:%d: expected a 'start' line", state_path, lineno);
	for (i = 1; i < n; i++) {
		const char *k = w[i], *v = i + 1 < n ? w[i + 1] : NULL;
		if (!strcmp(k, "--")) {
			i++;
			break;
		}
		if (!strcmp(k, "--no-index")) {
			o->no_index = true;
			continue;
		}
		if (!v) {
			ret = error("%s:%d: option '%s' lacks its value", state_path, lineno, k);
			break;
		}
		i++;
		if (!strcmp(k, "--repo")) o->repo = xstrdup(v);
		else if (!strcmp(k, "--good")) o->good = xstrdup(v);
		else if (!strcmp(k, "--bad")) o->bad = xstrdup(v);
		else if (!strcmp(k, "--good-name")) o->good_name = xstrdup(v);
		else if (!strcmp(k, "--bad-name")) o->bad_name = xstrdup(v);
		else if (!strcmp(k, "--job")) o->job_path = xstrdup(v);
		else if (!strcmp(k, "--metric")) o->metric = xstrdup(v);
		else if (!strcmp(k, "--build")) o->m.build = xstrdup(v);
		else if (!strcmp(k, "--kernel-tree")) o->m.kernel_tree = xstrdup(v);
		else if (!strcmp(k, "--config")) o->m.kconfig = xstrdup(v);
		else if (!strcmp(k, "--runs")) o->runs = atoi(v);
		else if (!strcmp(k, "--max-runs")) o->max_runs = atoi(v);
		else if (!strcmp(k, "--max-total-runs")) o->max_total_runs = atoi(v);
		else if (!strcmp(k, "--alpha")) o->alpha = atof(v);
		else if (!strcmp(k, "--result-root")) o->result_base = xstrdup(v);
		else if (!strcmp(k, "--db")) o->db = xstrdup(v);
		else if (!strcmp(k, "--verbose")) o->verbose = atoi(v);
		else if (!strcmp(k, "--accel") || !strcmp(k, "--boot-timeout") || !strcmp(k, "--cpus") ||
			 !strcmp(k, "--mem") || !strcmp(k, "--numa")) {
			/* the parser of the command line: the same values, checked */
			if (kernel_vm_opt(&o->m.vm, k + 2, v) < 0) {
				ret = error("%s:%d: the VM option '%s %s' is not valid", state_path, lineno, k, v);
				break;
			}
		} else {
			ret = error("%s:%d: unknown option '%s'", state_path, lineno, k);
			break;
		}
	}
	if (!ret && i < n) {
		o->m.nr_command = n - i;
		o->m.command = xcalloc((size_t)o->m.nr_command + 1, sizeof(char *));
		for (int j = 0; j < o->m.nr_command; j++)
			o->m.command[j] = xstrdup(w[i + j]);
	}
	if (!ret && (!o->repo || !o->good || !o->bad || !o->job_path || !o->metric || !o->result_base))
		ret = error("%s:%d: the start line lacks --repo, --good, --bad, --job, --metric or --result-root",
			    state_path, lineno);
	bisect_free_words(w, n);
	return ret;
}

/* Append one line to the log and make it durable before going on. */
int bisect_log_append(const char *path, const char *line)
{
	/* kept and appended to: a link planted at its name is refused */
	int fd = open_nofollow(path, O_WRONLY | O_APPEND | O_CREAT, "write");
	size_t len = strlen(line);

	if (fd < 0)
		return -1;
	if (write(fd, line, len) != (ssize_t)len || fsync(fd) < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

