/*
 * serial.c: what a boot's serial console says happened (see serial.h).
 */
#include "kernel/serial.h"
#include "parse/dmesg.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/lines.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read up to n bytes (all, short only at the end); -1 on an error. */
static ssize_t read_upto(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

long long serial_read_kept(int fd, const char *what, size_t head, size_t tail,
			   struct strbuf *out)
{
	char *ring = xmalloc(tail + 1), chunk[65536];
	unsigned long long skipped = 0, rlen = 0;   /* bytes through the ring */
	size_t start = out->len;
	struct stat st;
	ssize_t n;

	strbuf_grow(out, head);
	n = read_upto(fd, out->buf + out->len, head);
	if (n < 0)
		goto fail;
	out->len += (size_t)n;
	out->buf[out->len] = '\0';
	/* a file's middle: not read at all */
	if ((size_t)n == head && !fstat(fd, &st) && S_ISREG(st.st_mode)) {
		off_t pos = lseek(fd, 0, SEEK_CUR);
		if (pos >= 0 && st.st_size - pos > (off_t)tail &&
		    lseek(fd, st.st_size - (off_t)tail, SEEK_SET) >= 0)
			skipped = (unsigned long long)(st.st_size - (off_t)tail - pos);
	}
	while ((size_t)n == head) {
		ssize_t got = read_upto(fd, chunk, sizeof(chunk));
		if (got < 0)
			goto fail;
		if (!got)
			break;
		for (ssize_t i = 0; i < got; i++)
			ring[(rlen + (unsigned long long)i) % tail] = chunk[i];
		rlen += (unsigned long long)got;
	}
	if (rlen > tail)
		skipped += rlen - tail;
	if (skipped)
		strbuf_addf(out, "\n[perfbot: %llu bytes of %s left out here: more than the first "
			    "%zu and the last %zu bytes are not kept]\n", skipped, what, head, tail);
	if (rlen > tail) {
		size_t w = (size_t)(rlen % tail);
		strbuf_add(out, ring + w, tail - w);
		strbuf_add(out, ring, w);
	} else {
		strbuf_add(out, ring, (size_t)rlen);
	}
	free(ring);
	return (long long)skipped;
fail:
	free(ring);
	out->len = start;
	out->buf[start] = '\0';
	return error("cannot read %s: %s", what, strerror(errno));
}

int serial_read_console(const char *path, struct strbuf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long long cut;

	if (fd < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	cut = serial_read_kept(fd, path, SERIAL_KEEP_HEAD, SERIAL_KEEP_TAIL, out);
	close(fd);
	if (cut < 0)
		return -1;
	if (cut) {
		warning("%s: the guest's console wrote %llu bytes more than the first %u and "
			"the last %u kept", path, (unsigned long long)cut, SERIAL_KEEP_HEAD,
			SERIAL_KEEP_TAIL);
		return write_file_atomic(path, out->buf, out->len);
	}
	return 0;
}

void boot_report_release(struct boot_report *r)
{
	strbuf_release(&r->reason);
}

const char *boot_state_name(enum boot_state s)
{
	static const char *const names[] = {
		[BOOT_OK] = "ok", [BOOT_PANIC] = "panic", [BOOT_NO_INIT] = "no-init",
		[BOOT_EARLY_HANG] = "early-boot-hang", [BOOT_HANG] = "boot-hang",
		[BOOT_JOB_TIMEOUT] = "timeout", [BOOT_CRASH] = "crash", [BOOT_NO_RESULTS] = "no-results",
	};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

const char *boot_failure_line(enum boot_state s)
{
	switch (s) {
	case BOOT_EARLY_HANG: return "BUG: kernel early-boot hang";
	case BOOT_HANG: return "BUG: kernel boot hang";
	case BOOT_CRASH: return "BUG: kernel test crashed";
	default: return NULL;
	}
}

/* The number after marker at the start of a line, into *v; 1 if found. */
static int marker(const char *s, size_t len, const char *mark, double *v)
{
	size_t ml = strlen(mark);
	char buf[64];

	if (len <= ml || strncmp(s, mark, ml) || len - ml >= sizeof(buf))
		return 0;
	memcpy(buf, s + ml, len - ml);
	buf[len - ml] = '\0';
	*v = strtod(buf, NULL);
	return 1;
}

bool serial_file_over(const char *path, unsigned long long max)
{
	struct stat st;

	return stat(path, &st) == 0 && (unsigned long long)st.st_size > max;
}

void boot_classify(const char *log, size_t len, enum boot_end end, struct boot_report *r)
{
	struct line_iter it;
	struct line l;
	bool output = false, no_init = false;
	const char *panic = NULL, *said = NULL;
	size_t panic_len = 0, said_len = 0;
	double smp_start = -1, v;

	memset(r, 0, sizeof(*r));
	strbuf_init(&r->reason, 0);
	r->init_uptime = r->kernel_boot = r->smp_boot = r->last_stamp = -1;
	r->sent_bytes = -1;
	r->exit_status = -1;
	line_iter_init(&it, log, len);
	while (line_next(&it, &l)) {
		size_t off;
		line_chomp(&l);
		if (l.len)
			output = true;
		double t = kmsg_stamp(l.s, l.len, &off);
		const char *msg = l.s + off;
		size_t mlen = l.len - off;
		if (t >= 0) {
			r->last_stamp = t;
			if (mlen > 30 && !strncmp(msg, "x86: Booting SMP configuration:", 31))
				smp_start = t;
			else if (smp_start >= 0 && r->smp_boot < 0 && mlen > 22 && !strncmp(msg, "smp: Brought up ", 16))
				r->smp_boot = t - smp_start;
			else if (r->kernel_boot < 0 && mlen > 22 && !strncmp(msg, "Freeing unused kernel ", 22))
				r->kernel_boot = t;
		}
		if (marker(l.s, l.len, GUEST_MARK_INIT, &v))
			r->init_uptime = v;
		else if (marker(l.s, l.len, GUEST_MARK_EXIT, &v))
			r->exit_status = (int)v;
		/* the guest's perfbot's last error: why a run failed; its
		 * progress ("run 1/1: ...") and skipped monitors are not */
		else if (r->init_uptime >= 0 && r->exit_status < 0 && l.len > 9 &&
			 !strncmp(l.s, "perfbot: ", 9) && strncmp(l.s + 9, "run ", 4) &&
			 strncmp(l.s + 9, "monitor", 7)) {
			said = l.s + 9;
			said_len = l.len - 9;
		}
		else if (marker(l.s, l.len, GUEST_MARK_SENT, &v))
			r->sent_bytes = (long long)v;
		const char *p = memmem(msg, mlen, "Kernel panic - not syncing: ", 28);
		if (p && !panic) {
			panic = p + 28;
			panic_len = mlen - (size_t)(panic - msg);
			no_init = memmem(panic, panic_len, "No working init found", 21) ||
				  memmem(panic, panic_len, "No init found", 13) ||
				  memmem(panic, panic_len, "Requested init", 14);
		}
	}
	if (r->sent_bytes > 0 && end != BOOT_END_FLOOD) {
		r->state = BOOT_OK;
		return;
	}
	if (r->sent_bytes == 0) {
		/* the kernel did its part: perfbot in the guest failed (its
		 * error is on the console) */
		r->state = BOOT_NO_RESULTS;
		strbuf_addf(&r->reason, "no results: perfbot run in the guest exited %d without a run",
			    r->exit_status);
		if (said)
			strbuf_addf(&r->reason, ": %.*s", (int)(said_len > 300 ? 300 : said_len), said);
		strbuf_addstr(&r->reason, " (see the dmesg file)");
		return;
	}
	if (panic) {
		r->state = no_init ? BOOT_NO_INIT : BOOT_PANIC;
		strbuf_addstr(&r->reason, no_init ? "no init: " : "kernel panic: ");
		strbuf_add(&r->reason, panic, panic_len);
		strbuf_rtrim(&r->reason);
		return;
	}
	if (end == BOOT_END_FLOOD) {
		r->state = BOOT_CRASH;
		strbuf_addf(&r->reason, "flood: the guest wrote more than %u MiB on a serial port",
			    SERIAL_FILE_MAX >> 20);
		return;
	}
	if (end == BOOT_END_KILLED) {
		if (r->init_uptime >= 0) {
			r->state = BOOT_JOB_TIMEOUT;
			strbuf_addstr(&r->reason, "timeout: the job did not end in time");
		} else if (output) {
			r->state = BOOT_HANG;
			strbuf_addstr(&r->reason, "boot hang: no /init before the boot timeout");
		} else {
			r->state = BOOT_EARLY_HANG;
			strbuf_addstr(&r->reason, "early-boot hang: no output before the boot timeout");
		}
		return;
	}
	r->state = BOOT_CRASH;
	strbuf_addstr(&r->reason, r->init_uptime >= 0 ? "crash: the guest ended before sending results" :
			       "crash: the guest ended before /init");
}

void boot_time_stats(const struct boot_report *r, struct strbuf *out)
{
	if (r->init_uptime >= 0)
		strbuf_addf(out, "boot: %.2f\n", r->init_uptime);
	if (r->kernel_boot >= 0)
		strbuf_addf(out, "kernel_boot: %.6f\n", r->kernel_boot);
	if (r->smp_boot >= 0)
		strbuf_addf(out, "smp_boot: %.6f\n", r->smp_boot);
}
