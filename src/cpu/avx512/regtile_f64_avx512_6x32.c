/*
 * regtile_f64_avx512_6x32.c - the register-tile kernel of seed section 1.9:
 * 6 x 32 doubles with AVX-512.
 *
 *   void gk_regtile_f64_avx512_6x32(int64_t k, const double *a, int64_t lda,
 *                                   const double *b, int64_t ldb, double *c, int64_t ldc);
 *
 * C(6 x 32) += A(6 x k) * B(k x 32), the contract of gk_regtile_f64_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], k >= 0.
 * Unaligned loads; 64-byte aligned rows of B and C load fastest. Needs
 * AVX-512F.
 *
 * Register budget (32 zmm): the 3 x 16 shape of section 1.8 widened to zmm
 * would leave half the register file idle, so the tile doubles in both
 * directions: 6 rows x 4 vectors = 24 accumulators, the row of B 4 vectors,
 * one broadcast of A at a time: 29 of 32. Per step of k: 10 loads for 24
 * FMAs (3 x 16 had 7 for 12).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum { MR = 6, NV = 4, V = 8 }; /* rows, vectors per row, doubles per vector */

void gk_regtile_f64_avx512_6x32(int64_t k, const double *restrict a, int64_t lda,
                                const double *restrict b, int64_t ldb, double *restrict c,
                                int64_t ldc)
{
	__m512d acc[MR][NV];
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++)
#pragma GCC unroll 4
		for (int v = 0; v < NV; v++)
			acc[i][v] = _mm512_setzero_pd();

	for (int64_t l = 0; l < k; l++) {
		const double *bl = b + l * ldb;
		const __m512d y0 = _mm512_loadu_pd(bl), y1 = _mm512_loadu_pd(bl + V);
		const __m512d y2 = _mm512_loadu_pd(bl + 2 * V), y3 = _mm512_loadu_pd(bl + 3 * V);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			const __m512d x = _mm512_set1_pd(a[i * lda + l]);
			acc[i][0] = _mm512_fmadd_pd(x, y0, acc[i][0]);
			acc[i][1] = _mm512_fmadd_pd(x, y1, acc[i][1]);
			acc[i][2] = _mm512_fmadd_pd(x, y2, acc[i][2]);
			acc[i][3] = _mm512_fmadd_pd(x, y3, acc[i][3]);
		}
	}

#pragma GCC unroll 6
	for (int i = 0; i < MR; i++) {
		double *ci = c + i * ldc;
#pragma GCC unroll 4
		for (int v = 0; v < NV; v++)
			_mm512_storeu_pd(ci + v * V, _mm512_add_pd(_mm512_loadu_pd(ci + v * V), acc[i][v]));
	}
}
