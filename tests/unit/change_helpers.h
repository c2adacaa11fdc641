#ifndef PERFBOT_CHANGE_HELPERS_H
#define PERFBOT_CHANGE_HELPERS_H
/*
 * Shared by the change-rule tests (test_lkp_rule.c, test_stat_rule.c):
 * matrices from JSON text, running a rule on them, finding a record.
 * Include after test_helpers.h.
 */
#include "result/matrix.h"
#include "result/change.h"
#include "util/xalloc.h"

typedef int (*change_rule_fn)(const struct matrix *a, const struct matrix *b,
			      const struct change_options *opt, struct change_list *out);

static inline void mx_json(struct matrix *mx, const char *json)
{
	matrix_init(mx);
	assert_int_equal(matrix_parse(mx, json, strlen(json), "test.json"), 0);
}

/*
 * Run rule on NEW a and BASE b (JSON texts) into out.  Records borrow
 * their names from the matrices, released here: each record gets its own
 * copy, freed by release().
 */
static inline void run_rule(change_rule_fn rule, const char *a_json, const char *b_json,
			    const struct change_options *opt, struct change_list *out)
{
	struct matrix a, b;

	mx_json(&a, a_json);
	mx_json(&b, b_json);
	memset(out, 0, sizeof(*out));
	assert_int_equal(rule(&a, &b, opt, out), 0);
	for (int i = 0; i < out->nr; i++)
		out->r[i].stat = xstrdup(out->r[i].stat);
	matrix_release(&a);
	matrix_release(&b);
}

static inline void release(struct change_list *l)
{
	for (int i = 0; i < l->nr; i++)
		free((char *)l->r[i].stat);
	change_list_release(l);
}

static inline const struct change_record *find(const struct change_list *l, const char *stat)
{
	for (int i = 0; i < l->nr; i++)
		if (!strcmp(l->r[i].stat, stat))
			return &l->r[i];
	return NULL;
}

#endif
