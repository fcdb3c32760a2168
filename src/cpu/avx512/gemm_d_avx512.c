/*
 * gemm_d_avx512.c - dot tiles: GEMM tiles of few columns with k along the
 * vector, for products whose C is a few columns wide.
 *
 *   void gk_gemm_d_f32_avx512(mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, c, rs_c, pf)
 *   void gk_gemm_d_f64_avx512(...)
 *   void gk_pack_dt_f32_avx512(k, n, b, rs_b, bt, kp)
 *   void gk_pack_dt_f64_avx512(...)
 *
 * The contract of gk_gemm_d_f32_fn / gk_gemm_d_f64_fn and gk_pack_dt_*_fn
 * (kernel_api.h): C(mv x nv) := beta * C + alpha * A * Bt^T with
 * mv >= 1 and 1 <= nv <= 6 floats or 5 doubles, A(i, l) at a[i * rs_a + l], Bt(j, l) =
 * B(l, j) at bt[j * rs_bt + l], C(i, j) at c[i * rs_c + j]. Needs AVX-512F,
 * DQ and VL. The tile, its strips, the entries and the pack are written
 * once, in gemm_d_tmpl.h, which this file includes once per type.
 *
 * A tile of the unpacked kernels that is a few columns wide fills a
 * fraction of a vector per row of C (a quarter for 4 floats), and grouping
 * rows into one vector costs a permute per multiply-add. Here each element
 * of C has a vector of its own: lane q sums A(i, l) Bt(j, l) over the l
 * that are q modulo the vector width, in order of l, from zero. Per vector
 * of k, a 4 x 4 tile loads 4 vectors of A and 4 of Bt for 16 multiply-adds,
 * with 16 independent chains; narrower tiles take more rows (8 x 2). At the end each element's vector is summed
 * by a fixed tree (red4_*), the same for any tile shape or place (the sum
 * of a vector does not depend on the vectors beside it, and the missing
 * ones of a narrower tile are zero vectors), then times alpha, plus beta C
 * by one multiply-add (beta == 0 reads no C). So an element's bits depend
 * on its row of A, its column of B and k only.
 *
 * Lanes past k are loaded masked to zero, in A and in Bt, so neither is
 * read at or past k. Measured against the unpacked row quads on a Zen 5
 * core, SGEMM, one thread, call by call: 64 x 4 x 64 1.5x, 128 x 4 x 128
 * 1.8x, B packed by gk_pack_dt_f32_avx512 included (docs/KERNELS.md).
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx512.h"

#define GK_AI static inline __attribute__((always_inline))

/* How far ahead a row of A is fetched when the caller asks (pf): 256
 * bytes measured 1.02-1.06x faster than 512 (Zen 5, A 2 to 8 MiB: DGEMM
 * 512 x 2 x 512, SGEMM 512 x 1 x 1024, 2048 x 4 x 512; 1024 or 2048 bytes
 * 0.92-0.98x), 128 the same as 256. */
enum { PF_BYTES = 256 };

/* The lane indices q + off modulo 16 (8), q = 0, 1, ...: a permute by them
 * puts lane q + off of a vector in lane q. */
GK_AI __m512i rot_idx_epi32(int64_t off)
{
	const __m512i q = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	return _mm512_and_si512(_mm512_add_epi32(q, _mm512_set1_epi32((int)off)), _mm512_set1_epi32(15));
}

GK_AI __m512i rot_idx_epi64(int64_t off)
{
	const __m512i q = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
	return _mm512_and_si512(_mm512_add_epi64(q, _mm512_set1_epi64(off)), _mm512_set1_epi64(7));
}

/* ---- float --------------------------------------------------------------- */

/* The first steps of red4_ps: lane j of each 128-bit lane the sum of vj's
 * 4 lanes there. */
GK_AI __m512 lanes4_ps(__m512 v0, __m512 v1, __m512 v2, __m512 v3)
{
	const __m512 t0 = _mm512_add_ps(_mm512_unpacklo_ps(v0, v1), _mm512_unpackhi_ps(v0, v1));
	const __m512 t1 = _mm512_add_ps(_mm512_unpacklo_ps(v2, v3), _mm512_unpackhi_ps(v2, v3));
	return _mm512_add_ps(_mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0)),
	                     _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2)));
}

/* Lane j of the result: the sum of the 16 lanes of vj, by a fixed tree. */
GK_AI __m128 red4_ps(__m512 v0, __m512 v1, __m512 v2, __m512 v3)
{
	const __m512 u = lanes4_ps(v0, v1, v2, v3);
	const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(u), _mm512_extractf32x8_ps(u, 1));
	return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

/* The same tree for two vectors (lanes 0 and 1 of red4_ps(v0, v1, 0, 0)). */
GK_AI __m128 red2_ps(__m512 v0, __m512 v1)
{
	const __m512 t0 = _mm512_add_ps(_mm512_unpacklo_ps(v0, v1), _mm512_unpackhi_ps(v0, v1));
	const __m512 u = _mm512_add_ps(t0, _mm512_shuffle_ps(t0, t0, _MM_SHUFFLE(3, 2, 3, 2)));
	const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(u), _mm512_extractf32x8_ps(u, 1));
	return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

/* The two floats at p0 then the two at p1. */
GK_AI __m128 pairs_ps(const float *p0, const float *p1)
{
	return _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)p0), (const __m64 *)p1);
}

GK_AI void store_pairs_ps(float *p0, float *p1, __m128 x)
{
	_mm_storel_pi((__m64 *)p0, x);
	_mm_storeh_pi((__m64 *)p1, x);
}

/* Rows r0, r0 + 4, r0 + 8 and r0 + 12 of B (4 floats at b each, the first
 * w of them), one to each 128-bit lane. */
GK_AI __m512 rows4_ps(const float *b, int64_t rs_b, int64_t r0, __mmask8 cm, int full)
{
#define ROW_PS(r) (full ? _mm_loadu_ps(b + (r) * rs_b) : _mm_maskz_loadu_ps(cm, b + (r) * rs_b))
	__m512 v = _mm512_castps128_ps512(ROW_PS(r0));
	v = _mm512_insertf32x4(v, ROW_PS(r0 + 4), 1);
	v = _mm512_insertf32x4(v, ROW_PS(r0 + 8), 2);
	return _mm512_insertf32x4(v, ROW_PS(r0 + 12), 3);
#undef ROW_PS
}

/* z[p] holding rows p, p + 4, p + 8, p + 12 of 16 rows of 4 columns: the
 * 4 x 4 transposes in each 128-bit lane give column j of the 16 rows in
 * order; the first w columns stored, kp apart. */
GK_AI void store_cols_ps(__m512 z0, __m512 z1, __m512 z2, __m512 z3, float *o, int64_t kp,
                         int64_t w)
{
	const __m512 t0 = _mm512_unpacklo_ps(z0, z1), t1 = _mm512_unpackhi_ps(z0, z1);
	const __m512 t2 = _mm512_unpacklo_ps(z2, z3), t3 = _mm512_unpackhi_ps(z2, z3);
	_mm512_storeu_ps(o, _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)));
	if (w > 1)
		_mm512_storeu_ps(o + kp, _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)));
	if (w > 2)
		_mm512_storeu_ps(o + 2 * kp, _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)));
	if (w > 3)
		_mm512_storeu_ps(o + 3 * kp, _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2)));
}

/* The tile, its strips, gk_gemm_d_f32_avx512 and gk_pack_dt_f32_avx512. A
 * row's sums of 2 columns and of 4 both fit 128 bits. */
#define T float
#define V __m512
#define W 16
#define VM __mmask16
#define V_MASK(n) ((__mmask16)((1u << (n)) - 1))
#define R1 8
#define R2 8
#define R3 6
#define R4 4
#define R5 4
#define R6 4
#define PFX(n) n##_f32
#define ENTRY gk_gemm_d_f32_avx512
#define ENTRY6 gk_gemm_d6_f32_avx512
#define ENTRY_OFF gk_gemm_d_off_f32_avx512
#define PACK gk_pack_dt_f32_avx512
#define V_ZERO _mm512_setzero_ps()
#define V_LOADU(p) _mm512_loadu_ps(p)
#define V_MASKZ_LOADU(m, p) _mm512_maskz_loadu_ps(m, p)
#define V_MASK_RANGE(lo, hi) ((__mmask16)(V_MASK(hi) & ~V_MASK(lo)))
#define VI __m512i
#define V_ROT_IDX(off) rot_idx_epi32(off)
#define V_ROT(v, idx) _mm512_permutexvar_ps(idx, v)
#define V_FMA(x, y, z) _mm512_fmadd_ps(x, y, z)
#define RED2 red2_ps
#define RED4 red4_ps
#define S2 __m128
#define S2_OF(x) (x)
#define S2_MUL(x, y) _mm_mul_ps(x, y)
#define S2_FMA(x, y, z) _mm_fmadd_ps(x, y, z)
#define S2_MASKZ_LOADU(m, p) _mm_maskz_loadu_ps(m, p)
#define S2_MASK_STOREU(p, m, x) _mm_mask_storeu_ps(p, m, x)
#define S4 __m128
#define S4_SET1(x) _mm_set1_ps(x)
#define S4_MUL S2_MUL
#define S4_FMA S2_FMA
#define S4_MASKZ_LOADU S2_MASKZ_LOADU
#define S4_MASK_STOREU S2_MASK_STOREU
#define V_ADD(x, y) _mm512_add_ps(x, y)
#define V_MUL(x, y) _mm512_mul_ps(x, y)
#define V_SET1(x) _mm512_set1_ps(x)
#define V_SHUF128(x, y, i) _mm512_shuffle_f32x4(x, y, i)
#define V_INS128(v, p, i) _mm512_insertf32x4(v, _mm_loadu_ps(p), i)
#define V_FROM128(p) _mm512_castps128_ps512(_mm_loadu_ps(p))
#define STORE128(p, v, i) _mm_storeu_ps(p, (i) ? _mm512_extractf32x4_ps(v, i) : _mm512_castps512_ps128(v))
/* Tiles 4 wide grouped: SGEMM 64 x 4 x 64 1.06x (Zen 5, call by call). */
#define GROUP_C 4
#define GROUP_LANES(v) lanes4_ps((v)[0], (v)[1], (v)[2], (v)[3])
/* 8 x 2 tiles grouped: SGEMM 64 x 2 x 64 1.26x, 128 x 2 x 128 1.09x (Zen 5,
 * call by call). */
#define GROUP2 1
#define LANES4 lanes4_ps
#define V_CAST128(x) _mm512_castps128_ps512(x)
#define V_INSERT128(v, x, i) _mm512_insertf32x4(v, x, i)
#define V_LANE128(v, i) ((i) ? _mm512_extractf32x4_ps(v, i) : _mm512_castps512_ps128(v))
#define PAIRS_LOAD pairs_ps
#define PAIRS_STORE store_pairs_ps
#define ROWS rows4_ps
#define STORE_COLS store_cols_ps
#include "../gemm_d_tmpl.h"

/* ---- double -------------------------------------------------------------- */
#ifndef ENTRY6_ONLY

/* Lane j of the result: the sum of the 8 lanes of vj, by a fixed tree. */
GK_AI __m256d red4_pd(__m512d v0, __m512d v1, __m512d v2, __m512d v3)
{
	/* Per 128-bit lane: [v0 pair sum, v1 pair sum], [v2 ..., v3 ...]. */
	const __m512d t0 = _mm512_add_pd(_mm512_unpacklo_pd(v0, v1), _mm512_unpackhi_pd(v0, v1));
	const __m512d t1 = _mm512_add_pd(_mm512_unpacklo_pd(v2, v3), _mm512_unpackhi_pd(v2, v3));
	/* Lanes 0-1 of t0 with 2-3, and of t1: [v0 v1] twice, [v2 v3] twice. */
	const __m512d u = _mm512_add_pd(_mm512_shuffle_f64x2(t0, t1, _MM_SHUFFLE(1, 0, 1, 0)),
	                                _mm512_shuffle_f64x2(t0, t1, _MM_SHUFFLE(3, 2, 3, 2)));
	const __m512d s = _mm512_add_pd(u, _mm512_shuffle_f64x2(u, u, _MM_SHUFFLE(2, 3, 0, 1)));
	return _mm512_castpd512_pd256(_mm512_shuffle_f64x2(s, s, _MM_SHUFFLE(2, 0, 2, 0)));
}

/* The first step of red2_pd: lane j of each 128-bit lane the sum of vj's 2
 * lanes there. */
GK_AI __m512d lanes2_pd(__m512d v0, __m512d v1)
{
	return _mm512_add_pd(_mm512_unpacklo_pd(v0, v1), _mm512_unpackhi_pd(v0, v1));
}

/* The same tree for two vectors (lanes 0 and 1 of red4_pd(v0, v1, 0, 0)). */
GK_AI __m128d red2_pd(__m512d v0, __m512d v1)
{
	const __m512d t0 = lanes2_pd(v0, v1);
	const __m256d h = _mm256_add_pd(_mm512_castpd512_pd256(t0), _mm512_extractf64x4_pd(t0, 1));
	return _mm_add_pd(_mm256_castpd256_pd128(h), _mm256_extractf128_pd(h, 1));
}

/* Rows r0 and r0 + 4 of B (4 doubles at b each, the first w of them), one
 * to each 256-bit half. */
GK_AI __m512d rows2_pd(const double *b, int64_t rs_b, int64_t r0, __mmask8 cm, int full)
{
#define ROW_PD(r) (full ? _mm256_loadu_pd(b + (r) * rs_b) : _mm256_maskz_loadu_pd(cm, b + (r) * rs_b))
	return _mm512_insertf64x4(_mm512_castpd256_pd512(ROW_PD(r0)), ROW_PD(r0 + 4), 1);
#undef ROW_PD
}

/* z[p] holding rows p and p + 4 of 8 rows of 4 columns: the 4 x 4
 * transposes in each 256-bit half give column j of the 8 rows in order;
 * the first w columns stored, kp apart. */
GK_AI void store_cols_pd(__m512d z0, __m512d z1, __m512d z2, __m512d z3, double *o, int64_t kp,
                         int64_t w)
{
	/* Per 128-bit lane: rows 0 and 1 (2 and 3) of columns 0 and 2 (t0, t2),
	 * of 1 and 3 (t1, t3); lanes 2 and 3 the same for rows 4 to 7. */
	const __m512d t0 = _mm512_unpacklo_pd(z0, z1), t1 = _mm512_unpackhi_pd(z0, z1);
	const __m512d t2 = _mm512_unpacklo_pd(z2, z3), t3 = _mm512_unpackhi_pd(z2, z3);
	const __m512i even = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
	const __m512i odd = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
	_mm512_storeu_pd(o, _mm512_permutex2var_pd(t0, even, t2));
	if (w > 1)
		_mm512_storeu_pd(o + kp, _mm512_permutex2var_pd(t1, even, t3));
	if (w > 2)
		_mm512_storeu_pd(o + 2 * kp, _mm512_permutex2var_pd(t0, odd, t2));
	if (w > 3)
		_mm512_storeu_pd(o + 3 * kp, _mm512_permutex2var_pd(t1, odd, t3));
}

/* The same for doubles: a row's sums of 2 columns in 128 bits (alpha and
 * beta from the low half of their 256-bit vectors), of 4 in 256. */
#define T double
#define V __m512d
#define W 8
#define VM __mmask8
#define V_MASK(n) ((__mmask8)((1u << (n)) - 1))
#define R1 8
#define R2 8
#define R3 6
#define R4 4
#define R5 4
#define PFX(n) n##_f64
#define ENTRY gk_gemm_d_f64_avx512
#define ENTRY_OFF gk_gemm_d_off_f64_avx512
#define PACK gk_pack_dt_f64_avx512
#define V_ZERO _mm512_setzero_pd()
#define V_LOADU(p) _mm512_loadu_pd(p)
#define V_MASKZ_LOADU(m, p) _mm512_maskz_loadu_pd(m, p)
#define V_MASK_RANGE(lo, hi) ((__mmask8)(V_MASK(hi) & ~V_MASK(lo)))
#define VI __m512i
#define V_ROT_IDX(off) rot_idx_epi64(off)
#define V_ROT(v, idx) _mm512_permutexvar_pd(idx, v)
#define V_FMA(x, y, z) _mm512_fmadd_pd(x, y, z)
#define RED2 red2_pd
#define RED4 red4_pd
#define S2 __m128d
#define S2_OF(x) _mm256_castpd256_pd128(x)
#define S2_MUL(x, y) _mm_mul_pd(x, y)
#define S2_FMA(x, y, z) _mm_fmadd_pd(x, y, z)
#define S2_MASKZ_LOADU(m, p) _mm_maskz_loadu_pd(m, p)
#define S2_MASK_STOREU(p, m, x) _mm_mask_storeu_pd(p, m, x)
#define S4 __m256d
#define S4_SET1(x) _mm256_set1_pd(x)
#define S4_MUL(x, y) _mm256_mul_pd(x, y)
#define S4_FMA(x, y, z) _mm256_fmadd_pd(x, y, z)
#define S4_MASKZ_LOADU(m, p) _mm256_maskz_loadu_pd(m, p)
#define S4_MASK_STOREU(p, m, x) _mm256_mask_storeu_pd(p, m, x)
#define V_ADD(x, y) _mm512_add_pd(x, y)
#define V_MUL(x, y) _mm512_mul_pd(x, y)
#define V_SET1(x) _mm512_set1_pd(x)
#define V_SHUF128(x, y, i) _mm512_shuffle_f64x2(x, y, i)
#define V_INS128(v, p, i) _mm512_insertf64x2(v, _mm_loadu_pd(p), i)
#define V_FROM128(p) _mm512_castpd128_pd512(_mm_loadu_pd(p))
#define STORE128(p, v, i) _mm_storeu_pd(p, (i) ? _mm512_extractf64x2_pd(v, i) : _mm512_castpd512_pd128(v))
/* No tile grouped: four rows of 2 doubles at once measured 0.95-1.01 of
 * one row at a time (DGEMM 64 x 2 x 64 to 128 x 2 x 64, Zen 5). */
#define GROUP_C 0
#define GROUP_LANES(v) lanes2_pd((v)[0], (v)[1])
#define ROWS rows2_pd
#define STORE_COLS store_cols_pd
#include "../gemm_d_tmpl.h"
#endif /* ENTRY6_ONLY */
