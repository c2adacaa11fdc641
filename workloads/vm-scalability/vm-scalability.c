/*
 * vm-scalability: a small, self-contained rewrite of the cases of Fengguang
 * Wu's vm-scalability suite that lkp runs most, printing the lines the
 * original prints, so that lkp's vm-scalability parser (and perfbot's,
 * src/parse/vm-scalability.c) reads them unchanged.
 *
 *   vm-scalability [--runtime=SEC] [--nr-task=N] [--size=BYTES] [--bs=BYTES]
 *                  [--dir=DIR] [--shm-dir=DIR] CASE
 *   vm-scalability --list
 *
 * Every case runs nr_task worker processes (default: one per online CPU)
 * on size bytes in all (default: per case, below), each stopping at the end
 * of its share or after runtime seconds, whichever comes first.  The
 * output is one "<date> <time>  ./case-<CASE>" line, as lkp's log_test
 * prints before the case runs (the parser closes a sample at each), then
 * one line per worker, in worker order:
 *
 *   dd style      "N bytes (1.2 GB, 1.1 GiB) copied, 2.00456 s, 600 MB/s"
 *                 (the original cases run dd; the parser divides N by the
 *                 seconds)
 *   usemem style  "N bytes / U usecs = R KB/s" (the original's usemem)
 *
 * The cases:
 *
 *   lru-file-readonce     nr_task sparse files of size/nr_task in DIR (the
 *   lru-file-readtwice    job's filesystem), each read sequentially to the
 *                         end by one reader, or by two concurrent readers
 *                         for readtwice: the seed reports' case, whose
 *                         readers fill the page cache and make reclaim
 *                         (shrink_slab, the LRU lock) the bottleneck.
 *                         Reads use a bs buffer (default 1 MiB) as `dd
 *                         bs=1M` would.  Sparse files cost no disk space:
 *                         the kernel fills the page cache with zeroes.
 *   lru-file-mmap-read    the same files mapped and read one byte per page,
 *   lru-file-mmap-read-rand  sequentially or in a scattered order: page
 *                         faults on the page cache
 *   lru-file-mmap-write   the files mapped shared and dirtied a page at a
 *                         time, then msync()ed: writeback to the disk
 *   anon-w-seq, anon-w-rand   anonymous memory of size/nr_task per worker,
 *   anon-r-seq, anon-r-rand   written or read one word per page, mapped and
 *                         unmapped again and again until runtime: the page
 *                         fault path (reads map the shared zero page)
 *   shm-pread-seq         a tmpfs file of size/nr_task per worker in
 *                         SHM_DIR (default /dev/shm), filled, then read
 *                         with pread() again and again until runtime
 *
 * Default size: the machine's memory for the lru-file-* cases (so that the
 * page cache must recycle), a quarter of it for anon-* and
 * lru-file-mmap-write, an eighth for shm-pread-seq.
 *
 * Files are unlinked as soon as they are open, so nothing is left behind
 * even when the run's timeout kills the whole process group.  Exit
 * status: 0, 1 when a worker failed (message on stderr), 2 for bad usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct opts {
	double runtime;         /* seconds */
	long nr_task;
	long long size;         /* all workers together; 0: the case's default */
	long long bs;
	const char *dir, *shm_dir;
};

/* What one worker did, in memory shared with the parent. */
struct result {
	unsigned long long bytes;
	double secs;
	int err;                /* errno of a failure, else 0 */
	char what[64];          /* the failing call */
};

enum style { DD, USEMEM };
enum kind { FILE_READ, FILE_MMAP_READ, FILE_MMAP_WRITE, ANON, SHM_PREAD };

struct vcase {
	const char *name;
	enum kind kind;
	enum style style;
	int readers;            /* per file (FILE_READ) */
	bool write, rand;
	int size_div;           /* default size: memory / size_div */
	const char *doc;
};

static const struct vcase cases[] = {
	{ "lru-file-readonce", FILE_READ, DD, 1, false, false, 1,
	  "one sequential reader per sparse file" },
	{ "lru-file-readtwice", FILE_READ, DD, 2, false, false, 1,
	  "two concurrent sequential readers per sparse file" },
	{ "lru-file-mmap-read", FILE_MMAP_READ, USEMEM, 1, false, false, 1,
	  "mapped sparse files read page by page" },
	{ "lru-file-mmap-read-rand", FILE_MMAP_READ, USEMEM, 1, false, true, 1,
	  "mapped sparse files read in scattered page order" },
	{ "lru-file-mmap-write", FILE_MMAP_WRITE, USEMEM, 1, true, false, 4,
	  "mapped files dirtied page by page, then msync'ed" },
	{ "anon-w-seq", ANON, USEMEM, 0, true, false, 4, "anonymous pages written in order" },
	{ "anon-w-rand", ANON, USEMEM, 0, true, true, 4, "anonymous pages written in scattered order" },
	{ "anon-r-seq", ANON, USEMEM, 0, false, false, 4, "anonymous pages read in order" },
	{ "anon-r-rand", ANON, USEMEM, 0, false, true, 4, "anonymous pages read in scattered order" },
	{ "shm-pread-seq", SHM_PREAD, USEMEM, 0, false, false, 8,
	  "a filled tmpfs file read with pread, again and again" },
};
#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail(struct result *res, const char *what)
{
	res->err = errno ? errno : EIO;
	snprintf(res->what, sizeof(res->what), "%s", what);
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* A stride for a scattered but complete visit of npages pages: page
 * (n * stride) % npages for n = 0..npages-1 is each page once, as the
 * stride is coprime with npages; 1 for an in-order visit. */
static size_t page_stride(size_t npages, bool rand)
{
	size_t s;

	if (!rand || npages < 3)
		return 1;
	s = (size_t)(npages * 0.618) | 1;       /* far from 1: pages far apart */
	while (gcd(s, npages) != 1)
		s += 2;
	return s;
}

static size_t nth_page(size_t n, size_t stride, size_t npages)
{
	return (size_t)(((unsigned __int128)n * stride) % npages);
}

/* Check the deadline every this many pages: a clock read per page would
 * be a noticeable share of a page fault. */
#define CHECK_EVERY 256

/* Read fd to its end (or the deadline) with a bs buffer, as dd does. */
static void work_read(int fd, const struct opts *o, double deadline, struct result *res)
{
	char *buf = aligned_alloc(4096, (size_t)((o->bs + 4095) / 4096 * 4096));
	ssize_t n;

	if (!buf) {
		fail(res, "malloc");
		return;
	}
	while (now() < deadline) {
		n = read(fd, buf, (size_t)o->bs);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(res, "read");
			break;
		}
		if (n == 0)
			break;
		res->bytes += (unsigned long long)n;
	}
	free(buf);
}

/* Touch each page of a mapping once (or until the deadline); p is
 * volatile so that the reads are not optimised away. */
static bool touch_pages(volatile char *p, size_t len, bool write, bool rand, double deadline,
			struct result *res)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), npages = len / page;
	size_t stride = page_stride(npages, rand);

	for (size_t n = 0; n < npages; n++) {
		size_t off = nth_page(n, stride, npages) * page;
		if (write)
			p[off] = (char)n;
		else
			(void)p[off];
		res->bytes += page;
		if (n % CHECK_EVERY == CHECK_EVERY - 1 && now() >= deadline)
			return false;
	}
	return true;
}

static void work_file_mmap(int fd, size_t len, const struct vcase *c, double deadline,
			   struct result *res)
{
	int prot = c->write ? PROT_READ | PROT_WRITE : PROT_READ;
	char *p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		fail(res, "mmap");
		return;
	}
	touch_pages(p, len, c->write, c->rand, deadline, res);
	/* the data must reach the disk for a write case to mean anything */
	if (c->write && msync(p, len, MS_SYNC))
		fail(res, "msync");
	munmap(p, len);
}

static void work_anon(size_t len, const struct vcase *c, double deadline, struct result *res)
{
	bool more = true;

	while (more) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			fail(res, "mmap");
			return;
		}
		more = touch_pages(p, len, c->write, c->rand, deadline, res) && now() < deadline;
		munmap(p, len);
	}
}

/* A tmpfs file of len bytes, filled; the fd, or -1 with res failed. */
static int shm_file(const struct opts *o, size_t len, struct result *res)
{
	char path[4096];
	char *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/vm-scalability.XXXXXX", o->shm_dir);
	fd = mkstemp(path);
	if (fd < 0) {
		fail(res, "mkstemp in the shm dir");
		return -1;
	}
	unlink(path);
	buf = malloc((size_t)o->bs);
	if (!buf) {
		fail(res, "malloc");
		close(fd);
		return -1;
	}
	memset(buf, 0x5a, (size_t)o->bs);
	for (size_t done = 0; done < len;) {
		size_t n = len - done < (size_t)o->bs ? len - done : (size_t)o->bs;
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fail(res, "write to the shm dir");
			free(buf);
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	free(buf);
	return fd;
}

static void work_shm(const struct opts *o, size_t len, double runtime, struct result *res)
{
	int fd = shm_file(o, len, res);
	char *buf;
	double t0, deadline;

	if (fd < 0)
		return;
	buf = malloc((size_t)o->bs);
	if (!buf) {
		fail(res, "malloc");
		close(fd);
		return;
	}
	/* the fill is setup: the clock starts now */
	t0 = now();
	deadline = t0 + runtime;
	res->secs = -t0;
	for (off_t off = 0; now() < deadline; ) {
		ssize_t n = pread(fd, buf, (size_t)o->bs, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(res, "pread");
			break;
		}
		off = n == 0 ? 0 : off + n;
		res->bytes += (unsigned long long)n;
	}
	free(buf);
	close(fd);
}

/* Print n bytes the way dd does: "1.2 GB, 1.1 GiB". */
static void dd_size(char *out, size_t len, double n)
{
	static const char *const si[] = { "kB", "MB", "GB", "TB" };
	static const char *const bin[] = { "KiB", "MiB", "GiB", "TiB" };
	int i = 0, j = 0;
	double a = n / 1000, b = n / 1024;

	while (i < 3 && a >= 1000) {
		a /= 1000;
		i++;
	}
	while (j < 3 && b >= 1024) {
		b /= 1024;
		j++;
	}
	snprintf(out, len, "%.1f %s, %.1f %s", a, si[i], b, bin[j]);
}

static void print_result(const struct vcase *c, const struct result *res)
{
	double secs = res->secs > 1e-6 ? res->secs : 1e-6;

	if (c->style == DD) {
		char size[64], rate[64];
		double r = (double)res->bytes / secs;
		const char *unit = "kB";

		dd_size(size, sizeof(size), (double)res->bytes);
		r /= 1000;
		if (r >= 1000) {
			r /= 1000;
			unit = "MB";
		}
		if (r >= 1000) {
			r /= 1000;
			unit = "GB";
		}
		snprintf(rate, sizeof(rate), "%.1f %s/s", r, unit);
		printf("%llu bytes (%s) copied, %.6f s, %s\n", res->bytes, size, secs, rate);
	} else {
		unsigned long long usecs = (unsigned long long)(secs * 1e6);
		if (!usecs)
			usecs = 1;
		printf("%llu bytes / %llu usecs = %llu KB/s\n", res->bytes, usecs,
		       (unsigned long long)((double)res->bytes / 1024 / (usecs / 1e6)));
	}
}

static long long mem_total(void)
{
	return (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
}

/* Make the nr_task sparse files (or, for a write case, empty ones of the
 * right size) and open readers fds per file, unlinking each at once. */
static int make_files(const struct vcase *c, const struct opts *o, size_t len, int *fds)
{
	char path[4096];

	for (long i = 0; i < o->nr_task; i++) {
		snprintf(path, sizeof(path), "%s/sparse-%s-%ld.XXXXXX", o->dir, c->name, i + 1);
		int fd = mkstemp(path);
		if (fd < 0 || ftruncate(fd, (off_t)len)) {
			fprintf(stderr, "vm-scalability: cannot make sparse file '%s': %s\n", path,
				strerror(errno));
			if (fd >= 0)
				unlink(path);
			return -1;
		}
		/* each reader has its own open file, so its own readahead, as
		 * two dd processes would */
		fds[i * c->readers] = fd;
		for (int k = 1; k < c->readers; k++) {
			fds[i * c->readers + k] = open(path, O_RDONLY);
			if (fds[i * c->readers + k] < 0) {
				fprintf(stderr, "vm-scalability: cannot open '%s': %s\n", path,
					strerror(errno));
				unlink(path);
				return -1;
			}
		}
		unlink(path);
	}
	return 0;
}

static void work(const struct vcase *c, const struct opts *o, size_t len, int fd,
		 struct result *res)
{
	double t0 = now(), deadline = t0 + o->runtime;

	res->secs = -t0;
	switch (c->kind) {
	case FILE_READ:
		work_read(fd, o, deadline, res);
		break;
	case FILE_MMAP_READ:
	case FILE_MMAP_WRITE:
		work_file_mmap(fd, len, c, deadline, res);
		break;
	case ANON:
		work_anon(len, c, deadline, res);
		break;
	case SHM_PREAD:
		work_shm(o, len, o->runtime, res);
		break;
	}
	res->secs += now();
}

static int run_case(const struct vcase *c, struct opts *o)
{
	long long page = sysconf(_SC_PAGESIZE);
	long nr_workers = o->nr_task * (c->readers ? c->readers : 1);
	size_t res_len = sizeof(struct result) * (size_t)nr_workers;
	int *fds = calloc((size_t)nr_workers, sizeof(int));
	struct result *res;
	size_t len;
	int status, ret = 1;
	time_t t = time(NULL);
	char stamp[32];

	if (!o->size)
		o->size = mem_total() / c->size_div;
	len = (size_t)(o->size / o->nr_task / page * page);
	if (len < (size_t)page)
		len = (size_t)page;
	res = mmap(NULL, res_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!fds || res == MAP_FAILED) {
		fprintf(stderr, "vm-scalability: out of memory\n");
		free(fds);
		return 1;
	}
	memset(res, 0, res_len);
	for (long i = 0; i < nr_workers; i++)
		fds[i] = -1;
	if ((c->kind == FILE_READ || c->kind == FILE_MMAP_READ || c->kind == FILE_MMAP_WRITE) &&
	    make_files(c, o, len, fds) < 0)
		goto out;

	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", localtime(&t));
	printf("%s  ./case-%s\n", stamp, c->name);
	fflush(stdout);

	ret = 0;
	for (long i = 0; i < nr_workers; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "vm-scalability: cannot fork: %s\n", strerror(errno));
			ret = 1;
			nr_workers = i;
			break;
		}
		if (pid == 0) {
			work(c, o, len, fds[i], &res[i]);
			_exit(res[i].err ? 1 : 0);
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = 1;
	for (long i = 0; i < nr_workers; i++) {
		if (res[i].err)
			fprintf(stderr, "vm-scalability: worker %ld: %s: %s\n", i + 1, res[i].what,
				strerror(res[i].err));
		else
			print_result(c, &res[i]);
	}
out:
	for (long i = 0; i < o->nr_task * (c->readers ? c->readers : 1); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	munmap(res, res_len);
	if (fflush(stdout))
		ret = 1;
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: vm-scalability [--runtime=SEC] [--nr-task=N] [--size=BYTES] [--bs=BYTES]\n"
		"                      [--dir=DIR] [--shm-dir=DIR] CASE\n"
		"       vm-scalability --list\n");
	exit(2);
}

/* "4k", "512m", "1g", "1048576"; -1 when malformed. */
static long long parse_bytes(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v < 0)
		return -1;
	switch (*end) {
	case '\0': return v;
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	case 't': case 'T': v <<= 40; break;
	default: return -1;
	}
	return end[1] ? -1 : v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "runtime", required_argument, NULL, 't' },
		{ "nr-task", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "bs", required_argument, NULL, 'b' },
		{ "dir", required_argument, NULL, 'd' },
		{ "shm-dir", required_argument, NULL, 'S' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o = { 300, 0, 0, 1 << 20, ".", "/dev/shm" };
	char *end;
	int c;

	o.nr_task = sysconf(_SC_NPROCESSORS_ONLN);
	while ((c = getopt_long(argc, argv, "t:n:s:b:d:S:l", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			o.runtime = strtod(optarg, &end);
			if (*end || o.runtime <= 0)
				usage();
			break;
		case 'n':
			o.nr_task = strtol(optarg, &end, 10);
			if (*end || o.nr_task < 1)
				usage();
			break;
		case 's':
			o.size = parse_bytes(optarg);
			if (o.size <= 0)
				usage();
			break;
		case 'b':
			o.bs = parse_bytes(optarg);
			if (o.bs < 1 || o.bs > (1LL << 30))
				usage();
			break;
		case 'd': o.dir = optarg; break;
		case 'S': o.shm_dir = optarg; break;
		case 'l':
			for (size_t i = 0; i < NR_CASES; i++)
				printf("%-24s %s\n", cases[i].name, cases[i].doc);
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	for (size_t i = 0; i < NR_CASES; i++)
		if (!strcmp(cases[i].name, argv[optind]))
			return run_case(&cases[i], &o);
	fprintf(stderr, "vm-scalability: unknown case '%s' (see --list)\n", argv[optind]);
	return 2;
}
