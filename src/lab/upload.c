/*
 * upload.c: a job's results to the lab's database and back (upload.h).
 */
#include "lab/upload.h"
#include "lab/queue.h"
#include "job/axes.h"
#include "job/job.h"
#include "result/matrix.h"
#include "store/ingest.h"
#include "run/desc.h"
#include "result/unite.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/pathsafe.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* zlib's level for the uploaded files: the fastest.  A 30,000-metric
 * result's stats.json and matrix.json (2 MB) take 8 ms at level 1, 32 ms
 * at the default 6, for 17% more bytes (356 KB, not 305 KB). */
#define UPLOAD_ZLIB_LEVEL Z_BEST_SPEED

/* --- names in a result root ----------------------------------------- */

static int cmp_run(const void *a, const void *b)
{
	long x = atol(*(char *const *)a), y = atol(*(char *const *)b);
	return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The entries of dir that are run dirs (runs) or regular files (files),
 * sorted; either may be NULL.  Dot files, perf.data and anything else
 * are left out (upload.h says why).  0 or -1 with a message.
 */
static int scan(const char *dir, char ***runs, int *nr_runs, char ***files, int *nr_files)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t alloc_r = 0, alloc_f = 0;
	struct strbuf path = STRBUF_INIT;

	if (runs)
		*runs = NULL, *nr_runs = 0;
	if (files)
		*files = NULL, *nr_files = 0;
	if (!d)
		return error("cannot open '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "perf.data"))
			continue;
		strbuf_reset(&path);
		path_join(&path, dir, e->d_name);
		if (lstat(path.buf, &st) < 0)
			continue;
		if (runs && S_ISDIR(st.st_mode) && ingest_is_run_name(e->d_name)) {
			ALLOC_GROW(*runs, (size_t)*nr_runs + 1, alloc_r);
			(*runs)[(*nr_runs)++] = xstrdup(e->d_name);
		} else if (files && S_ISREG(st.st_mode)) {
			ALLOC_GROW(*files, (size_t)*nr_files + 1, alloc_f);
			(*files)[(*nr_files)++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	strbuf_release(&path);
	if (runs && *nr_runs)
		qsort(*runs, (size_t)*nr_runs, sizeof(char *), cmp_run);
	if (files && *nr_files)
		qsort(*files, (size_t)*nr_files, sizeof(char *), cmp_str);
	return 0;
}

static void free_names(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* --- upload --------------------------------------------------------- */

/* One element of a PostgreSQL array literal, double-quoted (so that no
 * text can be read as NULL or split at a comma) with " and \ escaped. */
static void array_text(struct strbuf *sb, const char *text)
{
	strbuf_addch(sb, '"');
	for (const char *p = text; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '"');
}

/*
 * Arrays in PostgreSQL's binary format (array_recv): one dimension, no
 * NULLs, each element its length and its bytes in network order.  The
 * 30,000 names and values of a big result travel as they are, with no
 * quoting, no %.17g on the box and no float8in on the server.
 */
#define OID_BYTEA 17
#define OID_INT8 20
#define OID_INT4 23
#define OID_TEXT 25
#define OID_FLOAT8 701

struct bin_array {
	struct strbuf sb;
	int n;
};

static void put32(struct strbuf *sb, uint32_t v)
{
	v = htobe32(v);
	strbuf_add(sb, &v, 4);
}

static void barr_init(struct bin_array *a, uint32_t oid)
{
	strbuf_init(&a->sb, 0);
	a->n = 0;
	put32(&a->sb, 1);      /* dimensions */
	put32(&a->sb, 0);      /* no NULLs */
	put32(&a->sb, oid);
	put32(&a->sb, 0);      /* the length, set by barr_done */
	put32(&a->sb, 1);      /* the lower bound */
}

static void barr_add(struct bin_array *a, const void *data, size_t len)
{
	put32(&a->sb, (uint32_t)len);
	strbuf_add(&a->sb, data, len);
	a->n++;
}

static void barr_add32(struct bin_array *a, int32_t v)
{
	uint32_t b = htobe32((uint32_t)v);
	barr_add(a, &b, 4);
}

static void barr_add64(struct bin_array *a, uint64_t v)
{
	v = htobe64(v);
	barr_add(a, &v, 8);
}

/* Length set; an empty array has no dimension at all. */
static void barr_done(struct bin_array *a)
{
	uint32_t v = htobe32((uint32_t)a->n);

	if (a->n) {
		memcpy(a->sb.buf + 12, &v, 4);
	} else {
		strbuf_setlen(&a->sb, 12);
		memset(a->sb.buf, 0, 4);
	}
}

/* What upload_job takes, gathered from the result root. */
struct upload_args {
	struct bin_array runs, nr_metrics, metrics, vals;
	struct bin_array file_runs, file_names, file_sizes, file_data;
};

static void args_init(struct upload_args *u)
{
	barr_init(&u->runs, OID_INT4);
	barr_init(&u->nr_metrics, OID_INT4);
	barr_init(&u->metrics, OID_TEXT);
	barr_init(&u->vals, OID_FLOAT8);
	barr_init(&u->file_runs, OID_INT4);
	barr_init(&u->file_names, OID_TEXT);
	barr_init(&u->file_sizes, OID_INT8);
	barr_init(&u->file_data, OID_BYTEA);
}

static void args_release(struct upload_args *u)
{
	struct bin_array *all[] = { &u->runs, &u->nr_metrics, &u->metrics, &u->vals,
				    &u->file_runs, &u->file_names, &u->file_sizes, &u->file_data };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		strbuf_release(&all[i]->sb);
}

/* One run's stats into the arrays.  0, or -1 after an error on the box
 * (the message said). */
static int add_run(struct upload_args *u, const char *run, const char *dir)
{
	struct matrix st;
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	matrix_init(&st);
	path_join(&path, dir, "stats.json");
	if (stats_load(&st, path.buf) < 0)
		goto out;
	barr_add32(&u->runs, atoi(run));
	barr_add32(&u->nr_metrics, st.nr);
	for (int i = 0; i < st.nr; i++) {
		uint64_t bits;
		double v = st.m[i].v[0];
		memcpy(&bits, &v, 8);
		barr_add(&u->metrics, st.m[i].name, strlen(st.m[i].name));
		barr_add64(&u->vals, bits);
	}
	ret = 0;
out:
	matrix_release(&st);
	strbuf_release(&path);
	return ret;
}

/*
 * raw as one zlib stream into z (grown as needed), its length in *zlen.
 * The window and hash are sized to the file: compress2's 256 KiB of state
 * for a 100-byte file, allocated, cleared and given back to the kernel
 * for each file, cost more than the rest of a small upload.  Any window
 * size is a zlib stream that uncompress reads.
 */
static int deflate_bytes(const struct strbuf *raw, unsigned char **z, size_t *zalloc,
			 size_t *zlen)
{
	z_stream s;
	int wbits = 9, r;

	while (wbits < 15 && ((size_t)1 << wbits) < raw->len)
		wbits++;
	memset(&s, 0, sizeof(s));
	if (raw->len > INT_MAX / 2 ||
	    deflateInit2(&s, UPLOAD_ZLIB_LEVEL, Z_DEFLATED, wbits, wbits - 7,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	size_t bound = deflateBound(&s, (uLong)raw->len);
	ALLOC_GROW(*z, bound, *zalloc);
	s.next_in = (Bytef *)raw->buf;
	s.avail_in = (uInt)raw->len;
	s.next_out = *z;
	s.avail_out = (uInt)bound;
	r = deflate(&s, Z_FINISH);
	*zlen = s.total_out;
	deflateEnd(&s);
	return r == Z_STREAM_END ? 0 : -1;
}

/* A dir's files, compressed, into the arrays (run -1: the root's own).
 * 0, or -1 after an error on the box. */
static int add_files(struct upload_args *u, int run, const char *dir, char **files, int n)
{
	struct strbuf path = STRBUF_INIT, raw = STRBUF_INIT;
	unsigned char *z = NULL;
	size_t zalloc = 0;
	int ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		size_t zlen;

		strbuf_reset(&path);
		strbuf_reset(&raw);
		path_join(&path, dir, files[i]);
		/* read_file would gunzip a .gz file: read the bytes as they are.
		 * Not through a link: the job's processes (perhaps another
		 * user's, worker --user) wrote this tree, and the worker may be
		 * root. */
		int fd = open(path.buf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		struct stat st;
		FILE *f = NULL;
		if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
			close(fd);
			fd = -1;
			errno = EINVAL;
		}
		if (fd < 0 || !(f = fdopen(fd, "rb"))) {
			ret = error("cannot read '%s': %s", path.buf,
				    errno == ELOOP || errno == EINVAL ? "not a regular file"
				    : strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		char buf[65536];
		size_t got;
		while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
			strbuf_add(&raw, buf, got);
		if (ferror(f))
			ret = error("cannot read '%s': %s", path.buf, strerror(errno));
		fclose(f);
		if (ret)
			break;
		if (deflate_bytes(&raw, &z, &zalloc, &zlen) < 0) {
			ret = error("cannot compress '%s'", path.buf);
			break;
		}
		barr_add32(&u->file_runs, run);
		barr_add(&u->file_names, files[i], strlen(files[i]));
		barr_add64(&u->file_sizes, raw.len);
		barr_add(&u->file_data, z, zlen);
	}
	free(z);
	strbuf_release(&path);
	strbuf_release(&raw);
	return ret;
}

/* The job's parameters for the store, from the first run's job.yaml, as
 * `perfbot index` takes them (store_job_params), as a text[] literal of
 * name, value pairs. */
static void params_array(const char *root, char **runs, int nr_runs, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	struct job *job = NULL;
	struct axis *axes = NULL;
	int n = 0;

	for (int k = 0; k < nr_runs && !job; k++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/job.yaml", root, runs[k]);
		if (file_exists(path.buf) &&
		    job_load_opts(path.buf, &(struct job_load_opts){ .no_check = true }, &job) < 0)
			warning("'%s' is uploaded without its job's parameters", root);
	}
	if (job)
		n = store_job_params(job, &axes);
	strbuf_addch(out, '{');
	for (int i = 0; i < n; i++) {
		if (i)
			strbuf_addch(out, ',');
		array_text(out, axes[i].key);
		strbuf_addch(out, ',');
		array_text(out, axes[i].value);
	}
	strbuf_addch(out, '}');
	axes_release(axes, n);
	job_free(job);
	strbuf_release(&path);
}

/* upload_job's call (schema.c's migration 3), prepared once a connection */
#define UPLOAD_JOB "perfbot_upload_job"
#define UPLOAD_JOB_SQL "SELECT perfbot.upload_job($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
#define ANNOUNCE "perfbot_announce_done"
#define ANNOUNCE_SQL "SELECT perfbot.announce_done($1)"
/* upload_claim's (migration 4): upload_job's arguments, then claim's */
#define UPLOAD_CLAIM "perfbot_upload_claim"
#define UPLOAD_CLAIM_SQL "SELECT uploaded, id, attempt, name, job, commit, repo, build, runs " \
	"FROM perfbot.upload_claim($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"

/*
 * The whole upload: the result root read, every file compressed, then
 * one pipeline (pg.h) of upload_job (or upload_claim, when next says
 * what to claim: its row goes to *got), a sync that commits it, and the
 * job's announcement to whoever waits for it (schema.c says why that is
 * a transaction of its own), answered after one round trip.  0 done
 * (now, or by this attempt already: upload_job then says "done" and adds
 * nothing), -1 error.
 */
static int send_all(struct pg *db, const char *sid, const char *satt, const char *root,
		    const char *rel, const struct lab_next *next, struct queue_claim *got)
{
	char lease[32];
	PGresult *res[1];
	const char *name = next ? UPLOAD_CLAIM : UPLOAD_JOB;
	const char *sql = next ? UPLOAD_CLAIM_SQL : UPLOAD_JOB_SQL;
	int np = next ? 15 : 12;
	char **runs = NULL, **files = NULL, **rfiles = NULL;
	int nr_runs = 0, nr_files = 0, nr_rfiles = 0, ret = -1;
	struct strbuf dir = STRBUF_INIT, pa = STRBUF_INIT;
	struct upload_args u;
	bool quiet = db->quiet, sent;

	args_init(&u);
	if (scan(root, &runs, &nr_runs, &files, &nr_files) < 0)
		goto out;
	if (!nr_runs) {
		error("'%s' holds no run", root);
		goto out;
	}
	params_array(root, runs, nr_runs, &pa);
	for (int i = 0; i < nr_runs; i++) {
		strbuf_reset(&dir);
		path_join(&dir, root, runs[i]);
		int bad = add_run(&u, runs[i], dir.buf) < 0 ||
			  scan(dir.buf, NULL, NULL, &rfiles, &nr_rfiles) < 0 ||
			  add_files(&u, atoi(runs[i]), dir.buf, rfiles, nr_rfiles) < 0;
		free_names(rfiles, nr_rfiles);
		rfiles = NULL;
		nr_rfiles = 0;
		if (bad)
			goto box_error;
	}
	if (add_files(&u, -1, root, files, nr_files) < 0)
		goto box_error;
	struct bin_array *arr[] = { &u.runs, &u.nr_metrics, &u.metrics, &u.vals, &u.file_runs,
				    &u.file_names, &u.file_sizes, &u.file_data };
	const char *p[15] = { sid, satt, rel, pa.buf };
	int lengths[15] = { 0 }, formats[15] = { 0 };
	for (int i = 0; i < 8; i++) {
		barr_done(arr[i]);
		p[4 + i] = arr[i]->sb.buf;
		lengths[4 + i] = (int)arr[i]->sb.len;
		formats[4 + i] = 1;
	}
	if (next) {
		snprintf(lease, sizeof(lease), "%.3f", next->lease_s);
		p[12] = next->group;
		p[13] = next->worker;
		p[14] = lease;
	}

	/* the database's failures are said once, at the end */
	db->quiet = true;
	if (pg_prepare(db, name, sql, np) < 0 ||
	    pg_prepare(db, ANNOUNCE, ANNOUNCE_SQL, 1) < 0 || pg_pipeline_start(db) < 0) {
		db->quiet = quiet;
		if (!quiet)
			pg_say_error(db);
		goto out;
	}
	/* the upload alone before the first sync: its own transaction, no
	 * BEGIN and COMMIT to parse and answer */
	sent = pg_pipeline_send_named(db, name, sql, np, p, lengths, formats) == 0 &&
	       pg_pipeline_sync(db) == 0 &&
	       pg_pipeline_send_named(db, ANNOUNCE, ANNOUNCE_SQL, 1, p, NULL, NULL) == 0;
	ret = pg_pipeline_end(db, res, 1);
	db->quiet = quiet;
	/* the next job is ours once the commit went through (ret 0) */
	if (ret == 0 && sent && next && res[0])
		queue_claim_from(res[0], 1, got);
	PQclear(res[0]);
	if (ret < 0 || !sent) {
		ret = -1;
		if (!quiet)
			pg_say_error(db);
	}
	goto out;
box_error:
	db->sqlstate[0] = '\0';    /* the box's error, said already */
out:
	args_release(&u);
	free_names(runs, nr_runs);
	free_names(files, nr_files);
	strbuf_release(&dir);
	strbuf_release(&pa);
	return ret;
}

int lab_upload(struct pg *db, long long id, int attempt, const char *result_base,
	       const char *result_root)
{
	return lab_upload_next(db, id, attempt, result_base, result_root, NULL, NULL);
}

int lab_upload_next(struct pg *db, long long id, int attempt, const char *result_base,
		    const char *result_root, const struct lab_next *next, struct queue_claim *got)
{
	char sid[24], satt[16];
	size_t bl = strlen(result_base);
	int r;

	if (got)
		memset(got, 0, sizeof(*got));

	while (bl > 1 && result_base[bl - 1] == '/')
		bl--;
	if (strncmp(result_root, result_base, bl) || result_root[bl] != '/')
		return error("'%s' is not under '%s'", result_root, result_base);
	snprintf(sid, sizeof(sid), "%lld", id);
	snprintf(satt, sizeof(satt), "%d", attempt);
	r = send_all(db, sid, satt, result_root, result_root + bl + 1, got ? next : NULL, got);
	if (r == 0)
		return 0;
	/* keep the failure's state and message, not ROLLBACK's */
	char state[6];
	memcpy(state, db->sqlstate, sizeof(state));
	bool q = db->quiet;
	db->quiet = true;
	if (!pg_broken(db) && PQtransactionStatus(db->conn) != PQTRANS_IDLE)
		pg_exec(db, "ROLLBACK", 0, NULL);
	db->quiet = q;
	memcpy(db->sqlstate, state, sizeof(state));
	return pg_failed_with(db, "PBL01") ? 1 : -1;
}

/* --- fetch ---------------------------------------------------------- */

/* Values of a binary-format result. */
static uint32_t bin_u32(const PGresult *r, int row, int col)
{
	uint32_t v;
	memcpy(&v, PQgetvalue(r, row, col), 4);
	return be32toh(v);
}

static uint64_t bin_u64(const PGresult *r, int row, int col)
{
	uint64_t v;
	memcpy(&v, PQgetvalue(r, row, col), 8);
	return be64toh(v);
}

/* The first run number not used in root. */
static int next_free_run(const char *root)
{
	char **runs;
	int n, next = 0;

	if (scan(root, &runs, &n, NULL, NULL) < 0)
		return 0;
	for (int i = 0; i < n; i++)
		if (atoi(runs[i]) >= next)
			next = atoi(runs[i]) + 1;
	free_names(runs, n);
	return next;
}

/*
 * Each fetched run dir holds ".lab-job" ("job <id> run <n>"), the job and
 * run it came from: a second fetch of the job (a crash between writing
 * the runs and noting them done, a user fetching twice) finds it and
 * writes nothing again.  A dot file: an upload of this tree leaves it out.
 */
#define FETCH_MARK ".lab-job"

/* The run dir of root that holds job id's run, appended to dir; 1 when
 * there is one, 0 when not. */
static int fetched_run(const char *root, long long id, unsigned run, struct strbuf *dir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char **runs;
	int n, found = 0;

	if (scan(root, &runs, &n, NULL, NULL) < 0)
		return 0;
	for (int i = 0; i < n && !found; i++) {
		long long jid;
		unsigned jrun;
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s/" FETCH_MARK, root, runs[i]);
		if (file_exists(path.buf) && read_file(&text, path.buf) == 0 &&
		    sscanf(text.buf, "job %lld run %u", &jid, &jrun) == 2 && jid == id && jrun == run) {
			strbuf_addf(dir, "%s/%s", root, runs[i]);
			found = 1;
		}
	}
	free_names(runs, n);
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

/* A full commit hash, as a box's checkout records it. */
static bool is_hash(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return !s[n] && (n == 40 || n == 64);
}

/* Component i of rel against want (NULL: not checked); -1 with the error. */
static int check_part(long long id, const char *rel, char *const *part, int i,
		      const char *what, const char *want)
{
	struct strbuf shown = STRBUF_INIT;

	if (!want || !strcmp(part[i], want))
		return 0;
	add_printable(&shown, rel);
	error("job %lld: result root '%s' is not the job's: its %s is '%s', not '%s'", id,
	      shown.buf, what, part[i], want);
	strbuf_release(&shown);
	return -1;
}

int lab_check_root(long long id, const struct lab_job_identity *q, const char *box_group,
		   const char *rel)
{
	static const char *const what[7] = { "testcase", "parameters", "tbox_group", "rootfs",
					      "kconfig", "compiler", "commit" };
	struct strbuf copy = STRBUF_INIT, params = STRBUF_INIT, root = STRBUF_INIT;
	struct strbuf shown = STRBUF_INIT;
	char *part[7], *rpart[7], *p;
	struct job *job = NULL;
	struct job_desc_keys keys;
	const char *problem = NULL, *tc, *key;
	int n = 0, ret = -1;

	strbuf_addstr(&copy, rel);
	for (p = copy.buf; n < 7; n++) {
		part[n] = p;
		if (!(p = strchr(p, '/'))) {
			n++;
			break;
		}
		*p++ = '\0';
	}
	for (int i = 0; i < n && !problem; i++)
		problem = path_component_problem(part[i]);
	if (n != 7 || p || problem) {
		add_printable(&shown, rel);
		error("job %lld: bad result root '%.300s' (expected 7 path components: %s)", id,
		      shown.buf, problem ? problem : "another number of them");
		goto out;
	}
	if (job_load_string(q->job, strlen(q->job), q->name,
			    &(struct job_load_opts){ .no_includes = true }, &job) < 0)
		goto out;
	job_desc_keys(job, &keys);
	if (!(tc = job_testcase(job, &key)))
		tc = "";
	job_result_params(job, &params);
	/* rootfs, kconfig and compiler as the job sets them (job.h's rules) */
	if (job_result_root(job, "", "-", &root) < 0)
		goto out;
	n = 0;
	for (p = root.buf + (root.buf[0] == '/'); n < 7 && p; n++) {
		rpart[n] = p;
		if ((p = strchr(p, '/')))
			*p++ = '\0';
	}
	if (n != 7) {
		error("job %lld: no result root for the job", id);
		goto out;
	}
	if (check_part(id, rel, part, 0, what[0], tc) < 0 ||
	    check_part(id, rel, part, 1, what[1], params.buf) < 0 ||
	    check_part(id, rel, part, 2, what[2], keys.tbox_group ? keys.tbox_group : box_group) < 0 ||
	    check_part(id, rel, part, 3, what[3], keys.rootfs ? rpart[3] : NULL) < 0 ||
	    check_part(id, rel, part, 4, what[4], keys.kconfig ? rpart[4] : NULL) < 0 ||
	    check_part(id, rel, part, 5, what[5], keys.compiler ? rpart[5] : NULL) < 0)
		goto out;
	if (q->repo && !is_hash(part[6])) {
		error("job %lld: result root's commit '%s' is no full hash of the job's %s", id,
		      part[6], q->commit ? q->commit : "commit");
		goto out;
	}
	if (q->commit && (!q->repo || is_hash(q->commit)) &&
	    check_part(id, rel, part, 6, what[6], q->commit) < 0)
		goto out;
	ret = 0;
out:
	job_free(job);
	strbuf_release(&copy);
	strbuf_release(&params);
	strbuf_release(&root);
	strbuf_release(&shown);
	return ret;
}

/*
 * Inflate one file's zlib stream z into a new file at path, 64 KiB at a
 * time, to no more than its recorded size, which must fit in *budget
 * (what is left of LAB_FETCH_MAX_BYTES); *budget is charged.  0 or -1.
 */
static int inflate_file(long long id, const char *name, const char *path, const void *z,
			size_t zlen, uint64_t size, uint64_t *budget)
{
	unsigned char out[65536];
	z_stream s;
	uint64_t total = 0;
	int fd, r = Z_OK, ret = -1;

	if (size > *budget)
		return error("job %lld: file '%s' would make the fetch more than %llu MiB, the most "
			     "a fetch writes (it claims %llu bytes)", id, name,
			     LAB_FETCH_MAX_BYTES >> 20, (unsigned long long)size);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return error("cannot create '%s': %s", path, strerror(errno));
	memset(&s, 0, sizeof(s));
	if (inflateInit(&s) != Z_OK) {
		close(fd);
		return error("job %lld: cannot inflate '%s'", id, name);
	}
	s.next_in = (Bytef *)z;
	s.avail_in = (uInt)zlen;
	while (r == Z_OK && total <= size) {
		s.next_out = out;
		s.avail_out = sizeof(out);
		r = inflate(&s, Z_NO_FLUSH);
		size_t got = sizeof(out) - s.avail_out;
		if (r != Z_OK && r != Z_STREAM_END)
			break;
		total += got;
		if (total > size)
			break;
		for (size_t off = 0; off < got;) {
			ssize_t w = write(fd, out + off, got - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				error("cannot write '%s': %s", path, strerror(errno));
				goto out;
			}
			off += (size_t)w;
		}
		if (r == Z_OK && !got && !s.avail_in)
			break;     /* the stream ends early */
	}
	if (r != Z_STREAM_END || total != size) {
		error("job %lld: file '%s' does not decompress to its %llu bytes", id, name,
		      (unsigned long long)size);
		goto out;
	}
	*budget -= total;
	ret = 0;
out:
	inflateEnd(&s);
	if (close(fd) < 0 && !ret)
		ret = error("cannot write '%s': %s", path, strerror(errno));
	return ret;
}

/* Write the files of rows [from, to) (one run) into dir; 0 or -1. */
static int write_run(const PGresult *r, int from, int to, const char *dir, long long id,
		     uint64_t *budget)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	for (int i = from; i < to && !ret; i++) {
		const char *name = PQgetvalue(r, i, 1);

		/* a NUL inside would hide the rest of the name from the check */
		if (strlen(name) != (size_t)PQgetlength(r, i, 1) || path_component_problem(name)) {
			struct strbuf shown = STRBUF_INIT;
			add_printable(&shown, name);
			ret = error("job %lld: unsafe file name '%.300s' in the database", id,
				    shown.buf);
			strbuf_release(&shown);
			break;
		}
		strbuf_reset(&path);
		path_join(&path, dir, name);
		ret = inflate_file(id, name, path.buf, PQgetvalue(r, i, 3),
				   (size_t)PQgetlength(r, i, 3), bin_u64(r, i, 2), budget);
	}
	strbuf_release(&path);
	return ret;
}

int lab_fetch(struct pg *db, long long id, const char *result_base, const char *dest,
	      char **root, int *nr_runs)
{
	char sid[24];
	const char *p[1] = { sid };
	struct strbuf local = STRBUF_INIT, tmp = STRBUF_INIT, dst = STRBUF_INIT;
	struct strbuf mark = STRBUF_INIT, mpath = STRBUF_INIT;
	char **made = NULL;
	size_t alloc = 0;
	int nr_made = 0, ret = -1;
	uint64_t budget = LAB_FETCH_MAX_BYTES;
	PGresult *res, *files = NULL;

	*root = NULL;
	*nr_runs = 0;
	snprintf(sid, sizeof(sid), "%lld", id);
	res = pg_query(db, "SELECT u.result_root, q.job, q.name, q.commit, q.repo "
		       "FROM perfbot.upload u JOIN perfbot.queue q ON q.id = u.job_id "
		       "WHERE u.job_id = $1", 1, p);
	if (!res)
		return -1;
	if (!PQntuples(res)) {
		PQclear(res);
		return 1;
	}
	/* the uploader's word is not taken: the root must be the job's */
	const struct lab_job_identity q = { PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2),
		PQgetisnull(res, 0, 3) ? NULL : PQgetvalue(res, 0, 3),
		PQgetisnull(res, 0, 4) ? NULL : PQgetvalue(res, 0, 4) };
	if (lab_check_root(id, &q, NULL, PQgetvalue(res, 0, 0)) < 0)
		goto out;
	if (dest)
		strbuf_addstr(&local, dest);
	else
		path_join(&local, result_base, PQgetvalue(res, 0, 0));
	/* in binary: the compressed bytes as they are, not hex text */
	files = pg_query_binary_result(db, "SELECT run, name, size, data FROM perfbot.upload_file "
				       "WHERE job_id = $1 AND run >= 0 ORDER BY run, name", 1, p);
	if (!files)
		goto out;
	if (PQntuples(files) > LAB_FETCH_MAX_FILES) {
		error("job %lld: %d files, more than the %d a fetch writes", id, PQntuples(files),
		      LAB_FETCH_MAX_FILES);
		goto out;
	}
	if (mkdir_p(local.buf, 0777) < 0)
		goto out;
	for (int i = 0, n = PQntuples(files); i < n;) {
		uint32_t run = bin_u32(files, i, 0);
		int j = i;
		while (j < n && bin_u32(files, j, 0) == run)
			j++;
		strbuf_reset(&dst);
		if (fetched_run(local.buf, id, run, &dst)) {
			/* there already; united again below, in case the crash
			 * came before the unite */
			ALLOC_GROW(made, (size_t)nr_made + 1, alloc);
			made[nr_made++] = strbuf_detach(&dst, NULL);
			i = j;
			continue;
		}
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%s/.fetch-%u.%ld", local.buf, run, (long)getpid());
		strbuf_addf(&dst, "%s/%d", local.buf, next_free_run(local.buf));
		/* new, never reused nor followed: a link planted at the name is refused */
		int made_tmp = mkdir_fresh(tmp.buf, 0777);
		if (made_tmp) {
			if (made_tmp > 0)
				error("cannot create '%s': it exists and is not a directory of ours",
				      tmp.buf);
			strbuf_reset(&tmp);     /* not ours: never removed */
			goto out;
		}
		strbuf_reset(&mark);
		strbuf_addf(&mark, "job %lld run %u\n", id, run);
		strbuf_reset(&mpath);
		strbuf_addf(&mpath, "%s/" FETCH_MARK, tmp.buf);
		if (write_run(files, i, j, tmp.buf, id, &budget) < 0 ||
		    write_file_atomic(mpath.buf, mark.buf, mark.len) < 0)
			goto out;
		if (rename(tmp.buf, dst.buf) < 0) {
			error("cannot rename '%s' to '%s': %s", tmp.buf, dst.buf, strerror(errno));
			goto out;
		}
		strbuf_reset(&tmp);     /* renamed: nothing to remove on an error */
		ALLOC_GROW(made, (size_t)nr_made + 1, alloc);
		made[nr_made++] = strbuf_detach(&dst, NULL);
		i = j;
	}
	if (nr_made && unite_run_dirs(made, nr_made) < 0)
		goto out;
	*root = strbuf_detach(&local, NULL);
	*nr_runs = nr_made;
	ret = 0;
out:
	/* no half-written run dir is left behind */
	if (ret < 0 && tmp.len)
		remove_tree(tmp.buf);
	free_names(made, nr_made);
	PQclear(res);
	PQclear(files);
	strbuf_release(&local);
	strbuf_release(&tmp);
	strbuf_release(&dst);
	strbuf_release(&mark);
	strbuf_release(&mpath);
	return ret;
}
