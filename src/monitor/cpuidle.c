/*
 * cpuidle: time and usage of each idle state of each CPU, from
 * /sys/devices/system/cpu/cpu<N>/cpuidle/state<M>/{name,time,usage}.
 *
 * lkp's monitor writes "cpu<N>.<state name, spaces as '-'>.time: us" and
 * ".usage: count" lines; its stats script sums each over the CPUs:
 * cpuidle.POLL.time, cpuidle.C1.usage.  (lkp's current shell monitor loses
 * the state name in a pipeline subshell and writes "cpu0..time"; the names
 * are kept here.)  Virtual machines often have no cpuidle driver: the
 * monitor is then unavailable.
 */
#include "monitor/monitor.h"
#include "util/bigint.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_DIR "/sys/devices/system/cpu"

static bool available(const char *root, struct strbuf *why)
{
	return root_readable(root, CPU_DIR "/cpu0/cpuidle/state0/name", why);
}

/* The state's name, read once when the sources are listed. */
static void state_name(const char *path, struct strbuf *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct strbuf buf = STRBUF_INIT;
	const char *s;
	size_t len;

	if (fd >= 0 && proc_read_fd(fd, &buf) == 0) {
		s = buf.buf;
		len = buf.len;
		while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
			len--;
		for (size_t i = 0; i < len; i++)
			strbuf_addch(name, s[i] == ' ' ? '-' : s[i]);
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&buf);
}

static int list_sources(const char *root, struct monitor_sources *out)
{
	char **cpus = list_numbered(root, CPU_DIR, "cpu");
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT, name = STRBUF_INIT,
		label = STRBUF_INIT;

	for (int i = 0; cpus[i]; i++) {
		char **states;

		strbuf_reset(&dir);
		strbuf_addf(&dir, CPU_DIR "/%s/cpuidle", cpus[i]);
		states = list_numbered(root, dir.buf, "state");
		for (int j = 0; states[j]; j++) {
			strbuf_reset(&p);
			root_path(&p, root, dir.buf);
			strbuf_addf(&p, "/%s/", states[j]);
			size_t base = p.len;

			strbuf_addstr(&p, "name");
			strbuf_reset(&name);
			state_name(p.buf, &name);
			strbuf_setlen(&p, base);
			strbuf_addstr(&p, "time");
			strbuf_reset(&label);
			strbuf_addf(&label, "%s.%s.time", cpus[i], name.buf);
			monitor_sources_add(out, SRC_VALUE, p.buf, label.buf);
			strbuf_setlen(&p, base);
			strbuf_addstr(&p, "usage");
			strbuf_reset(&label);
			strbuf_addf(&label, "%s.%s.usage", cpus[i], name.buf);
			monitor_sources_add(out, SRC_VALUE, p.buf, label.buf);
		}
		free_names(states);
	}
	free_names(cpus);
	strbuf_release(&dir);
	strbuf_release(&p);
	strbuf_release(&name);
	strbuf_release(&label);
	return 0;
}

/* lkp's stats/cpuidle: /^cpu\d+\.([^:]+): (.*)/, summed per key */
static int parse_snapshot(void *state, const char *buf, size_t len,
			  const char *name, struct strbuf *out)
{
	struct keyset keys;
	struct bigint *sum = NULL;      /* exact, as lkp's Ruby adds */
	size_t alloc = 0;
	struct line_iter it;
	struct line l;

	keyset_init(&keys);
	line_iter_init(&it, buf, len);
	while (line_next(&it, &l)) {
		const char *dot, *sep;
		size_t d;
		bool added;
		int k;

		if (l.len < 4 || memcmp(l.s, "cpu", 3))
			continue;
		d = 3 + strspn(l.s + 3, "0123456789");
		if (d == 3 || d >= l.len || l.s[d] != '.')
			continue;
		dot = l.s + d + 1;
		sep = memmem(dot, l.len - d - 1, ": ", 2);
		if (!sep || sep == dot || memchr(dot, ':', (size_t)(sep - dot)))
			continue;
		k = keyset_add(&keys, dot, (size_t)(sep - dot), &added);
		if (added) {
			ALLOC_GROW(sum, (size_t)keys.nr, alloc);
			memset(&sum[k], 0, sizeof(sum[k]));
		}
		bigint_add_to_i(&sum[k], sep + 2, l.len - (size_t)(sep + 2 - l.s));
	}
	for (int i = 0; i < keys.nr; i++) {
		strbuf_addf(out, "%s: ", keys.keys[i]);
		bigint_add_str(out, &sum[i]);
		strbuf_addch(out, '\n');
		bigint_release(&sum[i]);
	}
	free(sum);
	keyset_release(&keys);
	return 0;
}

const struct monitor monitor_cpuidle = {
	.name = "cpuidle",
	.files = CPU_DIR "/cpu*/cpuidle/state*/{name,time,usage}",
	/* lkp's cpuidle script: one snapshot at the start, one at the end,
	 * unless the job gives an interval */
	.flags = MONITOR_DEFAULT | MONITOR_TIME_NS | MONITOR_START_END,
	.available = available,
	.list_sources = list_sources,
	.parse_snapshot = parse_snapshot,
};
