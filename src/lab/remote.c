/*
 * remote.c: runs made on the lab's boxes for this machine (remote.h).
 */
#include "lab/remote.h"
#include "job/job.h"
#include "job/split.h"
#include "lab/queue.h"
#include "pg/schema.h"
#include "lab/upload.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static struct lab_remote_entry *find(struct lab_remote *r, long long id)
{
	for (int i = 0; i < r->nr; i++)
		if (r->e[i].id == id)
			return &r->e[i];
	return NULL;
}

static void add(struct lab_remote *r, long long id, const char *commit)
{
	ALLOC_GROW(r->e, (size_t)r->nr + 1, r->alloc);
	r->e[r->nr].id = id;
	r->e[r->nr].commit = xstrdup(commit);
	r->e[r->nr].fetched = false;
	r->nr++;
}

/* Append a line to the journal, durably: it is what a resume trusts. */
__attribute__((format(printf, 2, 3)))
static int journal(struct lab_remote *r, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int fd, n;

	if (!r->journal)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return error("'%s': a line too long for the journal", r->journal);
	/* a journal in a state dir others may write: never through a link */
	fd = open_nofollow(r->journal, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, "write");
	if (fd < 0)
		return -1;
	if (write(fd, line, (size_t)n) != n || fsync(fd) < 0) {
		error("cannot write '%s': %s", r->journal, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void add_unsure(struct lab_remote *r, const char *ref, const char *commit)
{
	ALLOC_GROW(r->unsure, (size_t)r->nr_unsure + 1, r->alloc_unsure);
	r->unsure[r->nr_unsure].ref = xstrdup(ref);
	r->unsure[r->nr_unsure].commit = xstrdup(commit);
	r->nr_unsure++;
}

static void drop_unsure(struct lab_remote *r, int i)
{
	free(r->unsure[i].ref);
	free(r->unsure[i].commit);
	r->unsure[i] = r->unsure[--r->nr_unsure];
}

/* 64 MiB: a journal line is under 200 bytes, four a batch of jobs */
#define JOURNAL_MAX_BYTES (64u << 20)

static int read_journal(struct lab_remote *r)
{
	struct strbuf text = STRBUF_INIT;
	int lineno = 0, ret = 0;

	struct stat st;
	int fd;

	if (lstat(r->journal, &st) < 0 && errno == ENOENT)
		return 0;
	/* a journal in a state dir others may write: never through a link,
	 * and bounded (a few lines a batch) */
	fd = open_nofollow(r->journal, O_RDONLY | O_CLOEXEC, "read");
	if (fd < 0)
		return -1;
	ret = read_fd_limited(&text, fd, r->journal, JOURNAL_MAX_BYTES, 0);
	close(fd);
	if (ret < 0) {
		strbuf_release(&text);
		return -1;
	}
	for (char *l = text.buf; *l && !ret; ) {
		char *nl = strchr(l, '\n'), commit[128], ref[LAB_REF_LEN + 1], end;
		long long id;
		if (!nl)
			break;          /* a line cut by a crash: it never counted */
		*nl = '\0';
		lineno++;
		/* each kind by its whole first word: "submit" is a prefix of "submitted" */
		if (!strncmp(l, "submitted ", 10) && sscanf(l, "submitted %32s %c", ref, &end) == 1) {
			for (int i = 0; i < r->nr_unsure; i++)
				if (!strcmp(r->unsure[i].ref, ref)) {
					drop_unsure(r, i);
					break;
				}
		} else if (!strncmp(l, "submit ", 7) &&
			   sscanf(l, "submit %32s %127s %c", ref, commit, &end) == 2) {
			add_unsure(r, ref, commit);
		} else if (sscanf(l, "queued %lld %127s %c", &id, commit, &end) == 2) {
			add(r, id, commit);
		} else if (sscanf(l, "fetched %lld %c", &id, &end) == 1 && find(r, id)) {
			find(r, id)->fetched = true;
		} else {
			ret = error("%s:%d: expected 'submit REF COMMIT', 'queued ID COMMIT', "
				    "'submitted REF' or 'fetched ID'", r->journal, lineno);
		}
		l = nl + 1;
	}
	strbuf_release(&text);
	return ret;
}

/*
 * The batches whose "submitted" line is missing: killed (or the database
 * lost) between "submit REF" and the end of its "queued" lines, the
 * entries may be in the queue with no line here.  Ask the queue for the
 * reference's ids and take those this journal lacks, so that they are
 * waited for and fetched instead of run for nobody and queued again.
 */
static int recover(struct lab_remote *r)
{
	while (r->nr_unsure) {
		struct lab_remote_batch *b = &r->unsure[r->nr_unsure - 1];
		long long *ids;
		int n, found = 0;

		if (queue_submitted(&r->db, b->ref, &ids, &n) < 0)
			return -1;
		for (int i = 0; i < n; i++) {
			if (find(r, ids[i]))
				continue;
			add(r, ids[i], b->commit);
			found++;
			if (journal(r, "queued %lld %s\n", ids[i], b->commit) < 0) {
				free(ids);
				return -1;
			}
		}
		free(ids);
		if (found && r->verbose)
			fprintf(stderr, "perfbot: %.12s: %d lab job%s found again in the queue\n",
				b->commit, found, found == 1 ? "" : "s");
		if (journal(r, "submitted %s\n", b->ref) < 0)
			return -1;
		drop_unsure(r, r->nr_unsure - 1);
	}
	return 0;
}

/* A batch's reference: 128 random bits, as hex. */
static int make_ref(char ref[LAB_REF_LEN + 1])
{
	unsigned char b[LAB_REF_LEN / 2];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return error("cannot read random bytes: %s", strerror(errno));
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(ref + 2 * i, 3, "%02x", b[i]);
	return 0;
}

int lab_remote_open(struct lab_remote *r, const char *url, const char *journal_path)
{
	memset(r, 0, sizeof(*r));
	r->db = (struct pg)PG_INIT;
	/* a done job is announced: no need to poll for it */
	r->on_connect[0] = "LISTEN perfbot_done";
	r->db.on_connect = r->on_connect;
	if (journal_path) {
		r->journal = xstrdup(journal_path);
		if (read_journal(r) < 0)
			return -1;
	}
	if (lab_open(&r->db, url) < 0)
		return -1;
	return recover(r);
}

void lab_remote_release(struct lab_remote *r)
{
	pg_close(&r->db);
	for (int i = 0; i < r->nr; i++)
		free(r->e[i].commit);
	free(r->e);
	while (r->nr_unsure)
		drop_unsure(r, r->nr_unsure - 1);
	free(r->unsure);
	free(r->journal);
	memset(r, 0, sizeof(*r));
}

/*
 * Queue n entries of one run.  The journal says "submit REF" before the
 * transaction, "queued" for each id once committed and "submitted REF"
 * after them, so that a kill anywhere in between leaves a batch recover()
 * asks the queue about.
 */
static int submit(struct lab_remote *r, const struct lab_remote_job *j, int n)
{
	struct job *copy = job_dup(j->job);
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;
	char ref[LAB_REF_LEN + 1];
	long long *ids = xcalloc((size_t)n, sizeof(*ids));
	int ret = -1;

	job_set_value(copy, "commit", job_string_new(j->commit));
	if (j->command) {
		struct job_value *m = job_value_new(JOB_MAP);
		job_map_set(m, "command", job_string_new(j->command));
		job_set_value(copy, "mytest", m);
	}
	job_atom_name(copy, "bisect", NULL, &name);
	job_to_yaml(copy, &text);
	struct queue_job q = { name.buf, text.buf, j->commit, j->repo, j->build, j->tbox_group,
			       j->priority, 1, QUEUE_ATTEMPTS_DEFAULT, NULL };
	if (r->journal) {
		if (make_ref(ref) < 0 || journal(r, "submit %s %s\n", ref, j->commit) < 0)
			goto out;
		add_unsure(r, ref, j->commit);
		q.ref = ref;
	}
	if (pg_exec(&r->db, "BEGIN", 0, NULL) < 0)
		goto out;
	for (int i = 0; i < n; i++) {
		if (queue_submit(&r->db, &q, &ids[i]) < 0) {
			r->db.quiet = true;
			pg_exec(&r->db, "ROLLBACK", 0, NULL);
			r->db.quiet = false;
			goto out;
		}
	}
	if (pg_exec(&r->db, "COMMIT", 0, NULL) < 0)
		goto out;
	ret = 0;
	for (int i = 0; i < n; i++) {
		add(r, ids[i], j->commit);
		if (journal(r, "queued %lld %s\n", ids[i], j->commit) < 0)
			ret = -1;
	}
	if (r->journal && !ret && !journal(r, "submitted %s\n", ref))
		drop_unsure(r, r->nr_unsure - 1);
	if (r->verbose)
		fprintf(stderr, "perfbot: %.12s: %d run%s queued (jobs %lld..%lld)\n", j->commit, n,
			n == 1 ? "" : "s", ids[0], ids[n - 1]);
out:
	free(ids);
	job_free(copy);
	strbuf_release(&name);
	strbuf_release(&text);
	return ret;
}

/* Wait for a notification (a job done) or 2 s (failures are silent). */
static void nap(struct lab_remote *r)
{
	struct pollfd pfd = { r->db.conn ? PQsocket(r->db.conn) : -1, POLLIN, 0 };
	PGnotify *n;

	if (pfd.fd < 0 || poll(&pfd, 1, 2000) <= 0 || !PQconsumeInput(r->db.conn))
		return;
	while ((n = PQnotifies(r->db.conn)))
		PQfreemem(n);
}

/* The commit's entries still out, as an array literal; 0 when none. */
static int pending(struct lab_remote *r, const char *commit, struct strbuf *ids)
{
	int n = 0;

	strbuf_reset(ids);
	strbuf_addch(ids, '{');
	for (int i = 0; i < r->nr; i++) {
		if (r->e[i].fetched || strcmp(r->e[i].commit, commit))
			continue;
		strbuf_addf(ids, "%s%lld", n ? "," : "", r->e[i].id);
		n++;
	}
	strbuf_addch(ids, '}');
	return n;
}

static void cancel_pending(struct lab_remote *r, const char *commit)
{
	r->db.quiet = true;
	for (int i = 0; i < r->nr; i++)
		if (!r->e[i].fetched && !strcmp(r->e[i].commit, commit))
			queue_cancel(&r->db, r->e[i].id);
	r->db.quiet = false;
}

int lab_remote_run(struct lab_remote *r, const struct lab_remote_job *j, int nr,
		   const char *dest, volatile sig_atomic_t *stop)
{
	struct strbuf ids = STRBUF_INIT;
	int fetched = 0, out, ret = -1;

	/* a batch left unsure by an error before (the COMMIT's answer lost) */
	if (recover(r) < 0)
		goto done;
	out = pending(r, j->commit, &ids);
	if (nr > out && submit(r, j, nr - out) < 0)
		goto done;
	while (pending(r, j->commit, &ids)) {
		const char *p[1] = { ids.buf };
		PGresult *res;

		if (stop && *stop) {
			cancel_pending(r, j->commit);
			goto done;
		}
		res = pg_query(&r->db, "SELECT id, state, coalesce(last_error, '') FROM perfbot.queue "
			       "WHERE id = ANY($1::bigint[])", 1, p);
		if (!res) {
			if (!pg_broken(&r->db) || pg_reconnect(&r->db, 0, stop) < 0)
				goto done;
			continue;
		}
		for (int i = 0; i < PQntuples(res); i++) {
			long long id = pg_int(res, i, 0);
			const char *state = PQgetvalue(res, i, 1);
			struct lab_remote_entry *e = find(r, id);
			char *root = NULL;
			int n = 0, f;

			if (!strcmp(state, "done")) {
				f = lab_fetch(&r->db, id, NULL, dest, &root, &n);
				free(root);
				if (f < 0) {
					PQclear(res);
					goto done;
				}
				fetched += n;
			} else if (!strcmp(state, "failed") || !strcmp(state, "cancelled")) {
				warning("%.12s: lab job %lld %s: %s", j->commit, id, state,
					PQgetvalue(res, i, 2));
			} else {
				continue;
			}
			e->fetched = true;
			if (journal(r, "fetched %lld\n", id) < 0) {
				PQclear(res);
				goto done;
			}
		}
		/* an entry the queue does not know (deleted): nothing to wait for */
		if (PQntuples(res) < pending(r, j->commit, &ids)) {
			for (int i = 0; i < r->nr; i++) {
				bool known = false;
				for (int k = 0; k < PQntuples(res); k++)
					known |= pg_int(res, k, 0) == r->e[i].id;
				if (!known && !r->e[i].fetched && !strcmp(r->e[i].commit, j->commit)) {
					warning("lab job %lld is not in the queue any more", r->e[i].id);
					r->e[i].fetched = true;
				}
			}
		}
		PQclear(res);
		if (pending(r, j->commit, &ids))
			nap(r);
	}
	ret = fetched;
done:
	strbuf_release(&ids);
	return ret;
}
