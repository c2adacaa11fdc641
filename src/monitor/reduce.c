/*
 * reduce.c: the reduction table and lkp's create_stats_matrix over a run
 * dir's <name>.json time series (see reduce.h).
 */
#include "monitor/reduce.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	R_EVENT = 1 << 0,        /* event counter: last - first */
	R_INDEPENDENT = 1 << 1,  /* independent counter: sum */
	R_IGNORE_PART = 1 << 2,  /* not cut to stats_part_begin/end */
	R_ADD_MAX = 1 << 3,      /* also "<metric>.max" */
	R_FULL = 1 << 4,         /* the pattern must match the whole name;
				    otherwise a prefix is enough */
};

/*
 * Which metric is reduced how.  Patterns: '#' is one or more digits, '$'
 * one digit, '?' any character, '*' any string; everything else literal.
 * Where an entry comes from:
 *   ECP   lkp etc/event-counter-prefixes (anchored at the start)
 *   ECPAT lkp etc/event-counter-patterns (matched anywhere: leading '*')
 *   ICP   lkp etc/independent-counter-prefixes
 *   IPP   lkp etc/ignore-part-prefixes
 *   AML   lkp etc/add-max-latency (whole name; its '.' in
 *         ".*time.elapsed_time" is a regex any-character, kept as '?')
 *   PB    perfbot's, for monitors lkp has no stats script for or whose
 *         newer fields its script skips (proc-stat, diskstats' discard and
 *         flush fields)
 */
static const struct reduce_rule {
	const char *pattern;
	unsigned flags;
} rules[] = {
	/* ECP */
	{ "cpuidle.", R_EVENT },
	{ "diskstats.io_ticks.", R_EVENT },
	{ "diskstats.read_ios.", R_EVENT },
	{ "diskstats.read_merges.", R_EVENT },
	{ "diskstats.read_sectors.", R_EVENT },
	{ "diskstats.read_ticks.", R_EVENT },
	{ "diskstats.write_ios.", R_EVENT },
	{ "diskstats.write_merges.", R_EVENT },
	{ "diskstats.write_sectors.", R_EVENT },
	{ "diskstats.write_ticks.", R_EVENT },
	{ "energy.", R_EVENT },
	{ "ethtool.", R_EVENT },
	{ "interrupts.", R_EVENT },
	{ "numa-numastat.", R_EVENT },
	{ "numa-vmstat.nr_dirtied", R_EVENT },
	{ "numa-vmstat.nr_vmscan_immediate_reclaim", R_EVENT },
	{ "numa-vmstat.nr_written", R_EVENT },
	{ "numa-vmstat.numa_", R_EVENT },
	{ "pmu-numa.total_moved", R_EVENT },
	{ "proc-vmstat.allocstall", R_EVENT },
	{ "proc-vmstat.compact_", R_EVENT },
	{ "proc-vmstat.htlb_buddy_alloc_", R_EVENT },
	{ "proc-vmstat.kswapd_", R_EVENT },
	{ "proc-vmstat.nr_dirtied", R_EVENT },
	{ "proc-vmstat.nr_promoted", R_EVENT },
	{ "proc-vmstat.nr_promote_fail", R_EVENT },
	{ "proc-vmstat.nr_promote_isolate_fail", R_EVENT },
	{ "proc-vmstat.nr_promote_ratelimit", R_EVENT },
	{ "proc-vmstat.nr_vmscan_immediate_reclaim", R_EVENT },
	{ "proc-vmstat.nr_written", R_EVENT },
	{ "proc-vmstat.numa_", R_EVENT },
	{ "proc-vmstat.pageoutrun", R_EVENT },
	{ "proc-vmstat.pg", R_EVENT },
	{ "proc-vmstat.pswp", R_EVENT },
	{ "proc-vmstat.slabs_scanned", R_EVENT },
	{ "proc-vmstat.thp_", R_EVENT },
	{ "proc-vmstat.unevictable_pgs_", R_EVENT },
	{ "proc-vmstat.zone_reclaim_failed", R_EVENT },
	{ "softirq.", R_EVENT },
	/* ECP, as lkp wrote it before its dots were escaped: "softirq." was a
	 * regex whose '.' matched the 's' of softirqs.*, the family lkp's
	 * reports show as counters (softirqs.RCU); the escaped "softirq\."
	 * names no monitor */
	{ "softirqs.", R_EVENT },
	/* ECPAT */
	{ "*numa-vmstat.node#.nr_dirtied", R_EVENT },
	{ "*numa-vmstat.node#.nr_vmscan_immediate_reclaim", R_EVENT },
	{ "*numa-vmstat.node#.nr_written", R_EVENT },
	{ "*numa-vmstat.node#.numa_", R_EVENT },
	{ "*numa-vmstat.node#.pg", R_EVENT },
	/* PB: counters since boot in /proc/stat and newer /proc/diskstats */
	{ "proc-stat.cpu", R_EVENT },
	{ "proc-stat.intr", R_EVENT | R_FULL },
	{ "proc-stat.ctxt", R_EVENT | R_FULL },
	{ "proc-stat.processes", R_EVENT | R_FULL },
	{ "proc-stat.softirq", R_EVENT | R_FULL },
	{ "diskstats.discard_ios.", R_EVENT },
	{ "diskstats.discard_merges.", R_EVENT },
	{ "diskstats.discard_sectors.", R_EVENT },
	{ "diskstats.discard_ticks.", R_EVENT },
	{ "diskstats.flush_ios.", R_EVENT },
	{ "diskstats.flush_ticks.", R_EVENT },
	/* ICP (perf-stat's also IPP) */
	{ "perf-stat.overall.", R_INDEPENDENT | R_IGNORE_PART },
	{ "perf-stat.ps.", R_INDEPENDENT | R_IGNORE_PART },
	{ "perf-stat.total.", R_INDEPENDENT | R_IGNORE_PART },
	{ "pmu-tools.", R_INDEPENDENT },
	{ "time.file_system_inputs", R_INDEPENDENT },
	{ "time.file_system_outputs", R_INDEPENDENT },
	{ "time.involuntary_context_switches", R_INDEPENDENT },
	{ "time.major_page_faults", R_INDEPENDENT },
	{ "time.minor_page_faults", R_INDEPENDENT },
	{ "time.percent_of_cpu_this_job_got", R_INDEPENDENT },
	{ "time.socket_messages_received", R_INDEPENDENT },
	{ "time.socket_messages_sent", R_INDEPENDENT },
	{ "time.swaps", R_INDEPENDENT },
	{ "time.system_time", R_INDEPENDENT },
	{ "time.user_time", R_INDEPENDENT },
	{ "time.voluntary_context_switches", R_INDEPENDENT },
	/* AML */
	{ "*time?elapsed_time", R_ADD_MAX | R_FULL },
	{ "iostat.*.await", R_ADD_MAX | R_FULL },
	{ "iostat.*.r_await", R_ADD_MAX | R_FULL },
	{ "iostat.*.w_await", R_ADD_MAX | R_FULL },
	{ "iostat.*.svctm", R_ADD_MAX | R_FULL },
	{ "iostat.*.avgqu-sz", R_ADD_MAX | R_FULL },
	{ "numa-meminfo.node$.AnonPages", R_ADD_MAX | R_FULL },
};

static bool match(const char *p, const char *s, bool prefix)
{
	for (; *p; p++, s++) {
		switch (*p) {
		case '*':
			for (const char *t = s;; t++) {
				if (match(p + 1, t, prefix))
					return true;
				if (!*t)
					return false;
			}
		case '#': {
			const char *t = s;

			while (isdigit((unsigned char)*t))
				t++;
			for (; t > s; t--)
				if (match(p + 1, t, prefix))
					return true;
			return false;
		}
		case '$':
			if (!isdigit((unsigned char)*s))
				return false;
			break;
		case '?':
			if (!*s)
				return false;
			break;
		default:
			if (*p != *s)
				return false;
		}
	}
	return prefix || !*s;
}

static bool has(const char *name, unsigned flag)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if ((rules[i].flags & flag) &&
		    match(rules[i].pattern, name, !(rules[i].flags & R_FULL)))
			return true;
	return false;
}

enum reduce_kind reduce_kind(const char *name)
{
	if (has(name, R_INDEPENDENT))
		return REDUCE_INDEPENDENT;
	if (has(name, R_EVENT))
		return REDUCE_EVENT;
	return REDUCE_GAUGE;
}

bool reduce_add_max(const char *name)
{
	return has(name, R_ADD_MAX);
}

bool reduce_ignore_part(const char *name)
{
	return has(name, R_IGNORE_PART);
}

/*
 * Ruby's Array#sum(init): integers are added exactly until the first
 * float; from there on Kahan-Babuska summation in doubles.
 */
static struct reduced ruby_sum(const double *v, const bool *is_int, int n, bool float_init)
{
	struct reduced r = { 0, !float_init };
	long long exact = 0;
	double f, c = 0;
	int i = 0;

	while (i < n && (!is_int || is_int[i]))
		exact += (long long)v[i++];
	if (i == n) {
		r.v = (double)exact;
		return r;
	}
	r.is_int = false;
	f = (double)exact;
	for (; i < n; i++) {
		double x = v[i], t;

		if (isnan(f))
			continue;
		if (isnan(x)) {
			f = x;
			continue;
		}
		if (isinf(x)) {
			f = isinf(f) && signbit(x) != signbit(f) ? NAN : x;
			continue;
		}
		if (isinf(f))
			continue;
		t = f + x;
		if (fabs(f) >= fabs(x))
			c += (f - t) + x;
		else
			c += (x - t) + f;
		f = t;
	}
	r.v = f + c;
	return r;
}

struct reduced reduce_max(const double *v, const bool *is_int, int n)
{
	struct reduced r = { v[0], !is_int || is_int[0] };

	for (int i = 1; i < n; i++)
		if (v[i] > r.v) {
			r.v = v[i];
			r.is_int = !is_int || is_int[i];
		}
	return r;
}

struct reduced reduce_series_len(const char *name, const double *v, const bool *is_int,
				 int n, int len)
{
	struct reduced r;

	if (n == 1) {
		r.v = v[0];
		r.is_int = !is_int || is_int[0];
		return r;
	}
	switch (reduce_kind(name)) {
	case REDUCE_INDEPENDENT:
		return ruby_sum(v, is_int, n, false);
	case REDUCE_EVENT:
		r.v = v[n - 1] - v[0];
		r.is_int = !is_int || (is_int[0] && is_int[n - 1]);
		return r;
	case REDUCE_GAUGE:
	default:
		r = ruby_sum(v, is_int, n, true);
		r.v /= len;
		r.is_int = false;
		return r;
	}
}

struct reduced reduce_series(const char *name, const double *v, const bool *is_int, int n)
{
	return reduce_series_len(name, v, is_int, n, n);
}

/* ---- create_stats_matrix ---- */

static void put(struct matrix *stats, const char *name, struct reduced r)
{
	struct metric *m = matrix_get_or_add(stats, name);

	m->v[0] = r.v;
	m->is_int[0] = r.is_int;
}

/* Samples of one JSON array; -1 if one is not a number. */
static int samples(json_object *arr, double **v, bool **is_int, size_t *alloc)
{
	int n = (int)json_object_array_length(arr);

	if ((size_t)n > *alloc) {
		*alloc = (size_t)n;
		*v = xrealloc(*v, sizeof(**v) * *alloc);
		*is_int = xrealloc(*is_int, sizeof(**is_int) * *alloc);
	}
	for (int i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, (size_t)i);

		switch (json_object_get_type(o)) {
		case json_type_int:
			(*v)[i] = (double)json_object_get_int64(o);
			(*is_int)[i] = true;
			break;
		case json_type_double:
			(*v)[i] = json_object_get_double(o);
			(*is_int)[i] = false;
			break;
		default:
			return -1;
		}
	}
	return n;
}

/* Index of the first v >= x, or n. */
static int first_at_least(const double *v, int n, double x)
{
	for (int i = 0; i < n; i++)
		if (v[i] >= x)
			return i;
	return n;
}

static int reduce_file(const struct held_dir *dir, const char *file, const char *monitor,
		       double begin, double end, struct matrix *stats)
{
	struct strbuf pathbuf = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	json_object *root = NULL, *tvo;
	enum json_tokener_error jerr;
	double *v = NULL, *tv = NULL;
	bool *is_int = NULL, *tv_int = NULL;
	size_t alloc = 0, tv_alloc = 0;
	int sample_size = 0, part_begin = 0, part_len, ret = 0;
	bool any_array = false;

	path_join(&pathbuf, dir->path, file);
	const char *path = pathbuf.buf;
	if (held_dir_read(dir, file, &text, FILE_TEXT_MAX) < 0) {
		strbuf_release(&pathbuf);
		return -1;
	}
	if (!text.len)
		goto out;   /* lkp: next unless File.size? */
	root = json_tokener_parse_verbose(text.buf, &jerr);
	if (!root) {
		ret = error("%s: invalid JSON: %s", path, json_tokener_error_desc(jerr));
		goto out;
	}
	if (!json_object_is_type(root, json_type_object))
		goto out;
	json_object_object_foreach(root, k0, v0) {
		(void)k0;
		if (json_object_is_type(v0, json_type_array)) {
			any_array = true;
			if ((int)json_object_array_length(v0) > sample_size)
				sample_size = (int)json_object_array_length(v0);
		}
	}
	if (!any_array)
		goto out;   /* not a time series (job.json) */

	/* lkp's stats_part window, on times relative to the first sample */
	part_len = sample_size;
	strbuf_addf(&key, "%s.time", monitor);
	if (json_object_object_get_ex(root, key.buf, &tvo) &&
	    json_object_is_type(tvo, json_type_array) &&
	    json_object_array_length(tvo) > 2 && (begin != 0 || end != 0)) {
		int n = samples(tvo, &tv, &tv_int, &tv_alloc);

		if (n > 0) {
			double tv0 = tv[0];
			if (tv0 > 2)
				for (int i = 0; i < n; i++)
					tv[i] -= tv0;
			if (begin != 0) {
				part_begin = first_at_least(tv, n, begin);
				if (part_begin == n)
					part_begin = sample_size;
				part_len -= part_begin;
			}
			if (end != 0) {
				int i_end = first_at_least(tv, n, end);
				if (i_end == n)
					i_end = sample_size;
				part_len = i_end - part_begin;
			}
		}
	}

	json_object_object_foreach(root, name, val) {
		int n, from = 0, cnt;

		if (!strcmp(name, key.buf) || !json_object_is_type(val, json_type_array))
			continue;
		n = samples(val, &v, &is_int, &alloc);
		if (n < 0) {
			warning("%s: metric '%s' has a sample that is not a number; skipped",
				path, name);
			continue;
		}
		cnt = n;
		if (!reduce_ignore_part(name)) {
			/* Ruby's v[begin, len]: nil past the end or for len < 0 */
			if (part_begin > n || part_len < 0)
				continue;
			from = part_begin;
			cnt = part_len < n - part_begin ? part_len : n - part_begin;
		}
		if (cnt <= 0)
			continue;
		put(stats, name, reduce_series_len(name, v + from, is_int + from, cnt, part_len));
		if (reduce_add_max(name)) {
			struct strbuf mx = STRBUF_INIT;

			strbuf_addf(&mx, "%s.max", name);
			put(stats, mx.buf, reduce_max(v + from, is_int + from, cnt));
			strbuf_release(&mx);
		}
	}
out:
	json_object_put(root);
	free(v);
	free(is_int);
	free(tv);
	free(tv_int);
	strbuf_release(&text);
	strbuf_release(&key);
	strbuf_release(&pathbuf);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *const not_series[] = { "stats", "matrix", "avg", "stddev", NULL };

int monitors_to_stats_part(const struct held_dir *dir, double begin, double end,
			   struct matrix *stats)
{
	/* a dir stream of its own on the held dir (closedir closes it) */
	int fd = openat(dir->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *d;
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return error("cannot open '%s': %s", dir->path, strerror(errno));
	}
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.' ||
		    (!ends_with(d->d_name, ".json") && !ends_with(d->d_name, ".json.gz")))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(d->d_name);
	}
	closedir(dh);
	qsort(names, nr, sizeof(*names), cmp_str);
	if (!stats->ncols)
		stats->ncols = 1;

	for (size_t i = 0; i < nr && !ret; i++) {
		size_t len = strlen(names[i]) - (ends_with(names[i], ".gz") ? 8 : 5);
		char *monitor = xstrndup(names[i], len);
		bool skip = false;

		for (int j = 0; not_series[j]; j++)
			skip |= !strcmp(monitor, not_series[j]);
		/* a .json.gz next to its .json: lkp would read both; the plain
		 * one is the newer (dump-stat compresses only large ones) */
		if (ends_with(names[i], ".gz") && i > 0 && !strncmp(names[i - 1], names[i], len + 5) &&
		    strlen(names[i - 1]) == len + 5)
			skip = true;
		if (!skip)
			ret = reduce_file(dir, names[i], monitor, begin, end, stats);
		free(monitor);
	}
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return ret;
}

int monitors_to_stats(const struct held_dir *dir, struct matrix *stats)
{
	return monitors_to_stats_part(dir, 0, 0, stats);
}
