/*
 * gemm_check.h - the one measure of a GEMM result's accuracy, shared by the
 * gemmkit command line and the tests: a reference product in long double,
 * the normwise relative error of a computed C against it, and the bound that
 * error is held to.
 *
 * Uses the public header only. dtype is GK_DTYPE_F32 or GK_DTYPE_F64 and
 * tells how a, b, c0 and c are stored; layout, ta, tb, the sizes and the
 * leading dimensions mean what they mean to gk_sgemm / gk_dgemm. Pass the
 * alpha and beta the library was given (for float, the values rounded to
 * float). With beta = 0, C0 is never read (it may be NULL).
 *
 * Rows: every function takes the rows of C to look at as rows[0..nrows),
 * indices in [0, m) in any order; rows = NULL means all m rows (nrows is then
 * ignored). A reference for those rows is stored row after row: the element
 * (rows[r], j) is ref[r * n + j].
 */
#ifndef GK_GEMM_CHECK_H
#define GK_GEMM_CHECK_H

#include <stdint.h>
#include "gemmkit.h"

/*
 * C_ref = alpha * op(A) * op(B) + beta * C0 in long double for the listed
 * rows, written to ref[r * n + j]. Each element is a dot product of length k
 * with products formed in long double and four partial sums; op(B) is first
 * copied transposed (as much memory as B) so that every dot product reads
 * contiguous memory. Without that memory it reads B in place, more slowly,
 * with the same result.
 */
void gkc_ref_gemm(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                  int64_t m, int64_t n, int64_t k, double alpha,
                  const void *a, int64_t lda, const void *b, int64_t ldb,
                  double beta, const void *c0, int64_t ldc,
                  const int64_t *rows, int64_t nrows, long double *ref);

/*
 * The normwise relative error of C over the listed rows against ref (as
 * gkc_ref_gemm writes it):
 *
 *   ||C - C_ref||_F / (|alpha| ||op(A)||_F ||op(B)||_F + |beta| ||C0||_F)
 *
 * with the norms of op(A), C and C0 taken over the same rows and that of
 * op(B) over all of it. Returns +inf when an element of C is NaN or Inf while
 * its reference is finite (an element the product failed to write, or an
 * overflow); otherwise NaN when a reference element is not finite (Inf or
 * NaN among the inputs: no error can be measured); 0 when the denominator is
 * 0 and C equals the reference, +inf when it is 0 and C does not.
 */
double gkc_gemm_error(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                      int64_t m, int64_t n, int64_t k, double alpha,
                      const void *a, int64_t lda, const void *b, int64_t ldb,
                      double beta, const void *c0, const void *c, int64_t ldc,
                      const int64_t *rows, int64_t nrows, const long double *ref);

/*
 * Both steps at once, without storing the whole reference: the reference is
 * formed a block of rows at a time and compared as it goes. *err receives
 * exactly what gkc_gemm_error would return after gkc_ref_gemm. Returns 0, or
 * -1 when the memory for one row of the reference cannot be had (then *err
 * is NaN).
 */
int gkc_gemm_check(unsigned dtype, gk_layout layout, gk_trans ta, gk_trans tb,
                   int64_t m, int64_t n, int64_t k, double alpha,
                   const void *a, int64_t lda, const void *b, int64_t ldb,
                   double beta, const void *c0, const void *c, int64_t ldc,
                   const int64_t *rows, int64_t nrows, double *err);

/*
 * The bound for classical GEMM: factor * (k + 2) * u, with the unit roundoff
 * u = 2^-24 for float and 2^-53 for double. (Twice that is the bound with
 * machine epsilon, 2^-23 or 2^-52, in place of u.)
 */
double gkc_gemm_bound(unsigned dtype, int64_t k, double factor);

/*
 * The bound of a float product computed in a precision mode (gemmkit.h,
 * docs/PRECISION.md), for double the classical one:
 *   strict:   factor * (k + 2) * u
 *   accurate: factor * (k + 2 + 12) * u   (split TF32: 3 u_t^2 = 12 u)
 *   tf32:     factor * ((k + 2) * u + 2 * u_t)
 * with u = 2^-24 and u_t = 2^-11, the unit roundoff of TF32.
 */
double gkc_gemm_bound_mode(unsigned dtype, int64_t k, gk_precision mode, double factor);

/*
 * Rows to check for a large product. A long double reference costs as many
 * x87 multiply-adds as the product has (m * n * k): a few seconds at 2^31.
 * Past that (GKC_FULL_CHECK_MAX) GKC_SAMPLE_ROWS = 64 random rows of C are
 * checked instead, each in full (every column, the whole depth), for 64 / m
 * of the cost: a wrong result confined to a block of rows is caught when a
 * sampled row falls in it, which for 64 rows drawn from m is likely unless
 * the block is small against m / 64.
 *
 * gkc_sample_rows returns 0 when every row should be checked (m * n * k <=
 * GKC_FULL_CHECK_MAX, or m <= GKC_SAMPLE_ROWS): pass rows = NULL then. Else it
 * writes GKC_SAMPLE_ROWS distinct rows in [0, m), sorted, drawn from a
 * splitmix64 stream seeded by seed (the same seed gives the same rows), and
 * returns GKC_SAMPLE_ROWS.
 */
#define GKC_SAMPLE_ROWS 64
#define GKC_FULL_CHECK_MAX 2147483648.0
int64_t gkc_sample_rows(int64_t m, int64_t n, int64_t k, uint64_t seed,
                        int64_t rows[GKC_SAMPLE_ROWS]);

#endif
