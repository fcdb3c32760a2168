/* gemm_check.c - see gemm_check.h. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "gemm_check.h"

/* One call's arguments, as the functions below share them. */
typedef struct {
	unsigned dtype;
	gk_layout layout;
	gk_trans ta, tb;
	int64_t m, n, k;
	long double alpha, beta;
	const void *a, *b, *c0;
	int64_t lda, ldb, ldc;
} gkc_problem;

/* The sums an error is made of, gathered over rows. */
typedef struct {
	long double diff, na, nc;
	int c_bad;   /* C not finite where its reference is */
	int ref_bad; /* a reference element not finite */
} gkc_sums;

static size_t esize(unsigned dtype)
{
	return dtype == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
}

static long double get(unsigned dtype, const void *x, ptrdiff_t idx)
{
	return dtype == GK_DTYPE_F32 ? (long double)((const float *)x)[idx]
	                             : (long double)((const double *)x)[idx];
}

/* Index of element (i, j) of C (or C0). */
static ptrdiff_t c_at(const gkc_problem *p, int64_t i, int64_t j)
{
	return p->layout == GK_ROW_MAJOR ? (ptrdiff_t)(i * p->ldc + j) : (ptrdiff_t)(i + j * p->ldc);
}

/*
 * Every row of op(A) and column of op(B) is a strided vector: element l of
 * row i of op(A) is a[base + l * stride], and likewise for column j of op(B).
 */
static void a_row(const gkc_problem *p, int64_t i, ptrdiff_t *base, ptrdiff_t *stride)
{
	if ((p->layout == GK_ROW_MAJOR) == (p->ta == GK_NO_TRANS)) {
		*base = (ptrdiff_t)(i * p->lda);
		*stride = 1;
	} else {
		*base = (ptrdiff_t)i;
		*stride = (ptrdiff_t)p->lda;
	}
}

static void b_col(const gkc_problem *p, int64_t j, ptrdiff_t *base, ptrdiff_t *stride)
{
	if ((p->layout == GK_ROW_MAJOR) == (p->tb == GK_NO_TRANS)) {
		*base = (ptrdiff_t)j;
		*stride = (ptrdiff_t)p->ldb;
	} else {
		*base = (ptrdiff_t)(j * p->ldb);
		*stride = 1;
	}
}

/*
 * sum_l x[l * sx] * y[l * sy] in long double: each product of two floats is
 * exact there, of two doubles nearly so; four partial sums hide the latency
 * of the x87 adder. The same operations in the same order whatever the
 * strides, so a copied vector gives the same sum as the original.
 */
static long double dot_f32(const float *x, ptrdiff_t sx, const float *y, ptrdiff_t sy, int64_t k)
{
	long double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int64_t l = 0;
	for (; l + 4 <= k; l += 4) {
		s0 += (long double)x[l * sx] * y[l * sy];
		s1 += (long double)x[(l + 1) * sx] * y[(l + 1) * sy];
		s2 += (long double)x[(l + 2) * sx] * y[(l + 2) * sy];
		s3 += (long double)x[(l + 3) * sx] * y[(l + 3) * sy];
	}
	for (; l < k; l++)
		s0 += (long double)x[l * sx] * y[l * sy];
	return (s0 + s1) + (s2 + s3);
}

static long double dot_f64(const double *x, ptrdiff_t sx, const double *y, ptrdiff_t sy, int64_t k)
{
	long double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int64_t l = 0;
	for (; l + 4 <= k; l += 4) {
		s0 += (long double)x[l * sx] * y[l * sy];
		s1 += (long double)x[(l + 1) * sx] * y[(l + 1) * sy];
		s2 += (long double)x[(l + 2) * sx] * y[(l + 2) * sy];
		s3 += (long double)x[(l + 3) * sx] * y[(l + 3) * sy];
	}
	for (; l < k; l++)
		s0 += (long double)x[l * sx] * y[l * sy];
	return (s0 + s1) + (s2 + s3);
}

/*
 * op(B) copied so that column j is bt[j * k .. j * k + k), in B's dtype; NULL
 * when op(B)'s columns are already contiguous or there is no memory (the
 * reference then reads B in place). Read in B's storage order.
 */
static void *copy_b_columns(const gkc_problem *p)
{
	ptrdiff_t base, stride;
	b_col(p, 0, &base, &stride);
	if (stride == 1 || p->n == 0 || p->k == 0)
		return NULL;
	const size_t es = esize(p->dtype);
	size_t count, bytes;
	if (__builtin_mul_overflow((size_t)p->n, (size_t)p->k, &count) ||
	    __builtin_mul_overflow(count, es, &bytes))
		return NULL;
	char *bt = malloc(bytes);
	if (bt == NULL)
		return NULL;
	/* op(B)(l, j) is b[l * ldb + j]: rows of B in order. */
	for (int64_t l = 0; l < p->k; l++) {
		const char *src = (const char *)p->b + (size_t)(l * p->ldb) * es;
		if (p->dtype == GK_DTYPE_F32)
			for (int64_t j = 0; j < p->n; j++)
				((float *)bt)[j * p->k + l] = ((const float *)src)[j];
		else
			for (int64_t j = 0; j < p->n; j++)
				((double *)bt)[j * p->k + l] = ((const double *)src)[j];
	}
	return bt;
}

/*
 * The reference for rows[r0..r1) (r itself without a list) into
 * ref[(r - r0) * n + j]. bt: copy_b_columns' copy, or NULL; arow: room for
 * k elements, or NULL (then A is read in place).
 */
static void ref_rows(const gkc_problem *p, const void *bt, void *arow,
                     const int64_t *rows, int64_t r0, int64_t r1, long double *ref)
{
	const int f32 = p->dtype == GK_DTYPE_F32;
	const size_t es = esize(p->dtype);
	for (int64_t r = r0; r < r1; r++) {
		const int64_t i = rows ? rows[r] : r;
		ptrdiff_t abase, as;
		a_row(p, i, &abase, &as);
		const char *x = (const char *)p->a + (size_t)abase * es;
		if (arow != NULL && as != 1 && p->k > 0) {
			for (int64_t l = 0; l < p->k; l++) {
				if (f32)
					((float *)arow)[l] = ((const float *)x)[l * as];
				else
					((double *)arow)[l] = ((const double *)x)[l * as];
			}
			x = arow;
			as = 1;
		}
		for (int64_t j = 0; j < p->n; j++) {
			const char *y;
			ptrdiff_t bs;
			if (bt != NULL) {
				y = (const char *)bt + (size_t)(j * p->k) * es;
				bs = 1;
			} else {
				ptrdiff_t bbase;
				b_col(p, j, &bbase, &bs);
				y = (const char *)p->b + (size_t)bbase * es;
			}
			long double s = f32 ? dot_f32((const float *)x, as, (const float *)y, bs, p->k)
			                    : dot_f64((const double *)x, as, (const double *)y, bs, p->k);
			s *= p->alpha;
			if (p->beta != 0)
				s += p->beta * get(p->dtype, p->c0, c_at(p, i, j));
			ref[(r - r0) * p->n + j] = s;
		}
	}
}

/* Add rows[r0..r1) to the sums: C against ref (indexed from r0), and the
 * squares of op(A)'s and C0's rows. */
static void add_rows(const gkc_problem *p, const void *c, const int64_t *rows, int64_t r0,
                     int64_t r1, const long double *ref, gkc_sums *s)
{
	for (int64_t r = r0; r < r1; r++) {
		const int64_t i = rows ? rows[r] : r;
		for (int64_t j = 0; j < p->n; j++) {
			const long double v = get(p->dtype, c, c_at(p, i, j));
			const long double want = ref[(r - r0) * p->n + j];
			if (!isfinite(want)) {
				s->ref_bad = 1;
			} else if (!isfinite(v)) {
				s->c_bad = 1;
			} else {
				const long double d = v - want;
				s->diff += d * d;
			}
			if (p->beta != 0) {
				const long double w = get(p->dtype, p->c0, c_at(p, i, j));
				s->nc += w * w;
			}
		}
		ptrdiff_t base, stride;
		a_row(p, i, &base, &stride);
		for (int64_t l = 0; l < p->k; l++) {
			const long double v = get(p->dtype, p->a, base + (ptrdiff_t)l * stride);
			s->na += v * v;
		}
	}
}

/* ||op(B)||_F^2, summed in B's storage order (the norm of B is that of B^T). */
static long double b_norm2(const gkc_problem *p)
{
	const int64_t srows = p->tb == GK_NO_TRANS ? p->k : p->n;
	const int64_t scols = p->tb == GK_NO_TRANS ? p->n : p->k;
	const int64_t outer = p->layout == GK_ROW_MAJOR ? srows : scols;
	const int64_t inner = p->layout == GK_ROW_MAJOR ? scols : srows;
	long double s = 0;
	for (int64_t o = 0; o < outer; o++)
		for (int64_t q = 0; q < inner; q++) {
			const long double v = get(p->dtype, p->b, (ptrdiff_t)(o * p->ldb + q));
			s += v * v;
		}
	return s;
}

static double finish(const gkc_problem *p, const gkc_sums *s)
{
	if (s->c_bad)
		return INFINITY;
	if (s->ref_bad)
		return NAN;
	const long double denom = fabsl(p->alpha) * sqrtl(s->na) * sqrtl(b_norm2(p)) +
	                          fabsl(p->beta) * sqrtl(s->nc);
	if (denom == 0)
		return s->diff == 0 ? 0.0 : INFINITY;
	return (double)(sqrtl(s->diff) / denom);
}

static gkc_problem problem_of(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                              int64_t m, int64_t n, int64_t k, double alpha,
                              const void *a, int64_t lda, const void *b, int64_t ldb,
                              double beta, const void *c0, int64_t ldc)
{
	gkc_problem p = {dtype, layout, ta, tb, m, n, k, alpha, beta, a, b, c0, lda, ldb, ldc};
	return p;
}

void gkc_ref_gemm(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                  int64_t m, int64_t n, int64_t k, double alpha,
                  const void *a, int64_t lda, const void *b, int64_t ldb,
                  double beta, const void *c0, int64_t ldc,
                  const int64_t *rows, int64_t nrows, long double *ref)
{
	const gkc_problem p = problem_of(dtype, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb,
	                                 beta, c0, ldc);
	if (rows == NULL)
		nrows = m;
	if (nrows <= 0 || n <= 0)
		return;
	void *bt = copy_b_columns(&p);
	void *arow = malloc(esize(dtype) * (size_t)(k > 0 ? k : 1));
	ref_rows(&p, bt, arow, rows, 0, nrows, ref);
	free(arow);
	free(bt);
}

double gkc_gemm_error(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                      int64_t m, int64_t n, int64_t k, double alpha,
                      const void *a, int64_t lda, const void *b, int64_t ldb,
                      double beta, const void *c0, const void *c, int64_t ldc,
                      const int64_t *rows, int64_t nrows, const long double *ref)
{
	const gkc_problem p = problem_of(dtype, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb,
	                                 beta, c0, ldc);
	if (rows == NULL)
		nrows = m;
	gkc_sums s;
	memset(&s, 0, sizeof s);
	add_rows(&p, c, rows, 0, nrows, ref, &s);
	return finish(&p, &s);
}

int gkc_gemm_check(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                   int64_t m, int64_t n, int64_t k, double alpha,
                   const void *a, int64_t lda, const void *b, int64_t ldb,
                   double beta, const void *c0, const void *c, int64_t ldc,
                   const int64_t *rows, int64_t nrows, double *err)
{
	const gkc_problem p = problem_of(dtype, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb,
	                                 beta, c0, ldc);
	if (rows == NULL)
		nrows = m;
	/* A block of rows of the reference: about 1 MiB, at least one row. */
	int64_t block = n > 0 ? ((int64_t)1 << 16) / n : nrows;
	if (block < 1)
		block = 1;
	if (block > nrows)
		block = nrows > 0 ? nrows : 1;
	long double *ref = NULL;
	while (ref == NULL) {
		size_t count;
		if (!__builtin_mul_overflow((size_t)block, (size_t)(n > 0 ? n : 1), &count) &&
		    count <= SIZE_MAX / sizeof *ref)
			ref = malloc(count * sizeof *ref);
		if (ref == NULL && block == 1) {
			*err = NAN;
			return -1;
		}
		if (ref == NULL)
			block /= 2;
	}
	void *bt = copy_b_columns(&p);
	void *arow = malloc(esize(dtype) * (size_t)(k > 0 ? k : 1));
	gkc_sums s;
	memset(&s, 0, sizeof s);
	for (int64_t r0 = 0; r0 < nrows; r0 += block) {
		const int64_t r1 = r0 + block < nrows ? r0 + block : nrows;
		ref_rows(&p, bt, arow, rows, r0, r1, ref);
		add_rows(&p, c, rows, r0, r1, ref, &s);
	}
	free(arow);
	free(bt);
	free(ref);
	*err = finish(&p, &s);
	return 0;
}

double gkc_gemm_bound(unsigned dtype, int64_t k, double factor)
{
	const double u = dtype == GK_DTYPE_F32 ? 0x1p-24 : 0x1p-53;
	return factor * (double)(k + 2) * u;
}

double gkc_gemm_bound_mode(unsigned dtype, int64_t k, gk_precision mode, double factor)
{
	if (dtype != GK_DTYPE_F32 || mode == GK_PRECISION_STRICT || mode == GK_PRECISION_DEFAULT)
		return gkc_gemm_bound(dtype, k, factor);
	if (mode == GK_PRECISION_ACCURATE)
		return factor * (double)(k + 14) * 0x1p-24;
	return factor * ((double)(k + 2) * 0x1p-24 + 2 * 0x1p-11);
}

static int cmp_i64(const void *x, const void *y)
{
	const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

int64_t gkc_sample_rows(int64_t m, int64_t n, int64_t k, uint64_t seed,
                        int64_t rows[GKC_SAMPLE_ROWS])
{
	if ((double)m * (double)n * (double)k <= GKC_FULL_CHECK_MAX || m <= GKC_SAMPLE_ROWS)
		return 0;
	/* splitmix64, its own stream: the rows do not depend on how much of
	 * another stream the data took. */
	uint64_t state = seed ^ 0x636865636b726f77ull ^ 0x9e3779b97f4a7c15ull;
	for (int r = 0; r < GKC_SAMPLE_ROWS; r++) {
		int dup;
		do {
			uint64_t z = (state += 0x9e3779b97f4a7c15ull);
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			z ^= z >> 31;
			/* uniform in [0, 1) */
			const double u = ((double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0 + 1) / 2;
			rows[r] = (int64_t)(u * (double)m);
			if (rows[r] >= m)
				rows[r] = m - 1;
			dup = 0;
			for (int q = 0; q < r; q++)
				dup |= rows[q] == rows[r];
		} while (dup);
	}
	qsort(rows, GKC_SAMPLE_ROWS, sizeof *rows, cmp_i64);
	return GKC_SAMPLE_ROWS;
}
