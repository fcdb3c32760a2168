/*
 * unroll_f32_avx512_2x4.c - the 2 x 4 x n tile kernel of the seed ladder
 * (seed section 1.7) with AVX-512, float.
 *
 *   void gk_unroll_f32_avx512_2x4(int64_t n, const float *a, int64_t lda,
 *                                 const float *b, int64_t ldb, float *c, int64_t ldc);
 *
 * C(2 x n) += A(2 x 4) * B(4 x n), the contract of gk_unroll_f32_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], n >= 0.
 * The eight entries of A are broadcast once into 8 zmm; each step of 16
 * columns loads 4 vectors of B and 2 of C, does 8 FMAs and stores 2: C is
 * loaded and stored once per four steps of k. Unaligned loads; the last
 * n % 16 columns under a mask, so no element past the row is touched.
 * Needs AVX-512F.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum { V = 16 }; /* floats in a zmm register */

void gk_unroll_f32_avx512_2x4(int64_t n, const float *restrict a, int64_t lda,
                              const float *restrict b, int64_t ldb, float *restrict c,
                              int64_t ldc)
{
	const float *b0 = b, *b1 = b + ldb, *b2 = b + 2 * ldb, *b3 = b + 3 * ldb;
	float *c0 = c, *c1 = c + ldc;
	const __m512 a00 = _mm512_set1_ps(a[0]), a01 = _mm512_set1_ps(a[1]);
	const __m512 a02 = _mm512_set1_ps(a[2]), a03 = _mm512_set1_ps(a[3]);
	const __m512 a10 = _mm512_set1_ps(a[lda]), a11 = _mm512_set1_ps(a[lda + 1]);
	const __m512 a12 = _mm512_set1_ps(a[lda + 2]), a13 = _mm512_set1_ps(a[lda + 3]);
	for (int64_t j = 0; j < n; j += V) {
		/* All lanes, or the n - j that are left. */
		const __mmask16 mk = n - j >= V ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - j)) - 1);
		const __m512 v0 = _mm512_maskz_loadu_ps(mk, b0 + j);
		const __m512 v1 = _mm512_maskz_loadu_ps(mk, b1 + j);
		const __m512 v2 = _mm512_maskz_loadu_ps(mk, b2 + j);
		const __m512 v3 = _mm512_maskz_loadu_ps(mk, b3 + j);
		__m512 t0 = _mm512_mul_ps(a00, v0), t1 = _mm512_mul_ps(a10, v0);
		t0 = _mm512_fmadd_ps(a01, v1, t0);
		t1 = _mm512_fmadd_ps(a11, v1, t1);
		t0 = _mm512_fmadd_ps(a02, v2, t0);
		t1 = _mm512_fmadd_ps(a12, v2, t1);
		t0 = _mm512_fmadd_ps(a03, v3, t0);
		t1 = _mm512_fmadd_ps(a13, v3, t1);
		_mm512_mask_storeu_ps(c0 + j, mk, _mm512_add_ps(_mm512_maskz_loadu_ps(mk, c0 + j), t0));
		_mm512_mask_storeu_ps(c1 + j, mk, _mm512_add_ps(_mm512_maskz_loadu_ps(mk, c1 + j), t1));
	}
}
