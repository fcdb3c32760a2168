/*
 * unroll_f64_avx2_2x4.c - the 2 x 4 x n tile kernel of the seed ladder
 * (seed section 1.7) with AVX2 + FMA, double.
 *
 *   void gk_unroll_f64_avx2_2x4(int64_t n, const double *a, int64_t lda,
 *                               const double *b, int64_t ldb, double *c, int64_t ldc);
 *
 * C(2 x n) += A(2 x 4) * B(4 x n), the contract of gk_unroll_f64_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], n >= 0.
 * The eight entries of A are broadcast once into 8 ymm; each step of 4
 * columns loads 4 vectors of B and 2 of C, does 8 FMAs and stores 2: C is
 * loaded and stored once per four steps of k. Unaligned loads; the last
 * n % 4 columns in scalar code. Flags: -mavx2 -mfma (this folder).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { V = 4 }; /* doubles in a ymm register */

void gk_unroll_f64_avx2_2x4(int64_t n, const double *restrict a, int64_t lda,
                            const double *restrict b, int64_t ldb, double *restrict c,
                            int64_t ldc)
{
	const double *b0 = b, *b1 = b + ldb, *b2 = b + 2 * ldb, *b3 = b + 3 * ldb;
	double *c0 = c, *c1 = c + ldc;
	const __m256d a00 = _mm256_set1_pd(a[0]), a01 = _mm256_set1_pd(a[1]);
	const __m256d a02 = _mm256_set1_pd(a[2]), a03 = _mm256_set1_pd(a[3]);
	const __m256d a10 = _mm256_set1_pd(a[lda]), a11 = _mm256_set1_pd(a[lda + 1]);
	const __m256d a12 = _mm256_set1_pd(a[lda + 2]), a13 = _mm256_set1_pd(a[lda + 3]);
	int64_t j = 0;
	for (; j + V <= n; j += V) {
		const __m256d v0 = _mm256_loadu_pd(b0 + j), v1 = _mm256_loadu_pd(b1 + j);
		const __m256d v2 = _mm256_loadu_pd(b2 + j), v3 = _mm256_loadu_pd(b3 + j);
		__m256d t0 = _mm256_mul_pd(a00, v0), t1 = _mm256_mul_pd(a10, v0);
		t0 = _mm256_fmadd_pd(a01, v1, t0);
		t1 = _mm256_fmadd_pd(a11, v1, t1);
		t0 = _mm256_fmadd_pd(a02, v2, t0);
		t1 = _mm256_fmadd_pd(a12, v2, t1);
		t0 = _mm256_fmadd_pd(a03, v3, t0);
		t1 = _mm256_fmadd_pd(a13, v3, t1);
		_mm256_storeu_pd(c0 + j, _mm256_add_pd(_mm256_loadu_pd(c0 + j), t0));
		_mm256_storeu_pd(c1 + j, _mm256_add_pd(_mm256_loadu_pd(c1 + j), t1));
	}
	for (; j < n; j++) {
		c0[j] += a[0] * b0[j] + a[1] * b1[j] + a[2] * b2[j] + a[3] * b3[j];
		c1[j] += a[lda] * b0[j] + a[lda + 1] * b1[j] + a[lda + 2] * b2[j] + a[lda + 3] * b3[j];
	}
}
