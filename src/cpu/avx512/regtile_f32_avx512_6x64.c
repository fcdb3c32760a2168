/*
 * regtile_f32_avx512_6x64.c - the register-tile kernel of seed section 1.9:
 * 6 x 64 floats with AVX-512.
 *
 *   void gk_regtile_f32_avx512_6x64(int64_t k, const float *a, int64_t lda,
 *                                   const float *b, int64_t ldb, float *c, int64_t ldc);
 *
 * C(6 x 64) += A(6 x k) * B(k x 64), the contract of gk_regtile_f32_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], k >= 0.
 * Unaligned loads; 64-byte aligned rows of B and C load fastest. Needs
 * AVX-512F.
 *
 * Register budget (32 zmm): the 3 x 32 shape of section 1.8 widened to zmm
 * would leave half the register file idle, so the tile doubles in both
 * directions: 6 rows x 4 vectors = 24 accumulators, the row of B 4 vectors,
 * one broadcast of A at a time: 29 of 32. Per step of k: 10 loads for 24
 * FMAs (3 x 32 had 7 for 12).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum { MR = 6, NV = 4, V = 16 }; /* rows, vectors per row, floats per vector */

void gk_regtile_f32_avx512_6x64(int64_t k, const float *restrict a, int64_t lda,
                                const float *restrict b, int64_t ldb, float *restrict c,
                                int64_t ldc)
{
	__m512 acc[MR][NV];
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++)
#pragma GCC unroll 4
		for (int v = 0; v < NV; v++)
			acc[i][v] = _mm512_setzero_ps();

	for (int64_t l = 0; l < k; l++) {
		const float *bl = b + l * ldb;
		const __m512 y0 = _mm512_loadu_ps(bl), y1 = _mm512_loadu_ps(bl + V);
		const __m512 y2 = _mm512_loadu_ps(bl + 2 * V), y3 = _mm512_loadu_ps(bl + 3 * V);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			const __m512 x = _mm512_set1_ps(a[i * lda + l]);
			acc[i][0] = _mm512_fmadd_ps(x, y0, acc[i][0]);
			acc[i][1] = _mm512_fmadd_ps(x, y1, acc[i][1]);
			acc[i][2] = _mm512_fmadd_ps(x, y2, acc[i][2]);
			acc[i][3] = _mm512_fmadd_ps(x, y3, acc[i][3]);
		}
	}

#pragma GCC unroll 6
	for (int i = 0; i < MR; i++) {
		float *ci = c + i * ldc;
#pragma GCC unroll 4
		for (int v = 0; v < NV; v++)
			_mm512_storeu_ps(ci + v * V, _mm512_add_ps(_mm512_loadu_ps(ci + v * V), acc[i][v]));
	}
}
