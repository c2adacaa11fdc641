#ifndef PERFBOT_LKP_REGEX_H
#define PERFBOT_LKP_REGEX_H
/*
 * Matching metric names against the Ruby regexps of lkp's etc/ files,
 * for lkp_tables.c (the tables) and lkp_rule.c (patterns built from a
 * stat name).  lkp applies those files in three ways:
 *
 *   LKP_ANCHOR_NONE   stat =~ /re/          (etc/stat-denylist, ...)
 *   LKP_ANCHOR_START  stat =~ /^(re)/       (etc/failure, etc/pass, prefixes)
 *   LKP_ANCHOR_FULL   stat =~ /^(re)$/      (the *.yaml tables)
 */
#include <stdbool.h>
#include <stddef.h>

enum lkp_anchor { LKP_ANCHOR_NONE, LKP_ANCHOR_START, LKP_ANCHOR_FULL };

/*
 * A table of patterns.  by_lead: every pattern is anchored and starts
 * (after its '^') with a literal byte, and the table is sorted by that
 * byte, so only the patterns whose lead is the name's first byte are
 * tried (lkp_table_check verifies the order).
 */
struct lkp_pattern_table {
	const char *const *re;
	size_t nr;
	enum lkp_anchor anchor;
	bool by_lead;
};

/* A letter or digit, in the C locale (Ruby's \w minus '_') */
static inline bool lkp_is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

#define LKP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TABLE(arr, anchor) { arr, LKP_ARRAY_SIZE(arr), anchor, false }
#define LEAD_TABLE(arr, anchor) { arr, LKP_ARRAY_SIZE(arr), anchor, true }

/* Does s match one of t's patterns? */
bool lkp_table_match(const struct lkp_pattern_table *t, const char *s);

/* Does s match re, a table's pattern (one without a top-level '|')? */
bool lkp_table_re_match(const char *re, const char *s, enum lkp_anchor anchor);

/*
 * What the matcher derives from a table pattern's text before trying a
 * name (its literal start, lead byte, the literals a match contains), kept
 * for the next names: the caller's, for as long as it matches names
 * against one list of patterns (a table, or the re fields of an array).
 * Zeroed is empty; the facts of pattern i are derived at its first use,
 * and again when slot i was filled from another pattern or anchor.
 */
struct lkp_re_facts;
struct lkp_re_cache {
	struct lkp_re_facts *f;
	size_t nr;              /* slots allocated */
};
void lkp_re_cache_release(struct lkp_re_cache *c);

/* lkp_table_match and lkp_table_re_match (re being pattern i of a list of
 * nr), with the patterns' facts kept in c; c NULL: derived every time. */
bool lkp_table_match_cached(const struct lkp_pattern_table *t, struct lkp_re_cache *c,
			    const char *s);
bool lkp_table_re_match_cached(struct lkp_re_cache *c, size_t i, size_t nr, const char *re,
			       const char *s, enum lkp_anchor anchor);

/*
 * Is re well-formed for the matcher's fast path: no top-level '|',
 * groups and classes closed?
 */
bool lkp_table_pattern_ok(const char *re);

/*
 * Check t against what its fast path assumes (every pattern well-formed;
 * for a by_lead table: anchored, a literal lead, sorted by it).  NULL,
 * or the first offending pattern.
 */
const char *lkp_table_check(const struct lkp_pattern_table *t);

/*
 * Does s match re, a regexp in the Ruby syntax of lkp's etc/ files
 * (literals, \-escapes, ., [classes], (groups) with |, * + ? {m,n}, ^ $)?
 * full: the whole of s must match (lkp's /^re$/), else anywhere (/re/).
 * Interpreted from the text without compiling or allocating; a malformed
 * group or class is taken literally.  lkp_rule.c uses it where lkp builds
 * a regexp from a stat name.
 */
bool lkp_regex_match(const char *re, const char *s, bool full);

#endif
