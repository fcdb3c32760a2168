/*
 * kernel_api.h - the contract between the drivers and the leaf kernels.
 *
 * A leaf kernel (src/cpu/<isa>/) includes only this header. It computes a
 * fixed operation on memory it is handed; it never allocates, never checks
 * arguments beyond assert(), and never starts threads.
 *
 * Kernels are gathered in one table per ISA, built "reference then
 * override": gk_kernels_init_generic fills every slot; the AVX2 init calls it
 * and replaces what AVX2 does better; the AVX-512 init calls the AVX2 one and
 * does the same. Dispatch (src/core/dispatch.c) picks one table once.
 */
#ifndef GK_KERNEL_API_H
#define GK_KERNEL_API_H

#include <stdint.h>

/* CPU features, as bits of gk_cpu_features(). */
#define GK_CPU_SSE2      (1ull << 0)
#define GK_CPU_SSSE3     (1ull << 1)
#define GK_CPU_SSE41     (1ull << 2)
#define GK_CPU_AVX       (1ull << 3)
#define GK_CPU_AVX2      (1ull << 4)
#define GK_CPU_FMA       (1ull << 5)
#define GK_CPU_AVX512F   (1ull << 6)
#define GK_CPU_AVX512DQ  (1ull << 7)
#define GK_CPU_AVX512BW  (1ull << 8)
#define GK_CPU_AVX512VL  (1ull << 9)
#define GK_CPU_GFNI      (1ull << 10)
#define GK_CPU_VPCLMULQDQ (1ull << 11)
#define GK_CPU_AVX512VBMI (1ull << 12)

/* y[0..n) += alpha * x[0..n); x and y unit-stride, need not be aligned. */
typedef void (*gk_axpy_f32_fn)(int64_t n, float alpha, const float *restrict x,
                               float *restrict y);
typedef void (*gk_axpy_f64_fn)(int64_t n, double alpha, const double *restrict x,
                               double *restrict y);
/* sum of x[i] * y[i] for i < n; unit-stride, need not be aligned. */
typedef float (*gk_dot_f32_fn)(int64_t n, const float *restrict x, const float *restrict y);
typedef double (*gk_dot_f64_fn)(int64_t n, const double *restrict x, const double *restrict y);

typedef struct gk_kernels {
	const char *name;   /* "generic", "avx2", "avx512" */
	uint64_t requires;  /* GK_CPU_* bits the CPU (and OS) must have */
	gk_axpy_f32_fn axpy_f32;
	gk_axpy_f64_fn axpy_f64;
	gk_dot_f32_fn dot_f32;
	gk_dot_f64_fn dot_f64;
} gk_kernels;

/* The tables, in src/cpu/<isa>/table_<isa>.c. */
void gk_kernels_init_generic(gk_kernels *t);
void gk_kernels_init_avx2(gk_kernels *t);
void gk_kernels_init_avx512(gk_kernels *t);

/* The table in use (chosen once; GK_ARCH overrides), and one by name (NULL
 * when unknown or not supported by this CPU), for tests and comparisons. */
const gk_kernels *gk_kernels_active(void);
const gk_kernels *gk_kernels_by_name(const char *name);

#endif /* GK_KERNEL_API_H */
