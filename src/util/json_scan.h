#ifndef PERFBOT_JSON_SCAN_H
#define PERFBOT_JSON_SCAN_H
/*
 * json_plain_end: where the bytes that a JSON string holds as they are
 * (no '"', no '\\', no control byte) end, for the reader's decoding and
 * the writer's quoting.  Metric names are 20 to 80 such bytes; looking at
 * eight at a time (the classic "has a zero byte" and "has a byte less
 * than n" word tricks) took 7 ms off unite's 82 at 30,000 metrics x 10
 * runs (bench/compare.sh), where every name is read ten times and
 * written three.
 */
#include <stdint.h>
#include <string.h>

#define JSON_SCAN_ONES 0x0101010101010101ULL
#define JSON_SCAN_HIGH 0x8080808080808080ULL

/* Does the word hold a byte below n (n <= 128)? */
static inline uint64_t json_scan_below(uint64_t w, uint64_t n)
{
	return (w - JSON_SCAN_ONES * n) & ~w & JSON_SCAN_HIGH;
}

/* The first byte of [p, end) that is '"', '\\' or below 0x20, or end. */
static inline const char *json_plain_end(const char *p, const char *end)
{
	while (end - p >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		if (json_scan_below(w ^ (JSON_SCAN_ONES * '"'), 1) |
		    json_scan_below(w ^ (JSON_SCAN_ONES * '\\'), 1) |
		    json_scan_below(w, 0x20))
			break;
		p += 8;
	}
	while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
		p++;
	return p;
}

#endif
