/*
 * aa: how often the change rules flag a metric that did not change (A/A)
 * and how often they flag one that did (power), on generated matrices.
 *
 * Each comparison builds two matrices of --metrics metrics with --n runs
 * each, every value drawn from one noise model around the metric's own
 * base value; with --shift, the NEW side's key metrics and every tenth
 * other metric are multiplied by (1 + shift), as a real regression moves
 * the benchmark's score and some of the counters behind it.  The matrices
 * are the in-memory form of matrix.json (result/matrix.h), so the rules
 * see exactly what `perfbot compare` gives them.
 *
 *   aa [--n N] [--noise normal|lognormal|t3|bimodal|poisson] [--sigma S]
 *      [--shift X] [--comparisons C] [--metrics M] [--keys K] [--seed S]
 *      [--alpha A] [--header]
 *
 * Prints one row per rule: stat (perfbot's default), lkp (lkp-tests'
 * heuristics) and mwu (benchstat's way: a Mann-Whitney p below alpha,
 * no magnitude filter).  Columns: the share of metric-comparisons
 * flagged, overall, for the key metrics and for the others; and the
 * worst key metric's share of comparisons in which it was flagged.  In
 * A/A every flag is a false alarm; with --shift, flagged/shifted is the
 * power (the rows say which).
 *
 * Key metrics are named as benchmarks name throughput, ops, latency and
 * elapsed time; the others as monitors name counters (proc-vmstat.*,
 * meminfo.*, ...).  Noise models, with s = --sigma:
 *   normal     base * (1 + s Z)
 *   lognormal  base * exp(s Z)
 *   t3         base * (1 + s T), T Student's t with 3 degrees of freedom
 *              (scale s, heavy tails: occasional runs far off)
 *   bimodal    base * (1 + s Z / 2), and +2 s more in 30% of runs
 *   poisson    Poisson with mean 1 / s^2 (relative sd s), integers
 */
#if __has_include("util/rng.h")
#include "util/error.h"
#include "util/rng.h"
#else
/* revisions before util/rng.h (aa.sh --rev) kept the generator in sim.h */
#include "bisect/sim.h"
#define rng sim_rng
#define rng_seed sim_rng_seed
#define rng_uniform sim_rng_uniform
#define rng_normal sim_rng_normal
#endif
#include "result/matrix.h"
#include "result/change.h"
#include "stats/stat_tests.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum noise { N_NORMAL, N_LOGNORMAL, N_T3, N_BIMODAL, N_POISSON, NR_NOISE };
static const char *const noise_names[NR_NOISE] = {
	"normal", "lognormal", "t3", "bimodal", "poisson",
};

struct cfg {
	int n, comparisons, metrics, keys;
	enum noise noise;
	double sigma, shift, alpha;
	unsigned long long seed;
	int header;
};

static const char *const key_fmt[] = {
	"will-it-scale.per_process_ops.k%d", "hackbench.throughput.k%d",
	"fio.write_clat_mean_us.k%d", "vm-scalability.throughput.k%d",
	"netperf.Throughput_Mbps.k%d",
};
static const char *const other_fmt[] = {
	"proc-vmstat.aa_%d", "meminfo.aa_%d", "vmstat.aa_%d", "slabinfo.aa_%d.num_objs",
	"numa-vmstat.node0.aa_%d", "perf-stat.aa_%d",
};
#define NR(a) ((int)(sizeof(a) / sizeof((a)[0])))

static double poisson(struct rng *r, double lambda)
{
	/* Knuth's product of uniforms; lambda is at most a few hundred here */
	double l = exp(-lambda), p = 1;
	int k = 0;

	do {
		k++;
		p *= rng_uniform(r);
	} while (p > l);
	return k - 1;
}

static double draw(const struct cfg *c, struct rng *r, double base)
{
	double s = c->sigma, z = rng_normal(r), chi;

	switch (c->noise) {
	case N_NORMAL:
		return base * (1 + s * z);
	case N_LOGNORMAL:
		return base * exp(s * z);
	case N_T3:
		chi = 0;
		for (int i = 0; i < 3; i++) {
			double y = rng_normal(r);
			chi += y * y;
		}
		return base * (1 + s * z / sqrt(chi / 3));
	case N_BIMODAL:
		return base * (1 + s * z / 2 + (rng_uniform(r) < 0.3 ? 2 * s : 0));
	case N_POISSON:
	case NR_NOISE:
		break;
	}
	return base / (1 / (s * s)) * poisson(r, 1 / (s * s));
}

static bool is_key_index(const struct cfg *c, int i)
{
	return i < c->keys;
}

static void metric_name(const struct cfg *c, int i, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (is_key_index(c, i))
		strbuf_addf(sb, key_fmt[i % NR(key_fmt)], i);
	else
		strbuf_addf(sb, other_fmt[i % NR(other_fmt)], i);
}

static bool shifted(const struct cfg *c, int i)
{
	return c->shift != 0 && (is_key_index(c, i) || i % 10 == 0);
}

/* One side's matrix: n runs of every metric. */
static void build(const struct cfg *c, struct matrix *mx, const double *base,
		  bool new_side, struct rng *r)
{
	struct strbuf name = STRBUF_INIT;

	matrix_init(mx);
	mx->ncols = c->n;
	for (int i = 0; i < c->metrics; i++) {
		struct metric *m;
		double b = base[i] * (new_side && shifted(c, i) ? 1 + c->shift : 1);

		metric_name(c, i, &name);
		m = matrix_get_or_add(mx, name.buf);
		for (int k = 0; k < c->n; k++) {
			double v = draw(c, r, b);
			bool integer = c->noise == N_POISSON || !is_key_index(c, i);

			m->v[k] = integer ? round(v) : v;
			m->is_int[k] = integer;
		}
	}
	strbuf_release(&name);
}

struct tally {
	long flagged_key, flagged_other, tested_key, tested_other;
	int *per_key;           /* comparisons in which key metric i was flagged */
};

static void count(const struct cfg *c, const struct matrix *a, const struct change_list *l,
		  struct tally *t)
{
	for (int j = 0; j < l->nr; j++) {
		int i = matrix_find(a, l->r[j].stat);

		if (i < 0 || (c->shift != 0 && !shifted(c, i)))
			continue;
		if (is_key_index(c, i)) {
			t->flagged_key++;
			t->per_key[i]++;
		} else {
			t->flagged_other++;
		}
	}
	for (int i = 0; i < c->metrics; i++) {
		if (c->shift != 0 && !shifted(c, i))
			continue;
		if (is_key_index(c, i))
			t->tested_key++;
		else
			t->tested_other++;
	}
}

/* benchstat's rule: Mann-Whitney p < alpha, every metric, nothing else. */
static void mwu_rule(const struct matrix *a, const struct matrix *b, double alpha,
		     struct change_list *out)
{
	for (int i = 0; i < a->nr; i++) {
		int j = matrix_find(b, a->m[i].name);

		if (j >= 0 && mann_whitney(a->m[i].v, a->ncols, b->m[j].v, b->ncols, NULL) < alpha)
			change_list_add(out)->stat = a->m[i].name;
	}
}

static const char *const rule_names[] = { "stat", "lkp", "mwu" };

static void run(const struct cfg *c)
{
	struct tally t[3];
	double *base = xmalloc(sizeof(double) * (size_t)c->metrics);
	struct rng r;

	rng_seed(&r, c->seed);
	for (int k = 0; k < 3; k++) {
		memset(&t[k], 0, sizeof(t[k]));
		t[k].per_key = xcalloc((size_t)(c->keys ? c->keys : 1), sizeof(int));
	}
	for (int i = 0; i < c->metrics; i++)
		base[i] = 1e4 * (1 + 99 * rng_uniform(&r));
	for (int cmp = 0; cmp < c->comparisons; cmp++) {
		struct matrix a, b;

		build(c, &b, base, false, &r);
		build(c, &a, base, true, &r);
		for (int k = 0; k < 3; k++) {
			struct change_options opt;
			struct change_list l;

			change_options_init(&opt);
			opt.alpha = c->alpha;
			change_list_init(&l);
			if (k == 2) {
				mwu_rule(&a, &b, c->alpha, &l);
			} else {
				opt.rule = k == 0 ? RULE_STAT : RULE_LKP;
				if (changed_stats(&a, &b, &opt, &l) < 0)
					exit(EXIT_ERROR);
			}
			count(c, &a, &l, &t[k]);
			if (k == 2) {
				/* the records borrow names and own no samples */
				free(l.r);
				change_list_init(&l);
			}
			change_list_release(&l);
		}
		matrix_release(&a);
		matrix_release(&b);
	}
	if (c->header)
		printf("%-4s %3s %-9s %5s %6s %6s  %8s %8s %8s %8s\n", "rule", "n", "noise",
		       "sigma", "shift", "cmps", "all%", "key%", "other%", "worstkey");
	for (int k = 0; k < 3; k++) {
		long tested = t[k].tested_key + t[k].tested_other;
		long flagged = t[k].flagged_key + t[k].flagged_other;
		int worst = 0;

		for (int i = 0; i < c->keys; i++)
			if (t[k].per_key[i] > worst)
				worst = t[k].per_key[i];
		printf("%-4s %3d %-9s %4.0f%% %5.0f%% %6d  %7.3f%% %7.3f%% %7.3f%% %7.1f%%\n",
		       rule_names[k], c->n, noise_names[c->noise], 100 * c->sigma,
		       100 * c->shift, c->comparisons,
		       tested ? 100.0 * flagged / tested : 0,
		       t[k].tested_key ? 100.0 * t[k].flagged_key / t[k].tested_key : 0,
		       t[k].tested_other ? 100.0 * t[k].flagged_other / t[k].tested_other : 0,
		       100.0 * worst / c->comparisons);
		free(t[k].per_key);
	}
	free(base);
}

static double number(const char *opt, const char *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || *end || end == v)
		die("option '%s' expects a number, not '%s'", opt, v);
	return x;
}

int main(int argc, char **argv)
{
	struct cfg c = { 10, 20, 1000, 50, N_NORMAL, 0.10, 0, 0.05, 1, 0 };

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--header")) {
			c.header = 1;
			continue;
		}
		if (!v)
			die("option '%s' lacks its value", o);
		i++;
		if (!strcmp(o, "--n"))
			c.n = (int)number(o, v);
		else if (!strcmp(o, "--comparisons"))
			c.comparisons = (int)number(o, v);
		else if (!strcmp(o, "--metrics"))
			c.metrics = (int)number(o, v);
		else if (!strcmp(o, "--keys"))
			c.keys = (int)number(o, v);
		else if (!strcmp(o, "--sigma"))
			c.sigma = number(o, v);
		else if (!strcmp(o, "--shift"))
			c.shift = number(o, v);
		else if (!strcmp(o, "--alpha"))
			c.alpha = number(o, v);
		else if (!strcmp(o, "--seed"))
			c.seed = (unsigned long long)number(o, v);
		else if (!strcmp(o, "--noise")) {
			int k;

			for (k = 0; k < NR_NOISE && strcmp(v, noise_names[k]); k++)
				;
			if (k == NR_NOISE)
				die("--noise expects normal, lognormal, t3, bimodal or poisson, not '%s'", v);
			c.noise = (enum noise)k;
		} else {
			die("unknown option '%s'", o);
		}
	}
	if (c.n < 1 || c.comparisons < 1 || c.metrics < 1 || c.keys < 0 || c.keys > c.metrics ||
	    !(c.sigma > 0 && c.sigma < 1) || !(c.alpha > 0 && c.alpha < 1))
		die("out of range: n, comparisons, metrics >= 1, 0 <= keys <= metrics, "
		    "0 < sigma < 1, 0 < alpha < 1 expected");
	run(&c);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the table: %s", strerror(errno));
	return 0;
}
