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
 * mv >= 1 and 1 <= nv <= 5, A(i, l) at a[i * rs_a + l], Bt(j, l) =
 * B(l, j) at bt[j * rs_bt + l], C(i, j) at c[i * rs_c + j]. Needs AVX-512F,
 * DQ and VL.
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

/* How far ahead a row of A is fetched when the caller asks (pf). */
enum { PF_BYTES = 512 };

/* ---- float --------------------------------------------------------------- */

/* Lane j of the result: the sum of the 16 lanes of vj, by a fixed tree. */
GK_AI __m128 red4_ps(__m512 v0, __m512 v1, __m512 v2, __m512 v3)
{
	const __m512 t0 = _mm512_add_ps(_mm512_unpacklo_ps(v0, v1), _mm512_unpackhi_ps(v0, v1));
	const __m512 t1 = _mm512_add_ps(_mm512_unpacklo_ps(v2, v3), _mm512_unpackhi_ps(v2, v3));
	const __m512 u = _mm512_add_ps(_mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0)),
	                               _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2)));
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

/* One tile of R x C, both constants after inlining; scale: alpha is not 1,
 * acc: beta is not 0. */
GK_AI void tile_f32(const int R, const int C, int64_t k, float alpha, const float *a,
                    int64_t rs_a, const float *bt, int64_t rs_bt, float beta, float *c,
                    int64_t rs_c, int scale, int acc_c, int pf)
{
	__m512 acc[8][5];
	_Pragma("GCC unroll 8") for (int r = 0; r < R; r++)
		_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)
			acc[r][j] = _mm512_setzero_ps();
	int64_t l = 0;
	/* A's rows, each read once, fetched PF_BYTES ahead when asked. */
#define STEP(pf)                                                                           \
	do {                                                                               \
		__m512 bv[5];                                                                 \
		_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)                        \
			bv[j] = _mm512_loadu_ps(bt + j * rs_bt + l);                             \
		_Pragma("GCC unroll 8") for (int r = 0; r < R; r++) {                      \
			if (pf)                                                            \
				_mm_prefetch((const char *)(a + r * rs_a + l) + PF_BYTES, _MM_HINT_T0); \
			const __m512 av = _mm512_loadu_ps(a + r * rs_a + l);                        \
			_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)                \
				acc[r][j] = _mm512_fmadd_ps(av, bv[j], acc[r][j]);            \
		}                                                                          \
	} while (0)
	if (pf)
		for (; l + 16 <= k; l += 16)
			STEP(1);
	for (; l + 16 <= k; l += 16)
		STEP(0);
#undef STEP
	if (l < k) {
		const __mmask16 m = (__mmask16)((1u << (k - l)) - 1);
		__m512 bv[5];
		_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)
			bv[j] = _mm512_maskz_loadu_ps(m, bt + j * rs_bt + l);
		_Pragma("GCC unroll 8") for (int r = 0; r < R; r++) {
			const __m512 av = _mm512_maskz_loadu_ps(m, a + r * rs_a + l);
			_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)
				acc[r][j] = _mm512_fmadd_ps(av, bv[j], acc[r][j]);
		}
	}
	const __m128 va = _mm_set1_ps(alpha), vb = _mm_set1_ps(beta);
	const __m512 z = _mm512_setzero_ps();
	_Pragma("GCC unroll 8") for (int r = 0; r < R; r++)
		_Pragma("GCC unroll 2") for (int h = 0; h < C; h += 4) {
			const int w = C - h < 4 ? C - h : 4;
			const __mmask8 cm = (__mmask8)((1u << w) - 1);
			__m128 s = w <= 2 ? red2_ps(acc[r][h], w > 1 ? acc[r][h + 1] : z)
			                  : red4_ps(acc[r][h], acc[r][h + 1], acc[r][h + 2], w > 3 ? acc[r][h + 3] : z);
			if (scale)
				s = _mm_mul_ps(s, va);
			if (acc_c)
				s = _mm_fmadd_ps(vb, _mm_maskz_loadu_ps(cm, c + r * rs_c + h), s);
			_mm_mask_storeu_ps(c + r * rs_c + h, cm, s);
		}
}

/* Tiles of R x C down the mv rows, R the most that C leaves registers for
 * (R * C accumulators, R + C vectors loaded a step: 8 x 2, 6 x 3, 4 x 4,
 * 4 x 5), then one tile of the rows left. */
#define REST(T, R, C, n)                                                                   \
	case n:                                                                            \
		if ((R) > (n))                                                             \
			tile_##T((R) > (n) ? (n) : 1, C, k, alpha, a, rs_a, bt, rs_bt, beta, c, \
			         rs_c, scale, acc_c, pf);                                      \
		break;
#define STRIP(T, R, C)                                                                     \
	do {                                                                               \
		int64_t i = 0;                                                             \
		for (; i + (R) <= mv; i += (R))                                            \
			tile_##T(R, C, k, alpha, a + i * rs_a, rs_a, bt, rs_bt, beta,        \
			         c + i * rs_c, rs_c, scale, acc_c, pf);                        \
		a += i * rs_a;                                                             \
		c += i * rs_c;                                                             \
		switch (mv - i) {                                                          \
			REST(T, R, C, 1) REST(T, R, C, 2) REST(T, R, C, 3) REST(T, R, C, 4)   \
			REST(T, R, C, 5) REST(T, R, C, 6) REST(T, R, C, 7)                    \
		default:                                                                   \
			break;                                                             \
		}                                                                          \
	} while (0)

void gk_gemm_d_f32_avx512(int64_t mv, int64_t nv, int64_t k, float alpha,
                          const float *restrict a, int64_t rs_a, const float *restrict bt,
                          int64_t rs_bt, float beta, float *restrict c, int64_t rs_c, int pf)
{
	const int scale = alpha != 1.0f, acc_c = beta != 0.0f;
	switch (nv) {
	case 1: STRIP(f32, 8, 1); return;
	case 2: STRIP(f32, 8, 2); return;
	case 3: STRIP(f32, 6, 3); return;
	case 4: STRIP(f32, 4, 4); return;
	case 5: STRIP(f32, 4, 5); return;
	default: return;
	}
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

void gk_pack_dt_f32_avx512(int64_t k, int64_t n, const float *restrict b, int64_t rs_b,
                           float *restrict bt, int64_t kp)
{
	for (int64_t j0 = 0; j0 < n; j0 += 4) {
		const int64_t w = n - j0 < 4 ? n - j0 : 4;
		const __mmask8 cm = (__mmask8)((1u << w) - 1);
		const float *bj = b + j0;
		float *o = bt + j0 * kp;
		int64_t l = 0;
		if (w == 4)
			for (; l + 16 <= k; l += 16)
				store_cols_ps(rows4_ps(bj, rs_b, l, cm, 1), rows4_ps(bj, rs_b, l + 1, cm, 1),
				              rows4_ps(bj, rs_b, l + 2, cm, 1), rows4_ps(bj, rs_b, l + 3, cm, 1),
				              o + l, kp, 4);
		else
			for (; l + 16 <= k; l += 16)
				store_cols_ps(rows4_ps(bj, rs_b, l, cm, 0), rows4_ps(bj, rs_b, l + 1, cm, 0),
				              rows4_ps(bj, rs_b, l + 2, cm, 0), rows4_ps(bj, rs_b, l + 3, cm, 0),
				              o + l, kp, w);
		if (l < k) {
			/* The last rows through a zeroed block of 16: Bt is zero from k
			 * to the next multiple of 16. */
			float tmp[16 * 4] __attribute__((aligned(64))) = {0};
			for (int64_t r = l; r < k; r++)
				for (int64_t j = 0; j < w; j++)
					tmp[(r - l) * 4 + j] = bj[r * rs_b + j];
			store_cols_ps(rows4_ps(tmp, 4, 0, 0xf, 1), rows4_ps(tmp, 4, 1, 0xf, 1),
			              rows4_ps(tmp, 4, 2, 0xf, 1), rows4_ps(tmp, 4, 3, 0xf, 1), o + l, kp, w);
		}
	}
}

/* ---- double -------------------------------------------------------------- */

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

/* The same tree for two vectors (lanes 0 and 1 of red4_pd(v0, v1, 0, 0)). */
GK_AI __m128d red2_pd(__m512d v0, __m512d v1)
{
	const __m512d t0 = _mm512_add_pd(_mm512_unpacklo_pd(v0, v1), _mm512_unpackhi_pd(v0, v1));
	const __m256d h = _mm256_add_pd(_mm512_castpd512_pd256(t0), _mm512_extractf64x4_pd(t0, 1));
	return _mm_add_pd(_mm256_castpd256_pd128(h), _mm256_extractf128_pd(h, 1));
}

GK_AI void tile_f64(const int R, const int C, int64_t k, double alpha, const double *a,
                    int64_t rs_a, const double *bt, int64_t rs_bt, double beta, double *c,
                    int64_t rs_c, int scale, int acc_c, int pf)
{
	__m512d acc[8][5];
	_Pragma("GCC unroll 8") for (int r = 0; r < R; r++)
		_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)
			acc[r][j] = _mm512_setzero_pd();
	int64_t l = 0;
	/* A's rows, each read once, fetched PF_BYTES ahead when asked. */
#define STEP(pf)                                                                           \
	do {                                                                               \
		__m512d bv[5];                                                                 \
		_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)                        \
			bv[j] = _mm512_loadu_pd(bt + j * rs_bt + l);                             \
		_Pragma("GCC unroll 8") for (int r = 0; r < R; r++) {                      \
			if (pf)                                                            \
				_mm_prefetch((const char *)(a + r * rs_a + l) + PF_BYTES, _MM_HINT_T0); \
			const __m512d av = _mm512_loadu_pd(a + r * rs_a + l);                        \
			_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)                \
				acc[r][j] = _mm512_fmadd_pd(av, bv[j], acc[r][j]);            \
		}                                                                          \
	} while (0)
	if (pf)
		for (; l + 8 <= k; l += 8)
			STEP(1);
	for (; l + 8 <= k; l += 8)
		STEP(0);
#undef STEP
	if (l < k) {
		const __mmask8 m = (__mmask8)((1u << (k - l)) - 1);
		__m512d bv[5];
		_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)
			bv[j] = _mm512_maskz_loadu_pd(m, bt + j * rs_bt + l);
		_Pragma("GCC unroll 8") for (int r = 0; r < R; r++) {
			const __m512d av = _mm512_maskz_loadu_pd(m, a + r * rs_a + l);
			_Pragma("GCC unroll 5") for (int j = 0; j < C; j++)
				acc[r][j] = _mm512_fmadd_pd(av, bv[j], acc[r][j]);
		}
	}
	const __m256d va = _mm256_set1_pd(alpha), vb = _mm256_set1_pd(beta);
	const __m512d z = _mm512_setzero_pd();
	_Pragma("GCC unroll 8") for (int r = 0; r < R; r++)
		_Pragma("GCC unroll 2") for (int h = 0; h < C; h += 4) {
			const int w = C - h < 4 ? C - h : 4;
			const __mmask8 cm = (__mmask8)((1u << w) - 1);
			if (w <= 2) {
				__m128d s = red2_pd(acc[r][h], w > 1 ? acc[r][h + 1] : z);
				if (scale)
					s = _mm_mul_pd(s, _mm256_castpd256_pd128(va));
				if (acc_c)
					s = _mm_fmadd_pd(_mm256_castpd256_pd128(vb), _mm_maskz_loadu_pd(cm, c + r * rs_c + h), s);
				_mm_mask_storeu_pd(c + r * rs_c + h, cm, s);
				continue;
			}
			__m256d s = red4_pd(acc[r][h], acc[r][h + 1], acc[r][h + 2], w > 3 ? acc[r][h + 3] : z);
			if (scale)
				s = _mm256_mul_pd(s, va);
			if (acc_c)
				s = _mm256_fmadd_pd(vb, _mm256_maskz_loadu_pd(cm, c + r * rs_c + h), s);
			_mm256_mask_storeu_pd(c + r * rs_c + h, cm, s);
		}
}

void gk_gemm_d_f64_avx512(int64_t mv, int64_t nv, int64_t k, double alpha,
                          const double *restrict a, int64_t rs_a, const double *restrict bt,
                          int64_t rs_bt, double beta, double *restrict c, int64_t rs_c, int pf)
{
	const int scale = alpha != 1.0, acc_c = beta != 0.0;
	switch (nv) {
	case 1: STRIP(f64, 8, 1); return;
	case 2: STRIP(f64, 8, 2); return;
	case 3: STRIP(f64, 6, 3); return;
	case 4: STRIP(f64, 4, 4); return;
	case 5: STRIP(f64, 4, 5); return;
	default: return;
	}
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

void gk_pack_dt_f64_avx512(int64_t k, int64_t n, const double *restrict b, int64_t rs_b,
                           double *restrict bt, int64_t kp)
{
	for (int64_t j0 = 0; j0 < n; j0 += 4) {
		const int64_t w = n - j0 < 4 ? n - j0 : 4;
		const __mmask8 cm = (__mmask8)((1u << w) - 1);
		const double *bj = b + j0;
		double *o = bt + j0 * kp;
		int64_t l = 0;
		if (w == 4)
			for (; l + 8 <= k; l += 8)
				store_cols_pd(rows2_pd(bj, rs_b, l, cm, 1), rows2_pd(bj, rs_b, l + 1, cm, 1),
				              rows2_pd(bj, rs_b, l + 2, cm, 1), rows2_pd(bj, rs_b, l + 3, cm, 1),
				              o + l, kp, 4);
		else
			for (; l + 8 <= k; l += 8)
				store_cols_pd(rows2_pd(bj, rs_b, l, cm, 0), rows2_pd(bj, rs_b, l + 1, cm, 0),
				              rows2_pd(bj, rs_b, l + 2, cm, 0), rows2_pd(bj, rs_b, l + 3, cm, 0),
				              o + l, kp, w);
		if (l < k) {
			/* The last rows through a zeroed block of 8: Bt is zero from k
			 * to the next multiple of 8. */
			double tmp[8 * 4] __attribute__((aligned(64))) = {0};
			for (int64_t r = l; r < k; r++)
				for (int64_t j = 0; j < w; j++)
					tmp[(r - l) * 4 + j] = bj[r * rs_b + j];
			store_cols_pd(rows2_pd(tmp, 4, 0, 0xf, 1), rows2_pd(tmp, 4, 1, 0xf, 1),
			              rows2_pd(tmp, 4, 2, 0xf, 1), rows2_pd(tmp, 4, 3, 0xf, 1), o + l, kp, w);
		}
	}
}
