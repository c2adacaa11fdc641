#ifndef PERFBOT_MONITOR_H
#define PERFBOT_MONITOR_H
/*
 * System monitors: what `perfbot run` samples while a benchmark runs, in
 * lkp-tests' formats.
 *
 * The pipeline is lkp's own, with one C sampler in place of one shell loop
 * per monitor:
 *
 *   sampler (sampler.h)      raw file <dir>/<name>: per sample "time: T"
 *                            and the file's text, as lkp's monitor writes it
 *   monitor->parse_raw       lkp's stats lines "key: value\n" (what lkp's
 *                            stats/<name> script prints for that raw file)
 *   monitor_raw_to_json      <dir>/<name>.json: {"<name>.<key>": [...]},
 *                            the time series lkp's dump-stat writes
 *   monitors_to_stats        (reduce.h) one number per metric
 *
 * Each monitor is one file, src/monitor/<name>.c, ending in a
 * `const struct monitor monitor_<ident>`, and listed once in monitors.h.
 * A monitor that cannot work on this machine (no NUMA sysfs, no cpufreq,
 * /proc/slabinfo unreadable) still registers; its available() says why.
 *
 * Paths are looked up under a root prefix ("" for the live system), so that
 * tests can point every monitor at a fake /proc and /sys tree.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <time.h>
#include "util/lines.h"
#include "util/strbuf.h"
#include "util/strmap.h"

struct held_dir;  /* util/fileio.h: a run's dir, written through its fd */

/*
 * How the sampler turns one source file into raw text.  Declared per file
 * so that the sampler, not each monitor, does the reading: one pread per
 * distinct file and tick, however many monitors name it.
 */
enum source_kind {
	SRC_TEXT,    /* the content verbatim, after the line `label` if set
		        ("node: 0" before a NUMA node's file) */
	SRC_VALUE,   /* "<label>: <content, trimmed>\n" (one-value sysfs
		        attributes: cpuidle's time and usage) */
	SRC_PAIRS,   /* each "k v" line as "<label>.<k>: <v>\n" (cpufreq's
		        time_in_state) */
};

struct monitor_source {
	char *path;              /* full path, root prefix included */
	char *label;             /* may be NULL for SRC_TEXT */
	enum source_kind kind;
};

/* A growable list of sources; a monitor's list_sources() fills it. */
struct monitor_sources {
	struct monitor_source *v;
	int nr;
	size_t alloc;
};

/* Append a source (path and label are copied; label may be NULL). */
void monitor_sources_add(struct monitor_sources *s, enum source_kind kind,
			 const char *path, const char *label);
/* Free the list. */
void monitor_sources_release(struct monitor_sources *s);
/*
 * Read the whole file behind fd from offset 0 into buf (reset first), with
 * pread: a /proc or sysfs file regenerates its content on each read at
 * offset 0, so the sampler keeps its fds open across samples.  buf keeps
 * its storage between calls: after the first samples no allocation
 * happens.  Returns 0 or -1 with errno set (no message: the sampler counts
 * failures).
 */
int proc_read_fd(int fd, struct strbuf *buf);

/* Called with each chunk of stats lines ("key: value\n", "time: T\n")
 * a parser produces; returns 0 or -1 to stop. */
typedef int (*stats_sink_fn)(void *ctx, const char *lines, size_t len);
/* The sink that appends the lines to the strbuf ctx (dumpstat.c). */
int stats_sink_strbuf(void *ctx, const char *lines, size_t len);

enum monitor_flags {
	MONITOR_DEFAULT = 1 << 0,     /* in lkp's default monitors of a
					 benchmark job (include/category/benchmark) */
	MONITOR_TIME_NS = 1 << 1,     /* raw "time:" has nanoseconds
					 (`date +%s.%N`), else seconds */
	MONITOR_NOT_SAMPLED = 1 << 2, /* written once after the run (time) */
	MONITOR_START_END = 1 << 3,   /* sampled at the start and the end only,
					 unless the job gives it an interval
					 (lkp's interrupts, softirqs, cpuidle) */
	MONITOR_STREAM = 1 << 4,      /* reads a stream opened by start() (kmsg):
					 its sample appends what arrived, raw,
					 and the stop's sample always drains it */
};

struct monitor {
	const char *name;       /* lkp's name: raw file <name>, <name>.json,
				   metric prefix "<name>." */
	const char *files;      /* what it reads, for people:
				   "/sys/devices/system/node/node*\/numastat" */
	unsigned flags;         /* enum monitor_flags */
	/*
	 * Seconds between samples when the job does not say
	 * (`<name>: {interval: N}`); 0: the run's interval (1 s unless the
	 * job or -i says).  lkp's own defaults: 10 for proc-stat; slabinfo
	 * takes 10 here (lkp: 1) because the kernel walks every slab cache on
	 * each read.  See MONITOR_START_END for the monitors lkp samples at
	 * the start and end only.  Every monitor samples at activation and at
	 * the end, which event counters (last - first) need.
	 */
	double interval;
	/*
	 * A monitor that samples one file verbatim (most /proc monitors)
	 * leaves available and list_sources NULL: `files` is then that file's
	 * path, checked for reading and sampled as SRC_TEXT.
	 *
	 * Returns true when the monitor can work under root; otherwise false
	 * with the reason appended to why ("cannot read '/proc/slabinfo':
	 * Permission denied").
	 */
	bool (*available)(const char *root, struct strbuf *why);
	/* Append the files to sample, in raw-file order.  0, or -1 after
	 * error().  NULL for MONITOR_NOT_SAMPLED monitors. */
	int (*list_sources)(const char *root, struct monitor_sources *out);
	/*
	 * Computed monitors only (vmstat); NULL means the generic sampler:
	 * "time: T" and each source as its kind says.  Append one sample's raw
	 * text to raw from text[j], the content of source j read for this
	 * sample (NULL when that read failed); the sampler reads a file once
	 * per sample however many monitors name it.  state is
	 * sample_state_size zeroed bytes kept for the whole run.  0, or -1
	 * with errno set when the sample cannot be made.
	 */
	int (*sample)(void *state, const struct strbuf *const *text, int nr,
		      const struct timespec *now, struct strbuf *raw);
	size_t sample_state_size;
	/*
	 * Parse one snapshot (the text following a "time:" line of the raw
	 * file) into lkp's stats lines "key: value\n", keys without the
	 * "<name>." prefix, appended to out.  state is parse_state_size
	 * zeroed bytes kept across the snapshots of one raw file (meminfo's
	 * running maximum).  name is the raw file's name for messages.
	 * 0, or -1 after error().
	 */
	int (*parse_snapshot)(void *state, const char *buf, size_t len,
			      const char *name, struct strbuf *out);
	size_t parse_state_size;
	/* Free what parse_snapshot allocated inside state, or NULL. */
	void (*parse_state_release)(void *state);
	/*
	 * MONITOR_STREAM monitors: open the stream into the sample state
	 * when the sampler starts, before the benchmark does (root as for
	 * list_sources); 0, or -1 after error().  release closes it when
	 * the sampler ends, saying what was lost.
	 */
	int (*start)(void *state, const char *root);
	void (*release)(void *state);
	/*
	 * After <name>.json: more stats of the raw file in dir (kmsg's
	 * dmesg.json), read and written through its fd, or NULL.  0, or -1
	 * after error().
	 */
	int (*finish)(const struct monitor *m, const struct held_dir *dir);
	/*
	 * Parse a whole raw file into stats lines, "time: T" first for each
	 * sample, handed to sink in chunks.  NULL means the generic splitter
	 * (monitor_parse_records) calling parse_snapshot.
	 */
	int (*parse_raw)(const struct monitor *m, const char *buf, size_t len,
			 const char *name, stats_sink_fn sink, void *ctx);
};

/* The registry (monitors.h), in its order. */
const struct monitor *monitor_find(const char *name);
/* NULL-terminated list of all monitors. */
const struct monitor *const *monitor_all(void);

/* Is m usable under root?  Appends the reason to why when not.  A
 * MONITOR_NOT_SAMPLED monitor is always available. */
bool monitor_available(const struct monitor *m, const char *root, struct strbuf *why);

/*
 * Split a raw file at its "time: T" lines and run m->parse_snapshot on
 * each snapshot, handing sink the "time: T" line and the stats lines of
 * each sample.  Text before the first "time:" line is an error.
 */
int monitor_parse_records(const struct monitor *m, const char *buf, size_t len,
			  const char *name, stats_sink_fn sink, void *ctx);
/* Parse a whole raw file (m->parse_raw or the splitter) into out. */
int monitor_parse(const struct monitor *m, const char *buf, size_t len,
		  const char *name, struct strbuf *out);

/*
 * lkp's dump-stat: turn stats lines (from any parser) into the time series
 * of <monitor>.json, rendered into json.  The rules are lkp's: keys get the
 * "<monitor>." prefix and "time" becomes "<monitor>.time"; a key first seen
 * in a later sample is zero-filled in front; "#" lines and empty values are
 * skipped; a value that is not a number drops its whole sample; a key
 * whose first, last and sum are all zero is dropped; when the last sample
 * lacks keys the others have, it is taken as cut short and dropped (not for
 * lkp's unstructured monitors: slabinfo, meminfo, perf-stat, ...).
 * Returns the number of metrics written (0: nothing to write; json then
 * stays empty), or -1 after error() (a key with whitespace).
 */
int monitor_stats_to_json(const char *monitor, const char *lines, size_t len,
			  struct strbuf *json);
/*
 * Read raw file <dir>/<m->name>, parse it, and write <dir>/<m->name>.json
 * atomically, both through dir's fd (a run's dir, held open: never by
 * its name, which another user may have pointed elsewhere).  Returns 1
 * when written, 0 when there was nothing to write (no raw file, or no
 * sample), -1 after error().
 */
int monitor_raw_to_json(const struct monitor *m, const struct held_dir *dir);

/* ---- helpers shared by the monitors' parsers ---- */

/* Lines and fields: util/lines.h (line_iter, split_ws, split_ws_all), the
 * toolkit the parsers use too. */
/* lkp's /^\s*[^\s]+:/ on a line's first field: a ':' after its first
 * character ("CPU0" is a header, "RCU:" and "0:" are data). */
bool field_has_colon(const char *f, size_t len);
/* Append "key: value\n" from counted strings. */
void emit_kv(struct strbuf *out, const char *key, size_t klen,
	     const char *val, size_t vlen);
/* Append root + path (root may be NULL or ""). */
void root_path(struct strbuf *sb, const char *root, const char *path);
/* true if root+path can be opened for reading; else false with
 * "cannot read '<path>': <why>" appended to why. */
bool root_readable(const char *root, const char *path, struct strbuf *why);

/* A set of keys seen in one snapshot: lkp's `awk '!x[$1]++'` (the first
 * of duplicate /proc/vmstat keys wins). */
struct keyset {
	struct strmap map;
	char **keys;
	int nr;
	size_t alloc;
};
void keyset_init(struct keyset *ks);
void keyset_clear(struct keyset *ks);
void keyset_release(struct keyset *ks);
/* Add key (copied) if new; returns its index (insertion order), with
 * *added (may be NULL) telling whether it was new. */
int keyset_add(struct keyset *ks, const char *key, size_t len, bool *added);

/*
 * Entries of root+dir named prefix<digits> ("cpu12", "node0"), sorted as
 * strings like the shell's glob (cpu0 cpu1 cpu10 cpu2), which is the order
 * of lkp's raw files.  Returns a NULL-terminated array of names; free it
 * with free_names().  An unreadable dir gives an empty list.
 */
char **list_numbered(const char *root, const char *dir, const char *prefix);
void free_names(char **names);

/* ---- the kmsg monitor: the kernel log during the run ---- */

/*
 * Reading /dev/kmsg: each read() returns one record, "prio,seq,usec,
 * flags[,...];text\n" and " KEY=value\n" dictionary lines; EPIPE when the
 * kernel overwrote the records not read yet (the next read goes on with
 * the oldest left), EAGAIN when none is left.
 */
struct kmsg_reader {
	int fd;
	/* read(2), or a test's stand-in */
	long (*read)(int fd, void *buf, unsigned long len);
	bool have_seq;                /* a record was read: next_seq is set */
	unsigned long long next_seq;  /* the sequence number expected next */
	unsigned long lost;           /* records overwritten before read, from
					 the gaps in sequence numbers */
	unsigned long overruns;       /* EPIPE reads */
	unsigned long malformed;      /* records not in the format above */
	int read_errno;               /* the first failed read's, or 0 */
	char buf[8192];               /* the kernel's longest record, and
					 more (CONSOLE_EXT_LOG_MAX) */
};

/*
 * Append record rec (one read's bytes) to out as `dmesg --decode` prints
 * it: "<facility>:<level>: [seconds.micros] text\n", the facility and
 * level names padded to 6 ("kern  :err   : [   12.345678] text"), each
 * "\x0a" escape of the text starting a new line with the same prefix.
 * The dictionary lines are dropped.  *seq is set to the record's sequence
 * number.  0, or -1 (out untouched) when rec is malformed or truncated.
 */
int kmsg_record_format(const char *rec, size_t len, unsigned long long *seq,
		       struct strbuf *out);
/*
 * Read every record waiting on r->fd into out (kmsg_record_format),
 * counting lost and malformed ones.  0 when none is left, or -1 with
 * errno set (and kept in r->read_errno) when a read fails otherwise.
 */
int kmsg_drain(struct kmsg_reader *r, struct strbuf *out);

/* ---- the time monitor: GNU time -v of the benchmark ---- */

/* What wait4() and the clock said about the benchmark process. */
struct time_result {
	const char *command;       /* shown as "Command being timed" */
	struct rusage ru;          /* from wait4 */
	int status;                /* wait status from wait4 */
	struct timespec start;     /* wall clock around the benchmark */
	struct timespec end;
	long page_size;            /* 0: sysconf(_SC_PAGESIZE) */
};

/*
 * Append GNU time's `-v` report for r (the text lkp's stats/time parses):
 * "\tUser time (seconds): 1.23\n" ... "\tExit status: 0\n", preceded by
 * "Command exited with non-zero status N" or "Command terminated by
 * signal N" as GNU time prints them.
 */
void time_format_gnu(const struct time_result *r, struct strbuf *out);
/*
 * Write <dir>/time (GNU time -v text) and <dir>/time.json (time.* metrics,
 * one sample each), both atomically, through dir's fd.  0 or -1 after
 * error().
 */
int time_write(const struct held_dir *dir, const struct time_result *r);

#endif
