/*
 * level1_avx512.c - axpy and dot with AVX-512F (16 floats / 8 doubles a
 * register); the tail is one masked operation, so no scalar loop.
 * Flags: -mavx512f -mavx512dq -mavx512bw -mavx512vl -mfma (this folder).
 */
#include <immintrin.h>
#include "axpy4_body.h"
#include "kernels_avx512.h"

void gk_axpy_f32_avx512(int64_t n, float alpha, const float *restrict x, float *restrict y)
{
	const __m512 va = _mm512_set1_ps(alpha);
	int64_t i = 0;
	for (; i + 32 <= n; i += 32) {
		__m512 y0 = _mm512_fmadd_ps(va, _mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i));
		__m512 y1 = _mm512_fmadd_ps(va, _mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(y + i + 16));
		_mm512_storeu_ps(y + i, y0);
		_mm512_storeu_ps(y + i + 16, y1);
	}
	for (; i < n; i += 16) {
		int64_t left = n - i;
		__mmask16 m = left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
		__m512 yv = _mm512_fmadd_ps(va, _mm512_maskz_loadu_ps(m, x + i), _mm512_maskz_loadu_ps(m, y + i));
		_mm512_mask_storeu_ps(y + i, m, yv);
	}
}

void gk_axpy_f64_avx512(int64_t n, double alpha, const double *restrict x, double *restrict y)
{
	const __m512d va = _mm512_set1_pd(alpha);
	int64_t i = 0;
	for (; i + 16 <= n; i += 16) {
		__m512d y0 = _mm512_fmadd_pd(va, _mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i));
		__m512d y1 = _mm512_fmadd_pd(va, _mm512_loadu_pd(x + i + 8), _mm512_loadu_pd(y + i + 8));
		_mm512_storeu_pd(y + i, y0);
		_mm512_storeu_pd(y + i + 8, y1);
	}
	for (; i < n; i += 8) {
		int64_t left = n - i;
		__mmask8 m = left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
		__m512d yv = _mm512_fmadd_pd(va, _mm512_maskz_loadu_pd(m, x + i), _mm512_maskz_loadu_pd(m, y + i));
		_mm512_mask_storeu_pd(y + i, m, yv);
	}
}

float gk_dot_f32_avx512(int64_t n, const float *restrict x, const float *restrict y)
{
	__m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
	int64_t i = 0;
	for (; i + 32 <= n; i += 32) {
		s0 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i), s0);
		s1 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(y + i + 16), s1);
	}
	for (; i < n; i += 16) {
		int64_t left = n - i;
		__mmask16 m = left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
		s0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + i), _mm512_maskz_loadu_ps(m, y + i), s0);
	}
	return _mm512_reduce_add_ps(_mm512_add_ps(s0, s1));
}

double gk_dot_f64_avx512(int64_t n, const double *restrict x, const double *restrict y)
{
	__m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
	int64_t i = 0;
	for (; i + 16 <= n; i += 16) {
		s0 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i), s0);
		s1 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 8), _mm512_loadu_pd(y + i + 8), s1);
	}
	for (; i < n; i += 8) {
		int64_t left = n - i;
		__mmask8 m = left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
		s0 = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, x + i), _mm512_maskz_loadu_pd(m, y + i), s0);
	}
	return _mm512_reduce_add_pd(_mm512_add_pd(s0, s1));
}

/* Four axpys in one pass (kernel_api.h): per vector of y, four rows of x
 * by one FMA chain in their order; full vectors plain, the tail by masks
 * (a body of masked loads throughout measured slower than the AVX2
 * kernel). */
#define AXPY4_AVX512(T, VT, MT, W, SET1, LOAD, MLOAD, STORE, MSTORE, FMA, name)              \
	void name(int64_t n, const T *restrict alpha, const T *restrict x, int64_t ldx,        \
	          T *restrict y)                                                               \
	{                                                                                      \
		GK_AXPY4_BODY(T, VT, W, SET1, LOAD, STORE, FMA)                                \
		if (i < n) {                                                                   \
			const MT m = (MT)((1u << (n - i)) - 1);                                \
			VT v = FMA(a0, MLOAD(m, x + i), MLOAD(m, y + i));                      \
			v = FMA(a1, MLOAD(m, x1 + i), v);                                      \
			v = FMA(a2, MLOAD(m, x2 + i), v);                                      \
			v = FMA(a3, MLOAD(m, x3 + i), v);                                      \
			MSTORE(y + i, m, v);                                                   \
		}                                                                              \
	}
AXPY4_AVX512(float, __m512, __mmask16, 16, _mm512_set1_ps, _mm512_loadu_ps, _mm512_maskz_loadu_ps,
             _mm512_storeu_ps, _mm512_mask_storeu_ps, _mm512_fmadd_ps, gk_axpy4_f32_avx512)
AXPY4_AVX512(double, __m512d, __mmask8, 8, _mm512_set1_pd, _mm512_loadu_pd, _mm512_maskz_loadu_pd,
             _mm512_storeu_pd, _mm512_mask_storeu_pd, _mm512_fmadd_pd, gk_axpy4_f64_avx512)
