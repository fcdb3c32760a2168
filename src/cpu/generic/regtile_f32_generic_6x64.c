/*
 * regtile_f32_generic_6x64.c - the portable 6 x 64 register-tile kernel
 * of the seed ladder (float).
 *
 *   void gk_regtile_f32_generic_6x64(int64_t k, const float *a, int64_t lda,
 *                                    const float *b, int64_t ldb, float *c, int64_t ldc);
 *
 * C(6 x 64) += A(6 x k) * B(k x 64), the contract of gk_regtile_f32_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], k >= 0.
 * The shape of the AVX-512 kernel this slot is written for (seed section 1.9),
 * in plain C, so that the algorithm built on it runs on every CPU and its
 * result can be compared with the vector kernel's. Without AVX-512 the
 * accumulators do not fit in registers: this runs at the speed of the
 * baseline ISA.
 */
#include "kernel_api.h"
#include "kernels_generic.h"

enum { MR = 6, NR = 64 };

void gk_regtile_f32_generic_6x64(int64_t k, const float *restrict a, int64_t lda,
                                 const float *restrict b, int64_t ldb, float *restrict c,
                                 int64_t ldc)
{
	float acc[MR][NR] = {{0}};
	for (int64_t l = 0; l < k; l++) {
		const float *bl = b + l * ldb;
		for (int i = 0; i < MR; i++) {
			const float ail = a[i * lda + l];
			for (int j = 0; j < NR; j++)
				acc[i][j] += ail * bl[j];
		}
	}
	for (int i = 0; i < MR; i++)
		for (int j = 0; j < NR; j++)
			c[i * ldc + j] += acc[i][j];
}
