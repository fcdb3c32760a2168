/*
 * pack_t_avx2.c - packing of a matrix whose rows are contiguous into r-tall
 * slivers (gk_pack_t_*_fn in kernel_api.h), by transposing 8 x 8 floats or
 * 4 x 4 doubles in registers. This is how a block of A stored by rows (or a
 * panel of B stored by columns) is packed for the microkernels.
 *
 * Contract: for s < ceil(rows / r), l < kc, i < r,
 *   dst[s * ps + l * r + i] = i + s * r < rows ? x[(s * r + i) * rs + l] : 0;
 * nothing else of dst is written, nothing of x outside those rows and
 * columns is read. Any rows >= 0, kc >= 0, r >= 1 and rs; no alignment needed.
 *
 * Why: element by element, each value a load and a store with a stride of
 * r between stores, the packing of A took about 0.8 cycles per element on
 * a Zen 5 core; a transpose in registers loads and stores whole vectors.
 */
#include <immintrin.h>
#include "kernel_api.h"
#include "kernels_avx2.h"

/* The first w floats of v (1 <= w <= 8) to d, nothing past them. */
static inline void store_f32(float *d, __m256 v, int w)
{
	if (w == 8) {
		_mm256_storeu_ps(d, v);
		return;
	}
	__m128 h = _mm256_castps256_ps128(v);
	if (w >= 4) {
		_mm_storeu_ps(d, h);
		h = _mm256_extractf128_ps(v, 1);
		d += 4;
		w -= 4;
	}
	if (w >= 2) {
		_mm_storel_pi((__m64 *)d, h);
		h = _mm_movehl_ps(h, h);
		d += 2;
		w -= 2;
	}
	if (w == 1)
		_mm_store_ss(d, h);
}

/* The first w doubles of v (1 <= w <= 4) to d: the same bytes as floats. */
static inline void store_f64(double *d, __m256d v, int w)
{
	store_f32((float *)d, _mm256_castpd_ps(v), 2 * w);
}

#define INLINE static inline __attribute__((always_inline))

/* Columns [l, l + 8) of rows [g, g + w) of a sliver, rows [g + nv, g + w)
 * zero (nv <= w <= 8): eight columns of up to 8 rows, transposed. */
INLINE void block_f32(const float *x, int64_t rs, int64_t l, int64_t r, int64_t g, int w, int nv,
                      float *d)
{
	__m256 v[8];
	for (int i = 0; i < 8; i++)
		v[i] = i < nv ? _mm256_loadu_ps(x + (g + i) * rs + l) : _mm256_setzero_ps();
	const __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
	const __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
	const __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
	const __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
	const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xee);
	const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xee);
	const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xee);
	const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xee);
	float *o = d + l * r + g;
	store_f32(o + 0 * r, _mm256_permute2f128_ps(u0, u4, 0x20), w);
	store_f32(o + 1 * r, _mm256_permute2f128_ps(u1, u5, 0x20), w);
	store_f32(o + 2 * r, _mm256_permute2f128_ps(u2, u6, 0x20), w);
	store_f32(o + 3 * r, _mm256_permute2f128_ps(u3, u7, 0x20), w);
	store_f32(o + 4 * r, _mm256_permute2f128_ps(u0, u4, 0x31), w);
	store_f32(o + 5 * r, _mm256_permute2f128_ps(u1, u5, 0x31), w);
	store_f32(o + 6 * r, _mm256_permute2f128_ps(u2, u6, 0x31), w);
	store_f32(o + 7 * r, _mm256_permute2f128_ps(u3, u7, 0x31), w);
}

/* Columns [l, l + 4) of rows [g, g + w) (nv <= w <= 4), as above. */
INLINE void block_f64(const double *x, int64_t rs, int64_t l, int64_t r, int64_t g, int w, int nv,
                      double *d)
{
	__m256d v[4];
	for (int i = 0; i < 4; i++)
		v[i] = i < nv ? _mm256_loadu_pd(x + (g + i) * rs + l) : _mm256_setzero_pd();
	const __m256d t0 = _mm256_unpacklo_pd(v[0], v[1]), t1 = _mm256_unpackhi_pd(v[0], v[1]);
	const __m256d t2 = _mm256_unpacklo_pd(v[2], v[3]), t3 = _mm256_unpackhi_pd(v[2], v[3]);
	double *o = d + l * r + g;
	store_f64(o + 0 * r, _mm256_permute2f128_pd(t0, t2, 0x20), w);
	store_f64(o + 1 * r, _mm256_permute2f128_pd(t1, t3, 0x20), w);
	store_f64(o + 2 * r, _mm256_permute2f128_pd(t0, t2, 0x31), w);
	store_f64(o + 3 * r, _mm256_permute2f128_pd(t1, t3, 0x31), w);
}

/*
 * One sliver, rows [0, rv) of x valid, r rows in all: the columns in groups
 * of VW by block_<T>, inlined with r and rv constant where the sliver is
 * full and r is one of the tiles' own heights (MR of the AVX2 and AVX-512
 * SGEMM and DGEMM tiles, NR for B stored by columns), so that every branch
 * of the blocks folds away; the last kc % VW columns element by element.
 */
#define SLIVER(T, E, VW)                                                                   \
	INLINE void body_##T(int64_t rv, int64_t kc, const E *x, int64_t rs, int64_t r, E *d) \
	{                                                                                 \
		for (int64_t l = 0; l < kc; l += VW)                                      \
			for (int64_t g = 0; g < r; g += VW) {                             \
				const int w = r - g < VW ? (int)(r - g) : VW;             \
				const int nv = rv - g < 0 ? 0 : rv - g < w ? (int)(rv - g) : w; \
				block_##T(x, rs, l, r, g, w, nv, d);                      \
			}                                                                 \
	}                                                                                 \
	static void sliver_##T(int64_t rv, int64_t kc, const E *x, int64_t rs, int64_t r, E *d) \
	{                                                                                 \
		const int64_t kv = kc / VW * VW;                                          \
		switch (rv == r ? r : 0) {                                                \
		case 4: body_##T(4, kv, x, rs, 4, d); break;                              \
		case 6: body_##T(6, kv, x, rs, 6, d); break;                              \
		case 8: body_##T(8, kv, x, rs, 8, d); break;                              \
		case 12: body_##T(12, kv, x, rs, 12, d); break;                           \
		case 14: body_##T(14, kv, x, rs, 14, d); break;                           \
		case 16: body_##T(16, kv, x, rs, 16, d); break;                           \
		case 24: body_##T(24, kv, x, rs, 24, d); break;                           \
		case 32: body_##T(32, kv, x, rs, 32, d); break;                           \
		default: body_##T(rv, kv, x, rs, r, d);                                   \
		}                                                                         \
		for (int64_t l = kv; l < kc; l++)                                         \
			for (int64_t i = 0; i < r; i++)                                   \
				d[l * r + i] = i < rv ? x[i * rs + l] : (E)0;             \
	}                                                                                 \
	void gk_pack_t_##T##_avx2(int64_t rows, int64_t kc, const E *x, int64_t rs, int64_t r, \
	                          E *dst, int64_t ps)                                     \
	{                                                                                 \
		for (int64_t s = 0; s * r < rows; s++) {                                  \
			const int64_t rv = rows - s * r < r ? rows - s * r : r;           \
			sliver_##T(rv, kc, x + s * r * rs, rs, r, dst + s * ps);          \
		}                                                                         \
	}

SLIVER(f32, float, 8)
SLIVER(f64, double, 4)
