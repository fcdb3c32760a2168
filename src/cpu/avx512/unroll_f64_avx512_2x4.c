/*
 * unroll_f64_avx512_2x4.c - the 2 x 4 x n tile kernel of the seed ladder
 * (seed section 1.7) with AVX-512, double.
 *
 *   void gk_unroll_f64_avx512_2x4(int64_t n, const double *a, int64_t lda,
 *                                 const double *b, int64_t ldb, double *c, int64_t ldc);
 *
 * C(2 x n) += A(2 x 4) * B(4 x n), the contract of gk_unroll_f64_fn
 * (kernel_api.h): a[i * lda + l], b[l * ldb + j], c[i * ldc + j], n >= 0.
 * The eight entries of A are broadcast once into 8 zmm; each step of 8
 * columns loads 4 vectors of B and 2 of C, does 8 FMAs and stores 2: C is
 * loaded and stored once per four steps of k. Unaligned loads; the last
 * n % 8 columns under a mask, so no element past the row is touched.
 * Needs AVX-512F.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum { V = 8 }; /* doubles in a zmm register */

void gk_unroll_f64_avx512_2x4(int64_t n, const double *restrict a, int64_t lda,
                              const double *restrict b, int64_t ldb, double *restrict c,
                              int64_t ldc)
{
	const double *b0 = b, *b1 = b + ldb, *b2 = b + 2 * ldb, *b3 = b + 3 * ldb;
	double *c0 = c, *c1 = c + ldc;
	const __m512d a00 = _mm512_set1_pd(a[0]), a01 = _mm512_set1_pd(a[1]);
	const __m512d a02 = _mm512_set1_pd(a[2]), a03 = _mm512_set1_pd(a[3]);
	const __m512d a10 = _mm512_set1_pd(a[lda]), a11 = _mm512_set1_pd(a[lda + 1]);
	const __m512d a12 = _mm512_set1_pd(a[lda + 2]), a13 = _mm512_set1_pd(a[lda + 3]);
	for (int64_t j = 0; j < n; j += V) {
		/* All lanes, or the n - j that are left. */
		const __mmask8 mk = n - j >= V ? (__mmask8)0xFF : (__mmask8)((1u << (n - j)) - 1);
		const __m512d v0 = _mm512_maskz_loadu_pd(mk, b0 + j);
		const __m512d v1 = _mm512_maskz_loadu_pd(mk, b1 + j);
		const __m512d v2 = _mm512_maskz_loadu_pd(mk, b2 + j);
		const __m512d v3 = _mm512_maskz_loadu_pd(mk, b3 + j);
		__m512d t0 = _mm512_mul_pd(a00, v0), t1 = _mm512_mul_pd(a10, v0);
		t0 = _mm512_fmadd_pd(a01, v1, t0);
		t1 = _mm512_fmadd_pd(a11, v1, t1);
		t0 = _mm512_fmadd_pd(a02, v2, t0);
		t1 = _mm512_fmadd_pd(a12, v2, t1);
		t0 = _mm512_fmadd_pd(a03, v3, t0);
		t1 = _mm512_fmadd_pd(a13, v3, t1);
		_mm512_mask_storeu_pd(c0 + j, mk, _mm512_add_pd(_mm512_maskz_loadu_pd(mk, c0 + j), t0));
		_mm512_mask_storeu_pd(c1 + j, mk, _mm512_add_pd(_mm512_maskz_loadu_pd(mk, c1 + j), t1));
	}
}
