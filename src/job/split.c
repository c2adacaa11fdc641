/*
 * split.c: from one job file to lkp's atomic jobs.
 *
 * lkp's split-job expands the parameter matrix, then fills each atomic
 * job with defaults from include files written as ERB templates.  The
 * templates use a small part of Ruby; erb_expand() below interprets that
 * part (documented in split.h) and reports anything else as an error
 * rather than guessing.
 */
#include "job/split.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/rx.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ */
/* the ERB subset */

enum rv_kind { RV_NIL, RV_BOOL, RV_INT, RV_STR, RV_MAP, RV_SEQ, RV_REGEX };

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
	const char *const *dirs;
	struct job_value **temps;       /* synthetic maps to free at the end */
	size_t nr_temps, alloc_temps;
	int err;
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
	if (!lx->e->err)
		error("%s:%d: %s%s%.20s%s", lx->e->file, lx->e->line, msg,
		      near && *near ? " near '" : "", near ? near : "",
		      near && *near ? "'" : "");
	lx->e->err = -1;
	return -1;
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
	case RV_STR: case RV_REGEX: strbuf_addstr(sb, r->s); break;
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

	if (v && v->kind == JOB_SCALAR && job_is_workload_program(key, lx->e->dirs)) {
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
				struct rv body = parse_expr(lx);
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
			body = parse_expr(lx);
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
		else
			r = index_top(lx, name);  /* lkp's Hashugar: a job key */
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
	} else {
		erb_error(lx, "unsupported method (expected upcase, downcase, to_s, to_i, nil?, empty?, include?, size)", m);
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

/* "and"/"or" bind loosest, as in Ruby. */
static struct rv parse_expr(struct lexer *lx)
{
	struct rv a = parse_or(lx);

	while (!lx->e->err) {
		bool is_and = peek_kw(lx, "and");

		if (!is_and && !peek_kw(lx, "or"))
			break;
		lx->p += is_and ? 3 : 2;
		a = short_circuit(lx, a, is_and, parse_or);
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
			return -1;
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
			return -1;
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
	       const struct job_value *___, const char *const *include_dirs,
	       struct strbuf *out)
{
	struct erb e = { file, 1, job, ___, include_dirs, NULL, 0, 0, 0 };
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
	return ret ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* merging, as lkp's revise_hash */

/* Merge src's entries into dst: new keys go last; existing keys are
 * replaced when overwrite, mappings merged key by key. */
static void merge_map(struct job_value *dst, const struct job_value *src, bool overwrite)
{
	for (size_t i = 0; i < src->nr; i++) {
		const struct job_entry *e = &src->ent[i];
		const struct job_value *have;

		if (e->comment) {
			bool dup = false;
			for (size_t k = 0; k < dst->nr; k++)
				dup = dup || (dst->ent[k].comment && !strcmp(dst->ent[k].key, e->key));
			if (!dup)
				job_map_add_comment(dst, e->key);
			continue;
		}
		have = job_map_get(dst, e->key);
		if (have && have->kind == JOB_MAP && e->val->kind == JOB_MAP) {
			merge_map((struct job_value *)have, e->val, overwrite);
			continue;
		}
		if (have && !overwrite)
			continue;
		job_map_set(dst, e->key, job_value_dup(e->val));
	}
}

/* ------------------------------------------------------------------ */
/* include defaults */

struct defaults_ctx {
	const char *const *dirs;
	struct job *atom;               /* the job being filled */
	struct job_value *defaults;     /* collected defaults, in load order */
	char **loaded;                  /* include files already loaded */
	size_t nr_loaded, alloc_loaded;
};

/* The include file for (key, name): include/KEY/NAME, include/KEY (name ==
 * key), programs/KEY/include/NAME, programs/KEY/include (name == key). */
static bool include_file(const struct defaults_ctx *c, const char *key,
			 const char *name, struct strbuf *path, struct strbuf *label)
{
	static const char *const forms[] = {
		"%s/include/%s/%s", "%s/programs/%s/include/%s", NULL
	};
	if (strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, "."))
		return false;
	for (const char *const *d = c->dirs; d && *d; d++) {
		for (const char *const *f = forms; *f; f++) {
			strbuf_reset(path);
			strbuf_addf(path, *f, *d, key, name);
			if (file_exists(path->buf) && !is_dir(path->buf))
				goto found;
		}
		if (!strcmp(key, name)) {
			strbuf_reset(path);
			strbuf_addf(path, "%s/include/%s", *d, key);
			if (file_exists(path->buf) && !is_dir(path->buf))
				goto found;
			strbuf_reset(path);
			strbuf_addf(path, "%s/programs/%s/include", *d, key);
			if (file_exists(path->buf) && !is_dir(path->buf))
				goto found;
		}
		continue;
found:
		{
			const char *rel = path->buf + strlen(*d);
			while (*rel == '/')
				rel++;
			strbuf_reset(label);
			strbuf_addf(label, "! %s", rel);
		}
		return true;
	}
	return false;
}

static bool has_include_set(const struct defaults_ctx *c, const char *key)
{
	struct strbuf p = STRBUF_INIT;
	bool ok = false;

	if (strchr(key, '/') || key[0] == '.' || !*key)
		return false;
	for (const char *const *d = c->dirs; d && *d && !ok; d++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/include/%s", *d, key);
		ok = file_exists(p.buf);
		if (!ok) {
			strbuf_reset(&p);
			strbuf_addf(&p, "%s/programs/%s/include", *d, key);
			ok = file_exists(p.buf);
		}
	}
	strbuf_release(&p);
	return ok;
}

/* Load one include file; returns 1 loaded, 0 absent/already, -1 error. */
static int load_one(struct defaults_ctx *c, const char *key, const char *name,
		    const struct job_value *___)
{
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf yaml = STRBUF_INIT;
	struct job_value *ctxmap = NULL;
	struct job *inc = NULL;
	struct job_load_opts o = { c->dirs, true };
	int ret = 0;

	if (!include_file(c, key, name, &path, &label))
		goto out;
	for (size_t i = 0; i < c->nr_loaded; i++)
		if (!strcmp(c->loaded[i], path.buf))
			goto out;
	if (read_file(&text, path.buf) < 0) {
		ret = -1;
		goto out;
	}
	/* the template sees the defaults so far under the job's own keys */
	ctxmap = job_value_dup(c->defaults);
	merge_map(ctxmap, c->atom->root, true);
	if (erb_expand(text.buf, path.buf, ctxmap, ___, c->dirs, &yaml) < 0) {
		ret = -1;
		goto out;
	}
	if (job_load_string(yaml.buf, yaml.len, path.buf, &o, &inc) < 0) {
		ret = -1;
		goto out;
	}
	ALLOC_GROW(c->loaded, c->nr_loaded + 1, c->alloc_loaded);
	c->loaded[c->nr_loaded++] = xstrdup(path.buf);
	if (inc->root->nr) {
		job_map_add_comment(c->defaults, label.buf);
		merge_map(c->defaults, inc->root, true);
	}
	ret = 1;
out:
	job_free(inc);
	job_value_free(ctxmap);
	strbuf_release(&path);
	strbuf_release(&label);
	strbuf_release(&text);
	strbuf_release(&yaml);
	return ret;
}

static int walk_defaults(struct defaults_ctx *c, const struct job_value *map,
			 const struct job_programs *progs)
{
	for (size_t i = 0; i < map->nr; i++) {
		const struct job_entry *e = &map->ent[i];
		const struct job_value *v = e->val;
		int r;

		if (e->comment)
			continue;
		if (has_include_set(c, e->key)) {
			bool done = false;
			if (job_programs_has_program(progs, e->key)) {
				r = load_one(c, e->key, e->key, v);
				if (r < 0)
					return -1;
				done = r > 0;
				if (!done && v->kind == JOB_MAP)
					for (size_t k = 0; k < v->nr; k++) {
						if (v->ent[k].comment ||
						    !job_programs_option(progs, v->ent[k].key))
							continue;
						if (load_one(c, e->key, v->ent[k].key, v->ent[k].val) < 0)
							return -1;
					}
			}
			if (!done && v->kind == JOB_SCALAR) {
				/* "vm-lkp-wsx01-4G": vm, vm-lkp, vm-lkp-wsx01, ... */
				const char *s = v->text, *p = s;
				int hit = 0;
				for (;;) {
					char *prefix;
					p += strcspn(p, ":-");
					prefix = xstrndup(s, (size_t)(p - s));
					r = load_one(c, e->key, prefix, v);
					free(prefix);
					if (r < 0)
						return -1;
					hit = r;
					if (!*p)
						break;
					p++;
				}
				if (!hit && load_one(c, e->key, "OTHERS", v) < 0)
					return -1;
				if (load_one(c, e->key, "ALL", v) < 0)
					return -1;
			}
		}
		if (v->kind == JOB_MAP && walk_defaults(c, v, progs) < 0)
			return -1;
	}
	return 0;
}

int job_apply_defaults(struct job *atom, const char *const *include_dirs)
{
	struct defaults_ctx c;
	struct job_programs progs;
	const char *buf[2];
	int ret;

	memset(&c, 0, sizeof(c));
	c.dirs = job_default_include_dirs(include_dirs, buf);
	c.atom = atom;
	c.defaults = job_value_new(JOB_MAP);
	job_programs_init(&progs, atom->root, c.dirs);
	ret = walk_defaults(&c, atom->root, &progs);
	if (!ret) {
		const char *cat = job_get(atom, "category");
		struct strbuf p = STRBUF_INIT, l = STRBUF_INIT;
		/* perfbot's own default monitors when lkp's file is not at hand */
		if (cat && !strcmp(cat, "benchmark") &&
		    !include_file(&c, "category", "benchmark", &p, &l)) {
			job_map_add_comment(c.defaults, "! include/category/benchmark");
			for (const struct job_monitor *m = job_monitor_table(); m->name; m++)
				if (m->supported && m->in_benchmark_set)
					job_map_set(c.defaults, m->name, job_value_new(JOB_NULL));
		}
		strbuf_release(&p);
		strbuf_release(&l);
		merge_map(atom->root, c.defaults, false);
	}
	job_programs_release(&progs);
	job_value_free(c.defaults);
	for (size_t i = 0; i < c.nr_loaded; i++)
		free(c.loaded[i]);
	free(c.loaded);
	return ret;
}

/*
 * lkp's --compatible: a job lkp already expanded may carry sections that
 * do not read back (queue options, host data); keep only the lines of
 * sections whose "#! " header names a .yaml file (and those before any).
 */
void job_refine_compatible(const char *text, struct strbuf *out)
{
	bool keep = true, any = false;

	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');
		if (!strncmp(p, "#! ", 3) || !strncmp(p, ":#! ", 4))
			any = true;
		p = *nl ? nl + 1 : nl;
	}
	if (!any) {
		strbuf_addstr(out, text);
		return;
	}
	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');
		size_t len = (size_t)(nl - p);
		if (!strncmp(p, "#! ", 3) || !strncmp(p, ":#! ", 4)) {
			size_t l = len;
			if (l && p[l - 1] == ':')
				l--;
			keep = l >= 5 && !strncmp(p + l - 5, ".yaml", 5);
		}
		if (keep) {
			strbuf_add(out, p, len);
			strbuf_addch(out, '\n');
		}
		p = *nl ? nl + 1 : nl;
	}
}

/* ------------------------------------------------------------------ */
/* the matrix */

/* lkp's EXPAND_DIMS */
static const char *const expand_dims[] = {
	"kconfig", "commit", "rootfs", "ltp_commit", "nvml_commit", "blktests_commit",
	"qemu_commit", "perf_test_commit", "linux_commit", NULL
};

static bool is_dim(const struct job_programs *p, const char *key)
{
	for (const char *const *d = expand_dims; *d; d++)
		if (!strcmp(*d, key))
			return true;
	return job_programs_has_program(p, key) || job_programs_option(p, key);
}

/* The first list under a dimension key, depth first, in key order. */
static struct job_entry *first_dim(struct job_value *map, const struct job_programs *p)
{
	for (size_t i = 0; i < map->nr; i++) {
		struct job_entry *e = &map->ent[i];
		struct job_entry *in;

		if (e->comment)
			continue;
		if (e->val->kind == JOB_SEQ && is_dim(p, e->key))
			return e;
		if (e->val->kind == JOB_MAP && (in = first_dim(e->val, p)))
			return in;
	}
	return NULL;
}

struct split_ctx {
	const struct split_opts *opts;
	const char *const *dirs;
	job_atom_fn fn;
	void *ctx;
};

static int expand(struct split_ctx *s, struct job *job, const struct job_programs *p)
{
	struct job_entry *e = first_dim(job->root, p);
	struct job_value *list;
	int ret = 0;

	if (!e) {
		struct job *atom = job_dup(job);
		if (!s->opts->no_defaults && job_apply_defaults(atom, s->dirs) < 0) {
			job_free(atom);
			return -1;
		}
		return s->fn(atom, s->ctx);
	}
	/* the job is not reallocated below (atoms are copies), so e stays */
	list = e->val;
	for (size_t i = 0; i < list->nr && !ret; i++) {
		e->val = list->item[i];
		ret = expand(s, job, p);
	}
	e->val = list;
	return ret;
}

/* The "#! file" label lkp gives a job file: its path without LKP_SRC/. */
static void origin_label(const char *origin, const char *const *dirs, struct strbuf *sb)
{
	const char *rel = origin;

	for (const char *const *d = dirs; d && *d; d++) {
		size_t n = strlen(*d);
		if (!strncmp(origin, *d, n) && origin[n] == '/') {
			rel = origin + n + 1;
			break;
		}
	}
	strbuf_addf(sb, "! %s", rel);
}

static void load_hosts(struct job *base, const char *const *dirs)
{
	const char *group = job_get(base, "tbox_group");
	struct strbuf path = STRBUF_INIT;

	for (const char *const *d = dirs; group && !strchr(group, '/') && d && *d; d++) {
		struct job_load_opts o = { dirs, true };
		struct job *hw;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/hosts/%s", *d, group);
		if (!file_exists(path.buf) || is_dir(path.buf))
			continue;
		if (job_load_opts(path.buf, &o, &hw) < 0) {
			warning("ignoring host file '%s'", path.buf);
			break;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "! hosts/%s", group);
		job_map_add_comment(base->root, path.buf);
		merge_map(base->root, hw->root, false);
		job_free(hw);
		break;
	}
	strbuf_release(&path);
}

int job_split(const struct job *job, const char *origin,
	      const struct split_opts *opts, job_atom_fn fn, void *ctx)
{
	struct split_ctx s = { opts, NULL, fn, ctx };
	const char *buf[2];
	struct job *base = job_new();
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	int ret = 0;

	s.dirs = job_default_include_dirs(opts->include_dirs, buf);
	/* the atoms' messages name the file they came from */
	base->path = xstrdup(job->path ? job->path : origin);
	if (!job_lookup(job, "job_origin")) {
		origin_label(origin, s.dirs, &sb);
		job_map_add_comment(base->root, sb.buf);
	}
	merge_map(base->root, job->root, true);
	if (!job_lookup(base, "job_origin"))
		job_set_value(base, "job_origin", job_string_new(origin));
	if (opts->kconfig)
		job_set_value(base, "kconfig", job_string_new(opts->kconfig));
	if (opts->commit)
		job_set_value(base, "commit", job_string_new(opts->commit));
	strbuf_reset(&sb);
	if (opts->testbox) {
		strbuf_addstr(&sb, opts->testbox);
	} else {
		char name[256] = "localhost";
		const char *env = getenv("HOSTNAME");
		if (env && *env)
			snprintf(name, sizeof(name), "%s", env);
		else if (gethostname(name, sizeof(name) - 1) < 0)
			strcpy(name, "localhost");
		name[sizeof(name) - 1] = 0;
		strbuf_addstr(&sb, name);
	}
	job_set_value(base, "testbox", job_string_new(sb.buf));
	if (!job_lookup(base, "arch") || job_lookup(base, "arch")->kind == JOB_NULL)
		job_set_value(base, "arch", job_string_new(opts->arch ? opts->arch :
				uname(&u) == 0 ? u.machine : "x86_64"));
	{
		struct strbuf g = STRBUF_INIT;
		job_tbox_group(sb.buf, &g);
		job_set_value(base, "tbox_group", job_string_new(g.buf));
		strbuf_release(&g);
	}
	if (job_lookup(base, "cluster"))
		job_set_value(base, "node_roles", job_string_new("server client"));
	if (!opts->no_defaults)
		load_hosts(base, s.dirs);

	for (size_t d = 0; d <= job->nr_docs && !ret; d++) {
		struct job *combo = job_dup(base);
		struct job_programs p;

		if (d)
			merge_map(combo->root, job->docs[d - 1], true);
		if (opts->overrides && opts->overrides->nr) {
			job_map_add_comment(combo->root, "! user overrides");
			merge_map(combo->root, opts->overrides, true);
		}
		job_programs_init(&p, combo->root, s.dirs);
		ret = expand(&s, combo, &p);
		job_programs_release(&p);
		job_free(combo);
	}
	strbuf_release(&sb);
	job_free(base);
	return ret;
}
