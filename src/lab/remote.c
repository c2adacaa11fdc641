/*
 * remote.c: runs made on the lab's boxes for this machine (remote.h).
 */
#include "lab/remote.h"
#include "job/job.h"
#include "job/split.h"
#include "lab/queue.h"
#include "lab/schema.h"
#include "lab/upload.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static int journal(struct lab_remote *r, const char *fmt, long long id, const char *commit)
{
	char line[256];
	int fd, n;

	if (!r->journal)
		return 0;
	n = snprintf(line, sizeof(line), fmt, id, commit);
	if (n < 0 || (size_t)n >= sizeof(line))
		return error("'%s': a line too long for the journal", r->journal);
	fd = open(r->journal, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, line, (size_t)n) != n || fsync(fd) < 0) {
		error("cannot write '%s': %s", r->journal, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int read_journal(struct lab_remote *r)
{
	struct strbuf text = STRBUF_INIT;
	int lineno = 0, ret = 0;

	if (!file_exists(r->journal))
		return 0;
	if (read_file(&text, r->journal) < 0)
		return -1;
	for (char *l = text.buf; *l && !ret; ) {
		char *nl = strchr(l, '\n'), commit[128];
		long long id;
		if (!nl)
			break;          /* a line cut by a crash: it never counted */
		*nl = '\0';
		lineno++;
		if (sscanf(l, "queued %lld %127s", &id, commit) == 2)
			add(r, id, commit);
		else if (sscanf(l, "fetched %lld", &id) == 1 && find(r, id))
			find(r, id)->fetched = true;
		else
			ret = error("%s:%d: expected 'queued ID COMMIT' or 'fetched ID'", r->journal,
				    lineno);
		l = nl + 1;
	}
	strbuf_release(&text);
	return ret;
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
	return lab_open(&r->db, url);
}

void lab_remote_release(struct lab_remote *r)
{
	pg_close(&r->db);
	for (int i = 0; i < r->nr; i++)
		free(r->e[i].commit);
	free(r->e);
	free(r->journal);
	memset(r, 0, sizeof(*r));
}

/* Queue n entries of one run; journal them once committed. */
static int submit(struct lab_remote *r, const struct lab_remote_job *j, int n)
{
	struct job *copy = job_dup(j->job);
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;
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
			       j->priority, 1, QUEUE_ATTEMPTS_DEFAULT };
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
			if (journal(r, "fetched %lld\n", id, NULL) < 0) {
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
