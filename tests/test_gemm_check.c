/*
 * test_gemm_check.c - the accuracy check itself (tools/common/gemm_check.c),
 * which every GEMM test and `gemmkit gemm` trust:
 *
 *  - an exact product (small integers: every sum is exact in float) measures
 *    0, in both layouts, with every transpose, padded leading dimensions and
 *    alpha, beta != 0;
 *  - errors planted in C measure exactly what the formula gives, with the
 *    norms worked out here independently;
 *  - NaN or Inf in C gives +inf; with beta = 0, NaN in C0 (or no C0) changes
 *    nothing; Inf in A (a reference that is not finite) gives NaN;
 *  - a list of rows: the reference rows are the full reference's, and the
 *    error sees only those rows of A, C and C0;
 *  - gkc_gemm_check gives the same bits as gkc_ref_gemm + gkc_gemm_error,
 *    also when it works a block of rows at a time;
 *  - the bound's value, and the sample of rows: when, how many, distinct,
 *    sorted, in range, the same for the same seed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

static void *xmalloc(size_t bytes)
{
	void *p = malloc(bytes > 0 ? bytes : 1);
	if (p == NULL) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

static double get(unsigned dt, const void *x, size_t i)
{
	return dt == GK_DTYPE_F32 ? ((const float *)x)[i] : ((const double *)x)[i];
}

static void set(unsigned dt, void *x, size_t i, double v)
{
	if (dt == GK_DTYPE_F32)
		((float *)x)[i] = (float)v;
	else
		((double *)x)[i] = v;
}

static size_t at(gk_layout layout, int64_t i, int64_t j, int64_t ld)
{
	return layout == GK_ROW_MAJOR ? (size_t)(i * ld + j) : (size_t)(i + j * ld);
}

/* One product with stored operands of small integers and an exact C. */
typedef tu_gemm_prob prob;

static double op_a(const prob *p, int64_t i, int64_t l)
{
	return get(p->dt, p->a, p->ta == GK_NO_TRANS ? at(p->layout, i, l, p->lda)
	                                             : at(p->layout, l, i, p->lda));
}

static double op_b(const prob *p, int64_t l, int64_t j)
{
	return get(p->dt, p->b, p->tb == GK_NO_TRANS ? at(p->layout, l, j, p->ldb)
	                                             : at(p->layout, j, l, p->ldb));
}

static void prob_make(prob *p, unsigned dt, gk_layout layout, gk_trans ta, gk_trans tb,
                      int64_t m, int64_t n, int64_t k, double alpha, double beta, tu_rng *r)
{
	tu_gemm_prob_set(p, dt, layout, ta, tb, m, n, k, alpha, beta);
	const int64_t ar = ta == GK_NO_TRANS ? m : k, ac = ta == GK_NO_TRANS ? k : m;
	const int64_t br = tb == GK_NO_TRANS ? k : n, bc = tb == GK_NO_TRANS ? n : k;
	/* Padded leading dimensions; the padding holds NaN, which must not be read. */
	p->lda = (layout == GK_ROW_MAJOR ? ac : ar) + 3;
	p->ldb = (layout == GK_ROW_MAJOR ? bc : br) + 2;
	p->ldc = (layout == GK_ROW_MAJOR ? n : m) + 1;
	const size_t es = dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	const size_t ea = tu_extent(layout, ar, ac, p->lda) + 8, eb = tu_extent(layout, br, bc, p->ldb) + 8;
	const size_t ec = tu_extent(layout, m, n, p->ldc) + 8;
	p->a = xmalloc(ea * es);
	p->b = xmalloc(eb * es);
	p->c0 = xmalloc(ec * es);
	p->c = xmalloc(ec * es);
	for (size_t i = 0; i < ea; i++)
		set(dt, p->a, i, NAN);
	for (size_t i = 0; i < eb; i++)
		set(dt, p->b, i, NAN);
	for (size_t i = 0; i < ec; i++) {
		set(dt, p->c0, i, NAN);
		set(dt, p->c, i, NAN);
	}
	for (int64_t i = 0; i < ar; i++)
		for (int64_t j = 0; j < ac; j++)
			set(dt, p->a, at(layout, i, j, p->lda), (double)(int)(tu_next(r) % 9) - 4);
	for (int64_t i = 0; i < br; i++)
		for (int64_t j = 0; j < bc; j++)
			set(dt, p->b, at(layout, i, j, p->ldb), (double)(int)(tu_next(r) % 9) - 4);
	/* C = alpha op(A) op(B) + beta C0, exact: integers well below 2^24. */
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++) {
			const double c0 = (double)(int)(tu_next(r) % 17) - 8;
			double s = 0;
			for (int64_t l = 0; l < k; l++)
				s += op_a(p, i, l) * op_b(p, l, j);
			set(dt, p->c0, at(layout, i, j, p->ldc), c0);
			set(dt, p->c, at(layout, i, j, p->ldc), alpha * s + (beta != 0 ? beta * c0 : 0));
		}
}

/* The error of p's C over rows (NULL: all), through the two-step API. */
static double error_of(const prob *p, const void *c0, const int64_t *rows, int64_t nrows)
{
	const int64_t nr = rows ? nrows : p->m;
	long double *ref = xmalloc(sizeof(long double) * (size_t)(nr * p->n));
	gkc_ref_gemm(p->dt, p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->a, p->lda,
	             p->b, p->ldb, p->beta, c0, p->ldc, rows, nrows, ref);
	const double err = gkc_gemm_error(p->dt, p->layout, p->ta, p->tb, p->m, p->n, p->k,
	                                  p->alpha, p->a, p->lda, p->b, p->ldb, p->beta, c0, p->c,
	                                  p->ldc, rows, nrows, ref);
	free(ref);
	return err;
}

/* The same through gkc_gemm_check. */
static double check_of(const prob *p, const int64_t *rows, int64_t nrows)
{
	double err = -1;
	int rc = gkc_gemm_check(p->dt, p->layout, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->a,
	                        p->lda, p->b, p->ldb, p->beta, p->c0, p->c, p->ldc, rows, nrows, &err);
	TU_CHECK(rc == 0, "gkc_gemm_check returned %d", rc);
	return err;
}

/* The denominator, worked out here in double (integer sums: exact). */
static double denom_of(const prob *p, const int64_t *rows, int64_t nrows)
{
	double na = 0, nb = 0, nc = 0;
	const int64_t nr = rows ? nrows : p->m;
	for (int64_t r = 0; r < nr; r++) {
		const int64_t i = rows ? rows[r] : r;
		for (int64_t l = 0; l < p->k; l++)
			na += op_a(p, i, l) * op_a(p, i, l);
		for (int64_t j = 0; j < p->n; j++) {
			const double v = get(p->dt, p->c0, at(p->layout, i, j, p->ldc));
			nc += v * v;
		}
	}
	for (int64_t l = 0; l < p->k; l++)
		for (int64_t j = 0; j < p->n; j++)
			nb += op_b(p, l, j) * op_b(p, l, j);
	return fabs(p->alpha) * sqrt(na) * sqrt(nb) + (p->beta != 0 ? fabs(p->beta) * sqrt(nc) : 0);
}

static int close_to(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fabs(want);
}

static const char *desc(const prob *p)
{
	static char s[128];
	snprintf(s, sizeof s, "%s %s %c%c %lldx%lldx%lld alpha=%g beta=%g",
	         p->dt == GK_DTYPE_F32 ? "s" : "d", p->layout == GK_ROW_MAJOR ? "row" : "col",
	         p->ta == GK_NO_TRANS ? 'n' : 't', p->tb == GK_NO_TRANS ? 'n' : 't',
	         (long long)p->m, (long long)p->n, (long long)p->k, p->alpha, p->beta);
	return s;
}

/* Exact products, planted errors, non-finite values and row lists, for one
 * combination of dtype, layout and transposes. */
static void one_case(unsigned dt, gk_layout layout, gk_trans ta, gk_trans tb, tu_rng *r)
{
	const int64_t m = 7, n = 5, k = 9;
	prob p;
	/* beta != 0 */
	prob_make(&p, dt, layout, ta, tb, m, n, k, 2.0, -1.5, r);
	double e = error_of(&p, p.c0, NULL, 0);
	TU_CHECK(e == 0, "%s: exact product measures %.3g", desc(&p), e);
	e = check_of(&p, NULL, 0);
	TU_CHECK(e == 0, "%s: gkc_gemm_check of an exact product: %.3g", desc(&p), e);

	/* Two planted errors: sqrt(0.5^2 + 0.25^2) over the denominator. */
	const size_t x1 = at(layout, 2, 3, p.ldc), x2 = at(layout, 6, 0, p.ldc);
	const double v1 = get(dt, p.c, x1), v2 = get(dt, p.c, x2);
	set(dt, p.c, x1, v1 + 0.5);
	set(dt, p.c, x2, v2 - 0.25);
	const double want = sqrt(0.5 * 0.5 + 0.25 * 0.25) / denom_of(&p, NULL, 0);
	e = error_of(&p, p.c0, NULL, 0);
	TU_CHECK(close_to(e, want), "%s: planted error measures %.17g, want %.17g", desc(&p), e, want);
	TU_CHECK(check_of(&p, NULL, 0) == e, "%s: gkc_gemm_check differs from the two steps", desc(&p));

	/* Rows in any order: the reference rows match, and only they count. */
	const int64_t rows[3] = {5, 2, 0};
	long double full[7 * 5], part[3 * 5];
	gkc_ref_gemm(dt, layout, ta, tb, m, n, k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c0,
	             p.ldc, NULL, 0, full);
	gkc_ref_gemm(dt, layout, ta, tb, m, n, k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c0,
	             p.ldc, rows, 3, part);
	int same = 1;
	for (int r3 = 0; r3 < 3; r3++)
		for (int64_t j = 0; j < n; j++)
			same &= part[r3 * n + j] == full[rows[r3] * n + j];
	TU_CHECK(same, "%s: reference rows of a list differ from the full reference", desc(&p));
	const double want_rows = 0.5 / denom_of(&p, rows, 3);
	e = error_of(&p, p.c0, rows, 3);
	TU_CHECK(close_to(e, want_rows), "%s: rows {5,2,0} measure %.17g, want %.17g", desc(&p), e,
	         want_rows);
	TU_CHECK(check_of(&p, rows, 3) == e, "%s: gkc_gemm_check differs on a row list", desc(&p));
	const int64_t clean[2] = {4, 1};
	e = error_of(&p, p.c0, clean, 2);
	TU_CHECK(e == 0, "%s: rows without the planted errors measure %.3g", desc(&p), e);

	/* NaN and Inf in C. */
	set(dt, p.c, x1, v1);
	set(dt, p.c, x2, NAN);
	e = error_of(&p, p.c0, NULL, 0);
	TU_CHECK(isinf(e) && e > 0, "%s: NaN in C measures %.3g", desc(&p), e);
	set(dt, p.c, x2, -INFINITY);
	e = check_of(&p, NULL, 0);
	TU_CHECK(isinf(e) && e > 0, "%s: -Inf in C measures %.3g", desc(&p), e);
	set(dt, p.c, x2, v2);
	/* Inf in A: the reference is not finite, nothing can be measured. */
	const size_t xa = p.ta == GK_NO_TRANS ? at(layout, 3, 4, p.lda) : at(layout, 4, 3, p.lda);
	const double va = get(dt, p.a, xa);
	set(dt, p.a, xa, INFINITY);
	e = error_of(&p, p.c0, NULL, 0);
	TU_CHECK(isnan(e), "%s: Inf in A measures %.3g, want NaN", desc(&p), e);
	set(dt, p.a, xa, va);
	tu_gemm_prob_free(&p);

	/* beta = 0: C0 is not read, NaN there changes nothing. */
	prob_make(&p, dt, layout, ta, tb, m, n, k, -1.0, 0.0, r);
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++)
			set(dt, p.c0, at(layout, i, j, p.ldc), NAN);
	e = error_of(&p, p.c0, NULL, 0);
	TU_CHECK(e == 0, "%s: NaN in C0 with beta = 0 measures %.3g", desc(&p), e);
	e = error_of(&p, NULL, NULL, 0);
	TU_CHECK(e == 0, "%s: C0 = NULL with beta = 0 measures %.3g", desc(&p), e);
	set(dt, p.c, at(layout, 1, 1, p.ldc), get(dt, p.c, at(layout, 1, 1, p.ldc)) + 1);
	const double want0 = 1 / denom_of(&p, NULL, 0);
	e = check_of(&p, NULL, 0);
	TU_CHECK(close_to(e, want0), "%s: planted error 1 measures %.17g, want %.17g", desc(&p), e,
	         want0);
	tu_gemm_prob_free(&p);
}

/* gkc_gemm_check a block of rows at a time (n = 1000: blocks of 65 rows),
 * against the two steps on random data and a real product. */
static void blocks(tu_rng *r)
{
	for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1) {
		prob p;
		prob_make(&p, dt, GK_COL_MAJOR, GK_TRANS, GK_TRANS, 150, 1000, 3, 0.5, 0.0, r);
		const int64_t ar = p.k, br = p.n;
		for (int64_t j = 0; j < p.m; j++)
			for (int64_t i = 0; i < ar; i++)
				set(dt, p.a, at(p.layout, i, j, p.lda), tu_uniform(r));
		for (int64_t j = 0; j < p.k; j++)
			for (int64_t i = 0; i < br; i++)
				set(dt, p.b, at(p.layout, i, j, p.ldb), tu_uniform(r));
		gk_status st = dt == GK_DTYPE_F32
			? gk_sgemm(p.layout, p.ta, p.tb, p.m, p.n, p.k, 0.5f, p.a, p.lda, p.b, p.ldb, 0.0f, p.c, p.ldc)
			: gk_dgemm(p.layout, p.ta, p.tb, p.m, p.n, p.k, 0.5, p.a, p.lda, p.b, p.ldb, 0.0, p.c, p.ldc);
		TU_CHECK(st == GK_OK, "%s: gemm failed", desc(&p));
		const double two = error_of(&p, NULL, NULL, 0), one = check_of(&p, NULL, 0);
		TU_CHECK(two == one, "%s: blocks give %.17g, two steps %.17g", desc(&p), one, two);
		TU_CHECK(two > 0 && two <= gkc_gemm_bound(dt, p.k, 2.0),
		         "%s: a real product measures %.3g, bound %.3g", desc(&p), two,
		         gkc_gemm_bound(dt, p.k, 2.0));
		tu_gemm_prob_free(&p);
	}
}

static void bound_and_sample(void)
{
	TU_CHECK(gkc_gemm_bound(GK_DTYPE_F32, 10, 1.0) == 12 * 0x1p-24, "float bound");
	TU_CHECK(gkc_gemm_bound(GK_DTYPE_F64, 98, 2.0) == 200 * 0x1p-53, "double bound");
	TU_CHECK(gkc_gemm_bound(GK_DTYPE_F64, 0, 1.0) == 2 * 0x1p-53, "k = 0 bound");

	int64_t rows[GKC_SAMPLE_ROWS], again[GKC_SAMPLE_ROWS];
	TU_CHECK(gkc_sample_rows(1024, 1024, 2048, 1, rows) == 0, "2^31 multiply-adds: all rows");
	TU_CHECK(gkc_sample_rows(64, 1 << 20, 1 << 20, 1, rows) == 0, "m = 64: all rows");
	const int64_t m = 65;
	int64_t got = gkc_sample_rows(m, 1 << 20, 1 << 20, 7, rows);
	TU_CHECK(got == GKC_SAMPLE_ROWS, "m = 65, large: %lld rows", (long long)got);
	int ok = 1;
	for (int r = 0; r < GKC_SAMPLE_ROWS; r++)
		ok &= rows[r] >= 0 && rows[r] < m && (r == 0 || rows[r] > rows[r - 1]);
	TU_CHECK(ok, "m = 65: rows sorted, distinct, in range");
	got = gkc_sample_rows(100000, 4096, 4096, 42, rows);
	TU_CHECK(got == GKC_SAMPLE_ROWS, "m = 1e5: %lld rows", (long long)got);
	gkc_sample_rows(100000, 4096, 4096, 42, again);
	TU_CHECK(memcmp(rows, again, sizeof rows) == 0, "the same seed gives the same rows");
	ok = 1;
	for (int r = 0; r < GKC_SAMPLE_ROWS; r++)
		ok &= rows[r] >= 0 && rows[r] < 100000 && (r == 0 || rows[r] > rows[r - 1]);
	TU_CHECK(ok, "m = 1e5: rows sorted, distinct, in range");
	gkc_sample_rows(100000, 4096, 4096, 43, again);
	TU_CHECK(memcmp(rows, again, sizeof rows) != 0, "another seed gives other rows");
}

int main(void)
{
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	for (unsigned dt = GK_DTYPE_F32; dt <= GK_DTYPE_F64; dt <<= 1)
		for (int lo = 0; lo < 2; lo++)
			for (int t = 0; t < 4; t++)
				one_case(dt, lo ? GK_COL_MAJOR : GK_ROW_MAJOR, t & 1 ? GK_TRANS : GK_NO_TRANS,
				         t & 2 ? GK_TRANS : GK_NO_TRANS, &r);
	blocks(&r);
	bound_and_sample();
	return tu_finish("test_gemm_check");
}
