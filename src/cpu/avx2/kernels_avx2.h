/* kernels_avx2.h - prototypes of the AVX2+FMA kernels (types: kernel_api.h). */
#ifndef GK_KERNELS_AVX2_H
#define GK_KERNELS_AVX2_H
#include "kernel_api.h"

void gk_axpy_f32_avx2(int64_t n, float alpha, const float *restrict x, float *restrict y);
void gk_axpy_f64_avx2(int64_t n, double alpha, const double *restrict x, double *restrict y);
float gk_dot_f32_avx2(int64_t n, const float *restrict x, const float *restrict y);
double gk_dot_f64_avx2(int64_t n, const double *restrict x, const double *restrict y);

#endif
