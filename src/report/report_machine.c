/*
 * report_machine.c: what the report says about the test machine — its
 * model, CPUs and memory, read from the machine file the run saved
 * (lkp's hosts/<name> format) or from /proc/cpuinfo and /proc/meminfo
 * copies, and the sentence both renderers print.
 */
#include "report/report.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "128G", "512M", "16384 kB", "1.5T" -> kB; -1 when not a size. */
static long double size_kb(const char *s)
{
	char *end;
	long double v;

	errno = 0;
	v = strtold(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	while (*end == ' ')
		end++;
	switch (toupper((unsigned char)*end)) {
	case 'T': v *= 1024; /* fall through */
	case 'G': v *= 1024; /* fall through */
	case 'M': v *= 1024; /* fall through */
	case 'K': end++; break;
	case '\0': return v;    /* a bare number is in kB, as /proc says */
	default: return -1;
	}
	if (toupper((unsigned char)*end) == 'B')
		end++;
	return *end ? -1 : v;
}

int report_machine_parse(struct report_machine *m, const char *text, const char *name)
{
	int lineno = 0, ret = 0;

	for (const char *p = text; *p && !ret; ) {
		const char *eol = strchrnul(p, '\n');
		char *line = xstrndup(p, (size_t)(eol - p)), *key, *val, *colon;

		lineno++;
		p = *eol ? eol + 1 : eol;
		key = trim(line);
		if (!*key || *key == '#') {
			free(line);
			continue;
		}
		colon = strchr(key, ':');
		if (!colon) {
			ret = error("%s:%d: expected 'key: value', got '%s'", name, lineno, key);
			free(line);
			break;
		}
		*colon = '\0';
		key = trim(key);
		val = trim(colon + 1);
		if (!strcmp(key, "qemu_accel")) {
			/* written by perfbot run --kernel (kernel/vm.h) */
			free(m->accel);
			m->accel = xstrdup(val);
		} else if (!strcmp(key, "model") || !strcmp(key, "model name")) {
			free(m->model);
			m->model = xstrdup(val);
		} else if (!strcmp(key, "nr_cpu")) {
			char *end;
			long n = strtol(val, &end, 10);
			if (end == val || *end || n <= 0)
				ret = error("%s:%d: 'nr_cpu' expected a positive integer, got '%s'",
					    name, lineno, val);
			else
				m->nr_cpu = n;
		} else if (!strcmp(key, "memory")) {
			long double kb = size_kb(val);
			if (kb <= 0)
				ret = error("%s:%d: 'memory' expected a size like 16G, got '%s'",
					    name, lineno, val);
			else
				m->memory_kb = (unsigned long long)kb;
		}
		free(line);
	}
	return ret;
}

void report_machine_cpuinfo(struct report_machine *m, const char *text)
{
	const char *p = text;
	long n = 0;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t)(eol - p);
		const char *colon = memchr(p, ':', len);
		if (colon) {
			size_t klen = (size_t)(colon - p);
			while (klen && isspace((unsigned char)p[klen - 1]))
				klen--;
			if (klen == 9 && !strncmp(p, "processor", 9))
				n++;
			else if (klen == 10 && !strncmp(p, "model name", 10) && !m->model) {
				char *v = xstrndup(colon + 1, (size_t)(eol - colon - 1));
				m->model = xstrdup(trim(v));
				free(v);
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	if (n)
		m->nr_cpu = n;
}

void report_machine_meminfo(struct report_machine *m, const char *text)
{
	const char *p = strstr(text, "MemTotal:");
	unsigned long long kb;

	if ((p == text || (p && p[-1] == '\n')) &&
	    sscanf(p, "MemTotal: %llu", &kb) == 1)
		m->memory_kb = kb;
}

void report_memory_size(unsigned long long kb, struct strbuf *sb)
{
	static const char units[] = "KMGT";
	long double v = (long double)kb;
	int u = 0;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	/* lkp writes whole units ("128G"); keep one decimal otherwise */
	if (fabsl(v - roundl(v)) < 0.05 || v >= 100)
		strbuf_addf(sb, "%.0Lf%c", roundl(v), units[u]);
	else
		strbuf_addf(sb, "%.1Lf%c", v, units[u]);
}

void report_machine_release(struct report_machine *m)
{
	free(m->model);
	free(m->accel);
	free(m->source);
	memset(m, 0, sizeof(*m));
}


bool report_machine_sentence(const struct report *r, struct strbuf *sb)
{
	const struct report_machine *m = &r->machine;

	if (!m->model && !m->nr_cpu && !m->memory_kb)
		return false;
	if (m->accel)
		strbuf_addf(sb, "The test machine is a QEMU guest (%s) that has",
			    !strcmp(m->accel, "tcg") ? "TCG" : !strcmp(m->accel, "kvm") ? "KVM" :
			    !strcmp(m->accel, "icount") ? "TCG with instruction counting" : m->accel);
	else
		strbuf_addstr(sb, "The test machine has");
	if (m->nr_cpu)
		strbuf_addf(sb, " %ld CPU%s", m->nr_cpu, m->nr_cpu == 1 ? "" : "s");
	if (m->model)
		strbuf_addf(sb, "%s%s", m->nr_cpu ? " (" : " a ", m->model);
	if (m->model && m->nr_cpu)
		strbuf_addch(sb, ')');
	if (m->memory_kb) {
		strbuf_addstr(sb, m->nr_cpu || m->model ? " and " : " ");
		report_memory_size(m->memory_kb, sb);
		strbuf_addstr(sb, " memory");
	}
	strbuf_addf(sb, " (from %s).", m->source);
	/* an emulated CPU's times are not a real machine's */
	if (m->accel && !strcmp(m->accel, "tcg"))
		strbuf_addstr(sb, " Its timings are emulated under TCG: compare them with each other, "
			      "not with a real machine.");
	else if (m->accel && !strcmp(m->accel, "icount"))
		strbuf_addstr(sb, " Its timings are emulated under TCG on a clock that counts "
			      "instructions: they measure how many each operation takes, not what "
			      "they cost on real hardware.");
	return true;
}