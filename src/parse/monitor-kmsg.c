/*
 * monitor-kmsg.c: lkp's kmsg.* stats of a kernel log captured inside the running
 * kernel (the kmsg monitor's file, `dmesg --decode` lines).
 *
 * dmesg.* counts the kernel's error reports (oopses, WARNINGs, BUGs);
 * kmsg.* counts the other messages printed at KERN_ERR or more urgent,
 * and segfaults, each distinct message once:
 *
 *   pcieport#:#:#:AER:Corrected_error_received: 1
 *   segfault_at_ip_sp_error: 1
 *   timestamp:last: 1234.567890
 *   timestamp:segfault_at_ip_sp_error: 1230.000001
 *
 * The lines are lkp's: "kern  :err   : ", "kern  :crit  : ", "kern  :alert : ",
 * "kern  :emerg : " or a raw "<0>".."<3>" level at the start, or "segfault
 * at" anywhere; lines that are error reports are left to dmesg.*, and
 * lines holding one of lkp's etc/kmsg-denylist.raw strings (harmless
 * messages: kmsg_denylist.c) are dropped.  Not done: lkp's device names
 * (etc/linux-device-names: it makes "ata1.00:" "ata#.#:", here
 * "ata1.#:"), its "Kernel tests: Boot OK" lines and the sanitizer lines of
 * user space programs.
 */
#include "parse/dmesg.h"
#include "parse/kmsg_denylist.h"
#include "parse/parse_util.h"
#include "parse/parser.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Is line one of those lkp's grep picks for kmsg.*? */
static bool printk_error(const char *l, size_t len)
{
	static const char *const urgent[] = {
		"kern  :err   : ", "kern  :crit  : ", "kern  :alert : ", "kern  :emerg : ", NULL
	};

	if (len >= 3 && l[0] == '<' && l[1] >= '0' && l[1] <= '3' && l[2] == '>')
		return true;
	for (int i = 0; urgent[i]; i++)
		if (len >= 15 && !memcmp(l, urgent[i], 15))
			return true;
	return memmem(l, len, "segfault at", 11) != NULL;
}

static bool denylisted(const char *l, size_t len)
{
	for (const char *const *d = kmsg_denylist; *d; d++)
		if (memmem(l, len, *d, strlen(*d)))
			return true;
	return false;
}

static int parse_kmsg(const struct parse_input *in, struct strbuf *out)
{
	struct log_errors errs = LOG_ERRORS_INIT;
	struct strbuf id = STRBUF_INIT;
	struct line_iter it;
	struct line l;

	line_iter_init(&it, in->buf, in->len);
	while (line_next(&it, &l)) {
		size_t off;

		line_chomp(&l);
		double t = kmsg_stamp(l.s, l.len, &off);
		if (t >= 0)
			errs.last = t;
		if (!printk_error(l.s, l.len) || denylisted(l.s, l.len))
			continue;
		/* an error report is dmesg's, not kmsg's (lkp greps out its
		 * oops patterns) */
		strbuf_reset(&id);
		if (dmesg_error_id(l.s + off, l.len - off, &id))
			continue;
		if (kmsg_error_id(l.s + off, l.len - off, &id))
			log_errors_add(&errs, id.buf, t);
	}
	log_errors_print(&errs, out);
	strbuf_release(&id);
	return 0;
}

const struct parser parser_kmsg = { "kmsg", parse_kmsg, NULL };
