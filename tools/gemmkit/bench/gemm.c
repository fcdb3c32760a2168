/*
 * gemm.c - the GEMM suites of `gemmkit bench` on the measurement engine:
 * the contenders (gemmkit's CPU algorithms through a gk_context each,
 * "auto", the reference libraries), the cells (precision x shape x thread
 * count) with their inputs and check, and the run.
 *
 * The check: every contender's first run, into an output filled with NaN
 * (beta = 0, so an element left unwritten stays NaN), is held against the
 * product computed in long double (tools/common/gemm_check.h; all rows up to
 * m n k = 2^31, 64 sampled rows past that): normwise error <= GEMM_FACTOR
 * (k + 2) u (for a float contender on tensor cores, the bound of its
 * precision mode: gkc_gemm_bound_mode) and, over the same rows,
 * ||C - Cref||_F <= GEMM_GROSS ||Cref||_F. Every element must be finite,
 * and all of C must agree with the first result that passed within twice
 * the larger of the two bounds, so that a row the sample missed is
 * compared too.
 */
#define _GNU_SOURCE
#include "gemm.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli_util.h"
#include "gemm_check.h"

#define CMD "bench"
/* A reference kept in memory up to this many bytes; past it, each check
 * computes its rows again as it goes (gkc_gemm_check). */
#define REF_MAX_BYTES ((size_t)256 << 20)
/* A reference of this many multiply-adds (seconds in long double) says so
 * on stderr before it starts. */
#define REF_NOTE_WORK 4e9
/* The peak: runs of PEAK_S seconds, median of PEAK_REPS. */
#define PEAK_S 0.2
#define PEAK_REPS 5
#define QUICK_PEAK_S 0.01
#define QUICK_PEAK_REPS 3

bench_result *gemm_result(const gemm_run *g, int ti, int dt, int si, int ci)
{
	return &g->res[(((size_t)ti * 2 + (size_t)dt) * BENCH_MAX_SHAPES + (size_t)si) * GEMM_MAX_CONTENDERS +
	               (size_t)ci];
}

const bench_peak *gemm_peak_for(const gemm_run *g, int dt, int threads)
{
	for (int i = 0; i < g->npeak; i++)
		if (g->peak[dt][i].threads == threads && g->peak[dt][i].gflops > 0)
			return &g->peak[dt][i];
	return NULL;
}

void gemm_shape_label(const bench_shape *s, int square_style, char *buf, size_t len)
{
	if (square_style && s->m == s->n && s->n == s->k)
		snprintf(buf, len, "%lld", (long long)s->n);
	else
		snprintf(buf, len, "%lldx%lldx%lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

/* ------------------------------------------------------------------------ */
/* The contenders' operations                                                */
/* ------------------------------------------------------------------------ */

typedef struct gemm_cell {
	gemm_run *g;
	int dt, si;
	const bench_shape *s;
	void *a, *b, *out, *first;
	void *base[4];          /* what was allocated for a, b, out, first */
	const char *first_id;   /* whose result `first` is; NULL: none yet */
	double first_bound;     /* the bound `first` passed */
	long double *ref;       /* the long double product of the checked rows, or NULL */
	int64_t rows[GKC_SAMPLE_ROWS];
	int64_t nrows;          /* 0: every row */
	double norm_ab, bound;
} gemm_cell;

static int ours_prepare(bench_contender *c, void *cell)
{
	const gemm_side *sd = c->self;
	const gemm_cell *x = cell;
	if (sd->unavailable[0]) {
		snprintf(c->why, sizeof c->why, "%s", sd->unavailable);
		return BENCH_UNAVAILABLE;
	}
	if (!(sd->dtypes & (x->dt ? GK_DTYPE_F64 : GK_DTYPE_F32))) {
		snprintf(c->why, sizeof c->why, "does not handle this precision");
		return BENCH_SKIP;
	}
	return 0;
}

static int ours_run(bench_contender *c, void *cell)
{
	const gemm_side *sd = c->self;
	const gemm_cell *x = cell;
	const bench_shape *s = x->s;
	gk_status st;
	if (x->dt)
		st = gk_dgemm_ex(sd->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0, x->a, s->k,
		                 x->b, s->n, 0.0, x->out, s->n);
	else
		st = gk_sgemm_ex(sd->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0f, x->a, s->k,
		                 x->b, s->n, 0.0f, x->out, s->n);
	if (st == GK_OK)
		return 0;
	snprintf(c->why, sizeof c->why, "%s: %s", gk_strerror(st), gk_last_error());
	return BENCH_FAIL;
}

static int ref_run(bench_contender *c, void *cell)
{
	const gemm_side *sd = c->self;
	const gemm_cell *x = cell;
	if (bench_ref_gemm(&sd->ref, x->dt, x->s->m, x->s->n, x->s->k, x->a, x->b, x->out) == 0)
		return 0;
	snprintf(c->why, sizeof c->why, "sizes too large for its integer type");
	return BENCH_SKIP;
}

const bench_ops gemm_ours_ops = {ours_prepare, ours_run, NULL, NULL, NULL, NULL};
const bench_ops gemm_ref_ops = {NULL, ref_run, NULL, NULL, NULL, NULL};

void gemm_cell_view_of(void *cell, gemm_cell_view *v)
{
	const gemm_cell *x = cell;
	v->dt = x->dt;
	v->m = x->s->m, v->n = x->s->n, v->k = x->s->k;
	v->a = x->a, v->b = x->b, v->out = x->out;
}

gpu_side *gemm_gpu_state(bench_contender *c)
{
	return ((gemm_side *)c->self)->gpu;
}

/* ------------------------------------------------------------------------ */
/* The cell: inputs, reference, check                                        */
/* ------------------------------------------------------------------------ */

/* A matrix on a 64-byte boundary, or with offset >= 0 that many bytes past
 * a 4 KiB page (--offset: malloc gives large blocks 16 bytes past one);
 * *base receives what to free. */
static void *alloc_matrix(int64_t rows, int64_t cols, size_t es, int64_t offset, void **base)
{
	size_t bytes;
	*base = NULL;
	if (__builtin_mul_overflow((size_t)rows, (size_t)cols, &bytes) || __builtin_mul_overflow(bytes, es, &bytes) ||
	    __builtin_add_overflow(bytes, (size_t)(offset > 0 ? offset : 0), &bytes))
		return NULL;
	if (posix_memalign(base, offset >= 0 ? 4096 : 64, bytes ? bytes : 64) != 0) {
		*base = NULL;
		return NULL;
	}
	return (char *)*base + (offset > 0 ? offset : 0);
}

static double frob(int f64, const void *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		double v = f64 ? ((const double *)x)[i] : (double)((const float *)x)[i];
		s += v * v;
	}
	return sqrt(s);
}

static void cell_free(gemm_cell *x)
{
	for (int i = 0; i < 4; i++) {
		free(x->base[i]);
		x->base[i] = NULL;
	}
	free(x->ref);
	x->a = x->b = x->out = x->first = NULL;
	x->ref = NULL;
}

static void cell_touch(void *data)
{
	const gemm_cell *x = data;
	bench_gemm_touch(x->dt, x->s, x->a, x->b, x->out);
}

static void cell_teardown(void *data)
{
	cell_free(data);
}

static int cell_setup(void *data, char *why, size_t len)
{
	gemm_cell *x = data;
	const bench_opts *o = x->g->o;
	const bench_shape *s = x->s;
	const size_t es = x->dt ? sizeof(double) : sizeof(float);
	/* A, B, C and the first result kept for the cross-check, before any of
	 * them (see cli_mem_fits). */
	const double el = (double)s->m * (double)s->k + (double)s->k * (double)s->n + 2.0 * (double)s->m * (double)s->n;
	if (cli_mem_fits(el * (double)es, "the matrices", why, len) != 0)
		return -1;
	x->a = alloc_matrix(s->m, s->k, es, o->offset, &x->base[0]);
	x->b = alloc_matrix(s->k, s->n, es, o->offset, &x->base[1]);
	x->out = alloc_matrix(s->m, s->n, es, o->offset, &x->base[2]);
	x->first = alloc_matrix(s->m, s->n, es, o->offset, &x->base[3]);
	if (!x->a || !x->b || !x->out || !x->first) {
		cell_free(x);
		snprintf(why, len, "not enough memory for the matrices");
		return -1;
	}
	bench_gemm_fill(x->dt, s, o->seed * 1000003u + (uint64_t)(x->dt * BENCH_MAX_SHAPES + x->si), x->a, x->b);
	const size_t mk = (size_t)s->m * (size_t)s->k, kn = (size_t)s->k * (size_t)s->n;
	x->norm_ab = frob(x->dt, x->a, mk) * frob(x->dt, x->b, kn);
	const unsigned dtype = x->dt ? GK_DTYPE_F64 : GK_DTYPE_F32;
	x->bound = gkc_gemm_bound(dtype, s->k, GEMM_FACTOR);
	x->nrows = gkc_sample_rows(s->m, s->n, s->k, o->seed + (uint64_t)x->si, x->rows);
	x->g->sampled |= x->nrows > 0;
	const int64_t nr = x->nrows ? x->nrows : s->m;
	size_t bytes;
	if (!__builtin_mul_overflow((size_t)nr * sizeof(long double), (size_t)s->n, &bytes) && bytes <= REF_MAX_BYTES)
		x->ref = malloc(bytes ? bytes : 16);
	if (x->ref && (double)nr * (double)s->n * (double)s->k >= REF_NOTE_WORK)
		fprintf(stderr, "gemmkit bench: %s %lldx%lldx%lld: the reference, %lld rows in long double...\n",
		        x->dt ? "dgemm" : "sgemm", (long long)s->m, (long long)s->n, (long long)s->k, (long long)nr);
	if (x->ref)
		gkc_ref_gemm(dtype, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0, x->a, s->k, x->b,
		             s->n, 0.0, NULL, s->n, x->nrows ? x->rows : NULL, nr, x->ref);
	x->first_id = NULL;
	return 0;
}

void bench_gemm_fill(int dt, const bench_shape *s, uint64_t seed, void *a, void *b)
{
	cli_rng rng;
	cli_rng_init(&rng, seed);
	const size_t mk = (size_t)s->m * (size_t)s->k, kn = (size_t)s->k * (size_t)s->n;
	if (dt) {
		cli_fill_f64(a, mk, &rng);
		cli_fill_f64(b, kn, &rng);
	} else {
		cli_fill_f32(a, mk, &rng);
		cli_fill_f32(b, kn, &rng);
	}
}

void bench_gemm_poison(int dt, const bench_shape *s, void *c)
{
	memset(c, 0xff, (size_t)s->m * (size_t)s->n * (dt ? sizeof(double) : sizeof(float)));
}

void bench_gemm_touch(int dt, const bench_shape *s, const void *a, const void *b, const void *c)
{
	const size_t es = dt ? sizeof(double) : sizeof(float);
	bench_touch_pages(a, (size_t)s->m * (size_t)s->k * es);
	bench_touch_pages(b, (size_t)s->k * (size_t)s->n * es);
	bench_touch_pages(c, (size_t)s->m * (size_t)s->n * es);
}

static void cell_poison(void *data, bench_contender *c)
{
	(void)c;
	gemm_cell *x = data;
	bench_gemm_poison(x->dt, x->s, x->out);
}

static double elem(int f64, const void *p, size_t i)
{
	return f64 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static int cell_check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	gemm_cell *x = data;
	const bench_shape *s = x->s;
	const size_t mn = (size_t)s->m * (size_t)s->n;
	const unsigned dtype = x->dt ? GK_DTYPE_F64 : GK_DTYPE_F32;
	for (size_t i = 0; i < mn; i++)
		if (!isfinite(elem(x->dt, x->out, i))) {
			*err = INFINITY;
			snprintf(why, len, "C(%zu, %zu) is not finite: NaN, Inf or not written", i / (size_t)s->n,
			         i % (size_t)s->n);
			return -1;
		}
	const int64_t *rows = x->nrows ? x->rows : NULL;
	const int64_t nr = x->nrows ? x->nrows : s->m;
	double gross = 0, norm_ref = 0;
	if (x->ref) {
		*err = gkc_gemm_error(dtype, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0, x->a, s->k,
		                      x->b, s->n, 0.0, NULL, x->out, s->n, rows, nr, x->ref);
		for (int64_t r = 0; r < nr; r++)
			for (int64_t j = 0; j < s->n; j++) {
				long double ref = x->ref[(size_t)r * (size_t)s->n + (size_t)j];
				double d = elem(x->dt, x->out, (size_t)(rows ? rows[r] : r) * (size_t)s->n + (size_t)j) -
				           (double)ref;
				gross += d * d;
				norm_ref += (double)(ref * ref);
			}
	} else if (gkc_gemm_check(dtype, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0, x->a, s->k,
	                          x->b, s->n, 0.0, NULL, x->out, s->n, rows, nr, err) != 0) {
		*err = NAN;
	}
	const gemm_side *sd = c->self;
	const double bound = sd != NULL && sd->precision != GK_PRECISION_DEFAULT
	                     ? gkc_gemm_bound_mode(dtype, s->k, sd->precision, GEMM_FACTOR) : x->bound;
	if (!(*err <= bound) || !(sqrt(gross) <= GEMM_GROSS * sqrt(norm_ref))) {
		snprintf(why, len, "error %.3g against the product in long double%s; bound %.3g", *err,
		         rows ? " (sampled rows)" : "", bound);
		return -1;
	}
	if (x->first_id == NULL) {
		memcpy(x->first, x->out, mn * (x->dt ? sizeof(double) : sizeof(float)));
		x->first_id = c->id;
		x->first_bound = bound;
		return 0;
	}
	const double both = bound > x->first_bound ? bound : x->first_bound;
	double d2 = 0, f2 = 0;
	for (size_t i = 0; i < mn; i++) {
		double f = elem(x->dt, x->first, i), d = elem(x->dt, x->out, i) - f;
		d2 += d * d;
		f2 += f * f;
	}
	if (!(sqrt(d2) <= 2 * both * x->norm_ab) || !(sqrt(d2) <= 2 * GEMM_GROSS * sqrt(f2))) {
		snprintf(why, len, "differs from %s by %.3g (normwise) over all of C; bound %.3g", x->first_id,
		         x->norm_ab > 0 ? sqrt(d2) / x->norm_ab : sqrt(d2), 2 * both);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The run                                                                   */
/* ------------------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The peak of `isa` in both precisions for each thread count of the run,
 * 1 thread and every processor. */
static void measure_peaks(gemm_run *g, const char *isa)
{
	const bench_opts *o = g->o;
	int want[GEMM_MAX_PEAKS], nw = 0;
	long np = sysconf(_SC_NPROCESSORS_ONLN);
	want[nw++] = 1;
	for (int i = 0; i < o->nthreads; i++)
		want[nw++] = o->threads[i];
	want[nw++] = np < 1 ? 1 : np > 1024 ? 1024 : (int)np;
	qsort(want, (size_t)nw, sizeof *want, cmp_int);
	const double run_s = o->quick ? QUICK_PEAK_S : PEAK_S;
	const int reps = o->quick ? QUICK_PEAK_REPS : PEAK_REPS;
	g->npeak = 0;
	for (int i = 0; i < nw; i++) {
		if (i > 0 && want[i] == want[i - 1])
			continue;
		for (int dt = 0; dt < 2; dt++)
			bench_peak_measure(isa, dt, want[i], run_s, reps, &g->peak[dt][g->npeak]);
		fprintf(stderr, "gemmkit bench: multiply-add peak (%s), %d thread%s: float %.1f GFLOPS, double %.1f "
		        "GFLOPS\n", isa, want[i], want[i] > 1 ? "s" : "", g->peak[0][g->npeak].gflops,
		        g->peak[1][g->npeak].gflops);
		g->npeak++;
	}
}

/* The next cells run with o->threads[ti]: every contender gets it, and the
 * cap starts afresh, since the other count's times predict nothing here. */
static void use_threads(gemm_run *g, int ti)
{
	const int t = g->o->threads[ti];
	g->ti = ti;
	for (int ci = 0; ci < g->nc; ci++) {
		if (g->side[ci].gpu != NULL)
			; /* a GPU contender has no CPU threads */
		else if (g->side[ci].kind == GEMM_REF)
			bench_ref_set_threads(&g->side[ci].ref, t);
		else
			gk_context_set_threads(g->side[ci].ctx, t);
		bench_reset_cap(&g->c[ci]);
		/* A CPU contender's GFLOPS stay under the CPU's multiply-add peak
		 * at t threads (measure_peaks takes every count of the run):
		 * three times the measured one bounds them with room for its
		 * noise, for a reference on wider vectors than the kernel set
		 * measured (GK_ARCH=avx2 beside OpenBLAS's AVX-512 kernels:
		 * twice), and for Strassen at any size it can finish within the
		 * cap. */
		for (int dt = 0; dt < 2; dt++) {
			const bench_peak *pk = g->side[ci].gpu == NULL ? gemm_peak_for(g, dt, t) : NULL;
			g->c[ci].rate_max[dt] = pk != NULL ? 3e9 * pk->gflops : 0;
		}
	}
}

static void run_cell(gemm_run *g, int dt, int si)
{
	const bench_opts *o = g->o;
	const bench_shape *s = &o->shapes[si];
	gemm_cell x;
	memset(&x, 0, sizeof x);
	x.g = g, x.dt = dt, x.si = si, x.s = s;
	bench_cell cell;
	memset(&cell, 0, sizeof cell);
	char lab[96];
	gemm_shape_label(s, 1, lab, sizeof lab);
	char thr[32] = "";
	if (o->nthreads > 1)
		snprintf(thr, sizeof thr, " t=%d", o->threads[g->ti]);
	snprintf(cell.label, sizeof cell.label, "%s %s%s%s", dt ? "dgemm" : "sgemm",
	         s->m == s->n && s->n == s->k ? "n=" : "", lab, thr);
	cell.series = dt;
	cell.work = 2.0 * (double)s->m * (double)s->n * (double)s->k;
	cell.threads = o->threads[g->ti];
	cell.data = &x;
	cell.setup = cell_setup;
	cell.before_check = cell_poison;
	cell.check = cell_check;
	cell.before_rounds = cell_touch;
	cell.teardown = cell_teardown;
	bench_result res[GEMM_MAX_CONTENDERS];
	bench_run_cell(&g->eng, g->c, g->nc, &cell, res);
	for (int ci = 0; ci < g->nc; ci++)
		*gemm_result(g, g->ti, dt, si, ci) = res[ci];
}

int bench_run_gemm(const bench_opts *o)
{
	gemm_run *g = calloc(1, sizeof *g);
	if (g == NULL) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	g->o = o;
	int rc = gemm_choose(g);
	if (rc != 0)
		goto done;
	if (o->list) {
		gemm_list(g);
		goto done;
	}
	if (g->nc == 0) {
		cli_error(CMD, "no contender left to run");
		rc = 1;
		goto done;
	}
	bench_report rep;
	if (bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv) != 0) {
		rc = 1;
		goto done;
	}
	g->res = calloc((size_t)o->nthreads * 2 * BENCH_MAX_SHAPES * GEMM_MAX_CONTENDERS, sizeof *g->res);
	if (g->res == NULL) {
		cli_error(CMD, "out of memory");
		rc = 1;
		goto done;
	}
	bench_engine_init(&g->eng, o->quick);
	g->eng.cap = o->cap;
	g->eng.reps = o->reps;
	const int ndt = o->dtype[0] + o->dtype[1];
	g->eng.total = o->nthreads * ndt * o->nshapes * g->nc;
	fprintf(stderr, "gemmkit bench --suite %s: %d contender%s x %d size%s x %d precision%s x %d thread count%s, "
	        "cap %g s; results go to %s/\n", o->suite->name, g->nc, g->nc > 1 ? "s" : "", o->nshapes,
	        o->nshapes > 1 ? "s" : "", ndt, ndt > 1 ? "s" : "", o->nthreads, o->nthreads > 1 ? "s" : "", o->cap,
	        o->out);
	/* After the references are loaded (their trial loads fork, best done
	 * before this process has threads of its own), and after a pause in
	 * which the threads they started fall asleep. */
	bench_pause(BENCH_SETTLE_S);
	/* The CPU's peak, for the CPU contenders' "% of peak"; a run of GPU
	 * contenders alone is measured against cuBLAS instead. */
	if (g->ngpu < g->nc)
		measure_peaks(g, bench_peak_active_isa());
	for (int ti = 0; ti < o->nthreads; ti++) {
		use_threads(g, ti);
		for (int dt = 0; dt < 2; dt++)
			for (int si = 0; si < o->nshapes && o->dtype[dt]; si++)
				run_cell(g, dt, si);
	}
	gemm_report(g, &rep);
	fprintf(stderr, "gemmkit bench: done in %.0f s; results in %s/\n", bench_report_wall(&rep), o->out);
	rc = rep.failed;
	if (g->eng.failed) {
		fprintf(stderr, "gemmkit bench: some results were wrong (ERR above)\n");
		rc = 1;
	}
done:
	for (int ci = 0; ci < g->nc; ci++) {
		if (g->side[ci].kind == GEMM_OURS)
			gk_context_destroy(g->side[ci].ctx);
		gpu_side_free(g->side[ci].gpu);
	}
	free(g->res);
	free(g);
	return rc;
}
