/*
 * monitor-vmstat.c: the vmstat monitor's output (`vmstat -t N`) into lkp stats.
 *
 *   procs -----------memory---------- ---swap-- ... -----timestamp-----
 *    r  b   swpd   free   buff  cache   si   so ...                 UTC
 *    2  0      0 224636  33636 6760228    0    0 ... 2015-01-11 20:18:35
 *
 * gives, per sample, "time: <epoch>" (when the line ends in a stamp) and
 * then the columns in order as procs.r, procs.b, memory.swpd, ... cpu.gu,
 * each value printed as vmstat wrote it.  As in lkp, a line without any
 * digit is a header and is skipped, and older vmstats with fewer columns
 * fill the first keys only.
 *
 * Where lkp would print junk, we stop with an error naming the line: a
 * value that is not an integer, more columns than keys, or a stamp that is
 * not "YYYY-MM-DD HH:MM:SS".  Stamps are read as UTC (see utc_epoch).
 */
#include "parse/parser.h"
#include "parse/parse_util.h"

#include <stdio.h>
#include <string.h>

static const char *const vmstat_keys[] = {
	"procs.r", "procs.b",
	"memory.swpd", "memory.free", "memory.buff", "memory.cache",
	"swap.si", "swap.so",
	"io.bi", "io.bo",
	"system.in", "system.cs",
	"cpu.us", "cpu.sy", "cpu.id", "cpu.wa", "cpu.st", "cpu.gu",
};
#define NR_KEYS (sizeof(vmstat_keys) / sizeof(vmstat_keys[0]))

/* lkp's test for a stamp at the end: the last field has \d\d:\d\d:\d\d. */
static bool has_clock(const struct field *f)
{
	for (size_t i = 0; i + 8 <= f->len; i++)
		if (is_digit(f->s[i]) && is_digit(f->s[i + 1]) && f->s[i + 2] == ':' &&
		    is_digit(f->s[i + 3]) && is_digit(f->s[i + 4]) && f->s[i + 5] == ':' &&
		    is_digit(f->s[i + 6]) && is_digit(f->s[i + 7]))
			return true;
	return false;
}

static bool has_digit(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (is_digit(s[i]))
			return true;
	return false;
}

static bool is_integer(const struct field *f)
{
	size_t i = f->len && f->s[0] == '-';

	if (i == f->len)
		return false;
	for (; i < f->len; i++)
		if (!is_digit(f->s[i]))
			return false;
	return true;
}

static int parse_vmstat(const struct parse_input *in, struct strbuf *out)
{
	/* room for every key plus a stamp and one more, to see an excess */
	struct field f[NR_KEYS + 3];
	struct line_iter it;
	struct line l;

	line_iter_init(&it, in->buf, in->len);
	while (line_next(&it, &l)) {
		size_t n;

		if (!has_digit(l.s, l.len))
			continue;
		n = split_ws(l.s, l.len, f, NR_KEYS + 3);
		if (n > NR_KEYS + 2)
			return parse_error(in, "vmstat", l.no,
					   "expected at most %zu columns and a time stamp, found %zu fields",
					   NR_KEYS, n);
		if (has_clock(&f[n - 1])) {
			long long t;

			if (n < 2 || utc_epoch(f[n - 2].s, f[n - 2].len,
					       f[n - 1].s, f[n - 1].len, &t) < 0)
				return parse_error(in, "vmstat", l.no,
						   "expected a time stamp 'YYYY-MM-DD HH:MM:SS' at the end");
			strbuf_addf(out, "time: %lld\n", t);
			n -= 2;
		}
		if (n > NR_KEYS)
			return parse_error(in, "vmstat", l.no,
					   "expected at most %zu columns, found %zu", NR_KEYS, n);
		for (size_t i = 0; i < n; i++) {
			if (!is_integer(&f[i]))
				return parse_error(in, "vmstat", l.no,
						   "expected an integer in column %zu, found '%.*s'",
						   i + 1, (int)f[i].len, f[i].s);
			emit_str(out, vmstat_keys[i], f[i].s, f[i].len);
		}
	}
	return 0;
}

const struct parser parser_vmstat = { "vmstat", parse_vmstat, NULL };
