/*
 * dmesg.c: lkp's dmesg.* stats of a kernel log (see dmesg.h).
 *
 * An error id is made in two steps, as lkp names them.  First the head:
 * which part of the message names the error (for "WARNING: CPU: 0 PID: 1
 * at mm/vmscan.c:1234 shrink+0x1/0x2" it is "WARNING: at mm/vmscan.c:1234
 * shrink+0x1/0x2"; for "BUG: unable to handle page fault for address: X"
 * only "BUG: unable to handle kernel"-like prefixes that lkp keeps short).
 * Then the generic rewrite, a fixed sequence of passes, each a pass over
 * the whole string as Ruby's gsub is: hex words and offsets go, numbers
 * become '#', blanks next to punctuation go, the others become '_'.  The
 * passes treat "\b" as Ruby does, between a word byte ([A-Za-z0-9_]) and
 * a non-word byte or an end.
 */
#include "parse/dmesg.h"
#include "parse/parse_util.h"
#include "util/rx.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double kmsg_stamp(const char *line, size_t len, size_t *msg_off)
{
	size_t i = 0;
	char *end;
	double t;

	*msg_off = 0;
	/* "<4>" printk level of raw kmsg */
	if (len > 2 && line[0] == '<' && isdigit((unsigned char)line[1]) && line[2] == '>')
		i = 3;
	/* "kern  :warn  : " of `dmesg --decode` (lkp's kmsg file) */
	else if (len > 15 && line[6] == ':' && line[13] == ':' && line[14] == ' ' &&
		 isalpha((unsigned char)line[0]))
		i = 15;
	if (i >= len || line[i] != '[')
		return -1;
	i++;
	while (i < len && line[i] == ' ')
		i++;
	if (i >= len || !isdigit((unsigned char)line[i]))
		return -1;
	t = strtod(line + i, &end);
	i = (size_t)(end - line);
	if (i >= len || line[i] != ']')
		return -1;
	i++;
	/* CONFIG_PRINTK_CALLER: "[    T1] " or "[    C0] " */
	size_t j = i;
	while (j < len && line[j] == ' ')
		j++;
	if (j + 2 < len && line[j] == '[') {
		size_t k = j + 1;
		while (k < len && line[k] == ' ')
			k++;
		if (k < len && (line[k] == 'T' || line[k] == 'C')) {
			size_t d = k + 1;
			while (d < len && isdigit((unsigned char)line[d]))
				d++;
			if (d > k + 1 && d < len && line[d] == ']')
				i = d + 1;
		}
	}
	while (i < len && line[i] == ' ')
		i++;
	*msg_off = i;
	return t;
}

/* ---- the generic rewrite ------------------------------------------------ */

static bool is_w(int c)
{
	return isalnum(c) || c == '_';
}

static bool is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* \b before position i of s */
static bool bound_before(const char *s, size_t i)
{
	return i == 0 || !is_w((unsigned char)s[i - 1]);
}

/* \b after a word byte ending at position i (exclusive) */
static bool bound_after(const char *s, size_t len, size_t i)
{
	return i >= len || !is_w((unsigned char)s[i]);
}

static size_t hex_run(const char *s, size_t len, size_t i)
{
	size_t j = i;
	while (j < len && is_hex((unsigned char)s[j]))
		j++;
	return j - i;
}

/* One rewrite pass: at each position, rule() may consume n bytes
 * (returning n > 0) after appending their replacement to out. */
typedef size_t (*rule_fn)(const char *s, size_t len, size_t i, struct strbuf *out);

static void pass(struct strbuf *sb, rule_fn rule)
{
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < sb->len;) {
		size_t n = rule(sb->buf, sb->len, i, &out);
		if (n) {
			i += n;
		} else {
			strbuf_addch(&out, sb->buf[i]);
			i++;
		}
	}
	strbuf_release(sb);
	*sb = out;
}

/* \b[0-9a-f]{8}\b and \b[0-9a-f]{16}\b -> '#' */
static size_t r_hex_words(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t n = hex_run(s, len, i);
	if ((n == 8 || n == 16) && bound_before(s, i) && bound_after(s, len, i + n)) {
		strbuf_addch(out, '#');
		return n;
	}
	return 0;
}

/* (=)[0-9a-f]+\b -> "=#" */
static size_t r_eq_hex(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t n;
	if (s[i] != '=' || !(n = hex_run(s, len, i + 1)) || !bound_after(s, len, i + 1 + n))
		return 0;
	strbuf_addstr(out, "=#");
	return 1 + n;
}

/* [+/]0x[0-9a-f]+\b -> "" (symbol offsets "+0x1f/0x40") */
static size_t r_offset_0x(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t n;
	(void)out;
	if ((s[i] != '+' && s[i] != '/') || i + 2 >= len || s[i + 1] != '0' || s[i + 2] != 'x' ||
	    !(n = hex_run(s, len, i + 3)) || !bound_after(s, len, i + 3 + n))
		return 0;
	return 3 + n;
}

/* [+/][0-9a-f]+\b -> "" */
static size_t r_offset(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t n;
	(void)out;
	if ((s[i] != '+' && s[i] != '/') || !(n = hex_run(s, len, i + 1)) ||
	    !bound_after(s, len, i + 1 + n))
		return 0;
	return 1 + n;
}

/* \b[3-9]\.[0-9]+[-a-z0-9.]+ -> '#' (a kernel version) */
static size_t r_version(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t j;
	if (!bound_before(s, i) || s[i] < '3' || s[i] > '9' || i + 3 >= len || s[i + 1] != '.' ||
	    !isdigit((unsigned char)s[i + 2]))
		return 0;
	for (j = i + 2; j < len && (s[j] == '-' || s[j] == '.' || islower((unsigned char)s[j]) ||
				    isdigit((unsigned char)s[j])); j++)
		;
	if (j - (i + 2) < 2)
		return 0;
	strbuf_addch(out, '#');
	return j - i;
}

/* \b0x[0-9a-f]+\b -> '#' */
static size_t r_0x(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t n;
	if (!bound_before(s, i) || s[i] != '0' || i + 1 >= len || s[i + 1] != 'x' ||
	    !(n = hex_run(s, len, i + 2)) || !bound_after(s, len, i + 2 + n))
		return 0;
	strbuf_addch(out, '#');
	return 2 + n;
}

/* \b[a-f0-9]{40}\b -> '#' (a sha) */
static size_t r_sha(const char *s, size_t len, size_t i, struct strbuf *out)
{
	if (!bound_before(s, i) || hex_run(s, len, i) < 40 || !bound_after(s, len, i + 40))
		return 0;
	strbuf_addch(out, '#');
	return 40;
}

/* \b[0-9][0-9.]* -> '#' */
static size_t r_number(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t j = i;
	if (!bound_before(s, i) || !isdigit((unsigned char)s[i]))
		return 0;
	while (j < len && (isdigit((unsigned char)s[j]) || s[j] == '.'))
		j++;
	strbuf_addch(out, '#');
	return j - i;
}

/* #x\b -> "0x" (what the number pass made of a bare "0x") */
static size_t r_hash_x(const char *s, size_t len, size_t i, struct strbuf *out)
{
	if (s[i] != '#' || i + 1 >= len || s[i + 1] != 'x' || !bound_after(s, len, i + 2))
		return 0;
	strbuf_addstr(out, "0x");
	return 2;
}

/* [\\"$] -> '~', blanks folded to one space */
static size_t r_chars(const char *s, size_t len, size_t i, struct strbuf *out)
{
	if (s[i] == '\\' || s[i] == '"' || s[i] == '$') {
		strbuf_addch(out, '~');
		return 1;
	}
	if (s[i] == ' ' || s[i] == '\t') {
		size_t j = i;
		while (j < len && (s[j] == ' ' || s[j] == '\t'))
			j++;
		strbuf_addch(out, ' ');
		return j - i;
	}
	return 0;
}

/* ([^a-zA-Z0-9])\ -> \1 */
static size_t r_space_after_punct(const char *s, size_t len, size_t i, struct strbuf *out)
{
	if (isalnum((unsigned char)s[i]) || i + 1 >= len || s[i + 1] != ' ')
		return 0;
	strbuf_addch(out, s[i]);
	return 2;
}

/* \ ([^a-zA-Z]) -> \1 */
static size_t r_space_before_nonletter(const char *s, size_t len, size_t i, struct strbuf *out)
{
	if (s[i] != ' ' || i + 1 >= len || isalpha((unsigned char)s[i + 1]))
		return 0;
	strbuf_addch(out, s[i + 1]);
	return 2;
}

/* ([a-z]:)[0-9]+\b -> \1 (a line number after a file name) */
static size_t r_line_no(const char *s, size_t len, size_t i, struct strbuf *out)
{
	size_t j;
	if (!islower((unsigned char)s[i]) || i + 2 >= len || s[i + 1] != ':' || !isdigit((unsigned char)s[i + 2]))
		return 0;
	for (j = i + 2; j < len && isdigit((unsigned char)s[j]); j++)
		;
	if (!bound_after(s, len, j))
		return 0;
	strbuf_add(out, s + i, 2);
	return j - i;
}

static void replace_all(struct strbuf *sb, const char *from, const char *to)
{
	struct strbuf out = STRBUF_INIT;
	size_t fl = strlen(from);
	const char *p = sb->buf, *hit;

	while ((hit = strstr(p, from))) {
		strbuf_add(&out, p, (size_t)(hit - p));
		strbuf_addstr(&out, to);
		p = hit + fl;
	}
	strbuf_addstr(&out, p);
	strbuf_release(sb);
	*sb = out;
}

/* \.(isra|constprop|part)\.[0-9]+ -> "": compiler clones are one function */
static size_t r_clone_suffix(const char *s, size_t len, size_t i, struct strbuf *out)
{
	static const char *const kinds[] = { ".isra.", ".constprop.", ".part.", NULL };
	(void)out;
	for (int k = 0; kinds[k]; k++) {
		size_t n = strlen(kinds[k]), j;
		if (len - i <= n || strncmp(s + i, kinds[k], n) || !isdigit((unsigned char)s[i + n]))
			continue;
		for (j = i + n; j < len && isdigit((unsigned char)s[j]); j++)
			;
		return j - i;
	}
	return 0;
}

/* lkp's generate_error_id, then common_error_id, on sb */
static void generic_id(struct strbuf *sb)
{
	char *t;

	pass(sb, r_clone_suffix);

	/* " (Tainted: G        W   ): " names the kernel, not the error */
	if ((t = strstr(sb->buf, " (Tainted:"))) {
		char *close = strrchr(t, ')');
		if (close) {
			memmove(t, close + 1, strlen(close + 1) + 1);
			strbuf_setlen(sb, strlen(sb->buf));
		}
	}
	if (sb->len > 2 && !strcmp(sb->buf + sb->len - 2, " ]"))
		strbuf_setlen(sb, sb->len - 2);
	pass(sb, r_hex_words);
	pass(sb, r_eq_hex);
	pass(sb, r_offset_0x);
	pass(sb, r_offset);
	pass(sb, r_version);
	pass(sb, r_0x);
	pass(sb, r_sha);
	pass(sb, r_number);
	pass(sb, r_hash_x);
	pass(sb, r_chars);
	pass(sb, r_space_after_punct);
	pass(sb, r_space_before_nonletter);
	if (sb->len && sb->buf[0] == ' ') {
		memmove(sb->buf, sb->buf + 1, sb->len);
		strbuf_setlen(sb, sb->len - 1);
	}
	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] == ' ')
			sb->buf[i] = '_';
	while (sb->len && strchr("-_.,;:#!*[(", sb->buf[sb->len - 1]))
		strbuf_setlen(sb, sb->len - 1);
	pass(sb, r_line_no);
	replace_all(sb, "#:[<#>][<#>]", "");
	replace_all(sb, "RIP:#:", "RIP:");
}

/* ---- the heads ------------------------------------------------------------ */

/* The first match of re in s (util/rx.h: linear, whatever the console
 * printed) into *so, *eo. */
static bool re_find(const char *re, const char *s, size_t *so, size_t *eo)
{
	struct rx rx;
	struct rx_sub m[1];
	const char *why;
	bool found;

	if (rx_compile(&rx, re, &why) < 0)
		return false;
	found = rx_exec(&rx, s, m, 1);
	if (found) {
		*so = (size_t)m[0].so;
		*eo = (size_t)m[0].eo;
	}
	rx_release(&rx);
	return found;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * The head of an error message, into head; false for an ordinary line.
 * msg has lkp's preprocessing done: no leading non-letters.
 */
static bool error_head(const char *msg, struct strbuf *head)
{
	size_t so, eo;
	const char *p;

	/* "Oops: 0002 [#1] SMP", "invalid opcode: 0000 [#1]": lkp keeps the
	 * part up to the oops count, whatever comes before or after it */
	if (strstr(msg, " [#") && re_find("[a-zA-Z0-9_ #]+: [0-9a-f]{4} \\[#[0-9]+\\]", msg, &so, &eo)) {
		while (so < eo && !isalpha((unsigned char)msg[so]))
			so++;
		strbuf_add(head, msg + so, eo - so);
		return true;
	}
	if (starts(msg, "WARNING: ")) {
		/* "WARNING: CPU: 0 PID: 1 at FILE:LINE FUNC+0x1/0x2": where, not who */
		if ((p = strstr(msg, " at ")) && strstr(p, "+0x"))
			strbuf_addf(head, "WARNING: %s", p + 1);
		else
			strbuf_addstr(head, msg);
		return true;
	}
	if (starts(msg, "BUG")) {
		static const char *const short_heads[] = {
			"BUG: unable to handle kernel", "BUG: scheduling while atomic:",
			"BUG: Bad page map in process", "BUG: Bad page state in process",
			"BUG: Bad page cache in process", "BUG: workqueue lockup - pool",
			"BUG: workqueue leaked lock or atomic:", "BUG: using __this_cpu_read() in preemptible",
			NULL
		};
		for (int i = 0; short_heads[i]; i++)
			if (starts(msg, short_heads[i])) {
				strbuf_addstr(head, short_heads[i]);
				return true;
			}
		if (re_find("^BUG: (KASAN|KFENCE): [a-z_ -]+ in [a-z_]+", msg, &so, &eo)) {
			strbuf_add(head, msg, eo);
			return true;
		}
		if (starts(msg, "BUG: ") && strstr(msg, " still has locks held")) {
			strbuf_addstr(head, "BUG: still has locks held");
			return true;
		}
		if (starts(msg, "BUG: ") || re_find("^BUG [^ ]+ \\(.*\\): ", msg, &so, &eo)) {
			strbuf_addstr(head, msg);
			return true;
		}
		return false;
	}
	if (starts(msg, "kernel BUG at ") || starts(msg, "RIP: ") || starts(msg, "UBSAN: ") ||
	    starts(msg, "Mem-Info:")) {
		strbuf_addstr(head, msg);
		return true;
	}
	if ((p = strstr(msg, "Kernel panic - not syncing: "))) {
		const char *noinit[] = { "No working init found.", "No init found.", NULL };
		for (int i = 0; noinit[i]; i++)
			if (strstr(p, noinit[i])) {
				strbuf_addf(head, "Kernel panic - not syncing: %s", noinit[i]);
				return true;
			}
		strbuf_addstr(head, p);
		/* "---[ end Kernel panic - not syncing: X ]---" */
		if (head->len > 5 && !strcmp(head->buf + head->len - 5, " ]---"))
			strbuf_setlen(head, head->len - 5);
		return true;
	}
	if (starts(msg, "INFO: task ") && re_find("blocked for more than [0-9]+ seconds", msg, &so, &eo)) {
		strbuf_addstr(head, "INFO: task ");
		strbuf_add(head, msg + so, eo - so);
		return true;
	}
	if (starts(msg, "INFO: rcu") &&
	    re_find("^INFO: rcu[_a-z]* (self-detected stall on CPU|detected stalls on CPUs/tasks:)", msg, &so, &eo)) {
		strbuf_add(head, msg, eo);
		return true;
	}
	if (strstr(msg, "invoked oom-killer: gfp_mask=0x")) {
		strbuf_addstr(head, "invoked oom-killer: gfp_mask=0x");
		return true;
	}
	if (strstr(msg, "page allocation failure: ") &&
	    re_find("page allocation failure: order:[0-9]+, mode:0x[0-9a-f]+(\\([^)]*\\))?", msg, &so, &eo)) {
		strbuf_add(head, msg + so, eo - so);
		return true;
	}
	if (starts(msg, "Out of memory: Kill") || starts(msg, "Out of memory and no killable processes")) {
		strbuf_addstr(head, starts(msg, "Out of memory: Killed") ? "Out of memory: Killed process" :
			      starts(msg, "Out of memory: Kill") ? "Out of memory: Kill process" :
			      "Out of memory and no killable processes");
		return true;
	}
	return false;
}

int dmesg_error_id(const char *msg, size_t len, struct strbuf *id)
{
	struct strbuf m = STRBUF_INIT, head = STRBUF_INIT;
	int ret = 0;

	/* lkp skips lines with control bytes (binary noise on a console) */
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)msg[i] < 0x20 && msg[i] != '\t')
			return 0;
	/* lkp's preprocessing: the text from the first letter on */
	while (len && !isalpha((unsigned char)*msg))
		msg++, len--;
	strbuf_add(&m, msg, len);
	strbuf_rtrim(&m);
	if (error_head(m.buf, &head)) {
		generic_id(&head);
		/* lkp drops ids of three bytes or fewer */
		if (head.len > 3) {
			strbuf_add(id, head.buf, head.len);
			ret = 1;
		}
	}
	strbuf_release(&m);
	strbuf_release(&head);
	return ret;
}

int kmsg_error_id(const char *msg, size_t len, struct strbuf *id)
{
	struct strbuf m = STRBUF_INIT, head = STRBUF_INIT;
	size_t so, eo;
	int ret = 0;

	for (size_t i = 0; i < len; i++)
		if ((unsigned char)msg[i] < 0x20 && msg[i] != '\t')
			return 0;
	/* print_hex_dump rows name no error */
	strbuf_addch(&m, ' ');
	strbuf_add(&m, msg, len);
	strbuf_rtrim(&m);
	if (re_find("( [0-9a-f]{2}){16}", m.buf, &so, &eo) ||
	    re_find("^ *( [0-9a-f]{4}){8}$", m.buf, &so, &eo) ||
	    re_find("^ *( [0-9a-f]{8}){4}$", m.buf, &so, &eo))
		goto out;
	strbuf_reset(&m);
	while (len && !isalpha((unsigned char)*msg))
		msg++, len--;
	strbuf_add(&m, msg, len);
	strbuf_rtrim(&m);
	if (strstr(m.buf, "segfault at ") &&
	    re_find("segfault at .* ip .* sp .* error", m.buf, &so, &eo))
		strbuf_addstr(&head, "segfault at ip sp error");
	else if (!error_head(m.buf, &head))
		strbuf_add(&head, m.buf, m.len);
	generic_id(&head);
	if (head.len > 3) {
		strbuf_add(id, head.buf, head.len);
		ret = 1;
	}
out:
	strbuf_release(&m);
	strbuf_release(&head);
	return ret;
}

/* ---- the parser ------------------------------------------------------------ */

void log_errors_add(struct log_errors *le, const char *id, double stamp)
{
	for (size_t i = 0; i < le->nr; i++)
		if (!strcmp(le->e[i].id, id))
			return;         /* each error counts once per boot, as in lkp */
	ALLOC_GROW(le->e, le->nr + 1, le->alloc);
	le->e[le->nr].id = xstrdup(id);
	le->e[le->nr++].stamp = stamp;
}

void log_errors_print(struct log_errors *le, struct strbuf *out)
{
	for (size_t i = 0; i < le->nr; i++)
		strbuf_addf(out, "%s: 1\n", le->e[i].id);
	if (le->last >= 0)
		strbuf_addf(out, "timestamp:last: %.6f\n", le->last);
	for (size_t i = 0; i < le->nr; i++) {
		if (le->e[i].stamp >= 0)
			strbuf_addf(out, "timestamp:%s: %.6f\n", le->e[i].id, le->e[i].stamp);
		free(le->e[i].id);
	}
	free(le->e);
	le->e = NULL;
	le->nr = le->alloc = 0;
}

static int parse_dmesg(const struct parse_input *in, struct strbuf *out)
{
	struct log_errors errs = LOG_ERRORS_INIT;
	struct line_iter it;
	struct line l;
	struct strbuf id = STRBUF_INIT;

	line_iter_init(&it, in->buf, in->len);
	while (line_next(&it, &l)) {
		size_t off;
		line_chomp(&l);
		double t = kmsg_stamp(l.s, l.len, &off);
		if (t >= 0)
			errs.last = t;
		strbuf_reset(&id);
		if (dmesg_error_id(l.s + off, l.len - off, &id))
			log_errors_add(&errs, id.buf, t);
	}
	if (errs.nr)
		strbuf_addstr(out, "boot_failures: 1\n");
	log_errors_print(&errs, out);
	strbuf_release(&id);
	return 0;
}

const struct parser parser_dmesg = { "dmesg", parse_dmesg, NULL };
