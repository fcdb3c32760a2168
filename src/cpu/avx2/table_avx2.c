/* table_avx2.c - the generic table with the AVX2+FMA kernels put in. */
#include "kernel_api.h"
#include "kernels_avx2.h"

static const gk_axpy_f32_fn check_axpy_f32 = gk_axpy_f32_avx2;
static const gk_axpy_f64_fn check_axpy_f64 = gk_axpy_f64_avx2;
static const gk_dot_f32_fn check_dot_f32 = gk_dot_f32_avx2;
static const gk_dot_f64_fn check_dot_f64 = gk_dot_f64_avx2;

void gk_kernels_init_avx2(gk_kernels *t)
{
	gk_kernels_init_generic(t);
	t->name = "avx2";
	t->requires = GK_CPU_AVX | GK_CPU_AVX2 | GK_CPU_FMA;
	t->axpy_f32 = check_axpy_f32;
	t->axpy_f64 = check_axpy_f64;
	t->dot_f32 = check_dot_f32;
	t->dot_f64 = check_dot_f64;
}
