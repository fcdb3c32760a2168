/*
 * gemm_f32_avx2_6x16.c - the AVX2 SGEMM microkernel, 6 x 16.
 *
 *   void gk_gemm_f32_avx2_6x16(int64_t k, float alpha, const float *a,
 *                             const float *b, float beta, float *c, int64_t rs_c);
 *
 * C(6 x 16) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f32_fn (kernel_api.h): a[l * 6 + i], b[l * 16 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX2 and FMA. Panels 32-byte aligned run
 * fastest; any float alignment is correct.
 *
 * Register budget (16 ymm): C is 6 rows x 2 vectors = 12 accumulators, a
 * row of the B sliver takes 2 more and the broadcast A entry one: 15 of 16.
 * Per step of k: 12 FMAs against 2 vector loads and 6 broadcasts; 12
 * independent chains cover the FMA latency of two pipes.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { MR = GK_GEMM_F32_AVX2_MR, NR = GK_GEMM_F32_AVX2_NR };

/* One rank-1 update: row l of the B sliver times column l of the A sliver. */
static inline __attribute__((always_inline)) void rank1(__m256 *restrict c0, __m256 *restrict c1,
                                                        const float *restrict a,
                                                        const float *restrict b)
{
	const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++) {
		const __m256 ai = _mm256_set1_ps(a[i]);
		c0[i] = _mm256_fmadd_ps(ai, b0, c0[i]);
		c1[i] = _mm256_fmadd_ps(ai, b1, c1[i]);
	}
}

void gk_gemm_f32_avx2_6x16(int64_t k, float alpha, const float *restrict a,
                           const float *restrict b, float beta, float *restrict c,
                              int64_t rs_c)
{
	__m256 c0[MR], c1[MR];
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++) {
		c0[i] = _mm256_setzero_ps();
		c1[i] = _mm256_setzero_ps();
		/* C is needed only at the end: start fetching it now, under the k loop.
		 * A row of 16 floats spans one or two cache lines. */
		_mm_prefetch((const char *)(c + i * rs_c), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + NR - 1), _MM_HINT_T0);
	}

	int64_t l = 0;
	for (; l + 4 <= k; l += 4) {
		rank1(c0, c1, a, b);
		rank1(c0, c1, a + MR, b + NR);
		rank1(c0, c1, a + 2 * MR, b + 2 * NR);
		rank1(c0, c1, a + 3 * MR, b + 3 * NR);
		a += 4 * MR;
		b += 4 * NR;
	}
	for (; l < k; l++) {
		rank1(c0, c1, a, b);
		a += MR;
		b += NR;
	}

	const __m256 va = _mm256_set1_ps(alpha);
	if (beta == 0.0f) {
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			float *ci = c + i * rs_c;
			_mm256_storeu_ps(ci, _mm256_mul_ps(va, c0[i]));
			_mm256_storeu_ps(ci + 8, _mm256_mul_ps(va, c1[i]));
		}
	} else {
		const __m256 vb = _mm256_set1_ps(beta);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			float *ci = c + i * rs_c;
			_mm256_storeu_ps(ci, _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci), _mm256_mul_ps(va, c0[i])));
			_mm256_storeu_ps(ci + 8,
			                 _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci + 8), _mm256_mul_ps(va, c1[i])));
		}
	}
}
