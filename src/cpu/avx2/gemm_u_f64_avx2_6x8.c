/*
 * gemm_u_f64_avx2_6x8.c - the AVX2 unpacked DGEMM microkernel, tiles up
 * to 6 x 8.
 *
 *   void gk_gemm_u_f64_avx2_6x8(int64_t mv, int64_t nv, int64_t k, double alpha,
 *                              const double *a, int64_t rs_a, int64_t cs_a,
 *                              const double *b, int64_t rs_b, double beta,
 *                              double *c, int64_t rs_c);
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f64_fn
 * (kernel_api.h): A(i, l) at a[i * rs_a + l * cs_a], B(l, j) at
 * b[l * rs_b + j], 1 <= nv <= 8 and mv <= 6, or mv <= 12 when nv <= 4.
 * Needs AVX2 and FMA.
 *
 * The packed kernel (gemm_f64_avx2_6x8.c) with the row count made a
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
	MR = GK_GEMM_U_F64_AVX2_MR, NR = GK_GEMM_U_F64_AVX2_NR,
	VW = GK_GEMM_U_F64_AVX2_VW, ACC = MR * (NR / VW)
};

/* Vector v of a row: masked when it is the last one and cut short. */
#define LOADV(p, v) (PART && (v) == NV - 1 ? _mm256_maskload_pd((p), mask) : _mm256_loadu_pd(p))

/* The k loop (gemm_u_kloop_avx2.h). */
#define GK_U_T double
#define GK_U_V __m256d
#define GK_U_BCAST(p) _mm256_broadcast_sd(p)
#define GK_U_FMA(x, y, z) _mm256_fmadd_pd((x), (y), (z))
#define GK_U_LOADB(p, v) LOADV(p, v)
#include "gemm_u_kloop_avx2.h"

/* The tile with MV rows and NV vectors, constants after inlining
 * (MV * NV <= ACC); PART: the last vector is cut short to the lanes of
 * mask. */
static inline __attribute__((always_inline)) void tile(const int MV, const int NV, const int PART,
                                                       int64_t k, double alpha,
                                                       const double *restrict a, int64_t rs_a,
                                                       int64_t cs_a, const double *restrict b,
                                                       int64_t rs_b, double beta,
                                                       double *restrict c, int64_t rs_c,
                                                       __m256i mask)
{
	__m256d acc[ACC];
	/* Rows 8 and on from a second base, so that twelve rows need the
	 * offsets of eight. */
	const double *restrict a8 = MV > 8 ? a + 8 * rs_a : a;
#pragma GCC unroll 12
	for (int q = 0; q < MV * NV; q++)
		acc[q] = _mm256_setzero_pd();
	GK_U_KLOOP();
	const __m256d va = _mm256_set1_pd(alpha), vb = _mm256_set1_pd(beta);
#pragma GCC unroll 12
	for (int i = 0; i < MV; i++) {
		double *ci = c + i * rs_c;
#pragma GCC unroll 2
		for (int v = 0; v < NV; v++) {
			__m256d r = _mm256_mul_pd(va, acc[i * NV + v]);
			if (beta != 0.0)
				r = _mm256_fmadd_pd(vb, LOADV(ci + VW * v, v), r);
			if (PART && v == NV - 1)
				_mm256_maskstore_pd(ci + VW * v, mask, r);
			else
				_mm256_storeu_pd(ci + VW * v, r);
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

void gk_gemm_u_f64_avx2_6x8(int64_t mv, int64_t nv, int64_t k, double alpha,
                            const double *restrict a, int64_t rs_a, int64_t cs_a,
                            const double *restrict b, int64_t rs_b, double beta,
                            double *restrict c, int64_t rs_c)
{
	/* Lanes of the last vector that are inside the tile: all of them, or
	 * the first nv % VW. */
	const int tail = (int)(nv % VW), part = tail != 0;
	const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
	const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(tail), lane);
	if (nv > VW) {
		switch (mv) { ROWS6(2); default: break; }
	} else {
		switch (mv) {
		ROWS6(1); T(7, 1); T(8, 1); T(9, 1); T(10, 1); T(11, 1); T(12, 1);
		default: break;
		}
	}
}
