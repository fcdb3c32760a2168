/*
 * level1_generic.c - portable vector kernels (axpy, dot) in plain C.
 * The reference every other ISA is tested against; the compiler vectorises
 * them for the baseline ISA only (no -m flags in this folder).
 */
#include "kernel_api.h"
#include "kernels_generic.h"

void gk_axpy_f32_generic(int64_t n, float alpha, const float *restrict x, float *restrict y)
{
	for (int64_t i = 0; i < n; i++)
		y[i] += alpha * x[i];
}

void gk_axpy_f64_generic(int64_t n, double alpha, const double *restrict x, double *restrict y)
{
	for (int64_t i = 0; i < n; i++)
		y[i] += alpha * x[i];
}

/* axpy4 for one element type: y[i] gets the four products added in order,
 * each a multiply and an add, as four calls of axpy. */
#define AXPY4_GENERIC(T, name)                                                         \
	void name(int64_t n, const T *restrict alpha, const T *restrict x, int64_t ldx,  \
	          T *restrict y)                                                         \
	{                                                                                \
		for (int64_t i = 0; i < n; i++) {                                        \
			T v = y[i];                                                      \
			for (int q = 0; q < 4; q++)                                      \
				v += alpha[q] * x[q * ldx + i];                          \
			y[i] = v;                                                        \
		}                                                                        \
	}
AXPY4_GENERIC(float, gk_axpy4_f32_generic)
AXPY4_GENERIC(double, gk_axpy4_f64_generic)

/* Four partial sums: the same summation tree for every length, and the
 * compiler may keep them in vector lanes. */
float gk_dot_f32_generic(int64_t n, const float *restrict x, const float *restrict y)
{
	float s[4] = {0, 0, 0, 0};
	int64_t i = 0;
	for (; i + 4 <= n; i += 4)
		for (int l = 0; l < 4; l++)
			s[l] += x[i + l] * y[i + l];
	for (; i < n; i++)
		s[0] += x[i] * y[i];
	return (s[0] + s[1]) + (s[2] + s[3]);
}

double gk_dot_f64_generic(int64_t n, const double *restrict x, const double *restrict y)
{
	double s[4] = {0, 0, 0, 0};
	int64_t i = 0;
	for (; i + 4 <= n; i += 4)
		for (int l = 0; l < 4; l++)
			s[l] += x[i + l] * y[i + l];
	for (; i < n; i++)
		s[0] += x[i] * y[i];
	return (s[0] + s[1]) + (s[2] + s[3]);
}
