/*
 * gemm_d_avx2.c - dot tiles with AVX2 and FMA: GEMM tiles of few columns
 * with k along the 256-bit vector, for products whose C is a few columns
 * wide.
 *
 *   void gk_gemm_d_f32_avx2(mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, c, rs_c, pf)
 *   void gk_gemm_d_f64_avx2(...)
 *   void gk_pack_dt_f32_avx2(k, n, b, rs_b, bt, kp)
 *   void gk_pack_dt_f64_avx2(...)
 *
 * The contract of gk_gemm_d_*_fn and gk_pack_dt_*_fn (kernel_api.h), and
 * the technique of avx512/gemm_d_avx512.c with 8 floats or 4 doubles a
 * vector: each element of C sums its own vector of partial sums (lane q:
 * the terms with l = q modulo the width, in order of l), then a fixed tree
 * adds the lanes (pairs within each 128-bit lane, then the two lanes), times
 * alpha (not when 1), plus beta C by one multiply-add. The tile, its strips,
 * the entry and the pack are written once in ../gemm_d_tmpl.h. Sixteen
 * registers hold the tiles to 8 x 1, 6 x 2, 4 x 3, 2 x 4 and 2 x 5 (R C
 * accumulators, C vectors of Bt and one of A). Masked loads (vmaskmov) for
 * the tail of k and the columns of C: nothing at or past k, nor outside the
 * tile, is read or written.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

#define GK_AI static inline __attribute__((always_inline))

/* How far ahead a row of A is fetched when the caller asks (pf): 256
 * bytes measured 1.02-1.06x faster than 512 (Zen 5, A 2 to 8 MiB: DGEMM
 * 512 x 2 x 512, SGEMM 512 x 1 x 1024, 2048 x 4 x 512; 1024 or 2048 bytes
 * 0.92-0.98x), 128 the same as 256. */
enum { PF_BYTES = 256 };

/* The first n of 8 (4) lanes, as vmaskmov takes them. */
GK_AI __m256i mask8_of(int64_t n)
{
	return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

GK_AI __m256i mask4x64_of(int64_t n)
{
	return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}

/* The lanes of 4 floats (2 doubles) whose bits are set in cm. */
GK_AI __m128i mask4_bits(unsigned cm)
{
	const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
	return _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)cm), bit), bit);
}

GK_AI __m128i mask2x64_bits(unsigned cm)
{
	const __m128i bit = _mm_set_epi64x(2, 1);
	return _mm_cmpeq_epi64(_mm_and_si128(_mm_set1_epi64x(cm), bit), bit);
}

/* The 32-bit lane indices that put lane q + off modulo 8 / e (lanes of e
 * 32-bit halves: 1 for floats, 2 for doubles) in lane q. */
GK_AI __m256i rot_idx8(int64_t off, int e)
{
	const __m256i q = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	return _mm256_and_si256(_mm256_add_epi32(q, _mm256_set1_epi32((int)off * e)),
	                        _mm256_set1_epi32(7));
}

/* ---- float --------------------------------------------------------------- */

/* Lane j of the result: the sum of the 8 lanes of vj, by a fixed tree. */
GK_AI __m128 red4_ps8(__m256 v0, __m256 v1, __m256 v2, __m256 v3)
{
	const __m256 t0 = _mm256_add_ps(_mm256_unpacklo_ps(v0, v1), _mm256_unpackhi_ps(v0, v1));
	const __m256 t1 = _mm256_add_ps(_mm256_unpacklo_ps(v2, v3), _mm256_unpackhi_ps(v2, v3));
	const __m256 u = _mm256_add_ps(_mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0)),
	                               _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2)));
	return _mm_add_ps(_mm256_castps256_ps128(u), _mm256_extractf128_ps(u, 1));
}

/* The same tree for two vectors (lanes 0 and 1 of red4_ps8(v0, v1, 0, 0)). */
GK_AI __m128 red2_ps8(__m256 v0, __m256 v1)
{
	const __m256 t0 = _mm256_add_ps(_mm256_unpacklo_ps(v0, v1), _mm256_unpackhi_ps(v0, v1));
	const __m256 u = _mm256_add_ps(t0, _mm256_shuffle_ps(t0, t0, _MM_SHUFFLE(3, 2, 3, 2)));
	return _mm_add_ps(_mm256_castps256_ps128(u), _mm256_extractf128_ps(u, 1));
}

/* Rows r0 and r0 + 4 of B (4 floats at b each, the first of cm's bits),
 * one to each 128-bit lane. */
GK_AI __m256 rows2_ps(const float *b, int64_t rs_b, int64_t r0, unsigned cm, int full)
{
#define ROW_PS(r) (full ? _mm_loadu_ps(b + (r) * rs_b) : _mm_maskload_ps(b + (r) * rs_b, mask4_bits(cm)))
	return _mm256_insertf128_ps(_mm256_castps128_ps256(ROW_PS(r0)), ROW_PS(r0 + 4), 1);
#undef ROW_PS
}

/* z[p] holding rows p and p + 4 of 8 rows of 4 columns: the 4 x 4
 * transposes in each 128-bit lane give column j of the 8 rows in order;
 * the first w columns stored, kp apart. */
GK_AI void store_cols_ps8(__m256 z0, __m256 z1, __m256 z2, __m256 z3, float *o, int64_t kp,
                          int64_t w)
{
	const __m256 t0 = _mm256_unpacklo_ps(z0, z1), t1 = _mm256_unpackhi_ps(z0, z1);
	const __m256 t2 = _mm256_unpacklo_ps(z2, z3), t3 = _mm256_unpackhi_ps(z2, z3);
	_mm256_storeu_ps(o, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)));
	if (w > 1)
		_mm256_storeu_ps(o + kp, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)));
	if (w > 2)
		_mm256_storeu_ps(o + 2 * kp, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)));
	if (w > 3)
		_mm256_storeu_ps(o + 3 * kp, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2)));
}

#define T float
#define V __m256
#define W 8
#define VM __m256i
#define V_MASK(n) mask8_of(n)
#define R1 8
#define R2 6
#define R3 4
#define R4 2
#define R5 2
#define PFX(n) n##_f32
#define ENTRY gk_gemm_d_f32_avx2
#define ENTRY_OFF gk_gemm_d_off_f32_avx2
#define PACK gk_pack_dt_f32_avx2
#define V_ZERO _mm256_setzero_ps()
#define V_LOADU(p) _mm256_loadu_ps(p)
#define V_MASKZ_LOADU(m, p) _mm256_maskload_ps(p, m)
#define V_MASK_RANGE(lo, hi) _mm256_andnot_si256(mask8_of(lo), mask8_of(hi))
#define VI __m256i
#define V_ROT_IDX(off) rot_idx8(off, 1)
#define V_ROT(v, idx) _mm256_permutevar8x32_ps(v, idx)
#define V_FMA(x, y, z) _mm256_fmadd_ps(x, y, z)
#define RED2 red2_ps8
#define RED4 red4_ps8
#define S2 __m128
#define S2_OF(x) (x)
#define S2_MUL(x, y) _mm_mul_ps(x, y)
#define S2_FMA(x, y, z) _mm_fmadd_ps(x, y, z)
#define S2_MASKZ_LOADU(m, p) _mm_maskload_ps(p, mask4_bits(m))
#define S2_MASK_STOREU(p, m, x) _mm_maskstore_ps(p, mask4_bits(m), x)
#define S4 __m128
#define S4_SET1(x) _mm_set1_ps(x)
#define S4_MUL S2_MUL
#define S4_FMA S2_FMA
#define S4_MASKZ_LOADU S2_MASKZ_LOADU
#define S4_MASK_STOREU S2_MASK_STOREU
#define GROUP_C 0
#define ROWS rows2_ps
#define STORE_COLS store_cols_ps8
#include "../gemm_d_tmpl.h"

/* ---- double -------------------------------------------------------------- */

/* Lane j of the result: the sum of the 4 lanes of vj, by a fixed tree. */
GK_AI __m256d red4_pd4(__m256d v0, __m256d v1, __m256d v2, __m256d v3)
{
	/* Per 128-bit lane: [v0 pair sum, v1 pair sum] (t0), [v2, v3] (t1). */
	const __m256d t0 = _mm256_add_pd(_mm256_unpacklo_pd(v0, v1), _mm256_unpackhi_pd(v0, v1));
	const __m256d t1 = _mm256_add_pd(_mm256_unpacklo_pd(v2, v3), _mm256_unpackhi_pd(v2, v3));
	return _mm256_add_pd(_mm256_permute2f128_pd(t0, t1, 0x20), _mm256_permute2f128_pd(t0, t1, 0x31));
}

/* The same tree for two vectors (lanes 0 and 1 of red4_pd4(v0, v1, 0, 0)). */
GK_AI __m128d red2_pd4(__m256d v0, __m256d v1)
{
	const __m256d t0 = _mm256_add_pd(_mm256_unpacklo_pd(v0, v1), _mm256_unpackhi_pd(v0, v1));
	return _mm_add_pd(_mm256_castpd256_pd128(t0), _mm256_extractf128_pd(t0, 1));
}

/* Row r0 of B (4 doubles at b, the first of cm's bits). */
GK_AI __m256d row_pd(const double *b, int64_t rs_b, int64_t r0, unsigned cm, int full)
{
	return full ? _mm256_loadu_pd(b + r0 * rs_b)
	            : _mm256_maskload_pd(b + r0 * rs_b, mask4x64_of(__builtin_popcount(cm)));
}

/* z[p] holding row p of 4 rows of 4 columns: a 4 x 4 transpose gives column
 * j of the 4 rows; the first w columns stored, kp apart. */
GK_AI void store_cols_pd4(__m256d z0, __m256d z1, __m256d z2, __m256d z3, double *o, int64_t kp,
                          int64_t w)
{
	/* Per 128-bit lane: rows 0 and 1 (2 and 3) of columns 0 and 2 (t0, t2),
	 * of 1 and 3 (t1, t3). */
	const __m256d t0 = _mm256_unpacklo_pd(z0, z1), t1 = _mm256_unpackhi_pd(z0, z1);
	const __m256d t2 = _mm256_unpacklo_pd(z2, z3), t3 = _mm256_unpackhi_pd(z2, z3);
	_mm256_storeu_pd(o, _mm256_permute2f128_pd(t0, t2, 0x20));
	if (w > 1)
		_mm256_storeu_pd(o + kp, _mm256_permute2f128_pd(t1, t3, 0x20));
	if (w > 2)
		_mm256_storeu_pd(o + 2 * kp, _mm256_permute2f128_pd(t0, t2, 0x31));
	if (w > 3)
		_mm256_storeu_pd(o + 3 * kp, _mm256_permute2f128_pd(t1, t3, 0x31));
}

#define T double
#define V __m256d
#define W 4
#define VM __m256i
#define V_MASK(n) mask4x64_of(n)
#define R1 8
#define R2 6
#define R3 4
#define R4 2
#define R5 2
#define PFX(n) n##_f64
#define ENTRY gk_gemm_d_f64_avx2
#define ENTRY_OFF gk_gemm_d_off_f64_avx2
#define PACK gk_pack_dt_f64_avx2
#define V_ZERO _mm256_setzero_pd()
#define V_LOADU(p) _mm256_loadu_pd(p)
#define V_MASKZ_LOADU(m, p) _mm256_maskload_pd(p, m)
#define V_MASK_RANGE(lo, hi) _mm256_andnot_si256(mask4x64_of(lo), mask4x64_of(hi))
#define VI __m256i
#define V_ROT_IDX(off) rot_idx8(off, 2)
#define V_ROT(v, idx) _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), idx))
#define V_FMA(x, y, z) _mm256_fmadd_pd(x, y, z)
#define RED2 red2_pd4
#define RED4 red4_pd4
#define S2 __m128d
#define S2_OF(x) _mm256_castpd256_pd128(x)
#define S2_MUL(x, y) _mm_mul_pd(x, y)
#define S2_FMA(x, y, z) _mm_fmadd_pd(x, y, z)
#define S2_MASKZ_LOADU(m, p) _mm_maskload_pd(p, mask2x64_bits(m))
#define S2_MASK_STOREU(p, m, x) _mm_maskstore_pd(p, mask2x64_bits(m), x)
#define S4 __m256d
#define S4_SET1(x) _mm256_set1_pd(x)
#define S4_MUL(x, y) _mm256_mul_pd(x, y)
#define S4_FMA(x, y, z) _mm256_fmadd_pd(x, y, z)
#define S4_MASKZ_LOADU(m, p) _mm256_maskload_pd(p, mask4x64_of(__builtin_popcount(m)))
#define S4_MASK_STOREU(p, m, x) _mm256_maskstore_pd(p, mask4x64_of(__builtin_popcount(m)), x)
#define GROUP_C 0
#define ROWS row_pd
#define STORE_COLS store_cols_pd4
#include "../gemm_d_tmpl.h"
