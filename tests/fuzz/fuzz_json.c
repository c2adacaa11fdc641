/*
 * fuzz_json: the pull reader of JSON text (src/util/json_reader.c).
 *
 * Properties beyond "no crash, leak or undefined behaviour", from
 * json_reader.h: tokens come in a valid order (a key is followed by a
 * value, ends match begins, nesting stays within JSON_READER_MAX_DEPTH),
 * strings are NUL-terminated at len, JSON_END comes once after a whole
 * document and JSON_ERROR sticks with a message naming the text.  The
 * first byte decides whether some values are skipped with json_skip.
 */
#include "fuzz.h"
#include "util/json_reader.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned skip = size ? data[0] : 0;
	char stack[JSON_READER_MAX_DEPTH + 1];
	int depth = 0, line, col, values = 0;
	bool want_value = true;         /* after a key or at the top */
	struct json_reader jr;
	enum json_token t;

	/* not NUL-terminated: the reader must not look past len */
	json_reader_init(&jr, (const char *)data, size, "<fuzz>");
	while ((t = json_next(&jr)) > JSON_END) {
		bool in_obj = depth && stack[depth - 1] == '{';

		if (t == JSON_KEY) {
			FUZZ_CHECK(in_obj && !want_value, "a key outside an object");
			want_value = true;
		} else if (t == JSON_OBJECT_END || t == JSON_ARRAY_END) {
			FUZZ_CHECK(depth && stack[depth - 1] == (t == JSON_OBJECT_END ? '{' : '['),
				   "an end that matches no begin");
			FUZZ_CHECK(!want_value || !in_obj, "an object ended after a key");
			depth--;
			want_value = false;
		} else {
			FUZZ_CHECK(!in_obj || want_value, "a value without a key in an object");
			FUZZ_CHECK(depth || !values, "a second value at the top level");
			if (!depth)
				values++;
			want_value = false;
			if (t == JSON_STRING)
				FUZZ_CHECK(jr.str[jr.len] == '\0', "a string not NUL-terminated at len");
			if (t == JSON_OBJECT_BEGIN || t == JSON_ARRAY_BEGIN) {
				/* skip this value when the next bit of the first byte says so */
				if ((skip >>= 1) & 1) {
					if (json_skip(&jr) < 0) {
						t = JSON_ERROR;
						break;
					}
					continue;
				}
				FUZZ_CHECK(depth < JSON_READER_MAX_DEPTH, "nesting past the limit");
				stack[depth++] = t == JSON_OBJECT_BEGIN ? '{' : '[';
				want_value = t == JSON_ARRAY_BEGIN;
			}
		}
		if (t == JSON_KEY)
			FUZZ_CHECK(jr.str[jr.len] == '\0', "a key not NUL-terminated at len");
		/* in an array every item is a value */
		if (depth && stack[depth - 1] == '[')
			want_value = true;
		json_reader_linecol(&jr, jr.tok, &line, &col);
		FUZZ_CHECK(line >= 1 && col >= 1, "position %d:%d", line, col);
	}
	if (t == JSON_END) {
		FUZZ_CHECK(depth == 0 && values == 1, "the end inside a value");
		FUZZ_CHECK(json_next(&jr) == JSON_END || jr.last == JSON_END,
			   "a token after the end");
	} else {
		FUZZ_CHECK(t == JSON_ERROR, "token %d", (int)t);
		FUZZ_CHECK(!strncmp(jr.err.buf, "<fuzz>:", 7), "error '%s' names no text", jr.err.buf);
		FUZZ_CHECK(json_next(&jr) == JSON_ERROR, "JSON_ERROR did not stick");
	}
	json_reader_release(&jr);
	return 0;
}
