/* pathsafe.c: the one check for path components from jobs and options. */
#include "util/error.h"
#include "util/pathsafe.h"
#include "util/printable.h"
#include "util/xalloc.h"

#include <limits.h>
#include <string.h>

const char *path_component_problem(const char *name)
{
	if (!name || !*name)
		return "it is empty";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "it is '.' or '..'";
	if (strlen(name) > NAME_MAX)
		return "it is longer than 255 bytes";
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p == '/')
			return "it contains '/'";
		if (*p < 0x20 || *p == 0x7f)
			return "it contains a control character";
	}
	return NULL;
}

void add_printable(struct strbuf *sb, const char *name)
{
	size_t at = sb->len;

	strbuf_addstr(sb, name);
	make_printable(sb->buf + at, sb->len - at, false);
}

int check_path_component(const char *name, const char *what)
{
	const char *why = path_component_problem(name);
	struct strbuf shown = STRBUF_INIT;

	if (!why)
		return 0;
	add_printable(&shown, name ? name : "");
	error("%s expected one path component (not empty, not '.' or '..', no '/' or "
	      "control character, at most 255 bytes), got '%s': %s", what, shown.buf, why);
	strbuf_release(&shown);
	return -1;
}
