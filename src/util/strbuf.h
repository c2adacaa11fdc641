#ifndef PERFBOT_STRBUF_H
#define PERFBOT_STRBUF_H
/*
 * strbuf: a growable, always NUL-terminated byte buffer.
 *
 * Invariants: sb->buf is never NULL after strbuf_init (it points at a static
 * empty string until the first growth), sb->buf[sb->len] == '\0', and
 * sb->len < sb->alloc whenever sb->alloc != 0.  Allocation failure aborts
 * through xmalloc (see xalloc.h): a caller never sees a half-grown buffer.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the storage and reset to STRBUF_INIT. */
void strbuf_release(struct strbuf *sb);
/* Return the buffer and reset sb; you now own the storage (free() it). */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Make room for extra more bytes beyond len. */
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

/*
 * Append len bytes of data; data may be NULL when len is 0.  strbuf_add
 * and strbuf_addch are inline when there is room: the JSON writer and
 * reader call them for every name and number (a tenth of unite's time at
 * 30,000 metrics went to the calls and their checks).
 */
void strbuf_add_slow(struct strbuf *sb, const void *data, size_t len);
static inline void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (len && sb->alloc - sb->len > len) {
		memcpy(sb->buf + sb->len, data, len);
		sb->len += len;
		sb->buf[sb->len] = '\0';
	} else {
		strbuf_add_slow(sb, data, len);
	}
}
void strbuf_addstr(struct strbuf *sb, const char *s);
static inline void strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->alloc - sb->len > 1) {
		sb->buf[sb->len++] = (char)c;
		sb->buf[sb->len] = '\0';
	} else {
		strbuf_add_slow(sb, &(char){ (char)c }, 1);
	}
}
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
/*
 * Append v in decimal, right-aligned in width columns (as "%*llu").  For
 * hot paths such as the sampler's: printf's machinery is a lot of code to
 * bring back into a cold cache once a second.
 */
void strbuf_addu(struct strbuf *sb, unsigned long long v, int width);
__attribute__((format(printf, 2, 3)))
void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Remove trailing whitespace. */
void strbuf_rtrim(struct strbuf *sb);

/* Does s end with suffix?  (A C-string helper that every layer needs.) */
bool ends_with(const char *s, const char *suffix);

#endif
