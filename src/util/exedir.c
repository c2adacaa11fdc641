/*
 * exedir.c: companion directories next to the running executable (see
 * exedir.h).
 */
#include "util/exedir.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int exe_dir(struct strbuf *sb)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	strbuf_addstr(sb, exe);
	return 0;
}

void exe_sibling_pick(struct strbuf *sb, const char *dir, const char *sub, const char *marker)
{
	struct strbuf cand = STRBUF_INIT;
	struct stat st;

	strbuf_addf(&cand, "%s/%s", dir, sub);
	if (marker)
		strbuf_addf(&cand, "/%s", marker);
	if (stat(cand.buf, &st) == 0 && (marker || S_ISDIR(st.st_mode)))
		strbuf_addf(sb, "%s/%s", dir, sub);
	else
		strbuf_addf(sb, "%s/build/%s", dir, sub);
	strbuf_release(&cand);
}

void exe_sibling_dir(struct strbuf *sb, const char *env, const char *sub, const char *marker)
{
	const char *val = env ? getenv(env) : NULL;
	struct strbuf dir = STRBUF_INIT;

	if (val && *val)
		strbuf_addstr(sb, val);
	else if (exe_dir(&dir) == 0)
		exe_sibling_pick(sb, dir.buf, sub, marker);
	else
		strbuf_addf(sb, "build/%s", sub);
	strbuf_release(&dir);
}
