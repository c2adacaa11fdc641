/*
 * test_watch.c: perfbot watch's pure parts (src/watch/): which commits a
 * pass tests (the tip, the stride's grid from the first commit, tags,
 * none done, the boundaries), and the mail: headers, folding at 78
 * columns, the subject, the In-Reply-To from Message-Id and Link trailers.
 */
#include "test_helpers.h"
#include "watch/watch.h"
#include "util/xalloc.h"

#include <math.h>

/* watch_plan into a string "15 12 9" for readable assertions */
static void plan(int n, int base, int stride, const bool *tagged, const bool *done,
		 struct strbuf *sb)
{
	int out[64];
	int nr = watch_plan(n, base, stride, tagged, done, out);

	strbuf_reset(sb);
	for (int i = 0; i < nr; i++)
		strbuf_addf(sb, "%s%d", i ? " " : "", out[i]);
}

static void test_plan_stride(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	/* every commit, newest first (stride 1, the default) */
	plan(5, 0, 1, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "4 3 2 1 0");
	/* every 3rd from the first commit, and the tip */
	plan(16, 0, 3, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "15 12 9 6 3 0");
	plan(17, 0, 3, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "16 15 12 9 6 3 0");
	/* the grid counts from the branch's first commit when the line is
	 * its newest commits only (base of them left out) */
	plan(5, 10, 3, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "4 2");
	plan(5, 9, 3, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "4 3 0");
	/* a stride longer than the line: the tip and the first commit */
	plan(4, 0, 10, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "3 0");
	/* a stride below 1 is 1 */
	plan(3, 0, 0, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "2 1 0");
	strbuf_release(&sb);
}

static void test_plan_tags_done(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	bool tagged[10] = { false }, done[10] = { false };
	(void)state;

	/* tags off the grid are tested too, each once */
	tagged[5] = tagged[6] = tagged[9] = true;
	plan(10, 0, 4, tagged, NULL, &sb);
	assert_string_equal(sb.buf, "9 8 6 5 4 0");
	/* done commits are never planned again, the tip neither */
	done[9] = done[4] = done[5] = true;
	plan(10, 0, 4, tagged, done, &sb);
	assert_string_equal(sb.buf, "8 6 0");
	/* all done: nothing new */
	for (int i = 0; i < 10; i++)
		done[i] = true;
	plan(10, 0, 4, tagged, done, &sb);
	assert_string_equal(sb.buf, "");
	/* boundaries: an empty line, a line of one */
	plan(0, 0, 3, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "");
	plan(1, 0, 3, NULL, NULL, &sb);
	assert_string_equal(sb.buf, "0");
	done[0] = true;
	plan(1, 0, 3, NULL, done, &sb);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

static void test_mail_compose(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct watch_mail m = {
		.from = "perfbot <perfbot@box>", .to = "Dave Developer <dave@example.org>",
		.subject = "[mm/demo] 263295c926: mytest.throughput -14.7% regression",
		.message_id = "<perfbot.watch.263295c92604.mytest.throughput.1@box>",
		.in_reply_to = "<20260101.8-1-dev@example.org>",
		.date = "Tue, 01 Dec 2026 19:54:36 +0000",
	};
	(void)state;

	watch_mail_compose(&m, "Hi Dave,\n\nWe noticed", &sb);
	assert_string_equal(sb.buf,
		"From: perfbot <perfbot@box>\n"
		"To: Dave Developer <dave@example.org>\n"
		"Subject: [mm/demo] 263295c926: mytest.throughput -14.7% regression\n"
		"Date: Tue, 01 Dec 2026 19:54:36 +0000\n"
		"Message-Id: <perfbot.watch.263295c92604.mytest.throughput.1@box>\n"
		"In-Reply-To: <20260101.8-1-dev@example.org>\n"
		"References: <20260101.8-1-dev@example.org>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=UTF-8\n"
		"Content-Transfer-Encoding: 8bit\n"
		"\n"
		"Hi Dave,\n\nWe noticed\n");
	/* no In-Reply-To nor References without the patch's id; no Date
	 * when none is given; a body's own last newline is kept */
	strbuf_reset(&sb);
	m.in_reply_to = NULL;
	m.date = NULL;
	watch_mail_compose(&m, "body\n", &sb);
	assert_null(strstr(sb.buf, "In-Reply-To"));
	assert_null(strstr(sb.buf, "References"));
	assert_null(strstr(sb.buf, "Date:"));
	assert_true(ends_with(sb.buf, "\n\nbody\n"));
	strbuf_release(&sb);
}

static void test_mail_folding(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct watch_mail m = {
		.from = "a <a@b>", .message_id = "<x@y>",
		/* 78 columns exactly: stays on one line */
		.to = "x@example.org, y@example.org, z@example.org, w@example.org, vvvv@example.o",
		.subject = "[drivers/gpu/drm/i915/display] 0123456789: "
			   "will-it-scale.per_process_ops -12.3% regression and more words here",
	};
	(void)state;

	assert_int_equal(strlen("To: ") + strlen(m.to), 78);
	watch_mail_compose(&m, "", &sb);
	assert_non_null(strstr(sb.buf, "\nTo: x@example.org, y@example.org, z@example.org, "
				       "w@example.org, vvvv@example.o\n"));
	/* past 78: folded before the word that would cross, the rest on a
	 * continuation line that starts with a blank */
	assert_non_null(strstr(sb.buf,
		"\nSubject: [drivers/gpu/drm/i915/display] 0123456789:\n"
		" will-it-scale.per_process_ops -12.3% regression and more words here\n"));
	for (const char *l = sb.buf; *l; ) {
		const char *nl = strchr(l, '\n');
		assert_true(nl - l <= 78);
		l = nl + 1;
	}
	/* 79: the last word goes to a line of its own */
	strbuf_reset(&sb);
	m.to = "x@example.org, y@example.org, z@example.org, w@example.org, vvvvv@example.o";
	watch_mail_compose(&m, "", &sb);
	assert_non_null(strstr(sb.buf, "\nTo: x@example.org, y@example.org, z@example.org, "
				       "w@example.org,\n vvvvv@example.o\n"));
	/* one word longer than a line cannot fold: it stays whole */
	strbuf_reset(&sb);
	m.to = "averyveryveryveryveryveryveryveryveryveryveryveryveryveryverylongname@example.org";
	m.subject = "s";
	watch_mail_compose(&m, "", &sb);
	assert_non_null(strstr(sb.buf, "\nTo: averyvery"));
	/* an empty value is "Name:" alone; newlines in a value never end it */
	strbuf_reset(&sb);
	m.to = "";
	m.subject = "two\nlines";
	watch_mail_compose(&m, "", &sb);
	assert_non_null(strstr(sb.buf, "\nTo:\nSubject: two lines\n"));
	strbuf_release(&sb);
}

static void test_mail_mailbox(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	static const struct { const char *name, *addr, *want; } good[] = {
		/* a plain name stays bare, as git and the seeds write it */
		{ "Dave Developer", "dave@example.org", "Dave Developer <dave@example.org>" },
		/* a comma would start a second recipient: quoted */
		{ "Eve, victim@evil.org", "eve@example.org", "\"Eve, victim@evil.org\" <eve@example.org>" },
		{ "Doe, Jane", "j@d", "\"Doe, Jane\" <j@d>" },
		/* quotes and backslashes escaped, controls blanked, UTF-8 bare */
		{ "a\"b\\c\nd", "x@y", "\"a\\\"b\\\\c d\" <x@y>" },
		{ "J\xc3\xb6rg R\xc3\xb6" "del", "j@r", "J\xc3\xb6rg R\xc3\xb6" "del <j@r>" },
		{ "J. Random", "j@r", "\"J. Random\" <j@r>" },
		{ "", "j@r", "<j@r>" },
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		strbuf_reset(&sb);
		assert_int_equal(watch_mail_mailbox(good[i].name, good[i].addr, &sb), 0);
		assert_string_equal(sb.buf, good[i].want);
	}
	/* an address that is not one plain address is refused, out untouched */
	strbuf_reset(&sb);
	static const char *const bad[] = {
		"", "a@b>, c@d", "a@b c", "a@b\nBcc: c@d", "ab", "a@b@c", "@b", "a@",
		"a<b@c", "a(b)@c", "a@[b]", "a;b@c", "a:b@c", "a\\b@c", "a\"b@c", "a\x7f@b",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(watch_mail_mailbox("Eve", bad[i], &sb), -1);
		assert_int_equal(sb.len, 0);
	}
	strbuf_release(&sb);
}

static void test_mail_subject(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sha = "9b17c62382dd2e7507984b989";
	(void)state;

	watch_mail_subject(sha, "fs: convert inode and dentry shrinking to be node aware",
			   "vm-scalability.throughput", -48.84, &sb);
	assert_string_equal(sb.buf, "[fs] 9b17c62382: vm-scalability.throughput -48.8% regression");
	strbuf_reset(&sb);
	watch_mail_subject(sha, "mm/vmscan: shrink", "a.b", 3.05, &sb);
	assert_string_equal(sb.buf, "[mm/vmscan] 9b17c62382: a.b +3.0% regression");
	/* no area: no ": ", a blank before it, nothing before it, no subject */
	strbuf_reset(&sb);
	watch_mail_subject(sha, "Merge branch 'feature'", "m", -1, &sb);
	assert_string_equal(sb.buf, "9b17c62382: m -1.0% regression");
	strbuf_reset(&sb);
	watch_mail_subject(sha, "Revert \"fs: x\"", "m", -1, &sb);
	assert_string_equal(sb.buf, "9b17c62382: m -1.0% regression");
	strbuf_reset(&sb);
	watch_mail_subject(sha, ": x", "m", -1, &sb);
	assert_string_equal(sb.buf, "9b17c62382: m -1.0% regression");
	strbuf_reset(&sb);
	watch_mail_subject(sha, NULL, "m", -1, &sb);
	assert_string_equal(sb.buf, "9b17c62382: m -1.0% regression");
	strbuf_release(&sb);
}

static void test_patch_message_id(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	/* a Link: to lore's /r/ */
	assert_int_equal(watch_patch_message_id(
		"fs: x\n\nbody\n\nSigned-off-by: A <a@b>\n"
		"Link: https://lore.kernel.org/r/20140101.123-1-dev@example.org\n", &sb), 1);
	assert_string_equal(sb.buf, "<20140101.123-1-dev@example.org>");
	/* patch.msgid.link, %-encoded, with a trailing slash; the last Link
	 * wins (b4 adds the patch's own at the end) */
	strbuf_reset(&sb);
	assert_int_equal(watch_patch_message_id(
		"x\n\nLink: https://lore.kernel.org/r/cover%40example.org/\n"
		"Link: https://patch.msgid.link/20250101-fix-v2-1-abc%40kernel.org/\n", &sb), 1);
	assert_string_equal(sb.buf, "<20250101-fix-v2-1-abc@kernel.org>");
	/* a Message-Id trailer names the patch itself: it wins over Links,
	 * in any case, with or without its brackets */
	strbuf_reset(&sb);
	assert_int_equal(watch_patch_message_id(
		"x\n\nmessage-id: <1234.5678@mail.example.org>\n"
		"Link: https://lore.kernel.org/r/other@example.org\n", &sb), 1);
	assert_string_equal(sb.buf, "<1234.5678@mail.example.org>");
	strbuf_reset(&sb);
	assert_int_equal(watch_patch_message_id("x\n\nMessage-ID: abc@def  \n", &sb), 1);
	assert_string_equal(sb.buf, "<abc@def>");
	/* not ids: other hosts, lore's list paths without /r/, a link with
	 * no '@', a trailer that only starts like one, no trailer at all */
	strbuf_reset(&sb);
	assert_int_equal(watch_patch_message_id(
		"x\n\nLink: https://bugzilla.kernel.org/show_bug.cgi?id=1@2\n"
		"Link: https://lore.kernel.org/linux-mm/a@b/\n"
		"Link: https://lore.kernel.org/r/notanid\n"
		"Linked: https://lore.kernel.org/r/a@b\n"
		"Message-Identity: <c@d>\n", &sb), 0);
	assert_string_equal(sb.buf, "");
	assert_int_equal(watch_patch_message_id("", &sb), 0);
	assert_int_equal(watch_patch_message_id("Link: https://lore.kernel.org/r/", &sb), 0);
	/* the last line needs no newline */
	assert_int_equal(watch_patch_message_id("Link: http://lore.kernel.org/r/e@f", &sb), 1);
	assert_string_equal(sb.buf, "<e@f>");
	strbuf_release(&sb);
}

/* the same code at two levels: beyond 4 standard errors and 1% */
static void test_level_moved(void **state)
{
	struct cp_point a = { 1000, 10, 3 }, b = { 1100, 10, 3 }, near = { 1020, 10, 3 };
	struct cp_point flat = { 1000, 0, 3 }, flat2 = { 1005, 0, 3 }, one = { 1500, 0, 1 };
	double rel;

	(void)state;
	assert_true(watch_level_moved(&a, &b, &rel));
	assert_true(fabs(rel - 0.1) < 1e-12);
	assert_true(watch_level_moved(&b, &a, &rel));
	assert_true(rel < 0);
	/* 20 apart, se 8.2: 2.4 standard errors, within the noise */
	assert_false(watch_level_moved(&a, &near, &rel));
	/* runs that all gave one figure: 0.5% is not a move, 1.5% is */
	assert_false(watch_level_moved(&flat, &flat2, &rel));
	flat2.mean = 1015;
	assert_true(watch_level_moved(&flat, &flat2, &rel));
	/* one run tells no noise */
	assert_false(watch_level_moved(&a, &one, &rel));
	/* an unknown stddev, a mean of 0 */
	flat2.stddev = NAN;
	assert_false(watch_level_moved(&flat, &flat2, &rel));
	flat.mean = 0;
	assert_false(watch_level_moved(&flat, &b, &rel));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_stride),
		cmocka_unit_test(test_plan_tags_done),
		cmocka_unit_test(test_mail_compose),
		cmocka_unit_test(test_mail_folding),
		cmocka_unit_test(test_mail_mailbox),
		cmocka_unit_test(test_mail_subject),
		cmocka_unit_test(test_patch_message_id),
		cmocka_unit_test(test_level_moved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
