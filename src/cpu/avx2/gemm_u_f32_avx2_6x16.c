/*
 * gemm_u_f32_avx2_6x16.c - the AVX2 unpacked SGEMM microkernel, tiles up
 * to 6 x 16.
 *
 *   void gk_gemm_u_f32_avx2_6x16(int64_t mv, int64_t nv, int64_t k, float alpha,
 *                               const float *a, int64_t rs_a, int64_t cs_a,
 *                               const float *b, int64_t rs_b, float beta,
 *                               float *c, int64_t rs_c);
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f32_fn
 * (kernel_api.h): A(i, l) at a[i * rs_a + l * cs_a], B(l, j) at
 * b[l * rs_b + j], 1 <= nv <= 16 and mv <= 6, or mv <= 12 when nv <= 8.
 * Needs AVX2 and FMA.
 *
 * The packed kernel (gemm_f32_avx2_6x16.c) with the row count made a
 * constant per case (one copy of the loop for each mv, for one or two
 * vectors of C per row, and for a last vector full or cut short). A vector
 * cut short is loaded and stored with masks (vmaskmov), which touch nothing
 * past the tile; full ones use plain loads and stores. The A entries are
 * broadcast straight from wherever A lies. Registers: at most 12
 * accumulators, 2 for a row of B, 1 broadcast.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

enum {
	MR = GK_GEMM_U_F32_AVX2_MR, NR = GK_GEMM_U_F32_AVX2_NR,
	VW = GK_GEMM_U_F32_AVX2_VW, ACC = MR * (NR / VW)
};

/* Vector v of a row: masked when it is the last one and cut short. */
#define LOADV(p, v) (PART && (v) == NV - 1 ? _mm256_maskload_ps((p), mask) : _mm256_loadu_ps(p))
/* The same for the rows of B in the k loop. With two vectors per row, the
 * 12 accumulators, 2 for B and a broadcast leave no register for the mask:
 * gcc kept an accumulator on the stack instead (a store and a reload in
 * its chain every step; a 6 x 13 tile ran at 48-54 GFLOPS in L1 on a Zen 3
 * core, 6 x 16 at 88-96). The mask is then read from memory at each use,
 * one load more per step (6 x 13: 66-73 GFLOPS). */
#define LOADB(p, v)                                                                \
	(PART && (v) == NV - 1                                                     \
	         ? _mm256_maskload_ps((p), NV == 2 ? *(const volatile __m256i *)&mem : mask) \
	         : _mm256_loadu_ps(p))

/* The k loop (gemm_u_kloop_avx2.h). */
#define GK_U_T float
#define GK_U_V __m256
#define GK_U_BCAST(p) _mm256_broadcast_ss(p)
#define GK_U_FMA(x, y, z) _mm256_fmadd_ps((x), (y), (z))
#define GK_U_LOADB(p, v) LOADB(p, v)
#include "gemm_u_kloop_avx2.h"

/* The tile with MV rows and NV vectors, constants after inlining
 * (MV * NV <= ACC); PART: the last vector is cut short to the lanes of
 * mask. */
static inline __attribute__((always_inline)) void tile(const int MV, const int NV, const int PART,
                                                       int64_t k, float alpha,
                                                       const float *restrict a, int64_t rs_a,
                                                       int64_t cs_a, const float *restrict b,
                                                       int64_t rs_b, float beta,
                                                       float *restrict c, int64_t rs_c,
                                                       __m256i mask)
{
	__m256 acc[ACC];
	/* Rows 8 and on from a second base, so that twelve rows need the
	 * offsets of eight. */
	const float *restrict a8 = MV > 8 ? a + 8 * rs_a : a;
	const __m256i mem = mask;
#pragma GCC unroll 12
	for (int q = 0; q < MV * NV; q++)
		acc[q] = _mm256_setzero_ps();
	GK_U_KLOOP();
	const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
#pragma GCC unroll 12
	for (int i = 0; i < MV; i++) {
		float *ci = c + i * rs_c;
#pragma GCC unroll 2
		for (int v = 0; v < NV; v++) {
			__m256 r = _mm256_mul_ps(va, acc[i * NV + v]);
			if (beta != 0.0f)
				r = _mm256_fmadd_ps(vb, LOADV(ci + VW * v, v), r);
			if (PART && v == NV - 1)
				_mm256_maskstore_ps(ci + VW * v, mask, r);
			else
				_mm256_storeu_ps(ci + VW * v, r);
		}
	}
}

#define T(r, nvec)                                                                      \
	case r:                                                                         \
		if (part)                                                               \
			tile(r, nvec, 1, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, mask); \
		else                                                                    \
			tile(r, nvec, 0, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, mask); \
		break
#define ROWS6(v) T(1, v); T(2, v); T(3, v); T(4, v); T(5, v); T(6, v)

void gk_gemm_u_f32_avx2_6x16(int64_t mv, int64_t nv, int64_t k, float alpha,
                             const float *restrict a, int64_t rs_a, int64_t cs_a,
                             const float *restrict b, int64_t rs_b, float beta,
                             float *restrict c, int64_t rs_c)
{
	/* Lanes of the last vector that are inside the tile: all of them, or
	 * the first nv % VW. */
	const int tail = (int)(nv % VW), part = tail != 0;
	const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(tail), lane);
	if (nv > VW) {
		switch (mv) { ROWS6(2); default: break; }
	} else {
		switch (mv) {
		ROWS6(1); T(7, 1); T(8, 1); T(9, 1); T(10, 1); T(11, 1); T(12, 1);
		default: break;
		}
	}
}
