/*
 * unroll_f32_avx2_2x4.c - the 2 x 4 x n tile kernel of the seed ladder
 * (seed section 1.7) with AVX2 + FMA, float.
 *
 *   void gk_unroll_f32_avx2_2x4(int64_t n, const float *a, int64_t lda,
 *                               const float *b, int64_t ldb, float *c, int64_t ldc);
 *
 * C(2 x n) += A(2 x 4) * B(4 x n), the contract of gk_unroll_f32_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], n >= 0.
 * The eight entries of A are broadcast once into 8 ymm; each step of 8
 * columns loads 4 vectors of B and 2 of C, does 8 FMAs and stores 2: C is
 * loaded and stored once per four steps of k. Unaligned loads; the last
 * n % 8 columns in scalar code. Flags: -mavx2 -mfma (this folder).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { V = 8 }; /* floats in a ymm register */

void gk_unroll_f32_avx2_2x4(int64_t n, const float *restrict a, int64_t lda,
                            const float *restrict b, int64_t ldb, float *restrict c,
                            int64_t ldc)
{
	const float *b0 = b, *b1 = b + ldb, *b2 = b + 2 * ldb, *b3 = b + 3 * ldb;
	float *c0 = c, *c1 = c + ldc;
	const __m256 a00 = _mm256_set1_ps(a[0]), a01 = _mm256_set1_ps(a[1]);
	const __m256 a02 = _mm256_set1_ps(a[2]), a03 = _mm256_set1_ps(a[3]);
	const __m256 a10 = _mm256_set1_ps(a[lda]), a11 = _mm256_set1_ps(a[lda + 1]);
	const __m256 a12 = _mm256_set1_ps(a[lda + 2]), a13 = _mm256_set1_ps(a[lda + 3]);
	int64_t j = 0;
	for (; j + V <= n; j += V) {
		const __m256 v0 = _mm256_loadu_ps(b0 + j), v1 = _mm256_loadu_ps(b1 + j);
		const __m256 v2 = _mm256_loadu_ps(b2 + j), v3 = _mm256_loadu_ps(b3 + j);
		__m256 t0 = _mm256_mul_ps(a00, v0), t1 = _mm256_mul_ps(a10, v0);
		t0 = _mm256_fmadd_ps(a01, v1, t0);
		t1 = _mm256_fmadd_ps(a11, v1, t1);
		t0 = _mm256_fmadd_ps(a02, v2, t0);
		t1 = _mm256_fmadd_ps(a12, v2, t1);
		t0 = _mm256_fmadd_ps(a03, v3, t0);
		t1 = _mm256_fmadd_ps(a13, v3, t1);
		_mm256_storeu_ps(c0 + j, _mm256_add_ps(_mm256_loadu_ps(c0 + j), t0));
		_mm256_storeu_ps(c1 + j, _mm256_add_ps(_mm256_loadu_ps(c1 + j), t1));
	}
	for (; j < n; j++) {
		c0[j] += a[0] * b0[j] + a[1] * b1[j] + a[2] * b2[j] + a[3] * b3[j];
		c1[j] += a[lda] * b0[j] + a[lda + 1] * b1[j] + a[lda + 2] * b2[j] + a[lda + 3] * b3[j];
	}
}
