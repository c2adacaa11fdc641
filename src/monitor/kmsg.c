/*
 * kmsg.c: the kmsg monitor, the kernel log while the benchmark runs, as
 * lkp's kmsg monitor keeps it in the result root's kmsg file
 * (`dmesg --follow --decode`), and its kmsg.* and dmesg.* stats.
 *
 * /dev/kmsg is opened and put at its end (SEEK_END) when the sampler
 * starts: lkp's test box was booted for the job, so the whole log is the
 * job's, but a developer's machine has been up for days and its old
 * warnings are no commit's doing.  Each tick drains what arrived
 * (nonblocking reads, one record each); the sampler writes the lines into
 * <result>/kmsg like any raw file (temp file, fsync, rename), and after
 * the run kmsg.json (parse/monitor-kmsg.c) and, when there is no serial console
 * log (<result>/dmesg, a VM's), dmesg.json (parse/dmesg.c) from it, as
 * lkp's stats/dmesg falls back to kmsg.
 */
#include "monitor/monitor.h"
#include "parse/parser.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* util-linux's names, in syslog's numbering */
static const char *const facilities[] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "res0", "res1", "res2", "res3",
	"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
};
static const char *const levels[] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};
#define NR_FACILITIES (sizeof(facilities) / sizeof(facilities[0]))

/* A decimal field ending at one of stops; advances *p past the stop. */
static bool field_u(const char **p, const char *end, const char *stops,
		    unsigned long long *v)
{
	const char *s = *p;

	*v = 0;
	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (*v > (~0ULL - 9) / 10)
			return false;
		*v = *v * 10 + (unsigned long long)(*s - '0');
	}
	if (s >= end || !strchr(stops, *s))
		return false;
	*p = s + 1;
	return true;
}

static void add_prefix(struct strbuf *out, unsigned long long prio, unsigned long long usec)
{
	strbuf_addf(out, "%-6s:%-6s: [%5llu.%06llu] ", facilities[prio >> 3],
		    levels[prio & 7], usec / 1000000, usec % 1000000);
}

int kmsg_record_format(const char *rec, size_t len, unsigned long long *seq,
		       struct strbuf *out)
{
	const char *p = rec, *end = rec + len, *text, *nl;
	unsigned long long prio, usec;
	size_t start = out->len;

	if (!field_u(&p, end, ",", &prio) || !field_u(&p, end, ",", seq) ||
	    !field_u(&p, end, ",;", &usec) || (prio >> 3) >= NR_FACILITIES)
		return -1;
	/* flags and whatever later kernels add ("caller=T1"), up to ';' */
	if (p[-1] != ';') {
		text = memchr(p, ';', (size_t)(end - p));
		if (!text)
			return -1;
		p = text + 1;
	}
	/* the text ends at the first newline; a record without one was
	 * cut short */
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return -1;
	add_prefix(out, prio, usec);
	for (const char *s = p; s < nl;) {
		const char *esc = memmem(s, (size_t)(nl - s), "\\x0a", 4);
		const char *stop = esc ? esc : nl;

		strbuf_add(out, s, (size_t)(stop - s));
		strbuf_addch(out, '\n');
		if (!esc)
			break;
		s = esc + 4;
		if (s < nl)
			add_prefix(out, prio, usec);
	}
	if (out->len == start || out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	return 0;
}

int kmsg_drain(struct kmsg_reader *r, struct strbuf *out)
{
	for (;;) {
		long n = r->read(r->fd, r->buf, sizeof(r->buf));
		unsigned long long seq;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			if (errno == EPIPE) {
				/* the next read goes on with the oldest record
				 * left; the gap in seq says how many went */
				r->overruns++;
				continue;
			}
			if (!r->read_errno)
				r->read_errno = errno;
			return -1;
		}
		if (n == 0)
			return 0;
		if (kmsg_record_format(r->buf, (size_t)n, &seq, out) < 0) {
			r->malformed++;
			continue;
		}
		if (r->have_seq && seq > r->next_seq)
			r->lost += seq - r->next_seq;
		r->have_seq = true;
		r->next_seq = seq + 1;
	}
}

/* ---- the monitor ---- */

static long read_fd(int fd, void *buf, unsigned long len)
{
	return (long)read(fd, buf, len);
}

/* root_readable's check, but nonblocking: a FIFO there (a test's made-up
 * tree) must not hang the run */
static bool kmsg_available(const char *root, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	root_path(&path, root, "/dev/kmsg");
	fd = open(path.buf, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		strbuf_addf(why, "cannot read '%s': %s", path.buf, strerror(errno));
	else
		close(fd);
	strbuf_release(&path);
	return fd >= 0;
}

static int kmsg_start(void *state, const char *root)
{
	struct kmsg_reader *r = state;
	struct strbuf path = STRBUF_INIT;

	root_path(&path, root, "/dev/kmsg");
	r->read = read_fd;
	r->fd = open(path.buf, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0 || lseek(r->fd, 0, SEEK_END) < 0) {
		error("cannot read '%s': %s", path.buf, strerror(errno));
		if (r->fd >= 0)
			close(r->fd);
		r->fd = -1;
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&path);
	return 0;
}

/* Never fails: what was read before an error must reach the raw file. */
static int kmsg_sample(void *state, const struct strbuf *const *text, int nr,
		       const struct timespec *now, struct strbuf *raw)
{
	kmsg_drain(state, raw);
	return 0;
}

static void kmsg_release(void *state)
{
	struct kmsg_reader *r = state;

	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->lost)
		warning("kmsg: the kernel overwrote %lu records before they were read", r->lost);
	else if (r->overruns)
		warning("kmsg: the kernel overwrote records before they were read (%lu times)",
			r->overruns);
	if (r->malformed)
		warning("kmsg: %lu records of /dev/kmsg were not 'prio,seq,usec,flags;text'",
			r->malformed);
	if (r->read_errno)
		warning("kmsg: cannot read /dev/kmsg: %s", strerror(r->read_errno));
}

static int parse_with(const char *parser, const char *buf, size_t len, const char *name,
		      struct strbuf *out)
{
	const struct parser *p = parser_find(parser);
	struct parse_input in = { buf, len, name, NULL };

	return p->parse(&in, out);
}

static int kmsg_parse_raw(const struct monitor *m, const char *buf, size_t len,
			  const char *name, stats_sink_fn sink, void *ctx)
{
	struct strbuf out = STRBUF_INIT;
	int ret = parse_with("kmsg", buf, len, name, &out);

	if (!ret && out.len)
		ret = sink(ctx, out.buf, out.len);
	strbuf_release(&out);
	return ret;
}

/* dmesg.json from the kmsg file, unless a serial console's log is there;
 * read and written through the run dir's fd */
static int kmsg_finish(const struct monitor *m, const struct held_dir *dir)
{
	struct strbuf path = STRBUF_INIT, raw = STRBUF_INIT, lines = STRBUF_INIT,
		json = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (fstatat(dir->fd, "dmesg", &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    (fstatat(dir->fd, "kmsg", &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT))
		goto out;
	path_join(&path, dir->path, "kmsg");
	if (held_dir_read(dir, "kmsg", &raw, FILE_TEXT_MAX) < 0 ||
	    parse_with("dmesg", raw.buf, raw.len, path.buf, &lines) < 0 ||
	    (ret = monitor_stats_to_json("dmesg", lines.buf, lines.len, &json)) < 0) {
		ret = -1;
		goto out;
	}
	if (ret > 0)
		ret = held_dir_write(dir, "dmesg.json", json.buf, json.len);
out:
	strbuf_release(&path);
	strbuf_release(&raw);
	strbuf_release(&lines);
	strbuf_release(&json);
	return ret < 0 ? -1 : 0;
}

const struct monitor monitor_kmsg = {
	.name = "kmsg",
	.files = "/dev/kmsg",
	.flags = MONITOR_DEFAULT | MONITOR_STREAM,
	.available = kmsg_available,
	.sample = kmsg_sample,
	.sample_state_size = sizeof(struct kmsg_reader),
	.start = kmsg_start,
	.release = kmsg_release,
	.parse_raw = kmsg_parse_raw,
	.finish = kmsg_finish,
};
