/*
 * gemm_u_f32_avx512_6x64.c - the AVX-512 unpacked SGEMM microkernel, tiles
 * up to 6 x 64.
 *
 *   void gk_gemm_u_f32_avx512_6x64(int64_t mv, int64_t nv, int64_t k, float alpha,
 *                                const float *a, int64_t rs_a, int64_t cs_a,
 *                                const float *b, int64_t rs_b, float beta,
 *                                float *c, int64_t rs_c);
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f32_fn
 * (kernel_api.h): A(i, l) at a[i * rs_a + l * cs_a], B(l, j) at
 * b[l * rs_b + j], 1 <= nv <= 64 and mv at most 8, or 6 when nv > 48.
 * Needs AVX-512F and VL.
 *
 * One copy of the loop per row count and per number of vectors in a row of
 * the tile, both constants there. The columns past nv are masked, so loads
 * of B and stores of C touch nothing outside the tile and every FMA that
 * runs is one of the tile's; a last vector of at most 8 columns is a
 * 256-bit one, which a core that splits 512-bit operations in two halves
 * (AMD Zen 4) runs at half the cost: 8 columns, or 24, waste no FMA there.
 * Registers: 24 accumulators at most, up to 4 for a row of B; the A entries
 * are broadcast straight from wherever A lies.
 * The shape is not the packed kernel's 14 x 32: six row pointers leave the
 * general registers free of spills, and 64 columns load each row of B in
 * whole cache lines, which measured 5-7% faster than 14 x 32 on unpacked
 * 64 x 64 and 128 x 128 products. Narrower tiles take up to 8 rows, so
 * that a product of few columns (8 x 8 with a long k) is one call that
 * reads each row of B once.
 * The arithmetic per element is the packed kernels' (gemm_f32_avx512_*.c):
 * an FMA chain over l from zero, times alpha, plus beta C by one FMA; the
 * product by alpha is skipped when alpha is 1, which changes no bit.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum {
	MR = GK_GEMM_U_F32_AVX512_MR, NR = GK_GEMM_U_F32_AVX512_NR,
	VW = GK_GEMM_U_F32_AVX512_VW, NV_MAX = NR / VW, ACC = MR * NV_MAX,
	LINE = 16,      /* elements of a cache line */
	PF_LINES = 2,   /* lines ahead that a row of A is fetched */
	PF_MIN_K = 256  /* the depth from which it is */
};

/* One step of k: row l of B (at b) times column l of A (at a). */
static inline __attribute__((always_inline)) void step(const int MV, const int NV, const int HALF,
                                                       const float *restrict a, int64_t rs_a,
                                                       const float *restrict b, const __mmask16 *mk,
                                                       __mmask8 mh, __m512 *acc, __m256 *acch)
{
	const int NF = NV - HALF;
	__m512 bv[NV_MAX];
	__m256 bh = _mm256_setzero_ps();
#pragma GCC unroll 4
	for (int v = 0; v < NF; v++)
		bv[v] = HALF || v < NF - 1 ? _mm512_loadu_ps(b + VW * v)
		                           : _mm512_maskz_loadu_ps(mk[v], b + VW * v);
	if (HALF)
		bh = _mm256_maskz_loadu_ps(mh, b + VW * NF);
#pragma GCC unroll 8
	for (int i = 0; i < MV; i++) {
		if (NF == 0) {
			/* A 256-bit broadcast: a 512-bit one costs a full operation
			 * where the FMA is only half of one. */
			acch[i] = _mm256_fmadd_ps(_mm256_set1_ps(a[i * rs_a]), bh, acch[i]);
			continue;
		}
		const __m512 ai = _mm512_set1_ps(a[i * rs_a]);
#pragma GCC unroll 4
		for (int v = 0; v < NF; v++)
			acc[i * NV + v] = _mm512_fmadd_ps(ai, bv[v], acc[i * NV + v]);
		if (HALF)
			acch[i] = _mm256_fmadd_ps(_mm512_castps512_ps256(ai), bh, acch[i]);
	}
}

/* The tile with MV rows of NV vectors, the last one of 8 lanes when
 * HALF: constants after inlining (MV * NV <= ACC); m[v] masks the columns
 * of full vector v, mh those of the half one. */
static inline __attribute__((always_inline)) void tile(const int MV, const int NV, const int HALF,
                                                       int64_t k, float alpha,
                                                       const float *restrict a, int64_t rs_a,
                                                       int64_t cs_a, const float *restrict b,
                                                       int64_t rs_b, float beta,
                                                       float *restrict c, int64_t rs_c,
                                                       const __mmask16 *m, __mmask8 mh)
{
	const int NF = NV - HALF; /* full vectors */
	__m512 acc[ACC];
	__m256 acch[ACC];
	__mmask16 mk[NV_MAX];
#pragma GCC unroll 4
	for (int v = 0; v < NF; v++)
		mk[v] = m[v];
#pragma GCC unroll 8
	for (int i = 0; i < MV; i++) {
#pragma GCC unroll 4
		for (int v = 0; v < NF; v++)
			acc[i * NV + v] = _mm512_setzero_ps();
		if (HALF)
			acch[i] = _mm256_setzero_ps();
	}
	/* A by rows and a long k: A is most likely streaming from memory (a
	 * product of few rows and a long k, whose A is read once). The loop
	 * looks too few steps ahead to keep the rows' next lines in flight, so
	 * each row's line PF_LINES lines on is requested once per line used:
	 * 20% faster on 8 x 8 x 1e7. */
	if (cs_a == 1 && k >= PF_MIN_K) {
		int64_t l = 0;
		for (; l + LINE <= k; l += LINE) {
			if (l + LINE * (PF_LINES + 1) <= k)
#pragma GCC unroll 8
				for (int i = 0; i < MV; i++)
					__builtin_prefetch(a + i * rs_a + LINE * PF_LINES);
#pragma GCC unroll 1
			for (int q = 0; q < LINE; q++, a += cs_a, b += rs_b)
				step(MV, NV, HALF, a, rs_a, b, mk, mh, acc, acch);
		}
		for (; l < k; l++, a += cs_a, b += rs_b)
			step(MV, NV, HALF, a, rs_a, b, mk, mh, acc, acch);
	} else if (MV * NV < 8) {
		/* Unrolled by four where a step is only a few FMAs, the loop
		 * overhead then being worth saving; else left rolled, which keeps
		 * the code of the many row counts small. */
#pragma GCC unroll 4
		for (int64_t l = 0; l < k; l++, a += cs_a, b += rs_b)
			step(MV, NV, HALF, a, rs_a, b, mk, mh, acc, acch);
	} else {
#pragma GCC unroll 1
		for (int64_t l = 0; l < k; l++, a += cs_a, b += rs_b)
			step(MV, NV, HALF, a, rs_a, b, mk, mh, acc, acch);
	}
	const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
#pragma GCC unroll 8
	for (int i = 0; i < MV; i++) {
		float *ci = c + i * rs_c;
#pragma GCC unroll 4
		for (int v = 0; v < NF; v++) {
			__m512 r = alpha == 1.0f ? acc[i * NV + v] : _mm512_mul_ps(va, acc[i * NV + v]);
			/* Only the last vector of a row may be cut short: the others
			 * need no mask, which keeps the masks out of the loop's
			 * registers. */
			if (HALF || v < NF - 1) {
				if (beta != 0.0f)
					r = _mm512_fmadd_ps(vb, _mm512_loadu_ps(ci + VW * v), r);
				_mm512_storeu_ps(ci + VW * v, r);
				continue;
			}
			if (beta != 0.0f)
				r = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(mk[v], ci + VW * v), r);
			_mm512_mask_storeu_ps(ci + VW * v, mk[v], r);
		}
		if (HALF) {
			__m256 r = alpha == 1.0f ? acch[i] : _mm256_mul_ps(_mm512_castps512_ps256(va), acch[i]);
			if (beta != 0.0f)
				r = _mm256_fmadd_ps(_mm512_castps512_ps256(vb), _mm256_maskz_loadu_ps(mh, ci + VW * NF), r);
			_mm256_mask_storeu_ps(ci + VW * NF, mh, r);
		}
	}
}

#define T(r, nvec)                                                                            \
	case r:                                                                               \
		if (half)                                                                     \
			tile(r, nvec, 1, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, m, mh); \
		else                                                                          \
			tile(r, nvec, 0, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, m, mh); \
		break
#define ROWS6(v) T(1, v); T(2, v); T(3, v); T(4, v); T(5, v); T(6, v)
#define ROWS8(v) ROWS6(v); T(7, v); T(8, v)

void gk_gemm_u_f32_avx512_6x64(int64_t mv, int64_t nv, int64_t k, float alpha,
                               const float *restrict a, int64_t rs_a, int64_t cs_a,
                               const float *restrict b, int64_t rs_b, float beta,
                               float *restrict c, int64_t rs_c)
{
	/* nvec vectors, the last one holding the last w columns: a half vector
	 * when w <= 8. */
	const int64_t nvec = (nv + VW - 1) / VW, w = nv - VW * (nvec - 1);
	const int half = w <= VW / 2;
	__mmask16 m[NV_MAX];
	for (int v = 0; v < NV_MAX; v++)
		m[v] = v < nvec - 1 ? (__mmask16)-1 : v == nvec - 1 ? (__mmask16)((1u << w) - 1) : 0;
	const __mmask8 mh = (__mmask8)((1u << w) - 1);
	switch (nvec) {
	case 1:
		switch (mv) { ROWS8(1); default: break; }
		break;
	case 2:
		switch (mv) { ROWS8(2); default: break; }
		break;
	case 3:
		switch (mv) { ROWS8(3); default: break; }
		break;
	default:
		switch (mv) { ROWS6(4); default: break; }
		break;
	}
}
