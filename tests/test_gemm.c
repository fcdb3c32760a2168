/*
 * test_gemm.c - every GEMM algorithm of the registry, and "auto", against the
 * long-double reference of test_util.
 *
 * Each algorithm runs through a gk_context (gk_sgemm_ex / gk_dgemm_ex); "auto"
 * also runs half its cases through gk_sgemm / gk_dgemm without a context.
 *
 * Cases:
 *  - a full cross product of the small sizes {0, 1, 7, 31, 33} for m, n and k,
 *    the four transpose pairs (a transposed operand is GK_TRANS or
 *    GK_CONJ_TRANS at random) and both layouts, with alpha, beta in
 *    {0, 1, -0.5} (all nine pairs up to size 7, a rotating two above);
 *  - a random sample of larger shapes (up to 129, with 64 and 127 among them)
 *    and of the other choices;
 *  - shapes of about 1000 (a 999 x 1001 x 1003 cube per algorithm, a thin
 *    one per algorithm and type), compared on a random sample of rows (every
 *    element is still checked to be finite);
 *  - the trivial cases the API edge handles (alpha = 0 and k = 0 with NULL
 *    A and B, m = 0 or n = 0, NaN or Inf in C with beta = 0);
 *  - cpu.ikj_omp and auto with 1, 2 and 3 threads, and GEMMs called from
 *    inside an OpenMP parallel region.
 * Leading dimensions are padded at random; the padding, guard elements before
 * and after C, and A and B must come out unchanged. With beta = 0, C starts
 * as NaN: every element must be written.
 *
 * The bound: gkc_gemm_bound(dtype, k, GEMM_FACTOR) = 2 (k + 2) u on the
 * normwise error of gkc_gemm_error. Classical GEMM in any summation order, with
 * or without fused multiply-adds, has |C - fl(C)| <= gamma_k |alpha| |A| |B|
 * elementwise plus one rounding each for the alpha and beta terms, which in
 * Frobenius norms is at most (k + 2) u (1 + O(ku)) times the denominator; the
 * factor 2 covers the O(ku) term and nothing more, so an algorithm that loses
 * accuracy (a wrong element, a term added twice) still fails.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "test_util.h"

#define GEMM_FACTOR 2.0
#define GUARD 16        /* sentinel elements before and after C */
#define SAMPLE_ROWS 8   /* rows compared in the large cases */
#define N_SAMPLED 48    /* random medium cases per algorithm and type */
#define SENTINEL 777.25 /* a finite value no GEMM here produces by chance */

static void *xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	if (p == NULL) {
		fprintf(stderr, "test_gemm: out of memory (%zu bytes)\n", bytes);
		exit(2);
	}
	return p;
}

static void *xdup(const void *src, size_t bytes)
{
	void *p = xmalloc(bytes);
	if (bytes)
		memcpy(p, src, bytes);
	return p;
}

static size_t esize(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
}

static const char *dt_name(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? "f32" : "f64";
}

static void fill(unsigned dt, void *x, size_t n, tu_rng *r)
{
	if (dt == GK_DTYPE_F32)
		tu_fill_f32(x, n, r);
	else
		tu_fill_f64(x, n, r);
}

static void poison(unsigned dt, void *x, size_t n)
{
	if (dt == GK_DTYPE_F32)
		tu_poison_f32(x, n);
	else
		tu_poison_f64(x, n);
}

static void set_all(unsigned dt, void *x, size_t n, double v)
{
	for (size_t i = 0; i < n; i++) {
		if (dt == GK_DTYPE_F32)
			((float *)x)[i] = (float)v;
		else
			((double *)x)[i] = v;
	}
}

static double get(unsigned dt, const void *x, size_t i)
{
	return dt == GK_DTYPE_F32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

static size_t at(gk_layout layout, int64_t i, int64_t j, int64_t ld)
{
	return layout == GK_ROW_MAJOR ? (size_t)(i * ld + j) : (size_t)(i + j * ld);
}

static int64_t ld_need(gk_layout layout, int64_t rows, int64_t cols)
{
	int64_t v = layout == GK_ROW_MAJOR ? cols : rows;
	return v < 1 ? 1 : v;
}

static char trans_char(gk_trans t)
{
	return t == GK_NO_TRANS ? 'N' : t == GK_TRANS ? 'T' : 'C';
}

/* ------------------------------------------------------------------------ */
/* One problem: inputs, a guarded C, the reference                           */
/* ------------------------------------------------------------------------ */

typedef struct {
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k;
	double alpha, beta;
	int64_t pad_a, pad_b, pad_c; /* added to the smallest valid ld */
	int sample;                  /* compare a sample of rows only */
} gcase;

typedef struct {
	unsigned dt;
	gcase g;
	int64_t lda, ldb, ldc;
	size_t es, ea, eb, ec;
	char *a, *b, *a0, *b0;   /* inputs and their copies */
	char *cbuf, *cbefore;    /* C with GUARD elements on each side, and its copy */
	char *c, *c0;            /* C itself within them */
	int64_t *rows, nrows;    /* rows compared (rows = NULL: all) */
	long double *ref;        /* computed on first use */
	char desc[200];
} prob;

static void prob_init(prob *p, unsigned dt, const gcase *g, tu_rng *r)
{
	memset(p, 0, sizeof *p);
	p->dt = dt;
	p->g = *g;
	p->es = esize(dt);
	const int ta = g->ta != GK_NO_TRANS, tb = g->tb != GK_NO_TRANS;
	const int64_t ra = ta ? g->k : g->m, ca = ta ? g->m : g->k;
	const int64_t rb = tb ? g->n : g->k, cb = tb ? g->k : g->n;
	p->lda = ld_need(g->layout, ra, ca) + g->pad_a;
	p->ldb = ld_need(g->layout, rb, cb) + g->pad_b;
	p->ldc = ld_need(g->layout, g->m, g->n) + g->pad_c;
	p->ea = tu_extent(g->layout, ra, ca, p->lda);
	p->eb = tu_extent(g->layout, rb, cb, p->ldb);
	p->ec = tu_extent(g->layout, g->m, g->n, p->ldc);

	p->a = xmalloc(p->ea * p->es);
	p->b = xmalloc(p->eb * p->es);
	fill(dt, p->a, p->ea, r);
	fill(dt, p->b, p->eb, r);
	p->a0 = xdup(p->a, p->ea * p->es);
	p->b0 = xdup(p->b, p->eb * p->es);

	const size_t tot = p->ec + 2 * GUARD;
	p->cbuf = xmalloc(tot * p->es);
	p->c = p->cbuf + GUARD * p->es;
	set_all(dt, p->cbuf, GUARD, SENTINEL);
	set_all(dt, p->c + p->ec * p->es, GUARD, -SENTINEL);
	/* The padding is filled like the matrix: with NaN when beta = 0. */
	if (g->beta == 0)
		poison(dt, p->c, p->ec);
	else
		fill(dt, p->c, p->ec, r);
	p->cbefore = xdup(p->cbuf, tot * p->es);
	p->c0 = p->cbefore + GUARD * p->es;

	if (g->sample && g->m > SAMPLE_ROWS) {
		p->nrows = SAMPLE_ROWS;
		p->rows = xmalloc(sizeof(int64_t) * SAMPLE_ROWS);
		p->rows[0] = 0;
		p->rows[1] = g->m - 1;
		for (int i = 2; i < SAMPLE_ROWS; i++)
			p->rows[i] = (int64_t)(tu_next(r) % (uint64_t)g->m);
	} else {
		p->nrows = g->m;
	}
	snprintf(p->desc, sizeof p->desc,
	         "%s %s %c%c m=%lld n=%lld k=%lld alpha=%g beta=%g lda=%lld ldb=%lld ldc=%lld",
	         dt_name(dt), g->layout == GK_ROW_MAJOR ? "row" : "col", trans_char(g->ta),
	         trans_char(g->tb), (long long)g->m, (long long)g->n, (long long)g->k, g->alpha,
	         g->beta, (long long)p->lda, (long long)p->ldb, (long long)p->ldc);
}

static void prob_free(prob *p)
{
	free(p->a); free(p->b); free(p->a0); free(p->b0);
	free(p->cbuf); free(p->cbefore); free(p->rows); free(p->ref);
}

/* Put C (and its guards) back as it was before the first call. */
static void prob_reset_c(prob *p)
{
	memcpy(p->cbuf, p->cbefore, (p->ec + 2 * GUARD) * p->es);
}

static gk_status prob_run(prob *p, const gk_context *ctx, int no_ctx)
{
	const gcase *g = &p->g;
	if (p->dt == GK_DTYPE_F32) {
		if (no_ctx)
			return gk_sgemm(g->layout, g->ta, g->tb, g->m, g->n, g->k, (float)g->alpha,
			                (const float *)p->a, p->lda, (const float *)p->b, p->ldb,
			                (float)g->beta, (float *)p->c, p->ldc);
		return gk_sgemm_ex(ctx, g->layout, g->ta, g->tb, g->m, g->n, g->k, (float)g->alpha,
		                   (const float *)p->a, p->lda, (const float *)p->b, p->ldb,
		                   (float)g->beta, (float *)p->c, p->ldc);
	}
	if (no_ctx)
		return gk_dgemm(g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha,
		                (const double *)p->a, p->lda, (const double *)p->b, p->ldb, g->beta,
		                (double *)p->c, p->ldc);
	return gk_dgemm_ex(ctx, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha,
	                   (const double *)p->a, p->lda, (const double *)p->b, p->ldb, g->beta,
	                   (double *)p->c, p->ldc);
}

static int64_t count_nonfinite(const prob *p)
{
	int64_t bad = 0;
	for (int64_t i = 0; i < p->g.m; i++)
		for (int64_t j = 0; j < p->g.n; j++)
			if (!isfinite(get(p->dt, p->c, at(p->g.layout, i, j, p->ldc))))
				bad++;
	return bad;
}

/* Check the result of one call; returns error / bound (0 when nothing to
 * compare), or -1 after a failure that makes the error meaningless. */
static double prob_check(prob *p, gk_status st, const char *who)
{
	const gcase *g = &p->g;
	const size_t es = p->es;
	TU_CHECK(st == GK_OK, "%s %s: status %d (%s): %s", who, p->desc, (int)st, gk_strerror(st),
	         gk_last_error());
	if (st != GK_OK)
		return -1;
	TU_CHECK(memcmp(p->cbuf, p->cbefore, GUARD * es) == 0 &&
	         memcmp(p->c + p->ec * es, p->c0 + p->ec * es, GUARD * es) == 0,
	         "%s %s: wrote outside the extent of C", who, p->desc);
	TU_CHECK(tu_padding_intact(p->dt, g->layout, g->m, g->n, p->c, p->c0, p->ldc),
	         "%s %s: changed the padding between rows/columns of C", who, p->desc);
	TU_CHECK(memcmp(p->a, p->a0, p->ea * es) == 0 && memcmp(p->b, p->b0, p->eb * es) == 0,
	         "%s %s: changed A or B", who, p->desc);
	if (g->m == 0 || g->n == 0) {
		TU_CHECK(memcmp(p->cbuf, p->cbefore, (p->ec + 2 * GUARD) * es) == 0,
		         "%s %s: touched C although it is empty", who, p->desc);
		return 0;
	}
	const int64_t bad = count_nonfinite(p);
	TU_CHECK(bad == 0, "%s %s: %lld of %lld elements of C are NaN or Inf (not written?)", who,
	         p->desc, (long long)bad, (long long)(g->m * g->n));
	if (p->ref == NULL) {
		p->ref = xmalloc(sizeof(long double) * (size_t)p->nrows * (size_t)g->n);
		gkc_ref_gemm(p->dt, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, p->a, p->lda,
		             p->b, p->ldb, g->beta, p->c0, p->ldc, p->rows, p->nrows, p->ref);
	}
	const double err = gkc_gemm_error(p->dt, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha,
	                                  p->a, p->lda, p->b, p->ldb, g->beta, p->c0, p->c, p->ldc,
	                                  p->rows, p->nrows, p->ref);
	const double bound = gkc_gemm_bound(p->dt, g->k, GEMM_FACTOR);
	TU_CHECK(err <= bound, "%s %s: normwise error %.3g > bound %.3g", who, p->desc, err, bound);
	return err <= bound ? err / bound : -1;
}

/* ------------------------------------------------------------------------ */
/* The algorithms under test                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
	const char *name;  /* "auto" or a registry name */
	unsigned dtypes;
	gk_context *ctx;
	long cases[2];     /* per type: f32, f64 */
	double worst[2];   /* largest error / bound */
	long calls;
} algo_run;

static int dti(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? 0 : 1;
}

static void run_case(algo_run *ar, unsigned dt, const gcase *g, tu_rng *r)
{
	prob p;
	prob_init(&p, dt, g, r);
	/* "auto" alternates between the context and the context-free calls. */
	const int no_ctx = strcmp(ar->name, "auto") == 0 && (ar->calls & 1);
	ar->calls++;
	double ratio = prob_check(&p, prob_run(&p, ar->ctx, no_ctx), ar->name);
	ar->cases[dti(dt)]++;
	if (ratio > ar->worst[dti(dt)])
		ar->worst[dti(dt)] = ratio;
	prob_free(&p);
}

static gk_trans pick_trans(int transposed, tu_rng *r)
{
	if (!transposed)
		return GK_NO_TRANS;
	return (tu_next(r) & 1) ? GK_TRANS : GK_CONJ_TRANS;
}

static const double scalars[3] = {0.0, 1.0, -0.5};

/*
 * m, n, k in {0, 1, 7, 31, 33}: every size triple with every transpose pair
 * and layout. Where all three sizes are at most 7, each of those also runs
 * with all nine (alpha, beta) pairs; above, with two pairs that rotate so that
 * each size triple still meets all nine across its eight transpose/layout
 * cells.
 */
static void small_cross(algo_run *ar, unsigned dt, tu_rng *r)
{
	static const int64_t sizes[] = {0, 1, 7, 31, 33};
	static const int64_t pads[] = {0, 0, 1, 5};
	const int ns = (int)(sizeof sizes / sizeof sizes[0]);
	int triple = 0;
	for (int im = 0; im < ns; im++)
		for (int in = 0; in < ns; in++)
			for (int ik = 0; ik < ns; ik++, triple++) {
				const int tiny = sizes[im] <= 7 && sizes[in] <= 7 && sizes[ik] <= 7;
				for (int cell = 0; cell < 8; cell++) {
					const int tp = cell & 3, lay = cell >> 2;
					for (int t = 0; t < (tiny ? 9 : 2); t++) {
						const int s = tiny ? t : (cell * 2 + t + triple) % 9;
						gcase g = {
							lay ? GK_COL_MAJOR : GK_ROW_MAJOR,
							pick_trans(tp & 1, r), pick_trans(tp & 2, r),
							sizes[im], sizes[in], sizes[ik],
							scalars[s / 3], scalars[s % 3],
							pads[tu_next(r) % 4], pads[tu_next(r) % 4],
							pads[tu_next(r) % 4], 0,
						};
						run_case(ar, dt, &g, r);
					}
				}
			}
}

/* Random shapes up to 129 around the vector widths, random everything else. */
static void medium_sample(algo_run *ar, unsigned dt, tu_rng *r)
{
	static const int64_t sizes[] = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33,
	                                63, 64, 65, 100, 127, 128, 129};
	const uint64_t ns = sizeof sizes / sizeof sizes[0];
	for (int i = 0; i < N_SAMPLED; i++) {
		gcase g = {
			(tu_next(r) & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR,
			pick_trans(tu_next(r) & 1, r), pick_trans(tu_next(r) & 1, r),
			sizes[tu_next(r) % ns], sizes[tu_next(r) % ns], sizes[tu_next(r) % ns],
			scalars[tu_next(r) % 3], scalars[tu_next(r) % 3],
			(int64_t)(tu_next(r) % 40), (int64_t)(tu_next(r) % 40), (int64_t)(tu_next(r) % 40), 0,
		};
		/* Medium shapes with 64 and 127 always present at least once. */
		if (i == 0) { g.m = 64; g.n = 127; g.k = 127; }
		if (i == 1) { g.m = 127; g.n = 64; g.k = 64; }
		run_case(ar, dt, &g, r);
	}
}

/* Shapes of about 1000: a 999 x 1001 x 1003 cube per algorithm, in one type
 * (alternating with the algorithm, as do its transposes and layout), and one
 * thin shape per algorithm and type. */
static void large_cases(algo_run *ar, int which, unsigned dt, tu_rng *r)
{
	const int sel = which * 2 + dti(dt);
	if ((which & 1) == dti(dt)) {
		gcase cube = {
			(which & 2) ? GK_COL_MAJOR : GK_ROW_MAJOR,
			pick_trans(sel & 2, r), pick_trans(sel & 4, r),
			999, 1001, 1003, (sel & 1) ? 1.0 : -0.5, scalars[sel % 3], 3, 0, 5, 1,
		};
		run_case(ar, dt, &cube, r);
	}
	static const int64_t thin[][3] = {{1003, 33, 999}, {31, 1001, 1000}, {1001, 999, 7},
	                                  {1000, 1, 1003}, {1, 1000, 1001}};
	const int64_t *s = thin[sel % 5];
	gcase g = {
		(tu_next(r) & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR,
		pick_trans(tu_next(r) & 1, r), pick_trans(tu_next(r) & 1, r),
		s[0], s[1], s[2], scalars[1 + tu_next(r) % 2], scalars[tu_next(r) % 3], 1, 2, 7, 1,
	};
	run_case(ar, dt, &g, r);
}

/* ------------------------------------------------------------------------ */
/* The cases the API edge handles itself                                     */
/* ------------------------------------------------------------------------ */

static gk_status call_raw(unsigned dt, const gk_context *ctx, gk_layout layout, gk_trans ta,
                          gk_trans tb, int64_t m, int64_t n, int64_t k, double alpha,
                          const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
                          void *c, int64_t ldc)
{
	if (dt == GK_DTYPE_F32)
		return gk_sgemm_ex(ctx, layout, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb,
		                   (float)beta, c, ldc);
	return gk_dgemm_ex(ctx, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* C must be exactly beta * C0 (scaling by 0, 1 or -0.5 is exact), padding intact. */
static void check_scaled(unsigned dt, const char *who, const char *what, gk_layout layout,
                         int64_t m, int64_t n, double beta, const void *c, const void *c0,
                         int64_t ldc)
{
	int64_t bad = 0;
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++) {
			size_t x = at(layout, i, j, ldc);
			double want = beta == 0 ? 0.0 : beta * get(dt, c0, x);
			if (dt == GK_DTYPE_F32)
				want = (float)want;
			if (get(dt, c, x) != want)
				bad++;
		}
	TU_CHECK(bad == 0, "%s %s %s beta=%g: %lld elements are not beta * C", who, dt_name(dt), what,
	         beta, (long long)bad);
	TU_CHECK(tu_padding_intact(dt, layout, m, n, c, c0, ldc), "%s %s %s: padding changed", who,
	         dt_name(dt), what);
}

static void trivial_cases(algo_run *ar, unsigned dt, tu_rng *r)
{
	const size_t es = esize(dt);
	const int64_t m = 13, n = 9, ldc = 21;
	const size_t ec = (size_t)ldc * 21;
	char *c = xmalloc(ec * es), *c0 = xmalloc(ec * es);
	char *a = xmalloc(64 * 64 * es), *b = xmalloc(64 * 64 * es);
	for (int lay = 0; lay < 2; lay++) {
		const gk_layout L = lay ? GK_COL_MAJOR : GK_ROW_MAJOR;
		for (int s = 0; s < 3; s++) {
			const double beta = scalars[s];
			gk_status st;
			/* alpha = 0: A and B are not read, so they may be NULL... */
			fill(dt, c, ec, r);
			if (beta == 0)
				poison(dt, c, ec);
			memcpy(c0, c, ec * es);
			st = call_raw(dt, ar->ctx, L, GK_NO_TRANS, GK_TRANS, m, n, 17, 0.0, NULL, 17, NULL,
			              17, beta, c, ldc);
			TU_CHECK(st == GK_OK, "%s %s alpha=0, A=B=NULL: status %d: %s", ar->name,
			         dt_name(dt), (int)st, gk_last_error());
			check_scaled(dt, ar->name, "alpha=0 A=B=NULL", L, m, n, beta, c, c0, ldc);

			/* ...and NaN in them stays out of the result. */
			poison(dt, a, 64 * 64);
			poison(dt, b, 64 * 64);
			fill(dt, c, ec, r);
			if (beta == 0)
				set_all(dt, c, ec, INFINITY);
			memcpy(c0, c, ec * es);
			st = call_raw(dt, ar->ctx, L, GK_TRANS, GK_NO_TRANS, m, n, 17, 0.0, a, 17, b, 17,
			              beta, c, ldc);
			TU_CHECK(st == GK_OK, "%s %s alpha=0, NaN A, B: status %d: %s", ar->name,
			         dt_name(dt), (int)st, gk_last_error());
			check_scaled(dt, ar->name, "alpha=0 NaN A,B", L, m, n, beta, c, c0, ldc);

			/* k = 0: C = beta * C, A and B may be NULL, lda = ldb = 1 suffice
			 * where their stored dimension is k. */
			fill(dt, c, ec, r);
			if (beta == 0)
				poison(dt, c, ec);
			memcpy(c0, c, ec * es);
			const int64_t lda = L == GK_ROW_MAJOR ? 1 : m, ldb = L == GK_ROW_MAJOR ? n : 1;
			st = call_raw(dt, ar->ctx, L, GK_NO_TRANS, GK_NO_TRANS, m, n, 0, 1.0, NULL, lda,
			              NULL, ldb, beta, c, ldc);
			TU_CHECK(st == GK_OK, "%s %s k=0: status %d: %s", ar->name, dt_name(dt), (int)st,
			         gk_last_error());
			check_scaled(dt, ar->name, "k=0", L, m, n, beta, c, c0, ldc);
		}
		/* m = 0 or n = 0: nothing is touched, C may be NULL. */
		fill(dt, c, ec, r);
		memcpy(c0, c, ec * es);
		gk_status st = call_raw(dt, ar->ctx, L, GK_NO_TRANS, GK_NO_TRANS, 0, n, 5, 1.0, a, 64, b,
		                        64, 0.0, c, ldc);
		TU_CHECK(st == GK_OK && memcmp(c, c0, ec * es) == 0, "%s %s m=0: status %d or C touched",
		         ar->name, dt_name(dt), (int)st);
		st = call_raw(dt, ar->ctx, L, GK_NO_TRANS, GK_NO_TRANS, m, 0, 5, 1.0, a, 64, b, 64, 0.0,
		              c, ldc);
		TU_CHECK(st == GK_OK && memcmp(c, c0, ec * es) == 0, "%s %s n=0: status %d or C touched",
		         ar->name, dt_name(dt), (int)st);
		st = call_raw(dt, ar->ctx, L, GK_NO_TRANS, GK_NO_TRANS, 0, 0, 5, 1.0, NULL, 64, NULL, 64,
		              0.0, NULL, ldc);
		TU_CHECK(st == GK_OK, "%s %s m=n=0, all NULL: status %d: %s", ar->name, dt_name(dt),
		         (int)st, gk_last_error());
	}
	free(a); free(b); free(c); free(c0);
}

/* ------------------------------------------------------------------------ */
/* Threads                                                                   */
/* ------------------------------------------------------------------------ */

/* The same problem with 1, 2 and 3 threads: each result within the bound of
 * the reference, and all within twice the bound of each other. */
static void thread_counts(const char *algo, unsigned dt, tu_rng *r)
{
	static const int64_t shapes[][3] = {{1, 65, 17}, {2, 33, 31}, {3, 7, 64},
	                                    {127, 129, 65}, {300, 257, 100}};
	gk_context *ctx;
	if (gk_context_create(&ctx) != GK_OK || gk_context_set_algo(ctx, algo) != GK_OK) {
		TU_CHECK(0, "threads: cannot make a context for %s", algo);
		gk_context_destroy(ctx);
		return;
	}
	double worst = 0;
	long cases = 0;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		gcase g = {
			(tu_next(r) & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR,
			pick_trans(tu_next(r) & 1, r), pick_trans(tu_next(r) & 1, r),
			shapes[s][0], shapes[s][1], shapes[s][2], scalars[1 + tu_next(r) % 2],
			scalars[tu_next(r) % 3], 2, 1, 3, 0,
		};
		prob p;
		prob_init(&p, dt, &g, r);
		long double *first = xmalloc(sizeof(long double) * (size_t)(g.m * g.n));
		for (int t = 1; t <= 3; t++) {
			char who[64];
			snprintf(who, sizeof who, "%s threads=%d", algo, t);
			prob_reset_c(&p);
			gk_context_set_threads(ctx, t);
			double ratio = prob_check(&p, prob_run(&p, ctx, 0), who);
			if (ratio > worst)
				worst = ratio;
			cases++;
			if (t == 1) {
				for (int64_t i = 0; i < g.m; i++)
					for (int64_t j = 0; j < g.n; j++)
						first[i * g.n + j] = get(dt, p.c, at(g.layout, i, j, p.ldc));
				continue;
			}
			double diff = gkc_gemm_error(dt, g.layout, g.ta, g.tb, g.m, g.n, g.k, g.alpha, p.a,
			                             p.lda, p.b, p.ldb, g.beta, p.c0, p.c, p.ldc, NULL, g.m,
			                             first);
			double bound = 2 * gkc_gemm_bound(dt, g.k, GEMM_FACTOR);
			TU_CHECK(diff <= bound, "%s %s: 1 and %d threads differ by %.3g > %.3g", who, p.desc,
			         t, diff, bound);
		}
		free(first);
		prob_free(&p);
	}
	printf("  threads 1,2,3 %-12s %s: %3ld cases, max err/bound %.4f\n", algo, dt_name(dt),
	       cases, worst);
	gk_context_destroy(ctx);
}

/* Two threads of the caller's parallel region, each with its own GEMM: one
 * with the defaults (1 thread inside a region), one with a context asking for
 * 2 threads (obeyed, nested or not). */
static void inside_parallel_region(tu_rng *r)
{
	gk_context *ctx2 = NULL;
	gk_context_create(&ctx2);
	gk_context_set_threads(ctx2, 2);
	prob ps[2][2];
	gk_status st[2][2] = {{GK_ERR_INTERNAL, GK_ERR_INTERNAL}, {GK_ERR_INTERNAL, GK_ERR_INTERNAL}};
	for (int t = 0; t < 2; t++)
		for (int v = 0; v < 2; v++) {
			gcase g = {
				t ? GK_COL_MAJOR : GK_ROW_MAJOR, pick_trans(v, r), pick_trans(t, r),
				100 + 17 * t, 90 + 13 * v, 80 + t + v, -0.5, v ? 1.0 : 0.0, 1, 2, 3, 0,
			};
			prob_init(&ps[t][v], v ? GK_DTYPE_F64 : GK_DTYPE_F32, &g, r);
		}
	int team = 0;
#pragma omp parallel num_threads(2)
	{
		const int t = omp_get_thread_num();
#pragma omp single
		team = omp_get_num_threads();
		if (t < 2) {
			/* f32 with the defaults, then f64 with the 2-thread context. */
			st[t][0] = prob_run(&ps[t][0], NULL, 1);
			st[t][1] = prob_run(&ps[t][1], ctx2, 0);
		}
	}
	if (team < 2) {
		/* The runtime gave one thread: run the second thread's share here. */
		printf("  parallel region: the OpenMP runtime gave %d thread(s)\n", team);
		st[1][0] = prob_run(&ps[1][0], NULL, 1);
		st[1][1] = prob_run(&ps[1][1], ctx2, 0);
	}
	double worst = 0;
	for (int t = 0; t < 2; t++)
		for (int v = 0; v < 2; v++) {
			double ratio = prob_check(&ps[t][v], st[t][v], v ? "parallel region, ctx threads=2"
			                                                 : "parallel region, gk_sgemm");
			if (ratio > worst)
				worst = ratio;
			prob_free(&ps[t][v]);
		}
	printf("  inside a parallel region of %d threads: 4 GEMMs, max err/bound %.4f\n", team, worst);
	gk_context_destroy(ctx2);
}

/*
 * Tiny products take a fast path when no algorithm is named (gemm_api.c):
 * it must give the bits of the general path, which a context naming
 * "cpu.blocked" takes, for every layout, transpose pair and (alpha, beta),
 * and leave the padding of C alone.
 */
static void tiny_fast_path(tu_rng *r)
{
	gk_context *ctx = NULL;
	gk_status st = gk_context_create(&ctx);
	if (st == GK_OK)
		st = gk_context_set_algo(ctx, "cpu.blocked");
	TU_CHECK(st == GK_OK, "tiny fast path: cannot make a context: %s", gk_last_error());
	if (st != GK_OK)
		return;
	long cases = 0, diff = 0;
	for (int rep = 0; rep < 400; rep++) {
		const unsigned dt = (rep & 1) ? GK_DTYPE_F64 : GK_DTYPE_F32;
		const int64_t m = 1 + (int64_t)(tu_next(r) % 64), n = 1 + (int64_t)(tu_next(r) % 64);
		/* Up to the fast path's limit (m n k <= 64^3), and past it. */
		const int64_t kmax = 2 * 64 * 64 * 64 / (m * n) < 300 ? 2 * 64 * 64 * 64 / (m * n) : 300;
		const int64_t k = 1 + (int64_t)(tu_next(r) % (uint64_t)kmax);
		const gk_layout lay = (tu_next(r) & 1) ? GK_COL_MAJOR : GK_ROW_MAJOR;
		const gk_trans ta = pick_trans((int)(tu_next(r) & 1), r), tb = pick_trans((int)(tu_next(r) & 1), r);
		const int ia = ta != GK_NO_TRANS, ib = tb != GK_NO_TRANS;
		const int64_t lda = ld_need(lay, ia ? k : m, ia ? m : k) + (int64_t)(tu_next(r) % 3);
		const int64_t ldb = ld_need(lay, ib ? n : k, ib ? k : n) + (int64_t)(tu_next(r) % 3);
		const int64_t ldc = ld_need(lay, m, n) + (int64_t)(tu_next(r) % 3);
		const double alpha = (tu_next(r) & 1) ? 1.0 : -0.75, beta = scalars[tu_next(r) % 3];
		const size_t es = esize(dt);
		const size_t ea = tu_extent(lay, ia ? k : m, ia ? m : k, lda);
		const size_t eb = tu_extent(lay, ib ? n : k, ib ? k : n, ldb);
		const size_t ec = tu_extent(lay, m, n, ldc);
		void *a = xmalloc(ea * es), *b = xmalloc(eb * es), *c1 = xmalloc(ec * es);
		fill(dt, a, ea, r);
		fill(dt, b, eb, r);
		fill(dt, c1, ec, r);
		void *c2 = xdup(c1, ec * es);
		gk_status s1, s2;
		if (dt == GK_DTYPE_F32) {
			s1 = gk_sgemm(lay, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c1, ldc);
			s2 = gk_sgemm_ex(ctx, lay, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb,
			                 (float)beta, c2, ldc);
		} else {
			s1 = gk_dgemm(lay, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c1, ldc);
			s2 = gk_dgemm_ex(ctx, lay, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c2, ldc);
		}
		TU_CHECK(s1 == GK_OK && s2 == GK_OK, "tiny fast path %s %lldx%lldx%lld: status %d / %d",
		         dt_name(dt), (long long)m, (long long)n, (long long)k, (int)s1, (int)s2);
		const int same = memcmp(c1, c2, ec * es) == 0;
		TU_CHECK(same, "tiny fast path %s %c%c %s %lldx%lldx%lld alpha %g beta %g: bits differ "
		         "from cpu.blocked's", dt_name(dt), trans_char(ta), trans_char(tb),
		         lay == GK_ROW_MAJOR ? "row" : "col", (long long)m, (long long)n, (long long)k,
		         alpha, beta);
		diff += !same;
		cases++;
		free(a);
		free(b);
		free(c1);
		free(c2);
	}
	printf("  tiny fast path vs cpu.blocked: %ld cases, %ld differ\n", cases, diff);
	gk_context_destroy(ctx);
}

int main(void)
{
	const uint64_t seed = tu_seed();
	tu_rng r;
	tu_rng_init(&r, seed);
	printf("kernel set: %s, bound: %.0f * (k + 2) * u\n", gk_arch_name(), GEMM_FACTOR);

	/* "auto" first, then the registry. */
	const int count = gk_algo_count();
	algo_run *runs = calloc((size_t)count + 1, sizeof *runs);
	int nruns = 0;
	runs[nruns++] = (algo_run){"auto", GK_DTYPE_F32 | GK_DTYPE_F64, NULL, {0, 0}, {0, 0}, 0};
	for (int i = 0; i < count; i++) {
		gk_algo_info info;
		gk_status st = gk_algo_get(i, &info);
		TU_CHECK(st == GK_OK, "gk_algo_get(%d): status %d", i, (int)st);
		if (st != GK_OK)
			continue;
		if (info.backend != GK_BACKEND_CPU) {
			printf("skip %s: not a CPU algorithm (GPU algorithms have their own tests)\n",
			       info.name);
			continue;
		}
		if (!info.available) {
			printf("skip %s: not available on this machine\n", info.name);
			continue;
		}
		runs[nruns++] = (algo_run){info.name, info.dtypes, NULL, {0, 0}, {0, 0}, 0};
	}

	for (int i = 0; i < nruns; i++) {
		algo_run *ar = &runs[i];
		gk_status st = gk_context_create(&ar->ctx);
		if (st == GK_OK)
			st = gk_context_set_algo(ar->ctx, ar->name);
		TU_CHECK(st == GK_OK, "%s: cannot make a context: %s", ar->name, gk_last_error());
		if (st != GK_OK)
			continue;
		for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
			if (!(ar->dtypes & dt)) {
				/* A type the algorithm lacks is refused, not computed wrongly. */
				prob p;
				gcase g = {GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 3, 3, 3, 1, 0, 0, 0, 0, 0};
				prob_init(&p, dt, &g, &r);
				st = prob_run(&p, ar->ctx, 0);
				TU_CHECK(st == GK_ERR_UNSUPPORTED, "%s %s: a type it lacks gave status %d",
				         ar->name, dt_name(dt), (int)st);
				prob_free(&p);
				printf("skip %s %s: not handled by this algorithm\n", ar->name, dt_name(dt));
				continue;
			}
			small_cross(ar, dt, &r);
			medium_sample(ar, dt, &r);
			large_cases(ar, i, dt, &r);
			trivial_cases(ar, dt, &r);
		}
		printf("%-14s f32: %5ld cases, max err/bound %.4f | f64: %5ld cases, max err/bound %.4f\n",
		       ar->name, ar->cases[0], ar->worst[0], ar->cases[1], ar->worst[1]);
		gk_context_destroy(ar->ctx);
	}

	/* The threaded rung (when registered and available here) and "auto". */
	int have_omp = 0;
	for (int i = 0; i < nruns; i++)
		have_omp |= strcmp(runs[i].name, "cpu.ikj_omp") == 0;
	if (!have_omp)
		printf("skip threads of cpu.ikj_omp: not registered or not available\n");
	for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
		if (have_omp)
			thread_counts("cpu.ikj_omp", dt, &r);
		thread_counts("auto", dt, &r);
	}
	inside_parallel_region(&r);
	tiny_fast_path(&r);

	free(runs);
	return tu_finish("test_gemm");
}
