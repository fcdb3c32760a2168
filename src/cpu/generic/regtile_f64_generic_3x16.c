/*
 * regtile_f64_generic_3x16.c - the portable 3 x 16 register-tile kernel
 * of the seed ladder (double).
 *
 *   void gk_regtile_f64_generic_3x16(int64_t k, const double *a, int64_t lda,
 *                                    const double *b, int64_t ldb, double *c, int64_t ldc);
 *
 * C(3 x 16) += A(3 x k) * B(k x 16), the contract of gk_regtile_f64_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], k >= 0.
 * The shape of the AVX2 kernel this slot is written for (seed section 1.8),
 * in plain C, so that the algorithm built on it runs on every CPU and its
 * result can be compared with the vector kernel's. Without AVX2 the
 * accumulators do not fit in registers: this runs at the speed of the
 * baseline ISA.
 */
#include "kernel_api.h"
#include "kernels_generic.h"

enum { MR = 3, NR = 16 };

void gk_regtile_f64_generic_3x16(int64_t k, const double *restrict a, int64_t lda,
                                 const double *restrict b, int64_t ldb, double *restrict c,
                                 int64_t ldc)
{
	double acc[MR][NR] = {{0}};
	for (int64_t l = 0; l < k; l++) {
		const double *bl = b + l * ldb;
		for (int i = 0; i < MR; i++) {
			const double ail = a[i * lda + l];
			for (int j = 0; j < NR; j++)
				acc[i][j] += ail * bl[j];
		}
	}
	for (int i = 0; i < MR; i++)
		for (int j = 0; j < NR; j++)
			c[i * ldc + j] += acc[i][j];
}
