/*
 * mail.c: the message perfbot watch pipes to --mail-cmd (see watch.h):
 * headers folded at 78 columns (RFC 5322 2.2.3), the subject in the 0-day
 * robot's form, and the In-Reply-To that threads the report under the
 * patch it blames.
 */
#include "watch/watch.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define FOLD_AT 78

/*
 * "Name: value" folded before whitespace so that no line passes FOLD_AT
 * where a fold is possible; a word longer than a line stays whole.
 */
static void header(struct strbuf *out, const char *name, const char *value)
{
	struct strbuf line = STRBUF_INIT;
	const char *p = value;

	strbuf_addf(&line, "%s:", name);
	while (*p) {
		const char *ws = p, *w;
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			break;
		for (w = p; *w && *w != ' ' && *w != '\t' && *w != '\r' && *w != '\n'; w++)
			;
		/* the first word always joins "Name:"; later ones fold when
		 * the line would grow past the limit */
		if (ws != value && line.len + 1 + (size_t)(w - p) > FOLD_AT &&
		    line.len > strlen(name) + 1) {
			strbuf_add(out, line.buf, line.len);
			strbuf_addch(out, '\n');
			strbuf_reset(&line);
		}
		strbuf_addch(&line, ' ');
		strbuf_add(&line, p, (size_t)(w - p));
		p = w;
	}
	strbuf_add(out, line.buf, line.len);
	strbuf_addch(out, '\n');
	strbuf_release(&line);
}

void watch_mail_compose(const struct watch_mail *m, const char *body, struct strbuf *out)
{
	size_t len = strlen(body);

	header(out, "From", m->from);
	header(out, "To", m->to);
	header(out, "Subject", m->subject);
	if (m->date)
		header(out, "Date", m->date);
	header(out, "Message-Id", m->message_id);
	if (m->in_reply_to && *m->in_reply_to) {
		header(out, "In-Reply-To", m->in_reply_to);
		header(out, "References", m->in_reply_to);
	}
	strbuf_addstr(out, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n"
		      "\n");
	strbuf_add(out, body, len);
	if (len && body[len - 1] != '\n')
		strbuf_addch(out, '\n');
}

/* RFC 5322 atext, with UTF-8 bytes (RFC 6532) and the blank of a phrase */
static int phrase_char(unsigned char c)
{
	return isalnum(c) || c >= 0x80 || c == ' ' || strchr("!#$%&'*+-/=?^_`{|}~", c);
}

int watch_mail_mailbox(const char *name, const char *addr, struct strbuf *out)
{
	const unsigned char *p;
	int quote = 0, at = 0;

	if (!*addr)
		return -1;
	for (p = (const unsigned char *)addr; *p; p++) {
		if (*p <= ' ' || *p == 0x7f || strchr("<>()[],;:\\\"", *p))
			return -1;
		at += *p == '@';
	}
	if (at != 1 || *addr == '@' || addr[strlen(addr) - 1] == '@')
		return -1;
	for (p = (const unsigned char *)name; *p; p++)
		quote |= !phrase_char(*p);
	if (*name) {
		if (quote)
			strbuf_addch(out, '"');
		for (p = (const unsigned char *)name; *p; p++) {
			if (*p < ' ' || *p == 0x7f)
				strbuf_addch(out, ' ');
			else {
				if (*p == '"' || *p == '\\')
					strbuf_addch(out, '\\');
				strbuf_addch(out, (char)*p);
			}
		}
		if (quote)
			strbuf_addch(out, '"');
		strbuf_addch(out, ' ');
	}
	strbuf_addf(out, "<%s>", addr);
	return 0;
}

/* Does line (up to end) start with the trailer key (case-insensitive)?
 * Returns its value, past ':' and blanks, or NULL. */
static const char *trailer(const char *line, const char *end, const char *key)
{
	size_t n = strlen(key);

	if ((size_t)(end - line) <= n || strncasecmp(line, key, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (line < end && (*line == ' ' || *line == '\t'))
		line++;
	return line;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

/* The message id in a Link: URL to one of the archives that keep them, or
 * 0.  The id is the path component after the prefix, %-decoded. */
static int link_id(const char *v, const char *end, struct strbuf *id)
{
	static const char *const prefixes[] = {
		"https://lore.kernel.org/r/", "http://lore.kernel.org/r/",
		"https://patch.msgid.link/", "http://patch.msgid.link/",
	};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		size_t n = strlen(prefixes[i]);
		const char *p;

		if ((size_t)(end - v) <= n || strncmp(v, prefixes[i], n))
			continue;
		strbuf_reset(id);
		for (p = v + n; p < end && *p != '/' && *p != ' ' && *p != '\t' && *p != '?' &&
			     *p != '#' && *p != '>'; p++) {
			if (*p == '%' && end - p > 2 && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
				strbuf_addch(id, hexval(p[1]) * 16 + hexval(p[2]));
				p += 2;
			} else {
				strbuf_addch(id, *p);
			}
		}
		return id->len > 0 && strchr(id->buf, '@') != NULL;
	}
	return 0;
}

int watch_patch_message_id(const char *msg, struct strbuf *out)
{
	struct strbuf link = STRBUF_INIT, mid = STRBUF_INIT;
	const char *line = msg;

	/* a Message-Id: trailer names the patch itself; of the Link:s the
	 * last is the one `b4 am` adds on applying it */
	while (*line) {
		const char *end = strchrnul(line, '\n'), *v;
		struct strbuf id = STRBUF_INIT;

		if ((v = trailer(line, end, "Message-Id")) && !mid.len) {
			const char *a = v, *b = end;
			while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
				b--;
			if (a < b && *a == '<')
				a++;
			if (b > a && b[-1] == '>')
				b--;
			if (b > a && memchr(a, '@', (size_t)(b - a)))
				strbuf_add(&mid, a, (size_t)(b - a));
		} else if ((v = trailer(line, end, "Link")) && link_id(v, end, &id)) {
			strbuf_reset(&link);
			strbuf_add(&link, id.buf, id.len);
		}
		strbuf_release(&id);
		line = *end ? end + 1 : end;
	}
	const struct strbuf *got = mid.len ? &mid : &link;
	int found = got->len > 0;
	if (found)
		strbuf_addf(out, "<%s>", got->buf);
	strbuf_release(&link);
	strbuf_release(&mid);
	return found;
}

void watch_mail_subject(const char *sha, const char *subject, const char *metric,
			double change_pct, struct strbuf *out)
{
	const char *colon = subject ? strstr(subject, ": ") : NULL;

	/* "mm/vmscan: ..." gives [mm/vmscan]; a prefix with a blank in it
	 * is prose ("Revert "x: y""), not an area */
	if (colon && colon > subject && !memchr(subject, ' ', (size_t)(colon - subject)))
		strbuf_addf(out, "[%.*s] ", (int)(colon - subject), subject);
	strbuf_addf(out, "%.10s: %s %+.1f%% regression", sha, metric, change_pct);
}
