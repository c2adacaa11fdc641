#ifndef PERFBOT_PRINTABLE_H
#define PERFBOT_PRINTABLE_H
/*
 * Text that others wrote, made safe to print on a terminal.
 *
 * Commit subjects, author names, metric names from a store, worker names
 * and errors from a lab reach perfbot's output; an escape sequence among
 * them could retitle the terminal, hide lines or (on some terminals)
 * answer back.  Everything a terminal acts on becomes '?': C0 controls
 * (but '\t', and '\n' with keep_lines), DEL, the C1 controls U+0080..
 * U+009F and any byte that is not part of valid UTF-8 (a lone 0x9b is CSI
 * on an 8-bit terminal).  Valid UTF-8 text is kept as it is.  In place:
 * the length never changes.
 */
#include <stdbool.h>
#include <stddef.h>

void make_printable(char *buf, size_t len, bool keep_lines);

#endif
