/*
 * regtile_f32_avx2_3x32.c - the register-tile kernel of seed section 1.8:
 * 3 x 32 floats with AVX2 + FMA.
 *
 *   void gk_regtile_f32_avx2_3x32(int64_t k, const float *a, int64_t lda,
 *                                 const float *b, int64_t ldb, float *c, int64_t ldc);
 *
 * C(3 x 32) += A(3 x k) * B(k x 32), the contract of gk_regtile_f32_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], k >= 0.
 * Unaligned loads; 32-byte aligned rows of B and C load fastest.
 *
 * Register budget (16 ymm): the 3 x 32 tile of C is 3 rows x 4 vectors = 12
 * accumulators, the column of A 3 broadcasts, the row of B one vector at a
 * time: 16 of 16. Per step of k: 7 loads (3 broadcasts, 4 of B) for 12
 * FMAs, where the 2 x 4 unrolling of section 1.7 needs 8 for 9. C is read
 * and written once, after the k loop.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { MR = 3, NV = 4, V = 8 }; /* rows, vectors per row, floats per vector */

void gk_regtile_f32_avx2_3x32(int64_t k, const float *restrict a, int64_t lda,
                              const float *restrict b, int64_t ldb, float *restrict c,
                              int64_t ldc)
{
	__m256 acc[MR][NV];
#pragma GCC unroll 3
	for (int i = 0; i < MR; i++)
#pragma GCC unroll 4
		for (int v = 0; v < NV; v++)
			acc[i][v] = _mm256_setzero_ps();

	const float *a0 = a, *a1 = a + lda, *a2 = a + 2 * lda;
	for (int64_t l = 0; l < k; l++) {
		const __m256 x0 = _mm256_broadcast_ss(a0 + l);
		const __m256 x1 = _mm256_broadcast_ss(a1 + l);
		const __m256 x2 = _mm256_broadcast_ss(a2 + l);
		const float *bl = b + l * ldb;
#pragma GCC unroll 4
		for (int v = 0; v < NV; v++) {
			const __m256 y = _mm256_loadu_ps(bl + v * V);
			acc[0][v] = _mm256_fmadd_ps(x0, y, acc[0][v]);
			acc[1][v] = _mm256_fmadd_ps(x1, y, acc[1][v]);
			acc[2][v] = _mm256_fmadd_ps(x2, y, acc[2][v]);
		}
	}

#pragma GCC unroll 3
	for (int i = 0; i < MR; i++) {
		float *ci = c + i * ldc;
#pragma GCC unroll 4
		for (int v = 0; v < NV; v++)
			_mm256_storeu_ps(ci + v * V, _mm256_add_ps(_mm256_loadu_ps(ci + v * V), acc[i][v]));
	}
}
