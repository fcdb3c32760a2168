/*
 * level1_avx2.c - axpy and dot with AVX2 + FMA (8 floats / 4 doubles a
 * register). Unaligned loads; the tail is done in scalar code, one fused
 * multiply-add per element as in the vectors (kernel_api.h).
 * Flags: -mavx2 -mfma (this folder).
 */
#include <immintrin.h>
#include "axpy4_body.h"
#include "kernels_avx2.h"

void gk_axpy_f32_avx2(int64_t n, float alpha, const float *restrict x, float *restrict y)
{
	const __m256 va = _mm256_set1_ps(alpha);
	int64_t i = 0;
	for (; i + 16 <= n; i += 16) {
		__m256 y0 = _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i));
		__m256 y1 = _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(y + i + 8));
		_mm256_storeu_ps(y + i, y0);
		_mm256_storeu_ps(y + i + 8, y1);
	}
	for (; i < n; i++)
		y[i] = __builtin_fmaf(alpha, x[i], y[i]);
}

void gk_axpy_f64_avx2(int64_t n, double alpha, const double *restrict x, double *restrict y)
{
	const __m256d va = _mm256_set1_pd(alpha);
	int64_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256d y0 = _mm256_fmadd_pd(va, _mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i));
		__m256d y1 = _mm256_fmadd_pd(va, _mm256_loadu_pd(x + i + 4), _mm256_loadu_pd(y + i + 4));
		_mm256_storeu_pd(y + i, y0);
		_mm256_storeu_pd(y + i + 4, y1);
	}
	for (; i < n; i++)
		y[i] = __builtin_fma(alpha, x[i], y[i]);
}

/* axpy4 for one element type (kernel_api.h): per vector of y, four rows of
 * x by one FMA chain in their order; the tail by scalar fused multiply-adds,
 * the same operation. */
#define AXPY4_AVX2(T, VT, W, SET1, LOAD, STORE, FMA, SFMA, name)                       \
	void name(int64_t n, const T *restrict alpha, const T *restrict x, int64_t ldx,  \
	          T *restrict y)                                                         \
	{                                                                                \
		GK_AXPY4_BODY(T, VT, W, SET1, LOAD, STORE, FMA)                          \
		for (; i < n; i++) {                                                     \
			T v = SFMA(alpha[0], x[i], y[i]);                                \
			v = SFMA(alpha[1], x1[i], v);                                    \
			v = SFMA(alpha[2], x2[i], v);                                    \
			y[i] = SFMA(alpha[3], x3[i], v);                                 \
		}                                                                        \
	}
AXPY4_AVX2(float, __m256, 8, _mm256_set1_ps, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_fmadd_ps,
           __builtin_fmaf, gk_axpy4_f32_avx2)
AXPY4_AVX2(double, __m256d, 4, _mm256_set1_pd, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_fmadd_pd,
           __builtin_fma, gk_axpy4_f64_avx2)

static float hsum256_ps(__m256 v)
{
	__m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
	s = _mm_add_ps(s, _mm_movehl_ps(s, s));
	s = _mm_add_ss(s, _mm_movehdup_ps(s));
	return _mm_cvtss_f32(s);
}

float gk_dot_f32_avx2(int64_t n, const float *restrict x, const float *restrict y)
{
	__m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
	int64_t i = 0;
	for (; i + 16 <= n; i += 16) {
		s0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), s0);
		s1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(y + i + 8), s1);
	}
	float s = hsum256_ps(_mm256_add_ps(s0, s1));
	for (; i < n; i++)
		s += x[i] * y[i];
	return s;
}

double gk_dot_f64_avx2(int64_t n, const double *restrict x, const double *restrict y)
{
	__m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
	int64_t i = 0;
	for (; i + 8 <= n; i += 8) {
		s0 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i), s0);
		s1 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 4), _mm256_loadu_pd(y + i + 4), s1);
	}
	__m256d v = _mm256_add_pd(s0, s1);
	__m128d h = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
	double s = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
	for (; i < n; i++)
		s += x[i] * y[i];
	return s;
}
