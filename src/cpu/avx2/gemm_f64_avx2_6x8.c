/*
 * gemm_f64_avx2_6x8.c - the AVX2 DGEMM microkernel, 6 x 8.
 *
 *   void gk_gemm_f64_avx2_6x8(int64_t k, double alpha, const double *a,
 *                            const double *b, double beta, double *c, int64_t rs_c);
 *
 * C(6 x 8) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f64_fn (kernel_api.h): a[l * 6 + i], b[l * 8 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX2 and FMA. Panels 32-byte aligned run
 * fastest; any double alignment is correct.
 *
 * Register budget (16 ymm): C is 6 rows x 2 vectors = 12 accumulators, a
 * row of the B sliver takes 2 more and the broadcast A entry one: 15 of 16.
 * Per step of k: 12 FMAs against 2 vector loads and 6 broadcasts; 12
 * independent chains cover the FMA latency of two pipes.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { MR = GK_GEMM_F64_AVX2_MR, NR = GK_GEMM_F64_AVX2_NR };

/* One rank-1 update: row l of the B sliver times column l of the A sliver. */
static inline __attribute__((always_inline)) void rank1(__m256d *restrict c0, __m256d *restrict c1,
                                                        const double *restrict a,
                                                        const double *restrict b)
{
	const __m256d b0 = _mm256_loadu_pd(b), b1 = _mm256_loadu_pd(b + 4);
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++) {
		const __m256d ai = _mm256_set1_pd(a[i]);
		c0[i] = _mm256_fmadd_pd(ai, b0, c0[i]);
		c1[i] = _mm256_fmadd_pd(ai, b1, c1[i]);
	}
}

void gk_gemm_f64_avx2_6x8(int64_t k, double alpha, const double *restrict a,
                          const double *restrict b, double beta, double *restrict c,
                          int64_t rs_c)
{
	__m256d c0[MR], c1[MR];
#pragma GCC unroll 6
	for (int i = 0; i < MR; i++) {
		c0[i] = _mm256_setzero_pd();
		c1[i] = _mm256_setzero_pd();
		/* C is needed only at the end: start fetching it now, under the k loop.
		 * A row of 8 doubles spans one or two cache lines. */
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

	const __m256d va = _mm256_set1_pd(alpha);
	if (beta == 0.0) {
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			double *ci = c + i * rs_c;
			_mm256_storeu_pd(ci, _mm256_mul_pd(va, c0[i]));
			_mm256_storeu_pd(ci + 4, _mm256_mul_pd(va, c1[i]));
		}
	} else {
		const __m256d vb = _mm256_set1_pd(beta);
#pragma GCC unroll 6
		for (int i = 0; i < MR; i++) {
			double *ci = c + i * rs_c;
			_mm256_storeu_pd(ci, _mm256_fmadd_pd(vb, _mm256_loadu_pd(ci), _mm256_mul_pd(va, c0[i])));
			_mm256_storeu_pd(ci + 4,
			                 _mm256_fmadd_pd(vb, _mm256_loadu_pd(ci + 4), _mm256_mul_pd(va, c1[i])));
		}
	}
}
