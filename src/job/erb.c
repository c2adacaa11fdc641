/*
 * erb.c: the part of Ruby's ERB that lkp's include files use (see
 * erb_expand in split.h).  Anything else is reported as an error rather
 * than guessed at.
 */
#include "job/split.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/fileio.h"
#include "util/rx.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ */
/* the ERB subset */

enum rv_kind { RV_NIL, RV_BOOL, RV_INT, RV_STR, RV_MAP, RV_SEQ, RV_REGEX, RV_CLASS };

struct rv {
	enum rv_kind kind;
	long long i;                    /* RV_INT, RV_BOOL */
	char *s;                        /* RV_STR, RV_REGEX: owned */
	const struct job_value *v;      /* RV_MAP, RV_SEQ: borrowed */
};

struct erb {
	const char *file;
	int line;                       /* of the segment being evaluated */
	const struct job_value *job;
	const struct job_value *___;
	struct job_catalog *cat;
	struct job_value **temps;       /* synthetic maps to free at the end */
	size_t nr_temps, alloc_temps;
	int err;                        /* -1 error (said), 1 lkp's KeyError */
};

struct lexer {
	struct erb *e;
	const char *p;
	bool skip;                      /* parse without evaluating */
};

static void rv_free(struct rv *r)
{
	free(r->s);
	r->s = NULL;
	r->kind = RV_NIL;
}

static struct rv rv_str(const char *s)
{
	struct rv r = { RV_STR, 0, xstrdup(s), NULL };
	return r;
}

static struct rv rv_bool(bool b)
{
	struct rv r = { RV_BOOL, b, NULL, NULL };
	return r;
}

static bool truthy(const struct rv *r)
{
	return !(r->kind == RV_NIL || (r->kind == RV_BOOL && !r->i));
}

static int erb_error(struct lexer *lx, const char *msg, const char *near)
{
	if (lx->e->err)         /* the first error (or KeyError) stands */
		return -1;
	if (lx->e->line > 0)
		error("%s:%d: %s%s%.20s%s", lx->e->file, lx->e->line, msg,
		      near && *near ? " near '" : "", near ? near : "",
		      near && *near ? "'" : "");
	else                    /* a {{ }} value: file names the key */
		error("%s: %s%s%.20s%s", lx->e->file, msg,
		      near && *near ? " near '" : "", near ? near : "",
		      near && *near ? "'" : "");
	lx->e->err = -1;
	return -1;
}

/*
 * lkp reads templates through Hashugar: a bare name (or .name on a
 * mapping) the job lacks raises KeyError, and lkp then leaves the include
 * file for a later pass instead of failing.  Not an error: no message.
 */
static void key_error(struct lexer *lx)
{
	if (!lx->e->err)
		lx->e->err = 1;
}

static void skip_ws(struct lexer *lx)
{
	while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n' || *lx->p == '\r' ||
	       *lx->p == ';')
		lx->p++;
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Is the next token the keyword kw? */
static bool peek_kw(struct lexer *lx, const char *kw)
{
	size_t n = strlen(kw);
	skip_ws(lx);
	return !strncmp(lx->p, kw, n) && !is_ident_char(lx->p[n]) &&
	       lx->p[n] != '?';
}

static bool eat_kw(struct lexer *lx, const char *kw)
{
	if (!peek_kw(lx, kw))
		return false;
	lx->p += strlen(kw);
	return true;
}

static bool eat_op(struct lexer *lx, const char *op)
{
	skip_ws(lx);
	if (strncmp(lx->p, op, strlen(op)))
		return false;
	lx->p += strlen(op);
	return true;
}

/* A job value as Ruby sees it. */
static struct rv from_value(const struct job_value *v)
{
	struct rv r = { RV_NIL, 0, NULL, NULL };

	if (!v || v->kind == JOB_NULL)
		return r;
	if (v->kind == JOB_MAP || v->kind == JOB_SEQ) {
		r.kind = v->kind == JOB_MAP ? RV_MAP : RV_SEQ;
		r.v = v;
		return r;
	}
	if (v->type == JOB_INT) {
		struct strbuf sb = STRBUF_INIT;
		job_scalar_to_s(v, &sb);
		r.kind = RV_INT;
		r.i = strtoll(sb.buf, NULL, 10);
		strbuf_release(&sb);
		return r;
	}
	if (v->type == JOB_BOOL) {
		struct strbuf sb = STRBUF_INIT;
		job_scalar_to_s(v, &sb);
		r = rv_bool(!strcmp(sb.buf, "true"));
		strbuf_release(&sb);
		return r;
	}
	return rv_str(v->text);
}

static void to_s(const struct rv *r, struct strbuf *sb)
{
	switch (r->kind) {
	case RV_NIL: break;
	case RV_BOOL: strbuf_addstr(sb, r->i ? "true" : "false"); break;
	case RV_INT: strbuf_addf(sb, "%lld", r->i); break;
	case RV_STR: case RV_REGEX: case RV_CLASS: strbuf_addstr(sb, r->s); break;
	case RV_MAP: case RV_SEQ: strbuf_addstr(sb, "{...}"); break;
	}
}

/*
 * job[k] for a top-level program given a scalar (`fs: ext4`): templates
 * read it as the program's options, {fs: ext4}, so job['fs']['fs'] works.
 */
static struct rv index_top(struct lexer *lx, const char *key)
{
	const struct job_value *v = job_map_get(lx->e->job, key);

	if (v && v->kind == JOB_SCALAR && job_is_workload_program(key, lx->e->cat)) {
		struct job_value *m = job_value_new(JOB_MAP);
		job_map_set(m, key, job_value_dup(v));
		ALLOC_GROW(lx->e->temps, lx->e->nr_temps + 1, lx->e->alloc_temps);
		lx->e->temps[lx->e->nr_temps++] = m;
		return from_value(m);
	}
	return from_value(v);
}

static struct rv parse_expr(struct lexer *lx);

static struct rv parse_string(struct lexer *lx)
{
	char q = *lx->p++;
	struct strbuf sb = STRBUF_INIT;
	struct rv r = { RV_NIL, 0, NULL, NULL };

	while (*lx->p && *lx->p != q) {
		if (*lx->p == '\\' && lx->p[1]) {
			char c = lx->p[1];
			if (q == '"')
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			else if (c != '\'' && c != '\\')
				strbuf_addch(&sb, '\\');
			strbuf_addch(&sb, c);
			lx->p += 2;
		} else if (q == '"' && lx->p[0] == '#' && lx->p[1] == '{') {
			struct lexer sub = { lx->e, lx->p + 2, lx->skip };
			struct rv v = parse_expr(&sub);
			skip_ws(&sub);
			if (*sub.p != '}') {
				rv_free(&v);
				strbuf_release(&sb);
				erb_error(lx, "expected '}' to close #{", sub.p);
				return r;
			}
			to_s(&v, &sb);
			rv_free(&v);
			lx->p = sub.p + 1;
		} else {
			strbuf_addch(&sb, *lx->p++);
		}
	}
	if (*lx->p != q) {
		strbuf_release(&sb);
		erb_error(lx, "expected the end of a string", NULL);
		return r;
	}
	lx->p++;
	r.kind = RV_STR;
	r.s = strbuf_detach(&sb, NULL);
	return r;
}

/*
 * util/rx, not glibc's regcomp: a template's pattern is text perfbot does
 * not control, and regcomp took 36 s and all memory on "/p+++++.../"
 * (it copies the tree once per stacked '+'; found by fuzzing).
 */
static bool regex_match(struct lexer *lx, const char *re, const char *s, long long *at)
{
	struct rx rx;
	struct rx_sub m;
	const char *why;
	bool ok;

	if (rx_compile(&rx, re, &why) < 0) {
		erb_error(lx, "expected a POSIX extended regular expression", re);
		return false;
	}
	ok = rx_exec(&rx, s, &m, 1);
	if (ok && at)
		*at = m.so;
	rx_release(&rx);
	return ok;
}

/* Ruby's case equality: a regexp matches, anything else compares. */
static bool values_equal(const struct rv *a, const struct rv *b)
{
	if (a->kind == RV_NIL || b->kind == RV_NIL)
		return a->kind == b->kind;
	if (a->kind == RV_STR && b->kind == RV_STR)
		return !strcmp(a->s, b->s);
	if ((a->kind == RV_INT || a->kind == RV_BOOL) && a->kind == b->kind)
		return a->i == b->i;
	if ((a->kind == RV_MAP || a->kind == RV_SEQ) && a->kind == b->kind)
		return job_value_equal(a->v, b->v);
	if (a->kind == RV_CLASS && b->kind == RV_CLASS)
		return !strcmp(a->s, b->s);
	return false;
}

static struct rv parse_case(struct lexer *lx)
{
	struct rv subject = parse_expr(lx), result = { RV_NIL, 0, NULL, NULL };
	bool outer_skip = lx->skip, done = false;

	while (!lx->e->err) {
		if (eat_kw(lx, "when")) {
			bool hit = false;
			do {
				struct rv pat;
				lx->skip = outer_skip || done;
				pat = parse_expr(lx);
				if (!lx->skip && !hit) {
					if (pat.kind == RV_REGEX) {
						struct strbuf s = STRBUF_INIT;
						to_s(&subject, &s);
						hit = subject.kind == RV_STR &&
						      regex_match(lx, pat.s, s.buf, NULL);
						strbuf_release(&s);
					} else {
						hit = values_equal(&pat, &subject);
					}
				}
				rv_free(&pat);
			} while (eat_op(lx, ","));
			eat_kw(lx, "then");
			lx->skip = outer_skip || done || !hit;
			{
				/* an empty body ("when 'JBOD'" then "when ...") is nil */
				struct rv body = { RV_NIL, 0, NULL, NULL };
				if (!peek_kw(lx, "when") && !peek_kw(lx, "else") && !peek_kw(lx, "end"))
					body = parse_expr(lx);
				if (!lx->skip) {
					rv_free(&result);
					result = body;
					done = true;
				} else {
					rv_free(&body);
				}
			}
		} else if (eat_kw(lx, "else")) {
			struct rv body;
			lx->skip = outer_skip || done;
			body = peek_kw(lx, "end") ? (struct rv){ RV_NIL, 0, NULL, NULL } : parse_expr(lx);
			if (!lx->skip) {
				rv_free(&result);
				result = body;
			} else {
				rv_free(&body);
			}
		} else if (eat_kw(lx, "end")) {
			break;
		} else {
			erb_error(lx, "expected 'when', 'else' or 'end' in a case", lx->p);
		}
	}
	lx->skip = outer_skip;
	rv_free(&subject);
	return result;
}

/* if C [then] E (elsif C [then] E)* [else E] end, as a value ({{ }}) */
static struct rv parse_if(struct lexer *lx)
{
	struct rv result = { RV_NIL, 0, NULL, NULL };
	bool outer_skip = lx->skip, done = false;

	for (bool cond = true; !lx->e->err;) {
		struct rv c = { RV_NIL, 0, NULL, NULL }, body;
		bool hit = true;
		if (cond) {
			lx->skip = outer_skip || done;
			c = parse_expr(lx);
			hit = !lx->skip && truthy(&c);
			rv_free(&c);
			eat_kw(lx, "then");
		} else {
			hit = !done;
		}
		lx->skip = outer_skip || done || !hit;
		body = parse_expr(lx);
		if (!lx->skip) {
			rv_free(&result);
			result = body;
			done = true;
		} else {
			rv_free(&body);
		}
		if (eat_kw(lx, "end"))
			break;
		if (!cond) {
			erb_error(lx, "expected 'end' after an if's else", lx->p);
		} else if (eat_kw(lx, "else")) {
			cond = false;
		} else if (!eat_kw(lx, "elsif")) {
			erb_error(lx, "expected 'elsif', 'else' or 'end' in an if", lx->p);
		}
	}
	lx->skip = outer_skip;
	return result;
}

static struct rv parse_primary(struct lexer *lx)
{
	struct rv r = { RV_NIL, 0, NULL, NULL };
	const char *start;

	skip_ws(lx);
	start = lx->p;
	if (*lx->p == '"' || *lx->p == '\'')
		return parse_string(lx);
	if (*lx->p == '/') {
		const char *end = ++lx->p;
		while (*end && *end != '/') {
			if (*end == '\\' && end[1])
				end++;
			end++;
		}
		if (*end != '/') {
			erb_error(lx, "expected the end of a /regexp/", start);
			return r;
		}
		r.kind = RV_REGEX;
		r.s = xstrndup(lx->p, (size_t)(end - lx->p));
		lx->p = end + 1;
		return r;
	}
	if (isdigit((unsigned char)*lx->p)) {
		r.kind = RV_INT;
		r.i = strtoll(lx->p, (char **)&lx->p, 10);
		return r;
	}
	if (*lx->p == '(') {
		lx->p++;
		r = parse_expr(lx);
		if (!eat_op(lx, ")"))
			erb_error(lx, "expected ')'", lx->p);
		return r;
	}
	if (eat_kw(lx, "case"))
		return parse_case(lx);
	if (eat_kw(lx, "if"))
		return parse_if(lx);
	if (eat_kw(lx, "nil"))
		return r;
	if (eat_kw(lx, "true"))
		return rv_bool(true);
	if (eat_kw(lx, "false"))
		return rv_bool(false);
	if (isalpha((unsigned char)*lx->p) || *lx->p == '_') {
		char *name;
		while (is_ident_char(*lx->p))
			lx->p++;
		name = xstrndup(start, (size_t)(lx->p - start));
		if (lx->skip)
			;
		else if (!strcmp(name, "job"))
			r = from_value(lx->e->job);
		else if (!strcmp(name, "___"))
			r = from_value(lx->e->___);
		else if (!job_map_get(lx->e->job, name))
			key_error(lx);            /* Hashugar: no such key */
		else                              /* Hashugar: the key's value */
			r = from_value(job_map_get(lx->e->job, name));
		free(name);
		return r;
	}
	erb_error(lx, "expected a value", lx->p);
	return r;
}

static struct rv call_method(struct lexer *lx, struct rv self, const char *m)
{
	struct rv r = { RV_NIL, 0, NULL, NULL };

	if (!strcmp(m, "nil?")) {
		r = rv_bool(self.kind == RV_NIL);
	} else if (!strcmp(m, "upcase") || !strcmp(m, "downcase")) {
		if (self.kind != RV_STR) {
			erb_error(lx, "expected a string before .upcase/.downcase", m);
		} else {
			r = rv_str(self.s);
			for (char *c = r.s; *c; c++)
				*c = (char)(m[0] == 'u' ? toupper((unsigned char)*c) :
					    tolower((unsigned char)*c));
		}
	} else if (!strcmp(m, "to_s")) {
		struct strbuf sb = STRBUF_INIT;
		to_s(&self, &sb);
		r.kind = RV_STR;
		r.s = strbuf_detach(&sb, NULL);
	} else if (!strcmp(m, "to_i")) {
		r.kind = RV_INT;
		r.i = self.kind == RV_INT ? self.i : self.kind == RV_STR ? strtoll(self.s, NULL, 10) : 0;
	} else if (!strcmp(m, "empty?") || !strcmp(m, "size") || !strcmp(m, "length")) {
		long long n = self.kind == RV_STR ? (long long)strlen(self.s) :
			      (self.kind == RV_MAP || self.kind == RV_SEQ) ? (long long)self.v->nr : -1;
		if (n < 0)
			erb_error(lx, "expected a string, list or mapping before", m);
		else if (m[0] == 'e')
			r = rv_bool(n == 0);
		else
			r.kind = RV_INT, r.i = n;
	} else if (!strcmp(m, "class")) {
		/*
		 * Object#class, a real method, so Hashugar's method_missing
		 * never sees it: `___.class == "security"` is false (a class
		 * is no string) even when the mapping has a key "class"
		 * (programs/stress-ng/include asks it of {test: acct}).
		 */
		static const char *const names[] = {
			[RV_NIL] = "NilClass", [RV_BOOL] = "FalseClass", [RV_INT] = "Integer",
			[RV_STR] = "String", [RV_MAP] = "Hashugar", [RV_SEQ] = "Array",
			[RV_REGEX] = "Regexp", [RV_CLASS] = "Class",
		};
		r.kind = RV_CLASS;
		r.s = xstrdup(self.kind == RV_BOOL && self.i ? "TrueClass" : names[self.kind]);
	} else if (self.kind == RV_MAP && m[strlen(m) - 1] != '?') {
		/* Hashugar: a mapping's key read as a method */
		const struct job_value *v = job_map_get(self.v, m);
		if (v)
			r = from_value(v);
		else
			key_error(lx);
	} else {
		erb_error(lx, "unsupported method (expected upcase, downcase, to_s, to_i, nil?, empty?, include?, size, or a key of a mapping)", m);
	}
	rv_free(&self);
	return r;
}

static struct rv parse_postfix(struct lexer *lx)
{
	struct rv r = parse_primary(lx);

	while (!lx->e->err) {
		if (*lx->p == '[') {
			struct rv k;
			lx->p++;
			k = parse_expr(lx);
			if (!eat_op(lx, "]")) {
				rv_free(&k);
				erb_error(lx, "expected ']'", lx->p);
				break;
			}
			if (!lx->skip) {
				struct rv n = { RV_NIL, 0, NULL, NULL };
				if (r.kind == RV_MAP && k.kind == RV_STR) {
					n = r.v == lx->e->job ? index_top(lx, k.s) :
						from_value(job_map_get(r.v, k.s));
				} else if (r.kind == RV_STR && k.kind == RV_STR) {
					if (strstr(r.s, k.s))
						n = rv_str(k.s);
				} else if (r.kind == RV_SEQ && k.kind == RV_INT) {
					if (k.i >= 0 && (size_t)k.i < r.v->nr)
						n = from_value(r.v->item[k.i]);
				} else {
					erb_error(lx, r.kind == RV_NIL ?
						"undefined method '[]' for nil (expected a guard like job['k'] && job['k']['x'])" :
						"expected a mapping or string before [...]", NULL);
				}
				rv_free(&r);
				r = n;
			}
			rv_free(&k);
		} else if (*lx->p == '.' && (isalpha((unsigned char)lx->p[1]) || lx->p[1] == '_')) {
			const char *s = ++lx->p;
			char *m;
			while (is_ident_char(*lx->p))
				lx->p++;
			if (*lx->p == '?')
				lx->p++;
			m = xstrndup(s, (size_t)(lx->p - s));
			if (!strcmp(m, "include?")) {
				struct rv arg;
				bool paren = eat_op(lx, "(");
				arg = parse_expr(lx);
				if (paren && !eat_op(lx, ")"))
					erb_error(lx, "expected ')'", lx->p);
				if (!lx->skip) {
					bool in = false;
					if (r.kind == RV_STR && arg.kind == RV_STR)
						in = strstr(r.s, arg.s) != NULL;
					else if (r.kind == RV_SEQ || r.kind == RV_MAP)
						for (size_t i = 0; i < r.v->nr; i++) {
							struct rv it = r.kind == RV_SEQ ?
								from_value(r.v->item[i]) :
								rv_str(r.v->ent[i].key);
							in = in || values_equal(&it, &arg);
							rv_free(&it);
						}
					rv_free(&r);
					r = rv_bool(in);
				}
				rv_free(&arg);
			} else if (!lx->skip) {
				r = call_method(lx, r, m);
			}
			free(m);
		} else {
			break;
		}
	}
	return r;
}

static struct rv parse_unary(struct lexer *lx)
{
	skip_ws(lx);
	if ((*lx->p == '!' && lx->p[1] != '=' && lx->p[1] != '~') || peek_kw(lx, "not")) {
		struct rv r;
		lx->p += *lx->p == '!' ? 1 : 3;
		r = parse_unary(lx);
		{
			bool t = truthy(&r);
			rv_free(&r);
			return rv_bool(!t);
		}
	}
	return parse_postfix(lx);
}

static struct rv parse_compare(struct lexer *lx)
{
	struct rv a = parse_unary(lx);
	static const char *const ops[] = { "==", "!=", "=~", "!~", "<=", ">=", "<", ">", NULL };

	skip_ws(lx);
	for (const char *const *op = ops; *op; op++) {
		struct rv b, r = { RV_NIL, 0, NULL, NULL };
		if (strncmp(lx->p, *op, strlen(*op)))
			continue;
		lx->p += strlen(*op);
		b = parse_unary(lx);
		if (!lx->skip) {
			if (!strcmp(*op, "==") || !strcmp(*op, "!=")) {
				r = rv_bool(values_equal(&a, &b) == (*op[0] == '='));
			} else if ((*op)[1] == '~') {
				long long at = 0;
				struct rv *re = b.kind == RV_REGEX ? &b : &a, *s = b.kind == RV_REGEX ? &a : &b;
				bool hit = s->kind == RV_STR && re->kind == RV_REGEX &&
					   regex_match(lx, re->s, s->s, &at);
				if ((*op)[0] == '!')
					r = rv_bool(!hit);
				else if (hit)
					r.kind = RV_INT, r.i = at;
			} else if (a.kind == RV_INT && b.kind == RV_INT) {
				bool t = !strcmp(*op, "<") ? a.i < b.i : !strcmp(*op, ">") ? a.i > b.i :
					 !strcmp(*op, "<=") ? a.i <= b.i : a.i >= b.i;
				r = rv_bool(t);
			} else if (a.kind == RV_STR && b.kind == RV_STR) {
				int c = strcmp(a.s, b.s);
				bool t = !strcmp(*op, "<") ? c < 0 : !strcmp(*op, ">") ? c > 0 :
					 !strcmp(*op, "<=") ? c <= 0 : c >= 0;
				r = rv_bool(t);
			} else {
				erb_error(lx, "expected two numbers or two strings to compare with", *op);
			}
		}
		rv_free(&a);
		rv_free(&b);
		return r;
	}
	return a;
}

/*
 * The right operand of a short-circuit operator: evaluated (skip off) only
 * when the left one does not decide, and then it is the result, as Ruby's
 * && / || / and / or return an operand, not a boolean.
 */
static struct rv short_circuit(struct lexer *lx, struct rv a, bool is_and,
			       struct rv (*operand)(struct lexer *))
{
	bool outer = lx->skip;
	struct rv b;

	lx->skip = outer || (is_and ? !truthy(&a) : truthy(&a));
	b = operand(lx);
	if (!lx->skip) {
		rv_free(&a);
		a = b;
	} else {
		rv_free(&b);
	}
	lx->skip = outer;
	return a;
}

static struct rv parse_and(struct lexer *lx)
{
	struct rv a = parse_compare(lx);

	while (!lx->e->err && eat_op(lx, "&&"))
		a = short_circuit(lx, a, true, parse_compare);
	return a;
}

static struct rv parse_or(struct lexer *lx)
{
	struct rv a = parse_and(lx);

	while (!lx->e->err && eat_op(lx, "||"))
		a = short_circuit(lx, a, false, parse_and);
	return a;
}

/* C ? A : B, below || and above and/or, as in Ruby. */
static struct rv parse_ternary(struct lexer *lx)
{
	struct rv c = parse_or(lx), a, b;
	bool outer = lx->skip, t;

	skip_ws(lx);
	if (lx->e->err || *lx->p != '?')
		return c;
	lx->p++;
	t = truthy(&c);
	rv_free(&c);
	lx->skip = outer || !t;
	a = parse_ternary(lx);
	if (!eat_op(lx, ":")) {
		rv_free(&a);
		lx->skip = outer;
		erb_error(lx, "expected ':' in a ? b : c", lx->p);
		return c;
	}
	lx->skip = outer || t;
	b = parse_ternary(lx);
	lx->skip = outer;
	if (t) {
		rv_free(&b);
		return a;
	}
	rv_free(&a);
	return b;
}

/* "and"/"or" bind loosest, as in Ruby. */
static struct rv parse_expr(struct lexer *lx)
{
	struct rv a = parse_ternary(lx);

	while (!lx->e->err) {
		bool is_and = peek_kw(lx, "and");

		if (!is_and && !peek_kw(lx, "or"))
			break;
		lx->p += is_and ? 3 : 2;
		a = short_circuit(lx, a, is_and, parse_ternary);
	}
	return a;
}

/* Evaluate one whole expression; it must use all of code. */
static struct rv eval_code(struct erb *e, const char *code, bool skip)
{
	struct lexer lx = { e, code, skip };
	struct rv r = parse_expr(&lx);

	skip_ws(&lx);
	if (!e->err && *lx.p)
		erb_error(&lx, "unexpected text (outside perfbot's ERB subset)", lx.p);
	return r;
}

/* if/elsif/else/unless/case/when/end across "% " lines and <% %> tags */
struct frame {
	bool parent_active, taken, active;
	struct rv subject;              /* for case */
};

static bool first_word(const char *code, const char *w, const char **rest)
{
	size_t n = strlen(w);
	while (*code == ' ' || *code == '\t')
		code++;
	if (strncmp(code, w, n) || is_ident_char(code[n]))
		return false;
	*rest = code + n;
	return true;
}

static int run_code(struct erb *e, const char *code, struct frame *st, int *depth)
{
	const char *rest;
	struct frame *top = *depth ? &st[*depth - 1] : NULL;
	bool active = top ? top->active : true;

	if (first_word(code, "if", &rest) || first_word(code, "unless", &rest) ||
	    first_word(code, "case", &rest)) {
		bool is_case = first_word(code, "case", &rest);
		bool neg = first_word(code, "unless", &rest);
		struct frame *f;
		struct rv c;

		if (*depth == 32) {
			error("%s:%d: conditions nested too deeply", e->file, e->line);
			return -1;
		}
		f = &st[(*depth)++];
		memset(f, 0, sizeof(*f));
		f->parent_active = active;
		c = eval_code(e, rest, !active);
		if (e->err) {
			rv_free(&c);
			return e->err;
		}
		if (is_case) {
			f->subject = c;
			f->active = false;
			return 0;
		}
		f->active = active && (truthy(&c) != neg);
		f->taken = f->active;
		rv_free(&c);
		return 0;
	}
	if (first_word(code, "elsif", &rest) || first_word(code, "when", &rest)) {
		bool is_when = first_word(code, "when", &rest);
		struct rv c;
		bool hit;

		if (!top) {
			error("%s:%d: expected 'if' or 'case' before '%s'", e->file, e->line,
			      is_when ? "when" : "elsif");
			return -1;
		}
		if (!is_when) {
			c = eval_code(e, rest, !top->parent_active || top->taken);
			hit = truthy(&c);
			rv_free(&c);
		} else {
			/* when P1, P2: any pattern matching the subject */
			struct lexer lx = { e, rest, !top->parent_active || top->taken };
			hit = false;
			do {
				c = parse_expr(&lx);
				if (!lx.skip && !e->err && c.kind == RV_REGEX)
					hit = hit || (top->subject.kind == RV_STR &&
						      regex_match(&lx, c.s, top->subject.s, NULL));
				else if (!lx.skip && !e->err)
					hit = hit || values_equal(&c, &top->subject);
				rv_free(&c);
			} while (!e->err && eat_op(&lx, ","));
			eat_kw(&lx, "then");
			skip_ws(&lx);
			if (!e->err && *lx.p)
				erb_error(&lx, "unexpected text (outside perfbot's ERB subset)", lx.p);
		}
		if (e->err)
			return e->err;
		top->active = top->parent_active && !top->taken && hit;
		top->taken = top->taken || top->active;
		return e->err;
	}
	if (first_word(code, "else", &rest)) {
		if (!top) {
			error("%s:%d: expected 'if' or 'case' before 'else'", e->file, e->line);
			return -1;
		}
		top->active = top->parent_active && !top->taken;
		top->taken = true;
		return 0;
	}
	if (first_word(code, "end", &rest)) {
		if (!top) {
			error("%s:%d: 'end' without 'if', 'unless' or 'case'", e->file, e->line);
			return -1;
		}
		rv_free(&top->subject);
		(*depth)--;
		return 0;
	}
	{
		/* a bare statement: evaluate it for its errors, output nothing */
		struct rv r = eval_code(e, code, !active);
		rv_free(&r);
		return e->err;
	}
}

int erb_expand(const char *t, const char *file, const struct job_value *job,
	       const struct job_value *___, struct job_catalog *cat,
	       struct strbuf *out)
{
	struct erb e = { file, 1, job, ___, cat, NULL, 0, 0, 0 };
	struct frame st[32];
	int depth = 0, ret = 0;
	bool line_start = true;

	while (*t && !ret) {
		bool active = depth ? st[depth - 1].active : true;
		if (line_start && t[0] == '%' && t[1] != '%') {
			const char *nl = strchrnul(t, '\n');
			char *code = xstrndup(t + 1, (size_t)(nl - t - 1));
			ret = run_code(&e, code, st, &depth);
			free(code);
			t = *nl ? nl + 1 : nl;
			e.line++;
			continue;
		}
		if (line_start && t[0] == '%') {
			t++;            /* "%%" at line start is a literal '%' */
		}
		line_start = false;
		if (t[0] == '<' && t[1] == '%' && t[2] == '%') {
			if (active)
				strbuf_addstr(out, "<%");
			t += 3;
		} else if (t[0] == '<' && t[1] == '%') {
			const char *end = strstr(t + 2, "%>");
			bool emit = t[2] == '=', comment = t[2] == '#';
			char *code;
			int lines = 0;

			if (!end) {
				ret = error("%s:%d: expected '%%>' to close '<%%'", file, e.line);
				break;
			}
			code = xstrndup(t + 2 + (emit || comment), (size_t)(end - t - 2 - (emit || comment)));
			for (const char *c = t; c < end; c++)
				lines += *c == '\n';
			if (comment) {
				;
			} else if (emit) {
				struct rv r = eval_code(&e, code, !active);
				if (active && !e.err)
					to_s(&r, out);
				rv_free(&r);
				ret = e.err;
			} else {
				ret = run_code(&e, code, st, &depth);
			}
			free(code);
			e.line += lines;
			t = end + 2;
		} else {
			if (active)
				strbuf_addch(out, *t);
			if (*t == '\n') {
				e.line++;
				line_start = true;
			}
			t++;
		}
	}
	if (!ret && depth) {
		ret = error("%s:%d: expected 'end' for an 'if', 'unless' or 'case'", file, e.line);
	}
	while (depth > 0)
		rv_free(&st[--depth].subject);
	for (size_t i = 0; i < e.nr_temps; i++)
		job_value_free(e.temps[i]);
	free(e.temps);
	return ret < 0 ? -1 : ret;
}


int erb_eval(const char *expr, const char *where, const struct job_value *job,
	     struct job_catalog *cat, struct job_value **out)
{
	struct erb e = { where, 0, job, NULL, cat, NULL, 0, 0, 0 };
	struct rv r = eval_code(&e, expr, false);
	int ret = e.err;

	*out = NULL;
	if (ret > 0)
		ret = error("%s: expected keys the job has in '{{%.40s}}' (lkp: KeyError)", where, expr);
	if (!ret) {
		struct strbuf sb = STRBUF_INIT;
		switch (r.kind) {
		case RV_NIL:
			break;
		case RV_MAP: case RV_SEQ:
			*out = job_value_dup(r.v);
			break;
		case RV_STR:
			*out = job_string_new(r.s);
			break;
		default:        /* Integer, true/false: typed as YAML types them */
			to_s(&r, &sb);
			*out = job_scalar_new(sb.buf);
		}
		strbuf_release(&sb);
	}
	rv_free(&r);
	for (size_t i = 0; i < e.nr_temps; i++)
		job_value_free(e.temps[i]);
	free(e.temps);
	return ret < 0 ? -1 : 0;
}
