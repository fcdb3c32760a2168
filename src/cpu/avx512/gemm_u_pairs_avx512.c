/*
 * gemm_u_pairs_avx512.c - unpacked GEMM tiles of at most half a vector of
 * columns (8 floats, 4 doubles) with two rows of C in each 512-bit vector.
 *
 *   void gk_gemm_u_pairs_f32_avx512(mv, nv, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c)
 *   void gk_gemm_u_pairs_f64_avx512(...)
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f32_fn
 * and gk_gemm_u_f64_fn (kernel_api.h) restricted to 2 <= mv <= 16 and
 * 1 <= nv <= 8 (floats) or 4 (doubles). Needs AVX-512F, DQ and VL.
 *
 * The 6 x NR unpacked kernels give such a tile one 256-bit accumulator per
 * row: half of every multiply-add is idle where a core runs 512-bit ones at
 * full width (Intel; AMD from Zen 5). Here rows 2p and 2p + 1 share one
 * 512-bit accumulator, B's row is broadcast into both halves, and A's
 * entries (A(2p, l) x PW | A(2p + 1, l) x PW) come either from a permute of
 * PW steps of both rows loaded at once, or from two broadcasts from memory
 * (the second one masked into the high half). Products 8 floats or 4
 * doubles wide, k from 64: 1.1-1.36x the one-row tiles on a Zen 5 core; on
 * an Intel Xeon (Sapphire Rapids class) 0.75-0.96x, and a core that splits
 * 512-bit operations in two (Zen 4) has nothing to gain, so the kernel
 * table takes these tiles on AMD from Zen 5 on only (table_avx512.c).
 *
 * Every element gets the one-row tiles' arithmetic: an FMA chain over l
 * from zero in order, times alpha (skipped when alpha is 1), plus beta C by
 * one FMA, so the bits are the same either way.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

enum {
	PF_LINES = 2,  /* lines ahead that a row of A is fetched */
	PF_MIN_K = 256 /* the depth from which it is */
};

/* ---- float: 8 columns a row, two rows a vector ---------------------------- */
#define T float
#define V __m512
#define H __m256
#define PW 8
#define LINE 16
#define PFX(n) f32_##n
#define V_ZERO _mm512_setzero_ps()
#define V_SET1(x) _mm512_set1_ps(x)
#define V_FMA(x, y, z) _mm512_fmadd_ps(x, y, z)
#define V_MUL(x, y) _mm512_mul_ps(x, y)
#define V_JOIN(lo, hi) _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1)
#define V_LO(v) _mm512_castps512_ps256(v)
#define V_HI(v) _mm512_extractf32x8_ps(v, 1)
#define V_BCAST_H(h) _mm512_broadcast_f32x8(h)
#define V_PERM(i, v) _mm512_permutexvar_ps(i, v)
#define V_PAIR(x, p) _mm512_mask_broadcastss_ps(x, (__mmask16)0xff00, _mm_load_ss(p))
#define IDX(q) _mm512_set_epi32(8 + (q), 8 + (q), 8 + (q), 8 + (q), 8 + (q), 8 + (q), 8 + (q), \
                                8 + (q), q, q, q, q, q, q, q, q)
#define H_ZERO _mm256_setzero_ps()
#define H_SET1(x) _mm256_set1_ps(x)
#define H_FMA(x, y, z) _mm256_fmadd_ps(x, y, z)
#define H_MUL(x, y) _mm256_mul_ps(x, y)
#define H_LOADU(p) _mm256_loadu_ps(p)
#define H_MASKZ_LOADU(m, p) _mm256_maskz_loadu_ps(m, p)
#define H_MASK_STOREU(p, m, x) _mm256_mask_storeu_ps(p, m, x)
#include "gemm_u_pairs_tmpl_avx512.h"
#undef T
#undef V
#undef H
#undef PW
#undef LINE
#undef PFX
#undef V_ZERO
#undef V_SET1
#undef V_FMA
#undef V_MUL
#undef V_JOIN
#undef V_LO
#undef V_HI
#undef V_BCAST_H
#undef V_PERM
#undef V_PAIR
#undef IDX
#undef H_ZERO
#undef H_SET1
#undef H_FMA
#undef H_MUL
#undef H_LOADU
#undef H_MASKZ_LOADU
#undef H_MASK_STOREU

/* ---- double: 4 columns a row, two rows a vector --------------------------- */
#define T double
#define V __m512d
#define H __m256d
#define PW 4
#define LINE 8
#define PFX(n) f64_##n
#define V_ZERO _mm512_setzero_pd()
#define V_SET1(x) _mm512_set1_pd(x)
#define V_FMA(x, y, z) _mm512_fmadd_pd(x, y, z)
#define V_MUL(x, y) _mm512_mul_pd(x, y)
#define V_JOIN(lo, hi) _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1)
#define V_LO(v) _mm512_castpd512_pd256(v)
#define V_HI(v) _mm512_extractf64x4_pd(v, 1)
#define V_BCAST_H(h) _mm512_broadcast_f64x4(h)
#define V_PERM(i, v) _mm512_permutexvar_pd(i, v)
#define V_PAIR(x, p) _mm512_mask_broadcastsd_pd(x, (__mmask8)0xf0, _mm_load_sd(p))
#define IDX(q) _mm512_set_epi64(4 + (q), 4 + (q), 4 + (q), 4 + (q), q, q, q, q)
#define H_ZERO _mm256_setzero_pd()
#define H_SET1(x) _mm256_set1_pd(x)
#define H_FMA(x, y, z) _mm256_fmadd_pd(x, y, z)
#define H_MUL(x, y) _mm256_mul_pd(x, y)
#define H_LOADU(p) _mm256_loadu_pd(p)
#define H_MASKZ_LOADU(m, p) _mm256_maskz_loadu_pd(m, p)
#define H_MASK_STOREU(p, m, x) _mm256_mask_storeu_pd(p, m, x)
#include "gemm_u_pairs_tmpl_avx512.h"

/* One function per row count and layout of A, so that each gets all the
 * registers (gemm_u_tiles_avx512.h says why). */
#define PAIR_FN(t, T_, r, rowa)                                                                \
	static __attribute__((noinline)) void t##_pairs_##r##_##rowa(                           \
		int64_t k, T_ alpha, const T_ *restrict a, int64_t rs_a, int64_t cs_a,          \
		const T_ *restrict b, int64_t rs_b, T_ beta, T_ *restrict c, int64_t rs_c,       \
		__mmask8 mh)                                                                    \
	{                                                                                       \
		t##_pairs(r, rowa, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, mh);        \
	}
#define PAIR_FNS(t, T_, r) PAIR_FN(t, T_, r, 0) PAIR_FN(t, T_, r, 1)
#define PAIR_ALL(t, T_)                                                                         \
	PAIR_FNS(t, T_, 2) PAIR_FNS(t, T_, 3) PAIR_FNS(t, T_, 4) PAIR_FNS(t, T_, 5)                  \
	PAIR_FNS(t, T_, 6) PAIR_FNS(t, T_, 7) PAIR_FNS(t, T_, 8) PAIR_FNS(t, T_, 9)                  \
	PAIR_FNS(t, T_, 10) PAIR_FNS(t, T_, 11) PAIR_FNS(t, T_, 12) PAIR_FNS(t, T_, 13)              \
	PAIR_FNS(t, T_, 14) PAIR_FNS(t, T_, 15) PAIR_FNS(t, T_, 16)
PAIR_ALL(f32, float)
PAIR_ALL(f64, double)

#define PAIR_CASE(t, r)                                                                        \
	case r:                                                                                 \
		(rowa ? t##_pairs_##r##_1 : t##_pairs_##r##_0)(k, alpha, a, rs_a, cs_a, b, rs_b,  \
		                                                beta, c, rs_c, mh);               \
		break
#define PAIR_CASES(t)                                                                          \
	PAIR_CASE(t, 2); PAIR_CASE(t, 3); PAIR_CASE(t, 4); PAIR_CASE(t, 5); PAIR_CASE(t, 6);    \
	PAIR_CASE(t, 7); PAIR_CASE(t, 8); PAIR_CASE(t, 9); PAIR_CASE(t, 10); PAIR_CASE(t, 11);  \
	PAIR_CASE(t, 12); PAIR_CASE(t, 13); PAIR_CASE(t, 14); PAIR_CASE(t, 15); PAIR_CASE(t, 16)

/* The exported entries: the tile's row count picks the function. */
#define PAIR_ENTRY(t, T_)                                                                       \
	void gk_gemm_u_pairs_##t##_avx512(int64_t mv, int64_t nv, int64_t k, T_ alpha,           \
	                                  const T_ *restrict a, int64_t rs_a, int64_t cs_a,       \
	                                  const T_ *restrict b, int64_t rs_b, T_ beta,            \
	                                  T_ *restrict c, int64_t rs_c)                           \
	{                                                                                       \
		const __mmask8 mh = (__mmask8)((1u << nv) - 1);                                 \
		const int rowa = cs_a == 1;                                                     \
		switch (mv) {                                                                   \
			PAIR_CASES(t);                                                          \
		default:                                                                        \
			break;                                                                  \
		}                                                                               \
	}
PAIR_ENTRY(f32, float)
PAIR_ENTRY(f64, double)
