/*
 * rx.c: POSIX extended regular expressions on a Pike VM (see rx.h).
 *
 * The pattern is parsed into a small tree, the tree emitted as a program
 * (CHAR, CLASS, BOL, EOL, SPLIT, JMP, SAVE, MATCH), and the program
 * run over the subject with one list of threads per position.  Each
 * instruction holds at most one thread per position (the `mark` array),
 * which is what makes the run linear: a backtracking matcher instead
 * retries every way to split a run of digits between `[0-9]+` and what
 * follows, from every start position.
 */
#include "util/rx.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROG 4096           /* instructions: far past any parser's */
#define MAX_REPEAT 255          /* largest m, n of {m,n} */
#define MAX_GROUPS 64

enum op { I_CHAR, I_CLASS, I_BOL, I_EOL, I_LOOK, I_SPLIT, I_JMP, I_SAVE, I_MATCH };

struct rx_inst {
	enum op op;
	unsigned char c;        /* I_CHAR */
	size_t x, y;            /* I_JMP: x; I_SPLIT: x preferred, then y;
				   I_SAVE: slot x */
	uint32_t set[8];        /* I_CLASS: a bit per byte */
	struct rx *look;        /* I_LOOK: the program that must match here
				   (or, with neg, must not) */
	bool neg;
};

/* ---- the tree -------------------------------------------------------- */

enum kind { N_EMPTY, N_CHAR, N_CLASS, N_BOL, N_EOL, N_LOOK, N_CAT, N_ALT, N_GROUP, N_REP };

struct node {
	enum kind kind;
	unsigned char c;
	uint32_t set[8];
	int group, min, max;    /* group 0: (?:...); max -1: no limit */
	bool neg;               /* N_LOOK: (?!...) rather than (?=...) */
	struct node *a, *b;
};

struct parser {
	const char *p;
	const char *why;        /* the first error */
	int nsub;
	struct node **all;      /* every node, to free them at once */
	size_t nr, alloc;
};

static struct node *new_node(struct parser *ps, enum kind kind)
{
	struct node *n = xcalloc(1, sizeof(*n));

	n->kind = kind;
	ALLOC_GROW(ps->all, ps->nr + 1, ps->alloc);
	ps->all[ps->nr++] = n;
	return n;
}

static struct node *fail(struct parser *ps, const char *why)
{
	if (!ps->why)
		ps->why = why;
	return NULL;
}

static void set_add(uint32_t *set, unsigned c)
{
	set[c >> 5] |= 1u << (c & 31);
}

static bool set_has(const uint32_t *set, unsigned c)
{
	return set[c >> 5] >> (c & 31) & 1;
}

static const struct { const char *name; int (*is)(int); } classes[] = {
	{ "alnum", isalnum }, { "alpha", isalpha }, { "digit", isdigit },
	{ "space", isspace }, { "upper", isupper }, { "lower", islower },
	{ "punct", ispunct }, { "xdigit", isxdigit },
};

/* "[:name:]" at ps->p (after the '['): add it to set. */
static bool parse_named_class(struct parser *ps, uint32_t *set)
{
	const char *end = strstr(ps->p + 2, ":]");

	if (!end)
		return fail(ps, "expected ':]' after '[:'"), false;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		size_t n = strlen(classes[i].name);
		if ((size_t)(end - ps->p - 2) == n && !strncmp(ps->p + 2, classes[i].name, n)) {
			for (unsigned c = 1; c < 256; c++)
				if (classes[i].is((int)c))
					set_add(set, c);
			ps->p = end + 2;
			return true;
		}
	}
	return fail(ps, "unknown character class"), false;
}

/* A bracket expression; ps->p is past the '['. */
static struct node *parse_bracket(struct parser *ps)
{
	struct node *n = new_node(ps, N_CLASS);
	bool negate = false, first = true;

	if (*ps->p == '^') {
		negate = true;
		ps->p++;
	}
	while (first || *ps->p != ']') {
		unsigned lo, hi;
		if (!*ps->p)
			return fail(ps, "expected ']'");
		if (ps->p[0] == '[' && ps->p[1] == ':') {
			if (!parse_named_class(ps, n->set))
				return NULL;
			first = false;
			continue;
		}
		lo = (unsigned char)*ps->p++;
		hi = lo;
		if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
			hi = (unsigned char)ps->p[1];
			ps->p += 2;
			if (hi < lo)
				return fail(ps, "a range that ends before it starts");
		}
		for (unsigned c = lo; c <= hi; c++)
			set_add(n->set, c);
		first = false;
	}
	ps->p++;
	if (negate)
		for (int i = 0; i < 8; i++)
			n->set[i] = ~n->set[i];
	n->set[0] &= ~1u;       /* never the NUL that ends the subject */
	return n;
}

static struct node *parse_alt(struct parser *ps, int depth);

/* Perl's and Ruby's \d \w \s (ASCII, as Ruby's), and \D \W \S. */
static struct node *perl_class(struct parser *ps, char c)
{
	struct node *n = new_node(ps, N_CLASS);

	for (unsigned b = 1; b < 128; b++) {
		bool in;
		switch (c | 0x20) {
		case 'd': in = b >= '0' && b <= '9'; break;
		case 'w': in = isalnum((int)b) || b == '_'; break;
		default:  in = strchr(" \t\n\v\f\r", (int)b) != NULL; break;
		}
		if (in != (c >= 'A' && c <= 'Z'))
			set_add(n->set, b);
	}
	if (c >= 'A' && c <= 'Z')
		for (unsigned b = 128; b < 256; b++)
			set_add(n->set, b);
	return n;
}

static struct node *parse_atom(struct parser *ps, int depth)
{
	struct node *n;
	char c = *ps->p++;

	switch (c) {
	case '(':
		if (ps->p[0] == '?' && strchr(":=!", ps->p[1]) && ps->p[1]) {
			/* Ruby's (?:...), (?=...), (?!...): POSIX gives '(?'
			 * no meaning ("nothing to repeat"), so no ERE changes */
			n = new_node(ps, ps->p[1] == ':' ? N_GROUP : N_LOOK);
			n->neg = ps->p[1] == '!';
			ps->p += 2;
		} else {
			if (ps->nsub >= MAX_GROUPS)
				return fail(ps, "too many groups");
			n = new_node(ps, N_GROUP);
			n->group = ++ps->nsub;
		}
		n->a = parse_alt(ps, depth + 1);
		if (!n->a)
			return NULL;
		if (*ps->p != ')')
			return fail(ps, "expected ')'");
		ps->p++;
		return n;
	case '[':
		return parse_bracket(ps);
	case '.':
		n = new_node(ps, N_CLASS);
		memset(n->set, 0xff, sizeof(n->set));
		n->set[0] &= ~1u;
		return n;
	case '^':
		return new_node(ps, N_BOL);
	case '$':
		return new_node(ps, N_EOL);
	case '\\':
		if (!*ps->p)
			return fail(ps, "a trailing '\\'");
		c = *ps->p++;
		if (strchr("dwsDWS", c))
			return perl_class(ps, c);
		break;
	case '*': case '+': case '?': case '{':
		return fail(ps, "nothing to repeat");
	case ')':
		return fail(ps, "unmatched ')'");
	default:
		break;
	}
	n = new_node(ps, N_CHAR);
	n->c = (unsigned char)c;
	return n;
}

/* {m}, {m,}, {m,n}: ps->p is past the '{'. */
static bool parse_interval(struct parser *ps, int *min, int *max)
{
	char *end;
	long m = strtol(ps->p, &end, 10), n;

	if (end == ps->p || m < 0 || m > MAX_REPEAT)
		return fail(ps, "expected {m}, {m,} or {m,n} with m, n <= 255"), false;
	n = m;
	if (*end == ',') {
		ps->p = end + 1;
		n = *ps->p == '}' ? -1 : strtol(ps->p, &end, 10);
		if (n != -1 && (end == ps->p || n < m || n > MAX_REPEAT))
			return fail(ps, "expected {m}, {m,} or {m,n} with m, n <= 255"), false;
		if (n == -1)
			end = (char *)ps->p;
	}
	if (*end != '}')
		return fail(ps, "expected '}'"), false;
	ps->p = end + 1;
	*min = (int)m;
	*max = (int)n;
	return true;
}

static struct node *parse_repeat(struct parser *ps, int depth)
{
	struct node *n = parse_atom(ps, depth);

	while (n && *ps->p && strchr("*+?{", *ps->p)) {
		struct node *r = new_node(ps, N_REP);
		char q = *ps->p++;
		r->a = n;
		r->min = q == '+' ? 1 : 0;
		r->max = q == '?' ? 1 : -1;
		if (q == '{' && !parse_interval(ps, &r->min, &r->max))
			return NULL;
		n = r;
	}
	return n;
}

static struct node *parse_cat(struct parser *ps, int depth)
{
	struct node *left = NULL;

	while (*ps->p && *ps->p != '|' && *ps->p != ')') {
		struct node *r = parse_repeat(ps, depth);
		if (!r)
			return NULL;
		if (left) {
			struct node *c = new_node(ps, N_CAT);
			c->a = left;
			c->b = r;
			r = c;
		}
		left = r;
	}
	return left ? left : new_node(ps, N_EMPTY);
}

static struct node *parse_alt(struct parser *ps, int depth)
{
	struct node *left;

	if (depth > 100)
		return fail(ps, "groups nested too deeply");
	left = parse_cat(ps, depth);
	while (left && *ps->p == '|') {
		struct node *a = new_node(ps, N_ALT), *right;
		ps->p++;
		right = parse_cat(ps, depth);
		if (!right)
			return NULL;
		a->a = left;
		a->b = right;
		left = a;
	}
	return left;
}

/* ---- emitting the program ------------------------------------------- */

struct emitter {
	struct rx_inst *prog;
	size_t len, alloc;
	bool too_big;
	size_t nsub;            /* the whole pattern's, for a lookahead's program */
	size_t *total;          /* instructions of every program, lookaheads' too */
};

static size_t emit(struct emitter *e, enum op op);
static void emit_node(struct emitter *e, const struct node *n);

/* Free a program and the lookahead programs it holds. */
static void free_prog(struct rx_inst *prog, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (prog[i].op == I_LOOK && prog[i].look) {
			free_prog(prog[i].look->prog, prog[i].look->len);
			free(prog[i].look);
		}
	free(prog);
}

/* The whole program of tree n: SAVE 0, n, SAVE 1, MATCH. */
static void emit_program(struct emitter *e, const struct node *n)
{
	emit(e, I_SAVE);                /* slot 0: x = 0 */
	emit_node(e, n);
	size_t last = emit(e, I_SAVE);
	e->prog[last].x = 1;
	emit(e, I_MATCH);
}

static size_t emit(struct emitter *e, enum op op)
{
	if (*e->total >= MAX_PROG) {
		/* an index the caller may write, the program is dropped; a
		 * lookahead's program may have none yet */
		e->too_big = true;
		if (!e->len) {
			ALLOC_GROW(e->prog, 1, e->alloc);
			memset(e->prog, 0, sizeof(e->prog[0]));
			return 0;
		}
		return e->len - 1;
	}
	ALLOC_GROW(e->prog, e->len + 1, e->alloc);
	memset(&e->prog[e->len], 0, sizeof(e->prog[0]));
	e->prog[e->len].op = op;
	++*e->total;
	return e->len++;
}

static void emit_node(struct emitter *e, const struct node *n)
{
	size_t i, j;

	if (e->too_big)
		return;
	switch (n->kind) {
	case N_EMPTY:
		break;
	case N_CHAR:
		/* emit() may move e->prog: index it after the call */
		i = emit(e, I_CHAR);
		e->prog[i].c = n->c;
		break;
	case N_CLASS:
		i = emit(e, I_CLASS);
		memcpy(e->prog[i].set, n->set, sizeof(n->set));
		break;
	case N_BOL:
		emit(e, I_BOL);
		break;
	case N_EOL:
		emit(e, I_EOL);
		break;
	case N_LOOK: {
		/* its own program, run anchored where the thread stands */
		struct emitter sub = { NULL, 0, 0, false, e->nsub, e->total };
		emit_program(&sub, n->a);
		i = emit(e, I_LOOK);
		if (sub.too_big || e->too_big) {
			free_prog(sub.prog, sub.len);
			e->too_big = true;
			break;
		}
		e->prog[i].look = xcalloc(1, sizeof(struct rx));
		e->prog[i].look->prog = sub.prog;
		e->prog[i].look->len = sub.len;
		e->prog[i].look->nsub = e->nsub;
		e->prog[i].neg = n->neg;
		break;
	}
	case N_CAT:
		emit_node(e, n->a);
		emit_node(e, n->b);
		break;
	case N_ALT:
		i = emit(e, I_SPLIT);
		e->prog[i].x = e->len;
		emit_node(e, n->a);
		j = emit(e, I_JMP);
		e->prog[i].y = e->len;
		emit_node(e, n->b);
		e->prog[j].x = e->len;
		break;
	case N_GROUP:
		if (!n->group) {
			emit_node(e, n->a);
			break;
		}
		i = emit(e, I_SAVE);
		e->prog[i].x = (size_t)n->group * 2;
		emit_node(e, n->a);
		i = emit(e, I_SAVE);
		e->prog[i].x = (size_t)n->group * 2 + 1;
		break;
	case N_REP:
		for (int k = 0; k < n->min; k++)
			emit_node(e, n->a);
		if (n->max < 0) {
			/* L: split body, out; body; jmp L; out: (greedy) */
			i = emit(e, I_SPLIT);
			e->prog[i].x = e->len;
			emit_node(e, n->a);
			j = emit(e, I_JMP);
			e->prog[j].x = i;
			e->prog[i].y = e->len;
		} else {
			for (int k = n->min; k < n->max; k++) {
				i = emit(e, I_SPLIT);
				e->prog[i].x = e->len;
				emit_node(e, n->a);
				e->prog[i].y = e->len;
			}
		}
		break;
	}
}

int rx_compile(struct rx *re, const char *pattern, const char **why)
{
	struct parser ps = { pattern, NULL, 0, NULL, 0, 0 };
	size_t total = 0;
	struct emitter e = { NULL, 0, 0, false, 0, &total };
	struct node *root = parse_alt(&ps, 0);
	int ret = -1;

	memset(re, 0, sizeof(*re));
	if (root && *ps.p)
		root = fail(&ps, "unmatched ')'");
	if (root) {
		e.nsub = (size_t)ps.nsub + 1;
		emit_program(&e, root);
		if (e.too_big) {
			ps.why = "pattern too large";
			free_prog(e.prog, e.len);
		} else {
			re->prog = e.prog;
			re->len = e.len;
			re->nsub = (size_t)ps.nsub + 1;
			ret = 0;
		}
	}
	for (size_t i = 0; i < ps.nr; i++)
		free(ps.all[i]);
	free(ps.all);
	if (ret < 0 && why)
		*why = ps.why ? ps.why : "bad pattern";
	return ret;
}

void rx_release(struct rx *re)
{
	free_prog(re->prog, re->len);
	memset(re, 0, sizeof(*re));
}

/* ---- the Pike VM ----------------------------------------------------- */

struct tlist {
	size_t n;
	size_t *pc;
	long *caps;             /* n x ncap */
};

struct vm {
	const struct rx *re;
	const char *s;
	size_t ncap;
	size_t *mark;           /* per instruction: the step that added it */
};

static bool run(const struct rx *re, const char *s, long begin, bool anchored, long *found);

/* Follow pc through the non-consuming instructions, adding threads. */
static void add_thread(struct vm *vm, struct tlist *l, size_t pc, long *caps, long pos,
		       size_t step)
{
	const struct rx_inst *in;

	if (vm->mark[pc] == step)
		return;
	vm->mark[pc] = step;
	in = &vm->re->prog[pc];
	switch (in->op) {
	case I_JMP:
		add_thread(vm, l, in->x, caps, pos, step);
		break;
	case I_SPLIT:
		add_thread(vm, l, in->x, caps, pos, step);
		add_thread(vm, l, in->y, caps, pos, step);
		break;
	case I_SAVE: {
		long old = caps[in->x];
		caps[in->x] = pos;
		add_thread(vm, l, pc + 1, caps, pos, step);
		caps[in->x] = old;
		break;
	}
	case I_BOL:
		if (pos == 0)
			add_thread(vm, l, pc + 1, caps, pos, step);
		break;
	case I_EOL:
		if (!vm->s[pos])
			add_thread(vm, l, pc + 1, caps, pos, step);
		break;
	case I_LOOK: {
		/* tried once per position (mark), each an anchored run */
		long *sub = xmalloc(in->look->nsub * 2 * sizeof(long));
		bool seen = run(in->look, vm->s, pos, true, sub);
		free(sub);
		if (seen != in->neg)
			add_thread(vm, l, pc + 1, caps, pos, step);
		break;
	}
	default:
		l->pc[l->n] = pc;
		memcpy(l->caps + l->n * vm->ncap, caps, vm->ncap * sizeof(long));
		l->n++;
		break;
	}
}

/*
 * Run re over s from position begin: a match starting anywhere from there
 * or, anchored, only at begin.  found (re->nsub * 2 slots) gets the
 * winning thread's captures.
 */
static bool run(const struct rx *re, const char *s, long begin, bool anchored, long *found)
{
	struct vm vm = { re, s, re->nsub * 2, NULL };
	struct tlist lists[2], *clist = &lists[0], *nlist = &lists[1], *t;
	long *start = xmalloc(vm.ncap * sizeof(long));
	bool matched = false;
	size_t step = 1;

	vm.mark = xcalloc(re->len, sizeof(size_t));
	for (int k = 0; k < 2; k++) {
		lists[k].n = 0;
		lists[k].pc = xmalloc(re->len * sizeof(size_t));
		lists[k].caps = xmalloc(re->len * vm.ncap * sizeof(long));
	}
	for (size_t i = 0; i < vm.ncap; i++)
		start[i] = -1;
	add_thread(&vm, clist, 0, start, begin, step);
	for (long pos = begin;; pos++) {
		unsigned char c = (unsigned char)s[pos];

		step++;
		nlist->n = 0;
		for (size_t i = 0; i < clist->n; i++) {
			const struct rx_inst *in = &re->prog[clist->pc[i]];
			long *caps = clist->caps + i * vm.ncap;
			bool ok;

			if (in->op == I_MATCH) {
				/* leftmost-first: threads after this one lose */
				memcpy(found, caps, vm.ncap * sizeof(long));
				matched = true;
				break;
			}
			ok = in->op == I_CHAR ? c == in->c : set_has(in->set, c);
			if (ok)
				add_thread(&vm, nlist, clist->pc[i] + 1, caps, pos + 1, step);
		}
		if (!c)
			break;
		/* a match may still start at the next position, behind every
		 * thread already running */
		if (!matched && !anchored)
			add_thread(&vm, nlist, 0, start, pos + 1, step);
		if (!nlist->n)
			break;
		t = clist;
		clist = nlist;
		nlist = t;
	}
	for (int k = 0; k < 2; k++) {
		free(lists[k].pc);
		free(lists[k].caps);
	}
	free(vm.mark);
	free(start);
	return matched;
}

bool rx_exec(const struct rx *re, const char *s, struct rx_sub *m, size_t nm)
{
	long *found = xmalloc(re->nsub * 2 * sizeof(long));
	bool matched = run(re, s, 0, false, found);

	if (matched)
		for (size_t i = 0; i < nm; i++) {
			bool have = i < re->nsub;
			m[i].so = have ? found[2 * i] : -1;
			m[i].eo = have ? found[2 * i + 1] : -1;
			if (m[i].so < 0 || m[i].eo < 0)
				m[i].so = m[i].eo = -1;
		}
	free(found);
	return matched;
}
