/* Unit tests of util's hand-made fast paths, each against the plain
 * definition it replaces: strbuf's inline appends (the room boundary),
 * numfmt's integers two digits at a time (against %lld) and json_scan's
 * eight bytes at a time (against a byte loop, at every offset). */
#include "test_helpers.h"
#include "util/json_scan.h"
#include "util/numfmt.h"

#include <limits.h>

static void test_strbuf_room_boundary(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t alloc;
	(void)state;

	/* the empty strbuf has no room: the first add allocates */
	strbuf_addch(&sb, 'a');
	assert_true(sb.alloc > 1);
	alloc = sb.alloc;
	/* fill up to the last byte before the NUL's: no growth */
	while (sb.len < alloc - 2)
		strbuf_addch(&sb, 'b');
	strbuf_addch(&sb, 'c');
	assert_int_equal(sb.len, alloc - 1);
	assert_int_equal(sb.alloc, alloc);
	assert_int_equal(sb.buf[sb.len], '\0');
	/* no room for one more and its NUL: it grows */
	strbuf_addch(&sb, 'd');
	assert_true(sb.alloc > alloc);
	assert_true(sb.len < sb.alloc);
	assert_int_equal(sb.buf[sb.len - 1], 'd');
	assert_int_equal(sb.buf[sb.len], '\0');

	/* strbuf_add: exactly the room left fits, one more byte grows */
	strbuf_release(&sb);
	strbuf_add(&sb, "x", 1);
	alloc = sb.alloc;
	{
		char fill[4096];
		size_t room = alloc - sb.len - 1;

		assert_true(room < sizeof(fill));
		memset(fill, 'y', sizeof(fill));
		strbuf_add(&sb, fill, room);
		assert_int_equal(sb.alloc, alloc);
		assert_int_equal(sb.len, alloc - 1);
		assert_int_equal(sb.buf[sb.len], '\0');
		strbuf_add(&sb, NULL, 0);
		assert_int_equal(sb.alloc, alloc);
		strbuf_add(&sb, "z", 1);
		assert_true(sb.alloc > alloc);
		assert_true(sb.len < sb.alloc);
		assert_int_equal(sb.buf[alloc - 1], 'z');
		assert_int_equal(sb.buf[sb.len], '\0');
	}
	/* the NULL, 0 of an empty payload on a strbuf without storage */
	strbuf_release(&sb);
	strbuf_add(&sb, NULL, 0);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

static void check_int(long long v)
{
	struct strbuf sb = STRBUF_INIT;
	char want[32];

	/* past 2^53 only some integers are doubles */
	if ((long long)(double)v != v)
		return;
	snprintf(want, sizeof(want), "%lld", v);
	fmt_number(&sb, (double)v, true);
	if (strcmp(sb.buf, want))
		fail_msg("%lld printed as %s", v, sb.buf);
	strbuf_release(&sb);
}

static void test_integers(void **state)
{
	(void)state;
	/* every length, and around every power of ten */
	for (long long p = 1; p <= 1000000000000000000LL; p *= 10) {
		for (long long d = -2; d <= 2; d++) {
			check_int(p + d);
			check_int(-(p + d));
		}
		if (p > LLONG_MAX / 10)
			break;
	}
	for (long long v = -1000; v <= 1000; v++)
		check_int(v);
	/* doubles hold these exactly */
	check_int(9007199254740992LL);
	check_int(-9007199254740992LL);
	check_int(4611686018427387904LL);
}

/* The byte loop json_plain_end stands for. */
static const char *plain_end_slow(const char *p, const char *end)
{
	while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
		p++;
	return p;
}

static void test_json_plain_end(void **state)
{
	static const unsigned char stops[] = { '"', '\\', 0x00, 0x01, 0x0a, 0x1f };
	static const unsigned char plain[] = { 0x20, '!', '#', '[', ']', '~', 0x7f, 0x80, 0xc3,
					       0xdc, 0xe2, 0xff, '/', 'u' };
	char buf[40];
	(void)state;

	/* a stop byte at each offset of texts of each length, the others
	 * plain: found where the byte loop finds it */
	for (size_t len = 0; len <= 24; len++) {
		for (size_t k = 0; k < sizeof(plain); k++) {
			memset(buf, plain[k], sizeof(buf));
			assert_ptr_equal(json_plain_end(buf, buf + len), buf + len);
			for (size_t at = 0; at < len; at++) {
				for (size_t s = 0; s < sizeof(stops); s++) {
					memset(buf, plain[k], sizeof(buf));
					buf[at] = (char)stops[s];
					assert_ptr_equal(json_plain_end(buf, buf + len), buf + at);
					assert_ptr_equal(json_plain_end(buf, buf + len),
							 plain_end_slow(buf, buf + len));
				}
			}
		}
	}
	/* the first of two stops; nothing past end is looked at */
	memcpy(buf, "abcdefghij\"kl\\mnop", 18);
	assert_ptr_equal(json_plain_end(buf, buf + 18), buf + 10);
	assert_ptr_equal(json_plain_end(buf, buf + 10), buf + 10);
	assert_ptr_equal(json_plain_end(buf + 11, buf + 18), buf + 13);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf_room_boundary),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_json_plain_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
