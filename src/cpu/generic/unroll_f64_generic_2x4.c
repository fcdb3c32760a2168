/*
 * unroll_f64_generic_2x4.c - the portable 2 x 4 x n tile kernel of the seed
 * ladder (seed section 1.7), double.
 *
 *   void gk_unroll_f64_generic_2x4(int64_t n, const double *a, int64_t lda,
 *                                  const double *b, int64_t ldb, double *c, int64_t ldc);
 *
 * C(2 x n) += A(2 x 4) * B(4 x n), the contract of gk_unroll_f64_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], n >= 0.
 * The eight entries of A stay in registers while the loop runs along the rows
 * of B and C: per column, 4 loads of B and 8 multiply-adds against 2 loads
 * and 2 stores of C, where one step of k at a time would load and store C
 * four times. Plain C that compilers vectorize with the baseline ISA: the
 * kernel of CPUs without AVX2.
 */
#include "kernel_api.h"
#include "kernels_generic.h"

void gk_unroll_f64_generic_2x4(int64_t n, const double *restrict a, int64_t lda,
                               const double *restrict b, int64_t ldb, double *restrict c,
                               int64_t ldc)
{
	const double a00 = a[0], a01 = a[1], a02 = a[2], a03 = a[3];
	const double a10 = a[lda], a11 = a[lda + 1], a12 = a[lda + 2], a13 = a[lda + 3];
	const double *restrict b0 = b, *restrict b1 = b + ldb;
	const double *restrict b2 = b + 2 * ldb, *restrict b3 = b + 3 * ldb;
	double *restrict c0 = c, *restrict c1 = c + ldc;
	for (int64_t j = 0; j < n; j++) {
		const double t0 = a00 * b0[j] + a01 * b1[j] + a02 * b2[j] + a03 * b3[j];
		const double t1 = a10 * b0[j] + a11 * b1[j] + a12 * b2[j] + a13 * b3[j];
		c0[j] += t0;
		c1[j] += t1;
	}
}
