/*
 * bench-harness: run one benchmark command the way lkp's test scripts
 * would, so that a runner (src/runner/) can describe a whole benchmark as
 * one argv:
 *
 *   bench-harness [options] [--server PROG [ARG...] --] -- PROG [ARG...]
 *
 *   --port=N|auto   the server's TCP port on 127.0.0.1 ("auto": a free
 *                   one); "{port}" in any argument becomes the number
 *
 * "{run_dir}" in any argument becomes $PERFBOT_RUN_DIR, the run's
 * directory that `perfbot run` gives the benchmark ("." without it).
 *   --wait=SEC      how long the server may take to listen (default 10)
 *   --merge-stderr  the client's stderr goes to stdout as well
 *   --adapt=NAME    pass the client's stdout through the adapt function of
 *                   runner NAME (src/runner/NAME.c); the unconverted output
 *                   goes to stderr, or to --raw=FILE
 *   --raw=FILE      see --adapt
 *   --iterations=N  run the client N times, printing lkp's
 *                   "Iterations: <i>" line before each
 *   --for=SEC       run the client again until SEC seconds have passed
 *                   (at least once), as lkp's run_for_time loops
 *
 * The server (iperf3 -s, tbench_srv, redis-server) runs in the harness's
 * process group, so that `perfbot run`'s timeout, which kills the group,
 * kills it too; its stdout and stderr go to the harness's stderr so that
 * stdout holds only the benchmark's result.  It is ready when its port is
 * in LISTEN state in /proc/net/tcp{,6}: watching the table, rather than
 * connecting, keeps one-connection servers (iperf3) from seeing a probe.
 * When the client is done the server gets SIGTERM, then SIGKILL after 5 s;
 * it also gets SIGTERM if the harness dies (PR_SET_PDEATHSIG).
 *
 * Exit status (distinct, as git bisect run's): the client's own, the
 * first non-zero of several runs, 128+N when a signal N killed it; 125
 * when the benchmark could not be run or measured at all (bad usage, the
 * server did not start or listen, the port was taken, the adapter found
 * no result).
 */
#include "runner/runner.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_CANNOT_RUN 125
#define SERVER_GRACE_S 5.0

struct harness {
	long port;              /* 0: no port */
	double wait_s;
	bool merge_stderr;
	const char *adapt;
	const char *raw_path;
	long iterations;
	double for_s;
	char **server;          /* NULL-terminated, or NULL */
	char **client;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench-harness [--port=N|auto] [--wait=SEC] [--merge-stderr]\n"
		"                     [--adapt=NAME [--raw=FILE]] [--iterations=N | --for=SEC]\n"
		"                     [--server PROG [ARG...] --] -- PROG [ARG...]\n");
	exit(EXIT_CANNOT_RUN);
}

/* A free port on 127.0.0.1, as the kernel hands out ephemeral ones. */
static long free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	long port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* Is some socket listening on port (any address, v4 or v6)? */
static bool port_listening(long port)
{
	static const char *const tables[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	char line[512];
	bool found = false;

	for (size_t i = 0; i < 2 && !found; i++) {
		FILE *f = fopen(tables[i], "r");
		if (!f)
			continue;
		/* "  0: 0100007F:1B5B 00000000:0000 0A ..." */
		while (!found && fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');
			unsigned lport, st;
			if (!colon || !(colon = strchr(colon + 1, ':')))
				continue;
			if (sscanf(colon + 1, "%x %*s %x", &lport, &st) == 2 &&
			    (long)lport == port && st == 0x0A)
				found = true;
		}
		fclose(f);
	}
	return found;
}

/* Replace every "{name}" in every argument by value (the new strings
 * live until exit). */
static void put_var(char **argv, const char *name, const char *value)
{
	size_t n = strlen(name);

	for (; argv && *argv; argv++) {
		struct strbuf sb = STRBUF_INIT;
		const char *s = *argv, *at;

		if (!strstr(s, name))
			continue;
		while ((at = strstr(s, name))) {
			strbuf_add(&sb, s, (size_t)(at - s));
			strbuf_addstr(&sb, value);
			s = at + n;
		}
		strbuf_addstr(&sb, s);
		*argv = strbuf_detach(&sb, NULL);
	}
}

static pid_t start_server(char **argv)
{
	pid_t pid = fork();

	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (null >= 0)
			dup2(null, 0);
		dup2(2, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "bench-harness: cannot run server '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

static void stop_server(pid_t pid)
{
	int status;
	double t0 = now();

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now() - t0 > SERVER_GRACE_S) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return;
		}
		usleep(10000);
	}
}

/* Wait until the server listens; 0, or -1 with a message. */
static int wait_listening(pid_t server, const char *name, long port, double wait_s)
{
	double t0 = now();
	int status;

	while (!port_listening(port)) {
		if (waitpid(server, &status, WNOHANG) == server)
			return error("the server '%s' exited before listening on port %ld", name, port);
		if (now() - t0 > wait_s)
			return error("the server '%s' is not listening on port %ld after %gs", name, port, wait_s);
		usleep(20000);
	}
	return 0;
}

/* The exit status as a shell reports it. */
static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_CANNOT_RUN;
}

/* Run the client once; its stdout to out_fd.  Returns its exit code. */
static int run_client(const struct harness *h, int out_fd)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		return EXIT_CANNOT_RUN;
	}
	if (pid == 0) {
		if (out_fd != 1)
			dup2(out_fd, 1);
		if (h->merge_stderr)
			dup2(1, 2);
		execvp(h->client[0], h->client);
		fprintf(stderr, "bench-harness: cannot run '%s': %s\n", h->client[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_CANNOT_RUN;
	return exit_code(status);
}

/* Run the client as often as asked; its stdout to out_fd. */
static int run_clients(const struct harness *h, int out_fd)
{
	double t0 = now();
	int first_bad = 0;

	for (long i = 1;; i++) {
		if (h->iterations) {
			if (i > h->iterations)
				break;
			dprintf(out_fd, "Iterations: %ld\n", i);
		}
		int rc = run_client(h, out_fd);
		if (rc && !first_bad)
			first_bad = rc;
		if (rc == EXIT_CANNOT_RUN || rc == 127)
			break;
		if (!h->iterations && (h->for_s <= 0 || now() - t0 >= h->for_s))
			break;
	}
	return first_bad;
}

/* Collect the clients' stdout through a pipe, then adapt it. */
static int run_adapted(const struct harness *h)
{
	const struct runner *r = runner_find(h->adapt);
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT, why = STRBUF_INIT;
	int fds[2], rc;
	pid_t reader;

	if (!r || !r->adapt) {
		error("no runner '%s' with an output adapter", h->adapt);
		return EXIT_CANNOT_RUN;
	}
	if (pipe(fds) < 0) {
		error("cannot make a pipe: %s", strerror(errno));
		return EXIT_CANNOT_RUN;
	}
	/* a reader process keeps the pipe drained while the clients run */
	fflush(stdout);
	reader = fork();
	if (reader == 0) {
		char buf[65536];
		ssize_t n;
		int raw_fd = h->raw_path ? open(h->raw_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : 2;
		close(fds[1]);
		while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
			if (n > 0) {
				strbuf_add(&raw, buf, (size_t)n);
				if (raw_fd >= 0 && write(raw_fd, buf, (size_t)n) < 0)
					raw_fd = -1;
			}
		}
		if (r->adapt(raw.buf, raw.len, &out, &why) < 0) {
			error("%s: %s", h->adapt, why.buf);
			_exit(EXIT_CANNOT_RUN);
		}
		fwrite(out.buf, 1, out.len, stdout);
		_exit(fflush(stdout) ? EXIT_CANNOT_RUN : 0);
	}
	close(fds[0]);
	if (reader < 0) {
		close(fds[1]);
		error("cannot fork: %s", strerror(errno));
		return EXIT_CANNOT_RUN;
	}
	rc = run_clients(h, fds[1]);
	close(fds[1]);
	int status;
	while (waitpid(reader, &status, 0) < 0 && errno == EINTR)
		;
	if (exit_code(status))
		return rc ? rc : EXIT_CANNOT_RUN;
	return rc;
}

/* --name=value options; returns the value or NULL. */
static const char *opt_value(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && arg[n] == '=' ? arg + n + 1 : NULL;
}

static double parse_positive(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < 0) {
		error("%s expects a number, got '%s'", what, s);
		usage();
	}
	return v;
}

static void parse_args(int argc, char **argv, struct harness *h)
{
	int i = 1;
	const char *v;

	h->wait_s = 10;
	for (; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "--server")) {
			int start = ++i;
			while (i < argc && strcmp(argv[i], "--"))
				i++;
			if (i >= argc || i == start)
				usage();
			argv[i] = NULL;         /* ends the server's argv */
			h->server = argv + start;
		} else if ((v = opt_value(a, "--port"))) {
			h->port = strcmp(v, "auto") ? (long)parse_positive(v, "--port") : free_port();
			if (h->port <= 0 || h->port > 65535) {
				error("no usable port ('%s')", v);
				usage();
			}
		} else if ((v = opt_value(a, "--wait"))) {
			h->wait_s = parse_positive(v, "--wait");
		} else if (!strcmp(a, "--merge-stderr")) {
			h->merge_stderr = true;
		} else if ((v = opt_value(a, "--adapt"))) {
			h->adapt = v;
		} else if ((v = opt_value(a, "--raw"))) {
			h->raw_path = v;
		} else if ((v = opt_value(a, "--iterations"))) {
			h->iterations = (long)parse_positive(v, "--iterations");
		} else if ((v = opt_value(a, "--for"))) {
			h->for_s = parse_positive(v, "--for");
		} else {
			error("unknown option '%s'", a);
			usage();
		}
	}
	if (i >= argc)
		usage();
	h->client = argv + i;
	if (h->server && !h->port) {
		error("--server needs --port");
		usage();
	}
}

int main(int argc, char **argv)
{
	struct harness h = { 0 };
	pid_t server = 0;
	int rc;

	parse_args(argc, argv, &h);
	/* the run's group may be killed with SIGTERM: the harness goes too,
	 * and PR_SET_PDEATHSIG takes the server along */
	signal(SIGPIPE, SIG_IGN);
	const char *run_dir = getenv("PERFBOT_RUN_DIR");
	put_var(h.server, "{run_dir}", run_dir && *run_dir ? run_dir : ".");
	put_var(h.client, "{run_dir}", run_dir && *run_dir ? run_dir : ".");
	if (h.port) {
		char port[16];
		snprintf(port, sizeof(port), "%ld", h.port);
		put_var(h.server, "{port}", port);
		put_var(h.client, "{port}", port);
	}
	if (h.server) {
		if (port_listening(h.port)) {
			error("port %ld is already taken: is another %s running?", h.port, h.server[0]);
			return EXIT_CANNOT_RUN;
		}
		server = start_server(h.server);
		if (server < 0 || wait_listening(server, h.server[0], h.port, h.wait_s) < 0) {
			stop_server(server);
			return EXIT_CANNOT_RUN;
		}
	}
	rc = h.adapt ? run_adapted(&h) : run_clients(&h, 1);
	stop_server(server);
	if (fflush(stdout)) {
		error("cannot write the output: %s", strerror(errno));
		return EXIT_CANNOT_RUN;
	}
	return rc;
}
