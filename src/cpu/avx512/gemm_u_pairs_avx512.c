/*
 * gemm_u_pairs_avx512.c - unpacked GEMM tiles of few columns with two or
 * four rows of C in each 512-bit vector: row pairs for tiles of at most half
 * a vector (8 floats, 4 doubles), row quads for tiles of at most a quarter
 * (4 floats, 2 doubles).
 *
 *   void gk_gemm_u_pairs_f32_avx512(mv, nv, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c)
 *   void gk_gemm_u_pairs_f64_avx512(...)
 *
 * C(mv x nv) := beta * C + alpha * A * B, the contract of gk_gemm_u_f32_fn
 * and gk_gemm_u_f64_fn (kernel_api.h) restricted to 2 <= mv <= 16 and
 * 1 <= nv <= 8 (floats) or 4 (doubles). Needs AVX-512F, DQ and VL.
 *
 * The 6 x NR unpacked kernels give such a tile one 256-bit accumulator per
 * row: half of every multiply-add or more is idle where a core runs 512-bit
 * ones at full width. Here G rows (2, or 4 when nv is at most a quarter of
 * a vector and mv at least 4) share one 512-bit accumulator, B's row is
 * broadcast into each group of lanes, and A's entries (A(G p + g, l) in
 * group g) come either from a permute of PW steps of the G rows loaded at
 * once, or from G broadcasts from memory, all but the first masked into
 * their group. Products 8 floats or 4 doubles wide, k from 64: 1.1-1.5x
 * the one-row tiles on a Zen 5 core; on an Intel Xeon (Sapphire Rapids
 * class) pairs measured 0.75-0.96x, and a core that splits 512-bit
 * operations in two (Zen 4) has nothing to gain, so the kernel table takes
 * these tiles on AMD from Zen 5 on only (table_avx512.c).
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

/* ---- float --------------------------------------------------------------------- */
#define T float
#define V __m512
#define LINE 16
#define V_ZERO _mm512_setzero_ps()
#define V_SET1(x) _mm512_set1_ps(x)
#define V_FMA(x, y, z) _mm512_fmadd_ps(x, y, z)
#define V_MUL(x, y) _mm512_mul_ps(x, y)
#define V_PERM(i, v) _mm512_permutexvar_ps(i, v)

/* ---- float, pairs: 8 columns a row, two rows a vector ------------------------ */
#define H __m256
#define G 2
#define PW 8
#define PFX(n) f32_g2_##n
#define V_LO(v) _mm512_castps512_ps256(v)
#define V_PART(v, g) ((g) ? _mm512_extractf32x8_ps(v, 1) : V_LO(v))
#define V_BCAST_H(h) _mm512_broadcast_f32x8(h)
#define V_ROWS(i0, l) \
	_mm512_mask_broadcastss_ps(V_SET1(ROWP(i0)[l]), (__mmask16)0xff00, _mm_load_ss(ROWP((i0) + 1) + (l)))
#define V_JOIN(i0, l) \
	_mm512_insertf32x8(_mm512_castps256_ps512(H_LOADU(ROWP(i0) + (l))), H_LOADU(ROWP((i0) + 1) + (l)), 1)
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

/* ---- float, quads: 4 columns a row, four rows a vector ----------------------- */
#define H __m128
#define G 4
#define PW 4
#define PFX(n) f32_g4_##n
#define V_LO(v) _mm512_castps512_ps128(v)
#define V_PART(v, g)                                                                       \
	((g) == 0 ? V_LO(v) : (g) == 1 ? _mm512_extractf32x4_ps(v, 1)                         \
	                    : (g) == 2 ? _mm512_extractf32x4_ps(v, 2) : _mm512_extractf32x4_ps(v, 3))
#define V_BCAST_H(h) _mm512_broadcast_f32x4(h)
#define V_ROWS(i0, l)                                                                      \
	_mm512_mask_broadcastss_ps(                                                          \
		_mm512_mask_broadcastss_ps(                                                  \
			_mm512_mask_broadcastss_ps(V_SET1(ROWP(i0)[l]), (__mmask16)0x00f0,   \
			                           _mm_load_ss(ROWP((i0) + 1) + (l))),      \
			(__mmask16)0x0f00, _mm_load_ss(ROWP((i0) + 2) + (l))),               \
		(__mmask16)0xf000, _mm_load_ss(ROWP((i0) + 3) + (l)))
#define V_JOIN(i0, l)                                                                      \
	_mm512_insertf32x4(                                                                  \
		_mm512_insertf32x4(                                                          \
			_mm512_insertf32x4(_mm512_castps128_ps512(H_LOADU(ROWP(i0) + (l))),  \
			                   H_LOADU(ROWP((i0) + 1) + (l)), 1),                 \
			H_LOADU(ROWP((i0) + 2) + (l)), 2),                                   \
		H_LOADU(ROWP((i0) + 3) + (l)), 3)
#define IDX(q) _mm512_set_epi32(12 + (q), 12 + (q), 12 + (q), 12 + (q), 8 + (q), 8 + (q), \
                                8 + (q), 8 + (q), 4 + (q), 4 + (q), 4 + (q), 4 + (q), q, q, q, q)
#define H_ZERO _mm_setzero_ps()
#define H_SET1(x) _mm_set1_ps(x)
#define H_FMA(x, y, z) _mm_fmadd_ps(x, y, z)
#define H_MUL(x, y) _mm_mul_ps(x, y)
#define H_LOADU(p) _mm_loadu_ps(p)
#define H_MASKZ_LOADU(m, p) _mm_maskz_loadu_ps(m, p)
#define H_MASK_STOREU(p, m, x) _mm_mask_storeu_ps(p, m, x)
#include "gemm_u_pairs_tmpl_avx512.h"

#undef T
#undef V
#undef LINE
#undef V_ZERO
#undef V_SET1
#undef V_FMA
#undef V_MUL
#undef V_PERM

/* ---- double -------------------------------------------------------------------- */
#define T double
#define V __m512d
#define LINE 8
#define V_ZERO _mm512_setzero_pd()
#define V_SET1(x) _mm512_set1_pd(x)
#define V_FMA(x, y, z) _mm512_fmadd_pd(x, y, z)
#define V_MUL(x, y) _mm512_mul_pd(x, y)
#define V_PERM(i, v) _mm512_permutexvar_pd(i, v)

/* ---- double, pairs: 4 columns a row, two rows a vector ----------------------- */
#define H __m256d
#define G 2
#define PW 4
#define PFX(n) f64_g2_##n
#define V_LO(v) _mm512_castpd512_pd256(v)
#define V_PART(v, g) ((g) ? _mm512_extractf64x4_pd(v, 1) : V_LO(v))
#define V_BCAST_H(h) _mm512_broadcast_f64x4(h)
#define V_ROWS(i0, l) \
	_mm512_mask_broadcastsd_pd(V_SET1(ROWP(i0)[l]), (__mmask8)0xf0, _mm_load_sd(ROWP((i0) + 1) + (l)))
#define V_JOIN(i0, l) \
	_mm512_insertf64x4(_mm512_castpd256_pd512(H_LOADU(ROWP(i0) + (l))), H_LOADU(ROWP((i0) + 1) + (l)), 1)
#define IDX(q) _mm512_set_epi64(4 + (q), 4 + (q), 4 + (q), 4 + (q), q, q, q, q)
#define H_ZERO _mm256_setzero_pd()
#define H_SET1(x) _mm256_set1_pd(x)
#define H_FMA(x, y, z) _mm256_fmadd_pd(x, y, z)
#define H_MUL(x, y) _mm256_mul_pd(x, y)
#define H_LOADU(p) _mm256_loadu_pd(p)
#define H_MASKZ_LOADU(m, p) _mm256_maskz_loadu_pd(m, p)
#define H_MASK_STOREU(p, m, x) _mm256_mask_storeu_pd(p, m, x)
#include "gemm_u_pairs_tmpl_avx512.h"

/* ---- double, quads: 2 columns a row, four rows a vector ---------------------- */
#define H __m128d
#define G 4
#define PW 2
#define PFX(n) f64_g4_##n
#define V_LO(v) _mm512_castpd512_pd128(v)
#define V_PART(v, g)                                                                       \
	((g) == 0 ? V_LO(v) : (g) == 1 ? _mm512_extractf64x2_pd(v, 1)                         \
	                    : (g) == 2 ? _mm512_extractf64x2_pd(v, 2) : _mm512_extractf64x2_pd(v, 3))
#define V_BCAST_H(h) _mm512_broadcast_f64x2(h)
#define V_ROWS(i0, l)                                                                      \
	_mm512_mask_broadcastsd_pd(                                                          \
		_mm512_mask_broadcastsd_pd(                                                  \
			_mm512_mask_broadcastsd_pd(V_SET1(ROWP(i0)[l]), (__mmask8)0x0c,      \
			                           _mm_load_sd(ROWP((i0) + 1) + (l))),      \
			(__mmask8)0x30, _mm_load_sd(ROWP((i0) + 2) + (l))),                  \
		(__mmask8)0xc0, _mm_load_sd(ROWP((i0) + 3) + (l)))
#define V_JOIN(i0, l)                                                                      \
	_mm512_insertf64x2(                                                                  \
		_mm512_insertf64x2(                                                          \
			_mm512_insertf64x2(_mm512_castpd128_pd512(H_LOADU(ROWP(i0) + (l))),  \
			                   H_LOADU(ROWP((i0) + 1) + (l)), 1),                 \
			H_LOADU(ROWP((i0) + 2) + (l)), 2),                                   \
		H_LOADU(ROWP((i0) + 3) + (l)), 3)
#define IDX(q) _mm512_set_epi64(6 + (q), 6 + (q), 4 + (q), 4 + (q), 2 + (q), 2 + (q), q, q)
#define H_ZERO _mm_setzero_pd()
#define H_SET1(x) _mm_set1_pd(x)
#define H_FMA(x, y, z) _mm_fmadd_pd(x, y, z)
#define H_MUL(x, y) _mm_mul_pd(x, y)
#define H_LOADU(p) _mm_loadu_pd(p)
#define H_MASKZ_LOADU(m, p) _mm_maskz_loadu_pd(m, p)
#define H_MASK_STOREU(p, m, x) _mm_mask_storeu_pd(p, m, x)
#include "gemm_u_pairs_tmpl_avx512.h"

/* One function per group size, row count and layout of A, so that each
 * gets all the registers (gemm_u_tiles_avx512.h says why). */
#define TILE_FN(t, T_, r, rowa)                                                                \
	static __attribute__((noinline)) void t##_##r##_##rowa(                                 \
		int64_t k, T_ alpha, const T_ *restrict a, int64_t rs_a, int64_t cs_a,          \
		const T_ *restrict b, int64_t rs_b, T_ beta, T_ *restrict c, int64_t rs_c,       \
		__mmask8 mh)                                                                    \
	{                                                                                       \
		t##_tile(r, rowa, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c, mh);         \
	}
#define TILE_FNS(t, T_, r) TILE_FN(t, T_, r, 0) TILE_FN(t, T_, r, 1)
#define FROM4(t, T_)                                                                            \
	TILE_FNS(t, T_, 4) TILE_FNS(t, T_, 5) TILE_FNS(t, T_, 6) TILE_FNS(t, T_, 7)                  \
	TILE_FNS(t, T_, 8) TILE_FNS(t, T_, 9) TILE_FNS(t, T_, 10) TILE_FNS(t, T_, 11)                \
	TILE_FNS(t, T_, 12) TILE_FNS(t, T_, 13) TILE_FNS(t, T_, 14) TILE_FNS(t, T_, 15)              \
	TILE_FNS(t, T_, 16)
#define FROM2(t, T_) TILE_FNS(t, T_, 2) TILE_FNS(t, T_, 3) FROM4(t, T_)
FROM2(f32_g2, float)
FROM2(f64_g2, double)
FROM4(f32_g4, float)
FROM4(f64_g4, double)

#define TILE_CASE(t, r)                                                                        \
	case r:                                                                                 \
		(rowa ? t##_##r##_1 : t##_##r##_0)(k, alpha, a, rs_a, cs_a, b, rs_b, beta, c,    \
		                                    rs_c, mh);                                    \
		return
#define CASES4(t)                                                                              \
	TILE_CASE(t, 4); TILE_CASE(t, 5); TILE_CASE(t, 6); TILE_CASE(t, 7); TILE_CASE(t, 8);    \
	TILE_CASE(t, 9); TILE_CASE(t, 10); TILE_CASE(t, 11); TILE_CASE(t, 12);                   \
	TILE_CASE(t, 13); TILE_CASE(t, 14); TILE_CASE(t, 15); TILE_CASE(t, 16)

/* The exported entries: quads where the tile is at most a quarter of a
 * vector wide and has 4 rows or more, else pairs; the row count picks the
 * function. */
#define ENTRY(t, T_, quarter)                                                                   \
	void gk_gemm_u_pairs_##t##_avx512(int64_t mv, int64_t nv, int64_t k, T_ alpha,           \
	                                  const T_ *restrict a, int64_t rs_a, int64_t cs_a,       \
	                                  const T_ *restrict b, int64_t rs_b, T_ beta,            \
	                                  T_ *restrict c, int64_t rs_c)                           \
	{                                                                                       \
		const __mmask8 mh = (__mmask8)((1u << nv) - 1);                                 \
		const int rowa = cs_a == 1;                                                     \
		if (nv <= (quarter)) {                                                          \
			switch (mv) {                                                           \
				CASES4(t##_g4);                                                 \
			default:                                                                \
				break;                                                          \
			}                                                                       \
		}                                                                               \
		switch (mv) {                                                                   \
			TILE_CASE(t##_g2, 2);                                                   \
			TILE_CASE(t##_g2, 3);                                                   \
			CASES4(t##_g2);                                                         \
		default:                                                                        \
			break;                                                                  \
		}                                                                               \
	}
ENTRY(f32, float, 4)
ENTRY(f64, double, 2)
