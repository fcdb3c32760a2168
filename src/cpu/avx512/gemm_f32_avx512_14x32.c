/*
 * gemm_f32_avx512_14x32.c - the AVX-512 SGEMM microkernel, 14 x 32.
 *
 *   void gk_gemm_f32_avx512_14x32(int64_t k, float alpha, const float *a,
 *                                 const float *b, float beta, float *c, int64_t rs_c);
 *
 * C(14 x 32) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f32_fn (kernel_api.h): a[l * 14 + i], b[l * 32 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX-512F. Panels 64-byte aligned run
 * fastest; any float alignment is correct.
 *
 * Register budget (32 zmm): C is 14 rows x 2 vectors = 28 accumulators, a
 * row of the B sliver takes 2 more and the broadcast A entry one: 31 of 32.
 * Per step of k: 28 FMAs against 2 vector loads and 14 scalar broadcasts,
 * so the FMA units, not the loads, set the pace, and 28 independent chains
 * hide the FMA latency. Fourteen rows keep the broadcasts per FMA low; the
 * 8 x 48 alternative wastes more of the tile on common sizes (n = 256:
 * 48 does not divide it) and measured no faster.
 *
 * gk_gemm_pf_f32_avx512_14x32 is the same kernel (the same bits) that also
 * requests a list of cache lines into L2, a few per step of four, spread
 * over its k loop (gk_gemm_pf_f32_fn in kernel_api.h).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum { MR = GK_GEMM_F32_AVX512_MR, NR = GK_GEMM_F32_AVX512_NR };

/* One rank-1 update: row l of the B sliver times column l of the A sliver. */
static inline __attribute__((always_inline)) void rank1(__m512 *restrict c0, __m512 *restrict c1,
                                                        const float *restrict a,
                                                        const float *restrict b)
{
	const __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
#pragma GCC unroll 14
	for (int i = 0; i < MR; i++) {
		const __m512 ai = _mm512_set1_ps(a[i]);
		c0[i] = _mm512_fmadd_ps(ai, b0, c0[i]);
		c1[i] = _mm512_fmadd_ps(ai, b1, c1[i]);
	}
}

/* Line q of the requests: pf[q], then the run's lines 64 bytes apart. */
static inline const char *pf_line(const void *const *pf, int64_t npf, const void *run, int64_t q)
{
	return q < npf ? (const char *)pf[q] : (const char *)run + 64 * (q - npf);
}

/* The kernel, with the lines pf[0 .. npf), then the nrun lines from run
 * on, requested along the way (none in the plain entry point, where the
 * compiler drops the code). */
static inline __attribute__((always_inline)) void kernel(int64_t k, float alpha,
                                                         const float *restrict a,
                                                         const float *restrict b, float beta,
                                                         float *restrict c, int64_t rs_c,
                                                         const void *const *pf, int64_t npf,
                                                         const void *run, int64_t nrun)
{
	__m512 c0[MR], c1[MR];
#pragma GCC unroll 14
	for (int i = 0; i < MR; i++) {
		c0[i] = _mm512_setzero_ps();
		c1[i] = _mm512_setzero_ps();
		/* C is needed only at the end: start fetching it now, under the k loop.
		 * A row of 32 floats spans two or three cache lines. */
		_mm_prefetch((const char *)(c + i * rs_c), _MM_HINT_T0);
		_mm_prefetch((const char *)(c + i * rs_c + NR - 1), _MM_HINT_T0);
	}

	/* At most per lines each step of four, so that the requests keep a
	 * few misses in flight all along instead of stalling on a full miss
	 * queue in one burst. */
	const int64_t steps = k / 4, lines = npf + nrun;
	const int64_t per = steps > 0 ? (lines + steps - 1) / steps : 0;
	int64_t q = 0; /* lines requested so far (pf_line) */
	int64_t l = 0;
	for (; l + 4 <= k; l += 4) {
		for (const int64_t e = q + per < lines ? q + per : lines; q < e; q++)
			_mm_prefetch(pf_line(pf, npf, run, q), _MM_HINT_T1);
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
	for (; q < lines; q++)
		_mm_prefetch(pf_line(pf, npf, run, q), _MM_HINT_T1);

	const __m512 va = _mm512_set1_ps(alpha);
	if (beta == 0.0f) {
#pragma GCC unroll 14
		for (int i = 0; i < MR; i++) {
			float *ci = c + i * rs_c;
			_mm512_storeu_ps(ci, _mm512_mul_ps(va, c0[i]));
			_mm512_storeu_ps(ci + 16, _mm512_mul_ps(va, c1[i]));
		}
	} else {
		const __m512 vb = _mm512_set1_ps(beta);
#pragma GCC unroll 14
		for (int i = 0; i < MR; i++) {
			float *ci = c + i * rs_c;
			_mm512_storeu_ps(ci, _mm512_fmadd_ps(vb, _mm512_loadu_ps(ci), _mm512_mul_ps(va, c0[i])));
			_mm512_storeu_ps(ci + 16,
			                 _mm512_fmadd_ps(vb, _mm512_loadu_ps(ci + 16), _mm512_mul_ps(va, c1[i])));
		}
	}
}

void gk_gemm_f32_avx512_14x32(int64_t k, float alpha, const float *restrict a,
                              const float *restrict b, float beta, float *restrict c,
                              int64_t rs_c)
{
	kernel(k, alpha, a, b, beta, c, rs_c, NULL, 0, NULL, 0);
}

void gk_gemm_pf_f32_avx512_14x32(int64_t k, float alpha, const float *restrict a,
                                 const float *restrict b, float beta, float *restrict c,
                                 int64_t rs_c, const void *const *pf, int64_t npf,
                                 const void *run, int64_t nrun)
{
	kernel(k, alpha, a, b, beta, c, rs_c, pf, npf, run, nrun);
}
