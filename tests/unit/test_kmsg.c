/*
 * Unit tests of the kmsg monitor (src/monitor/kmsg.c) and its parser
 * (src/parse/monitor-kmsg.c): /dev/kmsg records into `dmesg --decode` lines,
 * draining a reader through scripted read() results (EPIPE, EAGAIN,
 * malformed and oversized records), a sampler run on a made-up
 * /dev/kmsg, and the kmsg.* / dmesg.* stats of a kmsg file.
 */
#include "test_helpers.h"
#include "monitor/monitor.h"
#include "monitor/sampler.h"
#include "parse/dmesg.h"
#include "parse/parser.h"
#include "util/error.h"
#include "util/fileio.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <time.h>

static void put(const char *dir, const char *name, const char *text, const char *mode)
{
	struct strbuf p = STRBUF_INIT;
	FILE *f;

	path_join(&p, dir, name);
	f = fopen(p.buf, mode);
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	strbuf_release(&p);
}

static void read_in_file(struct strbuf *sb, const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_reset(sb);
	path_join(&p, dir, name);
	assert_int_equal(read_file(sb, p.buf), 0);
	strbuf_release(&p);
}

/* ---- records ---- */

static void expect_record(const char *rec, const char *lines, unsigned long long seq)
{
	struct strbuf out = STRBUF_INIT;
	unsigned long long got = 0;

	strbuf_addstr(&out, "before\n");
	if (kmsg_record_format(rec, strlen(rec), &got, &out) < 0)
		fail_msg("record '%s' rejected", rec);
	assert_string_equal(out.buf + 7, lines);
	assert_int_equal(got, seq);
	strbuf_release(&out);
}

static void expect_malformed(const char *rec, size_t len)
{
	struct strbuf out = STRBUF_INIT;
	unsigned long long seq;

	strbuf_addstr(&out, "before\n");
	if (kmsg_record_format(rec, len, &seq, &out) == 0)
		fail_msg("record '%.*s' accepted", (int)len, rec);
	assert_string_equal(out.buf, "before\n");
	strbuf_release(&out);
}

static void test_records(void **state)
{
	(void)state;
	expect_record("6,1234,5678901,-;hello world\n",
		      "kern  :info  : [    5.678901] hello world\n", 1234);
	/* later kernels' fields after the flags; the dictionary goes */
	expect_record("3,5,100,-,caller=T1;disk error\n SUBSYSTEM=block\n DEVICE=b8:0\n",
		      "kern  :err   : [    0.000100] disk error\n", 5);
	/* facility user (what user space writes), level warn */
	expect_record("12,7,24596123789,-;WARNING: x\n",
		      "user  :warn  : [24596.123789] WARNING: x\n", 7);
	/* a multi-line message: each line gets the prefix */
	expect_record("4,8,1,c;line one\\x0aline two\\x0a\n",
		      "kern  :warn  : [    0.000001] line one\n"
		      "kern  :warn  : [    0.000001] line two\n", 8);
	expect_record("7,9,0,-;\n", "kern  :debug : [    0.000000] \n", 9);
	expect_record("191,10,2,-;l7\n", "local7:debug : [    0.000002] l7\n", 10);
	/* truncated or not a record */
	expect_malformed("6,1234,56", 9);
	expect_malformed("6,1234,5678,-", 13);
	expect_malformed("6,1234,5678,-;no newline", 24);
	expect_malformed("6,1234,5678,-;cut\n", 5);
	expect_malformed("x,1,2,-;text\n", 13);
	expect_malformed("6,,2,-;text\n", 12);
	expect_malformed("192,1,2,-;no such facility\n", 27);
	expect_malformed("6,99999999999999999999,2,-;seq overflows\n", 41);
	expect_malformed("", 0);
}

/* ---- draining ---- */

enum { R_REC, R_ERR };
struct step {
	int kind;
	const char *rec;      /* R_REC */
	int err;              /* R_ERR */
};
static const struct step *script;
static int script_at;

static long fake_read(int fd, void *buf, unsigned long len)
{
	const struct step *st = &script[script_at++];
	size_t n;

	(void)fd;
	if (st->kind == R_ERR) {
		errno = st->err;
		return -1;
	}
	n = strlen(st->rec);
	/* as the kernel: a record that does not fit is EINVAL, not cut */
	if (n > len) {
		errno = EINVAL;
		return -1;
	}
	memcpy(buf, st->rec, n);
	return (long)n;
}

static void test_drain(void **state)
{
	static const struct step steps[] = {
		{ R_REC, "6,10,1,-;first\n", 0 },
		{ R_ERR, NULL, EPIPE },               /* 11..14 overwritten */
		{ R_REC, "6,15,2,-;after the overrun\n", 0 },
		{ R_REC, "garbage\n", 0 },
		{ R_ERR, NULL, EINTR },
		{ R_REC, "6,16,3,-;last\n", 0 },
		{ R_ERR, NULL, EAGAIN },
		/* the next tick */
		{ R_ERR, NULL, EAGAIN },
		/* then a failing read keeps what came before it */
		{ R_REC, "6,17,4,-;kept\n", 0 },
		{ R_ERR, NULL, EIO },
	};
	struct kmsg_reader *r = calloc(1, sizeof(*r));
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_non_null(r);
	r->read = fake_read;
	script = steps;
	script_at = 0;
	assert_int_equal(kmsg_drain(r, &out), 0);
	assert_string_equal(out.buf,
			    "kern  :info  : [    0.000001] first\n"
			    "kern  :info  : [    0.000002] after the overrun\n"
			    "kern  :info  : [    0.000003] last\n");
	assert_int_equal(r->lost, 4);
	assert_int_equal(r->overruns, 1);
	assert_int_equal(r->malformed, 1);
	assert_int_equal(r->read_errno, 0);
	assert_int_equal(script_at, 7);
	strbuf_reset(&out);
	assert_int_equal(kmsg_drain(r, &out), 0);
	assert_int_equal(out.len, 0);
	assert_int_equal(kmsg_drain(r, &out), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(r->read_errno, EIO);
	assert_string_equal(out.buf, "kern  :info  : [    0.000004] kept\n");
	assert_int_equal(r->lost, 4);
	/* the end of the run says what was lost */
	{
		struct stderr_capture cap;
		char *msg;

		r->fd = -1;
		capture_start(&cap);
		monitor_find("kmsg")->release(r);
		msg = capture_end(&cap);
		assert_string_equal(msg,
				    "perfbot: warning: kmsg: the kernel overwrote 4 records before they were read\n"
				    "perfbot: warning: kmsg: 1 records of /dev/kmsg were not 'prio,seq,usec,flags;text'\n"
				    "perfbot: warning: kmsg: cannot read /dev/kmsg: Input/output error\n");
		free(msg);
		r->lost = 0;
		capture_start(&cap);
		monitor_find("kmsg")->release(r);
		msg = capture_end(&cap);
		assert_non_null(strstr(msg, "records before they were read (1 times)\n"));
		free(msg);
	}
	strbuf_release(&out);
	free(r);
}

/* The kernel's records go up to about 8 KiB with their dictionary: the
 * buffer takes them, else the reader would stop at the first one. */
static void test_drain_long_record(void **state)
{
	struct strbuf rec = STRBUF_INIT, out = STRBUF_INIT;
	struct kmsg_reader *r = calloc(1, sizeof(*r));
	struct step steps[3] = { { R_REC, NULL, 0 }, { R_ERR, NULL, EAGAIN } };

	(void)state;
	assert_non_null(r);
	strbuf_addstr(&rec, "6,1,1,-;");
	for (int i = 0; i < 1000; i++)
		strbuf_addch(&rec, 'a' + i % 26);
	strbuf_addch(&rec, '\n');
	for (int i = 0; i < 100; i++)
		strbuf_addf(&rec, " KEY%02d=%060d\n", i, i);
	assert_true(rec.len > 7000 && rec.len < 8192);
	steps[0].rec = rec.buf;
	r->read = fake_read;
	script = steps;
	script_at = 0;
	assert_int_equal(kmsg_drain(r, &out), 0);
	assert_int_equal(r->read_errno, 0);
	assert_int_equal(out.len, strlen("kern  :info  : [    0.000001] ") + 1001);
	strbuf_release(&rec);
	strbuf_release(&out);
	free(r);
}

/* ---- the monitor in a sampler, on a made-up /dev/kmsg ---- */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0)
		;
}

static void test_sampler(void **state)
{
	char *root = test_tmpdir("kmsg"), *dir = test_tmpdir("kmsg");
	const struct monitor *m = monitor_find("kmsg");
	const struct monitor *list[] = { m, NULL };
	struct sampler_opts o = { .interval = 10, .root = root };
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	struct sampler *s;
	struct held_dir hd;

	(void)state;
	assert_int_equal(held_dir_open(&hd, dir), 0);
	assert_non_null(m);
	assert_true(m->flags & MONITOR_DEFAULT);
	assert_true(m->flags & MONITOR_STREAM);
	path_join(&p, root, "dev");
	assert_int_equal(mkdir(p.buf, 0755), 0);
	/* a regular file: read() returns what was appended, one record here */
	put(root, "dev/kmsg", "6,1,1,-;logged before the run\n", "w");
	s = sampler_start_opts(list, &hd, &o);
	assert_non_null(s);
	sampler_activate(s);
	for (int i = 0; i < 500 && sampler_samples(s, "kmsg") < 1; i++)
		sleep_ms(10);
	assert_int_equal(sampler_samples(s, "kmsg"), 1);
	/* logged after the last tick, moments before the stop: the stop
	 * drains it, although the tick sampled every monitor */
	put(root, "dev/kmsg", "3,2,2000000,-;EXT4-fs error (device sda1): ext4_find_entry:1455: "
	    "inode #2: comm ls: reading directory lblock 0\n", "a");
	assert_int_equal(sampler_stop(s), 0);
	held_dir_close(&hd);
	read_in_file(&text, dir, "kmsg");
	assert_string_equal(text.buf,
			    "kern  :err   : [    2.000000] EXT4-fs error (device sda1): ext4_find_entry:1455: "
			    "inode #2: comm ls: reading directory lblock 0\n");
	read_in_file(&text, dir, "kmsg.json");
	assert_non_null(strstr(text.buf, "\"kmsg.EXT4-fs_error(device_sda1):ext4_find_entry:#:inode##:"
			       "comm_ls:reading_directory_lblock\": [\n    1\n  ]"));
	assert_non_null(strstr(text.buf, "\"kmsg.timestamp:last\": [\n    2.0\n  ]"));
	/* no error report: dmesg.json has the stamp only */
	read_in_file(&text, dir, "dmesg.json");
	assert_null(strstr(text.buf, "boot_failures"));
	assert_non_null(strstr(text.buf, "\"dmesg.timestamp:last\""));
	strbuf_release(&p);
	strbuf_release(&text);
	test_rm_rf(root);
	test_rm_rf(dir);
	free(root);
	free(dir);
}

/* A /dev/kmsg that cannot be put at its end fails the start, saying so */
static void test_start_fails(void **state)
{
	char *root = test_tmpdir("kmsg"), *dir = test_tmpdir("kmsg");
	const struct monitor *list[] = { monitor_find("kmsg"), NULL };
	struct sampler_opts o = { .interval = 10, .root = root };
	struct strbuf p = STRBUF_INIT, want = STRBUF_INIT;
	struct stderr_capture cap;
	struct held_dir hd;
	char *msg;

	(void)state;
	assert_int_equal(held_dir_open(&hd, dir), 0);
	path_join(&p, root, "dev");
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_addstr(&p, "/kmsg");
	assert_int_equal(mkfifo(p.buf, 0600), 0);
	capture_start(&cap);
	assert_null(sampler_start_opts(list, &hd, &o));
	msg = capture_end(&cap);
	held_dir_close(&hd);
	strbuf_addf(&want, "perfbot: cannot read '%s': Illegal seek\n", p.buf);
	assert_string_equal(msg, want.buf);
	free(msg);
	strbuf_release(&p);
	strbuf_release(&want);
	test_rm_rf(root);
	test_rm_rf(dir);
	free(root);
	free(dir);
}

static void test_unavailable(void **state)
{
	struct strbuf why = STRBUF_INIT;

	(void)state;
	assert_false(monitor_available(monitor_find("kmsg"), "/nonexistent", &why));
	assert_string_equal(why.buf, "cannot read '/nonexistent/dev/kmsg': No such file or directory");
	strbuf_release(&why);
}

/* ---- stats ---- */

static void expect_parse(const char *parser, const char *input, const char *expected)
{
	const struct parser *p = parser_find(parser);
	struct parse_input in = { input, strlen(input), "kmsg", NULL };
	struct strbuf out = STRBUF_INIT;

	assert_non_null(p);
	assert_int_equal(p->parse(&in, &out), 0);
	assert_string_equal(out.buf, expected);
	strbuf_release(&out);
}

static void test_stats(void **state)
{
	static const char kmsg[] =
		"kern  :info  : [    1.000000] Linux version 6.1.0\n"
		"kern  :err   : [    2.500000] blk_update_request: I/O error, dev sda, sector 12345 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0\n"
		"kern  :err   : [    2.600000] blk_update_request: I/O error, dev sda, sector 999 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0\n"
		/* in lkp's etc/kmsg-denylist.raw */
		"kern  :err   : [    2.650000] mce: [Hardware Error]: Machine check events logged\n"
		/* warn is below lkp's kmsg levels */
		"kern  :warn  : [    2.700000] acpi PNP0A08:00: _OSC failed\n"
		/* user space's err is not the kernel's */
		"user  :err   : [    2.800000] myprog: not the kernel\n"
		/* a segfault counts whoever logged it */
		"kern  :info  : [    3.000000] a.out[42]: segfault at 0 ip 00005555 sp 00007ffd error 4 in a.out\n"
		/* an error report is dmesg's */
		"kern  :warn  : [    3.100000] WARNING: CPU: 1 PID: 9 at mm/vmscan.c:77 shrink+0x1/0x2\n"
		"kern  :crit  : [    3.200000] BUG: unable to handle page fault for address: 0\n"
		"kern  :alert : [    3.300000]  00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n"
		"<2>[    3.400000] raw level two\n"
		"<4>[    3.500000] raw level four\n"
		"kern  :emerg : [    3.600000] ok\n"
		"kern  :info  : [    4.000000] the end\n";

	(void)state;
	expect_parse("kmsg", kmsg,
		     "blk_update_request:I/O_error,dev_sda,sector#op#:(READ)flags#phys_seg#prio_class: 1\n"
		     "segfault_at_ip_sp_error: 1\n"
		     "raw_level_two: 1\n"
		     "timestamp:last: 4.000000\n"
		     "timestamp:blk_update_request:I/O_error,dev_sda,sector#op#:(READ)flags#phys_seg#prio_class: 2.500000\n"
		     "timestamp:segfault_at_ip_sp_error: 3.000000\n"
		     "timestamp:raw_level_two: 3.400000\n");
	expect_parse("dmesg", kmsg,
		     "boot_failures: 1\n"
		     "WARNING:at_mm/vmscan.c:#shrink: 1\n"
		     "BUG:unable_to_handle_page_fault_for_address: 1\n"
		     "timestamp:last: 4.000000\n"
		     "timestamp:WARNING:at_mm/vmscan.c:#shrink: 3.100000\n"
		     "timestamp:BUG:unable_to_handle_page_fault_for_address: 3.200000\n");
	expect_parse("kmsg", "", "");
}

static void test_stamp(void **state)
{
	size_t off;
	const char *l = "user  :notice: [   12.000001] text";

	(void)state;
	assert_true(kmsg_stamp(l, strlen(l), &off) == 12.000001);
	assert_string_equal(l + off, "text");
	l = "kern  :err   : no stamp";
	assert_true(kmsg_stamp(l, strlen(l), &off) < 0);
	assert_int_equal(off, 0);
}

/* dmesg.json comes from kmsg unless a serial console log is there */
static void test_finish(void **state)
{
	char *dir = test_tmpdir("kmsg");
	const struct monitor *m = monitor_find("kmsg");
	struct strbuf p = STRBUF_INIT;
	struct held_dir hd;

	(void)state;
	assert_int_equal(held_dir_open(&hd, dir), 0);
	/* no kmsg file: nothing to do */
	assert_int_equal(m->finish(m, &hd), 0);
	path_join(&p, dir, "dmesg.json");
	assert_false(file_exists(p.buf));
	put(dir, "kmsg", "kern  :warn  : [    3.1] WARNING: CPU: 1 PID: 9 at a.c:7 f+0x1/0x2\n", "w");
	assert_int_equal(m->finish(m, &hd), 0);
	assert_true(file_exists(p.buf));
	assert_int_equal(unlink(p.buf), 0);
	put(dir, "dmesg", "[    1.000000] the serial console's\n", "w");
	assert_int_equal(m->finish(m, &hd), 0);
	assert_false(file_exists(p.buf));
	held_dir_close(&hd);
	strbuf_release(&p);
	test_rm_rf(dir);
	free(dir);
}

/* The run dir moved away and a link planted at its name (test_dir_moved):
 * kmsg is read, and dmesg.json written, in the dir held. */
static void test_finish_dir_moved(void **state)
{
	const struct monitor *m = monitor_find("kmsg");
	struct strbuf p = STRBUF_INIT;
	struct moved_dir md;

	(void)state;
	test_dir_moved(&md, "kmsg");
	put(md.moved.buf, "kmsg", "kern  :warn  : [    3.1] WARNING: CPU: 1 PID: 9 at a.c:7 f+0x1/0x2\n", "w");
	assert_int_equal(m->finish(m, &md.hd), 0);
	path_join(&p, md.moved.buf, "dmesg.json");
	assert_true(file_exists(p.buf));
	assert_int_equal(test_dir_size(md.victim.buf), 0);
	test_dir_moved_release(&md);
	strbuf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_drain_long_record),
		cmocka_unit_test(test_sampler),
		cmocka_unit_test(test_start_fails),
		cmocka_unit_test(test_unavailable),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_finish_dir_moved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
