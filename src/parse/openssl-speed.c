/*
 * openssl-speed.c: `openssl speed rsa4096|sha256` as lkp stats.
 *
 *     sign_per_sec, verify_per_sec   from "rsa 4096 bits <times...> <rates...>",
 *                                    copied as printed
 *     <N>_size_block_Kbps            from "sha256 <6 rates>k", N the block
 *                                    sizes 16 ... 16384, as Floats
 *
 * The rsa line holds as many timing columns as rate columns (older
 * openssl: sign, verify; newer: also encrypt, decrypt), so the rates are
 * the second half, as lkp takes them.
 */
#include <stdio.h>
#include <string.h>

#include "parse/bench_util.h"
#include "util/numfmt.h"

static const char *const block_sizes[] = { "16", "64", "256", "1024", "8192", "16384" };
#define NR_BLOCKS (sizeof(block_sizes) / sizeof(block_sizes[0]))

/* lkp keeps one value per key in first-assignment order: a tiny Hash. */
struct kv {
	char key[32];
	struct strbuf val;
};

static struct kv *kv_get(struct kv *kv, size_t *nr, const char *key)
{
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp(kv[i].key, key)) {
			strbuf_reset(&kv[i].val);
			return &kv[i];
		}
	snprintf(kv[*nr].key, sizeof(kv[*nr].key), "%s", key);
	strbuf_init(&kv[*nr].val, 0);
	return &kv[(*nr)++];
}

static int parse_openssl_speed(const struct parse_input *in, struct strbuf *out)
{
	struct kv kv[2 + NR_BLOCKS];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	struct strbuf key = STRBUF_INIT, num = STRBUF_INIT;
	size_t nr = 0;
	int ret = 0;

	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;

		if (!strncmp(l, "rsa", 3) && strstr(l, "4096") &&
		    strstr(strstr(l, "4096"), "bits")) {
			size_t nr_fields, first;

			split_ws_str(&f, l);
			nr_fields = f.nr > 3 ? f.nr - 3 : 0;
			first = 3 + nr_fields / 2;
			if (nr_fields < 2 || f.nr - first < 2) {
				ret = parse_error(in, "openssl-speed", ln.no,
						  "expected 'rsa 4096 bits <times> <sign/s> <verify/s>'");
				goto out;
			}
			strbuf_addstr(&kv_get(kv, &nr, "sign_per_sec")->val, f.str[first]);
			strbuf_addstr(&kv_get(kv, &nr, "verify_per_sec")->val, f.str[first + 1]);
		} else if (!strncmp(l, "sha256", 6)) {
			split_ws_str(&f, l);
			if (f.nr < 1 + NR_BLOCKS) {
				ret = parse_error(in, "openssl-speed", ln.no,
						  "expected 'sha256' and %zu rates", NR_BLOCKS);
				goto out;
			}
			for (size_t i = 0; i < NR_BLOCKS; i++) {
				/* lkp deletes the 'k's and reads the rest with to_f */
				strbuf_reset(&num);
				for (const char *p = f.str[1 + i]; *p; p++)
					if (*p != 'k')
						strbuf_addch(&num, *p);
				strbuf_reset(&key);
				strbuf_addf(&key, "%s_size_block_Kbps", block_sizes[i]);
				fmt_ruby_float(&kv_get(kv, &nr, key.buf)->val, rb_to_f(num.buf));
			}
		}
	}
	if (!nr) {
		ret = parse_error(in, "openssl-speed", line_iter_last(&it),
				  "no 'rsa 4096 bits' or 'sha256' result line found");
		goto out;
	}
	for (size_t i = 0; i < nr; i++)
		put_str(out, kv[i].val.buf, "%s", kv[i].key);
out:
	for (size_t i = 0; i < nr; i++)
		strbuf_release(&kv[i].val);
	strbuf_release(&key);
	strbuf_release(&num);
	field_list_release(&f);
	strbuf_release(&line);
	return ret;
}

const struct parser parser_openssl_speed = { "openssl-speed", parse_openssl_speed, NULL };
