/*
 * iperf.c: iperf3 --json output as lkp stats.
 *
 * The input holds one JSON document per session, concatenated (lkp splits
 * them at "}<whitespace>{").  A UDP session contributes end.sum's
 * bits_per_second, a TCP session end.sum_sent's and end.sum_received's.
 * Each kind seen is averaged over the sessions that have it:
 *
 *     tcp.sender.bps, tcp.receiver.bps, udp.bps     (Floats)
 *
 * A session that is not valid JSON or lacks bits_per_second is skipped
 * with a warning, as lkp logs and skips it; no usable session at all is
 * an error.
 */
#include <json-c/json.h>
#include <string.h>

#include "parse/bench_util.h"
#include "util/error.h"
#include "util/xalloc.h"

enum { TCP_SENDER, TCP_RECEIVER, UDP, NR_KINDS };

static const char *const kind_keys[NR_KINDS] = {
	[TCP_SENDER] = "tcp.sender.bps",
	[TCP_RECEIVER] = "tcp.receiver.bps",
	[UDP] = "udp.bps",
};

/* obj.dig("end", section, "bits_per_second"), or NULL. */
static struct json_object *dig_bps(struct json_object *doc, const char *section)
{
	struct json_object *end, *sec, *bps;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "end", &end) ||
	    !json_object_is_type(end, json_type_object) ||
	    !json_object_object_get_ex(end, section, &sec) ||
	    !json_object_is_type(sec, json_type_object) ||
	    !json_object_object_get_ex(sec, "bits_per_second", &bps))
		return NULL;
	return bps;
}

static double bps_to_f(struct json_object *o)
{
	if (json_object_is_type(o, json_type_string))
		return rb_to_f(json_object_get_string(o));
	return json_object_get_double(o);
}

/* Add one session's rates to vals; false when it has none. */
static bool add_session(struct json_object *doc, struct dvec *vals)
{
	struct json_object *udp = dig_bps(doc, "sum"), *snd, *rcv;

	if (udp) {
		dvec_push(&vals[UDP], bps_to_f(udp));
		return true;
	}
	snd = dig_bps(doc, "sum_sent");
	rcv = dig_bps(doc, "sum_received");
	if (snd)
		dvec_push(&vals[TCP_SENDER], bps_to_f(snd));
	if (rcv)
		dvec_push(&vals[TCP_RECEIVER], bps_to_f(rcv));
	return snd || rcv;
}

/* The start of the next "}\s*{" separator at or after s, or NULL. */
static const char *next_separator(const char *s, const char *end, const char **after)
{
	for (; s < end; s++) {
		const char *p;

		if (*s != '}')
			continue;
		for (p = s + 1; p < end && is_rspace((unsigned char)*p); p++)
			;
		if (p < end && *p == '{') {
			*after = p + 1;
			return s;
		}
	}
	return NULL;
}

static int parse_iperf(const struct parse_input *in, struct strbuf *out)
{
	struct dvec vals[NR_KINDS] = { DVEC_INIT, DVEC_INIT, DVEC_INIT };
	struct strbuf chunk = STRBUF_INIT;
	const char *s = in->buf, *end = in->buf + in->len, *sep, *after;
	unsigned session = 0, good = 0;

	/* lkp strips the input first */
	while (s < end && is_rspace((unsigned char)*s))
		s++;
	while (end > s && is_rspace((unsigned char)end[-1]))
		end--;
	while (s < end) {
		struct json_object *doc;
		const char *why;

		/* each piece gets back the braces the split took */
		strbuf_reset(&chunk);
		if (session)
			strbuf_addch(&chunk, '{');
		sep = next_separator(s, end, &after);
		strbuf_add(&chunk, s, (size_t)((sep ? sep : end) - s));
		if (sep)
			strbuf_addch(&chunk, '}');
		s = sep ? after : end;
		session++;

		doc = json_parse_whole(chunk.buf, chunk.len, &why);
		if (!doc) {
			warning("iperf: %s: session %u: malformed JSON: %s", in->name, session, why);
			continue;
		}
		if (add_session(doc, vals))
			good++;
		else
			warning("iperf: %s: session %u: no bits_per_second", in->name, session);
		json_object_put(doc);
	}
	for (int k = 0; k < NR_KINDS; k++)
		if (vals[k].nr)
			put_float(out, rb_fsum(vals[k].v, vals[k].nr, 0.0) / (double)vals[k].nr,
				  "%s", kind_keys[k]);
	for (int k = 0; k < NR_KINDS; k++)
		dvec_release(&vals[k]);
	strbuf_release(&chunk);
	if (!good)
		return parse_error(in, "iperf", line_count(in->buf, in->len), "no valid iperf session (expected "
				   "JSON with end.sum_sent, end.sum_received or end.sum)");
	return 0;
}

const struct parser parser_iperf = { "iperf", parse_iperf, NULL };
