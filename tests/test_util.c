/* test_util.c - see test_util.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "test_util.h"

long tu_passed, tu_failed;

void tu_check_(int ok, const char *file, int line, const char *fmt, ...)
{
	if (ok) {
		tu_passed++;
		return;
	}
	tu_failed++;
	if (tu_failed > 50)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (tu_failed == 50)
		fprintf(stderr, "(further failures not printed)\n");
}

int tu_finish(const char *name)
{
	printf("%s: %ld passed, %ld failed\n", name, tu_passed, tu_failed);
	return tu_failed == 0 ? 0 : 1;
}

uint64_t tu_seed(void)
{
	static uint64_t seed;
	static int done;
	if (!done) {
		const char *s = getenv("GK_TEST_SEED");
		if (s != NULL && *s != '\0') {
			seed = strtoull(s, NULL, 0);
		} else {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
		}
		printf("seed: GK_TEST_SEED=%llu\n", (unsigned long long)seed);
		fflush(stdout);
		done = 1;
	}
	return seed;
}

void tu_rng_init(tu_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ull;
}

uint64_t tu_next(tu_rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double tu_uniform(tu_rng *r)
{
	return (double)(tu_next(r) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

void tu_fill_f32(float *x, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)tu_uniform(r);
}

void tu_fill_f64(double *x, size_t n, tu_rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = tu_uniform(r);
}

void tu_poison_f32(float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = nanf("");
}

void tu_poison_f64(double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = nan("");
}

size_t tu_extent(gk_layout layout, int64_t rows, int64_t cols, int64_t ld)
{
	if (rows == 0 || cols == 0)
		return 0;
	if (layout == GK_ROW_MAJOR)
		return (size_t)((rows - 1) * ld + cols);
	return (size_t)((cols - 1) * ld + rows);
}

static long double elem(unsigned dtype, const void *x, size_t idx)
{
	return dtype == GK_DTYPE_F32 ? (long double)((const float *)x)[idx]
	                             : (long double)((const double *)x)[idx];
}

/* Index of element (i, j) of a matrix in the given layout. */
static size_t at(gk_layout layout, int64_t i, int64_t j, int64_t ld)
{
	return layout == GK_ROW_MAJOR ? (size_t)(i * ld + j) : (size_t)(i + j * ld);
}

/* Element (i, l) of op(X), X stored in layout with leading dimension ld. */
static size_t op_at(gk_layout layout, gk_trans t, int64_t i, int64_t l, int64_t ld)
{
	return t == GK_NO_TRANS ? at(layout, i, l, ld) : at(layout, l, i, ld);
}

void tu_ref_gemm(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                 int64_t m, int64_t n, int64_t k, double alpha,
                 const void *a, int64_t lda, const void *b, int64_t ldb,
                 double beta, const void *c0, int64_t ldc,
                 const int64_t *rows, int64_t nrows, long double *ref)
{
	if (rows == NULL)
		nrows = m;
	long double *arow = malloc(sizeof(long double) * (size_t)(k > 0 ? k : 1));
	for (int64_t r = 0; r < nrows; r++) {
		const int64_t i = rows ? rows[r] : r;
		for (int64_t l = 0; l < k; l++)
			arow[l] = elem(dtype, a, op_at(layout, ta, i, l, lda));
		for (int64_t j = 0; j < n; j++) {
			long double s = 0;
			for (int64_t l = 0; l < k; l++)
				s += arow[l] * elem(dtype, b, op_at(layout, tb, l, j, ldb));
			s *= alpha;
			if (beta != 0)
				s += (long double)beta * elem(dtype, c0, at(layout, i, j, ldc));
			ref[r * n + j] = s;
		}
	}
	free(arow);
}

double tu_gemm_error(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                     int64_t m, int64_t n, int64_t k, double alpha,
                     const void *a, int64_t lda, const void *b, int64_t ldb,
                     double beta, const void *c0, const void *c, int64_t ldc,
                     const int64_t *rows, int64_t nrows, const long double *ref)
{
	if (rows == NULL)
		nrows = m;
	long double diff = 0, na = 0, nb = 0, nc = 0;
	for (int64_t r = 0; r < nrows; r++) {
		const int64_t i = rows ? rows[r] : r;
		for (int64_t j = 0; j < n; j++) {
			long double v = elem(dtype, c, at(layout, i, j, ldc));
			if (!isfinite((double)v) && isfinite((double)ref[r * n + j]))
				return INFINITY;
			long double d = v - ref[r * n + j];
			diff += d * d;
			if (beta != 0) {
				long double c0v = elem(dtype, c0, at(layout, i, j, ldc));
				nc += c0v * c0v;
			}
		}
		for (int64_t l = 0; l < k; l++) {
			long double v = elem(dtype, a, op_at(layout, ta, i, l, lda));
			na += v * v;
		}
	}
	for (int64_t l = 0; l < k; l++)
		for (int64_t j = 0; j < n; j++) {
			long double v = elem(dtype, b, op_at(layout, tb, l, j, ldb));
			nb += v * v;
		}
	long double denom = fabsl((long double)alpha) * sqrtl(na) * sqrtl(nb) +
	                    fabsl((long double)beta) * sqrtl(nc);
	if (denom == 0)
		return diff == 0 ? 0.0 : INFINITY;
	return (double)(sqrtl(diff) / denom);
}

double tu_gemm_bound(unsigned dtype, int64_t k, double factor)
{
	double u = dtype == GK_DTYPE_F32 ? 0x1p-24 : 0x1p-53;
	return factor * (double)(k + 2) * u;
}

int tu_padding_intact(unsigned dtype, gk_layout layout, int64_t m, int64_t n,
                      const void *c, const void *before, int64_t ldc)
{
	const size_t es = dtype == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	/* An empty matrix occupies nothing (tu_extent is 0): no padding to check. */
	if (m == 0 || n == 0)
		return 1;
	const int64_t outer = layout == GK_ROW_MAJOR ? m : n;
	const int64_t inner = layout == GK_ROW_MAJOR ? n : m;
	for (int64_t o = 0; o + 1 < outer; o++) {
		size_t from = (size_t)(o * ldc + inner), len = (size_t)(ldc - inner);
		if (memcmp((const char *)c + from * es, (const char *)before + from * es, len * es) != 0)
			return 0;
	}
	return 1;
}
