/*
 * eatmem.c: lkp's memory eater as a setup step (see eatmem.h): the
 * job's keys, the bounds against MemAvailable and RLIMIT_MEMLOCK, and
 * the eater child, started and journaled by setup.c's apply and killed
 * by its undo.
 */
#include "run/eatmem.h"
#include "run/run.h"
#include "run/setup.h"
#include "run/setup_impl.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The eater locks this much at a time, checking MemAvailable between. */
#define EAT_STEP (256ULL << 20)
/* The parent gives up on an eater that reports nothing for this long. */
#define EAT_STALL_MS 120000
/* The name the eater gives itself; undo kills only a process of it. */
#define EATER_COMM "perfbot-eatmem"

/* ------------------------------------------------------------------ */
/* the job's keys */

unsigned long long run_eatmem_margin(unsigned long long mem_total)
{
	unsigned long long m = mem_total / 32;

	return m > RUN_EATMEM_MIN_MARGIN ? m : RUN_EATMEM_MIN_MARGIN;
}

/* Like setup_add_size, but rounded down: "767.9 MiB" is less than the
 * 768 MiB it is compared with, where rounding would print 768.0. */
static void add_size_down(struct strbuf *sb, unsigned long long b)
{
	unsigned long long unit = 1;
	int u = 0;

	while (u < 5 && b / unit >= 1024) {
		unit <<= 10;
		u++;
	}
	if (!u || b % unit == 0) {
		setup_add_size(sb, b);
		return;
	}
	unsigned long long tenths = b / unit * 10 + b % unit * 10 / unit;
	strbuf_addf(sb, "%llu.%llu %s", tenths / 10, tenths % 10,
		    (const char *const[]){ "", "KiB", "MiB", "GiB", "TiB", "PiB" }[u]);
}

#define SIZE_EXPECTED "a size as 16G or 512M, or N% of MemAvailable (1-100)"

/* An option of eatmem: its map's, else the job's top-level one. */
static const struct job_value *option(const struct job *job, const struct job_value *map,
				      const char *key, int *err)
{
	const struct job_value *v = map && map->kind == JOB_MAP ? job_map_get(map, key) : NULL;

	if (!v)
		v = job_lookup(job, key);
	if (!v || v->kind == JOB_NULL)
		return NULL;
	if (v->kind != JOB_SCALAR) {
		*err = setup_bad_value(v, key, "one value (split the job into atomic jobs first)");
		return NULL;
	}
	return v;
}

/* "N%", N an integer of 1..100: 0 with *pct, else -1. */
static int parse_percent(const char *text, unsigned *pct)
{
	unsigned n = 0;
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p) && n <= 100; p++)
		n = n * 10 + (unsigned)(*p - '0');
	if (strcmp(p, "%") || n < 1 || n > 100)
		return -1;
	*pct = n;
	return 0;
}

static int plan_size(const struct job_value *size, const struct job_value *leave,
		     struct run_eatmem_plan *e)
{
	if (size && leave) {
		struct strbuf where = STRBUF_INIT;
		job_source_line(leave, &where);
		error("%s: 'eatmem_leave' and 'eatmem_size' both given: give one", where.buf);
		strbuf_release(&where);
		return -1;
	}
	if (leave) {
		e->val = leave;
		snprintf(e->desc, sizeof(e->desc), "eatmem_leave '%.40s'", leave->text);
		if (run_setup_parse_size(leave->text, &e->bytes) < 0)
			return setup_bad_value(leave, "eatmem_leave", "a size as 4G or 512M");
		e->kind = RUN_EATMEM_LEAVE;
		return 0;
	}
	e->val = size;
	snprintf(e->desc, sizeof(e->desc), "eatmem_size '%.40s'", size->text);
	if (strchr(size->text, '%')) {
		if (parse_percent(size->text, &e->percent) < 0)
			return setup_bad_value(size, "eatmem_size", SIZE_EXPECTED);
		e->kind = RUN_EATMEM_PERCENT;
		return 0;
	}
	if (run_setup_parse_size(size->text, &e->bytes) < 0)
		return setup_bad_value(size, "eatmem_size", SIZE_EXPECTED);
	e->kind = RUN_EATMEM_BYTES;
	return 0;
}

int run_eatmem_plan(const struct job *job, struct run_eatmem_plan *e, struct strbuf *why)
{
	static const char *const known[] = { "eatmem_size", "eatmem_leave", "eatmem_duration",
		"eatmem_nonuma", NULL };
	const struct job_value *v = job_lookup(job, "eatmem");
	const struct job_value *size, *leave, *dur;
	int err = 0;

	memset(e, 0, sizeof(*e));
	if (!v)
		return 0;
	if (v->kind == JOB_SEQ)
		return setup_bad_value(v, "eatmem", "one mapping (split the job into atomic jobs first)");
	if (v->kind == JOB_SCALAR)
		return setup_bad_value(v, "eatmem", "a mapping with eatmem_size or eatmem_leave");
	for (size_t i = 0; v->kind == JOB_MAP && i < v->nr; i++) {
		const struct job_entry *en = &v->ent[i];
		size_t k = 0;
		if (en->comment)
			continue;
		while (known[k] && strcmp(known[k], en->key))
			k++;
		if (known[k])
			continue;
		if (!strcmp(en->key, "cpu_node_bind") || !strcmp(en->key, "mem_node_bind")) {
			strbuf_addf(why, "eatmem's %s (lkp's NUMA binding of the eater) is not "
				    "done by perfbot", en->key);
			return 1;
		}
		struct strbuf where = STRBUF_INIT;
		job_entry_where(en, &where);
		error("%s: unknown eatmem option '%s' (expected eatmem_size, eatmem_leave, "
		      "eatmem_duration or eatmem_nonuma)", where.buf, job_key_shown(en));
		strbuf_release(&where);
		return -1;
	}
	size = option(job, v, "eatmem_size", &err);
	leave = option(job, v, "eatmem_leave", &err);
	dur = option(job, v, "eatmem_duration", &err);
	if (err)
		return -1;
	if (!size && !leave) {
		/* `eatmem:` alone has no position of its own: name the key's */
		struct strbuf where = STRBUF_INIT;
		size_t pos = 0;
		for (const struct job_entry *en; (en = job_next(job, &pos)) && !where.len; )
			if (!en->comment && !strcmp(en->key, "eatmem"))
				job_entry_where(en, &where);
		error("%s: 'eatmem' expected eatmem_size (16G, or 75%% of MemAvailable) or "
		      "eatmem_leave (4G: lock all of MemAvailable but that)", where.buf);
		strbuf_release(&where);
		return -1;
	}
	if (plan_size(size, leave, e) < 0)
		return -1;
	if (dur) {
		e->duration = parse_duration(dur->text);
		if (!(e->duration > 0))
			return setup_bad_value(dur, "eatmem_duration", "a duration above 0 as 600 or 10m");
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* bounds */

int run_eatmem_resolve(const struct run_eatmem_plan *e, unsigned long long mem_total,
		       unsigned long long mem_avail, unsigned long long *bytes,
		       struct strbuf *why)
{
	unsigned long long margin = run_eatmem_margin(mem_total), want = 0;
	unsigned long long left;

	switch (e->kind) {
	case RUN_EATMEM_NONE:
		break;
	case RUN_EATMEM_BYTES:
		want = e->bytes;
		break;
	case RUN_EATMEM_PERCENT:
		/* without overflow: avail may be near 2^64 / 100 on no machine,
		 * but the arithmetic should not care */
		want = mem_avail / 100 * e->percent + mem_avail % 100 * e->percent / 100;
		break;
	case RUN_EATMEM_LEAVE:
		if (e->bytes < margin) {
			strbuf_addf(why, "%s leaves less than the safe margin of ", e->desc);
			setup_add_size(why, margin);
			strbuf_addstr(why, " (the larger of 512 MiB and MemTotal/32)");
			return 1;
		}
		want = mem_avail > e->bytes ? mem_avail - e->bytes : 0;
		break;
	}
	left = want < mem_avail ? mem_avail - want : 0;
	if (want && left < margin) {
		strbuf_addf(why, "%s would leave ", e->desc);
		add_size_down(why, left);
		strbuf_addstr(why, " of the ");
		setup_add_size(why, mem_avail);
		strbuf_addstr(why, " available (MemAvailable), less than the safe margin of ");
		setup_add_size(why, margin);
		strbuf_addstr(why, " (the larger of 512 MiB and MemTotal/32)");
		return 1;
	}
	*bytes = want;
	return 0;
}

int run_eatmem_memlock(unsigned long long bytes, unsigned long long hard, bool privileged,
		       struct strbuf *why)
{
	if (privileged || hard == (unsigned long long)RLIM_INFINITY || bytes <= hard)
		return 0;
	strbuf_addstr(why, "locking ");
	setup_add_size(why, bytes);
	strbuf_addstr(why, " needs RLIMIT_MEMLOCK of at least that, but its hard limit "
		      "(ulimit -Hl) is ");
	setup_add_size(why, hard);
	strbuf_addstr(why, ": run perfbot as root, or raise memlock (limits.conf)");
	return 1;
}

long long run_eatmem_meminfo(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen) || p[klen] != ':')
			continue;
		const char *q = p + klen + 1;
		unsigned long long kb = 0;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!isdigit((unsigned char)*q))
			return -1;
		for (; isdigit((unsigned char)*q) && kb < (1ULL << 50); q++)
			kb = kb * 10 + (unsigned long long)(*q - '0');
		return (long long)(kb * 1024);
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* the check, before any change */

/* MemTotal and MemAvailable less the RAM disks of the same setup. */
static void machine_memory(unsigned long long ram_disk, unsigned long long *total,
			   unsigned long long *avail)
{
	*total = setup_meminfo_bytes("MemTotal");
	*avail = setup_meminfo_bytes("MemAvailable");
	*avail = *avail > ram_disk ? *avail - ram_disk : 0;
}

/* The bytes to lock now, or 1 (cannot work here, printed) / -1. */
static int eat_bytes(const struct run_eatmem_plan *e, unsigned long long ram_disk,
		     unsigned long long *bytes, unsigned long long *avail, struct strbuf *log)
{
	struct strbuf why = STRBUF_INIT, where = STRBUF_INIT;
	unsigned long long total;
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	int r;

	machine_memory(ram_disk, &total, avail);
	if (!total)
		return setup_cannot(log, "eatmem: no MemTotal in /proc/meminfo");
	r = run_eatmem_resolve(e, total, *avail, bytes, &why);
	if (!r && *bytes) {
		getrlimit(RLIMIT_MEMLOCK, &rl);
		r = run_eatmem_memlock(*bytes, (unsigned long long)rl.rlim_max, geteuid() == 0,
				       &why);
	}
	if (r) {
		job_source_line(e->val, &where);
		r = setup_cannot(log, "%s: eatmem: %s", where.buf, why.buf);
	}
	strbuf_release(&why);
	strbuf_release(&where);
	return r;
}

int setup_eatmem_check(const struct run_setup_plan *plan, unsigned long long ram_disk,
		       struct strbuf *log)
{
	unsigned long long bytes, avail;

	if (plan->eatmem.kind == RUN_EATMEM_NONE)
		return 0;
	return eat_bytes(&plan->eatmem, ram_disk, &bytes, &avail, log);
}

/* ------------------------------------------------------------------ */
/* the eater: only system calls from fork on (perfbot may have threads) */

/* What the eater tells its parent: one SEQPACKET message each. */
struct eat_msg {
	char kind;                      /* 'P' progress, 'D' done, 'E' errno, 'S' short */
	int err;
	unsigned long long n;           /* bytes locked so far; 'S': MemAvailable */
};

static void say(int fd, char kind, int err, unsigned long long n)
{
	struct eat_msg m = { kind, err, n };
	ssize_t w;

	do
		w = write(fd, &m, sizeof(m));
	while (w < 0 && errno == EINTR);
}

static long long eater_avail(void)
{
	char buf[8192];
	int fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return run_eatmem_meminfo(buf, "MemAvailable");
}

static __attribute__((noreturn)) void eater(pid_t parent, int sock, unsigned long long bytes,
					    unsigned long long floor, double duration)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2 };
	struct rlimit rl;
	sigset_t none;
	char c;
	int fd;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	/* ^C at the terminal is perfbot's to handle; it then kills us */
	setpgid(0, 0);
	/* hold none of perfbot's files (its output, the store) for the run:
	 * the socket becomes fd 3, 0-2 /dev/null, the rest closed */
	if (sock != 3) {
		if (dup2(sock, 3) < 0)
			_exit(1);
		sock = 3;
	}
	fd = open("/dev/null", O_RDWR);
	for (int i = 0; i < 3 && fd >= 0; i++)
		dup2(fd, i);
	syscall(SYS_close_range, 4U, ~0U, 0U);
	prctl(PR_SET_NAME, EATER_COMM);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* if memory runs out after all, the OOM killer takes the eater */
	fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t w = write(fd, "1000", 4);
		(void)w;        /* best effort: the margin is the real guard */
		close(fd);
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
		if (geteuid() == 0)
			rl.rlim_max = RLIM_INFINITY;
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_MEMLOCK, &rl);
	}
	/* nothing is locked before the parent's journal names us */
	if (read(sock, &c, 1) != 1)
		_exit(0);
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		say(sock, 'E', errno, 0);
		_exit(1);
	}
	for (unsigned long long off = 0; off < bytes; off += EAT_STEP) {
		unsigned long long len = bytes - off < EAT_STEP ? bytes - off : EAT_STEP;
		long long avail = eater_avail();
		if (avail >= 0 && (unsigned long long)avail < floor + len) {
			say(sock, 'S', 0, (unsigned long long)avail);
			_exit(1);
		}
		/* mlock faults every page in, writable: real pages, no zero page.
		 * The system call itself: ASan's mlock is a no-op */
		if (syscall(SYS_mlock, mem + off, (size_t)len) < 0) {
			say(sock, 'E', errno, off);
			_exit(1);
		}
		say(sock, 'P', 0, off + len);
	}
	say(sock, 'D', 0, bytes);
	close(sock);
	if (duration > 0) {
		struct timespec ts = { (time_t)duration,
				       (long)((duration - (double)(time_t)duration) * 1e9) };
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	for (;;)
		pause();
}

/* ------------------------------------------------------------------ */
/* start and undo */

/* Kill our child pid and reap it: when waitpid returns, its memory is
 * free.  1 when it had exited by itself (status in *st), else 0. */
static int reap(pid_t pid, int *st)
{
	pid_t w = waitpid(pid, st, WNOHANG);

	if (w == pid)
		return 1;
	kill(pid, SIGKILL);
	while (waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
	return 0;
}

static void describe_status(struct strbuf *sb, int st)
{
	if (WIFSIGNALED(st))
		strbuf_addf(sb, "killed by signal %d%s", WTERMSIG(st),
			    WTERMSIG(st) == SIGKILL ? ", the OOM killer?" : "");
	else
		strbuf_addf(sb, "exit %d", WEXITSTATUS(st));
}

/* Read the eater's reports until done; 0, or -1 printed. */
static int wait_locked(pid_t pid, int in, unsigned long long bytes, unsigned long long floor)
{
	struct pollfd pfd = { in, POLLIN, 0 };
	struct eat_msg m;
	struct strbuf sb = STRBUF_INIT;
	unsigned long long done = 0;
	int ret = -1, st = 0;

	for (;;) {
		int r = poll(&pfd, 1, EAT_STALL_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			error("eatmem: the eater (pid %ld) locked nothing more for %d s "
			      "(at %llu of %llu bytes)", (long)pid, EAT_STALL_MS / 1000, done, bytes);
			break;
		}
		ssize_t n = read(in, &m, sizeof(m));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(m)) {
			reap(pid, &st);
			describe_status(&sb, st);
			error("eatmem: the eater (pid %ld) died while locking (%s), at %llu of "
			      "%llu bytes", (long)pid, sb.buf, done, bytes);
			break;
		}
		if (m.kind == 'P') {
			done = m.n;
			continue;
		}
		if (m.kind == 'D') {
			ret = 0;
			break;
		}
		if (m.kind == 'S') {
			setup_add_size(&sb, m.n);
			strbuf_addstr(&sb, " while the safe floor is ");
			setup_add_size(&sb, floor);
			error("eatmem: memory got short while locking (MemAvailable %s: something "
			      "else takes memory too); released", sb.buf);
		} else {
			error("eatmem: cannot lock memory: %s%s", strerror(m.err),
			      m.err == EPERM || m.err == EAGAIN || m.err == ENOMEM ?
			      " (RLIMIT_MEMLOCK, or CAP_IPC_LOCK in a container?)" : "");
		}
		break;
	}
	strbuf_release(&sb);
	return ret;
}

int setup_eatmem_start(struct run_setup *s, const struct run_setup_plan *plan,
		       unsigned long long ram_disk, struct strbuf *log)
{
	const struct run_eatmem_plan *e = &plan->eatmem;
	unsigned long long bytes = 0, avail = 0, total = setup_meminfo_bytes("MemTotal");
	struct strbuf what = STRBUF_INIT;
	int sv[2], r;
	pid_t parent = getpid(), pid;
	double t0;

	if (e->kind == RUN_EATMEM_NONE)
		return 0;
	/* MemAvailable now, not at the check: the previous run's cache */
	r = eat_bytes(e, ram_disk, &bytes, &avail, log);
	if (r)
		return -1;
	if (!bytes) {
		setup_add_size(&what, avail);
		strbuf_addf(log, "setup: eatmem: nothing to lock: %s available already, %s\n",
			    what.buf, e->desc);
		strbuf_release(&what);
		return 0;
	}
	/* one socket pair: "go" down, reports up, a message each; send() to
	 * a dead eater fails where a pipe's write would SIGPIPE perfbot */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return error("eatmem: socketpair: %s", strerror(errno));
	unsigned long long floor = run_eatmem_margin(total) / 2;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		eater(parent, sv[1], bytes, floor, e->duration);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return error("eatmem: fork: %s", strerror(errno));
	}
	r = setup_journal(s, "eatmem", "%ld %lld", (long)pid, setup_proc_start(pid, NULL));
	if (r < 0) {
		int st;
		reap(pid, &st);
	} else {
		/* from here on undo (the caller's, or the next start's) kills it */
		s->eater = (long)pid;
		setup_add_size(&what, bytes);
		strbuf_addstr(&what, " (");
		setup_add_size(&what, avail);
		strbuf_addf(&what, " available, %s", e->desc);
		strbuf_addstr(&what, ")");
		fprintf(stderr, "perfbot: eatmem: locking %s ...\n", what.buf);
		strbuf_addf(log, "setup: eatmem: locking %s, pid %ld\n", what.buf, (long)pid);
		t0 = now_seconds();
		if (send(sv[0], "g", 1, MSG_NOSIGNAL) != 1)
			r = error("eatmem: cannot start the eater: %s", strerror(errno));
		else
			r = wait_locked(pid, sv[0], bytes, floor);
		if (r == 0) {
			strbuf_reset(&what);
			setup_add_size(&what, bytes);
			fprintf(stderr, "perfbot: eatmem: locked %s in %.1f s (pid %ld)\n", what.buf,
				now_seconds() - t0, (long)pid);
			strbuf_addf(log, "setup: eatmem: locked %s in %.1f s\n", what.buf,
				    now_seconds() - t0);
			s->eaten = bytes;
			s->eat_avail = avail;
		}
	}
	close(sv[0]);
	strbuf_release(&what);
	return r;
}

/* Is pid still the eater that started at start? */
static bool is_eater(pid_t pid, long long start)
{
	struct strbuf path = STRBUF_INIT, comm = STRBUF_INIT;
	char state = '?';
	bool yes = setup_proc_start(pid, &state) == start && state != 'Z';

	strbuf_addf(&path, "/proc/%ld/comm", (long)pid);
	yes = yes && setup_read_small(path.buf, &comm) == 0 && !strcmp(comm.buf, EATER_COMM);
	strbuf_release(&path);
	strbuf_release(&comm);
	return yes;
}

int setup_eatmem_undo(const char *rest, struct strbuf *log)
{
	char *end;
	long pid = strtol(rest, &end, 10);
	long long start;
	int st = 0;

	if (pid <= 0 || *end != ' ')
		return error("bad journal line 'eatmem %s'", rest);
	start = strtoll(end + 1, &end, 10);
	if (*end)
		return error("bad journal line 'eatmem %s'", rest);
	/* our own child: its pid cannot be reused before we reap it */
	pid_t w = waitpid((pid_t)pid, &st, WNOHANG);
	if (w == pid) {
		struct strbuf sb = STRBUF_INIT;
		describe_status(&sb, st);
		strbuf_addf(log, "undo: eatmem: the eater (pid %ld) had ended before the run "
			    "did (%s)\n", pid, sb.buf);
		warning("eatmem: the eater (pid %ld) ended before the run did (%s)", pid, sb.buf);
		strbuf_release(&sb);
		return 0;
	}
	if (w == 0) {
		reap((pid_t)pid, &st);
		strbuf_addf(log, "undo: eatmem: released (pid %ld)\n", pid);
		return 0;
	}
	/* a dead perfbot's: PR_SET_PDEATHSIG killed it already, unless not */
	if (!is_eater((pid_t)pid, start))
		return 0;
	kill((pid_t)pid, SIGKILL);
	for (int i = 0; i < 100 && is_eater((pid_t)pid, start); i++)
		usleep(50000);
	if (is_eater((pid_t)pid, start))
		return error("eatmem: the eater (pid %ld) is still there after SIGKILL", pid);
	strbuf_addf(log, "undo: eatmem: killed a dead perfbot's eater (pid %ld)\n", pid);
	return 0;
}
