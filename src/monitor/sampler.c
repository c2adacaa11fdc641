/*
 * sampler.c: the sampling thread (see sampler.h for the lifecycle).
 *
 * The thread owns everything it touches during a run (sources, buffers,
 * raw fds); the caller only sets command bits and fires the thread's
 * timer, and reads the sample counters, which are atomic.  The registry
 * and shared helpers are in monitor.c, dump-stat in dumpstat.c.
 */
#include "monitor/sampler.h"
#include "util/compiler.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <unistd.h>

/* proc_read_fd without the reset: the content goes after buf's. */
HOT_PATH static int proc_read_append(int fd, struct strbuf *buf)
{
	size_t start = buf->len;

	for (;;) {
		ssize_t n;

		/* keep a page of room: seq_file hands out whole records */
		if (buf->alloc - buf->len < 4097)
			strbuf_grow(buf, buf->alloc ? buf->alloc : 16384);
		size_t room = buf->alloc - buf->len - 1;
		n = pread(fd, buf->buf + buf->len, room, (off_t)(buf->len - start));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			strbuf_setlen(buf, start);
			return -1;
		}
		if (n == 0)
			break;
		buf->len += (size_t)n;
		/*
		 * A /proc or sysfs read stops short only at the end or when the
		 * next record does not fit; with more than a page still free,
		 * no record (a line of these files) can have failed to fit, so
		 * this was the end.  Skipping the read that would return 0
		 * halves the cost: each read at an offset makes the kernel
		 * generate the file again from the start.
		 */
		if (room - (size_t)n > 4096)
			break;
	}
	buf->buf[buf->len] = '\0';
	return 0;
}

int proc_read_fd(int fd, struct strbuf *buf)
{
	strbuf_reset(buf);
	return proc_read_append(fd, buf);
}

/* ---- the sampling thread ---- */

/*
 * What a tick costs is mostly the kernel generating the files, and on an
 * idle machine the cost of coming back to cold memory: on the VM this was
 * written on, the first touch of a 4 KiB page after a second of idleness
 * costs 7-30 us, however little is done in it, so a tick's price is about
 * the number of distinct pages it touches, code and data, user and
 * kernel.  So the thread does as little as it can, in as few pages:
 *   - one blocking read of a timerfd (no poll: commands arrive through
 *     the same timer, see poke());
 *   - one pread per distinct file (vmstat shares /proc/stat, /proc/vmstat
 *     and /proc/meminfo with proc-stat, proc-vmstat and meminfo), straight
 *     into the log below when a monitor prints the file verbatim, else
 *     into a scratch buffer: no copy, no buffer per file;
 *   - the raw text of all monitors in one log, sample after sample, so
 *     that a tick touches the log's last page or two, not a buffer per
 *     monitor; the log goes out into each monitor's raw file (a writev
 *     per file) when it holds RAW_FLUSH_SIZE bytes, since a write brings
 *     the filesystem's write path back into memory, tens of pages;
 *   - no allocation, no printf, and the tick's functions together
 *     (HOT_PATH, util/compiler.h).
 */
#define RAW_FLUSH_SIZE 262144
#define MAX_SEGMENTS 8192         /* samples in the log before a flush */

enum { CMD_ACTIVATE = 1, CMD_STOP = 2 };

/* One distinct path, read at most once a tick for all the sources naming
 * it. */
struct sampled_file {
	char *path;
	int fd;                   /* -1 when it could not be opened */
	int open_errno;
	/* this tick's content: home->buf + off, len bytes, home being the
	 * buffer it was read into (an offset, not a pointer: home may grow) */
	const struct strbuf *home;
	size_t off, len;
	unsigned long read_tick;  /* tick + 1 of the last read; 0: never */
	int read_errno;           /* its errno, 0 when it succeeded */
};

struct sampled {
	const struct monitor *m;
	struct monitor_sources src;
	int *file;                /* per source: index into sampler.files */
	struct strbuf *view;      /* per source, for m->sample: read-only
				     views (alloc 0) of the files' content */
	const struct strbuf **text; /* per source: &view[j], or NULL */
	unsigned every;           /* ticks between samples; 0: first and
				     last only */
	unsigned long last_tick;  /* tick + 1 of the last sample; 0: none */
	void *state;              /* m->sample_state_size bytes */
	bool started;             /* m->start succeeded: release it */
	struct atomic_file raw;   /* the raw file, a temp while sampling */
	int raw_fd;               /* raw.fd while raw is open, else -1 */
	atomic_int nr_samples;
	int read_failures;
	int read_errno;
	const char *read_path;    /* first failing source */
};

struct sampler {
	struct sampled *mon;
	int nr;
	struct sampled_file *files;
	int nr_files;
	size_t alloc_files;
	struct strbuf log;        /* raw text not yet written, all monitors */
	struct segment {          /* one sample of one monitor in the log */
		int mon;
		size_t off, len;
	} *seg;
	int nr_seg;
	struct iovec *iov;        /* for the writev of a flush */
	struct strbuf scratch;    /* this tick's files that no monitor prints
				     verbatim, one after the other */
	struct strbuf row;        /* a computed monitor's sample */
	const struct held_dir *dir; /* the caller's, open until the stop */
	double interval;          /* the tick: the run's interval, or less
				     when the job asks a monitor for more */
	int timer_fd;
	pthread_t thread;
	atomic_int cmd;
	bool active;
	bool reads_only;          /* sampler_opts.reads_only */
	unsigned long tick;       /* ticks so far, for sampled.every */
	struct timespec last;     /* CLOCK_MONOTONIC of the last tick */
	int write_errno;          /* first raw write failure */
	const char *write_path;
};

/* "time: <epoch>[.<ns>]" without printf (strbuf_addu) */
HOT_PATH static void add_time_line(struct strbuf *out, const struct timespec *now, bool ns)
{
	strbuf_add(out, "time: ", 6);
	strbuf_addu(out, (unsigned long long)now->tv_sec, 0);
	if (ns) {
		unsigned long long frac = (unsigned long long)now->tv_nsec;

		strbuf_addch(out, '.');
		for (unsigned long long d = 100000000; d > frac && d > 1; d /= 10)
			strbuf_addch(out, '0');
		strbuf_addu(out, frac, 0);
	}
	strbuf_addch(out, '\n');
}

static void trim(const char **s, size_t *len)
{
	while (*len && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* Append src's current content to out as its kind says. */
static void render_source(const struct monitor_source *src, const struct strbuf *buf,
			  struct strbuf *out)
{
	struct line_iter it;
	struct line l;
	struct field f[2];
	size_t len = buf->len;
	const char *s = buf->buf;

	switch (src->kind) {
	case SRC_TEXT:
		if (src->label) {
			strbuf_addstr(out, src->label);
			strbuf_addch(out, '\n');
		}
		strbuf_add(out, s, len);
		if (len && s[len - 1] != '\n')
			strbuf_addch(out, '\n');
		break;
	case SRC_VALUE:
		trim(&s, &len);
		strbuf_addstr(out, src->label);
		strbuf_add(out, ": ", 2);
		strbuf_add(out, s, len);
		strbuf_addch(out, '\n');
		break;
	case SRC_PAIRS:
		line_iter_init(&it, s, len);
		while (line_next(&it, &l)) {
			if (split_ws(l.s, l.len, f, 2) != 2)
				continue;
			strbuf_addstr(out, src->label);
			strbuf_addch(out, '.');
			emit_kv(out, f[0].s, f[0].len, f[1].s, f[1].len);
		}
		break;
	}
}

/* writev all of iov[0..n), however the kernel splits it; 0 or -1. */
static int writev_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n > IOV_MAX ? IOV_MAX : n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/* Write the log out, each monitor's samples into its raw file, and
 * empty it. */
HOT_PATH static void flush_log(struct sampler *s)
{
	for (int i = 0; i < s->nr; i++) {
		struct sampled *sm = &s->mon[i];
		int n = 0;

		if (sm->raw_fd < 0)
			continue;
		for (int k = 0; k < s->nr_seg; k++) {
			if (s->seg[k].mon != i)
				continue;
			s->iov[n].iov_base = s->log.buf + s->seg[k].off;
			s->iov[n].iov_len = s->seg[k].len;
			n++;
		}
		if (writev_all(sm->raw_fd, s->iov, n) < 0 && !s->write_errno) {
			s->write_errno = errno;
			s->write_path = sm->raw.path.buf;
		}
	}
	s->nr_seg = 0;
	strbuf_reset(&s->log);
}

/*
 * Make sure file i was read this tick: into dest (the log, when a monitor
 * prints it verbatim there) or, dest being NULL, into the scratch buffer.
 * 0, or -1 with errno set.
 */
HOT_PATH static int file_read(struct sampler *s, int i, struct strbuf *dest)
{
	struct sampled_file *f = &s->files[i];

	if (f->fd < 0) {
		errno = f->open_errno;
		return -1;
	}
	if (f->read_tick != s->tick + 1) {
		struct strbuf *home = dest ? dest : &s->scratch;

		f->read_tick = s->tick + 1;
		f->home = home;
		f->off = home->len;
		f->read_errno = proc_read_append(f->fd, home) < 0 ? errno : 0;
		f->len = home->len - f->off;
	}
	if (f->read_errno) {
		errno = f->read_errno;
		return -1;
	}
	return 0;
}

/* File i's content this tick as a read-only strbuf (alloc 0). */
HOT_PATH static void file_view(const struct sampler *s, int i, struct strbuf *view)
{
	const struct sampled_file *f = &s->files[i];

	view->alloc = 0;
	view->buf = f->home->buf + f->off;
	view->len = f->len;
}

static void note_read_failure(struct sampled *sm, const char *path)
{
	if (!sm->read_failures++) {
		sm->read_errno = errno;
		sm->read_path = path;
	}
}

HOT_PATH static void sample_monitor(struct sampler *s, int i, const struct timespec *now)
{
	struct sampled *sm = &s->mon[i];
	const struct monitor *m = sm->m;
	struct strbuf *log = &s->log;
	size_t start;

	if (m->sample) {
		/* read all first, then look: a read may move what it reads into */
		for (int j = 0; j < sm->src.nr; j++) {
			sm->text[j] = &sm->view[j];
			if (file_read(s, sm->file[j], NULL) < 0) {
				note_read_failure(sm, sm->src.v[j].path);
				sm->text[j] = NULL;
			}
		}
		for (int j = 0; j < sm->src.nr; j++)
			if (sm->text[j])
				file_view(s, sm->file[j], &sm->view[j]);
		/* into row, not the log: the views may point into the log */
		strbuf_reset(&s->row);
		if (m->sample(sm->state, sm->text, sm->src.nr, now, &s->row) < 0)
			return;
		start = log->len;
		strbuf_add(log, s->row.buf, s->row.len);
	} else {
		start = log->len;
		add_time_line(log, now, m->flags & MONITOR_TIME_NS);
		for (int j = 0; j < sm->src.nr; j++) {
			const struct monitor_source *src = &sm->src.v[j];
			const struct sampled_file *f = &s->files[sm->file[j]];
			size_t mark = log->len;
			struct strbuf view;

			if (src->kind == SRC_TEXT && src->label) {
				strbuf_addstr(log, src->label);
				strbuf_addch(log, '\n');
			}
			/* a file that vanished (a CPU gone offline) only
			 * loses its lines */
			if (file_read(s, sm->file[j], src->kind == SRC_TEXT ? log : NULL) < 0) {
				note_read_failure(sm, src->path);
				strbuf_setlen(log, mark);
				continue;
			}
			if (src->kind != SRC_TEXT) {
				file_view(s, sm->file[j], &view);
				render_source(src, &view, log);
				continue;
			}
			if (f->home != log || f->off < mark) {
				/* read earlier this tick: copy it, growing the
				 * log first, as it may be the source */
				strbuf_grow(log, f->len);
				file_view(s, sm->file[j], &view);
				strbuf_add(log, view.buf, view.len);
			}
			if (f->len && log->buf[log->len - 1] != '\n')
				strbuf_addch(log, '\n');
		}
	}
	s->seg[s->nr_seg].mon = i;
	s->seg[s->nr_seg].off = start;
	s->seg[s->nr_seg].len = log->len - start;
	s->nr_seg++;
	sm->last_tick = s->tick + 1;
	atomic_fetch_add(&sm->nr_samples, 1);
}

/*
 * Which monitors a tick samples: those due (every-th tick); all (the
 * first sample, and the last when a good part of an interval has passed
 * since the last tick); or, for a last sample a moment after a tick, those
 * that tick did not sample: the first and last samples must cover every
 * monitor, which event counters' last - first needs.
 */
enum sample_set { SAMPLE_DUE, SAMPLE_ALL, SAMPLE_NOT_LAST };

HOT_PATH static void take_sample(struct sampler *s, enum sample_set which)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	strbuf_reset(&s->scratch);
	/* room for this tick's segments */
	if (s->nr_seg + s->nr > MAX_SEGMENTS)
		flush_log(s);
	for (int i = 0; i < s->nr; i++) {
		struct sampled *sm = &s->mon[i];
		bool due;

		if (which == SAMPLE_ALL)
			due = true;
		else if (which == SAMPLE_NOT_LAST)
			due = sm->last_tick != s->tick || (sm->m->flags & MONITOR_STREAM);
		else
			due = sm->every && s->tick % sm->every == 0;
		if (due && s->reads_only) {
			for (int j = 0; j < sm->src.nr; j++)
				file_read(s, sm->file[j], NULL);
			sm->last_tick = s->tick + 1;
			atomic_fetch_add(&sm->nr_samples, 1);
		} else if (due) {
			sample_monitor(s, i, &now);
		}
	}
	if (s->log.len >= RAW_FLUSH_SIZE)
		flush_log(s);
	clock_gettime(CLOCK_MONOTONIC, &s->last);
	s->tick++;
}

static double since_last(const struct sampler *s)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - s->last.tv_sec) + (now.tv_nsec - s->last.tv_nsec) / 1e9;
}

HOT_PATH static void *sampler_main(void *arg)
{
	struct sampler *s = arg;

	for (;;) {
		uint64_t n;
		int cmd;

		/* n > 1 when we were late: one sample all the same */
		if (read(s->timer_fd, &n, sizeof(n)) < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			break;
		}
		cmd = atomic_load(&s->cmd);
		if (!s->active && (cmd & CMD_ACTIVATE)) {
			s->active = true;
			take_sample(s, SAMPLE_ALL);
			if (!(cmd & CMD_STOP))
				continue;
		}
		if (cmd & CMD_STOP) {
			if (s->active)
				take_sample(s, since_last(s) >= s->interval / 2 ?
					    SAMPLE_ALL : SAMPLE_NOT_LAST);
			break;
		}
		if (s->active)
			take_sample(s, SAMPLE_DUE);
	}
	return NULL;
}

static void sampled_release(struct sampled *sm)
{
	if (sm->started && sm->m->release)
		sm->m->release(sm->state);
	monitor_sources_release(&sm->src);
	/* a raw file not committed: its temp goes */
	if (sm->raw_fd >= 0)
		atomic_file_abort(&sm->raw);
	sm->raw_fd = -1;
	free(sm->file);
	free(sm->view);
	free(sm->text);
	free(sm->state);
}

static void sampler_free(struct sampler *s)
{
	for (int i = 0; i < s->nr; i++)
		sampled_release(&s->mon[i]);
	free(s->mon);
	for (int i = 0; i < s->nr_files; i++) {
		if (s->files[i].fd >= 0)
			close(s->files[i].fd);
		free(s->files[i].path);
	}
	free(s->files);
	strbuf_release(&s->log);
	strbuf_release(&s->scratch);
	strbuf_release(&s->row);
	free(s->seg);
	free(s->iov);
	if (s->timer_fd >= 0)
		close(s->timer_fd);
	free(s);
}

/* Index of path in the file table, opening it when new. */
static int file_index(struct sampler *s, const char *path)
{
	struct sampled_file *f;

	for (int i = 0; i < s->nr_files; i++)
		if (!strcmp(s->files[i].path, path))
			return i;
	ALLOC_GROW(s->files, (size_t)s->nr_files + 1, s->alloc_files);
	f = &s->files[s->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	f->open_errno = f->fd < 0 ? errno : 0;
	return s->nr_files++;
}

/* Ticks between samples of m: the job's interval for it, else its own
 * default, else the run's, in whole ticks (at least one); 0 for start and
 * end only. */
static unsigned ticks_between(const struct monitor *m, double job_interval,
			      double run_interval, double tick)
{
	double iv = job_interval > 0 ? job_interval :
		    m->interval > 0 ? m->interval : run_interval;
	long n;

	if (job_interval <= 0 && (m->flags & MONITOR_START_END))
		return 0;
	n = lround(iv / tick);
	return n < 1 ? 1 : (unsigned)n;
}

static int open_monitor(struct sampler *s, struct sampled *sm, const char *root)
{
	if (sm->m->flags & MONITOR_STREAM) {
		/* no file to pread: start() opens the stream below */
	} else if (!sm->m->list_sources) {
		/* a one-file monitor: `files` is its path (see monitor.h) */
		struct strbuf file = STRBUF_INIT;
		root_path(&file, root, sm->m->files);
		monitor_sources_add(&sm->src, SRC_TEXT, file.buf, NULL);
		strbuf_release(&file);
	} else if (sm->m->list_sources(root, &sm->src) < 0) {
		return -1;
	}
	sm->file = xcalloc(sm->src.nr ? sm->src.nr : 1, sizeof(*sm->file));
	sm->view = xcalloc(sm->src.nr ? sm->src.nr : 1, sizeof(*sm->view));
	sm->text = xcalloc(sm->src.nr ? sm->src.nr : 1, sizeof(*sm->text));
	for (int j = 0; j < sm->src.nr; j++)
		sm->file[j] = file_index(s, sm->src.v[j].path);
	sm->state = xcalloc(1, sm->m->sample_state_size ? sm->m->sample_state_size : 1);
	if (sm->m->start) {
		if (sm->m->start(sm->state, root) < 0)
			return -1;
		sm->started = true;
	}
	if (s->reads_only)
		return 0;
	/* a new file in the run's dir held open, through its fd: never one
	 * (or a link) that was there, never through the dir's name
	 * (fileio.h) */
	if (atomic_file_open_in(&sm->raw, s->dir, sm->m->name) < 0)
		return -1;
	sm->raw_fd = sm->raw.fd;
	return 0;
}

struct sampler *sampler_start_opts(const struct monitor *const *monitors,
				   const struct held_dir *dir, const struct sampler_opts *o)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	struct strbuf why = STRBUF_INIT;
	const char *root = o && o->root ? o->root : "";
	size_t n = 0;

	s->timer_fd = -1;
	double run_interval = o && o->interval > 0 ? o->interval : 1.0;

	/* the tick: a monitor the job wants faster than the run sets it */
	s->interval = run_interval;
	for (size_t i = 0; o && o->intervals && monitors[i]; i++)
		if (o->intervals[i] > 0 && o->intervals[i] < s->interval)
			s->interval = o->intervals[i];
	s->reads_only = o && o->reads_only;
	s->dir = dir;
	/*
	 * Touch the whole log now: filled a few KiB a tick, it would
	 * otherwise take page faults for a minute, each one dear on a cold
	 * machine.
	 */
	strbuf_init(&s->log, RAW_FLUSH_SIZE + 65536);
	memset(s->log.buf, 0, s->log.alloc);
	strbuf_init(&s->scratch, 65536);
	strbuf_init(&s->row, 1024);
	s->seg = xcalloc(MAX_SEGMENTS, sizeof(*s->seg));
	s->iov = xcalloc(MAX_SEGMENTS, sizeof(*s->iov));
	while (monitors[n])
		n++;
	s->mon = xcalloc(n ? n : 1, sizeof(*s->mon));
	for (size_t i = 0; i < n; i++) {
		const struct monitor *m = monitors[i];
		struct sampled *sm;

		strbuf_reset(&why);
		if ((m->flags & MONITOR_NOT_SAMPLED) || !monitor_available(m, root, &why))
			continue;
		sm = &s->mon[s->nr++];
		sm->m = m;
		sm->raw_fd = -1;
		sm->every = o && o->every_tick ? 1 :
			ticks_between(m, o && o->intervals ? o->intervals[i] : 0,
				      run_interval, s->interval);
		atomic_init(&sm->nr_samples, 0);
		if (open_monitor(s, sm, root) < 0)
			goto fail;
	}
	strbuf_release(&why);
	s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (s->timer_fd < 0) {
		error("cannot create the sampler's timer: %s", strerror(errno));
		goto fail;
	}
	atomic_init(&s->cmd, 0);
	if (pthread_create(&s->thread, NULL, sampler_main, s)) {
		error("cannot start the sampler thread");
		goto fail;
	}
	return s;
fail:
	strbuf_release(&why);
	sampler_free(s);
	return NULL;
}

struct sampler *sampler_start(const struct monitor *const *monitors,
			      double interval, const struct held_dir *dir)
{
	struct sampler_opts o = { .interval = interval };

	return sampler_start_opts(monitors, dir, &o);
}

/*
 * Wake the thread with cmd: the timer expires at once (1 ns from now),
 * then every interval when periodic, so that activation is also the
 * timer's phase.  One fd for ticks and commands keeps a tick to a single
 * blocking read.
 */
static void poke(struct sampler *s, int cmd, bool periodic)
{
	struct itimerspec its;
	double sec = floor(s->interval);

	memset(&its, 0, sizeof(its));
	if (periodic) {
		its.it_interval.tv_sec = (time_t)sec;
		its.it_interval.tv_nsec = (long)((s->interval - sec) * 1e9);
	}
	its.it_value.tv_nsec = 1;
	atomic_fetch_or(&s->cmd, cmd);
	if (timerfd_settime(s->timer_fd, 0, &its, NULL) < 0)
		warning("cannot signal the sampler: %s", strerror(errno));
}

void sampler_activate(struct sampler *s)
{
	if (!(atomic_load(&s->cmd) & CMD_ACTIVATE))
		poke(s, CMD_ACTIVATE, true);
}

int sampler_samples(struct sampler *s, const char *name)
{
	for (int i = 0; i < s->nr; i++)
		if (!strcmp(s->mon[i].m->name, name))
			return atomic_load(&s->mon[i].nr_samples);
	return -1;
}

double sampler_cpu_seconds(struct sampler *s)
{
	clockid_t clock;
	struct timespec ts;

	if (pthread_getcpuclockid(s->thread, &clock) || clock_gettime(clock, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int sampler_files(struct sampler *s)
{
	return s->nr_files;
}

/* Flush, fsync and rename one raw file into place; 0 or -1. */
static int finish_raw(struct sampler *s, struct sampled *sm)
{
	if (sm->raw_fd < 0)
		return 0;  /* reads only */
	if (s->write_errno)
		return 0;  /* reported by the caller */
	if (!atomic_load(&sm->nr_samples)) {
		atomic_file_abort(&sm->raw);
		sm->raw_fd = -1;
		return 0;
	}
	sm->raw_fd = -1;
	return atomic_file_commit(&sm->raw);
}

int sampler_stop(struct sampler *s)
{
	int ret = 0;

	poke(s, CMD_STOP, false);
	pthread_join(s->thread, NULL);
	flush_log(s);
	for (int i = 0; i < s->nr; i++) {
		struct sampled *sm = &s->mon[i];

		if (finish_raw(s, sm) < 0)
			ret = -1;
		if (sm->read_failures)
			warning("%s: %d reads failed, first of '%s': %s", sm->m->name,
				sm->read_failures, sm->read_path, strerror(sm->read_errno));
	}
	if (s->write_errno) {
		/* the raw files not committed are aborted by sampler_free */
		ret = error("cannot write '%s': %s", s->write_path, strerror(s->write_errno));
	} else {
		for (int i = 0; i < s->nr && ret == 0; i++)
			if (!s->reads_only && atomic_load(&s->mon[i].nr_samples) &&
			    (monitor_raw_to_json(s->mon[i].m, s->dir) < 0 ||
			     (s->mon[i].m->finish && s->mon[i].m->finish(s->mon[i].m, s->dir) < 0)))
				ret = -1;
	}
	sampler_free(s);
	return ret;
}
