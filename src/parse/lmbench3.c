/*
 * lmbench3.c: lmbench3's results as lkp stats.
 *
 * lmbench prints one-line latencies ("Simple read: 0.3491 microseconds")
 * and some curves ("\"read bandwidth" then "<size> <MB/s>" rows until an
 * empty line).  lkp keeps a fixed selection, named as in lkp-tests:
 *
 *     one-line results       copied as printed, e.g. syscall.read.latency.us
 *     curves                 the value at the largest size ("libc bcopy",
 *                            "Memory read bandwidth", "mappings", ...)
 *     context switches       CTX.96P.<0|16|64>K.latency.us (96 processes)
 *     file read bandwidth    at the largest file size
 *     TCP socket bandwidth   at 64 bytes and 10 MB messages
 *     bw_mem -P ...          Mem.Bandwidth.MB/sec, the last row's
 *
 * The rules, their order and their state (the last "size=" seen, whether
 * a read-bandwidth or socket-bandwidth curve is open) follow lkp's parser.
 */
#include <stdbool.h>
#include <string.h>

#include "parse/bench_util.h"
#include "util/numfmt.h"

enum {
	RX_SIMPLE, RX_SELECT_FD, RX_SELECT_TCP, RX_PROCESS, RX_PIPE_LAT, RX_PIPE_BW,
	RX_UNIX_LAT, RX_UNIX_BW, RX_OPS, RX_UDP, RX_CTX_SIZE, RX_CTX_96,
	RX_READ_BW, RX_READ_ROW, RX_NOT_DIGIT, RX_TCP_LAT, RX_SOCKET_BW,
	RX_SOCKET_64B, RX_SOCKET_10MB, RX_CONNECT, RX_LIBC_BCOPY, RX_UNROLLED_BCOPY,
	RX_MEM_READ, RX_MEM_WRITE, RX_PAGEFAULTS, RX_MAPPINGS, RX_MMAP_READ,
	RX_MMAP_OPEN2CLOSE, RX_BW_MEM, RX_NR
};

/* lkp's patterns; "." stands for any character there too. */
#define NUM "([0-9]+.[0-9]+)"
static const char *const patterns[RX_NR] = {
	[RX_SIMPLE] = "^Simple ([^[:space:]]+): " NUM " microseconds$",
	[RX_SELECT_FD] = "^Select on 100 fd's: " NUM " microseconds$",
	[RX_SELECT_TCP] = "^Select on 100 tcp fd's: " NUM " microseconds$",
	[RX_PROCESS] = "^Process (fork\\+[^[:space:]]+)([[:space:]]-c)?: "
		       "([0-9]+.?[0-9]+) microseconds$",
	[RX_PIPE_LAT] = "^Pipe latency: " NUM " [^[:space:]]+$",
	[RX_PIPE_BW] = "^Pipe bandwidth: " NUM " [^[:space:]]+$",
	[RX_UNIX_LAT] = "^AF_UNIX sock stream latency: " NUM " [^[:space:]]+$",
	[RX_UNIX_BW] = "^AF_UNIX sock stream bandwidth: " NUM " [^[:space:]]+$",
	[RX_OPS] = "^(integer|int64|float|double) (bit|add|mul|div|mil): " NUM " nanoseconds$",
	[RX_UDP] = "^UDP latency using localhost: " NUM " microseconds$",
	[RX_CTX_SIZE] = "^\"size=[0-9]+k ovr=[0-9]+.[0-9]+$",
	[RX_CTX_96] = "^96 " NUM "$",
	[RX_READ_BW] = "^\"read bandwidth$",
	[RX_READ_ROW] = "^" NUM " " NUM "$",
	[RX_NOT_DIGIT] = "^[^0-9+]",
	[RX_TCP_LAT] = "^TCP latency using localhost:.+microseconds$",
	[RX_SOCKET_BW] = "^Socket bandwidth using localhost$",
	[RX_SOCKET_64B] = "^0.000064 " NUM " MB/sec$",
	[RX_SOCKET_10MB] = "^10.485760 " NUM " MB/sec$",
	[RX_CONNECT] = "^TCP/IP connection cost to localhost: " NUM " microseconds",
	[RX_LIBC_BCOPY] = "^\"libc bcopy unaligned$",
	[RX_UNROLLED_BCOPY] = "^\"unrolled bcopy unaligned$",
	[RX_MEM_READ] = "^Memory read bandwidth$",
	[RX_MEM_WRITE] = "^Memory write bandwidth$",
	[RX_PAGEFAULTS] = "^Pagefaults on (.*): (.*) microseconds",
	[RX_MAPPINGS] = "^\"mappings$",
	[RX_MMAP_READ] = "^\"Mmap read bandwidth$",
	[RX_MMAP_OPEN2CLOSE] = "^\"Mmap read open2close bandwidth$",
	[RX_BW_MEM] = "bw_mem -P",
};

/* One-line results: the stat (a format taking the groups named by the
 * indices, 0 for none) and the group holding the value. */
static const struct single {
	const char *key;
	int name_group, name_group2, value_group;
} singles[RX_NR] = {
	[RX_SIMPLE] = { "syscall.%s.latency.us", 1, 0, 2 },
	[RX_SELECT_FD] = { "Select.100fd.latency.us", 0, 0, 1 },
	[RX_SELECT_TCP] = { "Select.100tcp.latency.us", 0, 0, 1 },
	[RX_PROCESS] = { "Process.%s.latency.us", 1, 0, 3 },
	[RX_PIPE_LAT] = { "PIPE.latency.us", 0, 0, 1 },
	[RX_PIPE_BW] = { "PIPE.bandwidth.MB/sec", 0, 0, 1 },
	[RX_UNIX_LAT] = { "AF_UNIX.sock.stream.latency.us", 0, 0, 1 },
	[RX_UNIX_BW] = { "AF_UNIX.sock.stream.bandwidth.MB/sec", 0, 0, 1 },
	[RX_OPS] = { "OPS.%s.%s.latency.ns", 1, 2, 3 },
	[RX_UDP] = { "UDP.usinglocalhost.latency.us", 0, 0, 1 },
	[RX_CONNECT] = { "CONNECT.localhost.latency.us", 0, 0, 1 },
	[RX_PAGEFAULTS] = { "Pagefaults.ms", 0, 0, 2 },
};

/* Curves summarised by their value at the largest size. */
static const char *const largest_keys[RX_NR] = {
	[RX_LIBC_BCOPY] = "BCOPY.libc.bandwidth.MB/sec",
	[RX_UNROLLED_BCOPY] = "BCOPY.unrolled.bandwidth.MB/sec",
	[RX_MEM_READ] = "BCOPY.memory_read.bandwidth.MB/sec",
	[RX_MEM_WRITE] = "BCOPY.memory_write.bandwidth.MB/sec",
	[RX_MAPPINGS] = "MMAP.read.latency.us",
	[RX_MMAP_READ] = "MMAP.read.bandwidth.MB/sec",
	[RX_MMAP_OPEN2CLOSE] = "MMAP.read_open2close.bandwidth.MB/sec",
};

/* Ruby's line.chomp.empty? */
static bool blank_line(const struct strbuf *line)
{
	return !line->len || (line->len == 1 && line->buf[0] == '\r');
}

/*
 * Read "<x> <y>" rows up to an empty line; append the y of the largest x
 * (largest) or of the last row (!largest) as lkp prints it: the Integer 0
 * when no row qualifies, else a Float.
 */
static void put_curve(struct line_iter *it, struct line *ln, struct strbuf *line,
		      struct field_list *f, bool largest, const char *key,
		      struct strbuf *out)
{
	double best_x = 0, y = 0;
	bool found = false;

	while (line_next_str(it, ln, line) && !blank_line(line)) {
		double x;

		split_ws_str(f, line->buf);
		x = f->nr > 0 ? rb_to_f(f->str[0]) : 0.0;
		if (!largest || x > best_x) {
			best_x = x;
			y = f->nr > 1 ? rb_to_f(f->str[1]) : 0.0;
			found = true;
		}
	}
	strbuf_addf(out, "%s: ", key);
	if (found)
		fmt_ruby_float(out, y);
	else
		strbuf_addch(out, '0');
	strbuf_addch(out, '\n');
}

static int parse_lmbench3(const struct parse_input *in, struct strbuf *out)
{
	struct rx re[RX_NR];
	struct rx_sub m[4];
	struct line_iter it;
	struct line ln;
	struct strbuf line = STRBUF_INIT;
	struct field_list f = FIELD_LIST_INIT;
	struct strbuf g = STRBUF_INIT, g2 = STRBUF_INIT, key = STRBUF_INIT;
	struct strbuf bandwidth = STRBUF_INIT;
	bool have_size = false, read_bw = false, have_bw = false, socket_bw = false;
	long long size = 0;
	double file_size = 0;
	size_t start = out->len;
	int ret = 0;

	rx_compile_all(re, patterns, RX_NR);
	line_iter_init(&it, in->buf, in->len);
	while (line_next_str(&it, &ln, &line)) {
		const char *l = line.buf;
		int r;

		for (r = 0; r < RX_NR; r++) {
			/* conditional rules, as lkp's `when flag && /re/` */
			if (r == RX_CTX_96 && !(have_size && (size == 0 || size == 16 || size == 64)))
				continue;
			if (r == RX_READ_ROW && !read_bw)
				continue;
			if (r == RX_NOT_DIGIT) {
				/* lkp's line still ends in "\n", which [^\d+] matches */
				if (read_bw && have_bw && ((!line.len && ln.nl) ||
				    rx_match(&re[r], l, m, 4)))
					break;
				continue;
			}
			if ((r == RX_SOCKET_64B || r == RX_SOCKET_10MB) && !socket_bw)
				continue;
			if (rx_match(&re[r], l, m, 4))
				break;
		}
		if (r == RX_NR)
			continue;
		if (singles[r].key) {
			const struct single *s = &singles[r];

			strbuf_reset(&key);
			if (s->name_group2)
				strbuf_addf(&key, s->key, rx_group(&g, l, m, (size_t)s->name_group),
					    rx_group(&g2, l, m, (size_t)s->name_group2));
			else if (s->name_group)
				strbuf_addf(&key, s->key, rx_group(&g, l, m, (size_t)s->name_group));
			else
				strbuf_addstr(&key, s->key);
			put_str(out, rx_group(&g, l, m, (size_t)s->value_group), "%s", key.buf);
		} else if (largest_keys[r]) {
			put_curve(&it, &ln, &line, &f, true, largest_keys[r], out);
		} else {
			switch (r) {
			case RX_CTX_SIZE:
				/* "\"size=16k ovr=..." -> 16 */
				split_ws_str(&f, l);
				size = rb_to_i(strrchr(f.str[0], '=') + 1);
				have_size = true;
				break;
			case RX_CTX_96:
				put_str(out, rx_group(&g, l, m, 1), "CTX.96P.%lldK.latency.us", size);
				break;
			case RX_READ_BW:
				read_bw = true;
				file_size = 0;
				break;
			case RX_READ_ROW:
				if (file_size < rb_to_f(rx_group(&g, l, m, 1))) {
					file_size = rb_to_f(g.buf);
					rx_group(&bandwidth, l, m, 2);
					have_bw = true;
				}
				break;
			case RX_NOT_DIGIT:
				put_str(out, bandwidth.buf, "FILE.read.bandwidth.MB/sec");
				read_bw = false;
				break;
			case RX_TCP_LAT:
				split_ws_str(&f, l);
				put_str(out, f.str[f.nr - 2], "TCP.localhost.latency");
				break;
			case RX_SOCKET_BW:
				socket_bw = true;
				break;
			case RX_SOCKET_64B:
			case RX_SOCKET_10MB:
				put_str(out, rx_group(&g, l, m, 1), "TCP.socket.bandwidth.%s.MB/sec",
					r == RX_SOCKET_64B ? "64B" : "10MB");
				break;
			case RX_BW_MEM:
				put_curve(&it, &ln, &line, &f, false, "Mem.Bandwidth.MB/sec", out);
				break;
			}
		}
	}
	if (out->len == start)
		ret = parse_error(in, "lmbench3", line_iter_last(&it), "no lmbench3 results found");
	field_list_release(&f);
	strbuf_release(&g);
	strbuf_release(&g2);
	strbuf_release(&key);
	strbuf_release(&bandwidth);
	strbuf_release(&line);
	rx_free_all(re, RX_NR);
	return ret;
}

const struct parser parser_lmbench3 = { "lmbench3", parse_lmbench3, NULL };
