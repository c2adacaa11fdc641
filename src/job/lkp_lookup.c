/*
 * lkp_lookup.c: look-ups in the generated table of lkp's programs.
 */
#include "job/lkp_programs.h"

#include <string.h>

const struct lkp_program *lkp_program_find(const char *name)
{
	for (const struct lkp_program *p = lkp_programs; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* Is `name` one blank-separated word of `list` (after an optional '=')?
 * Returns the word's type ('-' or '='), 0 when absent. */
static char word_type(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (*list) {
		const char *end = strchr(list, ' ');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char type = '-';

		if (*list == '=') {
			type = '=';
			list++;
			len--;
		}
		if (len == n && !memcmp(list, name, n))
			return type;
		list += len;
		if (*list == ' ')
			list++;
	}
	return 0;
}

bool lkp_param_known(const char *name)
{
	if (!*name)
		return false;
	for (const struct lkp_program *p = lkp_programs; p->name; p++)
		if (word_type(p->options, name) || word_type(p->params, name))
			return true;
	return false;
}
