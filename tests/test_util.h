/*
 * test_util.h - what every test program shares: a seeded random source, the
 * higher-precision reference GEMM, the normwise error and its bound, and
 * check counting that ends in one "N passed, N failed" line.
 */
#ifndef GK_TEST_UTIL_H
#define GK_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "gemmkit.h"

/* Counting checks: every failure is printed with its file and line. */
extern long tu_passed, tu_failed;
#define TU_CHECK(cond, ...) tu_check_((cond), __FILE__, __LINE__, __VA_ARGS__)
void tu_check_(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Print "<name>: N passed, N failed" and return the exit status. */
int tu_finish(const char *name);

/* The seed: GK_TEST_SEED from the environment, else a fresh one; printed
 * once, so a failure can be re-run with the same inputs. */
uint64_t tu_seed(void);
typedef struct { uint64_t s; } tu_rng;
void tu_rng_init(tu_rng *r, uint64_t seed);
uint64_t tu_next(tu_rng *r);
double tu_uniform(tu_rng *r); /* in [-1, 1] */
void tu_fill_f32(float *x, size_t n, tu_rng *r);
void tu_fill_f64(double *x, size_t n, tu_rng *r);
/* Poison: a NaN pattern that no correct result can equal. */
void tu_poison_f32(float *x, size_t n);
void tu_poison_f64(double *x, size_t n);

/* Elements a matrix of rows x cols with leading dimension ld occupies. */
size_t tu_extent(gk_layout layout, int64_t rows, int64_t cols, int64_t ld);

/*
 * The reference: C_ref(i, j) = alpha * sum_l op(A)(i,l) op(B)(l,j) + beta * C0(i, j)
 * in long double, for the rows listed in rows[0..nrows) (rows = NULL: all m),
 * written row-major into ref[r * n + j]. beta = 0 ignores C0. dtype is
 * GK_DTYPE_F32 or GK_DTYPE_F64 and tells how a, b and c0 are stored.
 */
void tu_ref_gemm(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                 int64_t m, int64_t n, int64_t k, double alpha,
                 const void *a, int64_t lda, const void *b, int64_t ldb,
                 double beta, const void *c0, int64_t ldc,
                 const int64_t *rows, int64_t nrows, long double *ref);

/*
 * The normwise relative error of C against ref over the listed rows:
 * ||C - C_ref||_F / (|alpha| ||op(A)||_F ||op(B)||_F + |beta| ||C0||_F), the
 * norms taken over the same rows of A and C (all of B). Returns +inf when an
 * element of C is NaN or Inf while the reference is finite.
 */
double tu_gemm_error(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                     int64_t m, int64_t n, int64_t k, double alpha,
                     const void *a, int64_t lda, const void *b, int64_t ldb,
                     double beta, const void *c0, const void *c, int64_t ldc,
                     const int64_t *rows, int64_t nrows, const long double *ref);

/* The bound for classical GEMM: factor * (k + 2) * unit roundoff. */
double tu_gemm_bound(unsigned dtype, int64_t k, double factor);

/* Elements outside the m x n matrix but inside the ld padding must be left
 * exactly as they were: compare c against before over the whole extent. */
int tu_padding_intact(unsigned dtype, gk_layout layout, int64_t m, int64_t n,
                      const void *c, const void *before, int64_t ldc);

#endif
