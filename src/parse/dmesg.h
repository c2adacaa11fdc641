#ifndef PERFBOT_PARSE_DMESG_H
#define PERFBOT_PARSE_DMESG_H
/*
 * The "dmesg" parser: lkp's dmesg.* stats of a kernel log (a QEMU serial
 * console, or dmesg output), so that a kernel that warns, oopses or
 * panics shows in the compare table as in lkp's reports:
 *
 *   boot_failures: 1
 *   WARNING:at_mm/vmscan.c:#shrink_folio_list: 1
 *   RIP:shrink_folio_list: 1
 *   Kernel_panic-not_syncing:Fatal_exception: 1
 *   timestamp:last: 16.259149
 *   timestamp:WARNING:at_mm/vmscan.c:#shrink_folio_list: 16.238279
 *
 * `perfbot run --kernel` writes these, prefixed "dmesg.", into each run's
 * stats.json.  Each kind of error counts once per boot, named by lkp's
 * error id: the message head (WARNING, BUG:, Oops, kernel BUG at, Kernel
 * panic, RIP:, UBSAN:, INFO: task blocked, oom-killer, page allocation
 * failure, ...) with numbers, addresses and offsets replaced by '#' or
 * dropped, blanks folded and the rest joined with '_' (lkp's
 * lib/dmesg.rb rules).  lkp's "calltrace:" ids, which depend on its
 * table of well-known callers, are not produced.
 */
#include <stddef.h>
#include "util/strbuf.h"

/*
 * The timestamp of a kernel log line "[    1.234567] text" (also with a
 * "[    T1] " caller id after it, or a "<6>" level or `dmesg --decode`'s
 * "kern  :warn  : " before it), with
 * *msg_off the offset of the text after them.  -1 when the line has none;
 * *msg_off is then 0.
 */
double kmsg_stamp(const char *line, size_t len, size_t *msg_off);

/*
 * lkp's error id of any printk message (kmsg.*, see parse/monitor-kmsg.c): the
 * error's head when it is a kernel error report, else the whole message,
 * rewritten as dmesg_error_id does; "segfault at ... ip ... sp ... error"
 * becomes "segfault_at_ip_sp_error".  Returns 1 with the id appended, 0
 * for a line that names nothing (control bytes, a hex dump row, an id of
 * three bytes or fewer).
 */
int kmsg_error_id(const char *msg, size_t len, struct strbuf *id);

/*
 * lkp's error id of one message (a line's text after its timestamp),
 * appended to id.  Returns 1 when the message is a kernel error report,
 * 0 when it is an ordinary line (id untouched).
 */
int dmesg_error_id(const char *msg, size_t len, struct strbuf *id);

/*
 * The errors of one log, each once, in order of first report, with the
 * stamp of that report (-1: none), and the log's last stamp: what the
 * dmesg and kmsg parsers print.
 */
struct log_errors {
	struct log_error { char *id; double stamp; } *e;
	size_t nr, alloc;
	double last;            /* -1 until a line has a stamp */
};
#define LOG_ERRORS_INIT { NULL, 0, 0, -1 }
/* Add id with the stamp of its line, unless it is there already. */
void log_errors_add(struct log_errors *le, const char *id, double stamp);
/* "<id>: 1" each, "timestamp:last: T", "timestamp:<id>: T" each; frees le. */
void log_errors_print(struct log_errors *le, struct strbuf *out);

#endif
