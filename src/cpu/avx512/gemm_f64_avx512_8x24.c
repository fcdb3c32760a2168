/*
 * gemm_f64_avx512_8x24.c - the AVX-512 DGEMM microkernel, 8 x 24.
 *
 *   void gk_gemm_f64_avx512_8x24(int64_t k, double alpha, const double *a,
 *                                const double *b, double beta, double *c, int64_t rs_c);
 *
 * C(8 x 24) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f64_fn (kernel_api.h): a[l * 8 + i], b[l * 24 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX-512F. Panels 64-byte aligned run
 * fastest; any double alignment is correct.
 *
 * Register budget (32 zmm): C is 8 rows x 3 vectors = 24 accumulators, a
 * row of the B sliver takes 3 more and the broadcast A entry one: 28 of 32.
 * Per step of k: 24 FMAs against 3 vector loads and 8 broadcasts of one
 * cache line of A. Eight rows rather than fourteen: with a row stride of a
 * power of two, the rows of a C tile all fall in the same L1 sets, and
 * eight of them fit the ways of a set. Measured several percent faster than
 * a 14 x 16 tile on large DGEMMs.
 *
 * gk_gemm_pf_f64_avx512_8x24 is the same kernel (the same bits) that also
 * requests a list of cache lines into L2, a few per step of four, spread
 * over its k loop (gk_gemm_pf_f64_fn in kernel_api.h).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum { MR = GK_GEMM_F64_AVX512_MR, NR = GK_GEMM_F64_AVX512_NR };

/* One rank-1 update: row l of the B sliver times column l of the A sliver. */
static inline __attribute__((always_inline)) void rank1(__m512d *restrict c0, __m512d *restrict c1,
                                                        __m512d *restrict c2,
                                                        const double *restrict a,
                                                        const double *restrict b)
{
	const __m512d b0 = _mm512_loadu_pd(b), b1 = _mm512_loadu_pd(b + 8);
	const __m512d b2 = _mm512_loadu_pd(b + 16);
#pragma GCC unroll 8
	for (int i = 0; i < MR; i++) {
		const __m512d ai = _mm512_set1_pd(a[i]);
		c0[i] = _mm512_fmadd_pd(ai, b0, c0[i]);
		c1[i] = _mm512_fmadd_pd(ai, b1, c1[i]);
		c2[i] = _mm512_fmadd_pd(ai, b2, c2[i]);
	}
}

/* The kernel, with the lines pf[0 .. npf) requested along the way (none
 * in the plain entry point, where the compiler drops the code). */
static inline __attribute__((always_inline)) void kernel(int64_t k, double alpha,
                                                         const double *restrict a,
                                                         const double *restrict b, double beta,
                                                         double *restrict c, int64_t rs_c,
                                                         const void *const *pf, int64_t npf)
{
	__m512d c0[MR], c1[MR], c2[MR];
#pragma GCC unroll 8
	for (int i = 0; i < MR; i++) {
		c0[i] = _mm512_setzero_pd();
		c1[i] = _mm512_setzero_pd();
		c2[i] = _mm512_setzero_pd();
		/* C is needed only at the end: start fetching it now, under the k loop.
		 * A row of 24 doubles spans three or four cache lines. */
		_mm_prefetch((const char *)(c + i * rs_c), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + 8), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + 16), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + NR - 1), _MM_HINT_T0);
	}
	/* At most per lines each step of four, so that the requests keep a
	 * few misses in flight all along instead of stalling on a full miss
	 * queue in one burst. */
	const int64_t steps = k / 4, per = steps > 0 ? (npf + steps - 1) / steps : 0;
	int64_t q = 0;
	int64_t l = 0;
	for (; l + 4 <= k; l += 4) {
		for (const int64_t e = q + per < npf ? q + per : npf; q < e; q++)
			_mm_prefetch((const char *)pf[q], _MM_HINT_T1);
		rank1(c0, c1, c2, a, b);
		rank1(c0, c1, c2, a + MR, b + NR);
		rank1(c0, c1, c2, a + 2 * MR, b + 2 * NR);
		rank1(c0, c1, c2, a + 3 * MR, b + 3 * NR);
		a += 4 * MR;
		b += 4 * NR;
	}
	for (; l < k; l++) {
		rank1(c0, c1, c2, a, b);
		a += MR;
		b += NR;
	}
	for (; q < npf; q++)
		_mm_prefetch((const char *)pf[q], _MM_HINT_T1);
	const __m512d va = _mm512_set1_pd(alpha);
	if (beta == 0.0) {
#pragma GCC unroll 8
		for (int i = 0; i < MR; i++) {
			double *ci = c + i * rs_c;
			_mm512_storeu_pd(ci, _mm512_mul_pd(va, c0[i]));
			_mm512_storeu_pd(ci + 8, _mm512_mul_pd(va, c1[i]));
			_mm512_storeu_pd(ci + 16, _mm512_mul_pd(va, c2[i]));
		}
	} else {
		const __m512d vb = _mm512_set1_pd(beta);
#pragma GCC unroll 8
		for (int i = 0; i < MR; i++) {
			double *ci = c + i * rs_c;
			_mm512_storeu_pd(ci, _mm512_fmadd_pd(vb, _mm512_loadu_pd(ci), _mm512_mul_pd(va, c0[i])));
			_mm512_storeu_pd(ci + 8,
			                 _mm512_fmadd_pd(vb, _mm512_loadu_pd(ci + 8), _mm512_mul_pd(va, c1[i])));
			_mm512_storeu_pd(ci + 16,
			                 _mm512_fmadd_pd(vb, _mm512_loadu_pd(ci + 16), _mm512_mul_pd(va, c2[i])));
		}
	}
}

void gk_gemm_f64_avx512_8x24(int64_t k, double alpha, const double *restrict a,
                             const double *restrict b, double beta, double *restrict c,
                             int64_t rs_c)
{
	kernel(k, alpha, a, b, beta, c, rs_c, NULL, 0);
}

void gk_gemm_pf_f64_avx512_8x24(int64_t k, double alpha, const double *restrict a,
                                const double *restrict b, double beta, double *restrict c,
                                int64_t rs_c, const void *const *pf, int64_t npf)
{
	kernel(k, alpha, a, b, beta, c, rs_c, pf, npf);
}
