/*
 * params.c: lkp's params/ map rules (split.h, job_params_map).
 *
 * A rule file holds lines "/REGEX/  EXPRESSION": for a job value the
 * rules apply in turn, each to what the previous ones left (a match is
 * cut out), and their results make the value's new reading:
 * params/disk turns "1HDD" into {nr_hdd: 1}, which picks
 * include/disk/nr_hdd.  The expressions use a little Ruby: {k: e, ...},
 * $1..$9, "..#{e}..", integers and floats with + - * / and ( ),
 * .to_i .to_f .downcase .upcase, to_byte(), to_seconds(), and the job's
 * keys by name.  A name the job lacks stops all mapping, as lkp's
 * KeyError does; anything else unknown leaves the value alone.
 */
#include "job/split.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fileio.h"
#include "util/rx.h"
#include "util/xalloc.h"

enum pv_kind { PV_BAD, PV_INT, PV_FLOAT, PV_STR, PV_MAP };

struct pv {
	enum pv_kind kind;
	long long i;
	double f;
	struct strbuf s;
	struct job_value *map;          /* PV_MAP: owned */
};

struct peval {
	const char *p;
	const char *subject;
	const struct rx_sub *m;
	size_t nm;
	const struct job_value *job;
	bool key_error;                 /* a name the job lacks */
};

static void pv_init(struct pv *v)
{
	memset(v, 0, sizeof(*v));
	strbuf_init(&v->s, 0);
}

static void pv_release(struct pv *v)
{
	strbuf_release(&v->s);
	job_value_free(v->map);
	v->map = NULL;
}

static void skip(struct peval *e)
{
	while (*e->p == ' ' || *e->p == '\t' || *e->p == '\n')
		e->p++;
}

static void parse_sum(struct peval *e, struct pv *out);

static void to_s(const struct pv *v, struct strbuf *sb)
{
	if (v->kind == PV_INT)
		strbuf_addf(sb, "%lld", v->i);
	else if (v->kind == PV_FLOAT)
		strbuf_addf(sb, "%.17g", v->f);
	else if (v->kind == PV_STR)
		strbuf_addstr(sb, v->s.buf);
}

static long long str_to_i(const char *s)
{
	return strtoll(s, NULL, 10);
}

/* lib/unit.rb's to_byte: "32G" -> 32 << 30; other text unchanged. */
static void to_byte(struct pv *v)
{
	static const struct { char u; int shift; } units[] = {
		{ 'P', 50 }, { 'T', 40 }, { 'G', 30 }, { 'M', 20 }, { 'K', 10 }, { 0, 0 }
	};
	const char *s = v->s.buf, *u = s;
	char unit[8];
	size_t n = 0;

	if (v->kind != PV_STR)
		return;
	while (isdigit((unsigned char)*u))
		u++;
	for (; *u && n < sizeof(unit) - 1; u++)
		unit[n++] = (char)toupper((unsigned char)*u);
	if (n && unit[n - 1] == 'B')
		n--;
	unit[n] = 0;
	for (size_t i = 0; units[i].u; i++)
		if (n == 1 && unit[0] == units[i].u) {
			v->i = str_to_i(s) << units[i].shift;
			v->kind = PV_INT;
			return;
		}
}

/* lib/unit.rb's to_seconds */
static void to_seconds(struct pv *v)
{
	long long n;
	size_t len;

	if (v->kind != PV_STR)
		return;
	n = str_to_i(v->s.buf);
	len = v->s.len;
	switch (len ? v->s.buf[len - 1] : 0) {
	case 'y': n *= 3600LL * 24 * 365; break;
	case 'w': n *= 3600LL * 24 * 7; break;
	case 'd': n *= 3600LL * 24; break;
	case 'h': n *= 3600; break;
	case 'm': n *= 60; break;
	default: break;
	}
	v->kind = PV_INT;
	v->i = n;
}

static void from_job(struct peval *e, const char *name, struct pv *out)
{
	const struct job_value *v = job_map_get(e->job, name);

	if (!v) {
		e->key_error = true;
		return;
	}
	if (v->kind != JOB_SCALAR)
		return;
	if (v->type == JOB_INT) {
		out->kind = PV_INT;
		out->i = strtoll(v->text, NULL, 0);
	} else if (v->type == JOB_FLOAT) {
		out->kind = PV_FLOAT;
		out->f = strtod(v->text, NULL);
	} else {
		out->kind = PV_STR;
		strbuf_addstr(&out->s, v->text);
	}
}

static void parse_primary(struct peval *e, struct pv *out)
{
	skip(e);
	if (*e->p == '(') {
		e->p++;
		parse_sum(e, out);
		skip(e);
		if (*e->p == ')')
			e->p++;
		else
			out->kind = PV_BAD;
	} else if (*e->p == '$' && isdigit((unsigned char)e->p[1])) {
		size_t g = (size_t)(e->p[1] - '0');
		e->p += 2;
		out->kind = PV_STR;
		if (g < e->nm && e->m[g].so >= 0)
			strbuf_add(&out->s, e->subject + e->m[g].so,
				   (size_t)(e->m[g].eo - e->m[g].so));
	} else if (*e->p == '"') {
		out->kind = PV_STR;
		for (e->p++; *e->p && *e->p != '"';) {
			if (e->p[0] == '#' && e->p[1] == '{') {
				struct pv in;
				pv_init(&in);
				e->p += 2;
				parse_sum(e, &in);
				skip(e);
				if (*e->p == '}')
					e->p++;
				if (in.kind == PV_BAD || in.kind == PV_MAP)
					out->kind = PV_BAD;
				to_s(&in, &out->s);
				pv_release(&in);
			} else {
				strbuf_addch(&out->s, *e->p++);
			}
		}
		if (*e->p == '"')
			e->p++;
	} else if (isdigit((unsigned char)*e->p)) {
		char *end;
		out->i = strtoll(e->p, &end, 10);
		out->kind = PV_INT;
		if (*end == '.' && isdigit((unsigned char)end[1])) {
			out->f = strtod(e->p, &end);
			out->kind = PV_FLOAT;
		}
		e->p = end;
	} else if (*e->p == '{') {
		/* { key: expr, ... } */
		out->kind = PV_MAP;
		out->map = job_value_new(JOB_MAP);
		e->p++;
		for (;;) {
			char key[128];
			size_t n = 0;
			struct pv v;

			skip(e);
			if (*e->p == '}') {
				e->p++;
				break;
			}
			while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n < sizeof(key) - 1)
				key[n++] = *e->p++;
			key[n] = 0;
			if (!n || *e->p != ':') {
				out->kind = PV_BAD;
				return;
			}
			e->p++;
			pv_init(&v);
			parse_sum(e, &v);
			if (v.kind == PV_BAD || v.kind == PV_MAP) {
				out->kind = PV_BAD;
				pv_release(&v);
				return;
			}
			{
				struct strbuf t = STRBUF_INIT;
				to_s(&v, &t);
				job_map_set(out->map, key, v.kind == PV_STR ?
					    job_string_new(t.buf) : job_scalar_new(t.buf));
				strbuf_release(&t);
			}
			pv_release(&v);
			skip(e);
			if (*e->p == ',')
				e->p++;
		}
	} else if (isalpha((unsigned char)*e->p) || *e->p == '_') {
		char name[128];
		size_t n = 0;
		while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n < sizeof(name) - 1)
			name[n++] = *e->p++;
		name[n] = 0;
		skip(e);
		if ((!strcmp(name, "to_byte") || !strcmp(name, "to_seconds")) && *e->p == '(') {
			e->p++;
			parse_sum(e, out);
			skip(e);
			if (*e->p == ')')
				e->p++;
			if (name[3] == 'b')
				to_byte(out);
			else
				to_seconds(out);
		} else {
			from_job(e, name, out);
			if (out->kind == PV_BAD && !e->key_error)
				out->kind = PV_BAD;
		}
	} else {
		out->kind = PV_BAD;
	}
	/* method calls */
	for (;;) {
		skip(e);
		if (*e->p != '.' || !isalpha((unsigned char)e->p[1]))
			break;
		e->p++;
		if (!strncmp(e->p, "to_i", 4)) {
			e->p += 4;
			if (out->kind == PV_STR)
				out->i = str_to_i(out->s.buf);
			else if (out->kind == PV_FLOAT)
				out->i = (long long)out->f;
			if (out->kind != PV_BAD && out->kind != PV_MAP)
				out->kind = PV_INT;
		} else if (!strncmp(e->p, "to_f", 4)) {
			e->p += 4;
			if (out->kind == PV_STR)
				out->f = strtod(out->s.buf, NULL);
			else if (out->kind == PV_INT)
				out->f = (double)out->i;
			if (out->kind != PV_BAD && out->kind != PV_MAP)
				out->kind = PV_FLOAT;
		} else if (!strncmp(e->p, "downcase", 8) || !strncmp(e->p, "upcase", 6)) {
			bool up = *e->p == 'u';
			e->p += up ? 6 : 8;
			for (size_t i = 0; out->kind == PV_STR && i < out->s.len; i++)
				out->s.buf[i] = (char)(up ? toupper((unsigned char)out->s.buf[i]) :
						       tolower((unsigned char)out->s.buf[i]));
		} else {
			out->kind = PV_BAD;
			return;
		}
	}
}

static void arith(struct pv *a, const struct pv *b, char op)
{
	if ((a->kind != PV_INT && a->kind != PV_FLOAT) ||
	    (b->kind != PV_INT && b->kind != PV_FLOAT)) {
		a->kind = PV_BAD;
		return;
	}
	if (a->kind == PV_INT && b->kind == PV_INT) {
		if (op == '/' && !b->i) {
			a->kind = PV_BAD;
			return;
		}
		a->i = op == '+' ? a->i + b->i : op == '-' ? a->i - b->i :
		       op == '*' ? a->i * b->i : a->i / b->i;
		return;
	}
	{
		double x = a->kind == PV_INT ? (double)a->i : a->f;
		double y = b->kind == PV_INT ? (double)b->i : b->f;
		a->f = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
		a->kind = PV_FLOAT;
	}
}

static void parse_product(struct peval *e, struct pv *out)
{
	parse_primary(e, out);
	for (;;) {
		struct pv b;
		char op;
		skip(e);
		op = *e->p;
		if (op != '*' && op != '/')
			return;
		e->p++;
		pv_init(&b);
		parse_primary(e, &b);
		arith(out, &b, op);
		pv_release(&b);
	}
}

static void parse_sum(struct peval *e, struct pv *out)
{
	parse_product(e, out);
	for (;;) {
		struct pv b;
		char op;
		skip(e);
		op = *e->p;
		if (op != '+' && op != '-')
			return;
		e->p++;
		pv_init(&b);
		parse_product(e, &b);
		arith(out, &b, op);
		pv_release(&b);
	}
}

struct rule {
	struct rx re;
	char *expr;
};

/* Ruby's \d and (?:) in the POSIX syntax of util/rx.h. */
static void ruby_regex(const char *s, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len && s[i + 1] == 'd') {
			strbuf_addstr(out, "[0-9]");
			i++;
		} else if (s[i] == '(' && i + 2 < len && s[i + 1] == '?' && s[i + 2] == ':') {
			strbuf_addch(out, '(');
			i += 2;
		} else {
			strbuf_addch(out, s[i]);
			if (s[i] == '\\' && i + 1 < len)
				strbuf_addch(out, s[++i]);
		}
	}
}

/* Read "/re/  expr" rules; the expression runs to the next rule. */
static size_t read_rules(const char *text, struct rule **rules)
{
	size_t nr = 0, alloc = 0;
	const char *p = text;

	*rules = NULL;
	while (*p) {
		const char *nl = strchrnul(p, '\n'), *end = NULL;
		if (*p == '/') {
			for (const char *q = p + 2; q < nl; q++)
				if (*q == '/' && q[-1] != '\\' && (q[1] == ' ' || q[1] == '\t')) {
					end = q;
					break;
				}
		}
		if (end) {
			struct strbuf re = STRBUF_INIT;
			const char *why, *x = end + 1;
			ruby_regex(p + 1, (size_t)(end - p - 1), &re);
			ALLOC_GROW(*rules, nr + 1, alloc);
			if (rx_compile(&(*rules)[nr].re, re.buf, &why) == 0) {
				while (*x == ' ' || *x == '\t')
					x++;
				(*rules)[nr].expr = xstrndup(x, (size_t)(nl - x));
				nr++;
			}
			strbuf_release(&re);
		} else if (nr && nl > p) {
			/* a continued expression */
			char *e = (*rules)[nr - 1].expr;
			size_t el = strlen(e);
			e = xrealloc(e, el + (size_t)(nl - p) + 2);
			e[el] = '\n';
			memcpy(e + el + 1, p, (size_t)(nl - p));
			e[el + 1 + (size_t)(nl - p)] = 0;
			(*rules)[nr - 1].expr = e;
		}
		p = *nl ? nl + 1 : nl;
	}
	return nr;
}

/*
 * Map one value by a rule file; returns false on a KeyError (stop all).
 * *out is the new value or NULL when no rule gave one.
 */
static bool map_value(const char *text, const char *rules_text, const struct job_value *job,
		      struct job_value **out)
{
	struct rule *rules;
	size_t nr = read_rules(rules_text, &rules);
	struct strbuf val = STRBUF_INIT;
	struct pv res;
	bool ok = true;

	*out = NULL;
	pv_init(&res);
	strbuf_addstr(&val, text);
	for (size_t i = 0; i < nr && ok; i++) {
		struct rx_sub m[10];
		struct peval e;
		struct pv o;

		if (!rx_exec(&rules[i].re, val.buf, m, 10))
			continue;
		memset(&e, 0, sizeof(e));
		e.p = rules[i].expr;
		e.subject = val.buf;
		e.m = m;
		e.nm = 10;
		e.job = job;
		pv_init(&o);
		parse_sum(&e, &o);
		if (e.key_error) {
			ok = false;
		} else if (o.kind == PV_BAD) {
			res.kind = PV_BAD;
		} else if (res.kind == PV_INT || res.kind == PV_FLOAT || res.kind == PV_STR) {
			res.kind = PV_BAD;      /* lkp: "confused while mapping" */
		} else if (res.kind == PV_MAP && o.kind == PV_MAP) {
			for (size_t k = 0; k < o.map->nr; k++)
				job_map_set(res.map, o.map->ent[k].key,
					    job_value_dup(o.map->ent[k].val));
		} else if (res.kind == PV_MAP) {
			res.kind = PV_BAD;
		} else {
			pv_release(&res);
			res = o;
			pv_init(&o);
		}
		pv_release(&o);
		/* sub!: the match is cut out for the next rules */
		{
			struct strbuf rest = STRBUF_INIT;
			strbuf_add(&rest, val.buf, (size_t)m[0].so);
			strbuf_addstr(&rest, val.buf + m[0].eo);
			strbuf_reset(&val);
			strbuf_addstr(&val, rest.buf);
			strbuf_release(&rest);
		}
	}
	if (ok && res.kind != PV_BAD) {
		struct strbuf t = STRBUF_INIT;
		if (res.kind == PV_MAP) {
			*out = res.map;
			res.map = NULL;
		} else {
			to_s(&res, &t);
			*out = res.kind == PV_STR ? job_string_new(t.buf) : job_scalar_new(t.buf);
		}
		strbuf_release(&t);
	}
	pv_release(&res);
	for (size_t i = 0; i < nr; i++) {
		rx_release(&rules[i].re);
		free(rules[i].expr);
	}
	free(rules);
	strbuf_release(&val);
	return ok;
}

/* The rule file of key: params/KEY, not *.rb, not executable. */
static bool rule_file(struct job_catalog *cat, const char *key, struct strbuf *path)
{
	if (!*key || strchr(key, '/') || key[0] == '.')
		return false;
	for (const char *const *d = cat->dirs; d && *d; d++) {
		mode_t m;
		strbuf_reset(path);
		strbuf_addf(path, "%s/params/%s", *d, key);
		m = job_catalog_mode(cat, path->buf);
		if (S_ISREG(m) && !(m & 0111))
			return true;
	}
	return false;
}

static bool map_walk(struct job_value *map, const struct job_value *job,
		     struct job_catalog *cat)
{
	struct strbuf path = STRBUF_INIT;
	bool ok = true;

	for (size_t i = 0; i < map->nr && ok; i++) {
		struct job_entry *e = &map->ent[i];
		struct job_value *nv;
		/* lkp walks into what the value was, not what it maps to */
		bool was_map = e->val->kind == JOB_MAP;

		if (e->comment)
			continue;
		if (e->val->kind == JOB_SCALAR && e->val->type == JOB_STR &&
		    rule_file(cat, e->key, &path)) {
			const char *text;
			size_t len;
			if (job_catalog_read(cat, path.buf, &text, &len) == 0) {
				ok = map_value(e->val->text, text, job, &nv);
				if (nv) {
					job_value_free(e->val);
					e->val = nv;
				}
			}
		}
		if (ok && was_map)
			ok = map_walk(e->val, job, cat);
	}
	strbuf_release(&path);
	return ok;
}

void job_params_map(struct job_value *job, struct job_catalog *cat)
{
	map_walk(job, job, cat);
}
